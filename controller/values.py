"""A fast copy-with-changes for the frozen slotted dataclasses of the table state.

``evolve(obj, **changes)`` gives what ``dataclasses.replace`` gives, several times faster.
For the type checker it *is* ``dataclasses.replace``: mypy's dataclass plugin checks each
call's field names and their types against the class (a misspelt field is an error), so
every state update is typed while replay keeps the fast copier below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["evolve"]

T = TypeVar("T")

_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A function copying an instance of ``cls`` field by field, written once per class.

    The copy is filled in as an instance of a plain twin class with the same slots, whose
    attribute stores are ordinary (a frozen class's go through ``object.__setattr__``, about
    four times slower), and then given ``cls`` as its class: the layouts are the same, so
    Python allows it. A class whose layout does not allow it is copied the slow way.
    """
    names: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    twin: Any = type(cls.__name__, (), {"__slots__": names, "__module__": cls.__module__,
                                        "__qualname__": cls.__qualname__})
    try:
        object.__new__(twin).__class__ = cls
    except TypeError:
        twin = None
    scope: dict[str, Any] = {"new_": object.__new__, "set_": object.__setattr__, "cls": cls, "twin": twin}
    if twin is not None:
        lines = ["def copy(obj, ch):", "    new = new_(twin)"]
        lines += [f"    new.{n} = obj.{n}" for n in names]
        lines += ["    for k, v in ch.items():", "        setattr(new, k, v)",
                  "    new.__class__ = cls", "    return new"]
    else:
        lines = ["def copy(obj, ch):", "    new = new_(cls)"]
        lines += [f"    set_(new, {n!r}, obj.{n})" for n in names]
        lines += ["    for k, v in ch.items():", "        set_(new, k, v)", "    return new"]
    exec("\n".join(lines), scope)  # the source is built from the class's own field names
    fn: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    return fn


def _evolve(obj: T, /, **changes: Any) -> T:
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


if TYPE_CHECKING:
    # mypy checks ``evolve(board, phase=...)`` as ``dataclasses.replace``: field names and types
    from dataclasses import replace as evolve
else:
    evolve = _evolve
