"""Roles, CSRF, security headers, guess limits, director sessions and trusted proxies.

Three roles (issue 7):

* ``director``: a browser session that logged in with the director's
  password/PIN or token, or any request with ``Authorization: Bearer <token>``
  carrying the director token;
* ``dealer``: paired to one table.  A tablet's browser session holds
  ``session["dealer_table_id"]`` (set with ``login_dealer(table_id)``), or a
  request carries ``Authorization: Bearer <device token>`` that a lookup
  registered with ``register_dealer_token_lookup`` maps to its table;
* ``public``: everybody else, read-only (clock, find my seat, results).

Every write route declares its role with one of the decorators below; each
sets ``view.required_role`` (``"director"``, ``"dealer"`` or ``"public"``),
which ``tests/web/test_roles_url_map.py`` reads for every POST/PUT/PATCH/DELETE
rule of the URL map:

* ``director_required``: the director only (401 for the API, a redirect to the
  login page for a browser);
* ``dealer_or_director_required`` (or ``require(DEALER, table_arg="table_id")``):
  the dealer of the table named by the URL argument, or the director; 401
  without credentials, 403 for another table's dealer;
* ``public_write("why")``: a write anybody may make (the login form itself).

CSRF: Flask-WTF's ``CSRFProtect``.  A request that carries its authority in a
cookie (a director or dealer session) must carry the token (form field
``csrf_token`` or header ``X-CSRF-Token``); a request with a Bearer token is
exempt (a cross-site page cannot set that header), and so is one with no
session authority at all (it has nothing to steal; the role check refuses it).

Headers: a CSP that allows only our own files (``'self'``; images also
``data:`` for QR codes), no framing, no sniffing, same-origin referrers.

Guess limits (issue 26): a login, a change of the password and a tablet's
pairing code are guesses at a secret, limited in the database
(``services.guess_limits``), so that every server process counts the same
guesses.  ``LOGIN_MAX_FAILURES`` (5) wrong logins from one client within
``LOGIN_WINDOW_SECONDS`` (15 min) lock that client out for
``LOGIN_LOCK_SECONDS`` (5 min): 429 with ``Retry-After``; the right password
clears that client's failures.  A pairing code is limited twice: per client
(``PAIRING_*``, the same numbers) and per table: ``PAIRING_TABLE_MAX_FAILURES``
(5) wrong codes for one table within ``PAIRING_TABLE_WINDOW_SECONDS`` (a day)
lock that table's pairing until the director resets it on the "Dealer tablets"
page.  A valid code clears nothing: pairing one's own table between guesses at
another table leaves the guesses counted.

The client is ``request.remote_addr``: the peer, or behind a reverse proxy
listed in ``TRUSTED_PROXIES`` the address the proxy reports
(``TrustedProxies``); ``X-Forwarded-*`` from anybody else is dropped.

Director sessions (issue 26): the session cookie holds the id of a row
(``services.director_sessions``); a logout deletes it, a password change ends
every other one.  The director token as ``Bearer`` needs no row.
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import ipaddress
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_babel import ngettext
from flask_wtf.csrf import CSRFProtect, generate_csrf, validate_csrf
from sqlalchemy.exc import OperationalError, ProgrammingError
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from director.db import db, utcnow
from director.errors import Invalid
from director.i18n import gettext as _
from director.services import director_sessions, guess_limits
from director.services.dealer_pairing import TABLE_SCOPE, device_table
from director.services.guess_limits import Limit

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

DIRECTOR = "director"
DEALER = "dealer"
PUBLIC = "public"
ROLES = (DIRECTOR, DEALER, PUBLIC)

DEALER_SESSION_KEY = "dealer_table_id"
DIRECTOR_SESSION_KEY = "director"
CSRF_SESSION_KEY = "csrf"
# Session keys that carry authority: a write from such a session needs the
# CSRF token.  ``dealer_tables`` is the dealer tablets' pairing (views/dealer_api.py).
AUTHORITY_SESSION_KEYS = [DIRECTOR_SESSION_KEY, "dealer_table_id", "dealer_tables"]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PASSWORD_FILE = "director_password"
PASSWORD_MIN_LENGTH = 6

csrf = CSRFProtect()

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

# --------------------------------------------------------------------------- who is asking


def bearer_token() -> str | None:
    """The ``Authorization: Bearer`` value, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def token_matches(candidate: str | None) -> bool:
    """Whether ``candidate`` is the director token (constant-time)."""
    expected = str(current_app.config["TOKEN"])
    return bool(candidate) and hmac.compare_digest(
        str(candidate).strip().encode(), expected.encode()
    )


