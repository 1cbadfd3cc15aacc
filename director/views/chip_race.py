"""The chip set, the colour-ups and the chip race (issue 17): the director's page and API.

* ``/director/<id>/chip-race``: the chip set (saved on the event), the
  colour-ups the structure allows, and the race for the smallest chip in
  play: each player's count of that chip, table by table; **Run the race**
  shows who gets the new chips, **Confirm** writes the stacks and moves the
  smallest chip in play up.
* ``GET/PUT /api/tournaments/<id>/chips`` and ``POST /api/tournaments/<id>/chip-race``
  (``{"counts": {player id: count}, "seed"?, "removed"?, "confirm"?, "idempotency_key"?}``:
  ``removed`` the chip the race is for, refused once it is no longer the smallest in
  play; a confirmed race sent again with its key colours up nothing more).

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from director.schemas import form_fields, json_body
from director.services import Invalid, once
from director.services import chip_race as chip_service
from director.services.clock import get_tournament
from director.views.auth import director_required
from director.views.bodies import done_already, idempotency_key

bp = Blueprint("chip_race", __name__)


def _page(tournament_id: int, *, result: dict[str, Any] | None = None,
          counts: dict[str, str] | None = None, errors: dict[str, str] | None = None,
          chip_text: str | None = None, status: int = 200) -> tuple[str, int]:
    tournament = get_tournament(tournament_id)
    view = chip_service.chip_view(tournament_id)
    seated = chip_service.seated_players(tournament_id) if view["next"] else []
    return render_template(
        "director/chip_race.html", tournament=tournament, view=view, result=result,
        seated=seated, counts=counts or {}, errors=errors or {},
        chip_text=chip_text if chip_text is not None
        else ", ".join(str(c) for c in view["chip_set"] or [])), status


@bp.get("/director/<int:tournament_id>/chip-race")
@director_required
def page(tournament_id: int) -> Any:
    return _page(tournament_id)


@bp.post("/director/<int:tournament_id>/chips")
@director_required
@form_fields("chip_set", refused=lambda exc, tournament_id: _page(
    tournament_id, errors=exc.errors, chip_text=request.form.get("chip_set", ""), status=400))
def save_chips(tournament_id: int) -> Any:
    text = request.form.get("chip_set", "")
    try:
        chip_service.save_chip_set(tournament_id, text)
    except Invalid as exc:
        return _page(tournament_id, errors=exc.errors, chip_text=text, status=400)
    flash(_("Chip set saved."))
    return redirect(url_for("chip_race.page", tournament_id=tournament_id))


def _form_counts() -> dict[str, str]:
    return {key.removeprefix("count-"): value.strip() for key, value in request.form.items()
            if key.startswith("count-")}


@bp.post("/director/<int:tournament_id>/chip-race")
@director_required
@form_fields("count-*", "confirm", "seed", "removed", refused=lambda exc, tournament_id: _page(
    tournament_id, counts=_form_counts(), errors=exc.errors, status=400))
def run(tournament_id: int) -> Any:
    counts = _form_counts()
    confirm = request.form.get("confirm") == "yes"
    body: dict[str, Any] = {"counts": counts}
    seed = request.form.get("seed", "").strip()
    if seed:
        body["seed"] = int(seed) if seed.isdigit() and len(seed) < 12 else seed
    removed = request.form.get("removed", "").strip()
    if removed:
        body["removed"] = int(removed) if removed.isdigit() and len(removed) < 12 else removed
    try:
        result = chip_service.race(tournament_id, body, confirm=confirm,
                                   idempotency_key=idempotency_key() if confirm else None)
    except once.Applied as applied:           # a double click on Confirm
        flash(done_already(applied))
        return redirect(url_for("chip_race.page", tournament_id=tournament_id))
    except Invalid as exc:
        shown = None
        if confirm and set(exc.errors) == {"clock"}:   # the same race stays up, for the break
            shown = chip_service.race(tournament_id, body, confirm=False)
        return _page(tournament_id, result=shown, counts=counts, errors=exc.errors, status=400)
    if confirm:
        flash(_("Colour-up done: the stacks are updated and T%(chip)s is the smallest chip in "
                "play.", chip=result["new"]))
        return redirect(url_for("chip_race.page", tournament_id=tournament_id))
    return _page(tournament_id, result=result, counts=counts)


@bp.get("/api/tournaments/<int:tournament_id>/chips")
def api_chips(tournament_id: int) -> Response:
    return jsonify(chip_service.chip_view(tournament_id))


@bp.put("/api/tournaments/<int:tournament_id>/chips")
@director_required
def api_save_chips(tournament_id: int) -> Response:
    return jsonify(chip_service.save_chip_set(tournament_id, json_body(known=("chip_set",)).get("chip_set")))


@bp.post("/api/tournaments/<int:tournament_id>/chip-race")
@director_required
def api_race(tournament_id: int) -> Response:
    body = json_body(known=("counts", "seed", "removed", "confirm"))
    confirm = body.get("confirm", False)
    if not isinstance(confirm, bool):
        raise Invalid({"confirm": _("Confirm must be true or false")})
    try:
        return jsonify(chip_service.race(tournament_id, body, confirm=confirm,
                                         idempotency_key=idempotency_key() if confirm else None))
    except once.Applied:
        view = chip_service.chip_view(tournament_id)
        return jsonify({"confirmed": True, "done_already": True,
                        "smallest_chip": view["smallest_chip"]})
