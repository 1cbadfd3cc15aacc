"""Omaha and stud tournament director.

``create_app(test_config=None)`` is the app factory (the Flask tutorial's
flaskr): configuration from ``instance/config.py`` and ``DIRECTOR_*``
environment variables (see ``director.config``), the database, the live-event
broker and the blueprints.  It never starts the level scheduler: ``director
serve`` or ``director scheduler`` does (``director.services.scheduler``).

The layers, each importing only those below it (``.importlinter``): ``cli``;
the web (``views``, then ``security``); ``services``; ``schemas``; the language
core (``i18n``, ``local_time``); ``models``; ``db``; and the engine
(``tournament``, ``poker``), which imports neither Flask nor SQLAlchemy.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    # The composition root wires every layer together, so it imports them when it is
    # called (the flaskr way): ``import director.poker`` loads no Flask, no database.
    from flask import Flask

    from director import config, i18n, local_time, security
    from director.cli import register_flask_commands
    from director.db import db
    from director.services import audit, dealer_pairing, publishing, read_model, uow
    from director.services import dealer as dealer_service
    from director.services.events import TournamentEvents
    from director.views import body_limits, register

    instance_path = None
    if test_config and test_config.get("INSTANCE_PATH"):
        instance_path = str(test_config["INSTANCE_PATH"])
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=instance_path or _instance_path(),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    config.load(app, test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the documented key order

    db.init_app(app)
    security.init_app(app)
    body_limits.init_app(app)   # size and JSON depth, before any hook or route reads a body
    audit.init_app(app, actor=security.actor)   # the log asks the web layer who is acting
    # After every commit, one place writes the log lines, tells the screens and moves the
    # clock's job (issue 27); its request hook runs before the log's, which writes them.
    uow.install(app, publishing.dispatch)
    i18n.init_app(app)
    local_time.init_app(app)  # times shown in the event's zone (issue 15)
    # The live screens' watcher reads the screens' state through these (the dispatcher
    # publishes through the broker, so the broker does not import the read model).
    broker = TournamentEvents(versions=read_model.versions, state=read_model.refresh)
    broker.init_app(app)
    # What another process's change means here besides its screens' event (issue 18).
    broker.on("device pairing", dealer_pairing.forget_change)
    broker.on("hands", dealer_service.forget_log)
    broker.on("*", lambda change: read_model.forget(change.tournament_id))
    register(app)

    register_flask_commands(app)
    return app


def _instance_path() -> str:
    """``DIRECTOR_INSTANCE_PATH``, else ``instance/`` beside the source (the install is editable)."""
    return os.environ.get("DIRECTOR_INSTANCE_PATH") or str(ROOT / "instance")
