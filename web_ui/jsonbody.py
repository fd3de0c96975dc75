"""Bad input is a clear 4xx, never a 500: strict JSON bodies and safe validation errors (``install``).

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

__all__ = ["StrictJSONBodies", "install", "validation_error_response"]


def install(app: FastAPI) -> None:
    """Make ``app`` read JSON bodies strictly and render validation errors safely.

    Call it before adding other middleware, so that their headers go on its answers too.
    """
    app.add_middleware(StrictJSONBodies)
    app.add_exception_handler(RequestValidationError, _on_validation_error)


class StrictJSONBodies:
    """ASGI middleware: a request whose body is meant as JSON (a JSON content type, or none)
    and is not exactly JSON gets a 422 here; any other request goes on with its body intact."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        received: list[Message] = []
        body = bytearray()
        while True:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        if body:
            try:
                jsontext.loads(bytes(body))
            except json.JSONDecodeError as exc:
                await _json_response(422, {"detail": [{
                    "type": "json_invalid", "loc": ["body", exc.pos],
                    "msg": f"the body is not JSON: {exc.msg}"}]})(scope, receive, send)
                return

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


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
