"""Metric values are pinned: every report matches the recorded golden reports.

``tests/data/metrics_golden.json`` holds layouts (stored whole, so that changes
to the importer or the task generators do not move them; the seeded
synthetic pages as their ``synthetic_layout`` arguments) and the reports
``evaluate`` gave for them: the composite, every metric's score and
applicability, and every finding (element ids, severity, message,
suggestion, impact). The cases are the six generated tasks for seeds 0–2
(broken and clean, scored with the task's weights), the ten OSGeo flyers as
imported, and seeded synthetic pages of 40 to 2 000 elements that drive the
sweep, probe and raster code paths of the larger layouts.

Scores and impacts may differ by float rounding (1e-9); everything else must
be identical. Regenerate (only when a metric's definition changes on purpose):
``.venv/bin/python tests/test_metrics_golden.py --write``.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assistant.document import Canvas, Element, Layout
from assistant.geometry import Box
from assistant.metrics import evaluate

GOLDEN = Path(__file__).resolve().parent / "data" / "metrics_golden.json"
OSGEO = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "osgeo"
TOL = 1e-9
#: (elements, seed, crowded) of the synthetic golden pages
SYNTHETIC = ((40, 0, False), (150, 1, False), (150, 2, True), (700, 3, False), (2000, 4, False))


def synthetic_layout(n: int, seed: int, crowded: bool = False) -> Layout:
    """A seeded page mixing every kind and role, with groups, fills, anchors, locks and overlaps."""
    rng = np.random.default_rng(seed)
    roles = ["title", "subtitle", "body", "body", "caption", "cta", "logo", "image", "badge", "decoration"]
    W, H = 1000.0, 1400.0
    size = 260.0 if crowded else 60.0 + 4000.0 / math.sqrt(n)
    els = [Element(id="bg", kind="image", role="background", box=Box(x=0, y=0, width=W, height=H))]
    for i in range(n - 1):
        role = roles[int(rng.integers(len(roles)))]
        kind = "image" if role in ("image", "logo") else "shape" if role in ("decoration", "badge") else "text"
        w, h = float(rng.uniform(5, size)), float(rng.uniform(5, size / 3))
        x, y = float(rng.uniform(-20, W - w + 20)), float(rng.uniform(-20, H - h + 20))
        if rng.random() < 0.3:  # snap to a loose column grid so alignment and grid findings occur
            x = round(x / 125.0) * 125.0 + float(rng.normal(0, 2.0))
        text = f"{role} {i}" if kind == "text" else None
        els.append(Element(
            id=f"e{i}", kind=kind, role=role, box=Box(x=x, y=y, width=w, height=h), text=text,
            font_size=float(rng.uniform(4, 60)) if kind == "text" else None,
            font_weight=700 if rng.random() < 0.2 else 400,
            text_anchor=("start", "middle", "end")[int(rng.integers(3))],
            fill=None if kind == "image" else f"#{int(rng.integers(0, 1 << 24)):06x}",
            opacity=0.0 if rng.random() < 0.02 else float(rng.choice([1.0, 1.0, 0.6])),
            locked=bool(rng.random() < 0.1), importance=0.5 if rng.random() < 0.7 else float(rng.uniform(0, 1)),
            group=f"g{int(rng.integers(n // 5 + 1))}" if rng.random() < 0.4 else None))
    return Layout(canvas=Canvas.with_default_margins(width=W, height=H), elements=els)


def build_cases() -> list[dict[str, Any]]:
    """The golden cases (layout, weights) from the current generators and importer."""
    from assistant.env.tasks import TASKS, make_task
    from assistant.importer import import_svg

    cases: list[dict[str, Any]] = []
    for name in sorted(TASKS):
        for seed in range(3):
            task = make_task(name, seed)
            for which in ("broken", "clean"):
                cases.append({"case": f"task-{name}-{seed}-{which}", "weights": dict(task.weights or {}),
                              "layout": getattr(task, which).layout})
    for path in sorted(OSGEO.glob("*.svg")):
        cases.append({"case": f"osgeo-{path.stem}", "weights": {}, "layout": import_svg(path).layout})
    for n, seed, crowded in SYNTHETIC:
        cases.append({"case": f"synthetic-{n}-{seed}{'-crowded' if crowded else ''}", "weights": {},
                      "synthetic": [n, seed, crowded], "layout": synthetic_layout(n, seed, crowded)})
    return cases


def report_record(layout: Layout, weights: dict[str, float]) -> dict[str, Any]:
    rep = evaluate(layout, weights=weights or None)
    return {
        "composite": rep.composite,
        "metrics": {
            name: {"score": m.score, "applicable": m.applicable,
                   "findings": [{"ids": list(f.element_ids), "severity": f.severity, "message": f.message,
                                 "suggestion": f.suggestion, "impact": f.impact} for f in m.findings]}
            for name, m in rep.metrics.items()
        },
    }


def write_golden() -> None:
    out = []
    for c in build_cases():
        rec = {"case": c["case"], "weights": c["weights"], "report": report_record(c["layout"], c["weights"])}
        if "synthetic" in c:
            rec["synthetic"] = c["synthetic"]
        else:
            rec["layout"] = c["layout"].model_dump(mode="json")
        out.append(rec)
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(out, separators=(",", ":"), sort_keys=True) + "\n")


def _load() -> list[dict[str, Any]]:
    if not GOLDEN.is_file():
        return []
    return json.loads(GOLDEN.read_text())


CASES = _load()


def _close(got: Any, want: Any, where: str) -> None:
    if isinstance(want, float) or isinstance(got, float):
        assert isinstance(got, (int, float)) and isinstance(want, (int, float)), where
        assert got == pytest.approx(want, rel=TOL, abs=TOL), where
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), where
        for k in want:
            _close(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got!r} != {want!r}"
        for k, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{where}[{k}]")
    elif isinstance(want, str) and isinstance(got, str) and got != want:
        assert _same_text(got, want), f"{where}: {got!r} != {want!r}"
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


_NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")


def _same_text(got: str, want: str) -> bool:
    """The same words, and numbers at most one unit of their last printed digit apart (a value on a rounding
    boundary, summed in another order by the compiled kernel, prints 0.07 where numpy prints 0.08)."""
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", want):
        return False
    for g, w in zip(_NUMBER.finditer(got), _NUMBER.finditer(want)):
        places = max(len(g.group(1) or ""), len(w.group(1) or ""))
        if abs(float(g.group(0)) - float(w.group(0))) > 1.01 * 10.0 ** -places:
            return False
    return True


def case_layout(case: dict[str, Any]) -> Layout:
    if "synthetic" in case:
        n, seed, crowded = case["synthetic"]
        return synthetic_layout(n, seed, crowded)
    return Layout.model_validate(case["layout"])


def test_golden_fixture_covers_tasks_flyers_and_large_pages() -> None:
    names = [c["case"] for c in CASES]
    assert sum(n.startswith("task-") for n in names) == 36
    assert sum(n.startswith("osgeo-") for n in names) == 10
    assert max(len(case_layout(c).elements) for c in CASES) >= 2000


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_report_matches_golden(case: dict[str, Any]) -> None:
    got = report_record(case_layout(case), case["weights"])
    # json round trip: tuples become lists, like the stored record
    _close(json.loads(json.dumps(got)), case["report"], case["case"])


def test_second_evaluation_of_the_same_layout_is_identical() -> None:
    case = next(c for c in CASES if c["case"].startswith("osgeo-gdal"))
    layout = case_layout(case)
    first = evaluate(layout).model_dump()
    assert evaluate(layout).model_dump() == first
    moved = layout.copy_deep()
    e = moved.elements[-1]
    moved.replace(e.model_copy(update={"box": e.box.translated(37.0, 11.0)}))
    assert evaluate(moved).model_dump() != first


if __name__ == "__main__":
    if "--write" in sys.argv:
        write_golden()
        print(f"wrote {GOLDEN}")
