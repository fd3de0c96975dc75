"""Every option of every situation, end to end: offered by the table as the catalogue says, sendable
through the web API with exactly its arguments, and applied by the table.

For each situation and each code it exists in, the scenario logs (``tests/scenarios``, replayed
under every code) are run up to the irregularity; from there, through ``web_ui.app`` over an
in-memory table, each option is posted with its arguments (the table must take it, unless the law
forbids it at that point: ``REFUSED``), with an argument it does not take (422 when the option
never takes it, 409 when it takes it only in another situation or code), and without a required
argument. What no scenario reaches is in ``NOT_REACHED``, with the reason.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller import catalogue
from controller.codes import CODE_NAMES
from controller.errors import RecordError
from controller.irregularities import Irregularity
from controller.records.tablelog import action_of
from controller.table import TableState, step
from controller.views import option_args
from tests.web_ui.conftest import login, make_app
from web_ui.local import LocalTable
from web_ui.models import RulingBody

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.json"))

NOT_REACHED: dict[tuple[str, str], str] = {}
"""(situation, code) no scenario raises under that code, and why."""

REFUSED: dict[tuple[str, str], str] = {}
"""(situation, option) the table refuses at every point a scenario reaches: the law forbids it
there. The value is part of the table's reason."""

NEVER_CHOSEN: dict[tuple[str, str], str] = {
    # 2017 Law 36C: before the opening lead the arbiter can only cancel the call (36A); once the lead
    # is faced the table records the contract as if the call had not been made itself
    ("inadmissible_double", "as_if_not_made"): "2017 Law 36C: applied by the table at the opening lead",
    ("double_oor_inadmissible", "as_if_not_made"): "2017 Law 36C: applied by the table at the opening lead",
}
"""(situation, option) the catalogue names but never offers the arbiter: the table applies it itself."""

SAMPLE: dict[str, Any] = {"suit": "S", "suits": ["S"], "card": "SA", "tricks": 0, "flag": True}


@dataclass(frozen=True)
class Occurrence:
    """An irregularity as a scenario raises it: the state just after, and the scenario's own ruling."""

    scenario: str
    code: str
    state: TableState
    irr: Irregularity
    own_ruling: dict[str, Any] | None


@cache
def occurrences() -> dict[tuple[str, str], tuple[Occurrence, ...]]:
    """Every (situation, code) the scenarios raise, each with the places it is raised (at most 8)."""
    found: dict[tuple[str, str], list[Occurrence]] = defaultdict(list)
    for path in SCENARIOS:
        spec = json.loads(path.read_text(encoding="utf-8"))
        declared = spec.get("codes", ["duplicate"])
        rulings = {line["ruling"]["id"]: line["ruling"] for line in spec["log"]
                   if "ruling" in line and "id" in line["ruling"]}
        for code in (*declared, *(c for c in CODE_NAMES if c not in declared)):
            log = spec["log"] if code in declared or code != "bridge1905" else _as_1905(spec)
            session = {"t": 0, "session": {"code": code, **spec.get("settings", {})}}
            st = step(TableState.new(), action_of(session)).state
            for line in log:
                try:
                    result = step(st, action_of(line))
                except RecordError:
                    break
                st = result.state
                for raised in result.irregularities:
                    irr = st.irregularity(raised.id)
                    key = (raised.situation, code)
                    if irr is not None and irr.status in ("awaiting_ruling", "noted") and len(found[key]) < 8:
                        own = rulings.get(irr.id) if code in declared else None
                        found[key].append(Occurrence(path.stem, code, st, irr, own))
    return {k: tuple(v) for k, v in found.items()}


