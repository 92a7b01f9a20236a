"""Online rounds (issue #11), the services on a manual clock, SQLite and PostgreSQL: the event's
play mode is the one rule of whether the room starts a game; the round's start time, set in the
event's time zone and refused when it is not later than the server's now; a game that starts at
the round's start time starts then with nobody in the room, an absent player's clock running
and the lateness judged on arrival (R-TIME-6, Art. 22)."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from tests.live.conftest import seated_event
from weiqi.errors import Conflict, InvalidSetting
from weiqi.i18n import render
from weiqi.referee.nigiri import Contestant, Guess, Nigiri
from weiqi.services import accounts, event_admin, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.tournament.settings import (
    EventSettings,
    GameStart,
    PlayMode,
    System,
    settings_from_dict,
    settings_to_dict,
)

LOCAL = Actor.local()
#: 2026-12-05 09:00 in Shanghai (the events' default time zone).
T0 = datetime(2026, 12, 5, 1, 0, tzinfo=UTC)


def _event(
    db: Database, time_control: str = "1h+3x30s", **settings: object
) -> tuple[int, dict[str, Actor]]:
    """An event of two on 9×9 (over the board unless ``settings`` say otherwise), round 1
    paired, each entrant linked to a user: the event and the users by colour."""
    return seated_event(db, time_control, **settings)


def test_the_play_mode_setting_decides_whether_the_room_starts_a_game(database: Database) -> None:
    """Over the board (the default) the room starts no game and says why; online it does."""
    assert EventSettings(System.ROUND_ROBIN).play is PlayMode.BOARD
    online = EventSettings(System.ROUND_ROBIN, play="online", game_start="round_start")  # type: ignore[arg-type]
    assert settings_from_dict(settings_to_dict(online)) == online
    assert settings_to_dict(online)["play"] == "online"
    with pytest.raises(InvalidSetting) as bad:
        EventSettings(System.ROUND_ROBIN, play="internet")  # type: ignore[arg-type]
    assert bad.value.field == "play"
    board, _ = _event(database)
    with pytest.raises(Conflict) as refused:
        live.start_game(database, board, 1, 1)
    assert render(refused.value.msg, "zh_CN") == "本赛事为现场对局，结果由裁判录入"
    assert live.snapshot(database, board, 1, 1).phase == "not_started"
    played, _ = _event(database, play="online")
    assert live.start_game(database, played, 1, 1).started


def test_the_round_start_is_typed_in_the_event_time_zone_and_must_be_later_than_now(
    database: Database,
) -> None:
    """A start in the past, or one that cannot be read, is refused naming the field; a start
    is kept in UTC and cleared by an empty one; once a game began it cannot change."""
    ev, _ = _event(database, play="online")
    clock = ManualClock(T0)
    with pytest.raises(InvalidSetting) as past:
        event_admin.set_round_start(database, LOCAL, ev, 1, "2026-12-05 08:59", clock)
    assert past.value.field == "start"
    assert render(past.value.reason, "zh_CN") == "开始时间须晚于现在（2026-12-05 09:00）"
    with pytest.raises(InvalidSetting) as unreadable:
        event_admin.set_round_start(database, LOCAL, ev, 1, "明天早上", clock)
    assert unreadable.value.field == "start"
    detail = event_admin.set_round_start(database, LOCAL, ev, 1, "2026-12-05T09:30", clock)
    assert detail.starts_at == T0 + timedelta(minutes=30)
    assert event_admin.round_detail(database, LOCAL, ev, 1).starts_at == T0 + timedelta(minutes=30)
    assert event_admin.set_round_start(database, LOCAL, ev, 1, "", clock).starts_at is None
    live.start_game(database, ev, 1, 1, clock)
    with pytest.raises(Conflict):
        event_admin.set_round_start(database, LOCAL, ev, 1, "2026-12-05 10:00", clock)


def test_r_time_6_the_game_starts_at_the_round_start_with_nobody_in_the_room(
    database: Database,
) -> None:
    """Games that start at the round's start time: both players in the room before it start
    nothing; the server's look at the start time finds the start due and starts the clock then,
    with the players not in the room absent. Black arrives 10 minutes late: 20 minutes are
    deducted (twice the late time, Art. 22.2); White never comes and loses by forfeit one hour
    after the start (Art. 22.1), recorded by the server with nobody sending anything."""
    ev, seats = _event(database, play="online", game_start="round_start")
    clock = ManualClock(T0)
    event_admin.set_round_start(database, LOCAL, ev, 1, "2026-12-05 09:30", clock)
    start = (T0 + timedelta(minutes=30)).timestamp()
    assert live.scheduled_starts(database, clock) == []  # not published yet
    event_admin.publish_round(database, LOCAL, ev, 1)
    assert live.scheduled_starts(database, clock, within=3600) == [(ev, 1, 1)]
    assert live.scheduled_starts(database, clock, within=60) == []  # not yet near
    early = live.start_game(database, ev, 1, 1, clock)  # both in the room, before the time
    assert not early.started and early.starts_at == start and early.starts_in == 1800
    assert live.next_wakeup(database, ev, 1, 1, clock) == start
    assert live.start_time(database, ev, 1, 1) == start
    assert not live.wake(database, ev, 1, 1, clock).start_due
    clock.set(T0 + timedelta(minutes=30, milliseconds=5))
    woke = live.wake(database, ev, 1, 1, clock)
    assert woke.start_due and not woke.changed
    started = live.start_game(database, ev, 1, 1, clock, present=set())
    assert started.started and started.absent == ["B", "W"] and started.starts_at is None
    assert live.scheduled_starts(database, clock) == []
    assert started.clock is not None and started.clock.running == "B"
    clock.set(T0 + timedelta(minutes=40))
    arrived = live.arrive(database, ev, 1, 1, "B", clock)
    assert [e.kind for e in arrived.events] == ["clock_arrive"]
    assert arrived.absent == ["W"]
    assert arrived.clock is not None
    assert arrived.clock.black.main == pytest.approx(40 * 60, abs=0.01)  # 1 h − 2 × 10 min
    assert live.arrive(database, ev, 1, 1, "B", clock).events == []  # not absent: nothing
    moved = live.act(database, seats["B"], ev, 1, 1, "move", None, {"vertex": "E5"}, clock)
    assert moved.refused is None
    due = live.next_wakeup(database, ev, 1, 1, clock)
    assert due is not None and due <= start + 3600 + 0.01
    clock.set(T0 + timedelta(minutes=90, milliseconds=5))
    flagged = live.wake(database, ev, 1, 1, clock)
    assert flagged.changed and flagged.snapshot.result == "B+F"


def test_the_game_starts_when_both_are_present_without_a_start_time(database: Database) -> None:
    """The setting "at the round's start time" with no start set: the room's usual start
    (both players present); the server wakes for nothing meanwhile."""
    ev, _ = _event(database, play="online", game_start=GameStart.ROUND_START)
    event_admin.publish_round(database, LOCAL, ev, 1)
    clock = ManualClock(T0)
    assert live.next_wakeup(database, ev, 1, 1, clock) is None
    assert live.scheduled_starts(database, clock) == []
    snap = live.start_game(database, ev, 1, 1, clock)
    assert snap.started and snap.absent == []


def _drawn_black(seed: int, holder: str, guesser: str) -> str:
    """Who the server's nigiri with ``seed`` gives Black (the guess and handful from it)."""
    guess = random.Random(seed).choice((Guess.ODD, Guess.EVEN))
    a, b = Contestant(holder, 5, date.max), Contestant(guesser, 3, date.max)
    return Nigiri.draw(a, b, guess, seed).black


