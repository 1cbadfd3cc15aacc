"""The pots a dealer sees while a betting round is going on (RULES.md §8.1):
only an all-in player closes a pot; a live player who has not matched the bet
yet can still put chips in."""

from __future__ import annotations

from director.poker.events import Action, ActionKind
from director.poker.games import Game
from director.poker.state import Hand, HandConfig
from tests.engine.scripting import play


def six_max(stacks: tuple[int, ...] = (1000,) * 6) -> Hand:
    # PHH order: SB, BB, then the others; blinds 25/50.
    return Hand.start(HandConfig(game=Game.PO, starting_stacks=stacks,
                                 blinds_or_straddles=(25, 50, 0, 0, 0, 0), min_bet=50))


def test_SP_mid_round_the_small_blind_who_has_not_acted_makes_no_side_pot() -> None:
    """The four others call 50; the small blind (25 in) has not acted: one main pot
    of 275 that all six can win, not a main pot of 150 and a side pot of 125."""
    hand = play(six_max(), "c c c c")
    assert hand.to_act == 0
    assert [(p.name, p.amount, p.eligible) for p in hand.pots()] == [
        ("Main pot", 25 + 50 * 5, (0, 1, 2, 3, 4, 5))]


def test_SP_mid_round_an_all_in_player_still_closes_the_main_pot() -> None:
    """Player 3 goes all-in for 30, short of the big blind; the others call 50 and the
    small blind (25 in) has not acted.  The main pot is capped at 30 a player, so it
    holds the small blind's 25 and 30 from each of the five others; the rest is a
    side pot that player 3 cannot win and the small blind still can."""
    hand = six_max((1000, 1000, 30, 1000, 1000, 1000))
    hand = hand.apply(Action(2, ActionKind.ALL_IN))
    hand = play(hand, "c c c")
    pots = hand.pots()
    assert [(p.name, p.amount, p.eligible) for p in pots] == [
        ("Main pot", 25 + 30 * 5, (0, 1, 2, 3, 4, 5)),
        ("Side pot 1", 20 * 4, (0, 1, 3, 4, 5))]
    assert sum(p.amount for p in pots) == 25 + 50 + 30 + 50 * 3
