"""The log of state changes: who did what, when (``director.services.audit``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow


class AuditEntry(Base):
    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    actor: Mapped[str] = mapped_column(String(40))        # director | dealer:table 3 | public | system
    action: Mapped[str] = mapped_column(String(120))      # "POST api.clock_control", "login"
    target: Mapped[str] = mapped_column(String(300))      # the path, or what was changed
    status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The change in the director's words (``audit.SENTENCES``): its kind (money, seating,
    # clock, structure, house_rules, dealer, event), the English msgid and its parameters,
    # translated when read.  NULL on a request line with no such change (the "technical" kind).
    kind: Mapped[str | None] = mapped_column(String(20), nullable=True, index=True)
    message: Mapped[str | None] = mapped_column(String(300), nullable=True)
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at.isoformat(), "actor": self.actor,
                "action": self.action, "target": self.target, "status": self.status,
                "details": self.details, "kind": self.kind or "technical",
                "message": self.message, "params": self.params}
