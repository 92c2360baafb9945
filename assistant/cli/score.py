"""``layout-assistant score``: the metric report of SVG layouts."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from assistant.cli import app
from assistant.errors import printable

SCORE_HELP = """Measure the design quality of SVG layouts.

For each file: the composite score (0–1, higher is better), every metric
with its score and weight, and the findings — what is wrong and which
element ids it concerns — worst first. PATHS are files, folders or globs.
With --instruction the instruction-fit metric scores how well each layout
follows the request. Exit code 1 when a file could not be read.

Examples:

  layout-assistant score examples/poster.svg

  layout-assistant score examples/ --json > scores.json

  layout-assistant score flyer.svg --instruction "logo top right, 48 px margins"
"""


def print_score(console: Console, fs: object, max_findings: int) -> None:
    """Print one file's metric table and findings (or its error)."""
    source = escape(printable(str(fs.source), one_line=True))
    report = fs.report
    if report is None:
        console.print(f"[red]{source}: FAILED[/red] — {escape(printable(str(fs.error)))}")
        return
    table = Table(title=f"{source}: composite {report.composite:.3f}", title_justify="left")
    table.add_column("metric")
    table.add_column("score", justify="right")
    table.add_column("weight", justify="right")
    table.add_column("findings", justify="right")
    for name, m in report.metrics.items():
        style = "dim" if not m.applicable else ("red" if m.score < 0.5 else ("yellow" if m.score < 0.8 else ""))
        table.add_row(name, f"{m.score:.3f}", f"{report.weights.get(name, 0.0):.3f}",
                      str(len(m.findings)), style=style)
    console.print(table)
    findings = report.findings()
    for f in findings[:max_findings]:
        shown = escape(printable(", ".join(f.element_ids), one_line=True))
        ids = f" [dim]({shown})[/dim]" if f.element_ids else ""
        colour = {"high": "red", "medium": "yellow"}.get(f.severity, "dim")
        message = escape(printable(f.message))
        console.print(f"  [{colour}]{escape(f'[{f.severity}]')}[/{colour}] {f.metric}: {message}{ids}")
    if len(findings) > max_findings:
        console.print(f"  … and {len(findings) - max_findings} more (see --json)")
    for phrase in getattr(fs, "not_understood", []):
        console.print(f"  [yellow]not understood in the instruction: {escape(printable(phrase))}[/yellow]")


@app.command("score", help=SCORE_HELP)
def score(
    paths: list[str] = typer.Argument(..., help="SVG files, folders or glob patterns.", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document instead of tables."),
    instruction: str | None = typer.Option(None, "--instruction", "-i", help="Also score the fit to this request."),
    max_findings: int = typer.Option(10, "--max-findings", min=0, help="Findings shown per file."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write the JSON report to this file."),
) -> None:
    """Print the composite, metric scores and findings of every file (or one JSON document); see ``SCORE_HELP``."""
    from assistant.app.scoring import score_paths

    results = score_paths(paths, instruction)
    if as_json or out is not None:
        payload = json.dumps({"files": [r.to_json() for r in results]}, indent=2)
        if out is not None:
            from assistant.app.outputs import atomic_write

            atomic_write(out, payload.encode("utf-8"))
        else:
            typer.echo(payload)
    if not as_json:
        console = Console(highlight=False, soft_wrap=True)
        for r in results:
            print_score(console, r, max_findings)
    if any(not r.ok for r in results):
        raise typer.Exit(1)
