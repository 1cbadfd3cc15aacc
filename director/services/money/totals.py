"""The event's money as of now (:class:`Money`): entries, the prize pool, chips in play,
the payout table and its amounts, late registration, a saved deal; and the clock
JSON's money fields (:func:`clock_stats`).  Read-only: summed by the database.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import func, select

from director.db import db, utcnow
from director.models.money import Payment
from director.models.tournament import Tournament
from director.poker.errors import RuleViolation
from director.services import get_tournament
from director.services.amounts import bounty_amount, major, major_number, settings_dict
from director.services.money.payments import ENTRY_KINDS, PAYOUT, SALE_KINDS, iso, payments_of
from director.services.money.period import LateRegistration, Moment, late_registration, moment
from director.services.money.settings import rules_from, settings_row, table_for
from director.services.seating import field_totals
from director.tournament.entries import EntryRules
from director.tournament.money import BuyIn, PrizePool, pool_from_payments
from director.tournament.payouts import PayoutTable
from director.tournament.satellites import SatellitePayout, satellite_payout


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
        return payments_of(self.tournament.id)

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
    row = settings_row(tournament_id)
    s = settings_dict(row)
    rules = rules_from(s) if row is not None else None
    totals = _live_totals(tournament_id)
    counts = {kind: totals[kind].count for kind in SALE_KINDS}
    sums = {kind: (totals[kind].prize, totals[kind].fee) for kind in SALE_KINDS}
    pool = pool_from_payments((BuyIn(*sums[kind]) for kind in SALE_KINDS),
                              guarantee=s["guarantee"])
    entries = counts["buy-in"] + counts["re-entry"]
    left, entry_chips = field_totals(tournament_id)   # the seating's count, read once
    extra_chips = totals["rebuy"].chips + totals["add-on"].chips
    if row is not None and row.locked_shares:
        table: PayoutTable | None = PayoutTable(tuple(row.locked_shares))
        locked = True
    else:
        table = table_for(s, entries)
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


TICKER_PLACES = 30


def clock_stats(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The clock JSON's money fields: entries, chips in play, prize pool, payouts, late reg.

    Amounts are in the currency's major unit (the screens format them);
    ``average_stack`` counts rebuy and add-on chips too.
    """
    row = settings_row(tournament.id)
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
        # every place the table pays, when the ticker lists only the first ones (the
        # banners' bubble: read here, not from a second money view)
        "places_paid": len(view.table.shares) if view.table is not None
        else min(len(view.amounts), TICKER_PLACES),
        "late_registration": None if late is None else {
            "level": late.level, "open": late.open,
            "seconds": late.seconds, "closes_at": iso(late.closes_at)},
    }
    if view.players_left:
        stats["average_stack"] = view.chips_in_play // view.players_left
    return stats
