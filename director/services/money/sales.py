"""The desk's sales and their undo: a buy-in, re-entry, rebuy or add-on, one transaction each.

The registry is the seating's: a buy-in registers (and, once seats are drawn,
seats) the player through ``services.seating.register_player``; a re-entry
registers a new entry for the same person (a new ``Player`` row with the same
name, linked by ``Payment.person``).  A sale records its log line and the money
screens' change on the unit of work (``services.uow``) and commits once: the
entry, its seat and its payment together, or nothing.

Bad input raises ``Invalid`` naming the field and changes nothing; a sale the
settings forbid raises ``Invalid`` with the rules' reason ("Rebuys ended at
level 6").  A form post carries a ``request_key``: the same key twice records
one payment.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, utcnow
from director.i18n import translate_violation
from director.models.money import Payment
from director.models.seating import Player, Seat, name_key
from director.models.tournament import MAX_CHIPS
from director.poker.errors import RuleViolation
from director.schemas import whole_in
from director.services import Invalid, get_tournament, retry_on_conflict, uow
from director.services import people as people_service
from director.services import seating as seating_service
from director.services import tournaments as lifecycle_service
from director.services.amounts import bounty_amount, settings_dict
from director.services.money.payments import (
    ENTRY_KINDS,
    KIND_WORDS,
    PAYOUT,
    SALE_KINDS,
    entries_of,
    entries_of_player,
    payment_for_request,
    payment_in,
    payments_of,
    person_of,
    player_in,
    request_key_of,
    sent_for_another,
    twin_came_first,
    unit_of_work,
)
from director.services.money.period import Moment, moment
from director.services.money.places import entry_taken_out
from director.services.money.settings import (
    configured,
    lock_if_closed,
    money_param,
    rules_from,
    settings_row,
)
from director.tournament.button import SeatStatus, seat_status
from director.tournament.entries import EntryKind, EntryRules, PlayerEntries, verify_purchase
from director.tournament.money import BuyIn
from director.tournament.seating import Move, remove_players

T = TypeVar("T")
P = ParamSpec("P")


def parse_int(data: Mapping[str, Any], name: str, label: str, *, low: int, high: int,
              default: int | None = None, required: bool = False) -> int | None:
    """``schemas.whole_in``; a value below zero "cannot be negative"."""
    return whole_in(data, name, label, low=low, high=high, default=default,
                    required=required, negative=True)


def _refuse(action: Callable[[], T], field_name: str = "kind") -> T:
    try:
        return action()
    except RuleViolation as exc:
        raise Invalid({field_name: translate_violation(exc)}) from None


@dataclass
class Sale:
    payment: Payment
    player: Player | None
    seat: Any = None          # the seating ``Move`` of a new entry, or None before the draw
    repeated: bool = False

    def describe(self) -> str:
        name = self.payment.player_name
        text = f"{_(KIND_WORDS.get(self.payment.kind, self.payment.kind)).capitalize()}: {name}"
        if self.seat is not None:
            text += " — " + _("table %(table)s seat %(seat)s", table=self.seat.to_table,
                              seat=self.seat.to_seat)
        return text


def _record(tournament_id: int, player: Player, kind: str, price: BuyIn, chips: int, level: int,
            key: str | None, note: str = "") -> Payment:
    payment = Payment(tournament_id=tournament_id, player_id=player.id, player_name=player.name,
                      person=person_of(player.name), kind=kind, prize=price.prize, fee=price.fee,
                      chips=chips, level=level, request_key=key, note=note)
    db.session.add(payment)
    return payment


def sell(tournament_id: int, kind: Any, *, name: Any = None, player_id: Any = None,
         stack: Any = None, request_key: Any = None, person_id: Any = None,
         chosen: seating_service.ChosenSeat | None = None,
         entry_chips: int | None = None, commit: bool = True) -> Sale:
    """Take a buy-in (``name``, or the player list's ``person_id``), a re-entry, rebuy or
    add-on (``player_id``) at the desk.

    ``chosen``: a new entry's seat picked by the director (``services.waiting_list``);
    ``entry_chips``: a new entry's stack, if not the event's (``register_entry``).

    One transaction: the entry, its seat and its payment are committed together, with
    the log line and the screens' change recorded before (``services.uow``).
    ``commit`` false: flushed only, part of the caller's unit of work (which commits,
    and retries a lost race: ``StaleDataError`` is not turned into a refusal here)."""
    if kind not in SALE_KINDS:
        raise Invalid({"kind": _("What is sold is one of: %(kinds)s", kinds=", ".join(SALE_KINDS))})
    if commit and kind in ENTRY_KINDS:
        _begin_entry()
    return _sell(tournament_id, kind, name=name, player_id=player_id, stack=stack,
                 request_key=request_key, person_id=person_id, chosen=chosen,
                 entry_chips=entry_chips, commit=commit)


def _begin_entry() -> None:
    """A new entry's sale is a transaction of its own, begun before its first read: its
    reads and its writes (the entry, its seat, its payment) are then one transaction
    (on SQLite, a transaction that read before another process wrote cannot write), and
    the rows it reads (the tournament, the money and seating settings) are read once.
    A caller's writes already in the transaction are never thrown away here."""
    if not _written():
        db.session.rollback()


