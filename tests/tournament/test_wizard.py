"""The blind-structure wizard (issue 17, item 3) and the planned colour-ups (item 4)."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from director.poker.games import Game
from director.tournament import chip_race as chip_race_module
from director.tournament import wizard as wizard_module
from director.tournament.chip_race import chips_in_play, planned_colour_ups
from director.tournament.structure import template, validate
from director.tournament.wizard import (
    TOLERANCE,
    WizardError,
    WizardInput,
    base_stake,
    parse_input,
    propose,
)

START = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
CHIP_SETS = ((25, 100, 500, 1000, 5000), (25, 100, 500, 1000, 5000, 25000),
             (5, 25, 100, 500), (100, 500, 1000, 5000, 25000), (1, 5, 25, 100, 500))
GAMES = tuple(Game)
AMOUNTS = ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "bring_in")


@st.composite
def events(draw: st.DrawFn) -> WizardInput:
    chips = draw(st.sampled_from(CHIP_SETS))
    stack = draw(st.integers(40, 400)) * 250 // chips[0] * chips[0]
    games = tuple(draw(st.lists(st.sampled_from(GAMES), min_size=1, max_size=4)))
    return WizardInput(stack, chips, draw(st.integers(2, 800)),
                       draw(st.integers(3 * 60, 14 * 60)) * 60, games)


def proposal_or_refusal(inputs: WizardInput):
    try:
        return propose(inputs, START)
    except WizardError as exc:
        assert set(exc.errors) == {"duration_minutes"}, exc.errors
        return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_every_blind_is_a_multiple_of_the_smallest_chip_in_play_at_its_level(inputs):
    plan = proposal_or_refusal(inputs)
    if plan is None:
        return
    levels = plan.structure.levels
    assert validate(plan.structure) == {}
    for level, chip in zip(levels, chips_in_play(levels, inputs.chips), strict=True):
        for name in AMOUNTS:
            assert getattr(level, name) % chip == 0, (level, chip)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_levels_never_go_down(inputs):
    plan = proposal_or_refusal(inputs)
    if plan is None:
        return
    playing = [level for level in plan.structure.levels if not level.is_break]
    stakes = [base_stake(level) for level in playing]
    assert stakes == sorted(stakes) and len(set(stakes)) == len(stakes)
    for game in set(inputs.games):        # each game's own amounts, level after level
        own = [level for level in playing if level.game is game]
        for name in AMOUNTS:
            values = [getattr(level, name) for level in own]
            assert values == sorted(values), (game, name, values)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_the_expected_end_is_near_the_target(inputs):
    plan = proposal_or_refusal(inputs)
    if plan is None:
        return
    assert abs(plan.expected_seconds - inputs.duration_seconds) <= TOLERANCE * inputs.duration_seconds
    assert plan.expected_end == START + (plan.expected_end - START)
    assert (plan.expected_end - START).total_seconds() == plan.expected_seconds
    # the structure goes on after the expected end: the clock does not run out
    assert plan.end_index < len(plan.structure.levels) - 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(20, 300), st.sampled_from((10_000, 15_000, 20_000, 30_000)),
       st.integers(4, 12), st.sampled_from([(Game.PO,), (Game.FO8,), (Game.F7S,),
                                             (Game.PO, Game.FO8, Game.F7S8)]))
def test_an_ordinary_event_is_never_refused(players, stack, hours, games):
    plan = propose(WizardInput(stack, CHIP_SETS[0], players, hours * 3600, games), START)
    assert abs(plan.expected_seconds - hours * 3600) <= TOLERANCE * hours * 3600
    assert 5 <= plan.level_minutes <= 120


def test_stud_ante_is_about_an_eighth_and_the_bring_in_a_quarter_of_the_small_bet():
    plan = propose(WizardInput(15_000, CHIP_SETS[0], 60, 8 * 3600, (Game.F7S,)), START)
    first = plan.structure.levels[0]
    assert (first.ante, first.bring_in, first.small_bet, first.big_bet) == (25, 50, 200, 400)
    for level in plan.structure.levels:
        if not level.is_break:
            assert level.small_bet / 12 <= level.ante <= level.small_bet / 4
            assert level.small_bet / 6 <= level.bring_in <= level.small_bet / 2
            assert level.big_bet == 2 * level.small_bet


def test_limit_omaha_has_the_big_blind_equal_to_the_small_bet_and_no_ante():
    plan = propose(WizardInput(15_000, CHIP_SETS[0], 60, 8 * 3600, (Game.FO8,)), START)
    for level in plan.structure.levels:
        if not level.is_break:
            assert level.big_blind == level.small_bet == 2 * level.small_blind
            assert level.big_bet == 2 * level.small_bet and level.ante == 0


def test_pot_limit_gets_a_big_blind_ante_from_level_4():
    plan = propose(WizardInput(20_000, CHIP_SETS[0], 100, 10 * 3600, (Game.PO,)), START)
    playing = [level for level in plan.structure.levels if not level.is_break]
    assert [level.big_blind_ante for level in playing[:4]] == [False, False, False, True]
    assert all(level.ante == level.big_blind for level in playing[3:])


def test_a_mixed_rotation_plays_the_games_in_the_given_order():
    games = (Game.PO, Game.FO8, Game.F7S8)
    plan = propose(WizardInput(20_000, CHIP_SETS[0], 60, 9 * 3600, games), START)
    playing = [level.game for level in plan.structure.levels if not level.is_break]
    assert playing[:6] == [*games, *games]


def test_the_wizard_marks_its_colour_up_breaks():
    plan = propose(WizardInput(20_000, CHIP_SETS[0], 100, 10 * 3600, (Game.PO,)), START)
    notes = {up.index: up for up in plan.colour_ups}
    assert notes and plan.colour_ups[0].removed == (25,)
    for index, level in enumerate(plan.structure.levels):
        if level.is_break:
            assert (level.note.startswith("Colour-up: remove T")) == (index in notes)


def test_the_templates_colour_up_where_their_notes_say():
    """The PLO template's own notes ("remove T25 chips" ...) are where the rule puts them."""
    levels = template("plo-standard").levels
    ups = planned_colour_ups(levels, (25, 100, 500, 1000, 5000))
    for up in ups:
        assert f"T{up.removed[0]}" in levels[up.index].note


