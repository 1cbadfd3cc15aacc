"""PHH user-defined fields: what the dealer tablet writes beyond standard PHH
(``director/poker/phh.py`` module docstring), and that reading it back
rebuilds the same hand: dead seats (TDA 30), kills and checks by the clock
(TDA 29), misdeals (TDA 35), awards by hand, nominal blinds and house policy.
"""

from __future__ import annotations

import warnings

import pokerkit
import pytest

from director.poker import events as ev
from director.poker.cards import Card, parse_card
from director.poker.games import Game
from director.poker.phh import (
    ActionKind,
    PHHError,
    hand_config,
    paired_events,
    parse_phh,
    replay,
    to_phh,
    write_phh,
)
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig

PLO4 = HandConfig(game=Game.PO, starting_stacks=(1000, 1000, 1000, 1000),
                  blinds_or_straddles=(50, 100, 0, 0), min_bet=100)
UNSEEN = (None, None, None, None)


def cards(text: str) -> tuple[Card | None, ...]:
    return tuple(parse_card(text[i:i + 2]) for i in range(0, len(text), 2))


def round_trip(hand: Hand) -> tuple[str, Hand]:
    """The hand's PHH text and the hand replayed from it."""
    text = to_phh(hand)
    history = parse_phh(text)
    assert write_phh(history) == text           # the writer's own round trip keeps every field
    back = replay(history)
    assert back.stacks == hand.stacks
    assert [(a.player, a.amount) for a in back.awards()] == [(a.player, a.amount) for a in hand.awards()]
    return text, back


def test_TDA_30_dead_big_blind_is_written_in_dead_players_and_replays() -> None:
    """TDA 30: the absent big blind posts, and his hand is dead at the deal."""
    config = HandConfig(**{**PLO4.__dict__, "dead_players": (1,)})
    hand = Hand.replay(config, [ev.Action(2, ev.ActionKind.RAISE, 350),
                                ev.Action(3, ev.ActionKind.FOLD), ev.Action(0, ev.ActionKind.FOLD)])
    assert hand.finished and hand.stacks == (950, 900, 1150, 1000)
    text, back = round_trip(hand)
    assert '_dead_players = ["p2"]' in text
    assert back.config.dead_players == (1,)
    assert parse_phh(text).finishing_stacks == (950, 900, 1150, 1000)


def test_TDA_29_clock_kill_in_turn_is_a_fold_line_read_back_as_a_kill() -> None:
    hand = Hand.replay(PLO4, [ev.Kill(2, "clock"), ev.Action(3, ev.ActionKind.CALL),
                              ev.Action(0, ev.ActionKind.FOLD), ev.Action(1, ev.ActionKind.CHECK),
                              ev.DealBoard(cards("AsKd7h")), ev.Action(1, ev.ActionKind.RAISE, 200),
                              ev.Action(3, ev.ActionKind.FOLD)])
    text, back = round_trip(hand)
    history = parse_phh(text)
    lines = [str(a) for a in history.actions]
    # the deal comes first, so other readers can apply the kill as p3's fold
    assert lines[:5] == ["d dh p1 ????????", "d dh p2 ????????", "d dh p3 ????????",
                         "d dh p4 ????????", "p3 f # p3's hand is killed (clock)"]
    assert history.extra["_events"] == [{"action": 5, "type": "kill", "player": "p3", "reason": "clock"}]
    assert paired_events(history)[4][1] == ev.Kill(2, "clock")
    assert ev.Kill(2, "clock") in back.events


def test_TDA_29_check_by_clock_is_a_cc_line_read_back_as_a_clock_check() -> None:
    hand = Hand.replay(PLO4, [ev.Action(2, ev.ActionKind.CALL), ev.Action(3, ev.ActionKind.CALL),
                              ev.Action(0, ev.ActionKind.CALL), ev.Action(1, ev.ActionKind.CHECK),
                              ev.DealBoard(cards("AsKd7h")), ev.CheckByClock(0),
                              ev.Action(1, ev.ActionKind.RAISE, 300), ev.Action(2, ev.ActionKind.FOLD),
                              ev.Action(3, ev.ActionKind.FOLD), ev.Action(0, ev.ActionKind.FOLD)])
    text, back = round_trip(hand)
    history = parse_phh(text)
    (entry,) = history.extra["_events"]
    assert entry == {"action": entry["action"], "type": "check_by_clock", "player": "p1"}
    line = history.actions[entry["action"] - 1]
    assert line.kind is ActionKind.CHECK_OR_CALL and line.comment == "checked by the clock (TDA 29)"
    assert ev.CheckByClock(0) in back.events


def test_a_kill_out_of_turn_is_a_comment_line_read_back_as_a_kill() -> None:
    hand = Hand.replay(PLO4, [ev.Kill(0, "absent"), ev.Action(2, ev.ActionKind.FOLD),
                              ev.Action(3, ev.ActionKind.FOLD)])
    text, back = round_trip(hand)
    history = parse_phh(text)
    entry = history.extra["_events"][0]
    assert str(history.actions[entry["action"] - 1]) == "# p1's hand is killed (absent)"
    assert back.events[0] == ev.Kill(0, "absent")


