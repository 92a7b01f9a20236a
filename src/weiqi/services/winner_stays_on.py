"""擂台赛 (winner stays on, R-FMT-3) as a team event: the teams' orders are their sealed lineups
of round 1 (fixed order) or the players they send one by one (chosen order, an append-only log of
sends). Each game is a board of the event's one round — a match of one board, numbered as the
game, holder at home — with its own game record, so it is entered, confirmed, corrected, warned
and ruled on like every team board. The match is replayed from the sends and the boards' results
on each use by the competition system of :func:`~weiqi.tournament.systems.system_for`; the next
game is seated as soon as the one before it has a result.

Usage (after ``events.create_event`` with ``System.WINNER_STAYS_ON``, ``import_teams``,
``pair_round``, the lineups and ``reveal_round`` of ``services.teams``)::

    view = record_stage_result(db, actor, event_id, "B+R")   # the current game's result
    view.games, view.finished, view.winner
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, NotFound
from weiqi.league.match import BoardColors
from weiqi.league.settings import StageSettings
from weiqi.league.team_rounds import team_settings
from weiqi.league.winner_stays_on import StageSetup, WinnerStaysOn, WinnerStaysOnSystem
from weiqi.messages import Msg
from weiqi.rules.result import Result
from weiqi.services.actor import Actor
from weiqi.services.events import event_rounds
from weiqi.services.games import enter_and_confirm, refereed_game
from weiqi.services.permissions import Action, require
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.services.team_coaches import require_coach
from weiqi.services.teams import (
    event_row,
    event_teams,
    find_roster_player,
    is_stage,
    lineup_rows,
    roster_labels,
    settings_of,
)
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.locks import lock_event
from weiqi.store.seals import broken_in
from weiqi.store.teams import (
    TeamMatchRow,
    TeamRow,
    WinnerStaysOnLogRow,
)
from weiqi.store.tournament import GameRow, RoundRow
from weiqi.tournament.records import EventKind
from weiqi.tournament.settings import System, variant_of
from weiqi.tournament.systems import system_for


@dataclass(frozen=True)
class StageGameView:
    """One game of a 擂台赛: holder (擂主) and challenger as (team, player), who has black."""

    number: int
    holder: tuple[str, str]
    challenger: tuple[str, str]
    black: tuple[str, str]
    result: str | None


@dataclass(frozen=True)
class WinnerStaysOnView:
    teams: tuple[str, ...]
    games: tuple[StageGameView, ...]
    awaiting: str | None  # the team that must send its next player (chosen order)
    waiting: dict[str, tuple[str, ...]]
    out: tuple[tuple[str, str], ...]
    finished: bool
    winner: str | None


@dataclass(frozen=True)
class _Stage:
    """The 擂台赛 as stored: its round (one round; each game a match of one board, numbered as
    the game), the match replayed from it, how many of the stored games it seats, and the
    row ids of its teams and players (by code) to seat the next one."""

    round: RoundRow
    stage: WinnerStaysOn
    stored: list[tuple[TeamMatchRow, GameRow]]
    agreed: int
    team_ids: dict[str, int]
    seat_ids: dict[tuple[str, str], int]
    komi: Fraction
    """The komi of every board (the event's)."""


def _stage(session: Session, event_id: int) -> _Stage:
    """The 擂台赛 replayed from its revealed lineups, its sends and its games' boards (a board
    whose seal does not hold counts as not played, as in every standings)."""
    row = event_row(session, event_id)
    settings = settings_of(row)
    if not settings.stage:
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
    rnd = rounds[0]
    listed = event_teams(session, event_id)
    teams = {t.id: t.code for t in listed}
    seats = {r.id: (t.code, r.code) for t in listed for r in t.roster}
    sealed = lineup_rows(session, event_id).get(rnd.id, [])
    by_team = {lr.team_id: lr.players for lr in sealed}
    squads = {code: list(by_team[tid]) for tid, code in teams.items() if by_team.get(tid)}
    sends = tuple(
        (line.team or "", line.player or "")
        for line in session.scalars(
            select(WinnerStaysOnLogRow)
            .where(WinnerStaysOnLogRow.event_id == event_id, WinnerStaysOnLogRow.kind == "send")
            .order_by(WinnerStaysOnLogRow.seq)
        )
    )
    nigiri = settings.board_colors is BoardColors.NIGIRI
    order = variant_of(settings, StageSettings).player_order
    setup = StageSetup(squads, order, settings.seed if nigiri else None, sends)
    system = system_for(team_settings(System.MATCH), EventKind.TEAM, setup)
    assert isinstance(system, WinnerStaysOnSystem)
    broken = broken_in(session, event_id)
    stored = [(m, m.games[0]) for m in rnd.matches if m.games]
    games = []
    for _, board in stored:
        black = seats.get(board.black_id or 0, ("", ""))
        white = seats.get(board.white_id or 0, ("", ""))
        counts = board.result is not None and board.id not in broken
        games.append(
            (black, white, Result.parse(board.result) if board.result and counts else None)
        )
    stage, agreed = system.follow(games)
    team_ids = {code: tid for tid, code in teams.items()}
    seat_ids = {s: rid for rid, s in seats.items()}
    return _Stage(rnd, stage, stored, agreed, team_ids, seat_ids, settings.komi)


def settle_stage(session: Session, event_id: int) -> None:
    """Bring the 擂台赛's stored games in line with its results, in the caller's transaction
    (under the event's lock): seat the next game once the one before it has a result (a board
    with its own record, like every team board), and unseat a game not yet begun that a
    changed result no longer calls for. A change that would unseat a game already begun (a
    result, a move) is refused with ``Conflict``, nothing stored: that game was played by the
    players the result before it seated."""
    found = _stage(session, event_id)
    later = found.stored[found.agreed :]
    for match, board in later:
        if board.result is not None or session.get(GameRecordRow, board.id) is not None:
            raise Conflict(
                Msg(
                    "game %(game)s of the 擂台赛 has begun with the players the results before "
                    "it seated; a result that seats other players there cannot be stored",
                    game=match.number,
                )
            )
    for match, _ in later:
        session.delete(match)
    session.flush()  # the unseated games' numbers are free before the next game takes one
    stage = found.stage
    if stage.finished or stage.awaiting is not None:
        return
    game = stage.next_game()
    if game.number <= found.agreed:
        return  # seated already, in play
    board = GameRow.team_board(
        found.round.id,
        1,
        0,
        (found.seat_ids[game.holder], found.seat_ids[game.challenger]),
        "B" if game.black == game.holder else "W",
        str(found.komi),
    )
    home, away = found.team_ids[game.holder[0]], found.team_ids[game.challenger[0]]
    found.round.matches.append(
        TeamMatchRow(number=game.number, home_id=home, away_id=away, games=[board])
    )
    session.flush()


def after_board_result(session: Session, board: GameRow) -> None:
    """A team board's result changed (``services.games``): when it is a game of a 擂台赛, the
    match moves on from it (:func:`settle_stage`)."""
    event_id = board.round.event_id
    if is_stage(session, event_id):
        settle_stage(session, event_id)


def _stage_view(stage: WinnerStaysOn) -> WinnerStaysOnView:
    if not stage.finished and stage.awaiting is None:
        stage.next_game()  # seat the next game so that it shows
    return WinnerStaysOnView(
        stage.teams,
        tuple(
            StageGameView(
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
        return find_roster_player(row.roster, roster_labels(session, event_id), typed).code
    except NotFound:
        return typed


def winner_stays_on(db: Database, event_id: int) -> WinnerStaysOnView:
    """The 擂台赛 so far: its games, who is out, whose turn it is to send, the winner."""
    with db.transaction() as session:
        return _stage_view(_stage(session, event_id).stage)


def send_player(
    db: Database, actor: Actor, event_id: int, team: str, player: str
) -> WinnerStaysOnView:
    """The awaited team sends its next player (chosen order, R-FMT-3); once both players of
    the next game are sent, it is seated."""
    with db.transaction() as session:
        require(session, actor, Action.SUBMIT_LINEUP, event_id)
        require_coach(session, actor, event_id, [team])  # a coach sends for his own team
        lock_event(session, event_id)  # the log replayed is the log appended to
        stage = _stage(session, event_id).stage
        player = _sent_code(session, event_id, team, player)
        stage.send(team, player)
        _append(session, event_id, kind="send", team=team, player=player)
        session.flush()
        settle_stage(session, event_id)
        return _stage_view(_stage(session, event_id).stage)


def record_stage_result(
    db: Database,
    actor: Actor,
    event_id: int,
    code: str,
    game: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> WinnerStaysOnView:
    """Enter and confirm the current game's result from its signed sheet, as on its board's
    page; the winner stays on, the loser's team sends the next player (a replay or no result:
    the same two meet again).

    ``game`` is the number of the game the result is for, as the referee saw it: when another
    result was recorded meanwhile the current game is another one, and this result is refused
    (``Conflict``) instead of becoming the next game's. Two referees recording the same game
    at once: one result, one ``Conflict``."""
    result = Result.parse(code)
    with db.transaction() as session:
        require(session, actor, Action.RECORD_RESULT, event_id)
        lock_event(session, event_id)  # the games replayed are the games written to
        found = _stage(session, event_id)
        current = found.stage.next_game()
        if game is not None and current.number != game:
            raise Conflict(
                Msg(
                    "game %(game)s of the 擂台赛 has its result already (game %(current)s is "
                    "being played); nothing was stored",
                    game=game,
                    current=current.number,
                )
            )
        if current.number > found.agreed:  # not seated yet (stored before games were boards)
            settle_stage(session, event_id)
            found = _stage(session, event_id)
        _, board = found.stored[current.number - 1]
        enter_and_confirm(
            session, actor, event_id, refereed_game(session, board), result, clock=clock
        )
        return _stage_view(_stage(session, event_id).stage)
