"""``weiqi gtp``: the rules engine as a GTP v2 engine on standard input and output."""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Annotated

import typer

from weiqi.engines.gtp_engine import GtpEngine
from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.rules.ruleset import CyclePolicy, Ruleset


def _komi_in_stones(points: str) -> Fraction:
    try:
        return Fraction(points) / 2
    except (ValueError, ZeroDivisionError):
        raise InvalidSetting(
            "komi", Msg("not a number of points: %(points)s", points=repr(points))
        ) from None


def register(app: typer.Typer) -> None:
    @app.command()
    def gtp(
        size: Annotated[
            int, typer.Option(help="Board size (2–25); GTP boardsize changes it.")
        ] = 19,
        komi: Annotated[
            str, typer.Option(help="Komi in points, as GTP counts it (7.5 = 3¾ stones).")
        ] = "7.5",
        cycle: Annotated[
            CyclePolicy, typer.Option(help="What a repetition other than a simple ko does.")
        ] = CyclePolicy.BAN,
        seed: Annotated[int, typer.Option(help="Seed of genmove's tie-breaks.")] = 0,
    ) -> None:
        """Speak GTP v2 on stdin/stdout: a referee under the Chinese rules, and a weak player."""
        ruleset = Ruleset(board_size=size, komi=_komi_in_stones(komi), cycle=cycle)
        GtpEngine(ruleset, seed=seed).run(sys.stdin, sys.stdout)
