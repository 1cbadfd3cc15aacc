"""Logging in and out, and the director's password.

The role checks live in ``director.security``; the names other modules import
from here (``director_required``, ``is_director``, ``bearer_token``,
``token_matches``, ``csrf_token``, ``_csrf_ok``) are kept as aliases.

The director logs in on ``/login`` with the password or PIN (set with
``director set-password`` or on ``/director/password``) or with the director
token (``director token`` prints it; it also works as ``Authorization: Bearer``).
Failed logins are counted per client in the database (``security.guarded_attempt``):
after five, that client waits five minutes (429); other clients, the director's
among them, are not locked out.  A logout ends the session everywhere (its row
goes: a copied cookie stops working); a password change, or "Log out other
sessions", ends every other director session.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from director import security
from director.schemas import N_, Schema, Str, form_body, form_fields, no_body
from director.services import Invalid, audit

bp = Blueprint("auth", __name__)

SAFE_METHODS = security.SAFE_METHODS
director_required = security.director_required
dealer_or_director_required = security.dealer_or_director_required
is_director = security.is_director
bearer_token = security.bearer_token
token_matches = security.token_matches
csrf_token = security.csrf_token
_csrf_ok = security.csrf_ok

LOGIN = Schema({
    "secret": Str(required=False, default="", max_len=200, strip=False),
    "token": Str(required=False, default="", max_len=200, strip=False),
    "next": Str(required=False, default="", max_len=500),
})
PASSWORD = Schema({
    "current": Str(required=False, default="", max_len=200, strip=False),
    "password": Str(min_len=security.PASSWORD_MIN_LENGTH, max_len=200,
                    missing_message=N_("Type the new password or PIN")),
    "confirm": Str(max_len=200, missing_message=N_("Type it again to confirm")),
})


def _safe_next(target: str | None) -> str:
    """Only a local path: never redirect to another site after a login."""
    if target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and target.startswith("/") \
                and not target.startswith("//") and "\\" not in target:
            return target
    return url_for("director.tournaments")


@bp.route("/login", methods=["GET", "POST"])
@security.public_write("anybody may try to log in (limited per client)")
@security.csrf_exempt
@form_fields(LOGIN)
def login() -> Any:
    error = None
    status = 200
    if request.method == "POST":
        try:
            data = form_body(LOGIN)
        except Invalid:
            data = {"secret": "", "token": "", "next": ""}
        candidate = data["secret"] or data["token"]
        if candidate:
            try:
                security.guarded_attempt(security.LOGIN, lambda: _verify_login(candidate))
            except security.Locked as exc:
                audit.record("login failed", "director", actor="public",
                             details={"address": security.client_address(), "locked": True})
                headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else {}
                return render_template("login.html", error=exc.description, next="",
                                       password_set=security.password_is_set()), 429, headers
            except Invalid:
                audit.record("login failed", "director", actor="public",
                             details={"address": security.client_address()})
                error = _("That is not the director token, password or PIN.")
            else:
                security.login_director()
                audit.record("login", "director", actor="director")
                return redirect(_safe_next(data["next"]))
        else:
            error = _("Type the password, PIN or director token.")
            status = 400  # the page again, with the error on it
    return render_template("login.html", error=error, next=request.values.get("next", ""),
                           password_set=security.password_is_set()), status


def _verify_login(candidate: str) -> None:
    if not (security.password_matches(candidate) or security.token_matches(candidate)):
        raise Invalid({"secret": _("That is not the director token, password or PIN.")})


@bp.post("/logout")
@security.public_write("ending one's own session")
@no_body()
def logout() -> Response:
    if security.csrf_ok():
        was = security.current_role()
        security.logout()
        if was != security.PUBLIC:
            flash(_("You are logged out."))
    return redirect(url_for("clock.index"))


@bp.post("/director/sessions/end-others")
@director_required
@no_body()
def end_other_sessions() -> Response:
    """"Log out other sessions": every director browser but this one must log in again."""
    ended = security.end_other_director_sessions()
    audit.record("other sessions logged out", "director", details={"sessions": ended})
    flash(ngettext("%(num)s other session is logged out.",
                   "%(num)s other sessions are logged out.", ended))
    return redirect(url_for("auth.password"))


@bp.route("/director/password", methods=["GET", "POST"])
@director_required
@form_fields(PASSWORD)
def password() -> Any:
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            data = form_body(PASSWORD)
            if security.password_is_set():      # a change: the current one first (throttled)
                security.guarded_attempt("password", lambda: _verify_current(data["current"]))
            if data["password"] != data["confirm"]:
                raise Invalid({"confirm": _("The two entries differ")})
            security.set_password(data["password"],
                                  keep=session.get(security.DIRECTOR_SESSION_KEY))
        except Invalid as exc:
            errors = exc.errors
        else:
            audit.record("password changed", "director")
            flash(_("The director password is set. Use it to log in on any device; "
                    "every other session is logged out."))
            return redirect(url_for("director.tournaments"))
    return render_template("password.html", errors=errors,
                           password_set=security.password_is_set()), 400 if errors else 200


def _verify_current(current: str) -> None:
    """The password being changed, or the director token (for a forgotten password)."""
    if not (security.password_matches(current) or security.token_matches(current)):
        raise Invalid({"current": _("That is not the current password: the password is not "
                                    "changed. Type the current password, or the director "
                                    "token if it is forgotten.")})


@bp.app_context_processor
def inject_auth() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "is_director": is_director,
            "current_role": security.current_role}
