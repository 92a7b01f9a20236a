"""Events in and out of other programs' files: OpenGotha tournaments (and, on them, the EGF
results format).

An imported event is a new individual event with the file's settings, players (their
absences and start-score corrections included) and rounds as they were paired and played:
the pairings are kept as recorded, results stored confirmed (each game's record starts from
its stored result when a referee first opens it), the rounds published. Everything in one
transaction: a file that cannot be read changes nothing.

Usage (``weiqi import opengotha`` and ``weiqi export opengotha`` call these)::

    report = import_opengotha(db, actor, Path("open.xml").read_bytes())
    Path("back.xml").write_bytes(export_opengotha(db, actor, report.event_id))
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import insert
from sqlalchemy.orm import Session

from weiqi.errors import InputError
from weiqi.formats.opengotha import read_gotha, write_gotha
from weiqi.formats.opengotha_event import ImportedEvent, to_event, to_gotha
from weiqi.messages import Msg
from weiqi.services.actor import Actor
from weiqi.services.events import add_event, details_of, event_name, settings_row
from weiqi.services.permissions import Action, require
from weiqi.services.tournament import _load, store_plan
from weiqi.store.database import Database
from weiqi.store.models import EventRow
from weiqi.store.tournament import AbsenceRow, PlayerRow
from weiqi.text import check_entrants, clean_name
from weiqi.tournament.namesakes import identity_key
from weiqi.tournament.players import Entrant
from weiqi.tournament.records import Game, RoundPlan


@dataclass(frozen=True)
class ImportReport:
    """What an import made, and what the file held that we could not map (``notes``)."""

    event_id: int
    name: str
    players: int
    rounds: int
    games: int
    notes: tuple[Msg, ...]


def import_opengotha(
    db: Database, actor: Actor, data: bytes, *, name: str | None = None
) -> ImportReport:
    """Create an event from an OpenGotha file (``name`` instead of the file's)."""
    imported = to_event(read_gotha(data))
    return import_event(db, actor, imported, name=name)


def import_event(
    db: Database, actor: Actor, imported: ImportedEvent, *, name: str | None = None
) -> ImportReport:
    """Store an event read from another program's file as a new event of ours."""
    title = event_name(name or imported.name)
    check_entrants(len(imported.entrants))
    names: dict[str, str] = {}
    seen: set[str] = set()
    for e in imported.entrants:
        clean = clean_name("name", e.name)
        key = identity_key(clean, e.club, e.birth_date, _licence(e))
        if key in seen:  # namesakes are welcome when a club or a PIN tells them apart
            raise InputError(
                Msg("player %(name)s", name=clean),
                Msg("appears twice in the file; tell the two apart (club, first name) first"),
            )
        seen.add(key)
        names[e.id] = clean

    with db.transaction() as session:
        settings = settings_row(imported.settings)
        event_id = add_event(session, actor, title, settings, imported.details)
        ids = _store_players(session, event_id, imported, names)
        games = 0
        for rnd in imported.rounds:
            plan = RoundPlan(
                rnd.number,
                tuple(
                    Game(
                        g.round,
                        g.board,
                        ids[g.black],
                        ids[g.white],
                        g.result,
                        g.handicap,
                        g.komi,
                        g.label,
                    )
                    for g in rnd.games
                ),
                tuple(ids[p] for p in rnd.byes),
            )
            row = store_plan(session, event_id, plan)
            row.published = True  # the event's history, public as it was
            games += len(plan.games)
        return ImportReport(
            event_id, title, len(imported.entrants), len(imported.rounds), games, imported.notes
        )


def _licence(e: Entrant) -> str:
    """The ID an imported player is told apart by: the EGF PIN, else the FFG licence."""
    extra = dict(e.extra)
    return extra.get("egf_pin") or extra.get("ffg_licence") or ""


def _store_players(
    session: Session, event_id: int, imported: ImportedEvent, names: dict[str, str]
) -> dict[str, str]:
    rows = [
        PlayerRow(
            event_id=event_id,
            name=names[e.id],
            rank=e.rank.code if e.rank else None,
            rating=e.rating,
            club=e.club,
            country=e.country,
            region=e.region,
            extra_json=json.dumps(dict(e.extra), ensure_ascii=False),
            joined_round=e.joined_round,
            withdrawn_after=e.withdrawn_after,
            warnings=0,
            mcmahon_correction=e.mcmahon_correction,
            licence=_licence(e),
        )
        for e in imported.entrants
    ]
    session.add_all(rows)
    session.flush()
    ids = {e.id: str(row.id) for e, row in zip(imported.entrants, rows, strict=True)}
    absences = [
        {"player_id": row.id, "round": number}
        for e, row in zip(imported.entrants, rows, strict=True)
        for number in sorted(e.absent_rounds)
    ]
    if absences:
        session.execute(insert(AbsenceRow), absences)
    return ids


def exported_event(db: Database, actor: Actor, event_id: int) -> ImportedEvent:
    """An event of ours as the value other programs' files are written from (its organisers
    and referees may: a file holds every round, published or not)."""
    with db.transaction() as session:
        require(session, actor, Action.RECORD_RESULT, event_id)
        event, _ = _load(session, event_id)
        model = session.get(EventRow, event_id)
        assert model is not None
        return ImportedEvent(model.name, event.settings, event.entrants, event.rounds,
                             details=details_of(model))  # fmt: skip


def export_opengotha(db: Database, actor: Actor, event_id: int) -> bytes:
    """The event as an OpenGotha file; reading it back gives the same event."""
    return write_gotha(to_gotha(exported_event(db, actor, event_id)))


def export_egf(
    db: Database, actor: Actor, event_id: int, through_round: int | None = None
) -> bytes:
    """The event's EGF results table (``.h9``, Latin-9) after ``through_round`` (default every
    round paired): Chinese names in pinyin, never ``?``."""
    from weiqi.formats.egf import encode, write_h9
    from weiqi.formats.egf_event import egf_results
    from weiqi.tournament.ranking import standings
    from weiqi.tournament.records import Event

    event = exported_event(db, actor, event_id)
    paired = len(event.rounds)
    if through_round is not None and not 1 <= through_round <= max(paired, 1):
        raise InputError(
            Msg("round"), Msg("must be between 1 and %(paired)s", paired=max(paired, 1))
        )
    core = Event(event.settings, event.entrants, event.rounds)
    table = standings(core, through_round=through_round)
    return encode(write_h9(egf_results(event, table, through_round)))
