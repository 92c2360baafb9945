"""Fuzz the whole pipeline with mutated real designs, in parallel processes, and report the crashes.

Command (``make fuzz``; a nightly job at this count, it takes hours)::

    python -m tests.fuzz --count 100000 --jobs 0 --out fuzz-report

Each input is a file of the real corpus (``../shared/corpus``: real, osgeo
and resvg files under ``--max-seed-kb``) mutated one to three times: bytes
flipped, truncated, attribute values swapped for garbage (NaN, infinities,
1e308, 1e-300, units, broken references), tags duplicated or removed,
self-references added (``<use>``, ``clip-path``, ``mask``, ``fill``),
entity, DOCTYPE or huge-size injection, gzip compression. It then goes
through :func:`exercise`: import → metrics → one heuristic fix step →
render (a small PNG) and SVG export. The project's own errors
(``LayoutError``) are the expected way to refuse an input; anything else is
a crash, and so is an input that runs past ``--timeout`` seconds (a hang) or
over ``--memory-mb`` of address space (``MemoryError``).

The report (``--out``/report.md and report.json) groups the crashes by
exception type and by the project frame they were raised in, with the count,
the first message and the input that caused it saved as ``crash-<n>.svg``
(rerun it with ``python -m tests.fuzz --replay FILE``). The exit status is 1
when anything crashed. Inputs are numbered from ``--seed``, so a run is
reproducible and a range can be split across machines (``--start``).

The same mutators feed the property-based test ``tests/test_fuzz_import.py``
(hypothesis draws the choices there, a seeded ``random.Random`` here).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
import os
import random
import re
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("LAYOUT_ASSISTANT_SHARED", REPO.parent / "shared")) / "corpus"

GARBAGE = [
    "NaN", "nan", "inf", "-inf", "Infinity", "1e999", "-1e999", "1e308", "-1e308", "0", "-0", "-1", "1e-320",
    "1e-300", "5e-324", "", " ", "abc", "10%", "-50%", "1e5in", "12em", "3.4.5", "1,2,3", "url(#nope)", "url(#",
    "#", "none", "translate(", "rotate(1e308)", "scale(0)", "scale(1e300)", "matrix(0 0 0 0 0 0)", "M 0 0 L",
    "M 1e308 1e308 L -1e308 -1e308", "0 0 0 0", "0 0 -1 -1", "0 0 1e-300 1e-300", "0 0 1e308 1e308", "30000",
    "\u202e", "&amp;", "?",
]
_ATTR = re.compile(rb'="[^"]*"')
_TAG = re.compile(rb"<[A-Za-z][^<>]*?/?>")
_ID = re.compile(rb'\bid="([^"]+)"')


class Chooser(Protocol):
    """Where a mutator's choices come from (a seeded ``random.Random`` or hypothesis draws)."""

    def integer(self, lo: int, hi: int, label: str) -> int: ...

    def choice(self, items: Sequence[Any], label: str) -> Any: ...


