"""The room's screens (issue 17): the announcement ticker and the room screen.

* ``POST /director/<id>/announcement`` (the tournament page's box) and
  ``POST /api/tournaments/<id>/announcement {"text"}``: the projector's
  ticker (an empty text clears it); the clock JSON carries it.
* ``/room`` (public): several running tournaments at once, one column each
  (``?ids=1,4`` picks them), each live through its own event stream.

Each view parses the request, calls one service and renders.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from director.schemas import form_fields, json_body
from director.services import Invalid, read_model
from director.services import screens as screen_service
from director.views import bodies
from director.views.auth import director_required

bp = Blueprint("screens", __name__)


@bp.post("/director/<int:tournament_id>/announcement")
@director_required
@form_fields("text", "clear", "back")
def announcement(tournament_id: int) -> Any:
    text = request.form.get("text", "")
    if request.form.get("clear") == "yes":
        text = ""
    try:
        screen_service.announce(tournament_id, text)
    except Invalid as exc:
        bodies.say_refused(_("Not changed: %(reasons)s"), exc)
    else:
        flash(_("The announcement is on the screens.") if text.strip()
              else _("The announcement is cleared."))
    if bodies.from_phone():
        return redirect(url_for("director.phone", tournament_id=tournament_id))
    return redirect(url_for("director.tournament", tournament_id=tournament_id) + "#ticker")


@bp.post("/api/tournaments/<int:tournament_id>/announcement")
@director_required
def api_announcement(tournament_id: int) -> Response:
    screen_service.announce(tournament_id, json_body(known=("text",)).get("text"))
    return jsonify(read_model.clock_state(tournament_id))


@bp.get("/room")
def room() -> Any:
    try:
        states = read_model.room(request.args.get("ids"))
    except Invalid as exc:
        return render_template("clock/room.html", states=[], errors=exc.errors), 400
    return render_template("clock/room.html", states=states, errors={})
