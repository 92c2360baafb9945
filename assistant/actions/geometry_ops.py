"""Geometric actions: move, resize, align, distribute, snap_to_grid, reflow_group, anchor_to_region.

Each handler turns its action into a plan of world translations or anchored
scales (one per element) and hands it to :meth:`EditContext.transform`, which
checks the result and patches the layout and the XML together.

Conventions
    ``align`` with ``to="each_other"`` lines edges up with the outermost edge
    of the selection (left with the leftmost, bottom with the lowest, as
    design tools do) and centres or baselines with the *key element*, the
    most important one (ties: the largest, then the first listed).
    ``distribute`` keeps the first and last element (in axis order) in place
    unless a fixed ``gap`` is given, in which case it stacks from the first.
"""

from __future__ import annotations

import statistics

from assistant.actions.engine import EditContext, scale_about
from assistant.actions.schema import Align, AnchorToRegion, Distribute, Move, ReflowGroup, Resize, SnapToGrid
from assistant.actions.text_ops import baseline_of
from assistant.actions.validate import check_editable, check_no_nesting
from assistant.document import Element, Layout
from assistant.errors import InvalidAction
from assistant.geometry import Box, Matrix
from assistant.regions import ANCHOR_POINT, placement_offset, point_of, region_box


def _elements(ctx: EditContext, ids: list[str]) -> list[Element]:
    els = check_editable(ctx.layout, ids)
    check_no_nesting(ctx.layout, els)
    return els


def apply_move(ctx: EditContext, a: Move) -> None:
    """Move the elements (groups with their members) by ``(dx, dy)`` in world units."""
    els = _elements(ctx, a.ids)
    m = Matrix.translate(a.dx, a.dy)
    ctx.transform([(e.id, m) for e in els])


def apply_resize(ctx: EditContext, a: Resize) -> None:
    """Scale an element to ``scale``, ``width`` and/or ``height``, keeping its ``anchor`` point fixed."""
    (el,) = _elements(ctx, [a.id])
    w, h = el.box.width, el.box.height
    if a.scale is not None:
        sx = sy = a.scale
    else:
        if a.width is not None and w <= 0:
            raise InvalidAction("has zero width, so it cannot be given a width; use height or scale", el.id)
        if a.height is not None and h <= 0:
            raise InvalidAction("has zero height, so it cannot be given a height; use width or scale", el.id)
        sx = a.width / w if a.width is not None else None
        sy = a.height / h if a.height is not None else None
        if a.keep_aspect:
            s = min(v for v in (sx, sy) if v is not None)
            sx = sy = s
        else:
            sx = 1.0 if sx is None else sx
            sy = 1.0 if sy is None else sy
    fx, fy = ANCHOR_POINT[a.anchor]
    ax, ay = point_of(el.box, fx, fy)
    ctx.transform([(el.id, scale_about(sx, sy, ax, ay))])


def key_element(els: list[Element]) -> Element:
    """The most important element (ties: the largest box, then the first)."""
    return max(enumerate(els), key=lambda p: (p[1].importance, p[1].box.area, -p[0]))[1]


_EDGE_VALUE = {
    "left": lambda b: b.x, "right": lambda b: b.x2, "top": lambda b: b.y, "bottom": lambda b: b.y2,
    "center_x": lambda b: b.cx, "center_y": lambda b: b.cy,
}


def apply_align(ctx: EditContext, a: Align) -> None:
    """Line up an edge (or centre, or baseline) of the elements on a common value."""
    els = _elements(ctx, a.ids)
    layout = ctx.layout
    if a.edge == "baseline":
        _align_baselines(ctx, a, els)
        return
    value = _EDGE_VALUE[a.edge]
    if a.to == "canvas":
        target = value(layout.canvas.box)
    elif a.to == "margins":
        target = value(layout.canvas.safe_box)
    elif a.to == "element":
        target = value(layout.get(a.target_id).whole_box())
    elif a.edge in ("left", "top"):
        target = min(value(e.whole_box()) for e in els)
    elif a.edge in ("right", "bottom"):
        target = max(value(e.whole_box()) for e in els)
    else:
        target = value(key_element(els).whole_box())
    horizontal = a.edge in ("left", "right", "center_x")
    plan = []
    for e in els:  # (what a text draws, the part a clip cuts off included: a line running off the page centres whole)
        d = target - value(e.whole_box())
        plan.append((e.id, Matrix.translate(d, 0.0) if horizontal else Matrix.translate(0.0, d)))
    ctx.transform(plan)


def _align_baselines(ctx: EditContext, a: Align, els: list[Element]) -> None:
    if a.to in ("canvas", "margins"):
        raise InvalidAction("baselines align to each other or to a text element, not to the canvas or margins")
    for e in els:
        if e.kind != "text":
            raise InvalidAction(f"is a {e.kind}; only text has a baseline", e.id)
    if a.to == "element":
        ref = ctx.layout.get(a.target_id)
        if ref.kind != "text":
            raise InvalidAction(f"is a {ref.kind}; only text has a baseline to align to", ref.id)
    else:
        ref = key_element(els)
    target = baseline_of(ctx.doc, ref)
    ctx.transform([(e.id, Matrix.translate(0.0, target - baseline_of(ctx.doc, e))) for e in els])