def test_award_by_hand_in_hi_lo_round_trips_with_its_groups() -> None:
    config = HandConfig(game=Game.PO8, starting_stacks=(1000, 1000, 1000),
                        blinds_or_straddles=(50, 100, 0), min_bet=100)
    steps: list[ev.Event] = [ev.Action(2, ev.ActionKind.CALL), ev.Action(0, ev.ActionKind.CALL),
                             ev.Action(1, ev.ActionKind.CHECK)]
    for board in ("2c3d8h", "Kc", "Ks"):
        steps += [ev.DealBoard(cards(board)), ev.Action(0, ev.ActionKind.CHECK),
                  ev.Action(1, ev.ActionKind.CHECK), ev.Action(2, ev.ActionKind.CHECK)]
    award = ev.ManualAward(high=((0,), (1, 2)), low=((1, 2),))
    hand = Hand.replay(config, [*steps, award])
    assert hand.finished
    text, back = round_trip(hand)
    (entry,) = parse_phh(text).extra["_events"]
    assert entry == {"action": entry["action"], "type": "manual_award",
                     "high": [["p1"], ["p2", "p3"]], "low": [["p2", "p3"]]}
    assert back.events[-1] == award
    assert back.stacks == (1050, 975, 975)   # high 150 to p1, low 150 split


def test_TDA_35_misdeal_after_a_raise_returns_every_chip() -> None:
    hand = Hand.replay(PLO4, [ev.Action(2, ev.ActionKind.RAISE, 350), ev.Misdeal("boxed cards")])
    text, back = round_trip(hand)
    assert back.misdealt and back.stacks == PLO4.starting_stacks
    assert '"# misdeal: boxed cards"' in text
    assert parse_phh(text).finishing_stacks == PLO4.starting_stacks


def test_nominal_blinds_chip_unit_heads_up_and_policy_round_trip() -> None:
    """Everything in HandConfig that changes a replay comes back from the file;
    an unlimited raise cap is written "none" (TOML has no null)."""
    config = HandConfig(game=Game.FO8, starting_stacks=(900, 1000, 1100), blinds_or_straddles=(0, 100, 0),
                        small_bet=100, big_bet=200, ante_trimming=True, small_blind=50, big_blind=100,
                        chip_unit=25, event_heads_up=True,
                        policy=Policy(limit_raise_cap=None, stud_high_hand_tie="position"))
    text = to_phh(Hand.start(config))
    assert '_policy = {limit_raise_cap = "none", stud_high_hand_tie = "position"}' in text
    assert hand_config(parse_phh(text)) == config
    assert "_policy" not in to_phh(Hand.start(PLO4))   # the TDA defaults are not written


@pytest.mark.parametrize(("field", "words"), [
    ('_dead_players = ["p9"]', "is not a player of this hand"),
    ('_dead_players = ["p1", "p2", "p3", "p4"]', "Every player is absent"),
    ('_small_blind = -5', "whole number of chips"),
    ('_policy = {limit_raise_cap = 0}', "_policy"),
    ('_policy = {house = 1}', "Unknown policy flag house"),
    ('_events = [{action = 2, type = "misdeal"}]', "cannot stand on action 2"),
    ('_events = [{action = 9, type = "misdeal"}]', "is not a line of"),
    ('_events = [{action = 1, type = "burn"}]', '"burn" is not an event we record'),
    ('_events = [{action = 2, type = "kill", player = "p1"}]', "cannot stand on action 2"),
    ('_events = [{action = 1, type = "manual_award", high = "p1"}]', "groups of players"),
])
def test_malformed_extension_fields_are_refused_with_a_sentence(field: str, words: str) -> None:
    text = ('variant = "PO"\nantes = 0\nblinds_or_straddles = [50, 100, 0, 0]\nmin_bet = 100\n'
            'starting_stacks = [1000, 1000, 1000, 1000]\nactions = ["# note", "p3 f"]\n' + field + "\n")
    with pytest.raises(PHHError, match=words):
        parse_phh(text)


def test_other_phh_readers_parse_our_files_and_apply_a_clock_kill_as_a_fold() -> None:
    """pokerkit (the PHH reference) files our fields under user_defined_fields
    without a warning, and replays the standard fields to the same stacks."""
    hand = Hand.replay(PLO4, [ev.Kill(2, "clock"), ev.Action(3, ev.ActionKind.CALL),
                              ev.Action(0, ev.ActionKind.FOLD), ev.Action(1, ev.ActionKind.RAISE, 300),
                              ev.Action(3, ev.ActionKind.FOLD)])
    text = to_phh(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        other = pokerkit.HandHistory.loads(text)
    assert set(other.user_defined_fields) == {"_events"}
    final = list(other)[-1]
    assert tuple(final.stacks) == hand.stacks


def test_ST_12_absent_low_card_brings_in_and_forfeits_and_replays() -> None:
    """RULES.md [ST-12] / TDA 30: the absent player with the lowest up-card
    still posts the bring-in; his dead hand and the chips round-trip."""
    config = HandConfig(game=Game.F7S, starting_stacks=(1000, 1000, 1000), antes=(10, 10, 10),
                        bring_in=25, small_bet=100, big_bet=200, dead_players=(1,))
    hand = Hand.replay(config, [ev.DealHole(0, cards("AsKsTc")), ev.DealHole(1, cards("QsJs2d")),
                                ev.DealHole(2, cards("8s7sAd")), ev.Action(2, ev.ActionKind.COMPLETE),
                                ev.Action(0, ev.ActionKind.FOLD)])
    assert hand.finished and hand.stacks == (990, 965, 1045)
    text, back = round_trip(hand)
    assert '_dead_players = ["p2"]' in text and back.config.dead_players == (1,)
