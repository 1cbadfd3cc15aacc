"""What the seating screens show: the director's page (:func:`overview`), a write's
answer (:func:`changed`), the players' seat search, the projector's draw and figures."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import bindparam, case, exists, func, or_, select

from director.db import db, for_transaction
from director.models.money import MoneySettings
from director.models.seating import (
    Player,
    Seat,
    SeatingLogEntry,
    SeatingPlanRecord,
    SeatingSettings,
    SeatingTable,
    folded,
)
from director.services import (
    Invalid,
    NotFound,
    amounts,
    get_tournament,
    uow,
)
from director.services.seating.layout import load_layout
from director.services.seating.policy import (
    entrants,
    has_stud_levels,
    settings_policy,
    stored_policy,
)
from director.services.seating.proposals import is_room, last_confirmed_record, pending_record
from director.services.seating.writes import WHOLE
from director.tournament.seating import (
    HandForHand,
    Layout,
    SeatingPlan,
    SeatingPolicy,
    TableState,
    halted_tables,
)

SEARCH_LIMIT = 12
SEARCH_MAX = 80
LOG_SHOWN = 40
OUT_SHOWN = 50          # the players out on the seating page and API, newest first
PLAYERS_SHOWN = 100     # the players still in on the seating page, a page at a time
TABLES_SHOWN = 20       # the tables drawn on the seating page, a page at a time
API_TABLES = 10         # the tables of a page of the seating API (``room_page``)
API_UNSEATED = 100      # the players in without a seat on a page of it (before the draw: all)
PRINT_TABLES = 20       # the tables of a printed range (seat cards, sign-in sheets)


_FIELD_STATS = select(func.count(Player.id).filter(Player.status == "active"),
                      func.coalesce(func.sum(Player.entry_chips), 0)).where(
    Player.tournament_id == bindparam("tournament_id"))
"""Built once: read after every hand that moves chips (the projector's figures)."""


FIELD = "director.seating.field"  # for_transaction: event -> (left, chips)


def field_totals(tournament_id: int) -> tuple[int, int]:
    """The players still in and the chips they registered with (every entry's stack).

    Counted once per transaction that writes nothing: after a change is committed,
    its screens' figures, its clock state and its answer all ask (three reads of the
    same count at every late entry).  A transaction that has written (or holds a
    change not yet written) counts again each time."""
    session = db.session()
    kept = for_transaction(FIELD) if _quiet(session) else {}
    if tournament_id in kept:
        return kept[tournament_id]  # type: ignore[no-any-return]
    left, chips = session.execute(_FIELD_STATS, {"tournament_id": tournament_id}).one()
    totals = int(left or 0), int(chips or 0)
    if _quiet(session):           # the read began the transaction if none was open
        for_transaction(FIELD)[tournament_id] = totals
    return totals


def _quiet(session: Any) -> bool:
    """Whether ``session``'s open transaction has written nothing and holds no change."""
    return session.get_transaction() is not None and not session.info.get(uow.WROTE) \
        and not (session.new or session.dirty or session.deleted)


def field_stats(tournament_id: int) -> dict[str, int | None]:
    """Players left and the average stack, for the clock JSON and the projector.

    The chips in play are the stacks the players registered with (chips do
    not leave the game when a player busts), so the average stack is
    ``sum(entry stacks) // players left``.
    """
    left, chips = field_totals(tournament_id)
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
    page: int = 1                # the API's page (``room_page``), of ``pages``
    pages: int = 1

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


def room_page(tournament_id: int, page: int = 1, table: int | None = None, *,
              seats: bool = True) -> Overview:
    """A page of the room for the seating API, the same size at any event: ``API_TABLES``
    tables (the ``page``-th of them; kept within the pages) and the players at them,
    the ``page``-th ``API_UNSEATED`` of the players in without a seat (before the draw,
    every player in), and on the first page the newest ``OUT_SHOWN`` players out.
    ``table``: that table and its players only (``NotFound`` when it is not in play).
    The field's figures, the policy, hand-for-hand and the plans are on every page;
    ``seats`` false: those and the pages only (no table, no player read)."""
    view = _overview(tournament_id, paged=True)
    tables = list(view.layout.tables)
    if table is not None:
        shown = [t for t in tables if t.number == table]
        if not shown:
            raise NotFound(_("There is no table %(table)s in play", table=table))
        view.players, waiting = [], []
    else:
        unseated = select(*SHOWN_PLAYER_COLUMNS).where(
            Player.tournament_id == tournament_id, Player.status == "active",
            ~exists().where(Seat.player_id == Player.id))
        # Only players in hold a seat (a bust frees his): the rest of those in wait for one.
        count = max(0, (view.stats["players_left"] or 0) - len(view.where))
        view.pages = max(1, -(-len(tables) // API_TABLES), -(-count // API_UNSEATED))
        view.page = page = min(max(1, page), view.pages)
        view.table_start = (page - 1) * API_TABLES
        shown = tables[view.table_start:view.table_start + API_TABLES]
        waiting = list(db.session.execute(unseated.order_by(Player.name, Player.id).offset(
            (page - 1) * API_UNSEATED).limit(API_UNSEATED))) \
            if seats and count > (page - 1) * API_UNSEATED else []
        if page > 1:
            view.players = []          # the players out: the first page's
    if not seats:
        shown, view.players = [], []
    ids = [p.player_id for t in shown for p in t.seats.values()]
    seated = list(db.session.execute(select(*SHOWN_PLAYER_COLUMNS).where(
        Player.id.in_(ids)))) if ids else []
    view.players = sorted(seated + waiting + view.players, key=lambda p: (p.name, p.id))
    view.shown_tables = shown
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
    pending = pending_record(tournament_id)
    last = last_confirmed_record(tournament_id)
    can_undo = last is not None and is_room(last.layout_after, layout)
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
        starting_stack=amounts.starting_stack(tournament_id),
        money_ready=db.session.get(MoneySettings, tournament_id) is not None,
        stud_levels=has_stud_levels(tournament_id), stored=stored_policy(settings),
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
                   field_stats(tournament_id), pending_record(tournament_id))


def player_tables(tournament_id: int, player_ids: list[int]) -> set[int | None]:
    """The tables these players sit at."""
    return set(db.session.scalars(select(SeatingTable.number).join(
        Seat, Seat.table_id == SeatingTable.id).where(
        Seat.tournament_id == tournament_id, Seat.player_id.in_(player_ids)))) \
        if player_ids else set()


def out_tables(tournament_id: int, player_ids: list[int]) -> set[int | None]:
    """The tables these busted players went out from."""
    return set(db.session.scalars(select(Player.out_table).where(
        Player.tournament_id == tournament_id, Player.id.in_(player_ids)))) if player_ids else set()


@dataclass
class PrintRange:
    """The tables printed at once (seat cards, sign-in sheets): ``tables`` in number order,
    the players at them (``players``: id -> name and chips), and every range of the room
    (``ranges``: the first and last table of each ``PRINT_TABLES``), for the links."""

    tournament: Any
    tables: list[TableState]
    players: dict[int, Any]
    ranges: list[tuple[int, int]]

    @property
    def first(self) -> int | None:
        return self.tables[0].number if self.tables else None

    @property
    def last(self) -> int | None:
        return self.tables[-1].number if self.tables else None

    def seated(self) -> list[tuple[int, int, Any]]:
        """(table, seat, player) of every seat taken, in table and seat order: the cards."""
        return [(t.number, seat, self.players[p.player_id])
                for t in self.tables for seat, p in sorted(t.seats.items())]

    def sheets(self) -> list[tuple[int, list[tuple[int, Any]]]]:
        """Each table with every seat and its player (None: open): the sign-in sheets."""
        return [(t.number, [(seat, self.players.get(t.seats[seat].player_id)
                             if seat in t.seats else None) for seat in range(1, t.size + 1)])
                for t in self.tables]


def print_range(tournament_id: int, first: int | None = None,
                last: int | None = None) -> PrintRange:
    """The tables numbered ``first`` to ``last`` for printing, at most ``PRINT_TABLES`` of
    them (the first ones): a 300-table room is printed a range at a time, and the page
    costs the same at any size.  No ``first``: from the first table; no ``last``: the
    ``PRINT_TABLES`` tables from ``first``."""
    tournament = get_tournament(tournament_id)
    numbers = list(db.session.scalars(select(SeatingTable.number).where(
        SeatingTable.tournament_id == tournament_id).order_by(SeatingTable.number)))
    ranges = [(numbers[i], numbers[min(i + PRINT_TABLES, len(numbers)) - 1])
              for i in range(0, len(numbers), PRINT_TABLES)]
    wanted = [n for n in numbers if (first is None or n >= first)
              and (last is None or n <= last)][:PRINT_TABLES]
    tables = list(load_layout(tournament_id, wanted).tables) if wanted else []
    ids = [p.player_id for t in tables for p in t.seats.values()]
    players = {p.id: p for p in db.session.execute(select(Player.id, Player.name, Player.chips)
                                                   .where(Player.id.in_(ids)))} if ids else {}
    return PrintRange(tournament, tables, players, ranges)


def plan_record(tournament_id: int, plan_id: int | None) -> tuple[SeatingPlanRecord, SeatingPlan]:
    """A plan for the printable move slips: the one named, else pending, else last confirmed."""
    get_tournament(tournament_id)
    if plan_id is not None:
        record = db.session.get(SeatingPlanRecord, plan_id) if 0 < plan_id < 2**63 else None
        if record is None or record.tournament_id != tournament_id:
            raise NotFound(_("There is no seating plan %(plan)s in this tournament", plan=plan_id))
    else:
        record = pending_record(tournament_id) or last_confirmed_record(tournament_id)
        if record is None:
            raise NotFound(_("There are no moves to print yet"))
    return record, SeatingPlan.from_json(record.plan)


def find_seat(tournament_id: int, query: Any, limit: int = SEARCH_LIMIT) -> dict[str, Any]:
    """Players whose name contains ``query`` (any case, accents ignored), with table and seat.

    Only the first ``limit`` matches are returned, best first (names that
    start with the query, then those with a word that starts with it, then
    alphabetical), so the answer stays small whatever the field size.  The
    database compares each player's folded name (``Player.search_name``) and
    counts the matches; only the ones shown are read.
    """
    get_tournament(tournament_id)
    if not isinstance(query, str):
        raise Invalid({"q": _("Type part of your name")})
    if len(query) > SEARCH_MAX:
        raise Invalid({"q": _("Type at most %(max)s characters", max=SEARCH_MAX)})
    needle = folded(" ".join(query.split()))
    if not needle:
        return {"query": query, "matches": [], "total": 0}
    name = Player.search_name
    seated = (select(Player.name, SeatingTable.number, Seat.seat, Seat.waiting)
              .join(Seat, Seat.player_id == Player.id)
              .join(SeatingTable, SeatingTable.id == Seat.table_id)
              .where(Player.tournament_id == tournament_id, Player.status == "active",
                     name.contains(needle, autoescape=True)))
    total = db.session.scalar(select(func.count()).select_from(seated.subquery()))
    word_start = or_(*(name.contains(mark + needle, autoescape=True) for mark in WORD_MARKS))
    best = case((name.startswith(needle, autoescape=True), 0), (word_start, 1), else_=2)
    rows = db.session.execute(seated.order_by(best, name, Player.id).limit(limit)).all()
    return {"query": query, "total": int(total or 0),
            "matches": [{"name": player, "table": table, "seat": seat, "waiting": bool(waiting)}
                        for player, table, seat, waiting in rows]}


WORD_MARKS = (" ", "-", "'", ".", "(", "/")   # what starts a word within a name


def draw_view(tournament_id: int) -> dict[str, Any]:
    """The draw, table by table, for the projector."""
    tournament = get_tournament(tournament_id)
    layout = load_layout(tournament_id)
    return {"tournament": tournament, "layout": layout, "stats": field_stats(tournament_id)}
