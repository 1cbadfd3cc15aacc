"""Places and prizes: each entry's finishing place and prize (ties share, a deal replaces),
the bounties won and a satellite's seats, the results CSV, paying a prize, and the
house summary.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import case, false, func, literal, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, utcnow
from director.models.money import Payment
from director.models.seating import Player
from director.services import Invalid, get_tournament, retry_on_conflict, uow
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
    sent_for_another,
    twin_came_first,
    unit_of_work,
)
from director.services.money.settings import lock_if_closed, money_param, settings_row
from director.services.money.totals import Money, money
from director.tournament.lifecycle import Status
from director.tournament.payouts import split_tied_places


def entries_made(tournament_id: int) -> int:
    """The event's entries (a re-entry is one): every player row it has."""
    return int(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament_id)) or 0)


def entries_up_to(tournament_id: int, moment: datetime) -> int:
    """The entries registered up to ``moment``: stored with a bust
    (``Player.entries_when_out``), so his final place needs no history."""
    return int(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament_id, Player.created_at <= moment)) or 0)


def entry_taken_out(player: Player) -> None:
    """An entry taken out of the registry (a buy-in undone): the players who went out
    after it was made no longer count it among the entries of their bust."""
    db.session.execute(update(Player).where(
        Player.tournament_id == player.tournament_id, Player.entries_when_out.is_not(None),
        Player.eliminated_at >= player.created_at).values(
        entries_when_out=Player.entries_when_out - 1))


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


def final_place(player: Player, entries: int) -> tuple[int | None, int | None]:
    """The seating place moved down by the entries registered after the player busted:
    ``entries`` (the event's now, :func:`entries_made`) less those of his bust."""
    place, last = player.place, player.place_last
    if place is not None and player.entries_when_out is not None:
        later = entries - player.entries_when_out
        place += later
        last = last + later if last else None
    return place, last


def _final_sql(entries: int) -> tuple[Any, Any]:
    """:func:`final_place` as SQL: the first and the last place of each row."""
    later = case((Player.entries_when_out.is_(None), 0),
                 else_=literal(entries) - Player.entries_when_out)
    return Player.place + later, Player.place_last + later


def places_of(tournament_id: int) -> list[tuple[int, int | None, str, int | None, int | None, bool]]:
    """Every entry's final place, worked out by the database (no prize, no bounty: what
    a league ranks): (player id, person id, name, place, place_last, still in)."""
    first, last = _final_sql(entries_made(tournament_id))
    return [(pid, person_id, name, place, place_last, status == "active")
            for pid, person_id, name, place, place_last, status in db.session.execute(
                select(Player.id, Player.person_id, Player.name, first, last, Player.status)
                .where(Player.tournament_id == tournament_id).order_by(Player.id))]


def places_signatures(tournament_ids: list[int]) -> dict[int, tuple[int, ...]]:
    """Each event's places in a few figures summed by the database (one short query
    however many entries): what :func:`places_of` reads changes them (an entry made
    or taken out, a place, a tie, a bust's entries, a record linked or unlinked, a
    player out or back in), each weighted by the player's id, so a cache of work
    done on the places (a league's ranking) knows when to do it again."""
    if not tournament_ids:
        return {}
    active = case((Player.status == "active", 1), else_=0)
    columns = [Player.place, Player.place_last, Player.entries_when_out, Player.person_id, active]
    figures = [func.count(Player.id), func.max(Player.id)]
    for column in columns:
        value = func.coalesce(column, 0)
        figures += [func.coalesce(func.sum(value), 0),
                    func.coalesce(func.sum(value * Player.id), 0),
                    func.coalesce(func.sum(value * (Player.id % 9973)), 0)]  # no overflow
    return {int(tid): tuple(int(v or 0) for v in values)
            for tid, *values in db.session.execute(
                select(Player.tournament_id, *figures)
                .where(Player.tournament_id.in_(tournament_ids))
                .group_by(Player.tournament_id))}


# What a result reads of each entry (what ``services.bounties`` reads of a player too).
_RESULT_COLUMNS = (Player.id, Player.name, (Player.status == "active").label("active"),
                   Player.place, Player.knockout, Player.bounty)


def _split(found: Iterable[Any]) -> Iterator[tuple[Any, Any, Any]]:
    """(entry, final place, last place) of each row of ``_RESULT_COLUMNS`` and the two
    final places."""
    width = len(_RESULT_COLUMNS)
    for row in found:
        yield row, row[width], row[width + 1]


