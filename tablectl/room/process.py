"""A private Mosquitto broker as a child process: for the tests, the room demo and the benchmark.

``MosquittoProcess(conf, port)`` starts Debian's ``mosquitto -c CONF`` in the background,
waits until its port takes TCP connections, and can kill it (SIGKILL, as a power cut
would), stop it (SIGTERM: it saves its persistence file) and start it again on the same
port and persistence directory. Its output goes to a log file next to the config.

A broker started as root drops to the ``mosquitto`` user, which cannot read a room's files
(mode 0600, owned by whoever ran ``tablectl room init``); ``runnable_config`` gives such a
start a copy of the config that runs the broker as the files' owner, written next to it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType
from typing import IO

from controller.errors import BridgeTableError

__all__ = [
    "INSTALL_HINT",
    "BrokerError",
    "MosquittoMissing",
    "MosquittoProcess",
    "find_mosquitto",
    "find_mosquitto_passwd",
    "free_port",
    "runnable_config",
]

INSTALL_HINT = "install Debian's mosquitto package: sudo apt-get install mosquitto"


class MosquittoMissing(BridgeTableError, FileNotFoundError):
    """The ``mosquitto`` broker (or its ``mosquitto_passwd``) is not installed."""


class BrokerError(BridgeTableError, OSError):
    """The broker did not start, or stopped taking connections."""


def _find(name: str, debian_path: str) -> str:
    if os.access(debian_path, os.X_OK):
        return debian_path
    found = shutil.which(name)
    if found is None:
        raise MosquittoMissing(f"{name} is not at {debian_path} nor on PATH: {INSTALL_HINT}")
    return found


def find_mosquitto() -> str:
    """The path of the broker: Debian's ``/usr/sbin/mosquitto``, else ``mosquitto`` on PATH."""
    return _find("mosquitto", "/usr/sbin/mosquitto")


def find_mosquitto_passwd() -> str:
    """The path of ``mosquitto_passwd`` (Debian: ``/usr/bin``, in the same package)."""
    return _find("mosquitto_passwd", "/usr/bin/mosquitto_passwd")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now (the kernel's choice; free until someone takes it)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def runnable_config(conf: Path) -> Path:
    """The config to start ``mosquitto`` with from this process.

    Started as root, Mosquitto switches to the ``mosquitto`` user before it reads the password
    and ACL files, which only their owner may read (mode 0600). When the config names no
    ``user`` and its owner is not ``mosquitto``, this writes a copy next to it (mode 0600) that
    names the owner (``user root`` for a room made by root), and returns the copy; otherwise
    ``conf`` itself.
    """
    if os.geteuid() != 0:
        return conf
    text = conf.read_text(encoding="utf-8")
    if any(line.split()[:1] == ["user"] for line in text.splitlines()):
        return conf
    try:
        owner = pwd.getpwuid(conf.stat().st_uid).pw_name
    except KeyError:
        owner = "root"
    if owner == "mosquitto":
        return conf
    copy = conf.with_name(f".{conf.stem}.as-{owner}{conf.suffix}")
    fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(f"# {conf.name} as started by root from tablectl (tablectl/room/process.py): the broker "
                  f"runs as {owner}, the owner of the room's files\n")
        out.write(text)
        out.write(f"\nuser {owner}\n")
    return copy


class MosquittoProcess:
    """``mosquitto -c CONF`` as a child process listening on ``port`` (which the config must name).

    ``start()`` returns once the port takes connections (``BrokerError`` with the end of the
    broker's log if it exits or does not open the port in time); ``kill()`` is SIGKILL,
    ``stop()`` SIGTERM (the broker writes its persistence file) then SIGKILL if it lingers.
    ``start()`` may be called again after either, on the same port and the same persistence
    directory. Also a context manager that stops the broker on exit.
    """

    def __init__(self, conf_path: Path | str, port: int, *, host: str = "127.0.0.1",
                 log_path: Path | str | None = None, executable: str | None = None) -> None:
        self.conf_path = Path(conf_path)
        self.port = port
        self.host = host
        """Where ``wait_ready`` connects: an address of the config's listener (loopback works for 0.0.0.0)."""
        self.log_path = Path(log_path) if log_path is not None else self.conf_path.with_suffix(".log")
        self.executable = executable or find_mosquitto()
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def command(self) -> list[str]:
        """The command line this process runs."""
        return [self.executable, "-c", str(runnable_config(self.conf_path))]

    @property
    def alive(self) -> bool:
        """Whether the broker process is running."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and wait until it takes connections."""
        if self.alive:
            raise BrokerError(f"mosquitto (pid {self.pid}) is already running on port {self.port}")
        self._close_log()
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (kept open while the broker runs)
        # its own session: a Ctrl-C at the terminal is for the command, which stops the broker last
        # (after the tables and the console that use it), never for the broker under them
        self._proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=self._log,
                                      stderr=subprocess.STDOUT, start_new_session=True)
        try:
            self.wait_ready(timeout)
        except BaseException:
            self.kill()
            raise

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Return once the broker's port takes a TCP connection; BrokerError if it exits or times out."""
        deadline = time.monotonic() + timeout
        while True:
            if not self.alive:
                code = self._proc.returncode if self._proc is not None else None
                raise BrokerError(f"mosquitto -c {self.conf_path} is not running (exit status {code}):\n"
                                  f"{self.log_tail()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() >= deadline:
                    raise BrokerError(f"mosquitto -c {self.conf_path} does not take connections on "
                                      f"{self.host}:{self.port} after {timeout:g} s:\n{self.log_tail()}") from None
                time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL: the broker dies at once, saving nothing (a crash or a power cut)."""
        self._end(signal.SIGKILL, 10.0)

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM and wait (the broker saves its persistence file); SIGKILL after ``timeout``."""
        self._end(signal.SIGTERM, timeout)

    def restart(self, timeout: float = 10.0) -> None:
        """Stop (cleanly) if running, then start on the same port and persistence directory."""
        self.stop()
        self.start(timeout)

    def _end(self, sig: signal.Signals, timeout: float) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, lines: int = 20) -> str:
        """The last lines the broker wrote."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def __enter__(self) -> MosquittoProcess:
        if not self.alive:
            self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self.alive else "stopped"
        return f"MosquittoProcess({str(self.conf_path)!r}, {self.port}) [{state}]"
