"""The event's money settings: the form (``settings_form``), the entry rules they make
(``rules_from``), saving them (``save_settings``), and the payout table they choose
(``table_for``), fixed once late registration has closed (``lock_if_closed``).

The stored dict and its defaults are ``services.amounts`` (read below the money too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from flask_babel import gettext as _

from director.db import db, utcnow
from director.i18n import translate_violation
from director.models.money import MoneySettings
from director.models.tournament import Tournament
from director.poker.errors import RuleViolation
from director.schemas import MONEY_SETTINGS, FieldError, Labelled, payout_shares
from director.services import Invalid, audit, uow
from director.services import tournaments as lifecycle_service
from director.services.amounts import DEFAULTS, major, minor_units, precision, settings_dict
from director.services.money.payments import entry_count, unit_of_work
from director.services.money.period import late_registration
from director.tournament.entries import AddOn, EntryRules, Rebuy, ReEntry
from director.tournament.money import BuyIn
from director.tournament.payouts import TEMPLATES, PayoutTable


def settings_form(tournament_id: int) -> dict[str, Any] | None:
    """The event's money settings as ``PUT money/settings`` takes them (major units, the
    form's names), for the event's export; None before they are saved."""
    row = settings_row(tournament_id)
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


def settings_row(tournament_id: int, *, create: bool = False) -> MoneySettings | None:
    row = db.session.get(MoneySettings, tournament_id)
    if row is None and create:
        row = MoneySettings(tournament_id=tournament_id, settings=dict(DEFAULTS))
        db.session.add(row)
        db.session.flush()
    return row


def configured(tournament_id: int) -> MoneySettings:
    row = settings_row(tournament_id)
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
    row = settings_row(tournament_id, create=True)
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
    lock_if_closed(tournament, row, now)
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
        count = entry_count(tournament_id)
        if count:
            errors["bounty_kind" if kind != old["bounty_kind"] else "bounty"] = _(
                "The bounty cannot change once entries are taken (%(count)s entries paid it as "
                "it is): undo them first", count=count)
    seat = minor("satellite_seat", default=0)
    return {"bounty_kind": kind, "bounty": amount or 0, "satellite_seat": seat or 0}


def lock_if_closed(tournament: Tournament, row: MoneySettings, now: datetime) -> None:
    """Once late registration has closed, the payout table is fixed (shares, not amounts)."""
    if row.locked_shares is not None:
        return
    s = settings_dict(row)
    rules = rules_from(s)
    if late_registration(tournament, rules, now).open:
        return
    entries = entry_count(tournament.id)
    table = table_for(s, entries)
    if table is not None:
        row.locked_shares = list(table.shares)
        row.locked_entries = entries


def table_for(s: Mapping[str, Any], entries: int) -> PayoutTable | None:
    if s["payout_template"] == "custom" and s["custom_shares"]:
        return PayoutTable(tuple(s["custom_shares"]))
    if entries < 1:
        return None
    try:
        return TEMPLATES[s["payout_template"]].table_for(entries)
    except RuleViolation:
        return None


def money_param(tournament_id: int, amount: int) -> dict[str, str]:
    """An amount in minor units as a parameter of the log's sentence."""
    currency = str(settings_dict(settings_row(tournament_id)).get("currency") or "EUR")
    return audit.money_param(major(amount, currency), currency)
