"""The Laws from data: each file in ``tests/scenarios/`` is a table log and its expected outcome.

A scenario names the catalogue row (docs/situations.md), the law of each code and the book
and law it comes from (``source``), the codes it runs under, the table log (without the session line,
which the runner writes for each code with the scenario's settings) and what the
``tablectl replay --json`` report must contain. ``expect`` holds for every code;
``expect_by_code`` adds what differs between the codes. The 2017 code keeps the 2008 code's
boards and scores (``controller.codes.duplicate2017``), so a ``duplicate2017`` expectation
starts from ``duplicate``'s and its own block holds only what the 2017 Laws change (the law
cited and the options offered come from the catalogue, ``controller.catalogue``). Matching is
by subset: every key given must be there with that value; lists must have the same length,
item by item. ``xfail_by_code`` names a code whose result is known wrong today, with the issue
and the law it misjudges.

Every scenario of the 2008 code also runs under the 2017 code, unless ``not_under`` names,
for ``duplicate2017``, the rule of the code (``controller.codes.rules``) or the catalogue
situation whose law differs there and makes the log itself a 2008 one (a judgement the 2017
Director gives that the log does not hold).

Every scenario runs twice: through the Python API (``replay_log``) and through the
command line (``tablectl replay FILE --json``, in process).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from controller.codes import code_named
from controller.records import tablelog
from controller.replay import replay_log
from tablectl.cli import main
from tablectl.replaycmd import scenario_text

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


BASE_CODE = {"duplicate2017": "duplicate"}
"""A code whose expectation starts from another's: the 2017 code scores and deals as the 2008 one."""


def _xfail(spec: dict[str, Any], code: str, key: str = "xfail_by_code") -> str | None:
    """Why the scenario is known to fail under ``code`` (the whole scenario, or ``key``'s entry for ``code``)."""
    reason = (spec.get("xfail") if key == "xfail_by_code" else None) or spec.get(key, {}).get(code)
    return str(reason) if reason else None


def _cases(xfail_key: str = "xfail_by_code") -> list[Any]:
    cases = []
    for path in SCENARIOS:
        spec = json.loads(path.read_text(encoding="utf-8"))
        for code in spec.get("codes", ["duplicate"]):
            reason = _xfail(spec, code, xfail_key)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            cases.append(pytest.param(path, code, id=f"{path.stem}[{code}]", marks=marks))
    return cases


def _matches(expected: Any, actual: Any, where: str = "report") -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{where}.{key}: missing (have {sorted(actual)})")
            else:
                out.extend(_matches(value, actual[key], f"{where}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {len(expected)} items, got {actual!r}"]
        return [m for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for m in _matches(e, a, f"{where}[{i}]")]
    return [] if expected == actual else [f"{where}: expected {expected!r}, got {actual!r}"]


def _expected(spec: dict[str, Any], code: str) -> dict[str, Any]:
    expected = dict(spec.get("expect", {}))
    for each in (BASE_CODE.get(code), code):
        extra = spec.get("expect_by_code", {}).get(each) if each else None
        if extra:
            expected = _merge(expected, extra)
    return expected


def _merge(base: Any, extra: Any) -> Any:
    if isinstance(base, dict) and isinstance(extra, dict):
        return {k: _merge(base[k], v) if k in base else v for k, v in extra.items()} | {
            k: v for k, v in base.items() if k not in extra}
    if isinstance(base, list) and isinstance(extra, list) and len(base) == len(extra):
        return [_merge(b, e) for b, e in zip(base, extra, strict=True)]
    return extra


def test_every_scenario_cites_its_law_and_its_book() -> None:
    assert len(SCENARIOS) >= 1
    for path in SCENARIOS:
        spec = json.loads(path.read_text(encoding="utf-8"))
        assert spec.get("row"), f"{path.name}: no catalogue row"
        assert spec.get("laws"), f"{path.name}: no law cited"
        assert spec.get("source"), f"{path.name}: no source cited (book and law: 'Duplicate Decisions (Law 27)')"
        assert spec.get("expect") or spec.get("expect_by_code"), f"{path.name}: nothing expected"


def test_every_2008_scenario_runs_under_the_2017_code_or_names_the_rule_that_differs() -> None:
    """The tables play the 2017 code by default: a 2008 scenario runs under it too, unless the rule of the
    code its log depends on differs between the two codes (``controller.codes.rules``)."""
    rules_2008, rules_2017 = code_named("duplicate").rules, code_named("duplicate2017").rules
    for path in SCENARIOS:
        spec = json.loads(path.read_text(encoding="utf-8"))
        codes = spec.get("codes", ["duplicate"])
        why_not = spec.get("not_under", {}).get("duplicate2017")
        if "duplicate" not in codes:
            continue
        if "duplicate2017" in codes:
            assert why_not is None, f"{path.name}: runs under duplicate2017 and says it does not"
            continue
        assert why_not is not None, f"{path.name}: a 2008 scenario that does not run under duplicate2017"
        rule = why_not["rule"]
        assert getattr(rules_2008, rule) != getattr(rules_2017, rule), (
            f"{path.name}: rule {rule!r} is the same in both codes, so the scenario must run under duplicate2017")
        assert why_not.get("why", "").startswith("2017 Law"), f"{path.name}: cite the 2017 law that differs"


def test_every_known_misjudgement_names_the_issue_and_the_law() -> None:
    for path in SCENARIOS:
        spec = json.loads(path.read_text(encoding="utf-8"))
        for key in ("xfail_by_code", "xfail_alarms_by_code"):
            for code, reason in spec.get(key, {}).items():
                assert code in spec["codes"], f"{path.name}: {key} names {code}, which it does not run under"
                assert reason.startswith("issue ") and "Law" in reason, f"{path.name}: {key} {code}: {reason!r}"


@pytest.mark.parametrize(("path", "code"), _cases())
def test_scenario_through_the_python_api(path: Path, code: str) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    report = replay_log(tablelog.loads(scenario_text(spec, code))).report
    problems = _matches(_expected(spec, code), report)
    assert not problems, "\n".join([f"{path.name} under {code}: {spec['row']} ({spec['laws']})", *problems,
                                    json.dumps(report, indent=1)[:6000]])


@pytest.mark.parametrize(("path", "code"), _cases())
def test_scenario_through_tablectl_replay(path: Path, code: str, tmp_path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    log = tmp_path / f"{path.stem}.jsonl"
    log.write_text(scenario_text(spec, code), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["replay", str(log), "--json"])
    assert status == 0
    problems = _matches(_expected(spec, code), json.loads(out.getvalue()))
    assert not problems, "\n".join([f"{path.name} under {code}", *problems])


@pytest.mark.parametrize(("path", "code"), _cases("xfail_alarms_by_code"))
def test_no_board_raises_more_alarms_than_its_scenario_shows(path: Path, code: str) -> None:
    """One irregularity, one alarm (issue 23 A2): after the situations a scenario was built to show, the
    players' next actions, legal at the real table, raise nothing more. Each board's irregularities
    number at most those its expectation lists (none where it lists none)."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    report = replay_log(tablelog.loads(scenario_text(spec, code))).report
    expected = _expected(spec, code).get("boards", [])
    for number, board in enumerate(report["boards"]):
        shown = expected[number].get("irregularities") or [] if number < len(expected) else []
        raised = board.get("irregularities") or []
        assert len(raised) <= len(shown), (
            f"{path.name} under {code}, board {number + 1}: {len(raised)} alarms for {len(shown)} situations: "
            + ", ".join(f"{irr['situation']} ({irr['detail']})" for irr in raised))