def apply_distribute(ctx: EditContext, a: Distribute) -> None:
    """Space the elements evenly along the axis: equal gaps, or equal steps between centres."""
    els = _elements(ctx, a.ids)
    horiz = a.axis == "horizontal"
    start = (lambda b: b.x) if horiz else (lambda b: b.y)
    size = (lambda b: b.width) if horiz else (lambda b: b.height)
    order = sorted(els, key=lambda e: (start(e.box) + size(e.box) / 2, start(e.box)))
    first, last = order[0].box, order[-1].box
    n = len(order)
    new_start: list[float] = []
    if a.mode == "gaps":
        if a.gap is None:
            span = start(last) + size(last) - start(first)
            gap = (span - sum(size(e.box) for e in order)) / (n - 1)
            if gap < 0:
                raise InvalidAction(
                    f"the elements are {-gap * (n - 1):.4g} units longer together than the span between the "
                    f"outermost ones; give a gap or use mode='centers'", order[0].id)
        else:
            gap = a.gap
        pos = start(first)
        for e in order:
            new_start.append(pos)
            pos += size(e.box) + gap
    else:
        c0 = start(first) + size(first) / 2
        pitch = a.gap if a.gap is not None else (start(last) + size(last) / 2 - c0) / (n - 1)
        new_start = [c0 + i * pitch - size(e.box) / 2 for i, e in enumerate(order)]
    plan = []
    for e, s in zip(order, new_start):
        d = s - start(e.box)
        plan.append((e.id, Matrix.translate(d, 0.0) if horiz else Matrix.translate(0.0, d)))
    ctx.transform(plan)


def _nearest_inside(value: float, lines: list[float], lo: float, hi: float) -> float | None:
    """The grid line nearest ``value`` that keeps the position within ``[lo, hi]``."""
    ok = [v for v in lines if lo - 1e-9 <= v <= hi + 1e-9]
    return min(ok, key=lambda v: (abs(v - value), v)) if ok else None


def _or(v: float | None, default: float) -> float:
    return default if v is None else v


def apply_snap_to_grid(ctx: EditContext, a: SnapToGrid) -> None:
    """Snap left edges to column lines of the safe box, and/or top-left corners to a square grid.

    With neither ``columns`` nor ``size`` the grid has 12 columns. A position
    is only snapped to a line that keeps the element on the canvas.
    """
    els = _elements(ctx, a.ids)
    c = ctx.layout.canvas
    columns = a.columns if (a.columns is not None or a.size is not None) else 12
    plan = []
    for e in els:
        b = e.box
        lo_x, hi_x = min(b.x, c.x), max(b.x, c.x + c.width - b.width)
        lo_y, hi_y = min(b.y, c.y), max(b.y, c.y + c.height - b.height)
        nx, ny = b.x, b.y
        if columns is not None:
            s = c.safe_box
            lines = [s.x + k * s.width / columns for k in range(columns + 1)]
            nx = _or(_nearest_inside(b.x, lines, lo_x, hi_x), b.x)
        if a.size is not None:
            step = a.size
            if columns is None:
                k0 = round((b.x - c.x) / step)
                nx = _or(_nearest_inside(b.x, [c.x + (k0 + j) * step for j in (-1, 0, 1)], lo_x, hi_x), b.x)
            k0 = round((b.y - c.y) / step)
            ny = _or(_nearest_inside(b.y, [c.y + (k0 + j) * step for j in (-1, 0, 1)], lo_y, hi_y), b.y)
        plan.append((e.id, Matrix.translate(nx - b.x, ny - b.y)))
    ctx.transform(plan)


def stack_items(layout: Layout, ids: list[str]) -> list[Element]:
    """The elements to stack: the members of a single group id, else the listed elements."""
    if len(ids) == 1:
        el = layout.get(ids[0])
        if el.kind != "group" or not el.children:
            raise InvalidAction("reflow_group needs a group id or at least two element ids", el.id)
        return [layout.get(c) for c in el.children]
    return [layout.get(i) for i in ids]


def apply_reflow_group(ctx: EditContext, a: ReflowGroup) -> None:
    """Stack the items along the axis with one gap (default: the median of their current gaps)."""
    items = stack_items(ctx.layout, a.ids)
    els = _elements(ctx, [e.id for e in items])
    vert = a.axis == "vertical"
    start = (lambda b: b.y) if vert else (lambda b: b.x)
    size = (lambda b: b.height) if vert else (lambda b: b.width)
    order = sorted(els, key=lambda e: (start(e.box), start(e.box) + size(e.box)))
    if a.gap is not None:
        gap = a.gap
    else:
        gaps = [start(n.box) - (start(p.box) + size(p.box)) for p, n in zip(order, order[1:])]
        positive = [g for g in gaps if g > 0]
        c = ctx.layout.canvas
        gap = statistics.median(positive) if positive else 0.02 * (c.height if vert else c.width)
    union = Box.union_all(e.box for e in order)
    cross0, cross1 = (union.x, union.x2) if vert else (union.y, union.y2)
    pos = start(order[0].box)
    plan = []
    for e in order:
        b = e.box
        along = pos - start(b)
        lo, length = (b.x, b.width) if vert else (b.y, b.height)
        if a.align == "start":
            cross = cross0 - lo
        elif a.align == "end":
            cross = cross1 - (lo + length)
        else:
            cross = (cross0 + cross1) / 2 - (lo + length / 2)
        plan.append((e.id, Matrix.translate(cross, along) if vert else Matrix.translate(along, cross)))
        pos += size(b) + gap
    ctx.transform(plan)


def apply_anchor_to_region(ctx: EditContext, a: AnchorToRegion) -> None:
    """Move the elements together so their union box sits in the region (see :mod:`regions`)."""
    els = _elements(ctx, a.ids)
    block = Box.union_all(e.box for e in els)
    region = region_box(ctx.layout.canvas, a.region)
    dx, dy = placement_offset(block, region, a.region)
    m = Matrix.translate(dx, dy)
    ctx.transform([(e.id, m) for e in els])
