"""``layout-assistant eval-planner``: measure a planner on held-out seeds of every generated task."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from assistant.cli import app
from assistant.cli._common import fail
from assistant.errors import LayoutError

EVAL_HELP = """Measure a planner on held-out seeds of every generated task.

For each task and seed the planner repairs the task's broken layout; the
table compares the composite score at the start, at the end and of the
task's clean reference, the share of that gap the planner closed, mean edits
and seconds per episode, the valid-action rate, and how many episodes ended
worse than they started. Exit code 1 when the planner closes less than
--target of the gap overall or proposes any invalid action.

Examples:

  layout-assistant eval-planner --planner heuristic --seeds 100-109

  layout-assistant eval-planner --tasks poster,flyer --seeds 100,101 --json eval.json
"""

@app.command("eval-planner", help=EVAL_HELP)
def eval_planner(
    planner: str = typer.Option("heuristic", "--planner", "-p", help="Registered planner name."),
    seeds: str = typer.Option("100-109", "--seeds", help="Held-out seeds: 100-109, or 100,104."),
    tasks: str | None = typer.Option(None, "--tasks", help="Comma-separated task names (default: every task)."),
    max_steps: int = typer.Option(20, "--max-steps", min=0, help="Most edits per episode."),
    time_budget: float = typer.Option(20.0, "--time-budget", min=0.0, help="Seconds per episode (0: no limit)."),
    target: float = typer.Option(0.8, "--target", min=0.0, help="Required share of the gap closed."),
    json_path: Path | None = typer.Option(None, "--json", help="Also write the rows (and every episode) as JSON."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Episodes run in parallel processes."),
) -> None:
    """Run a planner on held-out seeds of the generated tasks and print the table; see ``EVAL_HELP``."""
    from assistant.app.evaluation import evaluate_planner, overall
    from assistant.planners import get_planner
    from assistant.seeds import parse_seeds

    try:
        seed_list = parse_seeds(seeds)
        get_planner(planner)
        from assistant.env.tasks import TASKS, task_names

        names = [t.strip() for t in tasks.split(",") if t.strip()] if tasks else task_names()
        unknown = [t for t in names if t not in TASKS]
        if unknown:
            fail(f"unknown task {unknown[0]!r}; known tasks: {', '.join(task_names())}")
        rows = evaluate_planner(planner, tasks=names, seeds=seed_list, max_steps=max_steps,
                                time_budget=time_budget or None, jobs=jobs)
    except LayoutError as exc:
        fail(exc)
    table = Table(title=f"planner {planner} on seeds {seeds}", title_justify="left")
    for col in ("task", "n", "start", "end", "clean", "closed", "steps", "s/ep", "valid", "worse"):
        table.add_column(col, justify="left" if col == "task" else "right", no_wrap=True)
    total = overall(rows)
    for r in [*rows, total]:
        table.add_row(r.task, str(r.episodes), f"{r.start:.3f}", f"{r.end:.3f}", f"{r.clean:.3f}",
                      f"{r.gap_closed:.0%}", f"{r.steps:.1f}", f"{r.seconds:.2f}", f"{r.valid_rate:.0%}",
                      str(r.worse), style="bold" if r is total else "")
    console = Console(highlight=False)
    console.print(table)
    console.print("n: episodes; closed: share of the start→clean composite gap closed; "
                  "valid: valid-action rate; worse: episodes that ended below their start")
    if json_path is not None:
        from assistant.app.outputs import atomic_write

        payload = {"planner": planner, "seeds": seed_list,
                   "rows": [r.as_dict() for r in [*rows, total]],
                   "episodes": [e.__dict__ for r in rows for e in r.details]}
        atomic_write(json_path, json.dumps(payload, indent=2).encode("utf-8"))
    if total.gap_closed < target or total.valid_rate < 1.0:
        raise typer.Exit(1)
