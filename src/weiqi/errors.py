"""Typed errors of the core, turned into a CLI message or an HTTP 4xx in exactly one place each.

Every error carries a one-line, user-facing ``message`` that names what is wrong (move number,
field, line); no caller needs to format a traceback.

>>> err = IllegalMove("superko", move_number=57, vertex="D4")
>>> err.message
'move 57 at D4: superko'
>>> InvalidSetting("komi", "must be between -50 and 50").message
'komi: must be between -50 and 50'
"""

from __future__ import annotations


class WeiqiError(Exception):
    """Base of every error this package raises on purpose."""

    @property
    def message(self) -> str:
        return str(self)


class IllegalMove(WeiqiError):
    """A move the rules forbid.

    ``reason`` is one of ``occupied``, ``suicide``, ``ko``, ``superko``, ``wrong-turn``,
    ``off-board``, ``game-over``.
    """

    def __init__(self, reason: str, move_number: int | None = None, vertex: str | None = None):
        self.reason = reason
        self.move_number = move_number
        self.vertex = vertex
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.move_number is not None:
            where.append(f"move {self.move_number}")
        if self.vertex is not None:
            where.append(f"at {self.vertex}")
        return f"{' '.join(where)}: {self.reason}" if where else self.reason


class InvalidSetting(WeiqiError):
    """A setting (of a ruleset, time control, event …) that cannot be used."""

    def __init__(self, field: str, reason: str):
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


class InputError(WeiqiError):
    """Unreadable input (a file, a CSV row, an SGF property); ``where`` names the place."""

    def __init__(self, where: str, reason: str):
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}" if where else reason)


class PermissionDenied(WeiqiError):
    """A role tried an action it may not take."""

    def __init__(self, role: str, action: str):
        self.role = role
        self.action = action
        super().__init__(f"{role} may not {action}")


class NotFound(WeiqiError):
    """A named thing (event, player, round, board, game) does not exist."""


class Conflict(WeiqiError):
    """The request contradicts what is stored, e.g. a result that is already confirmed."""


class LineupRejected(WeiqiError):
    """A team's lineup that the event refuses; ``team`` names the team, ``reason`` says why
    (a player not on the roster, too many foreign players, after the deadline, …)."""

    def __init__(self, team: str, reason: str):
        self.team = team
        self.reason = reason
        super().__init__(f"lineup of {team}: {reason}")
