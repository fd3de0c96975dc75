"""The catalogue of situations (docs/situations.md) the table can see: one entry each, read by all.

Each ``Situation`` gives its kind (docs/irregularities.md), its law in every code (read from the
code modules, ``controller.codes``: the references live there once), who offends, who
chooses (a role the table turns into a seat), and its options: each ``Option`` with the
arguments a ruling on it takes (``Arg``: name, type, required, label, the choices the
arbiter is offered) and a plain sentence of what it does, with placeholders for the seats
and cards of one irregularity (``render``).

Detection (``table._common._raise``: kind, options, chooser), the check of a ruling's
arguments (``ruling_problem``, at the table and in ``web_ui.models.RulingBody``), the
arbiter's prompt (``controller.views``), the console's words (``plain_kind``) and the
generated page ``docs/situations.md`` (``python -m controller.catalogue --markdown``) all
read this one source.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from controller.calls import Call, CallKind
from controller.cards import Card, Rank, Suit
from controller.codes import CODE_NAMES, code_named
from controller.errors import BridgeTableError

__all__ = [
    "ARG_TYPES",
    "CHOOSERS",
    "PLACEHOLDERS",
    "Arg",
    "Kind",
    "Option",
    "Situation",
    "UnknownSituationError",
    "arg_names",
    "args_of_option",
    "call_words",
    "card_words",
    "kind_named",
    "kinds",
    "law_words",
    "option_codes",
    "render",
    "required_everywhere",
    "ruling_problem",
    "situation_named",
    "situations",
]

ARG_TYPES: dict[str, str] = {
    "suit": 'one suit: "S", "H", "D" or "C"',
    "suits": 'a list of suits, e.g. ["H", "D"]',
    "card": 'a card, e.g. "SK"',
    "tricks": "a number of tricks, 0-13",
    "flag": "true or false",
}
"""The types of a ruling's arguments and how each is written in a ruling."""

CHOOSERS: dict[str, str] = {
    "lho": "the offender's left-hand opponent",
    "declarer": "declarer",
    "defenders": "either defender (the first to speak)",
    "declarer_or_defenders": "declarer if a defender led, either defender if declarer led",
    "offender": "the offender (which card he meant)",
    "arbiter": "the arbiter",
    "none": "nobody: it is recorded",
    "eldest": "the eldest hand",
    "dealer": "the dealer",
    "maker": "the maker of the trump",
    "last_doubler": "the adversary who last doubled",
}
"""Who chooses among the options (docs/irregularities.md, "chooser"), by role."""

PLACEHOLDERS: dict[str, str] = {
    "offender": "the offender",
    "partner": "the offender's partner",
    "lho": "the offender's left-hand opponent",
    "rho": "the offender's right-hand opponent",
    "declarer": "declarer",
    "dummy": "dummy",
    "defenders": "the defenders",
    "chooser": "the player who chooses",
    "card": "the card",
    "call": "the call",
}
"""The facts a sentence may name, with the words used when one irregularity does not fill them."""

_UNKNOWN_ARG: dict[str, str] = {
    "suit": "the suit named",
    "suits": "any other suits named",
    "card": "the card named",
    "tricks": "the number of tricks given",
    "flag": "",
}


