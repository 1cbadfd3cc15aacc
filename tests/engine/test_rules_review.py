"""Edge cases of the betting and showdown rules, checked while reviewing
state.py against RULES.md: short all-in blinds and bring-ins, the pot-limit
full-blind assumption, the limit cap, showdown order, hi/lo side pots and odd
chips.  Each test names the RULES.md example it extends."""

from __future__ import annotations

from director.poker.cards import parse_cards
from director.poker.events import Action, ActionKind, DealBoard, DealHole, Show
from director.poker.games import Game
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig, Street


def step(hand: Hand, token: str) -> Hand:
    """f c x ai bi k r<to> for the player to act; F/T/R deal an unknown board."""
    if token in ("F", "T", "R"):
        return hand.apply(DealBoard((None,) * (3 if token == "F" else 1)))
    p = hand.to_act
    assert p is not None, f"nobody to act for {token}"
    kinds = {"f": ActionKind.FOLD, "c": ActionKind.CALL, "x": ActionKind.CHECK,
             "ai": ActionKind.ALL_IN, "bi": ActionKind.BRING_IN, "k": ActionKind.COMPLETE}
    if token in kinds:
        return hand.apply(Action(p, kinds[token]))
    return hand.apply(Action(p, ActionKind.RAISE, int(token[1:])))


def play(hand: Hand, script: str) -> Hand:
    for token in script.split():
        hand = step(hand, token)
    return hand


def game(kind: Game, stacks: tuple[int, ...], blinds: tuple[int, ...], **kw: object) -> Hand:
    return Hand.start(HandConfig(game=kind, starting_stacks=stacks, blinds_or_straddles=blinds,
                                 **kw))  # type: ignore[arg-type]


# --------------------------------------------------------------------- (a) BL-3, BL-6


def test_BL_3_short_all_in_big_blind_has_no_option_and_limpers_make_a_side_pot() -> None:
    # NL 100/200, the BB has only 120: everybody limps for the full 200 ([BL-6]);
    # the BB has no option, the flop comes at once.
    hand = game(Game.NO, (10_000, 120, 10_000, 10_000), (100, 200, 0, 0), min_bet=200)
    assert hand.legal().call == 200 and hand.legal().min_to == 400
    hand = play(hand, "c c c")
    assert hand.to_act is None and hand.street is Street.FLOP
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(480, (0, 1, 2, 3)), (240, (0, 2, 3))]


def test_BL_3_big_blind_with_chips_behind_keeps_his_option_when_others_can_answer() -> None:
    # The BB has 50 behind his blind: he may still raise (all in) after the limps.
    hand = game(Game.NO, (10_000, 250, 10_000, 10_000), (100, 200, 0, 0), min_bet=200)
    hand = play(hand, "c c c")
    assert hand.to_act == 1
    legal = hand.legal()
    assert legal.check and (legal.min_to, legal.max_to) == (250, 250)


def test_BL_3_short_all_in_small_blind_completing_gets_his_excess_back() -> None:
    # Heads-up in PHH order: p1 is the big blind (all in for 120), p2 the button/SB.
    hand = game(Game.NO, (120, 10_000), (100, 200), min_bet=200)
    assert hand.to_act == 1 and hand.legal().call == 100
    hand = play(hand, "c")
    assert hand.to_act is None and hand.awaiting == "board"
    assert hand.returned() == [0, 80]


# --------------------------------------------------------------------- (b) PL-7


def test_PL_7_full_blind_assumption_only_before_the_flop() -> None:
    # PLO 100/200, dead small blind: pre-flop the pot counts 300 ([PL-7a]); on the
    # flop the actual pot counts (TDA 54-C): 2 x 200 + 0 = 400, max bet 400.
    hand = game(Game.PO, (10_000,) * 4, (0, 200, 0, 0), min_bet=200)
    assert hand.legal().max_to == 700
    hand = play(hand, "c f f x F")
    assert hand.pot_total == 400
    assert hand.legal().max_to == 400


