"""Entries and money services: settings, the registration desk, the ledger, payouts, deals, results.

Each writing function is one unit of work (STYLE.md): load, ask the pure
rules (``director.tournament.entries``, ``money``, ``payouts``, ``icm``),
write, commit, then publish the clock state (which carries the entries,
chips in play, prize pool, payouts and the late-registration countdown, see
:func:`clock_stats`) so the projector updates at once.

The registry is the seating issue's: a buy-in registers (and, once seats are
drawn, seats) the player through ``director.services.seating.register_player``;
a re-entry registers a new entry for the same person (a new ``Player`` row
with the same name, linked by ``Payment.person``).

The moment of the clock (``level``, ``on_break``) that the entry rules need
comes from the tournament's clock: before the clock starts it is level 0; on
a break it is the level before the break with ``on_break``.

Bad input raises ``Invalid`` naming the field and changes nothing; a sale the
settings forbid raises ``Invalid`` with the rules' reason ("Rebuys ended at
level 6").  A form post carries a ``request_key``: the same key twice records
one payment.
"""

from __future__ import annotations

import bisect
import csv
import functools
import io
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any, ParamSpec, TypeVar

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, utcnow
from director.i18n import N_, number_filter, translate_violation
from director.models.money import MoneySettings, Payment
from director.models.seating import Player, Seat, SeatingTable
from director.models.tournament import MAX_CHIPS, Tournament
from director.poker.errors import RuleViolation
from director.schemas import (
    MONEY_SETTINGS,
    Amount,
    FieldError,
    Labelled,
    Schema,
    Str,
    Whole,
    payout_shares,
    whole_in,
)
from director.schemas import deal_body as schemas_deal_body
from director.services import (
    Invalid,
    all_or_nothing,
    audit,
    get_tournament,
    retry_on_conflict,
    uow,
)
from director.services import bounties as bounty_service
from director.services import people as people_service
from director.services import seating as seating_service
from director.services import tournaments as lifecycle_service
from director.services.amounts import (
    DEFAULTS,
    bounty_amount,
    major,
    major_number,
    minor_units,
    precision,
    settings_dict,
)
from director.tournament import clock as clock_rules
from director.tournament.button import SeatStatus, seat_status
from director.tournament.entries import (
    AddOn,
    EntryKind,
    EntryRules,
    PlayerEntries,
    Rebuy,
    ReEntry,
    verify_purchase,
)
from director.tournament.icm import MAX_ICM_PLAYERS, chip_chop, icm
from director.tournament.lifecycle import Status, ends_with_one_player_left, verify_open
from director.tournament.money import BuyIn, PrizePool, pool_from_payments, take_off_the_top
from director.tournament.payouts import (
    TEMPLATES,
    DealPlacesError,
    PayoutTable,
    deal_places,
    split_tied_places,
)
from director.tournament.satellites import (
    SatellitePayout,
    can_seat_deal,
    satellite_payout,
    verify_seat_deal,
)
from director.tournament.seating import Move, remove_players

T = TypeVar("T")
P = ParamSpec("P")

ENTRY_KINDS = ("buy-in", "re-entry")
SALE_KINDS = ("buy-in", "re-entry", "rebuy", "add-on")
PAYOUT = "payout"
KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The payment kinds as words in a sentence ("This rebuy was already undone").
KIND_WORDS = {"buy-in": N_("buy-in"), "re-entry": N_("re-entry"), "rebuy": N_("rebuy"),
              "add-on": N_("add-on"), "payout": N_("prize payment")}
CONFLICT = {"money": N_("Someone else changed the money at the same moment: reload the page and "
                        "try again")}


# ---------------------------------------------------------------- helpers

unit_of_work = all_or_nothing(CONFLICT, event=True)


def parse_int(data: Mapping[str, Any], name: str, label: str, *, low: int, high: int,
              default: int | None = None, required: bool = False) -> int | None:
    """``schemas.whole_in``; a value below zero "cannot be negative"."""
    return whole_in(data, name, label, low=low, high=high, default=default,
                    required=required, negative=True)


def request_key_of(key: Any) -> str | None:
    """A retried request's key, checked (None: the request has none)."""
    if key is None or key == "":
        return None
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise Invalid({"request_key": _("The request key is letters, digits, - and _ (at most 64)")})
    return key


def payment_for_request(tournament_id: int, key: str | None) -> Payment | None:
    """The payment already recorded for this request key (a retried post)."""
    if key is None:
        return None
    return db.session.scalars(select(Payment).where(
        Payment.tournament_id == tournament_id, Payment.request_key == key)).first()


def person_of(name: str) -> str:
    return " ".join(name.split()).casefold()[:80]


# ---------------------------------------------------------------- settings -> rules

def settings_form(tournament_id: int) -> dict[str, Any] | None:
    """The event's money settings as ``PUT money/settings`` takes them (major units, the
    form's names), for the event's export; None before they are saved."""
    row = _settings_row(tournament_id)
    if row is None or not row.settings:
        return None
    s = settings_dict(row)
    currency = str(s["currency"])

    def money_(name: str, when: bool = True) -> str:
        return major(s[name], currency) if when and s[name] is not None else ""

    def number(name: str) -> Any:
        return s[name] if s[name] not in (None, 0) else ""

    return {
        "currency": currency, "unit": money_("unit"), "buy_in": money_("buy_in_prize"),
        "fee": money_("buy_in_fee"), "starting_stack": s["starting_stack"],
        "late_registration_level": s["late_registration_level"],
        "re_entry": bool(s["re_entry"]), "re_entry_max": number("re_entry_max"),
        "re_entry_until": number("re_entry_until"), "rebuy": bool(s["rebuy"]),
        "rebuy_price": money_("rebuy_prize", s["rebuy"]), "rebuy_fee": money_("rebuy_fee", s["rebuy"]),
        "rebuy_chips": number("rebuy_chips"), "rebuy_until": number("rebuy_until"),
        "rebuy_stack_limit": s["rebuy_stack_limit"] if s["rebuy_stack_limit"] is not None else "",
        "rebuy_max": number("rebuy_max"), "add_on": bool(s["add_on"]),
        "add_on_price": money_("add_on_prize", s["add_on"]),
        "add_on_fee": money_("add_on_fee", s["add_on"]), "add_on_chips": number("add_on_chips"),
        "add_on_break": number("add_on_break"), "guarantee": money_("guarantee"),
        "payout_template": s["payout_template"],
        "custom_payouts": ", ".join(str(int(b) / 100).removesuffix(".0")
                                    for b in (s["custom_shares"] or [])),
        "bounty_kind": s["bounty_kind"], "bounty": money_("bounty", bool(s["bounty"])),
        "satellite_seat": money_("satellite_seat", bool(s["satellite_seat"])),
    }


def rules_from(s: Mapping[str, Any]) -> EntryRules:
    """The pure ``EntryRules`` from the stored settings (raises ``RuleViolation``)."""
    re_entry = ReEntry(max_re_entries=s["re_entry_max"], until_level=s["re_entry_until"]) \
        if s["re_entry"] else None
    rebuy = Rebuy(BuyIn(s["rebuy_prize"], s["rebuy_fee"]), chips=s["rebuy_chips"],
                  until_level=s["rebuy_until"], stack_limit=s["rebuy_stack_limit"],
                  max_rebuys=s["rebuy_max"]) if s["rebuy"] else None
    add_on = AddOn(BuyIn(s["add_on_prize"], s["add_on_fee"]), chips=s["add_on_chips"],
                   at_break=s["add_on_break"]) if s["add_on"] else None
    return EntryRules(buy_in=BuyIn(s["buy_in_prize"], s["buy_in_fee"]),
                      starting_stack=s["starting_stack"],
                      late_registration_level=s["late_registration_level"],
                      re_entry=re_entry, rebuy=rebuy, add_on=add_on)


