"""Money pages and their JSON API.

* Director: the money settings and payout table (``/director/<id>/money``),
  the registration desk (``/director/<id>/desk``: search or add a player,
  take the buy-in and show/print the seat, re-entries, rebuys, add-ons, the
  ledger with undo), the deal calculator (``/director/<id>/deal``), and the
  printable house summary (``/director/<id>/money/summary``).
* Public: the results (``/results/<id>``) and their CSV export.
* JSON under ``/api/tournaments/<id>/money...``: the same actions; bad input
  answers 400 naming the field.

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

import functools
import itertools
import secrets
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext as _

from director.i18n import N_, money_filter, number_filter
from director.models.tournament import MAX_CHIPS
from director.schemas import (
    MONEY_SETTINGS,
    Schema,
    form_body,
    form_fields,
    json_body,
    no_body,
    unknown_fields,
)
from director.services import Invalid, get_tournament, once, page_of
from director.services import bounties as bounty_service
from director.services import money as money_service
from director.tournament.payouts import TEMPLATES
from director.views import bodies
from director.views.auth import director_required

bp = Blueprint("money", __name__)


@bp.app_template_global("request_key")
def request_key() -> str:
    """A fresh key for a form: the same post sent twice is recorded once."""
    return secrets.token_urlsafe(16)


@bp.app_template_global("cash")
def cash(amount: int | None, currency: str) -> str:
    """Minor units in the user's locale with the event's currency: 11050 EUR -> "€110.50"."""
    if amount is None:
        return ""
    return money_filter(Decimal(amount).scaleb(-money_service.precision(currency)), currency)


@bp.app_template_global("bounty_heads")
def bounty_heads(tournament_id: int) -> dict[int, str]:
    """Player id -> the bounty on his head now, as money ("€75"), for the seating chart;
    empty when the event has no bounty."""
    currency = bounty_service.setting(tournament_id).currency
    return {pid: cash(amount, currency)
            for pid, amount in bounty_service.heads(tournament_id).items()}


@bp.app_template_global("seats_decided")
def seats_decided(tournament_id: int) -> dict[str, int] | None:
    """A satellite's seats decided (the director's prompt), else None."""
    return money_service.seats_decided(tournament_id)


@bp.app_template_global("event_closed")
def event_closed(tournament_id: int) -> str | None:
    """Why the event takes no change now (finished, cancelled), or None: the money pages' banner."""
    return money_service.closed_reason(get_tournament(tournament_id))


KIND_LABELS = {"buy-in": N_("Buy-in"), "re-entry": N_("Re-entry"), "rebuy": N_("Rebuy"),
               "add-on": N_("Add-on"), "payout": N_("Prize paid")}


def kind_labels() -> dict[str, str]:
    """The payment kinds in the user's language."""
    return {kind: _(label) for kind, label in KIND_LABELS.items()}


def undo_question(payment: Any, currency: str, cash: Callable[[int | None, str], str] = cash
                  ) -> str:
    """The ledger's confirmation, naming what is undone: "Undo the rebuy of Ann Berg,
    €200, 25,000 chips?"."""
    kind = _(money_service.KIND_WORDS.get(payment.kind, payment.kind))
    amount = cash(payment.total, currency)
    if payment.kind == money_service.PAYOUT and payment.note.startswith("Deal"):
        return _("Undo the deal payment of %(name)s, %(amount)s? The whole deal is undone.",
                 name=payment.player_name, amount=amount)
    if payment.chips:
        return _("Undo the %(kind)s of %(name)s, %(amount)s, %(chips)s chips?", kind=kind,
                 name=payment.player_name, amount=amount, chips=number_filter(payment.chips))
    return _("Undo the %(kind)s of %(name)s, %(amount)s?", kind=kind, name=payment.player_name,
             amount=amount)


# ---------------------------------------------------------------- settings

def _proposed_stack() -> Any:
    """The starting stack before the money settings are saved: the structure wizard's
    (``?starting_stack=``, carried from the event it made), else the default."""
    given = request.args.get("starting_stack", type=int)
    if given is not None and 0 < given <= MAX_CHIPS:
        return given
    return money_service.DEFAULTS["starting_stack"]


