"""PHH reading and writing (shared/PHH.md; github.com/uoftcprg/phh-std)."""

from __future__ import annotations

import glob
import os
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.cards import Card
from director.poker.games import Game
from director.poker.phh import (
    Action,
    ActionKind,
    HandHistory,
    PHHError,
    format_action,
    parse_action,
    parse_phh,
    read_phh,
    write_phh,
)

WSOP = sorted(glob.glob("/work/shared/phh/wsop-2023-43-day5/*.phh"))
if not WSOP:  # the repository copy, when the shared folder is not mounted
    WSOP = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "shared", "phh",
                                         "wsop-2023-43-day5", "*.phh")))

PLO = """
variant = "PO"
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 2000, 3000]
actions = ["d dh p1 AsKsQsJs", "d dh p2 ????????", "d dh p3 2c3c4c5c # button", "p3 cbr 350",
           "p1 f", "p2 cc", "d db 7h8h9h", "p2 cc", "p3 cc", "d db Td", "# burn card exposed",
           "p2 cbr 100", "p3 f"]
players = ["Ann", "Bob", "Cy"]
hand = 12
time = 12:30:00
custom = {note = "kept"}
"""


def test_parse_reads_every_header_field() -> None:
    h = parse_phh(PLO)
    assert h.variant is Game.PO
    assert h.antes == (0, 0, 0)
    assert h.blinds_or_straddles == (50, 100, 0)
    assert h.min_bet == 100 and h.small_bet is None and h.bring_in == 0
    assert h.starting_stacks == (1000, 2000, 3000)
    assert h.ante_trimming_status is True
    assert h.finishing_stacks is None
    assert h.player_names == ("Ann", "Bob", "Cy")


def test_unknown_fields_are_kept_in_file_order() -> None:
    h = parse_phh(PLO)
    assert list(h.extra) == ["players", "hand", "time", "custom"]
    assert h.extra["custom"] == {"note": "kept"}


def test_action_grammar() -> None:
    a = parse_phh(PLO).actions
    assert a[0] == Action(ActionKind.DEAL_HOLE, player=0, cards=(Card(14, "s"), Card(13, "s"),
                                                                   Card(12, "s"), Card(11, "s")),
                          number=1)
    assert a[1].cards == (None, None, None, None)  # "??" = a card nobody saw
    assert a[2].comment == "button"
    assert (a[3].kind, a[3].player, a[3].amount) == (ActionKind.COMPLETE_BET_OR_RAISE, 2, 350)
    assert a[4].kind is ActionKind.FOLD and a[5].kind is ActionKind.CHECK_OR_CALL
    assert a[6].kind is ActionKind.DEAL_BOARD and len(a[6].cards) == 3
    assert a[10] == Action(ActionKind.COMMENT, comment="burn card exposed", number=11)
    assert parse_action("p4 pb").kind is ActionKind.POST_BRING_IN
    assert parse_action("p2 sm").kind is ActionKind.MUCK
    shown = parse_action("p2 sm Ts9s8c4c7h6cQc")
    assert shown.kind is ActionKind.SHOW and len(shown.cards) == 7


@pytest.mark.parametrize("text", ["d dh p1 AsKsQsJs", "d db 7h8h9h", "p3 cbr 350", "p1 cc",
                                  "p1 f", "p1 pb", "p2 sm AsKs????", "p2 sm", "# a comment",
                                  "p9 cbr 1 # all in"])
def test_format_action_is_the_inverse_of_parse(text: str) -> None:
    assert format_action(parse_action(text)) == text


