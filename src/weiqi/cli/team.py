"""``weiqi team …``: what only team events have; and the team side of ``event``, ``round`` and
``standings``.

A team event is run with the commands of every event (``weiqi event create --kind team``,
``weiqi round …``, ``weiqi standings``); this module adds the team commands and the functions
those commands call for a team event.

Usage::

    weiqi event create --kind team --db club.sqlite3 --name "City teams" --system round_robin \
        --boards 3
    weiqi team import --db club.sqlite3 teams.csv
    weiqi round pair --db club.sqlite3 --start 2026-05-01T09:00
    weiqi team coach --db club.sqlite3 --team Tianjin --user wang
    weiqi team lineup --db club.sqlite3 --round 1 --team Tianjin P1,P2,P3
    weiqi team lineup --db club.sqlite3 --round 2 --team Tianjin '"Li, Wei",P2,P3'
    weiqi team edit-player --db club.sqlite3 "张伟 (Tianjin)" --rank 6d --birth-date 1990-03-01
    weiqi team rename --db club.sqlite3 Tianjin "Tianjin Qiyuan" --json
    weiqi team delete --db club.sqlite3 Beijing
    weiqi round reveal --db club.sqlite3 --round 1
    weiqi round result --db club.sqlite3 --round 1 --team Tianjin --board 1 B+R
    weiqi standings --db club.sqlite3 --json

``--db`` as for ``weiqi event``. ``weiqi team`` commands act on the newest team event unless
``--event ID`` names another (a league division is a team event too: ``weiqi league show``
lists their ids).
A lineup is one argument read as one CSV row: an id that holds a comma is quoted as the teams
CSV quotes it (an unclosed quote is refused before anything is stored).
Lineups stay sealed until ``round reveal``; an illegal lineup is refused with its reason. The
deadline is checked against the system clock: no option says what time it is (a test gives the
app a ``ManualClock`` as ``CliRunner().invoke(app, args, obj=clock)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from weiqi.cli.event import DbOption, JsonOption, echo_created, echo_json, open_database
from weiqi.cli.inputs import (
    PLAYER_IDS_HELP,
    choice,
    db_int,
    in_db_range,
    parse_time,
    player_ids,
    read_text,
)
from weiqi.errors import InputError
from weiqi.league.standings import TeamRanking
from weiqi.messages import Msg
from weiqi.services.actor import Actor
from weiqi.services.read_models import TeamStandingRead
from weiqi.services.read_models import as_json as plain
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.services.teams import iso as _iso
from weiqi.services.teams import round_read
from weiqi.store.database import Database
from weiqi.tournament.standings import tiebreak

EventOption = Annotated[
    int | None, typer.Option("--event", help="Event id; default the newest team event.")
]
RoundOption = Annotated[
    int, typer.Option("--round", help="Round number.", parser=db_int("--round"))
]
HomeNationalityOption = Annotated[
    str | None,
    typer.Option("--home-nationality", help="Other nationalities are foreign (外援)."),
]


def cli_clock(ctx: typer.Context) -> ServerClock:
    """What time it is for a command: the system clock, or the ``ManualClock`` a test passed as
    the context object (``CliRunner().invoke(app, args, obj=clock)``)."""
    obj = ctx.obj
    return obj if isinstance(obj, ServerClock) else SYSTEM_CLOCK


def _event_id(database: Database, event: int | None) -> int:
    from weiqi.services.events import EventKind, latest_event

    return (
        in_db_range("--event", event)
        if event is not None
        else latest_event(database, EventKind.TEAM)
    )


def _open_team_event(db: str | None, event: int | None) -> tuple[Database, int]:
    """The database ``--db`` names and the team event ``--event`` names in it (the newest team
    event by default), as most team commands begin."""
    database = open_database(db)
    return database, _event_id(database, event)


def echo_round(view: object, as_json: bool) -> None:
    """A team round as a command answers with it: JSON, or a table per match."""
    from weiqi.services.teams import TeamRoundView

    assert isinstance(view, TeamRoundView)
    if as_json:
        echo_json(plain(round_read(view)))
        return
    console = Console()
    title = f"第{view.number}轮 · round {view.number}"
    if view.date:
        title += f" · {view.date}"
    if view.deadline and view.revealed_at is None:
        console.print(f"出场名单截止 lineups close {_iso(view.deadline)}")
    for m in view.matches:
        table = Table(title=f"{title} · {m.number}. {m.home} – {m.away}")
        if not m.boards:
            table.add_column("队 team")
            table.add_column("出场名单 lineup")
            for team, sent in m.submitted.items():
                table.add_row(team, "已提交 sealed" if sent else "未提交 not yet")
            console.print(table)
            continue
        for col in ("台次 board", m.home, "", m.away, "结果 result"):
            table.add_column(col)
        for b in m.boards:
            board = f"{b.board}" + (f"/{b.sitting + 1}" if b.sitting else "")
            color = "黑 B" if b.home_color == "B" else "白 W"
            table.add_row(
                board,
                b.home_name or b.home_player or "(空 empty)",
                color,
                b.away_name or b.away_player or "(空 empty)",
                b.result or "",
            )
        console.print(table)
        if m.game_points is not None and m.match_points is not None:
            console.print(
                f"局分 game points {m.game_points[0]}:{m.game_points[1]} · "
                f"场分 match points {m.match_points[0]}:{m.match_points[1]}"
            )
    if view.bye:
        console.print(f"轮空 bye: {view.bye}")


def print_standings(title: str, rows: Sequence[TeamStandingRead]) -> None:
    table = Table(title=title)
    boards = 0
    for r in rows:
        boards = max(boards, len(r.board_points))
    for col in ("名次 place", "队 team", "场 P", "胜 W", "和 D", "负 L"):
        table.add_column(col)
    for code in TeamRanking.ROUND_ROBIN.codes(boards):  # the columns' names are the registry's
        table.add_column(f"{tiebreak(code).zh} {code}")
    for r in rows:
        table.add_row(
            f"{r.place}{'=' if r.shared else ''}",
            r.name,
            *(str(v) for v in (r.played, r.won, r.drawn, r.lost, r.match_points, r.game_points)),
            *(str(p) for p in r.board_points),
        )
    Console().print(table)


def create_team(
    db: str | None,
    name: str,
    system: str,
    team_type: str,
    boards: int,
    board_colors: str,
    max_foreign: int | None,
    substitutes: bool | None,
    missing: str,
    board_one_decides: bool,
    deadline_minutes: int,
    rounds: int | None,
    cycles: int,
    ranking: str | None,
    seed: int,
    player_order: str,
    as_json: bool,
    board_size: int | None = None,
    time_control: str | None = None,
    play: str | None = None,
    game_start: str | None = None,
    lag: Mapping[str, float] | None = None,
    komi: Fraction | None = None,
    cycle: str | None = None,
) -> None:
    """``event create --kind team``: create a team event with its settings (``board_size``:
    its boards', ``time_control``: the one its boards are played with online, ``play``: over
    the board or online, ``game_start``: when an online board starts, ``lag``: the online
    boards' ``lag_gain`` and ``lag_cap`` where given, ``komi`` and ``cycle``: its boards'
    komi and repeated-position policy, the rules' unless given)."""
    from weiqi.league.lineup import MissingLineup
    from weiqi.league.match import BoardColors
    from weiqi.league.settings import TeamEventSettings
    from weiqi.league.team import TeamType
    from weiqi.league.winner_stays_on import PlayerOrder
    from weiqi.rules.ruleset import CyclePolicy
    from weiqi.services.events import create_event
    from weiqi.tournament.settings import (
        KOMI_STONES,
        SYSTEM_SETTINGS,
        GameStart,
        PlayMode,
        System,
        check_applies,
        time_control_value,
    )

    sys_ = choice(System, system.replace("-", "_"), "--system")
    default_ranking = "swiss_points" if sys_ is System.SWISS else "round_robin"
    order = choice(PlayerOrder, player_order, "--order")
    typed = {"cycles": cycles, "player_order": order.value}
    # a system's own settings go to its variant only; what another system reads is told
    own: dict[str, Any] = {k: v for k, v in typed.items() if sys_ in SYSTEM_SETTINGS[k]}
    settings = TeamEventSettings(
        system=sys_,
        team_type=choice(TeamType, team_type, "--type"),
        boards=boards,
        board_colors=choice(BoardColors, board_colors, "--board-colors"),
        max_foreign=max_foreign,
        substitutes=substitutes,
        missing=choice(MissingLineup, missing, "--missing"),
        board_one_decides=board_one_decides,
        deadline_minutes=deadline_minutes,
        rounds=rounds,
        ranking=choice(TeamRanking, ranking or default_ranking, "--ranking"),
        seed=seed,
        board_size=board_size or 19,
        komi=KOMI_STONES if komi is None else komi,
        cycle=choice(CyclePolicy, cycle or CyclePolicy.BAN.value, "--cycle-policy"),
        play=choice(PlayMode, play or PlayMode.BOARD.value, "--play"),
        game_start=choice(GameStart, game_start or GameStart.PRESENT.value, "--game-start"),
        time_control=time_control_value(time_control or ""),
        **(lag or {}),
        **own,
    )
    check_applies(settings, typed)
    database = open_database(db)
    info = create_event(database, Actor.local(), name, settings)
    if as_json:
        echo_created(database, info.id)
        return
    typer.echo(
        f"team event {info.id}: {info.name} — {settings.system.zh} ({settings.system.value}),"
        f" {settings.team_type.zh}, {settings.boards} boards, {settings.play.value}"
    )


def pair_team_round(
    database: Database, event_id: int, start: str | None, as_json: bool, explain: bool = False
) -> None:
    """``round pair`` of a team event: pair the next round and store its matches; ``explain``:
    why each match, as the round's page says it (``show_round``'s read model)."""
    from weiqi.cli.event import print_explanation
    from weiqi.services.pair_explanation import TEAM_WORDS
    from weiqi.services.teams import pair_round, show_round

    view = pair_round(database, Actor.local(), event_id, parse_time(start, "--start"))
    if explain:
        view = show_round(database, event_id, view.number)  # the round as shown, explained
    echo_round(view, as_json)
    if explain and not as_json:
        print_explanation(view.explanation, view.totals, TEAM_WORDS)


def reveal_team_round(
    ctx: typer.Context, database: Database, event_id: int, round_number: int, as_json: bool
) -> None:
    """``round reveal``: publish the round's lineups together and seat the boards."""
    from weiqi.services.teams import reveal_round

    view = reveal_round(database, Actor.local(), event_id, round_number, clock=cli_clock(ctx))
    echo_round(view, as_json)


def show_team_round(
    database: Database, event_id: int, round_number: int | None, as_json: bool
) -> None:
    """``round show`` of a team event: its matches (boards and lineups once revealed)."""
    from weiqi.services.teams import show_round

    view = show_round(database, event_id, round_number)
    echo_round(view, as_json)


def record_team_board(
    database: Database,
    event_id: int,
    round_number: int,
    board: int,
    team: str,
    sitting: int,
    result_code: str,
) -> None:
    """``round result --team``: record one board of the match ``team`` plays in."""
    from weiqi.services.teams import record_board_result

    view = record_board_result(
        database, Actor.local(), event_id, round_number, team, board, result_code, sitting - 1
    )
    line = f"round {round_number} {view.home}–{view.away} board {board}: {result_code}"
    if view.game_points is not None:
        line += f" · match {view.game_points[0]}:{view.game_points[1]}"
    typer.echo(line)


def show_team_standings(
    database: Database, event_id: int, as_json: bool, heading: str = "团体名次 standings"
) -> None:
    """``standings`` of a team event (``league table`` of a division): match points, game
    points, board 1, board 2, …"""
    from weiqi.services.teams import standings, team_event_info

    rows = standings(database, event_id)
    if as_json:
        echo_json([plain(r) for r in rows])
        return
    print_standings(f"{team_event_info(database, event_id).name} · {heading}", rows)


def seal_lineup(
    ctx: typer.Context,
    database: Database,
    event_id: int,
    round_number: int,
    team: str,
    players: str,
) -> None:
    """``team lineup`` (``league lineup``): seal a team's lineup, ``players`` by board."""
    from weiqi.services.teams import submit_lineup

    listed = player_ids(players)
    submit_lineup(
        database,
        Actor.local(),
        event_id,
        round_number,
        team,
        listed,
        clock=cli_clock(ctx),
        typed=True,
    )
    typer.echo(f"round {round_number}: lineup of {team} sealed ({len(listed)} boards)")


def roster_json(team: str, p: object) -> dict[str, object]:
    """A roster player as ``team edit-player --json`` prints it."""
    from weiqi.services.team_admin import RosterCard

    assert isinstance(p, RosterCard)
    return {
        "id": p.id,
        "team": team,
        "player": p.player,
        "name": p.name,
        "label": p.shown,
        "rank": p.rank,
        "rating": p.rating or None,
        "nationality": p.nationality,
        "foreign": p.foreign,
        "birth_date": p.birth_date.isoformat() if p.birth_date else None,
    }


def register(app: typer.Typer) -> None:
    team_app = typer.Typer(
        help="What team events have: teams, coaches, lineups, board records, 擂台赛.",
        no_args_is_help=True,
    )
    stage_app = typer.Typer(
        help="擂台赛 (winner stays on): games, players sent, results.", no_args_is_help=True
    )
    app.add_typer(team_app, name="team")
    team_app.add_typer(stage_app, name="winner-stays-on")

    @team_app.command("import")
    def import_(
        path: Annotated[
            str, typer.Argument(help="CSV: team,name,rank[,rating,nationality,foreign,…]")
        ],
        db: DbOption = None,
        event: EventOption = None,
        home_nationality: HomeNationalityOption = None,
    ) -> None:
        """Enter the teams and rosters of a CSV file — all, or none if any row is bad."""
        from pathlib import Path

        from weiqi.services.teams import import_teams

        database = open_database(db)
        count = import_teams(
            database,
            Actor.local(),
            _event_id(database, event),
            read_text(Path(path)),
            path,
            home_nationality,
        )
        typer.echo(f"imported {count} teams")

    @team_app.command("coach")
    def coach(
        team: Annotated[str, typer.Option("--team", help="The team's id (its name in the CSV).")],
        user: Annotated[str, typer.Option("--user", help="The account's username.")],
        captain: Annotated[
            bool, typer.Option("--captain", help="Assign as captain (队长) instead of coach.")
        ] = False,
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Make an account the coach (教练) of a team: it submits that team's lineups only."""
        from weiqi.services.team_coaches import CoachRole, assign_coach

        database = open_database(db)
        role = CoachRole.CAPTAIN if captain else CoachRole.COACH
        c = assign_coach(database, Actor.local(), _event_id(database, event), team, user, role)
        if as_json:
            echo_json({"team": c.team, "username": c.username, "role": c.role.value})
            return
        typer.echo(f"{c.username} is now {c.role.value} of {c.team}")

    @team_app.command("lineup")
    def lineup(
        ctx: typer.Context,
        players: Annotated[
            str,
            typer.Argument(
                help=f"By board. {PLAYER_IDS_HELP}; a name, or a namesake as pages show it "
                "(张伟 (1990)), is taken too."
            ),
        ],
        round_number: RoundOption,
        team: Annotated[str, typer.Option("--team", help="The team's id (its name in the CSV).")],
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Seal a team's lineup (出场名单) for a round; it stays secret until revealed."""
        database = open_database(db)
        seal_lineup(ctx, database, _event_id(database, event), round_number, team, players)

    @team_app.command("edit-player")
    def edit_player(
        player: Annotated[
            str,
            typer.Argument(
                help="The player's name, or as pages show a namesake: 张伟 (黑龙), 张伟 (1990)."
            ),
        ],
        team: Annotated[
            str | None, typer.Option("--team", help="Look for the player in this team only.")
        ] = None,
        new_name: Annotated[str | None, typer.Option("--name", help="A new name.")] = None,
        rank: Annotated[str | None, typer.Option(help="5d, 2p, 3k, 5段 …")] = None,
        rating: Annotated[str | None, typer.Option(help="A rating ('' for none).")] = None,
        nationality: Annotated[str | None, typer.Option(help="The nationality.")] = None,
        foreign: Annotated[
            bool | None, typer.Option("--foreign/--not-foreign", help="Mark as 外援 or not.")
        ] = None,
        birth_date: Annotated[
            str | None,
            typer.Option(help="YYYY-MM-DD ('' for none): tells two namesakes of a team apart."),
        ] = None,
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Change a roster player's details at any time (what is not given stays); lineups and
        games stay with the player, whose code never changes."""
        from weiqi.services import team_admin

        database, event_id = _open_team_event(db, event)
        owner, now = team_admin.find_player(database, event_id, player, team)
        done = team_admin.edit_roster_player(
            database,
            Actor.local(),
            event_id,
            owner.id,
            now.id,
            now.name if new_name is None else new_name,
            now.rank if rank is None else rank,
            (str(now.rating) if now.rating else "") if rating is None else rating,
            now.nationality if nationality is None else nationality,
            foreign,
            birth_date,
        )
        if as_json:
            echo_json(roster_json(owner.code, done))
            return
        born = done.birth_date.isoformat() if done.birth_date else "-"
        mark = " 外援 foreign" if done.foreign else ""
        typer.echo(
            f"{owner.name} · {done.shown}: {done.rank}, {done.rating or '-'}, "
            f"{done.nationality or '-'}, {born}{mark}"
        )

    @team_app.command("rename")
    def rename(
        team: Annotated[str, typer.Argument(help="The team's code or its name.")],
        new_name: Annotated[str, typer.Argument(metavar="NAME", help="The new name.")],
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Rename a team at any time; its code (lineups, files, these commands) stays."""
        from weiqi.services import team_admin

        database, event_id = _open_team_event(db, event)
        card = team_admin.find_team(database, event_id, team)
        name = team_admin.rename_team(database, Actor.local(), event_id, card.id, new_name)
        if as_json:
            out = {"id": card.id, "code": card.code, "name": name}
            echo_json(out)
            return
        typer.echo(f"{card.code}: {card.name} → {name}")

    @team_app.command("delete")
    def delete(
        team: Annotated[str, typer.Argument(help="The team's code or its name.")],
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Delete a team entered by mistake, with its roster, before round 1 is paired."""
        from weiqi.services import team_admin

        database, event_id = _open_team_event(db, event)
        card = team_admin.find_team(database, event_id, team)
        name = team_admin.delete_team(database, Actor.local(), event_id, card.id)
        if as_json:
            out = {"id": card.id, "code": card.code, "name": name, "deleted": True}
            echo_json(out)
            return
        typer.echo(f"{name} deleted")

    @team_app.command("records")
    def records_command(
        board: Annotated[int | None, typer.Option("--board", help="One board's ranking.")] = None,
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Per-player records, or one board's (for board prizes)."""
        from weiqi.services.teams import code_labels, record_to_dict, records

        database, event_id = _open_team_event(db, event)
        players, by_board = records(database, event_id)
        if board is not None and board not in by_board:
            raise InputError(
                "--board", Msg("the event has boards 1 to %(by_board)s", by_board=len(by_board))
            )
        chosen = by_board[board] if board is not None else players
        shown = code_labels(database, event_id)
        out = [record_to_dict(r, shown) for r in chosen]
        if as_json:
            echo_json(out)
            return
        title = f"{board}台 board {board}" if board is not None else "个人成绩 player records"
        table = Table(title=title)
        for col in (
            "棋手 player",
            "队 team",
            "局 G",
            "胜 W",
            "和 D",
            "负 L",
            "局分 GP",
            "台 boards",
        ):
            table.add_column(col)
        for o in out:
            table.add_row(
                str(o["name"]),
                str(o["team"]),
                *(str(o[k]) for k in ("games", "wins", "draws", "losses", "game_points")),
                ",".join(str(b) for b in o["boards"]),  # type: ignore[attr-defined]
            )
        Console().print(table)

    def _stage_json(view: object) -> dict[str, object]:
        from weiqi.services.winner_stays_on import WinnerStaysOnView

        assert isinstance(view, WinnerStaysOnView)
        return {
            "teams": list(view.teams),
            "games": [
                {
                    "game": g.number,
                    "holder": list(g.holder),
                    "challenger": list(g.challenger),
                    "black": list(g.black),
                    "result": g.result,
                }
                for g in view.games
            ],
            "awaiting": view.awaiting,
            "waiting": {t: list(p) for t, p in view.waiting.items()},
            "out": [list(s) for s in view.out],
            "finished": view.finished,
            "winner": view.winner,
        }

    def _print_stage(view: object, shown: dict[str, str]) -> None:
        """The stage's games, the players named as the pages name them (``shown``: labels
        by code, namesakes apart)."""
        from weiqi.services.winner_stays_on import WinnerStaysOnView

        assert isinstance(view, WinnerStaysOnView)
        table = Table(title="擂台赛 winner stays on")
        for col in ("局 game", "擂主 holder", "攻擂 challenger", "黑 black", "结果 result"):
            table.add_column(col)
        for g in view.games:
            table.add_row(
                str(g.number),
                f"{shown.get(g.holder[1], g.holder[1])} ({g.holder[0]})",
                f"{shown.get(g.challenger[1], g.challenger[1])} ({g.challenger[0]})",
                shown.get(g.black[1], g.black[1]),
                g.result or "",
            )
        console = Console()
        console.print(table)
        if view.finished:
            console.print(f"胜队 winner: {view.winner or '—'}")
        elif view.awaiting:
            console.print(f"{view.awaiting} sends its next player")

    def _show_stage(database: Database, event_id: int, view: object, as_json: bool) -> None:
        """The stage as ``show`` and ``result`` answer: JSON, or the table of its games."""
        if as_json:
            echo_json(_stage_json(view))
        else:
            from weiqi.services.teams import code_labels

            _print_stage(view, code_labels(database, event_id))

    @stage_app.command("show")
    def stage_show(
        db: DbOption = None, event: EventOption = None, as_json: JsonOption = False
    ) -> None:
        """The games so far, the current game, and the winner once decided."""
        from weiqi.services.winner_stays_on import winner_stays_on

        database, event_id = _open_team_event(db, event)
        _show_stage(database, event_id, winner_stays_on(database, event_id), as_json)

    @stage_app.command("send")
    def stage_send(
        player: Annotated[
            str,
            typer.Argument(
                help="The player sent to the stage: a name, or a namesake as pages show it."
            ),
        ],
        team: Annotated[str, typer.Option("--team")],
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """The awaited team sends its next player (order chosen, not fixed)."""
        from weiqi.services.winner_stays_on import send_player

        database = open_database(db)
        send_player(database, Actor.local(), _event_id(database, event), team, player)
        typer.echo(f"{team} sends {player.strip()}")

    @stage_app.command("result")
    def stage_result(
        result_code: Annotated[str, typer.Argument(metavar="RESULT", help="B+R, W+1.5, 0 …")],
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
        game: Annotated[
            int | None,
            typer.Option("--game", help="The game's number: refused if it is no longer current."),
        ] = None,
    ) -> None:
        """Record the current game's result; the winner stays on."""
        from weiqi.services.winner_stays_on import record_stage_result

        database, event_id = _open_team_event(db, event)
        view = record_stage_result(database, Actor.local(), event_id, result_code, game)
        _show_stage(database, event_id, view, as_json)

    @team_app.command("members-total")
    def members_total_command(
        tournament: Annotated[
            int, typer.Option("--tournament", help="The individual event the members play.")
        ],
        counted: Annotated[
            int | None, typer.Option("--counted", help="Only the best N members count.")
        ] = None,
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """队员总分制: teams ranked by their members' points in an individual tournament."""
        from weiqi.services.teams import members_total_standings

        database = open_database(db)
        rows = members_total_standings(database, _event_id(database, event), tournament, counted)
        out = [{"place": p, "team": t, "total": v} for p, t, v in rows]
        if as_json:
            echo_json(out)
            return
        table = Table(title="队员总分制 members' total")
        for col in ("名次 place", "队 team", "总分 total"):
            table.add_column(col)
        for o in out:
            table.add_row(str(o["place"]), str(o["team"]), str(o["total"]))
        Console().print(table)
