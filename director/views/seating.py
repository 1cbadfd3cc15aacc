"""Seating pages and their JSON API.

* The director's seating page (``/director/<id>/seating``): the chart (oval
  tables in inline SVG), the pending moves with confirm/undo, register,
  eliminate, reseat, break the next table, hand-for-hand; printable move
  slips, and seat cards and sign-in sheets 20 tables at a time (``?from=&to=``).
  Forms post here and come back with a message, or with the error inline and
  nothing changed.
* Public: "find my seat" for phones (``/seats/<id>``; the search runs on the
  server through ``/api/tournaments/<id>/seats?q=``, so 1,000 players never
  reach the page) and the projector view of the draw (``/seats/<id>/draw``).
* JSON (``/api/tournaments/<id>/seating...``): the same actions for scripts
  and other screens; bad input answers 400 naming the field.  The room is read
  a page of tables at a time (``?page=``, ``next``) or one table (``?table=``).

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from director.i18n import move_text, number_filter, plan_lines, seating_text
from director.schemas import (
    SEATING_SETTINGS,
    TABLE_SIZES,
    form_body,
    form_fields,
    json_body,
    no_body,
)
from director.services import (
    Invalid,
    NotFound,
    audit,
    busts,
    dealer_hold,
    get_tournament,
    once,
)
from director.services import money as money_service
from director.services import seating as seating_service
from director.services import tournaments as tournament_service
from director.tournament.seating import (
    BIG_FIELD,
    STUD_MAX_SEATS,
    Move,
    SeatingPlan,
    TableState,
    big_field_redraw_offered,
    stud_overrides,
    table_size_allowed,
)
from director.views import bodies
from director.views.auth import director_required, is_director

bp = Blueprint("seating", __name__)

F = TypeVar("F", bound=Callable[..., Any])


def api_director(view: F) -> F:
    """The director only: 401 for anybody else (JSON), then the usual CSRF check."""
    checked = director_required(view)

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_director():
            abort(401)
        return checked(*args, **kwargs)

    return cast(F, wrapped)


# ---------------------------------------------------------------- drawing helpers

VIEW_W, VIEW_H = 480, 330
CENTER_X, CENTER_Y = VIEW_W / 2, VIEW_H / 2 + 6


@bp.app_template_global("seat_points")
@functools.cache
def seat_points(size: int) -> tuple[dict[str, float], ...]:
    """Where each seat sits around the oval: the dealer at the top, seat 1 on
    the dealer's left, then clockwise.  ``x, y``: the seat plate; ``mx, my``:
    the button/blind marker, towards the felt.  Worked out once a table size, with
    the places the chart draws around them (``left``, ``top``...: the plate's corner,
    its number, the name, the stack, the bounty tag), not per seat of every table."""
    points = []
    for seat in range(1, size + 1):
        angle = math.radians(-90 + seat * 360 / (size + 1))
        cos, sin = math.cos(angle), math.sin(angle)
        x, y = round(CENTER_X + 188 * cos, 1), round(CENTER_Y + 122 * sin, 1)
        my = round(CENTER_Y + 56 * sin, 1)
        points.append({
            "seat": seat, "x": x, "y": y, "mx": round(CENTER_X + 104 * cos, 1), "my": my,
            "left": x - 50, "top": y - 21, "number_y": y - 17, "text_x": x + 3,
            "name_y": y - 2, "stack_y": y + 14, "open_y": y + 5, "tag_x": x + 2,
            "tag_y": y - 30, "tag_text_x": x + 28, "tag_text_y": y - 19, "marker_y": my + 4,
        })
    return tuple(points)


@bp.app_template_filter("short_name")
def short_name(name: str, width: int = 14) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _positions(table: TableState) -> dict[str, int | None]:
    upcoming = table.upcoming()
    if upcoming is None:
        return {"button": None, "small_blind": None, "big_blind": None}
    return {"button": upcoming.button,
            "small_blind": upcoming.small_blind if upcoming.small_blind in table.seats else None,
            "big_blind": upcoming.big_blind}


# ---------------------------------------------------------------- director pages

def _page(tournament_id: int, errors: dict[str, str] | None = None, status: int = 200,
          form: Any = None) -> tuple[str, int]:
    # A page of players (``?q=`` a name or a table number, ``?start=``) and of tables
    # (``?tables=``): the page costs the same at 300 entries and at 2,400.
    view = seating_service.overview(
        tournament_id, paged=True, query=request.args.get("q", ""),
        start=_offset("start"), table_start=_offset("tables"))
    positions = {t.number: _positions(t) for t in view.tables_drawn}
    h4h_waiting = dealer_hold.waiting_for(tournament_id, view.hand_for_hand)
    # The chart and the list say the same few stacks over and over: each once a page.
    return render_template("seating/director.html", view=view, positions=positions,
                           chips_text=functools.lru_cache(maxsize=None)(number_filter),
                           h4h_waiting=h4h_waiting, errors=errors or {}, form=form or {},
                           players_step=seating_service.PLAYERS_SHOWN,
                           tables_step=seating_service.TABLES_SHOWN, rules=_seat_rules(view)), status


def _seat_rules(view: Any) -> dict[str, Any]:
    """The seating rules the page shows, decided by the engine (the template decides nothing):
    the stud cap, whether it overrides the saved settings, the table sizes the form offers
    (and which the cap forbids), and whether the big field's redraws are offered."""
    stud = bool(view.stud_levels)
    return {"stud_cap": STUD_MAX_SEATS, "stud_overrides": stud_overrides(view.stored, stud_levels=stud),
            "table_sizes": [(n, table_size_allowed(n, stud_levels=stud)) for n in TABLE_SIZES],
            "big_field": BIG_FIELD, "big_field_redraw": big_field_redraw_offered(view.stored, view.entrants)}


