"""Error answers: JSON under ``/api/`` and for the live streams, HTML pages elsewhere.

Routing errors (404, 405) happen before a blueprint is chosen, so the
handlers are registered on the app and decide by path.  An unexpected
exception is logged and answered as a 500 in the same shape, never a
traceback.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from director.services import Invalid, NotFound

MESSAGES = {
    400: "The request is not valid",
    401: "This needs the director token: send Authorization: Bearer <token>",
    403: "You may not do this",
    404: "There is no such page or tournament",
    405: "This address does not take that method",
    413: "The upload is too large",
    500: "Something went wrong on the server; it has been logged",
    503: "The server is busy; try again in a moment",
}


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.endswith("/events")


def answer(status: int, message: str | None = None,
           errors: dict[str, str] | None = None) -> tuple[Response | str, int]:
    message = message or MESSAGES.get(status, "Error")
    if wants_json():
        body: dict[str, object] = {"error": message}
        if errors is not None:
            body["errors"] = errors
        return jsonify(body), status
    return render_template("error.html", status=status, message=message, errors=errors), status


def register(app: Flask) -> None:
    @app.errorhandler(Invalid)
    def invalid(exc: Invalid) -> tuple[Response | str, int]:
        return answer(400, "Please correct the fields named below", exc.errors)

    @app.errorhandler(NotFound)
    def not_found(exc: NotFound) -> tuple[Response | str, int]:
        return answer(404, str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[Response | str, int] | HTTPException:
        status = exc.code or 500
        if status < 400:  # redirects raised as exceptions (e.g. RequestRedirect)
            return exc
        description = exc.description if status in (400, 413, 503) else None
        errors = {"body": str(description)} if status == 400 and description else None
        response = answer(status, description if status != 400 else None, errors)
        if status == 405 and isinstance(exc, HTTPException):
            allowed = exc.get_response().headers.get("Allow")
            if allowed and isinstance(response[0], Response):
                response[0].headers["Allow"] = allowed
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[Response | str, int]:
        if isinstance(exc, HTTPException):  # pragma: no cover (handled above)
            return answer(exc.code or 500)
        app.logger.exception("unexpected error", exc_info=exc)
        return answer(InternalServerError.code)
