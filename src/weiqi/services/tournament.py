"""Individual tournaments: create an event with its settings, enter and withdraw players, pair
rounds, record results, show rounds and standings. Each function owns one transaction; the
pairing and the standings come from the pure core (``weiqi.tournament``), which sees the event
as values loaded here.

>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "Club Swiss", EventSettings(system=System.SWISS, rounds=3))
>>> import_players(db, local, ev.id, "name,rank\\nA,5d\\nB,4d\\nC,3d\\nD,2d\\n")
4
>>> rnd = pair_round(db, local, ev.id)
>>> [(p.board, p.black, p.white) for p in rnd.pairings] in (
...     [(1, "A", "C"), (2, "B", "D")], [(1, "C", "A"), (2, "B", "D")],
...     [(1, "A", "C"), (2, "D", "B")], [(1, "C", "A"), (2, "D", "B")])
True
>>> record_result(db, local, ev.id, 1, 1, "B+R").result
'B+R'
>>> record_result(db, local, ev.id, 1, 1, "W+R")
Traceback (most recent call last):
...
weiqi.errors.Conflict: round 1 board 1: the result B+R is already confirmed
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import cast

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, DuplicateRows, InputError, InvalidSetting, NotFound, RowsRejected
from weiqi.formats.players_csv import parse_players_csv
from weiqi.messages import Msg
from weiqi.rules.result import Result
from weiqi.services.actor import Actor
from weiqi.services.event_rows import (
    StandingView,
    counted_games,
    entrant,
    rounds_of,
    standing_views,
)
from weiqi.services.events import (
    Competition,
    EventKind,
    competition,
    count_rows,
    event_players,
    existing_event,
    no_settings,
    player_row,
    round_or_latest,
    round_row,
    stored_settings,
)
from weiqi.services.games import (
    enter_and_confirm,
    no_board,
    parse_results_csv,
    played_again_kind,
    refereed_game,
    round_boards,
)
from weiqi.services.permissions import Action, require
from weiqi.services.player_names import namesake_labels, person, player_labels
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock, as_utc
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.seals import broken_in, seal_row, sealed_boards, signing_key
from weiqi.store.tournament import (
    AbsenceRow,
    ByeRow,
    EventSettingsRow,
    GameRow,
    PlayerRow,
    RoundRow,
)
from weiqi.text import check_entrants, check_upload
from weiqi.tournament.namesakes import Person, find, identity_key
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event, Game, RoundPlan, RoundTotals
from weiqi.tournament.settings import EventSettings
from weiqi.tournament.systems import require_complete, system_for


@dataclass(frozen=True)
class PairingView:
    board: int
    black: str
    white: str
    result: str | None
    confirmed: bool
    handicap: int
    komi: Fraction
    label: str


@dataclass(frozen=True)
class RoundView:
    number: int
    pairings: tuple[PairingView, ...]
    byes: tuple[str, ...]
    seed: int | None
    explanations: tuple[str, ...] = ()
    totals: RoundTotals | None = None  # the round's pairing quality, when just paired


# -- loading --------------------------------------------------------------------------------


def _settings_row(session: Session, event_id: int) -> EventSettingsRow:
    """The settings row of individual event ``event_id``; ``NotFound`` for no event, an event
    without settings, or a team event (whose services are ``services.teams``)."""
    row = session.get(EventSettingsRow, event_id)
    if row is None:
        existing_event(session, event_id)
        raise no_settings(event_id)
    if row.kind != EventKind.INDIVIDUAL.value:
        raise NotFound(
            Msg(
                "event %(event_id)s is a team event; this is for individual events",
                event_id=event_id,
            )
        )
    return row


def _load(session: Session, event_id: int) -> tuple[Event, dict[str, PlayerRow]]:
    """The event as the core sees it, and the player rows by core id.

    In five queries whatever the size: the games of every round come as plain columns, not
    ORM rows (10,000 players × 9 rounds are 45,000 games), and equal result codes and komi are
    parsed once."""
    settings = settings_of(_settings_row(session, event_id))
    players = event_players(session, event_id)
    by_id = {str(p.id): p for p in players}
    ranks: dict[str, Rank] = {}
    absent: dict[int, set[int]] = {}
    for player_id, number in session.execute(
        select(AbsenceRow.player_id, AbsenceRow.round)
        .join(PlayerRow, PlayerRow.id == AbsenceRow.player_id)
        .where(PlayerRow.event_id == event_id)
    ):
        absent.setdefault(player_id, set()).add(number)
    entrants = tuple(entrant(p, ranks, absent.get(p.id)) for p in players)
    seeds: dict[int, int | None] = {
        number: seed
        for number, seed in session.execute(
            select(RoundRow.number, RoundRow.seed)
            .where(RoundRow.event_id == event_id)
            .order_by(RoundRow.number)
        )
    }
    key = signing_key(session)
    counted, in_games = counted_games(
        key,
        session.execute(
            sealed_boards(
                event_id,
                RoundRow.number,
                GameRow.board,
                GameRow.black_id,
                GameRow.white_id,
                GameRow.result,
                GameRow.handicap,
                GameRow.komi,
                GameRow.label,
                GameRow.id,
            )
        ),
    )
    rounds = rounds_of(
        seeds,
        counted,
        session.execute(
            select(RoundRow.number, ByeRow.player_id)
            .join(RoundRow, RoundRow.id == ByeRow.round_id)
            .where(RoundRow.event_id == event_id)
        ),
    )
    warnings = {str(p.id): p.warnings for p in players if p.warnings}
    for pid, n in in_games.items():
        warnings[pid] = warnings.get(pid, 0) + n
    return Event(settings, entrants, rounds, warnings), by_id


def settings_of(row: EventSettingsRow) -> EventSettings:
    """The settings of the individual event whose settings row is ``row``
    (:func:`_settings_row`)."""
    settings = stored_settings(row)
    assert isinstance(settings, EventSettings), row.kind  # _settings_row checks the kind
    return settings


def _info(session: Session, event_id: int) -> Competition[EventSettings]:
    _settings_row(session, event_id)  # an individual event's
    return cast(Competition[EventSettings], competition(session, event_id))


# -- use cases ------------------------------------------------------------------------------


def tournament_info(db: Database, event_id: int) -> Competition[EventSettings]:
    with db.transaction() as session:
        return _info(session, event_id)


def import_players(
    db: Database, actor: Actor, event_id: int, text: str, source: str = "players.csv"
) -> int:
    """Enter every player of a CSV file, or none (a bad row anywhere rejects the file)."""
    rows = parse_players_csv(text, source)
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # the names checked stay the names entered until commit
        event, stored = _load(session, event_id)
        existing = {p.identity_key for p in stored.values()}
        check_entrants(len(existing) + len(rows))
        keys = [identity_key(r.name, r.club, r.birth_date, r.licence) for r in rows]
        clashes = [
            (
                r.line,
                Msg(
                    "%(name)s is already entered with the same club, birth date and licence; "
                    "a namesake needs one of them to tell the two apart",
                    name=r.name,
                ),
            )
            for r, key in zip(rows, keys, strict=True)
            if key in existing
        ]
        if clashes:  # the same person again: a clash with what is stored (409), by line
            raise DuplicateRows(source, clashes)
        joined = max(1, event.next_round_number)
        if joined > 1 and not event.settings.system.is_swiss:
            raise Conflict(
                Msg(
                    "the event has started; late entries are only possible in a "
                    "Swiss (this is %(system)s)",
                    system=event.settings.system.value,
                )
            )
        if rows:  # one bulk INSERT: a 10,000-player list need not become 10,000 ORM objects
            session.execute(
                insert(PlayerRow),
                [
                    {
                        "event_id": event_id,
                        "identity_key": key,
                        "name": r.name,
                        "licence": r.licence,
                        "rank": r.rank.code if r.rank else None,
                        "rating": r.rating,
                        "club": r.club,
                        "country": r.country,
                        "region": r.region,
                        "birth_date": r.birth_date,
                        "extra_json": json.dumps(dict(r.extra), ensure_ascii=False),
                        "joined_round": joined,
                        "withdrawn_after": None,
                        "warnings": 0,
                    }
                    for r, key in zip(rows, keys, strict=True)
                ],
            )
        return len(rows)


def _player(session: Session, event_id: int, name: str) -> PlayerRow:
    """The player ``name`` means: a label as pages show it (``张伟 (北京)``), or a name only one
    player has. A name namesakes share is refused with their labels (``InputError``), never
    guessed."""
    rows = event_players(session, event_id)
    try:
        pid = find(name, [person(r) for r in rows])
    except NotFound:
        raise NotFound(
            Msg("no player %(name)s in event %(event_id)s", name=repr(name), event_id=event_id)
        ) from None
    return next(r for r in rows if r.id == pid)


@dataclass(frozen=True)
class Absences:
    """A player's rounds sat out, and which later rounds may still be set (``open``): none in a
    round robin or a bracket, or for a withdrawn player (``reason`` says why)."""

    player_id: int
    absent: frozenset[int]
    open: tuple[int, ...]
    reason: Msg | None = None


def _absences(event: Event, player_id: int) -> Absences:
    s = event.settings
    pid = str(player_id)
    if pid not in event.entrant:
        raise NotFound(Msg("no player %(id)s in this event", id=player_id))
    entrant = event.entrant[pid]
    paired = len(event.rounds)
    last = s.rounds or paired + 1
    reason = None
    if not s.system.is_swiss:
        reason = Msg(
            "a player cannot sit out a round of %(system)s: a missed game is a forfeit",
            system=s.system.zh,
        )
    elif entrant.withdrawn_after is not None:
        reason = Msg("%(name)s has withdrawn", name=entrant.name)
    rounds = () if reason else tuple(range(paired + 1, last + 1))
    return Absences(player_id, entrant.absent_rounds, rounds, reason)


def absences(db: Database, actor: Actor, event_id: int, player_id: int) -> Absences:
    """The player's absences as the organisers' player page shows them."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        event, _ = _load(session, event_id)
        return _absences(event, player_id)