def _sell(tournament_id: int, kind: str, *, name: Any, player_id: Any, stack: Any,
          request_key: Any, person_id: Any, chosen: seating_service.ChosenSeat | None,
          entry_chips: int | None, commit: bool) -> Sale:
    """:func:`sell`, its transaction begun."""
    key = request_key_of(request_key)
    earlier = repeated_payment(tournament_id, key, kind, name=name, player_id=player_id,
                               person_id=person_id)
    if earlier is not None:
        return repeated_sale(tournament_id, earlier)
    lifecycle_service.verify_open(tournament_id)     # a finished event takes no more money
    if kind in ENTRY_KINDS:
        name = people_service.entry_name(person_id if kind == "buy-in" else None, name)
        sale = _new_entry(tournament_id, kind, name, player_id, key, person_id, chosen,
                          entry_chips)
    else:
        sale = _add_chips(tournament_id, kind, player_id, stack, key)
    paid = sale.payment
    if paid.bounty:                   # "€60.00 + €50.00 bounty": the whole price paid
        uow.log(f"{paid.kind} with bounty", tournament_id, name=paid.player_name,
                chips=paid.chips, amount=money_param(tournament_id, paid.prize + paid.fee),
                bounty=money_param(tournament_id, paid.bounty))
    else:
        uow.log(paid.kind, tournament_id, name=paid.player_name, chips=paid.chips,
                amount=money_param(tournament_id, paid.prize + paid.fee))
    uow.screens(tournament_id, "money")
    if not commit:
        db.session.flush()
        return sale
    try:
        uow.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()  # the entry's seat goes with it: no entry without its payment
        raise
    return sale


def repeated_payment(tournament_id: int, key: str | None, kind: str, *, name: Any = None,
                     player_id: Any = None, person_id: Any = None) -> Payment | None:
    """The payment ``key`` recorded, when this request is that sale sent again (a double
    click, a retry; None: the key is new).  A key names one sale: sent with another
    (a page's form kept from before and filled in again, a client reusing its key) it
    is refused, naming ``request_key``; answered as the first sale, the other would be
    lost unseen."""
    earlier = payment_for_request(tournament_id, key)
    if earlier is not None:
        _verify_same_sale(tournament_id, earlier, kind, name=name, player_id=player_id,
                          person_id=person_id)
    return earlier


def _verify_same_sale(tournament_id: int, earlier: Payment, kind: str, *, name: Any,
                      player_id: Any, person_id: Any) -> None:
    try:
        if kind != earlier.kind:
            same = False
        elif kind == "buy-in":
            same = people_service.same_name(people_service.entry_name(person_id, name),
                                            earlier.player_name)
        elif kind == "re-entry":        # a new entry of the busted player's name
            same = people_service.same_name(player_in(tournament_id, player_id).name,
                                            earlier.player_name)
        else:                           # chips for the player who bought them
            same = player_in(tournament_id, player_id).id == earlier.player_id
    except Invalid:
        same = False
    if not same:
        raise sent_for_another(earlier)


