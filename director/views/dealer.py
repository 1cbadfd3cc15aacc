"""The dealer's pages: pairing a tablet, the tablet itself, and the director's
pairing page (codes, QR codes, revoke, hand histories).

The tablet page is a shell: ``static/dealer.js`` drives it through the JSON
API (``director.views.dealer_api``), so the page and scripts use one contract.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
from typing import Any

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from director import security
from director.lan import ca_certificate, lan_address
from director.schemas import FieldError, form_body, form_fields, no_body, whole_number
from director.services import Invalid, NotFound, dealer_bodies
from director.services import dealer as dealer_service
from director.services import dealer_pairing as pairing_service
from director.services import dealer_shot_clock as shot_clock_service
from director.services.clock import get_tournament
from director.services.dealer import Illegal
from director.views.auth import director_required
from director.views.dealer_api import Forbidden, dealer_role, pair_tablet, remember_pairing

bp = Blueprint("dealer", __name__)


@functools.lru_cache(maxsize=1024)
def qr_svg(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG (no external service).  Kept: a table's link
    changes only with its code, and the tablets page of 120 tables spent 0.9 s making
    them again at every look."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff")
    return Markup(svg)  # noqa: S704  (segno's own SVG, the URL is escaped by segno)


@functools.lru_cache(maxsize=1024)
def qr_image(url: str) -> bytes:
    """The QR code of ``url`` as an SVG file (a table's image on the tablets page)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#000",
                                    light="#fff", xmldecl=False)
    return out.getvalue()


def _qr_version(url: str) -> str:
    """A table's QR code image address changes with its link (a new code, another host)."""
    return hashlib.sha256(url.encode()).hexdigest()[:16]


@bp.get("/dealer/")
def pair_page() -> Any:
    """The pairing form; a tablet still paired (not revoked) goes straight to its table,
    unless it came with a code (a QR code of another table: it is paired again)."""
    paired = security.dealer_table_id()
    if paired is not None and not request.args.get("code"):
        try:
            if dealer_role(paired) == "dealer":
                return redirect(url_for("dealer.tablet", table_id=paired))
        except Forbidden:
            pass
    return render_template("dealer/pair.html", table=request.args.get("table", ""),
                           code=request.args.get("code", ""), errors={})


@bp.post("/dealer/pair")
@security.public_write("a tablet types its table's number and the code the director gave it")
@form_fields(dealer_bodies.PAIR, refused=lambda exc: (_pair_again(
    request.form.get("table", ""), request.form.get("code", ""), exc.errors), 400))
def pair_form() -> Any:
    try:
        table_id, token = pair_tablet(lambda: form_body(dealer_bodies.PAIR))
    except Invalid as exc:
        return _pair_again(request.form.get("table", ""), request.form.get("code", ""),
                           exc.errors), 400
    except security.Locked as exc:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else {}
        return _pair_again(request.form.get("table", ""), request.form.get("code", ""),
                           {"code": str(exc.description)}), 429, headers
    remember_pairing(table_id, token)
    return redirect(url_for("dealer.tablet", table_id=table_id))


def _pair_again(table: str, code: str, errors: dict[str, str]) -> str:
    """The pairing form again, with what was typed and why it was refused."""
    return render_template("dealer/pair.html", table=table, code=code, errors=errors)


@bp.get("/dealer/table/<int:table_id>")
def tablet(table_id: int) -> Any:
    try:
        who = dealer_role(table_id)
    except Forbidden:
        who = None
    if who is None:
        flash(_("Enter this table's pairing code first"))
        return redirect(url_for("dealer.pair_page"))
    tournament_id = dealer_service.table_tournament(table_id)
    table = dealer_service.get_table(table_id)
    return render_template("dealer/tablet.html", table_id=table_id, table=table, who=who,
                           tournament=get_tournament(tournament_id),
                           rulings=dealer_bodies.ruling_forms())


def _tablet_base() -> str:
    """The address tablets use: the one the director's browser used, unless that is
    this laptop itself (localhost), in which case the room network address."""
    base = request.host_url.rstrip("/")
    host = request.host.split(":")[0]
    if host in ("localhost", "127.0.0.1", "::1", "[::1]"):
        lan = lan_address()
        if lan:
            port = request.host.rsplit(":", 1)[1] if ":" in request.host else ""
            base = f"{request.scheme}://{lan}" + (f":{port}" if port else "")
    return base


TABLES_SHOWN = 20       # the tables on the tablets page, a page at a time ("More tables")


@bp.get("/director/<int:tournament_id>/dealers")
@director_required
def pairing_page(tournament_id: int) -> tuple[str, int]:
    """Each table's code, QR code and links, ``TABLES_SHOWN`` tables at a time
    (``?tables=`` the first one's place) or the table a search names (``?table=`` its
    number): the page of 120 tables was 135 KB.  Every locked table is named above."""
    tournament = get_tournament(tournament_id)
    error, number = None, None
    if request.args.get("table", "").strip():
        try:
            number = whole_number(request.args["table"], low=1, high=10**6, label=_("Table number"))
        except FieldError as exc:
            error = str(exc)
    page = pairing_service.tables_page(tournament_id, request.args.get("tables", 0, type=int) or 0,
                                       TABLES_SHOWN, number, keep_within=True)
    tables = page.tables
    base = _tablet_base()
    for table in tables:
        table["url"] = _pairing_url(base, table)
        table["qr_version"] = _qr_version(table["url"])   # each QR code is its own image
    counts = dealer_service.hand_counts(t["table_id"] for t in tables)
    for table in tables:
        table["hands"] = counts.get(table["table_id"], 0)
    ca = ca_certificate(current_app.instance_path)    # director serve --tls: the tablets trust it
    ca_url = f"{base}/ca.crt" if ca else None
    return render_template("dealer/pairing.html", tournament=tournament, tables=tables,
                           locked=page.locked, total=page.total,
                           start=page.start, step=TABLES_SHOWN, number=number, error=error,
                           searched=request.args.get("table", "")[:30],
                           pair_url=f"{base}{url_for('dealer.pair_page')}",
                           ca_url=ca_url, ca_qr=qr_svg(ca_url) if ca_url else None,
                           ca_fingerprint=ca[1] if ca else None), 400 if error else 200