def _offset(name: str) -> int:
    """A page's start (``?start=``, ``?tables=``): a bad one is the first page."""
    value = request.args.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 7 else 0


def _refused(exc: Invalid, tournament_id: int, **_ids: int) -> Any:
    """A form refused: back to the phone with the reasons, or the page again with the
    errors inline (400, nothing changed)."""
    if bodies.from_phone():
        bodies.say_refused(_("Not done: %(reasons)s"), exc)
        return redirect(url_for("director.phone", tournament_id=tournament_id))
    return _page(tournament_id, exc.errors, 400, request.form)


def _act(tournament_id: int, action: Callable[[], str | None]) -> Any:
    """Run a form's service; come back with its message, or the errors inline (400)."""
    phone = bodies.from_phone()
    try:
        message = action()
    except Invalid as exc:
        return _refused(exc, tournament_id)
    except once.Applied as applied:   # a double click, or the form sent again: applied once
        message = bodies.done_already(applied)
    if message:
        flash(message)
    if phone:
        return redirect(url_for("director.phone", tournament_id=tournament_id))
    searched = request.args.get("q", "")[:80] or None   # a form of a search: back to it
    return redirect(url_for("seating.page", tournament_id=tournament_id, q=searched)
                    + ("#players" if searched else "#chart"))


@bp.get("/director/<int:tournament_id>/seating")
@director_required
def page(tournament_id: int) -> Any:
    return _page(tournament_id)


