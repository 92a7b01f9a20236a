"""The database: one SQLAlchemy ``Base``, the models, the session factory and Alembic migrations.

Only ``weiqi.services`` opens transactions (``Database.transaction``); routes and CLI commands
call services.
"""
