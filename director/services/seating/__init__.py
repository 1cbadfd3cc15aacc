"""Seating services: register, draw, balance, break, reseat, hand-for-hand.

Each function is one unit of work (STYLE.md): load the rows, ask the pure
rules (``director.tournament.seating`` and ``button``), write, record what the
change means on the unit of work (``services.uow``: the seating log, the log
line, the screens and the clock state, whose ``players_left`` and
``average_stack`` come from :func:`field_stats`), then commit once.

Nothing the rules *propose* is applied before the director confirms it: a
bust (``services.busts``) stores the next step of ``plan_seating`` (a balance
move, a table to break, a redraw) as a *pending* plan; :func:`confirm_plan`
applies it and :func:`undo_last` takes the last confirmed plan back while
nothing has changed since.  A pending plan is replaced whenever the seating
changes under it (a bust, a hand dealt, a reseat), so it never goes stale.
The director's own actions (a late registrant's random seat, a reseat by
hand, the seat draw) take effect at once and are logged.

Bad input raises ``Invalid`` naming the field and changes nothing.

The package, by the question each module answers (each imports only those
above it):

* ``layout``: the rows <-> the pure ``Layout``;
* ``log``: the seating log's lines;
* ``writes``: a write's lock, checks, refusals and commit;
* ``proposals``: the plans on record, and the next one (:func:`replan`);
* ``policy``: the settings as saved and as the rules follow them;
* ``reading``: what the screens show;
* ``entries``: a new entry's seat, chip counts, a colour-up;
* ``plans``: the draw, confirm / discard / undo, a break, a reseat, a hand dealt;
* ``h4h``: hand-for-hand.

Eliminations and their undo are ``services.busts`` (above seating and money).
"""

from __future__ import annotations

from director.services.people import check_player_name
from director.services.seating.entries import (
    ChosenSeat,
    colour_up,
    register_player,
    set_chips,
)
from director.services.seating.h4h import (
    HAND_FOR_HAND_ACTIONS,
    hand_for_hand,
)
from director.services.seating.layout import (
    StoredRoom,
    load_layout,
    load_stored,
    store_layout,
)
from director.services.seating.log import (
    place_said,
    seating_log,
)
from director.services.seating.plans import (
    break_next_table,
    confirm_plan,
    discard_plan,
    draw,
    hand_dealt,
    reseat,
    undo_last,
)
from director.services.seating.policy import (
    configure,
    entrants,
    has_stud_levels,
    policy_for,
    settings_policy,
    stored_policy,
    stud_only_structure,
)
from director.services.seating.proposals import (
    layout_digest,
    replan,
)
from director.services.seating.reading import (
    API_TABLES,
    API_UNSEATED,
    OUT_SHOWN,
    PLAYERS_SHOWN,
    PRINT_TABLES,
    SEARCH_LIMIT,
    SEARCH_MAX,
    TABLES_SHOWN,
    Changed,
    Overview,
    PrintRange,
    changed,
    draw_view,
    field_stats,
    field_totals,
    find_seat,
    hand_for_hand_on,
    out_tables,
    overview,
    plan_record,
    player_tables,
    print_range,
    room_page,
)
from director.services.seating.writes import (
    active_count,
    active_players,
    apply_rule,
    commit_seating,
    locked_settings,
    player_in,
    unit_of_work,
)

__all__ = [
    "API_TABLES",
    "API_UNSEATED",
    "Changed",
    "ChosenSeat",
    "HAND_FOR_HAND_ACTIONS",
    "OUT_SHOWN",
    "Overview",
    "PLAYERS_SHOWN",
    "PRINT_TABLES",
    "PrintRange",
    "SEARCH_LIMIT",
    "SEARCH_MAX",
    "StoredRoom",
    "TABLES_SHOWN",
    "active_count",
    "active_players",
    "apply_rule",
    "break_next_table",
    "changed",
    "check_player_name",
    "colour_up",
    "commit_seating",
    "configure",
    "confirm_plan",
    "discard_plan",
    "draw",
    "draw_view",
    "entrants",
    "field_stats",
    "field_totals",
    "find_seat",
    "hand_dealt",
    "hand_for_hand",
    "hand_for_hand_on",
    "has_stud_levels",
    "layout_digest",
    "load_layout",
    "load_stored",
    "locked_settings",
    "out_tables",
    "overview",
    "place_said",
    "plan_record",
    "player_tables",
    "print_range",
    "player_in",
    "policy_for",
    "register_player",
    "replan",
    "reseat",
    "room_page",
    "seating_log",
    "set_chips",
    "settings_policy",
    "store_layout",
    "stored_policy",
    "stud_only_structure",
    "undo_last",
    "unit_of_work",
]
