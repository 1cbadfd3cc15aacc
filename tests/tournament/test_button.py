"""The dead button and the blinds from hand to hand (TDA 32, 34-B; RULES.md §1.5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.errors import RuleViolation
from director.tournament.button import (
    Positions,
    SeatStatus,
    advance,
    first_positions,
    hands_until_big_blind,
    is_between,
    last_to_act,
    next_positions,
    seat_status,
    start_positions,
    worst_position,
)

HAND_1 = Positions(button=1, small_blind=2, big_blind=3)   # 6-max, every example's hand 1
SIX = {1, 2, 3, 4, 5, 6}


def hands(first: Positions, occupied: set[int], count: int, size: int = 6) -> list[Positions]:
    """``first`` and the next ``count - 1`` hands with ``occupied`` seated throughout."""
    out = [first]
    for _ in range(count - 1):
        out.append(next_positions(out[-1], occupied, size))
    return out


def test_BTN_1_small_blind_busts_dead_button_next_hand() -> None:
    occupied = SIX - {2}
    _, hand2, hand3 = hands(HAND_1, occupied, 3)
    assert hand2 == Positions(button=2, small_blind=3, big_blind=4)
    assert hand2.dead_button(occupied) and hand2.posts_small_blind(occupied)
    assert hand3 == Positions(button=3, small_blind=4, big_blind=5)
    # S1 has the last action in hands 1 and 2.
    assert last_to_act(HAND_1, SIX, 6) == 1
    assert last_to_act(hand2, occupied, 6) == 1
    assert last_to_act(hand3, occupied, 6) == 3


def test_BTN_2_big_blind_busts_no_small_blind_next_hand() -> None:
    occupied = SIX - {3}
    _, hand2, hand3 = hands(HAND_1, occupied, 3)
    assert hand2 == Positions(button=2, small_blind=3, big_blind=4)
    assert not hand2.posts_small_blind(occupied)
    assert not hand2.dead_button(occupied)
    assert hand3 == Positions(button=3, small_blind=4, big_blind=5)
    assert hand3.dead_button(occupied)
    # S4 still pays the big blind on time; S2 is in effect the button twice.
    assert hand2.big_blind == 4
    assert last_to_act(hand2, occupied, 6) == last_to_act(hand3, occupied, 6) == 2


def test_BTN_3_both_blinds_bust_button_player_last_three_hands() -> None:
    occupied = SIX - {2, 3}
    _, hand2, hand3 = hands(HAND_1, occupied, 3)
    assert hand2 == Positions(button=2, small_blind=3, big_blind=4)
    assert hand2.dead_button(occupied) and not hand2.posts_small_blind(occupied)
    assert hand3 == Positions(button=3, small_blind=4, big_blind=5)
    assert hand3.dead_button(occupied) and hand3.posts_small_blind(occupied)
    assert [last_to_act(h, occupied, 6) for h in (HAND_1, hand2, hand3)] == [1, 1, 1]


def test_BTN_4_button_busts_no_irregularity() -> None:
    occupied = SIX - {1}
    _, hand2, hand3 = hands(HAND_1, occupied, 3)
    assert hand2 == Positions(button=2, small_blind=3, big_blind=4)
    assert hand3 == Positions(button=3, small_blind=4, big_blind=5)
    for hand in (hand2, hand3):
        assert not hand.dead_button(occupied) and hand.posts_small_blind(occupied)


def test_BTN_5_player_due_the_big_blind_busts_next_player_posts_it() -> None:
    occupied = SIX - {4}
    _, hand2, hand3 = hands(HAND_1, occupied, 3)
    assert hand2 == Positions(button=2, small_blind=3, big_blind=5)
    assert hand3 == Positions(button=3, small_blind=5, big_blind=6)


def test_BTN_6_heads_up_button_busts_last_big_blind_becomes_button() -> None:
    hand2 = next_positions(HAND_1, {2, 3}, 6)
    assert hand2 == Positions(button=3, small_blind=3, big_blind=2)
    assert hand2.heads_up


def test_BTN_7_heads_up_big_blind_busts() -> None:
    hand2 = next_positions(HAND_1, {1, 2}, 6)
    assert hand2 == Positions(button=2, small_blind=2, big_blind=1)


def test_BTN_8_heads_up_small_blind_busts() -> None:
    hand2 = next_positions(HAND_1, {1, 3}, 6)
    assert hand2 == Positions(button=3, small_blind=3, big_blind=1)


@pytest.mark.parametrize("busted", [1, 2, 3])
def test_BTN_6_to_8_heads_up_nobody_is_big_blind_twice_in_a_row(busted: int) -> None:
    occupied = {1, 2, 3} - {busted}
    sequence = hands(HAND_1, {1, 2, 3}, 1) + hands(next_positions(HAND_1, occupied, 6),
                                                   occupied, 6)
    bbs = [h.big_blind for h in sequence]
    assert all(a != b for a, b in zip(bbs, bbs[1:], strict=False))
    for hand in sequence[1:]:          # heads-up: the button is the small blind
        assert hand.button == hand.small_blind != hand.big_blind


def test_leaving_heads_up_when_a_player_joins() -> None:
    heads_up = Positions(button=3, small_blind=3, big_blind=2)
    # S3 (button/SB) is due the big blind, S2 the small blind, the newcomer in S5 the button.
    assert next_positions(heads_up, {2, 3, 5}, 6) == Positions(5, 2, 3)
    assert seat_status(5, heads_up, {2, 3}, 6) is SeatStatus.DEALT_IN
    # The last big blind left too: no small blind, the button on the player before it.
    assert next_positions(heads_up, {3, 5, 6}, 6) == Positions(6, 2, 3)


def test_BL_1_first_hand_positions_and_start_positions_agree() -> None:
    assert first_positions(1, SIX, 6) == HAND_1
    assert next_positions(start_positions(1, SIX, 6), SIX, 6) == HAND_1
    assert first_positions(5, {2, 5}, 9) == Positions(5, 5, 2)
    assert next_positions(start_positions(5, {2, 5}, 9), {2, 5}, 9) == Positions(5, 5, 2)


def test_a_hand_needs_two_players() -> None:
    with pytest.raises(RuleViolation, match="at least two players"):
        next_positions(HAND_1, {4}, 6)
    with pytest.raises(RuleViolation, match="seat 4 is empty"):
        first_positions(4, {1, 2, 3}, 6)


def test_stud_has_no_button_and_mixed_games_freeze_it_TDA_11_B() -> None:
    assert advance(None, SIX, 6, game_is_stud=True) is None
    # During stud the last flop hand's positions stay; flop resumes where it would be.
    frozen = advance(HAND_1, SIX - {4}, 6, game_is_stud=True)
    assert frozen == HAND_1
    assert advance(frozen, SIX - {4}, 6, game_is_stud=False) == Positions(2, 3, 5)


def test_seat_status_at_a_stud_table_is_dealt_in() -> None:
    assert seat_status(5, None, {1, 2}, 8, game_is_stud=True) is SeatStatus.DEALT_IN
    assert seat_status(5, HAND_1, {1, 2, 3}, 6, game_is_stud=True) is SeatStatus.DEALT_IN


def test_seat_status_in_the_empty_small_blind_seat_posts_the_small_blind() -> None:
    # BTN-2 after hand 1: S3 (the last big blind) is empty; a new player there is SB.
    assert seat_status(3, HAND_1, SIX - {3}, 6) is SeatStatus.SMALL_BLIND


def test_worst_position_is_never_the_small_blind_unless_it_is_the_only_seat() -> None:
    last = Positions(2, 3, 4)                        # S4 posted the BB and left
    occupied = {1, 2, 3, 5}
    assert worst_position({4, 6}, last, occupied, 6) == 6
    assert worst_position({4}, last, occupied, 6) == 4


def test_is_between_wraps_around() -> None:
    assert is_between(9, 8, 1, 9) is True
    assert is_between(2, 8, 1, 9) is False
    assert is_between(1, 9, 3, 9) and is_between(2, 9, 3, 9)
    assert not is_between(3, 9, 3, 9)


def test_hands_until_big_blind_counts_players_ahead() -> None:
    assert hands_until_big_blind(4, HAND_1, SIX, 6) == 0
    assert hands_until_big_blind(6, HAND_1, SIX, 6) == 2
    assert hands_until_big_blind(3, HAND_1, SIX, 6) == 5


seats_strategy = st.sets(st.integers(1, 9), min_size=3, max_size=9)


@given(st.data())
def test_dead_button_never_skips_a_player_who_stays(data: st.DataObject) -> None:
    """Random busts hand after hand: the big blind always lands on a player and
    passes over nobody who stayed seated; nobody posts it twice in a row."""
    occupied = data.draw(seats_strategy)
    last = first_positions(data.draw(st.sampled_from(sorted(occupied))), occupied, 9)
    while len(occupied) >= 2:
        busts = data.draw(st.sets(st.sampled_from(sorted(occupied)),
                                  max_size=len(occupied) - 2 if len(occupied) > 2 else 0))
        stayed = occupied - busts
        hand = next_positions(last, stayed, 9)
        assert hand.big_blind in stayed
        assert hand.big_blind != last.big_blind
        assert not any(is_between(s, last.big_blind, hand.big_blind, 9) for s in stayed)
        if len(stayed) == 2:
            assert hand.button == hand.small_blind
        occupied, last = stayed, hand
        if not busts:
            break
