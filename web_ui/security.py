"""The arbiter's sessions, the PIN attempt limiter and the cross-site checks.

- **Sessions**: a random token (256 bits) in an ``HttpOnly``, ``SameSite=Strict`` cookie
  (``Secure`` over HTTPS); the server keeps only its SHA-256, with an idle and an absolute
  expiry, and a CSRF token per session. Each application names its cookie its own way
  (``CONSOLE_COOKIE``, ``arbiter_cookie(table_id)``): a browser does not tell ports apart, so
  the console and the tables of a room on one machine would otherwise log each other out.
- **PIN attempts** (``PinGate``): per client address, ``free`` failures, then each further
  failure locks that client out for ``base`` seconds doubled each time (up to ``cap``); a
  success clears the count. The address is the TCP peer's: the servers trust no
  ``X-Forwarded-For`` unless proxies are configured (``tablectl.serve.ServerOptions.proxies``).
  Failures from every address together never lock a device out for good: beyond ``table_limit``
  of them within an hour (the PIN is being guessed from many addresses) every attempt waits
  ``slow`` seconds before its PIN is checked, and a device that has not signed in before has its
  PIN checked at most once every ``spacing`` seconds room-wide (earlier: a 429 with the seconds
  to wait), so that fresh addresses cannot outrun the limits: at most ``table_limit + 4 h /
  spacing`` guesses (770) in a four-hour session, a 0.08 % chance at a 6-digit PIN. PIN checks
  run one at a time.
- **Remembered devices** (``Devices``): a device that signed in with the right PIN gets a second
  cookie (``device_cookie``: ``bridge_console_device``, ``bridge_arbiter_<table>_device``; 256
  bits, 30 days; the server keeps its SHA-256). Its attempts are limited by that device, not by
  its address, and are never held back by the room-wide cap: the Director's phone gets in
  whatever guessers do on the network. The machine itself (loopback) is never held back either.
- **WebSocket clients** beyond an app's cap are refused with ``refuse_busy`` (close code 1013,
  "try again later"), so that no client can open connections until the server runs out.
- **Host names** (``HostCheck``): a request whose ``Host`` is not one of the server's own names
  (``LOCAL_HOSTS`` and those configured) is a 400, so that a page of another site whose name
  an attacker points at the table (DNS rebinding) reaches nothing.
- **Cross-site requests**: every state-changing request needs the session's CSRF token in
  the ``X-CSRF-Token`` header, and an ``Origin`` header, when sent, must be this server's
  own; the arbiter's WebSocket needs its session cookie and a same-origin ``Origin``.

The clock is injected (monotonic seconds).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, HTTPException, Request, Response
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

__all__ = [
    "CONSOLE_COOKIE",
    "CSP",
    "CSRF_HEADER",
    "LOCAL_HOSTS",
    "AttemptLimiter",
    "Devices",
    "HostCheck",
    "PinGate",
    "Session",
    "Sessions",
    "arbiter_cookie",
    "clear_session_cookie",
    "device_cookie",
    "host_name",
    "install_headers",
    "peer",
    "pin_login",
    "refuse_busy",
    "same_origin",
    "session_dependencies",
    "set_session_cookie",
]

CONSOLE_COOKIE = "bridge_console"
"""The Director's console's session cookie."""
CSRF_HEADER = "x-csrf-token"
LOOPBACK = ("127.0.0.1", "::1", "localhost")
_NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9_-]")


def arbiter_cookie(table_id: str | None) -> str:
    """The session cookie of a table's arbiter page: ``bridge_arbiter``, with the table's id when it has one,
    so that two tables served by one machine (the room demo) keep their arbiter sessions side by side."""
    if not table_id:
        return "bridge_arbiter"
    return "bridge_arbiter_" + _NOT_IN_A_NAME.sub("_", table_id)[:40]




def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Session:
    """One arbiter session: its CSRF token, when it was made and last used (clock seconds); on the
    Director's console, who signed in (``who``, ``role``, ``rooms``) and the tables they see
    (``scope``: None for all: ``tablectl.room.directors``)."""

    csrf: str
    created: float
    last_used: float
    who: str = "Director"
    role: str = "head"
    rooms: tuple[str, ...] = ()
    scope: frozenset[str] | None = None

    def sees(self, table: str | None) -> bool:
        """Whether this session may see (and act at) ``table`` (None: the room as a whole)."""
        return self.scope is None or table is None or table in self.scope


@dataclass(slots=True)
class Sessions:
    """An application's live sessions by token digest, their tokens in the browser's cookie ``cookie``;
    ``idle`` and ``lifetime`` in seconds."""

    clock: Callable[[], float]
    cookie: str
    idle: float = 2 * 3600.0
    lifetime: float = 12 * 3600.0
    limit: int = 20
    _by_digest: dict[str, Session] = field(default_factory=dict)

    def create(self, who: str = "Director", role: str = "head", rooms: tuple[str, ...] = (),
               scope: frozenset[str] | None = None) -> tuple[str, Session]:
        """A new session (of Director ``who``, seeing ``scope``): its token (for the cookie only) and the session."""
        self._expire()
        if len(self._by_digest) >= self.limit:  # the oldest goes: a phone lost in the room
            oldest = min(self._by_digest, key=lambda d: self._by_digest[d].created)
            del self._by_digest[oldest]
        token = secrets.token_urlsafe(32)
        now = self.clock()
        session = Session(secrets.token_urlsafe(24), now, now, who, role, rooms, scope)
        self._by_digest[_digest(token)] = session
        return token, session

    def get(self, token: str | None) -> Session | None:
        """The live session of ``token`` (its idle time restarts), or None."""
        if not token or len(token) > 200:
            return None
        self._expire()
        session = self._by_digest.get(_digest(token))
        if session is not None:
            session.last_used = self.clock()
        return session

    def token(self, connection: HTTPConnection) -> str | None:
        """The session token a request or WebSocket carries (in this application's cookie), if any."""
        return connection.cookies.get(self.cookie)

    def end(self, token: str | None) -> None:
        if token:
            self._by_digest.pop(_digest(token), None)

    def expires_in(self, session: Session) -> float:
        now = self.clock()
        return max(0.0, min(session.last_used + self.idle, session.created + self.lifetime) - now)

    def _expire(self) -> None:
        now = self.clock()
        for digest, s in list(self._by_digest.items()):
            if now - s.last_used > self.idle or now - s.created > self.lifetime:
                del self._by_digest[digest]

    @staticmethod
    def csrf_ok(session: Session, header: str | None) -> bool:
        return header is not None and hmac.compare_digest(session.csrf.encode(), header.encode())


@dataclass(slots=True)
class Devices:
    """The devices that signed in with the right PIN (module doc), by token digest: last sign-in."""

    clock: Callable[[], float]
    lifetime: float = 30 * 24 * 3600.0
    limit: int = 200
    _by_digest: dict[str, float] = field(default_factory=dict)

    def remember(self, token: str | None = None) -> str:
        """Remember a device (its token again, or a new one): the token for its cookie."""
        now = self.clock()
        if token is None or _digest(token) not in self._by_digest:
            token = secrets.token_urlsafe(32)
        if len(self._by_digest) >= self.limit:
            del self._by_digest[min(self._by_digest, key=self._by_digest.__getitem__)]
        self._by_digest[_digest(token)] = now
        return token

    def known(self, token: str | None) -> str | None:
        """The key of a remembered device for the PIN limits (None: not one)."""
        if not token or len(token) > 200:
            return None
        digest = _digest(token)
        seen = self._by_digest.get(digest)
        if seen is None or self.clock() - seen > self.lifetime:
            self._by_digest.pop(digest, None)
            return None
        return f"device:{digest[:32]}"


@dataclass(slots=True)
class _Client:
    failures: int = 0
    locked_until: float = 0.0
    last: float = 0.0


@dataclass(slots=True)
class AttemptLimiter:
    """PIN attempts per client: ``free`` failures, then lock-outs of ``base`` seconds doubling to ``cap``.

    A client's count is forgotten after ``forget`` seconds without a failure. Other clients'
    failures never lock a client out: beyond ``table_limit`` failures from all clients within
    ``forget`` seconds, every attempt is slowed down by ``slow`` seconds (``slowdown``) instead.
    """

    clock: Callable[[], float]
    free: int = 5
    base: float = 30.0
    cap: float = 900.0
    forget: float = 3600.0
    table_limit: int = 50
    slow: float = 2.0
    spacing: float = 20.0
    _clients: dict[str, _Client] = field(default_factory=dict)
    _recent: deque[float] = field(default_factory=deque)
    _next_check: float = 0.0

    def room_wait(self) -> float:
        """Seconds before the PIN of a device not remembered may be checked (0: now), room-wide:
        while the PIN is being guessed from many addresses, one check every ``spacing`` seconds."""
        if not self.slowdown():
            return 0.0
        return max(0.0, self._next_check - self.clock())

    def checked(self) -> None:
        """A device not remembered had its PIN checked: while the PIN is being guessed, the next such
        check waits ``spacing`` seconds."""
        if self.slowdown():
            self._next_check = self.clock() + self.spacing

    def retry_after(self, client: str) -> float:
        """Seconds ``client`` must wait before another attempt (0: it may try now): its own lock-out only."""
        now = self.clock()
        c = self._clients.get(client)
        if c is None:
            return 0.0
        if now - c.last > self.forget:
            del self._clients[client]
            return 0.0
        return max(0.0, c.locked_until - now)

    def slowdown(self) -> float:
        """Seconds every attempt waits before its check: ``slow`` beyond ``table_limit`` recent failures, else 0."""
        now = self.clock()
        while self._recent and now - self._recent[0] >= self.forget:
            self._recent.popleft()
        return self.slow if len(self._recent) >= self.table_limit else 0.0

    def failed(self, client: str) -> float:
        """Record a failure; the lock-out it starts (seconds, 0 for none)."""
        now = self.clock()
        self._recent.append(now)
        if len(self._recent) > self.table_limit:  # only whether there are that many matters
            self._recent.popleft()
        if len(self._clients) > 10_000:  # bounded memory: drop the stalest
            stalest = min(self._clients, key=lambda k: self._clients[k].last)
            del self._clients[stalest]
        c = self._clients.setdefault(client, _Client())
        c.failures += 1
        c.last = now
        if c.failures >= self.free:
            lock = min(self.cap, self.base * 2.0 ** (c.failures - self.free))
            c.locked_until = now + lock
            return lock
        return 0.0

    def succeeded(self, client: str) -> None:
        self._clients.pop(client, None)


class PinGate:
    """The PIN's way in: ``attempt(client, pin)`` returns when the PIN is right, else raises the
    ``HTTPException`` to answer (401 wrong, 429 this client locked out, with ``Retry-After``).

    Checks run one at a time (``check_pin`` is slow on purpose, and runs off the event loop);
    the table-wide slow-down is waited before queueing, so that it delays but never blocks.
    ``sleep`` is injected for tests.
    """

    def __init__(self, check_pin: Callable[[str], bool], limiter: AttemptLimiter,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, devices: Devices | None = None) -> None:
        self.check_pin = check_pin
        self.limiter = limiter
        self.sleep = sleep
        self.devices = devices if devices is not None else Devices(limiter.clock)
        self._lock = asyncio.Lock()

    async def attempt(self, client: str, pin: str, device: str | None = None,
                      check: Callable[[str], bool] | None = None) -> None:
        """Check ``pin`` from ``client`` (its address) carrying the device cookie ``device`` (with
        ``check`` instead of ``check_pin``: a named Director's PIN), under the same limits."""
        known = self.devices.known(device)
        delay = self.limiter.slowdown()
        if delay > 0 and known is None:
            await self.sleep(delay)
        async with self._lock:
            key = known or client
            wait = self.limiter.retry_after(key)
            if wait > 0:
                raise HTTPException(429, f"too many wrong PINs from this device: try again in {int(wait) + 1} s",
                                    headers={"Retry-After": str(int(wait) + 1)})
            if known is None and client not in LOOPBACK:
                wait = self.limiter.room_wait()
                if wait > 0:
                    raise HTTPException(429, "the PIN is being guessed on this network, so devices that have not "
                                             f"signed in before wait: try again in {int(wait) + 1} s, or use a "
                                             "device that has", headers={"Retry-After": str(int(wait) + 1)})
                self.limiter.checked()
            client = key
            if not await asyncio.to_thread(check or self.check_pin, pin):
                lock = self.limiter.failed(client)
                wrong = "wrong PIN" if check is None else "wrong name or PIN"
                raise HTTPException(401, wrong + (f"; locked for {int(lock)} s" if lock else ""))
            self.limiter.succeeded(client)


def device_cookie(session_cookie: str) -> str:
    """The cookie that remembers a device signed in to the application whose session cookie is
    ``session_cookie``: one per application, like the session's (``arbiter_cookie``)."""
    return f"{session_cookie}_device"


async def pin_login(gate: PinGate, request: Request, response: Response, pin: str, cookie: str,
                    check: Callable[[str], bool] | None = None) -> None:
    """The PIN's check for a login route (``PinGate.attempt`` with the device cookie ``cookie``, and
    ``check`` for a named Director's PIN); on success the device is remembered (its cookie set or
    renewed), else the ``HTTPException`` is raised."""
    device = request.cookies.get(cookie)
    await gate.attempt(peer(request), pin, device, check)
    token = gate.devices.remember(device)
    response.set_cookie(cookie, token, max_age=int(gate.devices.lifetime), path="/", httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")


def peer(request: HTTPConnection) -> str:
    """The client's address for the PIN limits: the TCP peer's, unless a configured proxy spoke for it."""
    return request.client.host if request.client is not None else "unknown"


LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The names a server always answers to: this machine's own."""

_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:[0-9]{1,5})?$")


def host_name(header: str | None) -> str | None:
    """The host name of a ``Host`` header (lower case, without port, brackets or a final dot), None if malformed."""
    match = _HOST.match(header or "")
    if match is None:
        return None
    return match[1].strip("[]").rstrip(".").lower()


class HostCheck:
    """ASGI middleware: an HTTP request or WebSocket whose ``Host`` is not one of ``LOCAL_HOSTS`` and
    ``hosts`` (exact names, or ``*.example.org`` for every name under it) is refused: a 400 with
    ``{"detail"}`` for HTTP, a close before the handshake for a WebSocket."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = ()) -> None:
        self.app = app
        names = [h.strip("[]").rstrip(".").lower() for h in (*LOCAL_HOSTS, *hosts)]
        self.exact = {n for n in names if not n.startswith("*.")}
        self.suffixes = tuple(n[1:] for n in names if n.startswith("*."))

    def allowed(self, name: str | None) -> bool:
        return name is not None and (name in self.exact or name.endswith(self.suffixes))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = next((bytes(v).decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), None)
        if self.allowed(host_name(header)):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "unknown host"})
            return
        shown = (header or "")[:100].encode("ascii", "backslashreplace").decode()
        body = json.dumps({"detail": f"this server does not answer to the host {shown!r}: add the name to "
                                     "[listen] hosts (--allowed-host) if it is this server's"}).encode()
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def same_origin(headers: Mapping[str, str]) -> bool | None:
    """Whether the request's ``Origin`` is this server (its ``Host``); None when there is no Origin.

    The scheme is not compared: behind a TLS-terminating proxy the page is https and the
    request reaching us http.
    """
    origin = headers.get("origin")
    if origin is None:
        return None
    host = headers.get("host")
    if not host or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


async def refuse_busy(ws: WebSocket) -> None:
    """Refuse a WebSocket client over its app's cap: close code 1013, "try again later"."""
    await ws.accept()
    await ws.close(code=1013, reason="too many clients: try again later")


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "media-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
"""The pages' Content-Security-Policy: nothing but this server's own files (no inline script)."""


def install_headers(app: FastAPI) -> None:
    """Put the security headers on every answer of ``app`` (and ``no-store`` on its API)."""

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response


def set_session_cookie(response: Response, sessions: Sessions, token: str, request: Request) -> None:
    """Put session ``token`` in its cookie on ``response``: ``HttpOnly``, ``SameSite=Strict``, ``Secure``
    over HTTPS, for the session's whole lifetime."""
    response.set_cookie(sessions.cookie, token, max_age=int(sessions.lifetime), path="/", httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")


def clear_session_cookie(response: Response, sessions: Sessions) -> None:
    """Tell the browser to forget the session's cookie (the session has ended)."""
    response.delete_cookie(sessions.cookie, path="/", httponly=True, samesite="strict")


def session_dependencies(who: str, place: str) -> tuple[Callable[[Request], Session],
                                                        Callable[[Request, Session], Session]]:
    """FastAPI dependencies for ``who``'s session (``app.state.sessions``): the live session
    (else 401), and a state-changing request's (same origin and the CSRF token, else 403)."""

    def live(request: Request) -> Session:
        sessions: Sessions = request.app.state.sessions
        session = sessions.get(sessions.token(request))
        if session is None:
            raise HTTPException(401, f"no {who} session: log in with the PIN")
        return session

    def guarded(request: Request, session: Session = Depends(live)) -> Session:  # noqa: B008 (FastAPI's form)
        if same_origin(request.headers) is False:
            raise HTTPException(403, f"cross-site request refused: the Origin is not this {place}")
        if not Sessions.csrf_ok(session, request.headers.get(CSRF_HEADER)):
            raise HTTPException(403, f"missing or wrong {CSRF_HEADER} header (send the csrf of the login answer)")
        return session

    return live, guarded
