"""The readable account of ``director replay FILE`` (without ``--json``): who
won what and why, on real hands of the 2023 WSOP Poker Players Championship.

Each account names the players as the file does, shows the board (flop games)
or every player's up-cards (stud), every hand tabled with what it makes, the
hands mucked, and one sentence per pot naming the winner and his hand.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from director.replay import describe, replay_file

ROOT = Path(__file__).resolve().parents[2]
WSOP = sorted(glob.glob("/work/shared/phh/wsop-2023-43-day5/*.phh")) or sorted(
    glob.glob(str(ROOT / "shared" / "phh" / "wsop-2023-43-day5" / "*.phh")))

pytestmark = pytest.mark.skipif(not WSOP, reason="the WSOP hand histories are not checked out")


def account(number: str) -> str:
    path = next(p for p in WSOP if os.path.basename(p) == f"{number}.phh")
    result = replay_file(path)
    assert result.error is None
    return describe(result)


def test_stud_winner_after_a_muck_is_named_with_the_hand_he_showed() -> None:
    # Hand 6 (F7S): p2 shows T♠9♠8♣4♣7♥6♣Q♣, p1 mucks: p2 wins with a straight.
    text = account("06")
    assert "seven-card stud, hand 6" in text
    assert "Up cards: p1 James Obst A♣ K♣ 5♠ 2♦ (mucked); p2 Talal Shakerchi 8♣ 4♣ 7♥ 6♣;" in text
    assert "p3 Brian Rast 6♦ (folded)" in text
    assert "Shows: p2 Talal Shakerchi T♠ 9♠ 8♣ 4♣ 7♥ 6♣ Q♣: ten-high straight" in text
    assert "Mucked: p1 James Obst" in text
    assert "Main pot 3,900,000: to p2 Talal Shakerchi, ten-high straight, 3,900,000" in text
    assert "uncontested" not in text
    assert "Finishing stacks: p1 James Obst 2,150,000, p2 Talal Shakerchi 9,750,000" in text


def test_omaha_hi_lo_shown_hand_reads_high_and_low() -> None:
    # Hand 12 (FO/8): p3 tables A♠8♣7♠5♥ on 3♠7♥K♠8♠A♥, p2 mucks.
    text = account("12")
    assert "Board: 3♠ 7♥ K♠ 8♠ A♥" in text
    assert "Shows: p3 Kristopher Tong A♠ 8♣ 7♠ 5♥: ace-high flush; 8-7-5-3-A low" in text
    assert "Mucked: p2 Matthew Ashton" in text
    assert "Main pot 2,900,000: to p3 Kristopher Tong, ace-high flush, 2,900,000" in text


def test_SPL_high_to_one_low_quartered_between_two() -> None:
    # Hand 15: p2's pair of fours takes the high half; both hold 8-7-4-2-A.
    text = account("15")
    assert "Shows: p4 Matthew Ashton A♥ K♥ Q♠ 2♣: A-K-J-9-8 high; 8-7-4-2-A low" in text
    assert ("Main pot 3,700,000: high to p2 Talal Shakerchi, pair of fours, 1,850,000; "
            "low split p2 Talal Shakerchi and p4 Matthew Ashton, 8-7-4-2-A, 925,000 each") in text


def test_SP_side_pot_awarded_before_the_main_pot_with_no_low() -> None:
    # Hand 78: p4 all-in for 125,000; no low on J♦K♠2♥T♦Q♥; p2's two pair wins both pots.
    text = account("78")
    assert "Shows: p4 James Obst 4♦ 3♠ 3♣ 2♦: pair of threes; no low" in text
    side = text.index("Side pot 1 1,250,000: to p2 Brian Rast, two pair, queens and tens, no low")
    main = text.index("Main pot 375,000: to p2 Brian Rast, two pair, queens and tens, no low")
    assert side < main


def test_SPL_4_each_pot_split_among_its_own_players() -> None:
    # Hand 79: p2 (no low) is in the main pot only; p1 and p3 split both lows.
    text = account("79")
    assert "Side pot 1 2,000,000, eligible: p1 Brian Rast, p3 Talal Shakerchi" in text
    assert ("Side pot 1 2,000,000: high to p1 Brian Rast, seven-high straight, 1,000,000; "
            "low split p1 Brian Rast and p3 Talal Shakerchi, 5-4-3-2-A, 500,000 each") in text
    assert ("Main pot 3,900,000: high to p1 Brian Rast, seven-high straight, 1,950,000; "
            "low split p1 Brian Rast and p3 Talal Shakerchi, 5-4-3-2-A, 975,000 each") in text


def test_everybody_folds_is_uncontested(tmp_path: Path) -> None:
    path = tmp_path / "fold.phh"
    path.write_text('variant = "PO"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\n'
                    'min_bet = 2\nstarting_stacks = [100, 100, 100]\n'
                    'actions = ["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 7h7d8h8d",'
                    ' "p3 cbr 7", "p1 f", "p2 f"]\n')
    text = describe(replay_file(str(path)))
    assert "Uncalled 5 returned to p3" in text
    assert "Main pot 5: to p3, uncontested, 5" in text
    assert "Shows" not in text
