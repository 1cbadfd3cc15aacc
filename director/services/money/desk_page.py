"""The registration desk's page: the money, the players found, what each may buy and
why not, and the ledger's newest page.  Read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from director.db import db
from director.i18n import translate_violation
from director.models.seating import Player, Seat, SeatingTable
from director.models.tournament import Tournament
from director.poker.errors import RuleViolation
from director.services.money.payments import entries_of_players, ledger, person_of
from director.services.money.places import entries_made, final_place
from director.services.money.totals import money
from director.tournament.entries import EntryKind, PlayerEntries, verify_purchase
from director.tournament.lifecycle import verify_open


@dataclass
class DeskRow:
    player: Player
    entries: PlayerEntries
    can: dict[str, str | None]      # kind -> None (allowed) or the reason it is refused
    place: str = ""                 # the finishing place, as on the results page


DESK_ROWS = 60         # players shown on the desk (search to narrow)


def desk(tournament_id: int, query: Any = "", ledger_before: int | None = None) -> dict[str, Any]:
    """The registration desk: the money, the players found (the first ``DESK_ROWS``),
    what each may buy and why not, and the ledger's newest page."""
    view = money(tournament_id)
    closed = closed_reason(view.tournament)
    text = query if isinstance(query, str) else ""
    needle = person_of(text)[:80]
    # Only the names are read for a search (folded here: any case, accents ignored); the
    # rows shown are loaded, the rest not.  No search: the first page, and the count.
    everyone = select(Player).where(Player.tournament_id == tournament_id)
    if needle:
        found = [pid for pid, name in db.session.execute(everyone.with_only_columns(
            Player.id, Player.name).order_by(Player.name, Player.id))
            if needle in person_of(name)]
        matches = len(found)
        shown = {p.id: p for p in db.session.scalars(everyone.where(
            Player.id.in_(found[:DESK_ROWS])))}
        players = [shown[pid] for pid in found[:DESK_ROWS]]
    else:
        players = list(db.session.scalars(everyone.order_by(Player.name, Player.id)
                                          .limit(DESK_ROWS)))
        matches = len(players) if len(players) < DESK_ROWS else int(db.session.scalar(
            everyone.with_only_columns(func.count(Player.id))) or 0)
    entries = entries_made(tournament_id)
    bought_by = entries_of_players(tournament_id, players)
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
        place, last = final_place(player, entries)
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
    return {"money": view, "rows": rows, "query": text, "matches": matches,
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
