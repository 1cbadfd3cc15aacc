"""House rules: the policy flags of RULES.md §11.1 that the director sets per tournament.

* ``HouseRules``: one row per tournament (none: every flag is the TDA 2024
  default).  ``hand`` holds the flags of one hand (``director.poker.policy.Policy``,
  copied into each new hand's configuration when it is dealt), ``rulings`` the
  flags of the floor rulings (``director.poker.rulings.RulingPolicy``), both as
  their ``to_json`` dicts.  ``version`` is the optimistic lock.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow


class HouseRules(Base):
    __tablename__ = "house_rules"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), primary_key=True)
    hand: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rulings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    __mapper_args__ = {"version_id_col": version}