def test_PL_7_no_limit_and_fixed_limit_ignore_the_assumption() -> None:
    nl = game(Game.NO, (10_000,) * 4, (0, 200, 0, 0), min_bet=200)
    assert nl.legal().max_to == 10_000
    fl = game(Game.FO, (10_000,) * 4, (0, 200, 0, 0), small_bet=200, big_bet=400)
    assert (fl.legal().min_to, fl.legal().max_to) == (400, 400)


def test_PL_7_short_small_blind_all_in_does_not_reduce_the_pot() -> None:
    # The SB has only 40: the pot still counts a full 100 small blind pre-flop.
    hand = game(Game.PO, (40, 10_000, 10_000, 10_000), (100, 200, 0, 0), min_bet=200)
    assert hand.bets[0] == 40
    assert hand.legal().max_to == 700


# --------------------------------------------------------------------- (c) LIM cap


def limit(policy: Policy) -> Hand:
    # Limit Omaha 200/400 on the turn; B has 600 behind when it gets there.
    hand = Hand.start(HandConfig(game=Game.FO, starting_stacks=(10_000, 10_000, 800, 10_000),
                                 blinds_or_straddles=(100, 200, 0, 0), small_bet=200, big_bet=400,
                                 policy=policy))
    return play(hand, "c c c x F x x x x T")


def test_LIM_3_half_bet_all_in_counts_toward_the_cap_by_default() -> None:
    # p1 bets 400, p2 calls, p3 all in to 600 (+200 = 50 %): treated as a raise
    # and, by default, the first raise of the cap: 600 -> 1000 -> 1400 caps it.
    hand = play(limit(Policy()), "r400 c ai")
    assert hand.current_bet == 600
    hand = play(hand, "r1000 r1400")
    assert hand.to_act == 1 and hand.legal().call == 1000
    assert hand.legal().min_to is None  # bet + 3 raises reached
    # House rule: the short all-in does not count; one more raise is allowed.
    other = play(limit(Policy(limit_short_allin_counts_to_cap=False)), "r400 c ai r1000 r1400")
    assert (other.legal().min_to, other.legal().max_to) == (1800, 1800)


# --------------------------------------------------------------------- (d) ST-5, ST-6


def stud(stacks: tuple[int, ...]) -> Hand:
    hand = Hand.start(HandConfig(game=Game.F7S, starting_stacks=stacks, antes=(50,) * len(stacks),
                                 bring_in=100, small_bet=400, big_bet=800))
    cards = ["As Ks 3c", "Ad Kd 9h", "Ah Kh Jd", "Ac Kc Qs"]
    for p in range(len(stacks)):
        hand = hand.apply(DealHole(p, parse_cards(cards[p])))
    return hand


def test_ST_6_short_bring_in_then_a_completion_and_a_side_pot() -> None:
    # The 3♣ has 60 behind: he brings in 60 all in; the next player completes to
    # the full small bet, the others call.
    hand = stud((110, 5000, 5000, 5000))
    assert hand.to_act == 0 and hand.legal().bring_in
    hand = play(hand, "bi")
    assert hand.current_bet == 100 and hand.stacks[0] == 0
    assert (hand.legal().call, hand.legal().complete_to) == (100, 400)
    hand = play(hand, "k c c")
    assert hand.street is Street.FOURTH
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(440, (0, 1, 2, 3)), (1020, (1, 2, 3))]


def test_ST_5_the_next_player_may_complete_and_the_bring_in_duty_passes_on_a_fold() -> None:
    hand = stud((50, 5000, 5000, 5000))
    assert hand.to_act == 1 and hand.legal().bring_in and hand.legal().fold
    hand = play(hand, "f")
    assert hand.to_act == 2 and hand.legal().bring_in
    hand = play(hand, "k")
    assert hand.current_bet == 400 and hand.to_act == 3


# --------------------------------------------------------------------- (e) SD


