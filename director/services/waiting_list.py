"""At registration: a seat the director chooses, the waiting list, alternates (issue 17 item 7).

Each writing function is one unit of work (STYLE.md): load, ask the pure rules
(``director.tournament.room``), write, record the log line and the seating
screens' change (their players left and average stack: ``services.uow``),
commit.  Bad input raises ``Invalid`` naming the field and changes nothing; a
``request_key`` sent again applies nothing twice (the same entry, or the same
payment, comes back).

* :func:`desk_buy_in`: the desk's buy-in.  In a full room it does not fail: the
  player goes on the waiting list, **unpaid**; his buy-in is taken, through the
  desk's usual sale (entry rules, late registration, starting stack), when a
  seat opens and the director seats him (:func:`seat_next`).  Nobody pays for a
  seat he may never get, and the ledger holds only entries that played.  With a
  ``table`` and ``seat`` the director places the player by hand
  (``room.choose_seat``: the event's setting, a reason, a seat that exists and
  is free).
* :func:`seat_next`: one click seats the next player on the list once a seat is
  open (a bust, a table added): his buy-in, a random open seat (TDA 8-A).
* :func:`no_show`: alternates.  A registered player who does not show up gives
  his seat to the next player on the list: his buy-in is refunded (the ledger
  line undone, his entry gone) or kept (the money stays in the prize pool, his
  entry is void), as the director chooses; then the alternate buys in and is
  seated from the open seats as any late registrant (RULES.md §9.3), in a full
  room the no-show's.  The alternate's buy-in is checked before the no-show is
  touched, so the deadline is the event's late registration.
* :func:`add`, :func:`remove`, :func:`move`: the list by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import case, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, utcnow
from director.i18n import N_, translate_violation
from director.models.money import MoneySettings, Payment
from director.models.seating import Player, Seat, SeatingLogEntry, SeatingTable, name_key
from director.models.waiting_list import WaitingEntry
from director.poker.errors import RuleViolation
from director.services import (
    Invalid,
    all_or_nothing,
    get_tournament,
    retry_on_conflict,
    tournaments,
    uow,
)
from director.services import money as money_service
from director.services import people as people_service
from director.services import seating as seating_service
from director.tournament.entries import EntryKind, verify_purchase
from director.tournament.room import REASON_MAX, Room, room_counted, room_of
from director.tournament.seating import Layout, SeatingPolicy, remove_players

CONFLICT = {"waiting_list": N_("Someone else changed the waiting list at the same moment: "
                               "reload the page and try again")}
unit_of_work = all_or_nothing(CONFLICT, event=True)

LOST = (StaleDataError, IntegrityError)   # a race lost to another writer: the unit again

WHOLE = re.compile(r"[0-9]{1,9}")
REFUND_CHOICES = ("refund", "keep")
BUY_IN_WORDS = {"refund": N_("buy-in refunded"), "keep": N_("buy-in kept, not refunded")}


# ---------------------------------------------------------------- reading

def room(tournament_id: int, layout: Layout | None = None) -> Room:
    """The room now: its tables and seats from the seating settings (``room.room_of``);
    ``layout``: the seating already loaded by the caller.  Without it the database counts
    the tables, the seated and the open seats (``room.room_counted``): the waiting list's
    API read every seat of the room, and every active player, for three numbers."""
    policy = seating_service.policy_for(tournament_id)
    if layout is not None:
        return room_of(layout, policy, registered=_registered(tournament_id))
    tables, seats = db.session.execute(select(
        func.count(SeatingTable.id), func.coalesce(func.sum(SeatingTable.size), 0)).where(
        SeatingTable.tournament_id == tournament_id)).one()
    seated, taken = db.session.execute(select(
        func.count(Seat.id),
        func.coalesce(func.sum(case((Seat.seat.between(1, SeatingTable.size), 1), else_=0)), 0))
        .join(SeatingTable, SeatingTable.id == Seat.table_id)
        .where(Seat.tournament_id == tournament_id)).one() if tables else (0, 0)
    return room_counted(policy, tables=int(tables), seated=int(seated),
                        open_seats=int(seats) - int(taken),
                        registered=0 if tables else _registered(tournament_id))


def _registered(tournament_id: int) -> int:
    """The players registered and still in (the room before the draw)."""
    return int(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament_id, Player.status == "active")) or 0)


def waiting(tournament_id: int) -> list[WaitingEntry]:
    """The players waiting, next first."""
    return list(db.session.scalars(select(WaitingEntry).where(
        WaitingEntry.tournament_id == tournament_id, WaitingEntry.status == "waiting")
        .order_by(WaitingEntry.position, WaitingEntry.id)))


@dataclass
class NoShow:
    """A registered player who may be declared a no-show: his entry, nothing bought since."""

    player: Player
    table: int | None
    seat: int | None


@dataclass
class WaitingView:
    """What the desk and the seating page show of the room and the list."""

    tournament_id: int
    room: Room
    policy: SeatingPolicy
    drawn: bool
    entries: list[WaitingEntry]
    money_ready: bool
    no_shows: list[NoShow] = field(default_factory=list)

    @property
    def next(self) -> WaitingEntry | None:
        return self.entries[0] if self.entries else None

    @property
    def seat_open(self) -> bool:
        """A seat is open for the next player on the list."""
        return self.next is not None and not self.room.full


def view(tournament_id: int, *, no_shows: bool = True) -> WaitingView:
    """The room and the list; the players who may be declared no-shows only while
    someone waits (they are offered only then) and ``no_shows`` asks for them."""
    get_tournament(tournament_id)
    layout = seating_service.load_layout(tournament_id)
    entries = waiting(tournament_id)
    found: list[NoShow] = []
    if no_shows and entries:
        where = {p.player_id: (t.number, s) for t in layout.tables for s, p in t.seats.items()}
        bought_more = set(db.session.scalars(select(Payment.player_id).where(
            Payment.tournament_id == tournament_id, Payment.undone_at.is_(None),
            Payment.kind.not_in(money_service.ENTRY_KINDS), Payment.player_id.is_not(None))))
        players = db.session.scalars(select(Player).where(
            Player.tournament_id == tournament_id, Player.status == "active")
            .order_by(Player.name, Player.id))
        found = [NoShow(p, *where.get(p.id, (None, None))) for p in players
                 if p.id not in bought_more]
    return WaitingView(tournament_id, room(tournament_id, layout),
                       seating_service.policy_for(tournament_id), bool(layout.tables), entries,
                       db.session.get(MoneySettings, tournament_id) is not None, found)


def entry_json(entry: WaitingEntry) -> dict[str, Any]:
    return {"id": entry.id, "name": entry.name, "position": entry.position,
            "status": entry.status, "paid": False, "player_id": entry.player_id,
            "note": entry.note, "created_at": _iso(entry.created_at),
            "decided_at": _iso(entry.decided_at)}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def room_json(state: Room) -> dict[str, Any]:
    return {"tables": state.tables, "table_size": state.table_size, "seated": state.seated,
            "open_seats": state.open_seats, "capacity": state.capacity, "full": state.full}


def view_json(tournament_id: int) -> dict[str, Any]:
    """The room (counted by the database: no seat is loaded) and the list."""
    get_tournament(tournament_id)
    state = room(tournament_id)
    entries = waiting(tournament_id)
    return {"tournament_id": tournament_id, "room": room_json(state),
            "seat_choice": seating_service.policy_for(tournament_id).seat_choice,
            "seat_open": bool(entries) and not state.full,
            "next": entry_json(entries[0]) if entries else None,
            "waiting": [entry_json(e) for e in entries]}


# ---------------------------------------------------------------- helpers

def _number(value: Any, name: str, label: str, *, required: bool = True) -> int | None:
    if isinstance(value, str):
        value = value.strip()
        if not value:
            value = None
        elif WHOLE.fullmatch(value):
            value = int(value)
    if value is None:
        if required:
            raise Invalid({name: _("%(label)s is required", label=label)})
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**6:
        raise Invalid({name: _("%(label)s must be a whole number from 1", label=label)})
    return value


def chosen_seat(table: Any, seat: Any, reason: Any) -> seating_service.ChosenSeat | None:
    """The seat the director typed (None: both left blank, a random seat)."""
    blank = all(v is None or (isinstance(v, str) and not v.strip()) for v in (table, seat))
    if blank:
        return None
    number = _number(table, "table", _("Table"))
    place = _number(seat, "seat", _("Seat"))
    if reason is not None and not isinstance(reason, str):
        raise Invalid({"reason": _("Give the reason as text")})
    text = " ".join((reason or "").split())
    if len(text) > REASON_MAX:
        raise Invalid({"reason": _("The reason may be at most %(max)s characters long",
                                   max=REASON_MAX)})
    assert number is not None and place is not None
    return seating_service.ChosenSeat(number, place, text)


def _entry(tournament_id: int, entry_id: Any) -> WaitingEntry:
    entry_id = _whole(entry_id)
    if isinstance(entry_id, bool) or not isinstance(entry_id, int):
        raise Invalid({"entry_id": _("Which name on the waiting list? entry_id must be a number")})
    entry = db.session.get(WaitingEntry, entry_id) if 0 < entry_id < 2**63 else None
    if entry is None or entry.tournament_id != tournament_id:
        raise Invalid({"entry_id": _("There is no entry %(id)s on this event's waiting list",
                                     id=entry_id)})
    return entry


def _listed_for(tournament_id: int, key: str | None, name: Any,
                person_id: Any = None) -> WaitingEntry | None:
    """The entry ``key`` put on the list, when this request (for ``name``, or the record
    ``person_id``) is that one sent again; a key sent again for another name is refused
    (``repeated_payment``)."""
    if key is None:
        return None
    entry = db.session.scalars(select(WaitingEntry).where(
        WaitingEntry.tournament_id == tournament_id, WaitingEntry.request_key == key)).first()
    if entry is None:
        return None
    if not people_service.same_name(people_service.entry_name(person_id, name), entry.name):
        raise Invalid({"request_key": _(
            "This form was sent before, for %(name)s on the waiting list: reload the page "
            "to record another", name=entry.name)})
    return entry


def _log(tournament_id: int, line: str) -> None:
    db.session.add(SeatingLogEntry(tournament_id=tournament_id, action="waiting list", text=line))


def _renumber(entries: list[WaitingEntry]) -> None:
    for number, entry in enumerate(entries, start=1):
        entry.position = number




# ---------------------------------------------------------------- the list by hand

@unit_of_work
def add(tournament_id: int, name: Any, request_key: Any = None) -> tuple[WaitingEntry, bool]:
    """Put a player on the waiting list, last; returns the entry and whether it was
    already there for this request key (a retried post: also a copy that lost the race
    to its twin, refused by the entry the twin made)."""
    key = money_service.request_key_of(request_key)
    return retry_on_conflict(
        lambda: _add(tournament_id, name, key), lost=LOST,
        twin=lambda: key is not None and _listed_for(tournament_id, key, name) is not None)


def _add(tournament_id: int, name: Any, key: str | None) -> tuple[WaitingEntry, bool]:
    earlier = _listed_for(tournament_id, key, name)
    if earlier is not None:
        return earlier, True
    tournaments.verify_open(tournament_id)
    clean = seating_service.check_player_name(name)
    listed = waiting(tournament_id)
    for entry in listed:
        if people_service.same_name(clean, entry.name):
            raise Invalid({"name": _("%(name)s is already on the waiting list (number "
                                     "%(position)s)", name=entry.name, position=entry.position)})
    if db.session.scalar(select(func.count(Player.id)).where(
            Player.tournament_id == tournament_id, Player.status == "active",
            Player.name_key == name_key(clean))):
        raise Invalid({"name": _("%(name)s already has an entry still in play", name=clean)})
    entry = WaitingEntry(tournament_id=tournament_id, name=clean, position=len(listed) + 1,
                         status="waiting", note="", request_key=key)
    db.session.add(entry)
    _log(tournament_id, _("%(name)s is on the waiting list, number %(position)s (not paid: the "
                          "buy-in is taken when a seat opens)", name=clean,
                          position=entry.position))
    uow.log("waiting list added", tournament_id, name=clean, position=entry.position)
    uow.screens(tournament_id)
    uow.commit()
    return entry, False


@unit_of_work
def remove(tournament_id: int, entry_id: Any) -> WaitingEntry:
    """Take a player off the list (a retried removal changes nothing more)."""
    entry = _entry(tournament_id, entry_id)
    if entry.status == "removed":
        return entry
    tournaments.verify_open(tournament_id)
    if entry.status == "seated":
        raise Invalid({"entry_id": _("%(name)s was seated from the waiting list: undo the "
                                     "buy-in at the desk instead", name=entry.name)})
    entry.status = "removed"
    entry.decided_at = utcnow()
    _renumber([e for e in waiting(tournament_id) if e.id != entry.id])
    _log(tournament_id, _("%(name)s is taken off the waiting list", name=entry.name))
    uow.log("waiting list removed", tournament_id, name=entry.name)
    uow.screens(tournament_id)
    uow.commit()
    return entry


@unit_of_work
def move(tournament_id: int, entry_id: Any, position: Any) -> WaitingEntry:
    """Put a waiting player at ``position`` (1 = next); the others keep their order."""
    entry = _entry(tournament_id, entry_id)
    tournaments.verify_open(tournament_id)
    if not entry.waiting:
        raise Invalid({"entry_id": _("%(name)s is no longer on the waiting list",
                                     name=entry.name)})
    listed = waiting(tournament_id)
    to = _number(position, "position", _("The place on the list"))
    assert to is not None
    if to > len(listed):
        raise Invalid({"position": _("The waiting list has %(count)s names: the place is 1 to "
                                     "%(count)s", count=len(listed))})
    if entry.position == to:
        return entry
    others = [e for e in listed if e.id != entry.id]
    others.insert(to - 1, entry)
    _renumber(others)
    _log(tournament_id, _("%(name)s is now number %(position)s on the waiting list",
                          name=entry.name, position=to))
    uow.log("waiting list moved", tournament_id, name=entry.name, position=to)
    uow.screens(tournament_id)
    uow.commit()
    return entry


# ---------------------------------------------------------------- the desk

@dataclass
class DeskResult:
    """A buy-in taken (``sale``), or the player put on the waiting list (``entry``)."""

    sale: money_service.Sale | None = None
    entry: WaitingEntry | None = None
    repeated: bool = False


def desk_buy_in(tournament_id: int, name: Any, request_key: Any = None, table: Any = None,
                seat: Any = None, reason: Any = None, person_id: Any = None) -> DeskResult:
    """A new player at the desk: his buy-in and a seat, or the waiting list when the room
    is full (see the module's docstring).  ``table``/``seat``/``reason``: a seat the
    director chooses; ``person_id``: the player list's record picked at the desk."""
    key = money_service.request_key_of(request_key)
    paid = money_service.repeated_payment(tournament_id, key, "buy-in", name=name,
                                          person_id=person_id)
    if paid is not None:
        return DeskResult(sale=money_service.repeated_sale(tournament_id, paid), repeated=True)
    listed = _listed_for(tournament_id, key, name, person_id)
    if listed is not None:
        return DeskResult(entry=listed, repeated=True)
    chosen = chosen_seat(table, seat, reason)
    tournaments.verify_open(tournament_id)
    if room(tournament_id).full:
        if chosen is not None:
            db.session.rollback()
            raise Invalid({"seat": _("The room is full: no seat is open to choose. The player "
                                     "can wait on the waiting list")})
        entry, repeated = add(tournament_id, people_service.entry_name(person_id, name), key)
        return DeskResult(entry=entry, repeated=repeated)
    sale = money_service.sell_entry(tournament_id, "buy-in", name=name, request_key=key,
                                    person_id=person_id, chosen=chosen)
    if chosen is not None and sale.seat is not None and not sale.repeated:  # told with its commit
        uow.log("seat chosen", tournament_id, name=sale.payment.player_name,
                table=sale.seat.to_table, seat=sale.seat.to_seat, reason=chosen.reason or "—")
    return DeskResult(sale=sale, repeated=sale.repeated)   # a copy that found its twin's


def _sell_from_list(tournament_id: int, entry_id: int, key: str | None,
                    note: str) -> tuple[WaitingEntry, money_service.Sale]:
    """The listed player's buy-in (the desk's sale, its rules and random seat), and his
    entry on the list marked seated: part of the caller's unit of work, which records
    its log line and commits."""
    entry = db.session.get(WaitingEntry, entry_id)
    assert entry is not None
    try:
        sale = money_service.sell(tournament_id, "buy-in", name=entry.name, request_key=key,
                                  commit=False)
    except Invalid as exc:      # the request names the entry, not a typed name
        raise Invalid({("entry_id" if k == "name" else k): v
                       for k, v in exc.errors.items()}) from None
    entry = db.session.get(WaitingEntry, entry_id)
    assert entry is not None and sale.player is not None
    entry.status = "seated"
    entry.player_id = sale.player.id
    entry.decided_at = utcnow()
    entry.note = note
    _renumber(waiting(tournament_id))
    where = "" if sale.seat is None else " — " + _("table %(table)s seat %(seat)s",
                                                   table=sale.seat.to_table,
                                                   seat=sale.seat.to_seat)
    _log(tournament_id, _("%(name)s is seated from the waiting list", name=entry.name) + where)
    uow.screens(tournament_id)
    return entry, sale


@unit_of_work
def seat_next(tournament_id: int, entry_id: Any,
              request_key: Any = None) -> tuple[WaitingEntry, money_service.Sale]:
    """A seat is open: the next player on the list buys in and is seated (one click):
    his sale and his entry on the list, one unit of work (again if it lost a race)."""
    key = money_service.request_key_of(request_key)
    return retry_on_conflict(lambda: _seat_next(tournament_id, entry_id, key), lost=LOST,
                             twin=lambda: money_service.twin_came_first(tournament_id, key))


def _seat_next(tournament_id: int, entry_id: Any,
               key: str | None) -> tuple[WaitingEntry, money_service.Sale]:
    entry = _entry(tournament_id, entry_id)
    paid = money_service.repeated_payment(tournament_id, key, "buy-in", name=entry.name)
    if paid is not None:
        return entry, money_service.repeated_sale(tournament_id, paid)
    tournaments.verify_open(tournament_id)
    if not entry.waiting:
        raise Invalid({"entry_id": _("%(name)s is no longer on the waiting list",
                                     name=entry.name)})
    first = waiting(tournament_id)[0]
    if first.id != entry.id:
        raise Invalid({"entry_id": _("%(first)s is ahead of %(name)s on the waiting list: seat "
                                     "%(first)s first, or move %(name)s up",
                                     first=first.name, name=entry.name)})
    if room(tournament_id).full:
        raise Invalid({"entry_id": _("No seat is open: the room is full")})
    entry, sale = _sell_from_list(tournament_id, entry.id, key, "")
    uow.log("seated from the waiting list", tournament_id, name=entry.name,
            details={"table": sale.seat.to_table if sale.seat else None,
                     "seat": sale.seat.to_seat if sale.seat else None})
    uow.commit()
    return entry, sale


# ---------------------------------------------------------------- alternates

@dataclass
class Alternate:
    entry: WaitingEntry
    sale: money_service.Sale
    no_show: str
    refund: str
    repeated: bool = False


@unit_of_work
def no_show(tournament_id: int, player_id: Any, refund: Any,
            request_key: Any = None) -> Alternate:
    """A registered player did not show up: the next player on the list takes his place
    (see the module's docstring); ``refund`` is "refund" or "keep".  One unit of work:
    the no-show's refund or void, the alternate's sale and his entry on the list are
    committed together, or nothing is (again if it lost a race)."""
    key = money_service.request_key_of(request_key)
    # A copy refused by what its twin did is answered as it: ``money.sell`` inside this
    # unit says a lost race as a sentence about the money, not as a lost race.
    return retry_on_conflict(lambda: _no_show(tournament_id, player_id, refund, key),
                             lost=LOST,
                             twin=lambda: money_service.twin_came_first(tournament_id, key))


def _no_show(tournament_id: int, player_id: Any, refund: Any, key: str | None) -> Alternate:
    paid = money_service.payment_for_request(tournament_id, key)
    if paid is not None:
        entry = db.session.scalars(select(WaitingEntry).where(
            WaitingEntry.player_id == paid.player_id)).first() if paid.player_id else None
        if entry is not None:
            _verify_same_no_show(tournament_id, entry, player_id)
            return Alternate(entry, money_service.repeated_sale(tournament_id, paid), "", "",
                             repeated=True)
    tournaments.verify_open(tournament_id)
    if refund not in REFUND_CHOICES:
        raise Invalid({"refund": _("Choose whether the no-show's buy-in is refunded or kept")})
    player, payment = _no_show_entry(tournament_id, player_id)
    listed = waiting(tournament_id)
    if not listed:
        raise Invalid({"entry_id": _("Nobody is on the waiting list to take the seat")})
    alternate = listed[0]
    _verify_buy_in(tournament_id, alternate)
    name = player.name
    if refund == "refund":
        money_service.undo(tournament_id, payment.id, commit=False)
    else:
        _void(tournament_id, player.id, payment.id)
    entry, sale = _sell_from_list(tournament_id, alternate.id, key, f"alternate for {name}")
    uow.log("alternate seated", tournament_id, name=entry.name, no_show=name,
            buy_in={"msgid": BUY_IN_WORDS[refund]})
    uow.commit()
    return Alternate(entry, sale, name, refund)


def _whole(value: Any) -> Any:
    """A form's number as a number; anything else as it came."""
    return int(value) if isinstance(value, str) and WHOLE.fullmatch(value.strip()) else value


def _verify_same_no_show(tournament_id: int, entry: WaitingEntry, player_id: Any) -> None:
    """The key's alternate was seated for this request sent again: his entry says he took
    a no-show's place, and the no-show named has no entry left (his row is deleted; SQLite
    may give its id to the alternate's own row).  A key kept from another sale, or sent
    again for another no-show still in, is refused naming ``request_key``."""
    player_id = _whole(player_id)
    named = db.session.get(Player, player_id) if (
        isinstance(player_id, int) and not isinstance(player_id, bool)
        and 0 < player_id < 2**63) else None
    gone = named is None or named.tournament_id != tournament_id \
        or named.id == entry.player_id
    if not (entry.note.startswith("alternate for ") and gone):
        raise Invalid({"request_key": _(
            "This form was sent before, for %(name)s on the waiting list: reload the page "
            "to record another", name=entry.name)})


def _no_show_entry(tournament_id: int, player_id: Any) -> tuple[Player, Payment]:
    """The no-show's entry and its buy-in: still in, and nothing bought since."""
    player_id = _whole(player_id)
    if isinstance(player_id, bool) or not isinstance(player_id, int):
        raise Invalid({"player_id": _("Choose the player who did not show up")})
    player = db.session.get(Player, player_id) if 0 < player_id < 2**63 else None
    if player is None or player.tournament_id != tournament_id:
        raise Invalid({"player_id": _("There is no player %(player)s in this tournament",
                                      player=player_id)})
    if not player.active:
        raise Invalid({"player_id": _("%(name)s is out of the tournament", name=player.name)})
    payments = list(db.session.scalars(select(Payment).where(
        Payment.player_id == player.id, Payment.undone_at.is_(None))))
    entries = [p for p in payments if p.kind in money_service.ENTRY_KINDS]
    if len(payments) != len(entries) or len(entries) != 1:
        raise Invalid({"player_id": _("%(name)s has bought more than the entry (a rebuy, an "
                                      "add-on): he has played, so he is not a no-show",
                                      name=player.name)})
    return player, entries[0]


def _verify_buy_in(tournament_id: int, entry: WaitingEntry) -> None:
    """The alternate may buy in now (checked before the no-show's seat is freed)."""
    state = money_service.money(tournament_id)
    if state.rules is None:
        raise Invalid({"settings": _("Set the buy-in and the entry rules first (Money settings)")})
    bought = money_service.entries_of(tournament_id, money_service.person_of(entry.name))
    try:
        verify_purchase(state.rules, EntryKind.BUY_IN, bought, level=state.at.level,
                        on_break=state.at.on_break)
    except RuleViolation as exc:
        raise Invalid({"entry_id": translate_violation(exc)}) from None


def _void(tournament_id: int, player_id: int, payment_id: int) -> None:
    """The no-show's entry is void and his buy-in kept: the ledger line stays (the money
    stays in the prize pool), his seat and his entry go.  Part of :func:`no_show`'s unit."""
    settings = seating_service.locked_settings(tournament_id)  # the seating's lock
    player = db.session.get(Player, player_id)
    payment = db.session.get(Payment, payment_id)
    assert player is not None and payment is not None
    layout = seating_service.load_layout(tournament_id)
    if any(p.player_id == player_id for t in layout.tables for p in t.seats.values()):
        seating_service.store_layout(tournament_id, remove_players(layout, [player_id]))
    payment.player_id = None
    payment.note = _("No-show: not refunded")   # the ledger's note, in the director's language
    _log(tournament_id, _("%(name)s did not show up: the entry is void and the buy-in kept",
                          name=player.name))
    db.session.flush()
    db.session.execute(Player.__table__.delete().where(Player.id == player_id))
    settings.updated_at = utcnow()
    db.session.flush()
