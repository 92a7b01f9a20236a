"""The referees of a live round (issue #11): what they see of every game and what they do.

The console (:func:`console_boards`) lists every board of the round with both clocks, the move
number and its alerts (:func:`alerts`: time trouble, a disputed ending, a player not connected);
the spectators' round page (:func:`round_boards`) is the same boards without the alerts.

A referee opens a game to pause and resume it (R-TIME-5), record an infraction with the
penalty the catalogue gives (R-REF-*, R-PEN-1; a warning is an infraction whose penalty is a
warning), rule (draw, replay, both lose, forfeit …, R-END-1(d)) or correct a clock (R-TIME-8,
the chief referee). Each is one event appended to the game's one record (``GameRecord``: the
same events a referee records at a physical board), with the record's length the referee's
page showed (``expected_seq``), after a flag that has fallen is recorded; the
:class:`~weiqi.services.live.Outcome` it returns is what the room pushes to the players and
spectators.

>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.services import live, tournament as t
>>> from weiqi.services.events import create_event
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> online = EventSettings(System.ROUND_ROBIN, board_size=9, play="online",
...                        time_control="10m+3x30s")
>>> ev = create_event(db, local, "Online", online).id
>>> _ = t.import_players(db, local, ev, "name\\n李\\n王\\n")
>>> _ = t.pair_round(db, local, ev)
>>> snap = live.start_game(db, ev, 1, 1)
>>> paused = pause(db, local, ev, 1, 1, snap.seq, "a power cut in the hall")
>>> paused.snapshot.paused, paused.snapshot.notices[-1]["reason"]
(True, 'a power cut in the hall')
>>> warned = record_infraction(db, local, ev, 1, 1, paused.snapshot.seq, "phone_ringing", "W")
>>> warned.snapshot.warnings
{'B': 0, 'W': 1}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, InvalidSetting, NotFound
from weiqi.messages import Msg
from weiqi.referee.events import ClockAction, ClockEvent, InfractionRuled, RecordEvent, RulingMade
from weiqi.referee.record import GameRecord
from weiqi.roles import Role
from weiqi.services import games, live, referee_input
from weiqi.services.actor import Actor
from weiqi.services.events import event_settings, is_team_event, round_row
from weiqi.services.games import (
    BoardKey,
    _game_to_change,
    _load_at,
    _load_record,
    _now,
    _store,
    game_actor,
)
from weiqi.services.permissions import Action, allowed, require
from weiqi.services.public import require_round_visible
from weiqi.services.referee_input import LIVE_INFRACTIONS as LIVE
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.store.database import Database
from weiqi.store.models import EventRow
from weiqi.store.teams import TeamMatchRow
from weiqi.store.tournament import GameRow
from weiqi.text import clean_note, stated_reason
from weiqi.tournament.settings import EventSettings

#: A player with less than this left (seconds), or in the last byo-yomi period, is in time
#: trouble: the console says so.
TIME_TROUBLE_SECONDS = 60.0


# -- what the console and the round page show --------------------------------------------------


def alerts(
    snap: Mapping[str, Any],
    present: set[str] | None = None,
    away_since: Mapping[str, float] | None = None,
    now: float = 0.0,
    disconnect_after: float | None = 0.0,
    calls: Mapping[str, float] | None = None,
) -> list[str]:
    """A board's alerts for the referees, from its snapshot (``Snapshot.to_data()``):
    ``call:B`` (a player called the referee: ``calls``, whatever the game's state),
    ``time_trouble:B``, ``dispute``, ``disconnected:W``, ``paused``. ``present``: the colours
    connected (``None``: not known, no disconnection alert); ``away_since``: since when a
    colour is not; ``disconnect_after``: seconds away before it is an alert (``None``: the
    clock simply runs, a disconnection is shown but is no alert).

    >>> snap = {"phase": "playing", "started": True, "result": None, "paused": False,
    ...         "clock": {"black": {"total": 30.0, "periods": 0, "in_overtime": False},
    ...                   "white": {"total": 600.0, "periods": 0, "in_overtime": False}},
    ...         "events": [], "moves": [], "notices": []}
    >>> alerts(snap, {"B"}, {"W": 100.0}, now=130.0, disconnect_after=20)
    ['time_trouble:B', 'disconnected:W']
    >>> alerts(snap, {"B"}, {"W": 100.0}, now=110.0, disconnect_after=20)
    ['time_trouble:B']
    """
    out: list[str] = [f"call:{c}" for c in ("B", "W") if c in (calls or {})]
    live_game = snap.get("started") and snap.get("phase") in ("playing", "counting")
    if not live_game or snap.get("result"):
        return out
    clock = snap.get("clock")
    if clock and snap.get("phase") == "playing":
        for color, side in (("B", clock["black"]), ("W", clock["white"])):
            total = side.get("total")
            if total is not None and clock.get("running") == color and clock.get("now"):
                total -= max(0.0, now - clock["now"])  # the running side's time goes on
            last_period = side.get("in_overtime") and (side.get("periods") or 0) <= 1
            if last_period or (total is not None and total < TIME_TROUBLE_SECONDS):
                out.append(f"time_trouble:{color}")
    if snap.get("disputed"):
        out.append("dispute")
    if snap.get("paused"):
        out.append("paused")
    if present is not None and disconnect_after is not None:
        for color in ("B", "W"):
            if color in present:
                continue
            since = (away_since or {}).get(color)
            if since is None or now - since >= disconnect_after:
                out.append(f"disconnected:{color}")
    return out


def summary(snap: Mapping[str, Any]) -> dict[str, Any]:
    """What the round page and the console show of a board (a snapshot without its moves).

    >>> summary({"board": 1, "moves": [1, 2], "events": [], "notices": [], "seq": 3})
    {'board': 1, 'seq': 3}
    """
    return {k: v for k, v in snap.items() if k not in ("moves", "events", "notices")}


@dataclass(frozen=True)
class RoundLive:
    """Every board of a round as the round page and the console show it."""

    event_id: int
    event_name: str
    number: int
    size: int
    boards: list[dict[str, Any]]
    """``Snapshot.to_data()`` of each board, in board order."""
    disconnect_alert: int | None = None
    """The event's setting: seconds away before a disconnection alerts the referees
    (``None``: the clock simply runs, no alert)."""


def board_data(
    db: Database, event_id: int, number: int, board: BoardKey, clock: ServerClock = SYSTEM_CLOCK
) -> dict[str, Any]:
    """One board's snapshot (``Snapshot.to_data()``)."""
    with db.transaction() as session:
        return _board_data(session, event_id, number, board, clock)


def _board_data(
    session: Session, event_id: int, number: int, board: BoardKey, clock: ServerClock
) -> dict[str, Any]:
    game = live._live_game(session, event_id, number, board)
    _row, record = _load_record(session, game)
    return live._snapshot(event_id, game, record, clock.now().timestamp()).to_data()


def _round(session: Session, event_id: int, number: int, clock: ServerClock) -> RoundLive:
    event = session.get(EventRow, event_id)
    if event is None:
        raise NotFound(Msg("round %(number)s is not paired", number=number))
    now = clock.now().timestamp()
    boards = []
    for game in _round_games(session, event_id, number):
        _row, record = _load_record(session, game)
        boards.append(live._snapshot(event_id, game, record, now).to_data())
    size = boards[0]["size"] if boards else 19
    return RoundLive(
        event_id, event.name, number, size, boards, _disconnect_alert(session, event_id)
    )


def _round_games(session: Session, event_id: int, number: int) -> list[games.RefereedGame]:
    """Every board of the round as a game, in order: an individual round's boards, or a team
    round's seated boards (match by match) once its lineups are revealed."""
    if not is_team_event(session, event_id):
        loaded = games.round_boards(session, event_id, number)  # every board's rows at once
        return [
            games.refereed_game(session, loaded.game(number, n), loaded.labels)
            for n in sorted(loaded.games)
        ]
    rnd = round_row(session, event_id, number)
    if rnd.revealed_at is None:
        return []  # nobody is seated before the lineups are revealed
    return [
        games.refereed_game(session, g)
        for m in sorted(rnd.matches, key=lambda m: m.number)
        for g in sorted(m.games, key=lambda g: (g.board, g.sitting))
        if g.black_id is not None and g.white_id is not None
    ]


def _disconnect_alert(session: Session, event_id: int) -> int | None:
    settings = event_settings(session, event_id)
    return settings.disconnect_alert if isinstance(settings, EventSettings) else None


def round_plan(
    db: Database, actor: Actor, event_id: int, number: int
) -> tuple[list[BoardKey], int | None]:
    """The boards of a round and the event's disconnection setting, for a round's socket to
    subscribe to before it reads the boards (:func:`round_boards`); no record is read. A round
    not public is ``NotFound`` to all but its referees and organisers."""
    require_round_visible(db, actor, event_id, number)
    with db.transaction() as session:
        if session.get(EventRow, event_id) is None:
            raise NotFound(Msg("round %(number)s is not paired", number=number))
        rnd = round_row(session, event_id, number)
        # either kind, in order: a team round's seated boards match by match (an empty seat is
        # a forfeit, no game); its boards exist once its lineups are revealed
        boards = [
            games.board_key(board, match, sitting)
            for match, board, sitting in session.execute(
                select(TeamMatchRow.number, GameRow.board, GameRow.sitting)
                .outerjoin(TeamMatchRow, TeamMatchRow.id == GameRow.match_id)
                .where(
                    GameRow.round_id == rnd.id,
                    GameRow.black_id.is_not(None),
                    GameRow.white_id.is_not(None),
                )
                .order_by(TeamMatchRow.number, GameRow.board, GameRow.sitting)
            )
        ]
        return boards, _disconnect_alert(session, event_id)


def round_boards(
    db: Database, actor: Actor, event_id: int, number: int, clock: ServerClock = SYSTEM_CLOCK
) -> RoundLive:
    """Every board of a round for its spectators (a round not public is ``NotFound`` to all
    but its referees and organisers)."""
    require_round_visible(db, actor, event_id, number)
    with db.transaction() as session:
        return _round(session, event_id, number, clock)


def console_boards(
    db: Database, actor: Actor, event_id: int, number: int, clock: ServerClock = SYSTEM_CLOCK
) -> RoundLive:
    """Every board of a round for the event's referees (``PermissionDenied`` for anybody
    else)."""
    with db.transaction() as session:
        require(session, actor, Action.RULE_INFRACTION, event_id)
        return _round(session, event_id, number, clock)


def may_referee(db: Database, actor: Actor, event_id: int) -> bool:
    """Whether ``actor`` referees the event (sees the console and its alerts)."""
    return allowed(db, actor, Action.RULE_INFRACTION, event_id)


# -- what the referees do ----------------------------------------------------------------------


Build = Callable[[Session, GameRecord], RecordEvent]


def _change(
    db: Database,
    actor: Actor,
    action: Action,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    build: Build,
    field: str,
    clock: ServerClock,
) -> live.ActionOutcome:
    """One referee action in a live game, in one transaction: ``actor`` may take ``action``,
    the record is still the one the referee's page showed, a flag that has fallen is recorded
    first, then the event ``build`` makes is appended as the referee (or chief referee). The
    core's refusal (a clock that is not running, a game over …) is bad input for ``field``:
    ``InvalidSetting``, nothing stored."""
    with db.transaction() as session:
        require(session, actor, action, event_id)
        game = _game_to_change(session, event_id, number, board, expected_seq)
        row, record = _load_at(session, game, expected_seq)
        if record is None or not any(
            isinstance(e.event, ClockEvent) and e.event.action is ClockAction.START
            for e in record.entries
        ):
            raise Conflict(Msg("the game has not started"))
        before = len(record)
        now = _now(clock, record)
        if live._flag_if_due(record, now):
            _store(session, game, row, record)
            raise InvalidSetting(
                field,
                Msg("time: %(color)s's time ran out", color=record.state.clock.flagged),  # type: ignore[union-attr]
            )
        event = build(session, record)
        try:
            record.append(event, game_actor(session, actor, event_id), now)
        except (Conflict, InvalidSetting) as err:
            raise InvalidSetting(field, live._core_reason(err)) from None
        _store(session, game, row, record)
        snap = live._snapshot(event_id, game, record, clock.now().timestamp(), since=before)
    return live.ActionOutcome(snap)


def pause(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    reason: str = "",
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> live.ActionOutcome:
    """The referee pauses the game (R-TIME-5): nothing runs, the players may not play until
    :func:`resume`."""
    why = clean_note("reason", reason)

    def build(_s: Session, record: GameRecord) -> RecordEvent:
        if record.state.phase.value != "playing":
            raise InvalidSetting("pause", Msg("only a game being played can be paused"))
        return ClockEvent(ClockAction.PAUSE, reason=why)

    return _change(db, actor, Action.RULE_INFRACTION, event_id, number, board, expected_seq,
                   build, "pause", clock)  # fmt: skip


def resume(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> live.ActionOutcome:
    """The referee resumes a paused game: the clock of the player to move runs again."""

    def build(_s: Session, record: GameRecord) -> RecordEvent:
        if not live._referee_paused(record.state):
            raise InvalidSetting("resume", Msg("the game is not paused"))
        return ClockEvent(ClockAction.RESUME)

    return _change(db, actor, Action.RULE_INFRACTION, event_id, number, board, expected_seq,
                   build, "resume", clock)  # fmt: skip


def record_infraction(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    kind: str,
    offender: str,
    penalty: str | None = None,
    note: str = "",
    stones: str = "",
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> live.ActionOutcome:
    """The referee rules an infraction by ``offender`` (``B``/``W``); the penalty is the
    catalogue's (``penalty``: the referee's choice where the rules leave one, R-REF-6). A
    warning counts one stone at counting, a second loses the game (R-PEN-1). ``stones``: the
    GTP vertices concerned, if any."""
    # read before the game is touched (a bad input is not refused after a fallen flag is
    # recorded); only the stones wait for the board's size
    ruled = referee_input.infraction(kind, offender, penalty, note, offered=LIVE)
    # a penalty the rules leave to the referee and none chosen: the catalogue refuses it
    # (``penalty_for``) when the event is appended, next to the penalty field

    def build(_s: Session, record: GameRecord) -> RecordEvent:
        size = record.state.ruleset.board_size  # type: ignore[union-attr]  # started
        return InfractionRuled(replace(ruled, points=referee_input.points(stones, size)))

    return _change(db, actor, Action.RULE_INFRACTION, event_id, number, board, expected_seq,
                   build, "penalty", clock)  # fmt: skip


def record_ruling(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    kind: str,
    reason: str,
    loser: str | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> live.ActionOutcome:
    """The referee's decision that ends the game (R-END-1(d)): forfeit, time loss and loss
    name the loser; draw, replay, both lose and no result are the chief referee's."""
    ruling = referee_input.ruling(kind, reason, loser)
    action = (
        Action.CHIEF_RULING
        if ruling.required_role is Role.CHIEF_REFEREE
        else Action.RULE_INFRACTION
    )
    return _change(db, actor, action, event_id, number, board, expected_seq,
                   lambda _s, _r: RulingMade(ruling), "ruling", clock)  # fmt: skip


def correct_clock(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    color: str,
    seconds: str,
    reason: str,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> live.ActionOutcome:
    """The chief referee corrects a clock (R-TIME-8): ``seconds`` more charged to ``color``
    (negative: given back to the main time), with the reason."""
    who = referee_input.color(color, "color")
    try:
        amount = float(seconds.strip())
    except ValueError:
        raise InvalidSetting(
            "seconds", Msg("enter a number of seconds, such as 30 or -30")
        ) from None
    if amount == 0 or abs(amount) > 24 * 3600 or amount != amount:
        raise InvalidSetting("seconds", Msg("enter a number of seconds, such as 30 or -30"))
    why = stated_reason(reason, Msg("a clock correction states its reason"))

    def build(_s: Session, _r: GameRecord) -> RecordEvent:
        return ClockEvent(ClockAction.ADJUST, color=who, seconds=amount, reason=why)

    return _change(db, actor, Action.CORRECT_CLOCK, event_id, number, board, expected_seq,
                   build, "seconds", clock)  # fmt: skip
