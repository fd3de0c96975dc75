"""Request bodies of the HTTP contract (pydantic at the edge only; the table log is the domain form)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from controller import catalogue

__all__ = ["ACTION_KEYS", "ActionBody", "AdjustBody", "BoardBody", "LoginBody", "LoginResult", "RulingBody",
           "SubmitResult"]

CARD = r"^[SHDC][AKQJT98765432]$"
CALL = r"^(Pass|X|XX|[1-7](C|D|H|S|NT))$"
SeatText = Literal["N", "E", "S", "W"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LoginBody(_Strict):
    """The arbiter's PIN."""

    pin: str = Field(min_length=1, max_length=64, description="the arbiter's PIN")


class LoginResult(BaseModel):
    """A session was opened: its cookie is set; send ``csrf`` as ``X-CSRF-Token`` with every change."""

    csrf: str
    expires_in: float


SuitText = Literal["S", "H", "D", "C"]


class RulingBody(_Strict):
    """The arbiter's decision on an irregularity, as the table log's ``ruling`` (docs/irregularities.md).

    ``id`` names the irregularity (none: the latest one awaiting a ruling); ``option`` is one
    of its option codes; the option's arguments go beside it, e.g. ``{"id": 2, "option":
    "forbid_suit", "suit": "S"}``. The arguments are those ``controller.catalogue`` gives the
    option (an unknown option, an argument it never takes or a missing one it always needs
    is a 422); the table then checks them against the irregularity's own situation and code.
    """

    id: int | None = Field(default=None, ge=1, le=1_000_000)
    option: str = Field(min_length=1, max_length=40, pattern=r"^[a-z_0-9]+$")
    suit: SuitText | None = Field(default=None, description="require_suit, forbid_suit")
    suits: list[SuitText] | None = Field(default=None, min_length=1, max_length=4,
                                         description="forbid_suit: more penalty-card suits forbidden (D 51)")
    card: str | None = Field(default=None, pattern=CARD, description="play (Law 58B), correct (a revoke)")
    tricks: int | None = Field(default=None, ge=0, le=13, description="award, adjust")
    same_meaning: bool | None = Field(default=None, description="correct an insufficient bid (27B1b)")
    artificial: bool | None = Field(default=None, description="correct an insufficient bid (27B1a); cancel a "
                                                               "pass out of rotation (D 30C)")
    accepted: bool | None = Field(default=None, description="purposeful change of call (D 25B)")
    keep: bool | None = Field(default=None, description="purposeful change of call (R 25B)")
    lho_withdraws: bool | None = Field(default=None, description="inadvertent change of call (25A)")

    @model_validator(mode="after")
    def _args_of_the_option(self) -> RulingBody:
        takes = catalogue.args_of_option().get(self.option)
        if takes is None:
            raise ValueError(f"unknown option {self.option!r}: options are "
                             f"{', '.join(sorted(catalogue.option_codes()))}")
        given = [name for name in catalogue.arg_names() if getattr(self, name, None) is not None]
        extra = [name for name in given if name not in takes]
        if extra:
            raise ValueError(f"option {self.option!r} takes {', '.join(takes) or 'no arguments'}, "
                             f"not {', '.join(repr(n) for n in extra)}")
        missing = [name for name in catalogue.required_everywhere(self.option) if name not in given]
        if missing:
            raise ValueError(f"option {self.option!r} needs {', '.join(repr(n) for n in missing)}")
        return self


class BoardBody(_Strict):
    """A board start: number, dealer, vulnerability and the deal in PBN notation, each optional."""

    number: int | None = Field(default=None, ge=1, le=9999)
    dealer: SeatText | None = None
    vul: Literal["None", "NS", "EW", "Both", "All"] | None = None
    deal: str | None = Field(default=None, max_length=80, pattern=r"^[NESW]:[AKQJT98765432.\- ]+$")


class AdjustBody(_Strict):
    """Declarer's tricks assigned by the arbiter (Laws 12, 64C, 69-71)."""

    tricks: int = Field(ge=0, le=13)


ACTION_KEYS = ("board", "call", "play", "designate", "expose", "face", "pickup", "claim", "concede", "agree",
               "stop", "alert", "director", "declare", "double", "satisfied", "ruling", "adjust", "undo_ruling")
_NO_SEAT = ("board", "ruling", "adjust", "undo_ruling")


class ActionBody(_Strict):
    """One table-log action (docs/table-log.md), for manual entries and corrections.

    Exactly one action key: e.g. ``{"seat": "S", "play": "SK"}``, ``{"seat": "W", "play": "SK",
    "deemed": true}``, ``{"seat": "N", "designate": "S7"}``, ``{"seat": "E", "expose": "HK"}``,
    ``{"ruling": {"id": 2, "option": "forbid_suit", "suit": "S"}}``, ``{"adjust": {"tricks": 9}}``,
    ``{"undo_ruling": 3}``, ``{"board": {"number": 7, "deal": "N:..."}}``. ``t`` is ignored: the
    table stamps the action with its own clock.
    """

    t: float | None = Field(default=None, description="ignored: the table's clock stamps the action")
    seat: SeatText | None = None
    board: BoardBody | None = None
    call: str | None = Field(default=None, pattern=CALL)
    play: str | None = Field(default=None, pattern=CARD)
    deemed: bool | None = None
    designate: str | None = Field(default=None, pattern=CARD)
    expose: str | None = Field(default=None, pattern=CARD)
    deliberate: bool | None = None
    face: list[Annotated[str, Field(pattern=CARD)]] | None = Field(default=None, min_length=1, max_length=13)
    pickup: str | None = Field(default=None, pattern=CARD)
    claim: int | None = Field(default=None, ge=0, le=13)
    statement: str | None = Field(default=None, max_length=500)
    concede: int | None = Field(default=None, ge=0, le=13)
    agree: bool | None = None
    stop: Literal[True] | None = None
    alert: Literal[True] | None = None
    director: Literal[True] | None = None
    declare: Literal["S", "H", "D", "C", "NT", "pass"] | None = None
    double: Literal[True] | None = None
    satisfied: Literal[True] | None = None
    ruling: RulingBody | None = None
    adjust: AdjustBody | None = None
    undo_ruling: int | None = Field(default=None, ge=1, le=1_000_000)

    @model_validator(mode="after")
    def _one_action(self) -> ActionBody:
        present = [k for k in ACTION_KEYS if getattr(self, k) is not None]
        if len(present) != 1:
            raise ValueError(f"exactly one action expected, found {', '.join(present) or 'none'} "
                             f"(one of {', '.join(ACTION_KEYS)})")
        key = present[0]
        if key not in _NO_SEAT and self.seat is None:
            raise ValueError(f"'{key}' needs a 'seat' (N, E, S or W)")
        if key in _NO_SEAT and self.seat is not None:
            raise ValueError(f"'{key}' takes no 'seat'")
        extras = {"deemed": "play", "deliberate": "expose", "statement": "claim"}
        for extra, owner in extras.items():
            if getattr(self, extra) is not None and key != owner:
                raise ValueError(f"'{extra}' goes only with '{owner}'")
        return self

    def log_object(self) -> dict[str, Any]:
        """The table-log object (``controller.records.tablelog.action_of`` reads it)."""
        return self.model_dump(mode="json", exclude_none=True, exclude={"t"})


class SubmitResult(BaseModel):
    """What the table did with an accepted action: the new ``seq``, its events and any irregularities."""

    seq: int
    events: list[dict[str, Any]]
    irregularities: list[dict[str, Any]]
