"""Amounts of money and the event's stored money settings, read without the money services.

An amount is an int of the currency's minor units (cents: 11050 EUR is €110.50).
The helpers here write it as the director types it (:func:`major`), as a number
for the screens' JSON (:func:`major_number`) and read a typed amount back
(:func:`minor_units`).  :func:`settings_dict` is an event's money settings with
the defaults filled in.

The bounties and the seating read these (the bounty per entry, the starting
stack) without the money services above them (``services.money``), which
re-export every name here.  This module imports no other service module.

>>> major(11050, "EUR"), major(11000, "EUR"), major(50000, "IDR")
('110.50', '110', '50000')
>>> major_number(11050, "EUR"), major_number(11000, "EUR")
(110.5, 110)
>>> settings_dict(None)["starting_stack"]
20000
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any

from babel.numbers import get_currency_precision
from flask_babel import gettext as _

from director.db import db
from director.models.money import MoneySettings
from director.schemas import MAX_MONEY
from director.services import Invalid

__all__ = ["DEFAULTS", "bounty_amount", "major", "major_number", "minor_units", "precision",
           "settings_dict", "settings_of", "starting_stack"]

DEFAULTS: dict[str, Any] = {
    "currency": "EUR", "unit": 100, "buy_in_prize": 10_000, "buy_in_fee": 1_000,
    "starting_stack": 20_000, "late_registration_level": 6,
    "re_entry": False, "re_entry_max": None, "re_entry_until": None,
    "rebuy": False, "rebuy_prize": 0, "rebuy_fee": 0, "rebuy_chips": 0, "rebuy_until": 0,
    "rebuy_stack_limit": None, "rebuy_max": None,
    "add_on": False, "add_on_prize": 0, "add_on_fee": 0, "add_on_chips": 0, "add_on_break": 0,
    "guarantee": 0, "payout_template": "standard", "custom_shares": None,
    # Issue 17: the bounty taken with every entry (none | fixed | pko), and a
    # satellite's seat value (0: not a satellite).
    "bounty_kind": "none", "bounty": 0, "satellite_seat": 0,
}


@lru_cache(maxsize=256)
def precision(currency: str) -> int:
    """The currency's decimals (EUR 2, IDR 0; an unknown code: 2), looked up in babel's
    data once a currency (an export formats thousands of amounts)."""
    try:
        return int(get_currency_precision(currency))
    except Exception:  # noqa: BLE001 (an unknown code: cents)
        return 2


def major(amount: int | None, currency: str) -> str:
    """Minor units as the director types them: 11000 EUR -> "110", 11050 -> "110.50"."""
    if amount is None:
        return ""
    digits = precision(currency)
    value = Decimal(amount).scaleb(-digits)
    if value == value.to_integral_value():
        return str(int(value))
    return f"{value:.{digits}f}"


def major_number(amount: int, currency: str) -> float | int:
    """For JSON (the screens format it with Intl): 11050 EUR -> 110.5."""
    digits = precision(currency)
    return amount // 10**digits if amount % 10**digits == 0 else amount / 10**digits


def minor_units(name: str, amount: Decimal, label: str, currency: str, *, minimum: int = 0) -> int:
    """An amount in the currency's major units (from ``schemas.Amount``) as minor units.

    The currency says how many decimals an amount may have (EUR 2, IDR 0):
    ``minor_units("buy_in", Decimal("110.50"), "The buy-in", "EUR") == 11050``.
    Raises ``Invalid`` naming ``name``.
    """
    digits = precision(currency)
    minor = amount.scaleb(digits)
    if minor != minor.to_integral_value():
        raise Invalid({name: _("%(label)s has more than %(digits)s decimals: %(value)s",
                               label=label, digits=digits, value=amount)})
    result = int(minor)
    if result > MAX_MONEY:
        raise Invalid({name: _("%(label)s is too large", label=label)})
    if result < minimum:
        raise Invalid({name: _("%(label)s must be at least %(minimum)s", label=label,
                               minimum=major(minimum, currency))})
    return result


def settings_dict(row: MoneySettings | None) -> dict[str, Any]:
    """The stored money settings over the defaults (a row never saved: the defaults)."""
    return {**DEFAULTS, **(row.settings if row is not None and row.settings else {})}


def settings_of(tournament_id: int) -> dict[str, Any]:
    """The event's money settings (the defaults before they are saved)."""
    return settings_dict(db.session.get(MoneySettings, tournament_id))


def starting_stack(tournament_id: int) -> int:
    """The stack a new entry gets (the seating's registry, before any money is set up too)."""
    return int(settings_of(tournament_id)["starting_stack"])


def bounty_amount(s: Mapping[str, Any]) -> int:
    """The bounty each entry pays (0: no bounty)."""
    return int(s.get("bounty") or 0) if s.get("bounty_kind", "none") != "none" else 0
