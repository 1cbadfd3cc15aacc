"""Players across events: the director's pages and their JSON API.

* ``/director/players``: the room's player list (search, add, CSV export and
  import); ``/director/players/<id>``: one player's record and history;
  ``/director/players/leagues[/<id>]``: leagues and their rankings.
* ``/api/players...``: the same, as JSON (``/api/players/suggest?q=`` is what
  the registration desk asks while a name is typed).

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext as _

from director.models.people import Person
from director.schemas import (
    FORM_TYPES,
    Int,
    List,
    Schema,
    Str,
    form_body,
    form_fields,
    json_body,
    unknown_fields,
)
from director.services import Invalid, page_of, players_csv
from director.services import league as league_service
from director.services import people as people_service
from director.services import players as players_service
from director.views.auth import director_required
from director.views.bodies import idempotency_key
from director.views.body_limits import allow_body

bp = Blueprint("players", __name__)

TEXT = 1000   # long enough that the service's own length rule speaks first


def _text() -> Str:
    return Str(required=False, nullable=True, max_len=TEXT, strip=False)


RECORD = Schema({name: _text() for name in players_service.FIELDS}, partial=True)
RECORD_FORM = Schema({name: _text() for name in players_service.FIELDS})
LEAGUE = Schema({"name": _text(), "formula": _text(),
                 "tournament_ids": List(item=Int(min=1), required=False, nullable=True,
                                        max_items=league_service.MAX_EVENTS, default=[])})


def record_json(person: Person) -> dict[str, Any]:
    return {"id": person.id, "name": person.name, "nickname": person.nickname,
            "email": person.email, "phone": person.phone, "note": person.note,
            "created_at": person.created_at.isoformat().replace("+00:00", "Z")}


def _csv_response(chunks: Iterator[str]) -> Response:
    # A byte-order mark first, so that Excel reads the UTF-8 (Öberg, not Ã–berg).  The
    # first piece is made before the answer starts (its errors answer as errors).
    first = "\ufeff" + next(chunks)
    return Response(stream_with_context(itertools.chain([first], chunks)), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="players.csv"'})


def _upload() -> bytes:
    """The CSV file of an import: a form's ``file``, or the request's body itself."""
    upload = request.files.get("file")
    if upload is not None:
        unknown_fields(dict.fromkeys([*request.form, *request.files]), ("file",))
        return upload.read()
    if request.mimetype in FORM_TYPES:
        unknown_fields(dict.fromkeys([*request.form, *request.files]), ("file",))
        raise Invalid({"file": _("Choose a CSV file to import")})
    return request.get_data()


# ---------------------------------------------------------------- the list

LIST_PAGE = 100     # records a page of the player list shows, on its page and in its API


def _list_view() -> dict[str, Any]:
    """The page of the player list asked for (``?q=``, ``?page=``: a page past the last
    is the last)."""
    query = request.args.get("q", "")
    wanted = min(max(request.args.get("page", 1, type=int) or 1, 1), 2**31)
    lines, matches = players_service.list_records(query, LIST_PAGE, (wanted - 1) * LIST_PAGE)
    pages, _page = page_of(matches, LIST_PAGE, wanted)
    if wanted > pages:
        lines, matches = players_service.list_records(query, LIST_PAGE, (pages - 1) * LIST_PAGE)
        wanted = pages
    return {"lines": lines, "matches": matches, "query": query, "page": wanted, "pages": pages}


def _list_page(errors: dict[str, str] | None = None, form: dict[str, Any] | None = None,
               status: int = 200) -> tuple[str, int]:
    return render_template("players/index.html", **_list_view(),
                           errors=errors or {}, form=form or {},
                           leagues=league_service.list_leagues()), status


@bp.get("/director/players")
@director_required
def index() -> Any:
    return _list_page()


@bp.post("/director/players")
@director_required
@form_fields(RECORD_FORM, refused=lambda exc: _list_page(exc.errors, request.form.to_dict(), 400))
def create() -> Any:
    try:
        person = players_service.create_record(form_body(RECORD_FORM), idempotency_key())
    except Invalid as exc:
        return _list_page(exc.errors, request.form.to_dict(), 400)
    flash(_("%(name)s is on the player list.", name=person.name))
    return redirect(url_for("players.record", person_id=person.id))


@bp.get("/director/players.csv")
@director_required
def export() -> Response:
    return _csv_response(players_csv.export_csv_chunks())


@bp.post("/director/players/import")
@allow_body(players_csv.IMPORT_MAX_BYTES)      # a 50,000-player file (2 MB is 7,000)
@director_required
def import_() -> Any:
    try:
        done = players_csv.import_csv(_upload())
    except Invalid as exc:
        return _list_page(exc.errors, None, 400)
    flash(_("Imported: %(created)s new, %(updated)s updated, %(unchanged)s unchanged.",
            created=done.created, updated=done.updated, unchanged=done.unchanged))
    return redirect(url_for("players.index"))


# ---------------------------------------------------------------- one player

def _record_page(person_id: int, errors: dict[str, str] | None = None,
                 form: dict[str, Any] | None = None, status: int = 200) -> tuple[str, int]:
    person, events, totals = players_service.history(person_id)
    return render_template("players/record.html", person=person, events=events, totals=totals,
                           errors=errors or {}, form=form), status


@bp.get("/director/players/<int:person_id>")
@director_required
def record(person_id: int) -> Any:
    return _record_page(person_id)


@bp.post("/director/players/<int:person_id>")
@director_required
@form_fields(RECORD_FORM, refused=lambda exc, person_id: _record_page(
    person_id, exc.errors, request.form.to_dict(), 400))
def edit(person_id: int) -> Any:
    try:
        players_service.update_record(person_id, form_body(RECORD_FORM))
    except Invalid as exc:
        return _record_page(person_id, exc.errors, request.form.to_dict(), 400)
    flash(_("Player record saved."))
    return redirect(url_for("players.record", person_id=person_id))


# ---------------------------------------------------------------- leagues

def _leagues_page(errors: dict[str, str] | None = None, form: dict[str, Any] | None = None,
                  status: int = 200) -> tuple[str, int]:
    return render_template("players/leagues.html", leagues=league_service.list_leagues(),
                           events=league_service.events_to_pick(),
                           formulas=league_service.formula_labels(), errors=errors or {},
                           form=form or {}, picked=set(request.form.getlist("tournament_ids"))
                           if form else set()), status


@bp.get("/director/players/leagues")
@director_required
def leagues() -> Any:
    return _leagues_page()


@bp.post("/director/players/leagues")
@director_required
@form_fields(LEAGUE, refused=lambda exc: _leagues_page(exc.errors, request.form.to_dict(), 400))
def create_league() -> Any:
    try:
        league = league_service.create_league(form_body(LEAGUE), idempotency_key())
    except Invalid as exc:
        return _leagues_page(exc.errors, request.form.to_dict(), 400)
    flash(_("League saved."))
    return redirect(url_for("players.league", league_id=league.id))


STANDINGS_PAGE = 100    # lines of a league's standings on its page and in its API


def _league_page(league_id: int, errors: dict[str, str] | None = None,
                 status: int = 200) -> tuple[str, int]:
    view = _league_view(league_id)
    picked = set(request.form.getlist("tournament_ids")) if errors else \
        {str(t) for t in view["league"].tournament_ids}
    return render_template("players/league.html", **view,
                           all_events=league_service.events_to_pick(),
                           formulas=league_service.formula_labels(), errors=errors or {},
                           form=request.form.to_dict() if errors else {}, picked=picked), status


@bp.get("/director/players/leagues/<int:league_id>")
@director_required
def league(league_id: int) -> Any:
    return _league_page(league_id)


@bp.post("/director/players/leagues/<int:league_id>")
@director_required
@form_fields(LEAGUE, refused=lambda exc, league_id: _league_page(league_id, exc.errors, 400))
def save_league(league_id: int) -> Any:
    try:
        league_service.save_league(league_id, form_body(LEAGUE))
    except Invalid as exc:
        return _league_page(league_id, exc.errors, 400)
    flash(_("League saved."))
    return redirect(url_for("players.league", league_id=league_id))


# ---------------------------------------------------------------- JSON

@bp.get("/api/players")
@director_required
def api_list() -> Response:
    view = _list_view()
    return jsonify({"matches": view["matches"], "page": view["page"], "pages": view["pages"],
                    "players": [{**record_json(line.person), "events": line.events,
                                 "entries": line.entries} for line in view["lines"]]})


@bp.get("/api/players/suggest")
@director_required
def api_suggest() -> Response:
    """The desk's suggestions while a name is typed: at most 8 records."""
    return jsonify({"players": [record_json(p) for p in
                                people_service.suggestions(request.args.get("q", ""))]})


