"""Who may write: the director, by token.

``director_required`` is the one place that decides.  A request is the
director's when it carries ``Authorization: Bearer <token>`` (API clients,
overlays, scripts) or comes from a browser session that logged in with the
token on ``/login``.  A session's unsafe requests must also carry the CSRF
token (form field ``csrf_token`` or header ``X-CSRF-Token``).  A later issue
adds roles here (floor, dealer) without touching the views.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Callable
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

bp = Blueprint("auth", __name__)

F = TypeVar("F", bound=Callable[..., Any])
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def token_matches(candidate: str | None) -> bool:
    expected = str(current_app.config["TOKEN"])
    return bool(candidate) and hmac.compare_digest(
        str(candidate).strip().encode(), expected.encode()
    )


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return str(token)


def is_director() -> bool:
    """True for a valid bearer token or a logged-in director session."""
    token = bearer_token()
    if token is not None:
        return token_matches(token)
    return bool(session.get("director"))


def _csrf_ok() -> bool:
    if request.method in SAFE_METHODS or bearer_token() is not None:
        return True
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
    expected = session.get("csrf")
    return bool(sent and expected and hmac.compare_digest(str(sent), str(expected)))


def director_required(view: F) -> F:
    """Let only the director through: 401 (API) or a redirect to the login page."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_director():
            if request.blueprint == "api" or request.accept_mimetypes.best == "application/json":
                abort(401)
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        if not _csrf_ok():
            abort(400, description="The form expired: reload the page and try again")
        return view(*args, **kwargs)

    return cast(F, wrapped)


def _safe_next(target: str | None) -> str:
    """Only a local path: never redirect to another site after a login."""
    if target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and target.startswith("/") \
                and not target.startswith("//"):
            return target
    return url_for("director.tournaments")


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str:
    error = None
    if request.method == "POST":
        if token_matches(request.form.get("token")):
            session.clear()
            session.permanent = True
            session["director"] = True
            csrf_token()
            return redirect(_safe_next(request.form.get("next")))
        error = "That is not the director token. Run `director token` on the server to see it."
    return render_template("login.html", error=error, next=request.values.get("next", ""))


@bp.post("/logout")
def logout() -> Response:
    if _csrf_ok():
        session.clear()
        flash("You are logged out.")
    return redirect(url_for("clock.index"))


@bp.app_context_processor
def inject_auth() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "is_director": is_director}
