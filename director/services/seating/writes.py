"""How a seating write is done: the settings row is its lock, its input is checked
naming the field, the pure rules' refusals name it too, and it commits once with the
screens' change recorded (``services.uow``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask_babel import gettext as _
from sqlalchemy import func, inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, for_transaction, utcnow
from director.i18n import (
    N_,
    translate_violation,
)
from director.models.seating import (
    Player,
    SeatingSettings,
)
from director.poker.errors import RuleViolation
from director.schemas import whole_in
from director.services import (
    Invalid,
    all_or_nothing,
    get_tournament,
    uow,
)
from director.tournament.seating import (
    HandForHand,
    SeatingPolicy,
)

T = TypeVar("T")


WHOLE = re.compile(r"-?[0-9]{1,18}")  # ASCII digits only (int() refuses "²"), and no giants


CONFLICT = {"seating": N_("Someone else changed the seating at the same moment: "
                          "reload the page and try again")}


def _conflict() -> dict[str, str]:
    return {field: _(text) for field, text in CONFLICT.items()}


unit_of_work = all_or_nothing(CONFLICT, event=True)


def locked_settings(tournament_id: int) -> SeatingSettings:
    """The tournament's settings row, locked for this unit of work.

    Touching the row first (its ``version`` is the optimistic lock) takes
    the write lock at once, so two directors confirming at the same moment
    are serialised, and the second one is told the seating changed.
    """
    get_tournament(tournament_id)
    row = db.session.get(SeatingSettings, tournament_id)
    if row is None:
        row = SeatingSettings(tournament_id=tournament_id, policy=SeatingPolicy().to_json(),
                              hand_for_hand=HandForHand().to_json())
        db.session.add(row)
    row.updated_at = utcnow()
    db.session.flush()
    for_transaction(LOCKED)[tournament_id] = row.version
    return row


LOCKED = "director.seating.locked"  # for_transaction: event -> the version it locked


def _locked_now(tournament_id: int, settings: SeatingSettings) -> bool:
    """Whether :func:`locked_settings` wrote ``settings`` in the open transaction (and
    nothing took that write back since): its version is then this unit's already."""
    locked = for_transaction(LOCKED).get(tournament_id)
    if locked is None:
        return False
    state = inspect(settings)
    return state.persistent and "version" in state.dict and settings.version == locked


def commit_seating(tournament_id: int, settings: SeatingSettings, *,
                   commit: bool = True) -> None:
    """Record that the seating screens changed (``uow.screens``), then commit (the
    settings row is the lock; a lost race is ``Invalid(CONFLICT)``).  ``commit``
    false: flushed only, part of the caller's unit of work, which records the
    screens' change and commits its own part with it.

    The row's version moves once per unit of work: :func:`locked_settings` wrote it
    (the lock taken), so it is not written a second time here."""
    if not _locked_now(tournament_id, settings):
        settings.updated_at = utcnow()
    if not commit:
        db.session.flush()
        return
    uow.screens(tournament_id, "seating")
    try:
        uow.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        raise Invalid(_conflict()) from None


def apply_rule(field: str, action: Callable[[], T]) -> T:
    """Run a pure rule; its ``RuleViolation`` becomes ``Invalid`` naming ``field``."""
    try:
        return action()
    except RuleViolation as exc:
        db.session.rollback()
        raise Invalid({field: translate_violation(exc)}) from None


def whole_field(data: Mapping[str, Any], field: str, *, low: int, high: int,
                default: int | None = None, label: str | None = None) -> int | None:
    """A whole number from JSON or a form, within ``low``..``high``; raises Invalid
    (``schemas.whole_in``: out of range, negative or not, is "must be between")."""
    return whole_in(data, field, label or field, low=low, high=high, default=default)


def required_whole(data: Mapping[str, Any], field: str, *, low: int, high: int,
                   label: str) -> int:
    value = whole_field(data, field, low=low, high=high, label=label)
    if value is None:
        raise Invalid({field: _("%(label)s is required", label=label)})
    return value


def player_in(tournament_id: int, player_id: Any, field: str = "player_id") -> Player:
    if isinstance(player_id, str) and WHOLE.fullmatch(player_id.strip()):
        player_id = int(player_id)
    if isinstance(player_id, bool) or not isinstance(player_id, int):
        raise Invalid({field: _("Choose a player")})
    player = db.session.get(Player, player_id) if 0 < player_id < 2**63 else None
    if player is None or player.tournament_id != tournament_id:
        raise Invalid({field: _("There is no player %(player)s in this tournament",
                                player=player_id)})
    return player


def active_players(tournament_id: int) -> list[Player]:
    return list(db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.status == "active").order_by(Player.id)))


def active_count(tournament_id: int) -> int:
    """How many players are still in: counted by the database (loading each of a big
    event's 1,000 players to count them was a quarter of a bust's time)."""
    return int(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament_id, Player.status == "active")) or 0)
