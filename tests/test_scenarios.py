"""The Laws from data: each file in ``tests/scenarios/`` is a table log and its expected outcome.

A scenario names the catalogue row (docs/situations.md), the law of each code and the book
and law it comes from (``source``), the codes it runs under, the table log (without the session line,
which the runner writes for each code with the scenario's settings) and what the
``tablectl replay --json`` report must contain. ``expect`` holds for every code;
``expect_by_code`` adds what differs between the codes. Matching is by subset: every key
given must be there with that value; lists must have the same length, item by item.

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

from controller.records import tablelog
from controller.replay import replay_log
from tablectl.cli import main

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def _cases() -> list[Any]:
    cases = []
    for path in SCENARIOS:
        spec = json.loads(path.read_text(encoding="utf-8"))
        for code in spec.get("codes", ["duplicate"]):
            marks = [pytest.mark.xfail(reason=spec["xfail"], strict=True)] if "xfail" in spec else []
            cases.append(pytest.param(path, code, id=f"{path.stem}[{code}]", marks=marks))
    return cases


def _log(spec: dict[str, Any], code: str) -> str:
    session = {"t": 0, "session": {"code": code, **spec.get("settings", {})}}
    return "".join(json.dumps(line) + "\n" for line in [session, *spec["log"]])


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
    extra = spec.get("expect_by_code", {}).get(code)
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


@pytest.mark.parametrize(("path", "code"), _cases())
def test_scenario_through_the_python_api(path: Path, code: str) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    report = replay_log(tablelog.loads(_log(spec, code))).report
    problems = _matches(_expected(spec, code), report)
    assert not problems, "\n".join([f"{path.name} under {code}: {spec['row']} ({spec['laws']})", *problems,
                                    json.dumps(report, indent=1)[:6000]])


@pytest.mark.parametrize(("path", "code"), _cases())
def test_scenario_through_tablectl_replay(path: Path, code: str, tmp_path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    log = tmp_path / f"{path.stem}.jsonl"
    log.write_text(_log(spec, code), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["replay", str(log), "--json"])
    assert status == 0
    problems = _matches(_expected(spec, code), json.loads(out.getvalue()))
    assert not problems, "\n".join([f"{path.name} under {code}", *problems])
