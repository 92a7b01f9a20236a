"""How stored players are named on every page, sheet, file and command: the name, and for
namesakes (two 张伟 of one event) what tells them apart — ``weiqi.tournament.namesakes`` over
the rows. No transaction of its own: the callers' sessions read the rows.

>>> from datetime import date
>>> rows = [PlayerRow(id=1, name="张伟", club="北京", licence=""),
...         PlayerRow(id=2, name="张伟", club="上海", licence=""),
...         PlayerRow(id=3, name="李明", club="", licence="")]
>>> player_labels(rows)
{1: '张伟 (北京)', 2: '张伟 (上海)', 3: '李明'}
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.store.tournament import PlayerRow
from weiqi.tournament.namesakes import Person, labels


def person(p: PlayerRow) -> Person:
    """What tells a stored player from a namesake."""
    return Person(p.id, p.name, p.club, p.birth_date, p.licence)


def player_labels(players: Iterable[PlayerRow]) -> dict[int, str]:
    """Each player's label by row id: the name, and for namesakes what tells them apart
    (``张伟 (北京)``). A label depends only on the players of the same name, so ``players``
    must hold every player of the event who shares a name with one of them."""
    return labels(person(p) for p in players)


def namesake_labels(session: Session, event_id: int, *rows: PlayerRow) -> dict[int, str]:
    """The labels of ``rows`` (players of ``event_id``), from their namesakes only."""
    names = {r.name for r in rows}
    group = session.scalars(
        select(PlayerRow).where(PlayerRow.event_id == event_id, PlayerRow.name.in_(names))
    ).all()
    return player_labels(group)
