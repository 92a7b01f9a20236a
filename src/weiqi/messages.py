"""Messages as values: an id plus arguments, translated and formatted in one place.

The core (rules/ clock/ referee/ tournament/ league/) never writes a sentence for a user: it
returns or raises a :class:`Msg`, whose ``id`` is the English msgid of the catalogues (with
``%(name)s`` placeholders) and whose ``args`` are values — numbers, fractions of a stone,
colours, results, vertices, names, or other messages. :func:`weiqi.i18n.render` turns one into
text for a locale (pages, API and CLI all call it): a ``Fraction`` becomes ``3又3/4`` in Chinese
and ``3.75`` in English, a ``Color`` 黑/Black, a ``Result`` 黑胜3/4子/``B+1.5``; a ``str`` is
a name or quoted input and is shown as it is; a nested ``Msg`` is translated in turn.

>>> m = Msg("round %(number)s is not public", number=1)
>>> m.id, dict(m.args)
('round %(number)s is not public', {'number': 1})
>>> str(m)
'round 1 is not public'
>>> Msg.of("the name is empty") == Msg("the name is empty")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

#: What a message argument may be: a ``str`` (shown verbatim: a name, a quoted input), an
#: ``int``, a ``float``, a ``Fraction`` (of a stone), a ``Color``, a ``Result``, a nested
#: ``Msg``, ``None`` — anything else is shown as ``str(value)``.
Arg = object


class Msg:
    """A message id (the English msgid, ``%(name)s`` placeholders) and its arguments.

    Immutable and comparable; ``str(msg)`` is the English text (for logs, ``repr`` of errors
    and tests), rendered by the same translator as every other language.
    """

    __slots__ = ("_args", "id")

    id: str
    _args: Mapping[str, Arg]

    def __init__(self, id: str, /, **args: Arg) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "_args", MappingProxyType(dict(args)))

    @classmethod
    def of(cls, text: str | Msg) -> Msg:
        """``text`` as a message: a ``Msg`` stays as it is, a ``str`` is a msgid without
        arguments (translated when the catalogues know it, shown as it is otherwise)."""
        return text if isinstance(text, Msg) else cls(text)

    @property
    def args(self) -> Mapping[str, Arg]:
        return self._args

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Msg is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.id, dict(self._args)) == (
            other.id,
            dict(other._args),
        )

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted((k, repr(v)) for k, v in self._args.items()))))

    def __repr__(self) -> str:
        inner = "".join(f", {k}={v!r}" for k, v in self._args.items())
        return f"Msg({self.id!r}{inner})"

    def __str__(self) -> str:
        # The translator lives in the shell (it reads the catalogues); imported when first used so
        # that the core stays free of it.
        from weiqi.i18n import render

        return render(self, "en")