def results(tournament_id: int, *, player_ids: Iterable[int] | None = None,
            placed: bool = False, bounty_winners: bool = False, offset: int = 0,
            limit: int | None = None, view: Money | None = None) -> tuple[Money, list[ResultRow]]:
    """Entries with their finishing place and prize, best place first; still in at the top.

    Places come from the seating registry (order of elimination, §9.6 ties).
    An entry that busted while late registration was still open finished
    behind every entry that came later: its place is moved down by the
    entries registered after it busted (:func:`final_place`).  Tied places
    share their combined prize (``split_tied_places``); a saved deal replaces
    the prizes of the players in it.

    Read from the database a page at a time, whatever the event's history:
    ``offset``/``limit`` in that order, ``player_ids`` only those entries,
    ``placed`` only the entries with a place or a deal, and with
    ``bounty_winners`` (a bounty event) those still in too, who may have won
    bounties.  The count: :func:`results_count`.  ``view``: the event's money, if the
    caller read it already.
    """
    view = view or money(tournament_id)
    entries = entries_made(tournament_id)
    first, last = _final_sql(entries)
    query = _results_query(view, select(*_RESULT_COLUMNS, first, last), player_ids, placed,
                           bounty_winners)
    query = query.order_by(Player.place.is_not(None), first, Player.name_key,
                           Player.id).offset(offset).limit(limit)
    found = db.session.execute(query).all()     # rows, not ORM objects: a CSV reads them all
    players = [entry for entry, _first, _last in _split(found)]
    ids = [p.id for p in players]
    # The prizes paid, summed by the database (reading the ledger took a third of the page)
    paid: dict[int, int] = {int(pid): int(total) for pid, total in db.session.execute(
        select(Payment.player_id, func.sum(Payment.prize)).where(
            Payment.tournament_id == tournament_id, Payment.kind == PAYOUT,
            Payment.undone_at.is_(None), Payment.player_id.in_(ids))
        .group_by(Payment.player_id))} if ids else {}
    rows = [ResultRow(p.id, p.name, place, place_last, 0, paid.get(p.id, 0), bool(p.active))
            for p, place, place_last in _split(found)]
    _prizes(view, tournament_id, first, last, rows)
    deal_amounts = {int(k): v for k, v in (view.deal or {}).get("amounts", {}).items()}
    left_to_play = int((view.deal or {}).get("left_to_play") or 0)
    for row in rows:
        if row.player_id in deal_amounts:
            row.prize, row.deal = int(deal_amounts[row.player_id]), True
            if left_to_play and row.place == 1 and row.place_last is None:
                row.prize += left_to_play          # the winner takes what was played for
    _bounties_and_seats(view, players, rows)
    rows.sort(key=lambda r: (r.place is not None, r.place or 0, r.name.casefold()))
    return view, rows


def results_of_everyone(tournament_id: int) -> tuple[Money, list[ResultRow]]:
    """Every entry's line of :func:`results`, in no order, for the records' totals over
    all events (the players CSV): the same lines, with less work per entry.

    Only the entries that can have money go through :func:`results` (its prizes, ties,
    deal, bounties and seats): a place among the prizes, a deal, a prize paid, a
    bounty won or kept, a satellite's seat decided.  Every other entry is its place
    alone, read with the others in one query (no prize is worked out for the 2,000
    entries out of the money of a 2,400-entry event)."""
    view = money(tournament_id)
    first, last = _final_sql(entries_made(tournament_id))
    found = db.session.connection().execute(       # plain rows: every entry of the event
        select(Player.id, Player.name, Player.status, first, last)
        .where(Player.tournament_id == tournament_id)).all()
    prizes = len(view.amounts)
    may_win = {pid for pid, _name, _status, place, _last in found
               if place is not None and place <= prizes}
    may_win.update(int(pid) for pid in (view.deal or {}).get("amounts", {}))
    may_win.update(db.session.scalars(select(Payment.player_id).where(
        Payment.tournament_id == tournament_id, Payment.kind == PAYOUT,
        Payment.undone_at.is_(None), Payment.player_id.is_not(None)).distinct()))
    if _bounty_event(view):
        for (knockout,) in db.session.execute(select(Player.knockout).where(
                Player.tournament_id == tournament_id, Player.knockout.is_not(None))):
            may_win.update(int(pid) for pid in ((knockout or {}).get("paid") or {}))
        may_win.update(_still_in_at_the_end(view))
    if seats_decided_in(view):
        may_win.update(pid for pid, _name, status, _place, _last in found if status == "active")
    with_money = {row.player_id: row for row in (
        results(tournament_id, player_ids=sorted(may_win), view=view)[1] if may_win else ())}
    return view, [with_money.get(pid) or ResultRow(pid, name, place, place_last, 0, 0,
                                                   status == "active")
                  for pid, name, status, place, place_last in found]


def results_count(tournament_id: int, *, placed: bool = False,
                  bounty_winners: bool = False, view: Money | None = None) -> int:
    """How many lines :func:`results` has in all (with the same filters)."""
    if not placed:
        return entries_made(tournament_id)
    view = view or money(tournament_id)
    return int(db.session.scalar(_results_query(
        view, select(func.count(Player.id)), None, placed, bounty_winners)) or 0)


