"""Places and prizes: each entry's finishing place and prize (ties share, a deal replaces),
the bounties won and a satellite's seats, the results CSV, paying a prize, and the
house summary.
"""

from __future__ import annotations

import bisect
import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db, utcnow
from director.models.money import Payment
from director.models.seating import Player
from director.services import Invalid, get_tournament, uow
from director.services import bounties as bounty_service
from director.services import tournaments as lifecycle_service
from director.services.money.deals import SEAT_DEAL
from director.services.money.ending import seats_decided_in
from director.services.money.payments import (
    ENTRY_KINDS,
    PAYOUT,
    payment_for_request,
    person_of,
    player_in,
    request_key_of,
    unit_of_work,
)
from director.services.money.settings import lock_if_closed, money_param, settings_row
from director.services.money.totals import Money, money
from director.tournament.lifecycle import Status
from director.tournament.payouts import split_tied_places


def registered(tournament_id: int) -> list[datetime]:
    """Every entry's registration time, sorted (for :func:`final_place`)."""
    return list(db.session.scalars(select(Player.created_at).where(
        Player.tournament_id == tournament_id).order_by(Player.created_at)))


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
    player = player_in(tournament_id, player_id)
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
    stored = settings_row(tournament_id)
    if stored is not None:
        lock_if_closed(view.tournament, stored, utcnow())
    payment = Payment(tournament_id=tournament_id, player_id=player.id, player_name=player.name,
                      person=person_of(player.name), kind=PAYOUT, prize=row.prize - row.paid,
                      fee=0, chips=0, level=view.at.level, request_key=key,
                      note=f"Prize for place {row.place_label}")
    db.session.add(payment)
    uow.log("prize paid", tournament_id, name=player.name, place=row.place_label,
            amount=money_param(tournament_id, payment.prize))
    uow.screens(tournament_id, "money")
    uow.commit()
    return payment


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
