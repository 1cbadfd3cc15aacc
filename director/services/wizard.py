"""The blind-structure wizard for the web (issue 17): read nothing, write nothing.

:func:`propose` checks the director's facts, asks the pure wizard
(``director.tournament.wizard``) with the start time given (now when none
is), writes the colour-up notes in the director's language and answers the
structure in the export format (``name``, ``levels``) plus ``wizard``: the
expected end and the colour-ups.  The director then creates a tournament
from it (``POST /api/tournaments`` takes this answer as it is) or imports it
into one.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _

from director.db import db, utcnow
from director.i18n import translate_errors
from director.models.tournament import MAX_CHIPS, Tournament, check_limits
from director.poker.errors import RuleViolation
from director.services import Invalid
from director.tournament import chip_race as chip_rules
from director.tournament import wizard as rules
from director.tournament.structure import Kind, Level, Structure, StructureError


def _start(value: Any) -> datetime:
    if value in (None, ""):
        return utcnow()
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            moment = None
        if moment is not None:
            return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    raise Invalid({"start": _("The start must be a date and time such as 2025-03-01T18:00")})


def colour_up_note(removed: tuple[int, ...]) -> str:
    """The break's note in the director's language."""
    chips = _(" and ").join(f"T{chip}" for chip in removed)
    return _("Colour-up: remove %(chips)s chips (chip race)", chips=chips)


def carried(wizard: Any) -> dict[str, Any]:
    """The facts of a proposal that the event made of it keeps: ``{"chips",
    "starting_stack"}`` from its ``wizard`` block, each only when it is sound (a
    structure file edited by hand may carry anything there); ``{}`` otherwise."""
    if not isinstance(wizard, dict):
        return {}
    out: dict[str, Any] = {}
    with contextlib.suppress(RuleViolation, TypeError, ValueError):
        out["chips"] = list(chip_rules.parse_chip_set(wizard.get("chips")))
    stack = wizard.get("starting_stack")
    if isinstance(stack, int) and not isinstance(stack, bool) and 0 < stack <= MAX_CHIPS:
        out["starting_stack"] = stack
    return out


def carry(tournament_id: int, wizard: Any) -> dict[str, Any]:
    """Keep a proposal's chip set in the event made of it (its chip race and colour-ups
    start from it).  No commit: part of the creating unit of work.  Returns what was
    carried (the starting stack goes to the money settings form, which needs the buy-in
    too before it saves anything)."""
    facts = carried(wizard)
    if facts.get("chips"):
        tournament = db.session.get(Tournament, tournament_id)
        if tournament is not None:
            tournament.chip_set = facts["chips"]
    return facts


def keep(tournament_id: int, wizard: Any) -> dict[str, Any]:
    """:func:`carry` as a unit of work of its own (an event just created from a proposal)."""
    facts = carry(tournament_id, wizard)
    db.session.commit()
    return facts


FIELDS = ("starting_stack", "chips", "players", "duration_minutes", "games", "level_minutes",
          "start", "name")
"""The wizard's body (README "Structure wizard"): a field besides these is refused."""


def propose(data: Any) -> dict[str, Any]:
    """The proposed structure JSON for the wizard's body (see the module): ``start`` is
    an ISO-8601 time (UTC without a zone), or an aware ``datetime``; absent, now."""
    raw = data.get("start") if isinstance(data, dict) else None
    start = raw if isinstance(raw, datetime) and raw.tzinfo else _start(raw)
    try:
        inputs = rules.parse_input(data)
        proposal = rules.propose(inputs, start)
        check_limits(proposal.structure.levels)
    except StructureError as exc:
        raise Invalid(translate_errors(exc.errors)) from None
    notes = {up.index: colour_up_note(up.removed) for up in proposal.colour_ups}
    levels = tuple(Level(Kind.BREAK, entry.duration_seconds, note=notes.get(i, ""))
                   if entry.is_break else entry
                   for i, entry in enumerate(proposal.structure.levels))
    structure = Structure(levels, proposal.structure.name)
    return proposal.to_json() | structure.to_json()