def _settings_page(tournament_id: int, errors: dict[str, str] | None = None,
                   form: dict[str, Any] | None = None, status: int = 200) -> tuple[str, int]:
    view = money_service.money(tournament_id)
    s = view.settings
    values = {
        "currency": s["currency"], "unit": view.fmt(s["unit"]),
        "buy_in": view.fmt(s["buy_in_prize"]), "fee": view.fmt(s["buy_in_fee"]),
        "starting_stack": _proposed_stack() if not view.configured else s["starting_stack"],
        "late_registration_level": s["late_registration_level"],
        "re_entry": s["re_entry"], "re_entry_max": s["re_entry_max"] or "",
        "re_entry_until": s["re_entry_until"] or "",
        "rebuy": s["rebuy"], "rebuy_price": view.fmt(s["rebuy_prize"]) if s["rebuy"] else "",
        "rebuy_fee": view.fmt(s["rebuy_fee"]) if s["rebuy"] else "",
        "rebuy_chips": s["rebuy_chips"] or "", "rebuy_until": s["rebuy_until"] or "",
        "rebuy_stack_limit": s["rebuy_stack_limit"] if s["rebuy_stack_limit"] is not None else "",
        "rebuy_max": s["rebuy_max"] or "",
        "add_on": s["add_on"], "add_on_price": view.fmt(s["add_on_prize"]) if s["add_on"] else "",
        "add_on_fee": view.fmt(s["add_on_fee"]) if s["add_on"] else "",
        "add_on_chips": s["add_on_chips"] or "", "add_on_break": s["add_on_break"] or "",
        "guarantee": view.fmt(s["guarantee"]), "payout_template": s["payout_template"],
        "custom_payouts": ", ".join(str(int(b) / 100).removesuffix(".0")
                                    for b in (s["custom_shares"] or [])),
        "bounty_kind": s["bounty_kind"], "bounty": view.fmt(s["bounty"]) if s["bounty"] else "",
        "satellite_seat": view.fmt(s["satellite_seat"]) if s["satellite_seat"] else "",
    }
    if form is not None:
        for key in ("re_entry", "rebuy", "add_on"):
            values[key] = bool(form.get(key))
        values.update({k: v for k, v in form.items() if k not in ("re_entry", "rebuy", "add_on")})
    bands = {name: template.bands(max(view.entries, 2) * 3 if view.entries else 200, limit=12)
             for name, template in TEMPLATES.items()}
    return render_template("money/settings.html", view=view, values=values, errors=errors or {},
                           templates=TEMPLATES, bands=bands), status


@bp.route("/director/<int:tournament_id>/money", methods=["GET", "POST"])
@director_required
@form_fields(MONEY_SETTINGS, refused=lambda exc, tournament_id: _settings_page(
    tournament_id, exc.errors, request.form.to_dict(), 400))
def settings(tournament_id: int) -> Any:
    if request.method == "GET":
        return _settings_page(tournament_id)
    try:
        money_service.save_settings(tournament_id, form_body(MONEY_SETTINGS))
    except Invalid as exc:   # the form again, as typed, with each error beside its field
        return _settings_page(tournament_id, exc.errors, request.form.to_dict(), 400)
    flash(_("Money settings saved."))
    return redirect(url_for("money.settings", tournament_id=tournament_id))


# ---------------------------------------------------------------- the desk

def _desk_page(tournament_id: int, errors: dict[str, str] | None = None, status: int = 200,
               form: dict[str, Any] | None = None) -> tuple[str, int]:
    query = request.args.get("q", "") if request.method == "GET" else ""
    data = money_service.desk(tournament_id, query,
                              ledger_before=request.args.get("before", type=int))
    ticket = None
    ticket_id = request.args.get("ticket", type=int)
    if ticket_id:
        ticket = money_service.payment_of(tournament_id, ticket_id)
    # The ledger's 100 lines and the 60 players say the same few amounts and stacks over
    # and over: each is worked out once for the page (a third of its rendering went to them).
    # The waiting list's two parts (the seat choice, the panel) share one reading of it.
    said_cash = functools.lru_cache(maxsize=None)(cash)
    room = functools.lru_cache(maxsize=None)(current_app.jinja_env.globals["waiting_list"])
    return render_template("money/desk.html", **data, errors=errors or {}, form=form or {},
                           ticket=ticket, kind_labels=kind_labels(), cash=said_cash,
                           chips_text=functools.lru_cache(maxsize=None)(number_filter),
                           undo_question=functools.partial(undo_question, cash=said_cash),
                           waiting_list=room), status


