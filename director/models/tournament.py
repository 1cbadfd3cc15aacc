"""A tournament: its name, its blind structure and the state of its clock.

The structure is stored as a JSON list of levels and breaks, and it passes
through ``director.tournament.structure.parse_levels`` on every save, so an
invalid structure never reaches the database.  The clock is stored as
timestamps (``director.tournament.clock.ClockState``), never as a countdown.

``version`` goes up on every change to the row.  It is the optimistic lock
(SQLAlchemy's ``version_id_col``: two writers cannot silently overwrite each
other) and the signal the live screens of other processes watch for.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column, validates

from director.db import Base, UTCDateTime, utcnow
from director.tournament import clock as clock_rules
from director.tournament.clock import ClockState
from director.tournament.lifecycle import Status, status_of
from director.tournament.structure import (
    Level,
    Message,
    Structure,
    StructureError,
    parse_levels,
)

NAME_MAX = 100
MAX_DURATION_SECONDS = 24 * 3600
ANNOUNCEMENT_MAX = 280
MAX_CHIPS = 10**12  # far above any real stake, and exact in every screen's JavaScript
AMOUNTS = ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "bring_in")


def check_limits(levels: tuple[Level, ...], path: str = "levels") -> None:
    """Bounds the structure rules leave open, so that clock arithmetic and the
    screens never overflow: a level lasts at most 24 hours, an amount is at
    most 10^12 chips.  Raises ``StructureError`` naming the field."""
    errors: dict[str, str] = {}
    for i, level in enumerate(levels):
        if level.duration_seconds > MAX_DURATION_SECONDS:
            errors[f"{path}[{i}].duration_seconds"] = Message(
                "A level or break may last at most 24 hours ({seconds} seconds)",
                seconds=MAX_DURATION_SECONDS)
        for name in AMOUNTS:
            if getattr(level, name) > MAX_CHIPS:
                errors[f"{path}[{i}].{name}"] = Message("Amounts may be at most {chips:,} chips",
                                                        chips=MAX_CHIPS)
    if errors:
        raise StructureError(errors)


class Tournament(Base):
    __tablename__ = "tournament"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    levels: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)

    # The clock (director.tournament.clock.ClockState), stored as timestamps.
    level_index: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    elapsed_before: Mapped[float] = mapped_column(Float, default=0.0)
    running: Mapped[bool] = mapped_column(Boolean, default=False)

    # The event's default language ("en", "id", "sv"); None: each screen follows its browser.
    # A user's own choice (the switch in the page header) still wins (director.i18n).
    language: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)
    # The event's time zone (IANA, "Asia/Jakarta"): every time a person reads is shown in
    # it (director.local_time); None: the TIME_ZONE setting, else the laptop's zone.
    time_zone: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)

    # The event's life (director.tournament.lifecycle): "registering" until the clock
    # starts, then "running"; "finished" or "cancelled" freeze it until it is reopened.
    status: Mapped[str] = mapped_column(String(12), default="registering",
                                        server_default="registering")
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # Has the clock ever been started?  Set by its first start (``services.clock``) and
    # kept through a cancel, which stores another status, and through time added back to
    # a paused first level, after which the clock itself shows no time run.
    clock_started: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    # Issue 17: the announcement the projector's ticker shows (None: none), and the
    # event's chip denominations, smallest first (None: not given; colour-ups need it).
    announcement: Mapped[str | None] = mapped_column(String(ANNOUNCEMENT_MAX), nullable=True)
    chip_set: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    # Put away by the director: hidden from the default list of events (None: listed).
    archived_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    version: Mapped[int] = mapped_column(Integer, nullable=False)
    __mapper_args__ = {"version_id_col": version}

    @validates("levels")
    def _validate_levels(self, key: str, value: Any) -> list[dict[str, Any]]:
        """Every save goes through the pure parser; raises ``StructureError``."""
        levels = parse_levels(value)
        check_limits(levels)
        return [level.to_json() for level in levels]

    @property
    def structure(self) -> Structure:
        """The levels parsed, once for as long as they and the name stay the same (a bust
        parsed them 13-17 times: each parse is 0.3 ms for 30 levels, a comparison 5 µs)."""
        cached = self.__dict__.get("_structure")
        if cached is not None and cached[0] == self.levels and cached[1].name == self.name:
            return cached[1]
        structure = Structure(levels=parse_levels(self.levels), name=self.name)
        self.__dict__["_structure"] = (copy.deepcopy(self.levels), structure)
        return structure

    @property
    def started(self) -> bool:
        """Has the clock ever been started?  Its first start sets ``clock_started``
        (``services.clock``), which neither time added back to a paused first level nor
        a cancel undoes; the stored status and the clock itself say it too."""
        return self.was_started(self.status, self.clock, self.clock_started)

    @staticmethod
    def was_started(status: str | None, state: ClockState, clock_started: bool | None) -> bool:
        """``started`` of a stored status, clock and ``clock_started`` (read as columns,
        not as a row)."""
        return bool(clock_started) or status == Status.RUNNING.value \
            or clock_rules.has_run(state)

    @property
    def lifecycle(self) -> Status:
        """The status as the screens show it (``lifecycle.status_of``)."""
        return status_of(self.status, started=self.started)

    @property
    def clock(self) -> ClockState:
        return ClockState(
            level_index=self.level_index or 0,
            started_at=self.started_at,
            elapsed_before=self.elapsed_before or 0.0,
            running=bool(self.running),
        )

    @clock.setter
    def clock(self, state: ClockState) -> None:
        self.level_index = state.level_index
        self.started_at = state.started_at
        self.elapsed_before = state.elapsed_before
        self.running = state.running

    def __repr__(self) -> str:
        return f"<Tournament {self.id} {self.name!r}>"
