"""The event's file: the structure export with the whole event's settings, and its import.

One JSON object (``GET /api/tournaments/<id>/structure``, the tournament page's
**Export structure**)::

    {"format": "director-event/2", "name": "Friday PLO", "levels": [...],
     "language": "sv" | null,
     "money": {...the body of PUT money/settings...} | null,
     "seating": {...the body of POST seating/settings...} | null,
     "house_rules": {...the body of POST house-rules...} | null}

``null`` (or a missing key) means "not set": the import leaves that part as it
is.  The old format, ``{"name", "levels"}``, imports as before (only its
levels and its name).  Each part is checked before anything is written, so a
file with a bad field changes nothing and names the field ("money.buy_in:
...").  The import then saves the structure and the name, the money settings,
the seating settings and the house rules, each through its own service (each
logged in the director's words).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from director.db import db
from director.i18n import translate_errors
from director.models.house import HouseRules
from director.models.seating import SeatingSettings
from director.schemas import HOUSE_RULES, MONEY_SETTINGS, SEATING_SETTINGS
from director.services import Invalid, house_rules, money, seating, tournaments
from director.services.clock import get_tournament
from director.tournament.structure import StructureError, parse_structure

FORMAT = "director-event/2"
PARTS = {"money": MONEY_SETTINGS, "seating": SEATING_SETTINGS, "house_rules": HOUSE_RULES}


def export_event(tournament_id: int) -> dict[str, Any]:
    """The whole event's settings, with its structure and its name (see the module)."""
    tournament = get_tournament(tournament_id)
    seats = db.session.get(SeatingSettings, tournament_id)
    rules = db.session.get(HouseRules, tournament_id)
    return {
        "format": FORMAT,
        **tournaments.export_structure(tournament_id),
        "language": tournament.language,
        "money": money.settings_form(tournament_id),
        "seating": dict(seats.policy) if seats is not None and seats.policy else None,
        "house_rules": house_rules.view(tournament_id)["house_rules"] if rules is not None
        else None,
    }


def read(data: Any) -> dict[str, Any]:
    """An event file (an object or its JSON text), checked: ``{"name", "levels",
    "language", "money", "seating", "house_rules"}``; raises ``Invalid`` naming each
    bad field, before anything is written."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise Invalid({"structure": _("This is not valid JSON: %(problem)s",
                                          problem=exc)}) from None
    if not isinstance(data, Mapping) or "levels" not in data:
        raise Invalid({"structure": _("A structure is an object with “name” and “levels”")})
    errors: dict[str, str] = {}
    out: dict[str, Any] = {"name": None, "levels": None, "language": None}
    try:
        structure = parse_structure({"name": data.get("name") or "", "levels": data["levels"]})
        out["levels"] = [level.to_json() for level in structure.levels]
        out["name"] = structure.name or None
    except StructureError as exc:
        errors.update({(k if k else "structure"): v
                       for k, v in translate_errors(exc.errors).items()})
    try:
        out["language"] = tournaments.check_language(data.get("language"))
    except Invalid as exc:
        errors.update(exc.errors)
    for part, schema in PARTS.items():
        body = data.get(part)
        out[part] = None
        if body is None:
            continue
        if not isinstance(body, Mapping):
            errors[part] = _("This part of the file must be an object of settings")
            continue
        try:
            schema.load(dict(body))
        except Invalid as exc:
            errors.update({f"{part}.{field}": message for field, message in exc.errors.items()})
        out[part] = dict(body)
    if errors:
        raise Invalid(errors)
    return out


def import_event(tournament_id: int, data: Any) -> Any:
    """Replace the structure, the name and every setting the file carries (see the module).

    The old format (``{"name", "levels"}``) replaces the levels and the name only.
    """
    event = read(data)
    get_tournament(tournament_id)
    tournament = tournaments.update_levels(tournament_id, event["levels"], name=event["name"],
                                           logged_as="structure imported")
    apply_settings(tournament_id, event)
    return tournament


def apply_settings(tournament_id: int, event: Mapping[str, Any]) -> None:
    """Save the settings parts of a checked event file (:func:`read`) that it carries."""
    if event.get("language"):
        tournaments.set_language(tournament_id, event["language"])
    for part, save in (("money", money.save_settings), ("seating", seating.configure),
                       ("house_rules", house_rules.save)):
        if event.get(part) is not None:
            try:
                save(tournament_id, event[part])
            except Invalid as exc:
                raise Invalid({f"{part}.{field}": message
                               for field, message in exc.errors.items()}) from None
