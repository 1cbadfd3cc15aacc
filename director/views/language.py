"""The language switch: a visitor's choice (``/language/<code>``) and the event's default
language (the director's form on the tournament page).

The translation functions themselves live below the services, in ``director.i18n``;
only these routes are web.  The blueprint keeps the name ``i18n`` (``i18n.choose``,
``i18n.event_language``), which the templates link to.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, redirect, request, session, url_for
from werkzeug.wrappers import Response

from director import security
from director.i18n import LANGUAGES, gettext
from director.schemas import form_fields
from director.services import Invalid
from director.services import tournaments as tournament_service
from director.views.auth import director_required

bp = Blueprint("i18n", __name__)


def _safe_next(target: str | None) -> str:
    """A path on this site to go back to; anything else (another host, ``//x``) goes home."""
    if target:
        parts = urlsplit(target)
        if (not parts.scheme and not parts.netloc and target.startswith("/")
                and not target.startswith("//") and "\\" not in target):
            return target
    referrer = request.referrer
    if referrer:
        parts = urlsplit(referrer)
        if parts.netloc == request.host and parts.path.startswith("/") \
                and not parts.path.startswith("//"):
            return parts.path + (f"?{parts.query}" if parts.query else "")
    return url_for("clock.index")


@bp.get("/language/<code>")
@security.public_write("a visitor picks a language (a session preference; GET, from a link)")
def choose(code: str) -> Response:
    """Store the user's language in the session and go back to the page (a safe redirect)."""
    if code not in LANGUAGES:
        abort(404)
    session["language"] = code
    return redirect(_safe_next(request.values.get("next")))  # type: ignore[return-value]


@bp.post("/director/<int:tournament_id>/language")
@director_required
@form_fields("language")
def event_language(tournament_id: int) -> Response:
    """The director sets the event's default language (the tournament page's form)."""
    try:
        tournament_service.set_language(tournament_id, request.form.get("language", ""))
    except Invalid as exc:
        for message in exc.errors.values():
            flash(message, "error")
    else:
        flash(gettext("The event's language is saved."))
    return redirect(url_for("director.tournament", tournament_id=tournament_id))  # type: ignore[return-value]
