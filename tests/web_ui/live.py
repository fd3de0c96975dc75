"""A real uvicorn serving the table's or the console's app in a subprocess, as ``tablectl`` serves them.

``python -m tests.web_ui.live table|console --port PORT [options]`` builds the app over a
``LocalTable`` (the table) or a ``FakeConsole`` (the console) and serves it with
``tablectl.serve.run_server``, the composition root's own server settings. ``live_server``
starts one for a test and stops it; ``peak_rss`` reads the peak resident memory of a process.
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.free_ports import free_base_port

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Live:
    """A running server: its process and port."""

    proc: subprocess.Popen[bytes]
    port: int

    @property
    def pid(self) -> int:
        return self.proc.pid


def peak_rss(pid: int) -> int:
    """The peak resident memory of process ``pid`` so far, in bytes (``VmHWM``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmHWM for process {pid}")


@contextmanager
def live_server(kind: str, *options: str) -> Iterator[Live]:
    """A subprocess serving ``kind`` ("table" or "console") on a free port of 127.0.0.1."""
    port = free_base_port(1)
    proc = subprocess.Popen([sys.executable, "-m", "tests.web_ui.live", kind, "--port", str(port), *options],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            if proc.poll() is not None:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                raise RuntimeError(f"the {kind} server exited ({proc.returncode}): {out[-2000:]}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)  # waiting for a subprocess to listen, not timing the code under test
        else:
            raise RuntimeError(f"the {kind} server did not listen on port {port}")
        yield Live(proc, port)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def main() -> None:
    from tablectl.serve import ServerOptions, run_server
    from tests.web_ui.conftest import settings
    from tests.web_ui.console_fake import FakeConsole, console_settings
    from web_ui.app import create_app
    from web_ui.console import create_console_app
    from web_ui.local import LocalTable

    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["table", "console"])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--proxy", action="append", default=[], help="a trusted proxy's address")
    args = p.parse_args()
    app = (create_app(LocalTable(), settings()) if args.kind == "table"
           else create_console_app(FakeConsole(), console_settings()))
    run_server(app, ServerOptions(host="127.0.0.1", port=args.port, graceful=2.0, proxies=tuple(args.proxy)))


if __name__ == "__main__":
    main()
