"""Free loopback ports for a test's own servers, chosen where no other program takes them meanwhile.

A port the kernel hands out (binding port 0) lies in its ephemeral range, from which any program's
outgoing connection (a broker client, a browser, another test) takes its local port at random: one
checked free there may be taken before the command under test listens on it. These ports lie below
that range, and each is checked by binding it.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

__all__ = ["bindable", "free_base_port"]


def free_base_port(count: int) -> int:
    """A port P with P..P+count-1 free on 127.0.0.1 (checked once: the command says so if one is taken), below
    the kernel's ephemeral ports."""
    low = _ephemeral_low()
    pick = random.Random()
    for _ in range(200):
        base = pick.randrange(10_000, low - count)
        if all(bindable(base + i) for i in range(count)):
            return base
    raise AssertionError("no run of free ports")


def bindable(port: int) -> bool:
    """Whether a server could listen on ``port`` on 127.0.0.1 now."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768
