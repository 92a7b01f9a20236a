"""Players of one event who share a name (two 张伟 from different clubs): what tells them apart,
how each is shown, and which one a typed name means.

Two entries are the same player when name, club, birth date and licence (an explicit ID such
as a federation number) are all equal; otherwise they are namesakes, and each is shown with
the least that tells them apart — the club, else the birth year, else the licence:

>>> from datetime import date
>>> people = [Person(1, "张伟", club="北京"), Person(2, "张伟", club="上海"), Person(3, "李明")]
>>> labels(people)
{1: '张伟 (北京)', 2: '张伟 (上海)', 3: '李明'}
>>> labels([Person(1, "张伟", club="北京", birth_date=date(1990, 3, 1)),
...         Person(2, "张伟", club="北京", birth_date=date(1995, 7, 2))])
{1: '张伟 (1990)', 2: '张伟 (1995)'}

A typed name finds its player by the label, or by the bare name when only one player has it;
a bare name two players share is refused with both labels, never guessed:

>>> find("张伟 (上海)", people), find("李明", people)
(2, 3)
>>> try:
...     find("张伟", people)
... except InputError as err:
...     err.reason.args["candidates"]
'张伟 (北京), 张伟 (上海)'
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import combinations

from weiqi.errors import InputError, NotFound
from weiqi.messages import Msg

MAX_CANDIDATES = 20
"""How many candidates an ambiguity error lists (the rest are counted)."""


@dataclass(frozen=True)
class Person:
    """What tells a player from a namesake; ``id`` is whatever the caller keys players by."""

    id: int
    name: str
    club: str = ""
    birth_date: date | None = None
    licence: str = ""


def identity_key(
    name: str, club: str = "", birth_date: date | None = None, licence: str = ""
) -> str:
    """A digest of everything that tells a player from a namesake: equal for the same player
    entered twice, different for namesakes (stored with a unique constraint per event).

    >>> identity_key("张伟", "北京") == identity_key("张伟", "北京")
    True
    >>> identity_key("张伟", "北京") == identity_key("张伟", "上海"), len(identity_key("张伟"))
    (False, 64)
    """
    parts = (name, club, birth_date.isoformat() if birth_date else "", licence)
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def same_player(a: Person, b: Person) -> bool:
    """Whether ``a`` and ``b`` are one player entered twice (nothing tells them apart).

    >>> same_player(Person(1, "张伟"), Person(2, "张伟")), same_player(
    ...     Person(1, "张伟"), Person(2, "张伟", licence="CN-123"))
    (True, False)
    """
    return (a.name, a.club, a.birth_date, a.licence) == (b.name, b.club, b.birth_date, b.licence)


def _year(p: Person) -> str:
    return str(p.birth_date.year) if p.birth_date else ""


def _date(p: Person) -> str:
    return p.birth_date.isoformat() if p.birth_date else ""


_PARTS: tuple[Callable[[Person], str], ...] = (
    lambda p: p.club,
    _year,
    lambda p: p.licence,
    _date,
)
# every choice of parts, fewest first; the birth date stands in for the year, never beside it
_CHOICES = tuple(
    choice
    for size in (1, 2, 3)
    for choice in combinations(range(len(_PARTS)), size)
    if not {1, 3} <= set(choice)
)


def _suffixes(group: Sequence[Person]) -> dict[int, str]:
    for choice in _CHOICES:
        out = {p.id: ", ".join(v for i in choice if (v := _PARTS[i](p))) for p in group}
        if all(out.values()) and len(set(out.values())) == len(group):
            return out
    # nothing shown tells them all apart (a club on one is the licence of the other): the id
    parts = (_PARTS[0], _PARTS[3], _PARTS[2])
    full = {p.id: ", ".join(v for f in parts if (v := f(p))) for p in group}
    seen = list(full.values())
    return {
        k: v if v and seen.count(v) == 1 else f"{v}, #{k}" if v else f"#{k}"
        for k, v in full.items()
    }


def labels(people: Iterable[Person]) -> dict[int, str]:
    """How each player is shown: the name, with what tells namesakes apart in brackets.

    >>> labels([Person(1, "王", licence="A1"), Person(2, "王")])
    {1: '王 (A1)', 2: '王 (#2)'}
    """
    groups: dict[str, list[Person]] = defaultdict(list)
    order: list[Person] = []
    for p in people:
        groups[p.name].append(p)
        order.append(p)
    out: dict[int, str] = {}
    for name, group in groups.items():
        if len(group) == 1:
            out[group[0].id] = name
            continue
        for pid, suffix in _suffixes(group).items():
            out[pid] = f"{name} ({suffix})"
    return {p.id: out[p.id] for p in order}


def candidates_text(names: Sequence[str]) -> str:
    """The labels an ambiguity lists, the rest counted (bounded output for any field)."""
    shown = ", ".join(names[:MAX_CANDIDATES])
    more = len(names) - MAX_CANDIDATES
    return f"{shown} … (+{more})" if more > 0 else shown


def shared_name(field: str, text: str, names: Sequence[str]) -> InputError:
    """The refusal of a name ``text`` that the players labelled ``names`` share, on ``field``:
    it lists their labels (:func:`candidates_text`) for the person to type one."""
    return InputError(
        field,
        Msg(
            "%(name)s is the name of %(count)s players: %(candidates)s; type one of them as shown",
            name=text,
            count=len(names),
            candidates=candidates_text(names),
        ),
    )


def find(typed: str, people: Sequence[Person], *, field: str = "player") -> int:
    """The id of the player ``typed`` means: an exact label, or a name only one player has.
    ``InputError`` (naming ``field``) lists the candidates of a shared name; ``NotFound`` when
    nobody is called so. A ``#id`` as labels show it is accepted too.

    >>> find("#2", [Person(1, "王"), Person(2, "王")])
    2
    """
    text = typed.strip()
    shown = labels(people)
    by_label = [pid for pid, label in shown.items() if label == text]
    if len(by_label) == 1:
        return by_label[0]
    named = [p.id for p in people if p.name == text]
    if len(named) == 1 and not by_label:
        return named[0]
    if len(named) + len(by_label) > 1:
        wanted_ids = {*named, *by_label}
        names = [shown[p.id] for p in people if p.id in wanted_ids]
        raise shared_name(field, text, names)
    if text.startswith("#") and text[1:].isdigit():
        wanted = int(text[1:])
        if any(p.id == wanted for p in people):
            return wanted
    raise NotFound(Msg("no player %(name)s", name=repr(text)))
