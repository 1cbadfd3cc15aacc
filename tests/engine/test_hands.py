"""Hand reading: RULES.md §6.3 [OM-*], §7.1 [LO-*], §3.2 [ST-1, ST-3], §3.3 [ST-7, ST-8]."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.poker.cards import DECK, Card, parse_card, parse_cards
from director.poker.errors import CardError
from director.poker.hands import (
    CATEGORIES,
    NO_LOW,
    HighHand,
    LowHand,
    bring_in_order,
    category_of,
    exposed_strength,
    low_name,
    omaha_high,
    omaha_high_strength,
    omaha_low,
    omaha_low_ranks,
    stud_high,
    stud_high_strength,
    stud_low,
    stud_low_ranks,
)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def five_card_strength(five) -> int:
    return stud_high_strength(five)


def brute_force_low(five) -> tuple[int, ...] | None:
    """Independent 8-or-better reading of exactly five cards (RULES.md §7.1)."""
    values = sorted({1 if c.rank == 14 else c.rank for c in five}, reverse=True)
    if len(values) == 5 and values[0] <= 8:
        return tuple(values)
    return None


# ---------------------------------------------------------------- Omaha high, §6.3


def test_OM_1_kings_full_of_sevens_beats_sevens_full_of_kings():
    hole, board = cards("K♦ 7♥ 7♣ 2♠"), cards("K♣ K♥ 7♠ 3♦ 9♠")
    hand = omaha_high(hole, board)
    assert hand.name == "kings full of sevens"
    assert hand.category == "full house"
    assert set(hand.cards) == set(cards("K♦ 7♥ K♣ K♥ 7♠"))
    sevens_full = stud_high(cards("7♥ 7♣ K♣ K♥ 7♠"))
    assert sevens_full.name == "sevens full of kings"
    assert hand.strength > sevens_full.strength
    assert omaha_high_strength(hole, board) == hand.strength


def test_OM_2_four_hearts_on_board_and_one_in_hand_is_no_flush():
    board = cards("A♥ 9♥ 6♥ 2♥ K♣")
    hand = omaha_high(cards("Q♥ J♠ T♣ 4♦"), board)
    assert hand.category == "high card"
    assert hand.name == "A-K-Q-J-9 high"


def test_OM_2_two_hearts_in_hand_make_the_flush():
    hand = omaha_high(cards("Q♥ 8♥ T♣ 4♦"), cards("A♥ 9♥ 6♥ 2♥ K♣"))
    assert hand.category == "flush"
    assert hand.name == "ace-high flush"
    assert hand.cards == cards("A♥ Q♥ 9♥ 8♥ 6♥")


def test_OM_3_three_hole_nines_are_only_three_nines():
    hand = omaha_high(cards("9♠ 9♣ 9♦ A♥"), cards("9♥ K♣ 7♦ 4♠ 2♣"))
    assert hand.name == "three nines"
    assert [c.rank for c in hand.cards] == [9, 9, 9, 13, 7]


def test_OM_4_four_aces_on_board_read_as_aces_full_of_kings():
    hand = omaha_high(cards("K♠ K♦ 2♣ 3♦"), cards("A♠ A♦ A♥ A♣ 5♦"))
    assert hand.name == "aces full of kings"
    assert hand.category == "full house"


def test_OM_5_straight_on_board_is_only_king_high():
    hand = omaha_high(cards("K♣ 2♦ 4♥ 5♠"), cards("Q♠ J♦ T♣ 9♥ 8♠"))
    assert hand.category == "high card"
    assert hand.name == "K-Q-J-T-5 high"
    assert hand.cards == cards("K♣ Q♠ J♦ T♣ 5♠")


def test_omaha_high_on_the_flop_and_turn():
    hole = cards("A♥ K♥ 7♣ 7♦")
    assert omaha_high(hole, cards("7♠ 2♥ 9♥")).name == "three sevens"
    assert omaha_high(hole, cards("7♠ 2♥ 9♥ 5♥")).name == "ace-high flush"
    assert omaha_high_strength(hole, cards("7♠ 2♥ 9♥ 5♥")) == omaha_high(hole, cards("7♠ 2♥ 9♥ 5♥")).strength


@pytest.mark.parametrize(
    "hole, board, message",
    [
        ("AsKsQsJsTs", "2c3c4c5c6c", "An Omaha hand has 4 hole cards, not 5"),
        ("AsKsQs", "2c3c4c5c6c", "An Omaha hand has 4 hole cards, not 3"),
        ("AsKsQsJs", "2c3c", "An Omaha board has 0, 3, 4 or 5 cards, not 2"),
        ("AsKsQsJs", "", "An Omaha hand needs at least 3 board cards to be read, not 0"),
        ("AsKsQsJs", "2c3c4c5c6c7c", "An Omaha board has 0, 3, 4 or 5 cards, not 6"),
        ("AsKsQsJs", "2c3cAs", "The A♠ appears twice"),
    ],
)
def test_omaha_readers_refuse_impossible_cards(hole, board, message):
    for reader in (omaha_high, omaha_high_strength, omaha_low, omaha_low_ranks):
        with pytest.raises(CardError, match=f"^{message}$"):
            reader(cards(hole), cards(board))


def test_unknown_cards_cannot_be_read():
    """TDA 13-A: a hand is read only when all its cards are tabled."""
    with pytest.raises(CardError, match="^A hand with a face-down or unknown card cannot be read$"):
        omaha_high([None, *cards("AsKsQs")], cards("2c3c4c5c6c"))
    with pytest.raises(CardError, match="unknown card"):
        stud_low([None, *cards("AsKsQs 2c 3c")])


# ---------------------------------------------------------------- names of every category


@pytest.mark.parametrize(
    "text, category, name",
    [
        ("A♠ K♠ Q♠ J♠ T♠", "straight flush", "royal flush"),
        ("9♥ 8♥ 7♥ 6♥ 5♥", "straight flush", "straight flush, nine high"),
        ("A♦ 2♦ 3♦ 4♦ 5♦", "straight flush", "straight flush, five high"),
        ("A♠ A♥ A♦ A♣ K♣", "four of a kind", "four aces"),
        ("6♠ 6♥ 6♦ 6♣ 2♣", "four of a kind", "four sixes"),
        ("K♠ K♥ K♦ 7♣ 7♠", "full house", "kings full of sevens"),
        ("A♥ J♥ 8♥ 4♥ 2♥", "flush", "ace-high flush"),
        ("Q♣ J♦ T♠ 9♥ 8♣", "straight", "queen-high straight"),
        ("A♣ 2♦ 3♠ 4♥ 5♣", "straight", "five-high straight"),
        ("A♣ K♦ Q♠ J♥ T♣", "straight", "ace-high straight"),
        ("9♣ 9♦ 9♠ K♥ 2♣", "three of a kind", "three nines"),
        ("K♣ K♦ 7♠ 7♥ 2♣", "two pair", "two pair, kings and sevens"),
        ("A♣ A♦ 9♠ 7♥ 2♣", "pair", "pair of aces"),
        ("K♣ Q♦ J♠ T♥ 5♣", "high card", "K-Q-J-T-5 high"),
        ("7♣ 5♦ 4♠ 3♥ 2♣", "high card", "7-5-4-3-2 high"),
    ],
)
def test_names_a_dealer_reads_out(text, category, name):
    hand = stud_high(cards(text))
    assert (hand.category, hand.name) == (category, name)
    assert category_of(hand.strength) == category


def test_reading_order_sets_first_and_the_wheel_from_the_five():
    assert stud_high(cards("7♠ K♣ 7♥ K♦ 2♣")).cards == cards("K♦ K♣ 7♠ 7♥ 2♣")
    assert stud_high(cards("A♣ 2♦ 3♠ 4♥ 5♣")).cards == cards("5♣ 4♥ 3♠ 2♦ A♣")


def test_categories_in_order_and_strength_is_higher_is_better():
    strengths = [stud_high(cards(t)).strength for t in (
        "7♣ 5♦ 4♠ 3♥ 2♣", "A♣ A♦ 9♠ 7♥ 2♣", "K♣ K♦ 7♠ 7♥ 2♣", "9♣ 9♦ 9♠ K♥ 2♣",
        "Q♣ J♦ T♠ 9♥ 8♣", "A♥ J♥ 8♥ 4♥ 2♥", "K♠ K♥ K♦ 7♣ 7♠", "A♠ A♥ A♦ A♣ K♣", "A♠ K♠ Q♠ J♠ T♠",
    )]
    assert strengths == sorted(strengths)
    assert [category_of(s) for s in strengths] == list(CATEGORIES)
    assert strengths[0] == 1 and strengths[-1] == 7462


def test_high_hands_order_by_strength():
    pair = stud_high(cards("A♣ A♦ 9♠ 7♥ 2♣"))
    trips = stud_high(cards("9♣ 9♦ 9♠ K♥ 2♣"))
    assert max(pair, trips) is trips
    assert trips.beats(pair) and not pair.beats(trips)
    same = stud_high(cards("A♥ A♠ 9♦ 7♣ 2♦"))
    assert not same.beats(pair) and same.strength == pair.strength and same <= pair <= same


# ---------------------------------------------------------------- stud high


def test_stud_high_best_five_of_seven():
    hand = stud_high(cards("A♠ A♦ K♣ K♥ Q♠ Q♥ 2♣"))
    assert hand.name == "two pair, aces and kings"
    assert hand.cards == cards("A♠ A♦ K♥ K♣ Q♠")


def test_stud_five_cards_keep_the_highest_card_by_suit_for_tda_20_b():
    """TDA 20-B: a stud odd chip goes by the highest card by suit in the five-card hand,
    so of two equal five-card hands the one with the higher-suited top card is kept."""
    hand = stud_high(cards("6♣ 6♠ 5♦ 4♥ 3♣ 2♦ K♣"))
    assert hand.name == "six-high straight"
    assert hand.cards[0] == parse_card("6♠")


def test_stud_high_six_cards_and_counts():
    assert stud_high(cards("8♠ 8♦ 8♣ 4♥ 4♣ 2♦")).name == "eights full of fours"
    with pytest.raises(CardError, match="^A stud hand needs at least 5 cards to be read, not 4$"):
        stud_high(cards("8♠ 8♦ 8♣ 4♥"))
    with pytest.raises(CardError, match="^A stud hand has at most 7 cards, not 8$"):
        stud_high(cards("2c3c4c5c6c7c8c9c"))
    with pytest.raises(CardError, match="^The 8♠ appears twice$"):
        stud_high([parse_card("8s"), *cards("8d 8c 4h 4c"), parse_card("8s")])


# ---------------------------------------------------------------- low, §7.1


def test_LO_1_best_low_is_8_5_3_2_A():
    board = cards("2♣ 5♦ 8♥ K♣ Q♠")
    lows = {hole: omaha_low(cards(hole), board) for hole in ("A♦ 3♠ J♥ T♦", "A♥ 4♣ J♠ T♣", "7♣ 6♦ J♦ T♥")}
    assert [low.name for low in lows.values() if low] == ["8-5-3-2-A low", "8-5-4-2-A low", "8-7-6-5-2 low"]
    best = min(low for low in lows.values() if low)
    assert best.ranks == (8, 5, 3, 2, 1)
    assert best is lows["A♦ 3♠ J♥ T♦"]


def test_LO_2_two_distinct_low_ranks_on_board_mean_no_low():
    board = cards("A♣ 2♦ 2♥ K♣ 9♠")
    assert omaha_low(cards("3♣ 4♦ 5♥ 6♠"), board) is None
    assert omaha_low_ranks(cards("3♣ 4♦ 5♥ 6♠"), board) is None


def test_LO_3_counterfeit_ace_and_a_live_low():
    board = cards("A♣ 3♦ 7♥ K♣ Q♠")
    assert omaha_low(cards("A♦ 2♠ K♥ Q♦"), board) is None
    low = omaha_low(cards("2♣ 4♦ J♠ T♦"), board)
    assert low is not None and low.name == "7-4-3-2-A low"
    assert low.cards == cards("7♥ 4♦ 3♦ 2♣ A♣")


def test_LO_4_different_hole_cards_for_high_and_low_and_a_scoop():
    board = cards("7♥ 6♥ 4♥ Q♣ 2♦")
    first, second = cards("A♥ 3♠ K♥ K♦"), cards("A♠ 5♣ 8♦ 9♣")
    high = omaha_high(first, board)
    assert high.category == "flush" and set(high.cards) == set(cards("A♥ K♥ 7♥ 6♥ 4♥"))
    low = omaha_low(first, board)
    assert low is not None and low.name == "6-4-3-2-A low"
    assert set(low.cards) == set(cards("A♥ 3♠ 6♥ 4♥ 2♦"))
    other_high, other_low = omaha_high(second, board), omaha_low(second, board)
    assert other_high.name == "eight-high straight"
    assert other_low is not None and other_low.name == "6-5-4-2-A low"
    assert high.beats(other_high) and low.beats(other_low)


def test_rules_7_1_low_compares_from_the_highest_card_down():
    def low(ranks):
        return LowHand(ranks, (), low_name(ranks))

    assert low((8, 5, 3, 2, 1)).beats(low((8, 5, 4, 2, 1)))
    assert low((7, 6, 5, 4, 3)).beats(low((8, 4, 3, 2, 1)))
    assert not low((8, 4, 3, 2, 1)).beats(low((7, 6, 5, 4, 3)))
    assert min(low((8, 4, 3, 2, 1)), low((7, 6, 5, 4, 3))).name == "7-6-5-4-3 low"
    assert sorted([low((8, 5, 4, 2, 1)), low((5, 4, 3, 2, 1)), low((8, 5, 3, 2, 1))])[0].name == "5-4-3-2-A low"
    assert stud_low_ranks(cards("8♣ 5♦ 3♠ 2♥ A♣ K♦ K♠")) < stud_low_ranks(cards("8♦ 5♠ 4♣ 2♦ A♦ Q♣ Q♦"))


def test_rules_7_1_wheel_is_the_best_low_even_as_a_straight_flush():
    stud = cards("A♠ 2♠ 3♠ 4♠ 5♠ K♦ K♣")
    assert stud_high(stud).name == "straight flush, five high"
    wheel = stud_low(stud)
    assert wheel is not None and wheel.ranks == (5, 4, 3, 2, 1) and wheel.name == "5-4-3-2-A low"
    hole, board = cards("4♠ 5♠ K♦ K♣"), cards("A♠ 2♠ 3♠ 9♦ J♣")
    assert omaha_high(hole, board).name == "straight flush, five high"
    assert omaha_low_ranks(hole, board) == (5, 4, 3, 2, 1)


def test_rules_7_1_nine_does_not_qualify_and_pairs_do_not_count():
    assert stud_low(cards("9♣ 5♦ 4♠ 3♥ 2♣ K♦ K♠")) is None
    assert stud_low(cards("8♣ 8♦ 4♠ 4♥ 2♣ 2♦ A♠")) is None
    low = stud_low(cards("8♣ 7♦ 4♠ 4♥ 2♣ 2♦ A♠"))
    assert low is not None and low.name == "8-7-4-2-A low"
    assert len(low.cards) == 5 and len({c.rank for c in low.cards}) == 5


def test_no_low_constant_and_names():
    assert NO_LOW == "no low"
    assert low_name(None) == NO_LOW
    assert low_name((8, 5, 3, 2, 1)) == "8-5-3-2-A low"


# ---------------------------------------------------------------- stud bring-in, §3.2


def test_ST_1_lowest_up_card_brings_in_threes_broken_by_suit():
    up = {1: "J♦", 2: "3♥", 3: "3♣", 4: "A♠", 5: "9♠", 6: "Q♣"}
    seat = min(up, key=lambda s: bring_in_order(parse_card(up[s])))
    assert seat == 3


def test_ST_3_stud_8_ace_is_high_for_the_bring_in():
    up = {1: "A♣", 2: "2♦", 3: "K♥"}
    assert min(up, key=lambda s: bring_in_order(parse_card(up[s]))) == 2


def test_bring_in_order_is_unique_for_every_card():
    keys = [bring_in_order(c) for c in DECK]
    assert len(set(keys)) == 52 and keys == sorted(keys)


# ---------------------------------------------------------------- stud later streets, §3.3


def first_to_act(up: dict[int, str], by_suit: bool) -> int:
    """Highest exposed hand; equal hands go by position (lowest seat) -- the RRP policy."""
    best = max(exposed_strength(cards(t), by_suit) for t in up.values())
    return min(s for s, t in up.items() if exposed_strength(cards(t), by_suit) == best)


@pytest.mark.parametrize("by_suit", [True, False])
def test_ST_7_pair_of_nines_acts_first(by_suit):
    up = {1: "J♦ 7♣", 3: "3♣ 3♦", 4: "A♠ K♥", 5: "9♠ 9♥"}
    assert first_to_act(up, by_suit) == 5


def test_ST_8_tda_high_card_by_suit_q_spades_first():
    up = {2: "Q♥ J♠", 5: "Q♠ J♦", 1: "9♣ 4♦"}
    assert first_to_act(up, by_suit=True) == 5


def test_ST_8_rrp_position_seat_2_first():
    up = {2: "Q♥ J♠", 5: "Q♠ J♦", 1: "9♣ 4♦"}
    assert exposed_strength(cards("Q♥ J♠"), False) == exposed_strength(cards("Q♠ J♦"), False)
    assert first_to_act(up, by_suit=False) == 2


def test_exposed_hand_ranking_quads_trips_two_pair_pair_high():
    order = ["5♣ 5♦ 5♥ 5♠", "A♣ A♦ A♥ K♠", "A♣ A♦ K♥ K♠", "A♣ A♦ K♥ Q♠", "A♠ K♠ Q♠ J♠"]
    keys = [exposed_strength(cards(t), True) for t in order]
    assert keys == sorted(keys, reverse=True)
    assert [k[0] for k in keys] == [4, 3, 2, 1, 0]


def test_exposed_straights_and_flushes_do_not_count():
    assert exposed_strength(cards("2♣ 2♦ 3♥ 4♠"), False) > exposed_strength(cards("A♠ K♠ Q♠ J♠"), False)


def test_exposed_pair_of_nines_tie_goes_to_the_spade_nine():
    assert exposed_strength(cards("9♠ 9♣ K♦"), True) > exposed_strength(cards("9♥ 9♦ K♠"), True)
    assert exposed_strength(cards("9♠ 9♣ K♦"), False) == exposed_strength(cards("9♥ 9♦ K♠"), False)


def test_exposed_strength_counts():
    with pytest.raises(CardError, match="^A stud player shows 1 to 4 up-cards, not 5$"):
        exposed_strength(cards("2c 3c 4c 5c 6c"), True)
    with pytest.raises(CardError, match="^A stud player shows 1 to 4 up-cards, not 0$"):
        exposed_strength((), True)


@given(st.integers(1, 4), st.randoms(use_true_random=False))
def test_by_suit_two_players_never_tie(n, rnd):
    deck = list(DECK)
    rnd.shuffle(deck)
    a, b = deck[:n], deck[n:2 * n]
    assert exposed_strength(a, True) != exposed_strength(b, True)
    if exposed_strength(a, False) != exposed_strength(b, False):
        assert (exposed_strength(a, True) > exposed_strength(b, True)) == (
            exposed_strength(a, False) > exposed_strength(b, False)
        )


# ---------------------------------------------------------------- properties against brute force


deals = st.permutations(DECK).map(lambda d: (tuple(d[:4]), tuple(d[4:9])))


@settings(max_examples=300, deadline=None)
@given(deals, st.sampled_from([3, 4, 5]))
def test_omaha_high_is_the_best_of_the_60_two_plus_three_hands(deal, board_size):
    hole, board = deal[0], deal[1][:board_size]
    combos = [(*two, *three) for two in combinations(hole, 2) for three in combinations(board, 3)]
    assert len(combos) == 6 * {3: 1, 4: 4, 5: 10}[board_size]
    best = max(five_card_strength(five) for five in combos)
    hand = omaha_high(hole, board)
    assert hand.strength == best == omaha_high_strength(hole, board)
    assert len(set(hand.cards) & set(hole)) == 2 and len(set(hand.cards) & set(board)) == 3
    assert five_card_strength(hand.cards) == best
    assert hand.name == stud_high(hand.cards).name


@settings(max_examples=300, deadline=None)
@given(deals)
def test_omaha_low_is_the_best_of_the_60_two_plus_three_lows(deal):
    hole, board = deal
    lows = [
        low for two in combinations(hole, 2) for three in combinations(board, 3)
        if (low := brute_force_low((*two, *three))) is not None
    ]
    expected = min(lows) if lows else None
    assert omaha_low_ranks(hole, board) == expected
    hand = omaha_low(hole, board)
    if expected is None:
        assert hand is None
    else:
        assert hand is not None and hand.ranks == expected
        assert len(set(hand.cards) & set(hole)) == 2 and len(set(hand.cards) & set(board)) == 3
        assert brute_force_low(hand.cards) == expected
        assert hand.name == low_name(expected)


@settings(max_examples=200, deadline=None)
@given(st.permutations(DECK), st.sampled_from([5, 6, 7]))
def test_stud_high_and_low_are_the_best_of_every_five(deck, n):
    hand_cards = tuple(deck[:n])
    fives = list(combinations(hand_cards, 5))
    high = stud_high(hand_cards)
    assert high.strength == max(five_card_strength(f) for f in fives) == stud_high_strength(hand_cards)
    assert set(high.cards) <= set(hand_cards)
    lows = [low for f in fives if (low := brute_force_low(f)) is not None]
    low = stud_low(hand_cards)
    assert (low.ranks if low else None) == (min(lows) if lows else None)


# ---------------------------------------------------------------- cross-check with pokerkit (tests only)


def test_random_omaha_showdowns_agree_with_pokerkit():
    pokerkit = pytest.importorskip("pokerkit")
    rnd = random.Random(20240)
    for _ in range(300):
        deck = list(DECK)
        rnd.shuffle(deck)
        board, a, b = deck[:5], deck[5:9], deck[9:13]
        text = {id(x): "".join(map(str, x)) for x in (board, a, b)}
        pk_a = pokerkit.OmahaHoldemHand.from_game(text[id(a)], text[id(board)])
        pk_b = pokerkit.OmahaHoldemHand.from_game(text[id(b)], text[id(board)])
        ours = omaha_high_strength(a, board) - omaha_high_strength(b, board)
        assert (ours > 0, ours == 0) == (pk_a > pk_b, pk_a == pk_b)
        lo_a = pokerkit.OmahaEightOrBetterLowHand.from_game_or_none(text[id(a)], text[id(board)])
        lo_b = pokerkit.OmahaEightOrBetterLowHand.from_game_or_none(text[id(b)], text[id(board)])
        ours_a, ours_b = omaha_low_ranks(a, board), omaha_low_ranks(b, board)
        assert (ours_a is None, ours_b is None) == (lo_a is None, lo_b is None)
        if ours_a is not None and ours_b is not None:
            assert (ours_a < ours_b, ours_a == ours_b) == (lo_a > lo_b, lo_a == lo_b)


def test_HighHand_and_LowHand_fields():
    hand = HighHand(strength=100, cards=(), category="pair", name="pair of aces")
    assert hand.strength == 100 and hand.name == "pair of aces"
    low = LowHand(ranks=(8, 5, 3, 2, 1), cards=(), name="8-5-3-2-A low")
    assert low.ranks[0] == 8