def repeated_sale(tournament_id: int, payment: Payment) -> Sale:
    """The answer to a sale sent again with its request key: the payment recorded the
    first time, and for an entry the seat its player holds (the one the first answer
    gave, unless the floor has moved him since)."""
    player = db.session.get(Player, payment.player_id) if payment.player_id else None
    seat = None
    if player is not None and payment.kind in ENTRY_KINDS:
        seat = _seat_held(tournament_id, player)
    return Sale(payment, player, seat, repeated=True)


def _seat_held(tournament_id: int, player: Player) -> Move | None:
    """Where ``player`` sits, as the ``Move`` that seated him (None: not seated)."""
    for table in seating_service.load_layout(tournament_id).tables:
        for number, seated in table.seats.items():
            if seated.player_id != player.id:
                continue
            others = [seat for seat in table.seats if seat != number]
            try:
                status = SeatStatus.WAITS if seated.waiting else seat_status(
                    number, table.last_hand, others, table.size,
                    game_is_stud=table.game_is_stud)
            except RuleViolation:
                status = SeatStatus.DEALT_IN
            return Move(player.id, player.name, None, None, table.number, number,
                        status.value, status)
    return None


def _new_entry(tournament_id: int, kind: str, name: Any, player_id: Any, key: str | None,
               person_id: Any = None,
               chosen: seating_service.ChosenSeat | None = None,
               chips: int | None = None) -> Sale:
    """A buy-in or a re-entry: check the rules, register (and seat) the entry, record it
    (no commit).  ``chips``: the entry's stack, if not the event's starting stack."""

    row = configured(tournament_id)
    tournament = get_tournament(tournament_id)
    rules = rules_from(settings_dict(row))
    stack = rules.starting_stack if chips is None else chips
    now = utcnow()
    at = moment(tournament, now)
    existing: Player | None = None
    if kind == "buy-in":
        clean = seating_service.check_player_name(name)
        person = person_of(clean)
        bought = entries_of(tournament_id, person)
        _refuse(lambda: verify_purchase(rules, EntryKind.BUY_IN, bought, level=at.level,
                                        on_break=at.on_break), "name")
        # A player put on the list at the seating page without paying: take his buy-in.
        existing = db.session.scalars(select(Player).where(
            Player.tournament_id == tournament_id, Player.status == "active",
            Player.name_key == name_key(clean))).first()
    else:
        busted = player_in(tournament_id, player_id)
        clean = busted.name
        bought = entries_of(tournament_id, person_of(clean))
        _refuse(lambda: verify_purchase(rules, EntryKind.RE_ENTRY, bought, level=at.level,
                                        on_break=at.on_break, busted=not busted.active))
        if db.session.scalar(select(func.count(Player.id)).where(
                Player.tournament_id == tournament_id, Player.status == "active",
                Player.name_key == name_key(clean))):
            raise Invalid({"player_id": _("%(name)s already has an entry still in play", name=clean)})
    seat = None
    if existing is not None:
        player = existing
        if player.entry_chips != stack:
            player.entry_chips = player.chips = stack
    else:
        # No active player has the name (checked above, in this transaction).
        player, seat = seating_service.register_player(tournament_id, clean, stack,
                                                       chosen=chosen, commit=False,
                                                       name_checked=True)
    people_service.link(player, person_id if kind == "buy-in" else None)  # the player list
    payment = _record(tournament_id, player, kind, rules.buy_in, stack, at.level, key)
    bounty = bounty_amount(settings_dict(row))     # taken with the entry, never in the pool
    if bounty:
        payment.bounty = player.bounty = bounty
    lock_if_closed(tournament, configured(tournament_id), now)
    return Sale(payment, player, seat)


def _written() -> bool:
    """Whether the open transaction holds a write (flushed or pending)."""
    session = db.session()
    return bool(session.info.get(uow.WROTE) or session.new or session.dirty or session.deleted)


