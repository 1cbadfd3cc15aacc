"""Hand-for-hand (TDA RP-8): announce, start, a hand finished at every table, stop."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask_babel import gettext as _

from director.db import db, utcnow
from director.i18n import (
    N_,
)
from director.services import (
    Invalid,
    get_tournament,
    once,
    tournaments,
    uow,
)
from director.services.audit import Said
from director.services.seating.log import seating_log
from director.services.seating.policy import settings_policy
from director.services.seating.writes import (
    apply_rule,
    commit_seating,
    locked_settings,
    unit_of_work,
)
from director.tournament import clock as clock_rules
from director.tournament.seating import (
    HandForHand,
    announce_hand_for_hand,
    end_hand_for_hand,
    finish_hand_for_hand_hand,
    start_hand_for_hand,
)

HAND_FOR_HAND_ACTIONS = ("announce", "start", "finish", "stop")


@once.twin_answered
@unit_of_work
def hand_for_hand(tournament_id: int, action: Any,
                  idempotency_key: str | None = None) -> dict[str, Any]:
    """Hand-for-hand (TDA RP-8): announce, start, a hand finished at every table, stop.

    The time comes off once (TDA RP-8, WSOP-T 126): "start" pauses a running
    clock; each "finish" (the round's last table finished its hand) takes
    ``policy.hand_for_hand_seconds`` off the paused level, once per round;
    "stop" restarts the clock the start paused.  The clock changes in the
    same transaction (``director.tournament.clock``) and is recorded on the unit of
    work (``uow.clock_moved``): after the commit every screen is told and its level
    end rescheduled.
    """
    if action != "finish":      # the tablets' round end is bookkeeping, not a change
        tournaments.verify_open(tournament_id)

    if action not in HAND_FOR_HAND_ACTIONS:
        raise Invalid({"action": _("The action is one of: %(actions)s",
                                   actions=", ".join(HAND_FOR_HAND_ACTIONS))})
    settings = locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)    # a double click: one round, once
    state = HandForHand.from_json(settings.hand_for_hand or {})
    policy = settings_policy(settings)
    seconds = 0
    resume = False
    now = utcnow()
    if action == "announce":
        if state.on or state.announced:
            db.session.rollback()
            raise Invalid({"action": _("Hand-for-hand is already announced")})
        state = announce_hand_for_hand(state, now)
        line = Said(N_("Hand-for-hand announced: finish the current hand, then hold"))
    elif action == "start":
        if state.on:
            db.session.rollback()
            raise Invalid({"action": _("Hand-for-hand is already on")})
        state = start_hand_for_hand(state, now)
        line = Said(N_("Hand-for-hand: every table deals one hand and waits; the clock is "
                       "paused"))
    elif action == "finish":
        state, seconds = apply_rule("action", lambda: finish_hand_for_hand_hand(state, policy, now))
        line = Said(N_("Hand-for-hand hand %(hand)s finished: %(seconds)s s off the clock"),
                    hand=state.hands_played, seconds=seconds)
    else:
        if not (state.on or state.announced):
            db.session.rollback()
            raise Invalid({"action": _("Hand-for-hand is not on")})
        resume = state.paused_clock
        state = end_hand_for_hand(state)
        line = Said(N_("Hand-for-hand is over: the clock runs again")) if resume \
            else Said(N_("Hand-for-hand is over"))
    tournament = get_tournament(tournament_id)
    structure = tournament.structure
    caught_up = clock_rules.advance_due(tournament.clock, structure, now)
    clock = caught_up
    if action == "start" and caught_up.running:
        clock = clock_rules.pause(caught_up, now)
        state = replace(state, paused_clock=True)
    elif action == "stop" and resume:
        clock = clock_rules.resume(caught_up, now)
    if seconds:
        clock = apply_rule("action", lambda: clock_rules.hand_for_hand_deduction(
            caught_up, structure, seconds, now=now))
    settings.hand_for_hand = state.to_json()
    if clock != caught_up:
        tournament.clock = clock
        uow.clock_moved(tournament_id)
    seating_log(tournament_id, "hand-for-hand", [line])
    if action != "finish":
        uow.log({"announce": "hand-for-hand announced", "start": "hand-for-hand started"}
                .get(action, "hand-for-hand stopped"), tournament_id)
    once.remember(tournament_id, idempotency_key, f"hand-for-hand {action}")
    commit_seating(tournament_id, settings)
    return {"hand_for_hand": state.to_json(), "seconds_deducted": seconds}
