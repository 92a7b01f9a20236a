"""An event's players filled from a rating list: rank, rating, club, country, EGF PIN and FFG
licence (issue #14).

Each player of the event is looked for in the list (read by :mod:`weiqi.formats.rating_lists`):

* by PIN (``by="pin"`` or ``"both"``): the player's EGF PIN, else FFG licence (kept in the
  player's details, as an OpenGotha import or an earlier fill leaves them) against the list's;
* by name (``by="name"``, or ``"both"`` when the PIN finds nothing): surname and given name,
  whatever their case, accents, hyphens and spaces (:func:`~weiqi.formats.rating_lists.name_key`).
  A player whose surname and given name are known apart (an OpenGotha import) is matched in
  that order; a name in one string is matched surname first or given name first, and a Chinese
  name in characters is read in pinyin, surname first, as the EGD writes it (张伟: Zhang Wei).

A name two list entries share (the EGD has several Chen Wei) is *ambiguous*: reported with the
candidates, never guessed — a PIN tells them apart. What the list has replaces what the player
had; what it lacks (an FFG list has no grade, a ``.tou`` no rating) stays. Names are never
changed.

Usage (``weiqi player rating-list`` calls this)::

    listed = read_rating_list(Path("allworld_lp.html").read_bytes(), "egd")
    report = fill_from_rating_list(db, actor, event_id, listed.players, by="both")
    report.matched[0].changes  # (Change('rank', '3k', '2k'), Change('rating', '', '1950'), …)
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from weiqi.errors import InvalidSetting
from weiqi.formats.rating_lists import RatedPlayer, name_key
from weiqi.formats.romanize import ascii_name, is_han
from weiqi.messages import Msg
from weiqi.services import tournament
from weiqi.services.actor import Actor
from weiqi.services.events import event_players
from weiqi.services.permissions import Action, require
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.tournament import PlayerRow

MatchBy = Literal["pin", "name", "both"]
MATCH_BY: tuple[MatchBy, ...] = ("pin", "name", "both")
CANDIDATES_SHOWN = 5
"""Entries named for an ambiguous player (the count is whole)."""


@dataclass(frozen=True)
class Change:
    """One field of a player that the list changed: ``before`` and ``after`` as text
    (``""`` for none), ``field`` one of rank, rating, club, country, egf_pin, ffg_licence."""

    field: str
    before: str
    after: str


@dataclass(frozen=True)
class Matched:
    """A player found in the list: how (``pin`` or ``name``), the entry's name, and what
    changed (empty when the player already had everything the list has)."""

    player: str
    entry: str
    by: Literal["pin", "name"]
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class Ambiguous:
    """A player whose name several entries have: the first of them (``count`` in all)."""

    player: str
    candidates: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class FillReport:
    """What a fill did (or, ``dry_run``, would do), players in the event's order."""

    matched: tuple[Matched, ...]
    ambiguous: tuple[Ambiguous, ...]
    not_found: tuple[str, ...]
    dry_run: bool

    @property
    def changed(self) -> int:
        """How many players changed."""
        return sum(1 for m in self.matched if m.changes)


class _Index:
    """The list by PIN, licence and name key (each to the entries' positions)."""

    def __init__(self, players: Sequence[RatedPlayer]) -> None:
        self.players = players
        self.pin: dict[str, list[int]] = defaultdict(list)
        self.licence: dict[str, list[int]] = defaultdict(list)
        self.surname_first: dict[str, list[int]] = defaultdict(list)
        self.given_first: dict[str, list[int]] = defaultdict(list)
        for i, p in enumerate(players):
            if p.egf_pin:
                self.pin[p.egf_pin].append(i)
            if p.ffg_licence:
                self.licence[p.ffg_licence].append(i)
            self.surname_first[name_key(p.surname, p.given_name)].append(i)
            if p.given_name:
                self.given_first[name_key(p.given_name, p.surname)].append(i)

    def by_pin(self, extra: dict[str, object]) -> list[int]:
        pin, licence = str(extra.get("egf_pin") or ""), str(extra.get("ffg_licence") or "")
        if pin and pin in self.pin:
            return self.pin[pin]
        if licence and licence in self.licence:
            return self.licence[licence]
        return []

    def by_name(self, row: PlayerRow, extra: dict[str, object]) -> list[int]:
        surname, given = str(extra.get("surname") or ""), str(extra.get("given_name") or "")
        if surname:
            return self.surname_first.get(name_key(*ascii_name(surname, given)), [])
        if any(is_han(c) for c in row.name):
            return self.surname_first.get(name_key(*ascii_name(row.name)), [])
        key = name_key(row.name)
        if not key:
            return []
        found = self.surname_first.get(key, []) + self.given_first.get(key, [])
        return sorted(set(found))