@bp.post("/api/players")
@director_required
def api_create() -> Any:
    return jsonify(record_json(players_service.create_record(json_body(RECORD),
                                                             idempotency_key()))), 201


def _history_json(person_id: int) -> dict[str, Any]:
    person, events, totals = players_service.history(person_id)
    return {**record_json(person), "events": [{
        "tournament_id": e.tournament.id, "name": e.tournament.name,
        "status": e.tournament.status, "archived": e.tournament.archived_at is not None,
        "date": e.tournament.created_at.isoformat().replace("+00:00", "Z"),
        "currency": e.currency, "entries": e.entries, "re_entries": e.re_entries,
        "rebuys": e.rebuys, "add_ons": e.add_ons, "paid": e.paid, "place": e.best,
        "place_label": e.place, "still_in": e.still_in, "prize": e.prize,
        "prize_paid": e.prize_paid, "bounties": e.bounties, "deal": e.deal} for e in events],
        "totals": {"events": totals.events, "entries": totals.entries, "rebuys": totals.rebuys,
                   "add_ons": totals.add_ons, "wins": totals.wins, "cashes": totals.cashes,
                   "best_place": totals.best, "paid": totals.paid, "won": totals.won,
                   "bounties": totals.bounties},
        "amounts_in": "minor units (cents)"}


