"""``weiqi match``: a game between two GTP engines, refereed and counted by our rules.

    weiqi match --black "/usr/games/gnugo --mode gtp --level 1" \\
                --white "/usr/games/gnugo --mode gtp --level 5" --size 9 --sgf game.sgf
"""

from __future__ import annotations

import json
import shlex
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from weiqi.engines.gtp import SimpleEngine
from weiqi.engines.match import engine_name, referee_game
from weiqi.errors import InputError
from weiqi.formats.sgf import write_sgf
from weiqi.messages import Msg
from weiqi.rules.ruleset import DEFAULT_KOMI, Ruleset


def _command(text: str, which: str) -> list[str]:
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise InputError(Msg("--%(which)s", which=which), str(exc)) from None
    if not words:
        raise InputError(Msg("--%(which)s", which=which), Msg("names no program"))
    return words


def register(app: typer.Typer) -> None:
    @app.command()
    def match(
        black: Annotated[str, typer.Option(help="Black's engine: a GTP program and arguments.")],
        white: Annotated[str, typer.Option(help="White's engine: a GTP program and arguments.")],
        size: Annotated[int, typer.Option(help="Board size.")] = 19,
        komi: Annotated[str, typer.Option(help="Komi in stones (3.75 = 7.5 points).")] = str(
            DEFAULT_KOMI
        ),
        handicap: Annotated[int, typer.Option(help="Fixed handicap stones (2–9), no komi.")] = 0,
        max_moves: Annotated[
            int, typer.Option(help="No result after so many moves (0: 4·size²).")
        ] = 0,
        move_timeout: Annotated[float, typer.Option(help="Seconds per engine move.")] = 60.0,
        sgf: Annotated[Path | None, typer.Option(help="Write the record to this SGF file.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    ) -> None:
        """Play one game between two GTP engines; our rules judge every move."""
        try:
            komi_stones = Fraction(komi)
        except ValueError:
            raise InputError("--komi", Msg("not a number: %(komi)s", komi=repr(komi))) from None
        if handicap:
            ruleset = Ruleset.handicap_game(handicap, size=size)
        else:
            ruleset = Ruleset(board_size=size, komi=komi_stones)
        with (
            SimpleEngine.popen(_command(black, "black"), timeout=move_timeout) as b,
            SimpleEngine.popen(_command(white, "white"), timeout=move_timeout) as w,
        ):
            names = engine_name(b), engine_name(w)
            game = referee_game(b, w, ruleset, max_moves=max_moves or None)
        if sgf is not None:
            sgf.write_bytes(write_sgf(game.to_sgf_game(*names)))
        if as_json:
            typer.echo(
                json.dumps(
                    {
                        "black": names[0],
                        "white": names[1],
                        "moves": len(game.moves),
                        "ended_by": game.ended_by,
                        "note": game.note,
                        "result": game.result.to_sgf(),
                        "result_zh": game.result.to_zh(),
                        "dead": sorted(game.vertices_of(game.dead)),
                    },
                    ensure_ascii=False,
                )
            )
            return
        typer.echo(f"{names[0]} (黑) – {names[1]} (白): {len(game.moves)} moves, {game.ended_by}")
        if game.note:
            typer.echo(game.note)
        typer.echo(f"{game.result.to_zh()}  {game.result.to_sgf()}")
