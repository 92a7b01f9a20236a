"""``weiqi check`` and ``weiqi score``: replay SGF records under the rules and count them.

Usage::

    weiqi check game.sgf other.sgf --json
    weiqi score game.sgf --dead D4 --dead Q16 --komi 3.75 --json
    weiqi score game.sgf --auto-dead

``check`` prints one line (or one JSON object) per game — a collection file holds several, each
numbered ``game`` — with the reader's ``notes``, and exits 0 when every record is legal,
1 when one is not, 2 when a file cannot be read. ``score`` counts the final position (R-SCORE-1…5):
every stone is alive unless ``--dead`` names a stone of its group or ``--auto-dead`` adds the
dead-stone proposal of :mod:`weiqi.rules.dead_stones` (seed 0, so the same record always gets
the same proposal; R-END-3 leaves the final word to the players, and ``--json`` then adds
``uncertain``: the chains the proposal is unsure of, for them to check first); komi comes from
``--komi`` (stones), else the record's ``KM`` (points ÷ 2), else 3¾; ``HA`` gives the handicap
compensation.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from weiqi.errors import InputError, InvalidSetting
from weiqi.formats.sgf import SgfGame, read_sgf
from weiqi.formats.sgf_check import MAX_FILE_BYTES, GameCheck, check_sgf
from weiqi.formats.sgf_replay import record_handicap, replay_legal
from weiqi.messages import Msg
from weiqi.rules.counting import Count, count
from weiqi.rules.result import format_points, format_stones_zh
from weiqi.rules.ruleset import DEFAULT_KOMI, HandicapPlacement, Ruleset
from weiqi.rules.vertex import format_vertex, parse_vertex
from weiqi.text_table import TextTable

if TYPE_CHECKING:  # the playouts only for --auto-dead
    from weiqi.rules.dead_stones import Proposal

AUTO_DEAD_SEED = 0


def read_file(path: Path, *, keep_off_board: bool = False) -> SgfGame:
    """Read an SGF file; a missing or unreadable file is an :class:`InputError`."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(str(path), err.strerror or "cannot be read") from None
    return read_sgf(data, source=str(path), keep_off_board=keep_off_board)


def check_path(path: Path) -> Iterator[dict[str, object] | InputError]:
    """The ``weiqi check --json`` objects of one file, one per game, each with the reader's
    notes under ``notes`` (when there are any); ``game`` numbers the games of a file that holds
    more than one. A game that cannot be read is an :class:`InputError` instead."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            yield InputError(
                str(path),
                f"the file has {size:,} bytes, more than the {MAX_FILE_BYTES:,} this checker "
                "reads at once; split it into smaller files",
            )
            return
        data = path.read_bytes()
    except OSError as err:
        yield InputError(str(path), err.strerror or "cannot be read")
        return
    games = check_sgf(data, source=str(path))
    previous = next(games)
    for game in games:
        yield _report(path, previous, numbered=True)
        previous = game
    yield _report(path, previous, numbered=previous.number > 1)


def _report(path: Path, game: GameCheck, *, numbered: bool) -> dict[str, object] | InputError:
    if game.failure is not None:
        return game.failure
    report: dict[str, object] = {"file": str(path)}
    if numbered:
        report["game"] = game.number
    report["legal"] = game.error is None
    report["moves"] = game.moves
    if game.error is not None:
        report["error"] = {
            "move": game.error.move,
            "vertex": game.error.vertex,
            "reason": game.error.reason,
        }
    if game.notes:
        report["notes"] = list(game.notes)
    return report


def sgf_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files to check: each path named, and for a directory every ``.sgf`` file below it
    (sorted, found as the walk goes, so a huge directory is never listed whole in memory)."""
    for path in paths:
        if not path.is_dir():
            yield path
            continue
        for folder, dirs, names in os.walk(path):
            dirs.sort()
            for name in sorted(names):
                if name.lower().endswith(".sgf"):
                    yield Path(folder, name)


