"""``weiqi serve``: the web application under uvicorn, on SQLite unless told otherwise."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from weiqi.services.signup import SignupPolicy
from weiqi.store.database import DEFAULT_URL

_OFF = frozenset({"off", "0", "no", "false"})


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[
            str | None,
            typer.Option(
                help=f"SQLite file or database URL; default $WEIQI_DATABASE_URL, else "
                f"{DEFAULT_URL}. PostgreSQL: postgresql+psycopg://user@host:5432/name"
            ),
        ] = None,
        https_only: Annotated[
            bool, typer.Option(help="Mark the session cookie Secure (serve behind HTTPS).")
        ] = False,
        forwarded_allow_ips: Annotated[
            str | None,
            typer.Option(
                help="Addresses of the reverse proxy whose X-Forwarded-For is believed "
                "(e.g. 127.0.0.1); by default none: the client's own address counts."
            ),
        ] = None,
        workers: Annotated[
            int,
            typer.Option(
                min=1,
                help="Worker processes (several need $WEIQI_REDIS_URL: they share the live "
                "games' pushes through Redis; PostgreSQL recommended).",
            ),
        ] = 1,
        db_connections: Annotated[
            int | None,
            typer.Option(
                min=2,
                envvar="WEIQI_DB_CONNECTIONS",
                help="PostgreSQL connections all the workers may hold at once, shared evenly; "
                "default: what the server allows less 10, at most 40 a worker. Give each "
                "`weiqi serve` its part when several share one PostgreSQL.",
            ),
        ] = None,
        ws_compression: Annotated[
            bool,
            typer.Option(
                help="Compress the live sockets' messages (permessage-deflate). Off: a push "
                "is about 1.3 KB of JSON, and compressing it for each socket cost a "
                "tenth of a worker's CPU and 47 KB a socket.",
            ),
        ] = False,
        signup: Annotated[
            SignupPolicy,
            typer.Option(
                envvar="WEIQI_SIGNUP",
                help="Who may make their own account at /signup: 'open' (anybody) or 'code' "
                "(only with an invitation code).",
            ),
        ] = SignupPolicy.OPEN,
    ) -> None:
        """Start the web application. Migrates the database first; on the first run prints the
        administrator's one-time password (or uses $WEIQI_ADMIN_PASSWORD)."""
        import uvicorn

        from weiqi.cli.event import open_database
        from weiqi.server.app import create_app
        from weiqi.server.worker import tune_gc
        from weiqi.services.accounts import ADMIN_USERNAME, ensure_site_admin
        from weiqi.store.database import Database, connection_share

        redis_url = os.environ.get("WEIQI_REDIS_URL") or None
        if workers > 1 and redis_url is None:
            typer.echo(
                f"error: --workers {workers} needs WEIQI_REDIS_URL (redis://host:6379/0): "
                "a move made on one worker reaches the others through Redis",
                err=True,
            )
            raise typer.Exit(2)
        # a file like every other command's --db (created and migrated on first use), or a URL
        database = open_database(db)
        share = connection_share(workers, database.allowed_connections(), db_connections)
        password = ensure_site_admin(database, os.environ.get("WEIQI_ADMIN_PASSWORD"))
        if password is not None:
            typer.echo(
                f"First run: log in as {ADMIN_USERNAME!r} with the one-time password "
                f"{password}  (then set your own on the account page)"
            )
        typer.echo(f"weiqi: http://{host}:{port}/  (API docs: http://{host}:{port}/docs)")
        # Login limits count per client address: a forged X-Forwarded-For must not reset it;
        # and the sockets' compression as asked.
        options = {
            "proxy_headers": forwarded_allow_ips is not None,
            "forwarded_allow_ips": forwarded_allow_ips,
            "ws_per_message_deflate": ws_compression,
        }
        if workers > 1:  # each worker builds the same app from the environment (server/worker.py)
            os.environ["WEIQI_DATABASE_URL"] = database.url
            os.environ["WEIQI_HTTPS_ONLY"] = "1" if https_only else ""
            os.environ["WEIQI_SIGNUP"] = signup.value
            os.environ["WEIQI_DB_POOL"] = str(share)
            database.dispose()
            uvicorn.run(
                "weiqi.server.worker:worker_app",
                factory=True,
                host=host,
                port=port,
                workers=workers,
                **options,  # type: ignore[arg-type]
            )
            return
        # PostgreSQL's pool sized to the share; SQLite has none to size (and an in-memory
        # database would be lost with its one connection)
        if database.engine.dialect.name != "sqlite":
            database.dispose()
            database = Database(database.url, connections=share)
        app = create_app(
            database,
            https_only=https_only,
            redis_url=redis_url,
            # the public pages are kept per event version unless WEIQI_PAGE_CACHE=off
            cache_pages=os.environ.get("WEIQI_PAGE_CACHE", "on").lower() not in _OFF,
            open_signup=signup is SignupPolicy.OPEN,
        )
        tune_gc()
        uvicorn.run(app, host=host, port=port, **options)  # type: ignore[arg-type]
