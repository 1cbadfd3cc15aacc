"""Seating rules of a multi-table tournament (TDA 2024 rules 7-11, RP-8, RP-9; RULES.md §1.6, §9)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable

import pytest

from director.poker.errors import RuleViolation
from director.tournament.button import (
    Positions,
    SeatStatus,
    hands_until_big_blind,
    is_between,
    seat_status,
)
from director.tournament.seating import (
    Bust,
    Finish,
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
    balance_tables,
    blinds_affected,
    break_table,
    deal_hand,
    draw_seats,
    end_hand_for_hand,
    finish_hand_for_hand_hand,
    halted_tables,
    next_table_to_break,
    place_busts,
    plan_seating,
    remove_players,
    seat_new_player,
    share_prizes,
    start_hand_for_hand,
    switch_game,
)


def pid(table: int, seat: int) -> int:
    return table * 100 + seat


def make_table(number: int, seats: Iterable[int], last: tuple[int, int, int] | None = None,
               size: int = 9, **kw: object) -> TableState:
    players = {s: SeatedPlayer(pid(number, s), f"Player {pid(number, s)}") for s in seats}
    table = TableState(number, size, players, **kw)  # type: ignore[arg-type]
    return table.with_positions(Positions(*last)) if last else table


def entrants(n: int) -> list[tuple[int, str]]:
    return [(i, f"Player {i}") for i in range(1, n + 1)]


def seated_ids(layout: Layout) -> list[int]:
    return [p.player_id for t in layout.tables for p in t.seats.values()]


# --------------------------------------------------------------------------- §1.6 new players

# Destination of [SEAT-1]..[SEAT-3]: upcoming hand BTN S4, SB S6, BB S7 (S5 and S9 empty);
# the hand last dealt had BTN S3, SB S4, BB S6.
SEAT_TABLE = make_table(1, [1, 2, 3, 4, 6, 7, 8], last=(3, 4, 6))


def test_SEAT_1_seat_between_button_and_small_blind_waits_for_the_button() -> None:
    assert SEAT_TABLE.upcoming() == Positions(4, 6, 7)
    assert seat_status(5, SEAT_TABLE.last_hand, SEAT_TABLE.seats, 9) is SeatStatus.WAITS
    # A broken-table player whose only possible seat card is table 1 seat 5.
    table1 = make_table(1, [1, 2, 3, 4, 6, 7, 8, 9], last=(3, 4, 6))
    layout = Layout((table1, make_table(2, range(1, 10), (1, 2, 3)), make_table(3, [4])))
    plan = break_table(layout, 3, SeatingPolicy(), random.Random(1))
    (move,) = plan.moves
    assert (move.to_table, move.to_seat, move.status) == (1, 5, SeatStatus.WAITS)
    assert move.describe() == \
        "Player 304: table 3 seat 4 → table 1 seat 5 (waits for the button to pass)"
    table = apply_plan(layout, plan).table(1)
    assert table.seats[5].waiting
    hand = deal_hand(table)                       # dealt out this hand ...
    assert hand.last_hand == Positions(4, 6, 7) and hand.seats[5].waiting
    assert not deal_hand(hand).seats[5].waiting   # ... dealt in next hand


def test_SEAT_2_seat_after_utg_is_dealt_in_and_big_blind_in_two_hands() -> None:
    assert seat_status(9, SEAT_TABLE.last_hand, SEAT_TABLE.seats, 9) is SeatStatus.DEALT_IN
    layout = apply_moves(Layout((SEAT_TABLE,)), [Move(999, "Anna Berg", None, None, 1, 9)])
    table = layout.table(1)
    assert SEAT_TABLE.last_hand is not None
    assert hands_until_big_blind(9, SEAT_TABLE.last_hand, table.seats, 9) == 2
    bbs = []
    for _ in range(3):
        table = deal_hand(table)
        bbs.append(table.bb_seat)
    assert bbs == [7, 8, 9]


def test_SEAT_3_seat_due_the_big_blind_posts_it_now() -> None:
    # Upcoming BB seat S7 empty (its player busted): the new player there posts the BB.
    table = make_table(1, [1, 2, 3, 4, 6, 8], last=(3, 4, 6))
    layout = Layout((table,))
    assert table.last_hand is not None
    assert seat_status(7, table.last_hand, table.seats, 9) is SeatStatus.BIG_BLIND
    statuses: dict[int, Move] = {}
    for seed in range(40):                        # a random seat: 5, 7 or 9
        plan = seat_new_player(layout, 999, "Anna Berg", SeatingPolicy(), random.Random(seed))
        assert plan.kind is PlanKind.NEW_PLAYER
        statuses[plan.moves[0].to_seat] = plan.moves[0]
    assert set(statuses) == {5, 7, 9}
    assert statuses[7].status is SeatStatus.BIG_BLIND
    assert statuses[7].describe() == "Anna Berg: table 1 seat 7 (posts the big blind now)"
    assert statuses[5].status is SeatStatus.WAITS
    assert statuses[9].status is SeatStatus.DEALT_IN
    hand = deal_hand(apply_plan(layout, SeatingPlan(PlanKind.NEW_PLAYER,
                                                    (statuses[7],))).table(1))
    assert hand.bb_seat == 7


def test_new_player_goes_to_a_table_with_the_fewest_players() -> None:
    layout = Layout((make_table(1, range(1, 9), (1, 2, 3)), make_table(2, range(1, 8), (1, 2, 3)),
                     make_table(3, range(1, 9), (1, 2, 3))))
    for seed in range(10):
        move = seat_new_player(layout, 999, "Late", SeatingPolicy(), random.Random(seed)).moves[0]
        assert (move.to_table, move.from_table) == (2, None)
        assert move.to_seat in (8, 9)


def test_new_player_when_every_seat_is_taken_opens_a_table() -> None:
    layout = Layout((make_table(1, range(1, 10), (1, 2, 3)),))
    plan = seat_new_player(layout, 999, "Late", SeatingPolicy(), random.Random(1))
    assert plan.open_tables == {2: 9}
    after = apply_plan(layout, plan)
    assert after.numbers == [1, 2] and after.table(2).count == 1
    with pytest.raises(RuleViolation, match="already has a seat"):
        seat_new_player(after, 999, "Late", SeatingPolicy())


# --------------------------------------------------------------------------- the draw


@pytest.mark.parametrize(("size", "players", "tables"),
                         [(9, 300, 34), (6, 100, 17), (8, 64, 8), (10, 101, 11), (9, 9, 1),
                          (8, 9, 1), (9, 10, 2)])
def test_draw_uses_fewest_tables_differing_by_at_most_one(size: int, players: int,
                                                          tables: int) -> None:
    policy = SeatingPolicy(table_size=size)
    plan = draw_seats(entrants(players), policy, random.Random(size * players))
    layout = apply_plan(Layout(()), plan)
    counts = [t.count for t in layout.tables]
    assert len(counts) == tables
    assert max(counts) - min(counts) <= 1
    assert sorted(seated_ids(layout)) == list(range(1, players + 1))
    for t in layout.tables:                          # the button starts on a player
        assert t.upcoming() is not None
        assert t.upcoming().button in t.seats        # type: ignore[union-attr]


def test_draw_is_repeatable_with_a_seed_and_random_by_default() -> None:
    policy = SeatingPolicy()
    one = draw_seats(entrants(50), policy, random.Random(42))
    two = draw_seats(entrants(50), policy, random.Random(42))
    assert one == two
    assert draw_seats(entrants(50), policy, random.Random(43)) != one
    draws = {draw_seats(entrants(50), policy).moves for _ in range(3)}
    assert len(draws) == 3                           # secrets.SystemRandom by default
    assert isinstance(secrets.SystemRandom(), random.Random)


def test_draw_describes_each_seat_and_round_trips_as_json() -> None:
    plan = draw_seats([(7, "Anna Berg"), (8, "Bo Ek")], SeatingPolicy(), random.Random(0))
    assert plan.kind is PlanKind.DRAW
    assert plan.open_tables == {1: 9}
    assert any(line.startswith("Anna Berg: table 1 seat ") for line in plan.describe())
    assert SeatingPlan.from_json(plan.to_json()) == plan
    layout = apply_plan(Layout(()), plan)
    assert Layout.from_json(layout.to_json()) == layout


def test_draw_rejects_duplicates_and_a_field_of_one() -> None:
    with pytest.raises(RuleViolation, match="twice"):
        draw_seats([(1, "A"), (1, "A")], SeatingPolicy())
    with pytest.raises(RuleViolation, match="at least two"):
        draw_seats([(1, "A")], SeatingPolicy())


def test_stud_only_draw_places_no_button() -> None:
    policy = SeatingPolicy(table_size=8, stud_only=True)
    layout = apply_plan(Layout(()), draw_seats(entrants(20), policy, random.Random(1)))
    assert all(t.last_hand is None and t.game_is_stud for t in layout.tables)
    table = deal_hand(layout.tables[0])
    assert table.last_hand is None and table.upcoming() is None


def test_policy_and_hand_for_hand_state_round_trip_as_json() -> None:
    policy = SeatingPolicy(table_size=8, breaking_order=(5, 3), redraw_at_tables=(2, 1))
    assert SeatingPolicy.from_json(policy.to_json()) == policy
    assert SeatingPolicy.from_json({}) == SeatingPolicy()
    state = HandForHand(on=True, hands_played=4)
    assert HandForHand.from_json(state.to_json()) == state


def test_policy_rejects_odd_settings() -> None:
    with pytest.raises(RuleViolation):
        SeatingPolicy(table_size=11)
    with pytest.raises(RuleViolation, match="3 minutes"):
        SeatingPolicy(hand_for_hand_seconds=200)
    with pytest.raises(RuleViolation):
        SeatingPolicy(balance_threshold=0)


@pytest.mark.parametrize(("size", "final"), [(9, 9), (8, 9), (7, 7), (6, 7), (10, 10)])
def test_RP_9_final_table_size_by_event(size: int, final: int) -> None:
    assert SeatingPolicy(table_size=size).final_size == final
    assert SeatingPolicy(table_size=9, final_table_size=10).final_size == 10


# --------------------------------------------------------------------------- balancing


def test_BAL_1_table_three_short_halts_once_its_big_blind_falls_on_an_empty_seat() -> None:
    policy = SeatingPolicy()
    fullest = make_table(2, range(1, 9), (1, 2, 3))
    # Table 1 has 5 players; its next big blind (after S3) is S4, occupied: keep playing.
    playing = make_table(1, [1, 2, 3, 4, 5], (1, 2, 3))
    assert not blinds_affected(playing)
    assert halted_tables(Layout((playing, fullest)), policy) == []
    # Seat 4 empty: the big blind would fall on an empty seat -> halt.
    short = make_table(1, [1, 2, 3, 5, 6], (1, 2, 3))
    assert blinds_affected(short)
    assert halted_tables(Layout((short, fullest)), policy) == [1]
    # Only two short: no halt, even with the blinds affected.
    two_short = make_table(2, range(1, 8), (1, 2, 3))
    assert halted_tables(Layout((short, two_short)), policy) == []
    # Balancing it resolves the halt.
    layout = apply_plan(Layout((short, fullest)), balance_tables(Layout((short, fullest)), policy))
    assert halted_tables(layout, policy) == []


def test_BAL_2_player_due_the_big_blind_moves_and_takes_the_big_blind() -> None:
    source = make_table(1, range(1, 10), (1, 2, 3))          # next hand's BB is S4
    dest = make_table(2, [1, 2, 3, 4, 6, 7, 8], (6, 7, 8))   # upcoming BTN S7, SB S8, BB S9
    layout = Layout((source, dest))
    plan = balance_tables(layout, SeatingPolicy())
    assert plan.kind is PlanKind.BALANCE
    (move,) = plan.moves
    assert (move.from_table, move.from_seat, move.to_table, move.to_seat) == (1, 4, 2, 9)
    assert move.status is SeatStatus.BIG_BLIND
    assert move.describe() == "Player 104: table 1 seat 4 → table 2 seat 9 (takes the big blind)"
    after = apply_plan(layout, plan)
    assert deal_hand(after.table(2)).bb_seat == 9
    assert deal_hand(after.table(1)).bb_seat == 5             # nobody at table 1 skips it


def test_BAL_2_when_the_big_blind_seat_is_taken_the_worst_open_seat_is_S3() -> None:
    source = make_table(1, range(1, 10), (1, 2, 3))
    dest = make_table(2, [1, 2, 4, 6, 7, 8, 9], (6, 7, 8))   # open: S3 and S5
    (move,) = balance_tables(Layout((source, dest)), SeatingPolicy()).moves
    assert (move.from_seat, move.to_seat) == (4, 3)
    assert move.note == "big blind after 3 hands"
    assert move.status is SeatStatus.DEALT_IN


def test_balancing_never_uses_the_small_blind_seat() -> None:
    source = make_table(1, range(1, 10), (1, 2, 3))
    dest = make_table(2, [1, 2, 4, 5, 6, 9, 3], (6, 7, 8))   # S7 and S8 left; S8 = next SB
    (move,) = balance_tables(Layout((source, dest)), SeatingPolicy()).moves
    assert move.to_seat == 7


def test_balancing_between_a_dead_button_and_the_small_blind_the_mover_waits() -> None:
    # Upcoming: button S9 (dead), SB S2, BB S3.  S9 and S1 pay the BB equally late;
    # the mover takes S1 (no free hand on the button) and waits for the button.
    source = make_table(1, range(1, 10), (1, 2, 3))
    dest = make_table(2, range(2, 9), (7, 9, 2))
    (move,) = balance_tables(Layout((source, dest)), SeatingPolicy()).moves
    assert move.to_seat == 1 and move.status is SeatStatus.WAITS
    assert move.note == "big blind after 6 hands; waits for the button to pass"


def test_balancing_surfaces_the_big_blind_twice_question_to_the_floor() -> None:
    # Table 2's last BB (S4) busted: S4 is the next SB; S5 will post the BB.
    source = make_table(1, range(1, 10), (1, 2, 3))
    dest = make_table(2, [1, 2, 3, 5, 6, 7, 9], (2, 3, 4))
    plan = balance_tables(Layout((source, dest)), SeatingPolicy())
    (move,) = plan.moves
    assert move.to_seat == 8 and move.note == "big blind after 3 hands"
    (question,) = plan.floor_notes
    assert question.startswith("table 2 seat 4 posted the last big blind and is open")
    assert "Floor: " + question in plan.describe()
    assert SeatingPlan.from_json(plan.to_json()) == plan
    # With an open seat that takes the big blind at once, there is nothing to ask.
    dest = make_table(2, [1, 2, 3, 6, 7, 8, 9], (2, 3, 4))
    plan = balance_tables(Layout((source, dest)), SeatingPolicy())
    assert plan.moves[0].to_seat == 5 and plan.floor_notes == ()


def test_balance_source_is_the_fullest_table_first_in_the_breaking_order() -> None:
    tables = (make_table(1, range(1, 10), (1, 2, 3)), make_table(2, range(1, 10), (1, 2, 3)),
              make_table(3, range(1, 8), (1, 2, 3)))
    layout = Layout(tables)
    default = balance_tables(layout, SeatingPolicy())        # highest number breaks first
    assert [m.from_table for m in default.moves] == [2]
    ordered = balance_tables(layout, SeatingPolicy(breaking_order=(1, 3, 2)))
    assert [m.from_table for m in ordered.moves] == [1]


def test_balance_many_moves_ends_within_the_threshold() -> None:
    tables = tuple(make_table(n, range(1, 10), (1, 2, 3)) for n in range(1, 5)) + \
        (make_table(5, [1, 2], (1, 2, 1)), make_table(6, [4, 5, 6], (4, 5, 6)))
    layout = Layout(tables)
    for threshold in (1, 2):
        policy = SeatingPolicy(balance_threshold=threshold)
        after = apply_plan(layout, balance_tables(layout, policy))
        counts = [t.count for t in after.tables]
        assert max(counts) - min(counts) <= threshold
        assert sorted(seated_ids(after)) == sorted(seated_ids(layout))
    assert balance_tables(after, SeatingPolicy(balance_threshold=2)).kind is PlanKind.NONE


def test_stud_only_balancing_fills_the_last_seat_to_open_by_position() -> None:
    policy = SeatingPolicy(table_size=8, stud_only=True)
    source = make_table(1, range(1, 9), size=8, game_is_stud=True)
    dest = make_table(2, range(1, 9), size=8, game_is_stud=True)
    layout = remove_players(Layout((source, dest)), [pid(2, 6)])
    layout = remove_players(layout, [pid(2, 2)])             # S6 opened first, then S2
    assert layout.table(2).vacated == (6, 2)
    (move,) = balance_tables(layout, policy).moves
    assert (move.from_seat, move.to_seat) == (2, 2)
    assert move.note == "fills the last open seat"


def test_mixed_game_balancing_during_stud_moves_the_would_be_big_blind_TDA_11_B() -> None:
    source = switch_game(make_table(1, range(1, 10), (1, 2, 3)), game_is_stud=True)
    dest = switch_game(make_table(2, [1, 2, 3, 4, 6, 7, 8], (6, 7, 8)), game_is_stud=True)
    assert deal_hand(source).last_hand == Positions(1, 2, 3)  # frozen during stud
    (move,) = balance_tables(Layout((source, dest)), SeatingPolicy()).moves
    assert (move.from_seat, move.to_seat) == (4, 9)
    back = switch_game(deal_hand(deal_hand(source)), game_is_stud=False)
    assert deal_hand(back).last_hand == Positions(2, 3, 4)    # resumes where it would be


# --------------------------------------------------------------------------- breaking


def test_break_table_reseats_everyone_at_random_and_keeps_tables_balanced() -> None:
    layout = Layout(tuple(make_table(n, range(1, 7), (1, 2, 3)) for n in range(1, 5)))
    assert next_table_to_break(layout, SeatingPolicy()) == 4
    assert next_table_to_break(layout, SeatingPolicy(breaking_order=(2,))) == 2
    plan = break_table(layout, 4, SeatingPolicy(), random.Random(5))
    assert plan.kind is PlanKind.BREAK and plan.close_tables == (4,)
    assert sorted(m.player_id for m in plan.moves) == sorted(pid(4, s) for s in range(1, 7))
    after = apply_plan(layout, plan)
    assert after.numbers == [1, 2, 3]
    assert [t.count for t in after.tables] == [8, 8, 8]
    for m in plan.moves:                              # each status matches its seat
        table = after.table(m.to_table)
        upcoming = table.upcoming()
        assert upcoming is not None
        if m.to_seat == upcoming.big_blind:
            assert m.status is SeatStatus.BIG_BLIND
        elif is_between(m.to_seat, upcoming.button, upcoming.small_blind, table.size):
            assert m.status is SeatStatus.WAITS and table.seats[m.to_seat].waiting
        assert m.note == m.status.value


def test_break_table_draws_differ_by_seed() -> None:
    layout = Layout(tuple(make_table(n, range(1, 7), (1, 2, 3)) for n in range(1, 5)))
    seats = {tuple((m.player_id, m.to_table, m.to_seat)
                   for m in break_table(layout, 4, SeatingPolicy(), random.Random(s)).moves)
             for s in range(5)}
    assert len(seats) > 1


def test_break_table_without_room_is_refused() -> None:
    layout = Layout((make_table(1, range(1, 10), (1, 2, 3)), make_table(2, range(1, 5), (1, 2, 3))))
    with pytest.raises(RuleViolation, match="cannot break"):
        break_table(layout, 2, SeatingPolicy())


def test_plan_breaks_the_next_table_then_redraws_at_three_two_and_final() -> None:
    policy = SeatingPolicy(table_size=9, redraw_at_tables=(3, 2, 1))   # the WSOP-T 67-c points
    layout = Layout(tuple(make_table(n, range(1, 7), (1, 2, 3)) for n in range(1, 6)))  # 30
    plan = plan_seating(layout, policy, random.Random(1))    # 30 players fit 4 tables
    assert plan.kind is PlanKind.BREAK and plan.close_tables == (5,)
    layout = apply_plan(layout, plan)
    layout = remove_players(layout, [p.player_id for p in layout.table(4).seats.values()][:4])
    plan = plan_seating(layout, policy, random.Random(2))    # 26 players: 3 tables, redraw
    assert plan.kind is PlanKind.REDRAW and plan.close_tables == (4,)
    assert len(plan.moves) == 26 and set(plan.buttons) == {1, 2, 3}
    layout = apply_plan(layout, plan)
    assert sorted(t.count for t in layout.tables) == [8, 9, 9]
    assert all(not p.waiting for t in layout.tables for p in t.seats.values())
    ids = seated_ids(layout)
    layout = remove_players(layout, ids[:9])                 # 17 left: 2 tables
    plan = plan_seating(layout, policy, random.Random(3))
    assert plan.kind is PlanKind.REDRAW and plan.close_tables == (3,)
    layout = apply_plan(layout, plan)
    layout = remove_players(layout, seated_ids(layout)[:8])  # 9 left: final table
    plan = plan_seating(layout, policy, random.Random(4))
    assert plan.kind is PlanKind.FINAL_TABLE
    layout = apply_plan(layout, plan)
    assert layout.numbers == [1] and layout.tables[0].count == 9
    assert plan_seating(layout, policy).kind is PlanKind.NONE


def test_final_table_of_an_8_handed_event_seats_nine_RP_9() -> None:
    policy = SeatingPolicy(table_size=8, redraw_at_tables=())
    layout = Layout((make_table(1, range(1, 6), (1, 2, 3), size=8),
                     make_table(2, range(1, 6), (1, 2, 3), size=8)))
    assert plan_seating(layout, policy).kind is PlanKind.NONE   # two 5-handed tables at 10
    layout = remove_players(layout, [pid(1, 1)])
    plan = plan_seating(layout, policy, random.Random(0))
    assert plan.kind is PlanKind.BREAK and plan.open_tables == {1: 9}
    final = apply_plan(layout, plan)
    assert final.numbers == [1] and final.table(1).size == 9 and final.table(1).count == 9


def test_final_table_wsop_ten_handed_and_redraw_size() -> None:
    policy = SeatingPolicy(table_size=9, final_table_size=10)
    layout = Layout((make_table(1, range(1, 6), (1, 2, 3)), make_table(2, range(1, 6), (1, 2, 3))))
    plan = plan_seating(layout, policy, random.Random(9))      # 10 players: final table
    assert plan.kind is PlanKind.FINAL_TABLE and plan.open_tables == {1: 10}
    assert plan.close_tables == (2,) and set(plan.buttons) == {1}
    final = apply_plan(layout, plan)
    assert final.numbers == [1]
    assert (final.table(1).size, final.table(1).count) == (10, 10)
    assert final.table(1).upcoming().button == plan.buttons[1]  # type: ignore[union-attr]


def test_final_table_smaller_than_the_tables_shrinks_after_the_redraw() -> None:
    policy = SeatingPolicy(table_size=10, final_table_size=9)
    assert policy.tables_needed(10) == 2                     # 10 do not fit at 9 seats
    layout = Layout((make_table(1, [1, 4, 10], (1, 4, 10), size=10),
                     make_table(2, range(1, 7), (1, 2, 3), size=10)))
    plan = plan_seating(layout, policy, random.Random(2))
    assert plan.kind is PlanKind.FINAL_TABLE and plan.open_tables == {1: 9}
    final = apply_plan(layout, plan)
    assert (final.table(1).size, final.table(1).count) == (9, 9)


# --------------------------------------------------------------------------- applying moves


def test_apply_moves_refuses_impossible_moves() -> None:
    layout = Layout((make_table(1, [1, 2, 3], (1, 2, 3)), make_table(2, [1, 2], (1, 1, 2))))
    with pytest.raises(RuleViolation, match="seat 2 is taken"):
        apply_moves(layout, [Move(pid(1, 1), "x", 1, 1, 2, 2)])
    with pytest.raises(RuleViolation, match="is not in table 1 seat 2"):
        apply_moves(layout, [Move(pid(1, 1), "x", 1, 2, 2, 5)])
    with pytest.raises(RuleViolation, match="moved twice"):
        apply_moves(layout, [Move(pid(1, 1), "x", 1, 1, 2, 5), Move(pid(1, 1), "x", 1, 1, 2, 6)])
    with pytest.raises(RuleViolation, match="no table 7"):
        apply_moves(layout, [Move(pid(1, 1), "x", 1, 1, 7, 5)])
    with pytest.raises(RuleViolation, match="no seat 12"):
        apply_moves(layout, [Move(pid(1, 1), "x", 1, 1, 2, 12)])
    # Simultaneous swaps are fine, and the input is untouched.
    swapped = apply_moves(layout, [Move(pid(1, 1), "a", 1, 1, 2, 1),
                                   Move(pid(2, 1), "b", 2, 1, 1, 1)])
    assert swapped.table(1).seats[1].player_id == pid(2, 1)
    assert layout.table(1).seats[1].player_id == pid(1, 1)


def test_remove_players_and_deal_hand() -> None:
    layout = Layout((make_table(1, range(1, 7), (1, 2, 3), size=6),))
    layout = remove_players(layout, [pid(1, 3)])
    table = deal_hand(layout.table(1))
    assert table.last_hand == Positions(2, 3, 4)            # [BTN-2] through the layout
    with pytest.raises(RuleViolation, match="not seated"):
        remove_players(layout, [pid(1, 3)])
    lone = remove_players(layout, [pid(1, s) for s in (1, 2, 4, 5)])
    with pytest.raises(RuleViolation, match="cannot deal"):
        deal_hand(lone.table(1))
    fresh = make_table(3, [2, 5, 7])
    assert deal_hand(fresh).last_hand == Positions(7, 2, 5)  # first stack to dealer's right


# --------------------------------------------------------------------------- hand-for-hand


def test_H4H_1_busts_in_the_announcement_hand_share_the_places_in_play() -> None:
    busts = [Bust(1, 3, 5000), Bust(2, 3, 9000), Bust(3, 7, 2000)]
    finishes = place_busts(busts, 52, announcement_hand=True)
    assert finishes == (Finish(50, 52, (1, 2, 3)),)
    assert finishes[0].tied and finishes[0].place == 50
    payouts = [100_000] * 49 + [30_000]
    assert share_prizes(finishes, payouts) == {1: 10_000, 2: 10_000, 3: 10_000}


def test_H4H_2_busts_at_different_tables_tie_and_split_the_50th_prize() -> None:
    finishes = place_busts([Bust(10, 1, 12_000), Bust(20, 4, 8_000)], 51, hand_for_hand=True)
    assert finishes == (Finish(50, 51, (10, 20)),)
    assert share_prizes(finishes, [50_000] * 49 + [30_000]) == {10: 15_000, 20: 15_000}


def test_H4H_2_busts_at_the_same_table_bigger_starting_stack_finishes_higher() -> None:
    finishes = place_busts([Bust(20, 1, 8_000), Bust(10, 1, 12_000)], 51, hand_for_hand=True)
    assert finishes == (Finish(50, 50, (10,)), Finish(51, 51, (20,)))
    assert share_prizes(finishes, [50_000] * 49 + [30_000]) == {10: 30_000, 20: 0}


def test_hand_for_hand_busts_at_several_tables_shortest_stacks_go_first() -> None:
    busts = [Bust(1, 1, 12_000), Bust(2, 1, 8_000), Bust(3, 4, 5_000), Bust(4, 4, 5_000)]
    finishes = place_busts(busts, 40, hand_for_hand=True)
    assert finishes == (Finish(37, 37, (1,)), Finish(38, 40, (2, 3, 4)))


def test_prize_remainders_go_one_unit_each_in_a_fixed_order() -> None:
    finishes = (Finish(1, 1, (9,)), Finish(2, 4, (5, 6, 7)))
    shares = share_prizes(finishes, [1000, 500, 300, 201])
    assert shares == {9: 1000, 5: 334, 6: 334, 7: 333}
    assert sum(shares.values()) == 1000 + 500 + 300 + 201


def test_busts_outside_hand_for_hand_come_from_one_table() -> None:
    with pytest.raises(RuleViolation, match="each table's busts separately"):
        place_busts([Bust(1, 1, 10), Bust(2, 2, 10)], 30)
    assert place_busts([Bust(1, 1, 10), Bust(2, 1, 10)], 30) == (Finish(29, 30, (1, 2)),)
    with pytest.raises(RuleViolation, match="leave nobody"):
        place_busts([Bust(1, 1, 10), Bust(2, 1, 10)], 2)
    assert place_busts([], 10) == ()


def test_hand_for_hand_state_and_clock_seconds() -> None:
    policy = SeatingPolicy()
    state = announce_hand_for_hand(HandForHand())
    assert state.announced and not state.on
    with pytest.raises(RuleViolation, match="not on"):
        finish_hand_for_hand_hand(state, policy)
    state = start_hand_for_hand(state)
    state, seconds = finish_hand_for_hand_hand(state, policy)
    state, seconds = finish_hand_for_hand_hand(state, policy)
    assert (state.on, state.hands_played, seconds) == (True, 2, 120)
    assert finish_hand_for_hand_hand(state, SeatingPolicy(hand_for_hand_seconds=90))[1] == 90
    assert end_hand_for_hand(state) == HandForHand()
