"""``weiqi event|player|round|standings``: run an event, individual or team, from the command line.

One tree for both kinds: ``event create --kind team`` makes a team event, and ``event show``,
``round …`` and ``standings`` act on either kind (``weiqi team …`` holds what only teams have:
rosters, coaches, lineups, board records, 擂台赛). An option of the other kind is refused by
name rather than ignored.

Usage::

    weiqi event create --db club.sqlite3 --name "Club Swiss" --system swiss --rounds 5
    weiqi player import --db club.sqlite3 players.csv
    weiqi player rating-list allworld_lp.html --format egd --by both --dry-run --db club.sqlite3
    weiqi round pair --db club.sqlite3 --json
    weiqi round result --db club.sqlite3 --round 1 --board 1 B+R
    weiqi standings --db club.sqlite3 --json

    weiqi event create --db t.sqlite3 --kind team --name "City teams" --system round_robin
    weiqi round result --db t.sqlite3 --round 1 --team Tianjin --board 1 B+R

``round pair --json`` and ``round show --json`` print the round as issue #5 writes it,
``{"round": 1, "pairings": [{"board": 1, "black": "…", "white": "…", …}], "bye": "…"}``, with
``bye`` null when nobody has one. A knockout's first round can give byes to several top seeds:
then ``bye`` is the first of them (so its type never changes) and ``byes`` lists all of them;
``byes`` is always present (``[]`` when none). Each pairing also carries ``result``,
``handicap``, ``komi`` and a knockout's bracket ``label``; the round its lot ``seed``.

``--db`` takes a file (an SQLite database, created and migrated on first use) or a database URL;
without it ``$WEIQI_DATABASE_URL`` or ``./weiqi.sqlite3``. Commands act on the newest event in
the database unless ``--event ID`` names another (a league division is a team event too:
``weiqi league show`` lists their ids).
"""

from __future__ import annotations

import dataclasses
import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from weiqi.cli.inputs import (
    choice,
    db_int,
    in_db_range,
    komi_stones,
    lag_settings,
    parse_time,
    read_text,
)
from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg
from weiqi.services.actor import Actor
from weiqi.tournament.settings import (
    INDIVIDUAL_SYSTEMS,
    TEAM_SYSTEMS,
    EventSettings,
    settings_to_dict,
)
from weiqi.tournament.standings import format_value

