"""The ledger's lines: the kinds of payment, a request's key, whose entry a line is,
what a person has bought, and the ledger's pages.

Every other part of the money services reads the ledger through these; they
write nothing.  ``unit_of_work`` is the money's writing services' decorator
(``services.all_or_nothing`` with the money's conflict sentence).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db
from director.i18n import N_
from director.models.money import Payment
from director.models.seating import Player
from director.schemas import REQUEST_KEY
from director.services import Invalid, all_or_nothing
from director.services.people import key_of
from director.tournament.entries import PlayerEntries

T = TypeVar("T")

ENTRY_KINDS = ("buy-in", "re-entry")
SALE_KINDS = ("buy-in", "re-entry", "rebuy", "add-on")
PAYOUT = "payout"
# The payment kinds as words in a sentence ("This rebuy was already undone").
KIND_WORDS = {"buy-in": N_("buy-in"), "re-entry": N_("re-entry"), "rebuy": N_("rebuy"),
              "add-on": N_("add-on"), "payout": N_("prize payment")}
CONFLICT = {"money": N_("Someone else changed the money at the same moment: reload the page and "
                        "try again")}

unit_of_work = all_or_nothing(CONFLICT, event=True)


def request_key_of(key: Any) -> str | None:
    """A retried request's key, checked (None: the request has none)."""
    if key is None or key == "":
        return None
    if not isinstance(key, str) or not REQUEST_KEY.fullmatch(key):
        raise Invalid({"request_key": _("The request key is letters, digits, - and _ (at most 64)")})
    return key


def payment_for_request(tournament_id: int, key: str | None) -> Payment | None:
    """The payment already recorded for this request key (a retried post)."""
    if key is None:
        return None
    return db.session.scalars(select(Payment).where(
        Payment.tournament_id == tournament_id, Payment.request_key == key)).first()


def sent_for_another(earlier: Payment) -> Invalid:
    """The refusal of a key sent with another request than the one that recorded
    ``earlier`` (a page's form kept from before and filled in again, a client reusing
    its key): answered as the first, the other would be lost unseen."""
    return Invalid({"request_key": _(
        "This form was sent before, for the %(kind)s of %(name)s: reload the page to "
        "record another", kind=_(KIND_WORDS.get(earlier.kind, earlier.kind)),
        name=earlier.player_name)})


def twin_came_first(tournament_id: Any, key: Any) -> bool:
    """A keyed request was refused: whether a copy of it (its twin, with the same
    ``request_key``: a double click, a retry) has committed a payment
    (``retry_on_conflict(twin=...)``, which asks with the session rolled back); the
    request is then done once more, finds that payment and answers as it (or, for
    another request, refuses the key)."""
    if not isinstance(key, str) or not key or not isinstance(tournament_id, int):
        return False
    return payment_for_request(tournament_id, key) is not None


# The person a name is (a re-entry is the same person): the player list's own key,
# spaces folded, any case ("ann  BERG" -> "ann berg").
person_of = key_of


def payments_of(tournament_id: int) -> list[Payment]:
    """The event's ledger, every line (undone ones too), oldest first."""
    return list(db.session.scalars(select(Payment).where(
        Payment.tournament_id == tournament_id).order_by(Payment.id)))


def entry_count(tournament_id: int) -> int:
    """The entries taken (buy-ins and re-entries not undone)."""
    return int(db.session.scalar(select(func.count(Payment.id)).where(
        Payment.tournament_id == tournament_id, Payment.kind.in_(ENTRY_KINDS),
        Payment.undone_at.is_(None))) or 0)


def iso(moment_: datetime | None) -> str | None:
    """A UTC time for JSON: ``2026-03-01T18:00:00Z`` (None stays None)."""
    return None if moment_ is None else moment_.isoformat().replace("+00:00", "Z")


def entries_of(tournament_id: int, person: str) -> PlayerEntries:
    """What one person has bought so far (undone payments left out)."""
    rows = db.session.execute(select(Payment.kind, func.count(Payment.id)).where(
        Payment.tournament_id == tournament_id, Payment.person == person,
        Payment.undone_at.is_(None)).group_by(Payment.kind)).all()
    counts = {kind: int(n) for kind, n in rows}
    return PlayerEntries(entries=counts.get("buy-in", 0) + counts.get("re-entry", 0),
                         rebuys=counts.get("rebuy", 0), add_ons=counts.get("add-on", 0))


def entries_of_player(tournament_id: int, player: Player) -> PlayerEntries:
    """One entry's rebuys and add-ons, with the person's entry count (re-entries)."""
    person = entries_of(tournament_id, person_of(player.name))
    rows = db.session.execute(select(Payment.kind, func.count(Payment.id)).where(
        Payment.tournament_id == tournament_id, Payment.player_id == player.id,
        Payment.undone_at.is_(None)).group_by(Payment.kind)).all()
    counts = {kind: int(n) for kind, n in rows}
    return PlayerEntries(entries=person.entries, rebuys=counts.get("rebuy", 0),
                         add_ons=counts.get("add-on", 0))


def entries_of_players(tournament_id: int, players: list[Player]) -> dict[int, PlayerEntries]:
    """``entries_of_player`` of each of ``players``, in two queries (the desk's rows)."""
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


def row_in(model: type[T], tournament_id: int, value: Any, field_name: str, what: str) -> T:
    """The row ``value`` names (an id, or its digits as text) in this tournament, or ``Invalid``."""
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,18}", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid({field_name: _("Which %(what)s? %(field)s must be a number", what=_(what), field=field_name)})
    row = db.session.get(model, value) if 0 < value < 2**63 else None
    if row is None or getattr(row, "tournament_id", None) != tournament_id:
        raise Invalid({field_name: _("There is no %(what)s %(value)s in this tournament", what=_(what), value=value)})
    return row


def player_in(tournament_id: int, player_id: Any) -> Player:
    """The entry ``player_id`` names in this tournament, or ``Invalid`` naming ``player_id``."""
    return row_in(Player, tournament_id, player_id, "player_id", N_("player"))


def payment_in(tournament_id: int, payment_id: Any) -> Payment:
    """The ledger line ``payment_id`` names in this tournament, or ``Invalid``."""
    return row_in(Payment, tournament_id, payment_id, "payment_id", N_("payment"))


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