def set_absent(
    db: Database,
    actor: Actor,
    event_id: int,
    player_id: int,
    rounds: Collection[int],
    *,
    absent: bool = True,
    exactly: bool = False,
) -> frozenset[int]:
    """Mark a player absent from ``rounds`` (not a withdrawal: not paired in them, scored the
    event's ``absent_points``, back in the round after), or back with ``absent=False``; with
    ``exactly``, ``rounds`` are all the later rounds the player sits out. Only rounds not
    paired yet, in a Swiss-type event (a round robin's or a bracket's schedule has no place to
    sit out: a missed game there is a forfeit). Returns the player's absent rounds.
    """
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)
        event, _ = _load(session, event_id)
        state = _absences(event, player_id)
        paired = len(event.rounds)
        if state.reason is not None and (absent or exactly):
            raise Conflict(state.reason)
        for number in rounds:
            if number <= paired:
                raise Conflict(
                    Msg(
                        "round %(number)s is paired already; absences are for later rounds",
                        number=number,
                    )
                )
            if number not in state.open and state.reason is None:
                last = state.open[-1] if state.open else paired
                raise InvalidSetting("round", Msg("the event has %(rounds)s rounds", rounds=last))
        current = set(state.absent)
        if exactly:
            wanted = {n for n in current if n <= paired} | set(rounds)
        elif absent:
            wanted = current | set(rounds)
        else:
            wanted = current - set(rounds)
        session.execute(
            delete(AbsenceRow).where(AbsenceRow.player_id == player_id, AbsenceRow.round > paired)
        )
        later = sorted(n for n in wanted if n > paired)
        if later:
            session.execute(
                insert(AbsenceRow), [{"player_id": player_id, "round": n} for n in later]
            )
        return frozenset(wanted)