def _add_chips(tournament_id: int, kind: str, player_id: Any, stack: Any,
               key: str | None) -> Sale:
    row = configured(tournament_id)
    tournament = get_tournament(tournament_id)
    rules = rules_from(settings_dict(row))
    now = utcnow()
    at = moment(tournament, now)
    player = player_in(tournament_id, player_id)
    bought = entries_of_player(tournament_id, player)
    entry_kind = EntryKind.REBUY if kind == "rebuy" else EntryKind.ADD_ON
    chips_now = None
    if kind == "rebuy":
        chips_now = parse_int({"stack": stack}, "stack", _("The player's stack"), low=0,
                              high=MAX_CHIPS, default=player.chips)
        if not player.active:
            raise Invalid({"player_id": _("%(name)s is out: a busted player re-enters instead of "
                                          "rebuying", name=player.name)})
    sale = _refuse(lambda: _purchase(rules, entry_kind, bought, at, chips_now, not player.active))
    before = player.chips
    player.chips = (chips_now if chips_now is not None else player.chips) + sale[1]
    payment = _record(tournament_id, player, kind, sale[0], sale[1], at.level, key)
    payment.stack_before, payment.stack_after = before, player.chips
    lock_if_closed(tournament, row, now)
    row.updated_at = now
    return Sale(payment, player)


def _purchase(rules: EntryRules, kind: EntryKind, bought: PlayerEntries, at: Moment,
              stack: int | None, busted: bool) -> tuple[BuyIn, int]:
    verify_purchase(rules, kind, bought, level=at.level, on_break=at.on_break, stack=stack,
                    busted=busted)
    return rules.price_of(kind), rules.chips_for(kind)


CONFLICT_RETRIES = 8


def again_on_conflict(service: Callable[P, T]) -> Callable[P, T]:
    """Run a sale again, on fresh rows, when it lost a race to another writer
    (``StaleDataError``: the seating or the money changed between its reads and its
    write; ``IntegrityError``: e.g. the same request key committed by a retry running
    alongside, which the next try finds and answers).  The race is the server's, not
    the desk's: two desks selling seats at the same moment both get one.  A sale is
    one commit, so a lost one wrote nothing; the last loss is the caller's conflict.

    A copy of the sale (a double click, a retry: its ``request_key``) that read before
    its twin committed and is then refused by what the twin did ("this player has
    40,000 chips" for a second rebuy) is run once more: its key now names the twin's
    sale, so it is answered as that one (or, for another sale, refused naming the key).
    Only for a sale that is its own transaction (``commit`` true)."""

    @functools.wraps(service)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        own = kwargs.get("commit", True) and not _written()
        tournament_id = args[0] if args else kwargs.get("tournament_id")
        return retry_on_conflict(
            lambda: service(*args, **kwargs), lost=(StaleDataError, IntegrityError),
            retries=CONFLICT_RETRIES,
            twin=(lambda: twin_came_first(tournament_id, kwargs.get("request_key")))
            if own else None)

    return run


sell_entry = unit_of_work(again_on_conflict(sell))


def _delete_entry(player_id: int) -> None:
    """Take an entry out of the registry: its seat and its player row (no longer one of
    the entries of the busts that came after it)."""
    entry = db.session.get(Player, player_id)
    if entry is not None:
        entry_taken_out(entry)
    db.session.execute(Seat.__table__.delete().where(Seat.player_id == player_id))
    db.session.execute(Player.__table__.delete().where(Player.id == player_id))