@bp.post("/director/<int:tournament_id>/seating/settings")
@director_required
@form_fields(SEATING_SETTINGS, "back", refused=_refused)
def settings(tournament_id: int) -> Any:
    def do() -> str:
        policy = seating_service.configure(tournament_id, form_body(SEATING_SETTINGS))
        return _("Seating settings saved (%(size)s-handed tables).", size=policy.table_size)
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/players")
@director_required
@form_fields(bodies.SEATING_REGISTER_FORM, "back", refused=_refused)
def register(tournament_id: int) -> Any:
    def do() -> str:
        body = form_body(bodies.SEATING_REGISTER_FORM)
        sale = money_service.register_entry(tournament_id, body["name"],
                                            request_key=body["request_key"])
        player, move = sale.player, sale.seat
        assert player is not None
        paid = _("Buy-in recorded, %(chips)s chips.", chips=number_filter(sale.payment.chips))
        if move is None:
            return _("%(name)s is registered; seats are drawn later.", name=player.name) + " " + paid
        return _("%(name)s: table %(table)s seat %(seat)s — %(status)s.", name=player.name,
                 table=move.to_table, seat=move.to_seat,
                 status=seating_text(move.status.value)) + " " + paid
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/players/<int:player_id>/reinstate")
@director_required
@no_body("back", refused=_refused)
def reinstate(tournament_id: int, player_id: int) -> Any:
    def do() -> str:
        player, move, _lines = busts.undo_elimination(tournament_id, player_id)
        text = _("%(name)s is back in play.", name=player.name) if move is None else _(
            "%(name)s is back in play: table %(table)s seat %(seat)s — %(status)s.",
            name=player.name, table=move.to_table, seat=move.to_seat,
            status=seating_text(move.status.value))
        if not player.chips:
            text += " " + _("Count their chips: the record says 0.")
        return text
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/draw")
@director_required
@no_body("back", refused=_refused)
def draw(tournament_id: int) -> Any:
    return _act(tournament_id, lambda: seating_text(seating_service.draw(
        tournament_id, idempotency_key=bodies.idempotency_key()).note) + ".")


@bp.post("/director/<int:tournament_id>/seating/eliminate")
@director_required
@form_fields(bodies.SEATING_ELIMINATE_FORM, "back", refused=_refused)
def eliminate(tournament_id: int) -> Any:
    def do() -> str:
        form = form_body(bodies.SEATING_ELIMINATE_FORM)
        finishes, record = busts.eliminate(tournament_id, form["player_ids"] or None,
                                           by=form["by"],
                                           idempotency_key=bodies.idempotency_key())
        text = "; ".join(
            _("place %(first)s–%(last)s shared", first=f.first, last=f.last) if f.tied
            else _("place %(place)s", place=f.first) for f in finishes)
        return _("Eliminated (%(places)s).", places=text) + (
            " " + _("The rules propose moves: check them below and confirm.") if record else "")
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/plans/<int:plan_id>/confirm")
@director_required
@no_body("back", refused=_refused)
def confirm(tournament_id: int, plan_id: int) -> Any:
    def do() -> str:
        plan, nxt = seating_service.confirm_plan(tournament_id, plan_id,
                                                 idempotency_key=bodies.idempotency_key())
        return _("Confirmed: %(plan)s.", plan=seating_text(plan.note or plan.kind.value)) + (
            " " + _("Next step proposed below.") if nxt else "")
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/plans/<int:plan_id>/discard")
@director_required
@no_body("back", refused=_refused)
def discard(tournament_id: int, plan_id: int) -> Any:
    def do() -> str:
        seating_service.discard_plan(tournament_id, plan_id, bodies.idempotency_key())
        return _("The proposed moves were discarded.")
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/undo")
@director_required
@no_body("back", refused=_refused)
def undo(tournament_id: int) -> Any:
    def do() -> str:
        plan = seating_service.undo_last(tournament_id, bodies.idempotency_key())
        return _("Undone: %(plan)s. Everybody is back in the old seat.",
                 plan=seating_text(plan.note or plan.kind.value))
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/break")
@director_required
@no_body("back", refused=_refused)
def break_next(tournament_id: int) -> Any:
    def do() -> str:
        record = seating_service.break_next_table(tournament_id,
                                                  idempotency_key=bodies.idempotency_key())
        return _("%(plan)s: check the moves, then confirm.",
                 plan=seating_text(SeatingPlan.from_json(record.plan).note))
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/reseat")
@director_required
@form_fields(bodies.SEATING_RESEAT_FORM, "back", refused=_refused)
def reseat(tournament_id: int) -> Any:
    def do() -> str:
        body = form_body(bodies.SEATING_RESEAT_FORM)
        move = seating_service.reseat(tournament_id, body["player_id"], body["table"],
                                      body["seat"], bodies.idempotency_key())
        return _("Reseated: %(move)s.", move=move_text(move))
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/chips")
@director_required
@form_fields(bodies.SEATING_CHIPS_FORM, "back", refused=_refused)
def chips(tournament_id: int) -> Any:
    def do() -> str:
        body = form_body(bodies.SEATING_CHIPS_FORM)
        player = seating_service.set_chips(tournament_id, body["player_id"], body["chips"])
        return _("%(name)s has %(chips)s chips.", name=player.name, chips=number_filter(player.chips))
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/tables/<int:number>/deal")
@director_required
@no_body("back", refused=_refused)
def deal(tournament_id: int, number: int) -> Any:
    def do() -> None:
        seating_service.hand_dealt(tournament_id, number, bodies.idempotency_key())
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/seating/hand-for-hand")
@director_required
@form_fields(bodies.SEATING_HAND_FOR_HAND_FORM, "back", refused=_refused)
def hand_for_hand(tournament_id: int) -> Any:
    def do() -> str:
        action = form_body(bodies.SEATING_HAND_FOR_HAND_FORM)["action"]
        result = seating_service.hand_for_hand(tournament_id, action, bodies.idempotency_key())
        if result["seconds_deducted"]:
            return ngettext("Hand finished: %(num)s second off the clock.",
                            "Hand finished: %(num)s seconds off the clock.",
                            result["seconds_deducted"])
        if result["hand_for_hand"]["on"]:
            return _("Hand-for-hand: on.")
        if result["hand_for_hand"]["announced"]:
            return _("Hand-for-hand: announced.")
        return _("Hand-for-hand: off.")
    return _act(tournament_id, do)