def fill_from_rating_list(
    db: Database,
    actor: Actor,
    event_id: int,
    players: Sequence[RatedPlayer],
    *,
    by: MatchBy = "both",
    dry_run: bool = False,
) -> FillReport:
    """Fill the event's players from the list ``players`` (see the module), in one
    transaction; ``dry_run`` reports what would change and changes nothing.

    Those who manage the event's players may (organisers, the chief referee), at any time, as
    editing a player: rounds already paired stay as they were paired (their handicaps too); a
    new rank or rating counts from the next pairing — seeding, McMahon groups and handicaps of
    the rounds still to pair.
    """
    if by not in MATCH_BY:
        raise InvalidSetting(
            "by", Msg("%(value)s is not one of %(names)s", value=repr(by), names="pin, name, both")
        )
    index = _Index(players)
    matched: list[Matched] = []
    ambiguous: list[Ambiguous] = []
    not_found: list[str] = []
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        tournament._settings_row(session, event_id)  # an individual event
        if not dry_run:
            lock_event(session, event_id)
        rows = event_players(session, event_id)
        for row in rows:
            extra = _extra(row)
            how: Literal["pin", "name"] = "pin"
            found = index.by_pin(extra) if by in ("pin", "both") else []
            if not found and by in ("name", "both"):
                how, found = "name", index.by_name(row, extra)
            if not found:
                not_found.append(row.name)
            elif len(found) > 1:
                shown = tuple(_describe(players[i]) for i in found[:CANDIDATES_SHOWN])
                ambiguous.append(Ambiguous(row.name, shown, len(found)))
            else:
                entry = players[found[0]]
                changes = _fill(row, extra, entry, apply=not dry_run)
                matched.append(Matched(row.name, entry.name, how, changes))
        session.flush()
    return FillReport(tuple(matched), tuple(ambiguous), tuple(not_found), dry_run)


def _extra(row: PlayerRow) -> dict[str, object]:
    try:
        extra = json.loads(row.extra_json or "{}")
    except ValueError:
        return {}
    return extra if isinstance(extra, dict) else {}


def _fill(
    row: PlayerRow, extra: dict[str, object], entry: RatedPlayer, *, apply: bool
) -> tuple[Change, ...]:
    """The changes ``entry`` makes to ``row``, made when ``apply``."""
    changes: list[Change] = []
    details = dict(extra)
    if entry.rank is not None and entry.rank.code != row.rank:
        changes.append(Change("rank", row.rank or "", entry.rank.code))
        if apply:
            row.rank = entry.rank.code
    if entry.rating is not None and entry.rating != row.rating:
        changes.append(Change("rating", _number(row.rating), _number(entry.rating)))
        if apply:
            row.rating = entry.rating
        if entry.rating_origin:
            details["rating_origin"] = entry.rating_origin
    for field, value in (("club", entry.club), ("country", entry.country)):
        if value and value != getattr(row, field):
            changes.append(Change(field, getattr(row, field), value))
            if apply:
                setattr(row, field, value)
    for key, value in (("egf_pin", entry.egf_pin), ("ffg_licence", entry.ffg_licence)):
        if value and value != details.get(key):
            changes.append(Change(key, str(details.get(key) or ""), value))
            details[key] = value
    if apply and details != extra:
        row.extra_json = json.dumps(details, ensure_ascii=False)
    return tuple(changes)


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _describe(p: RatedPlayer) -> str:
    """An entry as an ambiguous match names it: name, PIN or licence, country, club, grade."""
    parts = [p.egf_pin or p.ffg_licence, p.country, p.club, p.rank.code if p.rank else ""]
    return f"{p.name} ({', '.join(x for x in parts if x)})"
