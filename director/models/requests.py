"""The director's writes that a retry must not apply twice.

A clock control or a change of the event's status sent from the director's page
(or by an API client) may carry an ``idempotency_key``: the page puts one on
each click and sends the same request again, with the same key, when the answer
is lost on the room's Wi-Fi.  The key is kept here in the transaction of the
change it made, so that the request sent again finds it and changes nothing
(``services.once``).  Kept per event (deleted with it), with a digest of the
request it came with: the same key sent with another request is refused, not
answered as the first (revision 0019).

A request that makes something outside any event (a new event, a copy of one, a league,
a player's record) keeps its key in ``made_request``, with what it made (revision 0021):
one row a key, so that two copies of the request racing each other, in one process or
in several, make one thing.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow

KEY_MAX = 100      # ``schemas.IDEMPOTENCY_KEY_MAX``, as the dealer's requests' column
ACTION_MAX = 40
DIGEST_MAX = 64


class DirectorRequest(Base):
    __tablename__ = "director_request"
    __table_args__ = (UniqueConstraint("tournament_id", "idempotency_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id", ondelete="CASCADE"))
    idempotency_key: Mapped[str] = mapped_column(String(KEY_MAX))
    action: Mapped[str] = mapped_column(String(ACTION_MAX))      # "clock adjust", "cancel"
    # The request's route and content but its key (``services.once.request_digest``);
    # None: kept before 0019, or not made by a request.
    digest: Mapped[str | None] = mapped_column(String(DIGEST_MAX), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class MadeRequest(Base):
    __tablename__ = "made_request"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(KEY_MAX), unique=True)
    kind: Mapped[str] = mapped_column(String(20))        # the table of what it made
    made_id: Mapped[int] = mapped_column(Integer)        # its id there
    digest: Mapped[str | None] = mapped_column(String(DIGEST_MAX), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
