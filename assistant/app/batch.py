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

import ctypes
import glob
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from assistant.app.formats import export
from assistant.app.outputs import replace_input, write_output
from assistant.document import Document
from assistant.errors import LayoutError
from assistant.importer import import_svg
from assistant.instructions.brief import compile_brief
from assistant.metrics import MetricReport
from assistant.planners import get_planner
from assistant.planners.base import PlanResult
from assistant.planners.loop import run_planner
from assistant.render.raster import render_png

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
    #: The render checks (``assistant.render.inkmap``): edits refused for visible damage, and what the
    #: kept edits together show against the original (new text collisions, ink off the page, clipped labels).
    render: dict[str, int] = field(default_factory=dict)
    #: elements in the file, and how many no edit may touch (locked in the file or by ``--lock``)
    elements: int = 0
    locked: int = 0
    seconds: float = 0.0
    thumb_before: bytes | None = None
    thumb_after: bytes | None = None

    @property
    def elements_changed(self) -> int:
        """Number of elements the edits changed."""
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
    """One input file, where its result goes, and why it cannot run (``refused``) if it cannot."""

    source: Path
    output: Path | None
    refused: str | None = None


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
    """Pair each file with its output path: ``out_dir/<name>.svg``.

    Two inputs with the same name get ``<name>-2.svg``, ``<name>-3.svg`` … — a
    name no other input has as its own and no file in ``out_dir`` already has,
    so de-duplication never overwrites anything. An output that would be one of
    the inputs (``--out`` naming the inputs' own folder) is refused for that
    file: only ``--in-place`` rewrites inputs.
    """
    if options.in_place:
        return [Job(f, f) for f in files]
    if options.out_dir is None:
        return [Job(f, None) for f in files]
    out = Path(options.out_dir)
    inputs = {f.resolve() for f in files}
    natural = {f"{f.stem}.svg" for f in files}
    used: set[str] = set()
    jobs = []
    for f in files:
        name, n = f"{f.stem}.svg", 1
        while name in used:
            n += 1
            name = f"{f.stem}-{n}.svg"
            if name in natural or os.path.lexists(out / name):
                name = f.stem + ".svg"  # taken by another input or an existing file: try the next number
        used.add(name)
        target = out / name
        refused = None
        if target.resolve() in inputs:
            refused = (f"the output {target} would replace an input file; write to another folder "
                       "(or use --in-place, which keeps a backup)")
        jobs.append(Job(f, target, refused))
    return jobs


def _metric_scores(report: MetricReport) -> dict[str, float]:
    return {name: round(float(r.score), 4) for name, r in report.metrics.items()}


def _findings(report: MetricReport, limit: int = 20) -> list[dict[str, Any]]:
    """The ``limit`` worst findings (``MetricReport.findings`` order) as dicts."""
    return [{"metric": f.metric, "element_ids": list(f.element_ids), "message": f.message,
             "severity": f.severity} for f in report.findings()[:limit]]


def _thumbnail(doc: Document, size: int) -> bytes | None:
    canvas = doc.layout.canvas
    if canvas.width >= canvas.height:
        return render_png(doc, width=size)
    return render_png(doc, height=size)


def fix_file(job: Job, options: FixOptions) -> FileResult:
    """Fix one file; failures that concern the file come back as ``ok=False``."""
    t0 = time.monotonic()
    result = FileResult(source=str(job.source))
    if job.refused:
        result.error = job.refused
        return result
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


def improve(doc: Document, options: FixOptions) -> PlanResult:
    """Improve ``doc`` in place as ``layout-assistant fix`` does with ``options`` (brief, planner, budgets)."""
    brief = compile_brief(options.instruction, doc.layout)
    planner = get_planner(options.planner, **dict(options.planner_options))
    run = run_planner(doc, planner, constraints=brief.constraints, instruction=options.instruction,
                      locked=options.lock, keep=brief.keep_ids, max_steps=options.max_steps,
                      time_budget=options.time_budget)
    run.not_understood = list(brief.not_understood)
    return run