class RandomChooser:
    """Choices from a seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def integer(self, lo: int, hi: int, label: str) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, items: Sequence[Any], label: str) -> Any:
        return items[self.rng.randrange(len(items))]


def flip(data: bytes, c: Chooser) -> bytes:
    if not data:
        return data
    buf = bytearray(data)
    for _ in range(c.integer(1, 8, "flips")):
        buf[c.integer(0, len(buf) - 1, "pos")] = c.integer(0, 255, "byte")
    return bytes(buf)


def truncate(data: bytes, c: Chooser) -> bytes:
    return data[: c.integer(0, len(data), "cut")]


def swap_attribute(data: bytes, c: Chooser) -> bytes:
    out = data
    for _ in range(c.integer(1, 4, "swaps")):
        spans = [m.span() for m in _ATTR.finditer(out)]
        if not spans:
            break
        a, b = spans[c.integer(0, len(spans) - 1, "attr")]
        value = c.choice(GARBAGE, "value").replace('"', "")
        out = out[:a] + b'="' + value.encode("utf-8") + b'"' + out[b:]
    return out


def tags(data: bytes, c: Chooser) -> bytes:
    spans = [m.span() for m in _TAG.finditer(data)]
    if not spans:
        return data
    a, b = spans[c.integer(0, len(spans) - 1, "tag")]
    if c.integer(0, 1, "duplicate"):
        return data[:b] + data[a:b] * c.integer(1, 50, "times") + data[b:]
    return data[:a] + data[b:]


def self_reference(data: bytes, c: Chooser) -> bytes:
    """Make an element with an id refer to itself or to another one (use, clip-path, mask, fill)."""
    ids = _ID.findall(data)
    if not ids:
        return data
    target = c.choice(ids, "target")
    ref = c.choice([b'<use href="#%s"/>', b'<rect width="9" height="9" clip-path="url(#%s)"/>',
                    b'<rect width="9" height="9" mask="url(#%s)"/>', b'<rect width="9" height="9" fill="url(#%s)"/>',
                    b"<use/>"], "reference")
    ref = ref % target if b"%s" in ref else ref
    m = list(re.finditer(rb'\bid="' + re.escape(target) + rb'"[^>]*?(/?)>', data))
    if not m:
        return data
    end = m[0]
    if end.group(1) == b"/":  # <x id="t"/> becomes <x id="t">ref</x>
        tag = re.search(rb"<([A-Za-z][\w:.-]*)[^<]*$", data[: end.start()])
        if tag is None:
            return data
        return data[: end.end() - 2] + b">" + ref + b"</" + tag.group(1) + b">" + data[end.end():]
    return data[: end.end()] + ref + data[end.end():]


def inject(data: bytes, c: Chooser) -> bytes:
    payload = c.choice([
        b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>',
        b'<!DOCTYPE svg SYSTEM "file:///etc/passwd">',
        b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        b"<?xml-stylesheet href='http://example.org/x.css'?>",
    ], "payload")
    m = re.search(rb"<svg\b", data)
    at = m.start() if m else 0
    return data[:at] + payload + data[at:]


def resize(data: bytes, c: Chooser) -> bytes:
    """Give the root a huge, tiny or absurd size."""
    m = re.search(rb"<svg\b", data)
    if m is None:
        return data
    size = c.choice([b'width="30000" height="30000"', b'width="1e308" height="1"', b'viewBox="0 0 1e-300 1e-300"',
                     b'width="0.0001" height="9e8"'], "size")
    return data[: m.end()] + b" " + size + data[m.end():]


def compress(data: bytes, c: Chooser) -> bytes:
    return gzip.compress(data, compresslevel=1)


#: Mutators, repeated by weight: most keep the XML well-formed, so that inputs get past the parser.
MUTATORS: list[Callable[[bytes, Chooser], bytes]] = [
    swap_attribute, swap_attribute, swap_attribute, self_reference, self_reference, tags, tags,
    flip, truncate, inject, resize, compress,
]


def mutate(seed_data: bytes, c: Chooser) -> bytes:
    """One to three rounds of mutation of ``seed_data``."""
    data = seed_data
    for _ in range(c.integer(1, 3, "rounds")):
        data = c.choice(MUTATORS, "mutator")(data, c)
    return data


def seed_files(max_kb: int = 300) -> list[Path]:
    """The corpus files used as seeds (smaller than ``max_kb``), in a stable order."""
    found = [p for d in ("resvg", "osgeo", "real") for p in sorted((CORPUS / d).rglob("*.svg"))
             if p.stat().st_size <= max_kb * 1024]
    if not found:
        raise SystemExit(f"no seed files under {CORPUS}: ../shared/corpus must sit beside the repository")
    return found


# -- the pipeline -------------------------------------------------------------------------------------------------


def exercise(data: bytes, *, render: bool = True, fix: bool = True, limits: Any = None) -> str:
    """Import → metrics → one heuristic fix step → small render and SVG export of ``data``.

    Returns ``"ok"`` or ``"refused"`` (a ``LayoutError``, the project's way to
    say no); any other exception propagates: that is a crash.
    """
    from assistant.errors import LayoutError
    from assistant.importer import import_svg_text

    try:
        doc = import_svg_text(data, source="fuzz.svg", limits=limits)
    except LayoutError:
        return "refused"
    ids = [e.id for e in doc.layout]
    assert len(ids) == len(set(ids)), "duplicate element ids"
    for e in doc.layout:
        assert all(math.isfinite(v) for v in e.box.as_tuple()), f"{e.id}: non-finite box"
        assert e.font_size is None or math.isfinite(e.font_size), f"{e.id}: non-finite font size"
    try:
        from assistant.metrics import evaluate

        report = evaluate(doc.layout)
        assert math.isfinite(report.composite), "non-finite composite score"
        if fix and len(doc.layout):
            from assistant.planners import get_planner
            from assistant.planners.loop import run_planner

            run_planner(doc, get_planner("heuristic"), max_steps=1, time_budget=10.0)
        if render:
            from assistant.render.raster import render_png
            from assistant.svg.write import export_svg

            export_svg(doc)
            canvas = doc.layout.canvas
            render_png(doc, width=96) if canvas.width >= canvas.height else render_png(doc, height=96)
    except LayoutError:
        return "refused"
    return "ok"


# -- the runner ---------------------------------------------------------------------------------------------------


class Hang(Exception):
    """An input ran past the time limit."""


@dataclass
class Crash:
    """Crashes of one kind: exception type and the project frame it came from."""

    kind: str
    where: str
    count: int = 0
    message: str = ""
    example: int = -1
    trace: str = ""


@dataclass
class Tally:
    ok: int = 0
    refused: int = 0
    crashes: dict[str, Crash] = field(default_factory=dict)


def _where(exc: BaseException) -> str:
    """``file:line in function`` of the innermost frame in the project's code (else the innermost one)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if str(REPO) in f.filename and "/tests/" not in f.filename]
    if not frames:
        return "?"

    def show(f: traceback.FrameSummary) -> str:
        name = os.path.relpath(f.filename, REPO) if str(REPO) in f.filename else "/".join(Path(f.filename).parts[-2:])
        return f"{name}:{f.lineno} in {f.name}"

    where = show((ours or frames)[-1])
    return where if not ours or frames[-1] is ours[-1] else f"{where} → {show(frames[-1])}"


