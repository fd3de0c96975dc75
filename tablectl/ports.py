"""Is a port free to listen on, and if not, who holds it: checked before a command prints
its addresses or its PIN, so that nothing it prints points at another program's pages.

``listen_socket`` binds the port at once and hands the socket to the web server, so that
no other program can take the port between the check and the serving. The holder of a
port is found from ``/proc/net/tcp`` and ``/proc/*/fd`` (the processes this user may see),
else from ``ss -ltnp`` when it is installed.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import socket
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from controller.errors import BridgeTableError

__all__ = ["PORT_TAKEN_EXIT", "PortTaken", "free_from", "listen_socket", "port_holder", "port_problem",
           "taken_ports_message"]

PORT_TAKEN_EXIT = 2
"""The exit status of a command whose port is taken (as for any other unusable option)."""

_LISTEN = "0A"
"""The state of a listening socket in ``/proc/net/tcp``."""


class PortTaken(BridgeTableError, OSError):
    """The port cannot be listened on; the message says by whom when that can be found, and how
    to choose another."""


@dataclass(frozen=True, slots=True)
class _Listener:
    port: int
    inode: str


def _listeners(proc: Path) -> list[_Listener]:
    """The listening TCP sockets of ``/proc/net/tcp`` and ``tcp6``, by port and inode."""
    found = []
    for name in ("tcp", "tcp6"):
        try:
            lines = (proc / "net" / name).read_text(encoding="ascii", errors="replace").splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != _LISTEN:
                continue
            try:
                port = int(fields[1].rsplit(":", 1)[1], 16)
            except (IndexError, ValueError):
                continue
            found.append(_Listener(port, fields[9]))
    return found


def _short(arg: str) -> str:
    """A command-line word for a sentence: a path by its file name, on one line."""
    arg = " ".join(arg.split())
    return arg.rsplit("/", 1)[-1] if arg.startswith("/") else arg


def _process_words(proc: Path, pid: str) -> str:
    """``python3 -m http.server 8000 (process 123)``: the command line when it can be read (paths by
    their file names), else the program's name."""
    try:
        argv = (proc / pid / "cmdline").read_bytes().split(b"\0")
        words = " ".join(_short(a.decode(errors="replace")) for a in argv if a)
    except OSError:
        words = ""
    if not words:
        try:
            words = (proc / pid / "comm").read_text(errors="replace").strip()
        except OSError:
            words = "a program"
    if len(words) > 80:
        words = words[:77] + "..."
    return f"{words} (process {pid})"


def _holder_from_proc(port: int, proc: Path) -> str | None:
    inodes = {f"socket:[{lst.inode}]" for lst in _listeners(proc) if lst.port == port and lst.inode != "0"}
    if not inodes:
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:  # another user's process
            continue
        for fd in fds:
            try:
                if os.readlink(fd) in inodes:
                    return _process_words(proc, entry.name)
            except OSError:
                continue
    return None


_SS_USER = re.compile(r'\("([^"]+)",pid=(\d+)')


def _holder_from_ss(port: int) -> str | None:
    ss = shutil.which("ss")
    if ss is None:
        return None
    try:
        out = subprocess.run([ss, "-H", "-ltnp", f"sport = :{port}"], capture_output=True, text=True,
                             timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = _SS_USER.search(out)
    return f"{match.group(1)} (process {match.group(2)})" if match else None


def port_holder(port: int, proc: Path = Path("/proc")) -> str | None:
    """The program listening on TCP ``port``, in words (``python3 -m http.server 8000 (process 123)``),
    or None when it cannot be seen (no such program, or another user's: only root sees those)."""
    return _holder_from_proc(port, proc) or _holder_from_ss(port)


def _bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` as the web server binds it (SO_REUSEADDR: a port left in
    TIME_WAIT by a table that just stopped is free; one somebody listens on is not)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _is_free(host: str, port: int) -> bool:
    try:
        _bind(host, port).close()
    except OSError:
        return False
    return True


def free_from(host: str, port: int, count: int = 1, tries: int = 50) -> int | None:
    """The first port from ``port`` on where ``count`` ports in a row are free, or None."""
    for first in range(port, min(port + tries, 65536 - count)):
        if all(_is_free(host, p) for p in range(first, first + count)):
            return first
    return None


def _taken_words(host: str, port: int, error: OSError) -> str:
    """Why ``host:port`` cannot be bound, in words: who holds it when that can be found."""
    where = f"port {port} on {host}"
    if error.errno == errno.EACCES:
        return f"{where} cannot be used by this user (ports below 1024 need root)"
    holder = port_holder(port)
    if holder is not None:
        return f"{where} is already in use by {holder}"
    return f"{where} is already in use by another program (one this user cannot see: `sudo ss -ltnp` names it)"


def _advice(host: str, port: int, error: OSError, flag: str) -> str:
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine: choose another with --host"
    other = free_from(host, max(port + 1, 1024))
    hint = f" ({flag} {other} is free)" if other is not None else ""
    what = "choose another" if error.errno == errno.EACCES else "stop that program, or choose another"
    return f"{_taken_words(host, port, error)}: {what} port with {flag} N{hint}"


def port_problem(host: str, port: int, flag: str = "--port") -> str | None:
    """Why the pages cannot listen on ``host:port`` and what to do, or None when the port is free."""
    try:
        _bind(host, port).close()
    except OSError as exc:
        return _advice(host, port, exc, flag)
    return None


def listen_socket(host: str, port: int, flag: str = "--port") -> socket.socket:
    """A socket bound to ``host:port``, held until the web server listens on it; PortTaken saying
    who holds the port and how to choose another."""
    try:
        return _bind(host, port)
    except OSError as exc:
        raise PortTaken(_advice(host, port, exc, flag)) from None


def taken_ports_message(host: str, ports: Iterable[int], flag: str = "--port") -> str | None:
    """For a command that listens on several ports in a row (the room demo: the console and each
    table): which are taken, by whom, and a ``flag`` value whose ports are all free; None if all are free."""
    wanted = list(ports)
    taken = []
    for port in wanted:
        try:
            _bind(host, port).close()
        except OSError as exc:
            taken.append(_taken_words(host, port, exc))
    if not taken:
        return None
    other = free_from(host, wanted[0] + 1, len(wanted))
    hint = f" ({flag} {other}: ports {other}-{other + len(wanted) - 1} are free)" if other is not None else ""
    return "; ".join(taken) + f": stop that program, or choose other ports with {flag} N{hint}"
