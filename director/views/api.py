"""The JSON API (a contract: overlays and the project's own checks use it).

=======================================================  ===================
``POST /api/tournaments``                                 director: create
``GET  /api/tournaments``                                 public: list
``GET  /api/tournaments/<id>/structure``                  public: export
``PUT  /api/tournaments/<id>/structure``                  director: import
``POST /api/tournaments/<id>/clock/<control>``            director: start,
                                                          pause, resume,
                                                          next, previous
``POST /api/tournaments/<id>/clock/adjust {"seconds"}``   director
``GET  /api/tournaments/<id>/clock``                      public
``POST /api/tournaments/<id>/reopen``                     director: a finished
                                                          or cancelled event
``POST /api/tournaments/<id>/cancel``                     director
``POST /api/tournaments/<id>/archive``                    director: hide from
                                                          the list
``POST /api/tournaments/<id>/unarchive``                  director
``POST /api/tournaments/<id>/duplicate {"name"?}``        director: 201 {"id"}
``DELETE /api/tournaments/<id>``                          director: after a
                                                          backup that keeps it
=======================================================  ===================

Errors are JSON: 400 ``{"errors": {field: message}}``, 401, 404, 405.

The clock's controls and reopen/cancel take an ``idempotency_key`` (optional, at
most 100 characters) in their JSON body, as the dealer's writes do: the request
sent again with the same key (its answer was lost) changes nothing and answers
the clock as it is now (``services.once``).  The director's page puts one on
every click and sends it again when no answer comes.

Every body is declared below as a ``director.schemas.Schema``; the services
then check what only they can (a structure's rules, a name's uniqueness).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from werkzeug.wrappers import Response

from director.schemas import (
    IDEMPOTENCY_KEY,
    N_,
    Any_,
    Int,
    List,
    Schema,
    Str,
    json_body,
    no_body,
)
from director.services import clock as clock_service
from director.services import event_file, read_model
from director.services import tournaments as tournament_service
from director.services import wizard as wizard_service
from director.views.auth import director_required
from director.views.bodies import idempotency_key

bp = Blueprint("api", __name__, url_prefix="/api")

LEVELS = List(item=Any_(), max_items=500, missing_message=N_("Give the structure's levels"))
NEW_TOURNAMENT = Schema({
    "name": Str(required=False, max_len=1000),  # the service names an empty or long one
    "levels": LEVELS,
    "language": Any_(required=False),
    "format": Any_(required=False, nullable=True),   # an event file's, or the wizard's
    "wizard": Any_(required=False, nullable=True),   # answer, taken as it is
})
STRUCTURE = Schema({"name": Str(required=False, max_len=1000), "levels": LEVELS,
                    # the event file's other parts, read by event_file.import_event
                    **{part: Any_(required=False, nullable=True)
                       for part in ("format", "language", "money", "seating", "house_rules",
                                    "wizard")}})
DUPLICATE = Schema({"name": Str(required=False, max_len=1000)})
ADJUST = Schema({
    "seconds": Int(min=-clock_service.ADJUST_LIMIT, max=clock_service.ADJUST_LIMIT,
                   missing_message=N_("Say how many seconds to add (or remove, with a minus sign)")),
    "idempotency_key": IDEMPOTENCY_KEY,
})


@bp.post("/tournaments")
@director_required
def create_tournament() -> tuple[Response, int]:
    data = json_body(NEW_TOURNAMENT)
    tournament, again = tournament_service.made_once(
        idempotency_key(), lambda key: tournament_service.create_tournament(
            data["name"], data["levels"], data["language"], idempotency_key=key))
    if not again:
        wizard_service.keep(tournament.id, data["wizard"])     # a wizard's chip set (issue 30)
    return jsonify({"id": tournament.id}), 201


@bp.get("/tournaments")
def list_tournaments() -> Response:
    return jsonify({"tournaments": [
        {"id": t.id, "name": t.name, "running": t.running, "level_index": t.level_index,
         "archived": t.archived_at is not None}
        for t in tournament_service.list_tournaments()
    ]})


@bp.get("/tournaments/<int:tournament_id>/structure")
def export_structure(tournament_id: int) -> Response:
    return jsonify(event_file.export_event(tournament_id))


@bp.put("/tournaments/<int:tournament_id>/structure")
@director_required
def import_structure(tournament_id: int) -> Response:
    data = json_body(STRUCTURE)          # the name and levels checked; the settings below
    body = request.get_json(silent=True)
    event_file.import_event(tournament_id, {**(body if isinstance(body, dict) else {}),
                                            **{k: v for k, v in data.items() if v is not None}})
    return jsonify(event_file.export_event(tournament_id))


@bp.get("/tournaments/<int:tournament_id>/clock")
def clock_state(tournament_id: int) -> Response:
    response = jsonify(read_model.clock_state(tournament_id))
    response.headers["Cache-Control"] = "no-store"
    return response


CONTROLS = {
    "start": clock_service.start,
    "pause": clock_service.pause,
    "resume": clock_service.resume,
    "next": clock_service.next_level,
    "previous": clock_service.previous_level,
}


@bp.post("/tournaments/<int:tournament_id>/clock/<any(start, pause, resume, next, previous):control>")
@director_required
@no_body()
def clock_control(tournament_id: int, control: str) -> Response:
    CONTROLS[control](tournament_id, idempotency_key())
    return jsonify(read_model.clock_state(tournament_id))


@bp.post("/tournaments/<int:tournament_id>/clock/adjust")
@director_required
def clock_adjust(tournament_id: int) -> Response:
    data = json_body(ADJUST)
    clock_service.adjust(tournament_id, data["seconds"], data["idempotency_key"])
    return jsonify(read_model.clock_state(tournament_id))


@bp.post("/tournaments/<int:tournament_id>/<any(reopen, cancel):change>")
@director_required
@no_body()
def lifecycle(tournament_id: int, change: str) -> Response:
    """Reopen a finished or cancelled event, or cancel one (both logged)."""
    service = tournament_service.reopen if change == "reopen" else tournament_service.cancel
    service(tournament_id, idempotency_key())
    return jsonify(read_model.clock_state(tournament_id))


@bp.post("/tournaments/<int:tournament_id>/<any(archive, unarchive):change>")
@director_required
@no_body()
def put_away(tournament_id: int, change: str) -> Response:
    """Hide an event from the director's list, or list it again (logged)."""
    service = tournament_service.archive if change == "archive" else tournament_service.unarchive
    tournament = service(tournament_id)
    archived_at = tournament.archived_at
    return jsonify({"id": tournament.id, "archived": archived_at is not None,
                    "archived_at": archived_at.isoformat() if archived_at else None})


