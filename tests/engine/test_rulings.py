"""Floor rulings for the dealer's rulings panel: RULES.md §2.7-2.8, §3.5-3.7, §4, §5.

Tests are named after the RULES.md examples (MD-*, PRE-1, ST-10..16, ABS-*, CLK-*,
OOT-*, UC-1, UR-1, MR-5, CHIP-*).  Player indices follow the engine (flop games:
index 0 = first seat clockwise from the button); with no ``seats`` given the
sentences name seat index + 1, which matches RULES.md's seats when the button is
the last seat (six-handed, button S6).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from director.poker.cards import Card, parse_card, parse_cards
from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, CheckByClock, DealHole, Kill, Misdeal
from director.poker.games import Game
from director.poker.rulings import (
    CorrectRaise,
    DeadHandAnteReturned,
    DealMissingCards,
    Decision,
    Presence,
    RedealStreet,
    ReplaceCard,
    Ruling,
    RulingPolicy,
    ScrambleBurn,
    SeventhStreet,
    UpCard,
    absent_player,
    action_out_of_turn,
    boxed_cards,
    clock_ends_at,
    clock_expired,
    clock_expiry,
    clock_time,
    dealt_to,
    effect_to_json,
    exposed_card_on_deal,
    flop_irregularity,
    fouled_deck,
    missing_burn,
    multiple_chips,
    premature_card,
    seventh_street,
    silent_push,
    single_chip,
    stub_before_seventh,
    stud_exposed_downcards,
    substantial_action,
    under_raise,
    undercall,
    wrong_number_of_cards,
)

# --------------------------------------------------------------------------- the Ruling value


def test_ruling_text_fills_the_template_and_json_carries_the_effect() -> None:
    r = exposed_card_on_deal([1], players=6)
    assert r.text == r.template.format(**r.params)
    data = r.to_json()
    assert data["decision"] == "misdeal"
    assert data["rule"] == "TDA 35-A item 7"
    assert data["effect"] == {"type": "misdeal", "reason": "exposed card"}
    assert data["text"] == r.text


def test_effect_to_json_turns_cards_into_text() -> None:
    assert effect_to_json(UpCard(3, parse_card("2c"))) == {"type": "up_card", "player": 3, "card": "2c"}
    assert effect_to_json(None) is None


def test_decision_is_stored_as_its_plain_key() -> None:
    r = Ruling(Decision.PLAY_ON, "TDA 35-D", "Play on")
    assert r.decision == "play_on" and type(r.decision) is str


# --------------------------------------------------------------------------- Omaha deal (§4.1-4.3)


def test_MD_1_first_card_off_the_deck_exposed_is_misdeal() -> None:
    r = exposed_card_on_deal([1], players=6)
    assert r.decision == Decision.MISDEAL
    assert r.rule == "TDA 35-A item 7"
    assert isinstance(r.effect, Misdeal)
    assert r.params["seat"] == 1  # the small blind, first seat left of the button S6


def test_MD_2_second_card_off_the_deck_exposed_is_misdeal() -> None:
    r = exposed_card_on_deal([2], players=6)
    assert r.decision == "misdeal"
    assert r.params["seat"] == 2
    assert "first two cards off the deck" in r.text


def test_MD_1_heads_up_first_card_to_big_blind_second_to_button() -> None:
    # Heads-up, index 0 is the big blind and gets the first card, the button gets the second.
    assert dealt_to(1, 2) == (0, 1)
    assert dealt_to(2, 2) == (1, 1)
    assert dealt_to(8, 2) == (1, 4)  # [BL-2] the button gets card 8 of 8
    assert exposed_card_on_deal([2], players=2).decision == "misdeal"
    third = exposed_card_on_deal([3], players=2)
    assert third.decision == "replace_card"
    assert third.effect == ReplaceCard(0)


def test_MD_3_single_exposed_card_is_replaced_and_becomes_flop_burn() -> None:
    r = exposed_card_on_deal([9], players=6)
    assert r.decision == Decision.REPLACE_CARD
    assert r.rule == "Robert's Rules, Hold'em irregularities 1"
    assert r.effect == ReplaceCard(player=2, becomes="flop burn")
    assert r.params["seat"] == 3 and r.params["card_number"] == 2
    assert r.params["replacement"] == 25  # all 24 cards first, then seat 3 gets card 25
    assert "burn for the flop" in r.text


def test_MD_4_two_exposed_down_cards_is_misdeal() -> None:
    r = exposed_card_on_deal([17, 9], players=6)
    assert r.decision == "misdeal"
    assert r.params["positions"] == "9, 17"
    assert r.effect == Misdeal("exposed cards")


def test_exposed_card_after_substantial_action_plays_on() -> None:
    r = exposed_card_on_deal([1], players=6, substantial_action=True)
    assert r.decision == "play_on"
    assert r.rule == "TDA 35-D"
    assert r.effect is None


def test_exposed_card_names_the_real_seat_when_seats_are_given() -> None:
    # Button S4 of seats 1-6: deal order S5, S6, S1, S2, S3, S4.
    r = exposed_card_on_deal([9], players=6, seats=(5, 6, 1, 2, 3, 4))
    assert r.params["seat"] == 1
    assert r.effect == ReplaceCard(2)


def test_exposed_card_refuses_positions_that_are_not_hole_cards() -> None:
    with pytest.raises(RuleViolation, match="cards 1 to 24"):
        exposed_card_on_deal([25], players=6)
    with pytest.raises(RuleViolation):
        exposed_card_on_deal([], players=6)
    with pytest.raises(RuleViolation, match="stud"):
        exposed_card_on_deal([3], players=6, game=Game.F7S)


def test_MD_5_five_cards_before_substantial_action_is_misdeal() -> None:
    r = wrong_number_of_cards(3, 5)
    assert r.decision == "misdeal"
    assert r.rule == "TDA 35-A item 5"
    assert r.params == {"seat": 4, "cards": 5, "expected": 4}


def test_MD_5_five_cards_after_substantial_action_kills_only_that_hand() -> None:
    r = wrong_number_of_cards(3, 5, substantial_action=True)
    assert r.decision == Decision.HAND_DEAD
    assert r.effect == Kill(3, "wrong number of cards")
    assert "Burn exactly one card" in r.text


def test_MD_6_button_short_a_card_gets_it_even_after_substantial_action() -> None:
    r = wrong_number_of_cards(5, 3, is_button=True, substantial_action=True)
    assert r.decision == Decision.DEAL_MISSING_CARD
    assert r.effect == DealMissingCards(5, 1)
    assert r.rule.startswith("TDA 37")


def test_MD_6_button_who_acts_with_three_cards_is_dead() -> None:
    r = wrong_number_of_cards(5, 3, is_button=True, has_acted=True, substantial_action=True)
    assert r.decision == "hand_dead"
    assert r.effect == Kill(5, "wrong number of cards")


def test_wrong_number_of_cards_refuses_the_right_number() -> None:
    with pytest.raises(RuleViolation):
        wrong_number_of_cards(0, 4)


def test_single_boxed_card_is_a_scrap_of_paper() -> None:
    r = boxed_cards(1)
    assert r.decision == Decision.SCRAP_CARD
    assert r.effect is None
    assert "scrap of paper" in r.text


def test_two_boxed_cards_in_the_initial_deal_is_misdeal() -> None:
    r = boxed_cards(2)
    assert r.decision == "misdeal" and r.rule == "TDA 35-A item 1"
    assert boxed_cards(2, initial_deal=False).decision == "scrap_card"
    assert boxed_cards(2, substantial_action=True).decision == "scrap_card"


def test_fouled_deck_voids_the_hand_whatever_the_action() -> None:
    r = fouled_deck(parse_card("As"))
    assert r.decision == "misdeal" and r.rule == "TDA 35-E"
    assert r.effect == Misdeal("fouled deck")
    assert "A♠ appears twice" in r.text
    assert fouled_deck(hand_finished=True).decision == "play_on"


# --------------------------------------------------------------------------- board (§4.5-4.6)


def test_four_card_flop_is_scrambled_and_one_becomes_the_burn() -> None:
    r = flop_irregularity(4)
    assert r.decision == Decision.SCRAMBLE_BURN and r.rule == "TDA 39-A"
    assert r.effect == ScrambleBurn("flop", 4, 0)
    assert r.call_floor


def test_more_than_four_flop_cards_are_reshuffled_into_the_stub() -> None:
    r = flop_irregularity(5)
    assert r.decision == Decision.RESHUFFLE_AND_REDEAL
    assert r.effect == RedealStreet("flop", 3)


def test_three_card_flop_without_burn_before_action_is_scrambled() -> None:
    r = flop_irregularity(3, burned=False)
    assert r.decision == "scramble_burn" and r.rule == "TDA 39-B"
    assert r.effect == ScrambleBurn("flop", 3, 1)  # two of them plus the next stub card


def test_three_card_flop_without_burn_after_a_check_stands() -> None:
    r = flop_irregularity(3, burned=False, action_on_flop=True)
    assert r.decision == "play_on" and r.rule == "TDA 39-B"
    assert r.effect is None


def test_PRE_1_premature_flop_is_reshuffled_and_redealt_without_a_burn() -> None:
    r = premature_card("flop")
    assert r.decision == Decision.RESHUFFLE_AND_REDEAL
    assert r.rule == "TDA RP-5"
    assert r.effect == RedealStreet("flop", 3, "reshuffle")
    assert "burn card stays a burn" in r.text and "without another burn" in r.text


def test_premature_turn_and_river_default_to_the_same_procedure() -> None:
    assert premature_card("turn").effect == RedealStreet("turn", 1, "reshuffle")
    assert premature_card("river").effect == RedealStreet("river", 1, "reshuffle")


def test_premature_turn_with_rrp_set_aside_policy() -> None:
    r = premature_card("turn", policy=RulingPolicy(premature_turn_procedure="set-aside"))
    assert r.decision == Decision.SET_ASIDE
    assert r.effect == RedealStreet("turn", 1, "set-aside")
    assert "would have been the river" in r.text
    # The policy concerns the turn only: a premature river is still reshuffled.
    river = premature_card("river", policy=RulingPolicy(premature_turn_procedure="set-aside"))
    assert river.decision == Decision.RESHUFFLE_AND_REDEAL


def test_premature_stud_card_is_redealt_without_a_burn() -> None:
    r = premature_card("5th", game=Game.F7S)
    assert r.rule == "TDA RP-5-D"
    with pytest.raises(RuleViolation):
        premature_card("flop", game=Game.F7S)
    with pytest.raises(RuleViolation):
        premature_card("5th")


# --------------------------------------------------------------------------- stud (§3.5-3.7)

# Eight players; index 3 is seat 4.
_UP = {0: "9h", 1: "Kd", 2: "7s", 4: "4d", 5: "Jc", 6: "Qs", 7: "5h"}


def _up_cards() -> dict[int, Card]:
    return {p: parse_card(c) for p, c in _UP.items()}


def test_ST_10_exposed_first_downcard_becomes_up_card_and_brings_in() -> None:
    r = stud_exposed_downcards(3, [parse_card("2c")], up_cards=_up_cards())
    assert r.decision == Decision.BECOMES_UP_CARD
    assert r.rule == "TDA RP-10-A"
    assert r.effect == UpCard(3, parse_card("2c"))
    assert r.params["bring_in"] == 4  # the 2♣ is the lowest card: seat 4 brings in
    assert "third card face down" in r.text


def test_ST_10_policy_misdeal_for_one_exposed_downcard() -> None:
    r = stud_exposed_downcards(3, [parse_card("2c")],
                               policy=RulingPolicy(stud_one_downcard_exposed="misdeal"))
    assert r.decision == "misdeal" and r.rule == "WSOP-T 88-a-6"


def test_ST_11_two_exposed_downcards_misdeal_by_default() -> None:
    r = stud_exposed_downcards(3, parse_cards("2c 8d"))
    assert r.decision == "misdeal"
    assert isinstance(r.effect, Misdeal)


def test_ST_11_two_exposed_downcards_dead_hand_ante_returned_next_player_acts_first() -> None:
    policy = RulingPolicy(stud_two_downcards_exposed="dead-hand")
    r = stud_exposed_downcards(3, parse_cards("2c 8d"), up_cards=_up_cards(),
                               ante=50, policy=policy)
    assert r.decision == Decision.DEAD_HAND_ANTE_RETURNED
    assert r.rule == "Robert's Rules, Stud 5"
    assert r.effect == DeadHandAnteReturned(3, 50)
    assert r.params["first_to_act"] == 5  # seat 5 may fold, bring in or complete
    assert "fold, bring in or complete" in r.text


def test_ST_11_dead_hand_without_the_low_card_names_the_usual_bring_in() -> None:
    policy = RulingPolicy(stud_two_downcards_exposed="dead-hand")
    r = stud_exposed_downcards(3, parse_cards("Ac 8d"), up_cards=_up_cards(),
                               ante=50, policy=policy)
    assert r.params["bring_in"] == 5  # 4♦ of seat 5 is the lowest remaining up-card
    assert "first_to_act" not in r.params


def test_three_exposed_stud_cards_is_misdeal() -> None:
    r = stud_exposed_downcards(0, parse_cards("2c 8d Th"),
                               policy=RulingPolicy(stud_two_downcards_exposed="dead-hand"))
    assert r.decision == "misdeal" and r.rule == "WSOP-LA 214"


@pytest.mark.parametrize(
    ("test_id", "players", "stub", "decision", "effect"),
    [
        ("ST-13", [8, 8, 8, 8, 8], 1, "community_card", SeventhStreet(True, True)),
        ("ST-14", [8, 7, 7, 7, 7], 4, "community_card", SeventhStreet(False, True)),
        ("ST-15", [8, 6, 6, 6, 6], 7, "reshuffle_burns", SeventhStreet(True, False)),
        ("ST-16", [8, 5, 5, 5, 5], 10, "deal_down", None),
    ],
)
def test_ST_13_to_16_seventh_street_short_stub(test_id: str, players: list[int], stub: int,
                                                decision: str, effect: SeventhStreet | None) -> None:
    assert stub_before_seventh(players) == stub, test_id
    r = seventh_street(players)
    assert r.decision == decision, test_id
    assert r.effect == effect, test_id
    assert r.rule == "TDA RP-10-H"
    assert r.params["required"] == players[-1] + 2


def test_ST_13_community_card_after_reshuffling_the_burns() -> None:
    r = seventh_street([8, 8, 8, 8, 8])
    assert "scramble them with the three earlier burn cards" in r.text
    assert "acted first on 6th street" in r.text


def test_ST_15_reshuffle_counts_stub_plus_three_burns() -> None:
    assert seventh_street([8, 6, 6, 6, 6]).params["with_burns"] == 10


def test_seventh_street_takes_a_counted_stub() -> None:
    # A house that burns before 3rd street has one card fewer: 9 left for 5 players is still enough.
    assert seventh_street([8, 5, 5, 5, 5], stub=9).decision == "deal_down"
    with pytest.raises(RuleViolation):
        seventh_street([8, 9, 5, 5, 5])
    with pytest.raises(RuleViolation):
        seventh_street([8, 8, 8, 8])


# --------------------------------------------------------------------------- absent (§5.1, §3.6)


def test_ABS_1_absent_big_blind_hand_dead_blind_stays_in_pot() -> None:
    r = absent_player(1, Presence.ACTION, forced_bets=200)
    assert r.decision == Decision.HAND_DEAD
    assert r.rule == "TDA 30"
    assert r.effect == Kill(1, "absent")
    assert "(200) stay in the pot" in r.text
    assert absent_player(1, None, forced_bets=200).effect == Kill(1, "absent")


def test_ABS_1_back_before_the_last_card_is_live() -> None:
    assert absent_player(1, Presence.END_OF_DEAL).decision == "play_on"
    assert absent_player(1, "first-card").effect is None


def test_ABS_3_player_absent_for_the_original_deal_plays_the_redeal() -> None:
    r = absent_player(2, Presence.FIRST_CARD, absent_for_original_deal=True)
    assert r.decision == "play_on" and r.rule == "TDA 35-C"
    assert "re-deal" in r.text


def test_absent_player_kill_point_policies() -> None:
    first = RulingPolicy(absent_player_kill_point="first-card")
    assert absent_player(1, Presence.END_OF_DEAL, policy=first).decision == "hand_dead"
    cash = RulingPolicy(absent_player_kill_point="action")
    assert absent_player(1, Presence.ACTION, policy=cash).decision == "play_on"
    assert absent_player(1, None, policy=cash).decision == "hand_dead"


def test_ST_12_absent_stud_low_card_still_posts_the_bring_in() -> None:
    r = absent_player(5, None, game=Game.F7S, forced_bets=50, low_card=True, bring_in=100)
    assert r.decision == "hand_dead"
    assert r.rule == "TDA 30; TDA RP-10-C"
    assert "still posts the bring-in (100)" in r.text
    assert r.effect == Kill(5, "absent")


# --------------------------------------------------------------------------- clock (§5.3)

T0 = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


def test_CLK_1_clock_expired_facing_a_bet_kills_the_hand() -> None:
    assert clock_time().seconds == 25 and clock_time().countdown == 5
    assert clock_ends_at(T0) == T0 + timedelta(seconds=30)
    assert not clock_expired(T0, T0 + timedelta(seconds=30))  # a tie goes to the player
    assert clock_expired(T0, T0 + timedelta(seconds=31))
    r = clock_expiry(True, player=2)
    assert r.decision == "hand_dead" and r.rule == "TDA 29"
    assert r.effect == Kill(2, "clock")
    assert "stay in the pot" in r.text


def test_CLK_2_clock_expired_not_facing_a_bet_is_a_check() -> None:
    r = clock_expiry(False, player=0)
    assert r.decision == Decision.HAND_CHECKED
    assert r.effect == CheckByClock(0)


def test_clock_60_plus_10_policy() -> None:
    policy = RulingPolicy(clock_seconds="60+10")
    assert clock_time(policy).total == 70
    assert clock_ends_at(T0, policy) == T0 + timedelta(seconds=70)
    with pytest.raises(RuleViolation):
        RulingPolicy(clock_seconds="30")
    with pytest.raises(RuleViolation):
        clock_ends_at(datetime(2026, 11, 29, 21, 0))


def test_ruling_policy_round_trips_through_json() -> None:
    policy = RulingPolicy(clock_seconds="60+10", stud_two_downcards_exposed="dead-hand")
    assert RulingPolicy.from_json(policy.to_json()) == policy
    with pytest.raises(RuleViolation, match="Unknown policy flag"):
        RulingPolicy.from_json({"clock": "25+5"})


def _hand_after_deal(players: int = 3):  # type: ignore[no-untyped-def]
    from director.poker.state import Hand, HandConfig

    config = HandConfig(game=Game.PO, starting_stacks=(10_000,) * players,
                        blinds_or_straddles=(100, 200) + (0,) * (players - 2), min_bet=200)
    hand = Hand.start(config)
    for p in range(players):
        hand = hand.apply(DealHole(p, (None,) * 4))
    return hand


def test_ABS_1_kill_effect_applies_to_a_hand() -> None:
    hand = _hand_after_deal()
    killed = hand.apply(absent_player(1, None, forced_bets=200).effect)  # type: ignore[arg-type]
    assert killed.live[1] is False
    assert killed.pot_total == 300  # the dead big blind stays in the pot


def test_ABS_2_everyone_folds_to_the_small_blind_who_wins_the_dead_blind() -> None:
    hand = _hand_after_deal()
    hand = hand.apply(absent_player(1, None, forced_bets=200).effect)  # type: ignore[arg-type]
    hand = hand.apply(Action(2, ActionKind.FOLD))
    assert hand.finished
    assert hand.stacks == (10_200, 9_800, 10_000)


def test_CLK_effects_apply_to_a_hand() -> None:
    hand = _hand_after_deal()
    assert hand.to_act == 2
    dead = hand.apply(clock_expiry(True, player=2).effect)  # type: ignore[arg-type]
    assert dead.live[2] is False
    with pytest.raises(RuleViolation):
        hand.apply(clock_expiry(False, player=2).effect)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- out of turn (§2.8)
# Six seats, seat N = index N - 1.


def test_OOT_1_raise_out_of_turn_stands_when_skipped_player_calls() -> None:
    r = action_out_of_turn(5, "raise", 800, bet_when_acted=300, bet_now=300)
    assert r.decision == Decision.BINDING and r.rule == "TDA 53"
    assert r.effect == Action(5, ActionKind.RAISE, 800)
    assert r.text == "The action to seat 6 has not changed: his raise to 800 out of turn stands"


def test_OOT_1_raise_out_of_turn_returned_when_skipped_player_raises() -> None:
    r = action_out_of_turn(5, ActionKind.RAISE, 800, bet_when_acted=300, bet_now=600, min_raise_to=900)
    assert r.decision == Decision.NOT_BINDING
    assert r.effect is None
    assert "call 600 or raise to at least 900" in r.text


def test_OOT_2_check_out_of_turn_stands_unless_someone_bets() -> None:
    assert action_out_of_turn(5, "check", bet_when_acted=0, bet_now=0).effect == Action(5, ActionKind.CHECK)
    r = action_out_of_turn(5, "check", bet_when_acted=0, bet_now=300, min_raise_to=600)
    assert r.decision == "not_binding"
    assert "call 300 or raise to at least 600" in r.text


def test_OOT_fold_out_of_turn_is_always_binding() -> None:
    r = action_out_of_turn(5, "fold", bet_when_acted=300, bet_now=600)
    assert r.decision == "binding"
    assert r.effect == Action(5, ActionKind.FOLD)
    with pytest.raises(RuleViolation):
        action_out_of_turn(5, "call", bet_when_acted=600, bet_now=300)


# --------------------------------------------------------------------------- chips (§2.2, §2.7)


def test_UC_1_silent_undercall_of_the_opening_bet_is_a_full_call() -> None:
    r = undercall(2000, player=1, current_bet=8000, heads_up=False, opening_bet=True)
    assert r.decision == Decision.CALL and r.rule == "TDA 51-B"
    assert r.effect == Action(1, ActionKind.CALL)
    assert r.params["to"] == 8000 and r.params["more"] == 6000


def test_undercall_heads_up_declared_all_in_and_floor_cases() -> None:
    assert undercall(2000, player=1, current_bet=8000, heads_up=True, opening_bet=False).decision == "call"
    declared = undercall(2000, player=1, current_bet=8000, heads_up=False, opening_bet=False,
                         declared_call=True)
    assert declared.rule == "TDA 51-A" and declared.params["to"] == 8000
    all_in = undercall(2000, player=1, current_bet=8000, heads_up=True, opening_bet=True, stack=2000)
    assert all_in.effect == Action(1, ActionKind.ALL_IN)
    floor = undercall(2000, player=1, current_bet=8000, heads_up=False, opening_bet=False)
    assert floor.decision == Decision.FLOOR_DECIDES and floor.call_floor and floor.effect is None
    with pytest.raises(RuleViolation):
        undercall(8000, player=1, current_bet=8000, heads_up=True, opening_bet=True)


def test_UR_1_short_raise_corrected_to_1200_for_everyone() -> None:
    r = under_raise(1000, player=1, current_bet=600, last_raise=600)
    assert r.decision == Decision.RAISE_TO and r.rule == "TDA 52-A"
    assert r.effect == CorrectRaise(1, 1200)
    assert "everyone who called it puts in 1200" in r.text


def test_UR_1_short_raise_stands_once_the_next_card_is_dealt() -> None:
    r = under_raise(1000, player=1, current_bet=600, last_raise=600, next_card_dealt=True)
    assert r.decision == "play_on" and r.effect is None
    with pytest.raises(RuleViolation):
        under_raise(1200, player=1, current_bet=600, last_raise=600)


def test_MR_5_silent_push_under_half_the_raise_is_a_call() -> None:
    r = silent_push(1400, player=2, current_bet=1000, last_raise=1000)
    assert r.decision == Decision.CALL
    assert r.effect == Action(2, ActionKind.CALL)
    assert r.params["change"] == 400
    assert "400 goes back" in r.text


def test_MR_5_silent_push_of_half_the_raise_must_make_a_full_raise() -> None:
    r = silent_push(1500, player=2, current_bet=1000, last_raise=1000)
    assert r.decision == Decision.RAISE_TO and r.rule == "TDA 43-A"
    assert r.effect == Action(2, ActionKind.RAISE, 2000)
    assert r.params["more"] == 500


def test_silent_push_declared_raise_all_in_and_full_raise() -> None:
    declared = silent_push(1400, player=2, current_bet=1000, last_raise=1000, declared_raise=True)
    assert declared.effect == Action(2, ActionKind.RAISE, 2000)
    all_in = silent_push(1400, player=2, current_bet=1000, last_raise=1000, stack=1400)
    assert all_in.effect == Action(2, ActionKind.ALL_IN)
    full = silent_push(2500, player=2, current_bet=1000, last_raise=1000)
    assert full.effect == Action(2, ActionKind.RAISE, 2500)
    bet = silent_push(700, player=0, current_bet=0, last_raise=200)
    assert bet.effect == Action(0, ActionKind.BET, 700)
    with pytest.raises(RuleViolation, match="undercall"):
        silent_push(500, player=2, current_bet=1000, last_raise=1000)


def test_CHIP_1_declared_raise_with_one_big_chip_is_capped_by_the_pot() -> None:
    r = single_chip(5000, player=2, current_bet=200, last_raise=200, declared_raise=True, max_to=700)
    assert r.decision == Decision.RAISE_TO and r.rule == "TDA 44"
    assert r.effect == Action(2, ActionKind.RAISE, 700)
    assert r.params["change"] == 4300


def test_CHIP_2_silent_single_oversized_chip_is_a_call() -> None:
    r = single_chip(5000, player=3, current_bet=1000, last_raise=1000)
    assert r.decision == Decision.CALL
    assert r.effect == Action(3, ActionKind.CALL)
    assert r.params["change"] == 4000


def test_single_chip_not_facing_a_bet_is_a_bet_of_its_value() -> None:
    r = single_chip(1000, player=0, current_bet=0, last_raise=200)
    assert r.effect == Action(0, ActionKind.BET, 1000)


def test_CHIP_3_every_chip_needed_is_a_call() -> None:
    r = multiple_chips([500, 1000], player=3, current_bet=1100, last_raise=600)
    assert r.decision == "call" and r.rule == "TDA 45"
    assert r.params["change"] == 400


def test_CHIP_3_1500_in_small_chips_must_raise_to_1700() -> None:
    r = multiple_chips([1000, 100, 100, 100, 100, 100], player=3, current_bet=1100, last_raise=600)
    assert r.decision == Decision.RAISE_TO
    assert r.effect == Action(3, ActionKind.RAISE, 1700)


def test_CHIP_3_1300_is_a_call_with_200_back() -> None:
    r = multiple_chips([1000, 100, 100, 100], player=3, current_bet=1100, last_raise=600)
    assert r.decision == "call"
    assert r.params["change"] == 200


def test_CHIP_4_500_and_25_over_a_325_bet_raises_to_650() -> None:
    r = multiple_chips([500, 25], player=1, current_bet=325, last_raise=325)
    assert r.decision == Decision.RAISE_TO
    assert r.effect == Action(1, ActionKind.RAISE, 650)


def test_multiple_chips_last_chips_are_all_in() -> None:
    r = multiple_chips([1000, 100, 100, 100], player=3, current_bet=1100, last_raise=600, stack=1300)
    assert r.effect == Action(3, ActionKind.ALL_IN)


def test_forced_raise_that_takes_every_chip_is_all_in() -> None:
    # 1500 pushed from a 1800 stack over a 1000 bet: a full raise to 2000 would need 2000.
    r = silent_push(1500, player=2, current_bet=1000, last_raise=1000, stack=1800)
    assert r.decision == Decision.ALL_IN
    assert r.effect == Action(2, ActionKind.ALL_IN)
    assert r.params["to"] == 1800 and r.params["owed"] == 2000


def test_single_chip_with_declared_amount_raises_to_that_amount() -> None:
    r = single_chip(5000, player=2, current_bet=1000, last_raise=1000, declared_to=3000)
    assert r.effect == Action(2, ActionKind.RAISE, 3000)
    assert r.params["change"] == 2000
    # A declared amount below the minimum raise is made up to the minimum.
    low = single_chip(5000, player=2, current_bet=1000, last_raise=1000, declared_to=1500)
    assert low.effect == Action(2, ActionKind.RAISE, 2000)


def test_rulings_are_hashable_values() -> None:
    assert hash(boxed_cards(1)) == hash(boxed_cards(1))


def test_substantial_action_two_actions_with_chips_or_any_three() -> None:
    assert not substantial_action([])
    assert not substantial_action(["check", "check"])
    assert not substantial_action(["fold", "fold"])
    assert substantial_action(["fold", "call"])
    assert substantial_action(["check", "bet"])
    assert substantial_action(["fold", "fold", "fold"])
    # The stud bring-in is a forced bet, like a posted blind: it does not count.
    assert not substantial_action(["bring_in", "fold", "fold"])


def test_missing_burn_on_the_turn_is_corrected_before_action() -> None:
    r = missing_burn("turn")
    assert r.decision == Decision.BURN_CARD
    assert r.effect == RedealStreet("turn", 1, "burn-and-next")
    assert missing_burn("river", action_on_street=True).decision == "play_on"
    assert missing_burn("flop").rule == "TDA 39-B"