def parse_komi(text: str) -> Fraction:
    """Komi in stones from the command line: ``3.75``, ``15/4``, ``0``.

    >>> parse_komi("3.75"), parse_komi("15/4"), parse_komi("-0.5")
    (Fraction(15, 4), Fraction(15, 4), Fraction(-1, 2))
    """
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidSetting(
            "komi", Msg("%(text)s is not a number of stones", text=repr(text))
        ) from None


def score_game(
    game: SgfGame,
    dead: list[str],
    komi: Fraction | None,
    *,
    auto_dead: bool = False,
    proposal: Proposal | None = None,
) -> Count:
    """Count the final position of ``game`` with the named dead stones (and, with
    ``auto_dead``, the proposed ones, or those of ``proposal`` when it is given)."""
    from_record = komi is None and game.komi is not None
    if komi is None:
        komi = game.komi if game.komi is not None else DEFAULT_KOMI
    handicap = record_handicap(game)  # HA above 9 is refused here as by ``check``
    try:
        ruleset = Ruleset(
            board_size=game.size,
            komi=komi,
            handicap=handicap,
            # The stones are wherever the record put them (AB): never check fixed placement.
            handicap_placement=HandicapPlacement.FREE,
        )
    except InvalidSetting as err:
        if err.field == "komi" and from_record:
            raise InputError(
                Msg(
                    "%(source)s, KM[%(short)s]",
                    source=game.source,
                    short=_short(format_points(komi * 2)),
                ),
                Msg("komi %(reason)s; give --komi in stones", reason=err.reason),
            ) from None
        if err.field == "handicap":
            raise InputError(
                Msg("%(source)s, HA[%(handicap)s]", source=game.source, handicap=game.handicap),
                err.reason,
            ) from None
        raise
    # after the record's own settings, as ``check`` reads them: an HA[20] game is refused for
    # its HA whoever moves first, not for the turn the handicap implies
    board = replay_legal(game)
    points = []
    for vertex in dead:
        point = parse_vertex(vertex, game.size)
        if point is None:
            raise InputError(Msg("--dead %(vertex)s", vertex=vertex), Msg("names no stone"))
        points.append(point)
    if auto_dead and proposal is None:
        from weiqi.rules.dead_stones import assess

        proposal = assess(board, seed=AUTO_DEAD_SEED)
    if proposal is not None:
        points.extend(sorted(proposal.dead))
    return count(board, points, ruleset)


def uncertain_json(proposal: Proposal, size: int) -> list[dict[str, object]]:
    """The ``uncertain`` list of ``weiqi score --auto-dead --json``: each chain the proposal is
    unsure of, so that the players' confirmation (R-END-3) looks there first — its colour, its
    stones (GTP vertices), whether it was proposed dead and the share of its points it kept
    over the playouts.

    >>> from weiqi.rules.dead_stones import ChainStatus, Proposal
    >>> p = Proposal(frozenset({0}), (ChainStatus((0,), 1, 0.5, True),))
    >>> uncertain_json(p, 9)
    [{'color': 'B', 'stones': ['A1'], 'proposed': 'dead', 'kept': 0.5}]
    """
    return [
        {
            "color": "B" if chain.color == 1 else "W",
            "stones": sorted(format_vertex(p, size) for p in chain.stones),
            "proposed": "dead" if chain.dead else "alive",
            "kept": round(chain.kept, 3),
        }
        for chain in proposal.uncertain
    ]


def score_json(c: Count) -> dict[str, object]:
    """The ``weiqi score --json`` object: counts and margin in stones, ``winner`` null for a
    draw."""
    result = c.result
    return {
        "black": float(c.black),
        "white": float(c.white),
        "shared": c.shared,
        "komi": float(c.komi),
        "handicap_compensation": float(c.handicap_compensation),
        "winner": result.winner.value if result.winner is not None else None,
        "margin": float(abs(c.margin)),
        "result": result.to_sgf(),
        "result_zh": result.to_zh(),
    }


