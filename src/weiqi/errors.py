"""Typed errors of the core, turned into a CLI message or an HTTP 4xx in exactly one place each.

Every error carries ``msg``, a :class:`~weiqi.messages.Msg` (a message id plus arguments) that
names what is wrong (move number, field, line); :func:`weiqi.i18n.render` says it in the user's
language. ``message`` (and ``str(err)``) is the English text, for logs and the command line.

>>> err = IllegalMove("superko", move_number=57, vertex="D4")
>>> err.message
'move 57 at D4: superko'
>>> err.msg
Msg('move %(move)s at %(vertex)s: %(reason)s', move=57, vertex='D4', reason=Msg('superko'))
>>> InvalidSetting("komi", "must be between -50 and 50").message
'komi: must be between -50 and 50'
>>> NotFound(Msg("round %(number)s is not paired", number=3)).message
'round 3 is not paired'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from weiqi.messages import Msg


class WeiqiError(Exception):
    """Base of every error this package raises on purpose; ``msg`` says what is wrong.

    A plain ``str`` is accepted where no arguments are needed (it is the msgid). An error that
    belongs beside a form's field names it in ``field`` (a form key; ``""``: none) and says why
    in ``reason``, ``msg`` without the field's name (``msg`` itself when it names none): a
    page shows ``reason`` beside the field, whatever the error's class.

    >>> err = InvalidSetting("komi", "must be between -50 and 50")
    >>> err.field, err.reason
    ('komi', Msg('must be between -50 and 50'))
    >>> WeiqiError("the round is paired").reason
    Msg('the round is paired')
    """

    field = ""

    def __init__(self, msg: Msg | str, *, reason: Msg | None = None):
        self.msg = Msg.of(msg)
        self.reason = self.msg if reason is None else reason
        super().__init__(msg)

    @property
    def message(self) -> str:
        """The English text of ``msg``."""
        return str(self.msg)

    def __str__(self) -> str:
        return self.message


class IllegalMove(WeiqiError):
    """A move the rules forbid.

    ``kind`` is one of ``occupied``, ``suicide``, ``ko``, ``superko``, ``wrong-turn``,
    ``off-board``, ``game-over`` (also the msgid of ``reason``).
    """

    def __init__(self, kind: str, move_number: int | None = None, vertex: str | None = None):
        self.kind = kind
        self.move_number = move_number
        self.vertex = vertex
        why = Msg(kind)
        if move_number is not None and vertex is not None:
            msg = Msg(
                "move %(move)s at %(vertex)s: %(reason)s",
                move=move_number,
                vertex=vertex,
                reason=why,
            )
        elif move_number is not None:
            msg = Msg("move %(move)s: %(reason)s", move=move_number, reason=why)
        elif vertex is not None:
            msg = Msg("at %(vertex)s: %(reason)s", vertex=vertex, reason=why)
        else:
            msg = why
        super().__init__(msg, reason=why)


class InvalidSetting(WeiqiError):
    """A setting (of a ruleset, time control, event …) that cannot be used; ``field`` names
    it (a form's key, also a msgid), ``reason`` says why."""

    def __init__(self, field: str, reason: Msg | str):
        self.field = field
        why = Msg.of(reason)
        super().__init__(Msg("%(field)s: %(reason)s", field=Msg(field), reason=why), reason=why)


class InputError(WeiqiError):
    """Unreadable input (a file, a CSV row, an SGF property); ``where`` names the place."""

    def __init__(self, where: Msg | str, reason: Msg | str):
        self.where = self.field = str(where)
        self.where_msg = Msg.of(where)
        why = Msg.of(reason)
        if where:
            super().__init__(
                Msg("%(field)s: %(reason)s", field=self.where_msg, reason=why), reason=why
            )
        else:
            super().__init__(why)

    @classmethod
    def at_line(cls, source: str, line: int, reason: Msg | str) -> InputError:
        """Line ``line`` of file ``source`` cannot be used, for ``reason``: a file read row by
        row that stops at its first bad row (:class:`RowsRejected` lists them all).

        >>> InputError.at_line("results.csv", 3, "no board 9").message
        'results.csv, line 3: no board 9'
        """
        return cls(Msg("%(source)s, line %(line)s", source=source, line=line), reason)


class RowsRejected(InputError):
    """Rows of a file that cannot be read; ``problems`` lists (line, reason) in file order.

    >>> RowsRejected("players.csv", [(2, "the name is empty"), (5, "no team")]).message
    'players.csv, line 2: the name is empty; line 5: no team'
    """

    def __init__(self, source: str, problems: Sequence[tuple[int, Msg | str]]):
        self.problems = [(n, Msg.of(why)) for n, why in problems]
        # One form for every file error: "FILE, line N: reason; line M: reason".
        (first, why), *rest = self.problems or [(0, Msg("rejected"))]
        reason = why
        for n, w in rest:
            reason = Msg("%(before)s; line %(line)s: %(reason)s", before=reason, line=n, reason=w)
        super().__init__(Msg("%(source)s, line %(line)s", source=source, line=first), reason)


class FieldsRejected(InputError):
    """Fields of one form that cannot be used, all of them at once: ``problems`` maps each
    field (its form key) to why, in the form's order. ``where`` and ``reason`` are the first.

    >>> FieldsRejected({"rank": "no rank", "rating": "no number"}).where
    'rank'
    """

    def __init__(self, problems: Mapping[str, Msg | str]):
        self.problems = {field: Msg.of(why) for field, why in problems.items()}
        first, why = next(iter(self.problems.items()), ("", Msg("rejected")))
        super().__init__(first, why)


class Duplicate(FieldsRejected):
    """A field (or a team, a roster) naming what the event already holds — the same person
    entered again, a team code taken: not unreadable input but a clash with what is stored,
    HTTP 409 (``duplicate``), still named by its field so a form shows it next to the field.

    >>> err = Duplicate("team T1", "is already in the event")
    >>> err.where, err.message, list(err.problems)
    ('team T1', 'team T1: is already in the event', ['team T1'])
    """

    def __init__(self, where: Msg | str, reason: Msg | str):
        self.problems = {str(where): Msg.of(reason)}
        InputError.__init__(self, where, reason)


class DuplicateRows(RowsRejected):
    """Rows of a file that name what the event already holds (a player entered before): like
    :class:`RowsRejected`, by line, but HTTP 409 (``duplicate``)."""


class PermissionDenied(WeiqiError):
    """A role tried an action it may not take; ``action`` is a msgid (``enter results``)."""

    def __init__(self, role: str | Msg, action: str | Msg):
        self.role = str(role)
        self.action = Msg.of(action)
        who = Msg("public") if role == "public" else role
        super().__init__(Msg("%(who)s may not %(action)s", who=who, action=self.action))


class NotFound(WeiqiError):
    """A named thing (event, player, round, board, game) does not exist."""


class Conflict(WeiqiError):
    """The request contradicts what is stored, e.g. a result that is already confirmed."""


class RecordRefused(WeiqiError):
    """A stored game record that does not verify — its hash chain, its stored head or its
    signature under the site's key — and is therefore neither shown nor written to; ``game``
    names the game, ``reason`` says what failed.

    >>> print(RecordRefused("round 1 board 2", "no signature").message)
    round 1 board 2: the stored game record does not verify (no signature); it is not shown
    """

    def __init__(self, game: Msg | str, reason: Msg | str):
        self.game = Msg.of(game)
        why = Msg.of(reason)
        super().__init__(
            Msg(
                "%(game)s: the stored game record does not verify (%(reason)s); it is not shown",
                game=self.game,
                reason=why,
            ),
            reason=why,
        )


class LineupRejected(WeiqiError):
    """A team's lineup that the event refuses; ``team`` names the team, ``reason`` says why
    (a player not on the roster, too many foreign players, after the deadline, …)."""

    def __init__(self, team: str, reason: Msg | str):
        self.team = team
        why = Msg.of(reason)
        super().__init__(Msg("lineup of %(team)s: %(reason)s", team=team, reason=why), reason=why)
