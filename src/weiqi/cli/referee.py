"""``weiqi nigiri`` and ``weiqi record …``: decide colours auditably, check and show a game
record, export it to SGF.

Usage::

    weiqi nigiri "Li 5d 1990-03-01" "Wang 5d 1985-07-09" --guess odd --seed 2026
    weiqi record new game.json --black Li --white Wang --referee r1 --size 19 --mode strict
    weiqi record play game.json B D4
    weiqi record append game.json referee:r1 '{"kind": "infraction", "infraction":
        {"kind": "clock_before_move", "offender": "B"}}'
    weiqi record verify game.json --json
    weiqi record check --db e.sqlite3 --json      # every record stored in a database, signed
    weiqi record show game.json
    weiqi record sgf game.json -o game.sgf
"""

from __future__ import annotations

import json
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg
from weiqi.referee.codec import to_data
from weiqi.referee.nigiri import ColorAssignment, Contestant, Guess, Nigiri
from weiqi.rules.ruleset import IllegalMoves, Ruleset
from weiqi.text_table import TextTable
from weiqi.tournament.ranks import Rank

if TYPE_CHECKING:  # the record commands import these when they run: nigiri stays light
    from weiqi.referee.record import GameRecord
    from weiqi.referee.state import GameState

RecordPath = Annotated[Path, typer.Argument(help="A game record (JSON).")]


def _contestant(text: str) -> Contestant:
    parts = text.rsplit(maxsplit=2)
    if len(parts) != 3:
        raise InputError(
            Msg("player %(text)s", text=repr(text)),
            Msg("expected 'NAME RANK BIRTH-DATE', e.g. 'Li 5d 1990-03-01'"),
        )
    name, rank, born = parts
    try:
        birth = date.fromisoformat(born)
    except ValueError:
        raise InputError(
            Msg("player %(text)s", text=repr(text)),
            Msg("birth date %(born)s is not YYYY-MM-DD", born=repr(born)),
        ) from None
    return Contestant(name, Rank.parse(rank).strength, birth)


def _read(path: Path, head: str | None = None) -> GameRecord:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(str(path), err.strerror or "cannot be read") from None
    from weiqi.referee.record import GameRecord

    try:
        return GameRecord.from_json(text, head)
    except InputError as err:
        raise InputError(
            Msg("%(path)s: %(where)s", path=path, where=err.where), err.reason
        ) from None


def _write(path: Path, record: GameRecord) -> None:
    try:
        path.write_text(record.to_json(), encoding="utf-8")
    except OSError as err:
        raise InputError(str(path), err.strerror or "cannot be written") from None


def _now(at: float | None) -> float:
    """The time of an event in a record file: given (a transcription keeps the times of the game
    played), or the system clock (the shell may read it; the core may not). These files are the
    user's own: no service, deadline or stored game reads them."""
    if at is not None:
        return at
    from weiqi.services.server_clock import SYSTEM_CLOCK  # only the record commands need it

    return SYSTEM_CLOCK.now().timestamp()


def _report(record: GameRecord) -> None:
    entry = record.entries[-1]
    state = record.state
    result = f" · {state.result.to_zh()}" if state.result is not None else ""
    typer.echo(
        f"event {entry.seq} ({entry.event.kind}) at move {entry.move_number} · "
        f"{state.phase.value} · 警告 黑{state.warnings[0]} 白{state.warnings[1]}{result}"
    )


AtOption = Annotated[
    float | None, typer.Option("--at", help="Time of the event in seconds (default: now).")
]


def _summary(state: GameState) -> dict[str, object]:
    return {
        "phase": state.phase.value,
        "black": state.black,
        "white": state.white,
        "pairing_colors": list(state.pairing_colors),
        "move_number": state.move_number,
        "warnings": {"B": state.warnings[0], "W": state.warnings[1]},
        "void_moves": len(state.void_moves),
        "forfeited_turns": len(state.forfeited_turns),
        "result": state.result.to_code() if state.result is not None else None,
        "result_zh": state.result.to_zh() if state.result is not None else None,
        "confirmed": state.confirmed,
        "sanctions": [to_data(s) for s in state.sanctions],
    }


