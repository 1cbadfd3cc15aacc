"""At registration (issue 17 item 7): the desk's buy-in with a chosen seat, the waiting
list of a full room, alternates for no-shows.

* Director forms (the desk ``/director/<id>/desk`` and the seating page show the
  list; each form says with ``back`` which page it came from and returns there):
  ``/director/<id>/desk/buy-in``, ``/director/<id>/waiting-list`` (add),
  ``…/waiting-list/<entry>/seat`` (the one click), ``…/remove``, ``…/move``,
  ``…/waiting-list/no-show`` (an alternate takes a no-show's place).
* JSON under ``/api/tournaments/<id>/``: ``desk/buy-in``, ``waiting-list`` (GET and
  POST) and the same actions; bad input answers 400 naming the field.

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, flash, jsonify, redirect, request, url_for
from flask_babel import gettext as _

from director.i18n import seating_text
from director.schemas import Any_, Schema, Str, form_body, form_fields, json_body, no_body
from director.services import Invalid
from director.services import waiting_list as service
from director.views import money as money_views
from director.views import seating as seating_views
from director.views.auth import director_required

bp = Blueprint("waiting_list", __name__)

TEXT = 1000
PAGES = ("desk", "seating")


def _text(max_len: int = TEXT) -> Str:
    return Str(required=False, nullable=True, max_len=max_len)


def _value() -> Any_:
    """A number or its digits: the service names the field in its own words."""
    return Any_(required=False, nullable=True)


BUY_IN = Schema({"name": _text(), "person_id": _value(), "table": _value(), "seat": _value(), "reason": _text(),
                 "request_key": _text(200), "back": _text(20)})
ADD = Schema({"name": _text(), "request_key": _text(200), "back": _text(20)})
SEAT = Schema({"request_key": _text(200), "back": _text(20)})
MOVE = Schema({"position": _value(), "back": _text(20)})
NO_SHOW = Schema({"player_id": _value(), "refund": _text(20), "request_key": _text(200),
                  "back": _text(20)})


@bp.app_template_global("waiting_list")
def waiting_list(tournament_id: int) -> service.WaitingView:
    """The room and the waiting list, for the desk's and the seating page's panel."""
    return service.view(tournament_id)


# ---------------------------------------------------------------- director forms

def _back() -> str:
    page = request.form.get("back", "desk")
    return page if page in PAGES else "desk"


def _refused(exc: Invalid, tournament_id: int, **_ids: int) -> Any:
    """The page the form came from again, with the errors beside its forms (400, nothing
    changed)."""
    render = money_views._desk_page if _back() == "desk" else seating_views._page  # noqa: SLF001
    return render(tournament_id, exc.errors, 400, request.form.to_dict())


def _act(tournament_id: int, action: Callable[[], tuple[str, int | None]]) -> Any:
    """Run one service; back to the page with its message, or the page again with the
    errors beside the forms (400, nothing changed)."""
    page = _back()
    try:
        message, ticket = action()
    except Invalid as exc:
        return _refused(exc, tournament_id)
    flash(message)
    if page == "seating":
        return redirect(url_for("seating.page", tournament_id=tournament_id) + "#waiting-list")
    args: dict[str, Any] = {"tournament_id": tournament_id}
    if ticket:
        args["ticket"] = ticket
    return redirect(url_for("money.desk", **args) + ("#ticket" if ticket else "#waiting-list"))


def _seated(name: str, sale: Any) -> str:
    if sale.seat is None:
        return _("%(name)s is registered; seats are drawn later.", name=name)
    return _("%(name)s: table %(table)s seat %(seat)s — %(status)s.", name=name,
             table=sale.seat.to_table, seat=sale.seat.to_seat,
             status=seating_text(sale.seat.status.value))


def _listed(entry: Any) -> str:
    return _("The room is full: %(name)s is number %(position)s on the waiting list. No money "
             "was taken: the buy-in is taken when a seat opens.", name=entry.name,
             position=entry.position)


@bp.post("/director/<int:tournament_id>/desk/buy-in")
@director_required
@form_fields(BUY_IN, "kind", refused=_refused)
def desk_buy_in(tournament_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        form = form_body(BUY_IN)
        result = service.desk_buy_in(tournament_id, form["name"], form["request_key"],
                                     form["table"], form["seat"], form["reason"],
                                     person_id=form["person_id"])
        if result.entry is not None:
            return _listed(result.entry), None
        sale = result.sale
        assert sale is not None
        text = _("%(kind)s taken: %(name)s", kind=money_views.kind_labels()["buy-in"],
                 name=sale.payment.player_name)   # the desk's own words (``money.sell``)
        if sale.seat is not None:
            text += " — " + _("table %(table)s seat %(seat)s", table=sale.seat.to_table,
                              seat=sale.seat.to_seat)
        return text + ".", sale.payment.id
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/waiting-list")
@director_required
@form_fields(ADD, refused=_refused)
def add(tournament_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        form = form_body(ADD)
        entry, _repeated = service.add(tournament_id, form["name"], form["request_key"])
        return _("%(name)s is number %(position)s on the waiting list (not paid yet).",
                 name=entry.name, position=entry.position), None
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/waiting-list/<int:entry_id>/seat")
@director_required
@form_fields(SEAT, refused=_refused)
def seat(tournament_id: int, entry_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        form = form_body(SEAT)
        entry, sale = service.seat_next(tournament_id, entry_id, form["request_key"])
        return (_("From the waiting list: buy-in taken.") + " " + _seated(entry.name, sale),
                sale.payment.id)
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/waiting-list/<int:entry_id>/remove")
@director_required
@no_body("back", refused=_refused)
def remove(tournament_id: int, entry_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        entry = service.remove(tournament_id, entry_id)
        return _("%(name)s is off the waiting list.", name=entry.name), None
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/waiting-list/<int:entry_id>/move")
@director_required
@form_fields(MOVE, refused=_refused)
def move(tournament_id: int, entry_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        entry = service.move(tournament_id, entry_id, form_body(MOVE)["position"])
        return _("%(name)s is now number %(position)s on the waiting list.", name=entry.name,
                 position=entry.position), None
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/waiting-list/no-show")
@director_required
@form_fields(NO_SHOW, refused=_refused)
def no_show(tournament_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        form = form_body(NO_SHOW)
        done = service.no_show(tournament_id, form["player_id"], form["refund"],
                               form["request_key"])
        words = {"refund": _("buy-in refunded"), "keep": _("buy-in kept, not refunded")}
        text = _("Alternate %(name)s takes the place of %(no_show)s (%(buy_in)s).",
                 name=done.entry.name, no_show=done.no_show,
                 buy_in=words.get(done.refund, "")) if done.no_show else ""
        return (text + " " + _seated(done.entry.name, done.sale)).strip(), done.sale.payment.id
    return _act(tournament_id, do)


# ---------------------------------------------------------------- JSON

def _sale_json(sale: Any) -> dict[str, Any]:
    seat_ = None if sale.seat is None else {"table": sale.seat.to_table,
                                            "seat": sale.seat.to_seat,
                                            "status": sale.seat.status.value}
    return {"payment_id": sale.payment.id, "player_id": sale.player.id if sale.player else None,
            "name": sale.payment.player_name, "seat": seat_,
            "person_id": sale.player.person_id if sale.player else None}


@bp.get("/api/tournaments/<int:tournament_id>/waiting-list")
@director_required
def api_list(tournament_id: int) -> Response:
    return jsonify(service.view_json(tournament_id))


@bp.post("/api/tournaments/<int:tournament_id>/desk/buy-in")
@director_required
def api_desk_buy_in(tournament_id: int) -> Any:
    body = json_body(BUY_IN)
    result = service.desk_buy_in(tournament_id, body["name"], body["request_key"],
                                 body["table"], body["seat"], body["reason"],
                                 person_id=body["person_id"])
    answer = {"sale": _sale_json(result.sale) if result.sale else None,
              "waiting": service.entry_json(result.entry) if result.entry else None,
              "repeated": result.repeated, "waiting_list": service.view_json(tournament_id)}
    return jsonify(answer), 200 if result.repeated else 202 if result.entry else 201


@bp.post("/api/tournaments/<int:tournament_id>/waiting-list")
@director_required
def api_add(tournament_id: int) -> Any:
    body = json_body(ADD)
    entry, repeated = service.add(tournament_id, body["name"], body["request_key"])
    return jsonify({"entry": service.entry_json(entry), "repeated": repeated,
                    "waiting_list": service.view_json(tournament_id)}), 200 if repeated else 201


@bp.post("/api/tournaments/<int:tournament_id>/waiting-list/<int:entry_id>/seat")
@director_required
def api_seat(tournament_id: int, entry_id: int) -> Any:
    body = json_body(SEAT)
    entry, sale = service.seat_next(tournament_id, entry_id, body["request_key"])
    return jsonify({"entry": service.entry_json(entry), "sale": _sale_json(sale),
                    "repeated": sale.repeated,
                    "waiting_list": service.view_json(tournament_id)}), \
        200 if sale.repeated else 201


@bp.post("/api/tournaments/<int:tournament_id>/waiting-list/<int:entry_id>/remove")
@director_required
@no_body()
def api_remove(tournament_id: int, entry_id: int) -> Any:
    entry = service.remove(tournament_id, entry_id)
    return jsonify({"entry": service.entry_json(entry),
                    "waiting_list": service.view_json(tournament_id)})


@bp.post("/api/tournaments/<int:tournament_id>/waiting-list/<int:entry_id>/move")
@director_required
def api_move(tournament_id: int, entry_id: int) -> Any:
    entry = service.move(tournament_id, entry_id, json_body(MOVE)["position"])
    return jsonify({"entry": service.entry_json(entry),
                    "waiting_list": service.view_json(tournament_id)})


@bp.post("/api/tournaments/<int:tournament_id>/waiting-list/no-show")
@director_required
def api_no_show(tournament_id: int) -> Any:
    body = json_body(NO_SHOW)
    done = service.no_show(tournament_id, body["player_id"], body["refund"], body["request_key"])
    return jsonify({"entry": service.entry_json(done.entry), "sale": _sale_json(done.sale),
                    "no_show": done.no_show, "refund": done.refund, "repeated": done.repeated,
                    "waiting_list": service.view_json(tournament_id)}), \
        200 if done.repeated else 201