@bp.get("/director/<int:tournament_id>/seating/slips")
@director_required
def slips(tournament_id: int) -> str:
    plan_id = request.args.get("plan", type=int)
    record, plan = seating_service.plan_record(tournament_id, plan_id)
    view = seating_service.overview(tournament_id)
    return render_template("seating/slips.html", view=view, record=record, plan=plan,
                           moves=list(plan.moves))


def _print_range(tournament_id: int) -> seating_service.PrintRange:
    """The tables asked for (``?from=`` and ``?to=``, table numbers; the first
    ``PRINT_TABLES`` tables when not given); a bad one is refused with a sentence (400)."""
    bounds = []
    for name in ("from", "to"):
        text = request.args.get(name, "").strip()
        if text and not (text.isascii() and text.isdigit() and len(text) < 6):
            raise Invalid({name: _("Give the tables to print as numbers, from the first to "
                                   "the last (e.g. from 1 to 20)")})
        bounds.append(int(text) if text else None)
    first, last = bounds
    if first is not None and last is not None and first > last:
        raise Invalid({"to": _("Give the tables to print as numbers, from the first to "
                               "the last (e.g. from 1 to 20)")})
    return seating_service.print_range(tournament_id, first, last)


def _printed(tournament_id: int, template: str, **extra: Any) -> Any:
    """A printable page of a range of tables, or the refusal of a bad range (400)."""
    try:
        printed = _print_range(tournament_id)
    except Invalid as exc:
        return render_template(template, printed=None, errors=exc.errors,
                               endpoint=request.endpoint, tournament=get_tournament(tournament_id),
                               **extra), 400
    return render_template(template, printed=printed, errors={}, endpoint=request.endpoint,
                           tournament=printed.tournament, **extra)


@bp.get("/director/<int:tournament_id>/seating/cards")
@director_required
def cards(tournament_id: int) -> Any:
    """Seat cards for a range of tables (``?from=&to=``), in table and seat order."""
    return _printed(tournament_id, "seating/cards.html")


@bp.get("/director/<int:tournament_id>/seating/sign-in")
@director_required
def sign_in(tournament_id: int) -> Any:
    """The printable registration sheet for a range of tables (``?from=&to=``): one page
    per table, every seat with its player (an open seat left blank for a late entry), his
    chips and a line to sign."""
    return _printed(tournament_id, "seating/sign_in.html")


# ---------------------------------------------------------------- public pages

@bp.get("/seats/")
def find_index() -> str:
    return render_template("seating/find_index.html",
                           tournaments=tournament_service.list_events())   # archived: hidden


@bp.app_template_filter("said")
def said(text: str) -> str:
    """A seating log line in the reader's language, whoever wrote it (``audit.said_again``)."""
    return audit.said_again(text)


