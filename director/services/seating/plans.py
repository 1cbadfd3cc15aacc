"""The seat draw and the plans the director confirms, discards or undoes; breaking a
table, a reseat by hand, a hand dealt (the button moves on)."""

from __future__ import annotations

import random
from typing import Any

from flask_babel import gettext as _

from director.db import db, utcnow
from director.i18n import (
    N_,
    seating_text,
)
from director.models.seating import (
    SeatingPlanRecord,
)
from director.services import (
    Invalid,
    once,
    tournaments,
    uow,
)
from director.services.audit import Said
from director.services.seating.layout import load_layout, store_layout
from director.services.seating.log import said_move, said_plan, seating_log
from director.services.seating.policy import settings_policy
from director.services.seating.proposals import (
    discard_pending,
    is_room,
    last_confirmed_record,
    layout_digest,
    plan_changes,
    propose,
    replan,
    room_before,
)
from director.services.seating.writes import (
    WHOLE,
    active_players,
    apply_rule,
    commit_seating,
    locked_settings,
    player_in,
    required_whole,
    unit_of_work,
)
from director.tournament.button import seat_status
from director.tournament.seating import (
    Layout,
    Move,
    PlanKind,
    SeatingPlan,
    TableState,
    apply_moves,
    apply_plan,
    break_table,
    deal_hand,
    draw_seats,
    next_table_to_break,
)


@once.twin_answered
@unit_of_work
def draw(tournament_id: int, rng: random.Random | None = None,
         idempotency_key: str | None = None) -> SeatingPlan:
    """The random seat draw for the whole field (TDA 7; cryptographic RNG by default).

    Applied at once (the director asked for it), and recorded as a confirmed
    plan, so that it can be undone while nothing has changed since.  Sent again with
    its ``idempotency_key`` (a double click, a retry), ``once.Applied``: the director
    reads that the seats are drawn, not that they were drawn already.
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    if load_layout(tournament_id).tables:
        db.session.rollback()
        raise Invalid({"draw": _("Seats are already drawn; late players are seated as they "
                                 "register")})
    players = active_players(tournament_id)
    policy = settings_policy(settings)
    plan = apply_rule("draw", lambda: draw_seats([(p.id, p.name) for p in players], policy, rng))
    layout = apply_plan(Layout(()), plan)
    store_layout(tournament_id, layout)
    now = utcnow()
    discard_pending(tournament_id, now)
    db.session.add(SeatingPlanRecord(
        tournament_id=tournament_id, kind=plan.kind.value, plan=plan.to_json(),
        status="confirmed", **dict(zip(("layout_before", "layout_after"),
                                       plan_changes(Layout(()), layout), strict=True)),
        decided_at=now))
    seating_log(tournament_id, "draw", [Said("%(note)s", note={"seating": plan.note})])
    uow.log("seats drawn", tournament_id, players={"players": len(players)},
            tables={"tables": len(layout.tables)})
    once.remember(tournament_id, idempotency_key, "seats drawn")
    commit_seating(tournament_id, settings)
    return plan


@once.twin_answered
@unit_of_work
def confirm_plan(tournament_id: int, plan_id: Any, rng: random.Random | None = None,
                 idempotency_key: str | None = None,
                 ) -> tuple[SeatingPlan, SeatingPlanRecord | None]:
    """Apply the pending plan the director confirmed; returns it and the next proposal.
    Sent again with its ``idempotency_key`` (a double click), nothing more
    (``once.Applied``) where it would say the plan was confirmed already."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    record = _plan_row(tournament_id, plan_id)
    if record.status != "pending":
        db.session.rollback()
        raise Invalid({"plan_id": _("This plan was already %(status)s",
                                    status=seating_text(record.status))})
    layout = load_layout(tournament_id)
    if not is_room(record.layout_before, layout):
        db.session.rollback()
        raise Invalid({"plan_id": _("The seating changed since this plan was made: "
                                    "reload the page for the current plan")})
    plan = SeatingPlan.from_json(record.plan)
    policy = settings_policy(settings)
    after = apply_rule("plan_id", lambda: apply_plan(layout, plan))
    store_layout(tournament_id, after, stored=layout)
    record.status = "confirmed"
    record.decided_at = utcnow()
    record.layout_before, record.layout_after = plan_changes(layout, after)
    seating_log(tournament_id, "confirm", [Said(N_("Confirmed: %(line)s"), line=line)
                                           for line in said_plan(plan)])
    nxt = replan(tournament_id, after, policy, rng)
    _log_plan(tournament_id, plan, after)
    once.remember(tournament_id, idempotency_key, "seating confirm")
    commit_seating(tournament_id, settings)
    return plan, nxt


