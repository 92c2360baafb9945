"""``layout-assistant planners``: list the registered planners."""

from __future__ import annotations

from rich.console import Console

from assistant.cli import app
from assistant.planners import available_planners

PLANNERS_HELP = """List the registered planners (use one with `fix --planner NAME`).

Example:

  layout-assistant planners
"""


@app.command("planners", help=PLANNERS_HELP)
def planners() -> None:
    """Print each registered planner's name and one-line description."""
    console = Console(highlight=False)
    for name, text in available_planners().items():
        console.print(f"[bold]{name}[/bold]  {text}")
