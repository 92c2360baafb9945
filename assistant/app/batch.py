"""The per-file fix pipeline behind ``layout-assistant fix``, parallel over files.

For each input file: import → compile the instruction → score → run the
planner (``assistant.planners.loop.run_planner``) → export the SVG (and any
extra formats) atomically → score again. Every file yields one ``FileResult``;
a file that fails (unreadable, not an SVG, unwritable output, …) yields a
result with ``ok=False`` and the reason, and the batch goes on.

Files run in a ``concurrent.futures.ProcessPoolExecutor`` when ``jobs > 1``;
results come back in input order whatever order the workers finish in, so the
output is deterministic.
"""

from __future__ import annotations

import glob
import os
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from assistant.errors import ExportError, LayoutError

SVG_SUFFIXES = (".svg", ".svgz")


@dataclass(frozen=True)
class FixOptions:
    """How to fix every file of a batch (picklable: it crosses process boundaries)."""

    out_dir: str | None = None
    in_place: bool = False
    planner: str = "heuristic"
    planner_options: tuple[tuple[str, Any], ...] = ()
    instruction: str | None = None
    max_steps: int = 20
    time_budget: float | None = 20.0
    lock: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()
    thumbnails: bool = False
    thumbnail_size: int = 360


@dataclass
class FileResult:
    """What happened to one input file (a plain, JSON-ready record)."""

    source: str
    output: str | None = None
    ok: bool = False
    error: str | None = None
    score_before: float | None = None
    score_after: float | None = None
    metrics_before: dict[str, float] = field(default_factory=dict)
    metrics_after: dict[str, float] = field(default_factory=dict)
    edits: list[dict[str, Any]] = field(default_factory=list)
    changes: dict[str, list[str]] = field(default_factory=dict)
    findings_after: list[dict[str, Any]] = field(default_factory=list)
    extra_outputs: list[str] = field(default_factory=list)
    backup: str | None = None
    stopped: str | None = None
    proposed: int = 0
    valid: int = 0
    not_understood: list[str] = field(default_factory=list)
    #: elements in the file, and how many no edit may touch (locked in the file or by ``--lock``)
    elements: int = 0
    locked: int = 0
    seconds: float = 0.0
    thumb_before: bytes | None = None
    thumb_after: bytes | None = None

    @property
    def elements_changed(self) -> int:
        return len(self.changes)

    def summary(self) -> dict[str, Any]:
        """JSON-ready dict (thumbnails left out)."""
        d = asdict(self)
        d.pop("thumb_before")
        d.pop("thumb_after")
        d["elements_changed"] = self.elements_changed
        return d


@dataclass(frozen=True)
class Job:
    """One input file and where its result goes."""

    source: Path
    output: Path | None


def expand_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[FileResult]]:
    """Files named by ``paths`` (files, folders searched recursively for SVGs, globs).

    Returns the files in a stable order without duplicates, and a failed
    ``FileResult`` for each argument that matched nothing.
    """
    files: list[Path] = []
    missing: list[FileResult] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(q for q in p.rglob("*") if q.suffix.lower() in SVG_SUFFIXES and q.is_file())
            if not found:
                missing.append(FileResult(source=str(p), error="folder holds no .svg files"))
            files.extend(found)
        elif p.exists():
            files.append(p)
        elif glob.has_magic(str(raw)):
            found = sorted(Path(q) for q in glob.glob(str(raw), recursive=True) if Path(q).is_file())
            if not found:
                missing.append(FileResult(source=str(raw), error="pattern matches no files"))
            files.extend(found)
        else:
            missing.append(FileResult(source=str(raw), error="no such file or folder"))
    seen: set[Path] = set()
    unique = []
    for f in files:
        key = f.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, missing


def plan_jobs(files: list[Path], options: FixOptions) -> list[Job]:
    """Pair each file with its output path: ``out_dir/<name>`` (``-2``, ``-3`` … on clashes)."""
    if options.in_place:
        return [Job(f, f) for f in files]
    if options.out_dir is None:
        return [Job(f, None) for f in files]
    out = Path(options.out_dir)
    used: set[str] = set()
    jobs = []
    for f in files:
        stem, suffix = f.stem, ".svg"
        name, n = f"{stem}{suffix}", 1
        while name in used:
            n += 1
            name = f"{stem}-{n}{suffix}"
        used.add(name)
        jobs.append(Job(f, out / name))
    return jobs


def _metric_scores(report: Any) -> dict[str, float]:
    return {name: round(float(r.score), 4) for name, r in report.metrics.items()}


def _findings(report: Any, limit: int = 20) -> list[dict[str, Any]]:
    """The ``limit`` worst findings (``MetricReport.findings`` order) as dicts."""
    return [{"metric": f.metric, "element_ids": list(f.element_ids), "message": f.message,
             "severity": f.severity} for f in report.findings()[:limit]]