_dealer_lookups: list[Callable[[str], int | None]] = []


def register_dealer_token_lookup(lookup: Callable[[str], int | None]) -> None:
    """Let the dealer module map a device's bearer token to its table id.

    ``lookup(token)`` runs inside the request (app context, ``db.session``
    usable) and returns the table id, or ``None`` for an unknown or revoked
    token.  Registering the same function twice is harmless.
    """
    if lookup not in _dealer_lookups:
        _dealer_lookups.append(lookup)


def is_director() -> bool:
    """True for the director token as Bearer, or a director browser session that
    has not ended (its row is still there: looked up once per request)."""
    token = bearer_token()
    if token is not None:
        return token_matches(token)
    if "director_session_valid" not in g:
        g.director_session_valid = DIRECTOR_SESSION_KEY in session and director_sessions.valid(
            session.get(DIRECTOR_SESSION_KEY), utcnow(), _session_lifetime())
    return bool(g.director_session_valid)


def _session_lifetime() -> float:
    lifetime = current_app.permanent_session_lifetime
    return float(lifetime.total_seconds())


def dealer_table_id() -> int | None:
    """The table this request's dealer is paired to (Bearer device token or session).

    Looked up once per request (the device-token lookup is a query).
    """
    if "dealer_table_id" not in g:
        g.dealer_table_id = _dealer_table_id()
    return cast(int | None, g.dealer_table_id)


def _dealer_table_id() -> int | None:
    token = bearer_token()
    if token is not None:
        if token_matches(token):
            return None
        for lookup in _dealer_lookups:
            table_id = lookup(token)
            if table_id is not None:
                return int(table_id)
        return None
    value = session.get(DEALER_SESSION_KEY)
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def current_role() -> str:
    """``director``, ``dealer`` or ``public``: who is asking."""
    if is_director():
        return DIRECTOR
    return DEALER if dealer_table_id() is not None else PUBLIC


def actor() -> str:
    """Who, for the log: ``director``, ``dealer:table 3`` or ``public``."""
    role = current_role()
    if role == DEALER:
        return f"dealer:table {dealer_table_id()}"
    tables = session.get("dealer_tables")  # the tablets' own pairing (views/dealer_api.py)
    if role == PUBLIC and isinstance(tables, dict) and tables:
        return "dealer:table " + ",".join(sorted(map(str, tables)))[:25]
    return role


def login_director() -> None:
    """Start a director session (a new session: no fixation), with its row."""
    director_sessions.end(session.get(DIRECTOR_SESSION_KEY))
    session.clear()
    session.permanent = True
    session[DIRECTOR_SESSION_KEY] = director_sessions.start(
        utcnow(), _session_lifetime(), client_address())
    g.director_session_valid = True
    csrf_token()


def logout() -> None:
    """End this browser's session: a director's row goes, so a copy of the cookie
    stops working too."""
    director_sessions.end(session.get(DIRECTOR_SESSION_KEY))
    session.clear()
    g.pop("director_session_valid", None)
    g.pop("dealer_table_id", None)


def end_other_director_sessions() -> int:
    """Every director session but this browser's ends (password change, or the
    "Log out other sessions" button).  Returns how many ended."""
    return director_sessions.end_others(session.get(DIRECTOR_SESSION_KEY))


def login_dealer(table_id: int) -> None:
    """Start a dealer session paired to ``table_id`` (a new session: no fixation).

    A director's browser that pairs itself as a tablet stops being the
    director's: log in again for that.
    """
    language = session.get("language")  # the language picked on this tablet stays
    director_sessions.end(session.get(DIRECTOR_SESSION_KEY))
    session.clear()
    g.pop("director_session_valid", None)
    session.permanent = True
    session[DEALER_SESSION_KEY] = int(table_id)
    if language:
        session["language"] = language
    g.pop("dealer_table_id", None)
    csrf_token()


