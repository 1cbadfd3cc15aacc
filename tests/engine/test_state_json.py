"""A hand is stored as its configuration and events: both survive a JSON round trip."""

from __future__ import annotations

import json

import pytest

from director.poker.cards import parse_card, parse_cards
from director.poker.errors import RuleViolation
from director.poker.events import (
    Action,
    ActionKind,
    CheckByClock,
    DealBoard,
    DealHole,
    Kill,
    ManualAward,
    Misdeal,
    Muck,
    Show,
    event_from_json,
    event_to_json,
)
from director.poker.games import Game
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig


def test_every_event_type_round_trips_through_json_text() -> None:
    events = [
        DealHole(0, (parse_card("As"), None, parse_card("7h"), parse_card("2c"))),
        DealBoard((None, None, None)),
        DealBoard(tuple(parse_cards("KsQdJh"))),
        Action(2, ActionKind.RAISE, 700),
        Action(1, ActionKind.FOLD),
        Show(3, tuple(parse_cards("AsKsQsJs"))),
        Muck(4),
        Kill(5, "clock"),
        CheckByClock(1),
        ManualAward(((3,), (1, 5)), ((2,),)),
        Misdeal("two cards exposed"),
    ]
    for event in events:
        data = json.loads(json.dumps(event_to_json(event)))
        assert event_from_json(data) == event


def test_action_json_shape_is_the_documented_one() -> None:
    assert event_to_json(Action(2, ActionKind.RAISE, 700)) == {
        "type": "action", "player": 2, "action": "raise", "amount": 700}


def test_unknown_event_and_action_are_refused_in_english() -> None:
    with pytest.raises(RuleViolation, match="Unknown event type deal"):
        event_from_json({"type": "deal"})
    with pytest.raises(RuleViolation, match="Unknown action shove"):
        event_from_json({"type": "action", "player": 1, "action": "shove"})


def test_config_round_trip_keeps_policy_and_every_field() -> None:
    config = HandConfig(game=Game.PO8, starting_stacks=(500, 250, 900), antes=(0, 20, 0),
                        blinds_or_straddles=(10, 20, 0), min_bet=20, ante_trimming=False,
                        small_blind=10, big_blind=20, chip_unit=5, dead_players=(2,),
                        seats=(4, 6, 1), policy=Policy(limit_raise_cap=4, bba_order="ante-first"))
    data = json.loads(json.dumps(config.to_json()))
    assert HandConfig.from_json(data) == config
    with pytest.raises(RuleViolation, match="Unknown hand setting colour"):
        HandConfig.from_json({**data, "colour": "red"})


def test_policy_rejects_unknown_values() -> None:
    with pytest.raises(RuleViolation, match="stud_high_hand_tie must be one of suit, position"):
        Policy(stud_high_hand_tie="age")
    with pytest.raises(RuleViolation, match="Unknown policy flag"):
        Policy.from_json({"cap": 3})


def test_hand_round_trip_mid_hand_and_finished() -> None:
    config = HandConfig(game=Game.PO, starting_stacks=(300, 300, 300), blinds_or_straddles=(1, 2, 0),
                        min_bet=2)
    hand = Hand.start(config)
    for i, cards in enumerate(["AsKsQsJs", "2c3c4c5c", "9h9d8h8d"]):
        hand = hand.apply(DealHole(i, tuple(parse_cards(cards))))
    hand = hand.apply(Action(2, ActionKind.RAISE, 7)).apply(Action(0, ActionKind.CALL))
    copy = Hand.from_json(json.loads(json.dumps(hand.to_json())))
    assert copy == hand and copy.snapshot() == hand.snapshot()
    hand = hand.apply(Action(1, ActionKind.CALL)).apply(DealBoard(tuple(parse_cards("Ts2h3d"))))
    for _ in range(3):
        hand = hand.apply(Action(hand.to_act or 0, ActionKind.CHECK))
    hand = hand.apply(DealBoard((parse_card("4s"),)))
    for _ in range(3):
        hand = hand.apply(Action(hand.to_act or 0, ActionKind.CHECK))
    hand = hand.apply(DealBoard((parse_card("Kd"),)))
    for _ in range(3):
        hand = hand.apply(Action(hand.to_act or 0, ActionKind.CHECK))
    assert hand.finished
    copy = Hand.from_json(json.loads(json.dumps(hand.to_json())))
    assert copy.stacks == hand.stacks == (293, 314, 293)
    assert [a.hand_name for a in copy.awards()] == [a.hand_name for a in hand.awards()]


def test_apply_leaves_the_old_hand_untouched_and_undo_replays() -> None:
    config = HandConfig(game=Game.NO, starting_stacks=(100, 100, 100), blinds_or_straddles=(1, 2, 0),
                        min_bet=2)
    hand = Hand.start(config)
    before = hand.snapshot()
    with pytest.raises(RuleViolation):
        hand.apply(Action(2, ActionKind.RAISE, 3))
    after = hand.apply(Action(2, ActionKind.RAISE, 10))
    assert hand.snapshot() == before
    assert after.undo().snapshot() == before
    assert after.events == (Action(2, ActionKind.RAISE, 10),)
