"""Seating services: register, draw, eliminate, balance, break, reseat, hand-for-hand.

Each function is one unit of work (STYLE.md): load the rows, ask the pure
rules (``director.tournament.seating`` and ``button``), write, commit, then
publish a ``seating`` event (and the clock state, whose ``players_left`` and
``average_stack`` come from :func:`field_stats`) so every screen updates.

Nothing the rules *propose* is applied before the director confirms it: an
elimination stores the next step of ``plan_seating`` (a balance move, a
table to break, a redraw) as a *pending* plan; :func:`confirm_plan` applies
it and :func:`undo_last` takes the last confirmed plan back while nothing
has changed since.  A pending plan is replaced whenever the seating changes
under it (a bust, a hand dealt, a reseat), so it never goes stale.
The director's own actions (a late registrant's random seat, a reseat by
hand, the seat draw) take effect at once and are logged.

Bad input raises ``Invalid`` naming the field and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from flask_babel import gettext as _
from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, utcnow
from director.i18n import (
    N_,
    seating_text,
    translate_violation,
)
from director.models.money import MoneySettings
from director.models.seating import (
    PLAYER_NAME_MAX,
    Player,
    Seat,
    SeatingLogEntry,
    SeatingPlanRecord,
    SeatingSettings,
    SeatingTable,
)
from director.models.tournament import MAX_CHIPS
from director.poker.errors import RuleViolation
from director.schemas import SEATING_SETTINGS, whole_in
from director.services import (
    Invalid,
    NotFound,
    all_or_nothing,
    amounts,
    get_tournament,
    tournaments,
    uow,
)
from director.services.audit import Said
from director.tournament import clock as clock_rules
from director.tournament.button import seat_status
from director.tournament.room import SeatChoiceRefused, choose_seat, room_of
from director.tournament.seating import (
    STUD_MAX_SEATS,
    HandForHand,
    Layout,
    Move,
    PlanKind,
    SeatedPlayer,
    SeatingPlan,
    SeatingPolicy,
    TableState,
    announce_hand_for_hand,
    apply_moves,
    apply_plan,
    break_table,
    deal_hand,
    draw_seats,
    end_hand_for_hand,
    finish_hand_for_hand_hand,
    halted_tables,
    next_table_to_break,
    plan_seating,
    redraw_points,
    seat_new_player,
    seats_for_game,
    start_hand_for_hand,
)

T = TypeVar("T")
P = ParamSpec("P")
WHOLE = re.compile(r"-?[0-9]{1,18}")  # ASCII digits only (int() refuses "²"), and no giants
SEARCH_LIMIT = 12
SEARCH_MAX = 80
LOG_SHOWN = 40
OUT_SHOWN = 50          # the players out on the seating page and API, newest first
PLAYERS_SHOWN = 100     # the players still in on the seating page, a page at a time
TABLES_SHOWN = 20       # the tables drawn on the seating page, a page at a time


# ---------------------------------------------------------------- layout <-> rows

def load_layout(tournament_id: int, numbers: Iterable[int] | None = None) -> Layout:
    """The pure ``Layout`` of the tournament, from its table and seat rows
    (``numbers``: only these tables)."""
    # Plain rows, not ORM objects: read for every hand dealt, 300 tables at a big event.
    query = select(
        SeatingTable.id, SeatingTable.number, SeatingTable.size, SeatingTable.button_seat,
        SeatingTable.sb_seat, SeatingTable.bb_seat, SeatingTable.game_is_stud,
        SeatingTable.vacated).where(SeatingTable.tournament_id == tournament_id)
    seat_query = select(Seat.table_id, Seat.seat, Seat.waiting, Player.id, Player.name) \
        .join(Player, Player.id == Seat.player_id).where(Seat.tournament_id == tournament_id)
    if numbers is not None:
        wanted = list(numbers)
        query = query.where(SeatingTable.number.in_(wanted))
        seat_query = seat_query.join(SeatingTable, SeatingTable.id == Seat.table_id).where(
            SeatingTable.number.in_(wanted))
    tables = db.session.execute(query.order_by(SeatingTable.number)).all()
    seats: dict[int, dict[int, SeatedPlayer]] = {t.id: {} for t in tables}
    rows = db.session.execute(
        seat_query.order_by(Seat.table_id, Seat.seat)).all()  # seat order, on every database
    for table_id, seat, waiting, player_id, name in rows:
        seats[table_id][seat] = SeatedPlayer(player_id, name, bool(waiting))
    return Layout(tuple(
        TableState(number=t.number, size=t.size, seats=seats[t.id], button_seat=t.button_seat,
                   sb_seat=t.sb_seat, bb_seat=t.bb_seat, game_is_stud=bool(t.game_is_stud),
                   vacated=tuple(int(s) for s in (t.vacated or ())))
        for t in tables))


def store_layout(tournament_id: int, layout: Layout, *, stored: Layout | None = None) -> None:
    """Write ``layout`` over the stored one, changing only the rows that differ.

    Seats that change are deleted and flushed before the new ones are
    inserted, so the unique (table, seat) and (player) constraints hold at
    every statement, whatever order the players move in.

    ``stored``: what the rows hold now (``load_layout`` in this transaction).
    Given it, only the tables that differ from it are read and written: a hand
    dealt or a late entry at a 300-table event touches one table, not 1,800
    seats.
    """
    if stored is not None:
        _store_changes(tournament_id, stored, layout)
        return
    rows = {t.number: t for t in db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tournament_id))}
    by_id = {t.id: t.number for t in rows.values()}
    wanted = {p.player_id: (t.number, s, p.waiting)
              for t in layout.tables for s, p in t.seats.items()}
    # Plain rows, not ORM objects: a late entry at a 300-table event reads 1,800
    # seats and changes one; loading each as an object took most of its request.
    db.session.flush()
    existing = db.session.execute(select(Seat.id, Seat.player_id, Seat.table_id, Seat.seat,
                                         Seat.waiting).where(
        Seat.tournament_id == tournament_id)).all()
    keep: set[int] = set()
    gone: list[int] = []
    waiting_now: dict[bool, list[int]] = {True: [], False: []}
    for seat_id, player_id, table_id, seat_number, waiting in existing:
        target = wanted.get(player_id)
        if target is not None and target[:2] == (by_id[table_id], seat_number):
            if bool(waiting) != target[2]:
                waiting_now[target[2]].append(seat_id)
            keep.add(player_id)
        else:
            gone.append(seat_id)
    for chunk in _in_chunks(gone):
        db.session.execute(delete(Seat).where(Seat.id.in_(chunk)),
                           execution_options={"synchronize_session": "fetch"})
    for waiting, seat_ids in waiting_now.items():
        for chunk in _in_chunks(seat_ids):
            db.session.execute(update(Seat).where(Seat.id.in_(chunk)).values(waiting=waiting),
                               execution_options={"synchronize_session": "fetch"})
    for table in layout.tables:
        row = rows.pop(table.number, None)
        if row is None:
            row = SeatingTable(tournament_id=tournament_id, number=table.number)
            db.session.add(row)
        _write_table_row(row, table)
    for row in rows.values():                      # closed tables (their seats are gone)
        db.session.delete(row)
    db.session.flush()
    ids = {t.number: t.id for t in db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tournament_id))}
    for player_id, (number, seat_number, waiting) in wanted.items():
        if player_id not in keep:
            db.session.add(Seat(tournament_id=tournament_id, table_id=ids[number],
                                seat=seat_number, player_id=player_id, waiting=waiting))


def _write_table_row(row: SeatingTable, table: TableState) -> None:
    row.size = table.size
    row.button_seat, row.sb_seat, row.bb_seat = table.button_seat, table.sb_seat, table.bb_seat
    row.game_is_stud = table.game_is_stud
    row.vacated = list(table.vacated)


def _in_chunks(ids: list[int]) -> Iterable[list[int]]:
    """``ids`` 500 at a time: one ``IN (...)`` list stays under every database's limit."""
    return (ids[start:start + 500] for start in range(0, len(ids), 500))