if TYPE_CHECKING:  # the database, rich: imported by the commands that use them (issue #15)
    from weiqi.services.event_rows import StandingsSheet
    from weiqi.services.pair_explanation import BoardWhy, Words
    from weiqi.services.read_models import StandingsRead
    from weiqi.store.database import Database
    from weiqi.tournament.records import RoundTotals

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="SQLite file or database URL; default $WEIQI_DATABASE_URL."),
]
EventOption = Annotated[
    int | None, typer.Option("--event", help="Event id; default the newest event.")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
# A player named on the command line: the one spelling every player command takes.
PlayerNameArg = Annotated[
    str, typer.Argument(help="The player's name; 张伟 (北京) for one of two namesakes.")
]


def echo_created(database: Database, event_id: int) -> None:
    """Print the event just created as the API's ``POST /api/events`` answers it
    (``read_models.EventSettingsRead``: its settings, details, entrants, what is locked)."""
    from weiqi.services import event_settings
    from weiqi.services.read_models import as_json

    echo_json(as_json(event_settings.read(database, event_id)))


def echo_json(data: object) -> None:
    """Print ``data`` as one line of JSON, what :data:`JsonOption` asks for: Chinese and every
    other character as itself, not as ``\\u`` escapes.

    >>> echo_json({"name": "春季赛", "rounds": 5})
    {"name": "春季赛", "rounds": 5}
    """
    typer.echo(json.dumps(data, ensure_ascii=False))


def open_database(db: str | None) -> Database:
    """A migrated database from ``--db`` (a file path or a URL)."""
    from weiqi.store.database import Database

    database = Database(db_url(db))
    database.upgrade()
    return database


def db_url(db: str | None) -> str:
    """The database URL ``--db`` names (a file path or a URL), else the default one.

    >>> db_url("events/club.sqlite3")
    'sqlite:///events/club.sqlite3'
    """
    from weiqi.store.plain import database_url

    return database_url(db)


@contextmanager
def bulk_values() -> Iterator[None]:
    """No cyclic garbage collection while a command builds a big event's values: 10,000
    players × 9 rounds are 45,000 games and 90,000 encounters, which each collection of the
    oldest generation walks again (0.3 s of the standings' 0.8 s, issue #15). The command is
    one short process; what it leaves is freed when it ends or at the next collection.

    >>> with bulk_values():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            # what was built stays out of later collections too: enabled again, the collector
            # would walk all of it at the next allocations (0.1–0.2 s for 10,000 players)
            gc.freeze()
            gc.enable()


def _seed(value: int) -> int:
    """``--seed``: every round records ``seed × 1000 + round`` (``round_seed``), which must fit
    the database's 64-bit integers, so a larger seed would crash the first pairing.

    >>> _seed(20261129)
    20261129
    >>> _seed(10**15)
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: --seed: 1000000000000000 is out of range (below 10^15 in size)
    """
    if abs(value) >= 10**15:
        raise InputError(
            "--seed", Msg("%(value)s is out of range (below 10^15 in size)", value=value)
        )
    return value


def event_id_option(database: Database, event: int | None) -> int:
    """The event ``--event`` names, or the newest one."""
    from weiqi.services.events import latest_event

    return in_db_range("--event", event) if event is not None else latest_event(database)


_event_id = event_id_option


def open_event(db: str | None, event: int | None) -> tuple[Database, int]:
    """The database ``--db`` names and the event ``--event`` names in it (the newest by
    default: :func:`event_id_option`), as most event commands begin."""
    database = open_database(db)
    return database, event_id_option(database, event)


def is_team(database: Database, event_id: int) -> bool:
    """Whether the event is a team event (its commands go to the team services)."""
    from weiqi.services.events import EventKind, event_kind

    return event_kind(database, event_id) is EventKind.TEAM


def setting_value(key: str, text: str, current: object) -> object:
    """A setting's value as typed after ``KEY=``: a JSON value where it is one (7, true,
    null, "x", [...]), the comma-separated words where the setting is a list (the
    tie-breaks, also while they are the system's default), else the text itself.

    >>> setting_value("rounds", "7", 5), setting_value("komi", "7/2", "15/4")
    (7, '7/2')
    >>> setting_value("tiebreaks", "SOS,SB", None), setting_value("tiebreaks", "SOS", None)
    (['SOS', 'SB'], ['SOS'])
    """
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    if isinstance(value, str) and (isinstance(current, list) or key == "tiebreaks"):
        return [w.strip() for w in value.split(",") if w.strip()]
    return value


def _named_player(db: str | None, event: int | None, name: str) -> tuple[Database, int, int]:
    """The database, the event and the id of its player called ``name`` (the player commands
    name players as they are entered)."""
    from weiqi.services import event_admin

    database, event_id = open_event(db, event)
    return database, event_id, event_admin.player_named(database, event_id, name)


def team_event_id(database: Database, event: int | None, command: str) -> int:
    """The event of a command only team events have (``round reveal``), refused by name for an
    individual event."""
    event_id = event_id_option(database, event)
    if not is_team(database, event_id):
        raise InputError(
            f"round {command}",
            Msg("event %(event_id)s is an individual event; this is for team events",
                event_id=event_id),
        )  # fmt: skip
    return event_id


def refuse_other_kind(ctx: typer.Context, names: tuple[str, ...], team: bool) -> None:
    """Refuse, by its option name, an option given on the command line that the event's kind
    does not have (``names`` are parameter names), rather than silently ignoring it."""
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name in names else None
        # given on the command line (or from the environment), not the option's default
        if source is not None and source.name != "DEFAULT":
            reason = (
                Msg("applies to individual events only")
                if team
                else Msg("applies to team events only")
            )
            raise InputError(param.opts[0], reason)


#: ``event create`` options that only a team event has, and those only an individual event has.
TEAM_CREATE = ("team_type", "boards", "board_colors", "max_foreign", "substitutes", "missing",
               "board_one_decides", "deadline_minutes", "ranking", "player_order")  # fmt: skip
INDIVIDUAL_CREATE = ("tiebreaks", "swiss_method", "bye_points", "no_result_points",
                     "replay_points", "first_round", "pairing_method", "color_policy",
                     "avoid_same_club", "avoid_same_region", "elimination_losses", "best_of",
                     "mcmahon_bar", "mcmahon_floor", "shared_places", "tie_resolution",
                     "top_score", "late_entry_points", "grand_final_reset",
                     "handicap_placement", "preset", "online_colors",
                     "absent_points")  # fmt: skip


#: ``event create`` options by the setting they give (where the two names differ).
_OPTION_OF = {"cycle": "cycle_policy", "system": "system"}


def _with_preset(ctx: typer.Context, preset: str, raw: dict[str, object]) -> dict[str, object]:
    """The settings of ``--preset``, with every option given on the command line over them."""
    from weiqi.tournament.ranks import Rank
    from weiqi.tournament.settings import egf_mcmahon

    if preset != "egf-mcmahon":
        raise InputError("--preset", Msg("%(preset)s: known is egf-mcmahon", preset=repr(preset)))
    if raw.get("rounds") is None:
        raise InputError("--rounds", Msg("a McMahon event needs a number of rounds"))
    bar = raw.get("mcmahon_bar")
    floor = raw.get("mcmahon_floor")
    base = settings_to_dict(
        egf_mcmahon(
            int(str(raw["rounds"])),
            Rank.parse(str(bar)) if bar else Rank.parse("9d"),
            Rank.parse(str(floor)) if floor else None,
        )
    )
    for key, value in raw.items():
        source = ctx.get_parameter_source(_OPTION_OF.get(key, key))
        if key in ("system", "rounds") or (source is not None and source.name != "DEFAULT"):
            base[key] = value
    base["system"] = "mcmahon" if raw["system"] in ("mcmahon", None) else raw["system"]
    return base


def _tiebreaks(text: str | None) -> tuple[str, ...] | None:
    """``--tiebreaks``: the codes in order; given but naming no code (``""``, ``","``) is an
    error rather than silently the defaults or no tie-breaks at all.

    >>> _tiebreaks("sos,SB, CUSS"), _tiebreaks(None)
    (('SOS', 'SB', 'CUSS'), None)
    """
    if text is None:
        return None
    codes = EventSettings.parse_tiebreaks(text)
    if not codes:
        raise InvalidSetting(
            "tiebreaks", Msg("%(text)s names no code; e.g. SOS,SB,CUSS", text=repr(text))
        )
    return codes


#: The summary's fields ``event show`` does not list as rows (the settings follow one a row).
_NOT_A_ROW = ("id", "name", "settings", "system", "system_zh", "system_en")


def register(app: typer.Typer) -> None:
    event_app = typer.Typer(help="Events (赛会), individual or team.", no_args_is_help=True)
    player_app = typer.Typer(help="Players of an individual event.", no_args_is_help=True)
    round_app = typer.Typer(help="Rounds (轮次): pairing (编排) and results.", no_args_is_help=True)
    app.add_typer(event_app, name="event")
    app.add_typer(player_app, name="player")
    app.add_typer(round_app, name="round")

    @event_app.command("create")
    def create(
        ctx: typer.Context,
        name: Annotated[str, typer.Option("--name", help="The event's name.")],
        system: Annotated[
            str,
            typer.Option(
                "--system",
                help=", ".join(s.value for s in INDIVIDUAL_SYSTEMS)
                + "; a team event: "
                + ", ".join(s.value for s in TEAM_SYSTEMS)
                + ".",
            ),
        ],
        kind: Annotated[
            str, typer.Option("--kind", help="individual (个人赛) or team (团体赛).")
        ] = "individual",
        db: DbOption = None,
        rounds: Annotated[int | None, typer.Option("--rounds")] = None,
        tiebreaks: Annotated[
            str | None, typer.Option("--tiebreaks", help="Codes in order, e.g. SOS,SB,CUSS.")
        ] = None,
        cycles: Annotated[int, typer.Option("--cycles", help="Round-robin cycles.")] = 1,
        swiss_method: Annotated[str, typer.Option("--swiss-method", help="A or B.")] = "B",
        bye_points: Annotated[int, typer.Option("--bye-points")] = 2,
        no_result_points: Annotated[
            int, typer.Option("--no-result-points", help="Points each for Void (无胜负).")
        ] = 0,
        replay_points: Annotated[
            int | None,
            typer.Option(
                "--replay-points",
                help="Points each for Replay (重赛); unset, the board waits for the replay.",
            ),
        ] = None,
        first_round: Annotated[str, typer.Option("--first-round", help="halves, fold or lot.")] = (
            "halves"
        ),
        pairing_method: Annotated[str, typer.Option("--pairing", help="fold or slip.")] = "fold",
        color_policy: Annotated[
            str, typer.Option("--colors", "--colours", help="even (komi) or handicap.")
        ] = "even",
        komi: Annotated[str, typer.Option("--komi", help="Komi in stones, e.g. 15/4.")] = "15/4",
        avoid_same_club: Annotated[bool, typer.Option("--avoid-same-club")] = False,
        avoid_same_region: Annotated[bool, typer.Option("--avoid-same-region")] = False,
        elimination_losses: Annotated[int | None, typer.Option("--losses")] = None,
        best_of: Annotated[int, typer.Option("--best-of")] = 3,
        mcmahon_bar: Annotated[str | None, typer.Option("--mcmahon-bar")] = None,
        mcmahon_floor: Annotated[str | None, typer.Option("--mcmahon-floor")] = None,
        shared_places: Annotated[bool, typer.Option("--shared-places/--no-shared-places")] = True,
        tie_resolution: Annotated[str, typer.Option("--ties", help="lot or playoff.")] = "lot",
        top_score: Annotated[str, typer.Option("--top-score", help="full or achieved.")] = "full",
        late_entry_points: Annotated[int, typer.Option("--late-entry-points")] = 0,
        absent_points: Annotated[
            int, typer.Option("--absent-points", help="Points for a round a player sits out.")
        ] = 0,
        preset: Annotated[
            str | None,
            typer.Option(
                "--preset",
                help="egf-mcmahon: McMahon as European events play it (the options given "
                "here still win).",
            ),
        ] = None,
        grand_final_reset: Annotated[bool, typer.Option("--reset/--no-reset")] = True,
        seed: Annotated[int, typer.Option("--seed", help="Seed of every lot.")] = 0,
        board_size: Annotated[
            int | None, typer.Option("--board-size", "--size", help="Board size (default 19).")
        ] = None,
        time_control: Annotated[
            str | None,
            typer.Option(
                "--time",
                help="The time control its games are played with, e.g. '5m incl 3x20s' "
                "(Chinese byo-yomi: the reserve inside the main time), '1h+3x30s', '10m'.",
            ),
        ] = None,
        cycle_policy: Annotated[
            str | None,
            typer.Option(
                "--cycle-policy",
                help="Repeated positions (全局同形): ban, no_result, draw, replay.",
            ),
        ] = None,
        handicap_placement: Annotated[
            str | None, typer.Option("--handicap-placement", help="fixed or free.")
        ] = None,
        play: Annotated[
            str | None,
            typer.Option(
                "--play",
                help="Where the games are played: board (over the board, the default) or "
                "online (each published round's games, a team round's boards once its lineups "
                "are revealed, in the game room).",
            ),
        ] = None,
        game_start: Annotated[
            str | None,
            typer.Option(
                "--game-start",
                help="Online: present (when both players are in the room, the default) or "
                "round_start (at the round's start time, present or not).",
            ),
        ] = None,
        lag: Annotated[
            str | None,
            typer.Option(
                "--lag",
                help="Online: the network-lag allowance, GAIN/CAP seconds (each move adds GAIN "
                "to a player's quota of forgiven lag, which holds at most CAP; default 1/3) or "
                "off.",
            ),
        ] = None,
        online_colors: Annotated[
            str | None,
            typer.Option(
                "--online-colors",
                "--online-colours",
                help="Online even games: paired (the default) or nigiri (猜先, drawn by the "
                "server when the game opens).",
            ),
        ] = None,
        team_type: Annotated[
            str,
            typer.Option(
                "--type",
                help="Team: per_round, fixed_boards, fixed_order, rotation or members_total.",
            ),
        ] = "per_round",
        boards: Annotated[int, typer.Option("--boards", help="Team: boards per match.")] = 4,
        board_colors: Annotated[
            str,
            typer.Option("--board-colors", "--board-colours", help="Team: alternate or nigiri."),
        ] = "alternate",
        max_foreign: Annotated[
            int | None, typer.Option("--max-foreign", help="Team: 外援 per match.")
        ] = None,
        substitutes: Annotated[
            bool | None,
            typer.Option("--substitutes/--no-substitutes", help="Team; default: the team type's."),
        ] = None,
        missing: Annotated[
            str,
            typer.Option("--missing", help="Team: no lineup by the deadline: forfeit or previous."),
        ] = "forfeit",
        board_one_decides: Annotated[bool, typer.Option("--board-one-decides")] = False,
        deadline_minutes: Annotated[
            int,
            typer.Option(
                "--deadline-minutes", help="Team: lineups close this long before a start."
            ),
        ] = 30,
        ranking: Annotated[
            str | None,
            typer.Option("--ranking", help="Team: round_robin, swiss_total_score or swiss_points."),
        ] = None,
        player_order: Annotated[
            str, typer.Option("--order", help="擂台赛: fixed (the lineup) or chosen (sent).")
        ] = "fixed",
        as_json: JsonOption = False,
    ) -> None:
        """Create an event with its settings: an individual one (they carry its games' rules:
        board size, komi, cycle policy, handicap placement), or with --kind team a team one."""
        from weiqi.services.events import EventKind, create_event
        from weiqi.tournament.ranks import Rank
        from weiqi.tournament.settings import check_applies, settings_from_dict

        team = choice(EventKind, kind, "--kind") is EventKind.TEAM
        refuse_other_kind(ctx, INDIVIDUAL_CREATE if team else TEAM_CREATE, team)
        komi_value = komi_stones(komi)
        if team:
            from weiqi.cli.team import create_team

            create_team(
                db, name, system, team_type, boards, board_colors, max_foreign, substitutes,
                missing, board_one_decides, deadline_minutes, rounds, cycles, ranking, seed,
                player_order, as_json, board_size, time_control, play, game_start,
                lag_settings(lag), komi_value, cycle_policy,
            )  # fmt: skip
            return

        raw: dict[str, object] = {
            "system": system,  # round_robin (round-robin, the earlier spelling, read alike)
            "rounds": rounds,
            "cycles": cycles,
            "tiebreaks": _tiebreaks(tiebreaks),
            "swiss_method": swiss_method.upper(),
            "bye_points": bye_points,
            "no_result_points": no_result_points,
            "replay_points": replay_points,
            "first_round": first_round,
            "pairing_method": pairing_method,
            "color_policy": color_policy,
            "komi": str(komi_value),
            "avoid_same_club": avoid_same_club,
            "avoid_same_region": avoid_same_region,
            "elimination_losses": elimination_losses,
            "best_of": best_of,
            "mcmahon_bar": Rank.parse(mcmahon_bar).code if mcmahon_bar else None,
            "mcmahon_floor": Rank.parse(mcmahon_floor).code if mcmahon_floor else None,
            "shared_places": shared_places,
            "tie_resolution": tie_resolution,
            "top_score": top_score,
            "late_entry_points": late_entry_points,
            "grand_final_reset": grand_final_reset,
            "seed": _seed(seed),
        }
        raw["absent_points"] = absent_points
        # unset, the settings' own defaults (the written rules) hold
        for key, value in (
            ("board_size", board_size),
            ("cycle", cycle_policy),
            ("handicap_placement", handicap_placement),
            ("play", play),
            ("game_start", game_start),
            ("online_colors", online_colors),
            ("time_control", time_control),
        ):
            if value is not None:
                raw[key] = value
        raw.update(lag_settings(lag))
        if preset is not None:
            raw = _with_preset(ctx, preset, raw)
        settings = settings_from_dict(raw)
        check_applies(settings, raw)
        database = open_database(db)
        info = create_event(database, Actor.local(), name, settings)
        if as_json:
            echo_created(database, info.id)
            return
        codes = ",".join(settings.tiebreak_codes) or "none (ranked by how far players came)"
        typer.echo(
            f"event {info.id}: {info.name} — {settings.system.zh} ({settings.system.value}), "
            f"tie-breaks {codes}"
        )

    @event_app.command("show")
    def show_event(
        db: DbOption = None, event: EventOption = None, as_json: JsonOption = False
    ) -> None:
        """Show an event's settings and progress, either kind (--json: the API's overview,
        ``read_models.EventRead``: id, name, kind, system, settings, tiebreaks, entrants,
        rounds …)."""
        from weiqi.services.public import event_read
        from weiqi.services.read_models import as_json as plain

        database, event_id = open_event(db, event)
        facts = plain(event_read(database, event_id, public=False))
        if as_json:
            echo_json(facts)
            return
        from rich.console import Console
        from rich.table import Table

        table = Table(show_header=False, title=str(facts["name"]))
        for key, value in facts.items():
            if key not in _NOT_A_ROW and not isinstance(value, list):
                table.add_row(key.replace("_", " "), str(value))
        table.add_row("tiebreaks", ", ".join(str(t["code"]) for t in facts["tiebreaks"]))
        settings = facts["settings"]
        assert isinstance(settings, dict)
        for key, value in settings.items():
            if key == "system":  # its Chinese name first, as the rules name it
                value = f"{facts['system_zh']} ({value})"
            table.add_row(key, str(value))
        Console().print(table)

    @event_app.command("set")
    def set_settings(
        changes: Annotated[
            list[str],
            typer.Argument(
                help="KEY=VALUE for each setting to change, as 'event show --json' names them: "
                "rounds=7, tiebreaks=SOS,SB, komi=7/2, deadline_minutes=45 …"
            ),
        ],
        name: Annotated[str | None, typer.Option("--name", help="A new name.")] = None,
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Change settings of an event of either kind, as its settings page and the API do:
        one that cannot change now (once round 1 is paired, or fixed when a team event was
        created) is refused naming it and why, and nothing is stored."""
        from weiqi.services import event_settings
        from weiqi.services.read_models import as_json as plain

        database, event_id = open_event(db, event)
        before = event_settings.read(database, event_id)
        wanted = dict(before.settings)
        for change in changes:
            key, sep, text = change.partition("=")
            if not sep or not key.strip():
                raise InvalidSetting(
                    "KEY=VALUE", Msg("%(text)s is not KEY=VALUE", text=repr(change))
                )
            key = key.strip()
            wanted[key] = setting_value(key, text, wanted.get(key))
        after = event_settings.change(database, Actor.local(), event_id, wanted, name)
        if as_json:
            echo_json(plain(after))
            return
        if after.name != before.name:
            typer.echo(f"name: {before.name} → {after.name}")
        for key, value in after.settings.items():
            if before.settings.get(key) != value:
                typer.echo(f"{key}: {before.settings.get(key)} → {value}")

    @player_app.command("import")
    def import_(
        path: Annotated[
            Path, typer.Argument(help="CSV: name,rank,rating,club,country,birth_date,licence")
        ],
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Enter the players of a CSV file — all of them, or none if any row is bad."""
        from weiqi.services.tournament import import_players

        database = open_database(db)
        count = import_players(
            database, Actor.local(), _event_id(database, event), read_text(path), str(path)
        )
        typer.echo(f"imported {count} players")

    @player_app.command("absent")
    def absent(
        player: Annotated[str, typer.Argument(help="The player's name as entered.")],
        rounds: Annotated[
            list[int], typer.Option("--round", help="A round the player sits out (repeatable).")
        ],
        back: Annotated[
            bool, typer.Option("--back", help="The player plays these rounds after all.")
        ] = False,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """A player sits out a later round without withdrawing: not paired, scored the event's
        absent-round points, back the round after."""
        from weiqi.services.tournament import set_absent

        database, event_id, pid = _named_player(db, event, player)
        now = set_absent(database, Actor.local(), event_id, pid, rounds, absent=not back)
        listed = ", ".join(str(n) for n in sorted(now)) or "none"
        typer.echo(f"{player}: absent from rounds {listed}")

    @player_app.command("rating-list")
    def rating_list(
        path: Annotated[
            Path,
            typer.Argument(
                help="The list: EGD allworld_lp.html (.txt, .zip), FFG ech_ffg_V3.txt, or .tou."
            ),
        ],
        fmt: Annotated[str, typer.Option("--format", help="egd, ffg or tou.")],
        by: Annotated[
            str, typer.Option("--by", help="pin, name, or both (the PIN first, then the name).")
        ] = "both",
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help="Show what would change; change nothing.")
        ] = False,
        as_json: JsonOption = False,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Fill rank, rating, club, country and EGF PIN / FFG licence from a rating list, by
        PIN or by name; a name the list has twice is reported, never guessed."""
        from weiqi.formats.rating_lists import FORMATS, MAX_LIST_BYTES, read_rating_list
        from weiqi.services.rating_lists import MATCH_BY, fill_from_rating_list

        if fmt not in FORMATS:
            raise InvalidSetting(
                "--format",
                Msg("%(value)s is not one of %(names)s", value=repr(fmt), names=", ".join(FORMATS)),
            )
        if by not in MATCH_BY:
            raise InvalidSetting(
                "--by",
                Msg("%(value)s is not one of %(names)s", value=repr(by), names=", ".join(MATCH_BY)),
            )
        try:
            with path.open("rb") as f:
                data = f.read(MAX_LIST_BYTES + 1)
        except OSError as err:
            raise InputError(str(path), err.strerror or "cannot be read") from None
        listed = read_rating_list(data, fmt, str(path))
        database = open_database(db)
        report = fill_from_rating_list(
            database,
            Actor.local(),
            _event_id(database, event),
            listed.players,
            by=by,
            dry_run=dry_run,
        )
        if as_json:
            echo_json(
                {
                    "list": {
                        "format": listed.source,
                        "date": listed.date,
                        "players": len(listed.players),
                        "skipped": listed.skipped,
                        "skipped_lines": list(listed.skipped_lines),
                    },
                    "dry_run": report.dry_run,
                    "matched": [
                        {
                            "player": m.player,
                            "entry": m.entry,
                            "by": m.by,
                            "changes": [dataclasses.asdict(c) for c in m.changes],
                        }
                        for m in report.matched
                    ],
                    "ambiguous": [dataclasses.asdict(a) for a in report.ambiguous],
                    "not_found": list(report.not_found),
                }
            )
            return
        dated = f" ({listed.date})" if listed.date else ""
        typer.echo(f"{path}: {len(listed.players)} players{dated}")
        if listed.skipped:
            lines = ", ".join(str(n) for n in listed.skipped_lines)
            more = ", …" if listed.skipped > len(listed.skipped_lines) else ""
            typer.echo(f"note: {listed.skipped} odd lines skipped (lines {lines}{more})")
        by_pin = sum(1 for m in report.matched if m.by == "pin")
        typer.echo(
            f"matched {len(report.matched)} (by PIN {by_pin}, by name "
            f"{len(report.matched) - by_pin}), {report.changed} changed; "
            f"ambiguous {len(report.ambiguous)}; not found {len(report.not_found)}"
        )
        for m in report.matched:
            if m.changes:
                done = ", ".join(f"{c.field} {c.before or '-'} → {c.after}" for c in m.changes)
                typer.echo(f"  {m.player}: {done}")
        for a in report.ambiguous:
            more = f" and {a.count - len(a.candidates)} more" if a.count > len(a.candidates) else ""
            typer.echo(f"ambiguous: {a.player}: {'; '.join(a.candidates)}{more}")
        if report.not_found:
            typer.echo(f"not found: {', '.join(report.not_found)}")
        if report.dry_run:
            typer.echo("dry run: nothing changed")

    @player_app.command("withdraw")
    def withdraw(
        name: PlayerNameArg,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Withdraw a player (退出) after the rounds paired so far."""
        from weiqi.services.tournament import withdraw_player

        database = open_database(db)
        after = withdraw_player(database, Actor.local(), _event_id(database, event), name)
        typer.echo(f"{name} withdrawn after round {after}")

    @player_app.command("invite")
    def invite(
        name: PlayerNameArg,
        db: DbOption = None,
        event: EventOption = None,
        team: Annotated[
            str | None,
            typer.Option("--team", help="Team events: the roster player's team (code or name)."),
        ] = None,
        as_json: JsonOption = False,
    ) -> None:
        """A one-time invitation code (邀请码) for the player to play online: redeemed on the
        site's /join page, or given to `weiqi bot --token`; in a team event for a roster player
        (of --team), who then plays the boards the lineups seat them on. It replaces an unspent
        one; only its hash is kept, so this is the one place it is shown."""
        from weiqi.services import live

        database, event_id = open_event(db, event)
        if is_team(database, event_id) or team is not None:
            try:
                player = live.player_id(database, event_id, name, team)
            except InvalidSetting as err:
                raise InputError("--team", err.reason) from None
        else:
            database, event_id, player = _named_player(db, event, name)
        made = live.create_invite(database, Actor.local(), event_id, player)
        if as_json:
            out = {"name": made.name, "token": made.code, "player_id": made.player_id}
            if made.team is not None:
                out["team"] = made.team
            echo_json(out)
            return
        typer.echo(f"{made.name}: {made.code}")

    @player_app.command("claims")
    def claims(db: DbOption = None, event: EventOption = None, as_json: JsonOption = False) -> None:
        """The entry claims (认领) of the event: users who asked to play as an entrant, pending
        first, then the decided ones; `weiqi player approve|decline CLAIM` decides one."""
        from weiqi.services import entry_claims

        database = open_database(db)
        found = entry_claims.event_claims(database, Actor.local(), event_id_option(database, event))
        if as_json:
            rows = [
                {
                    "id": c.id,
                    "player": c.name,
                    "team": c.team,
                    "username": c.username,
                    "display_name": c.display_name,
                    "note": c.note,
                    "made_at": c.made_at.isoformat(),
                    "state": c.state,
                    "reason": c.reason or (str(c.closed) if c.closed else ""),
                    "taken_by": c.taken_by,
                }
                for c in found
            ]
            echo_json(rows)
            return
        for c in found:
            team = f" ({c.team})" if c.team else ""
            why = c.reason or (str(c.closed) if c.closed else "")
            note = f" — {c.note}" if c.note else ""
            typer.echo(
                f"{c.id}: {c.username} ({c.display_name}) → {c.name}{team}: {c.state}"
                + (f": {why}" if why else "")
                + note
            )

    @player_app.command("approve")
    def approve(
        claim: Annotated[int, typer.Argument(help="The claim's number (weiqi player claims).")],
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Approve an entry claim: the user plays as the entrant online, as with a redeemed
        invitation code (an unspent code is spent); rival claims are declined."""
        from weiqi.services import entry_claims
        from weiqi.services.server_clock import SYSTEM_CLOCK

        database, event_id = open_event(db, event)
        done = entry_claims.approve_claim(database, Actor.local(), event_id, claim, SYSTEM_CLOCK)
        typer.echo(f"{done.username} now plays as {done.name}")

    @player_app.command("decline")
    def decline(
        claim: Annotated[int, typer.Argument(help="The claim's number (weiqi player claims).")],
        reason: Annotated[
            str, typer.Option("--reason", help="Why, for the claimant (at most 200 characters).")
        ] = "",
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Decline an entry claim; the claimant reads the reason on their claims page."""
        from weiqi.services import entry_claims
        from weiqi.services.server_clock import SYSTEM_CLOCK

        database, event_id = open_event(db, event)
        try:
            done = entry_claims.decline_claim(
                database, Actor.local(), event_id, claim, SYSTEM_CLOCK, reason
            )
        except InvalidSetting as err:
            raise InputError("--reason", err.reason) from None
        typer.echo(f"declined: {done.username} → {done.name}")

    @player_app.command("edit")
    def edit(
        name: PlayerNameArg,
        new_name: Annotated[str | None, typer.Option("--name", help="A new name.")] = None,
        rank: Annotated[str | None, typer.Option(help="5d, 2p, 3k, 5段 …")] = None,
        rating: Annotated[str | None, typer.Option(help="A rating ('' for none).")] = None,
        club: Annotated[str | None, typer.Option(help="The club.")] = None,
        country: Annotated[str | None, typer.Option(help="The country.")] = None,
        birth_date: Annotated[str | None, typer.Option(help="YYYY-MM-DD ('' for none).")] = None,
        licence: Annotated[
            str | None, typer.Option(help="An ID such as a federation number ('' for none).")
        ] = None,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Change a player's details (what is not given stays); results stay with the player."""
        from weiqi.services import event_admin

        database, event_id, player_id = _named_player(db, event, name)
        now = event_admin.player(database, Actor.local(), event_id, player_id)
        done = event_admin.edit_player(
            database,
            Actor.local(),
            event_id,
            player_id,
            now.name if new_name is None else new_name,
            rank=(now.rank or "") if rank is None else rank,
            rating=("" if now.rating is None else f"{now.rating:g}") if rating is None else rating,
            club=now.club if club is None else club,
            country=now.country if country is None else country,
            birth_date=(now.birth_date.isoformat() if now.birth_date else "")
            if birth_date is None
            else birth_date,
            licence=now.licence if licence is None else licence,
        )
        rank_text = done.rank or "-"
        typer.echo(f"{done.label}: {rank_text}, {done.club or '-'}, {done.country or '-'}")

    @player_app.command("delete")
    def delete(
        name: PlayerNameArg,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Delete an entry made by mistake, before round 1 is paired (afterwards: withdraw)."""
        from weiqi.services import event_admin

        database, event_id, player_id = _named_player(db, event, name)
        typer.echo(
            f"{event_admin.delete_player(database, Actor.local(), event_id, player_id)} deleted"
        )

    @player_app.command("reinstate")
    def reinstate(
        name: PlayerNameArg,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Undo a withdrawal while no round has been paired since."""
        from weiqi.services import event_admin

        database, event_id, player_id = _named_player(db, event, name)
        done = event_admin.reinstate(database, Actor.local(), event_id, player_id)
        typer.echo(f"{done.name} reinstated: paired again from round {done.from_round}")

    @player_app.command("warn")
    def warn(
        name: PlayerNameArg,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Count a warning (警告) against a player; warnings break ties (WARN)."""
        from weiqi.services.tournament import add_warning

        database = open_database(db)
        total = add_warning(database, Actor.local(), _event_id(database, event), name)
        typer.echo(f"{name}: {total} warning(s) in the event")

    def _round_json(database: Database, event_id: int, number: int | None) -> dict[str, object]:
        """A round as the API answers it (``services.read_models.RoundRead``, one read model):
        each board's game as it stands too (``phase``: not_started, playing, finished or
        confirmed; ``events`` in its record; ``confirmed``)."""
        from weiqi.services.public import round_read
        from weiqi.services.read_models import as_json

        return as_json(round_read(database, event_id, number, public=False))

    def _round_table(view: object) -> None:
        from weiqi.services.tournament import RoundView

        assert isinstance(view, RoundView)
        from rich.console import Console
        from rich.table import Table

        table = Table(title=f"第{view.number}轮 · round {view.number}")
        for col in ("台次 board", "黑 Black", "白 White", "让子 hcp", "结果 result"):
            table.add_column(col)
        for p in view.pairings:
            table.add_row(
                f"{p.board}{' ' + p.label if p.label else ''}",
                p.black,
                p.white,
                str(p.handicap) if p.handicap else "",
                p.result or "",
            )
        console = Console()
        console.print(table)
        if view.byes:
            console.print("轮空 bye: " + ", ".join(view.byes))

    @round_app.command("enter")
    def enter(
        path: Annotated[
            Path, typer.Argument(help="CSV: board,black,white[,handicap][,komi]; no white: a bye.")
        ],
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Enter the next round as paired elsewhere (every row or none); what the event's own
        pairing would have avoided (a rematch, a second bye) is listed."""
        from weiqi.services.tournament import enter_round

        database, event_id = open_event(db, event)
        done = enter_round(database, Actor.local(), event_id, read_text(path), str(path))
        if as_json:
            out = _round_json(database, event_id, done.round.number)
            out["notes"] = [str(n) for n in done.notes]
            echo_json(out)
            return
        _round_table(done.round)
        for note in done.notes:
            typer.echo(f"note: {note}")

    def _explanation(database: Database, event_id: int, number: int) -> tuple[BoardWhy, ...]:
        """The round's explanation as the organisers' round page reads it (its read model)."""
        from weiqi.services.event_admin import round_detail
        from weiqi.services.pair_explanation import board_whys

        return board_whys(round_detail(database, Actor.local(), event_id, number).explanations)

    @round_app.command("pair")
    def pair(
        ctx: typer.Context,
        db: DbOption = None,
        event: EventOption = None,
        explain: Annotated[
            bool,
            typer.Option(
                "--explain",
                help="Say why each pair, in plain words (WEIQI_LANG=en or zh_CN; default the "
                "locale's, else Chinese).",
            ),
        ] = False,
        start: Annotated[
            str | None,
            typer.Option(
                "--start",
                help="The round's start (ISO 8601): a team event's lineup deadline is fixed by "
                "it, an online event's games start then.",
            ),
        ] = None,
        as_json: JsonOption = False,
    ) -> None:
        """Pair the next round (编排) and store it.

        --json: {"round": N, "pairings": [{"board", "black", "white", …}], "bye": NAME or null,
        "byes": [NAME, …]}; with several byes (a knockout's first round) "bye" is the first.
        A team event's round lists its matches (its boards are seated when lineups are revealed).
        """
        from weiqi.services.tournament import pair_round

        database, event_id = open_event(db, event)
        if is_team(database, event_id):
            from weiqi.cli.team import pair_team_round

            pair_team_round(database, event_id, start, as_json, explain)
            return
        with bulk_values():
            view = pair_round(database, Actor.local(), event_id, parse_time(start, "--start"))
        totals = dataclasses.asdict(view.totals) if view.totals is not None else None
        whys = _explanation(database, event_id, view.number) if explain else ()
        if as_json:
            out = _round_json(database, event_id, view.number)
            if explain:
                out["explanations"] = [w.as_json() for w in whys]
                out["totals"] = totals
            echo_json(out)
            return
        _round_table(view)
        if explain:
            from weiqi.services.pair_explanation import INDIVIDUAL_WORDS

            print_explanation(whys, view.totals, INDIVIDUAL_WORDS)

    @round_app.command("result")
    def result(
        ctx: typer.Context,
        result_code: Annotated[
            str, typer.Argument(metavar="RESULT", help="B+R, W+1.5, B+T, 0, BL, B+F, Void, Replay")
        ],
        round_number: Annotated[int, typer.Option("--round")],
        board: Annotated[int, typer.Option("--board")],
        team: Annotated[
            str | None, typer.Option("--team", help="Team: either team of the match.")
        ] = None,
        sitting: Annotated[
            int | None, typer.Option("--sitting", help="Team: 全队轮赛制 sitting (1…).")
        ] = None,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Record and confirm one board's result (a team board: colours as seated, B+R = black
        on that board won)."""
        from weiqi.services.tournament import record_result

        database, event_id = open_event(db, event)
        if is_team(database, event_id):
            from weiqi.cli.team import record_team_board

            if team is None:
                raise InputError("--team", Msg("a team event's board needs the team"))
            record_team_board(
                database, event_id, in_db_range("--round", round_number),
                in_db_range("--board", board), team, sitting or 1, result_code,
            )  # fmt: skip
            return
        refuse_other_kind(ctx, ("team", "sitting"), False)
        view = record_result(
            database,
            Actor.local(),
            event_id,
            in_db_range("--round", round_number),
            in_db_range("--board", board),
            result_code,
        )
        typer.echo(f"round {round_number} board {board}: {view.black} – {view.white} {view.result}")
        from weiqi.rules.result import Outcome, Result
        from weiqi.services.tournament import tournament_info

        drawn = view.result and Result.parse(view.result).outcome in (
            Outcome.DRAW,
            Outcome.NO_RESULT,
        )
        if drawn and tournament_info(database, event_id).settings.is_bracket:
            # a knockout game needs a winner (加赛): say so at once, with the command to use
            typer.echo(
                f"note: a knockout game needs a winner: a playoff decides it; enter its result "
                f"with weiqi round result --round {round_number} --board {board} RESULT"
            )

    @round_app.command("results")
    def results(
        path: Annotated[
            Path, typer.Argument(help="CSV: board,result (a team event: team,board,result)")
        ],
        round_number: Annotated[int, typer.Option("--round")],
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Record a whole round from CSV — every row, or none if any is bad. A team event's
        CSV has team,board,result (and sitting, from 1, for 全队轮赛制)."""
        from weiqi.services.tournament import record_results

        database, event_id = open_event(db, event)
        from weiqi.services.teams import record_results_csv

        record = record_results_csv if is_team(database, event_id) else record_results
        with bulk_values():
            count = record(
                database,
                Actor.local(),
                event_id,
                in_db_range("--round", round_number),
                read_text(path),
                str(path),
            )
        typer.echo(f"round {round_number}: {count} results recorded")

    @round_app.command("show")
    def show_round_command(
        round_number: Annotated[int | None, typer.Option("--round")] = None,
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Show a round's pairings and results (the latest by default); a team event's
        matches, with boards and lineups only once revealed."""
        from weiqi.services.tournament import show_round

        database = open_database(db)
        if round_number is not None:
            in_db_range("--round", round_number)
        event_id = _event_id(database, event)
        if is_team(database, event_id):
            from weiqi.cli.team import show_team_round

            show_team_round(database, event_id, round_number, as_json)
            return
        if as_json:
            out = _round_json(database, event_id, round_number)
            echo_json(out)
        else:
            _round_table(show_round(database, event_id, round_number))

    @round_app.command("confirm")
    def confirm_round_command(
        round_number: Annotated[int, typer.Option("--round")],
        board: Annotated[int | None, typer.Option("--board", help="Only this board.")] = None,
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """The referee confirms (确认) the results of the round's finished games, as the game
        page's button does: after both players' confirmation (an online game), the third
        signature; otherwise in place of the players' signatures on the result sheet. In a team
        event, every board of every match (``--board``: that board of each match)."""
        from weiqi.services.games import confirm_result, round_games

        in_db_range("--round", round_number)
        database, event_id = open_event(db, event)
        for game in round_games(database, event_id, round_number):
            if (board is not None and game.board != board) or not game.result:
                continue
            if not game.confirmed:
                confirm_result(database, Actor.local(), event_id, round_number, game.key)
            where = (
                f"match {game.match} board {game.board}" if game.match else f"board {game.board}"
            )
            typer.echo(f"{where}: {game.result} confirmed")

    @round_app.command("publish")
    def publish_round_command(
        round_number: Annotated[int, typer.Option("--round")],
        db: DbOption = None,
        event: EventOption = None,
        hide: Annotated[
            bool,
            typer.Option("--hide", help="Hide the round again (its rooms close to the public)."),
        ] = False,
    ) -> None:
        """Publish a round (公布), as the organisers' page does: its pairing is public and its
        games open for online play (each board's room starts its game once both players are
        in it)."""
        from weiqi.services.event_admin import publish_round

        in_db_range("--round", round_number)
        database = open_database(db)
        detail = publish_round(
            database, Actor.local(), _event_id(database, event), round_number, not hide
        )
        state = "published" if detail.published else "hidden"
        typer.echo(f"round {detail.number}: {state}, {len(detail.pairings)} board(s)")

    @round_app.command("start")
    def start_round_command(
        ctx: typer.Context,
        round_number: Annotated[int, typer.Option("--round")],
        start: Annotated[
            str,
            typer.Option(
                "--start",
                help="When the round starts, in the event's time zone: '2026-12-05 09:30' "
                "(empty: no start time).",
            ),
        ],
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Set when a round starts (开始时间), as the round's page does: an online event whose
        games start at the round's start time has the server start them then, present or not
        (a team round: its boards once its lineups are revealed).
        What "now" is, is the server's clock: a time not later than now is refused."""
        from weiqi.cli.team import cli_clock
        from weiqi.services import teams
        from weiqi.services.event_admin import set_round_start
        from weiqi.services.events import event_details
        from weiqi.tournament.details import format_local

        in_db_range("--round", round_number)
        database, event_id = open_event(db, event)
        args = (database, Actor.local(), event_id, round_number, start, cli_clock(ctx))
        # a team round's start also moves its lineup deadline while its lineups are sealed
        at = (
            teams.set_round_start(*args).starts_at
            if is_team(database, event_id)
            else set_round_start(*args).starts_at
        )
        zone_name = event_details(database, event_id).time_zone
        local = format_local(at, zone_name)
        if as_json:
            starts = at.isoformat() if at else None
            out = {"round": round_number, "starts_at": starts, "local": local, "zone": zone_name}
            echo_json(out)
            return
        typer.echo(
            f"round {round_number}: starts {local} ({zone_name})"
            if local
            else f"round {round_number}: no start time"
        )

    @round_app.command("edit")
    def edit_round_command(
        kind: Annotated[
            str, typer.Argument(help="swap, pair (with OTHER), bye, or table (with --board).")
        ],
        player: PlayerNameArg,
        other: Annotated[
            str | None, typer.Argument(help="swap, pair: the second player's name.")
        ] = None,
        board: Annotated[
            int | None, typer.Option("--board", help="table: the board to move to.")
        ] = None,
        reason: Annotated[
            str | None,
            typer.Option("--reason", help="Make the edit with this reason; without, only check."),
        ] = None,
        round_number: Annotated[int | None, typer.Option("--round")] = None,
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Edit an unpublished round by hand (the latest by default): say what the edit breaks
        (a rematch is refused; a second bye, a colour rule, a score gap are warnings); with
        --reason, make it, the reason kept with the round.

        --json: {"round", "change", "refused", "problems": [{"kind", "refused", "message"}],
        "applied"}; a refused edit exits with status 1.
        """
        from weiqi.services import round_edits
        from weiqi.services.event_admin import player_named
        from weiqi.services.tournament import show_round, tournament_info

        database, event_id = open_event(db, event)
        number = (
            in_db_range("--round", round_number)
            if round_number is not None
            else tournament_info(database, event_id).rounds
        )
        a = str(player_named(database, event_id, player))
        b = str(player_named(database, event_id, other)) if other else ""
        edit = round_edits.parse_edit(kind, a, b, "" if board is None else str(board))
        shown = round_edits.preview_edit(database, Actor.local(), event_id, number, edit)
        applied = False
        if reason is not None and not shown.refused:
            round_edits.apply_edit(database, Actor.local(), event_id, number, edit, reason)
            applied = True
        if as_json:
            out = {
                "round": number,
                "change": str(shown.description),
                "refused": shown.refused,
                "problems": [
                    {"kind": p.kind, "refused": p.refused, "message": str(p.message)}
                    for p in shown.problems
                ],
                "applied": applied,
            }
            echo_json(out)
        else:
            typer.echo(f"round {number}: {shown.description}")
            for p in shown.problems:
                typer.echo(f"{'refused' if p.refused else 'warning'}: {p.message}")
            if not shown.problems:
                typer.echo("breaks no pairing rule")
            if applied:
                _round_table(show_round(database, event_id, number))
            elif not shown.refused:
                typer.echo("checked only: give --reason to make the edit")
        if shown.refused:
            raise typer.Exit(1)

    @round_app.command("reveal")
    def reveal(
        ctx: typer.Context,
        round_number: Annotated[int, typer.Option("--round", parser=db_int("--round"))],
        db: DbOption = None,
        event: EventOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Team: publish the round's lineups together (not before the deadline) and seat the
        boards."""
        from weiqi.cli.team import reveal_team_round

        database = open_database(db)
        event_id = team_event_id(database, event, "reveal")
        reveal_team_round(ctx, database, event_id, round_number, as_json)

    @round_app.command("playoff")
    def playoff(
        round_number: Annotated[int, typer.Option("--round", parser=db_int("--round"))],
        winner: Annotated[str, typer.Option("--winner", help="The team that won the playoff.")],
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Team: record the playoff (加赛) that decides a drawn knockout match."""
        from weiqi.services.teams import record_playoff

        database = open_database(db)
        event_id = team_event_id(database, event, "playoff")
        view = record_playoff(database, Actor.local(), event_id, round_number, winner)
        typer.echo(f"round {round_number} {view.home}–{view.away}: {view.winner} by playoff")

    def _individual_standings(
        db: str | None, event: int | None, as_json: bool
    ) -> tuple[Database, int] | None:
        """The database and the event the standings read the usual way; None when it is a
        team event, whose standings are then printed."""
        database, event_id = open_event(db, event)
        if not is_team(database, event_id):
            return database, event_id
        from weiqi.cli.team import show_team_standings

        show_team_standings(database, event_id, as_json)
        return None

    def _usual_standings(
        database: Database, event_id: int, as_json: bool
    ) -> StandingsRead | StandingsSheet:
        """The standings through SQLAlchemy: the API's read model for ``--json``, else the
        sheet the table prints."""
        if as_json:
            from weiqi.services.public import standings_read

            return standings_read(database, event_id, public=False)
        from weiqi.services.event_rows import StandingsSheet
        from weiqi.services.tournament import event_standings, tournament_info

        info = tournament_info(database, event_id)
        codes = info.settings.tiebreak_codes
        return StandingsSheet(info.name, codes, event_standings(database, event_id))

    @app.command("standings")
    def standings_command(
        db: DbOption = None, event: EventOption = None, as_json: JsonOption = False
    ) -> None:
        """The standings (名次): points, then the event's tie-breaks (a team event: match
        points, game points, board 1, board 2, …)."""
        from weiqi.services.event_rows import (
            StandingsSheet,
            sqlite_standings_read,
            sqlite_standings_sheet,
        )

        # an SQLite file at the code's schema is read without SQLAlchemy (event_rows)
        url, chosen = db_url(db), in_db_range("--event", event) if event is not None else None
        with bulk_values():
            fast = (sqlite_standings_read if as_json else sqlite_standings_sheet)(url, chosen)
            if fast is None:
                usual = _individual_standings(db, event, as_json)
                if usual is None:
                    return
                fast = _usual_standings(*usual, as_json)
        if not isinstance(fast, StandingsSheet):  # the rows of the API's standings (read model)
            from weiqi.services.read_models import as_json as plain

            echo_json([plain(r) for r in fast.rows])
            return
        rows = fast.rows
        from weiqi.text_table import TextTable
        from weiqi.tournament.standings import TIEBREAKS

        names = [(c, TIEBREAKS[c].zh, TIEBREAKS[c].en) for c in fast.tiebreak_codes]
        # Every name and value whole, never cut or folded (rich cut "Carol" to "Car…" on 80
        # columns), and laid out without rich: 10,000 rows took rich 6 s (issue #15).
        table = TextTable(
            "名次\nplace",
            "姓名\nname",
            "积分\npoints",
            *[f"{c}\n{zh}" for c, zh, _ in names],
            title=f"{fast.name} · 名次 standings",
            caption="; ".join(f"{c} = {zh} / {en}" for c, zh, en in names),
        )
        for r in rows:
            table.add_row(
                f"{r.place}{'=' if r.shared else ''}{' (加赛 playoff)' if r.playoff else ''}",
                r.label,
                str(r.points),
                *[format_value(r.tiebreaks.get(c, 0)) for c, _, _ in names],
            )
        typer.echo(table.render())


def print_explanation(whys: tuple[BoardWhy, ...], totals: RoundTotals | None, words: Words) -> None:
    """Why each pair in plain words (each match, a team round's), in the command line's
    language (``WEIQI_LANG`` or the locale's; Chinese by default): the page's table in its
    ``words``, legend and totals."""
    import os

    from rich.console import Console
    from rich.table import Table

    from weiqi.i18n import environment_locale, render, translations
    from weiqi.services import pair_explanation as why

    locale = environment_locale(os.environ)
    gettext = translations(locale).gettext
    comma, semicolon = ("，", "；") if locale == "zh_CN" else (", ", "; ")
    console = Console()
    if not whys:
        console.print(gettext(why.NO_CHOICE))
        return
    table = Table(title=gettext("Why each pair"))
    for column in words.columns:
        table.add_column(gettext(column))
    for w in whys:
        sides = [
            f"{s.name}（{comma.join(render(m, locale) for m in s.lines)}）"
            if locale == "zh_CN"
            else f"{s.name} ({comma.join(render(m, locale) for m in s.lines)})"
            for s in (w.black, w.white)
        ]
        notes = semicolon.join(render(n.phrase, locale) for n in w.notes)
        table.add_row(
            str(w.board),
            *sides,
            str(w.score_gap),
            str(w.seeding_deviation),
            notes or (gettext(words.ideal) if w.ideal else "–"),
        )
    console.print(table)
    colon = "：" if locale == "zh_CN" else ": "
    for term, meaning in words.legend:
        console.print(f"{gettext(term)}{colon}{gettext(meaning)}", highlight=False)
    if totals is not None:
        # Issue #5: for a round, its totals (score gaps, colour violations, same club).
        console.print(
            semicolon.join(f"{gettext(k)} {v}" for k, v in why.totals_rows(totals, words)),
            highlight=False,
        )
