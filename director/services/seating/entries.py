"""The players' entries and chips: a new entry's seat (:func:`register_player`, part of
a buy-in), a chip count, a colour-up."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db
from director.i18n import (
    N_,
    translate_violation,
)
from director.models.seating import Player, name_key
from director.models.tournament import MAX_CHIPS
from director.services import (
    Invalid,
    amounts,
    once,
    tournaments,
)
from director.services.audit import Said
from director.services.people import check_player_name
from director.services.seating.layout import load_stored, store_layout
from director.services.seating.log import said_plan, seating_log
from director.services.seating.policy import settings_policy, stored_policy
from director.services.seating.proposals import replan
from director.services.seating.writes import (
    active_count,
    active_players,
    apply_rule,
    commit_seating,
    locked_settings,
    player_in,
    required_whole,
    unit_of_work,
    whole_field,
)
from director.tournament.room import SeatChoiceRefused, choose_seat, room_of
from director.tournament.seating import (
    Layout,
    Move,
    SeatingPlan,
    SeatingPolicy,
    apply_plan,
    seat_new_player,
)


def _event_stack(tournament_id: int) -> int:
    """The event's starting stack: the money settings' (one number for every entry)."""
    return amounts.starting_stack(tournament_id)


def register_player(tournament_id: int, name: Any, chips: Any = None,
                    rng: random.Random | None = None,
                    chosen: ChosenSeat | None = None, *,
                    commit: bool = True, name_checked: bool = False) -> tuple[Player, Move | None]:
    """The registry's part of an entry: the player, and once seats are drawn a random
    open seat (TDA 8-A, [SEAT-1..3]).

    Not a way in by itself: every entry (the desk, the seating page, the API) is a
    buy-in, ``money.register_entry`` / ``money.sell``, which calls this with the
    event's starting stack (``chips``; None: the money settings' stack) and records
    the payment.  Returns the player and his seat (a ``Move`` whose ``status`` says
    whether he is dealt in now, waits for the button, or posts a blind), or None
    before the draw.

    ``chosen``: the seat the director picked, with its reason (``room.choose_seat``:
    refused, naming ``table``, ``seat`` or ``reason``, where the event's setting or
    the seating does not allow it).  A full room (``SeatingPolicy.room_tables``)
    refuses the entry, naming ``name``: the desk puts him on the waiting list.

    ``commit`` false (the desk's buy-in): flushed, not committed, and the screens are
    the caller's to record: one change (the seat and the prize pool together) in the
    caller's one transaction with the payment, none when the payment fails and the
    entry is taken back; a lost race (``StaleDataError``) is the caller's to retry: it
    is not turned into a refusal here.  Committed here (a script, the tests), the
    screens' change is recorded with it.

    ``name_checked``: the caller (the sale) has found no active player with this name
    in this transaction, so it is not looked for again.
    """
    if commit:
        return _register_unit(tournament_id, name, chips, rng, chosen)
    return _register(tournament_id, name, chips, rng, chosen, commit=False,
                     name_checked=name_checked)


def _register(tournament_id: int, name: Any, chips: Any, rng: random.Random | None,
              chosen: ChosenSeat | None, *, commit: bool,
              name_checked: bool = False) -> tuple[Player, Move | None]:
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    errors: dict[str, str] = {}
    try:
        clean = check_player_name(name)
    except Invalid as exc:
        errors.update(exc.errors)
        clean = ""
    try:
        # The event's stack is read only when none is given (a sale gives its own).
        given = chips is not None and not (isinstance(chips, str) and not chips.strip())
        stack = whole_field({"chips": chips}, "chips", low=1, high=MAX_CHIPS,
                            default=None if given else _event_stack(tournament_id),
                            label=_("Chips"))
    except Invalid as exc:
        errors.update(exc.errors)
        stack = 0
    if not errors and not name_checked and db.session.scalar(select(func.count(Player.id)).where(
            Player.tournament_id == tournament_id, Player.status == "active",
            Player.name_key == name_key(clean))):
        errors["name"] = _("There is already a player called %(name)s in the tournament",
                           name=clean)
    if errors:
        db.session.rollback()
        raise Invalid(errors)
    assert stack is not None
    player = Player(tournament_id=tournament_id, name=clean, chips=stack, entry_chips=stack,
                    status="active")
    db.session.add(player)
    db.session.flush()
    policy = settings_policy(settings)
    stored = load_stored(tournament_id)
    layout = stored.layout
    move = None
    if not layout.tables:
        if chosen is not None:
            _chosen_seat(layout, player, chosen, policy)   # refused: seats are not drawn yet
        _refuse_full_room(layout, policy, active_count(tournament_id) - 1)
    if layout.tables:
        plan = _chosen_seat(layout, player, chosen, policy) if chosen is not None else \
            apply_rule("name", lambda: seat_new_player(layout, player.id, clean, policy, rng))
        layout = apply_rule("name", lambda: apply_plan(layout, plan))
        store_layout(tournament_id, layout, stored=stored)
        move = plan.moves[0]
        seating_log(tournament_id, "register", said_plan(plan))
        if chosen is not None:
            seating_log(tournament_id, "register", [Said(N_(
                "Seat chosen by the director for %(name)s: %(reason)s"), name=clean,
                reason=chosen.reason or Said(N_("no reason given")))])
        replan(tournament_id, layout, policy, rng)
    else:
        seating_log(tournament_id, "register", [Said(N_("%(name)s registered (%(chips)s chips)"),
                                                     name=clean, chips=int(stack))])
    commit_seating(tournament_id, settings, commit=commit)
    return player, move


@unit_of_work
def _register_unit(tournament_id: int, name: Any, chips: Any, rng: random.Random | None,
                   chosen: ChosenSeat | None) -> tuple[Player, Move | None]:
    return _register(tournament_id, name, chips, rng, chosen, commit=True)


@dataclass(frozen=True)
class ChosenSeat:
    """The seat the director picked for a new player, and why (``room.choose_seat``)."""

    table: int
    seat: int
    reason: str = ""


def _chosen_seat(layout: Layout, player: Player, chosen: ChosenSeat,
                 policy: SeatingPolicy) -> SeatingPlan:
    try:
        return choose_seat(layout, player.id, player.name, chosen.table, chosen.seat, policy,
                           chosen.reason)
    except SeatChoiceRefused as exc:
        db.session.rollback()
        raise Invalid({exc.field: translate_violation(exc)}) from None


def _refuse_full_room(layout: Layout, policy: SeatingPolicy, registered: int) -> None:
    """Before the draw: the registered players already fill the room's tables."""
    room = room_of(layout, policy, registered=registered)
    if room.full:
        db.session.rollback()
        raise Invalid({"name": _("The room is full: %(players)s players fill its %(tables)s "
                                 "tables", players=room.seated, tables=room.tables)})


@unit_of_work
def set_chips(tournament_id: int, player_id: Any, chips: Any) -> Player:
    """Record a player's chip count (shown on the chart; a bust's tie-break)."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    player = player_in(tournament_id, player_id)
    count = required_whole({"chips": chips}, "chips", low=0, high=MAX_CHIPS, label=_("Chips"))
    if not player.active:
        db.session.rollback()
        raise Invalid({"player_id": _("%(name)s is out of the tournament", name=player.name)})
    player.chips = count
    seating_log(tournament_id, "chips", [Said(N_("%(name)s: %(chips)s chips"), name=player.name,
                                              chips=int(count))])
    commit_seating(tournament_id, settings)
    return player


@unit_of_work
def colour_up(tournament_id: int, stacks: Mapping[int, int], smallest_chip: int,
              idempotency_key: str | None = None) -> None:
    """A confirmed colour-up (issue 17; TDA 24): each player's stack after the exchange
    and the chip race (``stacks``: player id -> chips, as :func:`set_chips` records one),
    and the smallest chip in play moves up to ``smallest_chip`` (the odd-chip rule's
    setting), in one unit of work.  Sent again with its ``idempotency_key``: ``once.Applied``
    (the next chip is not coloured up too)."""
    tournaments.verify_open(tournament_id)
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    once.remember(tournament_id, idempotency_key, "chip race")
    players = {p.id: p for p in active_players(tournament_id)}
    lines = []
    for player_id, chips in stacks.items():
        player = players.get(player_id)
        if player is None:
            db.session.rollback()
            raise Invalid({"player_id": _("Player %(player)s is not in the tournament",
                                          player=player_id)})
        count = required_whole({"chips": chips}, "chips", low=0, high=MAX_CHIPS, label=_("Chips"))
        if count != player.chips:
            lines.append(Said(N_("%(name)s: %(chips)s chips"), name=player.name,
                              chips=int(count)))
        player.chips = count
    settings.policy = replace(stored_policy(settings), smallest_chip=smallest_chip).to_json()
    lines.append(Said(N_("Colour-up: the smallest chip in play is T%(chip)s"),
                      chip=str(smallest_chip)))
    seating_log(tournament_id, "chips", lines)
    commit_seating(tournament_id, settings)
