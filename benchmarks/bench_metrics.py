"""Metric speed: CPU time for one full ``evaluate`` report at 10 / 20 / 100 / 1 000 / 2 000 elements.

Run: ``python -m benchmarks.bench_metrics`` (prints the rows); ``benchmarks/run.py``
calls ``run()``. The layouts are seeded synthetic catalogue pages: a page title,
a background, and a grid of cards (image, heading, body text, caption) sized
to fill an A4-proportioned canvas, with a fifth of the elements nudged out of
place so the findings code runs too. Each report is timed on its own as CPU
time of this process (``time.process_time_ns``, so that other processes on a
shared machine do not count): ``cpu_ms_best`` is the fastest run (as
``timeit`` advises: slower runs measure interference, not this code) and
``cpu_ms_median`` the median, over at least ``MIN_RUNS`` runs and about half
a second of CPU per size. ``wall_ms_median`` is the wall-clock median of the
same runs, for comparison.

``core`` says which code computed the report: ``compiled`` (the kernels of
``assistant.metrics._native``, used up to ``native_core.MAX_ELEMENTS``
leaves) or ``numpy`` (the vectorised definitions, used beyond that). Sizes
the kernels cover are timed both ways, the numpy row under
``native_core.numpy_only()``.
"""

from __future__ import annotations

import math
import statistics
import time
from contextlib import nullcontext

import numpy as np

from assistant.document import Canvas, Element, Layout
from assistant.geometry import Box
from assistant.metrics import evaluate, native_core

SIZES = (10, 20, 100, 1000, 2000)
MIN_RUNS = 5


def catalogue_layout(n: int, seed: int = 0) -> Layout:
    """A seeded page of ``n`` elements: background, title, and cards of four elements each."""
    rng = np.random.default_rng(seed)
    W, H = 794.0, 1123.0
    canvas = Canvas.with_default_margins(width=W, height=H)
    m = canvas.margins.left
    els = [
        Element(id="bg", kind="shape", role="background", box=Box(x=0, y=0, width=W, height=H), fill="#fafafa"),
        Element(id="title", kind="text", role="title", box=Box(x=m, y=m, width=W - 2 * m, height=H * 0.06),
                text="Catalogue", font_size=H * 0.05, font_weight=700, fill="#111111"),
    ]
    cards = max(1, math.ceil((n - 2) / 4))
    cols = max(1, round(math.sqrt(cards * (W / H))))
    rows = math.ceil(cards / cols)
    top = m + H * 0.08
    cw, ch = (W - 2 * m) / cols, (H - m - top) / rows
    g = 0.06
    parts = (("image", "image", 0.00, 0.50, None), ("heading", "subtitle", 0.52, 0.14, 0.11),
             ("body", "body", 0.68, 0.20, 0.05), ("caption", "caption", 0.90, 0.08, 0.04))
    k = 0
    while len(els) < n:
        r, c = divmod(k // 4, cols)
        name, role, fy, fh, fs = parts[k % 4]
        x, y = m + c * cw + g * cw / 2, top + r * ch + fy * ch
        w, h = cw * (1 - g), ch * fh
        if rng.random() < 0.2:
            x += float(rng.normal(0, 0.01 * W))
            y += float(rng.normal(0, 0.005 * H))
        els.append(Element(
            id=f"{name}-{k}", kind="image" if role == "image" else "text", role=role,
            box=Box(x=x, y=y, width=w, height=h), group=f"card-{k // 4}",
            text=None if role == "image" else f"{name} {k}", font_size=None if fs is None else ch * fs,
            fill=None if role == "image" else "#333333"))
        k += 1
    return Layout(canvas=canvas, elements=els[:n])


def time_report(layout: Layout, budget_s: float = 0.5, max_runs: int = 2000) -> tuple[float, float, float]:
    """(fastest CPU, median CPU, median wall) milliseconds of one ``evaluate(layout)``."""
    evaluate(layout)
    cpu: list[int] = []
    wall: list[int] = []
    spent = 0
    while len(cpu) < MIN_RUNS or (spent < budget_s * 1e9 and len(cpu) < max_runs):
        w, t = time.perf_counter_ns(), time.process_time_ns()
        evaluate(layout)
        t, w = time.process_time_ns() - t, time.perf_counter_ns() - w
        cpu.append(t)
        wall.append(w)
        spent += t
    return min(cpu) / 1e6, statistics.median(cpu) / 1e6, statistics.median(wall) / 1e6


def run() -> list[dict]:
    """One row per layout size and core: ``{"benchmark": "metrics", "elements": n, "core": …, "cpu_ms_best": …}``."""
    rows = []
    for n in SIZES:
        layout = catalogue_layout(n)
        cores = [("compiled", nullcontext()), ("numpy", native_core.numpy_only())] if native_core.kernels(n) \
            else [("numpy", nullcontext())]
        for core, ctx in cores:
            with ctx:
                report = evaluate(layout)
                best, median, wall = time_report(layout)
            rows.append({"benchmark": "metrics", "elements": n, "core": core, "cpu_ms_best": round(best, 3),
                         "cpu_ms_median": round(median, 3), "wall_ms_median": round(wall, 3),
                         "composite": round(report.composite, 4), "findings": len(report.findings())})
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
