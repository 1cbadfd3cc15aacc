"""Which table, which hand: the rows a dealer service starts from (a 404 with a
sentence when there is none), and the number the table counts a hand by."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from director.db import db
from director.i18n import gettext as _
from director.models.hands import DealerHand
from director.models.seating import SeatingTable
from director.poker.state import Hand
from director.services import NotFound
from director.services.dealer.memory import cached_hand


def get_table(table_id: int) -> SeatingTable:
    table = db.session.get(SeatingTable, table_id) if 0 < table_id < 2**63 else None
    if table is None:
        raise NotFound(_("There is no table %(id)s", id=table_id))
    return table


def table_tournament(table_id: int) -> int:
    """The tournament of a table (in play, or one that dealt hands before it broke)."""
    table = db.session.get(SeatingTable, table_id) if 0 < table_id < 2**63 else None
    if table is not None:
        return table.tournament_id
    tid = db.session.scalar(select(DealerHand.tournament_id).where(DealerHand.table_id == table_id))
    if tid is None:
        raise NotFound(_("There is no table %(id)s", id=table_id))
    return int(tid)


def latest_hand(table_id: int) -> DealerHand | None:
    return db.session.scalar(select(DealerHand).where(DealerHand.table_id == table_id)
                             .order_by(DealerHand.number.desc()).limit(1))


def get_hand(hand_id: int) -> DealerHand:
    row = db.session.get(DealerHand, hand_id) if 0 < hand_id < 2**63 else None
    if row is None:
        raise NotFound(_("There is no hand %(id)s", id=hand_id))
    return row


def engine_hand(row: DealerHand) -> Hand:
    return cached_hand(row)


def get_table_or_history(table_id: int) -> None:
    table_tournament(table_id)


def shown_number(row: Any) -> int:
    """The number the table counts a hand by (``positions["hand_number"]``; a hand dealt
    before the count was kept: its row's number)."""
    return int((row.positions or {}).get("hand_number") or row.number)