@bp.get("/director/<int:tournament_id>/desk")
@director_required
def desk(tournament_id: int) -> Any:
    return _desk_page(tournament_id)


def _refused(exc: Invalid, tournament_id: int, **_ids: int) -> Any:
    """A desk form refused: back to the phone with the reasons, or the desk again with
    the errors beside its forms (400, nothing changed)."""
    if bodies.from_phone():
        bodies.say_refused(_("Not done: %(reasons)s"), exc)
        return redirect(url_for("director.phone", tournament_id=tournament_id))
    return _desk_page(tournament_id, exc.errors, 400, request.form.to_dict())


def _act(tournament_id: int, action: Callable[[], tuple[str, int | None]]) -> Any:
    phone = bodies.from_phone()
    try:
        message, ticket = action()
    except Invalid as exc:
        return _refused(exc, tournament_id)
    flash(message)
    if phone:
        return redirect(url_for("director.phone", tournament_id=tournament_id))
    args: dict[str, Any] = {"tournament_id": tournament_id}
    if ticket:
        args["ticket"] = ticket
    return redirect(url_for("money.desk", **args) + ("#ticket" if ticket else "#ledger"))


@bp.get("/director/<int:tournament_id>/money/receipts/<int:payment_id>")
@director_required
def receipt(tournament_id: int, payment_id: int) -> str:
    """A printable receipt for one line of the ledger (a buy-in, re-entry, rebuy, add-on,
    or a prize paid): the event, the player, each part paid and its total."""
    payment = money_service.payment_of(tournament_id, payment_id)
    if payment is None:
        abort(404)
    view = money_service.money(tournament_id)
    return render_template("money/receipt.html", view=view, payment=payment,
                           kind=kind_labels().get(payment.kind, payment.kind))