@unit_of_work
def undo(tournament_id: int, payment_id: Any, *, commit: bool = True) -> Payment:
    """Take a payment back (the ledger keeps the line, marked undone).

    A buy-in or re-entry undone takes the entry out of the registry (its seat
    is freed) — only while the entry is still in and has no rebuy or add-on
    left; a rebuy or add-on undone takes its chips back from the stack; a
    prize or deal payment undone is owed again (undoing one deal payment
    undoes the whole deal).  One transaction; ``commit`` false: flushed only, part
    of the caller's unit of work (a no-show refunded for his alternate).
    """

    tournament = get_tournament(tournament_id)
    payment = payment_in(tournament_id, payment_id)
    if not (payment.kind == PAYOUT and not payment.note.startswith("Deal")):
        lifecycle_service.verify_open(tournament_id)  # a prize paid by mistake may still be undone
    if payment.undone:
        raise Invalid({"payment_id": _("This %(kind)s was already undone", kind=_(KIND_WORDS.get(payment.kind, payment.kind)))})
    now = utcnow()
    player = db.session.get(Player, payment.player_id) if payment.player_id else None
    row = settings_row(tournament_id)
    if row is not None:      # a table locked at the close stays locked whatever is undone
        lock_if_closed(tournament, row, now)
    if payment.kind in ENTRY_KINDS:
        if player is not None:
            if not player.active:
                raise Invalid({"payment_id": _("%(name)s is already out (place %(place)s): the "
                                               "%(kind)s can no longer be undone",
                                               name=player.name, place=player.place_label,
                                               kind=_(KIND_WORDS.get(payment.kind, payment.kind)))})
            later = db.session.scalar(select(func.count(Payment.id)).where(
                Payment.player_id == player.id, Payment.id != payment.id,
                Payment.undone_at.is_(None)))
            if later:
                raise Invalid({"payment_id": _("Undo %(name)s's rebuys, add-on and prizes first",
                                               name=player.name)})
            layout = seating_service.load_layout(tournament_id)
            if any(p.player_id == player.id for t in layout.tables for p in t.seats.values()):
                layout = _refuse(lambda: remove_players(layout, [player.id]), "payment_id")
                policy = seating_service.policy_for(tournament_id)
                seating_service.store_layout(tournament_id, layout)
                # The seating's next step (a balance, a break) is planned again, as after a bust.
                seating_service.replan(tournament_id, layout, policy)
            payment.player_id = None
            db.session.flush()
            _delete_entry(player.id)
    elif payment.kind in ("rebuy", "add-on"):
        if player is not None:
            player.chips = max(0, player.chips - _chips_added(payment))
    elif payment.note.startswith("Deal") and row is not None and row.deal:
        for other in payments_of(tournament_id):
            if other.kind == PAYOUT and other.note.startswith("Deal") and not other.undone:
                other.undone_at = now
        for player_id in row.deal.get("places") or {}:   # the deal's places go with it
            dealt = db.session.get(Player, int(player_id))
            if dealt is not None and dealt.active:
                dealt.place = dealt.place_last = None
        row.deal = None
    payment.undone_at = now
    if row is not None:
        row.updated_at = now
    uow.log("payment undone", tournament_id, name=payment.player_name,
            what={"msgid": KIND_WORDS.get(payment.kind, payment.kind)},
            amount=money_param(tournament_id, payment.prize + payment.fee))
    uow.screens(tournament_id, "money")
    if commit:
        uow.commit()
    else:
        db.session.flush()
    return payment


def _chips_added(payment: Payment) -> int:
    """What a rebuy or add-on changed on the stack, which its undo takes back.

    The rebuy form also takes the stack counted at the table, so a rebuy may
    change the stack by more than its chips: Ann has 3,500 recorded, the desk
    counts 1,000 and sells 25,000 chips: 26,000, a change of 22,500.  Undone
    at once, her stack is 3,500 again; after more hands, it keeps their result.
    (A line recorded before the stacks were kept: its chips.)
    """
    if payment.stack_before is None or payment.stack_after is None:
        return payment.chips
    return payment.stack_after - payment.stack_before


@unit_of_work
@again_on_conflict
def register_entry(tournament_id: int, name: Any, chips: Any = None,
                   request_key: Any = None) -> Sale:
    """A player added from anywhere (the desk, the seating page, the API) is a buy-in.

    The same entry as the desk's :func:`sell`: the entry rules, the event's buy-in
    recorded, the event's starting stack, and a random open seat once seats are
    drawn (TDA 8-A), so nobody is on the list without a buy-in.  ``chips`` (a
    script's or a test's other stack) is still recorded on that buy-in line.
    Refused, naming the field, before the money settings are saved.
    """
    _begin_entry()
    get_tournament(tournament_id)
    stack = parse_int({"chips": chips}, "chips", _("Chips"), low=1, high=MAX_CHIPS)
    # One commit and one change for the screens, with the stack given (it was
    # committed and told a second time after the event's stack).
    return _sell(tournament_id, "buy-in", name=name, player_id=None, stack=None,
                 request_key=request_key, person_id=None, chosen=None, entry_chips=stack,
                 commit=True)
