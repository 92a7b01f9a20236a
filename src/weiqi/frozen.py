"""A copy of a frozen dataclass with some fields changed, without ``dataclasses.replace``'s cost.

``dataclasses.replace`` builds the copy through ``__init__`` (and ``__post_init__``), which sets
every field with ``object.__setattr__``: most of a replay's time went there. The immutable states
the clock and the referee step through hold plain values their operations have already checked,
so a copy of the instance dict is enough; only the names of the changed fields are checked (an
``assert``).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int = 0
>>> move = replacer(Point)
>>> move(Point(1, 2), y=5)
Point(x=1, y=5)
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Replace(Protocol[T]):
    """What :func:`replacer` returns: ``replace(instance, **changes)``, a changed copy."""

    def __call__(self, instance: T, /, **changes: Any) -> T: ...


def replacer(cls: type[T]) -> Replace[T]:
    """``dataclasses.replace`` for instances of the dataclass ``cls`` (not of subclasses), as a
    copy of the instance dict with ``changes`` applied: no ``__init__``, no ``__post_init__``."""
    names = frozenset(f.name for f in fields(cls))  # type: ignore[arg-type]
    new = object.__new__

    def replace(instance: T, /, **changes: Any) -> T:
        assert changes.keys() <= names, changes.keys() - names
        copy = new(cls)
        copy.__dict__.update(instance.__dict__)
        copy.__dict__.update(changes)
        return copy

    return replace