def _fix_into(job: Job, options: FixOptions, result: FileResult) -> None:
    doc = import_svg(job.source)
    result.elements = len(doc.layout.elements)
    result.locked = sum(e.locked or e.id in options.lock for e in doc.layout.elements)
    if options.thumbnails:
        result.thumb_before = _thumbnail(doc, options.thumbnail_size)
    run = improve(doc, options)
    before, after = run.start, run.end
    result.not_understood = run.not_understood
    result.score_before = round(before.composite, 4)
    result.metrics_before = _metric_scores(before)
    result.score_after = round(after.composite, 4)
    result.metrics_after = _metric_scores(after)
    result.findings_after = _findings(after)
    result.edits = [{"action": s.action, "reason": s.reason, "metric": s.metric,
                     "changed_ids": list(s.changed_ids),
                     "before": round(s.composite_before, 4), "after": round(s.composite_after, 4)}
                    for s in run.steps]
    result.changes = {k: list(v) for k, v in run.changes.items()}
    result.stopped, result.proposed, result.valid = run.stopped, run.proposed, run.valid
    damage = run.damage
    result.render = {"rejected": len(run.rejected),
                     "new_collisions": len(damage.new_collisions) if damage else 0,
                     "off_page": len(damage.off_page) if damage else 0,
                     "clipped": len(damage.clipped) if damage else 0}
    if options.thumbnails:
        result.thumb_after = _thumbnail(doc, options.thumbnail_size)
    if job.output is not None:
        _write_outputs(doc, job, options, result)


def _write_outputs(doc: Document, job: Job, options: FixOptions, result: FileResult) -> None:
    assert job.output is not None
    _check_parent_alive()
    svg = export(doc, "svg")
    extra = {fmt: export(doc, fmt) for fmt in options.formats if fmt != "svg"}
    if options.in_place:
        result.backup = str(replace_input(job.source, svg))
    else:  # a re-run into the same folder replaces that folder's earlier results
        write_output(job.output, svg, inputs=[job.source], overwrite=True)
    result.output = str(job.output)
    for fmt, payload in extra.items():
        target = job.output.with_suffix(f".{fmt}")
        write_output(target, payload, inputs=[job.source], overwrite=True)
        result.extra_outputs.append(str(target))


def _crash(job: Job, exc: BaseException) -> FileResult:
    """A result for an unexpected exception: a bug, reported with its traceback, batch goes on."""
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-3))
    return FileResult(source=str(job.source), error=f"internal error {type(exc).__name__}: {exc}\n{tb}")


#: The message of a file a stopped batch never reached.
NOT_PROCESSED = "not processed: the batch was stopped before this file"


class BatchInterrupted(LayoutError):
    """The batch was stopped (Ctrl-C, SIGTERM).

    ``results`` holds every file, the unreached ones as :data:`NOT_PROCESSED`.
    Files written before the stop are complete (atomic writes).
    """

    def __init__(self, results: list[FileResult]) -> None:
        done = sum(r.error != NOT_PROCESSED for r in results)
        super().__init__(f"the batch was stopped: {done} of {len(results)} files processed")
        self.results = results


#: The batch's process, as seen by a worker (None in the batch's own process).
_PARENT: int | None = None


def _worker_start(parent: int) -> None:
    """Worker initializer: die with the batch's process, so no worker goes on rewriting files alone."""
    global _PARENT
    _PARENT = parent
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    _check_parent_alive()


_PR_SET_PDEATHSIG = 1


def _check_parent_alive() -> None:
    """In a worker: stop at once, writing nothing, when the batch's process is gone."""
    if _PARENT is not None and os.getppid() != _PARENT:
        os._exit(1)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: drop the queued files and end the workers (their writes are atomic)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


def run_batch(
    jobs: list[Job],
    options: FixOptions,
    *,
    workers: int | None = None,
    on_result: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Fix every job, ``workers`` processes at a time (default: all cores).

    ``on_result`` is called as each file finishes (progress bars). Results are
    returned in the order of ``jobs``. Workers die with the calling process; a
    ``KeyboardInterrupt`` (Ctrl-C, or SIGTERM turned into one by the CLI) stops
    the batch and raises :class:`BatchInterrupted` with every file's result.
    """
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs) or 1))
    results: list[FileResult | None] = [None] * len(jobs)

    def done(i: int, result: FileResult) -> None:
        results[i] = result
        if on_result:
            on_result(result)

    try:
        if workers == 1:
            for i, job in enumerate(jobs):
                try:
                    result = fix_file(job, options)
                except Exception as exc:  # one file's bug must not stop the batch
                    result = _crash(job, exc)
                done(i, result)
        else:
            pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),))
            try:
                futures = {pool.submit(fix_file, job, options): i for i, job in enumerate(jobs)}
                for future in as_completed(futures):
                    i = futures[future]
                    try:
                        result = future.result()
                    except Exception as exc:  # a worker's bug (or death) must not stop the batch
                        result = _crash(jobs[i], exc)
                    done(i, result)
            except BaseException:
                _stop(pool)
                raise
            pool.shutdown(wait=True)
    except KeyboardInterrupt:
        raise BatchInterrupted([r if r is not None else FileResult(source=str(job.source), error=NOT_PROCESSED)
                                for r, job in zip(results, jobs)]) from None
    return [r for r in results if r is not None]


__all__ = ["BatchInterrupted", "NOT_PROCESSED", "FixOptions", "FileResult", "Job", "expand_paths", "plan_jobs",
           "fix_file", "run_batch"]