def _settings_row(tournament_id: int, *, create: bool = False) -> MoneySettings | None:
    row = db.session.get(MoneySettings, tournament_id)
    if row is None and create:
        row = MoneySettings(tournament_id=tournament_id, settings=dict(DEFAULTS))
        db.session.add(row)
        db.session.flush()
    return row


def _configured(tournament_id: int) -> MoneySettings:
    row = _settings_row(tournament_id)
    if row is None:
        raise Invalid({"settings": _("Set the buy-in and the entry rules first (Money settings)")})
    return row


@unit_of_work
def save_settings(tournament_id: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and save the event's money settings; every error names its field.

    ``data`` is the body loaded by ``schemas.MONEY_SETTINGS`` (raw values from a
    script are loaded here the same way): the whole form, each time.  Left
    here: the defaults, the currency's decimals and the entry rules
    (``rules_from``: "The rebuy chips …").
    """
    body = MONEY_SETTINGS.load(data)
    tournament = lifecycle_service.verify_open(tournament_id)
    row = _settings_row(tournament_id, create=True)
    assert row is not None
    old = settings_dict(row)
    currency = str(body["currency"] or old["currency"]).upper()
    errors: dict[str, str] = {}

    def minor(name: str, *, default: int | None = 0, minimum: int = 0) -> int | None:
        amount = body[name]
        if amount is None:
            return default
        spec = MONEY_SETTINGS.fields[name]
        assert isinstance(spec, Labelled)
        try:
            return minor_units(name, amount, spec.label_text(), currency, minimum=minimum)
        except Invalid as exc:
            errors.update(exc.errors)
            return default

    new: dict[str, Any] = {
        "currency": currency,
        "unit": minor("unit", default=10 ** precision(currency), minimum=1),
        "buy_in_prize": minor("buy_in", default=None),
        "buy_in_fee": minor("fee"),
        "starting_stack": body["starting_stack"],
        "late_registration_level": body["late_registration_level"] or 0,
        "re_entry": bool(body["re_entry"]),
        "re_entry_max": body["re_entry_max"],
        "re_entry_until": body["re_entry_until"],
        "rebuy": bool(body["rebuy"]),
        "add_on": bool(body["add_on"]),
        "guarantee": minor("guarantee"),
    }
    if new["rebuy"]:
        new.update(rebuy_prize=minor("rebuy_price", default=None), rebuy_fee=minor("rebuy_fee"),
                   rebuy_chips=body["rebuy_chips"], rebuy_until=body["rebuy_until"],
                   rebuy_stack_limit=body["rebuy_stack_limit"], rebuy_max=body["rebuy_max"])
    if new["add_on"]:
        new.update(add_on_prize=minor("add_on_price", default=None), add_on_fee=minor("add_on_fee"),
                   add_on_chips=body["add_on_chips"], add_on_break=body["add_on_break"])
    new.update(_bounty_settings(tournament_id, body, old, minor, errors))
    template = str(body["payout_template"] or old["payout_template"])
    new["payout_template"] = template
    new["custom_shares"] = None
    if template == "custom":        # sent now, or the stored choice with no table sent
        try:
            new["custom_shares"] = payout_shares(body["custom_payouts"])
        except FieldError as exc:
            errors["custom_payouts"] = str(exc)
    if errors:
        raise Invalid(errors)
    merged = {**old, **new}
    try:
        rules_from(merged)
    except RuleViolation as exc:
        raise Invalid({"settings": translate_violation(exc)}) from None
    now = utcnow()
    row.settings = merged
    # A changed payout choice while registration is closed re-locks the table now.
    if (old["payout_template"], old["custom_shares"]) != (merged["payout_template"],
                                                          merged["custom_shares"]):
        row.locked_shares = None
        row.locked_entries = None
    _lock_if_closed(tournament, row, now)
    row.updated_at = now
    uow.screens(tournament_id, "money")
    uow.commit()
    return merged


def _bounty_settings(tournament_id: int, body: Mapping[str, Any], old: Mapping[str, Any],
                     minor: Callable[..., int | None], errors: dict[str, str]) -> dict[str, Any]:
    """The bounty (kind and amount) and the satellite seat value from the settings body.

    A bounty event needs an amount; the bounty cannot change once entries are
    taken (each entry paid the bounty as it was).  Errors go into ``errors``.
    """
    kind = str(body.get("bounty_kind") or "none")
    amount = minor("bounty", default=0) if kind != "none" else 0
    if kind != "none" and not amount and "bounty" not in errors:
        errors["bounty"] = _("Give the bounty each entry pays, or choose no bounty")
    if (kind, amount) != (old["bounty_kind"], old["bounty"]) and "bounty" not in errors:
        count = _entry_count(tournament_id)
        if count:
            errors["bounty_kind" if kind != old["bounty_kind"] else "bounty"] = _(
                "The bounty cannot change once entries are taken (%(count)s entries paid it as "
                "it is): undo them first", count=count)
    seat = minor("satellite_seat", default=0)
    return {"bounty_kind": kind, "bounty": amount or 0, "satellite_seat": seat or 0}


# ---------------------------------------------------------------- the clock's moment

@dataclass(frozen=True)
class Moment:
    """Where the clock is, in the words of the entry rules."""

    level: int
    on_break: bool
    started: bool
    running: bool = False


def moment(tournament: Tournament, now: datetime) -> Moment:
    """Level 0 before the clock starts; on a break, the level before it with ``on_break``."""
    structure = tournament.structure
    state = clock_rules.advance_due(tournament.clock, structure, now)
    index = min(state.level_index, len(structure.levels) - 1)
    started = state.running or state.started_at is not None or state.elapsed_before > 0 \
        or index > 0
    if not started:
        return Moment(0, False, False)
    played = sum(1 for level in structure.levels[: index + 1] if not level.is_break)
    return Moment(played, structure.levels[index].is_break, True, state.running)


@dataclass(frozen=True)
class LateRegistration:
    level: int
    open: bool
    seconds: float | None        # until it closes (None: unknown — the clock has not started)
    closes_at: datetime | None   # absolute, while the clock runs


def late_registration(tournament: Tournament, rules: EntryRules, now: datetime) -> LateRegistration:
    """Late registration is open through level N and the break after it (``entries.py``)."""
    last = rules.late_registration_level
    at = moment(tournament, now)
    if at.level > last or (last == 0 and at.started):
        return LateRegistration(last, False, None, None)
    structure = tournament.structure
    state = clock_rules.advance_due(tournament.clock, structure, now)
    index = min(state.level_index, len(structure.levels) - 1)
    if last == 0:
        return LateRegistration(last, True, None, None)
    seconds = clock_rules.remaining(state, structure, now)
    played = sum(1 for level in structure.levels[: index + 1] if not level.is_break)
    for later in structure.levels[index + 1:]:
        if not later.is_break:
            played += 1
            if played > last:
                break
        seconds += later.duration_seconds
    closes = now + timedelta(seconds=seconds) if state.running else None
    return LateRegistration(last, True, round(seconds, 3), closes)


def _lock_if_closed(tournament: Tournament, row: MoneySettings, now: datetime) -> None:
    """Once late registration has closed, the payout table is fixed (shares, not amounts)."""
    if row.locked_shares is not None:
        return
    s = settings_dict(row)
    rules = rules_from(s)
    if late_registration(tournament, rules, now).open:
        return
    entries = _entry_count(tournament.id)
    table = _table_for(s, entries)
    if table is not None:
        row.locked_shares = list(table.shares)
        row.locked_entries = entries


# ---------------------------------------------------------------- reading the money

def _payments(tournament_id: int) -> list[Payment]:
    return list(db.session.scalars(select(Payment).where(
        Payment.tournament_id == tournament_id).order_by(Payment.id)))


@dataclass(frozen=True)
class _Totals:
    """One kind of payment's live lines (undone ones left out), summed."""

    count: int = 0
    prize: int = 0
    fee: int = 0
    chips: int = 0
    bounty: int = 0


def _live_totals(tournament_id: int) -> defaultdict[str, _Totals]:
    """Each kind of payment's totals, summed by the database (a kind with no line: zeros)."""
    rows = db.session.execute(select(
        Payment.kind, func.count(Payment.id), func.coalesce(func.sum(Payment.prize), 0),
        func.coalesce(func.sum(Payment.fee), 0), func.coalesce(func.sum(Payment.chips), 0),
        func.coalesce(func.sum(Payment.bounty), 0)).where(
        Payment.tournament_id == tournament_id, Payment.undone_at.is_(None))
        .group_by(Payment.kind))
    totals: defaultdict[str, _Totals] = defaultdict(_Totals)
    for kind, *values in rows:
        totals[kind] = _Totals(*(int(value) for value in values))
    return totals


def _entry_count(tournament_id: int) -> int:
    return int(db.session.scalar(select(func.count(Payment.id)).where(
        Payment.tournament_id == tournament_id, Payment.kind.in_(ENTRY_KINDS),
        Payment.undone_at.is_(None))) or 0)


def _table_for(s: Mapping[str, Any], entries: int) -> PayoutTable | None:
    if s["payout_template"] == "custom" and s["custom_shares"]:
        return PayoutTable(tuple(s["custom_shares"]))
    if entries < 1:
        return None
    try:
        return TEMPLATES[s["payout_template"]].table_for(entries)
    except RuleViolation:
        return None


@dataclass
class Money:
    """The event's money as of now: what the pages, the clock and the results read."""

    tournament: Tournament
    settings: dict[str, Any]
    rules: EntryRules | None
    configured: bool
    pool: PrizePool
    entries: int
    re_entries: int
    rebuys: int
    add_ons: int
    chips_in_play: int
    players_left: int
    table: PayoutTable | None
    amounts: tuple[int, ...]
    locked: bool
    late: LateRegistration | None
    at: Moment
    deal: dict[str, Any] | None
    paid: int
    counts: dict[str, int] = field(default_factory=dict)
    sums: dict[str, tuple[int, int]] = field(default_factory=dict)
    bounties: int = 0                        # the bounties taken with the entries
    satellite: SatellitePayout | None = None  # a satellite's seats (then ``table`` is None)

    @cached_property
    def payments(self) -> list[Payment]:
        """The ledger, every line (undone ones too), read when a page shows it: the
        totals above come from the database's sums, so that the clock, told of every
        change, does not read 1,800 lines each time at a festival."""
        return _payments(self.tournament.id)

    @property
    def currency(self) -> str:
        return str(self.settings["currency"])

    @property
    def bounty_kind(self) -> str:
        return str(self.settings.get("bounty_kind") or "none")

    @property
    def bounty(self) -> int:
        """The bounty each entry pays (0: none)."""
        return bounty_amount(self.settings)

    @property
    def entry_price(self) -> int:
        """What a buy-in costs at the desk: the prize part, the fee and the bounty."""
        return int(self.settings["buy_in_prize"] or 0) + int(self.settings["buy_in_fee"] or 0) \
            + self.bounty

    @property
    def places_paid(self) -> int:
        """A satellite's seats (the bubble is the last seat), else the payout table's places."""
        if self.satellite is not None:
            return self.satellite.places_paid
        return self.table.places if self.table is not None else 0

    @property
    def unit(self) -> int:
        return int(self.settings["unit"])

    def fmt(self, amount: int | None) -> str:
        return major(amount, self.currency)


def money(tournament_id: int, now: datetime | None = None) -> Money:
    tournament = get_tournament(tournament_id)
    now = now or utcnow()
    row = _settings_row(tournament_id)
    s = settings_dict(row)
    rules = rules_from(s) if row is not None else None
    totals = _live_totals(tournament_id)
    counts = {kind: totals[kind].count for kind in SALE_KINDS}
    sums = {kind: (totals[kind].prize, totals[kind].fee) for kind in SALE_KINDS}
    pool = pool_from_payments((BuyIn(*sums[kind]) for kind in SALE_KINDS),
                              guarantee=s["guarantee"])
    entries = counts["buy-in"] + counts["re-entry"]
    entry_chips, left = db.session.execute(
        select(func.coalesce(func.sum(Player.entry_chips), 0),
               func.count(Player.id).filter(Player.status == "active"))
        .where(Player.tournament_id == tournament_id)).one()
    extra_chips = totals["rebuy"].chips + totals["add-on"].chips
    if row is not None and row.locked_shares:
        table: PayoutTable | None = PayoutTable(tuple(row.locked_shares))
        locked = True
    else:
        table = _table_for(s, entries)
        locked = False
    late = late_registration(tournament, rules, now) if rules is not None else None
    if late is not None and not late.open:
        locked = True
    amounts = table.amounts(pool.total, unit=s["unit"]) if table is not None else ()
    satellite = None
    if s.get("satellite_seat"):          # equal seats and the remainder for the next place
        satellite = satellite_payout(prize_pool=pool.total, seat_value=int(s["satellite_seat"]),
                                     entries=entries)
        table, amounts = None, satellite.amounts()
    paid = totals[PAYOUT].prize
    return Money(tournament=tournament, settings=s, rules=rules, configured=row is not None,
                 pool=pool, entries=entries,
                 re_entries=counts["re-entry"], rebuys=counts["rebuy"], add_ons=counts["add-on"],
                 chips_in_play=int(entry_chips) + extra_chips, players_left=int(left or 0),
                 table=table, amounts=amounts, locked=locked, late=late,
                 at=moment(tournament, now), deal=row.deal if row is not None else None,
                 paid=paid, counts=counts, sums=sums,
                 bounties=sum(totals[kind].bounty for kind in ENTRY_KINDS),
                 satellite=satellite)


def _iso(moment_: datetime | None) -> str | None:
    return None if moment_ is None else moment_.isoformat().replace("+00:00", "Z")


TICKER_PLACES = 30


def clock_stats(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The clock JSON's money fields: entries, chips in play, prize pool, payouts, late reg.

    Amounts are in the currency's major unit (the screens format them);
    ``average_stack`` counts rebuy and add-on chips too.
    """
    row = _settings_row(tournament.id)
    if row is None:
        return {"entries": None, "chips_in_play": None, "prize_pool": None, "currency": None,
                "payouts": [], "late_registration": None}
    try:
        view = money(tournament.id, now)
    except RuleViolation:        # settings saved by an older version that no longer validate
        return {"entries": None, "chips_in_play": None, "prize_pool": None, "currency": None,
                "payouts": [], "late_registration": None}
    currency = view.currency
    late = view.late
    stats: dict[str, Any] = {
        "entries": view.entries,
        "chips_in_play": view.chips_in_play,
        "prize_pool": major_number(view.pool.total, currency),
        "currency": currency,
        "payouts": [{"place": place, "amount": major_number(amount, currency)}
                    for place, amount in enumerate(view.amounts[:TICKER_PLACES], start=1)],
        "late_registration": None if late is None else {
            "level": late.level, "open": late.open,
            "seconds": late.seconds, "closes_at": _iso(late.closes_at)},
    }
    if view.players_left:
        stats["average_stack"] = view.chips_in_play // view.players_left
    return stats


# ---------------------------------------------------------------- the desk

def entries_of(tournament_id: int, person: str) -> PlayerEntries:
    """What one person has bought so far (undone payments left out)."""
    rows = db.session.execute(select(Payment.kind, func.count(Payment.id)).where(
        Payment.tournament_id == tournament_id, Payment.person == person,
        Payment.undone_at.is_(None)).group_by(Payment.kind)).all()
    counts = {kind: int(n) for kind, n in rows}
    return PlayerEntries(entries=counts.get("buy-in", 0) + counts.get("re-entry", 0),
                         rebuys=counts.get("rebuy", 0), add_ons=counts.get("add-on", 0))


def _entries_of_player(tournament_id: int, player: Player) -> PlayerEntries:
    """One entry's rebuys and add-ons, with the person's entry count (re-entries)."""
    person = entries_of(tournament_id, person_of(player.name))
    rows = db.session.execute(select(Payment.kind, func.count(Payment.id)).where(
        Payment.tournament_id == tournament_id, Payment.player_id == player.id,
        Payment.undone_at.is_(None)).group_by(Payment.kind)).all()
    counts = {kind: int(n) for kind, n in rows}
    return PlayerEntries(entries=person.entries, rebuys=counts.get("rebuy", 0),
                         add_ons=counts.get("add-on", 0))


def _entries_of_players(tournament_id: int, players: list[Player]) -> dict[int, PlayerEntries]:
    """``_entries_of_player`` of each of ``players``, in two queries (the desk's rows)."""
    if not players:
        return {}
    persons = {p.id: person_of(p.name) for p in players}
    live = (Payment.tournament_id == tournament_id, Payment.undone_at.is_(None))
    entries: dict[str, int] = defaultdict(int)
    for person, n in db.session.execute(select(Payment.person, func.count(Payment.id)).where(
            *live, Payment.person.in_(set(persons.values())),
            Payment.kind.in_(ENTRY_KINDS)).group_by(Payment.person)):
        entries[person] += int(n)
    bought: dict[tuple[int, str], int] = {}
    for player_id, kind, n in db.session.execute(
            select(Payment.player_id, Payment.kind, func.count(Payment.id)).where(
                *live, Payment.player_id.in_(list(persons)), Payment.kind.in_(("rebuy", "add-on")))
            .group_by(Payment.player_id, Payment.kind)):
        bought[(player_id, kind)] = int(n)
    return {pid: PlayerEntries(entries=entries[person], rebuys=bought.get((pid, "rebuy"), 0),
                               add_ons=bought.get((pid, "add-on"), 0))
            for pid, person in persons.items()}


def _refuse(action: Callable[[], T], field_name: str = "kind") -> T:
    try:
        return action()
    except RuleViolation as exc:
        raise Invalid({field_name: translate_violation(exc)}) from None


def _row(model: type[T], tournament_id: int, value: Any, field_name: str, what: str) -> T:
    """The row ``value`` names (an id, or its digits as text) in this tournament, or ``Invalid``."""
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,18}", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid({field_name: _("Which %(what)s? %(field)s must be a number", what=_(what), field=field_name)})
    row = db.session.get(model, value) if 0 < value < 2**63 else None
    if row is None or getattr(row, "tournament_id", None) != tournament_id:
        raise Invalid({field_name: _("There is no %(what)s %(value)s in this tournament", what=_(what), value=value)})
    return row


def _player(tournament_id: int, player_id: Any) -> Player:
    return _row(Player, tournament_id, player_id, "player_id", N_("player"))


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
    key = request_key_of(request_key)
    earlier = payment_for_request(tournament_id, key)
    if earlier is not None:
        return repeated_sale(tournament_id, earlier)
    lifecycle_service.verify_open(tournament_id)     # a finished event takes no more money
    if kind in ENTRY_KINDS:
        name = people_service.entry_name(person_id if kind == "buy-in" else None, name)
        sale = _new_entry(tournament_id, kind, name, player_id, key, person_id, chosen,
                          entry_chips, fresh=commit)
    else:
        sale = _add_chips(tournament_id, kind, player_id, stack, key)
    paid = sale.payment
    if paid.bounty:                   # "€60.00 + €50.00 bounty": the whole price paid
        uow.log(f"{paid.kind} with bounty", tournament_id, name=paid.player_name,
                chips=paid.chips, amount=_money_param(tournament_id, paid.prize + paid.fee),
                bounty=_money_param(tournament_id, paid.bounty))
    else:
        uow.log(paid.kind, tournament_id, name=paid.player_name, chips=paid.chips,
                amount=_money_param(tournament_id, paid.prize + paid.fee))
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


def _money_param(tournament_id: int, amount: int) -> dict[str, str]:
    """An amount in minor units as a parameter of the log's sentence."""
    currency = str(settings_dict(_settings_row(tournament_id)).get("currency") or "EUR")
    return audit.money_param(major(amount, currency), currency)


def _new_entry(tournament_id: int, kind: str, name: Any, player_id: Any, key: str | None,
               person_id: Any = None,
               chosen: seating_service.ChosenSeat | None = None,
               chips: int | None = None, *, fresh: bool = True) -> Sale:
    """A buy-in or a re-entry: check the rules, register (and seat) the entry, record it
    (no commit).  ``chips``: the entry's stack, if not the event's starting stack;
    ``fresh``: the sale is its own transaction, begun again before its first write."""

    row = _configured(tournament_id)
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
            func.lower(Player.name) == clean.lower())).first()
    else:
        busted = _player(tournament_id, player_id)
        clean = busted.name
        bought = entries_of(tournament_id, person_of(clean))
        _refuse(lambda: verify_purchase(rules, EntryKind.RE_ENTRY, bought, level=at.level,
                                        on_break=at.on_break, busted=not busted.active))
        if db.session.scalar(select(func.count(Player.id)).where(
                Player.tournament_id == tournament_id, Player.status == "active",
                func.lower(Player.name) == clean.lower())):
            raise Invalid({"player_id": _("%(name)s already has an entry still in play", name=clean)})
    seat = None
    if existing is not None:
        player = existing
        if player.entry_chips != stack:
            player.entry_chips = player.chips = stack
    else:
        if fresh:
            # The writes start a transaction of their own (on SQLite, a transaction that
            # read before another process wrote cannot write); the seat and the payment
            # are then committed together, or not at all.
            db.session.rollback()
        player, seat = seating_service.register_player(tournament_id, clean, stack,
                                                       chosen=chosen, commit=False)
    people_service.link(player, person_id if kind == "buy-in" else None)  # the player list
    payment = _record(tournament_id, player, kind, rules.buy_in, stack, at.level, key)
    bounty = bounty_amount(settings_dict(row))     # taken with the entry, never in the pool
    if bounty:
        payment.bounty = player.bounty = bounty
    _lock_if_closed(tournament, _configured(tournament_id), now)
    return Sale(payment, player, seat)


