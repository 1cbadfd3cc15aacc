"""Dealing the next hand: who is dealt in, where the button and blinds go, the forced
bets of the clock's level and the house rules (``start_hand``, and ``next_hand`` for
the screen before "Deal"); a stack counted between hands (``correct_stack``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, select

from director.db import db, utcnow
from director.i18n import GAME_NAMES, N_, chips_text, game_name, stakes_label, translate_violation
from director.i18n import gettext as _
from director.models import Tournament
from director.models.hands import DealerHand
from director.models.house import HouseRules
from director.models.seating import Player, Seat, SeatingSettings, SeatingTable
from director.poker.errors import RuleViolation
from director.poker.games import Betting, Game
from director.poker.policy import DEFAULT_POLICY, Policy
from director.poker.rulings import DEFAULT_RULING_POLICY, RulingPolicy
from director.poker.state import Hand, HandConfig
from director.services import Invalid, NotFound, dealer_hold, house_rules, uow
from director.services import clock as clock_service
from director.services import dealer_shot_clock as shot_clock
from director.services import seating as seating_service
from director.services.audit import Said
from director.services.dealer.answers import Answer, Conflict, Illegal
from director.services.dealer.log import joined, log_line
from director.services.dealer.memory import HandRow, remember
from director.services.dealer.rows import get_table, latest_hand, shown_number
from director.services.dealer.tablet import hand_json, keep_state
from director.services.dealer.writes import log_line_only, tell_tablets, write_new_hand
from director.tournament.clock import ClockState
from director.tournament.seating import (
    HandForHand,
    SeatedPlayer,
    SeatingPolicy,
    TableState,
    deal_hand,
    hand_chip_unit,
)
from director.tournament.structure import Structure, parse_levels

ON_BREAK = N_("The clock is on a break: no hand is dealt")
# What a level's stakes are said from (``i18n.stakes_label``): the deal's log line keeps
# them, not their words, so each tablet reads them in its own language.
STAKES_KEYS = ("kind", "is_break", "game", "small_blind", "big_blind", "ante", "big_blind_ante",
               "small_bet", "big_bet", "bring_in")


def _level_config(level: dict[str, Any], order: list[dict[str, Any]], positions: dict[str, Any],
                  absent: list[int], game: Game, policy: SeatingPolicy,
                  house: Policy = DEFAULT_POLICY) -> HandConfig:
    """The engine's HandConfig: stacks in PHH order, forced bets from the level, odd
    chips in units of the smallest chip in play (TDA 20), and the tournament's house
    rules for the hand (``house``: RULES.md §11.1, ``services.house_rules``)."""
    n = len(order)
    stacks = tuple(int(p["chips"]) for p in order)
    seat_numbers = tuple(int(p["seat"]) for p in order)
    dead = tuple(i for i, p in enumerate(order) if int(p["seat"]) in absent)
    ante = int(level.get("ante") or 0)
    unit = hand_chip_unit(policy, (int(level.get(k) or 0) for k in (
        "small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet")), stacks)
    if game.is_stud:
        return HandConfig(game=game, starting_stacks=stacks, antes=(ante,) * n if ante else (),
                          bring_in=int(level.get("bring_in") or 0),
                          small_bet=int(level.get("small_bet") or 0),
                          big_bet=int(level.get("big_bet") or 0),
                          dead_players=dead, seats=seat_numbers, chip_unit=unit, policy=house)
    sb, bb = int(level.get("small_blind") or 0), int(level.get("big_blind") or 0)
    blinds = [0] * n
    antes = [0] * n
    for i, p in enumerate(order):
        if p["seat"] == positions.get("small_blind"):
            blinds[i] = sb
        if p["seat"] == positions.get("big_blind"):
            blinds[i] = bb
    bba = bool(level.get("big_blind_ante"))
    if ante:
        for i, p in enumerate(order):
            if not bba or p["seat"] == positions.get("big_blind"):
                antes[i] = ante
    if n == 2:  # PHH heads-up: forced bets listed SB, BB; the engine reverses them
        blinds.reverse()
        antes.reverse()
    fixed = game.betting is Betting.FIXED_LIMIT
    return HandConfig(
        game=game, starting_stacks=stacks, antes=tuple(antes), blinds_or_straddles=tuple(blinds),
        small_bet=int(level.get("small_bet") or 0) if fixed else 0,
        big_bet=int(level.get("big_bet") or 0) if fixed else 0,
        min_bet=0 if fixed else bb, ante_trimming=not bba,
        small_blind=sb or None, big_blind=(bb or None) if not fixed else None,
        dead_players=dead, seats=seat_numbers, chip_unit=unit, policy=house)


def _table_state(table: SeatingTable, seated: dict[int, tuple[Any, bool]]) -> Any:
    """The pure ``TableState`` of this one table (as ``seating.load_layout`` builds it)."""

    return TableState(number=table.number, size=table.size,
                      seats={s: SeatedPlayer(p.id, p.name, w) for s, (p, w) in seated.items()},
                      button_seat=table.button_seat, sb_seat=table.sb_seat, bb_seat=table.bb_seat,
                      game_is_stud=bool(table.game_is_stud),
                      vacated=tuple(int(v) for v in (table.vacated or ())))


def _seat_rows(table: SeatingTable) -> list[Any]:
    """The table's seats, each with its player's ``id``, ``name``, ``chips`` and
    ``status`` (plain rows: a hand needs no more of the player)."""
    return list(db.session.execute(_deal_statements()[2], {"table_id": table.id}))


def _seated(table: SeatingTable, rows: list[Any] | None = None) -> dict[int, tuple[Any, bool]]:
    """Seat number -> (player, waiting for the button) at ``table``."""
    return {row.seat: (row, bool(row.waiting)) for row in rows or _seat_rows(table)}


@dataclass(frozen=True)
class _DealContext:
    """What dealing a hand reads besides the seats, in one query: the table's row,
    its tournament's structure and clock, the seating policy and hand-for-hand
    state, the house rules of a hand (RULES.md §11.1) and the player count of the
    fullest table (play halts, TDA 11-D)."""

    table: Any
    structure: Structure
    clock: ClockState
    policy: SeatingPolicy
    hand_for_hand: HandForHand
    most: int
    house: Policy = DEFAULT_POLICY
    house_rulings: RulingPolicy = DEFAULT_RULING_POLICY


@functools.cache
def _deal_statements() -> tuple[Any, Any, Any]:
    """The three reads of a deal, built once (``:table_id`` bound at each deal): the
    table with its tournament, settings and house rules; its last hand; its seats."""
    table_id = bindparam("table_id")
    fullest = (select(func.count(Seat.id)).where(Seat.tournament_id == SeatingTable.tournament_id)
               .group_by(Seat.table_id).order_by(func.count(Seat.id).desc()).limit(1)
               .correlate(SeatingTable).scalar_subquery())
    context = (
        select(SeatingTable.id, SeatingTable.tournament_id, SeatingTable.number, SeatingTable.size,
               SeatingTable.button_seat, SeatingTable.sb_seat, SeatingTable.bb_seat,
               SeatingTable.game_is_stud, SeatingTable.vacated, Tournament.name, Tournament.levels,
               Tournament.level_index, Tournament.started_at, Tournament.elapsed_before,
               Tournament.running, SeatingSettings.policy, SeatingSettings.hand_for_hand,
               HouseRules.hand.label("house"), HouseRules.rulings.label("house_rulings"),
               fullest.label("most"))
        .join(Tournament, Tournament.id == SeatingTable.tournament_id)
        .outerjoin(SeatingSettings, SeatingSettings.tournament_id == SeatingTable.tournament_id)
        .outerjoin(HouseRules, HouseRules.tournament_id == SeatingTable.tournament_id)
        .where(SeatingTable.id == table_id))
    last = (select(DealerHand.number, DealerHand.status, DealerHand.positions, DealerHand.finished_at)
            .where(DealerHand.table_id == table_id).order_by(DealerHand.number.desc()).limit(1))
    seats = (select(Seat.seat, Seat.waiting, Player.id, Player.name, Player.chips, Player.status)
             .join(Player, Player.id == Seat.player_id).where(Seat.table_id == table_id))
    return context, last, seats


def _deal_context(table_id: int) -> _DealContext:
    row = db.session.execute(_deal_statements()[0], {"table_id": table_id}).first() \
        if 0 < table_id < 2**63 else None
    if row is None:
        raise NotFound(_("There is no table %(id)s", id=table_id))
    return _DealContext(
        table=row, structure=Structure(levels=parse_levels(row.levels), name=row.name),
        clock=ClockState(level_index=row.level_index or 0, started_at=row.started_at,
                         elapsed_before=row.elapsed_before or 0.0, running=bool(row.running)),
        policy=SeatingPolicy.from_json(row.policy) if row.policy else SeatingPolicy(),
        hand_for_hand=HandForHand.from_json(row.hand_for_hand or {}), most=int(row.most or 0),
        house=Policy.from_json(row.house) if row.house else DEFAULT_POLICY,
        house_rulings=RulingPolicy.from_json(row.house_rulings) if row.house_rulings
        else DEFAULT_RULING_POLICY)


def _dealt_in(table: Any, seated: dict[int, tuple[Any, bool]], last: Any, game: Game
              ) -> tuple[dict[str, Any], dict[int, tuple[Any, bool]]]:
    """The one answer to "who is dealt in, and where are the button and blinds", for the
    tablet's next-hand screen and for the deal alike: a redeal after a misdeal keeps the
    button and the seats as they were (TDA 35); a stud hand has no button; else the
    button moves on (TDA 32) and a new player waits only while he sits between the
    button and the small blind (``seating.deal_hand``)."""
    if last is not None and last.status == "misdeal":
        return {k: v for k, v in (last.positions or {}).items() if k != "hand_number"}, seated
    if game.is_stud:
        return {}, seated
    dealt = deal_hand(_table_state(table, seated))
    positions = {"button": dealt.button_seat, "small_blind": dealt.sb_seat, "big_blind": dealt.bb_seat}
    return positions, {s: (pl, dealt.seats[s].waiting if s in dealt.seats else w)
                       for s, (pl, w) in seated.items()}


def start_hand(table_id: int, absent_seats: list[int], who: str = "dealer") -> Answer:
    """Deal the next hand at the table: seats and button from the seating, forced
    bets from the clock's current level (TDA RP-7); absent seats are dead (TDA 30).
    After a misdeal the hand is redealt with the same button (TDA 35)."""

    deal = _deal_context(table_id)
    table = deal.table
    tournament_id = table.tournament_id
    last = db.session.execute(_deal_statements()[1], {"table_id": table_id}).first()
    if last is not None and last.status == "playing":
        playing_row = latest_hand(table_id)
        raise Conflict(hand_json(playing_row) if playing_row is not None else None,
                       _("Hand %(n)s is still being played: finish it, undo, "
                         "or call a misdeal first", n=last.number))
    now = utcnow()
    level = clock_service.level_at(deal.structure, deal.clock, now) or {}
    if level.get("is_break") or not level.get("game"):
        raise Invalid({"level": _(ON_BREAK)})
    game = Game(level["game"])
    seat_rows = _seat_rows(table)
    held = dealer_hold.hold(table, len(seat_rows), last, deal.policy, deal.hand_for_hand, deal.most)
    if held is not None:
        raise Illegal(held)
    redeal = last is not None and last.status == "misdeal"
    try:
        positions, seated = _dealt_in(table, _seated(table, seat_rows), last, game)
    except (RuleViolation, KeyError, ValueError) as exc:
        raise Invalid({"table": str(exc)}) from None
    waiting = {s: w for s, (pl, w) in seated.items()}
    playing = {s: pl for s, (pl, waiting) in seated.items() if not waiting and pl.chips > 0
               and pl.status == "active"}
    for number in absent_seats:
        if number not in playing:
            raise Invalid({"absent_seats": _("Nobody plays this hand in seat %(seat)s", seat=number)})
    if len(playing) < 2:
        raise Invalid({"table": _("A hand needs at least two players with chips at the table")})
    size = table.size
    if game.is_stud:
        seats_in_order = sorted(playing)
    else:
        button = int(positions.get("button") or max(playing))
        seats_in_order = sorted(playing, key=lambda s: (s - button - 1) % size)
    order = [{"seat": s, "player_id": playing[s].id, "name": playing[s].name,
              "chips": playing[s].chips} for s in seats_in_order]
    try:
        config = _level_config(level, order, positions, absent_seats, game, deal.policy, deal.house)
        started = Hand.start(config)
    except RuleViolation as exc:
        raise Invalid({"level": translate_violation(exc)}) from None
    number = (last.number + 1) if last is not None else 1
    # The hand's number as the table counts it: a redeal after a misdeal is the same hand
    # (TDA 35), so it keeps the number the dealer and the log used (the row's own number
    # stays unique: it is what another tablet's deal of the same hand collides on).
    shown = shown_number(last) if last is not None else 0
    shown = shown if redeal else shown + 1
    positions = {**positions, "hand_number": shown}
    shot = shot_clock.settings(deal.house_rulings)
    if shot is not None:
        positions["shot_clock"] = shot
    named = GAME_NAMES.get(game.value)
    parts: list[str] = [Said(N_("Hand %(n)s dealt: %(game)s, level %(level)s (%(stakes)s)"), n=shown,
                             game={"msgid": named} if named else game_name(game.value),
                             level=level.get("level_number"),
                             stakes={"stakes": {key: level.get(key) for key in STAKES_KEYS}})]
    if positions.get("button"):
        parts.append(Said(N_("button seat %(seat)s"), seat=positions["button"]))
    if redeal:
        parts.append(Said(N_("redeal after the misdeal, same button")))
    if absent_seats:
        parts.append(Said(N_("absent: seat %(seats)s"), seats=", ".join(str(s) for s in absent_seats)))
    text = joined(parts)
    dealt_row = HandRow(id=0, tournament_id=tournament_id, table_id=table_id, table_number=table.number,
                        number=number, game=game.value, config=config.to_json(),
                        players=[{k: p[k] for k in ("seat", "player_id", "name")} for p in order],
                        level=level, positions=positions, status="playing", version=1, last_seq=0,
                        clock_call=None)
    # The button moves on (TDA 32), in the same transaction: the table's row only, so
    # that hands starting at fifty tables at once do not queue on the tournament.
    moves = None
    if not redeal and not game.is_stud:
        moves = ((positions["button"], positions["small_blind"], positions["big_blind"]),
                 [(waiting[seat.seat], seat.seat) for seat in seat_rows
                  if seat.seat in waiting and bool(seat.waiting) != waiting[seat.seat]])
    committed = write_new_hand(dealt_row, moves, who, text, now)
    if committed is None:
        current_row = latest_hand(table_id)
        raise Conflict(hand_json(current_row) if current_row is not None else None,
                       _("The hand changed on another screen: here it is as it stands"))
    log = [log_line(now, who, text)]
    body = hand_json(committed, started, log, turn_started=now)
    # Committed by the group's writer thread: told now (``uow.dispatch``), what this
    # process keeps first, then the tablets.
    uow.after_commit(functools.partial(remember, committed.id, committed.version, started, log))
    uow.after_commit(functools.partial(keep_state, body))
    tell_tablets(committed)
    uow.dispatch()
    return Answer(body, 201)


def correct_stack(table_id: int, seat: int, chips: int, who: str) -> dict[str, Any]:
    """A stack counted at the table between hands (hidden chips found, a wrong count: TDA
    25) is corrected from the tablet: the player's chips become the count, in the
    tournament's log; refused while a hand is being played (it moves the chips at its
    end).  Answers the next hand's seats."""
    table = get_table(table_id)
    row = latest_hand(table_id)
    if row is not None and row.status == "playing":
        raise Illegal(_("Hand %(n)s is being played: count the stack after it", n=shown_number(row)))
    sitting = db.session.scalar(select(Seat.player_id).where(Seat.table_id == table_id, Seat.seat == seat))
    if sitting is None:
        raise Invalid({"seat": _("Nobody plays in seat %(seat)s", seat=seat)})
    if row is not None:     # the hand's log line, committed with the chips (one unit of work)
        name = db.session.scalar(select(Player.name).where(Player.id == sitting))
        log_line_only(row, who, _("Stack counted: seat %(seat)s (%(name)s) has %(chips)s",
                                  seat=seat, name=name, chips=chips_text(chips)))
    seating_service.set_chips(table.tournament_id, sitting, chips)
    return next_hand(table_id)


