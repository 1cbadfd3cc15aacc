"""When a table must hold its next hand, and the hand-for-hand hand that ends when
every table has finished it.

The tablet's "Deal" is refused, with the reason, when:

* hand-for-hand has been announced: "finish the current hand, then hold"
  (TDA RP-8; RULES.md §9.6).  A redeal after a misdeal of that hand is allowed:
  the misdeal voided it, and the redeal is the hand being finished;
* hand-for-hand is on and this table has finished its hand of the current
  round: it waits until every table has (TDA RP-8).  When the last table
  finishes, the round ends by itself (:func:`finish_round`: the hand-for-hand
  seconds come off the clock, as the director's "hand finished at every table"
  does) and every table deals the next one;
* play is halted at the table: it is ``halt_short_by`` (3) or more players short
  of the fullest table once its blinds are affected (TDA 11-D; [BAL-1]), until
  the director balances the tables.

A break of the clock is refused by ``dealer.start_hand`` itself.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from flask_babel import ngettext
from sqlalchemy import bindparam, select

from director.db import db
from director.i18n import gettext as _
from director.models.hands import DealerHand
from director.models.seating import SeatingSettings, SeatingTable
from director.services import seating as seating_service
from director.tournament.seating import HandForHand, SeatingPolicy, halted_tables

_SETTINGS = select(SeatingSettings.policy, SeatingSettings.hand_for_hand).where(
    SeatingSettings.tournament_id == bindparam("tournament_id"))
"""Built once: read after every finished hand (:func:`finish_round`)."""


def settings(tournament_id: int) -> tuple[SeatingPolicy, HandForHand]:
    """The event's seating policy and hand-for-hand state (read only)."""
    found = db.session.execute(_SETTINGS, {"tournament_id": tournament_id}).first()
    if found is None:
        return SeatingPolicy(), HandForHand()
    policy = SeatingPolicy.from_json(found.policy) if found.policy else SeatingPolicy()
    return policy, HandForHand.from_json(found.hand_for_hand or {})


def _tables(tournament_id: int) -> dict[int, int]:
    """Table id -> number, of the tables in play."""
    return {int(table_id): int(number) for table_id, number in db.session.execute(
        select(SeatingTable.id, SeatingTable.number).where(SeatingTable.tournament_id == tournament_id))}


def _hands_since(tournament_id: int, since: datetime) -> dict[int, str]:
    """Table id -> "finished" or "playing": the hands dealt since ``since`` (a hand
    voided by a misdeal does not count: it is dealt again)."""
    rows = db.session.execute(select(DealerHand.table_id, DealerHand.status).where(
        DealerHand.tournament_id == tournament_id, DealerHand.started_at >= since,
        DealerHand.status != "misdeal"))
    done: dict[int, str] = {}
    for table_id, status in rows:
        if done.get(table_id) != "playing":
            done[table_id] = status
    return done


def waiting_for(tournament_id: int, state: HandForHand,
                done: dict[int, str] | None = None) -> list[int] | None:
    """The numbers of the tables that have not finished the current hand-for-hand
    hand (None when hand-for-hand is not on, or its round is not known); ``done``
    is :func:`_hands_since` of the round when the caller has read it."""
    if not state.on or state.since is None:
        return None
    tables = _tables(tournament_id)
    if not tables:
        return None
    if done is None:
        done = _hands_since(tournament_id, state.since)
    return sorted(number for table_id, number in tables.items() if done.get(table_id) != "finished")


def _halted(table: Any, policy: SeatingPolicy, seats_here: int, most: int) -> int | None:
    """How many players short the table is, when play is halted at it; ``most`` is
    the player count of the fullest table."""
    if most - seats_here < policy.halt_short_by:
        return None                                   # the usual case: nothing more to read

    layout = seating_service.load_layout(table.tournament_id)
    return most - seats_here if table.number in halted_tables(layout, policy) else None


def hold(table: Any, seats_here: int, last: Any, policy: SeatingPolicy, state: HandForHand,
         most: int) -> str | None:
    """Why the table must not deal its next hand now, or None.  ``table`` has the
    ``id``, ``tournament_id`` and ``number`` of a ``SeatingTable``; ``last`` is the
    table's latest hand (``number``, ``status``, ``finished_at``) or None; ``policy``
    and ``state`` are the event's seating policy and hand-for-hand state, ``most``
    the player count of the fullest table (``dealer.deal``'s context reads them all
    in one query)."""
    if state.announced:
        redeal = last is not None and last.status == "misdeal" and state.since is not None \
            and last.finished_at is not None and last.finished_at >= state.since
        if not redeal:
            return _("Hand-for-hand has been announced: this table holds until the director "
                     "starts hand-for-hand (TDA RP-8)")
    if state.on and state.since is not None:
        done = _hands_since(table.tournament_id, state.since)
        if done.get(table.id) == "finished":
            waiting = waiting_for(table.tournament_id, state, done) or []
            if waiting:
                return ngettext("Hand-for-hand: this table has played hand %(hand)s; wait for "
                                "table %(tables)s to finish it (TDA RP-8)",
                                "Hand-for-hand: this table has played hand %(hand)s; wait for "
                                "tables %(tables)s to finish it (TDA RP-8)", len(waiting),
                                hand=state.hands_played + 1,
                                tables=", ".join(str(n) for n in waiting))
            return _("Hand-for-hand: every table has played hand %(hand)s; wait for the director",
                     hand=state.hands_played + 1)
    short = _halted(table, policy, seats_here, most)
    if short is not None:
        return _("Play is halted at this table: it is %(short)s players short of the fullest "
                 "table (TDA 11-D). Wait until the director balances the tables", short=short)
    return None


_round_lock = threading.Lock()


def finish_round(tournament_id: int) -> bool:
    """After a hand finished: when hand-for-hand is on and every table has finished
    its hand of the round, the round ends (``seating.hand_for_hand(.., "finish")``:
    the clock loses the hand-for-hand seconds and the next round begins).  Returns
    whether it did.  One round ends once, even when two tables finish together:
    the state is read again under a lock before it is changed."""

    _, state = settings(tournament_id)
    if not state.on or waiting_for(tournament_id, state) != []:
        return False
    with _round_lock:
        db.session.rollback()                       # read what is committed now
        _, again = settings(tournament_id)
        if again.since != state.since or waiting_for(tournament_id, again) != []:
            return False
        seating_service.hand_for_hand(tournament_id, "finish")
    return True
