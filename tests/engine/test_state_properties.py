"""Invariants of the hand state on random legal hands of every game (STYLE.md: property tests).

Short stacks make all-ins, side pots, short blinds and short bring-ins common.  At every
step: chips are conserved; when a raise is legal, min_to <= max_to <= the all-in total;
undo then redo gives the same state; a JSON round trip gives the same state.  At the end
every pot is paid out in full.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from director.poker.cards import DECK
from director.poker.events import (
    Action,
    ActionKind,
    DealBoard,
    DealHole,
    Event,
    ManualAward,
    Muck,
    Show,
)
from director.poker.games import Game
from director.poker.policy import Policy
from director.poker.state import STUD_STREETS, Hand, HandConfig


def random_config(rnd: random.Random, game: Game) -> HandConfig:
    players = rnd.randint(2, 8 if game.is_stud else 9)
    stacks = tuple(rnd.choice([rnd.randint(1, 12), rnd.randint(5, 60), rnd.randint(50, 400)])
                   for _ in range(players))
    policy = Policy(
        limit_raise_cap=rnd.choice([3, 4, None]),
        limit_cap_heads_up=rnd.random() < 0.7,
        bba_order=rnd.choice(["big-blind-first", "ante-first"]),
        stud_high_hand_tie=rnd.choice(["suit", "position"]),
        stud_4th_street_double=rnd.random() < 0.3,
        straddle_min_raise=rnd.choice(["double-straddle", "straddle-plus-bb"]),
    )
    dead = tuple(i for i in range(players) if rnd.random() < 0.08)[: players - 1]
    if game.is_stud:
        return HandConfig(game=game, starting_stacks=stacks, antes=(rnd.choice([0, 1, 2]),) * players,
                          bring_in=rnd.choice([1, 2]), small_bet=4, big_bet=8, policy=policy,
                          dead_players=dead)
    blinds = [0] * players
    blinds[0], blinds[1 % players] = rnd.choice([(1, 2), (0, 2), (2, 2), (1, 3)])
    if players > 3 and rnd.random() < 0.2:
        blinds[2] = 4
    antes: tuple[int, ...] = (0,) * players
    trimming = True
    kind = rnd.random()
    if kind < 0.2:
        antes = (1,) * players
    elif kind < 0.4:
        antes = tuple(2 if i == 1 else 0 for i in range(players))
        trimming = False
    return HandConfig(game=game, starting_stacks=stacks, antes=antes, blinds_or_straddles=tuple(blinds),
                      min_bet=2, small_bet=2, big_bet=4, ante_trimming=trimming, small_blind=1,
                      policy=policy, dead_players=dead)


def next_event(rnd: random.Random, hand: Hand, deck: list, deal_holes: bool = True) -> Event | None:
    waiting = hand.awaiting
    if waiting == "hole" and (deal_holes or hand.to_act is None):
        i = hand.hole_cards.index(())
        return DealHole(i, tuple(deck.pop() for _ in range(4)))
    p = hand.to_act
    if p is not None:
        legal = hand.legal()
        choices: list[Event] = []
        if legal.fold:
            choices.append(Action(p, ActionKind.FOLD))
        if legal.bring_in:
            choices += [Action(p, ActionKind.BRING_IN)] * 3
        else:
            choices += [Action(p, ActionKind.CALL)] * 4
        if legal.check:
            choices.append(Action(p, ActionKind.CHECK))
        if legal.min_to is not None and legal.max_to is not None:
            choices += [Action(p, ActionKind.RAISE, legal.min_to), Action(p, ActionKind.RAISE, legal.max_to)]
            if not hand.config.game.betting.is_fixed:
                choices.append(Action(p, ActionKind.RAISE, rnd.randint(legal.min_to, legal.max_to)))
        if legal.complete_to is not None:
            choices.append(Action(p, ActionKind.COMPLETE))
        all_in = legal.all_in_to
        if all_in is not None and (all_in == legal.max_to or (
                legal.call is not None and all_in - hand.bets[p] <= legal.call)):
            choices.append(Action(p, ActionKind.ALL_IN))
        return rnd.choice(choices)
    if waiting == "board":
        return DealBoard(tuple(deck.pop() for _ in range(3 if not hand.board else 1)))
    if waiting == "street":
        street = STUD_STREETS.index(hand.street)
        for i, cards in enumerate(hand.hole_cards):
            if hand.live[i] and len(cards) < 3 + street:
                # Eight players can run the deck dry on 7th street: those cards go unseen.
                return DealHole(i, tuple(deck.pop() if deck else None for _ in range(3 if street == 0 else 1)))
        raise AssertionError("no stud player waits for a card")
    live = [i for i, alive in enumerate(hand.live) if alive]
    if not hand.finished and len(live) > 1 and rnd.random() < 0.3:
        p = rnd.choice(live)
        if rnd.random() < 0.5:
            return Muck(p)
        return Show(p, hand.hole_cards[p])
    if waiting == "showdown":
        # Cards were not entered: the dealer names the winners.
        rnd.shuffle(live)
        cut = rnd.randint(1, len(live))
        low = ((live[-1],),) if hand.config.game.hi_lo and rnd.random() < 0.5 else ()
        return ManualAward((tuple(live[:cut]), tuple(live[cut:])) if cut < len(live) else (tuple(live),), low)
    return None


def check_state(hand: Hand) -> None:
    total = sum(hand.config.starting_stacks)
    if hand.finished:
        assert sum(hand.stacks) == total
        pots = hand.pots()
        awards = hand.awards()
        assert sum(a.amount for a in awards) == sum(p.amount for p in pots)
        assert sum(a.amount for a in awards) + sum(hand.returned()) == hand.pot_total
    else:
        assert sum(hand.stacks) + hand.pot_total == total
    assert all(s >= 0 for s in hand.stacks)
    legal = hand.legal()
    if legal.min_to is not None:
        assert legal.max_to is not None and legal.all_in_to is not None
        assert legal.min_to <= legal.max_to <= legal.all_in_to
        assert legal.min_to > hand.current_bet or legal.min_to == legal.all_in_to


def play_random_hand(seed: int, game: Game, check_every_step: bool = True) -> Hand:
    rnd = random.Random(seed)
    config = random_config(rnd, game)
    deck = list(DECK)
    rnd.shuffle(deck)
    hand = Hand.start(config)
    deal_holes = rnd.random() < 0.85
    for _ in range(200):
        event = next_event(rnd, hand, deck, deal_holes)
        if event is None:
            break
        before = hand
        hand = hand.apply(event)
        if check_every_step:
            check_state(hand)
            snap = hand.snapshot()
            assert before.snapshot() == Hand.replay(config, before.events).snapshot()
            assert hand.undo().apply(event).snapshot() == snap
            assert Hand.from_json(hand.to_json()).snapshot() == snap
    assert hand.finished
    return hand


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32), game=st.sampled_from(list(Game)))
def test_random_hands_keep_every_invariant(seed: int, game: Game) -> None:
    """Chips conserved, pots paid in full, min <= max <= all-in, undo/redo and JSON round trips."""
    play_random_hand(seed, game)


def test_many_random_hands_finish_with_chips_conserved() -> None:
    """A wider sweep, checking only the end of each hand: every chip is somewhere."""
    for seed in range(400):
        game = list(Game)[seed % len(Game)]
        hand = play_random_hand(seed, game, check_every_step=False)
        check_state(hand)