@pytest.mark.parametrize("swapped", [False, True])
def test_r_color_1_nigiri_is_drawn_when_the_game_opens_and_the_board_takes_its_colors(
    database: Database, monkeypatch: pytest.MonkeyPatch, swapped: bool
) -> None:
    """R-COLOR-1: an even game of an event whose online colours are by nigiri: when a player
    first opens the room the server draws it — the higher rank (李明 5d) holds, the guess and
    the handful from a secret seed that is recorded — before the clock starts (a move is
    refused until then); the drawn Black is Black on the round's board (the round sheet and
    standings read it) and in the record; the draw can be run again from its seed. The seed
    source is fixed here to give each outcome (paired colours kept, or swapped)."""
    made = EventSettings(System.ROUND_ROBIN, board_size=9, play="online", online_colors="nigiri")  # type: ignore[arg-type]
    ev = create_event(database, LOCAL, "猜先赛", made).id
    t.import_players(database, LOCAL, ev, "name,rank\n李明,5d\n王强,3d\n")
    t.pair_round(database, LOCAL, ev)
    (paired,) = event_admin.round_detail(database, LOCAL, ev, 1).pairings
    want = paired.white if swapped else paired.black
    seed = next(s for s in range(1, 200) if _drawn_black(s, "李明", "王强") == want)
    monkeypatch.setattr(live.secrets, "randbits", lambda _bits: seed)
    clock = ManualClock(T0)
    opened = live.open_game(database, ev, 1, 1, clock)
    assert not opened.started and opened.nigiri is not None
    drawn = opened.nigiri
    assert drawn["holder"] == "李明" and drawn["guesser"] == "王强" and drawn["seed"] == seed
    assert drawn["black"] == want == opened.black
    assert [e.kind for e in opened.events] == ["start"]
    assert live.open_game(database, ev, 1, 1, clock).events == []  # drawn once
    # only opened, not begun: the round's start may still move
    assert event_admin.set_round_start(database, LOCAL, ev, 1, "2026-12-05 10:00", clock).starts_at
    (board,) = event_admin.round_detail(database, LOCAL, ev, 1).pairings
    assert (board.black, board.white) == (
        (paired.white, paired.black) if swapped else (paired.black, paired.white)
    )
    again = Nigiri.draw(
        Contestant("李明", 5, date.max), Contestant("王强", 3, date.max),
        Guess(drawn["guess"]), drawn["seed"],
    )  # fmt: skip
    assert again.count == drawn["count"] and again.black == want
    black = accounts.create_user(database, LOCAL, f"b-{ev}", "a long pass phrase 7").actor()
    name = want
    code = live.create_invite(database, LOCAL, ev, live.player_id(database, ev, name)).code
    live.redeem_invite(database, black, code)
    assert live.seat(database, black, ev, 1, 1) == "B"
    early = live.act(database, black, ev, 1, 1, "move", None, {"vertex": "E5"}, clock)
    assert early.refused is not None and render(early.refused, "zh_CN") == "对局尚未开始"
    started = live.start_game(database, ev, 1, 1, clock)
    assert started.started and started.nigiri == drawn and started.black == want
    moved = live.act(database, black, ev, 1, 1, "move", None, {"vertex": "E5"}, clock)
    assert moved.refused is None