# --------------------------------------------------------------------------- CSRF


def csrf_token() -> str:
    """The CSRF token for forms (``csrf_token`` field) and ``X-CSRF-Token`` headers.

    Flask-WTF signs the session's secret; the signed value is kept in
    ``session["csrf"]`` so that it stays the same for the whole session
    (``WTF_CSRF_TIME_LIMIT`` is off): every open page keeps a valid token,
    and code that compares with ``session["csrf"]`` (the foundation's helper)
    keeps working.
    """
    token = session.get(CSRF_SESSION_KEY)
    if isinstance(token, str) and session.get("csrf_token"):
        return token
    token = str(generate_csrf())
    session[CSRF_SESSION_KEY] = token
    return token


def csrf_ok() -> bool:
    """Whether this request may write: safe method, Bearer token, or a valid CSRF token."""
    if request.method in SAFE_METHODS or bearer_token() is not None:
        return True
    sent = request.headers.get("X-CSRF-Token") or request.headers.get("X-CSRFToken") \
        or request.form.get("csrf_token")
    try:
        validate_csrf(sent)
    except Exception:  # noqa: BLE001 - ValidationError: missing, expired, forged
        return False
    return True


def _session_has_authority() -> bool:
    return any(session.get(key) for key in AUTHORITY_SESSION_KEYS)


def _refuse_nul() -> None:
    """Before every request: no NUL character in a body or query (PostgreSQL refuses
    them in text, and no real input has one): 400 naming the place."""
    if any("\x00" in value for value in request.args.values()):
        abort(400, description="The address contains a NUL character")
    if request.method in SAFE_METHODS:
        return
    if request.mimetype == "multipart/form-data":  # uploads: look at the fields only
        found = any("\x00" in value for value in request.form.values())
    elif getattr(current_app.view_functions.get(request.endpoint or ""), "file_body", False):
        return    # a file's bytes (UTF-16 is half NULs): its service checks the decoded text
    else:
        raw = request.get_data(cache=True)
        found = b"\x00" in raw or b"\\u0000" in raw.lower()
    if found:
        abort(400, description="The body contains a NUL character")


def _check_csrf() -> None:
    """Before every request: a cookie-authorised write needs the CSRF token."""
    if request.method in SAFE_METHODS or bearer_token() is not None:
        return
    view = current_app.view_functions.get(request.endpoint or "")
    if view is not None and getattr(view, "csrf_exempt", False):
        return
    if _session_has_authority():
        csrf.protect()


# --------------------------------------------------------------------------- roles


def _mark(view: Callable[..., Any], wrapped: Callable[..., Any], role: str) -> None:
    # On both: an outer decorator using functools.wraps(view) keeps the mark.
    for function in (view, wrapped):
        function.required_role = role  # type: ignore[attr-defined]


def _wants_json() -> bool:
    return (request.blueprint == "api" or request.path.startswith("/api/")
            or request.accept_mimetypes.best == "application/json"
            or request.is_json)


def _refuse(status: int) -> Any:
    if status == 401 and not _wants_json():
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    abort(status)


