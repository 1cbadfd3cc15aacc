"""A simulated 300-player, 9-handed event from the draw to the winner.

Every table deals hands in turn (the button and blinds move on with
``deal_hand``); after each hand some of the players dealt in bust at random;
then the director confirms whatever ``plan_seating`` proposes (break a table,
redraw, balance) until it proposes nothing.  After every hand we assert:

1. **One seat per player**: every player still in is seated exactly once, and
   nobody else is (a ``Layout`` cannot put two players in one seat; this
   checks that nobody is lost or duplicated by a move).
2. **Balanced**: once the plans are applied, table sizes differ by at most
   ``balance_threshold`` (1), and no table is halted (TDA 11-D).
3. **Nobody skips the big blind** (TDA 32, 11-A), in two parts:

   a. *Players who stay.*  For two consecutive hands at one table, a
      "stayer" is a player in the same seat at both deals.  The big blind
      moves clockwise from last hand's big-blind seat to this hand's; no
      stayer may sit strictly between them (the big blind would have passed
      him over).  It lands on a seated player who is dealt in, and never on
      the same player twice in a row.
   b. *Players moved to balance.*  Replaying each balance move on its own:
      the player moved is the one due the big blind next at the source
      table (so leaving does not dodge it), and at the destination he takes
      an open seat that pays the big blind no later than any other open seat
      except the small blind (TDA 11-A "worst position"); between open seats
      side by side (equally soon) he takes the one furthest round, which may
      leave him waiting for the button but never gives him a free button.  Players from a broken table and players in a
      redraw get random seats, which TDA 10-B allows to be anywhere, so
      they are exempt; a redraw also redraws the button, so the stayer check
      restarts at each redrawn table.
4. **Final table**: when one table is left it has ``final_size`` (9) seats
   and at most 9 players, and just before it there were two tables (TDA
   RP-9: two 5-handed tables at 10 players).

The event then plays on to a winner, through heads-up (TDA 34-B).  A
stud-only run checks instead that no table has a button and that each
balance move fills the last seat to open, by position (TDA 11-A).
Each plan and each layout also survives a JSON round trip.
"""

from __future__ import annotations

import random
import time

import pytest

from director.tournament.button import Positions, hands_until_big_blind, is_between
from director.tournament.seating import (
    Layout,
    PlanKind,
    SeatingPlan,
    SeatingPolicy,
    TableState,
    apply_moves,
    apply_plan,
    deal_hand,
    draw_seats,
    halted_tables,
    plan_seating,
    remove_players,
)

PLAYERS = 300


def check_balance_move(layout: Layout, plan_moves: tuple) -> None:  # type: ignore[type-arg]
    """Invariant 3b, move by move."""
    for move in plan_moves:
        source = layout.table(move.from_table)
        assert source.next_big_blind() == move.from_seat, move.describe()
        dest = layout.table(move.to_table)
        last = dest.last_hand
        assert last is not None
        open_seats = [s for s in dest.open_seats if s != last.big_blind] or dest.open_seats
        soonest = min(hands_until_big_blind(s, last, dest.seats, dest.size) for s in open_seats)
        assert hands_until_big_blind(move.to_seat, last, dest.seats, dest.size) == soonest
        assert move.to_seat in open_seats
        # Ties (open seats side by side) go to the seat furthest round.
        ties = [s for s in open_seats
                if hands_until_big_blind(s, last, dest.seats, dest.size) == soonest]
        assert max(ties, key=lambda s: (s - last.big_blind) % dest.size) == move.to_seat
        layout = apply_moves(layout, [move])


def check_stud_balance_move(layout: Layout, plan_moves: tuple) -> None:  # type: ignore[type-arg]
    """Stud-only (TDA 11-A): the last seat to open at the short table is filled, by
    the player in that seat number at the source (or the next one clockwise)."""
    for move in plan_moves:
        dest = layout.table(move.to_table)
        opened = [s for s in dest.vacated if s in dest.open_seats]
        assert move.to_seat == (opened[-1] if opened else max(dest.open_seats))
        source = layout.table(move.from_table)
        nearest = next(s for s in [*range(move.to_seat, source.size + 1),
                                   *range(1, move.to_seat)] if s in source.seats)
        assert move.from_seat == nearest
        layout = apply_moves(layout, [move])


def check_deal(before: tuple[Positions, dict[int, int]] | None, table: TableState) -> None:
    """Invariant 3a between the hand last dealt at this table and this one."""
    hand = table.last_hand
    assert hand is not None
    bb_player = table.seats[hand.big_blind]
    assert not bb_player.waiting
    if hand.heads_up:
        assert table.count == 2 and hand.button in table.seats
    if before is None:
        return
    last, seats = before
    stayers = [s for s, p in table.seats.items() if seats.get(s) == p.player_id]
    skipped = [s for s in stayers if is_between(s, last.big_blind, hand.big_blind, table.size)]
    assert not skipped, f"table {table.number}: BB {last.big_blind}→{hand.big_blind} skips {skipped}"
    assert seats.get(last.big_blind) != bb_player.player_id


