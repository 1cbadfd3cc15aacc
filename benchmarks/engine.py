"""Engine benchmark: our rules engine against pokerkit 0.7.7.

Run it on its own::

    .venv/bin/python benchmarks/engine.py [--hands N] [--seed S] [--profile]

1. Deals random pot-limit Omaha 6-max hands (blinds 50/100, mixed stacks, all
   reaching a showdown, many with all-ins and side pots) and replays the SAME
   hands with both engines, like with like:

   * input: the parsed PHH hand, its cards already parsed into each engine's
     card objects (``phh.events`` for ours, pokerkit ``Card``s for pokerkit),
     so neither engine's time includes reading text;
   * work: from the hand's settings (ours builds its ``HandConfig``, pokerkit
     its ``State``) through the forced bets, every deal and every action, to
     the showdown with every pot awarded and the finishing stacks known (ours
     reads every shown hand and builds the awards with their explanations;
     pokerkit shows or mucks and pushes the chips);
   * timing: CPU time of this process (``time.process_time``), so other
     programs on a busy machine do not count, taken alternately 25 hands at a
     time (pokerkit replays them once, ours five times) so that what remains
     (caches, frequency) affects both engines alike.

   It reports hands per second for each and the ratio (goal: ours >= 100x
   pokerkit), and checks that both engines finish every hand with the same
   stacks (odd chips aside, see below).
2. Times a 9-player pot-limit Omaha hi/lo showdown: every player all-in
   pre-flop, a main pot and 7 side pots, each read high and low (goal <= 1 ms):
   from the hand before its last show to every pot awarded.

Both engines replay hands they agree are legal: pokerkit deals them with
random actions, and the few it allows but the TDA does not (a re-raise after
short all-ins that did not re-open the betting, [RO-5]) are dropped.  Odd
chips: pokerkit gives a split pot's odd chips to the first winner, so ours
replays under ``odd_chip_multi="all-to-first"`` (RULES.md §11.3); pokerkit
kills shown hands that cannot win, which can merge pots and move an odd chip,
so a few hands may still differ by odd chips only (reported).

It prints its figures and ends with one JSON line::

    {"hands", "ours_hands_per_s", "pokerkit_hands_per_s", "ratio", "showdown_ms"}

A benchmark is not a test (STYLE.md): it never fails on a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import warnings
from collections import deque
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pokerkit import Automation, Card, Deck, PotLimitOmahaHoldem  # noqa: E402

from director.poker import phh  # noqa: E402
from director.poker.errors import RuleViolation  # noqa: E402
from director.poker.policy import Policy  # noqa: E402
from director.poker.state import Hand  # noqa: E402

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
BLINDS = (50, 100)
# pokerkit gives a split pot's odd chips to the first winner (RULES.md §11.3):
# replay ours the same way so that both engines' stacks can be compared.
POLICY = Policy(odd_chip_multi="all-to-first", identical_hands_both_ways="quarter")


def deal_hands(count: int, seed: int) -> list[str]:
    """PHH texts of ``count`` random PLO 6-max hands that reach a showdown."""
    rng = random.Random(seed)
    hands: list[str] = []
    while len(hands) < count:
        stacks = tuple(rng.choice([800, 2000, 5000, 10000]) + rng.randrange(0, 500, 25)
                       for _ in range(6))
        state = PotLimitOmahaHoldem.create_state(AUTOMATIONS, True, 0, BLINDS, BLINDS[1],
                                                 stacks, 6)
        deck = list(Deck.STANDARD)
        rng.shuffle(deck)
        state.deck_cards = deque(deck)
        while state.status:
            if state.can_deal_hole():
                state.deal_hole(4)
            elif state.can_deal_board():
                state.deal_board()
            elif state.actor_index is not None:
                r = rng.random()
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                if low is not None and high is not None and r < 0.25:
                    state.complete_bet_or_raise_to(rng.choice([low, high, (low + high) // 2]))
                elif r < 0.30 and max(state.bets) > state.bets[state.actor_index]:
                    state.fold()
                else:
                    state.check_or_call()
            else:
                state.show_or_muck_hole_cards()
        actions = []
        showdown = False
        for op in state.operations:
            name = type(op).__name__
            if name == "HoleDealing":
                actions.append(f"d dh p{op.player_index + 1} {''.join(map(repr, op.cards))}")
            elif name == "BoardDealing":
                actions.append(f"d db {''.join(map(repr, op.cards))}")
            elif name == "CompletionBettingOrRaisingTo":
                actions.append(f"p{op.player_index + 1} cbr {op.amount}")
            elif name == "CheckingOrCalling":
                actions.append(f"p{op.player_index + 1} cc")
            elif name == "Folding":
                actions.append(f"p{op.player_index + 1} f")
            elif name == "HoleCardsShowingOrMucking":
                showdown = True
                cards = "".join(map(repr, op.hole_cards))
                actions.append(f"p{op.player_index + 1} sm {cards}".rstrip())
        if not showdown:
            continue
        hands.append(
            f'variant = "PO"\nante_trimming_status = true\nantes = [0, 0, 0, 0, 0, 0]\n'
            f"blinds_or_straddles = [{BLINDS[0]}, {BLINDS[1]}, 0, 0, 0, 0]\n"
            f"min_bet = {BLINDS[1]}\nstarting_stacks = {list(stacks)}\n"
            f"actions = {json.dumps(actions)}\nfinishing_stacks = {list(state.stacks)}\n")
    return hands


def pokerkit_operations(history: phh.HandHistory) -> list[tuple[str, Any]]:
    """The hand's actions for pokerkit, cards already parsed into pokerkit's own cards."""
    ops: list[tuple[str, Any]] = []
    for a in history.actions:
        k = a.kind
        if k is phh.ActionKind.DEAL_HOLE:
            ops.append(("deal_hole", tuple(Card.parse(phh.format_phh_cards(a.cards)))))
        elif k is phh.ActionKind.DEAL_BOARD:
            ops.append(("deal_board", tuple(Card.parse(phh.format_phh_cards(a.cards)))))
        elif k is phh.ActionKind.COMPLETE_BET_OR_RAISE:
            ops.append(("complete_bet_or_raise_to", a.amount))
        elif k is phh.ActionKind.CHECK_OR_CALL:
            ops.append(("check_or_call", None))
        elif k is phh.ActionKind.FOLD:
            ops.append(("fold", None))
        elif k in (phh.ActionKind.SHOW, phh.ActionKind.MUCK):
            ops.append(("show_or_muck", tuple(Card.parse(phh.format_phh_cards(a.cards))) or False))
    return ops


def pokerkit_replay(history: phh.HandHistory, ops: list[tuple[str, Any]]) -> list[int]:
    """Replay one hand through pokerkit (as its own PHH reader would)."""
    state = PotLimitOmahaHoldem.create_state(
        AUTOMATIONS, history.ante_trimming_status, history.antes, history.blinds_or_straddles,
        history.min_bet or 0, history.starting_stacks, history.players_count)
    for name, arg in ops:
        if name == "show_or_muck":
            if state.can_show_or_muck_hole_cards():
                state.show_or_muck_hole_cards(arg)
        elif arg is None:
            getattr(state, name)()
        else:
            getattr(state, name)(arg)
    while state.can_show_or_muck_hole_cards():
        state.show_or_muck_hole_cards()
    assert not state.status
    return list(state.stacks)


def ours_replay(history: phh.HandHistory, events: list[Any]) -> tuple[int, ...]:
    """Replay one hand through our engine, from its settings to every pot awarded."""
    hand = Hand.replay(phh.hand_config(history, POLICY), events)
    return hand.stacks  # the hand is over: the stacks include the awards


def showdown_hand() -> tuple[Any, list[Any]]:
    """Nine players all-in pre-flop in PO/8 (blinds 500/1,000; everybody but
    the blinds short of the big blind), the blinds covering everyone: a main
    pot and 7 side pots, each read high and low (the deal is the first one
    whose board makes a low possible)."""
    stacks = [1000, 1000, 151, 253, 355, 457, 559, 661, 763]
    for seed in range(1000):
        deck = list(Deck.STANDARD)
        random.Random(seed).shuffle(deck)
        lows = {c.rank for c in deck[36:41] if c.rank in "A2345678"}
        if len(lows) >= 4:
            break
    cards = ["".join(map(repr, deck[4 * i:4 * i + 4])) for i in range(9)]
    board = "".join(map(repr, deck[36:41]))
    actions = [f"d dh p{i + 1} {cards[i]}" for i in range(9)]
    actions += [f"p{i + 1} cc" for i in [*range(2, 9), 0]]
    actions += [f"d db {board[:6]}", f"d db {board[6:8]}", f"d db {board[8:]}"]
    actions += [f"p{i + 1} sm {cards[i]}" for i in range(9)]
    text = (f'variant = "PO/8"\nante_trimming_status = true\nantes = {[0] * 9}\n'
            f"blinds_or_straddles = {[500, 1000] + [0] * 7}\nmin_bet = 1000\n"
            f"starting_stacks = {stacks}\nactions = {json.dumps(actions)}\n")
    history = phh.parse_phh(text)
    return phh.hand_config(history), phh.events(history)


def time_showdown(repeat: int = 300) -> float:
    """Milliseconds to settle the 9-way PO/8 showdown: from the state before
    the last hand is shown to every pot awarded, high and low."""
    config, events = showdown_hand()
    before = Hand.replay(config, events[:-1])
    last = events[-1]
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            hand = before.apply(last)
            hand.awards()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="PLO hands to replay (300)")
    parser.add_argument("--seed", type=int, default=2023)
    parser.add_argument("--profile", action="store_true", help="cProfile our replay")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")

    prepared: list[tuple[phh.HandHistory, list[Any], list[tuple[str, Any]]]] = []
    dropped = 0
    seed = args.seed
    while len(prepared) < args.hands:
        for text in deal_hands(args.hands - len(prepared), seed):
            history = phh.parse_phh(text)
            events = phh.events(history)
            try:
                Hand.replay(phh.hand_config(history, POLICY), events)
            except RuleViolation:
                # pokerkit lets a player re-raise after short all-ins that did
                # not re-open the betting ([RO-5]) or records a no-op check:
                # such hands are not the same hand for both engines.
                dropped += 1
                continue
            prepared.append((history, events, pokerkit_operations(history)))
        seed += 1

    rounds = 5  # ours is ~100x faster: replay it several times per pokerkit replay
    batch = 25  # hands per turn: small enough that both engines share the machine's load
    pk_seconds = our_seconds = 0.0
    theirs: list[list[int]] = []
    ours: list[tuple[int, ...]] = []
    clock = time.process_time
    for first in range(0, len(prepared), batch):
        hands = prepared[first:first + batch]
        start = clock()
        theirs.extend(pokerkit_replay(history, ops) for history, _, ops in hands)
        middle = clock()
        for _ in range(rounds):
            results = [ours_replay(history, events) for history, events, _ in hands]
        end = clock()
        ours.extend(results)
        pk_seconds += middle - start
        our_seconds += (end - middle) / rounds

    agree = sum(list(o) == t for o, t in zip(ours, theirs, strict=True))
    odd_only = sum(list(o) != t and sum(abs(a - b) for a, b in zip(o, t, strict=True)) <= 8
                   for o, t in zip(ours, theirs, strict=True))
    if args.profile:
        import cProfile
        import pstats
        profile = cProfile.Profile()
        profile.enable()
        for history, events, _ in prepared:
            ours_replay(history, events)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)

    ours_rate = len(prepared) / our_seconds
    pk_rate = len(prepared) / pk_seconds
    showdown_ms = time_showdown()
    print(f"PLO 6-max hands to showdown: {len(prepared)} ({agree} finish identically in both"
          f" engines, {odd_only} differ by odd chips only; {dropped} dealt hands dropped,"
          " see the source)")
    print(f"  ours:     {ours_rate:10.1f} hands/s")
    print(f"  pokerkit: {pk_rate:10.1f} hands/s")
    print(f"  ratio:    {ours_rate / pk_rate:10.1f}x   (goal >= 100x)")
    print(f"9-player PO/8 showdown, 8 pots high and low: {showdown_ms:.3f} ms   (goal <= 1 ms)")
    print(json.dumps({"hands": len(prepared), "ours_hands_per_s": round(ours_rate, 1),
                      "pokerkit_hands_per_s": round(pk_rate, 1),
                      "ratio": round(ours_rate / pk_rate, 1),
                      "showdown_ms": round(showdown_ms, 4)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