def _listed(tournament_id: int) -> None:
    """Find-my-seat answers only for a listed event: an archived one is gone for players."""
    if get_tournament(tournament_id).archived_at is not None:
        abort(404)


@bp.get("/seats/<int:tournament_id>")
def find(tournament_id: int) -> Any:
    _listed(tournament_id)
    query = request.args.get("q", "")
    try:
        result = seating_service.find_seat(tournament_id, query)
        error = None
    except Invalid as exc:
        result, error = {"query": query, "matches": [], "total": 0}, exc.errors.get("q")
    return render_template("seating/find.html", tournament=get_tournament(tournament_id),
                           result=result, error=error), 400 if error else 200


@bp.get("/seats/<int:tournament_id>/draw")
def draw_projector(tournament_id: int) -> str:
    data = seating_service.draw_view(tournament_id)
    return render_template("seating/draw.html", **data)


# ---------------------------------------------------------------- JSON

def _move_json(move: Move | None) -> dict[str, Any] | None:
    if move is None:
        return None
    return {**move.to_json(), "text": move_text(move)}


def _record_json(record: Any) -> dict[str, Any] | None:
    if record is None:
        return None
    plan = SeatingPlan.from_json(record.plan)
    return {"id": record.id, "kind": record.kind, "status": record.status,
            "lines": plan_lines(plan), "moves": [_move_json(m) for m in plan.moves]}


def seating_json(tournament_id: int, page: int = 1, table: int | None = None, *,
                 seats: bool = True) -> dict[str, Any]:
    """A page of the room (``seating_service.room_page``): ``API_TABLES`` tables and their
    players, the players in without a seat, on the first page the newest players out;
    ``page``/``pages``/``next`` lead through the rest.  ``table``: that table only;
    ``seats`` false: the room's figures, plans and pages without a table or player."""
    view = seating_service.room_page(tournament_id, page, table, seats=seats)
    chip_counts = view.chips()
    following = view.page + 1 if table is None and view.page < view.pages else None
    return {
        "tournament_id": tournament_id,
        **view.stats,
        "policy": view.policy.to_json(),
        "hand_for_hand": view.hand_for_hand.to_json(),
        "halted_tables": view.halted,
        "breaking_order": view.breaking_order,
        "page": view.page, "pages": view.pages, "tables_total": len(view.layout.tables),
        "next": url_for("seating.api_seating", tournament_id=tournament_id, page=following)
        if following else None,
        "tables": [{**t.to_json(), "next_hand": _positions(t),
                    "chips": {str(p.player_id): chip_counts.get(p.player_id)
                              for p in t.seats.values()}}
                   for t in view.tables_drawn],
        "pending_plan": _record_json(view.pending),
        "can_undo": view.can_undo,
        "players_out": view.out_count,
        "players": [_player_json(p, view.where.get(p.id, (None, None))) for p in view.players],
    }


@bp.get("/api/tournaments/<int:tournament_id>/seating")
def api_seating(tournament_id: int) -> Response:
    """A page of the room (``?page=``, kept within the pages), or one table (``?table=``)."""
    table = request.args.get("table")
    number = None
    if table is not None:
        text = table.strip()
        if not (text.isascii() and text.isdigit() and 0 < len(text) < 6):
            raise NotFound(_("There is no table %(table)s in play", table=table[:12]))
        number = int(text)
    return jsonify(seating_json(tournament_id, request.args.get("page", 1, type=int) or 1,
                                number))


@bp.get("/api/tournaments/<int:tournament_id>/seats")
def api_find(tournament_id: int) -> Response:
    _listed(tournament_id)
    response = jsonify(seating_service.find_seat(tournament_id, request.args.get("q", "")))
    response.headers["Cache-Control"] = "no-cache"
    return response


def _answer(tournament_id: int, status: int = 200, tables: Any = (), player_ids: Any = (),
            **extra: Any) -> tuple[Response, int]:
    """The answer of a write to the room's settings, plans or hand-for-hand: the room's
    figures, policy, hand-for-hand, plans and pages as the seating API's first page
    has them, with only the tables and players the write changed (``"partial":
    true``, as :func:`_changed`: ``GET .../seating`` has the rest), so that it does not
    grow with the room (a page of tables and players was 31 KB at 2,400 entries)."""
    room = seating_json(tournament_id, seats=False)
    room.update({**_changed_json(tournament_id, tables, player_ids), "partial": True})
    return jsonify({**extra, "seating": room}), status