class UnknownSituationError(BridgeTableError, LookupError):
    """A situation or kind that is not in the catalogue (a programmer's error)."""


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of a ruling: ``name`` in the ruling object, its ``type`` (``ARG_TYPES``),
    whether it is ``required``, the ``label`` of its input, ``choices`` (a key the arbiter's
    view turns into the values offered here, empty: every value of the type) and the
    ``codes`` it exists in (empty: every code); ``unknown``: the sentence's words for it before
    the ruling, ``absent``: after a ruling without it (an optional argument)."""

    name: str
    type: str
    required: bool = True
    label: str = ""
    choices: str = ""
    codes: tuple[str, ...] = ()
    unknown: str = ""
    absent: str = ""

    def __post_init__(self) -> None:
        if self.type not in ARG_TYPES:
            raise ValueError(f"argument {self.name!r}: unknown type {self.type!r}")
        if not set(self.codes) <= set(CODE_NAMES):
            raise ValueError(f"argument {self.name!r}: unknown codes {self.codes!r}")

    def in_code(self, code: str) -> bool:
        return not self.codes or code in self.codes

    @property
    def unknown_words(self) -> str:
        """What the sentence says for this argument before the ruling gives it."""
        return self.unknown or _UNKNOWN_ARG[self.type]

    def problem(self, value: object) -> str | None:
        """Why ``value`` is not a value of this argument, or None."""
        if self.type == "suit":
            return None if isinstance(value, str) and value in ("S", "H", "D", "C") else \
                f"'{self.name}' must be {ARG_TYPES['suit']}, not {value!r}"
        if self.type == "suits":
            if isinstance(value, list | tuple) and value and all(
                    isinstance(v, str) and v in ("S", "H", "D", "C") for v in value):
                return None
            return f"'{self.name}' must be {ARG_TYPES['suits']}, not {value!r}"
        if self.type == "card":
            try:
                Card.parse(value) if isinstance(value, str) else Card.parse("")
            except ValueError:
                return f"'{self.name}' must be {ARG_TYPES['card']}, not {value!r}"
            return None
        if self.type == "tricks":
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 13
            return None if ok else f"'{self.name}' must be {ARG_TYPES['tricks']}, not {value!r}"
        return None if isinstance(value, bool) else f"'{self.name}' must be true or false, not {value!r}"


@dataclass(frozen=True, slots=True)
class Option:
    """One option code of a situation: its arguments and the plain sentence of what it does.

    ``sentence`` names who chooses and what happens next, with ``{placeholders}``
    (``PLACEHOLDERS`` and the option's argument names); ``by_code`` replaces it where a code
    rectifies differently; ``only_if`` names a condition the table must report for the
    option to be offered (``named_suit``: the withdrawn call named a suit, Law 26A); ``not_if``
    one that withdraws it (``dummy_seen``: declarer could have seen dummy's cards, Law 54);
    ``codes``: the codes that have the option (empty: every code of the situation).
    """

    code: str
    sentence: str
    args: tuple[Arg, ...] = ()
    by_code: tuple[tuple[str, str], ...] = ()
    only_if: str = ""
    codes: tuple[str, ...] = ()
    not_if: str = ""

    def __post_init__(self) -> None:
        if not set(self.codes) <= set(CODE_NAMES):
            raise ValueError(f"option {self.code!r}: unknown codes {self.codes!r}")
        names = {a.name for a in self.args}
        for text in (self.sentence, *(s for _, s in self.by_code)):
            for _, field, _, _ in string.Formatter().parse(text):
                if field is not None and field not in PLACEHOLDERS and field not in names:
                    raise ValueError(f"option {self.code!r}: unknown placeholder {{{field}}} in {text!r}")

    def in_code(self, code: str | None) -> bool:
        """Whether ``code`` has this option (None: any code)."""
        return code is None or not self.codes or code in self.codes

    def sentence_for(self, code: str | None = None) -> str:
        """The sentence template in ``code`` (the general one when the code has none of its own)."""
        return dict(self.by_code).get(code or "", self.sentence)

    def args_in(self, code: str | None) -> tuple[Arg, ...]:
        """The arguments this option takes in ``code`` (all of them for None)."""
        return self.args if code is None else tuple(a for a in self.args if a.in_code(code))

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)


@dataclass(frozen=True, slots=True)
class Kind:
    """An irregularity kind of docs/irregularities.md: its plain title and the option codes Part 1 lists."""

    name: str
    title: str
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Situation:
    """One catalogue row the table can see (docs/situations.md).

    ``kinds[0]`` is the kind it is reported under; a situation reported under the kind of
    another irregularity (a Law 26 lead option takes the kind of the call withdrawn) lists
    those too. ``laws`` is the reference per code (``controller.codes``; empty where the
    code has no such situation). ``chooser`` is a role of ``CHOOSERS``. ``noted``: the
    table records it without waiting for a ruling.
    """

    name: str
    kinds: tuple[str, ...]
    title: str
    offender: str
    chooser: str
    options: tuple[Option, ...]
    laws: tuple[tuple[str, str], ...]
    noted: bool = False
    note: str = ""

    @property
    def kind(self) -> str:
        return self.kinds[0]

    @property
    def option_codes(self) -> tuple[str, ...]:
        return tuple(o.code for o in self.options)

    @property
    def chooser_words(self) -> str:
        return CHOOSERS[self.chooser]

    def law(self, code: str) -> str:
        """The reference in ``code`` (``""``: the code has no such situation)."""
        return dict(self.laws).get(code, "")

    def applies_in(self, code: str) -> bool:
        return bool(self.law(code))

    def option(self, code: str) -> Option | None:
        return next((o for o in self.options if o.code == code), None)

    def options_in(self, code: str | None) -> tuple[Option, ...]:
        """The options ``code`` has here (all of them for None)."""
        return tuple(o for o in self.options if o.in_code(code))

    def offered(self, conditions: frozenset[str] = frozenset(), code: str | None = None) -> tuple[str, ...]:
        """The option codes the table offers in ``code``, given the ``conditions`` it found true."""
        return tuple(o.code for o in self.options_in(code)
                     if (not o.only_if or o.only_if in conditions) and o.not_if not in conditions)


# --- the text of cards, calls and laws ------------------------------------------------------------

def card_words(card: Card | str) -> str:
    """A card for a sentence: ``"HT"`` -> ``"♥10"``."""
    c = Card.parse(card) if isinstance(card, str) else card
    rank = "10" if c.rank is Rank.TEN else str(c.rank)
    return c.suit.symbol + rank


def call_words(call: Call | str) -> str:
    """A call for a sentence: ``"1H"`` -> ``"1♥"``, ``"X"`` -> ``"double"``, ``"Pass"`` -> ``"pass"``."""
    c = Call.parse(call) if isinstance(call, str) else call
    if c.kind is CallKind.PASS:
        return "pass"
    if c.kind is CallKind.DOUBLE:
        return "double"
    if c.kind is CallKind.REDOUBLE:
        return "redouble"
    text = str(c)
    return re.sub(r"[SHDC]$", lambda m: Suit.parse(m.group(0)).symbol, text)


def law_words(law: str) -> str:
    """``"54"`` -> ``"Law 54"``; ``"53, 55, 56"`` or ``"61-64"`` -> ``"Laws ..."``; ``""`` -> ``""``."""
    if not law:
        return ""
    return ("Laws " if ("," in law or "-" in law) else "Law ") + law


class _Facts(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return PLACEHOLDERS.get(key, key)


def render(option: Option, facts: Mapping[str, str] | None = None, law: str = "",
           args: Mapping[str, object] | None = None, code: str | None = None,
           choices: Mapping[str, list[str]] | None = None) -> str:
    """The option's sentence for one irregularity: its ``facts`` (seat names, the card and
    call in suit symbols), the ruling's ``args`` once given (else the single choice offered,
    else words for the unknown), and the ``law`` in force at the end.

    With no facts the sentence speaks of roles ("declarer", "the offender"): the
    catalogue's own words (``docs/situations.md``).
    """
    values = _Facts(facts or {})
    flags = []
    for arg in option.args:
        given = (args or {}).get(arg.name)
        offered = (choices or {}).get(arg.name) or []
        if arg.type == "flag":
            if given is True:
                flags.append(arg.label)
        elif given is not None:
            values[arg.name] = _arg_words(arg, given)
        elif arg.type in ("suit", "card") and len(offered) == 1:
            values[arg.name] = _arg_words(arg, offered[0])
        elif args is not None and arg.absent:
            values[arg.name] = arg.absent
        else:
            values[arg.name] = arg.unknown_words
    text = option.sentence_for(code).format_map(values)
    text = text[:1].upper() + text[1:] + "".join(f"; {flag}" for flag in flags)
    where = law_words(law)
    return f"{text} ({where})." if where else f"{text}."


def _arg_words(arg: Arg, value: object) -> str:
    if arg.type == "suit" and isinstance(value, str):
        return Suit.parse(value).symbol
    if arg.type == "suits" and isinstance(value, list | tuple):
        return " and ".join(Suit.parse(str(v)).symbol for v in value)
    if arg.type == "card" and isinstance(value, str):
        return card_words(value)
    if arg.type == "tricks":
        return f"{value} trick" + ("" if value == 1 else "s")
    return str(value)


# --- looking things up -----------------------------------------------------------------------------

def _laws(name: str, kind: str, codes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The reference per code as the table finds it (the situation's own, else its kind's);
    empty in a code outside ``codes`` (when given): the table never raises it there."""
    out = []
    for code_name in CODE_NAMES:
        code = code_named(code_name)
        law = code.law(name) or code.law(kind) if not codes or code_name in codes else ""
        out.append((code_name, law))
    return tuple(out)