def _add_chips(tournament_id: int, kind: str, player_id: Any, stack: Any,
               key: str | None) -> Sale:
    row = _configured(tournament_id)
    tournament = get_tournament(tournament_id)
    rules = rules_from(settings_dict(row))
    now = utcnow()
    at = moment(tournament, now)
    player = _player(tournament_id, player_id)
    bought = _entries_of_player(tournament_id, player)
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
    _lock_if_closed(tournament, row, now)
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
    one commit, so a lost one wrote nothing; the last loss is the caller's conflict."""

    @functools.wraps(service)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        return retry_on_conflict(lambda: service(*args, **kwargs),
                                 lost=(StaleDataError, IntegrityError), retries=CONFLICT_RETRIES)

    return run


sell_entry = unit_of_work(again_on_conflict(sell))


def _delete_entry(player_id: int) -> None:
    """Take an entry out of the registry: its seat and its player row."""
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
    payment = _payment(tournament_id, payment_id)
    if not (payment.kind == PAYOUT and not payment.note.startswith("Deal")):
        lifecycle_service.verify_open(tournament_id)  # a prize paid by mistake may still be undone
    if payment.undone:
        raise Invalid({"payment_id": _("This %(kind)s was already undone", kind=_(KIND_WORDS.get(payment.kind, payment.kind)))})
    now = utcnow()
    player = db.session.get(Player, payment.player_id) if payment.player_id else None
    row = _settings_row(tournament_id)
    if row is not None:      # a table locked at the close stays locked whatever is undone
        _lock_if_closed(tournament, row, now)
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
        for other in _payments(tournament_id):
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
            amount=_money_param(tournament_id, payment.prize + payment.fee))
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


