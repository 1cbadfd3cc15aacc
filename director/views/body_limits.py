"""The limits on every request's body, checked once before any route reads it.

* Size: ``MAX_CONTENT_LENGTH`` (2 MB) for every route; a view marked with
  :func:`allow_body` takes more (the players import: a 50,000-player CSV).
  A larger body is a 413 with a sentence ("The body is larger than 2 MB"),
  in JSON under ``/api/``, before a byte of it is parsed.
* Depth: a body that is JSON (its first character is ``[`` or ``{``, whatever
  the content type, since ``json_body`` reads any body as JSON) may nest
  arrays and objects at most ``MAX_JSON_DEPTH`` (32) levels deep.  Python's
  parser recurses once per level: 100,000 nested lists raised
  ``RecursionError`` (a 500) on 44 routes, the anonymous
  ``POST /api/dealer/pair`` among them.  The depth is counted without
  parsing (``director.schemas.json_depth``), and a deeper body is a 400
  naming ``body``, for every route, before authentication (it costs less
  than a password check).

:func:`init_app` registers the check first among the app's
``before_request`` hooks, so that no other hook (the NUL check, the audit)
reads a body that is too large or too deep.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, current_app, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.routing import RoutingException

from director.schemas import DEEP_JSON, FORM_TYPES, MAX_JSON_DEPTH, json_depth

F = TypeVar("F", bound=Callable[..., Any])

MB = 1024 * 1024


def allow_body(max_bytes: int) -> Callable[[F], F]:
    """Mark a view that takes a file as its body, up to ``max_bytes`` (more than
    ``MAX_CONTENT_LENGTH``): its service decodes the bytes and checks the text, so the
    NUL check (``security``) leaves them to it (UTF-16 text is half NUL bytes)."""

    def mark(view: F) -> F:
        view.max_body = max_bytes  # type: ignore[attr-defined]
        view.file_body = True  # type: ignore[attr-defined]
        return view

    return mark


def view_limit(app: Flask, endpoint: str | None) -> int | None:
    """The largest body the view of ``endpoint`` takes: its ``allow_body``, else
    ``MAX_CONTENT_LENGTH`` (also for no view: a 404 or a 405); None: no limit set."""
    limit = getattr(app.view_functions.get(endpoint or ""), "max_body", None)
    limit = app.config.get("MAX_CONTENT_LENGTH") if limit is None else limit
    return None if limit is None else int(limit)


def _limit() -> int | None:
    return view_limit(current_app, request.endpoint)


def largest_body(app: Flask) -> int:
    """The largest body any of ``app``'s routes takes (``MAX_CONTENT_LENGTH``, or a
    view's ``allow_body``)."""
    limits = [int(getattr(view, "max_body", 0)) for view in app.view_functions.values()]
    return max([int(app.config.get("MAX_CONTENT_LENGTH") or 0), *limits])


def route_limits(app: Flask) -> Callable[[str, str], int | None]:
    """For the server's door, which reads a large body before the app runs: the
    largest body the route of (method, path) takes, as :func:`check_body` will check
    it (:func:`view_limit`)."""
    adapter = app.url_map.bind("localhost")

    def limit(method: str, path: str) -> int | None:
        try:
            endpoint, _ = adapter.match(path, method)
        except (HTTPException, RoutingException):        # 404, 405, a redirect
            return view_limit(app, None)
        return view_limit(app, str(endpoint))

    return limit


def size_words(limit: int) -> str:
    """A body limit as a person reads it: ``2 MB``, ``512 kB``."""
    return f"{limit / MB:g} MB" if limit >= MB else f"{limit // 1024} kB"


def _too_large(limit: int) -> None:
    abort(413, description=_("The body is larger than %(size)s", size=size_words(limit)))


def check_body() -> None:
    """Before every request: the body's size, and how deep its JSON nests (see the module)."""
    limit = _limit()
    request.max_content_length = limit
    if limit is not None and (request.content_length or 0) > limit:
        _too_large(limit)
    if request.mimetype in FORM_TYPES:
        return
    try:
        raw = request.get_data(cache=True)
    except RequestEntityTooLarge:     # a chunked body, without Content-Length
        _too_large(limit or 0)
    start = raw.lstrip()[:4].replace(b"\x00", b"")
    if start.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        start = start.lstrip(b"\xef\xbb\xbf\xff\xfe").lstrip()
    if start[:1] in (b"[", b"{") and raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH \
            and json_depth(raw) > MAX_JSON_DEPTH:
        abort(400, description=_(DEEP_JSON, max=MAX_JSON_DEPTH))


def init_app(app: Flask) -> None:
    """Run :func:`check_body` before every other ``before_request`` hook."""
    app.before_request_funcs.setdefault(None, []).insert(0, check_body)
