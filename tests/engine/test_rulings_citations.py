"""What a ruling cites and says (issue 13): a rule a floor person can look up, and the
dealer's words for an exposed card (TDA 35-A item 7, TDA RP-10-A).

Every ``Ruling(...)`` names its source as the TDA 2024 rule, the section of Robert's
Rules of Poker or the WSOP rule, never an internal file; a card exposed on the Omaha
deal may be named by seat and card, the sentence then says so.
"""

from __future__ import annotations

import ast
import inspect

import pytest

from director.poker import rulings
from director.poker.cards import parse_card
from director.poker.errors import RuleViolation
from director.poker.events import Misdeal
from director.poker.rulings import (
    Decision,
    ReplaceCard,
    deal_position,
    dealt_to,
    exposed_card_on_deal,
    stud_exposed_downcards,
)

SOURCES = ("TDA ", "Robert's Rules", "WSOP")


def _calls(name: str) -> list[ast.Call]:
    tree = ast.parse(inspect.getsource(rulings))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id == name]


def _rule_strings() -> list[str]:
    """The rule of every ``Ruling(decision, rule, ...)`` and ``_result(..., rule, ...)``
    written as a string, and the kill rules an absent-player ruling picks from."""
    found = [call.args[1] for call in _calls("Ruling") if len(call.args) > 1]
    found += [call.args[5] for call in _calls("_result") if len(call.args) > 5]
    strings = [node.value for node in found if isinstance(node, ast.Constant)]
    strings += [rule for rule, _when in rulings._KILL_RULES.values()]
    return strings


def test_every_ruling_rule_cites_TDA_Roberts_Rules_or_WSOP() -> None:
    rules = _rule_strings()
    assert len(rules) > 40
    wrong = [rule for rule in rules if not rule.startswith(SOURCES)]
    assert not wrong, wrong


def test_no_ruling_rule_or_sentence_mentions_RULES_md_a_section_sign_or_RRP() -> None:
    sentences = [call.args[0].value for call in _calls("N_")
                 if call.args and isinstance(call.args[0], ast.Constant)]
    for text in _rule_strings() + sentences:
        assert "RULES.md" not in text and "§" not in text and "RRP" not in text, text


@pytest.mark.parametrize("players", range(2, 11))
def test_TDA_35_A_item_7_deal_position_is_the_inverse_of_dealt_to(players: int) -> None:
    for position in range(1, 4 * players + 1):
        player, card = dealt_to(position, players)
        assert deal_position(player, card, players) == position


def test_TDA_35_A_item_7_a_fifth_card_is_not_a_hole_card() -> None:
    with pytest.raises(RuleViolation, match="Give 1 to 4"):
        deal_position(0, 5, 6)


def test_MD_3_named_by_seat_says_which_card_and_the_card_never_a_deal_position() -> None:
    r = exposed_card_on_deal([9], players=6, seen={9: parse_card("Ah")})
    assert r.decision == Decision.REPLACE_CARD and r.effect == ReplaceCard(2)
    assert r.rule == "Robert's Rules, Hold'em irregularities 1"
    assert r.text.startswith("Seat 3's second card (A♥) was exposed. Finish the deal")
    assert "off the deck" not in r.text and "card 25" not in r.text


def test_MD_3_named_by_seat_without_the_card() -> None:
    r = exposed_card_on_deal([17], players=6, seen={17: None}, seats=(2, 3, 5, 6, 8, 9))
    assert r.text.startswith("Seat 8's third card was exposed.")


def test_TDA_35_A_item_7_the_buttons_first_card_heads_up_is_a_misdeal_named_by_seat() -> None:
    r = exposed_card_on_deal([2], players=2, seen={2: parse_card("Kd")}, seats=(4, 7))
    assert r.decision == Decision.MISDEAL and r.rule == "TDA 35-A item 7"
    assert r.text == "Seat 7's first card (K♦) was exposed: one of the first two cards off the deck is a misdeal"
    assert r.effect == Misdeal("exposed card")


def test_MD_4_two_cards_named_by_seat_are_a_misdeal_naming_the_seats() -> None:
    r = exposed_card_on_deal([9, 17], players=6, seen={9: None, 17: None})
    assert r.decision == Decision.MISDEAL
    assert r.text == "2 down-cards were exposed (seats 3, 5): misdeal"
    same = exposed_card_on_deal([9, 15], players=6, seen={9: None, 15: None})
    assert same.text == "2 of seat 3's down-cards were exposed: misdeal"


def test_RP_10_A_exposed_card_after_another_up_card_was_entered_plays_on() -> None:
    """The third card was dealt face up and entered before the ruling: it is too late to
    deal it down, so the cards stand (nothing to undo, nothing to apply)."""
    r = stud_exposed_downcards(1, [parse_card("2c")], up_cards={0: parse_card("9d")},
                               entered=parse_card("Kh"))
    assert r.decision == Decision.PLAY_ON and r.rule == "TDA RP-10-A" and r.effect is None
    assert r.text.startswith("Seat 2's exposed down-card 2♣ was not made his up-card: his third card K♥")


def test_RP_10_A_exposed_card_entered_as_his_up_card_is_his_up_card() -> None:
    r = stud_exposed_downcards(1, [parse_card("2c")], entered=parse_card("2c"))
    assert r.decision == Decision.BECOMES_UP_CARD
