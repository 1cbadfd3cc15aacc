"""Alembic's environment: the migrations run on the connection that
``director.migrations`` hands over (the app's own engine and its settings,
e.g. the PostgreSQL search path), never on a URL of their own.  The target is
the models' metadata, for ``compare_metadata``; SQLite alters tables in batch
mode (copy, move, rename), since it can add a column but not much more."""

from __future__ import annotations

from alembic import context

from director import models  # noqa: F401  (registers every table)
from director.db import db
from director.models import audit  # noqa: F401  (the audit_log table)

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=db.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
    compare_server_default=True,
)
with context.begin_transaction():
    context.run_migrations()