def next_hand(table_id: int) -> dict[str, Any]:
    """Who will be dealt in next, where the button and blinds go (before "Deal"), and the
    house rules it will be dealt under that are not the TDA default (``house_rules``,
    as ``start_hand`` reads them: RULES.md §11.1)."""

    deal = _deal_context(table_id)
    table = deal.table
    last = db.session.execute(_deal_statements()[1], {"table_id": table_id}).first()
    level = clock_service.level_at(deal.structure, deal.clock, utcnow()) or {}
    seated = _seated(table)
    positions: dict[str, Any] = {}
    if level.get("game"):
        try:
            positions, seated = _dealt_in(table, seated, last, Game(level["game"]))
        except (RuleViolation, KeyError, ValueError):
            positions = {}          # the deal itself says why (fewer than two players)
    seats = [{"seat": s, "name": p.name, "chips": p.chips, "waiting": w}
             for s, (p, w) in sorted(seated.items()) if p.status == "active" and p.chips > 0]
    label = ""
    if level:
        label = _("Level %(n)s", n=level.get("level_number")) + " · " + stakes_label(level)
    in_progress = last is not None and last.status == "playing"
    held = None
    if level.get("is_break"):
        held = _(ON_BREAK)
    elif not in_progress:
        held = dealer_hold.hold(table, len(seated), last, deal.policy, deal.hand_for_hand, deal.most)
    return {"table_id": table_id, "table_number": table.number, "seats": seats,
            "positions": positions, "level": label, "is_break": bool(level.get("is_break")),
            "hand_in_progress": in_progress, "hold": held,
            "house_rules": house_rules.changed(deal.house, deal.house_rulings)}