def _log_plan(tournament_id: int, plan: SeatingPlan, after: Layout) -> None:
    """A confirmed plan in the director's words: a table broken, tables balanced, a redraw."""
    moved = {"players": len(plan.moves)}
    if plan.kind is PlanKind.BREAK and plan.close_tables:
        uow.log("table broken", tournament_id, table=plan.close_tables[0], players=moved)
    elif plan.kind is PlanKind.BALANCE:
        uow.log("tables balanced", tournament_id, players=moved)
    elif plan.kind is PlanKind.FINAL_TABLE and plan.close_tables:
        uow.log("final table", tournament_id, table=plan.close_tables[0], players=moved)
    elif plan.kind in (PlanKind.REDRAW, PlanKind.FINAL_TABLE):
        uow.log("redraw", tournament_id, players=moved, tables={"tables": len(after.tables)})


@once.twin_answered
@unit_of_work
def discard_plan(tournament_id: int, plan_id: Any, idempotency_key: str | None = None) -> None:
    """Set the pending plan aside; sent again with its ``idempotency_key``, nothing more
    (``once.Applied``)."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    record = _plan_row(tournament_id, plan_id)
    if record.status != "pending":
        db.session.rollback()
        raise Invalid({"plan_id": _("This plan was already %(status)s",
                                    status=seating_text(record.status))})
    record.status = "discarded"
    record.decided_at = utcnow()
    seating_log(tournament_id, "discard", [Said(N_("Discarded: %(plan)s"), plan={
        "seating": SeatingPlan.from_json(record.plan).note or record.kind})])
    once.remember(tournament_id, idempotency_key, "seating discard")
    commit_seating(tournament_id, settings)


@once.twin_answered
@unit_of_work
def undo_last(tournament_id: int, idempotency_key: str | None = None) -> SeatingPlan:
    """Take back the last confirmed plan, if the seating has not changed since.

    The seats go back to where they were and the plan is pending again (the
    draw simply goes away), so the director can confirm it once more.  Sent again
    with its ``idempotency_key`` (a double click), it takes back nothing more
    (``once.Applied``).
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    record = last_confirmed_record(tournament_id)
    if record is None:
        db.session.rollback()
        raise Invalid({"undo": _("There is nothing to undo")})
    layout = load_layout(tournament_id)
    if not is_room(record.layout_after, layout):
        db.session.rollback()
        raise Invalid({"undo": _("The seating changed after that plan (a bust, a hand dealt or "
                                 "a reseat), so it cannot be undone: move players by hand")})
    before = room_before(record, layout)
    store_layout(tournament_id, before)
    if record.status == "confirmed" and "digest" in record.layout_before:
        record.layout_before = {"digest": layout_digest(before)}     # pending again
    plan = SeatingPlan.from_json(record.plan)
    now = utcnow()
    discard_pending(tournament_id, now)
    record.decided_at = now
    record.layout_after = None
    record.status = "undone" if plan.kind is PlanKind.DRAW else "pending"
    seating_log(tournament_id, "undo", [Said(N_("Undone: %(plan)s"),
                                             plan={"seating": plan.note or plan.kind.value})])
    uow.log("seating undone", tournament_id)
    once.remember(tournament_id, idempotency_key, "seating undo")
    commit_seating(tournament_id, settings)
    return plan