def register(app: typer.Typer) -> None:
    @app.command("nigiri")
    def nigiri(
        first: Annotated[
            str, typer.Argument(help="'NAME RANK BIRTH-DATE', e.g. 'Li 5d 1990-03-01'")
        ],
        second: Annotated[str, typer.Argument(help="the other player, the same way")],
        guess: Annotated[Guess, typer.Option("--guess", help="The guesser's call: odd or even.")],
        seed: Annotated[int, typer.Option("--seed", help="Seed of the handful (record it).")],
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    ) -> None:
        """猜先 (nigiri): who holds, the guess, the count and the colours, from a seed."""
        n = Nigiri.draw(_contestant(first), _contestant(second), guess, seed)
        if as_json:
            typer.echo(json.dumps(to_data(n), ensure_ascii=False))
            return
        table = TextTable(show_header=False)
        table.add_row("握子 holder", n.holder)
        table.add_row("猜子 guesser", f"{n.guesser}: {n.guess.value} ({n.guess.stones_shown})")
        table.add_row("种子 seed", str(n.seed))
        table.add_row("子数 count", str(n.count))
        table.add_row("黑 Black", n.black)
        table.add_row("白 White", n.white)
        typer.echo(table.render())

    record_app = typer.Typer(help="Game records (对局记录): check, show, export.")
    app.add_typer(record_app, name="record", no_args_is_help=True)

    @record_app.command("new")
    def new(
        path: Annotated[Path, typer.Argument(help="Where to write the record (JSON).")],
        black: Annotated[str, typer.Option("--black", help="The player assigned Black.")],
        white: Annotated[str, typer.Option("--white", help="The player assigned White.")],
        referee: Annotated[str, typer.Option("--referee", help="The referee's id.")],
        size: Annotated[int, typer.Option("--size", help="Board size.")] = 19,
        komi: Annotated[str, typer.Option("--komi", help="Komi in stones, e.g. 15/4.")] = "15/4",
        mode: Annotated[IllegalMoves, typer.Option("--mode", help="online or strict.")] = (
            IllegalMoves.ONLINE
        ),
        time_control: Annotated[
            str | None, typer.Option("--time", help='e.g. "60m incl 5x60s" (default untimed)')
        ] = None,
        at: AtOption = None,
        force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
    ) -> None:
        """Start a game record: rules, colours as the organiser assigned them, time control."""
        if path.exists() and not force:
            raise InputError(str(path), Msg("exists already (use --force to overwrite)"))
        try:
            stones = Fraction(komi)
        except (ValueError, ZeroDivisionError):
            raise InvalidSetting(
                "komi", Msg("not a number of stones: %(komi)s", komi=repr(komi))
            ) from None
        from weiqi.clock.control import TimeControl
        from weiqi.referee.actors import GameActor
        from weiqi.referee.record import GameRecord

        ruleset = Ruleset(board_size=size, komi=stones, play_mode=mode)
        tc = TimeControl.parse(time_control) if time_control is not None else None
        record = GameRecord.start(
            ruleset,
            ColorAssignment.by_organiser(black, white),
            referee=GameActor.referee(referee),
            at=_now(at),
            time_control=tc,
        )
        _write(path, record)
        _report(record)

    @record_app.command("play")
    def play(
        path: RecordPath,
        color: Annotated[str, typer.Argument(help="B or W.")],
        vertex: Annotated[str, typer.Argument(help="e.g. D4, or pass.")],
        at: AtOption = None,
    ) -> None:
        """Record a move or a pass."""
        from weiqi.referee.actors import GameActor

        record = _read(path)
        actor = GameActor.parse(color)
        if actor.color is None:
            raise InputError(Msg("colour %(color)s", color=repr(color)), Msg("expected B or W"))
        record.play(actor.color, vertex, _now(at))
        _write(path, record)
        _report(record)

    @record_app.command("append")
    def append(
        path: RecordPath,
        actor: Annotated[str, typer.Argument(help="B, W, referee:ID or chief_referee:ID.")],
        event: Annotated[str, typer.Argument(help='The event as JSON: {"kind": "resign"}.')],
        at: AtOption = None,
    ) -> None:
        """Record any event (see weiqi.referee.events) in its JSON form."""
        from weiqi.referee.actors import GameActor
        from weiqi.referee.events import event_from_data

        record = _read(path)
        try:
            data = json.loads(event)
        except json.JSONDecodeError as err:
            raise InputError("event", Msg("not JSON: %(msg)s", msg=err.msg)) from None
        record.append(event_from_data(data), GameActor.parse(actor), _now(at))
        _write(path, record)
        _report(record)

    @record_app.command("verify")
    def verify(
        path: RecordPath,
        head: Annotated[
            str | None, typer.Option("--head", help="The last hash as stored: must match.")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    ) -> None:
        """Check the hash chain and replay every event; print the state the record makes."""
        record = _read(path, head)
        facts: dict[str, object] = {"events": len(record), "head": record.head}
        facts.update(_summary(record.state))
        if as_json:
            typer.echo(json.dumps(facts, ensure_ascii=False))
            return
        from rich.console import Console
        from rich.table import Table

        table = Table(show_header=False)
        for key, value in facts.items():
            table.add_row(key, str(value))
        Console().print(table)

    @record_app.command("check")
    def check(
        db: Annotated[
            str | None,
            typer.Option("--db", help="SQLite file or database URL; default $WEIQI_DATABASE_URL."),
        ] = None,
        event: Annotated[
            int | None, typer.Option("--event", help="Only this event's records (default all).")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    ) -> None:
        """Verify the game records stored in a database: hash chain, stored head, every event
        replayed, and the head's signature under the site's key; then every board's seal (its
        result, confirmation and warnings as its record left them). Exit 1 when one fails."""
        # the database and the services only for this command: the file commands stay light
        from rich.console import Console
        from rich.table import Table

        from weiqi.cli.event import open_database
        from weiqi.services.games import TeamBoard, check_records

        checks = check_records(open_database(db), event)
        table = Table("game", "events", "verdict")
        for c in checks:
            if as_json:
                board = c.board
                where: dict[str, object] = (
                    {"match": board.match, "board": board.board, "sitting": board.sitting}
                    if isinstance(board, TeamBoard)
                    else {"board": board}
                )
                typer.echo(
                    json.dumps(
                        {
                            "event": c.event_id,
                            "round": c.round,
                            **where,
                            "events": c.events,
                            "verified": c.problem is None,
                            "problem": str(c.problem) if c.problem is not None else None,
                        },
                        ensure_ascii=False,
                    )
                )
                continue
            verdict = "ok" if c.problem is None else f"REFUSED: {c.problem}"
            table.add_row(str(c.game), str(c.events), verdict)
        if not as_json:
            Console().print(table)
            failed = sum(1 for c in checks if c.problem is not None)
            typer.echo(f"{len(checks) - failed} of {len(checks)} stored records and boards verify")
        raise typer.Exit(1 if any(c.problem is not None for c in checks) else 0)

    @record_app.command("show")
    def show(path: RecordPath) -> None:
        """List the events of a record: who, when, at which move, what."""
        from rich.console import Console

        from weiqi.rules.color import Color
        from weiqi.rules.vertex import format_vertex

        record = _read(path)
        from rich.table import Table

        size = record.state.ruleset.board_size if record.state.ruleset else 19
        table = Table("#", "at", "move", "who", "event")
        for e in record.entries:
            detail = to_data(e.event)
            if "point" in detail and isinstance(detail["point"], int):
                detail["point"] = format_vertex(detail["point"], size)
            shown = ", ".join(f"{k}={v}" for k, v in detail.items() if v not in (None, "", []))
            table.add_row(
                str(e.seq),
                f"{e.at:g}",
                str(e.move_number),
                e.actor.describe(),
                f"{e.event.kind} {shown}".strip(),
            )
        Console().print(table)
        state = record.state
        result = state.result.to_zh() if state.result is not None else "—"
        Console().print(
            f"{state.phase.value} · 警告 黑{state.warnings_of(Color.BLACK)} "
            f"白{state.warnings_of(Color.WHITE)} · {result}"
        )

    @record_app.command("sgf")
    def sgf(
        path: Annotated[
            Path | None,
            typer.Argument(help="A game record (JSON); or name a stored game with --db."),
        ] = None,
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="Write here, not stdout.")
        ] = None,
        db: Annotated[
            str | None,
            typer.Option("--db", help="A stored game's database (SQLite file or URL)."),
        ] = None,
        event: Annotated[
            int | None, typer.Option("--event", help="Its event (default the newest).")
        ] = None,
        round_number: Annotated[int | None, typer.Option("--round", help="Its round.")] = None,
        board: Annotated[int | None, typer.Option("--board", help="Its board.")] = None,
        team: Annotated[
            str | None, typer.Option("--team", help="A team event: either team of the match.")
        ] = None,
        sitting: Annotated[
            int, typer.Option("--sitting", help="Team: 全队轮赛制 sitting (1…).")
        ] = 1,
    ) -> None:
        """Export a record to SGF: penalties and rulings as comments, RE from the result. With
        ``--db --round N --board B`` (a team board: ``--team``) a stored game's record, a live
        one with its moves so far (``weiqi record sgf --db e.sqlite3 --round 1 --board 3``)."""
        if db is None:
            if path is None:
                raise InputError(
                    "record", Msg("give a record file, or --db with --round and --board")
                )
            from weiqi.formats.sgf_referee import write_record_sgf

            data = write_record_sgf(_read(path))
        else:
            if path is not None:
                raise InputError("record", Msg("give a record file or --db, not both"))
            if round_number is None or board is None:
                raise InputError("--db", Msg("name the stored game with --round and --board"))
            from weiqi.cli.event import event_id_option, is_team, open_database
            from weiqi.cli.inputs import in_db_range
            from weiqi.services.games import TeamBoard, game_sgf

            database = open_database(db)
            event_id = event_id_option(database, event)
            rnd = in_db_range("--round", round_number)
            number = in_db_range("--board", board)
            key: int | TeamBoard = number
            if is_team(database, event_id):  # a team board by its team, as round result takes it
                from weiqi.services.teams import match_number

                if team is None:
                    raise InputError("--team", Msg("a team event's board needs the team"))
                match = match_number(database, event_id, rnd, team)
                key = TeamBoard(match, number, in_db_range("--sitting", sitting) - 1)
            data = game_sgf(database, event_id, rnd, key).encode()
        if output is None:
            typer.echo(data.decode("utf-8"), nl=False)
        else:
            output.write_bytes(data)
