"""The console's file (``tablectl.room.console_store``): one transaction per batch, rolled back on
any error, so that a batch that cannot be kept leaves the file as it was and the next one is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl.room.console_store import REFUSED_KEPT, ConsoleStore, Refusal


def test_a_batch_that_cannot_be_kept_is_rolled_back_and_the_next_one_is_kept(tmp_path: Path) -> None:
    store = ConsoleStore(tmp_path / "console.sqlite")
    good = ("1", "s", 1, "event", "{}", 1.0)
    with pytest.raises(OverflowError):  # not an sqlite3.Error: the transaction is still rolled back
        store.add([good, ("1", "s", 2 ** 63, "event", "{}", 1.0)], {})
    store.add([("1", "s", 2, "event", "{}", 2.0)], {"1": "{}"})
    assert [(t, s, q) for t, s, q, _, _ in store.load()[0]] == [("1", "s", 2)]
    store.close()


def test_refused_messages_are_kept_with_their_reason_and_bounded(tmp_path: Path) -> None:
    store = ConsoleStore(tmp_path / "console.sqlite")
    for n in range(REFUSED_KEPT + 50):
        store.add([], {}, [Refusal("2", "alert", "s", n, f"reason {n}", b"x" * 5000, float(n))])
    count, recent = store.refused(3)
    assert count == REFUSED_KEPT
    assert [r["reason"] for r in recent] == [f"reason {REFUSED_KEPT + 49 - i}" for i in range(3)]
    store.close()
