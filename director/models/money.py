"""Entries and money: the event's money settings and the ledger of every payment.

* ``MoneySettings``: one row per tournament: the buy-in and fee, the starting
  stack, re-entry, rebuys, add-on, late registration, guarantee, currency and
  rounding unit, and the payout template (``settings`` JSON, validated by
  ``director.services.money.save_settings`` into ``EntryRules``).  When late
  registration closes, the payout table is locked into ``locked_shares``.
  ``version`` is the optimistic lock.
* ``Payment``: one line of the ledger: a buy-in, re-entry, rebuy or add-on
  taken at the desk (``prize`` part + house ``fee``, the ``chips`` given), or
  a prize paid out (``kind`` "payout", ``prize`` the amount).  A line is never
  deleted: undo sets ``undone_at``.  ``player_id`` points at the seating
  registry's ``Player`` (an entry whose buy-in was undone loses its player
  row; the line keeps ``player_name``).  ``request_key`` makes a retried form
  post apply once.  A rebuy or add-on keeps ``stack_before`` and
  ``stack_after``, so that its undo restores the count from before it.

Amounts are integers in the currency's minor unit (cents), chips are integers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow


class MoneySettings(Base):
    __tablename__ = "money_settings"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The payout table (basis points) fixed when late registration closed; None while open.
    locked_shares: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    locked_entries: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The agreed deal, once saved: {"method", "player_ids", "stacks", "amounts", "at",
    # "left_to_play" (minor units still in play, won by the winner), "chips_in_play",
    # "stacks_reason" (why the stacks did not add up to the chips in play)}.
    deal: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    __mapper_args__ = {"version_id_col": version}


class Payment(Base):
    __tablename__ = "payment"
    __table_args__ = (UniqueConstraint("tournament_id", "request_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("player.id", ondelete="SET NULL"), nullable=True, index=True)
    player_name: Mapped[str] = mapped_column(String(80))
    person: Mapped[str] = mapped_column(String(80), index=True)  # casefolded name: one person's entries
    kind: Mapped[str] = mapped_column(String(12))  # buy-in | re-entry | rebuy | add-on | payout
    prize: Mapped[int] = mapped_column(BigInteger, default=0)
    fee: Mapped[int] = mapped_column(BigInteger, default=0)
    chips: Mapped[int] = mapped_column(BigInteger, default=0)
    # A rebuy's or add-on's player stack just before and just after it (the stack
    # counted at the desk plus its chips): its undo takes back the difference.
    stack_before: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    stack_after: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # The bounty part of a buy-in or re-entry (never in the prize pool); None: no bounty.
    bounty: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    level: Mapped[int] = mapped_column(Integer, default=0)
    note: Mapped[str] = mapped_column(Text, default="")
    request_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    @property
    def undone(self) -> bool:
        return self.undone_at is not None

    @property
    def total(self) -> int:
        """What changed hands: the price paid at the desk (bounty included), or the prize
        paid out."""
        return self.prize + self.fee + (self.bounty or 0)

    def __repr__(self) -> str:
        return f"<Payment {self.id} {self.kind} {self.player_name!r} {self.total}>"