def test_r_color_1_a_handicap_game_keeps_its_colors(database: Database) -> None:
    """Nigiri is for even games: a handicap game's colours come from the ranks (no draw)."""
    made = EventSettings(
        System.ROUND_ROBIN, board_size=9, play="online", online_colors="nigiri",  # type: ignore[arg-type]
        color_policy="handicap",
    )  # fmt: skip
    ev = create_event(database, LOCAL, "让子赛", made).id
    t.import_players(database, LOCAL, ev, "name,rank\n李明,5d\n王强,1d\n")
    t.pair_round(database, LOCAL, ev)
    assert live.open_game(database, ev, 1, 1).events == []
    snap = live.start_game(database, ev, 1, 1)
    assert snap.started and snap.nigiri is None and snap.black == "王强"


def test_r_hcp_2_black_places_the_handicap_stones_freely_then_white_moves(
    database: Database,
) -> None:
    """R-HCP-2 with free placement in the room: the game starts with Black to place its three
    stones (Black's clock running); White may neither move nor place, Black may not move
    first; a wrong count, a point twice or off the board is refused with the reason, nothing
    stored; the three stones placed, White moves next and White's clock runs."""
    made = EventSettings(
        System.ROUND_ROBIN, board_size=9, play="online", color_policy="handicap",  # type: ignore[arg-type]
        handicap_placement="free", time_control="10m+3x30s",  # type: ignore[arg-type]
    )  # fmt: skip
    ev = create_event(database, LOCAL, "自由让子", made).id
    t.import_players(database, LOCAL, ev, "name,rank\n李明,5d\n王强,2d\n")
    t.pair_round(database, LOCAL, ev)
    seats = {}
    for name in ("李明", "王强"):
        actor = accounts.create_user(database, LOCAL, f"u{name}", "a long pass phrase 7").actor()
        code = live.create_invite(database, LOCAL, ev, live.player_id(database, ev, name)).code
        live.redeem_invite(database, actor, code)
        seats[live.seat(database, actor, ev, 1, 1)] = actor
    clock = ManualClock(T0)
    snap = live.start_game(database, ev, 1, 1, clock)
    assert snap.black == "王强" and snap.handicap_to_place == 3 and snap.to_move == "B"
    assert snap.clock is not None and snap.clock.running == "B" and snap.stones == {}

    def refused(color: str, action: str, **data: object) -> str:
        out = live.act(database, seats[color], ev, 1, 1, action, None, data, clock)
        assert out.refused is not None and out.snapshot.events == []
        return render(out.refused, "zh_CN")

    assert refused("W", "place_handicap", stones=["C3", "G7", "E5"]) == "只有黑方放置让子"
    assert refused("W", "move", vertex="E5") == "黑方须先放置让子"
    assert refused("B", "move", vertex="E5") == "黑方须先放置让子"
    assert "3" in refused("B", "place_handicap", stones=["C3", "G7"])
    assert refused("B", "place_handicap", stones=["C3", "C3", "G7"])
    assert refused("B", "place_handicap", stones=["C3", "G7", "Z99"]).endswith("Z99不是棋盘上的点")
    clock.advance(timedelta(seconds=20))
    placed = live.act(
        database, seats["B"], ev, 1, 1, "place_handicap", None, {"stones": ["C3", "G7", "E5"]},
        clock,
    )  # fmt: skip
    assert placed.refused is None
    assert placed.snapshot.stones == {"C3": "B", "G7": "B", "E5": "B"}
    assert placed.snapshot.handicap_to_place == 0 and placed.snapshot.to_move == "W"
    assert placed.snapshot.clock is not None and placed.snapshot.clock.running == "W"
    moved = live.act(database, seats["W"], ev, 1, 1, "move", None, {"vertex": "C7"}, clock)
    assert moved.refused is None and moved.snapshot.to_move == "B"


