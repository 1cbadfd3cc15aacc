"""Players and their seats: the registry the seating rules work on.

* ``Player``: the minimal registry (name, chips, status, finishing place);
  the money issue adds buy-ins and entries to it.  ``entry_chips`` is the
  stack the player registered with, so that the chips in play (and the
  average stack) are known without counting every table.
* ``SeatingSettings``: one row per tournament: the event's
  ``director.tournament.seating.SeatingPolicy`` as JSON, the hand-for-hand
  state, the default starting stack.  ``version`` is the optimistic lock:
  two directors confirming at the same moment cannot both win.
* ``SeatingTable`` and ``Seat``: the pure ``Layout``, one row per table and
  per seated player.  ``layout_from_rows(rows_from_layout(L)) == L`` exactly
  (see ``director.services.seating.load_layout`` / ``store_layout``).
  What depends on the whole room (the breaking order, the halted tables) is
  derived from the layout when it is shown, never stored in a table's row.
* ``SeatingPlanRecord``: a plan proposed by the rules (pending), confirmed,
  discarded or undone, with the layout before and after it (undo).
* ``SeatingLogEntry``: the audit trail, one sentence per thing that happened.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow

PLAYER_NAME_MAX = 80


def folded(text: str) -> str:
    """Case- and accent-free text for matching: "Åsa Öberg" -> "asa oberg"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _folded_name(context: Any) -> str:
    return folded(str(context.get_current_parameters().get("name") or ""))


def name_key(name: str) -> str:
    """A player's name as his event compares it for "the same name": casefolded
    ("Åsa ÖBERG" and "åsa öberg" are one name, "Asa Oberg" another).  Worked out by
    Python and kept with the row (``Player.name_key``), not by the database's
    ``lower()``: SQLite's folds only A-Z, so it never matched "Åsa" with itself."""
    return name.casefold()


def _keyed_name(context: Any) -> str:
    return name_key(str(context.get_current_parameters().get("name") or ""))


class Player(Base):
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(PLAYER_NAME_MAX))
    # The name folded (:func:`folded`), made with the row (a name never changes): the
    # players' find-my-seat search compares it in the database.
    search_name: Mapped[str | None] = mapped_column(Text, default=_folded_name, nullable=True)
    # The name as "the same name" compares it (:func:`name_key`), made with the row.
    name_key: Mapped[str | None] = mapped_column(Text, default=_keyed_name, nullable=True)
    chips: Mapped[int] = mapped_column(BigInteger, default=0)
    entry_chips: Mapped[int] = mapped_column(BigInteger, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")  # active | eliminated
    # Finishing place; ``place_last`` is set when places were shared (a tie).
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    place_last: Mapped[int | None] = mapped_column(Integer, nullable=True)
    eliminated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # The event's entries when he went out (those registered up to ``eliminated_at``),
    # stored with it: an entry registered later finishes ahead of him, so his final
    # place is ``place`` plus the entries made since (``money.places.final_place``),
    # read without the event's history.  None while he is in (or placed by a deal).
    entries_when_out: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The table number and seat he went out from, so the director's undo of the
    # bust can put him back there (``seating.undo_elimination``).
    out_table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    out_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Bounty events (``director.tournament.bounties``): the bounty on his head now
    # (minor units; a PKO raises it with every knockout), and, once out, who knocked him
    # out: {"bounty", "by": [player ids], "paid": {id: cash}, "head": {id: added}}.
    bounty: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    knockout: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # The room's record of this player across events (``director.models.people``).
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("person.id", ondelete="SET NULL"), nullable=True, index=True)

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def place_label(self) -> str:
        if self.place is None:
            return ""
        if self.place_last and self.place_last != self.place:
            return f"{self.place}–{self.place_last} (shared)"
        return str(self.place)

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.name!r} {self.status}>"


# The chip leaders (``banners.chip_leaders``, in every clock state the screens are told):
# the biggest stacks of the event in the order they are shown, read from the top of the
# index instead of sorting the whole field at every change (revision 0014).
Index("ix_player_chip_leaders", Player.tournament_id, Player.chips.desc(), Player.name,
      Player.id)

# A player looked for by name in his event, whatever its case (an entry's "already a
# player called ...", a re-entry's record, a waiting list's seat): one index lookup, not
# a scan of every entry the event has had (revision 0017; its key 0018).
Index("ix_player_name_key", Player.tournament_id, Player.name_key)


class SeatingSettings(Base):
    __tablename__ = "seating_settings"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), primary_key=True)
    policy: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    hand_for_hand: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    starting_chips: Mapped[int] = mapped_column(BigInteger, default=10_000)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    __mapper_args__ = {"version_id_col": version}


class SeatingTable(Base):
    __tablename__ = "seating_table"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer)
    # The hand last dealt (``TableState.button_seat`` ...); None: stud or not placed.
    button_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    sb_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bb_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    game_is_stud: Mapped[bool] = mapped_column(Boolean, default=False)
    vacated: Mapped[list[int]] = mapped_column(JSON, default=list)


class Seat(Base):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("seating_table.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), unique=True)
    waiting: Mapped[bool] = mapped_column(Boolean, default=False)


class SeatingPlanRecord(Base):
    __tablename__ = "seating_plan"
    # The event's newest plan of a status (the pending one, at every late entry and
    # bust) is one step of this index, however many plans the event has made (0013).
    __table_args__ = (Index("ix_seating_plan_tournament_status", "tournament_id", "status", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    plan: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(12), default="pending")
    # pending | confirmed | discarded | undone
    layout_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    layout_after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class SeatingLogEntry(Base):
    __tablename__ = "seating_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournament.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    action: Mapped[str] = mapped_column(String(30))
    text: Mapped[str] = mapped_column(Text)
