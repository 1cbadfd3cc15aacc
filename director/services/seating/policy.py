"""The event's seating settings: as saved, as the rules follow them (stud caps them,
a big field's redraws), and saving them (:func:`configure`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db
from director.i18n import (
    N_,
)
from director.models.seating import (
    Player,
    SeatingSettings,
)
from director.schemas import SEATING_SETTINGS
from director.services import (
    Invalid,
    get_tournament,
    tournaments,
)
from director.services.audit import Said
from director.services.seating.layout import load_layout, tables_in_play
from director.services.seating.log import seating_log
from director.services.seating.proposals import replan
from director.services.seating.writes import (
    apply_rule,
    commit_seating,
    locked_settings,
    unit_of_work,
)
from director.tournament.seating import (
    STUD_MAX_SEATS,
    SeatingPolicy,
    redraw_points,
    seats_for_game,
)


def stored_policy(row: SeatingSettings | None) -> SeatingPolicy:
    """The settings as the director saved them (the form shows and keeps these)."""
    return SeatingPolicy.from_json(row.policy) if row is not None and row.policy \
        else SeatingPolicy()


def has_stud_levels(tournament_id: int) -> bool:
    """Whether the structure has seven-card stud levels (tables then seat at most 8)."""
    return any(level.game is not None and level.game.is_stud
               for level in get_tournament(tournament_id).structure.levels)


def entrants(tournament_id: int) -> int:
    """The size of the field: every entry, in or out."""
    return int(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament_id)) or 0)


def settings_policy(row: SeatingSettings | None, tournament_id: int | None = None) -> SeatingPolicy:
    """The policy the rules follow: the stored one, at most 8-handed when the structure
    has stud levels (:func:`seats_for_game`), with the redraws at 3 and 2 tables only
    for a field of 100 or more whose house asked for them (:func:`redraw_points`)."""
    stored = stored_policy(row)
    tid = row.tournament_id if row is not None else tournament_id
    if tid is None:
        return stored
    policy = seats_for_game(stored, stud_levels=has_stud_levels(tid))
    if not policy.stud_only and stud_only_structure(tid):
        # Every level is stud: no button, no blinds (RULES.md §1.6, TDA 11-A stud
        # balancing), whatever was stored, so no move mentions them.
        policy = replace(policy, stud_only=True)
    return redraw_points(policy, entrants(tid)) if policy.redraw_big_field else policy


def stud_only_structure(tournament_id: int) -> bool:
    """Whether every level of the structure (breaks aside) is seven-card stud."""
    games = [level.game for level in get_tournament(tournament_id).structure.levels
             if not level.is_break]
    return bool(games) and all(game is not None and game.is_stud for game in games)


def policy_for(tournament_id: int) -> SeatingPolicy:
    return settings_policy(db.session.get(SeatingSettings, tournament_id), tournament_id)


@unit_of_work
def configure(tournament_id: int, data: Mapping[str, Any]) -> SeatingPolicy:
    """Save the event's seating settings (RULES.md §11.1); each error names its field.

    ``data`` is the body loaded by ``schemas.SEATING_SETTINGS`` (raw values from
    a script are loaded here the same way).  A field that is absent keeps its
    stored value; a blank final table size or table list clears it.
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    body = SEATING_SETTINGS.load(data)
    settings = locked_settings(tournament_id)
    old = stored_policy(settings)
    was = settings_policy(settings)

    def given(name: str, stored: Any) -> Any:
        value = body.get(name)
        return stored if value is None else value

    values = {
        "table_size": given("table_size", old.table_size),
        "balance_threshold": given("balance_threshold", old.balance_threshold),
        "halt_short_by": given("halt_short_by", old.halt_short_by),
        "final_table_size": body.get("final_table_size", old.final_table_size),
        "hand_for_hand_seconds": given("hand_for_hand_seconds", old.hand_for_hand_seconds),
        "redraw_at_tables": body.get("redraw_at_tables", old.redraw_at_tables),
        "breaking_order": body.get("breaking_order", old.breaking_order),
        "stud_only": given("stud_only", old.stud_only),
        "smallest_chip": given("smallest_chip", old.smallest_chip),
        "redraw_big_field": given("redraw_big_field", old.redraw_big_field),
        "room_tables": body.get("room_tables", old.room_tables),
        "seat_choice": given("seat_choice", old.seat_choice),
    }
    stored = apply_rule("policy", lambda: SeatingPolicy(**values))
    in_play = tables_in_play(tournament_id)    # the room itself only if it is planned again
    if stored.room_tables is not None and stored.room_tables < in_play:
        raise Invalid({"room_tables": _("The room cannot have fewer tables than the %(tables)s "
                                        "in play", tables=in_play)})
    if has_stud_levels(tournament_id):
        _refuse_stud_sizes(stored)
    settings.policy = stored.to_json()
    policy = settings_policy(settings)
    if in_play and policy != was:
        replan(tournament_id, load_layout(tournament_id), policy)
    seating_log(tournament_id, "settings", [Said(N_("Seating settings saved: %(size)s-handed, balance "
                                                    "within %(threshold)s"), size=policy.table_size,
                                                 threshold=policy.balance_threshold)])
    commit_seating(tournament_id, settings)
    return policy


def _refuse_stud_sizes(policy: SeatingPolicy) -> None:
    """A structure with stud levels: no table or final table of more than 8."""
    reason = _("The structure has seven-card stud levels, and stud seats at most "
               "%(max)s players", max=STUD_MAX_SEATS)
    if policy.table_size > STUD_MAX_SEATS:
        raise Invalid({"table_size": _("%(reason)s: tables seat %(max)s at most",
                                       reason=reason, max=STUD_MAX_SEATS)})
    if policy.final_table_size is not None and policy.final_table_size > STUD_MAX_SEATS:
        raise Invalid({"final_table_size": _("%(reason)s: the final table seats %(max)s at most",
                                             reason=reason, max=STUD_MAX_SEATS)})
