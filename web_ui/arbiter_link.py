"""The Director's way into a table's arbiter page that no PIN guesser can block: a signed link.

The Director's console holds the room's master key (``load_key``: a file made by ``tablectl
room init``, or with ``openssl rand -hex 32``, or ``$BRIDGE_ARBITER_LINK_KEY``); each table holds
only its own key, derived from the master and its table id (``table_key``: HMAC-SHA256), so a
table's key, read off its Pi, signs links to that table alone. From the console, the Director
opens ``/tables/<id>/arbiter``; the console answers with a redirect to the table's
``/arbiter/enter?table=<id>&exp=<time>&nonce=<random>&sig=<HMAC-SHA256>``, signed with that
table's key. The table opens an arbiter session for the browser that follows it when the
signature is its key's over its own table id, the link has not expired (``TTL`` seconds, by the
wall clock: the console's and the tables' clocks must agree within about a minute) and its
nonce was never used: a link opens
one session, once. No PIN is involved, so no lock-out applies.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

__all__ = ["ENV", "LINK_PATH", "TTL", "LinkChecker", "load_key", "signed_link", "table_key"]

LINK_PATH = "/arbiter/enter"
TTL = 60.0
"""Seconds a link is valid after the console made it."""
ENV = "BRIDGE_ARBITER_LINK_KEY"
_MIN_KEY = 16


def load_key(path: Path | str | None = None, env: str | None = None) -> bytes | None:
    """The shared key: the first line of the file ``path``, else ``env`` (default ``$BRIDGE_ARBITER_LINK_KEY``).

    ``ValueError`` when the file cannot be read or the key is shorter than 16 characters; None when neither is set.
    """
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8").strip().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the arbiter link key file {path}: {exc}") from None
        value = text[0].strip() if text else ""
        where = f"the arbiter link key file {path}"
    else:
        value = (os.environ.get(ENV, "") if env is None else env).strip()
        where = f"${ENV}"
        if not value:
            return None
    if len(value) < _MIN_KEY:
        raise ValueError(f"{where}: the key is too short (make one with: openssl rand -hex 32)")
    return value.encode("utf-8")


def table_key(master: bytes, table: str) -> bytes:
    """Table ``table``'s own key, derived from the room's master key (hex text, what its key file holds):
    HMAC-SHA256 of the master over the table id, so no table's key gives another's or the master."""
    return hmac.new(master, f"bridgetable table link key v1\n{table}".encode(), hashlib.sha256).hexdigest().encode()


def _signature(key: bytes, table: str, exp: int, nonce: str) -> str:
    message = f"bridgetable arbiter link v1\n{table}\n{exp}\n{nonce}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def signed_link(master: bytes, table: str, base_url: str, now: float) -> str:
    """The link that opens ``table``'s arbiter page at ``base_url`` (``http(s)://host:port``) until
    ``now + TTL``, signed with the table's key derived from the room's ``master`` key."""
    exp = int(now + TTL)
    nonce = secrets.token_urlsafe(16)
    sig = _signature(table_key(master, table), table, exp, nonce)
    query = urlencode({"table": table, "exp": exp, "nonce": nonce, "sig": sig})
    return f"{base_url.rstrip('/')}{LINK_PATH}?{query}"


@dataclass(slots=True)
class LinkChecker:
    """A table's check of links: its own key (``table_key``), its table id and the wall clock (epoch seconds)."""

    key: bytes
    table: str
    wall: Callable[[], float]
    limit: int = 10_000
    _used: dict[str, float] = field(default_factory=dict)

    def refusal(self, table: str, exp: str, nonce: str, sig: str) -> str | None:
        """Why the link is refused, or None when it opens a session (its nonce is then spent)."""
        if not (exp.isdigit() and 0 < len(nonce) <= 64 and len(sig) == 64):
            return "this is not an arbiter link"
        expires = int(exp)
        if not hmac.compare_digest(_signature(self.key, table, expires, nonce), sig):
            return "this link was not made by the Director's console of this table"
        if table != self.table:
            return f"this link is for table {table}, not {self.table}"
        now = self.wall()
        if expires < now:
            return "this link has expired: open the table again from the console"
        if expires > now + 2 * TTL:
            return "this link is not valid yet: the console's clock and this table's disagree"
        for spent, until in list(self._used.items()):
            if until < now:
                del self._used[spent]
        if nonce in self._used:
            return "this link has been used already: open the table again from the console"
        if len(self._used) >= self.limit:
            return "too many links: try again in a minute"
        self._used[nonce] = float(expires)
        return None
