"""``weiqi clock …``: read a time-control setting and print the byo-yomi call-out schedule.

Usage::

    weiqi clock show "60m incl 5x60s"
    weiqi clock callouts 30 --periods 3 --json
"""

from __future__ import annotations

import json

import typer

from weiqi.clock import TimeControl, schedule
from weiqi.clock.control import MAX_SECONDS
from weiqi.clock.notation import gtp_time_settings, kgs_time_settings, sgf_properties
from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.text_table import TextTable


def register(app: typer.Typer) -> None:
    clock_app = typer.Typer(
        help="Time controls and byo-yomi call-outs (读秒).", no_args_is_help=True
    )
    app.add_typer(clock_app, name="clock")

    @clock_app.command("show")
    def show(
        setting: str = typer.Argument(..., help='e.g. "60m incl 5x60s", "55m+5x60s", "3x30s"'),
        as_json: bool = typer.Option(False, "--json", help="Print JSON for machines."),
    ) -> None:
        """Read a time-control setting and show it in words, SGF and GTP."""
        tc = TimeControl.parse(setting)
        sgf = sgf_properties(tc)
        facts = {
            "setting": tc.format(),
            "zh": tc.describe_zh(),
            "en": tc.describe_en(),
            "sgf": sgf,
            "gtp_time_settings": gtp_time_settings(tc),
            "kgs_time_settings": kgs_time_settings(tc),
            "time_control": tc.to_dict(),
        }
        if as_json:
            typer.echo(json.dumps(facts, ensure_ascii=False))
            return
        table = TextTable(show_header=False)
        table.add_row("setting", tc.format())
        table.add_row("中文", tc.describe_zh())
        table.add_row("English", tc.describe_en())
        table.add_row("SGF", "".join(f"{k}[{v}]" for k, v in sgf.items()) or "—")
        table.add_row("GTP", f"time_settings {facts['gtp_time_settings']}")
        table.add_row("KGS", f"kgs-time_settings {facts['kgs_time_settings']}")
        typer.echo(table.render())

    @clock_app.command("callouts")
    def callouts_command(
        period: float = typer.Argument(60.0, help="Byo-yomi period in seconds."),
        periods: int = typer.Option(2, "--periods", help="Periods left when the period starts."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON for machines."),
    ) -> None:
        """The call-outs of one byo-yomi period (读秒); --periods 1 for the last period."""
        if period <= 0:
            raise InvalidSetting("period", Msg("must be more than 0 seconds"))
        if period > MAX_SECONDS:
            raise InvalidSetting(
                "period", Msg("must be at most %(value)s hours", value=MAX_SECONDS // 3600)
            )
        if periods < 1:
            raise InvalidSetting("periods", Msg("must be at least 1"))
        calls = schedule(period, periods)
        if as_json:
            typer.echo(json.dumps([c.to_dict() for c in calls], ensure_ascii=False))
            return
        table = TextTable("s", "中文", "English")
        for call in calls:
            table.add_row(f"{call.at:g}", call.zh, call.en)
        typer.echo(table.render())
