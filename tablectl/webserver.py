"""The web server of the table's pages and of the console: where and how they are served.

``ServerOptions`` (address, port, TLS, the names the pages answer to, trusted proxies),
``check_server`` (no plain HTTP beyond this machine unless said outright), uvicorn's
configuration and its run on a socket bound beforehand (``tablectl.ports.listen_socket``),
with SIGTERM and SIGINT only stopping the server so that the table's log is closed cleanly.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from drivers.config import Listen
from tablectl.ports import listen_socket
from web_ui.security import LOCAL_HOSTS

__all__ = ["DEFAULT_PORT", "LOOPBACK", "OPENSSL", "WS_MAX_MESSAGE", "ServerOptions", "add_server_options",
           "check_server", "run_server", "uvicorn_config"]

log = logging.getLogger("tablectl")

DEFAULT_PORT = Listen().port


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """Where and how the pages (the table's or the console's) are served."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    graceful: float = 5.0
    proxies: tuple[str, ...] = ()
    """Reverse proxies whose ``X-Forwarded-For``/``-Proto`` are believed; none: no forwarded header is."""
    tls_cert: Path | None = None
    tls_key: Path | None = None
    hosts: tuple[str, ...] = LOCAL_HOSTS
    """The names the pages answer to (``web_ui.security.HostCheck``): localhost's, and those configured."""
    plain_http: bool = False
    """Plain HTTP beyond localhost, said outright (behind the club's own TLS proxy)."""

    @property
    def scheme(self) -> str:
        return "https" if self.tls_cert is not None else "http"


LOOPBACK = ("localhost", "::1")
OPENSSL = ('openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -keyout table.key -out table.crt '
           '-subj "/CN=table-3.local" -addext "subjectAltName=DNS:table-3.local,IP:192.168.1.23"')
"""The one command that makes a table's certificate (its name and address in place of these)."""


def check_server(options: ServerOptions) -> None:
    """ValueError saying what to do when ``options`` would serve plain HTTP beyond this machine,
    or name a certificate and key that cannot be loaded."""
    if options.tls_cert is not None and options.tls_key is not None:
        try:
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(options.tls_cert, options.tls_key)
        except (OSError, ssl.SSLError) as exc:
            raise ValueError(f"cannot load the tls certificate {options.tls_cert} and key {options.tls_key}: "
                             f"{exc}") from None
        return
    local = options.host in LOOPBACK or options.host.startswith("127.")
    if not local and not options.plain_http:
        raise ValueError(f"listening on {options.host} opens the pages beyond this machine, which needs HTTPS: "
                         "give [listen] tls_cert and tls_key (--tls-cert, --tls-key), made with\n"
                         f"    {OPENSSL}\n"
                         "or say --plain-http ([listen] plain_http = true) behind the club's own TLS proxy")


WS_MAX_MESSAGE = 64 * 1024
"""The largest WebSocket message read from a client (the pages send none; uvicorn's default is 16 MB)."""


def uvicorn_config(app: Any, options: ServerOptions) -> Any:
    """The ``uvicorn.Config`` that serves ``app`` as ``options`` say."""
    import uvicorn

    return uvicorn.Config(app, host=options.host, port=options.port, log_config=None, access_log=False,
                          timeout_graceful_shutdown=int(options.graceful), ws_max_size=WS_MAX_MESSAGE,
                          # a forwarded header is a claim anyone can make: only a configured proxy's counts
                          proxy_headers=bool(options.proxies), forwarded_allow_ips=list(options.proxies),
                          ssl_certfile=options.tls_cert, ssl_keyfile=options.tls_key)


def run_server(app: Any, options: ServerOptions, sock: socket.socket | None = None) -> None:
    """Serve ``app`` until SIGTERM/SIGINT (uvicorn handles both and shuts down cleanly) on ``sock``,
    the port the command bound before printing its addresses (``tablectl.ports.listen_socket``),
    else on the port of ``options``; PortTaken when that port is in use."""
    import uvicorn

    if sock is None:
        sock = listen_socket(options.host, options.port)
    with sock:
        _quiet_exit_server(uvicorn.Server)(uvicorn_config(app, options)).run(sockets=[sock])


def _quiet_exit_server(base: Any) -> Any:
    """uvicorn's server, but SIGTERM/SIGINT only stop it (uvicorn re-raises them after its
    shutdown, which would kill the process before the table's log is closed)."""

    class Server(base):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            def handle(signum: int, frame: FrameType | None) -> None:
                log.info("signal %d: stopping", signum)
                if getattr(self, "should_exit", False) and signum == signal.SIGINT:
                    self.force_exit = True
                self.should_exit = True
            old = {sig: signal.signal(sig, handle) for sig in (signal.SIGTERM, signal.SIGINT)}
            try:
                yield
            finally:
                for sig, handler in old.items():
                    signal.signal(sig, handler)
    return Server


def add_server_options(p: argparse.ArgumentParser) -> None:
    """The server options that ``run``, ``demo`` and ``console`` share."""
    p.add_argument("--tls-cert", type=Path, metavar="FILE",
                   help="serve HTTPS with this certificate (needed beyond localhost; else the config's [listen] "
                        f"tls_cert), made with: {OPENSSL}")
    p.add_argument("--tls-key", type=Path, metavar="FILE", help="its private key (else [listen] tls_key)")
    p.add_argument("--allowed-host", action="append", metavar="NAME",
                   help="a name the pages answer to besides localhost's (repeat for more; else the config's "
                        "[listen] hosts, else the --host address): any other Host is refused (400)")
    p.add_argument("--plain-http", action="store_true",
                   help="serve plain HTTP beyond localhost all the same (behind the club's own TLS proxy)")
    p.add_argument("--trusted-proxy", action="append", metavar="ADDRESS",
                   help="a reverse proxy whose X-Forwarded-For is believed (repeat for more; default none, "
                        "else the config's [listen] proxies)")
