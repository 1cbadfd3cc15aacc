"""Seven-card stud and stud/8: antes, the bring-in, who acts first (RULES.md §3.1-§3.4, §3.6;
RRP Seven-Card Stud; TDA 2024 RP-10, rule 30)."""

from __future__ import annotations

import pytest

from director.poker.cards import parse_card
from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, DealBoard, DealHole
from director.poker.games import Game
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig, Street
from tests.engine.scripting import play, step


def stud(doors: list[str], *, game: Game = Game.F7S, small: int = 400, big: int = 800, ante: int = 50,
         bring_in: int = 100, stacks: dict[int, int] | None = None, policy: Policy | None = None,
         dead: tuple[int, ...] = ()) -> Hand:
    """Deal third street: two unseen down-cards and the given door card to seats 1, 2, ..."""
    chips = [100_000] * len(doors)
    for i, s in (stacks or {}).items():
        chips[i] = s
    config = HandConfig(game=game, starting_stacks=tuple(chips), antes=(ante,) * len(doors),
                        bring_in=bring_in, small_bet=small, big_bet=big, dead_players=dead,
                        seats=tuple(range(1, len(doors) + 1)), policy=policy or Policy())
    hand = Hand.start(config)
    for i, door in enumerate(doors):
        hand = hand.apply(DealHole(i, (None, None, parse_card(door))))
    return hand


def deal_up(hand: Hand, cards: dict[int, str]) -> Hand:
    for i, card in cards.items():
        hand = hand.apply(DealHole(i, (parse_card(card),)))
    return hand


ST1_DOORS = ["J♦", "3♥", "3♣", "A♠", "9♠", "Q♣"]


def order_of(hand: Hand, script: str) -> tuple[list[str], Hand]:
    names = []
    for token in script.split():
        assert hand.to_act is not None
        names.append(hand.name(hand.to_act))
        hand = step(hand, token)
    return names, hand


def test_ST_1_lowest_door_card_brings_in() -> None:
    """[ST-1] Limits 400/800, ante 50, bring-in 100, six players. Up-cards: S1 J♦, S2 3♥, S3 3♣, S4 A♠,
    S5 9♠, S6 Q♣. Pot after antes = 300. Low card = the threes; 3♣ < 3♥ -> S3 brings in 100. Action
    then S4, S5, S6, S1, S2, S3."""
    hand = stud(ST1_DOORS)
    assert hand.pot_total == 300
    assert hand.street is Street.THIRD
    assert hand.name(hand.to_act or 0) == "Seat 3"
    legal = hand.legal()
    assert legal.bring_in and legal.complete_to == 400 and not legal.fold and not legal.check
    with pytest.raises(RuleViolation, match="must bring in or complete"):
        hand.apply(Action(2, ActionKind.FOLD))
    names, after = order_of(hand, "bi c c c c r400 c c c c c")
    assert names == ["Seat 3", "Seat 4", "Seat 5", "Seat 6", "Seat 1", "Seat 2",
                     "Seat 3", "Seat 4", "Seat 5", "Seat 6", "Seat 1"]
    assert after.to_act is None and after.awaiting == "street"


def test_ST_1_facing_the_bring_in_no_check() -> None:
    """[ST-1] / RULES.md §2.1: facing only the bring-in a player may fold, call or complete, not check."""
    hand = play(stud(ST1_DOORS), "bi")
    legal = hand.legal()
    assert (legal.check, legal.call, legal.complete_to, legal.min_to) == (False, 100, 400, 400)
    with pytest.raises(RuleViolation, match="cannot check: there is a bet of 100 to call"):
        hand.apply(Action(3, ActionKind.CHECK))


def test_ST_2_completion_is_the_bet_for_the_cap() -> None:
    """[ST-2] S4 completes to 400. Raises (bet + 3 raises, RRP) go to 800 -> 1200 -> 1600 cap; with
    WSOP-T's bet + 4 raises the cap is 2000."""
    hand = play(stud(ST1_DOORS), "bi r400 r800 r1200 r1600")
    assert not hand.can_raise() and hand.legal().call == 1600
    hand = play(stud(ST1_DOORS, policy=Policy(limit_raise_cap=4)), "bi r400 r800 r1200 r1600")
    assert hand.legal().min_to == 2000
    assert not play(hand, "r2000").can_raise()


def test_ST_2_cash_example_fifteen_thirty() -> None:
    """[ST-2] Cash $15/$30 (RRP example): bring-in $5, completion $15, then three raises: $30, $45, $60."""
    hand = stud(ST1_DOORS, small=15, big=30, ante=0, bring_in=5)
    hand = play(hand, "bi")
    assert hand.legal().complete_to == 15
    hand = play(hand, "k")
    assert hand.bets[3] == 15
    hand = play(hand, "r30 r45 r60")
    assert not hand.can_raise()


def test_ST_3_stud_eight_ace_is_high_for_the_bring_in() -> None:
    """[ST-3] Stud/8, up-cards S1 A♣, S2 2♦, S3 K♥: the ace is high for the bring-in -> S2 (2♦) brings in."""
    hand = stud(["A♣", "2♦", "K♥"], game=Game.F7S8)
    assert hand.name(hand.to_act or 0) == "Seat 2"
    assert hand.legal().bring_in