def _payment(tournament_id: int, payment_id: Any) -> Payment:
    return _row(Payment, tournament_id, payment_id, "payment_id", N_("payment"))


# ---------------------------------------------------------------- the desk page

@dataclass
class DeskRow:
    player: Player
    entries: PlayerEntries
    can: dict[str, str | None]      # kind -> None (allowed) or the reason it is refused
    place: str = ""                 # the finishing place, as on the results page


DESK_ROWS = 60         # players shown on the desk (search to narrow)
LEDGER_ROWS = 100      # the ledger's newest lines on the desk ("Older lines" for more)


@dataclass
class LedgerPage:
    lines: list[Payment]
    older: int | None        # the ``before`` of the next page (None: these are the oldest)


def ledger(tournament_id: int, before: int | None = None,
           limit: int | None = None) -> LedgerPage:
    """The ledger's newest ``limit`` lines (undone ones too) before payment ``before``,
    newest first: the desk shows a page, never the whole history."""
    limit = limit or LEDGER_ROWS
    query = select(Payment).where(Payment.tournament_id == tournament_id)
    if before:
        query = query.where(Payment.id < before)
    lines = list(db.session.scalars(query.order_by(Payment.id.desc()).limit(limit + 1)))
    older = lines[limit - 1].id if len(lines) > limit else None
    return LedgerPage(lines[:limit], older)


