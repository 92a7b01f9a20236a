"""``weiqi import`` and ``weiqi export``: events in and out of other programs' files.

Usage::

    weiqi import opengotha open-2018.xml --db club.sqlite3
    weiqi export opengotha back.xml --db club.sqlite3 --event 1
    weiqi export egf results.h9 --db club.sqlite3 --round 5

``import`` creates a new event and prints its id, what it holds and every part of the file it
could not map (``--json``: the same as an object with ``notes``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from weiqi.cli.event import (
    DbOption,
    EventOption,
    JsonOption,
    echo_json,
    event_id_option,
    open_database,
)
from weiqi.cli.inputs import read_bytes, write_bytes
from weiqi.services.actor import Actor


def register(app: typer.Typer) -> None:
    import_app = typer.Typer(
        help="Read events from other programs' files (OpenGotha).", no_args_is_help=True
    )
    export_app = typer.Typer(
        help="Write events as other programs' files (OpenGotha, EGF results).",
        no_args_is_help=True,
    )
    app.add_typer(import_app, name="import")
    app.add_typer(export_app, name="export")

    @import_app.command("opengotha")
    def import_opengotha(
        path: Annotated[Path, typer.Argument(help="An OpenGotha tournament file (.xml).")],
        db: DbOption = None,
        name: Annotated[
            str | None, typer.Option("--name", help="The event's name; default the file's.")
        ] = None,
        as_json: JsonOption = False,
    ) -> None:
        """A new event from an OpenGotha file: settings, players, rounds and results as the
        file has them; what cannot be mapped is listed."""
        from weiqi.services.interchange import import_opengotha as run

        report = run(open_database(db), Actor.local(), read_bytes(path), name=name)
        notes = [str(n) for n in report.notes]
        if as_json:
            echo_json(
                {
                    "event": report.event_id,
                    "name": report.name,
                    "players": report.players,
                    "rounds": report.rounds,
                    "games": report.games,
                    "notes": notes,
                }
            )
            return
        typer.echo(
            f"event {report.event_id} {report.name}: {report.players} players, "
            f"{report.rounds} rounds, {report.games} games"
        )
        for note in notes:
            typer.echo(f"note: {note}")

    @export_app.command("opengotha")
    def export_opengotha(
        out: Annotated[Path, typer.Argument(help="The OpenGotha file to write (.xml).")],
        db: DbOption = None,
        event: EventOption = None,
    ) -> None:
        """Write an individual event as an OpenGotha tournament file."""
        from weiqi.services.interchange import export_opengotha as run

        database = open_database(db)
        write_bytes(out, run(database, Actor.local(), event_id_option(database, event)))
        typer.echo(f"wrote {out}")

    @export_app.command("egf")
    def export_egf(
        out: Annotated[Path, typer.Argument(help="The EGF results table to write (.h9).")],
        db: DbOption = None,
        event: EventOption = None,
        through: Annotated[
            int | None, typer.Option("--round", help="Standings after this round; default all.")
        ] = None,
    ) -> None:
        """Write an individual event's results for the EGF rating list (.h9)."""
        from weiqi.services.interchange import export_egf as run

        database = open_database(db)
        write_bytes(out, run(database, Actor.local(), event_id_option(database, event), through))
        typer.echo(f"wrote {out}")