@bp.get("/api/players/<int:person_id>")
@director_required
def api_record(person_id: int) -> Response:
    return jsonify(_history_json(person_id))


@bp.route("/api/players/<int:person_id>", methods=["PUT", "PATCH"])
@director_required
def api_edit(person_id: int) -> Response:
    return jsonify(record_json(players_service.update_record(person_id, json_body(RECORD))))


@bp.get("/api/players.csv")
@director_required
def api_export() -> Response:
    return _csv_response(players_csv.export_csv_chunks())


@bp.post("/api/players/import")
@allow_body(players_csv.IMPORT_MAX_BYTES)
@director_required
def api_import() -> Response:
    done = players_csv.import_csv(_upload())
    return jsonify({"created": done.created, "updated": done.updated,
                    "unchanged": done.unchanged})


def _league_view(league_id: int) -> dict[str, Any]:
    """The league with the standings' page asked for (``?page=``)."""
    return league_service.league_view(league_id, request.args.get("page", 1, type=int) or 1,
                                      STANDINGS_PAGE)


def league_json(league_id: int) -> dict[str, Any]:
    view = _league_view(league_id)
    league_row = view["league"]
    return {"id": league_row.id, "name": league_row.name, "formula": league_row.formula,
            "page": view["page"], "pages": view["pages"], "total": view["total"],
            "tournament_ids": [t.id for t in view["events"]],
            "unfinished": [t.id for t in view["unfinished"]],
            "standings": [{"rank": line.rank, "name": line.name, "person_id": line.person_id,
                           "points": line.points, "events": line.events, "best_place": line.best,
                           "by_event": list(line.by_event)} for line in view["lines"]]}


@bp.get("/api/players/leagues")
@director_required
def api_leagues() -> Response:
    return jsonify({"formulas": league_service.formula_labels(), "leagues": [
        {"id": row.id, "name": row.name, "formula": row.formula,
         "tournament_ids": row.tournament_ids} for row in league_service.list_leagues()]})


@bp.post("/api/players/leagues")
@director_required
def api_create_league() -> Any:
    saved = league_service.create_league(json_body(LEAGUE), idempotency_key())
    return jsonify(league_json(saved.id)), 201


@bp.get("/api/players/leagues/<int:league_id>")
@director_required
def api_league(league_id: int) -> Response:
    return jsonify(league_json(league_id))


@bp.put("/api/players/leagues/<int:league_id>")
@director_required
def api_save_league(league_id: int) -> Response:
    league_service.save_league(league_id, json_body(LEAGUE))
    return jsonify(league_json(league_id))
