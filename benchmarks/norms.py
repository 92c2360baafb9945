"""The norms of published designs: where each metric's own measure lies on the real corpus.

Command::

    python -m benchmarks.norms            # prints the table and the NORMS dict for assistant/metrics/norms.py

For every metric, the raw measure (before judging, ``MetricResult.raw``) of each design in
``../shared/corpus/real`` and ``../shared/corpus/osgeo``, and of the broken and clean generated
tasks for comparison. A metric's norm is the 5th percentile of the real designs: a design at or
above it is inside what published designs show.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

from assistant.env.tasks import make_task, task_names
from assistant.importer import import_svg
from assistant.metrics import METRIC_NAMES, evaluate

SHARED = Path(os.environ.get("LAYOUT_ASSISTANT_SHARED", Path(__file__).resolve().parents[2] / "shared"))
#: The percentile of real designs' raw measures that is a metric's norm.
PERCENTILE = 5


def corpus_files() -> list[Path]:
    """The real designs the norms come from."""
    corpus = SHARED / "corpus"
    return sorted((corpus / "real").glob("*.svg")) + sorted((corpus / "osgeo").glob("*.svg"))


def raw_scores(layouts: list) -> dict[str, list[float]]:
    """Each metric's raw measure on each layout where it applies."""
    out: dict[str, list[float]] = {m: [] for m in METRIC_NAMES}
    for layout in layouts:
        report = evaluate(layout)
        for name, result in report.metrics.items():
            if result.applicable:
                out[name].append(result.raw if result.raw is not None else result.score)
    return out


def main(argv: list[str] | None = None) -> None:
    """Print the corpus table and the norms."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=8, help="Seeds of every generated task to compare with.")
    args = ap.parse_args(argv)
    real = raw_scores([import_svg(f).layout for f in corpus_files()])
    tasks = [make_task(n, s) for n in task_names() for s in range(100, 100 + args.seeds)]
    broken = raw_scores([t.broken.layout for t in tasks])
    clean = raw_scores([t.clean.layout for t in tasks])
    print(f"{'metric':16}{'real p5':>9}{'real p50':>9}{'broken p50':>11}{'clean p50':>10}")
    norms = {}
    for name in METRIC_NAMES:
        if name == "instruction_fit" or not real[name]:
            continue
        norms[name] = round(float(np.percentile(real[name], PERCENTILE)), 3)
        med = lambda v: f"{np.median(v):.3f}" if v else "-"  # noqa: E731
        print(f"{name:16}{norms[name]:>9.3f}{med(real[name]):>9}{med(broken[name]):>11}{med(clean[name]):>10}")
    print("NORMS =", norms)


if __name__ == "__main__":
    main()