def payment_of(tournament_id: int, payment_id: int) -> Payment | None:
    """One line of this event's ledger (None: not one of its lines)."""
    payment = db.session.get(Payment, payment_id)
    return payment if payment is not None and payment.tournament_id == tournament_id else None


def registered(tournament_id: int) -> list[datetime]:
    """Every entry's registration time, sorted (for :func:`final_place`)."""
    return list(db.session.scalars(select(Player.created_at).where(
        Player.tournament_id == tournament_id).order_by(Player.created_at)))


def desk(tournament_id: int, query: Any = "", ledger_before: int | None = None) -> dict[str, Any]:
    """The registration desk: the money, the players found (the first ``DESK_ROWS``),
    what each may buy and why not, and the ledger's newest page."""
    view = money(tournament_id)
    closed = closed_reason(view.tournament)
    text = query if isinstance(query, str) else ""
    needle = person_of(text)[:80]
    # Only the names are read for the search; the rows shown are loaded, the rest not.
    found = [pid for pid, name in db.session.execute(select(Player.id, Player.name).where(
        Player.tournament_id == tournament_id).order_by(Player.name, Player.id))
        if not needle or needle in person_of(name)]
    shown = {p.id: p for p in db.session.scalars(select(Player).where(
        Player.id.in_(found[:DESK_ROWS])))}
    players = [shown[pid] for pid in found[:DESK_ROWS]]
    created = registered(tournament_id)
    bought_by = _entries_of_players(tournament_id, players)
    rows = []
    for player in players:
        bought = bought_by[player.id]
        can: dict[str, str | None] = {}
        if view.rules is not None:
            for kind, entry_kind in (("re-entry", EntryKind.RE_ENTRY), ("rebuy", EntryKind.REBUY),
                                     ("add-on", EntryKind.ADD_ON)):
                try:
                    verify_purchase(view.rules, entry_kind, bought, level=view.at.level,
                                    on_break=view.at.on_break,
                                    stack=player.chips if kind == "rebuy" else None,
                                    busted=not player.active)
                    can[kind] = None
                except RuleViolation as exc:
                    can[kind] = translate_violation(exc)
                if closed:
                    can[kind] = closed
        place, last = final_place(player, created)
        label = "" if place is None else f"{place}–{last}" if last and last != place else str(place)
        rows.append(DeskRow(player, bought, can, label))
    shown_ids = [p.id for p in players]
    seats = dict(db.session.execute(select(Seat.player_id, Seat.seat).where(
        Seat.tournament_id == tournament_id, Seat.player_id.in_(shown_ids))).all())
    tables = dict(db.session.execute(
        select(Seat.player_id, SeatingTable.number).join(
            SeatingTable, SeatingTable.id == Seat.table_id)
        .where(Seat.tournament_id == tournament_id, Seat.player_id.in_(shown_ids))).all())
    buy_in_refusal = None
    if view.rules is not None:
        try:
            verify_purchase(view.rules, EntryKind.BUY_IN, PlayerEntries(), level=view.at.level,
                            on_break=view.at.on_break)
        except RuleViolation as exc:
            buy_in_refusal = translate_violation(exc)
    return {"money": view, "rows": rows, "query": text, "matches": len(found),
            "ledger": ledger(tournament_id, before=ledger_before),
            "where": {pid: (tables[pid], seats[pid]) for pid in seats if pid in tables},
            "buy_in_refusal": closed or buy_in_refusal, "closed": closed}


def closed_reason(tournament: Tournament) -> str | None:
    """Why the event takes no change now (finished, cancelled), or None while it is open."""
    try:
        verify_open(tournament.lifecycle)
    except RuleViolation as exc:
        return translate_violation(exc)
    return None


# ---------------------------------------------------------------- places and prizes

@dataclass
class ResultRow:
    player_id: int
    name: str
    place: int | None
    place_last: int | None
    prize: int
    paid: int
    active: bool
    deal: bool = False
    bounties: int = 0             # bounties won (knockouts; his own head if still in at the end)
    seat: bool = False            # a satellite: won a seat (``prize`` is its value)
    knocked_out_by: str = ""      # the names of who knocked him out

    @property
    def place_label(self) -> str:
        if self.place is None:
            return ""
        if self.place_last and self.place_last != self.place:
            return f"{self.place}–{self.place_last}"
        return str(self.place)


def final_place(player: Player, created: list[datetime]) -> tuple[int | None, int | None]:
    """The seating place moved down by the entries registered after the player busted.

    ``created``: every entry's registration time, sorted (a binary search: the
    results of 2,400 entries asked it 2,400 times over the whole list)."""
    place, last = player.place, player.place_last
    if place is not None and player.eliminated_at is not None:
        later = len(created) - bisect.bisect_right(created, player.eliminated_at)
        place += later
        last = last + later if last else None
    return place, last