def test_SD_1_heads_up_last_aggressor_shows_first_in_phh_order() -> None:
    # Heads-up: p1 (big blind) acts first after the flop; on the river p1 bets,
    # p2 raises, p1 calls: p2 shows first.
    hand = game(Game.PO, (1000, 1000), (10, 20), min_bet=20)
    hand = play(hand, "c x F x x T x x R r20 r60 c")
    assert hand.showdown_order() == (1, 0)


def test_SD_2_heads_up_checked_river_the_big_blind_shows_first() -> None:
    hand = play(game(Game.PO, (1000, 1000), (10, 20), min_bet=20), "c x F x x T x x R x x")
    assert hand.showdown_order() == (0, 1)


def test_SD_3_no_hand_is_face_up_while_two_players_can_still_bet() -> None:
    hand = game(Game.NO, (5000, 5000, 300), (50, 100, 0), min_bet=100)
    hand = play(hand, "ai c c")  # p3 all in pre-flop; p1 and p2 call with chips behind
    assert not hand.hands_face_up
    hand = play(hand, "F x x T")
    assert not hand.hands_face_up
    hand = play(hand, "ai c")
    assert hand.hands_face_up and hand.awaiting == "board"


# --------------------------------------------------------------------- (f) SPL-4, (g) ODD


def hilo_showdown(stacks: tuple[int, ...], board: str, holes: list[str]) -> Hand:
    hand = game(Game.PO8, stacks, (50, 100) + (0,) * (len(stacks) - 2), min_bet=100)
    for p, cards in enumerate(holes):
        hand = hand.apply(DealHole(p, parse_cards(cards)))
    while hand.to_act is not None:
        legal = hand.legal()
        hand = hand.apply(Action(hand.to_act, ActionKind.ALL_IN if legal.call else ActionKind.CHECK))
    for n in (3, 1, 1):
        if hand.awaiting == "board":
            hand = hand.apply(DealBoard(parse_cards(board)[len(hand.board):len(hand.board) + n]))
    for p, cards in enumerate(holes):
        hand = hand.apply(Show(p, parse_cards(cards)))
    return hand


def test_SPL_4_low_of_the_short_stack_does_not_take_the_side_pot_low() -> None:
    # [SPL-4] in a hand: A all in for 300, B and C for 1,000.
    hand = hilo_showdown((1000, 1000, 300), "2c5d8hKcQs",
                         ["KhKd9s9c", "QhQd7c6d", "Ad3sJhTd"])
    assert hand.finished
    got = {(a.pot_name, a.half, a.player): a.amount for a in hand.awards()}
    assert got == {("Side pot 1", "high", 0): 700, ("Side pot 1", "low", 1): 700,
                   ("Main pot", "high", 0): 450, ("Main pot", "low", 2): 450}


def test_ODD_heads_up_odd_chip_goes_to_the_big_blind_first_left_of_the_button() -> None:
    # Heads-up (PHH order: index 0 is the big blind, first seat left of the
    # button), a dead ante of 1 makes the pot 151; both hold the same
    # ace-high straight, so the odd chip goes to the big blind.
    hand = Hand.start(HandConfig(game=Game.PO, starting_stacks=(1000, 1000), antes=(0, 1),
                                 blinds_or_straddles=(50, 75), min_bet=75, ante_trimming=False))
    assert hand.bets == (75, 50) and hand.dead_money == 1
    hand = hand.apply(DealHole(0, parse_cards("JcTh2c3d"))).apply(DealHole(1, parse_cards("JdTc2d3h")))
    hand = play(hand, "c x").apply(DealBoard(parse_cards("AsKsQd")))
    hand = play(hand, "x x").apply(DealBoard(parse_cards("5c")))
    hand = play(hand, "x x").apply(DealBoard(parse_cards("6h")))
    hand = play(hand, "x x").apply(Show(0, parse_cards("JcTh2c3d"))).apply(Show(1, parse_cards("JdTc2d3h")))
    assert hand.pot_total == 151
    awards = hand.awards()
    assert {a.player: a.amount for a in awards} == {0: 76, 1: 75}
    assert awards[0].hand_name == "ace-high straight"
    assert hand.stacks == (1000, 1000)
