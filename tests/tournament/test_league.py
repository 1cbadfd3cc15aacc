"""League points (director/tournament/league.py): each formula by name, ties, the table."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.tournament import league
from director.tournament.league import Finish, LeagueEvent, event_points, points, standings


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(league).failed == 0


def test_linear_participation_plus_place_gives_the_winner_of_20_twenty_and_the_last_one() -> None:
    assert [points("linear", 20, place) for place in (1, 2, 19, 20)] == [20.0, 19.0, 2.0, 1.0]


def test_square_root_is_ten_times_the_root_of_entrants_over_place() -> None:
    assert points("square-root", 25, 1) == 50.0
    assert points("square-root", 25, 4) == 25.0
    assert round(points("square-root", 10, 3), 2) == 18.26  # 10 * sqrt(3.333...), exact


def test_square_root_rewards_a_bigger_field_for_the_same_place() -> None:
    assert points("square-root", 40, 1) > points("square-root", 20, 1)


def test_top_eight_table_is_10_8_6_5_4_3_2_1_and_nothing_below() -> None:
    assert [points("top-eight", 30, p) for p in range(1, 10)] == \
        [10.0, 8.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]


def test_top_eight_ignores_the_field_size() -> None:
    assert points("top-eight", 9, 2) == points("top-eight", 90, 2)


def test_a_tie_shares_the_average_of_the_places_points() -> None:
    shared = event_points("top-eight", 12, [Finish("a", 7, 9), Finish("b", 7, 9), Finish("c", 7, 9)])
    assert shared == {"a": 1.0, "b": 1.0, "c": 1.0}          # (2 + 1 + 0) / 3


def test_a_tie_in_linear_keeps_the_event_total() -> None:
    alone = sum(points("linear", 6, p) for p in (5, 6))
    shared = event_points("linear", 6, [Finish("a", 5, 6), Finish("b", 5, 6)])
    assert sum(shared.values()) == alone


def test_players_level_on_points_share_the_rank() -> None:
    table = standings("linear", [
        LeagueEvent(4, (Finish("ann", 1), Finish("bo", 2), Finish("cy", 3), Finish("di", 4))),
        LeagueEvent(4, (Finish("bo", 1), Finish("ann", 2), Finish("di", 3), Finish("cy", 4))),
    ])
    assert [(s.who, s.rank, s.points) for s in table] == [
        ("ann", 1, 7.0), ("bo", 1, 7.0), ("cy", 3, 3.0), ("di", 3, 3.0)]


def test_standings_count_only_the_events_a_player_finished_in() -> None:
    table = standings("top-eight", [
        LeagueEvent(3, (Finish("ann", 1), Finish("bo", 2))),
        LeagueEvent(2, (Finish("ann", 2),)),
    ])
    ann = next(s for s in table if s.who == "ann")
    bo = next(s for s in table if s.who == "bo")
    assert (ann.points, ann.events, ann.by_event) == (18.0, 2, (10.0, 8.0))
    assert (bo.events, bo.by_event, bo.best) == (1, (8.0, None), 2)


def test_an_unknown_formula_is_refused() -> None:
    with pytest.raises(ValueError):
        standings("golf", [])


@given(st.sampled_from(list(league.Formula)), st.integers(1, 200), st.data())
def test_a_better_place_never_scores_less(formula: str, entrants: int, data: st.DataObject) -> None:
    place = data.draw(st.integers(1, entrants))
    worse = data.draw(st.integers(place, entrants))
    assert points(formula, entrants, place) >= points(formula, entrants, worse) >= 0


def test_square_root_points_are_rounded_once_on_the_total_as_the_formula_reads() -> None:
    # Cy: 10·√(4/3) + 10·√(3/2) = 11.547 + 12.247 = 23.794 -> 23.79 (rounding each place
    # first gave 11.55 + 12.25 = 23.80, 0.01 off the formula the league page states).
    table = standings("square-root", [
        LeagueEvent(4, (Finish("ann", 1), Finish("bo", 2), Finish("cy", 3), Finish("di", 4))),
        LeagueEvent(3, (Finish("bo", 1), Finish("cy", 2), Finish("ann", 3)))])
    assert {s.who: s.points for s in table}["cy"] == 23.79
