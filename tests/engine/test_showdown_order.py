"""The order of showing at showdown (RULES.md §6.1; TDA 2024 rules 16 and 17)."""

from __future__ import annotations

import pytest

from director.poker.cards import parse_card, parse_cards
from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, DealBoard, DealHole, ManualAward, Muck, Show
from director.poker.games import Game
from director.poker.state import Hand, HandConfig, Phase
from tests.engine.scripting import play


def seats_of(hand: Hand, order: tuple[int, ...]) -> list[str]:
    return [hand.name(i) for i in order]


def six_max() -> Hand:
    return Hand.start(HandConfig(game=Game.NO, starting_stacks=(1000,) * 6,
                                 blinds_or_straddles=(1, 2, 0, 0, 0, 0), min_bet=2,
                                 seats=(2, 3, 4, 5, 6, 1)))


def test_SD_1_last_aggressor_on_the_river_shows_first() -> None:
    """[SD-1] River: S3 bets, S5 raises, S3 calls -> S5 shows first."""
    hand = play(six_max(), "f c f f f x F x x T x x R r10 r30 c")
    assert hand.phase is Phase.SHOWDOWN
    assert seats_of(hand, hand.showdown_order()) == ["Seat 5", "Seat 3"]
    assert not hand.showdown_at_once


def test_SD_2_checked_river_first_seat_left_of_the_button_shows_first() -> None:
    """[SD-2] River checked through by S2, S4, S6, button S6 -> S2 first, then S4, then S6."""
    hand = Hand.start(HandConfig(game=Game.NO, starting_stacks=(1000,) * 3,
                                 blinds_or_straddles=(1, 2, 0), min_bet=2, seats=(2, 4, 6)))
    hand = play(hand, "c c x F r6 c c T x x x R x x x")
    assert seats_of(hand, hand.showdown_order()) == ["Seat 2", "Seat 4", "Seat 6"]


def test_SD_2_river_bet_called_aggressor_first_then_clockwise() -> None:
    """TDA 17-A: the last aggressor shows first, then the others clockwise (house convention)."""
    hand = Hand.start(HandConfig(game=Game.NO, starting_stacks=(1000,) * 3,
                                 blinds_or_straddles=(1, 2, 0), min_bet=2, seats=(2, 4, 6)))
    hand = play(hand, "c c x F x x x T x x x R x r10 c c")
    assert seats_of(hand, hand.showdown_order()) == ["Seat 4", "Seat 6", "Seat 2"]


def test_SD_3_all_in_hands_are_tabled_when_the_betting_is_over() -> None:
    """[SD-3] (TDA addendum 16 ex. 2) Pre-flop A all-in, B and C call with chips behind -> no cards up
    yet. Flop: B, C check -> still no cards up. Turn: B all-in, C calls -> turn all three hands up now,
    deal the river, award the B-C side pot, then the main pot."""
    hand = Hand.start(HandConfig(game=Game.NO, starting_stacks=(1000, 1000, 100),
                                 blinds_or_straddles=(5, 10, 0), min_bet=10))
    hand = play(hand, "ai c c")
    assert not hand.hands_face_up
    hand = play(hand, "F x x")
    assert not hand.hands_face_up
    hand = play(hand, "T ai c")
    assert hand.hands_face_up
    assert hand.awaiting == "board"
    assert hand.showdown_order() == (0, 1, 2) and hand.showdown_at_once
    hand = play(hand, "R")
    assert hand.phase is Phase.SHOWDOWN
    assert [p.eligible for p in hand.pots()] == [(0, 1, 2), (0, 1)]


def test_SD_4_stud_checked_seventh_street_high_board_shows_first() -> None:
    """[SD-4] Stud, 7th street checked through: the player with the highest four up-cards shows first."""
    config = HandConfig(game=Game.F7S, starting_stacks=(10_000,) * 3, antes=(10,) * 3,
                        bring_in=20, small_bet=100, big_bet=200, seats=(1, 2, 3))
    hand = Hand.start(config)
    for i, door in enumerate(["2♣", "9♥", "K♦"]):
        hand = hand.apply(DealHole(i, (None, None, parse_card(door))))
    hand = play(hand, "bi c c")
    streets = [["3♣", "9♠", "4♦"], ["5♣", "T♠", "6♦"], ["7♣", "J♠", "8♦"]]
    for cards in streets:
        for i, card in enumerate(cards):
            hand = hand.apply(DealHole(i, (parse_card(card),)))
        hand = play(hand, "x x x")
    for i in range(3):
        hand = hand.apply(DealHole(i, (None,)))
    assert hand.name(hand.to_act or 0) == "Seat 2"
    hand = play(hand, "x x x")
    assert hand.phase is Phase.SHOWDOWN
    assert seats_of(hand, hand.showdown_order()) == ["Seat 2", "Seat 3", "Seat 1"]


def test_SD_uncontested_winner_shows_nothing() -> None:
    """TDA 17-B / [SP-5]: A bets 100, B raises to 300, A folds -> B gets 200 back and wins uncontested."""
    hand = Hand.start(HandConfig(game=Game.NO, starting_stacks=(1000, 1000),
                                 blinds_or_straddles=(25, 50), min_bet=50))
    hand = play(hand, "c x F r100 r300 f")
    assert hand.finished
    assert hand.stacks == (850, 1150)
    assert hand.returned() == [0, 200]
    assert hand.awards()[0].amount == 300
    assert hand.apply is not None and not hand.can(Action(0, ActionKind.CHECK))


def test_SD_board_must_be_dealt_before_showdown() -> None:
    """A hand that reaches the river betting waits for the board, then for the cards to be read."""
    hand = play(six_max(), "c c c c c x")
    assert hand.awaiting == "board"
    assert not hand.can(DealBoard((None,)))
    assert hand.can(DealBoard((None, None, None)))


def test_SD_mucked_hand_still_gets_its_uncalled_chips_back() -> None:
    """RULES.md §8.1 step 1: the uncalled part of the largest bet goes back to its owner, even when he
    then mucks at showdown; a mucked hand wins nothing else."""
    hand = Hand.start(HandConfig(game=Game.NO, starting_stacks=(5000, 2000, 1000),
                                 blinds_or_straddles=(50, 100, 0), min_bet=100))
    hand = play(hand, "c c x F r4000 ai c")
    hand = play(hand, "T R")
    assert hand.phase is Phase.SHOWDOWN
    hand = hand.apply(Muck(0))
    assert hand.returned() == [2100, 0, 0]
    hand = hand.apply(ManualAward(((1,), (2,))))
    assert hand.stacks == (900 + 2100, 5000, 0)


def test_SD_show_must_match_the_dealt_cards() -> None:
    """Cards speak: a player can only table the cards he was dealt."""
    hand = Hand.start(HandConfig(game=Game.NO, starting_stacks=(100, 100),
                                 blinds_or_straddles=(1, 2), min_bet=2))
    hand = hand.apply(DealHole(0, parse_cards("AsKsQsJs"))).apply(DealHole(1, parse_cards("2c3c4c5c")))
    hand = play(hand, "ai c")
    assert hand.hands_face_up
    with pytest.raises(RuleViolation, match="was dealt A♠, not 2♦"):
        hand.apply(Show(0, parse_cards("2dKsQsJs")))
    hand = hand.apply(Show(0, parse_cards("AsKsQsJs")))
    for cards in ("Ts9h2d", "Th", "2h"):
        hand = hand.apply(DealBoard(parse_cards(cards)))
    assert hand.finished
    assert hand.stacks == (0, 200)  # two hole cards only: trip deuces beat a pair of tens