def _store_changes(tournament_id: int, stored: Layout, layout: Layout) -> None:
    """``store_layout`` given what is stored: the rows of the tables that differ."""
    before = {t.number: t for t in stored.tables}
    after = {t.number: t for t in layout.tables}
    changed = {n for n in before.keys() | after.keys() if before.get(n) != after.get(n)}
    if not changed:
        return

    def places(tables: dict[int, TableState]) -> dict[int, tuple[int, int, bool]]:
        return {p.player_id: (n, s, p.waiting) for n in changed if n in tables
                for s, p in tables[n].seats.items()}

    old, new = places(before), places(after)
    db.session.flush()
    # A player who left a table that did not change cannot be: it would have changed.
    gone = [pid for pid, where in old.items() if new.get(pid, (0, 0, False))[:2] != where[:2]]
    for chunk in _in_chunks(gone):
        db.session.execute(delete(Seat).where(Seat.tournament_id == tournament_id,
                                              Seat.player_id.in_(chunk)),
                           execution_options={"synchronize_session": "fetch"})
    waiting_now: dict[bool, list[int]] = {True: [], False: []}
    for pid, where in old.items():
        if pid in new and new[pid][:2] == where[:2] and new[pid][2] != where[2]:
            waiting_now[new[pid][2]].append(pid)
    for waiting, player_ids in waiting_now.items():
        for chunk in _in_chunks(player_ids):
            db.session.execute(update(Seat).where(Seat.tournament_id == tournament_id,
                                                  Seat.player_id.in_(chunk))
                               .values(waiting=waiting),
                               execution_options={"synchronize_session": "fetch"})
    rows = {t.number: t for t in db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tournament_id, SeatingTable.number.in_(changed)))}
    for number in sorted(changed):
        row = rows.get(number)
        if number not in after:
            if row is not None:
                db.session.delete(row)          # a closed table (its seats are gone)
            continue
        if row is None:
            row = rows[number] = SeatingTable(tournament_id=tournament_id, number=number)
            db.session.add(row)
        _write_table_row(row, after[number])
    db.session.flush()
    for pid, (number, seat_number, waiting) in new.items():
        if pid not in old or old[pid][:2] != (number, seat_number):
            db.session.add(Seat(tournament_id=tournament_id, table_id=rows[number].id,
                                seat=seat_number, player_id=pid, waiting=waiting))


# ---------------------------------------------------------------- helpers

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
    return row


def _stored_policy(row: SeatingSettings | None) -> SeatingPolicy:
    """The settings as the director saved them (the form shows and keeps these)."""
    return SeatingPolicy.from_json(row.policy) if row is not None and row.policy \
        else SeatingPolicy()


def has_stud_levels(tournament_id: int) -> bool:
    """Whether the structure has seven-card stud levels (tables then seat at most 8)."""
    return any(level.game is not None and level.game.is_stud
               for level in get_tournament(tournament_id).structure.levels)


def entrants(tournament_id: int) -> int:
    """The size of the field: every entry, in or out."""
    return int(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament_id)) or 0)


def settings_policy(row: SeatingSettings | None, tournament_id: int | None = None) -> SeatingPolicy:
    """The policy the rules follow: the stored one, at most 8-handed when the structure
    has stud levels (:func:`seats_for_game`), with the redraws at 3 and 2 tables only
    for a field of 100 or more whose house asked for them (:func:`redraw_points`)."""
    stored = _stored_policy(row)
    tid = row.tournament_id if row is not None else tournament_id
    if tid is None:
        return stored
    policy = seats_for_game(stored, stud_levels=has_stud_levels(tid))
    if not policy.stud_only and stud_only_structure(tid):
        # Every level is stud: no button, no blinds (RULES.md §1.6, TDA 11-A stud
        # balancing), whatever was stored, so no move mentions them.
        policy = replace(policy, stud_only=True)
    return redraw_points(policy, entrants(tid)) if policy.redraw_big_field else policy


def stud_only_structure(tournament_id: int) -> bool:
    """Whether every level of the structure (breaks aside) is seven-card stud."""
    games = [level.game for level in get_tournament(tournament_id).structure.levels
             if not level.is_break]
    return bool(games) and all(game is not None and game.is_stud for game in games)


def policy_for(tournament_id: int) -> SeatingPolicy:
    return settings_policy(db.session.get(SeatingSettings, tournament_id), tournament_id)


def seating_log(tournament_id: int, action: str, lines: Iterable[str]) -> None:
    """The seating log's lines, stored language-neutral when they are ``audit.Said``
    sentences (read in each reader's language: ``audit.said_again``)."""
    for line in lines:
        db.session.add(SeatingLogEntry(tournament_id=tournament_id, action=action,
                                       text=line.stored() if isinstance(line, Said) else line))


def place_said(player: Player) -> Any:
    """A finishing place as a log parameter: 3, or "3–4 (shared)" said when read."""
    if player.place_last and player.place_last != player.place:
        return Said(N_("%(first)s–%(last)s (shared)"), first=player.place,
                    last=player.place_last)
    return player.place


def _said_move(move: Move) -> Said:
    """``i18n.move_text`` kept language-neutral for the log."""
    to = Said(N_("table %(table)s seat %(seat)s"), table=move.to_table, seat=move.to_seat)
    note = Said(" (%(note)s)", note={"seating": move.note}) if move.note else ""
    if move.from_table is None:
        return Said("%(name)s: %(to)s%(note)s", name=move.name, to=to, note=note)
    return Said("%(name)s: %(from)s → %(to)s%(note)s", name=move.name, to=to, note=note,
                **{"from": Said(N_("table %(table)s seat %(seat)s"), table=move.from_table,
                                seat=move.from_seat)})


def _said_plan(plan: SeatingPlan) -> list[Said]:
    """``i18n.plan_lines`` kept language-neutral for the log."""
    lines = [Said("%(note)s", note={"seating": plan.note})] if plan.note else []
    lines += [Said(N_("Floor: %(note)s"), note={"seating": text}) for text in plan.floor_notes]
    lines += [Said(N_("Open table %(table)s (%(size)s seats)"), table=n, size=size)
              for n, size in sorted(plan.open_tables.items())]
    lines += [_said_move(m) for m in plan.moves]
    lines += [Said(N_("Table %(table)s: button starts in seat %(seat)s"), table=n, seat=seat)
              for n, seat in sorted(plan.buttons.items())]
    lines += [Said(N_("Close table %(table)s"), table=n) for n in plan.close_tables]
    return lines


