"""The screens' banners: what the room must know at a glance, computed from the DB.

``state(tournament, clock, now)`` adds to the clock JSON (``services.clock.clock_json``):

- ``banners``: a list of ``{"kind": ..., ...}``, most important first, that the
  projector and the phone clock show as coloured strips.  The kinds:

  ``finished``       the event is over (the page shows its winner screen);
  ``hand_for_hand``  hand-for-hand is announced or on (TDA RP-8);
  ``bubble``         one player more than the places paid is left;
  ``in_the_money``   every player left is paid (``players_left <= places_paid``);
  ``seat_bubble``    a satellite paying cash to the place after its seats: one
                     player more than seats is left (``{"seats"}``);
  ``final_table``    the field that needed more than one table plays at one;
  ``colour_up``      a break whose note is a colour-up or chip race (TDA 24-25),
                     with the note (``{"kind": "colour_up", "note": "..."}``).

  The words are the screen's: the clock JSON goes to every screen in one
  event, whatever its language, so a banner carries a kind and its figures,
  never a sentence.
- ``places_paid``: how many places the payout table pays (None without money settings).
- ``open``: ``{"late_registration", "re_entry", "rebuy", "add_on"}``, each True
  (open now), False (over) or None (the event has none).
- ``results``: the top ``RESULTS_SHOWN`` places with their names and prizes
  once the event is finished (read from ``services.money.results``), else [].
- ``chip_leaders``: the ``LEADERS_SHOWN`` biggest stacks in play, from the live
  counts (the tablets move every player's chips at the end of each hand):
  ``[{"name", "chips", "table", "seat"}]``; [] before anybody has chips and once
  the event is finished (issue 17).
- ``announcement``: what the director typed for the ticker (issue 17), or None.
- ``bounty``: ``{"kind": "fixed"|"pko", "amount", "in_play"}`` (major units: the
  bounty per entry, and the bounties on the heads of the players still in), or
  None for an event without bounties (issue 17).
- ``satellite``: ``{"seats", "seat_value", "remainder", "remainder_place",
  "winners": [names]}`` for a satellite, else None; its ``places_paid`` are the
  seats, so the bubble is the last seat.  ``winners`` lists the seat winners
  once the seats are decided (no more players left than seats, or the end).

Read-only: nothing here writes or commits.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from director.db import db
from director.models import Tournament
from director.models.money import MoneySettings
from director.models.seating import Player, Seat, SeatingSettings, SeatingTable
from director.services import bounties as bounty_service
from director.services import money as money_service
from director.tournament.entries import EntryRules
from director.tournament.lifecycle import Status
from director.tournament.seating import MOST_SEATS, HandForHand

RESULTS_SHOWN = 10
LEADERS_SHOWN = 5

# A break note that announces a colour-up or a chip race, in the three languages
# (the director types the note: "Colour-up: remove T25", "Färga upp T25", "Tukar warna T25").
COLOUR_UP = re.compile(r"colou?r|chip[ -]?race|race off|färg|warna|T\d+", re.IGNORECASE)
# ... unless it says there is none ("No colour-up", the templates' other breaks).
NO_COLOUR_UP = re.compile(r"^\s*(no|ingen|tidak ada|tanpa)\b", re.IGNORECASE)


def state(tournament: Tournament, clock: dict[str, Any], now: datetime) -> dict[str, Any]:
    """The banners and the facts behind them, for ``clock`` (the clock JSON built so far)."""
    status = str(clock.get("status") or "")
    left = clock.get("players_left") or 0
    settings = db.session.get(MoneySettings, tournament.id)
    places = places_paid(settings, clock)
    satellite = satellite_state(tournament.id, settings, left, status)
    if satellite is not None:           # the seats and the cash place after them
        places = satellite["seats"] + (1 if satellite["remainder_place"] else 0)
    banners: list[dict[str, Any]] = []
    if status == Status.FINISHED.value:
        banners.append({"kind": "finished"})
    elif status != Status.CANCELLED.value:
        if hand_for_hand(tournament.id):
            banners.append({"kind": "hand_for_hand"})
        if places and left > 1:
            if left == places + 1:
                banners.append({"kind": "bubble", "places_paid": places})
            elif left <= places:
                banners.append({"kind": "in_the_money", "places_paid": places})
        if satellite is not None and satellite["seats"] and left == satellite["seats"] + 1 \
                and places > satellite["seats"]:
            banners.append({"kind": "seat_bubble", "seats": satellite["seats"]})
        if left > 1 and final_table(tournament.id, left):
            banners.append({"kind": "final_table"})
        note = colour_up(clock.get("level"))
        if note is not None:
            banners.append({"kind": "colour_up", "note": note})
    return {
        "banners": banners,
        "places_paid": places,
        "open": entries_open(tournament, settings, now),
        "results": results(tournament.id) if status == Status.FINISHED.value else [],
        "chip_leaders": [] if status == Status.FINISHED.value else chip_leaders(tournament.id),
        "announcement": tournament.announcement or None,
        "bounty": bounty_state(tournament.id, settings),
        "satellite": satellite,
    }


def bounty_state(tournament_id: int, settings: MoneySettings | None) -> dict[str, Any] | None:
    """The event's bounty and the bounties on the heads still in play (major units)."""
    if settings is None:
        return None
    event = bounty_service.setting(tournament_id)
    if not event.on:
        return None
    in_play = sum(bounty_service.heads(tournament_id).values())
    return {"kind": event.kind.value,
            "amount": money_service.major_number(event.amount, event.currency),
            "in_play": money_service.major_number(in_play, event.currency)}