def withdraw_player(db: Database, actor: Actor, event_id: int, name: str | int) -> int:
    """Withdraw a player (named as :func:`_player` reads a name, or by row id) after the
    rounds paired so far (R-WD-1); returns that round number."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)
        if isinstance(name, int):
            row = player_row(session, event_id, name)
        else:
            row = _player(session, event_id, name)
        if row.withdrawn_after is not None:
            raise Conflict(
                Msg(
                    "%(name)s withdrew after round %(withdrawn_after)s already",
                    name=namesake_labels(session, event_id, row)[row.id],
                    withdrawn_after=row.withdrawn_after,
                )
            )
        row.withdrawn_after = count_rows(session, RoundRow, event_id)
        return row.withdrawn_after


def add_warning(db: Database, actor: Actor, event_id: int, name: str) -> int:
    """Count one more warning (警告) for a player outside any game; returns the event total,
    warnings in games' records included (R-RANK-RR B). A warning in a game is recorded on the
    game (``services.games.record_infraction``), where it also costs a stone (R-PEN-1)."""
    with db.transaction() as session:
        require(session, actor, Action.RECORD_RESULT, event_id)
        lock_event(session, event_id)  # two warnings at once are two, not one
        row = _player(session, event_id, name)
        row.warnings += 1
        session.flush()
        # the total the WARN tie-break counts: the games' warnings only where the seal holds
        event, _ = _load(session, event_id)
        return event.warnings.get(str(row.id), 0)


def pair_round(
    db: Database, actor: Actor, event_id: int, start: datetime | None = None
) -> RoundView:
    """Pair the next round with the event's system and store it; ``start``: when it starts,
    as a team event's pairing takes it."""
    with db.transaction() as session:
        require(session, actor, Action.PAIR_ROUND, event_id)
        lock_event(session, event_id)
        event, players = _load(session, event_id)
        plan = system_for(event.settings).next_round(event)
        rnd = store_plan(session, event_id, plan, start)
        view = _round_view(session, rnd, players)
        shown = player_labels(players.values())
        return RoundView(
            view.number,
            view.pairings,
            view.byes,
            view.seed,
            tuple(
                replace(e, black=shown[int(e.black)], white=shown[int(e.white)]).text()
                for e in plan.explanations
            ),
            plan.totals,
        )


