"""Error answers: JSON under ``/api/`` and for the live streams, HTML pages elsewhere.

Routing errors (404, 405) happen before a blueprint is chosen, so the
handlers are registered on the app and decide by path.  An unexpected
exception is logged and answered as a 500 in the same shape, never a
traceback.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from director.i18n import N_
from director.services import Invalid, NotFound

MESSAGES = {
    400: N_("The request is not valid"),
    401: N_("This needs the director (log in, or send Authorization: Bearer <token>) "
            "or the table's paired dealer tablet"),
    403: N_("You may not do this"),
    404: N_("There is no such page or tournament"),
    405: N_("This address does not take that method"),
    413: N_("The upload is too large"),
    429: N_("Too many attempts: wait a few minutes"),
    500: N_("Something went wrong on the server; it has been logged"),
    503: N_("The server is busy; try again in a moment"),
}


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.endswith("/events")


def answer(status: int, message: str | None = None,
           errors: dict[str, str] | None = None) -> tuple[Response | str, int]:
    message = message or _(MESSAGES.get(status, N_("Error")))
    if wants_json():
        body: dict[str, object] = {"error": message}
        if errors is not None:
            body["errors"] = errors
        return jsonify(body), status
    return render_template("error.html", status=status, message=message, errors=errors), status


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[Response | str, int]:
        return answer(400, "The form expired: reload the page and try again",
                      {"csrf_token": "The form expired: reload the page and try again"})

    @app.errorhandler(Invalid)
    def invalid(exc: Invalid) -> tuple[Response | str, int]:
        return answer(400, _("Please correct the fields named below"), exc.errors)

    @app.errorhandler(NotFound)
    def not_found(exc: NotFound) -> tuple[Response | str, int]:
        return answer(404, str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[Response | str, int] | HTTPException:
        status = exc.code or 500
        if status < 400:  # redirects raised as exceptions (e.g. RequestRedirect)
            return exc
        description = exc.description if status in (400, 403, 413, 429, 503) else None
        errors = {"body": str(description)} if status == 400 and description else None
        response = answer(status, description if status != 400 else None, errors)
        if status in (405, 429) and isinstance(response[0], Response):
            original = exc.get_response().headers  # keep "Allow" and "Retry-After"
            for name in ("Allow", "Retry-After"):
                if original.get(name):
                    response[0].headers[name] = original[name]
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[Response | str, int]:
        if isinstance(exc, HTTPException):  # pragma: no cover (handled above)
            return answer(exc.code or 500)
        app.logger.exception("unexpected error", exc_info=exc)
        return answer(InternalServerError.code)