def test_r_time_6_a_readers_coming_says_when_the_server_looks_next(database: Database) -> None:
    """What a reader's coming into the room reads (``live.enter_room``) says when the server is
    to look at the game next, as ``live.next_wakeup`` does — the round's start time before it,
    the clock's next call after — so the room need not ask again; a start time moved after
    the room read it is read anew (the room's reads are kept only while the event's shape
    stays)."""
    ev, seats = _event(database, play="online", game_start="round_start")
    clock = ManualClock(T0)
    event_admin.set_round_start(database, LOCAL, ev, 1, "2026-12-05 09:30", clock)
    event_admin.publish_round(database, LOCAL, ev, 1)
    spectator = Actor(None, "")
    first = live.enter_room(database, spectator, ev, 1, 1, clock)
    start = (T0 + timedelta(minutes=30)).timestamp()
    assert first.wakeup == live.next_wakeup(database, ev, 1, 1, clock) == start
    assert first.snapshot.starts_at == start
    event_admin.set_round_start(database, LOCAL, ev, 1, "2026-12-05 09:45", clock)
    moved = live.enter_room(database, seats["B"], ev, 1, 1, clock)
    later = (T0 + timedelta(minutes=45)).timestamp()
    assert moved.wakeup == moved.snapshot.starts_at == later and moved.color == "B"
    clock.set(T0 + timedelta(minutes=45))
    assert live.start_game(database, ev, 1, 1, clock, present={"B"}).started
    clock.set(T0 + timedelta(minutes=46))
    playing = live.enter_room(database, spectator, ev, 1, 1, clock)
    assert playing.wakeup is not None and playing.wakeup > clock.now().timestamp()
    assert playing.wakeup == live.next_wakeup(database, ev, 1, 1, clock)