def test_ST_5_bring_in_player_all_in_for_the_ante() -> None:
    """[ST-5] Low-card player is all-in for the ante (0 behind): he posts nothing more; action starts
    with the player on his left, who may not check: he must bring in (>= bring-in), complete, or fold."""
    hand = stud(ST1_DOORS, stacks={2: 50})
    assert hand.all_in[2]
    assert hand.name(hand.to_act or 0) == "Seat 4"
    legal = hand.legal()
    assert legal.bring_in and legal.fold and not legal.check and legal.complete_to == 400
    with pytest.raises(RuleViolation, match="must bring in 100, complete or fold"):
        hand.apply(Action(3, ActionKind.CHECK))
    folded = play(hand, "f")
    assert folded.name(folded.to_act or 0) == "Seat 5" and folded.legal().bring_in
    brought = play(hand, "bi")
    assert brought.bets[3] == 100 and brought.legal().call == 100


def test_ST_6_short_bring_in_others_enter_for_the_full_bring_in() -> None:
    """[ST-6] Low-card player has 60 behind with a 100 bring-in: he posts 60 all-in; every other player
    must still enter for at least the full bring-in (100) or complete."""
    hand = play(stud(ST1_DOORS, stacks={2: 110}), "bi")
    assert hand.bets[2] == 60 and hand.all_in[2]
    legal = hand.legal()
    assert legal.call == 100 and legal.complete_to == 400


def test_ST_7_highest_exposed_hand_acts_first_on_fourth_street() -> None:
    """[ST-7] 4th street: S1 J♦ 7♣, S3 3♣ 3♦, S4 A♠ K♥, S5 9♠ 9♥ -> pair of nines is high -> S5 first."""
    hand = stud(["J♦", "Q♣", "3♣", "A♠", "9♠"])
    hand = play(hand, "bi c c c f")
    hand = deal_up(hand, {0: "7♣", 2: "3♦", 3: "K♥", 4: "9♥"})
    assert hand.street is Street.FOURTH
    assert hand.name(hand.to_act or 0) == "Seat 5"
    assert hand.legal().check and hand.legal().min_to == 400


def st8(policy: Policy) -> Hand:
    hand = stud(["2♣", "Q♥", "8♦", "T♣", "Q♠"], policy=policy)
    hand = play(hand, "bi c c c c")
    return deal_up(hand, {0: "5♦", 1: "J♠", 2: "4♣", 3: "6♥", 4: "J♦"})


def test_ST_8_tie_broken_by_suit_in_tournaments() -> None:
    """[ST-8] 4th street: S2 Q♥ J♠, S5 Q♠ J♦, others lower, no pairs. TDA: Q♠ beats Q♥ by suit -> S5 first."""
    hand = st8(Policy())
    assert hand.name(hand.to_act or 0) == "Seat 5"


def test_ST_8_tie_broken_by_position_in_cash() -> None:
    """[ST-8] RRP: S2 received cards first -> S2 first."""
    hand = st8(Policy(stud_high_hand_tie="position"))
    assert hand.name(hand.to_act or 0) == "Seat 2"


def st9(policy: Policy, game: Game = Game.F7S) -> Hand:
    hand = stud(["2♣", "9♥", "K♦"], small=5, big=10, ante=1, bring_in=2, game=game, policy=policy)
    hand = play(hand, "bi c c")
    return deal_up(hand, {0: "7♦", 1: "9♠", 2: "3♣"})


def test_ST_9_fourth_street_open_pair_double_bet_option() -> None:
    """[ST-9] $5-$10 cash stud: high hand with an open pair may bet $5 or $10. After a $5 bet, others
    may call $5, raise to $10, or raise to $15 (+$10); after that, every raise is +$10."""
    hand = st9(Policy(stud_4th_street_double=True))
    assert hand.name(hand.to_act or 0) == "Seat 2"
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (5, 10)
    hand = play(hand, "r5")
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.max_to) == (5, 10, 15)
    with pytest.raises(RuleViolation, match="must be made 10 or 15"):
        hand.apply(Action(2, ActionKind.RAISE, 12))
    hand = play(hand, "r15")
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (25, 25)


def test_ST_9_no_double_bet_in_tournaments_or_stud_eight() -> None:
    """[ST-9] Not in TDA tournaments (RP-10-F) and not in stud/8: the 4th-street bet stays the small bet."""
    assert st9(Policy()).legal().max_to == 5
    assert st9(Policy(stud_4th_street_double=True), game=Game.F7S8).legal().max_to == 5


def test_ST_12_absent_low_card_posts_and_forfeits_the_bring_in() -> None:
    """[ST-12] Tournament, S6 away at the end of the 3rd-street deal, up-card 2♦ is the lowest: S6's
    ante (50) and bring-in (100) go in and are lost; action starts with S7, who faces the 100 bring-in."""
    hand = stud(["J♦", "3♥", "5♣", "A♠", "9♠", "2♦", "Q♣"], dead=(5,))
    assert hand.folded[5]
    assert hand.contributions[5] == 150
    assert hand.name(hand.to_act or 0) == "Seat 7"
    legal = hand.legal()
    assert legal.call == 100 and legal.complete_to == 400 and not legal.check