def _input(index: int, seeds: list[Path], base_seed: int) -> bytes:
    """Input number ``index``: half of the seeds drawn are real designs (real/, osgeo/), half resvg cases."""
    chooser = RandomChooser(base_seed * 1_000_003 + index)
    designs = [p for p in seeds if "resvg" not in p.parts] or seeds
    pool = designs if chooser.integer(0, 1, "designs") else seeds
    seed = pool[chooser.integer(0, len(pool) - 1, "seed")]
    return mutate(seed.read_bytes(), chooser)


def _alarm(signum: int, frame: Any) -> None:
    raise Hang("the input ran past the time limit")


def _worker_init(memory_mb: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_mb > 0:
        try:
            import resource

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):
            pass


def _run_chunk(args: tuple[list[int], list[str], int, float, str]) -> Tally:
    indices, seed_paths, base_seed, timeout, out_dir = args
    seeds = [Path(p) for p in seed_paths]
    tally = Tally()
    signal.signal(signal.SIGALRM, _alarm)
    for i in indices:
        data = _input(i, seeds, base_seed)
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                outcome = exercise(data)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException as exc:  # a crash: anything but the project's own errors
            if isinstance(exc, KeyboardInterrupt):
                raise
            key = f"{type(exc).__name__} @ {_where(exc)}"
            crash = tally.crashes.get(key)
            if crash is None:
                crash = tally.crashes[key] = Crash(kind=type(exc).__name__, where=_where(exc),
                                                   message=str(exc)[:300], example=i,
                                                   trace="".join(traceback.format_exception(exc))[-4000:])
                Path(out_dir, f"crash-{i}.svg").write_bytes(data)
            crash.count += 1
            continue
        if outcome == "ok":
            tally.ok += 1
        else:
            tally.refused += 1
    return tally


def _merge(total: Tally, part: Tally) -> None:
    total.ok += part.ok
    total.refused += part.refused
    for key, c in part.crashes.items():
        have = total.crashes.get(key)
        if have is None:
            total.crashes[key] = c
        else:
            have.count += c.count
            if c.example < have.example:
                have.example, have.message, have.trace = c.example, c.message, c.trace