def director_required(view: F) -> F:
    """The director only: 401 (API) or a redirect to the login page; then the CSRF check."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_director():
            return _refuse(401)
        if not csrf_ok():
            abort(400, description="The form expired: reload the page and try again")
        return view(*args, **kwargs)

    _mark(view, wrapped, DIRECTOR)
    return cast(F, wrapped)


def dealer_or_director_required(view: F | None = None, *, table_arg: str = "table_id") -> Any:
    """The dealer of the table in the URL argument ``table_arg``, or the director.

    Use bare (``@dealer_or_director_required``) for a ``table_id`` argument,
    or ``@dealer_or_director_required(table_arg="number")``.
    """

    def decorate(inner: F) -> F:
        @functools.wraps(inner)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if not is_director():
                paired = dealer_table_id()
                if paired is None:
                    return _refuse(401)
                wanted = kwargs.get(table_arg)
                if wanted is None or int(wanted) != paired:
                    abort(403, description="This tablet is paired to another table")
            if not csrf_ok():
                abort(400, description="The form expired: reload the page and try again")
            return inner(*args, **kwargs)

        _mark(inner, wrapped, DEALER)
        return cast(F, wrapped)

    return decorate(view) if view is not None else decorate


def require(role: str, *, table_arg: str = "table_id") -> Callable[[F], F]:
    """``@require(DIRECTOR)``, ``@require(DEALER, table_arg=...)`` or ``@require(PUBLIC)``."""
    if role == DIRECTOR:
        return director_required
    if role == DEALER:
        return cast(Callable[[F], F], dealer_or_director_required(table_arg=table_arg))
    if role == PUBLIC:
        return public_write("declared public")
    raise ValueError(f"unknown role {role!r}")


def public_write(reason: str) -> Callable[[F], F]:
    """Declare a write route open to everybody (say why; it is listed in the role test)."""

    def decorate(view: F) -> F:
        view.required_role = PUBLIC  # type: ignore[attr-defined]
        view.public_reason = reason  # type: ignore[attr-defined]
        return view

    return decorate


def csrf_exempt(view: F) -> F:
    """No CSRF token needed (the login form: a session starts there)."""
    view.csrf_exempt = True  # type: ignore[attr-defined]
    return view


# --------------------------------------------------------------------------- password


def password_path(app: Flask | None = None) -> Path:
    return Path((app or current_app).instance_path) / PASSWORD_FILE


def password_is_set(app: Flask | None = None) -> bool:
    app = app or current_app
    return bool(app.config.get("PASSWORD_HASH")) or password_path(app).is_file()


def set_password(secret: str, app: Flask | None = None, *, keep: str | None = None) -> None:
    """Store the director's password or PIN, hashed (scrypt), in ``instance/`` (mode 0600),
    and end every director session but ``keep`` (the cookie id of the browser that
    changed it; ``director set-password`` keeps none)."""
    if len(secret.strip()) < PASSWORD_MIN_LENGTH:
        raise Invalid({"password": f"Use at least {PASSWORD_MIN_LENGTH} characters or digits"})
    app = app or current_app
    path = password_path(app)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(generate_password_hash(secret.strip(), method="scrypt") + "\n")
    os.replace(temporary, path)
    with app.app_context():
        try:
            director_sessions.end_others(keep)
        except (OperationalError, ProgrammingError):   # no tables yet: no sessions either
            db.session.rollback()


def password_matches(candidate: str | None, app: Flask | None = None) -> bool:
    """Whether ``candidate`` is the director's password or PIN (``False`` when none is set)."""
    app = app or current_app
    if not candidate:
        return False
    stored = str(app.config.get("PASSWORD_HASH") or "")
    if not stored:
        path = password_path(app)
        if not path.is_file():
            return False
        stored = path.read_text(encoding="utf-8").strip()
    try:
        return check_password_hash(stored, candidate.strip())
    except (ValueError, TypeError):
        return False


# --------------------------------------------------------------------------- guess limits

LOGIN = "login"
PASSWORD = "password"
PAIRING = "pairing"
PAIRING_TABLE = TABLE_SCOPE


def limit(scope: str, app: Flask | None = None) -> Limit:
    """The limit of ``scope`` from the settings: ``LOGIN_*`` (also the password
    change's check of the current password), ``PAIRING_*`` (per client) and
    ``PAIRING_TABLE_*`` (per table; locked until the director resets it)."""
    config = (app or current_app).config
    prefix = {LOGIN: "LOGIN", PASSWORD: "LOGIN", PAIRING: "PAIRING",
              PAIRING_TABLE: "PAIRING_TABLE"}[scope]
    lock = config.get(f"{prefix}_LOCK_SECONDS")
    return Limit(scope, int(config.get(f"{prefix}_MAX_FAILURES", 5)),
                 float(config.get(f"{prefix}_WINDOW_SECONDS", 900)),
                 None if lock in (None, "") else float(lock))


def client_address() -> str:
    """Who is guessing: the peer's address, or the client's as a trusted proxy reports it."""
    return request.remote_addr or "unknown"


class Locked(TooManyRequests):
    """429: a client or a table that guessed wrong too often.  ``lock`` says which."""

    def __init__(self, lock: guess_limits.Lock, description: str) -> None:
        self.lock = lock
        super().__init__(description=description,
                         retry_after=lock.seconds_left(utcnow()))


