"""``layout-assistant tasks``: list the generated tasks and export their layouts."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from assistant.cli import app
from assistant.cli._common import fail
from assistant.errors import LayoutError

tasks_app = typer.Typer(
    help=(
        "Generated layout tasks (seeded, realistically broken layouts).\n\n"
        "Examples:\n\n"
        "  layout-assistant tasks list\n\n"
        "  layout-assistant tasks export --task poster --seeds 0-9 --out tasks/"
    ),
    no_args_is_help=True,
)
app.add_typer(tasks_app, name="tasks")

EXPORT_HELP = """Write generated layouts as SVG files.

For every seed, writes TASK-SEED.svg (the broken layout the planner starts
from) into --out; with --clean also TASK-SEED-clean.svg (the reference) and
with --instruction-file TASK-SEED.txt (the task's instruction). Seeds are
ranges or lists: 0-9, 1,3,5, 0-4,10. --ids varied names the elements as real
files name them (slide-title, headline, text1234: a style drawn per seed;
or one style: prefixed, synonyms, tool) instead of the generators' ids.

Examples:

  layout-assistant tasks export --task poster --seeds 0-9 --out tasks/

  layout-assistant tasks export --task flyer --seeds 3,7 --out tasks/ --clean

  layout-assistant tasks export --task slide --seeds 0-4 --out tasks/ --ids varied
"""


@tasks_app.command("list", help="List the task names with their canvas and instruction.\n\n"
                                "Example:\n\n  layout-assistant tasks list")
def list_tasks() -> None:
    """Print a table of the tasks: difficulty, canvas, description and the instruction of seed 0."""
    from assistant.env.tasks import TASKS, make_task, task_names

    table = Table(title="tasks (easiest first)", title_justify="left")
    table.add_column("task")
    table.add_column("difficulty")
    table.add_column("canvas", justify="right")
    table.add_column("description")
    table.add_column("instruction (seed 0)")
    for name in task_names():
        task = make_task(name, 0)
        canvas = task.broken.layout.canvas
        table.add_row(name, TASKS[name].difficulty, f"{canvas.width:g}×{canvas.height:g}",
                      TASKS[name].description, task.instruction or "")
    Console(highlight=False, soft_wrap=True).print(table)


@tasks_app.command("export", help=EXPORT_HELP)
def export_tasks(
    task: str = typer.Option(..., "--task", "-t", help="Task name (see `layout-assistant tasks list`)."),
    seeds: str = typer.Option("0-9", "--seeds", help="Seeds: 0-9, 1,3,5 or 0-4,10."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write into (created if needed)."),
    clean: bool = typer.Option(False, "--clean", help="Also write the clean reference layout."),
    instruction_file: bool = typer.Option(False, "--instruction-file", help="Also write the instruction as .txt."),
    ids: str = typer.Option("plain", "--ids", help="Element ids: plain, varied, prefixed, synonyms or tool."),
) -> None:
    """Write the broken layouts of a task's seeds (clean ones and instructions if asked); see ``EXPORT_HELP``."""
    from assistant.app.outputs import atomic_write
    from assistant.env.tasks import TASKS, make_task, task_names
    from assistant.env.tasks.ids import STYLES
    from assistant.seeds import parse_seeds

    if task not in TASKS:
        fail(f"unknown task {task!r}; known tasks: {', '.join(task_names())}")
    if ids not in ("plain", "varied", *STYLES):
        fail(f"unknown --ids {ids!r}; use plain, varied, {', '.join(STYLES)}")
    try:
        seed_list = parse_seeds(seeds)
    except LayoutError as exc:
        fail(exc)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create output folder {str(out)!r}: {exc.strerror or exc}")
    console = Console(highlight=False)
    written = 0
    for seed in seed_list:
        t = make_task(task, seed, ids=ids)
        try:
            atomic_write(out / f"{task}-{seed}.svg", t.broken_svg.encode("utf-8"))
            if clean:
                atomic_write(out / f"{task}-{seed}-clean.svg", t.clean_svg.encode("utf-8"))
            if instruction_file:
                atomic_write(out / f"{task}-{seed}.txt", (t.instruction or "").encode("utf-8"))
        except (LayoutError, OSError) as exc:
            fail(f"cannot write into {str(out)!r}: {getattr(exc, 'strerror', None) or exc}")
        written += 1
    console.print(f"wrote {written} {task} layout{'s' * (written != 1)} to {out}")
