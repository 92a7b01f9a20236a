"""The ``weiqi`` command line.

Each module of this package adds its commands through a ``register(app)`` function, so areas
(games, events, teams, the server) keep their commands beside each other without one file that
everybody edits. Errors of the core become one clear line and a non-zero exit here, in one place.

Usage::

    weiqi --help
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer

from weiqi.errors import WeiqiError

app = typer.Typer(
    name="weiqi",
    help="Run Go (围棋) competitions under the Chinese Weiqi Competition Rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_all() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


@app.callback()
def _root() -> None:
    """Run Go (围棋) competitions under the Chinese Weiqi Competition Rules."""


_register_all()


def main() -> None:
    """Entry point of the ``weiqi`` script: run the app, turning our errors into one line."""
    try:
        app()
    except WeiqiError as err:
        print(f"error: {err.message}", file=sys.stderr)
        raise SystemExit(2) from None
