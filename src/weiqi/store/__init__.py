"""The database: one SQLAlchemy ``Base``, the models, the session factory and Alembic migrations.

Only ``weiqi.services`` opens transactions (``Database.transaction``); routes and CLI commands
call services. Models may live in any module of this package: ``load_models`` imports them all,
so Alembic (and the test that compares models with migrations) sees every table.
"""

from __future__ import annotations

import importlib
import pkgutil

_NOT_MODELS = {"migrations", "migrate", "database"}


def load_models() -> None:
    """Import every module of ``weiqi.store`` so its tables register on ``Base.metadata``."""
    for info in pkgutil.iter_modules(__path__):
        if info.name not in _NOT_MODELS:
            importlib.import_module(f"{__name__}.{info.name}")