def _as_1905(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """A scenario's first board as the 1905 game plays it: the auction's declarer deals and names its
    denomination, the adversaries are satisfied (W 45, 57), then the same play; rulings renumbered."""
    st = step(TableState.new(), action_of({"t": 0, "session": {"code": "duplicate"}})).state
    lines: list[dict[str, Any]] = spec["log"]
    for i, line in enumerate(lines):
        if i and "board" in line:
            break
        board = st.board
        if board is not None and board.play is not None and board.contract is not None:
            declarer, skipped = board.contract.declarer, st.irregularity_count
            first = dict(lines[0]["board"], dealer=str(declarer))
            denomination = str(board.contract.denomination)
            t = line.get("t", 0)
            end = next((j for j in range(i, len(lines)) if "board" in lines[j]), len(lines))
            rest = [_renumbered(x, skipped) for x in lines[i:end]]  # the first board's lines only
            return [{"t": 0, "board": first}, {"t": t, "seat": str(declarer), "declare": denomination},
                    {"t": t, "seat": str(declarer.lho), "satisfied": True},
                    {"t": t, "seat": str(declarer.rho), "satisfied": True},
                    *(x for x in rest if x is not None)]
        try:
            st = step(st, action_of(line)).state
        except RecordError:
            break
    return []


def _renumbered(line: dict[str, Any], skipped: int) -> dict[str, Any] | None:
    if "ruling" in line and "id" in line["ruling"]:
        if line["ruling"]["id"] <= skipped:
            return None
        return dict(line, ruling=dict(line["ruling"], id=line["ruling"]["id"] - skipped))
    if "undo_ruling" in line:
        return None if line["undo_ruling"] <= skipped else dict(line, undo_ruling=line["undo_ruling"] - skipped)
    return line


CASES = [(s.name, code) for s in catalogue.situations() for code in CODE_NAMES if s.applies_in(code)]


def test_not_reached_names_exactly_what_no_scenario_raises() -> None:
    unreached = {case for case in CASES if case not in occurrences()}
    assert unreached == set(NOT_REACHED), "add a scenario, or say in NOT_REACHED why none can raise it"


def test_every_situation_the_scenarios_raise_is_in_the_catalogue() -> None:
    names = {s.name for s in catalogue.situations()}
    assert {situation for situation, _ in occurrences()} <= names


def test_the_web_model_has_a_field_of_the_right_type_for_every_argument_of_the_catalogue() -> None:
    fields = set(RulingBody.model_fields) - {"id", "option"}
    assert fields == set(catalogue.arg_names())
    for option, args in catalogue.args_of_option().items():
        for arg in args.values():
            body = RulingBody.model_validate({"option": option, **_required(option), arg.name: SAMPLE[arg.type]})
            assert getattr(body, arg.name) == SAMPLE[arg.type]


def _required(option: str) -> dict[str, Any]:
    args = catalogue.args_of_option()[option]
    return {n: SAMPLE[args[n].type] for n in catalogue.required_everywhere(option)}


class _Table(LocalTable):
    """The in-memory table, put back to a scenario's state before each request."""

    def reset(self, state: TableState) -> None:
        with self._lock:
            self._state = state


@pytest.fixture(scope="module")
def api() -> Iterator[tuple[TestClient, _Table, dict[str, str]]]:
    table = _Table(clock=lambda: 100_000.0)
    app, _ = make_app(table)
    with TestClient(app, base_url="http://testserver") as c:
        headers = {"X-CSRF-Token": login(c), "Origin": "http://testserver"}
        yield c, table, headers


def _valid_args(occ: Occurrence, option: catalogue.Option, *, every: bool) -> dict[str, Any]:
    """Arguments the table should take: the scenario's own, else the first choice the arbiter's page
    offers, else (tricks) declarer's tricks so far; with ``every``, the optional ones too (flags set,
    a card only where the page offers choices or the scenario gave one)."""
    offered = {a["name"]: a for a in option_args(occ.state, occ.irr).get(option.code, [])}
    own = occ.own_ruling if occ.own_ruling is not None and occ.own_ruling.get("option") == option.code else {}
    out: dict[str, Any] = {}
    for arg in option.args_in(occ.code):
        if not arg.required and not every:
            continue
        choices = offered.get(arg.name, {}).get("choices") or []
        if arg.name in own:
            out[arg.name] = own[arg.name]
        elif arg.type == "flag":
            out[arg.name] = True
        elif arg.type == "suits" and choices:
            out[arg.name] = choices[:1]
        elif arg.type in ("suit", "card") and choices:
            out[arg.name] = choices[0]
        elif arg.type == "tricks":
            board = occ.state.board
            play = board.play if board is not None else None
            out[arg.name] = play.won[play.declarer.side] if play is not None else 7
        elif arg.required:
            out[arg.name] = SAMPLE[arg.type]
    return out


def _post(api: tuple[TestClient, _Table, dict[str, str]], occ: Occurrence, body: dict[str, Any]) -> Any:
    c, table, headers = api
    table.reset(occ.state)
    r = c.post("/api/arbiter/rulings", json=body, headers=headers)
    if r.status_code != 200:
        assert table.snapshot().state is occ.state, f"a refused ruling changed the table: {body}"
    return r


@pytest.mark.parametrize(("situation", "code"), CASES, ids=[f"{s}[{c}]" for s, c in CASES])
def test_every_option_is_offered_sendable_and_applied(api: tuple[TestClient, _Table, dict[str, str]],
                                                      situation: str, code: str) -> None:
    sit = catalogue.situation_named(situation)
    found = occurrences().get((situation, code), ())
    if not found:
        pytest.skip(NOT_REACHED[(situation, code)])
    # the table offers exactly the catalogue's options, under one of its kinds, with its law and chooser
    conditions = sorted({c for o in sit.options for c in (o.only_if, o.not_if) if c})
    allowed = {sit.offered(frozenset(chosen), code)
               for n in range(len(conditions) + 1) for chosen in itertools.combinations(conditions, n)}
    for occ in found:
        assert occ.irr.options in allowed, (occ.scenario, occ.irr.options)
        assert occ.irr.kind in sit.kinds
        assert occ.irr.status == ("noted" if sit.noted else "awaiting_ruling")
        if not dict(occ.state.settings).get("club_laws"):
            assert occ.irr.law == sit.law(code), occ.scenario
        assert occ.irr.chooser in _choosers(sit.chooser, occ), (occ.scenario, sit.chooser, occ.irr.chooser)
    offered = {o for occ in found for o in occ.irr.options}
    in_code = {o.code for o in sit.options_in(code)}
    table_applies = {o for s, o in NEVER_CHOSEN if s == situation and o in in_code}
    assert offered | table_applies == in_code or (situation, code) in NOT_REACHED
    for option in sit.options_in(code):
        at = [occ for occ in found if option.code in occ.irr.options]
        if option.code in table_applies:
            assert not at, f"{option.code} is offered the arbiter: {NEVER_CHOSEN[(situation, option.code)]}"
            continue
        taken = {a.name for a in option.args_in(code)}
        applied: Occurrence | None = None
        refusals = []
        for occ in at:
            body = {"id": occ.irr.id, "option": option.code, **_valid_args(occ, option, every=False)}
            r = _post(api, occ, body)
            assert r.status_code in (200, 409), f"{occ.scenario}: {body} -> {r.status_code} {r.text}"
            if r.status_code == 200:
                after = api[1].snapshot().state.irregularity(occ.irr.id)
                assert after is not None and after.status == "ruled", (occ.scenario, body)
                applied = occ
                break
            refusals.append(f"{occ.scenario}: {r.json()['detail']}")
        if applied is None:
            reason = REFUSED.get((situation, option.code))
            assert reason is not None, f"{option.code} was applied nowhere:\n" + "\n".join(refusals)
            assert all(reason in why for why in refusals), refusals
            continue
        # every argument it takes, the optional ones too
        body = {"id": applied.irr.id, "option": option.code, **_valid_args(applied, option, every=True)}
        r = _post(api, applied, body)
        assert r.status_code == 200, f"{applied.scenario}: {body} -> {r.text}"
        # an argument it never takes: 422 from the web model, the table untouched
        never = [n for n in catalogue.arg_names() if n not in catalogue.args_of_option()[option.code]]
        if never:
            extra = {"id": applied.irr.id, "option": option.code, **_valid_args(applied, option, every=False),
                     never[0]: SAMPLE[_type_of(never[0])]}
            r = _post(api, applied, extra)
            assert r.status_code == 422 and never[0] in r.text, r.text
        # an argument it takes elsewhere but not here: refused by the table (409)
        elsewhere = [n for n in catalogue.args_of_option()[option.code] if n not in taken]
        if elsewhere:
            extra = {"id": applied.irr.id, "option": option.code, **_valid_args(applied, option, every=False),
                     elsewhere[0]: SAMPLE[_type_of(elsewhere[0])]}
            r = _post(api, applied, extra)
            assert r.status_code == 409 and f"not '{elsewhere[0]}'" in r.json()["detail"], r.text
        # a required argument missing
        for arg in option.args_in(code):
            if arg.required:
                body = {"id": applied.irr.id, "option": option.code, **_valid_args(applied, option, every=False)}
                del body[arg.name]
                r = _post(api, applied, body)
                expected = 422 if arg.name in catalogue.required_everywhere(option.code) else 409
                assert r.status_code == expected and arg.name in r.text, r.text


def _choosers(role: str, occ: Occurrence) -> set[str]:
    """Who may be the chooser of ``occ`` for the catalogue's ``role`` (docs/irregularities.md)."""
    offender = occ.irr.offender
    board = occ.state.board
    contract = board.contract if board is not None else None
    if role in ("arbiter", "none"):
        return {role}
    assert offender is not None
    if role == "lho":
        return {str(offender.lho)}
    if role == "offender":
        return {str(offender)}
    if role in ("eldest", "dealer", "maker", "last_doubler"):  # 1905: a seat of the declaration
        return {"N", "E", "S", "W"}
    assert contract is not None
    declarer = contract.declarer
    defenders = str(declarer.lho.side)
    return {"declarer": {str(declarer)}, "defenders": {defenders},
            "declarer_or_defenders": {defenders if offender.side is declarer.side else str(declarer)}}[role]


def _scenario_state(name: str, upto: int) -> TableState:
    spec = json.loads((SCENARIOS[0].parent / f"{name}.json").read_text(encoding="utf-8"))
    st = step(TableState.new(), action_of({"t": 0, "session": {"code": spec["codes"][0]}})).state
    for line in spec["log"][:upto]:
        st = step(st, action_of(line)).state
    return st


@pytest.mark.parametrize(("scenario", "ruling"), [
    # Law 25A: LHO withdraws the call he made over the first one (the table read it; the API refused it)
    ("25a_change_of_call_inadvertent_lho_withdraws_his_call",
     {"id": 1, "option": "inadvertent", "lho_withdraws": True}),
    # D 51: declarer forbids the lead of both suits of the penalty cards (likewise)
    ("51_penalty_cards_in_two_suits_prohibition_of_both_suits_duplicate",
     {"id": 3, "option": "forbid_suit", "suit": "H", "suits": ["D"]}),
])
def test_arguments_the_table_reads_are_offered_by_the_page_and_sendable(
        api: tuple[TestClient, _Table, dict[str, str]], scenario: str, ruling: dict[str, Any]) -> None:
    spec = json.loads((SCENARIOS[0].parent / f"{scenario}.json").read_text(encoding="utf-8"))
    index = next(i for i, line in enumerate(spec["log"]) if line.get("ruling") == ruling)
    state = _scenario_state(scenario, index)
    irr = state.irregularity(ruling["id"])
    assert irr is not None
    offered = {a["name"] for a in option_args(state, irr)[ruling["option"]]}
    assert set(ruling) - {"id", "option"} <= offered
    r = _post(api, Occurrence(scenario, spec["codes"][0], state, irr, None), ruling)
    assert r.status_code == 200, r.text


def test_the_api_says_what_an_option_takes(api: tuple[TestClient, _Table, dict[str, str]]) -> None:
    c, _, headers = api
    r = c.post("/api/arbiter/rulings", json={"id": 1, "option": "forbid_suit"}, headers=headers)
    assert r.status_code == 422 and "option 'forbid_suit' needs 'suit'" in r.text
    r = c.post("/api/arbiter/rulings", json={"id": 1, "option": "accept_see_dummy", "suit": "S"}, headers=headers)
    assert r.status_code == 422 and "option 'accept_see_dummy' takes no arguments, not 'suit'" in r.text
    r = c.post("/api/arbiter/rulings", json={"id": 1, "option": "shrug"}, headers=headers)
    assert r.status_code == 422 and "unknown option 'shrug'" in r.text


def _type_of(name: str) -> str:
    for args in catalogue.args_of_option().values():
        if name in args:
            return args[name].type
    raise KeyError(name)
