"""The format-neutral board record that the PBN and LIN readers produce and the writers take."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from pathlib import Path

from controller.calls import Call
from controller.cards import Card
from controller.deal import Deal
from controller.seats import Seat, Vulnerability

__all__ = ["BoardRecord", "decode_text", "text_encoding"]


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One table's record of one board, as a file gives it.

    - ``calls``: the auction in order from the dealer (``AP`` expanded to passes); None when
      the record has no auction at all; it may stop before the auction ends.
    - ``play``: the cards in the order they were played (a PBN play section is reordered
      by trick winners); it stops where the record stops (a claim, an abandoned board).
    - ``claim``: declarer's total tricks as the record states them when the play stops
      before the 52nd card (PBN ``[Result]``, LIN ``mc|``); None when not stated.
    - ``marks``: PBN 2.1 irregularity marks on played cards, as (index in ``play``, letter),
      e.g. ``(37, "R")`` for a revoke.
    - ``call_notes``: (index in ``calls``, text) for alerts/explanations/notes; ``alerts``
      the indexes of alerted calls.
    - ``tags``: every tag as read (``#`` copies resolved), in file order; recorded
      Contract/Declarer/Result/Score live here for comparison with the replay.
    - ``error``: why the record cannot be used at all (None if it can); ``warnings``: what
      the reader noticed and tolerated.
    - written by the table's export (PBN 2.1 §3.9, §5): ``call_marks`` (index in ``calls``,
      ``I`` for an accepted insufficient bid, or ``S`` for a seat skipped before that call by
      an accepted call out of rotation), ``trick_leaders`` (who actually led each trick, when
      a lead out of turn was accepted), ``sections`` (supplemental lines such as the
      AuctionTimeTable and PlayTimeTable, written after the play).
    """

    source: str
    number: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    calls: tuple[Call, ...] | None = None
    call_notes: tuple[tuple[int, str], ...] = ()
    alerts: tuple[int, ...] = ()
    play: tuple[Card, ...] = ()
    claim: int | None = None
    marks: tuple[tuple[int, str], ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    room: str | None = None
    players: tuple[str, ...] = ()
    commentary: tuple[str, ...] = ()
    error: str | None = None
    warnings: tuple[str, ...] = field(default=())
    call_marks: tuple[tuple[int, str], ...] = ()
    trick_leaders: tuple[Seat, ...] = ()
    sections: tuple[str, ...] = ()

    def tag(self, name: str) -> str | None:
        """The value of the last tag called ``name`` (case-sensitive, as PBN), or None."""
        for key, value in reversed(self.tags):
            if key == name:
                return value
        return None


def text_encoding(path: Path) -> str:
    """The encoding ``decode_text`` would find for the file at ``path``, found without holding
    the file: ``utf-8-sig`` when it all decodes as UTF-8, else ``cp1252``."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    with path.open("rb") as f:
        try:
            while chunk := f.read(1 << 20):
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return "cp1252"
    return "utf-8-sig"


def decode_text(data: bytes) -> str:
    """Text of a record file: UTF-8 (with or without BOM), else cp1252 (older PBN files)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
