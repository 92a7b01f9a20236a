"""What a referee sends — a form's choices or an API body — read as the core's values.

One reading for a game entered over the board (:mod:`weiqi.services.games`) and one played on
the server (:mod:`weiqi.services.live_referee`): both refuse the same input with the same
reason, next to the same field. Only what a referee may record differs between the two: a
board the server keeps cannot see a double move or a take-back (``LIVE_INFRACTIONS``).

>>> infraction("phone_ringing", "W", "", " rang twice ", offered=LIVE_INFRACTIONS)
Infraction(kind=<InfractionKind.PHONE_RINGING: 'phone_ringing'>, offender=<Color.WHITE: 'W'>, \
reported_by=None, penalty=None, points=(), prize_demotion=False, suspension=False, \
note='rang twice', earlier_in_event=0)
>>> infraction("double_move", "B", "", "", offered=LIVE_INFRACTIONS)
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: infraction: a referee does not record double move in this game
>>> ruling("forfeit", "did not come", "B").loser
<Color.BLACK: 'B'>
>>> ruling("draw", " ", "")
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: reason: a ruling states its reason
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.rulings import WITH_LOSER, Ruling, RulingKind
from weiqi.rules.color import Color
from weiqi.rules.vertex import parse_vertex
from weiqi.text import clean_note, stated_reason

#: Infractions a referee records on a game from the page (the ko and forbidden-point kinds
#: follow from a move itself in strict play mode, R-REF-5, and are not entered by hand).
RECORDABLE = tuple(
    k
    for k in InfractionKind
    if k not in (InfractionKind.KO_WITHOUT_THREAT, InfractionKind.FORBIDDEN_POINT)
)
#: The infractions a referee records in a game played on the server: conduct (R-REF-6). The
#: board's own errors (a double move, a take-back, capture errors, the clock pressed before the
#: move) cannot happen on a board the server keeps, and ko and forbidden points follow from a
#: move itself.
LIVE_INFRACTIONS = (
    InfractionKind.DISTURBING,
    InfractionKind.DISCUSSING_GAME,
    InfractionKind.CONSULTING_MATERIAL,
    InfractionKind.TALKING,
    InfractionKind.PHONE_RINGING,
    InfractionKind.PHONE_LOOKING,
    InfractionKind.SMOKING,
    InfractionKind.CHEATING,
)
#: Rulings that end a game (R-END-1(d)), over the board and on the server alike; the stone
#: rulings of R-REF-3 need a recorded board.
RULINGS = (
    RulingKind.DRAW,
    RulingKind.REPLAY,
    RulingKind.BOTH_LOSE,
    RulingKind.NO_RESULT,
    RulingKind.FORFEIT,
    RulingKind.TIME_LOSS,
    RulingKind.LOSS,
)

Kind = TypeVar("Kind", InfractionKind, RulingKind)


def color(text: str | None, field: str) -> Color:
    """``B``/``W`` (also Black, White, 黑, 白) as typed or chosen for ``field``.

    >>> color(" 白 ", "offender")
    <Color.WHITE: 'W'>
    >>> color("", "loser")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: loser: choose Black or White
    """
    key = (text or "").strip().upper()
    if not key:  # a form's choice left empty
        raise InvalidSetting(field, Msg("choose Black or White"))
    if key in ("B", "BLACK", "黑"):
        return Color.BLACK
    if key in ("W", "WHITE", "白"):
        return Color.WHITE
    raise InvalidSetting(field, Msg("%(text)s is not B or W", text=repr(text)))


def points(text: str, size: int) -> tuple[int, ...]:
    """The stones an infraction concerns, as GTP vertices separated by spaces or commas.

    >>> points("A1, B2", 9)
    (0, 10)
    """
    found = []
    for vertex in text.replace(",", " ").split():
        p = parse_vertex(vertex, size)
        if p is None:
            raise InvalidSetting("points", Msg("a pass is no point"))
        found.append(p)
    return tuple(found)


def infraction(
    kind: str,
    offender: str,
    penalty: str | None,
    note: str,
    stones: str = "",
    *,
    size: int = 19,
    offered: Collection[InfractionKind] = RECORDABLE,
) -> Infraction:
    """The infraction a referee rules: its ``kind`` among ``offered``, the ``offender``, the
    referee's ``penalty`` where the rules leave a choice (empty: the catalogue's, R-REF-6),
    a ``note`` and the ``stones`` concerned (capture errors) on a board of ``size`` lines."""
    what = _choice(InfractionKind, kind, offered, "infraction", Msg("choose the infraction"),
                   Msg("%(kind)s is not an infraction", kind=repr(kind)))  # fmt: skip
    who = color(offender, "offender")
    chosen = None
    if penalty:
        try:
            chosen = Penalty(penalty)
        except ValueError:
            raise InvalidSetting(
                "penalty", Msg("%(penalty)s is not a penalty", penalty=repr(penalty))
            ) from None
    text = clean_note("note", note)
    return Infraction(what, who, None, chosen, points(stones, size), note=text)


def ruling(
    kind: str, reason: str, loser: str | None, *, offered: Collection[RulingKind] = RULINGS
) -> Ruling:
    """The ruling that ends a game (R-END-1(d)): its ``kind`` among ``offered``, the stated
    ``reason``, and the ``loser`` for a forfeit, a time loss or a loss (for another ruling a
    loser is refused: the form's two choices disagree). Each refusal names its field.

    >>> ruling("draw", "both flags fell", "W")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: loser: draw names no loser
    """
    what = _choice(RulingKind, kind, offered, "ruling", Msg("choose the ruling"),
                   Msg("%(kind)s is not a ruling", kind=repr(kind)))  # fmt: skip
    why = stated_reason(reason, Msg("a ruling states its reason"))
    if what in WITH_LOSER:
        return Ruling(what, why, color(loser, "loser"))
    if loser:
        raise InvalidSetting("loser", Msg("%(kind)s names no loser", kind=what))
    return Ruling(what, why)


def _choice(
    kind: type[Kind], text: str, offered: Collection[Kind], field: str, none: Msg, unknown: Msg
) -> Kind:
    """The choice of ``field`` sent as ``text``: one of ``offered``; refused with ``none`` when
    nothing was chosen, ``unknown`` when it is not a ``kind``, and as not recorded in this game
    when it is one but not offered here."""
    if not text:
        raise InvalidSetting(field, none)
    try:
        value = kind(text)
    except ValueError:
        raise InvalidSetting(field, unknown) from None
    if value not in offered:
        raise InvalidSetting(
            field, Msg("a referee does not record %(kind)s in this game", kind=value)
        )
    return value
