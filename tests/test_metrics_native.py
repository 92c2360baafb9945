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


# -- contrast, balance and margins kernels: bad input --------------------------------------------------------------


def _kernel_args(la: LayoutArrays) -> dict[str, tuple]:
    """Valid arguments of the contrast, balance and margins kernels for ``la`` (as the metrics pass them)."""
    c, safe = la.canvas, la.safe_box
    i, j, _ = la.overlap_pairs
    return {
        "contrast": (la.text_idx, la.is_text, la.is_image, la.palette, la.fill_code, la.opacity, la.edges6, i, j,
                     la.font, la.bold, la.importance, la.short, la.ppu),
        "balance": (la.unit_area_idx, la.palette, la.fill_code, la.is_text, la.area, la.importance, la.opacity,
                    la.edges6, la.locked, c.x, c.y, c.width, c.height, 0.85),
        "margins": (la.units, la.is_text, la.edges6, la.w, la.h, c.x, c.y, c.width, c.height, la.short, safe.x,
                    safe.y, safe.width, safe.height, 1.0),
    }


def _swap(args: tuple, old: object, new: object) -> list:
    return [new if a is old else a for a in args]


@pytest.mark.parametrize("name", ["contrast", "balance", "margins"])
def test_contrast_balance_margins_kernels_reject_bad_input(name: str) -> None:
    la = LayoutArrays(tie_page(30, 3))
    args = _kernel_args(la)[name]
    kernel = getattr(native_core._native, name)
    assert kernel(*args) is not None
    with pytest.raises(ValueError, match="edges6"):  # one leaf short
        kernel(*_swap(args, la.edges6, la.edges6[:, :-1].copy()))
    with pytest.raises(ValueError, match=f"native {name}: needs"):  # more leaves than a kernel takes
        kernel(*[np.zeros(300, dtype=a.dtype) if isinstance(a, np.ndarray) and a.shape == (la.n,) else a
                 for a in args])
    if name == "margins":
        return
    idx = args[0]
    with pytest.raises(ValueError, match="not in"):
        kernel(*_swap(args, idx, np.append(idx[:-1], la.n)))
    with pytest.raises(ValueError, match="needs 1"):
        kernel(*_swap(args, idx, idx[:0]))
    code = la.fill_code.copy()
    code[0] = la.palette.shape[0]
    with pytest.raises(ValueError, match="fill_code"):
        kernel(*_swap(args, la.fill_code, code))