def commit_seating(tournament_id: int, settings: SeatingSettings, *, tell: bool = True,
            commit: bool = True) -> None:
    """Commit (the settings row is the lock), then tell every screen (``tell``
    false: the caller tells them once its own part is committed; ``commit``
    false: flushed only, the caller commits its own part with it)."""
    settings.updated_at = utcnow()
    if not commit:
        db.session.flush()
        return
    if tell:
        publish(tournament_id)
    try:
        uow.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        raise Invalid(_conflict()) from None


def publish(tournament_id: int, *, clock: bool = True, kind: str = "seating") -> None:
    """Record that the seating screens changed, and (unless ``clock`` is false: only
    chips moved between players, so the players left and the average stack are the
    same) the clock state the projector shows; they are told after the commit
    (``services.publishing``).  ``kind``: what changed (the change feed's word:
    seating, money, hands)."""
    uow.screens(tournament_id, kind, clock=clock)


def apply_rule(field: str, action: Callable[[], T]) -> T:
    """Run a pure rule; its ``RuleViolation`` becomes ``Invalid`` naming ``field``."""
    try:
        return action()
    except RuleViolation as exc:
        db.session.rollback()
        raise Invalid({field: translate_violation(exc)}) from None


def _int(data: Mapping[str, Any], field: str, *, low: int, high: int,
         default: int | None = None, label: str | None = None) -> int | None:
    """A whole number from JSON or a form, within ``low``..``high``; raises Invalid
    (``schemas.whole_in``: out of range, negative or not, is "must be between")."""
    return whole_in(data, field, label or field, low=low, high=high, default=default)


def _required_int(data: Mapping[str, Any], field: str, *, low: int, high: int,
                  label: str) -> int:
    value = _int(data, field, low=low, high=high, label=label)
    if value is None:
        raise Invalid({field: _("%(label)s is required", label=label)})
    return value


def check_player_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise Invalid({"name": _("The player needs a name")})
    if any(unicodedata.category(char) == "Cc" for char in name.replace("\t", " ")):
        raise Invalid({"name": _("The name may not contain control characters")})
    name = " ".join(name.split())
    if len(name) > PLAYER_NAME_MAX:
        raise Invalid({"name": _("The name may be at most %(max)s characters long",
                                 max=PLAYER_NAME_MAX)})
    return name


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


def _pending(tournament_id: int) -> SeatingPlanRecord | None:
    return _newest_plan(tournament_id, "pending")


def _last_confirmed(tournament_id: int) -> SeatingPlanRecord | None:
    return _newest_plan(tournament_id, "confirmed")


def _newest_plan(tournament_id: int, status: str) -> SeatingPlanRecord | None:
    # The layout before it is read only when it is confirmed or undone: the
    # seating page shows the plan, and at a 300-table event that layout is 1,800 seats.
    return db.session.scalars(select(SeatingPlanRecord).options(
        defer(SeatingPlanRecord.layout_before)).where(
        SeatingPlanRecord.tournament_id == tournament_id,
        SeatingPlanRecord.status == status).order_by(SeatingPlanRecord.id.desc()).limit(1)).first()


# What a plan's record keeps of the room (issue 29: each plan stored the whole room
# twice, 75 MB of a 107 MB database at 2,400 entries).  ``layout_before``: the room's
# digest (a plan proposed for another room is refused) and, once confirmed, the tables
# the plan changed as they were; ``layout_after``: the room's digest after it and the
# numbers of the tables it changed.  Undo puts those tables back.  A record of an
# earlier version (the whole room, ``{"tables": [...]}``) is read as before.

def layout_digest(layout: Layout) -> str:
    """A fingerprint of the whole room: equal digests, equal seating."""
    text = json.dumps(layout.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _is_room(stored: Mapping[str, Any] | None, layout: Layout) -> bool:
    """Whether a record's ``layout_before``/``layout_after`` is the room ``layout``."""
    if stored is None:
        return not layout.tables
    if "digest" in stored:
        return bool(stored["digest"] == layout_digest(layout))
    return Layout.from_json(stored) == layout


def _changes(before: Layout, after: Layout) -> tuple[dict[str, Any], dict[str, Any]]:
    """``layout_before`` and ``layout_after`` of a plan that made ``after`` of ``before``."""
    old = {t.number: t for t in before.tables}
    new = {t.number: t for t in after.tables}
    changed = sorted(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))
    return ({"digest": layout_digest(before),
             "tables": [old[n].to_json() for n in changed if n in old]},
            {"digest": layout_digest(after), "numbers": changed})


def _room_before(record: SeatingPlanRecord, now: Layout) -> Layout:
    """The room before the confirmed plan of ``record``, from the room ``now`` after it."""
    stored = record.layout_before
    if "digest" not in stored:
        return Layout.from_json(stored)
    changed = set((record.layout_after or {}).get("numbers", ()))
    kept = [t for t in now.tables if t.number not in changed]
    return Layout(tuple(kept + [TableState.from_json(t) for t in stored.get("tables", ())]))


def _discard_pending(tournament_id: int, now: datetime) -> None:
    # One UPDATE: loading the plan to change its status read its layout too (a
    # late entry at a 300-table event discards one, 1,800 seats of JSON).
    db.session.execute(update(SeatingPlanRecord).where(
        SeatingPlanRecord.tournament_id == tournament_id,
        SeatingPlanRecord.status == "pending").values(status="discarded", decided_at=now))


def _propose(tournament_id: int, layout: Layout, plan: SeatingPlan) -> SeatingPlanRecord | None:
    """Store ``plan`` as the one pending plan (nothing when the rules propose nothing)."""
    _discard_pending(tournament_id, utcnow())
    if plan.kind is PlanKind.NONE:
        return None
    record = SeatingPlanRecord(tournament_id=tournament_id, kind=plan.kind.value,
                               plan=plan.to_json(), status="pending",
                               layout_before={"digest": layout_digest(layout)})
    db.session.add(record)
    return record


def replan(tournament_id: int, layout: Layout, policy: SeatingPolicy,
            rng: random.Random | None = None) -> SeatingPlanRecord | None:
    """After any change: the rules' next step (TDA 10, 11) becomes the pending plan."""
    if not layout.tables:
        _discard_pending(tournament_id, utcnow())
        return None
    plan = apply_rule("plan", lambda: plan_seating(layout, policy, rng))
    return _propose(tournament_id, layout, plan)


_replan = replan   # money's name for it until money calls ``replan``


def active_players(tournament_id: int) -> list[Player]:
    return list(db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.status == "active").order_by(Player.id)))


# ---------------------------------------------------------------- reading

_FIELD_STATS = select(func.count(Player.id).filter(Player.status == "active"),
                      func.coalesce(func.sum(Player.entry_chips), 0)).where(
    Player.tournament_id == bindparam("tournament_id"))
"""Built once: read after every hand that moves chips (the projector's figures)."""


