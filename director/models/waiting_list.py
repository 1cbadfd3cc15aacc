"""The waiting list (issue 17): players waiting for a seat in a full room, in order.

``WaitingEntry``: one name on the list.  Nobody on it has paid: the buy-in is
taken, through the desk's usual sale (the entry rules, late registration, the
starting stack), when a seat opens and the director seats him; then
``status`` is "seated" and ``player_id`` his entry.  "removed": taken off the
list by the director.  ``position`` orders the waiting entries (1 = next);
``request_key`` makes a retried post add one entry.  Alternates are the same
list: the first waiting player takes the seat of a registered player who did
not show up (``director.services.waiting_list.no_show``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow
from director.models.seating import PLAYER_NAME_MAX


class WaitingEntry(Base):
    __tablename__ = "waiting_list"
    __table_args__ = (UniqueConstraint("tournament_id", "request_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(PLAYER_NAME_MAX))
    position: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(12), default="waiting")  # waiting | seated | removed
    note: Mapped[str] = mapped_column(Text, default="")
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("player.id", ondelete="SET NULL"), nullable=True)
    request_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    @property
    def waiting(self) -> bool:
        return self.status == "waiting"

    def __repr__(self) -> str:
        return f"<WaitingEntry {self.id} {self.name!r} {self.status} #{self.position}>"
