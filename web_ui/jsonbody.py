"""Bad input is a clear 4xx, never a 500: bounded, strict JSON bodies and safe validation errors (``install``).

Every request body is bounded before anything reads it: a ``Content-Length`` over ``MAX_BODY``
(16 KB, far above any body of the contract) is a 413 at once, without reading a byte of it,
and a body sent in chunks is counted as it arrives and refused (413) the moment it passes the
limit, the rest never read. A JSON body nested more than ``MAX_DEPTH`` deep is a 422. Without
this, one unauthenticated request could make the server hold hundreds of megabytes.

Two things let a request body give a 500 with a traceback. FastAPI reads a JSON body with
Python's ``json``, which takes ``NaN``, ``Infinity`` and lone surrogates (``"\\ud800"``); a
model that refuses such a value then answers 422 with the value itself in the error, and
rendering that answer fails (JSON has no NaN; UTF-8 has no lone surrogate). So every JSON body
is read first with ``controller.records.jsontext`` (exactly JSON, in UTF-8), a body that is
not is a 422 naming what is wrong, and validation errors are rendered without the input they
refused, every text in them made printable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from controller.records import jsontext

__all__ = ["MAX_BODY", "MAX_DEPTH", "StrictJSONBodies", "install", "validation_error_response"]

MAX_BODY = 16 * 1024
"""The most bytes of a request body read (every body of the contract is well under 1 KB)."""

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects read in a JSON body."""


def install(app: FastAPI, max_body: int = MAX_BODY) -> None:
    """Make ``app`` bound its request bodies (``max_body`` bytes), read JSON bodies strictly and
    render validation errors safely.

    Call it before adding other middleware, so that their headers go on its answers too.
    """
    app.add_middleware(StrictJSONBodies, max_body=max_body)
    app.add_exception_handler(RequestValidationError, _on_validation_error)


class StrictJSONBodies:
    """ASGI middleware: a body over ``max_body`` bytes gets a 413 (by its ``Content-Length`` before
    it is read, else as soon as the bytes received pass the limit); a body meant as JSON (a JSON
    content type, or none) that is not exactly JSON, or is nested over ``MAX_DEPTH``, gets a 422;
    any other request goes on with its body intact."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = _json_response(413, {"detail": f"the request body is over the limit of {self.max_body} bytes"})
        too_big.headers["Connection"] = "close"  # the server then stops reading what is still coming
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await too_big(scope, receive, send)  # nothing read: the client need not send it
            return
        received: list[Message] = []
        body = bytearray()
        while True:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await too_big(scope, receive, send)  # the rest is never read
                return
            if not message.get("more_body", False):
                break
        if body and _is_json(scope):
            try:
                value = jsontext.loads(bytes(body))
                if _depth(value) > MAX_DEPTH:
                    raise json.JSONDecodeError(f"nested too deeply (more than {MAX_DEPTH} levels)", "", 0)
            except json.JSONDecodeError as exc:
                await _json_response(422, {"detail": [{
                    "type": "json_invalid", "loc": ["body", exc.pos],
                    "msg": f"the body is not JSON: {exc.msg}"}]})(scope, receive, send)
                return

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


def _content_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, or None when it has none (a chunked body) or it is not a number."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = bytes(value).strip()
            return int(text) if text.isdigit() else None
    return None


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (0 for a plain value)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _is_json(scope: Scope) -> bool:
    """True if FastAPI would read the request's body as JSON (a JSON media type, or none given)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            media = bytes(value).split(b";", 1)[0].strip().lower()
            return media == b"application/json" or (media.startswith(b"application/") and media.endswith(b"+json"))
    return True


def validation_error_response(errors: Iterable[Any]) -> Response:
    """The 422 of refused request values: each error's ``type``, ``loc`` and ``msg`` only (not
    the input it refused), every text printable and every number finite."""
    detail = []
    for error in errors:
        if not isinstance(error, dict):
            continue
        loc = error.get("loc", ())
        detail.append({
            "type": _text(error.get("type", "value_error")),
            "loc": [x if isinstance(x, int) and not isinstance(x, bool) else _text(x)
                    for x in (loc if isinstance(loc, list | tuple) else (loc,))],
            "msg": _text(error.get("msg", "")),
        })
    return _json_response(422, {"detail": detail})


async def _on_validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return validation_error_response(exc.errors())


def _text(value: object) -> str:
    """``value`` as text that UTF-8 can hold (a lone surrogate becomes its ``\\udXXX`` escape)."""
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")


def _json_response(status: int, content: Any) -> Response:
    return Response(json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")),
                    status_code=status, media_type="application/json")
