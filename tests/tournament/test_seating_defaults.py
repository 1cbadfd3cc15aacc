"""Issue 14, items 4 and 5: seating defaults that follow the game and the field.

* Seven-card stud seats at most 8: with stud levels in the structure the draw,
  the tables and the final table use ``min(size, 8)`` (``seats_for_game``).
* TDA 2024 has no redraw rule and WSOP-T 67-c redraws at 3 and 2 tables only in
  fields of 100 or more: by default only the final table is redrawn; the 3- and
  2-table redraws are a house flag that applies from 100 entrants
  (``redraw_points``).
"""

from __future__ import annotations

import random

from director.tournament.seating import (
    BIG_FIELD,
    Layout,
    PlanKind,
    SeatedPlayer,
    SeatingPolicy,
    TableState,
    apply_plan,
    draw_seats,
    plan_seating,
    redraw_points,
    seats_for_game,
)


def field_of(counts: list[int], size: int = 9) -> Layout:
    """Tables 1..n with ``counts[i]`` players each, numbered 100*table + seat."""
    return Layout(tuple(
        TableState(n, size, {s: SeatedPlayer(100 * n + s, f"P{100 * n + s}")
                             for s in range(1, count + 1)})
        for n, count in enumerate(counts, start=1)))


# ---------------------------------------------------------------- stud seats at most 8

def test_stud_levels_cap_a_9_handed_event_and_its_final_table_at_8() -> None:
    policy = seats_for_game(SeatingPolicy(table_size=9), stud_levels=True)
    assert (policy.table_size, policy.final_size) == (8, 8)


def test_stud_levels_cap_an_explicit_final_table_of_9_at_8() -> None:
    policy = seats_for_game(SeatingPolicy(table_size=8, final_table_size=9), stud_levels=True)
    assert (policy.table_size, policy.final_size) == (8, 8)


def test_stud_levels_leave_a_6_handed_event_as_it_is() -> None:
    stored = SeatingPolicy(table_size=6)
    assert seats_for_game(stored, stud_levels=True) == stored


def test_no_stud_levels_keep_the_9_handed_final_table_of_TDA_RP9() -> None:
    policy = seats_for_game(SeatingPolicy(table_size=9), stud_levels=False)
    assert (policy.table_size, policy.final_size) == (9, 9)


def test_the_draw_with_stud_levels_seats_at_most_8_a_table() -> None:
    policy = seats_for_game(SeatingPolicy(table_size=10), stud_levels=True)
    layout = apply_plan(Layout(()), draw_seats([(i, f"P{i}") for i in range(1, 19)], policy,
                                               random.Random(1)))
    assert all(t.size == 8 and t.count <= 8 for t in layout.tables)
    assert len(layout.tables) == 3


def test_nine_left_with_stud_levels_are_not_one_final_table() -> None:
    policy = seats_for_game(SeatingPolicy(table_size=9), stud_levels=True)
    assert policy.tables_needed(9) == 2 and policy.tables_needed(8) == 1


# ---------------------------------------------------------------- redraws

def test_TDA_table_break_not_redraw_with_24_players_at_4_tables() -> None:
    layout = field_of([6, 6, 6, 6])
    plan = plan_seating(layout, SeatingPolicy(table_size=9), random.Random(1))
    assert plan.kind is PlanKind.BREAK and plan.close_tables == (4,)
    assert len(plan.moves) == 6                                    # only table 4's players move


def test_TDA_the_final_table_is_redrawn_by_default() -> None:
    layout = field_of([5, 4])
    plan = plan_seating(layout, SeatingPolicy(table_size=9), random.Random(1))
    assert plan.kind is PlanKind.FINAL_TABLE and len(plan.moves) == 9


def test_WSOP_67c_redraw_at_three_tables_is_a_house_flag_for_fields_of_100_or_more() -> None:
    layout = field_of([6, 6, 6, 6])
    house = SeatingPolicy(table_size=9, redraw_big_field=True)
    small = plan_seating(layout, redraw_points(house, 24), random.Random(1))
    assert small.kind is PlanKind.BREAK                            # 24 entrants: no redraw
    big = plan_seating(layout, redraw_points(house, BIG_FIELD), random.Random(1))
    assert big.kind is PlanKind.REDRAW and len(big.moves) == 24    # 100 entrants: redraw


def test_the_redraw_flag_is_off_by_default_whatever_the_field() -> None:
    assert SeatingPolicy().redraw_at_tables == (1,) and not SeatingPolicy().redraw_big_field
    assert redraw_points(SeatingPolicy(), 1_000).redraw_at_tables == (1,)
    assert SeatingPolicy.from_json(SeatingPolicy(redraw_big_field=True).to_json()).redraw_big_field
