"""Restore, collateral, harm and render damage of ``fix`` on real designs (``assistant.app.restore``).

Run: ``python -m benchmarks.bench_restore`` (prints the rows); ``benchmarks/run.py`` calls ``run()``.

For every design of ``../shared/corpus/real`` and ``../shared/corpus/osgeo`` (a design of more than
``MAX_TOP`` top-level elements would be left out and said so; the 3 000-path banner is in):

- **harm**: the share of its top-level elements that ``fix`` moves on the untouched design;
- for seeds ``SEEDS``: 1–3 content elements displaced (moved or resized by 1–6 % of the page), then
  ``fix`` as the CLI runs it; **restore** per displaced element (1: back where the designer had it,
  0: untouched, < 0: pushed further), **collateral**: the share of the other elements moved;
- **new collisions**: text colliding with other ink, ink off the page or a label out of its frame on
  the render of the fixed design that the original render did not show, summed over its runs;
- the seconds it all took.

The last row, ``all``, pools them: the mean restore over every displaced element, the mean collateral
and harm over designs, and the median composite of the untouched designs.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from assistant.app.batch import FixOptions, improve
from assistant.app.restore import measure_harm, measure_restore
from assistant.document import Document
from assistant.importer import import_svg
from assistant.metrics import evaluate
from assistant.render.inkmap import compare, measure

CORPUS = Path(os.environ.get("LAYOUT_ASSISTANT_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "corpus"
SEEDS = (0, 1, 2)
MAX_TOP = 10_000


def _damage(original: Document, fixed: Document) -> int:
    verdict = compare(measure(original), measure(fixed))
    return len(verdict.new_collisions) + len(verdict.off_page) + len(verdict.clipped)


def design_row(path: Path, options: FixOptions | None = None) -> dict | None:
    """The benchmark's measures on one design (None when it is too large to measure here)."""
    options = options or FixOptions()
    t0 = time.monotonic()
    doc = import_svg(path)
    if len(doc.layout.top_level()) > MAX_TOP:
        return None
    damage = 0

    def fixer(d: Document) -> None:
        nonlocal damage
        before = d.copy()
        run = improve(d, options)
        if run.steps:
            damage += _damage(before, d)

    harm = measure_harm(doc, fixer)
    results = [measure_restore(doc, fixer, seed) for seed in SEEDS]
    restores = [r for res in results for r in res.restore]
    collateral = [res.collateral for res in results if res.displaced]
    return {
        "design": path.name,
        "elements": len(doc.layout.top_level()),
        "composite": evaluate(doc.layout).composite,
        "harm": harm,
        "restore": statistics.mean(restores) if restores else float("nan"),
        "displaced": len(restores),
        "collateral": statistics.mean(collateral) if collateral else 0.0,
        "new collisions": damage,
        "seconds": time.monotonic() - t0,
        "_restores": restores,
    }


def run() -> list[dict]:
    """One row per design and a pooled ``all`` row (see the module docstring)."""
    files = sorted((CORPUS / "real").glob("*.svg")) + sorted((CORPUS / "osgeo").glob("*.svg"))
    rows = []
    for f in files:
        row = design_row(f)
        if row is None:
            print(f"bench_restore: {f.name} left out (more than {MAX_TOP} top-level elements)", file=sys.stderr)
        else:
            rows.append(row)
    pooled = [x for r in rows for x in r.pop("_restores")]
    rows.append({
        "design": "all", "elements": sum(r["elements"] for r in rows),
        "composite": statistics.median(r["composite"] for r in rows),
        "harm": statistics.mean(r["harm"] for r in rows),
        "restore": statistics.mean(pooled) if pooled else float("nan"), "displaced": len(pooled),
        "collateral": statistics.mean(r["collateral"] for r in rows),
        "new collisions": sum(r["new collisions"] for r in rows),
        "seconds": sum(r["seconds"] for r in rows),
    })
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
