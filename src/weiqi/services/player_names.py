"""How stored players are named on every page, sheet, file and command: the name, and for
namesakes (two 张伟 of one event) what tells them apart — ``weiqi.tournament.namesakes`` over
the rows. No transaction of its own: the callers' sessions read the rows.

>>> from datetime import date
>>> rows = [PlayerRow(id=1, name="张伟", club="北京", licence=""),
...         PlayerRow(id=2, name="张伟", club="上海", licence=""),
...         PlayerRow(id=3, name="李明", club="", licence="")]
>>> player_labels(rows)
{1: '张伟 (北京)', 2: '张伟 (上海)', 3: '李明'}

Every list of players (the organisers' list, standings, pairing and result sheets, the public
player list) is searched the same way: each word of the search in the name, the club or the
country, or the rank (``5d``, ``5段``, ``3k``, ``3级`` alike):

>>> rows.append(PlayerRow(id=4, name="王芳", club="", country="中国", rank="5d", licence=""))
>>> shown = player_labels(rows)
>>> [r.id for r in rows if matches(search_terms("北京"), r, shown[r.id])]
[1]
>>> [r.id for r in rows if matches(search_terms("5段 中国"), r, shown[r.id])]
[4]
>>> [r.id for r in rows if matches(search_terms("张"), r, shown[r.id])]
[1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg
from weiqi.store.tournament import PlayerRow
from weiqi.tournament.namesakes import Person, labels
from weiqi.tournament.ranks import Rank

MAX_SEARCH = 100
"""The longest search a list takes (characters)."""


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


def search_terms(text: str) -> tuple[str, ...]:
    """The words of a search box, case folded; ``InputError`` (field ``q``) beyond
    :data:`MAX_SEARCH` characters.

    >>> search_terms("  Li  BEIJING "), search_terms("")
    (('li', 'beijing'), ())
    """
    if len(text) > MAX_SEARCH:
        raise InputError("q", Msg("a search has at most %(limit)s characters", limit=MAX_SEARCH))
    return tuple(word.casefold() for word in text.split())


def _rank_code(word: str) -> str | None:
    try:
        return Rank.parse(word).code
    except (InputError, InvalidSetting):
        return None


def matches_fields(terms: tuple[str, ...], texts: Iterable[str], rank: str | None) -> bool:
    """Whether every word of ``terms`` is in one of ``texts`` or names ``rank`` (a code)."""
    haystack = [t.casefold() for t in texts if t]
    for word in terms:
        if any(word in t for t in haystack):
            continue
        if rank is not None and _rank_code(word) == rank:
            continue
        return False
    return True


def matches(terms: tuple[str, ...], row: PlayerRow, label: str) -> bool:
    """Whether the stored player ``row`` (shown as ``label``) matches every word of ``terms``."""
    return matches_fields(terms, (label, row.name, row.club, row.country), row.rank)
