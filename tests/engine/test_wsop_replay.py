"""Regression: the 41 Omaha and stud hands of the 2023 WSOP $50,000 Poker
Players Championship final day (shared/phh/wsop-2023-43-day5/) replay through
our engine to their published finishing stacks (STYLE.md: replay real hands,
like pokerkit's tests/test_wsop).

Policy: the event is a WSOP tournament, so limit hands are capped at bet + 4
raises (WSOP-T 100-b) and :func:`director.replay.policy_for` picks that from the
file's ``event``.  The data never needs it: the busiest limit street (hand 79's
flop: bet, two raises and a short all-in) stays within the TDA default of
bet + 3 raises, so every hand also replays under the default policy.
"""

from __future__ import annotations

import glob
import os

import pytest

from director.poker import phh
from director.poker.games import Game
from director.poker.policy import Policy
from director.replay import WSOP_POLICY, policy_for

HERE = os.path.dirname(__file__)
WSOP = sorted(glob.glob("/work/shared/phh/wsop-2023-43-day5/*.phh")) or sorted(
    glob.glob(os.path.join(HERE, "..", "..", "shared", "phh", "wsop-2023-43-day5", "*.phh")))
IDS = [os.path.basename(p).removesuffix(".phh") for p in WSOP]


def test_all_41_hands_are_here() -> None:
    assert len(WSOP) == 41


@pytest.mark.parametrize("path", WSOP, ids=IDS)
def test_wsop_2023_event_43_hand_replays_to_its_finishing_stacks(path: str) -> None:
    history = phh.read_phh(path)
    assert policy_for(history) == WSOP_POLICY
    hand = phh.replay(history, WSOP_POLICY)
    assert hand.finished
    assert history.finishing_stacks is not None
    assert hand.stacks == history.finishing_stacks
    assert sum(hand.stacks) == sum(history.starting_stacks)


@pytest.mark.parametrize("path", WSOP, ids=IDS)
def test_wsop_hand_also_replays_under_the_tda_default_cap(path: str) -> None:
    history = phh.read_phh(path)
    assert phh.replay(history, Policy()).stacks == history.finishing_stacks


def test_busiest_limit_street_is_within_bet_plus_three_raises() -> None:
    """Why the cap does not matter here: count completions, bets and raises
    per street in every limit hand; none reaches a fifth."""
    busiest = 0
    for path in WSOP:
        h = phh.read_phh(path)
        if not h.variant.betting.is_fixed:
            continue
        count = 0
        for a in h.actions:
            new_street = a.kind is phh.ActionKind.DEAL_BOARD or (
                a.kind is phh.ActionKind.DEAL_HOLE and len(a.cards) == 1)
            if new_street:
                count = 0
            if a.kind is phh.ActionKind.COMPLETE_BET_OR_RAISE:
                count += 1
                busiest = max(busiest, count)
    assert busiest == 4  # hand 79's flop: 250k, 500k, 750k, all-in 800k


def test_wsop_hand_79_short_all_in_does_not_reopen_the_betting() -> None:
    """Hand 79, flop: p2's all-in to 800,000 is a 50,000 raise on a 250,000
    street, less than half a bet (TDA 47-B): p1, who raised to 750,000, may
    only call."""
    history = phh.read_phh(next(p for p in WSOP if p.endswith("79.phh")))
    config = phh.hand_config(history, WSOP_POLICY)
    hand = phh.Hand.start(config)
    for action, event in phh.paired_events(history):
        if action.number == 14:  # "p1 cc" after p2's all-in and p3's call
            legal = hand.legal()
            assert hand.to_act == 0
            assert legal.call == 50_000
            assert legal.min_to is None
            break
        if event is not None:
            hand = hand.apply(event)
    else:  # pragma: no cover
        pytest.fail("action 14 not found")


def test_wsop_set_covers_pot_limit_omaha_limit_omaha_hi_lo_and_both_studs() -> None:
    assert {phh.read_phh(p).variant for p in WSOP} == {Game.PO, Game.FO8, Game.F7S, Game.F7S8}
