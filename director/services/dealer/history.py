"""A table's past hands: the list, the counts, each hand's events and its PHH file,
and the table's hands as a zip of PHH files."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from director.db import db
from director.models.hands import DealerHand
from director.poker.events import event_to_json
from director.poker.phh import to_phh
from director.services import get_tournament
from director.services.dealer.log import hand_awards
from director.services.dealer.memory import cached_hand, replay_together
from director.services.dealer.rows import table_tournament
from director.services.dealer.seats import Seating

HANDS_LISTED = 30       # the newest hands of a table the API lists ("older": the next page)


def hands_of_table(table_id: int, *, newest: int | None = None,
                   before: int | None = None) -> list[DealerHand]:
    """The table's hands in order; ``newest``: only the last ``newest`` of those numbered
    below ``before`` (the director's list shows a page), their events read in one query
    (a list of 200 hands ran 404 statements: each hand's events on their own)."""
    table_tournament(table_id)
    query = select(DealerHand).where(DealerHand.table_id == table_id)
    if before is not None:
        query = query.where(DealerHand.number < before)
    if newest is None:
        return list(db.session.scalars(query.order_by(DealerHand.number)))
    rows = list(db.session.scalars(query.order_by(DealerHand.number.desc()).limit(newest)))
    rows.reverse()
    replay_together(rows)
    return rows


@dataclass(frozen=True)
class HandPage:
    """A page of a table's hands, oldest first, and ``older``: the ``before`` of the
    hands older than these (None: these are the oldest)."""

    rows: list[DealerHand]
    older: int | None


def hand_page(table_id: int, *, before: int | None = None,
              newest: int | None = None) -> HandPage:
    """The table's newest ``newest`` hands with an id below ``before`` (the API's list:
    a table that dealt 300 hands answered them all, 21 KB), as the money API pages its
    ledger (``?before=``).  The rows only: no hand is replayed."""
    table_tournament(table_id)
    newest = newest or HANDS_LISTED
    query = select(DealerHand).where(DealerHand.table_id == table_id)
    if before is not None:
        query = query.where(DealerHand.id < before)
    rows = list(db.session.scalars(query.order_by(DealerHand.id.desc()).limit(newest + 1)))
    older = rows[newest - 1].id if len(rows) > newest else None
    rows = rows[:newest]
    rows.reverse()
    return HandPage(rows, older)


def award_text(row: DealerHand) -> list[str]:
    """What the dealer read out when the hand was over (each pot's award, the chips
    returned, the hands tabled), in the reader's language: the director's hand list
    shows these, not the whole tablet state (``hand_json`` read the hand's log and its
    last tap, two statements a hand)."""
    return hand_awards(cached_hand(row), Seating(row.players))[1]


def hand_counts(table_ids: Iterable[int]) -> dict[int, int]:
    """How many hands each table dealt, counted by the database."""
    ids = list(table_ids)
    if not ids:
        return {}
    return {int(table_id): int(count) for table_id, count in db.session.execute(
        select(DealerHand.table_id, func.count(DealerHand.id)).where(
            DealerHand.table_id.in_(ids)).group_by(DealerHand.table_id))}


def phh_text(row: DealerHand) -> str:

    hand = cached_hand(row)
    tournament = get_tournament(row.tournament_id)
    extra = {"event": tournament.name, "hand": row.number, "table": row.table_number,
             "players": [p["name"] for p in row.players],
             "seats": [p["seat"] for p in row.players],
             "year": row.started_at.year, "month": row.started_at.month,
             "day": row.started_at.day, "time_zone": "UTC"}
    return to_phh(hand, extra)


def event_list(row: DealerHand) -> list[dict[str, Any]]:
    return [event_to_json(e) for e in cached_hand(row).events]


def phh_name(row: DealerHand) -> str:
    return f"table{row.table_number}-hand{row.number:04d}.phh"


def phh_zip(table_id: int) -> bytes:

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for row in hands_of_table(table_id):
            if row.status != "playing":
                archive.writestr(phh_name(row), phh_text(row))
    return buffer.getvalue()


def finished_rows(rows: Iterable[DealerHand]) -> list[DealerHand]:
    return [r for r in rows if r.status != "playing"]