def satellite_state(tournament_id: int, settings: MoneySettings | None, players_left: int,
                    status: str) -> dict[str, Any] | None:
    """A satellite's seats, remainder and (once decided) seat winners, else None."""
    if settings is None or not money_service.settings_dict(settings).get("satellite_seat"):
        return None
    view = money_service.money(tournament_id)
    payout = view.satellite
    if payout is None:
        return None
    winners: list[str] = []
    decided = status == Status.FINISHED.value or (payout.seats and players_left <= payout.seats)
    if decided:
        # Still in at the top, then places 1, 2 ...: the seats are among the first lines.
        dealt = len((view.deal or {}).get("player_ids", ()))
        _view, rows = money_service.results(tournament_id,
                                            limit=players_left + payout.seats + dealt)
        winners = [row.name for row in sorted(rows, key=lambda r: (r.place is not None,
                                                                    r.place or 0))
                   if row.seat or (row.place is None and row.active)]
    return {"seats": payout.seats,
            "seat_value": money_service.major_number(payout.seat_value, view.currency),
            "remainder": money_service.major_number(payout.remainder, view.currency),
            "remainder_place": payout.remainder_place
            if payout.remainder and payout.remainder_place > payout.seats else None,
            "winners": winners}


def places_paid(settings: MoneySettings | None, clock: dict[str, Any]) -> int | None:
    """The number of places the payout table pays, as the clock's money view counted
    them (``money.clock_stats``; 0 when the settings no longer validate)."""
    if settings is None:
        return None
    return int(clock.get("places_paid") or 0)


def hand_for_hand(tournament_id: int) -> bool:
    row = db.session.get(SeatingSettings, tournament_id)
    if row is None:
        return False
    h4h = HandForHand.from_json(row.hand_for_hand or {})
    return h4h.on or h4h.announced


def final_table(tournament_id: int, players_left: int) -> bool:
    """One table is left, and the field once needed more than one (a one-table event
    is not announced as a final table)."""
    if players_left > MOST_SEATS:       # more than any one table seats
        return False
    tables = db.session.scalars(select(SeatingTable.size).where(
        SeatingTable.tournament_id == tournament_id).limit(2)).all()
    if len(tables) != 1:
        return False
    everyone = db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament_id)) or 0
    return int(everyone) > tables[0] and players_left <= tables[0]


def colour_up(level: dict[str, Any] | None) -> str | None:
    """The break's note when it is a colour-up or chip race (TDA 24-25), else None."""
    if not level or not level.get("is_break"):
        return None
    note = str(level.get("note") or "").strip()
    return note if note and COLOUR_UP.search(note) and not NO_COLOUR_UP.search(note) else None


def chip_leaders(tournament_id: int, count: int = LEADERS_SHOWN) -> list[dict[str, Any]]:
    """The biggest stacks in play, biggest first (ties by name), with their table and seat."""
    rows = db.session.execute(
        select(Player.name, Player.chips, SeatingTable.number, Seat.seat)
        .outerjoin(Seat, Seat.player_id == Player.id)
        .outerjoin(SeatingTable, SeatingTable.id == Seat.table_id)
        .where(Player.tournament_id == tournament_id, Player.status == "active",
               Player.chips > 0)
        .order_by(Player.chips.desc(), Player.name, Player.id).limit(count)).all()
    return [{"name": name, "chips": int(chips), "table": table, "seat": seat}
            for name, chips, table, seat in rows]


def entries_open(tournament: Tournament, settings: MoneySettings | None,
                 now: datetime) -> dict[str, bool | None]:
    """Whether late registration, re-entry, rebuys and the add-on are open now
    (the desk's own rules, ``tournament.entries``): True, False (over) or None (none)."""
    closed: dict[str, bool | None] = {"late_registration": None, "re_entry": None,
                                      "rebuy": None, "add_on": None}
    if settings is None:
        return closed
    try:
        rules: EntryRules = money_service.rules_from(money_service.settings_dict(settings))
    except Exception:  # noqa: BLE001  (settings an older version saved: show nothing)
        return closed
    at = money_service.moment(tournament, now)
    late = money_service.late_registration(tournament, rules, now)
    closed["late_registration"] = late.open
    if rules.re_entry is not None:
        closed["re_entry"] = at.level <= rules.re_entry_until and not (
            rules.re_entry_until == 0 and at.started)
    if rules.rebuy is not None:
        closed["rebuy"] = at.started and at.level <= rules.rebuy.until_level
    if rules.add_on is not None:
        closed["add_on"] = at.on_break and at.level == rules.add_on.at_break
    return closed


def results(tournament_id: int) -> list[dict[str, Any]]:
    """The best ``RESULTS_SHOWN`` places of a finished event: place, name, prize (major unit)."""
    view, rows = money_service.results(tournament_id, placed=True, limit=RESULTS_SHOWN)
    shown = []
    for row in rows:
        if row.place is None:
            continue
        shown.append({"place": row.place_label, "name": row.name,
                      "prize": money_service.major_number(row.prize, view.currency)
                      if row.prize else None})
        if len(shown) == RESULTS_SHOWN:
            break
    return shown
