"""The blind-structure wizard (issue 17): the director's page and its JSON API.

* ``/director/wizard``: the event's facts in a form; the proposal as a table
  with the start times, the expected end and the colour-ups; **Create the
  tournament** (the new-tournament form's import) or **Replace the structure**
  of an event that has not started.  The director then edits it like any
  structure.
* ``POST /api/structures/wizard`` (director): the facts as JSON -> the
  proposed structure in the export format plus ``wizard``.

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from director.local_time import event_zone_name, zone
from director.poker.games import Game
from director.schemas import form_fields, json_body
from director.services import Invalid
from director.services import tournaments as tournament_service
from director.services import wizard as wizard_service
from director.tournament.structure import entry_numbers, entry_starts
from director.views import bodies
from director.views.auth import director_required

bp = Blueprint("wizard", __name__)

DEFAULTS = {"starting_stack": "20000", "chips": "25, 100, 500, 1000, 5000", "players": "60",
            "duration": "8", "level_minutes": "", "games": ["PO"], "start": "", "name": ""}
HOURS = re.compile(r"\s*(\d{1,2})(?:[:.,](\d{1,2}))?\s*h?\s*")


def _whole(text: str) -> Any:
    """A number as typed ("20,000", "20 000"), else the text (the wizard names the field)."""
    clean = text.strip().replace(",", "").replace(" ", "").replace("\u00a0", "")
    return int(clean) if clean.isdigit() and len(clean) < 16 else (clean or None)


def _minutes(text: str) -> Any:
    """A duration in hours as typed: "8", "7:30", "7.5" -> minutes."""
    match = HOURS.fullmatch(text or "")
    if not match:
        return text or None
    hours, rest = int(match.group(1)), match.group(2)
    if rest is None:
        return hours * 60
    if ":" in text:
        return hours * 60 + int(rest)
    return round((hours + float("0." + rest)) * 60)


def _body(form: Any) -> dict[str, Any]:
    """The form as the wizard's JSON body (the start in the event's own time zone)."""
    chips = [_whole(part) for part in re.split(r"[,;\s]+", form.get("chips", "")) if part]
    start: Any = None
    if form.get("start"):
        try:
            start = datetime.fromisoformat(form["start"]).replace(tzinfo=zone(event_zone_name()))
        except ValueError:
            start = form["start"]
    return {"starting_stack": _whole(form.get("starting_stack", "")), "chips": chips,
            "players": _whole(form.get("players", "")),
            "duration_minutes": _minutes(form.get("duration", "")),
            "level_minutes": _whole(form.get("level_minutes", "")),
            "games": form.getlist("games"), "start": start, "name": form.get("name", "")}


def _page(form: dict[str, Any], proposal: dict[str, Any] | None = None,
          errors: dict[str, str] | None = None, status: int = 200) -> tuple[str, int]:
    events = [t for t in tournament_service.list_tournaments() if not t.started]
    levels = proposal["levels"] if proposal else []
    return render_template(
        "director/wizard.html", form=form, proposal=proposal, errors=errors or {},
        numbers=entry_numbers(levels), starts=entry_starts(level["duration_seconds"] for level in levels),
        games=[game.value for game in Game], events=events,
        structure_json=json.dumps(proposal, ensure_ascii=False) if proposal else ""), status


@bp.get("/director/wizard")
@director_required
def page() -> Any:
    return _page(DEFAULTS)


@bp.post("/director/wizard")
@director_required
@form_fields(*DEFAULTS, refused=lambda exc: _page(
    {key: request.form.get(key, "") for key in DEFAULTS} | {"games": request.form.getlist("games")},
    errors=exc.errors, status=400))
def propose() -> Any:
    form = {key: request.form.get(key, "") for key in DEFAULTS} | {
        "games": request.form.getlist("games")}
    try:
        proposal = wizard_service.propose(_body(request.form))
    except Invalid as exc:
        errors = {("duration" if key == "duration_minutes" else key): value
                  for key, value in exc.errors.items()}
        return _page(form, errors=errors, status=400)
    return _page(form, proposal)


@bp.post("/api/structures/wizard")
@director_required
def api_propose() -> Response:
    return jsonify(wizard_service.propose(json_body(known=wizard_service.FIELDS)))


@bp.post("/director/wizard/apply")
@director_required
@form_fields("tournament_id", "structure_json")
def apply() -> Any:
    """Replace the structure of the chosen event (not started) with the proposal."""
    tournament_id = _whole(request.form.get("tournament_id", ""))
    if not isinstance(tournament_id, int) or not 0 < tournament_id < 2**63:
        flash(_("Choose the tournament whose structure the proposal replaces"))
        return redirect(url_for("wizard.page"))
    try:
        tournament_service.import_structure(tournament_id, request.form.get("structure_json", ""))
    except Invalid as exc:
        bodies.say_refused(_("Not changed: %(reasons)s"), exc)
        return redirect(url_for("wizard.page"))
    flash(_("Structure imported."))
    return redirect(url_for("director.tournament", tournament_id=tournament_id))