@cache
def _index() -> tuple[dict[str, Situation], dict[str, Kind]]:
    from controller.catalogue.rows import KINDS, SITUATIONS

    kinds_by_name = {k.name: k for k in KINDS}
    built: dict[str, Situation] = {}
    for row in SITUATIONS:
        if row.name in built:
            raise ValueError(f"situation {row.name!r} is in the catalogue twice")
        for kind in row.kinds:
            if kind not in kinds_by_name:
                raise ValueError(f"situation {row.name!r}: unknown kind {kind!r}")
        if row.chooser not in CHOOSERS:
            raise ValueError(f"situation {row.name!r}: unknown chooser {row.chooser!r}")
        title = row.title or kinds_by_name[row.kind].title
        built[row.name] = Situation(row.name, row.kinds, title, row.offender, row.chooser, row.options,
                                    _laws(row.name, row.kind, row.codes), row.noted, row.note)
    return built, kinds_by_name


def situations() -> tuple[Situation, ...]:
    """Every situation the table can see, in the catalogue's order (auction, lead, play, 1905)."""
    return tuple(_index()[0].values())


def kinds() -> tuple[Kind, ...]:
    """Every irregularity kind of docs/irregularities.md (and the 1905 declaration's)."""
    return tuple(_index()[1].values())