def explanation_json(plan: RoundPlan) -> str:
    """Why each pair of ``plan`` was made and the round's totals, as stored with the round."""
    return json.dumps(
        {
            # the fields are plain values: a copy of each, not asdict's deep copy (5,000 boards)
            "explanations": [dict(vars(e)) for e in plan.explanations],
            "totals": asdict(plan.totals) if isinstance(plan.totals, RoundTotals) else None,
        }
    )


def store_plan(
    session: Session, event_id: int, plan: RoundPlan, start: datetime | None = None
) -> RoundRow:
    """Store a round the core has paired (its games, forfeits, byes and the explanation of its
    pairing, whichever command or page paired it), starting at ``start`` if given; returns its
    row."""
    rnd = RoundRow(
        event_id=event_id,
        number=plan.number,
        seed=plan.seed,
        explanation_json=explanation_json(plan),
        starts_at=as_utc(start),
    )
    session.add(rnd)
    session.flush()
    # Bulk INSERTs: a 10,000-player round is 5,000 games, too many for one ORM object each.
    if plan.games:
        session.execute(
            insert(GameRow),
            [
                {
                    "round_id": rnd.id,
                    "board": g.board,
                    "black_id": int(g.black),
                    "white_id": int(g.white),
                    "result": g.result.to_code() if g.result else None,
                    # forfeits of withdrawn players (R-WD-1)
                    "confirmed": g.result is not None,
                    "handicap": g.handicap,
                    "komi": str(g.komi),
                    "label": g.label,
                }
                for g in plan.games
            ],
        )
    if any(g.result is not None for g in plan.games):
        # a withdrawn player's forfeits count from now: sealed without a record (store.seals)
        for row in session.scalars(
            select(GameRow).where(GameRow.round_id == rnd.id, GameRow.result.is_not(None))
        ):
            seal_row(session, row)
    if plan.byes:
        session.execute(
            insert(ByeRow), [{"round_id": rnd.id, "player_id": int(pid)} for pid in plan.byes]
        )
    session.expire(rnd, ["games", "byes"])  # loaded from the rows just written when asked
    return rnd


def _round_view(session: Session, rnd: RoundRow, players: dict[str, PlayerRow]) -> RoundView:
    """The round's boards as plain columns (two queries, no ORM row per game); players are
    named by their labels (namesakes told apart)."""
    names = player_labels(players.values())
    session.flush()
    games = session.execute(
        select(
            GameRow.board,
            GameRow.black_id,
            GameRow.white_id,
            GameRow.result,
            GameRow.confirmed,
            GameRow.handicap,
            GameRow.komi,
            GameRow.label,
            GameRow.id,
        )
        .where(GameRow.round_id == rnd.id)
        .order_by(GameRow.board)
    )
    bad = broken_in(session, rnd.event_id)  # shown as not played (store.seals)
    komis: dict[str, Fraction] = {}
    pairings = []
    for board, black, white, result, confirmed, handicap, komi, label, gid in games:
        if gid in bad:
            result, confirmed = None, False
        if komi not in komis:
            komis[komi] = Fraction(komi)
        assert black is not None and white is not None  # an individual board: both seated
        pairings.append(
            PairingView(
                board, names[black], names[white], result, confirmed, handicap, komis[komi], label
            )
        )
    byes = session.scalars(select(ByeRow.player_id).where(ByeRow.round_id == rnd.id))
    return RoundView(
        number=rnd.number,
        pairings=tuple(pairings),
        byes=tuple(sorted(names[b] for b in byes)),
        seed=rnd.seed,
    )