def _thumbnail(doc: Any, size: int) -> bytes | None:
    from assistant.render.raster import render_png

    canvas = doc.layout.canvas
    if canvas.width >= canvas.height:
        return render_png(doc, width=size)
    return render_png(doc, height=size)


def fix_file(job: Job, options: FixOptions) -> FileResult:
    """Fix one file; failures that concern the file come back as ``ok=False``."""
    t0 = time.monotonic()
    result = FileResult(source=str(job.source))
    try:
        _fix_into(job, options, result)
        result.ok = True
    except (LayoutError, OSError) as exc:
        result.error = _reason(exc)
    result.seconds = round(time.monotonic() - t0, 3)
    return result


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}"
    return str(exc) or type(exc).__name__


def _fix_into(job: Job, options: FixOptions, result: FileResult) -> None:
    from assistant.metrics import evaluate
    from assistant.planners import get_planner
    from assistant.planners.loop import run_planner
    from assistant.importer import import_svg

    doc = import_svg(job.source)
    result.elements = len(doc.layout.elements)
    result.locked = sum(e.locked or e.id in options.lock for e in doc.layout.elements)
    constraints, keep = [], []
    if options.instruction:
        from assistant.instructions.brief import compile_for_planner

        constraints, keep, result.not_understood = compile_for_planner(options.instruction, doc.layout)
    before = evaluate(doc.layout, constraints=constraints or None)
    result.score_before = round(before.composite, 4)
    result.metrics_before = _metric_scores(before)
    if options.thumbnails:
        result.thumb_before = _thumbnail(doc, options.thumbnail_size)
    planner = get_planner(options.planner, **dict(options.planner_options))
    run = run_planner(doc, planner, constraints=constraints, instruction=options.instruction,
                      locked=options.lock, keep=keep, max_steps=options.max_steps,
                      time_budget=options.time_budget)
    after = run.end
    result.score_after = round(after.composite, 4)
    result.metrics_after = _metric_scores(after)
    result.findings_after = _findings(after)
    result.edits = [{"action": s.action, "reason": s.reason, "metric": s.metric,
                     "changed_ids": list(s.changed_ids),
                     "before": round(s.composite_before, 4), "after": round(s.composite_after, 4)}
                    for s in run.steps]
    result.changes = {k: list(v) for k, v in run.changes.items()}
    result.stopped, result.proposed, result.valid = run.stopped, run.proposed, run.valid
    if options.thumbnails:
        result.thumb_after = _thumbnail(doc, options.thumbnail_size)
    if job.output is not None:
        _write_outputs(doc, job, options, result)


def _write_outputs(doc: Any, job: Job, options: FixOptions, result: FileResult) -> None:
    from assistant.app.formats import get_exporter
    from assistant.app.outputs import atomic_write
    from assistant.svg.write import export_svg

    assert job.output is not None
    if options.in_place:
        backup = job.source.with_name(job.source.name + ".bak")
        atomic_write(backup, job.source.read_bytes())
        result.backup = str(backup)
    data = export_svg(doc)
    job.output.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(job.output, data)
    result.output = str(job.output)
    for fmt in options.formats:
        if fmt == "svg":
            continue
        exporter = get_exporter(fmt)
        target = job.output.with_suffix(f".{fmt}")
        payload = exporter(doc)
        if not isinstance(payload, bytes):
            raise ExportError(f"exporter {fmt!r} returned {type(payload).__name__}, not bytes")
        atomic_write(target, payload)
        result.extra_outputs.append(str(target))


def _crash(job: Job, exc: BaseException) -> FileResult:
    """A result for an unexpected exception: a bug, reported with its traceback, batch goes on."""
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-3))
    return FileResult(source=str(job.source), error=f"internal error {type(exc).__name__}: {exc}\n{tb}")


def run_batch(
    jobs: list[Job],
    options: FixOptions,
    *,
    workers: int | None = None,
    on_result: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Fix every job, ``workers`` processes at a time (default: all cores).

    ``on_result`` is called as each file finishes (progress bars). Results are
    returned in the order of ``jobs``.
    """
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs) or 1))
    results: list[FileResult | None] = [None] * len(jobs)
    if workers == 1:
        for i, job in enumerate(jobs):
            try:
                results[i] = fix_file(job, options)
            except Exception as exc:  # one file's bug must not stop the batch
                results[i] = _crash(job, exc)
            if on_result:
                on_result(results[i])  # type: ignore[arg-type]
        return [r for r in results if r is not None]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(fix_file, job, options): i for i, job in enumerate(jobs)}
        for future in as_completed(futures):
            i = futures[future]
            try:
                results[i] = future.result()
            except Exception as exc:  # a worker's bug (or death) must not stop the batch
                results[i] = _crash(jobs[i], exc)
            if on_result:
                on_result(results[i])  # type: ignore[arg-type]
    return [r for r in results if r is not None]


__all__ = ["FixOptions", "FileResult", "Job", "expand_paths", "plan_jobs", "fix_file", "run_batch"]
