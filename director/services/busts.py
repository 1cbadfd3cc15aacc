"""Eliminations: players out of the tournament, and back in when a bust is undone.

A bust sets finishing places (``place_busts``: hand-for-hand ties, the round's
busts placed together), pays the bounties it decides (``services.bounties``),
ends the event or a satellite's seat race when it should (``services.money``)
and proposes the next seating step (``services.seating.replan``).  Its undo
(the dealer tablet's :func:`reinstate`, the director's :func:`undo_elimination`)
puts the places, the winner, the bounties and the round's busts right, and is
refused where a prize paid or a deal saved would contradict it.

Above seating and money (layer L3): both are used, neither imports this.
Each function is one unit of work, locked by the seating settings row.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db, utcnow
from director.i18n import N_, place_label
from director.models.money import MoneySettings, Payment
from director.models.seating import (
    Player,
    SeatingPlanRecord,
    SeatingSettings,
    SeatingTable,
    name_key,
)
from director.models.tournament import MAX_CHIPS
from director.schemas import whole_in
from director.services import Invalid, once, seating, tournaments, uow
from director.services import bounties as bounty_service
from director.services import money as money_service
from director.services.audit import Said
from director.tournament.seating import (
    Bust,
    Elimination,
    Finish,
    HandForHand,
    Move,
    SeatedPlayer,
    apply_plan,
    place_busts,
    places_after_reinstatement,
    reinstate_players,
    remove_players,
    seat_after_undone_bust,
)

unit_of_work = seating.unit_of_work   # seating's lock and its words for a lost race


def _player_ids(value: Any) -> list[Any]:
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return [value]
    if isinstance(value, list) and value:
        return value
    raise Invalid({"player_ids": _("Choose the player(s) eliminated in the hand")})


@once.twin_answered
@unit_of_work
def eliminate(tournament_id: int, player_ids: Any, starting_chips: Any = None,
              rng: random.Random | None = None, by: Any = None,
              commit: bool = True, idempotency_key: str | None = None,
              ) -> tuple[list[Finish], SeatingPlanRecord | None]:
    """Players eliminated in one hand: finishing places, then the next seating step.

    Places follow ``place_busts``: the bigger starting stack finishes higher
    at one table; during hand-for-hand players at different tables tie, and
    busts in the announcement hand share the places in play ([H4H-1],
    [H4H-2]; TDA RP-8, WSOP-T 126).  ``starting_chips`` maps player id ->
    chips at the start of the hand (default: the player's recorded chips).
    The moves that follow (balance, break, redraw) are only proposed: see
    :func:`confirm_plan`.

    During hand-for-hand (announced or on) each table's tablet reports its
    busts as its hand finishes, one call per table, so a call is placed
    together with the busts recorded earlier in the same round
    (``HandForHand.busts``, emptied when the next round begins): with 51
    left, X busts at table 1 (51st for a moment), then Y at table 4: X and Y
    share 50th-51st, and X's place is rewritten ("now finishes in place").
    Every bust of a round gets the round's first bust moment as
    ``eliminated_at``, so an undo sees them as one hand
    (:func:`places_after_reinstatement`).  Refused when a prize was already
    paid for a place this would change.  Returns the finishes of the players
    of this call (a tie names the earlier players who share it).

    ``by``: who knocked them out (the director's player id, or the tablet's pot
    winners), recorded with the bounties it pays (``services.bounties.knock_out``).

    ``commit`` false: flushed, not committed, and the screens not told: part of the
    caller's unit of work (the dealer's finish of the hand that busted them commits
    both at once and records the screens' change).  A refusal rolls the session back.
    Sent again with its ``idempotency_key`` (a double click), nothing more is done
    (``once.Applied``).
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = seating.locked_settings(tournament_id)
    once.verify_new(tournament_id, idempotency_key)
    ids = _player_ids(player_ids)
    players = [seating.player_in(tournament_id, pid, "player_ids") for pid in ids]
    stacks: Mapping[Any, Any] = starting_chips if isinstance(starting_chips, Mapping) else {}
    layout = stored = seating.load_layout(tournament_id)
    where = {p.player_id: t.number for t in layout.tables for p in t.seats.values()}
    busts = []
    for player in players:
        if not player.active:
            db.session.rollback()
            raise Invalid({"player_ids": _("%(name)s is already out (finished %(place)s)",
                                           name=player.name, place=place_label(player))})
        if layout.tables and player.id not in where:
            db.session.rollback()
            raise Invalid({"player_ids": _("%(name)s has no seat", name=player.name)})
        chips = whole_in({"chips": stacks.get(player.id, stacks.get(str(player.id)))}, "chips",
                         _("%(name)s's starting chips", name=player.name),
                         low=0, high=MAX_CHIPS, default=player.chips)
        busts.append(Bust(player.id, where.get(player.id, 0), int(chips or 0)))
    left = seating.active_count(tournament_id)
    h4h = HandForHand.from_json(settings.hand_for_hand or {})
    earlier = _round_busts(tournament_id, h4h) if h4h.on or h4h.announced else {}
    round_busts = [*(bust for bust, _player_row in earlier.values()), *busts]
    finishes = seating.apply_rule("player_ids", lambda: list(place_busts(
        round_busts, left + len(earlier), hand_for_hand=h4h.on,
        announcement_hand=h4h.announced)))
    places = {pid: (f.first, f.last if f.tied else None)
              for f in finishes for pid in f.player_ids}
    moved = [row for _bust, row in earlier.values() if places[row.id] != (row.place, row.place_last)]
    _refuse_paid_bust(tournament_id, moved)
    now = utcnow()
    moment = min([now, *(row.eliminated_at for _bust, row in earlier.values()
                         if row.eliminated_at is not None)])
    by_id = {p.id: p for p in players}
    entries = money_service.entries_up_to(tournament_id, moment)   # stored with the place
    lines = []
    for player in players:
        player.status = "eliminated"
        player.place, player.place_last = places[player.id]
        player.eliminated_at, player.entries_when_out = moment, entries
        player.out_table, player.out_seat = layout.where(player.id) if player.id in where \
            else (None, None)
        lines.append(Said(N_("%(name)s eliminated in place %(place)s"), name=player.name,
                          place=seating.place_said(player)))
    lines.extend(bounty_service.knock_out(tournament_id, players, by))  # who knocked them out
    for _bust, other in earlier.values():
        other.eliminated_at, other.entries_when_out = moment, entries
        if other in moved:
            other.place, other.place_last = places[other.id]
            lines.append(Said(N_("%(name)s now finishes in place %(place)s"), name=other.name,
                              place=seating.place_said(other)))
    if h4h.on or h4h.announced:
        settings.hand_for_hand = replace(h4h, busts=tuple(round_busts)).to_json()
    if left - len(players) == 1:
        winner = next(p for p in seating.active_players(tournament_id) if p.id not in by_id)
        winner.place = 1
        lines.append(Said(N_("%(name)s wins the tournament"), name=winner.name))
        bounty_service.collected_at_the_end(tournament_id, [winner])
        lines.extend(money_service.last_player_left(tournament_id, now))  # the event ends, the clock stops
    else:
        lines.extend(money_service.stop_at_the_seats(tournament_id, now))  # a satellite's seats
    policy = seating.settings_policy(settings)
    record = None
    if layout.tables:
        layout = seating.apply_rule("player_ids", lambda: remove_players(layout, [p.id for p in players]))
        seating.store_layout(tournament_id, layout, stored=stored)
        record = seating.replan(tournament_id, layout, policy, rng)
    seating.seating_log(tournament_id, "eliminate", lines)
    for player in players:
        uow.log("eliminated", tournament_id, name=player.name, place=place_label(player))
    once.remember(tournament_id, idempotency_key, "eliminate")
    seating.commit_seating(tournament_id, settings, commit=commit)
    return [f for f in finishes if any(pid in by_id for pid in f.player_ids)], record


def _round_busts(tournament_id: int, h4h: HandForHand) -> dict[int, tuple[Bust, Player]]:
    """The busts recorded earlier in the current hand-for-hand round, with their rows
    (player id -> (bust, player)); a player who is no longer out is left aside."""
    earlier: dict[int, tuple[Bust, Player]] = {}
    for bust in h4h.busts:
        row = db.session.get(Player, bust.player_id)
        if row is not None and row.tournament_id == tournament_id and not row.active \
                and row.place is not None:
            earlier[bust.player_id] = (bust, row)
    return earlier


def _refuse_paid_bust(tournament_id: int, moved: list[Player]) -> None:
    """A prize already paid for a place that a bust later in the same hand-for-hand round
    would change (a tie it would now share) cannot be put right here (``money.undo`` can)."""
    player = _paid_prize(tournament_id, moved)
    if player is not None:
        db.session.rollback()
        raise Invalid({"player_ids": _(
            "%(name)s has been paid a prize for place %(place)s, which this bust in the same "
            "hand-for-hand hand would change: undo that payment on the money page first",
            name=player.name, place=place_label(player))})


@unit_of_work
def reinstate(tournament_id: int, table_id: int, seats: dict[int, int]) -> list[str]:
    """Undo the elimination of players who busted in a hand the dealer is undoing.

    ``seats`` maps player id -> the seat number he had in that hand at table
    ``table_id`` (``seating_table.id``).  The dealer may take back the last
    action until the next hand starts (issue 5); a player eliminated by the
    reopened hand never went out, so, as a director would put it right:

    * he is active again, his place and elimination time cleared, back in the
      same seat of the same table (:func:`reinstate_players`);
    * every player who went out after him finishes one place lower, and a tie
      he shared loses him (:func:`places_after_reinstatement`): 10 players,
      Ann out 10th, Bo 9th at another table; undo Ann's bust and Bo is 10th;
    * a winner crowned by the bust is no longer the winner;
    * during hand-for-hand he is no longer one of the round's busts
      (``HandForHand.busts``), so a bust recorded later in the round is
      placed without him;
    * the pending seating plan is made again for the seating as it is now.

    Refused (``Invalid({"player_ids": sentence})``, the session rolled back,
    so the hand's undo is refused as a whole) when a seat is taken, the table
    was broken, a seating plan was confirmed since the bust, the player has
    entered again, a prize was paid for a place that would change, or a deal
    was saved without him.

    Does NOT commit and records no screens' change: the caller commits in the same
    transaction as the hand's undo and records it (``uow.screens``).  The settings
    row (the optimistic lock) is touched and flushed here, so its version
    moves with that commit.  Returns the log lines (also in the seating log).
    """
    tournaments.verify_open_for_undone_bust(tournament_id)  # the hand that ended the event
    settings = seating.locked_settings(tournament_id)
    if not seats:
        return []
    players = [seating.player_in(tournament_id, pid, "player_ids") for pid in seats]
    for player in players:
        if player.active:
            raise Invalid({"player_ids": _("%(name)s is not out of the tournament",
                                           name=player.name)})
    names = ", ".join(p.name for p in players)
    table = db.session.get(SeatingTable, table_id)
    if table is None or table.tournament_id != tournament_id:
        raise Invalid({"player_ids": _("The table of that hand has been broken since: seat "
                                       "%(names)s from the seating page", names=names)})
    _refuse_reinstating(tournament_id, players)
    layout = seating.load_layout(tournament_id)
    back = {int(seats[p.id]): SeatedPlayer(p.id, p.name) for p in players}
    layout = seating.apply_rule("player_ids", lambda: reinstate_players(layout, table.number, back))
    lines = _back_in(tournament_id, settings, players, {p.id: Said(N_(
        "%(name)s reinstated at table %(table)s seat %(seat)s: the hand that eliminated them "
        "was undone"), name=p.name, table=table.number, seat=seats[p.id]) for p in players})
    policy = seating.settings_policy(settings)
    seating.store_layout(tournament_id, layout)
    seating.replan(tournament_id, layout, policy)
    seating.seating_log(tournament_id, "reinstate", lines)
    db.session.flush()
    return lines


def _back_in(tournament_id: int, settings: SeatingSettings, players: list[Player],
             reinstated: Mapping[int, Said]) -> list[str]:
    """``players`` never went out: active again, and the places and the winner that
    their busts decided put right (:func:`places_after_reinstatement`); during
    hand-for-hand they are no longer busts of the round.  Refused when a prize was
    paid for a place this changes, or a deal was saved without them.  Returns the
    log lines (``reinstated``: player id -> his own line)."""
    by_id = {p.id: p for p in players}
    out = _out_players(tournament_id)
    changed = places_after_reinstatement(_eliminations(out), by_id)
    crowned = list(db.session.scalars(select(Player).where(     # the winner, if crowned
        Player.tournament_id == tournament_id, Player.status == "active",
        Player.place.is_not(None))))
    _refuse_paid_places(tournament_id, players,
                        [*(p for p in out if p.id in changed), *crowned])
    bounty_service.take_back(tournament_id, players)      # their knockouts, and PKO heads
    lines = []
    for player in players:
        player.status = "active"
        player.place = player.place_last = None
        player.eliminated_at = player.entries_when_out = None
        player.out_table = player.out_seat = None
        lines.append(reinstated[player.id])
    for other in out:
        if other.id in changed:
            first, last = changed[other.id]
            other.place, other.place_last = first, (last if last != first else None)
            lines.append(Said(N_("%(name)s now finishes in place %(place)s"), name=other.name,
                              place=seating.place_said(other)))
    for winner in crowned:
        winner.place = winner.place_last = None
        lines.append(Said(N_("%(name)s has not won yet: the tournament goes on"),
                          name=winner.name))
    h4h = HandForHand.from_json(settings.hand_for_hand or {})
    if any(b.player_id in by_id for b in h4h.busts):     # never out: not a bust of the round
        settings.hand_for_hand = replace(
            h4h, busts=tuple(b for b in h4h.busts if b.player_id not in by_id)).to_json()
    return lines


@unit_of_work
def undo_elimination(tournament_id: int, player_id: Any,
                     rng: random.Random | None = None) -> tuple[Player, Move | None, list[str]]:
    """The director takes an elimination back (a bust recorded by mistake).

    The same reinstatement as the dealer tablet's undo (:func:`reinstate`): the
    player is active again, every player who went out after him finishes one
    place lower, a winner his bust crowned is not the winner yet, and the
    pending seating plan is made again.  His seat: the one he went out from if
    it is still there and open, otherwise the seat the rules give a player
    joining play (:func:`seat_after_undone_bust`, TDA 8-A), so a plan confirmed
    since the bust does not stand in the way.

    Refused, with the reason, only where it cannot be done: he is not out, he has
    entered again since (undo that entry first), or a prize was paid or a deal
    saved that the changed places would contradict (undo those on the money
    page first).  Returns the player, his seat (None before the draw) and the
    log lines.
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = seating.locked_settings(tournament_id)
    player = seating.player_in(tournament_id, player_id)
    if player.active:
        raise Invalid({"player_id": _("%(name)s is not out of the tournament", name=player.name)})
    if player.place is None:
        raise Invalid({"player_id": _("%(name)s has no finishing place to take back",
                                      name=player.name)})
    _refuse_reinstating(tournament_id, [player], moved_since=False)
    policy = seating.settings_policy(settings)
    layout = seating.load_layout(tournament_id)
    move = None
    if layout.tables:
        plan = seating.apply_rule("player_id", lambda: seat_after_undone_bust(
            layout, player.id, player.name, player.out_table, player.out_seat, policy, rng))
        layout = seating.apply_rule("player_id", lambda: apply_plan(layout, plan))
        move = plan.moves[0]
        line = Said(N_("%(name)s is back in play at table %(table)s seat %(seat)s (%(status)s): "
                       "the director undid the elimination"), name=player.name,
                    table=move.to_table, seat=move.to_seat,
                    status={"seating": move.status.value})
    else:
        line = Said(N_("%(name)s is back in play: the director undid the elimination"),
                    name=player.name)
    lines = _back_in(tournament_id, settings, [player], {player.id: line})
    if layout.tables:
        seating.store_layout(tournament_id, layout)
        seating.replan(tournament_id, layout, policy, rng)
    seating.seating_log(tournament_id, "reinstate", lines)
    uow.log("elimination undone", tournament_id, name=player.name,
            details={"player_id": player.id, "lines": lines})
    seating.commit_seating(tournament_id, settings)
    return player, move, lines


def _out_players(tournament_id: int) -> list[Player]:
    return list(db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.status != "active",
        Player.place.is_not(None)).order_by(Player.id)))


def _eliminations(out: Iterable[Player]) -> list[Elimination]:
    """The finished players for :func:`places_after_reinstatement`: the busts of one
    hand share their ``eliminated_at`` (one ``eliminate``), so its rank is the hand."""
    players = list(out)
    moments = sorted({p.eliminated_at for p in players if p.eliminated_at is not None})
    hand = {at: i + 1 for i, at in enumerate(moments)}
    return [Elimination(p.id, int(p.place or 0), int(p.place_last or p.place or 0),
                        hand.get(p.eliminated_at, 0) if p.eliminated_at else 0)
            for p in players]


def _refuse_reinstating(tournament_id: int, players: list[Player], *,
                        moved_since: bool = True) -> None:
    """What the seating side must refuse: players moved by a plan since the bust (the
    tablet's undo puts a hand back as it was; ``moved_since=False`` for the director's
    undo, which seats the player anew), or a player who has entered again (a re-entry,
    or a new registration in the same name)."""
    moments = [p.eliminated_at for p in players if p.eliminated_at is not None]
    names = ", ".join(p.name for p in players)
    if moved_since and moments and db.session.scalar(select(func.count(SeatingPlanRecord.id)).where(
            SeatingPlanRecord.tournament_id == tournament_id,
            SeatingPlanRecord.status == "confirmed",
            SeatingPlanRecord.decided_at >= min(moments))):
        raise Invalid({"player_ids": _(
            "Players were moved after %(names)s went out (a seating plan was confirmed): the "
            "director must undo that plan on the seating page before this hand can be undone",
            names=names)})
    for player in players:
        since = player.eliminated_at
        again = db.session.scalar(select(func.count(Player.id)).where(
            Player.tournament_id == tournament_id, Player.id != player.id,
            Player.name_key == name_key(player.name),
            (Player.status == "active") | (Player.created_at > since) if since is not None
            else Player.status == "active"))
        if again:
            raise Invalid({"player_ids": _("%(name)s has entered again since going out: undo "
                                           "that entry first", name=player.name)})


def _paid_prize(tournament_id: int, players: list[Player]) -> Player | None:
    """One of ``players`` who has been paid a prize (not undone), if any."""

    if not players:
        return None
    ids = {p.id: p for p in players}
    paid = db.session.scalars(select(Payment.player_id).where(
        Payment.tournament_id == tournament_id, Payment.kind == "payout",
        Payment.undone_at.is_(None), Payment.player_id.in_(list(ids)))).first()
    return ids[paid] if paid is not None else None


def _refuse_paid_places(tournament_id: int, players: list[Player], others: list[Player]) -> None:
    """The money side: a prize already paid for a place that would change (``players``
    reinstated, ``others`` moved down or uncrowned), or a deal saved while the players
    were out, cannot be put right here (``money.undo`` can)."""
    player = _paid_prize(tournament_id, [*players, *others])
    if player is not None:
        raise Invalid({"player_ids": _(
            "%(name)s has been paid a prize for place %(place)s, which this undo would change: "
            "undo that payment on the money page first", name=player.name,
            place=place_label(player))})
    money = db.session.get(MoneySettings, tournament_id)
    deal = money.deal if money is not None else None
    if deal:
        dealt = {int(pid) for pid in deal.get("player_ids", [])}
        missing = [p.name for p in players if p.id not in dealt]
        if missing:
            raise Invalid({"player_ids": _(
                "A deal was saved while %(names)s was out: undo the deal on the money page first",
                names=", ".join(missing))})
