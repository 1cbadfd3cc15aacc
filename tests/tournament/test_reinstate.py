"""Undoing a bust: the player back in his seat, and the places of those who went out after him.

The rules: ``reinstate_players`` and ``places_after_reinstatement`` in
``director.tournament.seating``.  The property test checks the place rule
against the definition: the places are those ``place_busts`` gives when the
tournament is replayed without the undone busts.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.poker.errors import RuleViolation
from director.tournament.seating import (
    Bust,
    Elimination,
    Layout,
    SeatedPlayer,
    TableState,
    place_busts,
    places_after_reinstatement,
    reinstate_players,
    remove_players,
)


def table(number: int, size: int, names: dict[int, str], **positions: int) -> TableState:
    """Seat s holds player id 10*number + s."""
    return TableState(number, size, {s: SeatedPlayer(10 * number + s, n) for s, n in names.items()},
                      **positions)


LAYOUT = Layout((table(1, 6, {1: "Ann", 3: "Bo", 5: "Cy"}, button_seat=1, sb_seat=3, bb_seat=5),
                 table(2, 6, {2: "Di", 4: "Ed"})))


def test_a_busted_player_goes_back_to_his_seat_exactly_as_before_the_bust() -> None:
    out = remove_players(LAYOUT, [13])                      # Bo (table 1 seat 3) busts
    assert out.table(1).vacated == (3,)
    back = reinstate_players(out, 1, {3: SeatedPlayer(13, "Bo")})
    assert back == LAYOUT                                   # seats, button, blinds, vacated
    assert back.table(1).seats[3] == SeatedPlayer(13, "Bo", waiting=False)


def test_two_players_busted_in_one_hand_both_come_back() -> None:
    out = remove_players(LAYOUT, [13, 15])
    back = reinstate_players(out, 1, {3: SeatedPlayer(13, "Bo"), 5: SeatedPlayer(15, "Cy")})
    assert back == LAYOUT


def test_a_player_who_was_waiting_for_the_button_comes_back_dealt_in() -> None:
    out = remove_players(LAYOUT, [13])
    back = reinstate_players(out, 1, {3: SeatedPlayer(13, "Bo", waiting=True)})
    assert back.table(1).seats[3].waiting is False          # he played the hand that is reopened


def test_a_seat_taken_since_the_bust_is_refused_with_both_names() -> None:
    out = remove_players(LAYOUT, [13])
    fay = TableState(1, 6, {**out.table(1).seats, 3: SeatedPlayer(99, "Fay")})
    out = out.with_table(fay)                                # Fay reseated into seat 3
    with pytest.raises(RuleViolation) as exc:
        reinstate_players(out, 1, {3: SeatedPlayer(13, "Bo")})
    assert str(exc.value) == "Table 1 seat 3 is taken by Fay: Bo cannot go back there"


def test_a_broken_table_is_refused() -> None:
    out = Layout((LAYOUT.table(2),))
    with pytest.raises(RuleViolation) as exc:
        reinstate_players(out, 1, {3: SeatedPlayer(13, "Bo")})
    assert str(exc.value) == "Table 1 is no longer in play"


def test_a_seat_beyond_a_table_made_smaller_is_refused() -> None:
    small = Layout((table(1, 4, {1: "Ann"}), LAYOUT.table(2)))
    with pytest.raises(RuleViolation) as exc:
        reinstate_players(small, 1, {5: SeatedPlayer(15, "Cy")})
    assert str(exc.value) == "Table 1 has no seat 5 any more"


def test_a_player_who_already_has_a_seat_is_refused() -> None:
    out = remove_players(LAYOUT, [13])
    with pytest.raises(RuleViolation) as exc:
        reinstate_players(out, 1, {3: SeatedPlayer(24, "Ed")})
    assert str(exc.value) == "Ed already has a seat (table 2 seat 4)"


# ---------------------------------------------------------------- places


def test_a_later_bust_at_another_table_finishes_one_place_lower() -> None:
    # 10 players: Ann out 10th, then Bo 9th at another table; Ann's bust is undone.
    out = [Elimination(1, 10, 10, hand=1), Elimination(2, 9, 9, hand=2)]
    assert places_after_reinstatement(out, [1]) == {2: (10, 10)}


def test_an_earlier_bust_keeps_his_place() -> None:
    out = [Elimination(1, 10, 10, hand=1), Elimination(2, 9, 9, hand=2)]
    assert places_after_reinstatement(out, [2]) == {}


def test_same_hand_the_bigger_stack_finished_higher_and_moves_down() -> None:
    # One hand at one table, 10 left: X (12,000) 9th, Y (8,000) 10th.  Undo only Y:
    # X busted with 10 left and Y still in, so X is 10th.  Undo only X: Y stays 10th.
    first = place_busts([Bust(1, 1, 12_000), Bust(2, 1, 8_000)], 10)
    out = [Elimination(p, f.first, f.last, 1) for f in first for p in f.player_ids]
    assert [(e.player_id, e.first) for e in out] == [(1, 9), (2, 10)]
    assert places_after_reinstatement(out, [2]) == {1: (10, 10)}
    assert places_after_reinstatement(out, [1]) == {}


def test_H4H_2_undoing_Y_leaves_X_alone_in_51st() -> None:
    # [H4H-2] 51 left, X (table 1) and Y (table 4) bust in the same hand: 50th-51st shared.
    (tie,) = place_busts([Bust(1, 1, 12_000), Bust(2, 4, 8_000)], 51, hand_for_hand=True)
    out = [Elimination(p, tie.first, tie.last, 1) for p in tie.player_ids]
    assert places_after_reinstatement(out, [2]) == {1: (51, 51)}


def test_two_players_reinstated_move_every_later_bust_down_two_places() -> None:
    out = [Elimination(1, 9, 9, 1), Elimination(2, 10, 10, 1), Elimination(3, 8, 8, 2),
           Elimination(4, 6, 7, 3), Elimination(5, 6, 7, 3)]
    assert places_after_reinstatement(out, [1, 2]) == {3: (10, 10), 4: (8, 9), 5: (8, 9)}


Hand = list[tuple[int, int]]           # (table, starting chips) of each bust


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, list[tuple[bool, Hand]], int, list[int]]:
    """A field, its hands with busts (single-table, or hand-for-hand at several tables),
    and the busts of one table in one hand to undo (any of them at a single table)."""
    field = draw(st.integers(4, 40))
    hands: list[tuple[bool, Hand]] = []
    left = field
    while left > 2 and len(hands) < 8:
        h4h = draw(st.booleans())
        count = draw(st.integers(1, min(4, left - 2)))
        tables = st.integers(1, 3) if h4h else st.just(1)
        busts = draw(st.lists(st.tuples(tables, st.sampled_from([1_000, 2_000, 3_000])),
                              min_size=count, max_size=count))
        hands.append((h4h, busts))
        left -= count
    undo_hand = draw(st.integers(0, len(hands) - 1))    # field >= 4: at least one hand
    h4h, busts = hands[undo_hand]
    if h4h:
        undo_table = draw(st.sampled_from(sorted({t for t, _ in busts})))
        undone = [i for i, (t, _) in enumerate(busts) if t == undo_table]
    else:
        undone = draw(st.lists(st.sampled_from(range(len(busts))), min_size=1, unique=True))
    return field, hands, undo_hand, undone


def _play(field: int, hands: list[tuple[bool, Hand]],
          skip: set[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int]]:
    """Places of every bust (hand, index) when the busts in ``skip`` never happen."""
    places: dict[tuple[int, int], tuple[int, int]] = {}
    left = field
    for h, (h4h, busts) in enumerate(hands):
        kept = [i for i in range(len(busts)) if (h, i) not in skip]
        if not kept:
            continue
        ids = {h * 100 + i: (h, i) for i in kept}
        finishes = place_busts([Bust(h * 100 + i, busts[i][0], busts[i][1]) for i in kept], left,
                               hand_for_hand=h4h)
        for f in finishes:
            for pid in f.player_ids:
                places[ids[pid]] = (f.first, f.last)
        left -= len(kept)
    return places


@settings(max_examples=300, deadline=None)
@given(tournaments())
def test_places_after_reinstatement_are_the_places_of_the_tournament_without_the_bust(
        case: tuple[int, list[tuple[bool, Hand]], int, list[int]]) -> None:
    field, hands, undo_hand, undone = case
    before = _play(field, hands, set())
    skip = {(undo_hand, i) for i in undone}
    after = _play(field, hands, skip)
    out = [Elimination(h * 100 + i, first, last, h) for (h, i), (first, last) in before.items()]
    changed = places_after_reinstatement(out, [h * 100 + i for h, i in skip])
    for (h, i), place in after.items():
        assert changed.get(h * 100 + i, before[(h, i)]) == place
    assert set(changed) <= {h * 100 + i for h, i in after}