def results(tournament_id: int) -> tuple[Money, list[ResultRow]]:
    """Every entry with its finishing place and prize, best place first; still in at the top.

    Places come from the seating registry (order of elimination, §9.6 ties).
    An entry that busted while late registration was still open finished
    behind every entry that came later: its place is moved down by the
    entries registered after it busted.  Tied places share their combined
    prize (``split_tied_places``); a saved deal replaces the prizes of the
    players in it.
    """
    view = money(tournament_id)
    players = list(db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id).order_by(Player.id)))
    created = sorted(p.created_at for p in players)
    # The prizes paid, summed by the database (reading the ledger took a third of the page)
    paid: dict[int, int] = {int(pid): int(total) for pid, total in db.session.execute(
        select(Payment.player_id, func.sum(Payment.prize)).where(
            Payment.tournament_id == tournament_id, Payment.kind == PAYOUT,
            Payment.undone_at.is_(None), Payment.player_id.is_not(None))
        .group_by(Payment.player_id))}
    deal_amounts = {int(k): v for k, v in (view.deal or {}).get("amounts", {}).items()}
    rows: list[ResultRow] = []
    groups: dict[tuple[int, int], list[ResultRow]] = {}
    for player in players:
        place, last = final_place(player, created)
        row = ResultRow(player.id, player.name, place, last, 0, paid.get(player.id, 0),
                        player.active)
        rows.append(row)
        if place is not None:
            groups.setdefault((place, last or place), []).append(row)
    for (first, last), members in groups.items():
        if last > first or len(members) > 1:
            places = list(range(first, max(last, first + len(members) - 1) + 1))
            shares = split_tied_places(view.amounts, places, unit=view.unit) \
                if view.amounts else (0,) * len(places)
            for member, share in zip(members, shares, strict=False):
                member.prize = share
        else:
            members[0].prize = view.amounts[first - 1] if first <= len(view.amounts) else 0
    left_to_play = int((view.deal or {}).get("left_to_play") or 0)
    for row in rows:
        if row.player_id in deal_amounts:
            row.prize, row.deal = int(deal_amounts[row.player_id]), True
            if left_to_play and row.place == 1 and row.place_last is None:
                row.prize += left_to_play          # the winner takes what was played for
    _bounties_and_seats(view, players, rows)
    rows.sort(key=lambda r: (r.place is not None, r.place or 0, r.name.casefold()))
    return view, rows


def _still_in_at_the_end(view: Money, players: list[Player]) -> set[int]:
    """The players who collect their own bounty: the winner, or everyone in a deal that
    shared out all the money (the event ended with them still in)."""
    deal = view.deal or {}
    if deal and not deal.get("left_to_play"):
        return {int(pid) for pid in deal.get("player_ids", [])}
    return {p.id for p in players if p.active and p.place == 1}


def _bounties_and_seats(view: Money, players: list[Player], rows: list[ResultRow]) -> None:
    """Each result's bounties won and who knocked him out; a satellite's seat winners."""
    event = bounty_service.setting(view.tournament.id)
    won = bounty_service.won(players, event, _still_in_at_the_end(view, players))
    names = {p.id: p.name for p in players}
    by = bounty_service.knocked_out_by(players)
    seat_deal = (view.deal or {}).get("method") == SEAT_DEAL
    for row in rows:
        row.bounties = won.get(row.player_id, 0)
        row.knocked_out_by = ", ".join(names.get(pid, "?") for pid in by.get(row.player_id, []))
        if view.satellite is not None:
            row.seat = (row.deal and seat_deal) or (
                not row.deal and row.place is not None and row.place <= view.satellite.seats)
    decided = seats_decided_in(view)
    for row in rows:                  # no more players left than seats: each has his seat
        if decided and row.active and row.place is None:
            row.seat, row.prize = True, view.satellite.seat_value if view.satellite else 0


def results_csv(tournament_id: int) -> str:
    return "".join(results_csv_chunks(tournament_id))


CSV_CHUNK_CHARS = 64 * 1024      # a CSV export is sent in pieces of about this size


def results_csv_chunks(tournament_id: int) -> Iterator[str]:
    """The results CSV in pieces of about ``CSV_CHUNK_CHARS`` (the export streams them)."""
    view, rows = results(tournament_id)
    out = io.StringIO()
    writer = csv.writer(out)
    # A bounty event adds the bounties won and who knocked each out; a satellite, the seats.
    bounties, seats = bool(view.bounty), view.satellite is not None
    # Each line is one entry (a re-entry is a line of its own, with its own place): its
    # entries (1: the buy-in or re-entry that made it), its rebuys and add-ons, and
    # whether a deal paid it, counted from the ledger (undone lines left out), so the
    # column adds up to the event's entries.
    bought: dict[tuple[int | None, str], int] = {}
    for player_id, payment_kind, count in db.session.execute(
            select(Payment.player_id, Payment.kind, func.count(Payment.id)).where(
                Payment.tournament_id == tournament_id, Payment.undone_at.is_(None),
                Payment.kind.in_((*ENTRY_KINDS, "rebuy", "add-on")))
            .group_by(Payment.player_id, Payment.kind)):
        kind = "entry" if payment_kind in ENTRY_KINDS else payment_kind
        bought[(player_id, kind)] = bought.get((player_id, kind), 0) + int(count)
    writer.writerow(["place", "name", "prize", "currency", "paid"]
                    + (["bounties", "knocked_out_by"] if bounties else [])
                    + (["seat"] if seats else [])
                    + ["entries", "rebuys", "add_ons", "deal"])
    for row in rows:
        if row.place is None and not row.deal and not row.seat:
            continue
        writer.writerow([row.place_label, _csv_safe(row.name), view.fmt(row.prize),
                         view.currency, view.fmt(row.paid)]
                        + ([view.fmt(row.bounties), _csv_safe(row.knocked_out_by)]
                           if bounties else [])
                        + (["yes" if row.seat else "no"] if seats else [])
                        + [bought.get((row.player_id, "entry"), 1),
                           bought.get((row.player_id, "rebuy"), 0),
                           bought.get((row.player_id, "add-on"), 0),
                           "yes" if row.deal else "no"])
        if out.tell() > CSV_CHUNK_CHARS:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def _csv_safe(text: str) -> str:
    """A name that starts like a formula is quoted for spreadsheets."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


@unit_of_work
def pay_prize(tournament_id: int, player_id: Any, request_key: Any = None) -> Payment:
    """Record that a finished player was paid his prize (the ledger's payout line)."""
    key = request_key_of(request_key)
    earlier = payment_for_request(tournament_id, key)
    if earlier is not None:
        return earlier
    player = _player(tournament_id, player_id)
    if get_tournament(tournament_id).lifecycle is Status.CANCELLED:
        lifecycle_service.verify_open(tournament_id)   # paying a finished event's prizes is fine
    view, rows = results(tournament_id)
    row = next(r for r in rows if r.player_id == player.id)
    if row.place is None and not row.deal:
        raise Invalid({"player_id": _("%(name)s is still playing", name=player.name)})
    if row.paid and row.paid >= row.prize:
        raise Invalid({"player_id": _("%(name)s was already paid %(amount)s", name=player.name, amount=view.fmt(row.paid))})
    if row.prize <= 0:
        raise Invalid({"player_id": _("%(name)s finished out of the money", name=player.name)})
    settings_row = _settings_row(tournament_id)
    if settings_row is not None:
        _lock_if_closed(view.tournament, settings_row, utcnow())
    payment = Payment(tournament_id=tournament_id, player_id=player.id, player_name=player.name,
                      person=person_of(player.name), kind=PAYOUT, prize=row.prize - row.paid,
                      fee=0, chips=0, level=view.at.level, request_key=key,
                      note=f"Prize for place {row.place_label}")
    db.session.add(payment)
    uow.log("prize paid", tournament_id, name=player.name, place=row.place_label,
            amount=_money_param(tournament_id, payment.prize))
    uow.screens(tournament_id, "money")
    uow.commit()
    return payment


# ---------------------------------------------------------------- deals

SEAT_DEAL = "seats"
DEAL_METHODS = {"icm": N_("ICM"), "chip-chop": N_("Chip-chop"),
                "chip-chop-floor": N_("Chip-chop, everyone guaranteed the lowest prize left"),
                SEAT_DEAL: N_("Everyone left gets a seat")}
"""The deal methods; ``seats`` is a satellite's only deal (``satellites.verify_seat_deal``)."""


@dataclass
class DealQuote:
    method: str
    players: list[Player]
    stacks: list[int]
    prizes: list[int]            # still to win, first place first
    amounts: list[int]           # what each player is dealt
    left_to_play: int = 0        # not dealt: won by whoever wins the rest
    chips_in_play: int = 0

    @property
    def money_left(self) -> int:
        return sum(self.prizes)

    @property
    def dealt(self) -> int:
        """The money the deal shares out now (the money left, less what is played for)."""
        return self.money_left - self.left_to_play

    @property
    def stacks_total(self) -> int:
        return sum(self.stacks)

    @property
    def stacks_difference(self) -> int:
        """The stacks entered less the chips in play (0: they add up)."""
        return self.stacks_total - self.chips_in_play

    @property
    def places(self) -> tuple[tuple[int, int | None], ...]:
        """The places the deal gives its players if it finishes the event: chip order."""
        return deal_places(self.stacks)


def _deal_players(tournament_id: int) -> list[Player]:
    return list(db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.status == "active").order_by(
        Player.chips.desc(), Player.id)))


