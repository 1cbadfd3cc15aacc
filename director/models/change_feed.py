"""The change feed's table: how several server processes on one SQLite file tell
each other what changed (``director.services.change_feed.TableFeed``).

One row per committed change, written right after the commit; every process
reads the rows after the last one it saw, a fraction of a second later, and
pushes them to its own screens.  Rows older than a few minutes are deleted.
On PostgreSQL (LISTEN/NOTIFY) and in one process (in memory) it stays empty.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow


class ChangeFeedEntry(Base):
    __tablename__ = "change_feed"
    # AUTOINCREMENT: an id is never used twice, even after the oldest rows are deleted,
    # so "the rows after the last one I saw" misses nothing.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    tournament_id: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))       # clock, structure, seating, money, ...
    payload: Mapped[str] = mapped_column(Text)          # the change as JSON (change_feed.Change)
