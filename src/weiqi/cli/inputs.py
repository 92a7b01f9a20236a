"""Parsing of command-line input: values that name rows in the database, and input files.

Integers beyond 64 bits name no round, board, event or season, and the database driver would
fail on them with a traceback rather than find nothing; every command group checks them here.

>>> db_int("--round")("3")
3
>>> db_int("--round")("100000000000000000000")
Traceback (most recent call last):
...
weiqi.errors.InputError: --round: 100000000000000000000 is out of range
"""

from __future__ import annotations

import codecs
import csv
import enum
import io
from collections.abc import Callable
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

import typer

from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg


def in_db_range(option: str, value: int) -> int:
    """``value`` if a 64-bit database integer can hold it, else an :class:`InputError`."""
    if not -(2**63) <= value < 2**63:
        raise InputError(option, Msg("%(value)s is out of range", value=value))
    return value


def db_int(option: str) -> Callable[[str], int]:
    """A Typer ``parser`` for an integer option that the database will look up."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise InputError(
                option, Msg("%(text)s is not a whole number", text=repr(text))
            ) from None
        return in_db_range(option, value)

    return parse


def read_bytes(path: Path) -> bytes:
    """A file's bytes; a file that cannot be read is an :class:`InputError` naming it."""
    try:
        return path.read_bytes()
    except OSError as err:
        raise InputError(str(path), err.strerror or "cannot be read") from None


def write_bytes(path: Path, data: bytes) -> None:
    """Write a file; one that cannot be written is an :class:`InputError` naming it."""
    try:
        path.write_bytes(data)
    except OSError as err:
        raise InputError(str(path), err.strerror or "cannot be written") from None


def read_text(path: Path) -> str:
    """A CSV file's text: UTF-8 (with or without a byte order mark), UTF-16 with one, or else
    GB18030 — what Excel on a Chinese Windows saves as "CSV" — with a note on standard error,
    as the SGF reader does. Anything else is an :class:`InputError` naming the file.
    """
    data = read_bytes(path)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise InputError(
                str(path), Msg("starts as UTF-16 text but is not valid UTF-16")
            ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        raise InputError(str(path), Msg("is not UTF-8 (nor GB18030) text")) from None
    typer.echo(f"note: {path} is not UTF-8; read as GB18030 (Chinese Windows)", err=True)
    return text


E = TypeVar("E", bound=enum.Enum)


def choice(kind: type[E], value: str, option: str) -> E:
    """The member of ``kind`` whose value is ``value``, or an error listing the choices."""
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(str(m.value) for m in kind)
        raise InvalidSetting(
            option, Msg("%(value)s is not one of %(names)s", value=repr(value), names=names)
        ) from None


def komi_stones(text: str, option: str = "--komi") -> Fraction:
    """Komi in stones as the command line takes it (``15/4``, ``3.75``, ``0``), or an error
    naming ``option``.

    >>> komi_stones("3.75"), komi_stones(" 15/4 "), komi_stones("-0.5")
    (Fraction(15, 4), Fraction(15, 4), Fraction(-1, 2))
    >>> komi_stones("lots")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: --komi: 'lots' is not a number of stones
    """
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidSetting(
            option, Msg("%(komi)s is not a number of stones", komi=repr(text))
        ) from None


def parse_time(value: str | None, option: str = "--start") -> datetime | None:
    """An ISO 8601 time from the command line (``None`` stays ``None``)."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise InputError(
            option,
            Msg("%(value)s is not an ISO 8601 time like 2026-05-01T09:00", value=repr(value)),
        ) from None


#: The help of an argument that lists player ids (``weiqi team lineup``, ``draft protect``).
PLAYER_IDS_HELP = (
    "Player ids separated by commas: P1,P2,P3,P4; quote an id that holds a comma, as in the "
    """CSV it came from: '"Li, Wei",P2'"""
)


def player_ids(text: str, argument: str = "PLAYERS") -> list[str]:
    """The player ids of one command-line argument, read as one CSV row: separated by commas,
    an id that holds a comma (or a quote) quoted as the teams CSV quotes it. Blank ids are
    skipped; an argument that is not one such row (an unclosed quote) is refused at input,
    naming the fix — never split into players who do not exist.

    >>> player_ids("P1, P2,P3,")
    ['P1', 'P2', 'P3']
    >>> player_ids('"Li, Wei",P2')
    ['Li, Wei', 'P2']
    >>> player_ids('"Li, Wei,P2')
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: PLAYERS: '"Li, Wei,P2' is not a list of player ids ...
    """
    try:
        rows = list(csv.reader(io.StringIO(text), skipinitialspace=True, strict=True))
    except csv.Error:
        rows = []
    if len(rows) != 1:
        raise InputError(
            argument,
            Msg(
                "%(text)s is not a list of player ids separated by commas; quote an id that "
                "holds a comma as a whole, e.g. '\"Li, Wei\",P2'",
                text=repr(text),
            ),
        )
    return [cell.strip() for cell in rows[0] if cell.strip()]


def lag_settings(text: str | None) -> dict[str, float]:
    """``--lag``: the online games' network-lag allowance as ``GAIN/CAP`` seconds (each move
    adds GAIN to a player's quota, which holds at most CAP), or ``off`` (also ``0``); the
    settings it gives (none when not given: the default, 1/3).

    >>> lag_settings("0.5/2"), lag_settings("off"), lag_settings(None)
    ({'lag_gain': 0.5, 'lag_cap': 2.0}, {'lag_gain': 0.0}, {})
    >>> lag_settings("3")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: --lag: '3' is not GAIN/CAP in seconds (such as 1/3) or off
    """
    if text is None:
        return {}
    words = text.strip().lower()
    if words in ("off", "0"):
        return {"lag_gain": 0.0}
    gain, slash, cap = words.partition("/")
    try:
        if not slash:
            raise ValueError(text)
        return {"lag_gain": float(gain), "lag_cap": float(cap)}
    except ValueError:
        raise InputError(
            "--lag",
            Msg("%(text)s is not GAIN/CAP in seconds (such as 1/3) or off", text=repr(text)),
        ) from None
