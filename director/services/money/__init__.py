"""Entries and money services: settings, the registration desk, the ledger, payouts, deals, results.

Each writing function is one unit of work (STYLE.md): load, ask the pure
rules (``director.tournament.entries``, ``money``, ``payouts``, ``icm``),
write, record on the unit of work (``services.uow``) the log line and that the
money changed, then commit once; after the commit the clock state (which
carries the entries, chips in play, prize pool, payouts and the
late-registration countdown, see :func:`clock_stats`) is told to every screen
(``services.publishing``), so the projector updates at once.

The modules, each answering one question (this package re-exports their
public names, so ``money.sell_entry`` and ``money.results`` are called as
before):

- :mod:`.payments`  the ledger's lines: kinds, request keys, what a person bought, pages;
- :mod:`.settings`  the money settings: form, entry rules, saving, the payout table;
- :mod:`.period`    where the clock is in the entry rules' words; late registration;
- :mod:`.totals`    the event's money now (:class:`Money`) and the clock's money fields;
- :mod:`.sales`     the desk's sales (buy-in, re-entry, rebuy, add-on) and their undo;
- :mod:`.desk_page` the registration desk's page;
- :mod:`.places`    places, prizes, bounties won, seats, the CSV, paying a prize, the summary;
- :mod:`.deals`     ICM, chip-chop and seat deals, and saving one;
- :mod:`.ending`    the end of the event (last player left, a satellite's seats decided).

Amounts (``major``, ``minor_units``) and the stored settings' dict are
``services.amounts``, re-exported here.
"""

from __future__ import annotations

from director.services.amounts import (
    DEFAULTS,
    bounty_amount,
    major,
    major_number,
    minor_units,
    precision,
    settings_dict,
)
from director.services.money.deals import (
    DEAL_METHODS,
    SEAT_DEAL,
    DealQuote,
    deal_body,
    deal_quote,
    save_deal,
    stacks_refusal,
)
from director.services.money.desk_page import DeskRow, closed_reason, desk
from director.services.money.ending import (
    last_player_left,
    seats_decided,
    seats_decided_in,
    stop_at_the_seats,
)
from director.services.money.payments import (
    CONFLICT,
    ENTRY_KINDS,
    KIND_WORDS,
    PAYOUT,
    SALE_KINDS,
    LedgerPage,
    entries_of,
    iso,
    ledger,
    payment_for_request,
    payment_of,
    person_of,
    request_key_of,
    sent_for_another,
    twin_came_first,
)
from director.services.money.period import LateRegistration, Moment, late_registration, moment
from director.services.money.places import (
    ResultRow,
    bounty_totals,
    entries_made,
    entries_up_to,
    entry_taken_out,
    final_place,
    pay_prize,
    places_of,
    places_signatures,
    results,
    results_count,
    results_csv,
    results_csv_chunks,
    results_of_everyone,
    summary,
)
from director.services.money.sales import (
    Sale,
    again_on_conflict,
    parse_int,
    register_entry,
    repeated_payment,
    repeated_sale,
    sell,
    sell_entry,
    undo,
)
from director.services.money.settings import rules_from, save_settings, settings_form
from director.services.money.totals import TICKER_PLACES, Money, clock_stats, money

__all__ = [
    "CONFLICT",
    "DEAL_METHODS",
    "DEFAULTS",
    "ENTRY_KINDS",
    "KIND_WORDS",
    "PAYOUT",
    "SALE_KINDS",
    "SEAT_DEAL",
    "TICKER_PLACES",
    "DealQuote",
    "DeskRow",
    "LateRegistration",
    "LedgerPage",
    "Moment",
    "Money",
    "ResultRow",
    "Sale",
    "again_on_conflict",
    "bounty_amount",
    "bounty_totals",
    "clock_stats",
    "closed_reason",
    "deal_body",
    "deal_quote",
    "desk",
    "entries_made",
    "entries_of",
    "entries_up_to",
    "entry_taken_out",
    "final_place",
    "iso",
    "last_player_left",
    "late_registration",
    "ledger",
    "major",
    "major_number",
    "minor_units",
    "moment",
    "money",
    "parse_int",
    "pay_prize",
    "places_of",
    "places_signatures",
    "payment_for_request",
    "payment_of",
    "person_of",
    "precision",
    "register_entry",
    "repeated_payment",
    "repeated_sale",
    "request_key_of",
    "results",
    "results_count",
    "results_csv",
    "results_csv_chunks",
    "results_of_everyone",
    "rules_from",
    "save_deal",
    "save_settings",
    "seats_decided",
    "seats_decided_in",
    "sell",
    "sell_entry",
    "sent_for_another",
    "twin_came_first",
    "settings_dict",
    "settings_form",
    "stacks_refusal",
    "stop_at_the_seats",
    "summary",
    "undo",
]