@bp.post("/director/<int:tournament_id>/desk/sell")
@director_required
@form_fields(bodies.MONEY_SELL_FORM, "back", refused=_refused)
def sell(tournament_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        form = form_body(bodies.MONEY_SELL_FORM)
        sale = money_service.sell_entry(
            tournament_id, form["kind"], name=form["name"], player_id=form["player_id"],
            stack=form["stack"], request_key=form["request_key"], person_id=form["person_id"])
        view_kind = kind_labels().get(sale.payment.kind, sale.payment.kind)
        text = _("%(kind)s taken: %(name)s", kind=view_kind, name=sale.payment.player_name)
        if sale.seat is not None:
            text += " — " + _("table %(table)s seat %(seat)s", table=sale.seat.to_table,
                              seat=sale.seat.to_seat)
        if sale.payment.chips and sale.payment.kind in ("rebuy", "add-on"):
            text += " " + _("(+%(chips)s chips)", chips=number_filter(sale.payment.chips))
        text += "."
        new_entry = sale.payment.kind in money_service.ENTRY_KINDS
        return text, sale.payment.id if new_entry else None
    return _act(tournament_id, do)


@bp.post("/director/<int:tournament_id>/desk/payments/<int:payment_id>/undo")
@director_required
@no_body("back", refused=_refused)
def undo(tournament_id: int, payment_id: int) -> Any:
    def do() -> tuple[str, int | None]:
        payment = money_service.undo(tournament_id, payment_id)
        return (_("Undone: %(kind)s of %(name)s.",
                  kind=kind_labels().get(payment.kind, payment.kind).lower(),
                  name=payment.player_name), None)
    return _act(tournament_id, do)


# ---------------------------------------------------------------- deals

@bp.route("/director/<int:tournament_id>/deal", methods=["GET", "POST"])
@director_required
@form_fields("method", "left_to_play", "stacks_reason", "stack_*", "amount_*", "place_*")
def deal(tournament_id: int) -> Any:
    """The calculator (GET: method and stacks in the query) and the agreed amounts (POST)."""
    data = (request.args if request.method == "GET" else request.form).to_dict()
    schema = money_service.deal_body(tournament_id)
    errors: dict[str, str] = {}
    body: dict[str, Any] | None
    try:
        if request.method == "POST":   # a stack or an amount of a player not in the deal
            unknown_fields(data, schema.fields)
        body = schema.load(data, form=True)
    except Invalid as exc:
        errors = exc.errors
        # Show the calculation again with what was right (the amounts are typed again).
        body = _first_loadable(schema, data)
    if request.method == "POST" and body is not None and not errors:
        try:
            saved = money_service.save_deal(tournament_id, body, bodies.idempotency_key())
        except Invalid as exc:
            errors = exc.errors
        except once.Applied as applied:   # a double click on Save and pay: saved once
            flash(bodies.done_already(applied))
            return redirect(url_for("money.results", tournament_id=tournament_id))
        else:
            if saved["left_to_play"]:
                view = money_service.money(tournament_id)
                flash(_("The deal is saved and paid; %(amount)s is left to play for, so the event "
                        "goes on.", amount=cash(saved["left_to_play"], view.currency)))
            else:
                flash(_("The deal is saved and paid, and the event is finished: see the "
                        "results."))
            return redirect(url_for("money.results", tournament_id=tournament_id))
    view = money_service.money(tournament_id)
    quote = None
    if body is not None:
        try:
            view, quote = money_service.deal_quote(tournament_id, body)
        except Invalid as exc:
            errors = {**exc.errors, **errors}
    return render_template("money/deal.html", view=view, quote=quote, errors=errors,
                           methods={key: _(label) for key, label in
                                    money_service.DEAL_METHODS.items()},
                           method=data.get("method") or "icm",
                           stacks_refusal=money_service.stacks_refusal(quote) if quote else None,
                           bounties_left=cash(sum(bounty_service.heads(tournament_id).values()),
                                              view.currency),
                           reason=str(data.get("stacks_reason") or "")[:300]), \
        400 if errors and request.method == "POST" else 200


def _first_loadable(schema: Schema, data: dict[str, Any]) -> dict[str, Any] | None:
    """The body without the agreed amounts, or with only the method, or with nothing."""
    for keep in (lambda key: not key.startswith("amount_"), lambda key: key == "method",
                 lambda key: False):
        try:
            return schema.load({k: v for k, v in data.items() if keep(k)}, form=True)
        except Invalid:
            continue
    return None


# ---------------------------------------------------------------- results and summary

RESULTS_PAGE = 100      # lines of the results page (the CSV has them all)


@bp.get("/results/<int:tournament_id>")
def results(tournament_id: int) -> str:
    total = money_service.results_count(tournament_id)
    pages, page = _page_of(total)
    view, shown = money_service.results(tournament_id, offset=(page - 1) * RESULTS_PAGE,
                                        limit=RESULTS_PAGE)
    return render_template("money/results.html", view=view, rows=shown, page=page, pages=pages,
                           total=total)


def _page_of(total: int) -> tuple[int, int]:
    """The results' pages for ``total`` lines, and the page asked for (``?page=``, kept
    within them)."""
    return page_of(total, RESULTS_PAGE, request.args.get("page", 1, type=int) or 1)


@bp.get("/results/<int:tournament_id>.csv")
def results_csv(tournament_id: int) -> Response:
    # A byte-order mark first, so that Excel reads the UTF-8 (Öberg, not Ã–berg).
    # Streamed: the rows are worked out first (a 404 before anything is sent), then
    # sent in pieces.
    chunks = money_service.results_csv_chunks(tournament_id)
    first = "\ufeff" + next(chunks)
    body = stream_with_context(itertools.chain([first], chunks))
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="results-{tournament_id}.csv"'})


@bp.post("/director/<int:tournament_id>/results/<int:player_id>/pay")
@director_required
@form_fields(bodies.MONEY_PAY)
def pay(tournament_id: int, player_id: int) -> Any:
    try:
        key = form_body(bodies.MONEY_PAY)["request_key"]
        payment = money_service.pay_prize(tournament_id, player_id, key).payment
    except Invalid as exc:
        bodies.say_refused(_("Not paid: %(reasons)s"), exc)
    else:
        view = money_service.money(tournament_id)
        # The amount as the results table shows it ("€210.00", "210,00 €").
        flash(_("Paid %(amount)s to %(name)s.", amount=cash(payment.prize, view.currency),
                name=payment.player_name))
    return redirect(url_for("money.results", tournament_id=tournament_id))


@bp.get("/director/<int:tournament_id>/money/summary")
@director_required
def summary(tournament_id: int) -> str:
    return render_template("money/summary.html", **money_service.summary(tournament_id),
                           kind_labels=kind_labels())


# ---------------------------------------------------------------- JSON

def payment_json(view: money_service.Money, payment: Any) -> dict[str, Any]:
    return {"id": payment.id, "kind": payment.kind, "player_id": payment.player_id,
            "player_name": payment.player_name, "prize": payment.prize, "fee": payment.fee,
            "total": payment.total, "chips": payment.chips, "level": payment.level,
            "note": payment.note, "created_at": money_service.iso(payment.created_at),
            "undone": payment.undone}


WRITE_LEDGER_ROWS = 20   # the ledger lines a write answers with (a page was 24 KB)


def money_json(tournament_id: int, before: int | None = None,
               lines: int | None = None) -> dict[str, Any]:
    """The event's money; ``ledger``: its newest lines (``lines``, else ``LEDGER_ROWS``)
    before payment ``before``, oldest first, and ``ledger_older``: the ``before`` of
    the lines older than those (null: none).  At 2,400 entries the whole ledger was
    483 KB; a write (the settings, an undo) answers its newest ``WRITE_LEDGER_ROWS``."""
    view = money_service.money(tournament_id)
    page = money_service.ledger(tournament_id, before=before, limit=lines)
    late = view.late
    return {
        "tournament_id": tournament_id, "configured": view.configured,
        "settings": view.settings, "currency": view.currency,
        "amounts_in": "minor units (cents)",
        "entries": view.entries, "re_entries": view.re_entries, "rebuys": view.rebuys,
        "add_ons": view.add_ons, "chips_in_play": view.chips_in_play,
        "players_left": view.players_left,
        "collected": view.pool.collected, "fees": view.pool.fees,
        "guarantee": view.pool.guarantee, "overlay": view.pool.overlay,
        "prize_pool": view.pool.total, "paid": view.paid,
        "bounty": {"kind": view.bounty_kind, "amount": view.bounty, "taken": view.bounties},
        "satellite": None if view.satellite is None else {
            "seat_value": view.satellite.seat_value, "seats": view.satellite.seats,
            "remainder": view.satellite.remainder, "remainder_place": view.satellite.remainder_place},
        "payouts": {"locked": view.locked,
                    "percentages": list(view.table.percentages()) if view.table else [],
                    "amounts": list(view.amounts)},
        "level": view.at.level, "on_break": view.at.on_break,
        "late_registration": None if late is None else {
            "level": late.level, "open": late.open, "seconds": late.seconds},
        "ledger": [payment_json(view, p) for p in reversed(page.lines)],
        "ledger_older": page.older,
    }


@bp.get("/api/tournaments/<int:tournament_id>/money")
@director_required
def api_money(tournament_id: int) -> Response:
    return jsonify(money_json(tournament_id, request.args.get("before", type=int)))


@bp.route("/api/tournaments/<int:tournament_id>/money/settings", methods=["PUT", "POST"])
@director_required
def api_settings(tournament_id: int) -> Response:
    money_service.save_settings(tournament_id, json_body(MONEY_SETTINGS))
    return jsonify(money_json(tournament_id, lines=WRITE_LEDGER_ROWS))


@bp.post("/api/tournaments/<int:tournament_id>/money/entries")
@director_required
def api_sell(tournament_id: int) -> Any:
    body = json_body(bodies.MONEY_SELL)
    sale = money_service.sell_entry(tournament_id, body["kind"], name=body["name"],
                                    player_id=body["player_id"], stack=body["stack"],
                                    request_key=body["request_key"], person_id=body["person_id"])
    seat = None if sale.seat is None else {"table": sale.seat.to_table, "seat": sale.seat.to_seat,
                                           "status": sale.seat.status.value}
    view = money_service.money(tournament_id)
    return jsonify({"payment": payment_json(view, sale.payment),
                    "player_id": sale.player.id if sale.player else None,
                    "person_id": sale.player.person_id if sale.player else None,
                    "seat": seat, "repeated": sale.repeated,
                    "prize_pool": view.pool.total}), 200 if sale.repeated else 201


@bp.post("/api/tournaments/<int:tournament_id>/money/payments/<int:payment_id>/undo")
@director_required
@no_body()
def api_undo(tournament_id: int, payment_id: int) -> Response:
    money_service.undo(tournament_id, payment_id)
    return jsonify(money_json(tournament_id, lines=WRITE_LEDGER_ROWS))


@bp.post("/api/tournaments/<int:tournament_id>/money/deal/quote")
@director_required
def api_deal_quote(tournament_id: int) -> Response:
    body = json_body(money_service.deal_body(tournament_id))
    view, quote = money_service.deal_quote(tournament_id, body)
    return jsonify({"method": quote.method, "money_left": quote.money_left,
                    "left_to_play": quote.left_to_play, "dealt": quote.dealt,
                    "chips_in_play": quote.chips_in_play, "stacks_total": quote.stacks_total,
                    "stacks_difference": quote.stacks_difference,
                    "stacks_refusal": money_service.stacks_refusal(quote),
                    "players": [{"player_id": p.id, "name": p.name, "stack": s, "amount": a}
                                for p, s, a in zip(quote.players, quote.stacks, quote.amounts,
                                                   strict=True)]})


@bp.post("/api/tournaments/<int:tournament_id>/money/deal")
@director_required
def api_deal(tournament_id: int) -> Any:
    body = json_body(money_service.deal_body(tournament_id))
    try:
        deal = money_service.save_deal(tournament_id, body, bodies.idempotency_key())
    except once.Applied:        # sent again: the deal as it was saved
        deal = money_service.money(tournament_id).deal
        return jsonify({"deal": deal, "status": get_tournament(tournament_id).lifecycle.value,
                        "done_already": True}), 200
    return jsonify({"deal": deal, "status": get_tournament(tournament_id).lifecycle.value}), 201


@bp.post("/api/tournaments/<int:tournament_id>/results/<int:player_id>/pay")
@director_required
def api_pay(tournament_id: int, player_id: int) -> Any:
    paid = money_service.pay_prize(tournament_id, player_id,
                                   json_body(bodies.MONEY_PAY)["request_key"])
    view = money_service.money(tournament_id)
    return jsonify({"payment": payment_json(view, paid.payment), "repeated": paid.repeated}), \
        200 if paid.repeated else 201


@bp.get("/api/tournaments/<int:tournament_id>/results")
def api_results(tournament_id: int) -> Response:
    view = money_service.money(tournament_id)
    total = money_service.results_count(tournament_id, placed=True, bounty_winners=True,
                                        view=view)
    pages, page = _page_of(total)
    view, rows = money_service.results(tournament_id, placed=True, bounty_winners=True,
                                       offset=(page - 1) * RESULTS_PAGE, limit=RESULTS_PAGE,
                                       view=view)
    return jsonify({"currency": view.currency, "prize_pool": view.pool.total,
                    "page": page, "pages": pages, "total": total,
                    "results": [{"place": r.place, "place_last": r.place_last, "name": r.name,
                                 "prize": r.prize, "paid": r.paid, "deal": r.deal,
                                 "player_id": r.player_id, "bounties": r.bounties,
                                 "knocked_out_by": r.knocked_out_by, "seat": r.seat}
                                for r in rows if r.place is not None or r.deal or r.bounties]})