def write_report(total: Tally, out: Path, *, count: int, seconds: float, args: argparse.Namespace) -> None:
    crashes = sorted(total.crashes.values(), key=lambda c: (-c.count, c.kind, c.where))
    lines = [
        "# Fuzz report", "",
        f"{count} inputs (seed {args.seed}, from {args.start}) in {seconds / 60:.1f} min on {args.jobs} processes: "
        f"{total.ok} imported and processed, {total.refused} refused with a clear error, "
        f"**{sum(c.count for c in crashes)} crashed** ({len(crashes)} kinds). "
        f"Limits per input: {args.timeout:g} s, {args.memory_mb} MB of address space.", "",
    ]
    if crashes:
        lines += ["| count | exception | where | example | message |", "|---:|---|---|---|---|"]
        for c in crashes:
            message = c.message.replace("|", "\\|").replace("\n", " ")[:160]
            lines.append(f"| {c.count} | {c.kind} | `{c.where}` | crash-{c.example}.svg | {message} |")
        lines += [""] + [f"## {c.kind} @ {c.where}\n\n```\n{c.trace}\n```\n" for c in crashes]
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    payload = {"inputs": count, "ok": total.ok, "refused": total.refused, "seconds": round(seconds, 1),
               "crashes": [c.__dict__ for c in crashes]}
    (out / "report.json").write_text(json.dumps(payload, indent=2), encoding="utf-8")


def replay(path: Path) -> int:
    """Run one saved input through the pipeline, printing the traceback of a crash."""
    print(exercise(path.read_bytes()))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    run = parser.add_argument_group("run")
    run.add_argument("--count", type=int, default=100_000, help="inputs to try")
    run.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per core)")
    run.add_argument("--seed", type=int, default=54, help="numbers the inputs (same seed, same inputs)")
    run.add_argument("--start", type=int, default=0, help="first input number (to split a run across machines)")
    run.add_argument("--chunk", type=int, default=50, help="inputs per task handed to a worker")
    limits = parser.add_argument_group("limits per input")
    limits.add_argument("--timeout", type=float, default=60.0, help="seconds before an input counts as a hang")
    limits.add_argument("--memory-mb", type=int, default=3072, help="address space of a worker (0: no limit)")
    data = parser.add_argument_group("data and report")
    data.add_argument("--max-seed-kb", type=int, default=300, help="largest corpus file used as a seed")
    data.add_argument("--out", type=Path, default=Path("fuzz-report"), help="report folder")
    data.add_argument("--replay", type=Path, help="run one saved input and exit")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    args.jobs = args.jobs or os.cpu_count() or 1
    args.out.mkdir(parents=True, exist_ok=True)
    seeds = [str(p) for p in seed_files(args.max_seed_kb)]
    numbers = list(range(args.start, args.start + args.count))
    tasks = [(numbers[i:i + args.chunk], seeds, args.seed, args.timeout, str(args.out))
             for i in range(0, len(numbers), args.chunk)]
    print(f"fuzzing {args.count} inputs from {len(seeds)} seed files with {args.jobs} processes → {args.out}",
          flush=True)
    total, done, t0 = Tally(), 0, time.monotonic()
    ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
    # a worker stuck in native code (or killed) never answers: no result for this long ends the run
    stall = args.timeout * args.chunk + 120
    with ctx.Pool(args.jobs, initializer=_worker_init, initargs=(args.memory_mb,), maxtasksperchild=20) as pool:
        results = pool.imap_unordered(_run_chunk, tasks)
        try:
            for _ in tasks:
                _merge(total, results.next(timeout=stall))
                done = total.ok + total.refused + sum(c.count for c in total.crashes.values())
                if done % (args.chunk * 20) < args.chunk or done == args.count:
                    rate = done / max(time.monotonic() - t0, 1e-9)
                    crashed = sum(c.count for c in total.crashes.values())
                    print(f"{done}/{args.count} ({rate:.1f}/s): {crashed} crashed", flush=True)
                    write_report(total, args.out, count=done, seconds=time.monotonic() - t0, args=args)
        except multiprocessing.TimeoutError:
            total.crashes["stall"] = Crash(kind="Stall", where="a worker (native code, or killed)", count=1,
                                           message=f"no result for {stall:g} s; the run was stopped")
            pool.terminate()
        except KeyboardInterrupt:
            pool.terminate()
            print("interrupted: the report covers the inputs finished so far", flush=True)
    write_report(total, args.out, count=done, seconds=time.monotonic() - t0, args=args)
    kinds = Counter({f"{c.kind} @ {c.where}": c.count for c in total.crashes.values()})
    for key, n in kinds.most_common():
        print(f"{n:6d}  {key}")
    print(f"report: {args.out / 'report.md'}")
    return 1 if total.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