def test_a_target_no_pace_reaches_is_refused_with_the_closest():
    with pytest.raises(WizardError) as exc:
        propose(WizardInput(5_000, (25, 100), 2, 40 * 3600, (Game.PO,)), START)
    assert "closest is about" in exc.value.errors["duration_minutes"]


def test_a_stack_too_small_for_the_chips_is_refused():
    with pytest.raises(WizardError) as exc:
        propose(WizardInput(500, (25, 100), 50, 6 * 3600, (Game.PO,)), START)
    assert "starting_stack" in exc.value.errors


@pytest.mark.parametrize(("body", "field"), [
    ({"chips": [25, 100, 250]}, "chips"),
    ({"chips": []}, "chips"),
    ({"chips": [25, 25]}, "chips"),
    ({"starting_stack": 20_010}, "starting_stack"),
    ({"starting_stack": True}, "starting_stack"),
    ({"players": 1}, "players"),
    ({"duration_minutes": 10}, "duration_minutes"),
    ({"games": []}, "games"),
    ({"games": ["NLHE"]}, "games"),
    ({"level_minutes": 0}, "level_minutes"),
])
def test_every_refused_input_names_its_field(body, field):
    good = {"starting_stack": 20_000, "chips": [25, 100, 500], "players": 50,
            "duration_minutes": 480, "games": ["PO"]}
    with pytest.raises(WizardError) as exc:
        parse_input(good | body)
    assert field in exc.value.errors


def test_a_fixed_level_length_is_kept():
    inputs = parse_input({"starting_stack": 20_000, "chips": [25, 100, 500, 1000, 5000],
                          "players": 80, "duration_minutes": 600, "games": "PO, FO/8",
                          "level_minutes": 30})
    plan = propose(inputs, START)
    assert plan.level_minutes == 30
    assert {level.duration_seconds for level in plan.structure.levels if not level.is_break} == {1800}


def test_the_docstring_examples_hold():
    assert doctest.testmod(wizard_module).failed == 0
    assert doctest.testmod(chip_race_module).failed == 0
