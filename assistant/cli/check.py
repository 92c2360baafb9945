"""``layout-assistant check``: a layout lint for CI pipelines."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

from assistant.cli import app
from assistant.errors import printable

CHECK_HELP = """Fail when a layout scores below a threshold (for CI).

Scores every file (files, folders, globs) and prints PASS or FAIL with the
composite score; each failing layout is followed by the findings to fix,
worst first, naming the element ids. Nothing is written.

Exit codes: 0 every layout scores at least --min-score; 1 some layout is
below it or could not be read; 2 a usage error.

Examples:

  layout-assistant check designs/ --min-score 0.75

  layout-assistant check 'build/**/*.svg' --min-score 0.8 --instruction "48 px margins"
"""


@app.command("check", help=CHECK_HELP)
def check(
    paths: list[str] = typer.Argument(..., help="SVG files, folders or glob patterns.", show_default=False),
    min_score: float = typer.Option(..., "--min-score", min=0.0, max=1.0,
                                    help="Lowest acceptable composite score (0–1)."),
    instruction: str | None = typer.Option(None, "--instruction", "-i", help="Also score the fit to this request."),
    max_findings: int = typer.Option(8, "--max-findings", min=0, help="Findings shown per failing file."),
) -> None:
    """Score every file and exit with status 1 when one scores below ``--min-score``; see ``CHECK_HELP``."""
    from assistant.app.scoring import score_paths

    console = Console(highlight=False, soft_wrap=True)
    results = score_paths(paths, instruction)
    failing = 0
    for r in results:
        name = escape(printable(r.source, one_line=True))
        if not r.ok:
            failing += 1
            console.print(f"[red]FAIL[/red] {name}: {escape(printable(str(r.error)))}")
            continue
        score = r.report.composite
        if score >= min_score:
            console.print(f"[green]PASS[/green] {name}: {score:.3f}")
            continue
        failing += 1
        console.print(f"[red]FAIL[/red] {name}: {score:.3f} < {min_score:.3f}; fix:")
        for f in r.report.findings()[:max_findings]:
            ids = f" ({escape(printable(', '.join(f.element_ids), one_line=True))})" if f.element_ids else ""
            console.print(f"    {f.metric}: {escape(printable(f.message))}{ids}")
    console.print(f"{len(results) - failing} passed, {failing} failed (min score {min_score:.3f})")
    if failing:
        raise typer.Exit(1)
