"""Structures: validation naming the field, JSON round trip, shipped templates (RULES.md §9.1-9.2)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.errors import RuleViolation
from director.poker.games import GAME_CODES, Game
from director.tournament.structure import (
    TEMPLATES,
    Kind,
    Level,
    Structure,
    StructureError,
    parse_levels,
    parse_structure,
    template,
    validate,
)

PLO = {"game": "PO", "duration_seconds": 1800, "small_blind": 100, "big_blind": 200}
O8 = {"game": "FO/8", "duration_seconds": 2400, "small_blind": 100, "big_blind": 200,
      "small_bet": 200, "big_bet": 400}
STUD = {"game": "F7S", "duration_seconds": 2400, "ante": 25, "bring_in": 50,
        "small_bet": 200, "big_bet": 400}
BREAK = {"kind": "break", "duration_seconds": 900, "note": "Colour-up: remove T25 chips"}


def errors_of(levels: Sequence[object]) -> dict[str, str]:
    with pytest.raises(StructureError) as caught:
        parse_levels(levels)
    return caught.value.errors


def with_(base: dict[str, object], **changes: object) -> dict[str, object]:
    return {**base, **changes}


# ---------------------------------------------------------------- labels and navigation

def test_stakes_labels_as_the_clock_screen_shows_them() -> None:
    bba = Level(game=Game.PO, small_blind=100, big_blind=200, ante=200, big_blind_ante=True)
    assert bba.stakes_label() == "100/200 ante 200"
    assert parse_levels([O8])[0].stakes_label() == "Limits 200/400 · blinds 100/200"
    assert parse_levels([STUD])[0].stakes_label() == "Ante 25 · bring-in 50 · 200/400"
    assert parse_levels([BREAK, PLO])[0].stakes_label() == "Break"
    big = Level(game=Game.PO, small_blind=5000, big_blind=10000)
    assert big.stakes_label() == "5,000/10,000"


def test_level_numbers_skip_breaks_and_starts_add_up_durations() -> None:
    s = parse_structure({"name": "x", "levels": [PLO, PLO, BREAK, STUD, BREAK]})
    assert s.level_starts() == [0, 1800, 3600, 4500, 6900]
    assert s.playing_levels() == [0, 1, 3]
    assert [s.level_number(i) for i in range(5)] == [1, 2, None, 3, None]
    assert s.next_playing(1) == 3
    assert s.next_playing(3) is None
    assert s.next_break(0) == 2
    assert s.next_break(2) == 4
    assert s.next_break(4) is None
    assert s.levels[2].is_break and not s.levels[3].is_break


# ---------------------------------------------------------------- validation, one rule at a time

def test_valid_levels_of_each_kind_parse() -> None:
    levels = parse_levels([PLO, O8, STUD, BREAK])
    assert [lv.kind for lv in levels] == [Kind.LEVEL, Kind.LEVEL, Kind.LEVEL, Kind.BREAK]
    assert levels[1].game is Game.FO8
    assert levels[3].note == "Colour-up: remove T25 chips"


def test_omitted_fields_default_to_zero_and_false() -> None:
    level = parse_levels([{"game": "PO", "duration_seconds": 60, "small_blind": 1,
                           "big_blind": 2}])[0]
    assert (level.ante, level.big_blind_ante, level.small_bet, level.bring_in, level.note) \
        == (0, False, 0, 0, "")


def test_structure_needs_at_least_one_playing_level() -> None:
    assert errors_of([BREAK]) == {"levels": "The structure needs at least one playing level"}
    assert errors_of([]) == {"levels": "The structure needs at least one playing level"}
    assert validate(Structure(())) == {"levels": "The structure needs at least one playing level"}


@pytest.mark.parametrize("entry", [PLO, BREAK])
def test_duration_must_be_at_least_one_second(entry: dict[str, object]) -> None:
    errors = errors_of([PLO, with_(entry, duration_seconds=0)])
    assert list(errors) == ["levels[1].duration_seconds"]
    assert "at least 1 second" in errors["levels[1].duration_seconds"]


@pytest.mark.parametrize("field", ["small_blind", "big_blind"])
def test_blind_game_needs_positive_blinds(field: str) -> None:
    errors = errors_of([with_(PLO, **{field: 0})])
    assert f"levels[0].{field}" in errors
    assert "must be more than 0" in errors[f"levels[0].{field}"]


def test_big_blind_must_be_at_least_the_small_blind() -> None:
    errors = errors_of([PLO, with_(PLO, small_blind=100, big_blind=50)])
    assert errors == {"levels[1].big_blind":
                      "Level 2: the big blind (50) must be at least the small blind (100)"}


def test_an_error_names_the_level_as_a_director_counts_it_breaks_apart() -> None:
    errors = errors_of([PLO, BREAK, PLO, PLO, with_(PLO, small_blind=100, big_blind=50),
                        with_(BREAK, duration_seconds=0)])
    assert errors == {
        "levels[4].big_blind": "Level 4: the big blind (50) must be at least the small blind (100)",
        "levels[5].duration_seconds": "Break 2: the break must last at least 1 second (it lasts 0)"}


def test_negative_ante_is_an_error() -> None:
    assert errors_of([with_(PLO, ante=-1)]) == {"levels[0].ante": "Level 1: the ante (-1) may not be negative"}


def test_big_blind_ante_needs_an_amount() -> None:
    assert list(errors_of([with_(PLO, big_blind_ante=True)])) == ["levels[0].ante"]


@pytest.mark.parametrize("field", ["small_bet", "big_bet"])
def test_limit_omaha_needs_positive_bets(field: str) -> None:
    errors = errors_of([with_(O8, **{field: 0})])
    assert f"levels[0].{field}" in errors


def test_limit_omaha_big_bet_at_least_small_bet() -> None:
    assert errors_of([with_(O8, big_bet=100)]) == {
        "levels[0].big_bet": "Level 1: the big bet (100) must be at least the small bet (200)"}


def test_pot_limit_omaha_has_no_fixed_bets() -> None:
    assert list(errors_of([with_(PLO, small_bet=200, big_bet=400)])) == [
        "levels[0].small_bet", "levels[0].big_bet"]


@pytest.mark.parametrize("field", ["bring_in", "small_bet", "big_bet"])
def test_stud_needs_positive_bring_in_and_bets(field: str) -> None:
    errors = errors_of([with_(STUD, **{field: 0})])
    assert f"levels[0].{field}" in errors


def test_stud_big_bet_at_least_small_bet() -> None:
    assert list(errors_of([with_(STUD, big_bet=100)])) == ["levels[0].big_bet"]


def test_stud_bring_in_at_most_the_small_bet() -> None:
    assert errors_of([with_(STUD, bring_in=300)]) == {
        "levels[0].bring_in": "Level 1: the bring-in (300) may not be more than the small bet "
                              "(200)"}


def test_stud_negative_ante_is_an_error() -> None:
    assert list(errors_of([with_(STUD, ante=-25)])) == ["levels[0].ante"]


@pytest.mark.parametrize("field, value", [("small_blind", 25), ("big_blind", 50),
                                          ("big_blind_ante", True)])
def test_stud_level_may_not_have_blind_fields(field: str, value: object) -> None:
    errors = errors_of([with_(STUD, **{field: value})])
    assert list(errors) == [f"levels[0].{field}"]
    assert "a level may not mix stud fields with blind fields" in errors[f"levels[0].{field}"]


def test_blind_game_may_not_have_a_bring_in() -> None:
    errors = errors_of([with_(O8, bring_in=50)])
    assert list(errors) == ["levels[0].bring_in"]
    assert "may not mix stud fields with blind fields" in errors["levels[0].bring_in"]


@pytest.mark.parametrize("field, value", [("game", "PO"), ("small_blind", 100), ("ante", 25),
                                          ("bring_in", 50), ("big_bet", 400),
                                          ("big_blind_ante", True)])
def test_break_has_no_game_and_no_stakes(field: str, value: object) -> None:
    errors = errors_of([PLO, with_(BREAK, **{field: value})])
    assert list(errors) == [f"levels[1].{field}"]


def test_level_without_a_game_names_the_allowed_codes() -> None:
    errors = errors_of([{"duration_seconds": 60, "small_blind": 1, "big_blind": 2}])
    assert list(errors) == ["levels[0].game"]
    assert all(code in errors["levels[0].game"] for code in GAME_CODES)


def test_unknown_game_code_names_the_field_and_the_allowed_codes() -> None:
    errors = errors_of([with_(PLO, game="NLHE")])
    assert list(errors) == ["levels[0].game"]
    message = errors["levels[0].game"]
    assert "NLHE" in message
    assert all(code in message for code in GAME_CODES)


def test_unknown_kind_is_an_error() -> None:
    assert list(errors_of([with_(PLO, kind="lunch")])) == ["levels[0].kind"]


@pytest.mark.parametrize("value", [True, False, 100.0, 99.5, "100", None, [100]])
def test_non_integer_amounts_are_errors_and_booleans_are_not_integers(value: object) -> None:
    errors = errors_of([with_(PLO, small_blind=value)])
    assert list(errors) == ["levels[0].small_blind"]
    assert "whole number of chips" in errors["levels[0].small_blind"]


def test_non_integer_duration_is_an_error() -> None:
    assert list(errors_of([with_(PLO, duration_seconds=1.5)])) == ["levels[0].duration_seconds"]
    assert list(errors_of([with_(PLO, duration_seconds=True)])) == ["levels[0].duration_seconds"]


def test_big_blind_ante_must_be_a_boolean() -> None:
    assert list(errors_of([with_(PLO, ante=200, big_blind_ante=1)])) == [
        "levels[0].big_blind_ante"]


def test_entry_that_is_not_an_object_is_named_by_its_index() -> None:
    assert errors_of([PLO, 42]) == {
        "levels[1]": "Each entry must be an object with the level's fields"}


def test_validation_collects_every_error_not_just_the_first() -> None:
    errors = errors_of([
        with_(PLO, duration_seconds=0),
        with_(PLO, small_blind=300),
        BREAK,
        with_(STUD, bring_in=500, small_blind=25),
        with_(O8, game="XX"),
        with_(O8, big_bet=-1),
    ])
    assert set(errors) == {
        "levels[0].duration_seconds",
        "levels[1].big_blind",
        "levels[3].bring_in",
        "levels[3].small_blind",
        "levels[4].game",
        "levels[5].big_bet",
    }
    with pytest.raises(StructureError) as caught:
        parse_levels([with_(PLO, duration_seconds=0), with_(PLO, small_blind=300)])
    message = str(caught.value)
    assert "levels[0].duration_seconds" in message and "levels[1].big_blind" in message


def test_structure_error_is_a_rule_violation_and_a_value_error() -> None:
    with pytest.raises(StructureError) as caught:
        parse_levels([BREAK])
    assert isinstance(caught.value, RuleViolation)
    assert isinstance(caught.value, ValueError)


def test_validate_checks_levels_built_in_code_too() -> None:
    bad = Structure((Level(game=Game.F7S, duration_seconds=60, ante=10, bring_in=20,
                           small_bet=10, big_bet=20, big_blind=40),), "bad")
    assert set(validate(bad)) == {"levels[0].bring_in", "levels[0].big_blind"}
    assert validate(Structure((Level(game=Game.PO, duration_seconds=60, small_blind=True,
                                     big_blind=2),))) == {
        "levels[0].small_blind": "Level 1: the small blind must be a whole number of chips"}


def test_parse_structure_names_bad_name_and_missing_levels() -> None:
    with pytest.raises(StructureError) as caught:
        parse_structure({"name": 7})
    assert set(caught.value.errors) == {"name", "levels"}
    with pytest.raises(StructureError):
        parse_structure("not json")
    with pytest.raises(StructureError) as caught:
        parse_structure({"name": "x", "levels": {"game": "PO"}})
    assert caught.value.errors == {"levels": "The levels must be a list"}


# ---------------------------------------------------------------- JSON

def test_level_to_json_has_exactly_the_contract_keys() -> None:
    assert list(Level().to_json()) == [
        "kind", "duration_seconds", "game", "small_blind", "big_blind", "ante",
        "big_blind_ante", "small_bet", "big_bet", "bring_in", "note"]
    assert Level().to_json()["game"] is None
    assert parse_levels([O8])[0].to_json()["game"] == "FO/8"


def test_structure_json_round_trip_through_text() -> None:
    original = parse_structure({"name": "Sunday PLO", "levels": [PLO, O8, BREAK, STUD]})
    text = json.dumps(original.to_json())
    again = parse_structure(json.loads(text))
    assert again == original
    assert parse_structure(text) == original
    assert again.to_json() == original.to_json()


amount = st.integers(min_value=1, max_value=10**6)


@st.composite
def valid_levels(draw: st.DrawFn) -> Level:
    duration = draw(st.integers(min_value=1, max_value=7200))
    kind = draw(st.sampled_from(["blind", "limit", "stud", "break"]))
    if kind == "break":
        return Level(Kind.BREAK, duration, note=draw(st.text(max_size=20)))
    if kind == "stud":
        small = draw(amount)
        return Level(game=draw(st.sampled_from([Game.F7S, Game.F7S8])), duration_seconds=duration,
                     ante=draw(st.integers(0, small)), bring_in=draw(st.integers(1, small)),
                     small_bet=small, big_bet=small + draw(st.integers(0, small)))
    sb = draw(amount)
    bb = sb + draw(st.integers(0, sb))
    if kind == "limit":
        return Level(game=draw(st.sampled_from([Game.FO, Game.FO8])), duration_seconds=duration,
                     small_blind=sb, big_blind=bb, small_bet=bb, big_bet=2 * bb)
    bba = draw(st.booleans())
    return Level(game=draw(st.sampled_from([Game.PO, Game.PO8, Game.NO, Game.NO8])),
                 duration_seconds=duration, small_blind=sb, big_blind=bb,
                 ante=bb if bba else draw(st.integers(0, bb)), big_blind_ante=bba)


@given(st.lists(valid_levels(), min_size=1, max_size=8), st.text(max_size=30))
def test_any_valid_structure_round_trips_through_json(levels: list[Level], name: str) -> None:
    levels.append(Level(game=Game.PO, duration_seconds=60, small_blind=1, big_blind=2))
    structure = Structure(tuple(levels), name)
    assert validate(structure) == {}
    assert parse_structure(json.loads(json.dumps(structure.to_json()))) == structure


# ---------------------------------------------------------------- templates

def test_all_five_templates_ship() -> None:
    assert {"plo-standard", "plo-turbo", "limit-o8", "stud", "mixed"} <= set(TEMPLATES)


def test_templates_are_json_files_in_the_package() -> None:
    folder = resources.files("director.tournament").joinpath("structures")
    names = {entry.name for entry in folder.iterdir()}
    assert {f"{name}.json" for name in TEMPLATES} <= names


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_template_is_valid_and_round_trips(name: str) -> None:
    s = template(name)
    assert validate(s) == {}
    assert s.name
    assert parse_structure(s.to_json()) == s
    assert len(s.playing_levels()) >= 15


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_template_blinds_and_limits_never_go_down(name: str) -> None:
    s = template(name)
    by_game: dict[Game, list[Level]] = {}
    for i in s.playing_levels():
        level = s.levels[i]
        assert level.game is not None
        by_game.setdefault(level.game, []).append(level)
    for levels in by_game.values():
        for before, after in zip(levels, levels[1:], strict=False):
            assert after.big_blind >= before.big_blind
            assert after.big_bet >= before.big_bet
            assert after.ante >= before.ante


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_template_has_a_break_about_every_two_hours_with_a_note(name: str) -> None:
    s = template(name)
    starts = s.level_starts()
    breaks = [i for i, level in enumerate(s.levels) if level.is_break]
    assert breaks
    previous_end = 0
    for i in breaks:
        assert s.levels[i].note
        assert 10 * 60 <= s.levels[i].duration_seconds <= 20 * 60  # RULES §9.1: 10-20 min
        assert starts[i] - previous_end == 2 * 3600                  # play between breaks
        previous_end = starts[i] + s.levels[i].duration_seconds


def test_plo_standard_is_30_minute_pot_limit_omaha_with_bba_from_level_4() -> None:
    s = template("plo-standard")
    playing = [s.levels[i] for i in s.playing_levels()]
    assert 18 <= len(playing) <= 24
    assert {lv.game for lv in playing} == {Game.PO}
    assert {lv.duration_seconds for lv in playing} == {1800}
    first_bba = next(n for n, lv in enumerate(playing, 1) if lv.big_blind_ante)
    assert first_bba == 4
    assert all(lv.ante == lv.big_blind for lv in playing if lv.big_blind_ante)
    assert any("remove T25" in s.levels[i].note for i in range(len(s.levels)))


def test_plo_turbo_has_15_minute_levels() -> None:
    s = template("plo-turbo")
    assert {s.levels[i].duration_seconds for i in s.playing_levels()} == {900}
    assert {s.levels[i].game for i in s.playing_levels()} == {Game.PO}


def test_limit_o8_follows_the_limit_conventions() -> None:
    """RULES §9.1: SB about half the BB, BB = small bet, big bet = 2 x small bet."""
    s = template("limit-o8")
    for i in s.playing_levels():
        lv = s.levels[i]
        assert lv.game is Game.FO8
        assert lv.big_blind == lv.small_bet
        assert lv.big_bet == 2 * lv.small_bet
        assert 2 * lv.small_blind == lv.big_blind


def test_stud_template_uses_ante_bring_in_and_bets_ascending() -> None:
    s = template("stud")
    first = s.levels[0]
    assert (first.game, first.ante, first.bring_in, first.small_bet, first.big_bet) == (
        Game.F7S, 25, 50, 200, 400)
    for i in s.playing_levels():
        lv = s.levels[i]
        assert lv.small_blind == lv.big_blind == 0 and not lv.big_blind_ante
        assert 0 < lv.ante < lv.bring_in <= lv.small_bet
        assert lv.big_bet == 2 * lv.small_bet


def test_mixed_template_rotates_plo_limit_o8_and_stud_hi_lo() -> None:
    s = template("mixed")
    games = [s.levels[i].game for i in s.playing_levels()]
    assert games[:3] == [Game.PO, Game.FO8, Game.F7S8]
    assert all(a != b for a, b in zip(games, games[1:], strict=False))
    assert set(games) == {Game.PO, Game.FO8, Game.F7S8}


def test_unknown_template_raises_structure_error_not_key_error() -> None:
    with pytest.raises(StructureError) as caught:
        template("texas-holdem")
    assert list(caught.value.errors) == ["template"]
    assert "plo-standard" in caught.value.errors["template"]