def register(app: typer.Typer) -> None:
    @app.command()
    def check(
        # Plain strings: typer would build a validator for every Path given (0.3 ms each,
        # as much as checking a game).
        files: Annotated[
            list[str], typer.Argument(help="SGF files (or directories of them) to replay.")
        ],
        as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    ) -> None:
        """Check SGF records: each game's first illegal move (a directory: all its .sgf files)."""
        exit_code = 0
        table, notes = _check_table(), list[str]()
        for path in sgf_files(map(Path, files)):
            for report in check_path(path):
                if isinstance(report, InputError):
                    print(f"error: {report.message}", file=sys.stderr)
                    exit_code = 2
                    continue
                error = report.get("error")
                if error is not None:
                    exit_code = max(exit_code, 1)
                if as_json:
                    typer.echo(json.dumps(report, ensure_ascii=False))
                    continue
                if isinstance(error, dict):
                    verdict = f"move {error['move']} at {error['vertex']}: {error['reason']}"
                else:
                    verdict = "legal"
                name = str(path) if "game" not in report else f"{path} #{report['game']}"
                table.add_row(name, str(report["moves"]), verdict)
                notes.extend(f"{name}: {note}" for note in report.get("notes", []))  # type: ignore[attr-defined]
                if table.row_count >= _TABLE_ROWS:  # keep memory bounded on big archives
                    _print_table(table, notes)
                    table, notes = _check_table(), []
        if not as_json and table.row_count:
            _print_table(table, notes)
        raise typer.Exit(exit_code)

    @app.command()
    def score(
        file: Annotated[Path, typer.Argument(help="SGF file whose final position to count.")],
        dead: Annotated[
            list[str] | None,
            typer.Option("--dead", help="A stone of a dead group (GTP vertex); repeatable."),
        ] = None,
        auto_dead: Annotated[
            bool, typer.Option("--auto-dead", help="Add the proposed dead stones.")
        ] = False,
        komi: Annotated[
            str | None, typer.Option("--komi", help="Komi in stones (default: KM ÷ 2, else 3.75).")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    ) -> None:
        """Count the final position of a record (area counting, 数子法)."""
        game = read_file(file)
        proposal = None
        if auto_dead:
            from weiqi.rules.dead_stones import assess

            proposal = assess(replay_legal(game), seed=AUTO_DEAD_SEED)
        c = score_game(
            game,
            dead or [],
            parse_komi(komi) if komi is not None else None,
            proposal=proposal,
        )
        if as_json:
            out = score_json(c)
            if proposal is not None:
                out["uncertain"] = uncertain_json(proposal, game.size)
            typer.echo(json.dumps(out, ensure_ascii=False))
            return
        table = TextTable("", "黑 Black", "白 White")
        table.add_row("count (stones)", _stones(c.black), _stones(c.white))
        table.add_row("live stones", str(c.black_stones), str(c.white_stones))
        table.add_row("territory", str(c.black_territory), str(c.white_territory))
        table.add_row("dead stones removed", str(c.dead_black), str(c.dead_white))
        typer.echo(table.render())
        typer.echo(
            f"shared {c.shared} · par {_stones(c.par)} · komi {_stones(c.komi)} · "
            f"handicap compensation {_stones(c.handicap_compensation)}"
        )
        typer.echo(f"{c.result.to_zh()}  ({c.result.to_sgf()})")
        for note in game.notes:
            typer.echo(f"note: {file}: {note}")


_TABLE_ROWS = 1000


def _check_table() -> TextTable:
    return TextTable("file", "moves", "verdict")


def _print_table(table: TextTable, notes: list[str]) -> None:
    typer.echo(table.render())
    for note in notes:
        typer.echo(f"note: {note}")


def _short(text: str, limit: int = 20) -> str:
    """``text`` cut to ``limit`` characters, so KM[1e999] does not become a 1000-digit line.

    >>> _short("7.5"), _short("1" + "0" * 30)
    ('7.5', '1000000000000000000…')
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _stones(value: Fraction) -> str:
    return format_stones_zh(value) if value >= 0 else f"-{format_stones_zh(-value)}"
