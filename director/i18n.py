"""Languages: English, Bahasa Indonesia and Svenska (Flask-Babel).

Every user-facing string goes through ``gettext`` (``_`` in templates and
views).  The engine's messages are ``RuleViolation`` templates with
parameters; ``translate_violation`` translates them at the edge, so the engine
itself stays free of Flask.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request, session
from flask_babel import Babel, gettext

from director.poker.errors import RuleViolation

LANGUAGES: dict[str, str] = {"en": "English", "id": "Bahasa Indonesia", "sv": "Svenska"}
DEFAULT_LANGUAGE = "en"

babel = Babel()


def select_locale() -> str:
    """The user's choice stored in the session, then the browser's Accept-Language."""
    chosen = session.get("language")
    if chosen in LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANGUAGE


def translate_violation(error: RuleViolation) -> str:
    """The engine's sentence in the user's language (the template is the msgid)."""
    params: dict[str, Any] = dict(error.params)
    return gettext(error.template, **params) if params else gettext(error.template)


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(app.root_path + "/translations"))
    babel.init_app(app, locale_selector=select_locale)