REASON_MAX = 300


def deal_body(tournament_id: int) -> Schema:
    """The deal's request body for the players still in (``schemas.deal_body``), plus
    ``left_to_play`` (an amount of the money left not dealt, won by whoever wins the
    rest) and ``stacks_reason`` (why the stacks entered differ from the chips in play)."""
    schema = schemas_deal_body(DEAL_METHODS, [(p.id, p.name, p.chips)
                                              for p in _deal_players(tournament_id)])
    schema.fields["left_to_play"] = Amount(label=N_("The amount left to play for"),
                                           required=False, nullable=True)
    schema.fields["stacks_reason"] = Str(required=False, nullable=True, default="",
                                         max_len=REASON_MAX)
    players = _deal_players(tournament_id)
    for player in players:               # the places agreed (blank: chip order)
        schema.fields[f"place_{player.id}"] = Whole(
            label=N_("%(name)s's place"), label_params={"name": player.name}, min=1,
            max=max(len(players), 1), required=False, nullable=True)
    return schema


def deal_quote(tournament_id: int, data: Mapping[str, Any]) -> tuple[Money, DealQuote]:
    """ICM or chip-chop from the stacks of the players still in and the prizes still to win.

    ``data`` is the body loaded by :func:`deal_body` (raw values are loaded here the
    same way): ``method`` and ``stack_<player id>`` (default: his chips now).
    """
    return _quote(tournament_id, deal_body(tournament_id).load(data))


def _quote(tournament_id: int, body: Mapping[str, Any]) -> tuple[Money, DealQuote]:
    view = money(tournament_id)
    method = str(body["method"] or (SEAT_DEAL if view.satellite is not None else "icm"))
    players = _deal_players(tournament_id)
    if len(players) < 2:
        raise Invalid({"method": _("A deal needs at least 2 players still in")})
    if view.satellite is not None or method == SEAT_DEAL:
        return view, _seat_quote(view, method, players, body)
    if len(players) > MAX_ICM_PLAYERS:
        raise Invalid({"method": _("A deal is made at the final table: %(count)s players are "
                                   "still in (at most %(max)s)", count=len(players),
                                   max=MAX_ICM_PLAYERS)})
    if not view.amounts:
        raise Invalid({"method": _("There is no prize pool yet")})
    stacks = [body.get(f"stack_{player.id}") or player.chips for player in players]
    prizes = list(view.amounts[: len(players)])
    reserve = 0
    if body.get("left_to_play") is not None:
        reserve = minor_units("left_to_play", body["left_to_play"],
                              _("The amount left to play for"), view.currency)
    try:
        dealt = take_off_the_top(prizes, reserve)
    except RuleViolation as exc:
        raise Invalid({"left_to_play": translate_violation(exc)}) from None
    try:
        if method == "icm":
            amounts = icm(stacks, dealt, unit=view.unit)
        else:
            amounts = chip_chop(stacks, dealt, unit=view.unit,
                                guarantee_lowest=method == "chip-chop-floor")
    except RuleViolation as exc:
        raise Invalid({"method": translate_violation(exc)}) from None
    return view, DealQuote(method, players, stacks, prizes, list(amounts), reserve,
                           view.chips_in_play)


def _seat_quote(view: Money, method: str, players: list[Player],
                body: Mapping[str, Any]) -> DealQuote:
    """A satellite's deal keeps the seats equal: once no more players are left than seats,
    everyone left gets a seat (``satellites.verify_seat_deal``); nothing else is dealt."""
    if view.satellite is None:
        raise Invalid({"method": _("Everyone left gets a seat is a satellite's deal: set the "
                                   "satellite seat value in the money settings")})
    if method != SEAT_DEAL:
        raise Invalid({"method": _("A satellite's seats are not shared out as cash: the deal "
                                   "is “Everyone left gets a seat”")})
    if body.get("left_to_play"):
        raise Invalid({"left_to_play": _("A seat deal leaves nothing to play for")})
    try:
        verify_seat_deal(len(players), view.satellite.seats)
    except RuleViolation as exc:
        raise Invalid({"method": translate_violation(exc)}) from None
    stacks = [body.get(f"stack_{player.id}") or player.chips for player in players]
    seats = [view.satellite.seat_value] * len(players)
    return DealQuote(SEAT_DEAL, players, stacks, list(view.amounts[: len(players)]), seats, 0,
                     view.chips_in_play)


def stacks_refusal(quote: DealQuote) -> str | None:
    """Why the stacks entered cannot be taken as they are (None: they add up, or the deal
    is a satellite's seats, which the stacks do not change)."""
    if not quote.stacks_difference or quote.method == SEAT_DEAL:
        return None
    return _("The stacks add up to %(stacks)s chips, but %(chips)s chips are in play: correct "
             "them, or confirm the difference with its reason",
             stacks=number_filter(quote.stacks_total), chips=number_filter(quote.chips_in_play))


