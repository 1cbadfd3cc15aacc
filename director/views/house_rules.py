"""The house rules (RULES.md §11.1): the director's page and its JSON API.

* ``/director/<id>/house-rules``: every flag with its label in plain words, the
  TDA default marked, the alternative and its source, one Save.  A bad value
  comes back with the field named and nothing saved.
* ``GET/POST /api/tournaments/<id>/house-rules`` (director token): the flags by
  name; a POST sends any of them (absent keeps the stored value) and a bad one
  answers 400 naming it.

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from director.schemas import HOUSE_RULES, form_body, form_fields, json_body
from director.services import Invalid
from director.services import house_rules as house_service
from director.services.clock import get_tournament
from director.views.auth import director_required

bp = Blueprint("house_rules", __name__)


def _page(tournament_id: int, errors: dict[str, str] | None = None,
          form: dict[str, Any] | None = None, status: int = 200) -> tuple[str, int]:
    tournament = get_tournament(tournament_id)
    stored = house_service.view(tournament_id)
    values = {name: _form_value(value) for name, value in stored["house_rules"].items()}
    values.update(form or {})
    return render_template("director/house_rules.html", tournament=tournament,
                           flags=house_service.FLAGS, groups=house_service.GROUPS,
                           values=values, option_value=_form_value,
                           updated_at=stored["updated_at"], errors=errors or {}), status


def _form_value(value: Any) -> str:
    """A flag's value as the form sends it: ``yes``/``no``, the number, or the choice."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


@bp.get("/director/<int:tournament_id>/house-rules")
@director_required
def page(tournament_id: int) -> Any:
    return _page(tournament_id)


@bp.post("/director/<int:tournament_id>/house-rules")
@director_required
@form_fields(HOUSE_RULES, refused=lambda exc, tournament_id: _page(
    tournament_id, exc.errors, request.form.to_dict(), 400))
def save(tournament_id: int) -> Any:
    try:
        house_service.save(tournament_id, form_body(HOUSE_RULES))
    except Invalid as exc:
        return _page(tournament_id, exc.errors, request.form.to_dict(), 400)
    flash(_("House rules saved: new hands are dealt under them."))
    return redirect(url_for("house_rules.page", tournament_id=tournament_id))


@bp.get("/api/tournaments/<int:tournament_id>/house-rules")
@director_required
def api_get(tournament_id: int) -> Response:
    return jsonify(house_service.view(tournament_id))


@bp.post("/api/tournaments/<int:tournament_id>/house-rules")
@director_required
def api_save(tournament_id: int) -> Response:
    house_service.save(tournament_id, json_body())
    return jsonify(house_service.view(tournament_id))