def _refusal(lock: guess_limits.Lock) -> Locked:
    now = utcnow()
    if lock.until is None:
        return Locked(lock, _("Pairing this table is locked after %(num)s wrong codes: "
                              "ask the director to reset it on the Dealer tablets page",
                              num=lock.failures))
    minutes = ((lock.seconds_left(now) or 60) + 59) // 60
    return Locked(lock, ngettext(
        "Too many wrong attempts. Wait %(num)s minute, or use `director token` on the server.",
        "Too many wrong attempts. Wait %(num)s minutes, or use `director token` on the server.",
        minutes))


def guarded_attempt(kind: str, attempt: Callable[[], T], *,
                    tables: Iterable[int] = ()) -> T:
    """Run a guess at a secret under the guess limits (``services.guess_limits``):
    against the client's address (scope ``kind``) and, for a pairing code, against
    each table it names.  A refused guess (``Invalid``) counts; while a key is
    locked the guess gets ``Locked`` (429) without being tried.  A right guess
    clears nothing but its own count, except a login or a password check, which
    clears that client's failures of the same kind."""
    keys = [(limit(kind), client_address())]
    keys += [(limit(PAIRING_TABLE), str(table)) for table in tables]
    now = utcnow()
    found = guess_limits.lock_of(keys, now)
    if found is not None:
        raise _refusal(found)
    reserved = guess_limits.reserve(keys, now)
    past = guess_limits.over(reserved)
    if past:                       # others guessed meanwhile: this one is not tried
        raise _refusal(guess_limits.locked_now(past, now)[0])
    try:
        result = attempt()
    except Invalid:
        made = guess_limits.failed(reserved, now)
        if made:
            raise _refusal(made[-1]) from None
        raise
    proved = keys[:1] if kind in (LOGIN, PASSWORD) else []
    guess_limits.succeeded(reserved, clear=proved)
    return result


def open_tables(tables: list[int]) -> list[int]:
    """The tables of ``tables`` whose pairing is not locked: a guess is tried and counted
    on those only (event A's locked table 2 does not lock event B's table 2).  ``Locked``
    when every one of them is locked."""
    keys = [(limit(PAIRING_TABLE), str(table)) for table in tables]
    locks = guess_limits.locks(PAIRING_TABLE, [key for _limit, key in keys])
    if tables and len(locks) == len(tables):
        raise _refusal(next(iter(locks.values())))
    return [table for table in tables if str(table) not in locks]


def failed_guess(kind: str) -> None:
    """Count a guess that failed before it named anything (a malformed pairing form):
    ``Locked`` when the client is, or now becomes, locked out."""
    with contextlib.suppress(Invalid):
        guarded_attempt(kind, _refuse_guess)


def _refuse_guess() -> None:
    raise Invalid({})


# --------------------------------------------------------------------------- trusted proxies


