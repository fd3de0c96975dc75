"""JSON text read strictly: exactly RFC 8259 JSON in UTF-8, or ``json.JSONDecodeError`` saying why.

Python's ``json`` reads more than JSON, and fails in more ways than ``JSONDecodeError``:
``NaN``, ``Infinity`` and ``-Infinity`` are read as floats and ``1e999`` as infinity (which
cannot be written back as JSON); an escaped lone surrogate (``"\\ud800"``) becomes a ``str``
that cannot be encoded as UTF-8 again; nesting deeper than the interpreter's recursion limit
raises ``RecursionError``, an integer of more than 4,300 digits ``ValueError``, and bytes that
are not UTF-8 ``UnicodeDecodeError``. ``loads`` turns each of these into a ``JSONDecodeError``
with a plain message (``.msg``), so that a reader of outside text (a table log, an HTTP
body) has one error to report.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["MAX_DIGITS", "loads"]

MAX_DIGITS = 4300
"""The most digits of an integer read (Python's own default limit for ``int(text)``)."""


class _Refused(ValueError):
    """A value that the json module would read but that is not JSON (raised from its hooks)."""


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {_brief(text)} is out of range")
    return value


def _int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise _Refused(f"an integer of {digits:,} digits, more than {MAX_DIGITS:,}")
    return int(text)


def _brief(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:20]}..."


def loads(data: str | bytes) -> Any:
    """The value of JSON text (bytes: UTF-8); ``json.JSONDecodeError`` if it is not exactly JSON."""
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            shown = bytes(data).decode("utf-8", "replace")
            at = len(bytes(data)[:exc.start].decode("utf-8"))
            raise json.JSONDecodeError(f"byte 0x{data[exc.start]:02x} is not UTF-8", shown, at) from None
    else:
        text = data
    try:
        value = json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None
    except ValueError as exc:  # _Refused, or int() refusing more digits than the interpreter allows
        raise json.JSONDecodeError(str(exc), text, 0) from None
    _check_text(value, text)
    return value


def _check_text(value: Any, text: str) -> None:
    """``JSONDecodeError`` if a string of ``value`` (a key too) holds a lone surrogate, which no
    UTF-8 text can hold: it came from an escape such as ``\\ud800`` without its pair."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                escape = f"\\u{ord(item[exc.start]):04x}"
                at = max(text.lower().find(escape), 0)
                raise json.JSONDecodeError(f"a lone surrogate {escape} is not text", text, at) from None
