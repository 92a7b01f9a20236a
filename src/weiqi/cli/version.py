"""``weiqi version``."""

from __future__ import annotations

import typer

from weiqi import __version__


def register(app: typer.Typer) -> None:
    @app.command()
    def version() -> None:
        """Print the version of weiqi."""
        typer.echo(__version__)
