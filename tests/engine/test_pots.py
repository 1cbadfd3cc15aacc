"""Pots, side pots and awarding them: RULES.md §7.2-§7.4 and §8.

Examples SP-*, SPL-*, ODD-* are the numbered examples of RULES.md.  The tests
in the first part build hands by value (strength / low ranks), so they check
the pot arithmetic alone; the SPL and ODD-4 tests further down read the real
cards with hands.py, end to end.

Player indices: for flop games index 0 is the first seat clockwise from the
button; "player N" in explanations is index + 1.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.poker.cards import DECK, Card, check_no_duplicates, parse_cards
from director.poker.errors import RuleViolation
from director.poker.hands import HighHand, LowHand, low_name, omaha_high, omaha_low, stud_high
from director.poker.policy import Policy
from director.poker.pots import (
    Award,
    Pot,
    award_pots,
    build_pots,
    describe_awards,
    uncontested,
)

# ---------------------------------------------------------------------------
# Hands given by value: real HighHand / LowHand with a chosen strength or low,
# so these tests check the pot arithmetic alone.


def High(strength: int, name: str = "a hand", cards: tuple[Card, ...] = ()) -> HighHand:  # noqa: N802
    return HighHand(strength, cards, "by value", name)


def Low(ranks: tuple[int, ...], cards: tuple[Card, ...] = ()) -> LowHand:  # noqa: N802
    return LowHand(ranks, cards, low_name(ranks))


def amounts(awards: list[Award]) -> dict[int, int]:
    total: dict[int, int] = defaultdict(int)
    for a in awards:
        total[a.player] += a.amount
    return dict(total)


def shape(pots: list[Pot]) -> list[tuple[str, int, tuple[int, ...]]]:
    return [(p.name, p.amount, p.eligible) for p in pots]


A, B, C, D, E = range(5)

# ---------------------------------------------------------------------------
# §8.1 building the pots


def test_SP_1_three_all_ins_make_main_and_two_side_pots() -> None:
    pots, returned = build_pots([50, 150, 300, 300], [True] * 4)
    assert shape(pots) == [
        ("Main pot", 200, (A, B, C, D)),
        ("Side pot 1", 300, (B, C, D)),
        ("Side pot 2", 300, (C, D)),
    ]
    assert returned == [0, 0, 0, 0]
    assert sum(p.amount for p in pots) == 800


def test_SP_2_uncalled_200_returned_to_C_before_showdown() -> None:
    pots, returned = build_pots([50, 150, 500, 300], [True] * 4)
    assert returned == [0, 0, 200, 0]
    assert shape(pots) == [
        ("Main pot", 200, (A, B, C, D)),
        ("Side pot 1", 300, (B, C, D)),
        ("Side pot 2", 300, (C, D)),
    ]


def test_SP_3_folded_players_chips_stay_in_the_slices_they_reached() -> None:
    pots, returned = build_pots([50, 150, 300, 300, 100], [True, True, True, True, False])
    assert shape(pots) == [
        ("Main pot", 250, (A, B, C, D)),
        ("Side pot 1", 350, (B, C, D)),
        ("Side pot 2", 300, (C, D)),
    ]
    assert returned == [0] * 5
    assert sum(p.amount for p in pots) == 900


def test_SP_4_award_order_is_last_side_pot_first() -> None:
    pots, _ = build_pots([50, 150, 300, 300], [True] * 4)
    # A has the best hand, then B, then C, then D.
    high = {A: High(40, "quad aces"), B: High(30, "a flush"), C: High(20, "a straight"),
            D: High(10, "two pair")}
    awards = award_pots(pots, high, None, stud=False)
    assert [a.pot_name for a in awards] == ["Side pot 2", "Side pot 1", "Main pot"]
    assert [(a.pot_index, a.player, a.amount) for a in awards] == [(2, C, 300), (1, B, 300),
                                                                   (0, A, 200)]
    assert awards[0].explanation == "Side pot 2 300: to player 3, a straight, 300"


def test_SP_5_uncalled_raise_returned_and_pot_won_uncontested() -> None:
    # Earlier streets: A and B put in 200 each.  A bets 100, B raises to 300, A folds.
    pots, returned = build_pots([200 + 100, 200 + 300], [False, True])
    assert returned == [0, 200]
    assert shape(pots) == [("Main pot", 600, (B,))]
    awards = uncontested(pots, B)
    assert awards == [Award(0, "Main pot", "whole", B, 600, None, 0,
                            "Main pot 600: to player 2, uncontested, 600", 600, (B,),
                            "uncontested")]
    # award_pots agrees without needing B's hand (TDA 17-B: he need not show).
    assert award_pots(pots, {}, None, stud=False) == awards


def test_SP_6_big_blind_ante_is_dead_money_and_18000_is_returned() -> None:
    # Index order: SB, BB, UTG (others folded without putting anything in).
    # BB has 3,000: 2,000 live blind + 1,000 of the 2,000 ante (dead), all in.
    pots, returned = build_pots([1000, 2000, 20000], [False, True, True], dead_money=1000)
    assert returned == [0, 0, 18000]
    assert shape(pots) == [("Main pot", 6000, (1, 2))]


def test_SP_6_counting_the_ante_as_live_would_build_the_wrong_7000_pot() -> None:
    pots, returned = build_pots([1000, 3000, 20000], [False, True, True])
    assert (pots[0].amount, returned[2]) == (7000, 17000)  # what §8.1 step 3 avoids


def test_dead_money_alone_is_the_main_pot_when_a_live_player_put_in_nothing_live() -> None:
    # Stud-style dead antes 400; player 0 is all in for his ante only.
    pots, returned = build_pots([0, 100, 100], [True, True, True], dead_money=400)
    assert shape(pots) == [("Main pot", 400, (0, 1, 2)), ("Side pot 1", 200, (1, 2))]
    assert returned == [0, 0, 0]


def test_no_chips_at_all_make_no_pot() -> None:
    assert build_pots([0, 0], [True, True]) == ([], [0, 0])
    assert build_pots([], []) == ([], [])


def test_chips_nobody_live_reached_go_to_the_highest_pot_with_a_live_hand() -> None:
    # A bets 500, B calls all in for 300, C calls 500; then A's and C's hands
    # are killed.  The 400 above B's level joins the pot B can win.
    pots, returned = build_pots([500, 300, 500], [False, True, False])
    assert shape(pots) == [("Main pot", 1300, (B,))]
    assert returned == [0, 0, 0]


def test_everyone_folded_leaves_one_pot_nobody_can_win_and_award_refuses_it() -> None:
    pots, returned = build_pots([300, 500, 100], [False, False, False], dead_money=50)
    assert returned == [0, 200, 0]
    assert shape(pots) == [("Main pot", 750, ())]
    with pytest.raises(RuleViolation, match="main pot of 750 has no live hand left"):
        award_pots(pots, {}, None, stud=False)


def test_a_folded_players_bet_above_an_all_in_makes_a_one_player_side_pot() -> None:
    # A raises to 500, B all in for 300, C re-raises to 1,500, A folds.
    pots, returned = build_pots([500, 300, 1500], [False, True, True])
    assert returned == [0, 0, 1000]
    assert shape(pots) == [("Main pot", 900, (B, C)), ("Side pot 1", 400, (C,))]
    awards = award_pots(pots, {B: High(9), C: High(1)}, None, stud=False)
    assert amounts(awards) == {B: 900, C: 400}
    assert awards[0].hand_name is None and awards[0].reason == "uncontested"


@pytest.mark.parametrize(
    ("contributions", "live", "dead", "message"),
    [
        ([100, -5], [True, True], 0, "Player 2 cannot have put in -5 chips"),
        ([100, 100], [True], 0, "2 contributions were given for 1 players"),
        ([100, 100], [True, True], -1, "Dead money cannot be -1"),
    ],
)
def test_impossible_contributions_are_refused(contributions: list[int], live: list[bool],
                                              dead: int, message: str) -> None:
    with pytest.raises(RuleViolation, match=message):
        build_pots(contributions, live, dead)


def test_uncontested_refuses_a_winner_who_is_not_eligible() -> None:
    with pytest.raises(RuleViolation, match="Player 1 is not eligible for the side pot 1"):
        uncontested([Pot(100, (0, 1), "Main pot"), Pot(50, (1,), "Side pot 1")], 0)


def test_a_missing_hand_for_an_eligible_player_is_refused() -> None:
    with pytest.raises(RuleViolation, match="Player 2 can win the main pot but his hand"):
        award_pots([Pot(100, (0, 1), "Main pot")], {0: High(1)}, None, stud=False)


# ---------------------------------------------------------------------------
# §7.3 odd chips (hands by value)


def test_ODD_1_odd_unit_goes_to_the_high_half() -> None:
    pot = Pot(1225, (A, B), "Main pot")
    awards = award_pots([pot], {A: High(9, "a flush"), B: High(1)},
                        {A: None, B: Low((8, 5, 3, 2, 1))}, stud=False, unit=25)
    assert [(a.half, a.player, a.amount, a.odd_chips) for a in awards] == [
        ("high", A, 625, 25), ("low", B, 600, 0)]
    assert awards[0].explanation == "Main pot 1,225: high to player 1, a flush, 625 with the odd chip"


def test_ODD_2_low_split_odd_unit_to_first_winner_clockwise_from_button() -> None:
    # Seats 1..6, button seat 6: index 0 = seat 1 ... index 5 = seat 6 (button).
    seat = {s: s - 1 for s in range(1, 7)}
    a, b, c = seat[1], seat[2], seat[4]
    pot = Pot(1250, (a, b, c), "Main pot")
    low = {a: None, b: Low((7, 6, 4, 2, 1)), c: Low((7, 6, 4, 2, 1))}
    awards = award_pots([pot], {a: High(9, "a flush"), b: High(2), c: High(1)}, low,
                        stud=False, unit=25)
    assert amounts(awards) == {a: 625, b: 325, c: 300}
    low_awards = [x for x in awards if x.half == "low"]
    assert [(x.player, x.odd_chips, x.winners) for x in low_awards] == [(b, 25, (b, c)),
                                                                        (c, 0, (b, c))]
    assert low_awards[0].explanation == (
        "Main pot 1,250: low to player 2, split with player 4, 7-6-4-2-A, 325 with the odd chip")


@pytest.mark.parametrize(("pot_amount", "expected"), [
    (1000, [350, 325, 325]),
    (1025, [350, 350, 325]),
])
def test_ODD_3_three_way_tie_one_odd_unit_per_winner_from_the_button(pot_amount: int,
                                                                     expected: list[int]) -> None:
    high = {0: High(5, "a straight"), 1: High(5, "a straight"), 2: High(5, "a straight")}
    awards = award_pots([Pot(pot_amount, (0, 1, 2), "Main pot")], high, None, stud=False,
                        unit=25)
    assert [a.amount for a in awards] == expected
    assert all(a.half == "whole" and a.winners == (0, 1, 2) for a in awards)
    assert [a.odd_chips for a in awards] == [x - 325 for x in expected]


def test_ODD_3_all_to_first_policy_gives_every_odd_unit_to_the_first_winner() -> None:
    high = {0: High(5), 1: High(5), 2: High(5)}
    awards = award_pots([Pot(1025, (0, 1, 2), "Main pot")], high, None, stud=False, unit=25,
                        policy=Policy(odd_chip_multi="all-to-first"))
    assert [a.amount for a in awards] == [375, 325, 325]
    assert awards[0].explanation.endswith("375 with 2 odd chips")


def test_ODD_4_identical_both_ways_splits_the_whole_pot_evenly_by_value() -> None:
    wheel = (5, 4, 3, 2, 1)
    high = {0: High(7, "five-high straight"), 1: High(7, "five-high straight")}
    low = {0: Low(wheel), 1: Low(wheel)}
    awards = award_pots([Pot(1150, (0, 1), "Main pot")], high, low, stud=False, unit=25)
    assert [(a.half, a.amount, a.reason) for a in awards] == [("whole", 575, "both-ways"),
                                                              ("whole", 575, "both-ways")]
    quartered = award_pots([Pot(1150, (0, 1), "Main pot")], high, low, stud=False, unit=25,
                           policy=Policy(identical_hands_both_ways="quarter"))
    assert amounts(quartered) == {0: 600, 1: 550}


def test_ODD_5_stud_tie_odd_chip_to_the_highest_card_by_suit() -> None:
    # P2 sits first (index 0) but P1's A-K-Q-J-9 holds the A♠, P2's the A♦.
    p2, p1 = 0, 1
    high = {p1: High(100, "A-K-Q-J-9 high", parse_cards("As Kd Qc Jh 9c")),
            p2: High(100, "A-K-Q-J-9 high", parse_cards("Ad Ks Qs Js 9s"))}
    awards = award_pots([Pot(1025, (p2, p1), "Main pot")], high, None, stud=True, unit=25)
    assert amounts(awards) == {p1: 525, p2: 500}
    # A flop game with the same hands goes by position instead.
    assert amounts(award_pots([Pot(1025, (p2, p1), "Main pot")], high, None, stud=False,
                              unit=25)) == {p2: 525, p1: 500}


def test_stud_low_half_odd_chip_by_five_card_low_hand_ace_counts_low() -> None:
    # Both lows 8-5-3-2-A; the 8s decide (8♥ beats 8♣), not the aces.
    low = {0: Low((8, 5, 3, 2, 1), parse_cards("8c 5h 3h 2h As")),
           1: Low((8, 5, 3, 2, 1), parse_cards("8h 5c 3c 2c Ac"))}
    high = {0: High(3), 1: High(2)}
    # 3 units of 100: high 2 units to player 1; low 1 unit to the 8♥ (player 2).
    awards = award_pots([Pot(300, (0, 1), "Main pot")], high, low, stud=True, unit=100)
    assert [(a.half, a.player, a.amount, a.odd_chips) for a in awards] == [
        ("high", 0, 200, 100), ("low", 0, 0, 0), ("low", 1, 100, 100)]
    assert awards[1].explanation == "Main pot 300: low to player 1, split with player 2, 8-5-3-2-A, 0"


def test_stud_seven_card_policy_low_half_goes_to_lowest_card_by_suit() -> None:
    low = {0: Low((8, 5, 3, 2, 1), parse_cards("8c 5h 3h 2h As")),
           1: Low((8, 5, 3, 2, 1), parse_cards("8h 5c 3c 2c Ac"))}
    high = {0: High(3), 1: High(2)}
    seven = {0: parse_cards("8c 5h 3h 2h As Kd Kh"), 1: parse_cards("8h 5c 3c 2c Ac Ks Qd")}
    awards = award_pots([Pot(300, (0, 1), "Main pot")], high, low, stud=True, unit=100,
                        policy=Policy(stud_odd_chip_card_set="seven-card"), stud_cards=seven)
    # The lowest of all seven cards, ace low: A♣ (index 1) beats A♠ (index 0).
    low_awards = {a.player: a.amount for a in awards if a.half == "low"}
    assert low_awards == {1: 100, 0: 0}


def test_stud_seven_card_policy_high_half_counts_cards_outside_the_five() -> None:
    straight = "nine-high straight"
    five = {0: parse_cards("9c 8c 7d 6h 5s"), 1: parse_cards("9s 8d 7c 6c 5d")}
    seven = {0: five[0] + parse_cards("Ks 2c"), 1: five[1] + parse_cards("Kd 2d")}
    high = {i: High(5000, straight, five[i]) for i in (0, 1)}
    pot = [Pot(300, (0, 1), "Main pot")]
    by_five = award_pots(pot, high, None, stud=True, unit=100)
    by_seven = award_pots(pot, high, None, stud=True, unit=100,
                          policy=Policy(stud_odd_chip_card_set="seven-card"), stud_cards=seven)
    assert amounts(by_five) == {1: 200, 0: 100}  # 9♠ is the top card of the five
    assert amounts(by_seven) == {0: 200, 1: 100}  # K♠ is the top card of the seven


def test_pot_not_a_whole_number_of_units_is_split_in_smaller_chips_and_conserved() -> None:
    # 1,210 in T25 cannot be: smaller chips are in it, so split by gcd(1210, 25) = 5.
    awards = award_pots([Pot(1210, (0, 1), "Main pot")], {0: High(9), 1: High(1)},
                        {0: None, 1: Low((8, 7, 6, 5, 4))}, stud=False, unit=25)
    assert amounts(awards) == {0: 605, 1: 605}


def test_no_policy_means_the_tda_defaults() -> None:
    high = {0: High(5), 1: High(5), 2: High(5)}
    pot = [Pot(1025, (0, 1, 2), "Main pot")]
    assert award_pots(pot, high, None, stud=False, unit=25) == award_pots(
        pot, high, None, stud=False, unit=25, policy=Policy())


def test_a_smallest_chip_below_one_is_refused() -> None:
    with pytest.raises(RuleViolation, match="The smallest chip cannot be 0"):
        award_pots([], {}, None, stud=False, unit=0)


# ---------------------------------------------------------------------------
# §7.4 side pots in hi/lo, by value


def test_SPL_4_by_value_ineligible_better_low_does_not_block_side_pot_low() -> None:
    pots, _ = build_pots([300, 1000, 1000], [True] * 3)
    high = {A: High(1, "J-T-8-5-3 high"), B: High(50, "three kings"), C: High(40, "three queens")}
    low = {A: Low((8, 5, 3, 2, 1)), B: None, C: Low((8, 7, 6, 5, 2))}
    awards = award_pots(pots, high, low, stud=False)
    assert [(a.pot_name, a.half, a.player, a.amount) for a in awards] == [
        ("Side pot 1", "high", B, 700), ("Side pot 1", "low", C, 700),
        ("Main pot", "high", B, 450), ("Main pot", "low", A, 450)]


def test_SPL_3_by_value_no_low_best_high_takes_the_whole_pot() -> None:
    awards = award_pots([Pot(900, (0, 1), "Main pot")], {0: High(3, "three kings"), 1: High(2)},
                        {0: None, 1: None}, stud=False)
    assert [(a.player, a.amount, a.half, a.reason) for a in awards] == [(0, 900, "whole", "no-low")]
    assert awards[0].explanation == "Main pot 900: to player 1, three kings, no low, 900"


# ---------------------------------------------------------------------------
# describe_awards


def test_describe_awards_reads_one_sentence_per_pot() -> None:
    pots = [Pot(1200, (2, 4, 6), "Main pot"), Pot(400, (2, 4), "Side pot 1")]
    high = {2: High(9, "kings full of sevens"), 4: High(3), 6: High(2)}
    low = {2: None, 4: Low((8, 5, 3, 2, 1)), 6: Low((8, 5, 3, 2, 1))}
    sentences = describe_awards(award_pots(pots, high, low, stud=False))
    assert sentences == [
        "Side pot 1 400: high to player 3, kings full of sevens, 200; low to player 5, 8-5-3-2-A, 200",
        "Main pot 1,200: high to player 3, kings full of sevens, 600; "
        "low split players 5 and 7, 8-5-3-2-A, 300 each",
    ]


def test_describe_awards_unequal_split_and_uncontested() -> None:
    high = {0: High(5, "a straight"), 1: High(5, "a straight"), 2: High(5, "a straight")}
    awards = award_pots([Pot(1025, (0, 1, 2), "Main pot"), Pot(75, (1,), "Side pot 1")], high,
                        None, stud=False, unit=25)
    assert describe_awards(awards) == [
        "Side pot 1 75: to player 2, uncontested, 75",
        "Main pot 1,025: split players 1, 2 and 3, a straight, 350, 350 and 325",
    ]


# ---------------------------------------------------------------------------
# Properties (hypothesis)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[int], list[bool], int]:
    n = draw(st.integers(1, 9))
    contributions = draw(st.lists(st.integers(0, 3000), min_size=n, max_size=n))
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    dead = draw(st.integers(0, 600))
    return contributions, live, dead


@settings(max_examples=300, deadline=None)
@given(tables())
def test_property_chips_are_conserved_and_every_pot_has_a_live_contender(
        table: tuple[list[int], list[bool], int]) -> None:
    contributions, live, dead = table
    pots, returned = build_pots(contributions, live, dead)
    assert sum(p.amount for p in pots) + sum(returned) == sum(contributions) + dead
    assert all(p.amount > 0 for p in pots)
    assert [p.name for p in pots] == ["Main pot", *(f"Side pot {i}" for i in range(1, 9))][:len(pots)]
    assert sum(1 for r in returned if r) <= 1
    if any(live):
        assert all(p.eligible for p in pots)
        for p in pots:
            assert all(live[i] for i in p.eligible)
        # Each side pot is contested by a subset of the pot below it.
        for lower, upper in zip(pots, pots[1:], strict=False):
            assert set(upper.eligible) < set(lower.eligible)
    else:
        assert [p.eligible for p in pots] == [()] * len(pots) and len(pots) <= 1


@st.composite
def showdowns(draw: st.DrawFn) -> tuple[list[Pot], dict[int, HighHand], dict[int, LowHand | None] | None,
                                       bool, int, str]:
    contributions, live, dead = draw(tables())
    if not any(live):
        live[0] = True
    unit = draw(st.sampled_from([1, 5, 25, 100]))
    contributions = [c * unit for c in contributions]
    pots, _ = build_pots(contributions, live, dead * unit)
    deck = draw(st.permutations(DECK))
    hi_lo = draw(st.booleans())
    high: dict[int, HighHand] = {}
    low: dict[int, LowHand | None] = {}
    for i, is_live in enumerate(live):
        if not is_live:
            continue
        cards = tuple(deck[5 * i: 5 * i + 5])
        high[i] = High(draw(st.integers(0, 2)), "a hand", cards)
        ranks = draw(st.sampled_from([None, (8, 5, 3, 2, 1), (7, 6, 4, 3, 2)]))
        low[i] = None if ranks is None else Low(ranks, cards)
    stud = draw(st.booleans())
    multi = draw(st.sampled_from(["one-per-winner", "all-to-first"]))
    return pots, high, (low if hi_lo else None), stud, unit, multi


@settings(max_examples=300, deadline=None)
@given(showdowns())
def test_property_every_pot_is_paid_out_in_full_to_eligible_players(
        showdown: tuple[list[Pot], dict[int, HighHand], dict[int, LowHand | None] | None, bool, int, str],
) -> None:
    pots, high, low, stud, unit, multi = showdown
    awards = award_pots(pots, high, low, stud=stud, unit=unit,
                        policy=Policy(odd_chip_multi=multi))
    paid: dict[int, int] = defaultdict(int)
    for a in awards:
        assert a.player in pots[a.pot_index].eligible
        assert a.amount >= 0 and a.odd_chips >= 0
        assert a.pot_amount == pots[a.pot_index].amount
        paid[a.pot_index] += a.amount
    assert dict(paid) == {i: p.amount for i, p in enumerate(pots)}
    assert [a.pot_index for a in awards] == sorted((a.pot_index for a in awards), reverse=True)
    if multi == "one-per-winner":
        halves: dict[tuple[int, str], list[int]] = defaultdict(list)
        for a in awards:
            halves[a.pot_index, a.half].append(a.amount)
        for shares in halves.values():
            assert max(shares) - min(shares) <= unit


# ---------------------------------------------------------------------------
# End to end: the RULES.md cards read by hands.py, then the pots awarded.


def omaha_showdown(board: str, holes: list[str]) -> tuple[dict[int, HighHand],
                                                          dict[int, LowHand | None]]:
    b = parse_cards(board)
    cards = [parse_cards(h) for h in holes]
    check_no_duplicates(b, *cards)
    return ({i: omaha_high(c, b) for i, c in enumerate(cards)},
            {i: omaha_low(c, b) for i, c in enumerate(cards)})


def test_SPL_1_high_to_trip_kings_low_quartered_300_each() -> None:
    high, low = omaha_showdown("2c 5d 8h Kc Qs", ["Kh Kd 9s 9c", "Ad 3s Jh Td", "Ah 3c 7d 7s"])
    pots, returned = build_pots([400, 400, 400], [True] * 3)
    awards = award_pots(pots, high, low, stud=False)
    assert amounts(awards) == {A: 600, B: 300, C: 300}
    assert {p: amounts(awards)[p] - 400 for p in (A, B, C)} == {A: 200, B: -100, C: -100}
    assert describe_awards(awards) == [
        "Main pot 1,200: high to player 1, three kings, 600; "
        "low split players 2 and 3, 8-5-3-2-A, 300 each"]
    # Every piece of the sentence is also a field, for the dealer screen to
    # say it with seat numbers or names.
    b_low = awards[1]
    assert (b_low.pot_index, b_low.pot_name, b_low.pot_amount, b_low.half, b_low.player,
            b_low.winners, b_low.hand_name, b_low.amount, b_low.odd_chips, b_low.reason) == (
        0, "Main pot", 1200, "low", B, (B, C), "8-5-3-2-A low", 300, 0, "")
    assert b_low.explanation == "Main pot 1,200: low to player 2, split with player 3, 8-5-3-2-A, 300"


def test_SPL_2_flush_and_wheel_takes_1500_wheel_straight_500() -> None:
    high, low = omaha_showdown("2h 3h 4c 9h Kd", ["Ah 5h Qs Js", "Ac 5d Kc Ks"])
    awards = award_pots([Pot(2000, (A, B), "Main pot")], high, low, stud=False)
    assert amounts(awards) == {A: 1500, B: 500}
    assert [(a.half, a.player, a.amount) for a in awards] == [
        ("high", A, 1000), ("low", A, 500), ("low", B, 500)]


def test_SPL_3_no_low_possible_best_high_takes_900() -> None:
    high, low = omaha_showdown("Ac 2d 2h Kc 9s", ["Kh Kd 7s 8s", "3c 4d 5h 6s"])
    assert low == {A: None, B: None}
    awards = award_pots([Pot(900, (A, B), "Main pot")], high, low, stud=False)
    assert [(a.player, a.amount, a.half, a.reason) for a in awards] == [(A, 900, "whole", "no-low")]
    assert awards[0].explanation == f"Main pot 900: to player 1, {high[A].name}, no low, 900"


def test_SPL_4_side_pot_low_to_C_because_A_is_not_eligible() -> None:
    high, low = omaha_showdown("2c 5d 8h Kc Qs", ["Ad 3s Jh Td", "Kh Kd 9s 9c", "Qh Qd 7c 6d"])
    pots, returned = build_pots([300, 1000, 1000], [True] * 3)
    assert shape(pots) == [("Main pot", 900, (A, B, C)), ("Side pot 1", 1400, (B, C))]
    awards = award_pots(pots, high, low, stud=False)
    assert [(a.pot_name, a.half, a.player, a.amount) for a in awards] == [
        ("Side pot 1", "high", B, 700), ("Side pot 1", "low", C, 700),
        ("Main pot", "high", B, 450), ("Main pot", "low", A, 450)]
    assert amounts(awards) == {A: 450, B: 1150, C: 700}
    assert sum(amounts(awards).values()) == 2300


def test_SPL_4_if_C_had_no_low_B_scoops_the_side_pot_1400() -> None:
    high, low = omaha_showdown("2c 5d 8h Kc Qs", ["Ad 3s Jh Td", "Kh Kd 9s 9c", "Qh Qd Jc Th"])
    pots, _ = build_pots([300, 1000, 1000], [True] * 3)
    awards = award_pots(pots, high, low, stud=False)
    assert [(a.pot_name, a.half, a.player, a.amount) for a in awards] == [
        ("Side pot 1", "whole", B, 1400),
        ("Main pot", "high", B, 450), ("Main pot", "low", A, 450)]
    assert awards[0].reason == "no-low"


def test_ODD_4_identical_wheels_both_ways_split_whole_pot_575_each() -> None:
    high, low = omaha_showdown("2h 3d 4c 9s Kd", ["As 5c Qd Qc", "Ad 5h Jc Jh"])
    assert high[0].strength == high[1].strength
    assert low[0] is not None and low[1] is not None and low[0].ranks == low[1].ranks == (5, 4, 3, 2, 1)
    pot = [Pot(1150, (0, 1), "Main pot")]
    awards = award_pots(pot, high, low, stud=False, unit=25)
    assert [(a.player, a.amount, a.half, a.reason) for a in awards] == [
        (0, 575, "whole", "both-ways"), (1, 575, "whole", "both-ways")]
    assert describe_awards(awards) == [
        f"Main pot 1,150: both ways split players 1 and 2, {high[0].name} and 5-4-3-2-A, 575 each"]
    assert amounts(award_pots(pot, high, low, stud=False, unit=25,
                              policy=Policy(identical_hands_both_ways="quarter"))) == {0: 600, 1: 550}


def test_ODD_5_stud_real_hands_odd_chip_to_the_ace_of_spades() -> None:
    p2_cards = parse_cards("Ad Ks Qs Js 9d 4c 2h")
    p1_cards = parse_cards("As Kd Qc Jh 9c 4d 3s")
    check_no_duplicates(p1_cards, p2_cards)
    p2, p1 = 0, 1
    high = {p2: stud_high(p2_cards), p1: stud_high(p1_cards)}
    assert high[p1].strength == high[p2].strength
    awards = award_pots([Pot(1025, (p2, p1), "Main pot")], high, None, stud=True, unit=25)
    assert amounts(awards) == {p1: 525, p2: 500}
    assert [a.odd_chips for a in awards if a.player == p1] == [25]