@bp.post("/tournaments/<int:tournament_id>/duplicate")
@director_required
def duplicate(tournament_id: int) -> tuple[Response, int]:
    """A new event from this one as a template (no players, no payments)."""
    name = json_body(DUPLICATE)["name"] if request.get_data() else None
    copy, _again = tournament_service.made_once(idempotency_key(), lambda key: (
        tournament_service.duplicate(tournament_id, name, idempotency_key=key)))
    return jsonify({"id": copy.id, "name": copy.name}), 201


@bp.delete("/tournaments/<int:tournament_id>")
@director_required
@no_body()
def delete(tournament_id: int) -> Response:
    """Delete the event after a backup of the whole database that keeps it (logged)."""
    path = tournament_service.delete_event(tournament_id)
    return jsonify({"deleted": tournament_id, "backup": path})


TIME_ZONE = Schema({"time_zone": Str(required=False, default="", max_len=64)})


@bp.post("/tournaments/<int:tournament_id>/time-zone")
@director_required
def time_zone(tournament_id: int) -> Response:
    """``{"time_zone": "Asia/Jakarta"}`` (empty: the setting or the laptop's zone)."""
    tournament = tournament_service.set_time_zone(tournament_id, json_body(TIME_ZONE)["time_zone"])
    return jsonify({"id": tournament.id, "time_zone": tournament.time_zone})