def field_stats(tournament_id: int) -> dict[str, int | None]:
    """Players left and the average stack, for the clock JSON and the projector.

    The chips in play are the stacks the players registered with (chips do
    not leave the game when a player busts), so the average stack is
    ``sum(entry stacks) // players left``.
    """
    left, chips = db.session.execute(_FIELD_STATS, {"tournament_id": tournament_id}).one()
    if not left:
        return {"players_left": None, "average_stack": None}
    return {"players_left": int(left), "average_stack": int(chips) // int(left)}


def hand_for_hand_on(tournament_id: int) -> bool:
    """Whether hand-for-hand is on (every table deals one hand and waits): the clock JSON's
    ``hand_for_hand``, so the projector can say why the clock is paused."""
    row = db.session.get(SeatingSettings, tournament_id)
    return row is not None and HandForHand.from_json(row.hand_for_hand or {}).on


# What the seating pages show of each player (``Overview.players``).
SHOWN_PLAYER_COLUMNS = (Player.id, Player.name, Player.chips, Player.status, Player.place,
                        Player.place_last, Player.eliminated_at)


@dataclass
class Overview:
    """Everything the director's seating page shows.  ``players``: rows of
    ``SHOWN_PLAYER_COLUMNS``, read by attribute (``p.name``, ``p.status``)."""

    tournament: Any
    policy: SeatingPolicy
    settings: SeatingSettings | None
    layout: Layout
    players: list[Any]
    where: dict[int, tuple[int, int]]
    pending: SeatingPlanRecord | None
    pending_plan: SeatingPlan | None
    last_confirmed: SeatingPlanRecord | None
    can_undo: bool
    hand_for_hand: HandForHand
    halted: list[int]
    breaking_order: list[int]
    stats: dict[str, int | None]
    log: list[SeatingLogEntry]
    starting_stack: int = 0      # the event's, from the money settings
    money_ready: bool = False    # the money settings are saved: entries can be taken
    stud_levels: bool = False    # the structure has stud levels: at most 8 a table
    stored: SeatingPolicy = SeatingPolicy()   # the settings as saved (the form)
    entrants: int = 0            # the field (every entry): redraws at 3 and 2 tables from 100
    out_count: int = 0           # every player out (``players`` holds the newest OUT_SHOWN)
    # The page's slices (``overview(..., paged=True)``); else every table, every player in.
    shown_tables: list[TableState] | None = None
    query: str = ""              # the name or table number searched
    start: int = 0               # the first player shown of those found
    found: int = 0               # the players in found by the search (all: no search)
    more: bool = False           # more players in than shown from ``start``
    table_start: int = 0         # the first table drawn (index in the layout)
    table_chips: dict[int, int] | None = None   # the chips of the players at the tables drawn

    @property
    def drawn(self) -> bool:
        return bool(self.layout.tables)

    @property
    def active(self) -> list[Any]:
        return [p for p in self.players if p.status == "active"]

    @property
    def eliminated(self) -> list[Any]:
        out = [p for p in self.players if p.status != "active"]
        return sorted(out, key=lambda p: (p.place or 0, p.id))

    @property
    def unseated(self) -> list[Any]:
        return [p for p in self.active if p.id not in self.where]

    def chips(self) -> dict[int, int]:
        chips = {p.id: p.chips for p in self.players}
        return {**chips, **self.table_chips} if self.table_chips else chips

    @property
    def tables_drawn(self) -> list[TableState]:
        return list(self.layout.tables) if self.shown_tables is None else self.shown_tables


def _table_number(query: str) -> int | None:
    return int(query) if WHOLE.fullmatch(query) and 0 < int(query) < 10_000 else None


def overview(tournament_id: int, *, paged: bool = False, query: str = "", start: int = 0,
             table_start: int = 0) -> Overview:
    """The seating page's view.  ``paged``: the page's slices, so it costs the same at
    any size: the players in ``PLAYERS_SHOWN`` from ``start`` (those whose name contains
    ``query``, or seated at table ``query`` when it is a number) and ``TABLES_SHOWN``
    tables drawn from ``table_start`` (the table searched, if any)."""
    if not paged:
        return _overview(tournament_id)
    query = query.strip()[:SEARCH_MAX]
    view = _overview(tournament_id, paged=True)
    number = _table_number(query)
    active = select(*SHOWN_PLAYER_COLUMNS).where(Player.tournament_id == tournament_id,
                                                 Player.status == "active")
    if number is not None:
        seated = [p.player_id for t in view.layout.tables if t.number == number
                  for p in t.seats.values()]
        active = active.where(Player.id.in_(seated))
    elif query:
        escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        # ilike: SQLite lowers both sides alike (ASCII only: "Åsa" finds Åsa, not "åsa")
        active = active.where(Player.name.ilike(f"%{escaped}%", escape="\\"))
    start = max(0, start)
    rows = list(db.session.execute(active.order_by(Player.name, Player.id)
                                   .offset(start).limit(PLAYERS_SHOWN + 1)))
    view.more = len(rows) > PLAYERS_SHOWN
    rows = rows[:PLAYERS_SHOWN]
    view.found = (view.stats["players_left"] or 0) if not query else int(db.session.scalar(
        active.with_only_columns(func.count(Player.id)).order_by(None)) or 0)
    view.players = sorted(rows + [p for p in view.players if p.status != "active"],
                          key=lambda p: (p.name, p.id))
    tables = list(view.layout.tables)
    if number is not None:
        shown = [t for t in tables if t.number == number]
        table_start = 0
    else:
        table_start = min(max(0, table_start), max(0, len(tables) - 1))
        shown = tables[table_start:table_start + TABLES_SHOWN]
    ids = [p.player_id for t in shown for p in t.seats.values()]
    view.table_chips = dict(db.session.execute(select(Player.id, Player.chips).where(
        Player.id.in_(ids or [0]))).all())
    view.shown_tables, view.query, view.start, view.table_start = shown, query, start, table_start
    return view


def _overview(tournament_id: int, paged: bool = False) -> Overview:
    tournament = get_tournament(tournament_id)
    settings = db.session.get(SeatingSettings, tournament_id)
    policy = settings_policy(settings, tournament_id)
    layout = load_layout(tournament_id)
    # Plain rows, not ORM objects: a 300-table event has 1,800 players, and loading
    # each as an object took half of the page (and of every seating API answer).
    # The players still in, and the newest ``OUT_SHOWN`` out (the results list them
    # all): the page does not grow with every entry the event ever had.
    players = [] if paged else list(db.session.execute(select(*SHOWN_PLAYER_COLUMNS).where(
        Player.tournament_id == tournament_id, Player.status == "active")
        .order_by(Player.name, Player.id)))
    out = list(db.session.execute(select(*SHOWN_PLAYER_COLUMNS).where(
        Player.tournament_id == tournament_id, Player.status != "active")
        .order_by(Player.eliminated_at.desc(), Player.id.desc()).limit(OUT_SHOWN)))
    out_count = len(out) if len(out) < OUT_SHOWN else int(db.session.scalar(
        select(func.count(Player.id)).where(Player.tournament_id == tournament_id,
                                            Player.status != "active")) or 0)
    players = sorted(players + out, key=lambda p: (p.name, p.id))
    where = {p.player_id: (t.number, s) for t in layout.tables for s, p in t.seats.items()}
    pending = _pending(tournament_id)
    last = _last_confirmed(tournament_id)
    can_undo = last is not None and _is_room(last.layout_after, layout)
    log = list(db.session.scalars(select(SeatingLogEntry).where(
        SeatingLogEntry.tournament_id == tournament_id)
        .order_by(SeatingLogEntry.id.desc()).limit(LOG_SHOWN)))
    h4h = HandForHand.from_json(settings.hand_for_hand or {}) if settings else HandForHand()
    return Overview(
        tournament=tournament, policy=policy, settings=settings, layout=layout, players=players,
        where=where, pending=pending,
        pending_plan=SeatingPlan.from_json(pending.plan) if pending else None,
        last_confirmed=last, can_undo=can_undo, hand_for_hand=h4h,
        halted=halted_tables(layout, policy),
        breaking_order=sorted(layout.numbers, key=policy.breaking_rank),
        stats=field_stats(tournament_id), log=log,
        starting_stack=_event_stack(tournament_id),
        money_ready=db.session.get(MoneySettings, tournament_id) is not None,
        stud_levels=has_stud_levels(tournament_id), stored=_stored_policy(settings),
        entrants=entrants(tournament_id), out_count=out_count)


@dataclass
class Changed:
    """What a seating write changed, for its answer: the tables it touched as they are
    now (``gone``: those it broke), the players it touched, the field's figures and the
    plan pending.  A bust at a 2,400-entry event answered the whole room (300-400 KB)."""

    tables: list[TableState]
    gone: list[int]
    players: list[Any]
    stats: dict[str, int | None]
    pending: SeatingPlanRecord | None


def changed(tournament_id: int, tables: Iterable[int | None],
            player_ids: Iterable[int]) -> Changed:
    """The tables numbered ``tables`` and the players ``player_ids`` as they are now."""
    numbers = sorted({n for n in tables if n is not None})
    found = load_layout(tournament_id, numbers).tables if numbers else ()
    ids = sorted(set(player_ids))
    players = list(db.session.execute(select(*SHOWN_PLAYER_COLUMNS).where(
        Player.tournament_id == tournament_id, Player.id.in_(ids)).order_by(Player.id))) \
        if ids else []
    present = {t.number for t in found}
    return Changed(list(found), [n for n in numbers if n not in present], players,
                   field_stats(tournament_id), _pending(tournament_id))


def out_tables(tournament_id: int, player_ids: list[int]) -> set[int | None]:
    """The tables these busted players went out from."""
    return set(db.session.scalars(select(Player.out_table).where(
        Player.tournament_id == tournament_id, Player.id.in_(player_ids)))) if player_ids else set()


def plan_record(tournament_id: int, plan_id: int | None) -> tuple[SeatingPlanRecord, SeatingPlan]:
    """A plan for the printable move slips: the one named, else pending, else last confirmed."""
    get_tournament(tournament_id)
    if plan_id is not None:
        record = db.session.get(SeatingPlanRecord, plan_id) if 0 < plan_id < 2**63 else None
        if record is None or record.tournament_id != tournament_id:
            raise NotFound(_("There is no seating plan %(plan)s in this tournament", plan=plan_id))
    else:
        record = _pending(tournament_id) or _last_confirmed(tournament_id)
        if record is None:
            raise NotFound(_("There are no moves to print yet"))
    return record, SeatingPlan.from_json(record.plan)


def _fold(text: str) -> str:
    """Case- and accent-free text for matching: "Åsa Öberg" -> "asa oberg"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def find_seat(tournament_id: int, query: Any, limit: int = SEARCH_LIMIT) -> dict[str, Any]:
    """Players whose name contains ``query`` (any case, accents ignored), with table and seat.

    Only the first ``limit`` matches are returned, best first (names that
    start with the query, then alphabetical), so the answer stays small
    whatever the field size.
    """
    get_tournament(tournament_id)
    if not isinstance(query, str):
        raise Invalid({"q": _("Type part of your name")})
    if len(query) > SEARCH_MAX:
        raise Invalid({"q": _("Type at most %(max)s characters", max=SEARCH_MAX)})
    needle = _fold(" ".join(query.split()))
    if not needle:
        return {"query": query, "matches": [], "total": 0}
    rows = db.session.execute(
        select(Player.name, SeatingTable.number, Seat.seat, Seat.waiting)
        .join(Seat, Seat.player_id == Player.id)
        .join(SeatingTable, SeatingTable.id == Seat.table_id)
        .where(Player.tournament_id == tournament_id, Player.status == "active")).all()
    hits = []
    for name, table, seat, waiting in rows:
        folded = _fold(name)
        at = folded.find(needle)
        if at >= 0:
            word_start = at == 0 or not folded[at - 1].isalnum()
            hits.append(((0 if at == 0 else 1 if word_start else 2, folded), name, table, seat,
                         waiting))
    hits.sort(key=lambda h: h[0])
    return {"query": query, "total": len(hits),
            "matches": [{"name": name, "table": table, "seat": seat, "waiting": bool(waiting)}
                        for _, name, table, seat, waiting in hits[:limit]]}


def draw_view(tournament_id: int) -> dict[str, Any]:
    """The draw, table by table, for the projector."""
    tournament = get_tournament(tournament_id)
    layout = load_layout(tournament_id)
    return {"tournament": tournament, "layout": layout, "stats": field_stats(tournament_id)}


# ---------------------------------------------------------------- writing

@unit_of_work
def configure(tournament_id: int, data: Mapping[str, Any]) -> SeatingPolicy:
    """Save the event's seating settings (RULES.md §11.1); each error names its field.

    ``data`` is the body loaded by ``schemas.SEATING_SETTINGS`` (raw values from
    a script are loaded here the same way).  A field that is absent keeps its
    stored value; a blank final table size or table list clears it.
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    body = SEATING_SETTINGS.load(data)
    settings = locked_settings(tournament_id)
    old = _stored_policy(settings)
    was = settings_policy(settings)

    def given(name: str, stored: Any) -> Any:
        value = body.get(name)
        return stored if value is None else value

    values = {
        "table_size": given("table_size", old.table_size),
        "balance_threshold": given("balance_threshold", old.balance_threshold),
        "halt_short_by": given("halt_short_by", old.halt_short_by),
        "final_table_size": body.get("final_table_size", old.final_table_size),
        "hand_for_hand_seconds": given("hand_for_hand_seconds", old.hand_for_hand_seconds),
        "redraw_at_tables": body.get("redraw_at_tables", old.redraw_at_tables),
        "breaking_order": body.get("breaking_order", old.breaking_order),
        "stud_only": given("stud_only", old.stud_only),
        "smallest_chip": given("smallest_chip", old.smallest_chip),
        "redraw_big_field": given("redraw_big_field", old.redraw_big_field),
        "room_tables": body.get("room_tables", old.room_tables),
        "seat_choice": given("seat_choice", old.seat_choice),
    }
    stored = apply_rule("policy", lambda: SeatingPolicy(**values))
    layout = load_layout(tournament_id)
    in_play = len(layout.tables)
    if stored.room_tables is not None and stored.room_tables < in_play:
        raise Invalid({"room_tables": _("The room cannot have fewer tables than the %(tables)s "
                                        "in play", tables=in_play)})
    if has_stud_levels(tournament_id):
        _refuse_stud_sizes(stored)
    settings.policy = stored.to_json()
    policy = settings_policy(settings)
    if layout.tables and policy != was:
        replan(tournament_id, layout, policy)
    seating_log(tournament_id, "settings", [Said(N_("Seating settings saved: %(size)s-handed, balance "
                                             "within %(threshold)s"), size=policy.table_size,
                                          threshold=policy.balance_threshold)])
    commit_seating(tournament_id, settings)
    return policy


def _event_stack(tournament_id: int) -> int:
    """The event's starting stack: the money settings' (one number for every entry)."""
    return amounts.starting_stack(tournament_id)


def _refuse_stud_sizes(policy: SeatingPolicy) -> None:
    """A structure with stud levels: no table or final table of more than 8."""
    reason = _("The structure has seven-card stud levels, and stud seats at most "
               "%(max)s players", max=STUD_MAX_SEATS)
    if policy.table_size > STUD_MAX_SEATS:
        raise Invalid({"table_size": _("%(reason)s: tables seat %(max)s at most",
                                       reason=reason, max=STUD_MAX_SEATS)})
    if policy.final_table_size is not None and policy.final_table_size > STUD_MAX_SEATS:
        raise Invalid({"final_table_size": _("%(reason)s: the final table seats %(max)s at most",
                                             reason=reason, max=STUD_MAX_SEATS)})


def register_player(tournament_id: int, name: Any, chips: Any = None,
                    rng: random.Random | None = None,
                    chosen: ChosenSeat | None = None, *,
                    commit: bool = True) -> tuple[Player, Move | None]:
    """The registry's part of an entry: the player, and once seats are drawn a random
    open seat (TDA 8-A, [SEAT-1..3]).

    Not a way in by itself: every entry (the desk, the seating page, the API) is a
    buy-in, ``money.register_entry`` / ``money.sell``, which calls this with the
    event's starting stack (``chips``; None: the money settings' stack) and records
    the payment.  Returns the player and his seat (a ``Move`` whose ``status`` says
    whether he is dealt in now, waits for the button, or posts a blind), or None
    before the draw.

    ``chosen``: the seat the director picked, with its reason (``room.choose_seat``:
    refused, naming ``table``, ``seat`` or ``reason``, where the event's setting or
    the seating does not allow it).  A full room (``SeatingPolicy.room_tables``)
    refuses the entry, naming ``name``: the desk puts him on the waiting list.

    The screens are told by the caller, once the payment is committed too: one
    change (the seat and the prize pool together), and none when the payment
    fails and the entry is taken back.  ``commit`` false: flushed, not committed;
    the caller commits the entry with its payment, in one transaction, and a lost race
    (``StaleDataError``) is the caller's to retry: it is not turned into a refusal here.
    """
    if commit:
        return _register_unit(tournament_id, name, chips, rng, chosen)
    return _register(tournament_id, name, chips, rng, chosen, commit=False)


def _register(tournament_id: int, name: Any, chips: Any, rng: random.Random | None,
              chosen: ChosenSeat | None, *, commit: bool) -> tuple[Player, Move | None]:
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    errors: dict[str, str] = {}
    try:
        clean = check_player_name(name)
    except Invalid as exc:
        errors.update(exc.errors)
        clean = ""
    try:
        stack = _int({"chips": chips}, "chips", low=1, high=MAX_CHIPS,
                     default=_event_stack(tournament_id), label=_("Chips"))
    except Invalid as exc:
        errors.update(exc.errors)
        stack = 0
    if not errors and db.session.scalar(select(func.count(Player.id)).where(
            Player.tournament_id == tournament_id, Player.status == "active",
            func.lower(Player.name) == clean.lower())):
        errors["name"] = _("There is already a player called %(name)s in the tournament",
                           name=clean)
    if errors:
        db.session.rollback()
        raise Invalid(errors)
    assert stack is not None
    player = Player(tournament_id=tournament_id, name=clean, chips=stack, entry_chips=stack,
                    status="active")
    db.session.add(player)
    db.session.flush()
    policy = settings_policy(settings)
    layout = stored = load_layout(tournament_id)
    move = None
    if not layout.tables:
        if chosen is not None:
            _chosen_seat(layout, player, chosen, policy)   # refused: seats are not drawn yet
        _refuse_full_room(layout, policy, len(active_players(tournament_id)) - 1)
    if layout.tables:
        plan = _chosen_seat(layout, player, chosen, policy) if chosen is not None else \
            apply_rule("name", lambda: seat_new_player(layout, player.id, clean, policy, rng))
        layout = apply_rule("name", lambda: apply_plan(layout, plan))
        store_layout(tournament_id, layout, stored=stored)
        move = plan.moves[0]
        seating_log(tournament_id, "register", _said_plan(plan))
        if chosen is not None:
            seating_log(tournament_id, "register", [Said(N_(
                "Seat chosen by the director for %(name)s: %(reason)s"), name=clean,
                reason=chosen.reason or Said(N_("no reason given")))])
        replan(tournament_id, layout, policy, rng)
    else:
        seating_log(tournament_id, "register", [Said(N_("%(name)s registered (%(chips)s chips)"),
                                              name=clean, chips=int(stack))])
    if commit:
        commit_seating(tournament_id, settings, tell=False)
    else:
        settings.updated_at = utcnow()
        db.session.flush()
    return player, move


@unit_of_work
def _register_unit(tournament_id: int, name: Any, chips: Any, rng: random.Random | None,
                   chosen: ChosenSeat | None) -> tuple[Player, Move | None]:
    return _register(tournament_id, name, chips, rng, chosen, commit=True)


@dataclass(frozen=True)
class ChosenSeat:
    """The seat the director picked for a new player, and why (``room.choose_seat``)."""

    table: int
    seat: int
    reason: str = ""


def _chosen_seat(layout: Layout, player: Player, chosen: ChosenSeat,
                 policy: SeatingPolicy) -> SeatingPlan:
    try:
        return choose_seat(layout, player.id, player.name, chosen.table, chosen.seat, policy,
                           chosen.reason)
    except SeatChoiceRefused as exc:
        db.session.rollback()
        raise Invalid({exc.field: translate_violation(exc)}) from None


def _refuse_full_room(layout: Layout, policy: SeatingPolicy, registered: int) -> None:
    """Before the draw: the registered players already fill the room's tables."""
    room = room_of(layout, policy, registered=registered)
    if room.full:
        db.session.rollback()
        raise Invalid({"name": _("The room is full: %(players)s players fill its %(tables)s "
                                 "tables", players=room.seated, tables=room.tables)})


@unit_of_work
def draw(tournament_id: int, rng: random.Random | None = None) -> SeatingPlan:
    """The random seat draw for the whole field (TDA 7; cryptographic RNG by default).

    Applied at once (the director asked for it), and recorded as a confirmed
    plan, so that it can be undone while nothing has changed since.
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    if load_layout(tournament_id).tables:
        db.session.rollback()
        raise Invalid({"draw": _("Seats are already drawn; late players are seated as they "
                                 "register")})
    players = active_players(tournament_id)
    policy = settings_policy(settings)
    plan = apply_rule("draw", lambda: draw_seats([(p.id, p.name) for p in players], policy, rng))
    layout = apply_plan(Layout(()), plan)
    store_layout(tournament_id, layout)
    now = utcnow()
    _discard_pending(tournament_id, now)
    db.session.add(SeatingPlanRecord(
        tournament_id=tournament_id, kind=plan.kind.value, plan=plan.to_json(),
        status="confirmed", **dict(zip(("layout_before", "layout_after"),
                                       _changes(Layout(()), layout), strict=True)),
        decided_at=now))
    seating_log(tournament_id, "draw", [Said("%(note)s", note={"seating": plan.note})])
    uow.log("seats drawn", tournament_id, players={"players": len(players)},
            tables={"tables": len(layout.tables)})
    commit_seating(tournament_id, settings)
    return plan


@unit_of_work
def confirm_plan(tournament_id: int, plan_id: Any,
                 rng: random.Random | None = None) -> tuple[SeatingPlan, SeatingPlanRecord | None]:
    """Apply the pending plan the director confirmed; returns it and the next proposal."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    record = _plan_row(tournament_id, plan_id)
    if record.status != "pending":
        db.session.rollback()
        raise Invalid({"plan_id": _("This plan was already %(status)s",
                                    status=seating_text(record.status))})
    layout = load_layout(tournament_id)
    if not _is_room(record.layout_before, layout):
        db.session.rollback()
        raise Invalid({"plan_id": _("The seating changed since this plan was made: "
                                    "reload the page for the current plan")})
    plan = SeatingPlan.from_json(record.plan)
    policy = settings_policy(settings)
    after = apply_rule("plan_id", lambda: apply_plan(layout, plan))
    store_layout(tournament_id, after, stored=layout)
    record.status = "confirmed"
    record.decided_at = utcnow()
    record.layout_before, record.layout_after = _changes(layout, after)
    seating_log(tournament_id, "confirm", [Said(N_("Confirmed: %(line)s"), line=line)
                                    for line in _said_plan(plan)])
    nxt = replan(tournament_id, after, policy, rng)
    _log_plan(tournament_id, plan, after)
    commit_seating(tournament_id, settings)
    return plan, nxt


def _log_plan(tournament_id: int, plan: SeatingPlan, after: Layout) -> None:
    """A confirmed plan in the director's words: a table broken, tables balanced, a redraw."""
    moved = {"players": len(plan.moves)}
    if plan.kind is PlanKind.BREAK and plan.close_tables:
        uow.log("table broken", tournament_id, table=plan.close_tables[0], players=moved)
    elif plan.kind is PlanKind.BALANCE:
        uow.log("tables balanced", tournament_id, players=moved)
    elif plan.kind is PlanKind.FINAL_TABLE and plan.close_tables:
        uow.log("final table", tournament_id, table=plan.close_tables[0], players=moved)
    elif plan.kind in (PlanKind.REDRAW, PlanKind.FINAL_TABLE):
        uow.log("redraw", tournament_id, players=moved, tables={"tables": len(after.tables)})


@unit_of_work
def discard_plan(tournament_id: int, plan_id: Any) -> None:
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    record = _plan_row(tournament_id, plan_id)
    if record.status != "pending":
        db.session.rollback()
        raise Invalid({"plan_id": _("This plan was already %(status)s",
                                    status=seating_text(record.status))})
    record.status = "discarded"
    record.decided_at = utcnow()
    seating_log(tournament_id, "discard", [Said(N_("Discarded: %(plan)s"), plan={
        "seating": SeatingPlan.from_json(record.plan).note or record.kind})])
    commit_seating(tournament_id, settings)


@unit_of_work
def undo_last(tournament_id: int) -> SeatingPlan:
    """Take back the last confirmed plan, if the seating has not changed since.

    The seats go back to where they were and the plan is pending again (the
    draw simply goes away), so the director can confirm it once more.
    """
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    record = _last_confirmed(tournament_id)
    if record is None:
        db.session.rollback()
        raise Invalid({"undo": _("There is nothing to undo")})
    layout = load_layout(tournament_id)
    if not _is_room(record.layout_after, layout):
        db.session.rollback()
        raise Invalid({"undo": _("The seating changed after that plan (a bust, a hand dealt or "
                                 "a reseat), so it cannot be undone: move players by hand")})
    before = _room_before(record, layout)
    store_layout(tournament_id, before)
    if record.status == "confirmed" and "digest" in record.layout_before:
        record.layout_before = {"digest": layout_digest(before)}     # pending again
    plan = SeatingPlan.from_json(record.plan)
    now = utcnow()
    _discard_pending(tournament_id, now)
    record.decided_at = now
    record.layout_after = None
    record.status = "undone" if plan.kind is PlanKind.DRAW else "pending"
    seating_log(tournament_id, "undo", [Said(N_("Undone: %(plan)s"),
                                      plan={"seating": plan.note or plan.kind.value})])
    uow.log("seating undone", tournament_id)
    commit_seating(tournament_id, settings)
    return plan


@unit_of_work
def break_next_table(tournament_id: int, rng: random.Random | None = None) -> SeatingPlanRecord:
    """Propose breaking the next table in the pre-announced order (TDA 10-B)."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    policy = settings_policy(settings)
    layout = load_layout(tournament_id)
    if not layout.tables:
        db.session.rollback()
        raise Invalid({"table": _("Draw the seats first")})
    number = apply_rule("table", lambda: next_table_to_break(layout, policy))
    resize = None
    if len(layout.tables) == 2:
        last = next(n for n in layout.numbers if n != number)
        if layout.table(last).size < policy.final_size:
            resize = {last: policy.final_size}
    plan = apply_rule("table", lambda: break_table(layout, number, policy, rng, resize=resize))
    record = _propose(tournament_id, layout, plan)
    assert record is not None
    seating_log(tournament_id, "break", [Said(N_("Proposed: break table %(table)s"), table=number)])
    commit_seating(tournament_id, settings)
    return record


@unit_of_work
def reseat(tournament_id: int, player_id: Any, table: Any, seat: Any) -> Move:
    """Move one player by hand to an open seat (wrong seat, TDA 7; a director's call)."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    player = player_in(tournament_id, player_id)
    data = {"table": table, "seat": seat}
    to_table = _required_int(data, "table", low=1, high=10_000, label=_("Table"))
    to_seat = _required_int(data, "seat", low=1, high=10, label=_("Seat"))
    layout = load_layout(tournament_id)
    if not player.active:
        db.session.rollback()
        raise Invalid({"player_id": _("%(name)s is out of the tournament", name=player.name)})
    if to_table not in layout.numbers:
        db.session.rollback()
        raise Invalid({"table": _("There is no table %(table)s in play", table=to_table)})
    dest = layout.table(to_table)
    if to_seat > dest.size:
        db.session.rollback()
        raise Invalid({"seat": _("Table %(table)s has seats 1 to %(size)s", table=to_table,
                                 size=dest.size)})
    here = dest.seats.get(to_seat)
    if here is not None:
        db.session.rollback()
        raise Invalid({"seat": _("Table %(table)s seat %(seat)s is taken by %(name)s",
                                 table=to_table, seat=to_seat, name=here.name)})
    from_table: int | None = None
    from_seat: int | None = None
    if any(p.player_id == player.id for t in layout.tables for p in t.seats.values()):
        from_table, from_seat = layout.where(player.id)
    others = {s for s, p in dest.seats.items() if p.player_id != player.id}
    status = apply_rule("seat", lambda: seat_status(to_seat, dest.last_hand, others, dest.size,
                                               game_is_stud=dest.game_is_stud)) \
        if others else seat_status(to_seat, None, (), dest.size)
    move = Move(player.id, player.name, from_table, from_seat, to_table, to_seat, status.value,
                status)
    policy = settings_policy(settings)
    layout = apply_rule("seat", lambda: apply_moves(layout, [move]))
    store_layout(tournament_id, layout)
    seating_log(tournament_id, "reseat", [Said(N_("Reseated: %(move)s"), move=_said_move(move))])
    replan(tournament_id, layout, policy)
    commit_seating(tournament_id, settings)
    return move


@unit_of_work
def set_chips(tournament_id: int, player_id: Any, chips: Any) -> Player:
    """Record a player's chip count (shown on the chart; a bust's tie-break)."""
    tournaments.verify_open(tournament_id)   # a finished event's seating is frozen
    settings = locked_settings(tournament_id)
    player = player_in(tournament_id, player_id)
    count = _required_int({"chips": chips}, "chips", low=0, high=MAX_CHIPS, label=_("Chips"))
    if not player.active:
        db.session.rollback()
        raise Invalid({"player_id": _("%(name)s is out of the tournament", name=player.name)})
    player.chips = count
    seating_log(tournament_id, "chips", [Said(N_("%(name)s: %(chips)s chips"), name=player.name,
                                       chips=int(count))])
    commit_seating(tournament_id, settings)
    return player


@unit_of_work
def hand_dealt(tournament_id: int, table: Any) -> TableState:
    """A hand was dealt at ``table``: the button and blinds move on (TDA 32)."""
    settings = locked_settings(tournament_id)
    number = _required_int({"table": table}, "table", low=1, high=10_000, label=_("Table"))
    stored = load_layout(tournament_id)
    if number not in stored.numbers:
        db.session.rollback()
        raise Invalid({"table": _("There is no table %(table)s in play", table=number)})
    dealt = apply_rule("table", lambda: deal_hand(stored.table(number)))
    layout = stored.with_table(dealt)
    policy = settings_policy(settings)
    store_layout(tournament_id, layout, stored=stored)
    replan(tournament_id, layout, policy)   # the player due the big blind has changed
    commit_seating(tournament_id, settings)
    return dealt


HAND_FOR_HAND_ACTIONS = ("announce", "start", "finish", "stop")


@unit_of_work
def hand_for_hand(tournament_id: int, action: Any) -> dict[str, Any]:
    """Hand-for-hand (TDA RP-8): announce, start, a hand finished at every table, stop.

    The time comes off once (TDA RP-8, WSOP-T 126): "start" pauses a running
    clock; each "finish" (the round's last table finished its hand) takes
    ``policy.hand_for_hand_seconds`` off the paused level, once per round;
    "stop" restarts the clock the start paused.  The clock changes in the
    same transaction (``director.tournament.clock``), then the clock is pushed
    to every screen and its level end rescheduled (``clock.announce``).
    """
    if action != "finish":      # the tablets' round end is bookkeeping, not a change
        tournaments.verify_open(tournament_id)

    if action not in HAND_FOR_HAND_ACTIONS:
        raise Invalid({"action": _("The action is one of: %(actions)s",
                                   actions=", ".join(HAND_FOR_HAND_ACTIONS))})
    settings = locked_settings(tournament_id)
    state = HandForHand.from_json(settings.hand_for_hand or {})
    policy = settings_policy(settings)
    seconds = 0
    resume = False
    now = utcnow()
    if action == "announce":
        if state.on or state.announced:
            db.session.rollback()
            raise Invalid({"action": _("Hand-for-hand is already announced")})
        state = announce_hand_for_hand(state, now)
        line = Said(N_("Hand-for-hand announced: finish the current hand, then hold"))
    elif action == "start":
        if state.on:
            db.session.rollback()
            raise Invalid({"action": _("Hand-for-hand is already on")})
        state = start_hand_for_hand(state, now)
        line = Said(N_("Hand-for-hand: every table deals one hand and waits; the clock is "
                       "paused"))
    elif action == "finish":
        state, seconds = apply_rule("action", lambda: finish_hand_for_hand_hand(state, policy, now))
        line = Said(N_("Hand-for-hand hand %(hand)s finished: %(seconds)s s off the clock"),
                    hand=state.hands_played, seconds=seconds)
    else:
        if not (state.on or state.announced):
            db.session.rollback()
            raise Invalid({"action": _("Hand-for-hand is not on")})
        resume = state.paused_clock
        state = end_hand_for_hand(state)
        line = Said(N_("Hand-for-hand is over: the clock runs again")) if resume \
            else Said(N_("Hand-for-hand is over"))
    tournament = get_tournament(tournament_id)
    structure = tournament.structure
    caught_up = clock_rules.advance_due(tournament.clock, structure, now)
    clock = caught_up
    if action == "start" and caught_up.running:
        clock = clock_rules.pause(caught_up, now)
        state = replace(state, paused_clock=True)
    elif action == "stop" and resume:
        clock = clock_rules.resume(caught_up, now)
    if seconds:
        clock = apply_rule("action", lambda: clock_rules.hand_for_hand_deduction(
            caught_up, structure, seconds, now=now))
    settings.hand_for_hand = state.to_json()
    if clock != caught_up:
        tournament.clock = clock
        uow.clock_moved(tournament_id)
    seating_log(tournament_id, "hand-for-hand", [line])
    if action != "finish":
        uow.log({"announce": "hand-for-hand announced", "start": "hand-for-hand started"}
                .get(action, "hand-for-hand stopped"), tournament_id)
    commit_seating(tournament_id, settings)
    return {"hand_for_hand": state.to_json(), "seconds_deducted": seconds}


def _plan_row(tournament_id: int, plan_id: Any) -> SeatingPlanRecord:
    if isinstance(plan_id, str) and WHOLE.fullmatch(plan_id.strip()):
        plan_id = int(plan_id)
    if isinstance(plan_id, bool) or not isinstance(plan_id, int):
        db.session.rollback()
        raise Invalid({"plan_id": _("Which plan? plan_id must be a number")})
    record = db.session.get(SeatingPlanRecord, plan_id) if 0 < plan_id < 2**63 else None
    if record is None or record.tournament_id != tournament_id:
        db.session.rollback()
        raise Invalid({"plan_id": _("There is no seating plan %(plan)s in this tournament",
                                    plan=plan_id)})
    return record



@unit_of_work
def colour_up(tournament_id: int, stacks: Mapping[int, int], smallest_chip: int) -> None:
    """A confirmed colour-up (issue 17; TDA 24): each player's stack after the exchange
    and the chip race (``stacks``: player id -> chips, as :func:`set_chips` records one),
    and the smallest chip in play moves up to ``smallest_chip`` (the odd-chip rule's
    setting), in one unit of work."""
    tournaments.verify_open(tournament_id)
    settings = locked_settings(tournament_id)
    players = {p.id: p for p in active_players(tournament_id)}
    lines = []
    for player_id, chips in stacks.items():
        player = players.get(player_id)
        if player is None:
            db.session.rollback()
            raise Invalid({"player_id": _("Player %(player)s is not in the tournament",
                                          player=player_id)})
        count = _required_int({"chips": chips}, "chips", low=0, high=MAX_CHIPS, label=_("Chips"))
        if count != player.chips:
            lines.append(Said(N_("%(name)s: %(chips)s chips"), name=player.name,
                              chips=int(count)))
        player.chips = count
    settings.policy = replace(_stored_policy(settings), smallest_chip=smallest_chip).to_json()
    lines.append(Said(N_("Colour-up: the smallest chip in play is T%(chip)s"),
                      chip=str(smallest_chip)))
    seating_log(tournament_id, "chips", lines)
    commit_seating(tournament_id, settings)
