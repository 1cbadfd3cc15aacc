"""Benchmark: the seat draw and one balancing pass for 10,000 entrants on 1,112 tables.

Runs on its own (``python benchmarks/seating.py``).  Goal: under 0.5 s for
the draw plus the balancing pass, each timed with the director confirming
the plan (``apply_plan``).  The balancing pass follows 1,500 random busts,
so that it has real work to do.  Times are the best of three runs without
tracemalloc; peak memory is a fourth run under tracemalloc.  The last line
is JSON: {"entrants", "tables", "draw_s", "balance_s", "peak_mb"}.  A
benchmark is not a test: it never fails on a time.
"""

from __future__ import annotations

import json
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from director.tournament.seating import (  # noqa: E402
    Layout,
    SeatingPolicy,
    apply_plan,
    balance_tables,
    draw_seats,
    remove_players,
)

ENTRANTS = 10_000
BUSTS = 1_500
GOAL_S = 0.5
POLICY = SeatingPolicy(table_size=9)
PLAYERS = [(i, f"Player {i}") for i in range(1, ENTRANTS + 1)]


def run(seed: int, rng: random.Random | None = None) -> dict[str, float]:
    seeded = random.Random(seed)
    started = time.perf_counter()
    layout = apply_plan(Layout(()), draw_seats(PLAYERS, POLICY, rng or seeded))
    draw_s = time.perf_counter() - started
    layout = remove_players(layout, seeded.sample(range(1, ENTRANTS + 1), BUSTS))
    started = time.perf_counter()
    plan = balance_tables(layout, POLICY)
    balanced = apply_plan(layout, plan)
    balance_s = time.perf_counter() - started
    counts = [t.count for t in balanced.tables]
    assert max(counts) - min(counts) <= POLICY.balance_threshold
    return {"tables": len(layout.tables), "moves": len(plan.moves), "draw_s": draw_s,
            "balance_s": balance_s}


def main() -> None:
    runs = [run(seed) for seed in (1, 2, 3)]
    draw_s = min(r["draw_s"] for r in runs)
    balance_s = min(r["balance_s"] for r in runs)
    secure = run(4, rng=None)                         # secrets.SystemRandom, the default
    tracemalloc.start()
    run(5)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    tables = int(runs[0]["tables"])
    total = draw_s + balance_s
    print(f"entrants {ENTRANTS}, tables {tables} (9-handed)")
    print(f"draw + apply, seeded Random:        {draw_s:.3f} s (best of 3)")
    print(f"draw + apply, secrets.SystemRandom: {secure['draw_s']:.3f} s")
    print(f"{BUSTS} busts, balancing pass + apply: {balance_s:.3f} s "
          f"({int(runs[0]['moves'])} moves)")
    print(f"total {total:.3f} s = {total / GOAL_S:.2f} x the {GOAL_S} s goal")
    print(f"peak memory (tracemalloc): {peak / 2**20:.1f} MB")
    print(json.dumps({"entrants": ENTRANTS, "tables": tables, "draw_s": round(draw_s, 4),
                      "balance_s": round(balance_s, 4), "peak_mb": round(peak / 2**20, 2)}))


if __name__ == "__main__":
    main()
