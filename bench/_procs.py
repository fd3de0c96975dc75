"""Stopping what a benchmark of the room started (``bench/room.py``, ``bench/event.py``): its clients, the table
workers, the consoles and the brokers, in that order whatever happened; and the logs they leave, printed when the
run failed or kept for a closer look."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from roomprobe import stop_group
from roomsim import WorkerProc, tail


class Closable(Protocol):
    def close(self) -> None: ...


def stop(clients: Iterable[Closable | None], workers: list[WorkerProc],
         consoles: Iterable[subprocess.Popen[bytes]], brokers: Iterable[Any]) -> None:
    """Close ``clients`` (those started), then stop the table workers, the consoles' process groups and the
    brokers (``MosquittoProcess``), in that order: each stops after what was talking to it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends this at once
    for client in clients:
        if client is not None:
            client.close()
    for w in workers:
        w.close()
    for w in workers:
        w.kill()
    for proc in consoles:
        stop_group(proc)
    for broker in brokers:
        broker.stop()


def print_logs(consoles: Mapping[str, Path], brokers: Mapping[str, Any], workers: list[WorkerProc]) -> None:
    """The end of every log, on stderr: ``consoles`` and ``brokers`` by the name each is shown with."""
    for name, log in consoles.items():
        print(f"\n-- {name}'s log:\n{tail(log)}", file=sys.stderr)
    for name, broker in brokers.items():
        print(f"-- {name}'s log:\n{broker.log_tail()}", file=sys.stderr)
    for w in workers:
        print(f"-- {w.log.name}:\n{tail(w.log)}", file=sys.stderr)


def keep_logs(where: Path | None, logs: Iterable[Path]) -> None:
    """Copy ``logs`` into ``where`` (none when it is ``None``), for a closer look after the run."""
    if where is None:
        return
    where.mkdir(parents=True, exist_ok=True)
    for log in logs:
        with contextlib.suppress(OSError):
            shutil.copy(log, where / log.name)
