"""The dealer tablet's services: start a hand, apply its events, undo, finish.

Each write is one unit of work (STYLE.md, issue 27): load the hand row and its
events, replay them through the engine (``director.poker.state.Hand``), apply the
new event, write it, record what it means (``services.uow``: the tablets' "dealer"
event, the seating screens, the log lines), commit once; the dispatcher tells
them after the commit.  The database is the truth: a hand's state is the replay
of its stored events that are not undone, so a server killed mid-hand resumes
exactly where it was.  Every accepted event is committed (SQLite
``synchronous=FULL``) before the answer is built for the tablet, and an
``idempotency_key`` sent again gets the stored answer.  The write that finishes a
hand commits the eliminations it causes with it (``finish.finish_hand``), and the
undo of that hand the reinstatements: a crash leaves all of it or none of it.

Engine players are indices in PHH order; :class:`Seating` maps them to seat
numbers and player names, and every sentence the tablet shows goes through
:func:`Seating.words` so it names "Seat 3 (Ann)", never an index.

Two writers on one hand: ``version`` (sent by the tablet) must match, and the
row's version is bumped with a conditional UPDATE, so exactly one wins and the
other gets :class:`Conflict` (a 409 with the current hand).

The tablets' read model (``memory``): what every tablet of a table shows, the
hand's state at its version, is computed once per change and per language (by
the write that made the version, or the first GET), and read by every tablet's
GET (``current``) with only its shot clock's seconds read again.  A version never
changes, so nothing kept under one goes stale, except by a log line written with
no new version: the unit of work forgets it after that commit
(``uow.after_commit``), and another process's "hands" change with ``log`` does in
this process (``forget_log``, installed by ``create_app``).

The modules, by the question each answers:

``answers``      what a write answers (``Answer``, ``Illegal``, ``Conflict``)
``seats``        who engine player *i* is (``Seating``)
``memory``       what this process remembers: engine hands, logs, tablet states
``rows``         which table, which hand
``log``          what the hand's log says
``tablet``       what the tablet shows (``hand_json``, ``current``)
``writes``       how a change is written (the grouped driver path, the lock)
``finish``       a hand's end and its undo: chips and eliminations, one transaction
``actions``      the tablet's taps (``apply_events`` and the endpoints)
``deal``         dealing the next hand
``corrections``  undo, the director's correction, notes, the clock call
``history``      a table's past hands and their PHH files
"""

from __future__ import annotations

from director.services.dealer.actions import (
    act,
    apply_events,
    award,
    deal_board,
    deal_cards,
    muck,
    show,
)
from director.services.dealer.answers import Answer, Conflict, Illegal
from director.services.dealer.corrections import (
    DEAL_UNDONE,
    correct_hand,
    log_note,
    set_clock_call,
    undo,
    write_note,
)
from director.services.dealer.deal import ON_BREAK, correct_stack, next_hand, start_hand
from director.services.dealer.history import (
    award_text,
    event_list,
    finished_rows,
    hand_counts,
    hand_page,
    hands_of_table,
    phh_name,
    phh_text,
    phh_zip,
)
from director.services.dealer.log import LOG_SHOWN, describe_event, full_log, recent_log
from director.services.dealer.memory import (
    STATES_COUNTED,
    HandRow,
    cached_hand,
    forget_all_hands,
    forget_cached_hands,
    forget_latest,
    forget_log,
)
from director.services.dealer.rows import (
    engine_hand,
    get_hand,
    get_table,
    get_table_or_history,
    latest_hand,
    table_tournament,
)
from director.services.dealer.seats import Seating
from director.services.dealer.tablet import buttons, current, hand_json, live_clock_call, utc
from director.services.dealer.writes import open_hand, stored_answer

__all__ = [
    "DEAL_UNDONE", "LOG_SHOWN", "ON_BREAK", "STATES_COUNTED",
    "Answer", "Conflict", "HandRow", "Illegal", "Seating",
    "act", "apply_events", "award", "award_text", "buttons", "cached_hand", "correct_hand", "correct_stack", "current",
    "deal_board", "deal_cards", "describe_event", "engine_hand", "event_list", "finished_rows",
    "forget_all_hands", "forget_cached_hands", "forget_latest", "forget_log", "full_log", "get_hand", "get_table",
    "get_table_or_history", "hand_counts", "hand_json", "hand_page", "hands_of_table", "latest_hand",
    "live_clock_call", "log_note", "muck", "next_hand", "open_hand", "phh_name", "phh_text",
    "phh_zip", "recent_log", "set_clock_call", "show", "start_hand", "stored_answer",
    "table_tournament", "undo", "utc", "write_note",
]
