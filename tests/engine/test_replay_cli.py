"""``python -m director.replay`` (the logic of ``director replay``) as a
subprocess: the output contract, the exit codes, and messages that name the
file, the action and the rule, never a traceback."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from director.poker import phh

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
WSOP = sorted(glob.glob("/work/shared/phh/wsop-2023-43-day5/*.phh")) or sorted(
    glob.glob(str(ROOT / "shared" / "phh" / "wsop-2023-43-day5" / "*.phh")))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, "-m", "director.replay", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def wsop(number: str) -> str:
    return next(p for p in WSOP if os.path.basename(p) == f"{number}.phh")


PLO = """variant = "PO"
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 7h7d8h8d", {raise}, "p1 f", "p2 f"]
finishing_stacks = [99, 98, 103]
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_json_prints_one_object_per_wsop_file_with_its_finishing_stacks() -> None:
    result = run("--json", *WSOP)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 41
    for path, line in zip(WSOP, lines, strict=True):
        obj = json.loads(line)
        assert set(obj) == {"file", "variant", "finishing_stacks", "error"}
        assert obj["file"] == path
        assert obj["error"] is None
        history = phh.read_phh(path)
        assert obj["variant"] == history.variant.value
        assert obj["finishing_stacks"] == list(history.finishing_stacks or ())
    assert result.stderr == ""


def test_trace_has_one_entry_per_decision_taken_before_it() -> None:
    path = wsop("06")
    obj = json.loads(run("--json", "--trace", path).stdout)
    history = phh.read_phh(path)
    decisions = [a for a in history.actions if a.is_player_decision]
    assert len(obj["trace"]) == len(decisions)
    assert [e["player"] for e in obj["trace"]] == [a.player + 1 for a in decisions]
    # Stud 200k/400k, bring-in 50k: p3 has the low card (3 of spades).
    assert obj["trace"][0] == {"player": 3, "call": None, "min_to": 200000, "max_to": 200000,
                               "bring_in": True}
    # p4 faces the bring-in: call 50k or complete to 200k.
    assert obj["trace"][1] == {"player": 4, "call": 50000, "min_to": 200000, "max_to": 200000,
                               "bring_in": False}
    # 4th street, p1 first: a check is possible (call 0), bet 200k.
    assert obj["trace"][7] == {"player": 1, "call": 0, "min_to": 200000, "max_to": 200000,
                               "bring_in": False}


def test_trace_counts_the_big_blind_ante_in_the_pot_limit_pot() -> None:
    """Hand 27, PLO 50k/100k with a 100k big-blind ante: the first player may
    raise to 450k (pot 250k + call 100k + 100k), [PL-9]."""
    obj = json.loads(run("--json", "--trace", wsop("27")).stdout)
    assert obj["trace"][0] == {"player": 3, "call": 100000, "min_to": 200000, "max_to": 450000,
                               "bring_in": False}


def test_readable_account_names_board_pots_and_winners() -> None:
    result = run(wsop("79"))
    assert result.returncode == 0
    out = result.stdout
    assert "limit Omaha hi/lo" in out
    assert "Board: 4♠ 3♥ Q♥ 5♠ 5♦" in out
    assert "Side pot 1 2,000,000: high to p1 Brian Rast, seven-high straight" in out
    assert "low split p1 Brian Rast and p3 Talal Shakerchi, 5-4-3-2-A" in out
    assert ("Finishing stacks: p1 Brian Rast 25,150,000, p2 Matthew Ashton 0,"
            " p3 Talal Shakerchi 4,550,000") in out


def test_no_files_is_a_usage_error() -> None:
    result = run()
    assert result.returncode == 2
    assert "usage" in result.stderr
    assert result.stdout == ""


def test_unreadable_file_is_a_usage_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.phh")
    result = run("--json", missing)
    assert result.returncode == 2
    obj = json.loads(result.stdout)
    assert obj["file"] == missing and "cannot read the file" in obj["error"]
    assert "Traceback" not in result.stderr


