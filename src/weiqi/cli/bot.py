"""``weiqi bot``: a GTP engine plays as an entrant of an online event (issue #11).

    weiqi player invite --db event.db "GNU Go" --json      # {"name": "GNU Go", "token": …}
    weiqi bot --server http://127.0.0.1:8000 --token ABCD-EFGH-JKLM \\
              --engine "gnugo --mode gtp --chinese-rules --level 1" --session gnugo.session
    weiqi bot --server http://127.0.0.1:8000 --session gnugo.session --engine "…"   # again
    weiqi bot --server http://w1:8000 --server http://w2:8000 --token … --engine "…"  # fail-over
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def bot(
        server: Annotated[
            list[str],
            typer.Option(
                help="The weiqi server, e.g. http://127.0.0.1:8000; repeated for the workers "
                "of one site: after a network error the bot goes on with the next."
            ),
        ],
        engine: Annotated[str, typer.Option(help="The GTP engine: a program and its arguments.")],
        token: Annotated[
            str, typer.Option(help="The entrant's one-time code (weiqi player invite).")
        ] = "",
        session: Annotated[
            Path | None,
            typer.Option(
                help="Keep the session in this file (owner-only): a later run takes it up "
                "without the code, which the first run spent."
            ),
        ] = None,
        rounds: Annotated[
            int | None, typer.Option(help="Stop after so many games (default: the event's).")
        ] = None,
        once: Annotated[bool, typer.Option("--once", help="Play one game, then stop.")] = False,
        quiet: Annotated[bool, typer.Option("--quiet", help="Log nothing on stderr.")] = False,
    ) -> None:
        """Play as an entrant of an online event with a GTP engine: every game the event
        gives it, round after round, until it has no more (or --rounds, --once); reconnects
        after a network error."""
        import signal

        from weiqi.engines.bot import run_bot

        # Told to stop by SIGTERM as by Ctrl-C: the engine is closed and the count printed.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        played = run_bot(
            server, token, engine, rounds=rounds, once=once,
            log=(lambda line: None) if quiet else None, session_file=session,
        )  # fmt: skip
        typer.echo(f"{played} game(s) played")