def _table_json(table: TableState) -> dict[str, Any]:
    return {**table.to_json(), "next_hand": _positions(table)}


def _changed(tournament_id: int, tables: Any, player_ids: Any, status: int = 200,
             **extra: Any) -> tuple[Response, int]:
    """A write's answer: what it changed (``seating_service.changed``), not the whole
    room; ``"partial": true`` says so (``GET .../seating`` has the rest)."""
    return jsonify({**extra, "seating": {"tournament_id": tournament_id, "partial": True,
                                         **_changed_json(tournament_id, tables, player_ids)}}), \
        status


def _changed_json(tournament_id: int, tables: Any, player_ids: Any) -> dict[str, Any]:
    """The tables numbered ``tables`` and the players ``player_ids`` as they are now,
    the tables no longer in play among them, the field's figures and the pending plan."""
    view = seating_service.changed(tournament_id, tables, player_ids)
    chips = {p.id: p.chips for p in view.players}
    return {**view.stats,
            "tables": [{**_table_json(t), "chips": {str(p.player_id): chips.get(p.player_id)
                                                    for p in t.seats.values()}}
                       for t in view.tables],
            "removed_tables": view.gone,
            "pending_plan": _record_json(view.pending),
            "players": [_player_json(p) for p in view.players]}


def _player_json(p: Any, where: tuple[int | None, int | None] | None = None) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "chips": p.chips, "status": p.status,
            "place": p.place, "place_last": p.place_last,
            **({"table": where[0], "seat": where[1]} if where is not None else {})}


def _plan_tables(plan: SeatingPlan) -> tuple[set[int | None], set[int]]:
    """The tables a plan's moves leave and reach, and the players it moves."""
    return ({m.from_table for m in plan.moves} | {m.to_table for m in plan.moves},
            {m.player_id for m in plan.moves})


@bp.post("/api/tournaments/<int:tournament_id>/seating/settings")
@api_director
def api_settings(tournament_id: int) -> Any:
    policy = seating_service.configure(tournament_id, json_body(SEATING_SETTINGS))
    return _answer(tournament_id, policy=policy.to_json())


@bp.post("/api/tournaments/<int:tournament_id>/seating/players")
@api_director
def api_register(tournament_id: int) -> Any:
    body = json_body(bodies.SEATING_REGISTER)
    sale = money_service.register_entry(tournament_id, body["name"], body["chips"],
                                        request_key=body["request_key"])
    assert sale.player is not None
    return _changed(tournament_id, {sale.seat.to_table} if sale.seat else set(),
                    [sale.player.id], 201, player_id=sale.player.id,
                    payment_id=sale.payment.id, seat=_move_json(sale.seat))


@bp.post("/api/tournaments/<int:tournament_id>/seating/players/<int:player_id>/reinstate")
@api_director
@no_body()
def api_reinstate(tournament_id: int, player_id: int) -> Any:
    player, move, lines = busts.undo_elimination(tournament_id, player_id)
    return _changed(tournament_id, {move.to_table} if move else set(), [player.id],
                    player_id=player.id, seat=_move_json(move), lines=lines)



def _answered_once(view: Callable[..., Any]) -> Callable[..., Any]:
    """An API write sent again with its ``idempotency_key`` (``once.Applied``): nothing
    more is done, and the answer is the room as it is now, ``"done_already": true``."""
    @functools.wraps(view)
    def wrapped(tournament_id: int, **kwargs: Any) -> Any:
        try:
            return view(tournament_id, **kwargs)
        except once.Applied:
            return _answer(tournament_id, done_already=True)
    return wrapped


@bp.post("/api/tournaments/<int:tournament_id>/seating/draw")
@api_director
@no_body()
@_answered_once
def api_draw(tournament_id: int) -> Any:
    # The answer: the draw's lines (every seat) and the first page of the room.
    plan = seating_service.draw(tournament_id, idempotency_key=bodies.idempotency_key())
    return jsonify({"lines": plan_lines(plan), "seating": seating_json(tournament_id)})