def test_bad_toml_is_a_usage_error(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.phh", 'variant = "PO"\nantes = [0, 0\n')
    result = run(path)
    assert result.returncode == 2
    assert f"{path}: The file is not valid TOML" in result.stderr
    assert "Traceback" not in result.stderr


def test_illegal_raise_names_the_file_the_action_and_the_rule(tmp_path: Path) -> None:
    path = write(tmp_path, "small.phh", PLO.replace("{raise}", '"p3 cbr 3"'))
    result = run("--json", path)
    assert result.returncode == 1
    obj = json.loads(result.stdout)
    assert obj["finishing_stacks"] is None
    assert obj["error"] == (f'{path}: action 4 "p3 cbr 3": Raise to 3 is below the minimum '
                            "raise to 4 (TDA 43-A)")
    assert "Traceback" not in result.stderr


def test_pot_limit_overbet_is_illegal(tmp_path: Path) -> None:
    path = write(tmp_path, "over.phh", PLO.replace("{raise}", '"p3 cbr 8"'))
    result = run(path)
    assert result.returncode == 1
    assert 'action 4 "p3 cbr 8": Pot-limit: the most player 3 may raise to is 7 (TDA 54)' \
        in result.stderr


def test_action_out_of_turn_is_illegal(tmp_path: Path) -> None:
    path = write(tmp_path, "turn.phh", PLO.replace("{raise}", '"p1 cbr 7"'))
    result = run(path)
    assert result.returncode == 1
    assert "action 4" in result.stderr and "not player 1's turn" in result.stderr


def test_stack_mismatch_exits_1(tmp_path: Path) -> None:
    text = PLO.replace("{raise}", '"p3 cbr 7"').replace("[99, 98, 103]", "[99, 98, 104]")
    path = write(tmp_path, "mismatch.phh", text)
    result = run("--json", path)
    assert result.returncode == 1
    obj = json.loads(result.stdout)
    assert obj["finishing_stacks"] == [99, 98, 103]
    assert "p3 103 (file says 104)" in obj["error"]


def test_grammar_error_names_the_action(tmp_path: Path) -> None:
    path = write(tmp_path, "grammar.phh", PLO.replace("{raise}", '"p3 raise 7"'))
    result = run(path)
    assert result.returncode == 1
    assert f'{path}: Action 4 "p3 raise 7": "raise" is not a PHH action' in result.stderr


def test_unfinished_hand_is_an_error(tmp_path: Path) -> None:
    text = PLO.replace('{raise}, "p1 f", "p2 f"', '"p3 cbr 7"')
    path = write(tmp_path, "short.phh", text)
    result = run(path)
    assert result.returncode == 1
    assert result.stderr == (f"{path}: the hand is not finished after the last action"
                             " (waiting for p1 to act)\n")


@pytest.mark.parametrize("flags", [[], ["--json"]])
def test_one_bad_file_among_good_ones_exits_1_and_reports_all(tmp_path: Path,
                                                                flags: list[str]) -> None:
    bad = write(tmp_path, "bad.phh", PLO.replace("{raise}", '"p3 cbr 3"'))
    good = write(tmp_path, "good.phh", PLO.replace("{raise}", '"p3 cbr 7"'))
    result = run(*flags, good, bad, wsop("05"))
    assert result.returncode == 1
    if flags:
        objs = [json.loads(line) for line in result.stdout.splitlines()]
        assert [o["error"] is None for o in objs] == [True, False, True]
    else:
        assert result.stdout.count("== ") == 3


def test_replay_command_in_process_and_the_no_op_check_behind_all_ins(tmp_path: Path) -> None:
    """``replay_command`` is what ``director replay`` calls.  pokerkit records
    a check by the big blind when everyone else is all-in; our engine asks
    him nothing, so the check is accepted as a no-op and traced as a check."""
    import io

    from director.replay import replay_command

    text = """variant = "NO"
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 2]
actions = ["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 7h7d8h8d", "p3 cc", "p1 f",
           "p2 cc", "d db 9h9d9s", "d db 2h", "d db 3h"]
finishing_stacks = [99, 98, 5]
"""
    path = write(tmp_path, "noop.phh", text)
    out, err = io.StringIO(), io.StringIO()
    assert replay_command([path], True, True, out, err) == 0, err.getvalue()
    obj = json.loads(out.getvalue())
    assert obj["finishing_stacks"] == [99, 98, 5]  # p3: 7h8h + three hearts, a flush
    assert obj["trace"][-1] == {"player": 2, "call": 0, "min_to": None, "max_to": None,
                                "bring_in": False}
    assert replay_command([], False, False, out, err) == 2