def _results_query(view: Money, query: Any, player_ids: Iterable[int] | None,
                   placed: bool, bounty_winners: bool) -> Any:
    query = query.where(Player.tournament_id == view.tournament.id)
    if player_ids is not None:
        query = query.where(Player.id.in_(list(player_ids)))
    if placed:
        dealt = [int(k) for k in (view.deal or {}).get("amounts", {})]
        query = query.where(or_(Player.place.is_not(None), Player.id.in_(dealt),
                                Player.status == "active" if bounty_winners and _bounty_event(view)
                                else false()))
    return query


def _prizes(view: Money, tournament_id: int, first: Any, last: Any,
            rows: list[ResultRow]) -> None:
    """Each placed row's prize: its place's amount, or its share of the places it ties
    for (every member of the tie counted, on this page or not, in player id order)."""
    firsts = sorted({row.place for row in rows if row.place is not None})
    if not firsts:
        return
    groups: dict[tuple[int, int], list[int]] = {}
    for pid, place, place_last in db.session.execute(
            select(Player.id, first, last).where(
                Player.tournament_id == tournament_id, first.in_(firsts))
            .order_by(Player.id)):
        groups.setdefault((place, place_last or place), []).append(pid)
    for row in rows:
        if row.place is None:
            continue
        place_first, place_last = row.place, row.place_last or row.place
        members = groups.get((place_first, place_last), [row.player_id])
        if place_last > place_first or len(members) > 1:
            places = list(range(place_first,
                                max(place_last, place_first + len(members) - 1) + 1))
            shares = split_tied_places(view.amounts, places, unit=view.unit) \
                if view.amounts else (0,) * len(places)
            index = members.index(row.player_id) if row.player_id in members else 0
            row.prize = shares[index] if index < len(shares) else 0
        else:
            row.prize = view.amounts[place_first - 1] if place_first <= len(view.amounts) else 0


def _bounty_event(view: Money) -> bool:
    return bool(view.bounty or view.bounties)


def _still_in_at_the_end(view: Money) -> set[int]:
    """The players who collect their own bounty: the winner, or everyone in a deal that
    shared out all the money (the event ended with them still in)."""
    deal = view.deal or {}
    if deal and not deal.get("left_to_play"):
        return {int(pid) for pid in deal.get("player_ids", [])}
    return set(db.session.scalars(select(Player.id).where(
        Player.tournament_id == view.tournament.id, Player.status == "active",
        Player.place == 1)))


def _bounties_and_seats(view: Money, players: list[Any], rows: list[ResultRow]) -> None:
    """Each result's bounties won and who knocked him out; a satellite's seat winners.

    A bounty event reads the knockouts (who won what is kept on the busted player);
    otherwise only the rows' own."""
    event = bounty_service.setting(view.tournament.id)
    if _bounty_event(view):
        knocked = {p.id: p for p in db.session.execute(select(*_RESULT_COLUMNS).where(
            Player.tournament_id == view.tournament.id, Player.knockout.is_not(None)))}
        won = bounty_service.won({**knocked, **{p.id: p for p in players}}.values(), event,
                                 _still_in_at_the_end(view))
    else:
        won = {}
    by = bounty_service.knocked_out_by(players)
    wanted = {pid for pids in by.values() for pid in pids}
    names = dict(db.session.execute(select(Player.id, Player.name).where(
        Player.id.in_(list(wanted)))).all()) if wanted else {}
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


@dataclass(frozen=True)
class PrizePaid:
    """A prize payment's line, and whether it was recorded by an earlier copy of the
    request (``repeated``: the same key sent again)."""

    payment: Payment
    repeated: bool = False


@unit_of_work
def pay_prize(tournament_id: int, player_id: Any, request_key: Any = None) -> PrizePaid:
    """Record that a finished player was paid his prize (the ledger's payout line).

    ``request_key``: the same payment sent again (a double click, a retry) is recorded
    once and answered as the first, ``repeated``, also a copy that lost the race to its
    twin (refused as "already paid" by the twin's line); the key sent to pay another
    player is refused, naming it."""
    key = request_key_of(request_key)
    return retry_on_conflict(lambda: _pay_prize(tournament_id, player_id, key),
                             lost=(StaleDataError, IntegrityError),
                             twin=lambda: twin_came_first(tournament_id, key))


def _pay_prize(tournament_id: int, player_id: Any, key: str | None) -> PrizePaid:
    earlier = payment_for_request(tournament_id, key)
    if earlier is not None:
        if earlier.kind != PAYOUT or earlier.player_id != player_id:
            raise sent_for_another(earlier)
        return PrizePaid(earlier, repeated=True)
    player = player_in(tournament_id, player_id)
    if get_tournament(tournament_id).lifecycle is Status.CANCELLED:
        lifecycle_service.verify_open(tournament_id)   # paying a finished event's prizes is fine
    view, rows = results(tournament_id, player_ids=[player.id])
    row = rows[0]
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
    return PrizePaid(payment)


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
                                 view.bounties, _still_in_at_the_end(view))