@pytest.mark.parametrize(("text", "words"), [
    ("p1 raise 7", '"raise" is not a PHH action'),
    ("p1 cbr", "cbr AMOUNT"),
    ("p1 cbr 7.5", "whole number"),
    ("p1 cbr -7", "whole number"),
    ("p0 cc", '"p0" is not a player'),
    ("x cc", '"x" is not a player'),
    ("d dh p1 AsKsQsJx", '"AsKsQsJx" is not a list of cards'),
    ("d dh p1 AsK", "is not a list of cards"),
    ("d dh p1", "d dh pN CARDS"),
    ("d xx", '"xx" is not a dealer action'),
    ("p1 f now", "takes nothing after it"),
    ("", "the action is empty"),
])
def test_grammar_errors_name_the_action(text: str, words: str) -> None:
    with pytest.raises(PHHError) as e:
        parse_action(text, 7)
    assert "Action 7" in str(e.value)
    assert words in str(e.value)


def test_action_numbers_in_errors_count_from_one() -> None:
    bad = PLO.replace('"p1 f"', '"p1 fold"')
    with pytest.raises(PHHError, match=r'Action 5 "p1 fold"'):
        parse_phh(bad)


@pytest.mark.parametrize(("change", "words"), [
    (('variant = "PO"', 'variant = "NT"'), 'Variant "NT" is not a game we run'),
    (('variant = "PO"', ""), '"variant" is missing'),
    (("min_bet = 100", ""), '"min_bet" is needed'),
    (("starting_stacks = [1000, 2000, 3000]", "starting_stacks = [1000]"), "at least two players"),
    (("blinds_or_straddles = [50, 100, 0]", "blinds_or_straddles = [50, 100, 0, 0]"),
     "4 entries for 3 players"),
    (("starting_stacks = [1000, 2000, 3000]", "starting_stacks = [1000, 2000.5, 3000]"),
     "whole numbers of chips"),
    (('"p3 f"]', '"p4 f"]'), "there is no player p4"),
    (("hand = 12", "hand = = 12"), "not valid TOML"),
])
def test_header_errors(change: tuple[str, str], words: str) -> None:
    with pytest.raises(PHHError) as e:
        parse_phh(PLO.replace(*change))
    assert words in str(e.value)


def test_stud_needs_a_bring_in_and_limit_needs_bets() -> None:
    stud = ('variant = "F7S"\nantes = [5, 5]\nsmall_bet = 20\nbig_bet = 40\n'
            'starting_stacks = [100, 100]\nactions = []\n')
    with pytest.raises(PHHError, match='"bring_in" is missing'):
        parse_phh(stud)
    with pytest.raises(PHHError, match='"small_bet" and "big_bet"'):
        parse_phh(stud.replace("small_bet = 20\n", "bring_in = 5\n"))


def test_a_single_ante_means_everyone_and_short_arrays_are_padded() -> None:
    h = parse_phh('variant = "NO"\nantes = 25\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n'
                  'starting_stacks = [1000, 1000, 1000]\nactions = []\n')
    assert h.antes == (25, 25, 25)
    assert h.blinds_or_straddles == (50, 100, 0)


def test_round_trip_keeps_every_field() -> None:
    h = parse_phh(PLO)
    text = write_phh(h)
    assert parse_phh(text) == h
    assert tomllib.loads(text)["custom"] == {"note": "kept"}


@pytest.mark.parametrize("path", WSOP, ids=[os.path.basename(p) for p in WSOP])
def test_wsop_files_round_trip(path: str) -> None:
    h = read_phh(path)
    assert parse_phh(write_phh(h)) == h
    with open(path, "rb") as f:
        raw = tomllib.load(f)
    assert tomllib.loads(write_phh(h)) == raw  # same TOML table, field for field


def test_wsop_set_is_complete() -> None:
    assert len(WSOP) == 41
    variants = {read_phh(p).variant for p in WSOP}
    assert variants == {Game.PO, Game.FO8, Game.F7S, Game.F7S8}


