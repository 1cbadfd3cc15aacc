"""Hands dealt on the dealer tablets, their events, and the tablets themselves.

* ``DealerHand``: one hand at one table.  ``config`` is the engine's
  ``HandConfig`` as JSON; ``players`` maps each engine index to its seat,
  player id and name (the one place indices meet seats); ``level`` is the
  clock's level when the hand started (TDA RP-7).  ``version`` goes up on
  every accepted change (an event, an undo): the tablets' optimistic lock.
  ``chips_applied`` holds the chip changes written to the players when the
  hand finished (so an undo can take them back).
* ``HandEvent``: one engine event, in order (``seq``).  The hand's state is
  the replay of its events that are not ``undone`` (STYLE.md: persist the
  events).  ``idempotency_key`` is unique: a retried request finds its
  original answer in ``response`` and nothing is applied twice (another request
  with the key, told by ``digest``, is refused).
* ``HandLogEntry``: the audit trail of a hand (actions, undos, rulings,
  corrections), with who did it.
* ``DealerDevice``: a paired tablet: a bearer token (stored hashed) for one
  table; ``revoked_at`` ends it.  ``TablePairing``: the table's current
  pairing code.

Table ids are ``seating_table.id`` but carry no foreign key: a table that is
broken keeps its hand histories.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow
from director.models.requests import DIGEST_MAX


class DealerHand(Base):
    __tablename__ = "dealer_hand"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[int] = mapped_column(Integer, index=True)
    table_number: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)          # 1, 2, ... at this table
    game: Mapped[str] = mapped_column(String(8))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    level: Mapped[dict[str, Any]] = mapped_column(JSON)
    positions: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(12), default="playing")  # playing|finished|misdeal
    version: Mapped[int] = mapped_column(Integer, default=1)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)     # the last HandEvent.seq used
    chips_applied: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clock_call: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class HandEvent(Base):
    __tablename__ = "dealer_hand_event"
    __table_args__ = (UniqueConstraint("hand_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(
        ForeignKey("dealer_hand.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
    idempotency_key: Mapped[str | None] = mapped_column(String(100), unique=True, nullable=True)
    response: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The request that brought the key, but the key (``services.once.request_digest``):
    # another request with the key is refused.  None: kept before 0020, or no request.
    digest: Mapped[str | None] = mapped_column(String(DIGEST_MAX), nullable=True)
    undone: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class HandRequest(Base):
    """A write that is not an event (an undo, a ruling with no effect): its
    idempotency key and the answer it got, so a retry is answered the same."""

    __tablename__ = "dealer_request"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(100), unique=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("dealer_hand.id", ondelete="CASCADE"))
    response: Mapped[str] = mapped_column(Text)
    digest: Mapped[str | None] = mapped_column(String(DIGEST_MAX), nullable=True)   # as the event's
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class HandLogEntry(Base):
    __tablename__ = "dealer_hand_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(
        ForeignKey("dealer_hand.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    who: Mapped[str] = mapped_column(String(20))          # dealer | director
    text: Mapped[str] = mapped_column(Text)


class DealerDevice(Base):
    __tablename__ = "dealer_device"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[int] = mapped_column(Integer, index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class TablePairing(Base):
    __tablename__ = "dealer_pairing"

    table_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