def check_layout(layout: Layout, alive: set[int], policy: SeatingPolicy) -> None:
    ids = [p.player_id for t in layout.tables for p in t.seats.values()]
    assert len(ids) == len(set(ids)) and set(ids) == alive          # invariant 1
    counts = [t.count for t in layout.tables]
    assert max(counts) - min(counts) <= policy.balance_threshold     # invariant 2
    assert halted_tables(layout, policy) == []


def run_event(seed: int, policy: SeatingPolicy, bust_chance: float = 0.06) -> dict[str, int]:
    rng = random.Random(seed)
    layout = apply_plan(Layout(()), draw_seats(
        [(i, f"Player {i}") for i in range(1, PLAYERS + 1)], policy, rng))
    alive = set(range(1, PLAYERS + 1))
    last_deal: dict[int, tuple[Positions, dict[int, int]]] = {}
    stats = {"hands": 0, "balance_moves": 0, "breaks": 0, "redraws": 0, "final_at": 0}
    check_layout(layout, alive, policy)
    while len(alive) > 1:
        order = layout.numbers
        rng.shuffle(order)
        for number in order:
            if number not in layout.numbers or len(alive) < 2:
                continue
            table = deal_hand(layout.table(number))
            if policy.stud_only:
                assert table.last_hand is None
            else:
                check_deal(last_deal.get(number), table)
                hand = table.last_hand
                assert hand is not None
                last_deal[number] = (hand, {s: p.player_id for s, p in table.seats.items()})
            layout = layout.with_table(table)
            stats["hands"] += 1

            dealt_in = [p.player_id for p in table.seats.values() if not p.waiting]
            busts = [pid for pid in dealt_in if rng.random() < bust_chance]
            busts = busts[:len(dealt_in) - 1]          # somebody wins the pot
            if len(layout.tables) == 1 and not busts and rng.random() < 0.3:
                busts = dealt_in[:1]                   # keep the final table moving
            layout = remove_players(layout, busts)
            alive -= set(busts)

            tables_before = len(layout.tables)
            while True:
                plan = plan_seating(layout, policy, rng)
                if plan.kind is PlanKind.NONE:
                    break
                if plan.kind is PlanKind.BALANCE and policy.stud_only:
                    check_stud_balance_move(layout, plan.moves)
                    stats["balance_moves"] += len(plan.moves)
                elif plan.kind is PlanKind.BALANCE:
                    check_balance_move(layout, plan.moves)
                    stats["balance_moves"] += len(plan.moves)
                elif plan.kind is PlanKind.BREAK:
                    stats["breaks"] += 1
                else:
                    stats["redraws"] += 1
                    for n in list(last_deal):          # the button is redrawn
                        del last_deal[n]
                assert SeatingPlan.from_json(plan.to_json()) == plan
                layout = apply_plan(layout, plan)
                assert Layout.from_json(layout.to_json()) == layout
                for n in plan.close_tables:
                    last_deal.pop(n, None)
            check_layout(layout, alive, policy)
            if len(layout.tables) == 1 and tables_before > 1:     # invariant 4
                final = layout.tables[0]
                assert final.size == policy.final_size and final.count <= policy.final_size
                assert tables_before == 2
                stats["final_at"] = final.count
            if len(layout.tables) > 1:
                assert len(alive) > policy.final_size
                if len(alive) == policy.final_size + 1 and policy.balance_threshold == 1:
                    half = len(alive) // 2               # e.g. two 5-handed tables at 10
                    assert sorted(t.count for t in layout.tables) == [half, len(alive) - half]
    assert len(layout.tables) == 1 and layout.player_count == 1
    return stats


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("bust_chance", [0.06, 0.25])
def test_simulated_300_player_event_keeps_every_seating_invariant(seed: int,
                                                                  bust_chance: float) -> None:
    policy = SeatingPolicy(table_size=9, redraw_at_tables=(3, 2, 1))  # a WSOP field of 300
    started = time.perf_counter()
    stats = run_event(seed, policy, bust_chance)
    assert time.perf_counter() - started < 5
    assert stats["balance_moves"] > 10 and stats["breaks"] > 20
    assert stats["redraws"] == 3                        # 3 tables, 2 tables, final table
    assert 1 <= stats["final_at"] <= 9


@pytest.mark.parametrize(("table_size", "threshold", "redraws"),
                         [(6, 1, (3, 2, 1)), (8, 1, (2, 1)), (10, 1, ()), (9, 2, (3, 2, 1))])
def test_simulated_events_of_other_sizes_and_settings(table_size: int, threshold: int,
                                                      redraws: tuple[int, ...]) -> None:
    policy = SeatingPolicy(table_size=table_size, balance_threshold=threshold,
                           redraw_at_tables=redraws)
    stats = run_event(table_size * 7 + threshold, policy)
    assert stats["redraws"] == len(redraws)
    assert 1 <= stats["final_at"] <= policy.final_size


def test_simulated_stud_only_event_moves_by_position() -> None:
    policy = SeatingPolicy(table_size=8, stud_only=True, redraw_at_tables=(3, 2, 1))
    stats = run_event(11, policy)
    assert stats["balance_moves"] > 10 and stats["redraws"] == 3
