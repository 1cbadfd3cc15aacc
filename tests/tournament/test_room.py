"""The room at registration (``director.tournament.room``): full or not, a seat the
director chooses (TDA 7 draws seats at random), and no new table past the room's."""

from __future__ import annotations

import doctest
import random

import pytest

from director.poker.errors import RuleViolation
from director.tournament import room
from director.tournament.room import SeatChoiceRefused, choose_seat, room_of
from director.tournament.seating import (
    Layout,
    SeatedPlayer,
    SeatingPolicy,
    TableState,
    seat_new_player,
)


def full_table(number: int, size: int = 6, first_id: int = 1) -> TableState:
    return TableState(number, size, {s: SeatedPlayer(first_id + s, f"P{first_id + s}")
                                     for s in range(1, size + 1)})


def test_the_doctests_hold() -> None:
    assert doctest.testmod(room).failed == 0


def test_a_room_without_a_table_limit_is_never_full() -> None:
    state = room_of(Layout((full_table(1),)), SeatingPolicy(table_size=6), registered=6)
    assert not state.full and state.open_seats is None and state.capacity is None


def test_one_table_rooms_fill_at_the_final_tables_size_before_the_draw() -> None:
    policy = SeatingPolicy(table_size=8, room_tables=1)      # the draw makes one 9-seat table
    assert room_of(Layout(()), policy, registered=8).open_seats == 1
    assert room_of(Layout(()), policy, registered=9).full


def test_every_seat_taken_at_the_rooms_tables_opens_no_new_table() -> None:
    layout = Layout((full_table(1), full_table(2, first_id=10)))
    with pytest.raises(RuleViolation, match="The room is full: every seat at the 2 tables"):
        seat_new_player(layout, 99, "Mo", SeatingPolicy(table_size=6, room_tables=2),
                        random.Random(1))
    plan = seat_new_player(layout, 99, "Mo", SeatingPolicy(table_size=6, room_tables=3),
                           random.Random(1))
    assert plan.open_tables == {3: 6}


@pytest.mark.parametrize(("policy", "table", "seat", "reason", "field"), [
    (SeatingPolicy(seat_choice="never"), 1, 2, "wheelchair", "table"),
    (SeatingPolicy(), 1, 2, "  ", "reason"),
    (SeatingPolicy(), 3, 2, "wheelchair", "table"),
    (SeatingPolicy(), 1, 7, "wheelchair", "seat"),
    (SeatingPolicy(), 1, 1, "wheelchair", "seat"),
])
def test_a_chosen_seat_is_refused_naming_the_field(policy: SeatingPolicy, table: int, seat: int,
                                                   reason: str, field: str) -> None:
    layout = Layout((TableState(1, 6, {1: SeatedPlayer(1, "Ann")}),))
    assert not room.can_choose_seat(layout, policy, table, seat, reason)
    with pytest.raises(SeatChoiceRefused) as refused:
        choose_seat(layout, 5, "Mo", table, seat, policy, reason)
    assert refused.value.field == field


def test_a_free_seat_choice_needs_no_reason() -> None:
    layout = Layout((TableState(1, 6, {1: SeatedPlayer(1, "Ann")}),))
    plan = choose_seat(layout, 5, "Mo", 1, 4, SeatingPolicy(seat_choice="free"), "")
    assert (plan.moves[0].to_table, plan.moves[0].to_seat) == (1, 4)


def test_the_room_settings_are_checked() -> None:
    with pytest.raises(RuleViolation):
        SeatingPolicy(room_tables=0)
    with pytest.raises(RuleViolation):
        SeatingPolicy(seat_choice="sometimes")
    assert SeatingPolicy.from_json(SeatingPolicy(room_tables=4).to_json()).room_tables == 4
