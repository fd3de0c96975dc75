"""A fast copy-with-changes for the frozen slotted dataclasses of the table state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["evolve"]

T = TypeVar("T")

_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A function copying an instance of ``cls`` field by field, written once per class."""
    names: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    lines = ["def copy(obj, ch):", "    new = new_(cls)"]
    for n in names:
        lines.append(f"    set_(new, {n!r}, obj.{n})")
    lines += ["    for k, v in ch.items():", "        set_(new, k, v)", "    return new"]
    scope: dict[str, Any] = {"new_": object.__new__, "set_": object.__setattr__, "cls": cls}
    exec("\n".join(lines), scope)  # the source is built from the class's own field names
    fn: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    return fn


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen, slotted dataclass ``obj`` with ``changes`` applied.

    Same result as ``dataclasses.replace`` for these classes (no ``__post_init__``, no
    init-only fields, no inherited slots), several times faster: the table takes one step
    per card, and each step copies the board and the table state.
    """
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    result: T = copier(obj, changes)
    return result