@pytest.mark.parametrize("code", ["PO/8", "NO", "NO/8", "FO", "F7S/8"])
def test_our_extension_variant_codes_are_written_back(code: str) -> None:
    game = Game(code)
    h = HandHistory(variant=game, starting_stacks=(100, 100), antes=(1, 1),
                    blinds_or_straddles=() if game.is_stud else (1, 2),
                    bring_in=1 if game.is_stud else 0,
                    small_bet=2 if game.betting.is_fixed else None,
                    big_bet=4 if game.betting.is_fixed else None,
                    min_bet=None if game.betting.is_fixed else 2)
    text = write_phh(h)
    assert f'variant = "{code}"' in text
    assert parse_phh(text) == h


_strings = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


@given(st.dictionaries(st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True).filter(
    lambda k: k not in {"variant", "antes", "blinds_or_straddles", "bring_in", "small_bet",
                        "big_bet", "min_bet", "starting_stacks", "actions",
                        "ante_trimming_status", "finishing_stacks"}),
    st.one_of(_strings, st.integers(-10**6, 10**6), st.booleans(),
              st.lists(_strings, max_size=3)), max_size=4),
    st.lists(st.sampled_from(["p1 cc", "p2 f", "p1 cbr 20 # odd \"quote\"", "# just text",
                              "d db ??????", "p2 sm"]), max_size=6))
def test_property_round_trip_of_extra_fields_and_comments(extra: dict[str, object],
                                                          actions: list[str]) -> None:
    h = HandHistory(variant=Game.NO, starting_stacks=(100, 100), antes=(0, 0),
                    blinds_or_straddles=(1, 2), min_bet=2,
                    actions=tuple(parse_action(a, i) for i, a in enumerate(actions, 1)),
                    extra=extra)
    assert parse_phh(write_phh(h)) == h


# --------------------------------------------------------------------------- the engine

from director.poker import events as ev  # noqa: E402
from director.poker.phh import events, from_hand, hand_config, replay, to_phh  # noqa: E402
from director.poker.policy import Policy  # noqa: E402
from director.poker.state import Hand, HandConfig  # noqa: E402

HEADS_UP = """
variant = "NO"
ante_trimming_status = true
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 50]
actions = ["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "p2 cbr 50", "p1 cc", "p1 sm AsKsQsJs",
           "p2 sm 2c3c4c5c", "d db 7h8h9h", "d db Td", "d db 2d"]
"""


def test_hand_config_maps_every_header_field() -> None:
    h = parse_phh(PLO)
    config = hand_config(h, Policy(limit_raise_cap=4))
    assert config == HandConfig(game=Game.PO, starting_stacks=(1000, 2000, 3000), antes=(0, 0, 0),
                                blinds_or_straddles=(50, 100, 0), min_bet=100, ante_trimming=True,
                                policy=Policy(limit_raise_cap=4))
    assert hand_config(h).policy == Policy()


def test_heads_up_reversal_p1_posts_the_big_blind_and_p2_acts_first() -> None:
    """PHH heads-up (shared/PHH.md): p1 posts the big blind, p2 is the button,
    posts the small blind and acts first before the flop."""
    hand = Hand.start(hand_config(parse_phh(HEADS_UP)))
    assert hand.bets == (2, 1)
    hand = hand.apply(ev.DealHole(0, (None,) * 4)).apply(ev.DealHole(1, (None,) * 4))
    assert hand.to_act == 1


def test_heads_up_all_in_shows_before_the_run_out_and_finishes() -> None:
    hand = replay(parse_phh(HEADS_UP))
    assert hand.finished
    # p1 makes a queen-high straight with QJ + T98; p2 only a pair of deuces.
    assert hand.stacks == (150, 0)
    assert "straight" in hand.awards()[0].explanation


def test_events_map_each_action() -> None:
    text = PLO.replace('"p2 cbr 100", "p3 f"]', '"p2 cbr 100", "p3 f", "p2 sm"]')
    got = events(parse_phh(text))
    assert got[3] == ev.Action(2, ev.ActionKind.RAISE, 350)
    assert got[4] == ev.Action(0, ev.ActionKind.FOLD)
    assert got[5] == ev.Action(1, ev.ActionKind.CALL)
    assert got[6] == ev.DealBoard(parse_action("d db 7h8h9h").cards)
    assert len(got) == 13  # 14 lines, the comment maps to no event
    assert got[-1] == ev.Muck(1)
    stud = events(read_phh(WSOP[0]))
    assert ev.Action(4, ev.ActionKind.BRING_IN) in stud