@unit_of_work
def save_deal(tournament_id: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """Save the agreed amounts and pay them: one payout line per player in the deal.

    The amounts may differ from the calculation (players negotiate), but they
    must add up to exactly the money dealt (the money left, less any amount
    ``left_to_play``), and none may be negative.  The stacks must add up to the
    chips in play, unless the director confirms the difference with its reason
    (``stacks_reason``, kept with the deal and logged).  ``data``: the body of
    :func:`deal_body`, with ``amount_<player id>`` (default: the calculated
    amount).

    A deal that shares out all the money left finishes the event (the clock
    stops).  One that leaves an amount to play for does not: the event goes
    on, and that amount is the winner's when it finishes (:func:`results`).
    """
    body = deal_body(tournament_id).load(data)
    lifecycle_service.verify_open(tournament_id)
    view, quote = _quote(tournament_id, body)
    row = _configured(tournament_id)
    errors: dict[str, str] = {}
    agreed: list[int] = []
    for player, calculated in zip(quote.players, quote.amounts, strict=True):
        amount = body.get(f"amount_{player.id}")
        try:
            agreed.append(calculated if amount is None else minor_units(
                f"amount_{player.id}", amount, _("%(name)s's amount", name=player.name),
                view.currency))
        except Invalid as exc:
            errors.update(exc.errors)
    if quote.method == SEAT_DEAL:       # a seat is a seat: no amount differs
        for player, amount in zip(quote.players, agreed, strict=True):
            if view.satellite is not None and amount != view.satellite.seat_value:
                errors[f"amount_{player.id}"] = _(
                    "Every player left gets a seat worth %(seat)s: %(name)s's amount cannot "
                    "differ", seat=view.fmt(view.satellite.seat_value), name=player.name)
    try:
        places = deal_places(quote.stacks, [body.get(f"place_{p.id}") for p in quote.players])
    except DealPlacesError as exc:
        errors[f"place_{quote.players[exc.index].id}"] = translate_violation(exc)
    if errors:                          # a malformed amount first: it names its field
        raise Invalid(errors)
    reason = str(body.get("stacks_reason") or "").strip()
    refusal = stacks_refusal(quote)
    if refusal is not None and not reason:
        raise Invalid({"stacks": refusal})
    if row.deal:
        raise Invalid({"deal": _("A deal is already saved: undo one of its payments to cancel it")})
    if sum(agreed) != quote.dealt:
        if quote.left_to_play:
            raise Invalid({"deal": _("The amounts add up to %(total)s, but the money left to deal "
                                     "is %(left)s (%(played)s is left to play for)",
                                     total=view.fmt(sum(agreed)), left=view.fmt(quote.dealt),
                                     played=view.fmt(quote.left_to_play))})
        raise Invalid({"deal": _("The amounts add up to %(total)s, but the money left is %(left)s",
                                 total=view.fmt(sum(agreed)), left=view.fmt(quote.money_left))})
    for player in quote.players:
        if db.session.scalar(select(func.count(Payment.id)).where(
                Payment.player_id == player.id, Payment.kind == PAYOUT,
                Payment.undone_at.is_(None))):
            raise Invalid({"deal": _("%(name)s was already paid: undo that payment first", name=player.name)})
    now = utcnow()
    _lock_if_closed(view.tournament, row, now)
    label = DEAL_METHODS[quote.method]  # stored in English: the ledger note (translated on show)
    for player, amount in zip(quote.players, agreed, strict=True):
        db.session.add(Payment(tournament_id=tournament_id, player_id=player.id,
                               player_name=player.name, person=person_of(player.name),
                               kind=PAYOUT, prize=amount, level=view.at.level,
                               note=f"Deal ({label})"))
    deal = {"method": quote.method, "player_ids": [p.id for p in quote.players],
            "stacks": quote.stacks, "calculated": quote.amounts,
            "amounts": {str(p.id): a for p, a in zip(quote.players, agreed, strict=True)},
            "left_to_play": quote.left_to_play, "chips_in_play": quote.chips_in_play,
            "stacks_reason": reason if refusal is not None else "",
            "at": _iso(now)}
    if not quote.left_to_play:                    # everything is shared out: the event is over
        # Each player in it finishes in the place the deal gives him (chip order, or as
        # agreed), stored where the seating stores every place.
        deal["places"] = {str(p.id): [first, last] for p, (first, last)
                          in zip(quote.players, places, strict=True)}
        for player, (first, last) in zip(quote.players, places, strict=True):
            player.place, player.place_last = first, last
    row.deal = deal
    row.updated_at = now
    if refusal is not None:
        details = {"tournament_id": tournament_id, "reason": reason,
                   "stacks": quote.stacks_total, "chips_in_play": quote.chips_in_play,
                   "difference": quote.stacks_difference}
        uow.after_commit(lambda: audit.record("deal stacks confirmed",
                                              f"tournament {tournament_id}", details=details))
    uow.log("deal saved", tournament_id, method={"msgid": label},
            players={"players": len(quote.players)},
            amount=_money_param(tournament_id, sum(agreed)))
    if not quote.left_to_play:          # the event is over: each keeps the bounty on his head
        lifecycle_service.finish_event(tournament_id, now)
        bounty_service.collected_at_the_end(tournament_id, quote.players)
    uow.screens(tournament_id, "money")
    uow.commit()
    return deal


# ---------------------------------------------------------------- the end of the event

def seats_decided_in(view: Money) -> bool:
    """A satellite with no more players left than seats (and no deal yet): every player
    left has won a seat, so play stops and the director gives everyone left a seat."""
    if view.satellite is None or view.deal or view.tournament.lifecycle in (Status.FINISHED,
                                                                          Status.CANCELLED):
        return False
    return view.players_left >= 2 and can_seat_deal(view.players_left, view.satellite.seats)


def seats_decided(tournament_id: int) -> dict[str, int] | None:
    """``{"players", "seats"}`` once a satellite's seats are decided (the director's
    prompt: *Everyone left gets a seat*), else None."""
    if not settings_dict(_settings_row(tournament_id)).get("satellite_seat"):
        return None                      # not a satellite: no need to count the money
    view = money(tournament_id)
    if not seats_decided_in(view) or view.satellite is None:
        return None
    return {"players": view.players_left, "seats": view.satellite.seats}


def stop_at_the_seats(tournament_id: int, now: datetime | None = None) -> list[str]:
    """After an elimination: a satellite whose players left no longer outnumber its seats
    stops, its clock paused, for the director's seat deal.  Part of the seating's unit
    of work: no commit.  Returns the sentences for its log."""
    decided = seats_decided(tournament_id)
    if decided is None:
        return []
    lifecycle_service.stop_clock(tournament_id, now or utcnow())
    return [audit.Said(N_("%(players)s players left for %(seats)s seats: every one of them wins "
                          "a seat. The clock is paused: give everyone left a seat on the deal "
                          "page"), players=decided["players"], seats=decided["seats"])]


def last_player_left(tournament_id: int, now: datetime | None = None) -> list[str]:
    """The seating's last elimination left one player: the event is finished (its clock
    stops, ``tournaments.finish_event``) unless late registration is still open
    (``lifecycle.ends_with_one_player_left``).  Part of the seating's unit of work: no
    commit.  Returns the sentences for its log."""
    tournament = get_tournament(tournament_id)
    now = now or utcnow()
    row = _settings_row(tournament_id)
    late_open = False
    if row is not None:
        late_open = late_registration(tournament, rules_from(settings_dict(row)), now).open
    if not ends_with_one_player_left(late_registration_open=late_open):
        return [audit.Said(N_("Late registration is still open: the event goes on"))]
    return [lifecycle_service.finish_event(tournament_id, now)]


# ---------------------------------------------------------------- the house summary

def summary(tournament_id: int) -> dict[str, Any]:
    view = money(tournament_id)
    owed = sum(view.amounts)
    return {"money": view, "owed": owed, "to_pay": max(0, view.pool.total - view.paid),
            "collected_total": view.pool.collected + view.pool.fees + view.bounties,
            "bounties": bounty_totals(view)}


def bounty_totals(view: Money) -> bounty_service.Totals | None:
    """The bounty money of a bounty event (None without bounties): taken at the desk, won
    by knockouts, kept by the players still in at the end, on heads in play, unawarded."""
    if not view.bounty and not view.bounties:
        return None
    players = list(db.session.scalars(select(Player).where(
        Player.tournament_id == view.tournament.id)))
    return bounty_service.totals(players, bounty_service.setting(view.tournament.id),
                                 view.bounties, _still_in_at_the_end(view, players))


__all__ = ["DEAL_METHODS", "Money", "clock_stats", "deal_quote", "desk",
           "late_registration", "moment", "money", "pay_prize", "results", "results_csv",
           "save_deal", "save_settings", "sell_entry", "summary", "undo"]


# ---------------------------------------------------------------- the one registration path
# (issue 14: added for the seating page and its API; the desk's own ``sell`` is unchanged)

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
    get_tournament(tournament_id)
    stack = parse_int({"chips": chips}, "chips", _("Chips"), low=1, high=MAX_CHIPS)
    # One commit and one change for the screens, with the stack given (it was
    # committed and told a second time after the event's stack).
    return sell(tournament_id, "buy-in", name=name, request_key=request_key, entry_chips=stack)