def situation_named(name: str) -> Situation:
    """The situation called ``name``; UnknownSituationError if the catalogue has none."""
    found = _index()[0].get(name)
    if found is None:
        raise UnknownSituationError(f"situation {name!r} is not in the catalogue (controller/catalogue)")
    return found


def kind_named(name: str) -> Kind | None:
    return _index()[1].get(name)


@cache
def args_of_option() -> dict[str, dict[str, Arg]]:
    """For each option code, every argument it takes in some situation and code."""
    out: dict[str, dict[str, Arg]] = {}
    for sit in situations():
        for option in sit.options:
            names = out.setdefault(option.code, {})
            for arg in option.args:
                names.setdefault(arg.name, arg)
    return out


def option_codes() -> tuple[str, ...]:
    """Every option code some situation offers."""
    return tuple(args_of_option())


def arg_names() -> tuple[str, ...]:
    """Every argument name a ruling may carry."""
    return tuple(dict.fromkeys(n for args in args_of_option().values() for n in args))


@cache
def required_everywhere(option: str) -> tuple[str, ...]:
    """The arguments ``option`` needs in every situation and code that offers it."""
    needed: set[str] | None = None
    for sit in situations():
        opt = sit.option(option)
        if opt is None:
            continue
        for code in CODE_NAMES:
            if not sit.applies_in(code) or not opt.in_code(code):
                continue
            here = {a.name for a in opt.args_in(code) if a.required}
            needed = here if needed is None else needed & here
    return tuple(sorted(needed or ()))


def ruling_problem(situation: str, option: str, args: Mapping[str, object], code: str | None = None) -> str | None:
    """Why a ruling of ``option`` with ``args`` does not fit ``situation`` in ``code``, or None.

    An argument the option does not take there, a required one missing, or a value of the
    wrong type. Whether the option is offered now is the table's question.
    """
    sit = situation_named(situation)
    opt = sit.option(option)
    if opt is not None and not opt.in_code(code):
        return f"option {option!r} does not exist in {code} ({situation})"
    if opt is None:
        return (f"option {option!r} is not one of {situation}'s "
                f"({', '.join(sit.option_codes) or 'none'})")
    taken = {a.name: a for a in opt.args_in(code)}
    extra = [n for n in args if n not in taken]
    if extra:
        takes = ", ".join(taken) or "no arguments"
        where = f" in {code}" if code else ""
        return (f"option {option!r} takes {takes} here ({situation}{where}), "
                f"not {', '.join(repr(n) for n in extra)}")
    for arg in taken.values():
        if arg.name not in args:
            if arg.required:
                return f"option {option!r} needs '{arg.name}' ({ARG_TYPES[arg.type]})"
            continue
        problem = arg.problem(args[arg.name])
        if problem is not None:
            return problem
    return None
