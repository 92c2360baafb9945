"""The compiled metric kernels (``assistant.metrics._native``) agree with the numpy definitions.

Every report is computed twice, with the kernels and with
``native_core.numpy_only()``, on the real corpus (the ten OSGeo flyers and
the resvg files), every generated task (broken and clean), and seeded pages
of 2 to 256 elements with ties in position, locks, groups, anchors, opacity
and overlaps; the two reports must be identical (scores and impacts to
1e-9, findings' ids, messages, severities and suggestions exactly).
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from assistant.document import Canvas, Element, Layout
from assistant.geometry import Box
from assistant.metrics import evaluate
from assistant.metrics import native_core
from assistant.metrics.context import LayoutArrays
from tests.conftest import osgeo_files, resvg_files
from tests.test_metrics_golden import _close, report_record, synthetic_layout

pytestmark = pytest.mark.skipif(os.environ.get("LAYOUT_ASSISTANT_NATIVE") == "0",
                                reason="compiled kernels switched off in the environment")


def test_kernels_are_built_and_used_for_small_layouts() -> None:
    # ``make`` builds them (setup.py): a missing module is a broken installation, not a fallback to accept here
    assert native_core.available(), "assistant.metrics._native is not built: run `make setup`"
    assert native_core.MAX_ELEMENTS == 256
    small = synthetic_layout(40, 0)
    assert LayoutArrays(small).native is not None
    assert LayoutArrays(synthetic_layout(300, 1)).native is None
    with native_core.numpy_only():
        assert LayoutArrays(small).native is None
    assert LayoutArrays(small).native is not None


def tie_page(n: int, seed: int) -> Layout:
    """A seeded page with many exact ties (shared edges, equal sizes and gaps), every role and kind."""
    rng = np.random.default_rng(seed)
    roles = ["title", "subtitle", "body", "body", "caption", "cta", "logo", "image", "badge", "decoration"]
    W, H = 900.0, 1200.0
    els = []
    if rng.random() < 0.5:
        els.append(Element(id="bg", kind="shape", role="background", box=Box(x=0, y=0, width=W, height=H),
                           fill="#fdfdfd"))
    for i in range(n - len(els)):
        role = roles[int(rng.integers(len(roles)))]
        kind = "image" if role in ("image", "logo") else "shape" if role in ("decoration", "badge") else "text"
        x, y = float(rng.integers(0, 9) * 100), float(rng.integers(0, 15) * 80)
        w = float(rng.choice([40.0, 100.0, 180.0, rng.uniform(10, 400)]))
        h = float(rng.choice([20.0, 60.0, rng.uniform(5, 200)]))
        if rng.random() < 0.2:
            x += float(rng.normal(0, 3))
        els.append(Element(
            id=f"e{i}", kind=kind, role=role, box=Box(x=x, y=y, width=w, height=h),
            text=f"{role} {i}" if kind == "text" else None,
            font_size=float(rng.choice([12.0, 24.0, rng.uniform(4, 70)])) if kind == "text" else None,
            font_weight=700 if rng.random() < 0.2 else 400,
            text_anchor=("start", "middle", "end")[int(rng.integers(3))],
            fill=None if kind == "image" else str(rng.choice(["#000000", "#ffffff", "#336699", "none",
                                                              "#%06x" % int(rng.integers(0, 1 << 24))])),
            opacity=float(rng.choice([1.0, 1.0, 1.0, 0.6, 0.3, 0.0])),
            locked=bool(rng.random() < 0.1), importance=0.5 if rng.random() < 0.7 else float(rng.uniform(0, 1)),
            group=f"g{int(rng.integers(n // 4 + 1))}" if rng.random() < 0.4 else None))
    return Layout(canvas=Canvas.with_default_margins(width=W, height=H), elements=els)


def assert_same_reports(layout: Layout, weights: dict | None = None) -> None:
    got = report_record(layout, weights or {})
    with native_core.numpy_only():
        want = report_record(layout, weights or {})
    _close(json.loads(json.dumps(got)), json.loads(json.dumps(want)), "report")


@pytest.mark.parametrize("path", osgeo_files(), ids=lambda p: p.stem)
def test_osgeo_flyers(path) -> None:
    from assistant.svg_import import import_svg

    layout = import_svg(path).layout
    assert LayoutArrays(layout).native is not None
    assert_same_reports(layout)


def test_resvg_files() -> None:
    from assistant.errors import LayoutError
    from assistant.svg_import import import_svg

    done = 0
    for path in resvg_files():
        try:
            layout = import_svg(path).layout
        except LayoutError:
            continue
        assert_same_reports(layout)
        done += 1
    assert done >= 20


def test_generated_tasks() -> None:
    from assistant.tasks import TASKS, make_task

    for name in sorted(TASKS):
        for seed in range(4):
            task = make_task(name, seed)
            for which in (task.broken, task.clean):
                assert_same_reports(which.layout, dict(task.weights or {}))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13, 20, 33, 64, 65, 100, 256])
def test_seeded_pages(n: int) -> None:
    for seed in range(6):
        assert_same_reports(tie_page(n, seed))
        if n >= 20:
            assert_same_reports(synthetic_layout(n, seed, crowded=seed % 2 == 1))


# -- spacing and grouping kernels ---------------------------------------------------------------------------
def stack_page(n: int, seed: int) -> Layout:
    """A seeded page of columns and grid cells with equal sizes and gaps (many exact ties), some text on a path."""
    rng = np.random.default_rng(seed)
    roles = ["title", "subtitle", "body", "body", "caption", "cta", "logo", "image", "badge", "decoration"]
    W, H = 900.0, 1200.0
    els = []
    for i in range(n):
        role = roles[int(rng.integers(len(roles)))]
        kind = "image" if role in ("image", "logo") else "shape" if role in ("decoration", "badge") else "text"
        if seed % 2:
            x, y = float(rng.integers(0, 4)) * W / 4, float(rng.integers(0, 30)) * H / 30
            w, h = W / 4 - 10, float(rng.choice([H / 30 - 5, H / 60, H / 30]))
        else:
            x, y = float(rng.integers(0, 9)) * W / 9, float(rng.integers(0, 15)) * H / 15
            w, h = float(rng.choice([W / 9, W / 18, 40.0])), float(rng.choice([H / 30, 20.0, H / 15]))
        ink = []
        if kind == "text" and rng.random() < 0.1:
            ink = [Box(x=float(a), y=float(b), width=0.2, height=0.3) for a, b in rng.random((2, 2)) * 0.8]
        els.append(Element(id=f"e{i}", kind=kind, role=role, box=Box(x=x, y=y, width=w, height=h),
                           text=f"{role} {i}" if kind == "text" else None, font_size=12.0 if kind == "text" else None,
                           fill=None if kind == "image" else "#336699", ink=ink, locked=bool(rng.random() < 0.1),
                           group=f"g{int(rng.integers(n // 4 + 1))}" if rng.random() < 0.4 else None))
    return Layout(canvas=Canvas.with_default_margins(width=W, height=H), elements=els)


def _grouping_args(la: LayoutArrays, max_findings: int) -> tuple:
    from assistant.metrics import grouping as G
    from assistant.metrics.neighbours import DENSE_SHARE, SMALL, ink_table

    m = la.unit_nodeco_idx.size
    radius = min(G.RADIUS * la.short, 1.5 * float(np.sqrt(la.W * la.H / m)))
    return (la.edges6, la.role, la.group, la.unit_nodeco_idx, G._REL, *ink_table(la), radius, G.DELTA * la.short,
            SMALL, DENSE_SHARE, max_findings)


def _spacing_args(la: LayoutArrays, max_findings: int) -> tuple:
    from assistant.metrics import spacing as S

    s = la.short
    return (la.edges6, la.role, la.unit_nodeco_idx, S.TOL * s, S.REACH * s, S.SOFT * s, S.CV_REPORT, max_findings)


@pytest.mark.parametrize("n", [5, 20, 48, 49, 97, 150, 256])
def test_spacing_and_grouping_kernels_return_the_numpy_values(n: int, monkeypatch) -> None:
    # every reported candidate, not only the first ten: the nearest partners' ties (index order up to
    # neighbours.SMALL elements, the sweep's left-edge order beyond) show in which partner is named
    from assistant.metrics import grouping as G
    from assistant.metrics import spacing as S

    monkeypatch.setattr(G, "MAX_FINDINGS", 10**6)
    monkeypatch.setattr(S, "MAX_FINDINGS", 10**6)
    for seed in range(6):
        la = LayoutArrays(stack_page(n, seed))
        idx = la.unit_nodeco_idx
        if idx.size < 3:
            continue
        assert la.native.spacing(*_spacing_args(la, 10**6)) == S.uneven_links(la, idx)
        radius = _grouping_args(la, 0)[7]
        assert la.native.grouping(*_grouping_args(la, 10**6)) == G.proximity(la, idx, radius)


def test_spacing_and_grouping_kernels_reject_bad_input() -> None:
    la = LayoutArrays(stack_page(30, 1))
    sp, gr = list(_spacing_args(la, 10)), list(_grouping_args(la, 10))
    nat = la.native
    cases = [
        (nat.spacing, sp, 2, la.unit_nodeco_idx[:2], "needs 3..256 elements"),
        (nat.spacing, sp, 2, np.array([0, 1, 99]), "leaf 99"),
        (nat.spacing, sp, 0, la.edges6[:3].copy(), "edges6"),
        (nat.spacing, sp, 1, np.full(la.n, 42), "role code 42"),
        (nat.grouping, gr, 3, np.arange(300), "needs 3..256 elements"),
        (nat.grouping, gr, 3, np.array([0, 1, -1]), "leaf -1"),
        (nat.grouping, gr, 2, la.group[:5].copy(), "group"),
        (nat.grouping, gr, 4, np.zeros(7, dtype=bool), "square table"),
        (nat.grouping, gr, 5, np.zeros(3, dtype=np.int64), "ink_off"),
        (nat.grouping, gr, 5, np.full(la.n + 1, 4, dtype=np.int64), "ink_off must rise"),
    ]
    for kernel, args, at, value, words in cases:
        bad = list(args)
        bad[at] = value
        with pytest.raises(ValueError, match=words):
            kernel(*bad)
    assert nat.spacing(*sp) is not None and nat.grouping(*gr) is not None  # the good arguments still work