@once.twin_answered
@unit_of_work
def break_next_table(tournament_id: int, rng: random.Random | None = None,
                     idempotency_key: str | None = None) -> SeatingPlanRecord:
    """Propose breaking the next table in the pre-announced order (TDA 10-B); sent
    again with its ``idempotency_key``, nothing more (``once.Applied``)."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    policy = settings_policy(settings)
    layout = load_layout(tournament_id)
    if not layout.tables:
        db.session.rollback()
        raise Invalid({"table": _("Draw the seats first")})
    number = apply_rule("table", lambda: next_table_to_break(layout, policy))
    resize = None
    if len(layout.tables) == 2:
        last = next(n for n in layout.numbers if n != number)
        if layout.table(last).size < policy.final_size:
            resize = {last: policy.final_size}
    plan = apply_rule("table", lambda: break_table(layout, number, policy, rng, resize=resize))
    record = propose(tournament_id, layout, plan)
    assert record is not None
    seating_log(tournament_id, "break", [Said(N_("Proposed: break table %(table)s"), table=number)])
    once.remember(tournament_id, idempotency_key, "seating break")
    commit_seating(tournament_id, settings)
    return record


@once.twin_answered
@unit_of_work
def reseat(tournament_id: int, player_id: Any, table: Any, seat: Any,
           idempotency_key: str | None = None) -> Move:
    """Move one player by hand to an open seat (wrong seat, TDA 7; a director's call).
    Sent again with its ``idempotency_key``, nothing more (``once.Applied``) where it
    would say the seat is taken (by him)."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    player = player_in(tournament_id, player_id)
    data = {"table": table, "seat": seat}
    to_table = required_whole(data, "table", low=1, high=10_000, label=_("Table"))
    to_seat = required_whole(data, "seat", low=1, high=10, label=_("Seat"))
    layout = load_layout(tournament_id)
    if not player.active:
        db.session.rollback()
        raise Invalid({"player_id": _("%(name)s is out of the tournament", name=player.name)})
    if to_table not in layout.numbers:
        db.session.rollback()
        raise Invalid({"table": _("There is no table %(table)s in play", table=to_table)})
    dest = layout.table(to_table)
    if to_seat > dest.size:
        db.session.rollback()
        raise Invalid({"seat": _("Table %(table)s has seats 1 to %(size)s", table=to_table,
                                 size=dest.size)})
    here = dest.seats.get(to_seat)
    if here is not None:
        db.session.rollback()
        raise Invalid({"seat": _("Table %(table)s seat %(seat)s is taken by %(name)s",
                                 table=to_table, seat=to_seat, name=here.name)})
    from_table: int | None = None
    from_seat: int | None = None
    if any(p.player_id == player.id for t in layout.tables for p in t.seats.values()):
        from_table, from_seat = layout.where(player.id)
    others = {s for s, p in dest.seats.items() if p.player_id != player.id}
    status = apply_rule("seat", lambda: seat_status(to_seat, dest.last_hand, others, dest.size,
                                                    game_is_stud=dest.game_is_stud)) \
        if others else seat_status(to_seat, None, (), dest.size)
    move = Move(player.id, player.name, from_table, from_seat, to_table, to_seat, status.value,
                status)
    policy = settings_policy(settings)
    layout = apply_rule("seat", lambda: apply_moves(layout, [move]))
    store_layout(tournament_id, layout)
    seating_log(tournament_id, "reseat", [Said(N_("Reseated: %(move)s"), move=said_move(move))])
    replan(tournament_id, layout, policy)
    once.remember(tournament_id, idempotency_key, "reseat")
    commit_seating(tournament_id, settings)
    return move


@once.twin_answered
@unit_of_work
def hand_dealt(tournament_id: int, table: Any, idempotency_key: str | None = None) -> TableState:
    """A hand was dealt at ``table``: the button and blinds move on (TDA 32); sent again
    with its ``idempotency_key``, they move no further (``once.Applied``)."""
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    number = required_whole({"table": table}, "table", low=1, high=10_000, label=_("Table"))
    stored = load_layout(tournament_id)
    if number not in stored.numbers:
        db.session.rollback()
        raise Invalid({"table": _("There is no table %(table)s in play", table=number)})
    dealt = apply_rule("table", lambda: deal_hand(stored.table(number)))
    layout = stored.with_table(dealt)
    policy = settings_policy(settings)
    store_layout(tournament_id, layout, stored=stored)
    replan(tournament_id, layout, policy)   # the player due the big blind has changed
    once.remember(tournament_id, idempotency_key, "hand dealt")
    commit_seating(tournament_id, settings)
    return dealt


def _plan_row(tournament_id: int, plan_id: Any) -> SeatingPlanRecord:
    if isinstance(plan_id, str) and WHOLE.fullmatch(plan_id.strip()):
        plan_id = int(plan_id)
    if isinstance(plan_id, bool) or not isinstance(plan_id, int):
        db.session.rollback()
        raise Invalid({"plan_id": _("Which plan? plan_id must be a number")})
    record = db.session.get(SeatingPlanRecord, plan_id) if 0 < plan_id < 2**63 else None
    if record is None or record.tournament_id != tournament_id:
        db.session.rollback()
        raise Invalid({"plan_id": _("There is no seating plan %(plan)s in this tournament",
                                    plan=plan_id)})
    return record
