"""Time the ICM deal calculator (issue 6: 10 players must take under a second).

Runs on its own: ``.venv/bin/python benchmarks/icm.py``.  The peer is the
textbook recursion (who wins, then recurse on the others, without
memoising), which visits every finishing order.  The last line printed is
one JSON object ``{"players", "icm_s"}`` for 10 players.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from director.tournament.icm import MAX_ICM_PLAYERS, icm  # noqa: E402

PRIZES = [300_000, 180_000, 120_000, 90_000, 70_000, 55_000, 45_000, 40_000, 35_000, 30_000,
          25_000, 22_000, 20_000, 18_000]
STACKS = [412_000, 305_500, 287_000, 201_000, 176_500, 150_000, 98_000, 77_500, 54_000, 31_000,
          29_000, 21_000, 18_500, 12_000]


def textbook_icm(stacks: list[int], prizes: list[int]) -> list[float]:
    """Equity by plain recursion over who finishes next: n! paths."""
    equity = [0.0] * len(stacks)

    def walk(left: list[int], chance: float, place: int) -> None:
        if place >= len(prizes) or not left:
            return
        chips = sum(stacks[i] for i in left)
        for i in left:
            p = chance * stacks[i] / chips
            equity[i] += p * prizes[place]
            walk([j for j in left if j != i], p, place + 1)

    walk(list(range(len(stacks))), 1.0, 0)
    return equity


def best_of(repeats: int, run) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print("ICM (Malmuth-Harville), prizes paid to every place, best of several runs")
    print(f"{'players':>7} {'icm_s':>10} {'textbook_s':>11} {'ratio':>8}")
    ten = 0.0
    for players in range(4, MAX_ICM_PLAYERS + 1):
        stacks, prizes = STACKS[:players], PRIZES[:players]
        ours = best_of(5 if players <= 10 else 2, lambda: icm(stacks, prizes))  # noqa: B023
        if players == 10:
            ten = ours
        if players <= 8:
            peer = best_of(2, lambda: textbook_icm(stacks, prizes))  # noqa: B023
            print(f"{players:>7} {ours:>10.5f} {peer:>11.5f} {peer / ours:>7.1f}x")
        else:
            print(f"{players:>7} {ours:>10.5f} {'-':>11} {'-':>8}")
    print(f"10 players: {ten:.5f} s ({'under' if ten < 1 else 'OVER'} the 1 s budget)")
    print(json.dumps({"players": 10, "icm_s": round(ten, 6)}))


if __name__ == "__main__":
    main()