def _pairing_url(base: str, table: dict[str, Any]) -> str:
    return f"{base}{url_for('dealer.pair_page')}?table={table['number']}&code={table['code']}"


@bp.get("/director/<int:tournament_id>/dealers/<int:table_id>/qr.svg")
@director_required
def pairing_qr(tournament_id: int, table_id: int) -> Response:
    """A table's QR code for the tablets page (120 tables inline were 348 KB a look):
    kept by the director's browser while its link is the same (``?v=``)."""
    table = pairing_service.pairing_codes(tournament_id, [table_id]).get(table_id)
    if table is None:
        abort(404)
    url = _pairing_url(_tablet_base(), table)
    response = Response(qr_image(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = ("private, max-age=86400, immutable"
                                         if request.args.get("v") == _qr_version(url)
                                         else "private, no-cache")
    return response


HANDS_SHOWN = 30        # the newest hands of a table on its page ("Older hands" for more)


def _hands_page(tournament_id: int, table_id: int, errors: dict[int, str] | None = None,
                drafts: dict[int, str] | None = None, status: int = 200) -> tuple[str, int]:
    tournament = get_tournament(tournament_id)
    if dealer_service.table_tournament(table_id) != tournament_id:
        raise NotFound(_("There is no table %(id)s in this tournament", id=table_id))
    before = request.args.get("before", type=int)
    rows = dealer_service.hands_of_table(table_id, newest=HANDS_SHOWN, before=before)
    hands = []
    used = shot_clock_service.times_used(rows)
    for row in reversed(rows):      # what each hand shows, not the tablet's whole state
        events = json.dumps(dealer_service.event_list(row), indent=1)
        hands.append({"row": row, "award_text": dealer_service.award_text(row),
                      "events": (drafts or {}).get(row.id, events),
                      "error": (errors or {}).get(row.id), "time_used": used[row.id]})
    older = rows[0].number if len(rows) == HANDS_SHOWN and rows[0].number > 1 else None
    return render_template("dealer/hands.html", tournament=tournament, table_id=table_id,
                           table_number=rows[-1].table_number if rows else None, hands=hands,
                           older=older, newer=before is not None, seat_words=_seat_words()), status


def _seat_words() -> dict[int, str]:
    """"Seat 1" … "Seat 10" in the reader's language, said once a page (the hand list
    said them once for each player of each hand: 540 sentences for 30 hands)."""
    return {n: _("Seat %(seat)s", seat=n) for n in range(1, 11)}


@bp.get("/director/<int:tournament_id>/dealers/<int:table_id>/hands")
@director_required
def hands_page(tournament_id: int, table_id: int) -> tuple[str, int]:
    return _hands_page(tournament_id, table_id)


@bp.post("/director/<int:tournament_id>/dealers/<int:table_id>/hands/<int:hand_id>/correct")
@director_required
@form_fields(dealer_bodies.CORRECT_FORM)
def correct_hand(tournament_id: int, table_id: int, hand_id: int) -> Any:
    """The director corrects a finished hand: its events, edited as JSON; the stacks follow."""
    try:
        events = form_body(dealer_bodies.CORRECT_FORM)["events"]
    except Invalid as exc:
        return _hands_page(tournament_id, table_id, {hand_id: exc.errors["events"]},
                           {hand_id: request.form.get("events", "")}, 400)
    try:
        dealer_service.correct_hand(hand_id, events)
    except Illegal as exc:
        return _hands_page(tournament_id, table_id, {hand_id: exc.message},
                           {hand_id: request.form.get("events", "")}, 422)
    flash(_("Hand corrected: the chip counts follow it"))
    return redirect(url_for("dealer.hands_page", tournament_id=tournament_id, table_id=table_id))


@bp.post("/director/<int:tournament_id>/dealers/<int:table_id>/unlock")
@director_required
@no_body()
def unlock(tournament_id: int, table_id: int) -> Response:
    """Reset a table whose pairing was locked after wrong codes; it gets a new code."""
    if dealer_service.table_tournament(table_id) != tournament_id:
        raise NotFound(_("There is no table %(id)s in this tournament", id=table_id))
    code = pairing_service.unlock(table_id)
    flash(_("The table can pair again; its new code is %(code)s", code=code))
    return _back_to(tournament_id, table_id)


@bp.post("/director/<int:tournament_id>/dealers/<int:table_id>/revoke")
@director_required
@no_body()
def revoke(tournament_id: int, table_id: int) -> Response:
    code = pairing_service.revoke(table_id)
    flash(_("Every tablet of this table is unpaired; the new code is %(code)s", code=code))
    return _back_to(tournament_id, table_id)


def _back_to(tournament_id: int, table_id: int) -> Response:
    """The tablets page showing the table just given a new code (its QR code too),
    whichever page of tables the director was on."""
    return redirect(url_for("dealer.pairing_page", tournament_id=tournament_id,
                            table=dealer_service.get_table(table_id).number))