def _set_result(
    session: Session,
    event_id: int,
    number: int,
    board: int,
    text: str,
    actor: Actor,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameRow:
    rnd = round_row(session, event_id, number)
    game = next((g for g in rnd.games if g.board == board), None)
    if game is None:
        raise no_board(number, board)
    return _set_game_result(session, event_id, number, game, text, actor, clock)


def _set_game_result(
    session: Session,
    event_id: int,
    number: int,
    game: GameRow,
    text: str,
    actor: Actor,
    clock: ServerClock = SYSTEM_CLOCK,
    labels: Mapping[int, str] | None = None,
) -> GameRow:
    """Enter and confirm ``text`` on ``game``; ``labels``: every player's, when the caller
    enters a whole sheet (else the game's players' are looked up)."""
    result = Result.parse(text)
    board = game.board
    if game.confirmed and played_again_kind(session, event_id, game) is None:
        raise Conflict(
            Msg(
                "round %(number)s board %(board)s: the result %(result)s is already confirmed",
                number=number,
                board=board,
                result=game.result,
            )
        )
    # Kept in the game's record; after a replay ruling or a knockout's draw, as the result of
    # the game played again (R-REF-3, R-PLAYOFF).
    enter_and_confirm(
        session, actor, event_id, refereed_game(session, game, labels), result, clock=clock
    )
    return game


def record_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    text: str,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> PairingView:
    """Record and confirm one board's result (SGF RE, ``BL``, ``Void``, ``Replay`` …)."""
    with db.transaction() as session:
        require(session, actor, Action.RECORD_RESULT, event_id)
        lock_event(session, event_id)
        _set_result(session, event_id, number, board, text, actor, clock)
        _, players = _load(session, event_id)
        view = _round_view(session, round_row(session, event_id, number), players)
        return next(p for p in view.pairings if p.board == board)


def record_results(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    text: str,
    source: str = "results.csv",
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> int:
    """Record a whole round from CSV ``board,result`` — every row or none."""
    rows = parse_results_csv(text, source, whole_round=True)
    with db.transaction() as session:
        require(session, actor, Action.RECORD_RESULT, event_id)
        lock_event(session, event_id)
        try:
            boards = round_boards(session, event_id, number)  # once: linear in the boards
        except NotFound as err:
            if not rows:
                return 0
            raise InputError.at_line(source, rows[0][0], err.msg) from None
        for line, board, result in rows:
            try:
                game = boards.game(number, board)
                _set_game_result(
                    session, event_id, number, game, result, actor, clock, boards.labels
                )
            except (NotFound, Conflict) as err:
                raise InputError.at_line(source, line, err.msg) from None
        return len(rows)


def show_round(db: Database, event_id: int, number: int | None = None) -> RoundView:
    """A paired round (the latest by default)."""
    with db.transaction() as session:
        _, players = _load(session, event_id)
        return _round_view(session, round_or_latest(session, event_id, number), players)


def event_standings(db: Database, event_id: int) -> list[StandingView]:
    """The standings with the event's tie-breaks (R-RANK-RR, R-RANK-SWISS, R-PLAYOFF)."""
    with db.transaction() as session:
        event, players = _load(session, event_id)
    return standing_views(event, players)


@dataclass(frozen=True)
class EnteredRound:
    """A round entered as given, and what in it the event's own pairing would not have done
    (a rematch, a second bye), for the chief referee to see."""

    round: RoundView
    notes: tuple[Msg, ...]


def enter_round(
    db: Database, actor: Actor, event_id: int, text: str, source: str = "round.csv"
) -> EnteredRound:
    """Store the next round as paired elsewhere, from CSV ``board,black,white`` with optional
    ``handicap`` and ``komi`` (stones) columns; a row with an empty ``white`` is a bye. Every row
    or none: an unknown, doubled, withdrawn or absent player, a board twice, are refused with
    their line. What the rules' pairing would have avoided is accepted and noted."""
    reader = csv.DictReader(io.StringIO(check_upload(source, text).lstrip("\ufeff")))
    fields = {f.strip() for f in reader.fieldnames or ()}
    if {"board", "black", "white"} - fields:
        raise InputError(
            Msg("%(source)s, line 1", source=source),
            Msg("columns 'board', 'black' and 'white' are required"),
        )
    with db.transaction() as session:
        require(session, actor, Action.PAIR_ROUND, event_id)
        lock_event(session, event_id)
        event, players = _load(session, event_id)
        require_complete(event)  # every earlier board has its result, as before pairing
        number = event.next_round_number
        s = event.settings
        if s.rounds is not None and number > s.rounds:
            raise Conflict(Msg("the event is finished"))
        people = [
            Person(int(pid), p.name, p.club, p.birth_date, p.licence or "")
            for pid, p in players.items()
        ]
        entrants = event.entrant
        seen: dict[str, int] = {}
        boards: set[int] = set()
        games: list[Game] = []
        byes: list[str] = []
        problems: list[tuple[int, Msg]] = []
        for line, rec in enumerate(reader, start=2):
            rec = {k.strip(): (v or "").strip() for k, v in rec.items() if k}
            before = len(problems)
            ids = []
            for column in ("black", "white"):
                name = rec.get(column, "")
                if not name:
                    ids.append("")
                    continue
                try:
                    pid: str | None = str(find(name, people, field=column))
                except NotFound:
                    pid = None
                except InputError as err:  # a name two players share: the labels to type
                    problems.append((line, err.msg))
                    ids.append("")
                    continue
                if pid is None:
                    problems.append((line, Msg("no player %(name)s", name=repr(name))))
                elif pid in seen:
                    problems.append(
                        (
                            line,
                            Msg(
                                "%(name)s is already on line %(other)s", name=name, other=seen[pid]
                            ),
                        )
                    )
                elif not entrants[pid].plays_in(number):
                    problems.append(
                        (
                            line,
                            Msg(
                                "%(name)s does not play round %(number)s (withdrawn or absent)",
                                name=name,
                                number=number,
                            ),
                        )
                    )
                else:
                    seen[pid] = line
                ids.append(pid or "")
            black, white = ids
            if len(problems) > before:
                continue
            if not black:
                problems.append((line, Msg("black is empty")))
                continue
            if not white:
                byes.append(black)
                continue
            try:
                board = int(rec.get("board", ""))
                handicap = int(rec.get("handicap") or 0)
                komi = (
                    Fraction(rec["komi"])
                    if rec.get("komi")
                    else (s.komi if handicap == 0 else Fraction(0))
                )
            except (ValueError, ZeroDivisionError):
                problems.append((line, Msg("board, handicap and komi must be numbers")))
                continue
            if board in boards:
                problems.append((line, Msg("board %(board)s appears twice", board=board)))
                continue
            if not 0 <= handicap <= 9:
                problems.append((line, Msg("handicap must be between 0 and 9")))
                continue
            boards.add(board)
            games.append(Game(number, board, black, white, None, handicap, komi))
        if problems:
            raise RowsRejected(source, problems)
        notes = _imposed_notes(event, games, byes)
        plan = RoundPlan(number, tuple(sorted(games, key=lambda g: g.board)), tuple(byes))
        row = store_plan(session, event_id, plan)
        return EnteredRound(_round_view(session, row, players), notes)


def _imposed_notes(event: Event, games: Sequence[Game], byes: Sequence[str]) -> tuple[Msg, ...]:
    """What a round entered as given does that the event's pairing avoids."""
    from weiqi.tournament.scoring import histories

    hist = histories(event)
    names = {e.id: e.name for e in event.entrants}
    notes = []
    for g in games:
        if g.white in hist[g.black].opponents:
            notes.append(
                Msg(
                    "board %(board)s: %(black)s and %(white)s have met before",
                    board=g.board,
                    black=names[g.black],
                    white=names[g.white],
                )
            )
    for pid in byes:
        if hist[pid].byes:
            notes.append(Msg("%(name)s has had a bye before", name=names[pid]))
    missing = [
        e.name
        for e in event.entrants
        if e.plays_in(event.next_round_number)
        and all(e.id not in g.players for g in games)
        and e.id not in byes
    ]
    if missing:
        notes.append(Msg("not in the round: %(names)s", names=", ".join(missing)))
    return tuple(notes)
