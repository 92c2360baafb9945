"""The compiled metric kernels (``assistant.metrics._native``) agree with the numpy definitions.

Every report is computed twice, with the kernels and with
``native_core.numpy_only()``, on the real corpus (the ten OSGeo flyers and
the resvg files), every generated task (broken and clean), and seeded pages
of 2 to 256 elements with ties in position, locks, groups, anchors, opacity
and overlaps, and random small pages with degenerate boxes (zero sizes,
invisible, identical and off-canvas boxes, text on paths); the two reports
must be identical (scores and impacts to 1e-9, findings' ids, messages,
severities and suggestions exactly). Each kernel's raw output is also
compared with its numpy function, and malformed input must raise
``ValueError``.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.document import Canvas, Element, Layout
from assistant.geometry import Box
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


ARRAYS = ("edges6", "x1", "cx", "x2", "y1", "cy", "y2", "w", "h", "opacity", "importance", "font", "area", "group",
          "role", "anchor", "fill_code", "is_text", "is_image", "is_shape", "locked", "bold", "is_deco", "background",
          "visible", "units", "unit_idx", "text_idx", "opaque", "rgb")


@pytest.mark.parametrize("n,seed", [(0, 0), (1, 0), (7, 1), (40, 2), (64, 4), (65, 5), (120, 6), (256, 3)])
def test_layout_arrays_are_equal_bit_for_bit(n: int, seed: int) -> None:
    layout = tie_page(max(n, 1), seed) if n else Layout(canvas=Canvas(width=100, height=100), elements=[])
    fast = LayoutArrays(layout)
    with native_core.numpy_only():
        ref = LayoutArrays(layout)
    assert fast.native is not None and ref.native is None
    for name in ARRAYS:
        got, want = getattr(fast, name), getattr(ref, name)
        assert got.dtype == want.dtype and got.shape == want.shape, name
        assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f"), name
        assert got.flags.c_contiguous, name
    for got, want in zip(fast.overlap_pairs, ref.overlap_pairs):
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_kernels_reject_malformed_input() -> None:
    nat = native_core._native
    la = LayoutArrays(tie_page(10, 0))
    idx = la.unit_idx
    with pytest.raises(ValueError, match="alignment: needs 2"):
        nat.alignment(la.edges6, la.anchor, la.is_text, idx[:1], la.importance, la.W, la.H, 0.001, 0.003, 0.02)
    with pytest.raises(ValueError, match="edges6 holds"):
        nat.alignment(la.edges6[:3].copy(), la.anchor, la.is_text, idx, la.importance, la.W, la.H, 0.001, 0.003,
                      0.02)
    with pytest.raises(ValueError, match=r"idx\[1\] = 10 is not in \[0, 10\)"):
        nat.alignment(la.edges6, la.anchor, la.is_text, np.array([0, 10]), la.importance, la.W, la.H, 0.001, 0.003,
                      0.02)
    i = np.array([0, 3], dtype=np.int64)
    j = np.array([1, 99], dtype=np.int64)
    with pytest.raises(ValueError, match=r"pair 1 \(3, 99\) outside"):
        nat.overlap(i, j, np.ones(2), la.units, la.is_text, la.is_image, la.is_shape, la.is_deco, la.group,
                    la.opaque, la.ink_area, la.edges6, la.short, 0.02, 0.75, 1.0, 2.0, 0.01, 20)
    with pytest.raises(ValueError, match="overlap_pairs: at most 256"):
        nat.overlap_pairs(np.ones((6, 257)), np.ones(257, dtype=bool), np.ones(257))
    with pytest.raises(ValueError, match="visible holds"):
        nat.overlap_pairs(la.edges6, la.visible[:3].copy(), la.area)
    with pytest.raises(ValueError, match="14 values"):
        nat.layout_arrays(np.ones(15), 1.0, 8, 9, np.empty((12, 1)), np.empty((4, 1), dtype=np.int64),
                          np.empty((9, 1), dtype=bool))
    with pytest.raises(TypeError):
        nat.layout_arrays(np.ones(14), 1.0, 8, 9, np.empty((12, 1)).tobytes(), np.empty((4, 1), dtype=np.int64),
                          np.empty((9, 1), dtype=bool))  # read-only output

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
                                                              f"#{int(rng.integers(0, 1 << 24)):06x}"])),
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
    from assistant.importer import import_svg

    layout = import_svg(path).layout
    assert LayoutArrays(layout).native is not None
    assert_same_reports(layout)


def test_resvg_files() -> None:
    from assistant.errors import LayoutError
    from assistant.importer import import_svg

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
    from assistant.env.tasks import TASKS, make_task

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


# -- grid and whitespace kernels ------------------------------------------------------------------------------

def _grid_kernel(la: LayoutArrays, **change):
    from assistant.metrics import grid as g

    safe = la.safe_box
    args = dict(edges6=la.edges6, idx=la.unit_nodeco_idx, w=la.w, cols=g._COLUMNS, W=la.W, safe_x1=safe.x,
                safe_x2=safe.x2, full_width=g.FULL_WIDTH, cluster_tol=g.CLUSTER_TOL, slack=g.SLACK, tau=g.TAU,
                charge=g.CHARGE, near=g.NEAR)
    args.update(change)
    return la.native.grid(*args.values())


def _whitespace_kernel(la: LayoutArrays, **change):
    from assistant.metrics import whitespace as ws

    c = la.canvas
    args = dict(edges6=la.edges6, idx=la.unit_area_idx, x=c.x, y=c.y, width=c.width, height=c.height,
                exact=ws.EXACT, grid=ws.GRID)
    args.update(change)
    return la.native.whitespace(*args.values())


@pytest.mark.parametrize("n", [2, 5, 20, 64, 65, 150, 256])
def test_grid_and_whitespace_kernels_return_exactly_the_numpy_values(n: int) -> None:
    # every near miss (the report shows five) and every bit of the scores, on exact and raster coverage
    from assistant.metrics.grid import fit
    from assistant.metrics.whitespace import coverage

    for seed in range(4):
        for layout in (tie_page(n, seed),) + ((synthetic_layout(n, seed, crowded=seed % 2 == 1),) if n >= 20 else ()):
            la = LayoutArrays(layout)
            assert _grid_kernel(la) == fit(la)
            assert _whitespace_kernel(la) == coverage(la, la.unit_area_idx)


def test_grid_and_whitespace_kernels_reject_bad_input() -> None:
    la = LayoutArrays(tie_page(20, 0))
    many = np.zeros(257, dtype=np.int64)
    with pytest.raises(ValueError, match="edges6"):
        _grid_kernel(la, edges6=la.edges6[:3].copy())
    with pytest.raises(ValueError, match="at most 256"):
        _grid_kernel(la, idx=many)
    with pytest.raises(ValueError, match="out of range"):
        _grid_kernel(la, idx=np.array([0, la.n], dtype=np.int64))
    with pytest.raises(ValueError, match="column counts"):
        _grid_kernel(la, cols=np.empty(0))
    with pytest.raises(ValueError, match="at most 256"):
        _whitespace_kernel(la, idx=many)
    with pytest.raises(ValueError, match="out of range"):
        _whitespace_kernel(la, idx=np.array([-1], dtype=np.int64))
    with pytest.raises(ValueError, match="raster"):
        _whitespace_kernel(la, exact=0, grid=0)
    with pytest.raises(TypeError):
        _whitespace_kernel(la, edges6=[1.0, 2.0])
    # fewer than two judged elements, or no boxes at all
    assert _grid_kernel(la, idx=la.unit_nodeco_idx[:1]) is None
    assert _whitespace_kernel(la, idx=np.empty(0, dtype=np.int64)) == 0.0

# -- reading_order, text_fit and hierarchy kernels ------------------------------------------------------------------

def _kernel_args(la: LayoutArrays) -> dict[str, tuple]:
    """The arguments each metric passes to its kernel (as in the metric modules)."""
    from assistant.metrics import hierarchy as hi
    from assistant.metrics import reading_order as ro
    from assistant.metrics import text_fit as tf

    c = la.canvas
    return {
        "reading_order": (la.edges6, la.role, la.visible, ro._LEVEL, ro._PAIR_W, c.x, c.y, c.width, c.height,
                          ro.X_WEIGHT, ro.MAX_FINDINGS),
        "text_fit": (la.edges6, la.area, la.font, la.role, la.is_text, la.visible, la.background, la.is_shape,
                     la.is_image, tf._FRACTION, tf._FLOOR, *la.overlap_pairs, c.x, c.y, c.width, c.height, la.short,
                     la.ppu, tf._LOG_STEP, tf.MAX_FINDINGS),
        "hierarchy": (la.font, la.role, la.is_text, la.visible, la.bold, len(hi.LEVELS)),
    }


@pytest.mark.parametrize("n,seed", [(5, 0), (30, 1), (60, 2), (200, 3)])
def test_reading_order_kernel_equals_both_numpy_paths_exactly(n: int, seed: int,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.metrics import reading_order as ro

    la = LayoutArrays(tie_page(n, seed))
    args = list(_kernel_args(la)["reading_order"])
    args[-1] = la.n  # every offender
    got = la.native.reading_order(*args)
    for direct in (0, 10_000):
        monkeypatch.setattr(ro, "DIRECT", direct)
        assert got == ro.scan_offences(la, limit=la.n)


#: where each kernel takes ``role`` among its arguments
_ROLE_ARG = {"reading_order": 1, "text_fit": 3, "hierarchy": 1}


def test_reading_order_text_fit_hierarchy_kernels_reject_bad_input() -> None:
    la = LayoutArrays(tie_page(30, 4))
    args = _kernel_args(la)
    big = _kernel_args(LayoutArrays(synthetic_layout(300, 1)))
    k = native_core.kernels(la.n)
    for name, a in args.items():
        fn, r = getattr(k, name), _ROLE_ARG[name]
        with pytest.raises(ValueError, match="at most 256"):
            fn(*big[name])
        with pytest.raises(ValueError, match="role holds .* bytes, needs"):
            fn(*a[:r], a[r][:-1].copy(), *a[r + 1:])
        with pytest.raises(TypeError):
            fn(*a[:-1])
        if name != "hierarchy":  # hierarchy reads every role code as a level or none
            bad_role = la.role.copy()
            bad_role[:] = 99
            with pytest.raises(ValueError, match="role code 99"):
                fn(*a[:r], bad_role, *a[r + 1:])
    a = args["reading_order"]
    with pytest.raises(ValueError, match="square"):
        k.reading_order(*a[:4], np.ones(5), *a[5:])
    a = args["text_fit"]
    with pytest.raises(ValueError, match="overlap pair 0"):
        k.text_fit(*a[:11], np.array([0]), np.array([la.n]), np.array([1.0]), *a[14:])
    with pytest.raises(ValueError, match="pair_j"):
        k.text_fit(*a[:11], np.array([0, 1]), np.array([1]), np.array([1.0, 1.0]), *a[14:])
    with pytest.raises(ValueError, match="levels"):
        k.hierarchy(*args["hierarchy"][:-1], 0)

# -- contrast, balance and margins kernels: bad input --------------------------------------------------------------


def _cbm_kernel_args(la: LayoutArrays) -> dict[str, tuple]:
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
    args = _cbm_kernel_args(la)[name]
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
            G.REACH * la.short, SMALL, DENSE_SHARE, max_findings)


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


# -- property test: random small pages with degenerate boxes ---------------------------------------------------------

_ROLES = ("title", "subtitle", "body", "caption", "cta", "logo", "image", "badge", "background", "decoration")
_COORD = st.sampled_from([0.0, 10.0, 50.0, 100.0, 100.0, 150.5, 200.0, 390.0, 400.0, -20.0])
_SIZE = st.sampled_from([0.0, 1.0, 30.0, 50.0, 100.0, 100.0, 250.0, 400.0, 420.0])


@st.composite
def _element(draw: st.DrawFn, i: int) -> Element:
    role = draw(st.sampled_from(_ROLES))
    kind = draw(st.sampled_from(["text", "image", "shape"]))
    text = kind == "text"
    ink = []
    if text and draw(st.integers(0, 9)) == 0:  # text on a path: ink boxes inside its box
        ink = [Box(x=0.0, y=0.0, width=0.5, height=0.3), Box(x=0.4, y=0.6, width=0.6, height=0.4)]
    return Element(
        id=f"e{i}", kind=kind, role=role, box=Box(x=draw(_COORD), y=draw(_COORD), width=draw(_SIZE),
                                                  height=draw(_SIZE)),
        text=f"{role} {i}" if text else None,
        font_size=draw(st.sampled_from([None, 4.0, 12.0, 12.0, 30.0, 80.0])) if text else None,
        font_weight=draw(st.sampled_from([None, 400, 700])),
        text_anchor=draw(st.sampled_from([None, "start", "middle", "end"])),
        fill=draw(st.sampled_from([None, "none", "#000000", "#ffffff", "#777777", "#ff0000", "#fe0"])),
        opacity=draw(st.sampled_from([0.0, 0.005, 0.3, 0.5, 1.0, 1.0])),
        locked=draw(st.booleans()), importance=draw(st.sampled_from([0.5, 0.5, 0.0, 1.0, 0.25])),
        group=draw(st.sampled_from([None, None, "g0", "g1"])), ink=ink)


@st.composite
def _page(draw: st.DrawFn) -> Layout:
    n = draw(st.integers(0, 14))
    margins = draw(st.booleans())
    kw = dict(width=400.0, height=draw(st.sampled_from([300.0, 400.0, 600.0])))
    canvas = Canvas.with_default_margins(**kw) if margins else Canvas(**kw)
    return Layout(canvas=canvas, elements=[draw(_element(i)) for i in range(n)])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_page())
def test_random_small_pages_with_degenerate_boxes(layout: Layout) -> None:
    assert_same_reports(layout)
