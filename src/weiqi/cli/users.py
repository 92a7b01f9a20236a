"""``weiqi users …``: accounts and per-event roles from the command line (as a site
administrator: whoever can run commands on the server owns its database)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from weiqi.roles import Role

if TYPE_CHECKING:
    from weiqi.store.database import Database

users_app = typer.Typer(
    help="Accounts and per-event roles (裁判长, 裁判员, …).", no_args_is_help=True
)

DbOption = Annotated[
    str | None, typer.Option("--db", help="Database URL; default $WEIQI_DATABASE_URL or SQLite.")
]
PasswordOption = Annotated[
    str,
    typer.Option(prompt=True, hide_input=True, confirmation_prompt=True, help="Asked if omitted."),
]


def _db(url: str | None) -> Database:
    from weiqi.store.database import Database, database_url

    db = Database(database_url(url))
    db.upgrade()
    return db


@users_app.command("add")
def add(
    username: str,
    password: PasswordOption,
    name: Annotated[str, typer.Option(help="Display name, e.g. 李明.")] = "",
    admin: Annotated[bool, typer.Option("--admin", help="A site administrator.")] = False,
    db: DbOption = None,
) -> None:
    """Create a user."""
    from weiqi.services.accounts import create_user
    from weiqi.services.actor import Actor

    user = create_user(_db(db), Actor.local(), username, password, name, admin)
    typer.echo(f"created user {user.username} (id {user.id})")


@users_app.command("list")
def list_(
    as_json: Annotated[bool, typer.Option("--json", help="JSON for machines.")] = False,
    db: DbOption = None,
) -> None:
    """Every user and the roles they hold."""
    from weiqi.services.accounts import list_users, roles_of
    from weiqi.services.actor import Actor

    database = _db(db)
    rows = [(u, roles_of(database, u.id)) for u in list_users(database, Actor.local())]
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "id": u.id,
                        "username": u.username,
                        "display_name": u.display_name,
                        "is_admin": u.is_admin,
                        "roles": [{"event_id": g.event_id, "role": g.role.value} for g in grants],
                    }
                    for u, grants in rows
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    table = Table("id", "username", "name", "admin", "roles")
    for u, grants in rows:
        roles = ", ".join(f"{g.role.label} @ {g.event_name} ({g.event_id})" for g in grants)
        table.add_row(str(u.id), u.username, u.display_name, "yes" if u.is_admin else "", roles)
    Console().print(table)


@users_app.command("set-password")
def set_password(username: str, password: PasswordOption, db: DbOption = None) -> None:
    """Set a user's password (e.g. a forgotten administrator password)."""
    from weiqi.services.accounts import reset_password
    from weiqi.services.actor import Actor

    user = reset_password(_db(db), Actor.local(), username, password)
    typer.echo(f"password of {user.username} set")


@users_app.command("grant")
def grant(username: str, event_id: int, role: Role, db: DbOption = None) -> None:
    """Give USERNAME the ROLE in event EVENT_ID."""
    from weiqi.services.accounts import grant_role, user_named
    from weiqi.services.actor import Actor

    database = _db(db)
    g = grant_role(database, Actor.local(), user_named(database, username).id, event_id, role)
    typer.echo(f"{g.username} is {g.role.label} of {g.event_name}")


@users_app.command("revoke")
def revoke(username: str, event_id: int, role: Role, db: DbOption = None) -> None:
    """Take the ROLE in event EVENT_ID away from USERNAME."""
    from weiqi.services.accounts import revoke_role, user_named
    from weiqi.services.actor import Actor

    database = _db(db)
    revoke_role(database, Actor.local(), user_named(database, username).id, event_id, role)
    typer.echo(f"{username} is no longer {role.label} of event {event_id}")


def register(app: typer.Typer) -> None:
    app.add_typer(users_app, name="users")
