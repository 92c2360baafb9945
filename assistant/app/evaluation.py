"""Held-out evaluation of a planner on every task.

Run::

    python -m assistant.app.evaluation --planner heuristic --seeds 100-109
    layout-assistant eval-planner --planner heuristic --seeds 100-109

For each task and seed: make the task's broken layout, run the planner on it
with the task's metric weights and instruction constraints
(``assistant.planners.loop.run_planner``), and compare three composite
scores measured the same way — *start* (broken), *end* (after the planner) and
*clean* (the task's reference layout). Per task the table reports their
means and

    gap closed = Σ(end − start) / Σ(clean − start)

over the seeds whose clean layout beats the broken one (1.0 = reached the
reference quality; above 1 = better than the reference), the mean steps and
seconds per episode, and the valid-action rate (valid / proposed actions).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from assistant.env.tasks import make_task, task_names
from assistant.instructions import KeepConstraint
from assistant.metrics import evaluate
from assistant.planners import get_planner
from assistant.planners.loop import run_planner
from assistant.seeds import parse_seeds

#: The quality target of the heuristic planner (fraction of the gap closed).
TARGET_GAP_CLOSED = 0.8


@dataclass
class Episode:
    """One planner run on one generated task: composite at start, end and of the clean layout, and effort."""

    task: str
    seed: int
    start: float
    end: float
    clean: float
    steps: int
    seconds: float
    proposed: int
    valid: int
    stopped: str


@dataclass
class TaskRow:
    """One line of the evaluation table."""

    task: str
    episodes: int
    start: float
    end: float
    clean: float
    gap_closed: float
    steps: float
    seconds: float
    valid_rate: float
    worse: int = 0
    details: list[Episode] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON, without the episodes."""
        d = asdict(self)
        d.pop("details")
        return d


def run_episode(task_name: str, seed: int, planner_name: str, *, max_steps: int = 20,
                time_budget: float | None = 20.0, planner_options: dict[str, Any] | None = None) -> Episode:
    """Run the planner on one generated task and score start, end and clean."""
    task = make_task(task_name, seed)
    doc, constraints, weights = task.broken, list(task.constraints), task.weights
    keep = [c.id for c in constraints if isinstance(c, KeepConstraint) and c.id]
    clean_score = evaluate(task.clean.layout, constraints=constraints or None, weights=weights).composite
    planner = get_planner(planner_name, **(planner_options or {}))
    t0 = time.monotonic()
    result = run_planner(doc, planner, constraints=constraints, weights=weights, instruction=task.instruction,
                         keep=keep, max_steps=max_steps, time_budget=time_budget)
    return Episode(task=task_name, seed=seed, start=result.start.composite, end=result.end.composite,
                   clean=clean_score, steps=result.edits, seconds=time.monotonic() - t0,
                   proposed=result.proposed, valid=result.valid, stopped=result.stopped)


def summarize(task: str, episodes: list[Episode]) -> TaskRow:
    """Aggregate one task's episodes into a table row (see the module docstring)."""
    useful = [e for e in episodes if e.clean > e.start + 1e-9]
    gap = sum(e.clean - e.start for e in useful)
    closed = sum(e.end - e.start for e in useful) / gap if gap > 0 else 1.0
    proposed = sum(e.proposed for e in episodes)
    return TaskRow(
        task=task, episodes=len(episodes),
        start=statistics.fmean(e.start for e in episodes), end=statistics.fmean(e.end for e in episodes),
        clean=statistics.fmean(e.clean for e in episodes), gap_closed=closed,
        steps=statistics.fmean(e.steps for e in episodes), seconds=statistics.fmean(e.seconds for e in episodes),
        valid_rate=(sum(e.valid for e in episodes) / proposed) if proposed else 1.0,
        worse=sum(1 for e in episodes if e.end < e.start - 1e-9), details=episodes,
    )


def evaluate_planner(planner: str = "heuristic", *, tasks: Iterable[str] | None = None,
                     seeds: Iterable[int] = range(100, 110), max_steps: int = 20,
                     time_budget: float | None = 20.0, planner_options: dict[str, Any] | None = None,
                     jobs: int = 1) -> list[TaskRow]:
    """The evaluation table: one ``TaskRow`` per task (all registered tasks by default).

    ``jobs`` > 1 runs episodes in that many processes; the rows do not depend
    on it (episodes are independent and collected in task/seed order), except
    for the timings.
    """
    names = list(tasks) if tasks is not None else task_names()
    pairs = [(name, s) for name in names for s in seeds]
    kw = dict(max_steps=max_steps, time_budget=time_budget, planner_options=planner_options)
    if jobs > 1 and len(pairs) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run_episode, name, s, planner, **kw) for name, s in pairs]
            episodes = [f.result() for f in futures]
    else:
        episodes = [run_episode(name, s, planner, **kw) for name, s in pairs]
    return [summarize(name, [e for e in episodes if e.task == name]) for name in names]


def overall(rows: list[TaskRow]) -> TaskRow:
    """All episodes of all rows as one row named ``all``."""
    return summarize("all", [e for r in rows for e in r.details])


def markdown_table(rows: list[TaskRow]) -> str:
    """The table as GitHub markdown (used for BENCHMARKS.md)."""
    lines = ["| task | episodes | start | end | clean | gap closed | steps | time/episode (s) | valid actions "
             "| worse |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in [*rows, overall(rows)] if rows else rows:
        name = f"**{r.task}**" if r.task == "all" else r.task
        lines.append(f"| {name} | {r.episodes} | {r.start:.3f} | {r.end:.3f} | {r.clean:.3f} | "
                     f"{r.gap_closed:.0%} | {r.steps:.1f} | {r.seconds:.2f} | {r.valid_rate:.0%} | {r.worse} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: print the markdown table; exit 1 below the target."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--planner", default="heuristic")
    ap.add_argument("--seeds", default="100-109", help="held-out seeds, e.g. 100-109 or 100,105")
    ap.add_argument("--tasks", default=None, help="comma-separated task names (default: all)")
    ap.add_argument("--max-steps", type=int, default=20)
    ap.add_argument("--time-budget", type=float, default=20.0)
    ap.add_argument("--jobs", type=int, default=1, help="episodes run in parallel processes")
    args = ap.parse_args(argv)
    tasks = [t.strip() for t in args.tasks.split(",")] if args.tasks else None
    rows = evaluate_planner(args.planner, tasks=tasks, seeds=parse_seeds(args.seeds),
                            max_steps=args.max_steps, time_budget=args.time_budget, jobs=args.jobs)
    print(markdown_table(rows))
    total = overall(rows)
    return 0 if total.gap_closed >= TARGET_GAP_CLOSED and total.valid_rate == 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