@bp.post("/api/tournaments/<int:tournament_id>/seating/eliminate")
@api_director
@_answered_once
def api_eliminate(tournament_id: int) -> Any:
    body = json_body(bodies.SEATING_ELIMINATE)
    ids = body["player_ids"] if body["player_ids"] is not None else body["player_id"]
    finishes, record = busts.eliminate(tournament_id, ids, body["starting_chips"],
                                       by=body["by"], idempotency_key=bodies.idempotency_key())
    out = [pid for f in finishes for pid in f.player_ids]
    tables = seating_service.out_tables(tournament_id, out)
    return _changed(tournament_id, tables, out, finishes=[f.to_json() for f in finishes],
                    pending_plan=_record_json(record))


@bp.post("/api/tournaments/<int:tournament_id>/seating/plans/<int:plan_id>/confirm")
@api_director
@no_body()
@_answered_once
def api_confirm(tournament_id: int, plan_id: int) -> Any:
    plan, nxt = seating_service.confirm_plan(tournament_id, plan_id,
                                             idempotency_key=bodies.idempotency_key())
    tables, moved = _plan_tables(plan)
    return _changed(tournament_id, tables, moved, confirmed=plan_lines(plan),
                    pending_plan=_record_json(nxt))


@bp.post("/api/tournaments/<int:tournament_id>/seating/plans/<int:plan_id>/discard")
@api_director
@no_body()
@_answered_once
def api_discard(tournament_id: int, plan_id: int) -> Any:
    seating_service.discard_plan(tournament_id, plan_id, bodies.idempotency_key())
    return _answer(tournament_id)


@bp.post("/api/tournaments/<int:tournament_id>/seating/undo")
@api_director
@no_body()
@_answered_once
def api_undo(tournament_id: int) -> Any:
    plan = seating_service.undo_last(tournament_id, bodies.idempotency_key())
    tables, moved = _plan_tables(plan)
    return _answer(tournament_id, tables=tables, player_ids=moved, undone=plan_lines(plan))


@bp.post("/api/tournaments/<int:tournament_id>/seating/break")
@api_director
@no_body()
@_answered_once
def api_break(tournament_id: int) -> Any:
    record = seating_service.break_next_table(tournament_id,
                                              idempotency_key=bodies.idempotency_key())
    return _answer(tournament_id, pending_plan=_record_json(record))


@bp.post("/api/tournaments/<int:tournament_id>/seating/reseat")
@api_director
@_answered_once
def api_reseat(tournament_id: int) -> Any:
    body = json_body(bodies.SEATING_RESEAT)
    move = seating_service.reseat(tournament_id, body["player_id"], body["table"],
                                  body["seat"], bodies.idempotency_key())
    return _changed(tournament_id, {move.from_table, move.to_table}, [move.player_id],
                    move=_move_json(move))


@bp.post("/api/tournaments/<int:tournament_id>/seating/chips")
@api_director
def api_chips(tournament_id: int) -> Any:
    body = json_body(bodies.SEATING_CHIPS)
    player = seating_service.set_chips(tournament_id, body["player_id"], body["chips"])
    return _changed(tournament_id, seating_service.player_tables(tournament_id, [player.id]),
                    [player.id], player_id=player.id, chips=player.chips)


@bp.post("/api/tournaments/<int:tournament_id>/seating/tables/<int:number>/deal")
@api_director
@no_body()
@_answered_once
def api_deal(tournament_id: int, number: int) -> Any:
    table = seating_service.hand_dealt(tournament_id, number, bodies.idempotency_key())
    return _changed(tournament_id, {table.number}, [], next_hand=_positions(table))


@bp.post("/api/tournaments/<int:tournament_id>/seating/hand-for-hand")
@api_director
@_answered_once
def api_hand_for_hand(tournament_id: int) -> Any:
    action = json_body(bodies.SEATING_HAND_FOR_HAND)["action"]
    result = seating_service.hand_for_hand(tournament_id, action, bodies.idempotency_key())
    return _answer(tournament_id, **result)
