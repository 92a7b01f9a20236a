"""The JSON form of the record's values: dataclasses, enums, fractions, dates, results.

Each value is written by its declared type and read back by it, so a record read from JSON is
equal to the one written. Canonical JSON (sorted keys, no spaces, UTF-8) is what the hash chain
signs.

>>> from weiqi.referee.rulings import Ruling, RulingKind
>>> from weiqi.rules.color import Color
>>> r = Ruling(RulingKind.TIME_LOSS, reason="flag fell", loser=Color.WHITE)
>>> data = to_data(r)
>>> data["kind"], data["loser"], to_data(r.result())
('time_loss', 'W', 'B+T')
>>> from_data(Ruling, data) == r
True
>>> from_data(Ruling, {**data, "loser": "X"}, "event 4")
Traceback (most recent call last):
...
weiqi.errors.InputError: event 4.loser: 'X' is not one of B | W
>>> canonical({"b": 1, "a": "黑"})
'{"a":"黑","b":1}'
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import types
import typing
from datetime import date
from fractions import Fraction
from typing import Any

from weiqi.errors import InputError, WeiqiError
from weiqi.messages import Msg
from weiqi.rules.result import Result

#: A field added to a record's value after records were stored carries this in its metadata:
#: written only when it differs from its default, so that every stored entry (which lacks it)
#: keeps its canonical JSON, hence its hash: ``field(default="", metadata={OMIT_DEFAULT: True})``.
OMIT_DEFAULT = "weiqi.omit_default"


def canonical(data: object) -> str:
    """Canonical JSON: sorted keys, compact separators, non-ASCII kept."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def to_data(value: object) -> Any:
    """A JSON-ready form of ``value``."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Result):
        return value.to_code()
    if isinstance(value, tuple | list):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_data(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not (f.metadata.get(OMIT_DEFAULT) and getattr(value, f.name) == f.default)
        }
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def from_data(kind: Any, data: Any, where: str = "value") -> Any:
    """Read ``data`` as a value of type ``kind``; :class:`InputError` names ``where`` on
    anything that does not fit."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(kind)
        if data is None and type(None) in options:
            return None
        real = [o for o in options if o is not type(None)]
        if len(real) != 1:
            raise TypeError(f"unsupported union {kind}")
        return from_data(real[0], data, where)
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(data, list):
            raise InputError(where, Msg("expected a list, found %(data)s", data=repr(data)))
        return tuple(from_data(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
    if origin is dict:
        key_kind, value_kind = typing.get_args(kind)
        if not isinstance(data, dict):
            raise InputError(where, Msg("expected an object, found %(data)s", data=repr(data)))
        return {
            from_data(key_kind, k, where): from_data(value_kind, v, f"{where}.{k}")
            for k, v in data.items()
        }
    if kind is Any or kind is object:
        return data
    try:
        return _read_plain(kind, data, where)
    except InputError:
        raise
    except (WeiqiError, ValueError, TypeError) as err:
        message = err.message if isinstance(err, WeiqiError) else str(err)
        raise InputError(where, message) from None


@functools.cache
def _shape(kind: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """A dataclass's resolved field types and its init fields (resolving them is slow)."""
    return typing.get_type_hints(kind), {f.name: f for f in dataclasses.fields(kind) if f.init}


def _read_plain(kind: Any, data: Any, where: str) -> Any:
    if kind is bool:
        if not isinstance(data, bool):
            raise InputError(where, Msg("expected true or false, found %(data)s", data=repr(data)))
        return data
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise InputError(where, Msg("expected a whole number, found %(data)s", data=repr(data)))
        return data
    if kind is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise InputError(where, Msg("expected a number, found %(data)s", data=repr(data)))
        return data
    if kind is str:
        if not isinstance(data, str):
            raise InputError(where, Msg("expected text, found %(data)s", data=repr(data)))
        return data
    if not isinstance(kind, type):
        raise TypeError(f"unsupported type {kind!r}")
    if issubclass(kind, enum.Enum):
        try:
            return kind(data)
        except ValueError:
            choices = " | ".join(str(m.value) for m in kind)
            raise InputError(
                where, Msg("%(data)s is not one of %(choices)s", data=repr(data), choices=choices)
            ) from None
    if kind is Fraction:
        if not isinstance(data, str):
            raise InputError(
                where, Msg("expected a fraction as text, found %(data)s", data=repr(data))
            )
        return Fraction(data)
    if kind is date:
        return date.fromisoformat(data)
    if kind is Result:
        return Result.parse(data)
    if dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise InputError(where, Msg("expected an object, found %(data)s", data=repr(data)))
        hints, fields = _shape(kind)
        unknown = set(data) - set(fields)
        if unknown:
            raise InputError(
                where, Msg("unknown field %(unknown)s", unknown=repr(sorted(unknown)[0]))
            )
        values = {}
        for name, field in fields.items():
            if name in data:
                values[name] = from_data(hints[name], data[name], f"{where}.{name}")
            elif (
                field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            ):
                raise InputError(where, Msg("missing field %(name)s", name=repr(name)))
        return kind(**values)
    raise TypeError(f"unsupported type {kind.__name__}")
