"""``layout-assistant fix``: improve many SVG layouts at once."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from assistant.cli import app
from assistant.cli._common import fail
from assistant.errors import LayoutError

FIX_HELP = """Improve SVG layouts and write the fixed files.

PATHS are SVG files, folders (searched recursively for .svg files) or glob
patterns. Each layout is scored, improved by a planner one edit at a time —
an edit is kept only when it raises the composite score — and written to
--out DIR under its own name. Inputs are never modified unless you pass
--in-place, which first keeps a backup (FILE.svg.bak; FILE.svg.bak.2 … when
that exists, so the original is never lost). One bad file never stops the
batch: it is reported with its reason and the exit code is 1. Ctrl-C (or
SIGTERM) stops the batch: the files written are complete, the rest are listed
and the exit code is 130.

Exit codes: 0 all files fixed (and at or above --min-score); 1 some file
failed or ended below --min-score; 2 a usage error; 130 stopped.

Examples:

  layout-assistant fix examples/ --out out/ --report out/report.html

  layout-assistant fix 'flyers/*.svg' --out fixed/ --instruction "logo top right" --lock photo --formats png,pdf

  layout-assistant fix poster.svg --in-place --max-steps 10
"""


def _split(values: list[str] | None) -> list[str]:
    """Values given repeatedly and/or comma-separated, in order, without blanks."""
    out: list[str] = []
    for v in values or []:
        out.extend(p.strip() for p in v.split(",") if p.strip())
    return out


def parse_planner_options(values: list[str] | None) -> dict[str, object]:
    """``KEY=VALUE`` pairs for the planner factory.

    VALUE is read as JSON when it parses (``beam_width=3``, ``temperature=0.2``,
    ``verbose=true``), else kept as text.
    """
    out: dict[str, object] = {}
    for item in values or []:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key.isidentifier():
            fail(f"--planner-option {item!r}: write it as KEY=VALUE, e.g. beam_width=3")
        try:
            out[key] = json.loads(raw)
        except ValueError:
            out[key] = raw
    return out


def _check_writable_dir(path: Path, what: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create {what} {str(path)!r}: {exc.strerror or exc}")
    if not path.is_dir():
        fail(f"{what} {str(path)!r} is not a folder")
    if not os.access(path, os.W_OK | os.X_OK):
        fail(f"{what} {str(path)!r} is not writable")


def _check_formats(formats: list[str]) -> tuple[str, ...]:
    from assistant.app.formats import get_exporter

    for fmt in formats:
        try:
            get_exporter(fmt)
        except LayoutError as exc:
            fail(f"--formats: {exc}")
    return tuple(dict.fromkeys(formats))


def _result_line(r: object) -> str:
    name = escape(str(r.source))
    if not r.ok:
        return f"[red]{name}: FAILED[/red] — {escape(str(r.error).splitlines()[0])}"
    b, a = r.score_before, r.score_after
    edits, changed = len(r.edits), r.elements_changed
    colour = "green" if a > b else "dim"
    reasons = [str(e.get("reason", "")) for e in r.edits]
    own = sum("the model's own choice" in x for x in reasons)  # local/remote model planners
    fixes = sum("suggested fix" in x for x in reasons)
    mine = (f", {own} the model's own choice, {fixes} suggested fix{'es' * (fixes != 1)}"
            if any(" model: " in x or "suggested fix" in x for x in reasons) else "")
    total, locked = r.elements, r.locked
    if edits == 0 and total and locked == total:
        return (f"{name}: {b:.2f} → [dim]{a:.2f}[/dim] (0 edits: all {total} elements are locked in the file — "
                f"unlock them (an Inkscape layer lock, data-locked) to allow edits)")
    refused = r.render.get("rejected", 0) if r.render else 0
    checked = f", {refused} refused on the render" if refused else ""
    if edits == 0:
        return (f"{name}: {b:.2f} → [dim]{a:.2f}[/dim] (nothing to fix: no defect found and nothing asked"
                f"{checked})")
    return (f"{name}: {b:.2f} → [{colour}]{a:.2f}[/{colour}] "
            f"({edits} edit{'s' * (edits != 1)}{mine}, {changed} element{'s' * (changed != 1)} changed{checked})")


@app.command("fix", help=FIX_HELP)
def fix(
    paths: list[str] = typer.Argument(..., help="SVG files, folders or glob patterns.", show_default=False),
    out: Path | None = typer.Option(None, "--out", "-o", help="Folder for the fixed files (created if needed)."),
    in_place: bool = typer.Option(False, "--in-place", help="Overwrite each input, keeping a backup (FILE.bak) first."),
    planner: str = typer.Option("heuristic", "--planner", "-p",
                                help="Planner to use (see `layout-assistant planners`)."),
    planner_option: list[str] | None = typer.Option(
        None, "--planner-option", "-O", help="KEY=VALUE passed to the planner, e.g. beam_width=3 (repeatable)."),
    instruction: str | None = typer.Option(None, "--instruction", "-i",
                                           help='Plain-language request for every file, e.g. "logo top right".'),
    max_steps: int = typer.Option(20, "--max-steps", min=0, help="Most edits per file."),
    time_budget: float = typer.Option(20.0, "--time-budget", min=0.0,
                                      help="Seconds of planning per file (0: no limit)."),
    lock: list[str] | None = typer.Option(None, "--lock",
                                          help="Element id no edit may touch (repeatable, or comma-separated)."),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, help="Files processed in parallel (0: all cores)."),
    formats: str | None = typer.Option(None, "--formats", help="Extra output formats beside the SVG, e.g. png,pdf."),
    report: Path | None = typer.Option(None, "--report", help="Write an HTML report with before/after thumbnails."),
    json_path: Path | None = typer.Option(None, "--json", help="Write a JSON summary of every file."),
    min_score: float | None = typer.Option(None, "--min-score", min=0.0, max=1.0,
                                           help="Exit 1 if any fixed layout scores below this."),
    model: str | None = typer.Option(None, "--model", "-m",
                                     help="Model for --planner local (GGUF path, gemma or smollm2) or remote "
                                          "(model name)."),
    adapter: str | None = typer.Option(None, "--adapter",
                                       help="GGUF LoRA adapter over --model, for --planner local."),
    samples: int | None = typer.Option(None, "--samples", "-k", min=1, max=32,
                                       help="Different model answers per step (local: 16, remote: 1 unless "
                                            "given); the best by simulation wins."),
    base_url: str | None = typer.Option(None, "--base-url",
                                        help="OpenAI-compatible endpoint for --planner remote, e.g. http://127.0.0.1:8080/v1."),
) -> None:
    """Improve every file with a planner and write the results and reports; see ``FIX_HELP``."""
    from assistant.app.batch import NOT_PROCESSED, BatchInterrupted, FixOptions, expand_paths, plan_jobs, run_batch
    from assistant.planners import get_planner

    if in_place and out is not None:
        fail("--in-place and --out conflict: choose one (--in-place rewrites each input after a .bak backup)")
    if not in_place and out is None:
        fail("say where to write the results: --out DIR (or --in-place to rewrite the inputs)")
    planner_options = parse_planner_options(planner_option)
    planner_options.update({k: v for k, v in (("model", model), ("adapter", adapter), ("samples", samples),
                                              ("base_url", base_url)) if v is not None})
    try:
        get_planner(planner, **planner_options)
    except LayoutError as exc:
        fail(exc)
    fmts = _check_formats(_split([formats] if formats else []))
    if out is not None:
        _check_writable_dir(out, "output folder")
    for target, flag in ((report, "--report"), (json_path, "--json")):
        if target is not None:
            _check_writable_dir(target.parent if str(target.parent) else Path("."), f"{flag} folder")

    files, missing = expand_paths(paths)
    options = FixOptions(
        out_dir=str(out) if out is not None else None, in_place=in_place, planner=planner,
        planner_options=tuple(sorted(planner_options.items())),
        instruction=instruction, max_steps=max_steps, time_budget=time_budget or None,
        lock=tuple(_split(lock)), formats=fmts, thumbnails=report is not None,
    )
    jobs_list = plan_jobs(files, options)
    console = Console(highlight=False, soft_wrap=True)
    for r in missing:
        console.print(_result_line(r))
    with Progress(TextColumn("[bold]fixing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not jobs_list) as progress:
        task = progress.add_task("files", total=len(jobs_list))

        def on_result(r: object) -> None:
            progress.console.print(_result_line(r))
            progress.advance(task)

        interrupted = None
        previous = signal.signal(signal.SIGTERM, signal.default_int_handler)  # SIGTERM stops it like Ctrl-C
        try:
            results = run_batch(jobs_list, options, workers=jobs or None, on_result=on_result)
        except BatchInterrupted as exc:
            interrupted, results = exc, exc.results
        finally:
            signal.signal(signal.SIGTERM, previous)
    results = missing + results

    failed = [r for r in results if not r.ok]
    below = [r for r in results if r.ok and min_score is not None and (r.score_after or 0.0) < min_score]
    if json_path is not None:
        from assistant.app.outputs import atomic_write

        summary = {"planner": planner, "instruction": instruction, "min_score": min_score,
                   "files": [r.summary() for r in results], "partial": interrupted is not None,
                   "failed": len(failed), "below_min_score": [r.source for r in below]}
        atomic_write(json_path, json.dumps(summary, indent=2).encode("utf-8"))
    if report is not None:
        from exporters.report import write_report

        write_report(report, results, planner=planner, instruction=instruction)
    ok = [r for r in results if r.ok]
    mean_b = sum(r.score_before or 0 for r in ok) / len(ok) if ok else 0.0
    mean_a = sum(r.score_after or 0 for r in ok) / len(ok) if ok else 0.0
    console.print(f"[bold]{len(ok)} fixed, {len(failed)} failed[/bold]"
                  + (f"; mean score {mean_b:.3f} → {mean_a:.3f}" if ok else ""))
    for r in below:
        console.print(f"[yellow]{r.source}: {r.score_after:.3f} is below --min-score {min_score}[/yellow]")
    if report is not None:
        console.print(f"Report: {report}")
    if json_path is not None:
        console.print(f"Summary: {json_path}")
    if interrupted is not None:
        left = [r.source for r in results if r.error == NOT_PROCESSED]
        console.print(f"[red bold]{interrupted}[/red bold]; not processed: {len(left)} file(s)"
                      + (f", first {escape(left[0])}" if left else "")
                      + ". Files already written are complete; run again on the rest.")
        raise typer.Exit(130)
    if failed or below:
        raise typer.Exit(1)