def test_ST_12_dead_hand_gets_no_fourth_street_card() -> None:
    """RULES.md §3.6: no 4th-street card is dealt to a dead hand."""
    hand = play(stud(["J♦", "3♥", "2♦"], dead=(2,)), "c c")
    assert hand.street is Street.FOURTH
    with pytest.raises(RuleViolation, match="no live hand"):
        hand.apply(DealHole(2, (parse_card("4♣"),)))


def test_ST_later_streets_are_big_bets_and_seventh_is_dealt_down() -> None:
    """RULES.md §3.1: small bet on 3rd and 4th street, big bet on 5th, 6th and 7th; 7th is down."""
    hand = play(stud(["2♣", "9♥", "K♦"]), "bi c c")
    hand = play(deal_up(hand, {0: "3♣", 1: "9♠", 2: "4♦"}), "x x x")
    hand = deal_up(hand, {0: "5♣", 1: "T♠", 2: "6♦"})
    assert hand.street is Street.FIFTH and hand.legal().min_to == 800
    hand = play(hand, "x x x")
    hand = play(deal_up(hand, {0: "7♣", 1: "J♠", 2: "8♦"}), "x x x")
    for i in range(3):
        hand = hand.apply(DealHole(i, (None,)))
    assert hand.street is Street.SEVENTH and hand.legal().min_to == 800
    assert hand.up_cards(1) == tuple(parse_card(c) for c in ("9♥", "9♠", "T♠", "J♠"))


def test_ST_4_razz_rule_is_not_used_in_our_stud_games() -> None:
    """[ST-4] Razz (reference only), same cards as [ST-3]: S3 (K♥) would bring in.  We deal no razz:
    in stud high as in stud/8 the lowest card, 2♦, brings in."""
    for game in (Game.F7S, Game.F7S8):
        hand = stud(["A♣", "2♦", "K♥"], game=game)
        assert hand.name(hand.to_act or 0) == "Seat 2"


def test_ST_unseen_door_cards_the_first_to_act_opens() -> None:
    """When the dealer did not enter the up-cards, the player who brings in shows who opened."""
    config = HandConfig(game=Game.F7S, starting_stacks=(1000,) * 3, antes=(5,) * 3, bring_in=10,
                        small_bet=20, big_bet=40)
    hand = Hand.start(config)
    for i in range(3):
        hand = hand.apply(DealHole(i, (None, None, None)))
    assert hand.to_act is None and hand.phase.value == "betting"
    with pytest.raises(RuleViolation, match="must bring in 10, complete or fold"):
        hand.apply(Action(1, ActionKind.CALL))
    hand = hand.apply(Action(1, ActionKind.BRING_IN))
    assert hand.to_act == 2 and hand.legal().call == 10


def test_ST_7_high_hand_all_in_action_proceeds_clockwise() -> None:
    """RULES.md §3.3 (WSOP-T stud/8): if the high hand is all-in, action proceeds clockwise as if he
    checked."""
    hand = stud(["2♣", "A♠", "5♦"], stacks={1: 450})
    hand = play(hand, "bi ai c c")
    assert hand.all_in[1]
    hand = deal_up(hand, {0: "3♣", 1: "K♠", 2: "7♦"})
    assert hand.name(hand.to_act or 0) == "Seat 3"
    assert play(hand, "x").name(play(hand, "x").to_act or 0) == "Seat 1"


def test_ST_13_community_card_on_seventh_street() -> None:
    """[ST-13] (TDA RP-10-H, RULES.md §3.7) Not enough cards for 7th street: one community card is
    dealt face up; the player who acted first on 6th street acts first on 7th; everyone plays it."""
    config = HandConfig(game=Game.F7S, starting_stacks=(1000, 1000), antes=(5, 5), bring_in=10,
                        small_bet=20, big_bet=40)
    hand = Hand.start(config)
    hand = hand.apply(DealHole(0, tuple(parse_card(c) for c in ("A♠", "A♥", "2♣"))))
    hand = hand.apply(DealHole(1, tuple(parse_card(c) for c in ("K♠", "K♥", "9♦"))))
    hand = play(hand, "bi c")
    for up0, up1 in (("3♦", "9♣"), ("7♣", "4♥"), ("8♦", "5♠")):
        hand = deal_up(hand, {0: up0, 1: up1})
        hand = play(hand, "x x")
    sixth_opener = 1  # 9-9 showing
    with pytest.raises(RuleViolation, match="one card"):
        hand.apply(DealBoard((parse_card("Q♣"), parse_card("J♣"))))
    hand = hand.apply(DealBoard((parse_card("K♣"),)))
    assert hand.street is Street.SEVENTH and hand.to_act == sixth_opener
    hand = play(hand, "x x")
    assert hand.finished
    assert hand.stacks == (985, 1015)  # kings full of nines beat two pair, aces and nines
