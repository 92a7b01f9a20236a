"""``weiqi league …`` and ``weiqi draft …``: club league seasons and the transfer draft.

Usage::

    weiqi league create --db league.sqlite3 --name 2026 \\
        --division 甲=jia.csv --division 乙=yi.csv \\
        --start 2026-03-07 --max-foreign 1 --home-nationality CN
    weiqi league calendar --db league.sqlite3 --division 甲 --json
    weiqi league lineup --db league.sqlite3 --division 甲 --round 1 --club Jiangsu P1,P2,P3,P4
    weiqi league reveal --db league.sqlite3 --division 甲 --round 1
    weiqi league result --db league.sqlite3 --division 甲 --round 1 --club Jiangsu --board 1 B+R
    weiqi league table --db league.sqlite3 --division 甲 --json
    weiqi league close-season --db league.sqlite3 --json
    weiqi draft start --db league.sqlite3
    weiqi draft protect --db league.sqlite3 --club Jiangsu P1,P2,P3,P4
    weiqi draft pick --db league.sqlite3 --club Tianjin P5
    weiqi draft pass --db league.sqlite3 --club Beijing
    weiqi draft show --db league.sqlite3 --json

Each division is a team event (``weiqi team … --event ID`` works on it too). Commands act on the
newest season and draft unless ``--season`` / ``--draft`` name another; ``--division`` defaults
to the top division.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from weiqi.cli.event import DbOption, JsonOption, echo_json, open_database
from weiqi.cli.inputs import (
    PLAYER_IDS_HELP,
    choice,
    db_int,
    in_db_range,
    komi_stones,
    lag_settings,
    player_ids,
    read_text,
)
from weiqi.cli.team import (
    HomeNationalityOption,
    RoundOption,
    record_team_board,
    reveal_team_round,
    seal_lineup,
    show_team_standings,
)
from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.services.actor import Actor
from weiqi.store.database import Database

SeasonOption = Annotated[
    int | None, typer.Option("--season", help="Season id; default the newest season.")
]
DivisionOption = Annotated[
    str | None, typer.Option("--division", help="Division (甲, 乙 …); default the top one.")
]
DraftOption = Annotated[int | None, typer.Option("--draft", help="Draft id; default the newest.")]
ClubOption = Annotated[str, typer.Option("--club", help="The club's id (its name in the CSV).")]


def _season_id(database: Database, season: int | None) -> int:
    from weiqi.services.league import latest_season

    return in_db_range("--season", season) if season is not None else latest_season(database)


def _division(database: Database, season: int | None, division: str | None) -> int:
    from weiqi.services.league import division_event

    return division_event(database, _season_id(database, season), division)


def _draft_id(database: Database, draft: int | None) -> int:
    from weiqi.services.league import latest_draft

    return draft if draft is not None else latest_draft(database)


def _draft_json(view: object) -> dict[str, object]:
    from weiqi.services.league import DraftView

    assert isinstance(view, DraftView)
    return {
        "draft": view.id,
        "season": view.season_id,
        "order": list(view.order),
        "base": view.base,
        "protected": view.protected,
        "waiting_to_protect": list(view.waiting_to_protect),
        "pool": [{"player": p, "listed_by": c} for p, c in view.pool],
        "round": view.round,
        "on_the_clock": view.on_the_clock,
        "finished": view.finished,
        "log": [
            {
                "seq": e.seq,
                "round": e.round,
                "turn": e.turn,
                "club": e.club,
                "action": e.action.value,
                "player": e.player,
                "from_club": e.from_club,
                "text": e.text(),
            }
            for e in view.log
        ],
        "rosters": view.rosters,
        "released": list(view.released),
    }


def _echo_draft(view: object, as_json: bool) -> None:
    """A draft as a command answers with it: JSON, or its log and whose turn it is."""
    from weiqi.services.league import DraftView

    assert isinstance(view, DraftView)
    if as_json:
        echo_json(_draft_json(view))
        return
    console = Console()
    console.print(f"摘牌 draft {view.id} · 顺序 order: {' → '.join(view.order)}")
    if view.waiting_to_protect:
        console.print("待保护 to protect their base: " + ", ".join(view.waiting_to_protect))
        return
    for e in view.log:
        console.print(e.text())
    if view.finished:
        console.print("摘牌结束 the draft is over")
    else:
        console.print(f"round {view.round}: {view.on_the_clock} is on the clock")
        console.print("挂牌 pool: " + ", ".join(f"{p} ({c})" for p, c in view.pool))


def register(app: typer.Typer) -> None:
    from weiqi.league.draft import Unpicked
    from weiqi.league.lineup import MissingLineup

    league_app = typer.Typer(help="League seasons (联赛): divisions, calendar, table.",
                             no_args_is_help=True)  # fmt: skip
    draft_app = typer.Typer(help="The transfer draft (摘牌) after a season.", no_args_is_help=True)
    app.add_typer(league_app, name="league")
    app.add_typer(draft_app, name="draft")

    @league_app.command("create")
    def create(
        name: Annotated[str, typer.Option("--name", help="The season's name, e.g. 2026.")],
        division: Annotated[
            list[str], typer.Option("--division", help="LABEL=clubs.csv, top division first.")
        ],
        start: Annotated[str, typer.Option("--start", help="Date of round 1 (YYYY-MM-DD).")],
        days: Annotated[int, typer.Option("--days", help="Days between rounds.")] = 7,
        boards: Annotated[int, typer.Option("--boards")] = 4,
        min_roster: Annotated[int, typer.Option("--min-roster")] = 4,
        max_roster: Annotated[int, typer.Option("--max-roster")] = 6,
        max_foreign: Annotated[int | None, typer.Option("--max-foreign")] = 1,
        missing: Annotated[
            str, typer.Option("--missing", help="No lineup: previous or forfeit.")
        ] = "previous",
        board_one_decides: Annotated[bool, typer.Option("--board-one-decides")] = False,
        promoted: Annotated[int, typer.Option("--promoted")] = 2,
        relegated: Annotated[int, typer.Option("--relegated")] = 2,
        home_nationality: HomeNationalityOption = None,
        board_size: Annotated[int, typer.Option("--size", help="Board size (default 19).")] = 19,
        komi: Annotated[str, typer.Option("--komi", help="Komi in stones, e.g. 15/4.")] = "15/4",
        cycle_policy: Annotated[
            str,
            typer.Option(
                "--cycle-policy",
                help="Repeated positions (全局同形): ban, no_result, draw, replay.",
            ),
        ] = "ban",
        play: Annotated[
            str,
            typer.Option(
                "--play",
                help="Where the divisions' boards are played: board (over the board, the "
                "default) or online (in the game room once a round's lineups are revealed).",
            ),
        ] = "board",
        game_start: Annotated[
            str,
            typer.Option(
                "--game-start",
                help="Online: present (when both players are in the room, the default) or "
                "round_start (at the round's start time, present or not).",
            ),
        ] = "present",
        lag: Annotated[
            str | None,
            typer.Option(
                "--lag",
                help="Online: the network-lag allowance, GAIN/CAP seconds (default 1/3) or off.",
            ),
        ] = None,
        time_control: Annotated[
            str | None,
            typer.Option(
                "--time",
                help="The time control of the divisions' boards, e.g. '1h incl 5x60s'.",
            ),
        ] = None,
        db: DbOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Create a season: each division's clubs and rosters from CSV, a dated calendar."""
        from weiqi.league.season import SeasonSettings
        from weiqi.rules.ruleset import CyclePolicy
        from weiqi.services.league import create_season
        from weiqi.tournament.settings import (
            LAG_CAP,
            LAG_GAIN,
            GameStart,
            PlayMode,
            time_control_value,
        )

        try:
            first = datetime.date.fromisoformat(start)
        except ValueError:
            raise InputError(
                "--start", Msg("%(start)s is not a date like 2026-03-07", start=repr(start))
            ) from None
        divisions = []
        for spec in division:
            label, sep, path = spec.partition("=")
            if not sep or not label.strip() or not path.strip():
                raise InputError(
                    "--division", Msg("%(spec)s: expected LABEL=clubs.csv", spec=repr(spec))
                )
            divisions.append((label.strip(), read_text(Path(path.strip()))))
        lags = lag_settings(lag)
        settings = SeasonSettings(
            boards=boards,
            min_roster=min_roster,
            max_roster=max_roster,
            max_foreign=max_foreign,
            missing=choice(MissingLineup, missing, "--missing"),
            board_one_decides=board_one_decides,
            promoted=promoted,
            relegated=relegated,
            board_size=board_size,
            komi=komi_stones(komi),
            cycle=choice(CyclePolicy, cycle_policy, "--cycle-policy"),
            play=choice(PlayMode, play, "--play"),
            game_start=choice(GameStart, game_start, "--game-start"),
            lag_gain=lags.get("lag_gain", LAG_GAIN),
            lag_cap=lags.get("lag_cap", LAG_CAP),
            time_control=time_control_value(time_control or ""),
        )
        info = create_season(
            open_database(db), Actor.local(), name, divisions, settings, first, days,
            home_nationality,
        )  # fmt: skip
        if as_json:
            echo_json(_season_json(info))
            return
        for d in info.divisions:
            typer.echo(
                f"season {info.id} {info.name} {d.division}: {d.clubs} clubs, {d.rounds} rounds "
                f"(team event {d.event_id})"
            )

    def _season_json(info: object) -> dict[str, object]:
        from weiqi.services.league import SeasonInfo
        from weiqi.tournament.settings import settings_to_dict

        assert isinstance(info, SeasonInfo)
        return {
            "id": info.id,
            "name": info.name,
            "closed": info.closed,
            "settings": settings_to_dict(info.settings),
            "divisions": [
                {"division": d.division, "event": d.event_id, "clubs": d.clubs, "rounds": d.rounds}
                for d in info.divisions
            ],
        }

    @league_app.command("show")
    def show(db: DbOption = None, season: SeasonOption = None, as_json: JsonOption = False) -> None:
        """A season's settings and divisions (with the team event id of each)."""
        from weiqi.services.league import season_info

        database = open_database(db)
        info = season_info(database, _season_id(database, season))
        if as_json:
            echo_json(_season_json(info))
            return
        table = Table(title=f"{info.name} · 联赛 season {info.id}")
        for col in ("级别 division", "队数 clubs", "轮数 rounds", "event"):
            table.add_column(col)
        for d in info.divisions:
            table.add_row(d.division, str(d.clubs), str(d.rounds), str(d.event_id))
        Console().print(table)

    @league_app.command("calendar")
    def calendar(
        db: DbOption = None,
        season: SeasonOption = None,
        division: DivisionOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """The dated double round robin of a division."""
        from weiqi.services.league import season_calendar

        database = open_database(db)
        rounds = season_calendar(database, _season_id(database, season), division)
        if as_json:
            out = [
                {
                    "round": r.number,
                    "date": r.date,
                    "fixtures": [{"home": m.home, "away": m.away} for m in r.matches],
                    **({"bye": r.bye} if r.bye else {}),
                }
                for r in rounds
            ]
            echo_json(out)
            return
        table = Table(title="赛程 calendar")
        for col in ("轮 round", "日期 date", "对阵 fixtures (home – away)"):
            table.add_column(col)
        for r in rounds:
            fixtures = "; ".join(f"{m.home} – {m.away}" for m in r.matches)
            table.add_row(str(r.number), r.date or "", fixtures)
        Console().print(table)

    @league_app.command("lineup")
    def lineup(
        ctx: typer.Context,
        players: Annotated[str, typer.Argument(help=f"By board. {PLAYER_IDS_HELP}")],
        round_number: RoundOption,
        club: ClubOption,
        db: DbOption = None,
        season: SeasonOption = None,
        division: DivisionOption = None,
    ) -> None:
        """Seal a club's lineup for a round (foreign limit and roster checked)."""
        database = open_database(db)
        seal_lineup(ctx, database, _division(database, season, division), round_number, club,
                    players)  # fmt: skip

    @league_app.command("reveal")
    def reveal(
        ctx: typer.Context,
        round_number: RoundOption,
        db: DbOption = None,
        season: SeasonOption = None,
        division: DivisionOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Publish a round's lineups and seat the boards."""
        database = open_database(db)
        event_id = _division(database, season, division)
        reveal_team_round(ctx, database, event_id, round_number, as_json)

    @league_app.command("result")
    def result(
        result_code: Annotated[str, typer.Argument(metavar="RESULT", help="B+R, W+1.5, 0 …")],
        round_number: RoundOption,
        club: ClubOption,
        board: Annotated[int, typer.Option("--board", parser=db_int("--board"))],
        db: DbOption = None,
        season: SeasonOption = None,
        division: DivisionOption = None,
    ) -> None:
        """Record one board's result of a club's match."""
        database = open_database(db)
        event_id = _division(database, season, division)
        record_team_board(database, event_id, round_number, board, club, 1, result_code)

    @league_app.command("results")
    def results(
        path: Annotated[str, typer.Argument(help="CSV with columns club,board,result")],
        round_number: RoundOption,
        db: DbOption = None,
        season: SeasonOption = None,
        division: DivisionOption = None,
    ) -> None:
        """Record a round's board results from CSV — every row, or none if any is bad."""
        from weiqi.services.teams import record_results_csv

        database = open_database(db)
        count = record_results_csv(
            database, Actor.local(), _division(database, season, division), round_number,
            read_text(Path(path)), path,
        )  # fmt: skip
        typer.echo(f"round {round_number}: {count} results recorded")

    @league_app.command("table")
    def table_command(
        db: DbOption = None,
        season: SeasonOption = None,
        division: DivisionOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """The league table of a division: match points, game points, board 1, …"""
        database = open_database(db)
        event_id = _division(database, season, division)
        show_team_standings(database, event_id, as_json, "积分榜 table")

    @league_app.command("close-season")
    def close(
        db: DbOption = None, season: SeasonOption = None, as_json: JsonOption = False
    ) -> None:
        """End the season: final orders, promotion and relegation (every match finished)."""
        from weiqi.services.league import close_season

        database = open_database(db)
        end = close_season(database, Actor.local(), _season_id(database, season))
        if as_json:
            out = {"final": end.final, "next": end.next_divisions}
            echo_json(out)
            return
        for label, order in end.final.items():
            typer.echo(f"{label} final: {', '.join(order)}")
        for label, clubs in end.next_divisions.items():
            typer.echo(f"{label} next season: {', '.join(clubs)}")

    @draft_app.command("start")
    def start_draft_command(
        db: DbOption = None,
        season: SeasonOption = None,
        base: Annotated[int, typer.Option("--base", help="Players each club protects.")] = 4,
        max_roster: Annotated[int | None, typer.Option("--max-roster")] = None,
        release: Annotated[
            bool, typer.Option("--release", help="Unpicked listed players leave their clubs.")
        ] = False,
        as_json: JsonOption = False,
    ) -> None:
        """Open the draft after a closed season (reverse order of the combined standing)."""
        from weiqi.services.league import start_draft

        database = open_database(db)
        view = start_draft(
            database, Actor.local(), _season_id(database, season), base, max_roster,
            Unpicked.RELEASE if release else Unpicked.RETURN,
        )  # fmt: skip
        _echo_draft(view, as_json)

    @draft_app.command("protect")
    def protect_command(
        players: Annotated[str, typer.Argument(help=f"The protected base. {PLAYER_IDS_HELP}")],
        club: ClubOption,
        db: DbOption = None,
        draft: DraftOption = None,
    ) -> None:
        """A club protects its base; the rest of its roster is listed (挂牌)."""
        from weiqi.services.league import protect

        database = open_database(db)
        listed = player_ids(players)
        protect(database, Actor.local(), _draft_id(database, draft), club, listed)
        typer.echo(f"{club} protects {', '.join(listed)}")

    @draft_app.command("pick")
    def pick_command(
        player: Annotated[str, typer.Argument(help="A listed player's id.")],
        club: ClubOption,
        db: DbOption = None,
        draft: DraftOption = None,
    ) -> None:
        """The club on the clock picks a listed player."""
        from weiqi.services.league import pick

        database = open_database(db)
        view = pick(database, Actor.local(), _draft_id(database, draft), club, player)
        typer.echo(view.log[-1].text())

    @draft_app.command("pass")
    def pass_command(club: ClubOption, db: DbOption = None, draft: DraftOption = None) -> None:
        """The club on the clock passes."""
        from weiqi.services.league import pass_turn

        database = open_database(db)
        view = pass_turn(database, Actor.local(), _draft_id(database, draft), club)
        typer.echo(view.log[-1].text())

    @draft_app.command("show")
    def show_draft_command(
        db: DbOption = None, draft: DraftOption = None, as_json: JsonOption = False
    ) -> None:
        """The draft rebuilt from its log (every line checked), the pool and whose turn it is."""
        from weiqi.services.league import show_draft

        database = open_database(db)
        view = show_draft(database, _draft_id(database, draft))
        _echo_draft(view, as_json)
