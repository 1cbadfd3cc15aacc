"""Omaha and stud tournament director.

``create_app(test_config=None)`` is the app factory (the Flask tutorial's
flaskr): configuration from ``instance/config.py`` and ``DIRECTOR_*``
environment variables (see ``director.config``), the database, the live-event
broker and the blueprints.  It never starts the level scheduler: ``director
serve`` or ``director scheduler`` does (``director.services.scheduler``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from director import config, i18n, local_time, models  # noqa: F401  (models registers the tables)
    from director.db import db
    from director.services.events import TournamentEvents
    from director.views import register

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
    from director import security
    from director.models import audit as _audit_model  # noqa: F401  (the audit_log table)
    from director.services import audit

    security.init_app(app)
    audit.init_app(app)
    i18n.init_app(app)
    local_time.init_app(app)  # times shown in the event's zone (issue 15)
    TournamentEvents().init_app(app)
    register(app)
    from director.views import house_rules as house_rules_views

    app.register_blueprint(house_rules_views.bp)
    from director.views import chip_race, screens, wizard  # issue 17: wizard, chip race, screens

    for issue_17 in (wizard, chip_race, screens):
        app.register_blueprint(issue_17.bp)

    from director.cli import register_flask_commands

    register_flask_commands(app)
    return app


def _instance_path() -> str:
    """``DIRECTOR_INSTANCE_PATH``, else ``instance/`` beside the source (the install is editable)."""
    import os

    return os.environ.get("DIRECTOR_INSTANCE_PATH") or str(ROOT / "instance")
