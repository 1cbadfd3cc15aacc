"""The dealer tablet's JSON API (a contract: see README "Dealer API").

Writes need the table's dealer token (``Authorization: Bearer``, or the
session cookie a paired tablet got) or the director's.  A dealer of table 1
gets 403 on table 2.  A session (cookie) write carries ``X-CSRF-Token``.

Answers: 200/201 the hand JSON; 400 ``{"errors": {field: message}}``; 401 no
valid credentials; 403 another table's dealer; 404; 409 the current hand plus
``error`` (stale ``version``, or a hand already in progress); 422
``{"error": "<the engine's sentence>"}``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, jsonify, request, session, url_for

from director import security
from director.db import utcnow
from director.i18n import gettext as _
from director.poker.events import ActionKind
from director.schemas import FieldError, json_body, no_body, whole_number
from director.services import Invalid, NotFound
from director.services import dealer as dealer_service
from director.services import dealer_bodies as body
from director.services import dealer_pairing as pairing_service
from director.services import dealer_rulings as rulings_service
from director.services import dealer_shot_clock as shot_clock_service
from director.services.dealer import Answer, Conflict, Illegal

bp = Blueprint("dealer_api", __name__, url_prefix="/api")

F = TypeVar("F", bound=Callable[..., Any])


# ---------------------------------------------------------------- who may write

TOKEN_KEY = "dealer_token"


def remember_pairing(table_id: int, token: str) -> None:
    """This browser is now table ``table_id``'s tablet (a new session, see
    ``security.login_dealer``); the device token is kept so a revoke ends it."""
    security.login_dealer(table_id)
    session[TOKEN_KEY] = token


def dealer_role(table_id: int) -> str | None:
    """"director", "dealer" (this table's tablet, not revoked) or None; raises
    ``Forbidden`` for another table's tablet."""
    if security.is_director():
        return "director"
    paired = security.dealer_table_id()
    if paired is None:
        return None
    if paired != table_id:
        raise Forbidden()
    if security.bearer_token() is None:
        token = session.get(TOKEN_KEY)
        if not isinstance(token, str) or pairing_service.device_table(token) != table_id:
            return None          # revoked by the director
    return "dealer"


class Forbidden(Exception):
    """A dealer of another table."""


class Unauthorized(Exception):
    pass


def table_writer(view: F) -> F:
    """The table's dealer or the director (``security.dealer_or_director_required``,
    which also checks the CSRF token of a session), and a tablet the director has
    not unpaired; passes ``who`` ("dealer" or "director") to the view."""

    @functools.wraps(view)
    def inner(table_id: int, **kwargs: Any) -> Any:
        who = dealer_role(table_id)
        if who is None:
            raise Unauthorized()
        return view(table_id, who=who, **kwargs)

    return cast(F, security.dealer_or_director_required(inner))


director_only = security.director_required


@bp.errorhandler(Illegal)
def illegal(exc: Illegal) -> tuple[Response, int]:
    return jsonify({"error": exc.message}), 422


@bp.errorhandler(Conflict)
def conflict(exc: Conflict) -> tuple[Response, int]:
    data: dict[str, Any] = dict(exc.hand or {})
    data["error"] = exc.message
    return jsonify(data), 409


@bp.errorhandler(Forbidden)
def forbidden(exc: Forbidden) -> tuple[Response, int]:
    return jsonify({"error": _("This tablet is paired with another table")}), 403


@bp.errorhandler(Unauthorized)
def unauthorized(exc: Unauthorized) -> tuple[Response, int]:
    return jsonify({"error": _("Pair this tablet with the table first (the code is on the "
                               "director's page), or send the director's token")}), 401


def _answer(answer: Answer) -> tuple[Response, int]:
    if answer.text is not None:
        response = Response(answer.text, mimetype="application/json")
    else:
        response = jsonify(answer.body)
    response.headers["Cache-Control"] = "no-store"
    return response, answer.status


# ---------------------------------------------------------------- hands

@bp.post("/tables/<int:table_id>/hands")
@table_writer
def start_hand(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.START)
    return _answer(dealer_service.start_hand(table_id, data["absent_seats"], who))


@bp.get("/tables/<int:table_id>/hand")
def current_hand(table_id: int) -> tuple[Response, int]:
    return _answer(Answer(dealer_service.current(table_id)))


@bp.get("/tables/<int:table_id>/hand/log")
def hand_log(table_id: int) -> Response:
    """The current hand's whole log, newest first (the hand JSON has its last lines)."""
    return jsonify(dealer_service.full_log(table_id))


@bp.post("/tables/<int:table_id>/stack")
@table_writer
def correct_stack(table_id: int, who: str) -> Response:
    """A stack counted between hands (hidden chips, a wrong count) becomes the player's chips."""
    data = json_body(body.STACK)
    return jsonify(dealer_service.correct_stack(table_id, data["seat"], data["chips"], who))


@bp.get("/tables/<int:table_id>/next")
def next_hand(table_id: int) -> Response:
    return jsonify(dealer_service.next_hand(table_id))


@bp.post("/tables/<int:table_id>/hand/actions")
@table_writer
def action(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.ACTION)
    return _answer(dealer_service.act(table_id, data["seat"], ActionKind(data["action"]), data["amount"],
                                      version=data["version"], key=data["idempotency_key"], who=who))


@bp.post("/tables/<int:table_id>/hand/board")
@table_writer
def board(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.BOARD)
    return _answer(dealer_service.deal_board(table_id, data["cards"], version=data["version"],
                                             key=data["idempotency_key"], who=who))


@bp.post("/tables/<int:table_id>/hand/deal")
@table_writer
def deal(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.DEAL)
    return _answer(dealer_service.deal_cards(table_id, data["cards"], version=data["version"],
                                             key=data["idempotency_key"], who=who))


@bp.post("/tables/<int:table_id>/hand/show")
@table_writer
def show(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.SHOW)
    return _answer(dealer_service.show(table_id, data["seat"], data["cards"], version=data["version"],
                                       key=data["idempotency_key"], who=who))


@bp.post("/tables/<int:table_id>/hand/muck")
@table_writer
def muck(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.SEAT_WRITE)
    return _answer(dealer_service.muck(table_id, data["seat"], version=data["version"],
                                       key=data["idempotency_key"], who=who))


@bp.post("/tables/<int:table_id>/hand/award")
@table_writer
def award(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.AWARD)
    return _answer(dealer_service.award(table_id, data["high"], data["low"], version=data["version"],
                                        key=data["idempotency_key"], who=who))


@bp.post("/tables/<int:table_id>/hand/undo")
@table_writer
def undo(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.UNDO)
    return _answer(dealer_service.undo(table_id, version=data["version"],
                                       key=data["idempotency_key"], who=who, street=data["street"]))


@bp.post("/tables/<int:table_id>/hand/rulings")
@table_writer
def ruling(table_id: int, who: str) -> tuple[Response, int]:
    """The body is loaded by the service (``dealer_bodies.ruling_body``: the common part
    and the ruling kind's own fields)."""
    return _answer(rulings_service.rule(table_id, json_body(), who=who, now=utcnow()))


@bp.post("/tables/<int:table_id>/hand/shot-clock")
@table_writer
def shot_clock(table_id: int, who: str) -> tuple[Response, int]:
    """The shot clock (house rule): a time-bank card, or the house rule at the time's end."""
    data = json_body(body.SHOT_CLOCK)
    return _answer(rulings_service.shot_clock_use(table_id, data["seat"], data["use"],
                                                  version=data["version"],
                                                  offline_seconds=data.get("offline_seconds"),
                                                  key=data["idempotency_key"], who=who, now=utcnow()))


@bp.post("/tables/<int:table_id>/hand/clock")
@table_writer
def call_clock(table_id: int, who: str) -> tuple[Response, int]:
    data = json_body(body.CLOCK)
    return _answer(dealer_service.set_clock_call(
        table_id, data["seat"], version=data["version"], key=data["idempotency_key"], who=who,
        now=utcnow()))


# ---------------------------------------------------------------- history, PHH, corrections

@bp.get("/tables/<int:table_id>/hands")
def list_hands(table_id: int) -> Response:
    """The table's newest ``HANDS_LISTED`` hands (``?before=<hand id>``: those before it),
    oldest first; ``older``: the ``before`` of the hands older than these, or null."""
    page = dealer_service.hand_page(table_id, before=_before())
    return jsonify({"hands": [{"hand_id": r.id, "number": r.number, "game": r.game,
                               "status": r.status, "version": r.version,
                               "started_at": r.started_at.isoformat().replace("+00:00", "Z"),
                               "phh": f"/api/hands/{r.id}.phh"} for r in page.rows],
                    "older": page.older})


def _before() -> int | None:
    """``?before=``: a hand id (absent: the newest hands); anything else is a 400."""
    return _whole_arg("before", low=1)


def _whole_arg(name: str, *, low: int, high: int = 2**63 - 1) -> int | None:
    """The whole number ``?<name>=`` gives (absent: None); anything else is a 400 with
    a sentence."""
    value = request.args.get(name)
    if value is None:
        return None
    try:
        return whole_number(value, low=low, high=high)
    except FieldError as exc:
        raise Invalid({name: str(exc)}) from None


@bp.get("/tables/<int:table_id>/hands.zip")
def hands_zip(table_id: int) -> Response:
    data = dealer_service.phh_zip(table_id)
    return Response(data, mimetype="application/zip", headers={
        "Content-Disposition": f'attachment; filename="table{table_id}-hands.zip"'})


@bp.get("/hands/<int:hand_id>")
def hand(hand_id: int) -> Response:
    """The hand JSON plus its events (engine players: indices in PHH order) and players."""
    row = dealer_service.get_hand(hand_id)
    return jsonify({**dealer_service.hand_json(row), "status": row.status,
                    "players": row.players, "events": dealer_service.event_list(row),
                    "time_used": shot_clock_service.time_used(row)})


@bp.get("/hands/<int:hand_id>.phh")
def hand_phh(hand_id: int) -> Response:
    row = dealer_service.get_hand(hand_id)
    return Response(dealer_service.phh_text(row), mimetype="application/toml", headers={
        "Content-Disposition": f'attachment; filename="{dealer_service.phh_name(row)}"'})


@bp.post("/hands/<int:hand_id>/correct")
@director_only
def correct(hand_id: int) -> tuple[Response, int]:
    data = json_body(body.CORRECT)
    return _answer(dealer_service.correct_hand(hand_id, data["events"]))


# ---------------------------------------------------------------- pairing

def pair_tablet(load: Callable[[], dict[str, Any]]) -> tuple[int, str]:
    """Pair under the guess limits: against this client, and against the tables of
    the number the tablet names (a malformed body counts against the client)."""
    try:
        data = load()
    except Invalid:
        security.failed_guess(security.PAIRING)
        raise
    tables = security.open_tables(pairing_service.tables_numbered(data["table"]))
    return security.guarded_attempt(
        security.PAIRING, lambda: pairing_service.pair(data["code"], tables), tables=tables)


@bp.post("/dealer/pair")
@security.public_write("a tablet sends its table's number and the code the director gave it")
def pair() -> tuple[Response, int]:
    table_id, token = pair_tablet(lambda: json_body(body.PAIR))
    remember_pairing(table_id, token)
    return jsonify({"table_id": table_id, "token": token,
                    "url": f"/dealer/table/{table_id}"}), 201


@bp.post("/tables/<int:table_id>/dealer/revoke")
@director_only
@no_body()
def revoke(table_id: int) -> Response:
    return jsonify({"table_id": table_id, "code": pairing_service.revoke(table_id)})


@bp.post("/tables/<int:table_id>/dealer/unlock")
@director_only
@no_body()
def unlock(table_id: int) -> Response:
    """Reset a table whose pairing was locked after wrong codes (a new code too)."""
    return jsonify({"table_id": table_id, "code": pairing_service.unlock(table_id)})


TABLES_LISTED = 20      # the tables' codes a look at the pairing API answers ("next": more)


@bp.get("/tournaments/<int:tournament_id>/dealer/pairing")
@director_only
def pairing_codes(tournament_id: int) -> Response:
    """Each table's pairing code, ``TABLES_LISTED`` tables at a time by number
    (``?tables=``: the first one's place, 0 first, as on the tablets page) or the table
    ``?table=`` numbers (404 with a sentence when it is not in play); ``locked``: every
    locked table of the room, whatever the page; ``next``: the URL of the following
    tables, or null.  A bad ``tables`` or ``table`` is a 400 with a sentence."""
    start = _whole_arg("tables", low=0) or 0
    number = _whole_arg("table", low=1, high=10**6)
    page = pairing_service.tables_page(tournament_id, start, TABLES_LISTED, number)
    if number is not None and not page.tables:
        raise NotFound(_("There is no table %(table)s in play", table=number))
    following = page.start + TABLES_LISTED
    return jsonify({
        "tables": [_lock_json(table) for table in page.tables],
        "locked": [_lock_json(table) for table in page.locked],
        "tables_total": page.total, "start": page.start,
        "next": url_for("dealer_api.pairing_codes", tournament_id=tournament_id, tables=following)
        if number is None and following < page.total else None})


def _lock_json(table: dict[str, Any]) -> dict[str, Any]:
    """A table with its ``locked``: when (ISO 8601, UTC) and after how many wrong codes."""
    if not table["locked"]:
        return table
    return {**table, "locked": {**table["locked"], "at": table["locked"]["at"].isoformat()}}
