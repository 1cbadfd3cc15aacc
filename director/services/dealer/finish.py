"""A hand's end and its undo: the chips it moved, the players it busted.

One unit of work each (issue 27): the finish of a hand on the tablet, with the
eliminations it causes (:func:`finish_hand`), the director's correction of a
finished hand (``corrections.correct_hand``: :func:`finish_corrected` and
:func:`eliminate_busted`), and the undo of a finished hand, which reinstates
the players it busted (:func:`unfinish`), each commit once, so a crash leaves
all of it or none of it (``tests/web/test_dealer_finish_crash.py``).
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from sqlalchemy import select

from director.db import db, utcnow, write_lock
from director.faults import crash_point
from director.i18n import gettext as _
from director.models.hands import DealerHand, HandLogEntry
from director.models.seating import Player
from director.poker.events import Event
from director.poker.state import Hand, HandConfig
from director.services import Invalid, busts, uow
from director.services import bounties as bounty_service
from director.services.dealer.answers import Illegal
from director.services.dealer.log import hand_awards, stored_text
from director.services.dealer.memory import AnyRow, HandRow, keep_latest, remember
from director.services.dealer.seats import Seating
from director.services.dealer.tablet import keep_state
from director.services.dealer.writes import (
    Finish,
    chip_changes,
    chips_moved,
    tell_tablets,
    write_finish,
)


def finish_corrected(row: DealerHand, hand: Hand) -> tuple[list[int], list[str]]:
    """The director's corrected hand is over: every player's chips follow it (in this
    transaction; ``Finish`` is the same through the driver).  Returns the ids of
    players left with no chips, and the award sentences to log."""
    row.status = "misdeal" if hand.misdealt else "finished"
    row.finished_at = utcnow()
    row.clock_call = None
    changes = chip_changes(row.players, hand)
    busted = []
    for player in db.session.scalars(select(Player).where(
            Player.id.in_([p["player_id"] for p in row.players]))):
        if player.id in changes:
            player.chips = max(0, player.chips + changes[player.id])
        if player.chips == 0 and player.status == "active":
            busted.append(player.id)
    row.chips_applied = {str(pid): delta for pid, delta in changes.items()}
    sentences = [] if hand.misdealt else hand_awards(hand, Seating(row.players))[1]
    return busted, sentences


def eliminate_busted(row: AnyRow, busted: list[int], hand: Hand) -> None:
    """The players the finished ``hand`` left with no chips are out (finishing places,
    bounties, the seating plan, the event's end when one player is left), in the
    caller's transaction: nothing is committed here (``busts.eliminate(commit=False)``).
    A refusal (``Invalid``) has rolled the session back."""
    if not busted:
        return
    config = HandConfig.from_json(row.config)
    starting = {p["player_id"]: config.starting_stacks[i] for i, p in enumerate(row.players)}
    busts.eliminate(row.tournament_id, busted, starting_chips=starting,
                    by=bounty_service.from_hand(hand, row.players, busted), commit=False)


def finish_hand(row: HandRow, hand: Hand, events: list[Event], key: str | None, text: str,
                entries: list[tuple[str, str]], now: datetime, finish: Finish,
                log: list[dict[str, Any]], body: dict[str, Any]) -> HandRow | None:
    """The write that finishes a hand and busts players, and everything it causes, as
    ONE transaction (a finish that busts nobody is grouped: ``writes.write_known``):
    the hand's version, status, events and log lines, the players' chips
    (``writes.write_finish``), the busted players' elimination, committed once
    (issue 27: a crash between the finish and the eliminations left an active player
    with 0 chips).  The steps are ``faults.crash_point``s, so that the crash test can
    stop the process at each.  When the eliminations are refused (a busted player has
    no seat any more ...), the hand is finished alone and the refusal is its log's last
    line, as the director must put it right.  After the commit the unit of work tells
    the seating screens, the projector (the players left) and the tablets, and
    ``body`` (the answer) is kept as the tablets' state.  Returns the row as
    committed, or None when another writer moved the hand first."""
    crash_point("finish-start")
    db.session.connection()     # a connection first, then this process's write lock (db.write_lock):
    with write_lock:            # the grouped writes wait for this commit instead of busy-sleeping
        committed = _finish_and_eliminate(row, hand, events, key, text, entries, now, finish, log,
                                          body)
        if committed is None:
            return None
        crash_point("before-commit")
        db.session.commit()
    crash_point("after-commit")
    uow.dispatch()
    return committed


def _finish_and_eliminate(row: HandRow, hand: Hand, events: list[Event], key: str | None, text: str,
                          entries: list[tuple[str, str]], now: datetime, finish: Finish,
                          log: list[dict[str, Any]] | None, body: dict[str, Any]) -> HandRow | None:
    written = write_finish(row, events, key, text, entries, now, finish)
    if written is None:
        return None
    committed, busted = written
    try:
        eliminate_busted(committed, busted, hand)
    except Invalid as exc:                      # rolled back: the finish alone, and why
        refusal = " ".join(exc.errors.values())
        written = write_finish(row, events, key, text, [*entries, ("engine", refusal)], now, finish)
        if written is None:
            return None
        committed, busted, log = written[0], [], None
    crash_point("after-eliminations")
    chips_moved(committed.tournament_id, clock=bool(busted))
    uow.after_commit(functools.partial(_kept, committed, hand, log))
    if log is not None:                         # (the answer's log lacks a refusal's line)
        uow.after_commit(functools.partial(keep_state, body))
    tell_tablets(committed)
    return committed


def _kept(row: HandRow, hand: Hand, log: list[dict[str, Any]] | None) -> None:
    keep_latest(row)
    remember(row.id, row.version, hand, log)


def unfinish(row: DealerHand) -> bool:
    """Reopen a finished hand: take back the chips it moved.  The players it busted
    come back into their seats (``busts.reinstate``, in this transaction); another
    player who is out (the director eliminated them) makes it refused.  Returns
    whether anyone came back (the players left changed)."""
    deltas = {int(pid): int(delta) for pid, delta in (row.chips_applied or {}).items()}
    players = {p.id: p for p in db.session.scalars(select(Player).where(Player.id.in_(list(deltas))))}
    busted = {}
    seats = {int(p["player_id"]): int(p["seat"]) for p in row.players}
    for pid, player in players.items():
        if player.status == "active":
            continue
        if player.chips == 0 and deltas[pid] < 0 and pid in seats:
            busted[pid] = seats[pid]
            continue
        db.session.rollback()
        raise Illegal(_("%(name)s is out of the tournament, and not because this hand took their "
                        "last chip: the director corrects the hand from the seating page",
                        name=player.name))
    if busted:
        try:
            lines = busts.reinstate(row.tournament_id, row.table_id, busted)
        except Invalid as exc:
            db.session.rollback()
            raise Illegal(" ".join(exc.errors.values())) from None
        for line in lines:
            db.session.add(HandLogEntry(hand_id=row.id, who="engine", text=stored_text(line)))
    for pid, delta in deltas.items():
        player = players.get(pid)
        if player is not None:
            player.chips = max(0, player.chips - delta)
    row.chips_applied = None
    row.status = "playing"
    row.finished_at = None
    return bool(busted)
