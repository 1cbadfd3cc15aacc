"""Cards: notation (RULES.md §0.2, seed 001 Swedish letters, Indonesian letters), checks."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.cards import (
    DECK,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    card_from_index,
    card_letters,
    check_no_duplicates,
    check_omaha_cards,
    check_stud_cards,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    parse_rank,
)
from director.poker.errors import CardError, RuleViolation

ACE_OF_SPADES = Card(14, "s")


# ---------------------------------------------------------------- the Card value


def test_card_text_symbol_and_suit_rank():
    assert str(ACE_OF_SPADES) == "As"
    assert ACE_OF_SPADES.symbol == "A♠"
    assert [Card(2, s).suit_rank for s in "cdhs"] == [0, 1, 2, 3]
    assert str(Card(10, "h")) == "Th"


def test_rules_0_2_suit_order_clubs_diamonds_hearts_spades():
    assert Card(3, "c") < Card(3, "d") < Card(3, "h") < Card(3, "s") < Card(4, "c")
    assert SUITS == "cdhs" and RANKS == "23456789TJQKA"


def test_deck_has_52_distinct_cards_in_index_order():
    assert len(set(DECK)) == 52
    assert all(card_from_index(c.index) == c for c in DECK)
    assert DECK[0] == Card(2, "c") and DECK[51] == ACE_OF_SPADES


def test_low_rank_counts_the_ace_as_one():
    assert Card(14, "d").low_rank == 1 and Card(8, "d").low_rank == 8


@pytest.mark.parametrize("rank, suit", [(1, "s"), (15, "s"), (10, "x"), (10, "S")])
def test_impossible_card_is_refused(rank, suit):
    with pytest.raises(CardError):
        Card(rank, suit)


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize("text", ["A♠", "As", "AS", "a♠", "as", "A♤", "A♠\ufe0f", " As "])
def test_every_notation_of_the_ace_of_spades(text):
    assert parse_card(text) == ACE_OF_SPADES


@pytest.mark.parametrize(
    "text, card",
    [
        ("10s", Card(10, "s")),
        ("Ts", Card(10, "s")),
        ("t♠", Card(10, "s")),
        ("10♥", Card(10, "h")),
        ("2♧", Card(2, "c")),
        ("9♢", Card(9, "d")),
        ("J♡", Card(11, "h")),
        ("QC", Card(12, "c")),
        ("kd", Card(13, "d")),
        ("A❤️", Card(14, "h")),
    ],
)
def test_ten_and_white_suit_symbols(text, card):
    assert parse_card(text) == card


def test_seed_001_swedish_starting_hand_E_K_D_Kn():
    """Seed 001: "E♠ K♥ D♠ Kn♥" is ace, king, queen (dam), jack (knekt)."""
    assert parse_cards("E♠ K♥ D♠ Kn♥") == (Card(14, "s"), Card(13, "h"), Card(12, "s"), Card(11, "h"))
    assert parse_cards("E♠K♥D♠Kn♥") == parse_cards("E♠ K♥ D♠ Kn♥")


@pytest.mark.parametrize(
    "text, card",
    [
        ("Es", Card(14, "s")),
        ("e♦", Card(14, "d")),
        ("Dd", Card(12, "d")),
        ("D♣", Card(12, "c")),
        ("Knh", Card(11, "h")),
        ("KN♠", Card(11, "s")),
        ("kn♦", Card(11, "d")),
    ],
)
def test_swedish_letters_with_a_suit(text, card):
    assert parse_card(text) == card
    assert parse_card(text, locale="sv") == card


@pytest.mark.parametrize(
    "text, card",
    [
        ("As♥", Card(14, "h")),
        ("Ash", Card(14, "h")),
        ("As♠", Card(14, "s")),
        ("Ass", Card(14, "s")),
        ("asd", Card(14, "d")),
        ("As♣", Card(14, "c")),
    ],
)
def test_indonesian_ace_As_with_a_suit(text, card):
    assert parse_card(text) == card
    assert parse_card(text, locale="id") == card


@pytest.mark.parametrize("locale", [None, "en", "sv", "id", "id_ID", "sv-SE"])
def test_As_alone_stays_the_ace_of_spades_in_every_locale(locale):
    assert parse_card("As", locale=locale) == ACE_OF_SPADES


def test_indonesian_king_queen_jack_are_the_english_letters():
    assert parse_cards("K♠ Q♥ J♦", locale="id") == (Card(13, "s"), Card(12, "h"), Card(11, "d"))


def test_runs_without_spaces_mixing_local_and_english_letters():
    assert parse_cards("AsKd7h") == (ACE_OF_SPADES, Card(13, "d"), Card(7, "h"))
    assert parse_cards("As♥Kd") == (Card(14, "h"), Card(13, "d"))
    assert parse_cards("AssAh") == (ACE_OF_SPADES, Card(14, "h"))
    assert parse_cards("AsDs") == (ACE_OF_SPADES, Card(12, "s"))
    assert parse_cards("10c10d") == (Card(10, "c"), Card(10, "d"))


def test_parse_cards_separators_lists_and_empty():
    assert parse_cards("As, Kd; 7h  2c") == parse_cards("AsKd7h2c")
    assert parse_cards(["As", "K♦", Card(7, "h")]) == parse_cards("AsKd7h")
    assert parse_cards("") == ()
    assert parse_cards([]) == ()


def test_parse_rank_local_letters_need_the_locale():
    assert parse_rank("E", locale="sv") == 14
    assert parse_rank("D", locale="sv") == 12
    assert parse_rank("Kn", locale="sv") == 11
    assert parse_rank("As", locale="id") == 14
    assert parse_rank("10") == parse_rank("t") == 10
    for text, locale in [("E", None), ("As", None), ("D", "id"), ("As", "sv"), ("11", None)]:
        with pytest.raises(CardError, match="is not a card rank"):
            parse_rank(text, locale=locale)


@pytest.mark.parametrize("text", ["", "A", "Ax", "1s", "11s", "AsK", "Kn", "Zz", "A♠♠", "E"])
def test_bad_text_is_not_a_card(text):
    with pytest.raises(CardError, match="is not a card; write it like A♠, As or 10♥") as info:
        parse_card(text)
    assert info.value.params == {"text": text}


def test_parse_cards_names_the_bad_piece():
    with pytest.raises(CardError, match="“Xq” is not a card"):
        parse_cards("As Xq Kd")


def test_two_cards_are_not_one():
    with pytest.raises(CardError):
        parse_card("AsKd")


def test_unknown_locale_is_refused():
    with pytest.raises(CardError, match="Card letters for language fr are not known"):
        parse_card("As", locale="fr")


# ---------------------------------------------------------------- formatting


def test_format_cards_with_unknown_cards():
    assert format_cards([ACE_OF_SPADES, None, Card(10, "h")]) == "As??Th"


def test_card_letters_by_locale():
    assert [card_letters("sv")[r] for r in (14, 13, 12, 11)] == ["E", "K", "D", "Kn"]
    assert [card_letters("id")[r] for r in (14, 13, 12, 11)] == ["As", "K", "Q", "J"]
    assert [card_letters("en")[r] for r in (14, 13, 12, 11)] == ["A", "K", "Q", "J"]
    assert card_letters() == card_letters("en")
    assert list(card_letters("sv")) == list(range(14, 1, -1))


def test_format_card_by_locale():
    assert format_card(Card(11, "h"), "sv") == "Kn♥"
    assert format_card(Card(12, "s"), "sv") == "D♠"
    assert format_card(ACE_OF_SPADES, "id") == "As♠"
    assert format_card(ACE_OF_SPADES) == "A♠"
    assert format_card(None, "sv") == "??"


@pytest.mark.parametrize("locale", ["en", "sv", "id"])
def test_every_card_reads_back_in_every_notation(locale):
    for card in DECK:
        assert parse_card(str(card)) == card
        assert parse_card(card.symbol) == card
        assert parse_card(format_card(card, locale), locale=locale) == card
        assert parse_card(format_card(card, locale)) == card
        letters = card_letters(locale)[card.rank]
        assert parse_card(letters + card.suit) == card
        assert parse_card(letters.lower() + card.suit.upper()) == card


def test_no_two_card_run_has_two_readings():
    """Rule 5 of cards.py: every pair of cards, each in any notation, reads back as written."""
    notations = []
    for card in DECK:
        for locale in ("en", "sv", "id"):
            letters = card_letters(locale)[card.rank]
            for suit in (card.suit, SUIT_SYMBOLS[card.suit]):
                notations.append((card, letters + suit))
    for (first, a), (second, b) in itertools.product(notations, repeat=2):
        if first != second:
            assert parse_cards(a + b) == (first, second), a + b


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=9, unique=True),
       st.sampled_from(["en", "sv", "id"]), st.booleans(), st.sampled_from([None, "sv", "id"]))
def test_runs_of_cards_read_back(cards, written_in, symbols, read_with):
    text = "".join(
        card_letters(written_in)[c.rank] + (SUIT_SYMBOLS[c.suit] if symbols else c.suit) for c in cards
    )
    assert parse_cards(text, locale=read_with) == tuple(cards)


# ---------------------------------------------------------------- duplicates and counts


def test_duplicate_card_is_named_for_the_dealer():
    with pytest.raises(CardError, match="^The A♠ appears twice$") as info:
        parse_cards("As Kd as")
    assert info.value.template == "The {card} appears twice"
    assert info.value.params == {"card": "A♠"}
    assert isinstance(info.value, RuleViolation)


def test_duplicates_across_groups_and_unknown_cards_ignored():
    check_no_duplicates([ACE_OF_SPADES, None], [None, Card(13, "s")])
    with pytest.raises(CardError, match="The K♠ appears twice"):
        check_no_duplicates([Card(13, "s")], [], [Card(13, "s")])


@pytest.mark.parametrize("board", ["", "2c3c4c", "2c3c4c5c", "2c3c4c5c6c"])
def test_omaha_counts_accepted(board):
    check_omaha_cards(parse_cards("AsKsQsJs"), parse_cards(board))


@pytest.mark.parametrize("hole, count", [("AsKsQsJsTs", 5), ("AsKsQs", 3), ("AsKs", 2), ("", 0)])
def test_omaha_hand_has_four_hole_cards(hole, count):
    with pytest.raises(CardError, match=f"^An Omaha hand has 4 hole cards, not {count}$"):
        check_omaha_cards(parse_cards(hole), ())


@pytest.mark.parametrize("board, count", [("2c", 1), ("2c3c", 2), ("2c3c4c5c6c7c", 6)])
def test_omaha_board_has_0_3_4_or_5_cards(board, count):
    with pytest.raises(CardError, match=f"^An Omaha board has 0, 3, 4 or 5 cards, not {count}$"):
        check_omaha_cards(parse_cards("AsKsQsJs"), parse_cards(board))


def test_omaha_card_in_hand_and_on_board():
    with pytest.raises(CardError, match="The Q♠ appears twice"):
        check_omaha_cards(parse_cards("AsKsQsJs"), parse_cards("Qs 2c 3c"))


def test_omaha_unknown_hole_cards_allowed():
    check_omaha_cards([None, None, None, None], parse_cards("2c3c4c"))


def test_stud_hand_has_at_most_seven_cards():
    check_stud_cards(parse_cards("2c3c4c5c6c7c8c"))
    check_stud_cards(parse_cards("2c3c"))
    with pytest.raises(CardError, match="^A stud hand has at most 7 cards, not 8$"):
        check_stud_cards(parse_cards("2c3c4c5c6c7c8c9c"))
    with pytest.raises(CardError, match="The 2♣ appears twice"):
        check_stud_cards([Card(2, "c"), Card(3, "c"), Card(2, "c")])
