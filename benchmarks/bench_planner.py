"""Heuristic planner on held-out task seeds: share of the start→clean gap closed, steps, time, valid actions.

For every task and each held-out seed (100–109, never used in tests or
training examples) the ``heuristic`` planner repairs the broken layout with
the task's metric weights and instruction constraints (max 20 edits, 60 s
per episode). *start*, *end* and *clean* are mean composite scores of the
broken layout, the planner's result and the task's clean reference, measured
the same way; *gap closed* = Σ(end − start) / Σ(clean − start) (above 100 %:
better than the reference by the metrics); *valid* is the share of proposed
actions that validated; *worse* counts episodes that ended below their start
(the loop's improvement guard makes it 0 by construction). Target: ≥ 80 % gap
closed with 100 % valid actions. Same command by hand:
``python -m assistant.app.evaluation --seeds 100-109``.
"""

from __future__ import annotations

import os

from assistant.app.evaluation import evaluate_planner, overall

SEEDS = tuple(range(100, 110))
MAX_STEPS = 20
TIME_BUDGET = 60.0


def run() -> list[dict]:
    """One row per task and one for all: the share of the gap closed, steps, time and valid actions."""
    rows = evaluate_planner("heuristic", seeds=SEEDS, max_steps=MAX_STEPS, time_budget=TIME_BUDGET,
                            jobs=max(1, os.cpu_count() or 1))
    out = []
    for r in [*rows, overall(rows)]:
        out.append({
            "task": r.task, "episodes": r.episodes, "start": round(r.start, 3), "end": round(r.end, 3),
            "clean": round(r.clean, 3), "gap closed": f"{r.gap_closed:.0%}", "steps": round(r.steps, 1),
            "s/episode": round(r.seconds, 2), "valid actions": f"{r.valid_rate:.0%}", "worse": r.worse,
        })
    return out