def test_dead_big_blind_ante_when_ante_trimming_is_false() -> None:
    """ante_trimming_status = false: the BB ante is dead money in the main pot."""
    h = read_phh(next(p for p in WSOP if p.endswith("27.phh")))
    assert h.ante_trimming_status is False and h.antes[1] == 100_000
    hand = Hand.start(hand_config(h))
    assert hand.dead_money == 100_000
    assert hand.contributions[1] == 100_000  # only the blind is his live bet


def test_unknown_hole_cards_filled_in_by_a_later_show() -> None:
    h = read_phh(next(p for p in WSOP if p.endswith("16.phh")))  # p5 ????????
    assert h.actions[4].cards == (None,) * 4
    assert replay(h).stacks == h.finishing_stacks


@pytest.mark.parametrize("path", WSOP, ids=[os.path.basename(p) for p in WSOP])
def test_to_phh_of_a_replayed_wsop_hand_writes_the_same_actions(path: str) -> None:
    h = read_phh(path)
    hand = replay(h)
    back = parse_phh(to_phh(hand, extra=h.extra))
    assert [str(a) for a in back.actions] == [str(a) for a in h.actions]
    assert back.finishing_stacks == h.finishing_stacks
    assert back.extra == h.extra
    assert replay(back).stacks == h.finishing_stacks


def test_to_phh_writes_unentered_hole_cards_as_unknown() -> None:
    config = hand_config(parse_phh(PLO))
    hand = Hand.replay(config, [ev.Action(2, ev.ActionKind.RAISE, 350),
                                ev.Action(0, ev.ActionKind.FOLD), ev.Action(1, ev.ActionKind.FOLD)])
    out = from_hand(hand)
    assert [str(a) for a in out.actions] == [
        "d dh p1 ????????", "d dh p2 ????????", "d dh p3 ????????", "p3 cbr 350", "p1 f", "p2 f"]
    assert out.finishing_stacks == (950, 1900, 3150)
    assert replay(out).stacks == out.finishing_stacks


def test_to_phh_writes_all_in_as_cbr_or_cc_and_bring_in_as_pb() -> None:
    config = HandConfig(game=Game.F7S, starting_stacks=(100, 20, 100), antes=(5, 5, 5),
                        bring_in=5, small_bet=20, big_bet=40)
    hand = Hand.replay(config, [
        ev.DealHole(0, parse_action("d dh p1 AsKs2c").cards),
        ev.DealHole(1, parse_action("d dh p2 QsJs9d").cards),
        ev.DealHole(2, parse_action("d dh p3 8s7sAd").cards),
        ev.Action(0, ev.ActionKind.BRING_IN),
        ev.Action(1, ev.ActionKind.ALL_IN),  # 15 in all: more than the bring-in
        ev.Action(2, ev.ActionKind.CALL),
    ])
    lines = [str(a) for a in from_hand(hand).actions]
    assert lines[3:] == ["p1 pb", "p2 cbr 15", "p3 cc"]
    assert not from_hand(hand).finishing_stacks  # not over yet: no finishing stacks


def test_to_phh_keeps_events_phh_cannot_express_as_comments() -> None:
    config = hand_config(parse_phh(PLO))
    hand = Hand.replay(config, [ev.Kill(0, "absent"), ev.Action(2, ev.ActionKind.FOLD)])
    lines = [str(a) for a in from_hand(hand).actions]
    assert "# p1's hand is killed (absent)" in lines


def test_docstring_examples_hold() -> None:
    import doctest

    from director.poker import phh as phh_module

    assert doctest.testmod(phh_module).failed == 0
