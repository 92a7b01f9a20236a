"""Alembic environment: always online, on the connection ``weiqi.store.migrate`` hands over."""

from __future__ import annotations

from alembic import context

from weiqi.store import load_models
from weiqi.store.base import Base

load_models()

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through weiqi.store.migrate, which passes a connection")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite cannot ALTER most things; batch mode copies the table instead.
    render_as_batch=True,
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
