"""擂台赛 (winner stays on, R-FMT-3) as a team event: the teams' orders are their sealed lineups
of round 1 (fixed order) or the players they send one by one (chosen order); every send and every
result goes to an append-only log, and the match is replayed from it on each use by the
competition system of :func:`~weiqi.tournament.systems.system_for` (one game a round).

Usage (after ``create_team_event`` with ``TeamSystem.WINNER_STAYS_ON``, ``import_teams``,
``pair_round``, the lineups and ``reveal_round`` of ``services.teams``)::

    view = record_stage_result(db, actor, event_id, "B+R")   # the current game's result
    view.games, view.finished, view.winner
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, NotFound
from weiqi.league.match import BoardColors
from weiqi.league.winner_stays_on import (
    StageSetup,
    WinnerStaysOn,
    WinnerStaysOnSystem,
    stage_event,
)
from weiqi.messages import Msg
from weiqi.rules.result import Result
from weiqi.services.actor import Actor
from weiqi.services.events import event_rounds
from weiqi.services.permissions import Action, require
from weiqi.services.teams import (
    TeamSystem,
    event_row,
    event_teams,
    find_roster_player,
    lineup_rows,
    roster_labels,
    settings_of,
)
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.teams import TeamEventRow, TeamRow, WinnerStaysOnLogRow
from weiqi.tournament.systems import system_for


@dataclass(frozen=True)
class StageGame:
    """One game of a 擂台赛: holder (擂主) and challenger as (team, player), who has black."""

    number: int
    holder: tuple[str, str]
    challenger: tuple[str, str]
    black: tuple[str, str]
    result: str | None


@dataclass(frozen=True)
class WinnerStaysOnView:
    teams: tuple[str, ...]
    games: tuple[StageGame, ...]
    awaiting: str | None  # the team that must send its next player (chosen order)
    waiting: dict[str, tuple[str, ...]]
    out: tuple[tuple[str, str], ...]
    finished: bool
    winner: str | None


def _stage(session: Session, event_id: int) -> tuple[TeamEventRow, WinnerStaysOn]:
    """The 擂台赛 replayed from its revealed lineups and its log."""
    row = event_row(session, event_id)
    settings = settings_of(row)
    if settings.system is not TeamSystem.WINNER_STAYS_ON:
        raise Conflict(
            Msg(
                "event %(event_id)s is a %(zh)s, not a 擂台赛",
                event_id=event_id,
                zh=settings.system.zh,
            )
        )
    rounds = event_rounds(session, event_id)
    if not rounds or rounds[0].revealed_at is None:
        raise Conflict(Msg("the 擂台赛's lineups are not revealed yet"))
    teams = {t.id: t.code for t in event_teams(session, event_id)}
    sealed = lineup_rows(session, event_id).get(rounds[0].id, [])
    by_team = {lr.team_id: lr.players for lr in sealed}
    squads = {code: list(by_team[tid]) for tid, code in teams.items() if by_team.get(tid)}
    log = list(
        session.scalars(
            select(WinnerStaysOnLogRow)
            .where(WinnerStaysOnLogRow.event_id == event_id)
            .order_by(WinnerStaysOnLogRow.seq)
        )
    )
    sends = tuple((line.team or "", line.player or "") for line in log if line.kind == "send")
    nigiri = settings.board_colors is BoardColors.NIGIRI
    setup = StageSetup(squads, settings.player_order, settings.seed if nigiri else None, sends)
    # the 擂台赛's system, the same protocol as every system's (one game a round)
    event = stage_event(
        setup, [Result.parse(line.result or "") for line in log if line.kind == "result"]
    )
    system = system_for(event.settings, event.kind, setup)
    assert isinstance(system, WinnerStaysOnSystem)
    stage = system.replay(event)
    return row, stage


def _stage_view(stage: WinnerStaysOn) -> WinnerStaysOnView:
    if not stage.finished and stage.awaiting is None:
        stage.next_game()  # seat the next game so that it shows
    return WinnerStaysOnView(
        stage.teams,
        tuple(
            StageGame(
                g.number,
                g.holder,
                g.challenger,
                g.black,
                g.result.to_code() if g.result is not None else None,
            )
            for g in stage.games
        ),
        stage.awaiting,
        {t: stage.waiting(t) for t in stage.teams},
        tuple(stage.out),
        stage.finished,
        stage.winner,
    )


def _append(session: Session, event_id: int, **values: str) -> None:
    last = session.scalar(
        select(func.max(WinnerStaysOnLogRow.seq)).where(WinnerStaysOnLogRow.event_id == event_id)
    )
    session.add(WinnerStaysOnLogRow(event_id=event_id, seq=(last or 0) + 1, **values))


def _sent_code(session: Session, event_id: int, team: str, typed: str) -> str:
    """The code of ``team``'s player that ``typed`` names (a code, a label or a name, as a
    lineup takes them); kept as typed when the team has nobody so called (the stage says so)."""
    row = session.scalar(select(TeamRow).where(TeamRow.event_id == event_id, TeamRow.code == team))
    if row is None:
        return typed
    try:
        return find_roster_player(row.roster, roster_labels(session, event_id), typed).player_code
    except NotFound:
        return typed


def winner_stays_on(db: Database, event_id: int) -> WinnerStaysOnView:
    """The 擂台赛 so far: its games, who is out, whose turn it is to send, the winner."""
    with db.transaction() as session:
        _, stage = _stage(session, event_id)
        return _stage_view(stage)


def send_player(
    db: Database, actor: Actor, event_id: int, team: str, player: str
) -> WinnerStaysOnView:
    """The awaited team sends its next player (chosen order, R-FMT-3)."""
    with db.transaction() as session:
        require(session, actor, Action.SUBMIT_LINEUP, event_id)
        lock_event(session, event_id)  # the log replayed is the log appended to
        _, stage = _stage(session, event_id)
        player = _sent_code(session, event_id, team, player)
        stage.send(team, player)
        _append(session, event_id, kind="send", team=team, player=player)
        return _stage_view(stage)


def record_stage_result(
    db: Database, actor: Actor, event_id: int, code: str, game: int | None = None
) -> WinnerStaysOnView:
    """Record the current game's result; the winner stays on, the loser's team sends the next
    player (a replay or no result: the same two meet again).

    ``game`` is the number of the game the result is for, as the referee saw it: when another
    result was recorded meanwhile the current game is another one, and this result is refused
    (``Conflict``) instead of becoming the next game's. Two referees recording the same game
    at once: one result, one ``Conflict``."""
    result = Result.parse(code)
    with db.transaction() as session:
        require(session, actor, Action.RECORD_RESULT, event_id)
        lock_event(session, event_id)  # the log replayed is the log appended to
        _, stage = _stage(session, event_id)
        current = stage.next_game()
        if game is not None and current.number != game:
            raise Conflict(
                Msg(
                    "game %(game)s of the 擂台赛 has its result already (game %(current)s is "
                    "being played); nothing was stored",
                    game=game,
                    current=current.number,
                )
            )
        stage.record(result)
        _append(session, event_id, kind="result", result=result.to_code())
        return _stage_view(stage)