class TrustedProxies:
    """The client's address behind a reverse proxy, from that proxy only (WSGI middleware).

    ``TRUSTED_PROXIES`` is either a number of proxy hops (werkzeug's ``ProxyFix``:
    every request must come through them, the server listens on no other
    address), or a comma-separated list of the proxies' addresses or networks
    (``127.0.0.1``, ``10.0.0.0/8``): a request from one of them gets
    ``X-Forwarded-For``'s last address that is not a listed proxy as its
    ``remote_addr``, and ``X-Forwarded-Proto`` as its scheme.  From anybody else
    the ``X-Forwarded-*`` headers are dropped: a player cannot name another
    address to guess under, or to lock out.
    """

    HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
               "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX", "HTTP_X_REAL_IP",
               "HTTP_FORWARDED")

    def __init__(self, app: Callable[..., Any], setting: Any) -> None:
        self.app = app
        self.hops = 0
        self.networks: list[Any] = []
        text = ",".join(map(str, setting)) if isinstance(setting, list | tuple) \
            else str(setting or "").strip()
        if text.isdigit():
            self.hops = int(text)
        else:
            for part in text.replace(" ", ",").split(","):
                if part:
                    self.networks.append(ipaddress.ip_network(part, strict=False))
        self.fixed = ProxyFix(app, x_for=self.hops, x_proto=self.hops) if self.hops else None

    def trusted(self, address: str | None) -> bool:
        try:
            ip = ipaddress.ip_address((address or "").strip())
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def forwarded_client(self, peer: str | None, forwarded_for: str | None) -> str | None:
        """The client's address a request from ``peer`` with this ``X-Forwarded-For``
        names, when it is to be believed (None: the peer is the client).  The app's
        ``remote_addr``, and the server's door reads it the same way (``asgi``: the
        large bodies one client may hold at once, each client behind the proxy its own)."""
        chain = [part.strip() for part in str(forwarded_for or "").split(",") if part.strip()]
        if self.hops:                       # werkzeug's ProxyFix: the hops-th from the right
            return chain[-self.hops] if len(chain) >= self.hops else None
        if not (self.networks and self.trusted(peer)):
            return None
        while chain and self.trusted(chain[-1]):
            chain.pop()
        return chain[-1] if chain else None

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if self.fixed is not None:
            return self.fixed(environ, start_response)
        if self.networks and self.trusted(environ.get("REMOTE_ADDR")):
            client = self.forwarded_client(environ.get("REMOTE_ADDR"),
                                           environ.get("HTTP_X_FORWARDED_FOR"))
            if client is not None:
                environ["director.proxy_peer"] = environ.get("REMOTE_ADDR")
                environ["REMOTE_ADDR"] = client
            proto = str(environ.get("HTTP_X_FORWARDED_PROTO", "")).split(",")[0].strip().lower()
            if proto in ("http", "https"):
                environ["wsgi.url_scheme"] = proto
        else:
            for name in self.HEADERS:
                environ.pop(name, None)
        return self.app(environ, start_response)


# --------------------------------------------------------------------------- wiring


def _headers(response: Response) -> Response:
    """``HEADERS``, each unless the view set it, and ``no-store`` on a page (not a
    static file) that says nothing of caching.  The names present are read once:
    ``headers.setdefault`` raises and catches a KeyError for each header missing
    (~2 us each, twelve a dealer's tap)."""
    present = {name.lower() for name, _value in response.headers.items()}
    response.headers.extend([(name, value) for name, value in HEADERS.items()
                             if name.lower() not in present])
    if "cache-control" not in present and response.mimetype == "text/html" \
            and request.endpoint != "static":
        response.headers["Cache-Control"] = "no-store"
    return response


class BoundedInt(IntegerConverter):
    """``<int:id>`` up to 2**63 - 1: a larger id is a 404, not a database overflow."""

    def __init__(self, map: Any, fixed_digits: int = 0, min: int | None = None,  # noqa: A002
                 max: int | None = None, signed: bool = False) -> None:  # noqa: A002
        super().__init__(map, fixed_digits, min, 2**63 - 1 if max is None else max, signed)


class SigningKept(SecureCookieSessionInterface):
    """Flask's signed-cookie session, its signer made once per key instead of at every
    request (itsdangerous builds it anew, about 30 us: a hundredth of a dealer's
    write).  Made again when the app's key or its fallbacks change."""

    _kept: tuple[Any, Any] | None = None

    def get_signing_serializer(self, app: Flask) -> Any:
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = self._kept = (keys, super().get_signing_serializer(app))
        return kept[1]


def init_app(app: Flask) -> None:
    """CSRF, headers, the trusted proxies and bounded ``int`` URL ids for this app.

    Call before the blueprints are registered (the converter binds then).
    """
    app.url_map.converters["int"] = BoundedInt
    app.session_interface = SigningKept()
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)  # we decide in _check_csrf
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # valid for the session's life
    app.config.setdefault("WTF_CSRF_SSL_STRICT", False)  # plain HTTP on the room's Wi-Fi
    app.config.setdefault("WTF_CSRF_HEADERS", ["X-CSRF-Token", "X-CSRFToken"])
    csrf.init_app(app)
    proxies = app.extensions["director.proxies"] = TrustedProxies(
        app.wsgi_app, app.config.get("TRUSTED_PROXIES"))      # the server's door reads it too
    app.wsgi_app = proxies  # type: ignore[method-assign]
    register_dealer_token_lookup(device_table)  # the dealer tablets' device tokens
    app.before_request(_refuse_nul)
    app.before_request(_check_csrf)
    app.after_request(_headers)
