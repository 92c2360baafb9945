"""Actions that relate one element to another: ``match_size``, ``set_gap`` and ``swap``.

``match_size``
    Each listed element takes the target's width, height or (``both``) size.
    With ``keep_aspect`` it scales uniformly about its ``anchor`` point (for
    ``both``, until its area equals the target's). Without it the named
    dimension is stretched: a shape or picture is scaled on that axis only; a
    group's text members keep their size and move with the point of the group
    they sat on (a button's backdrop widens, its label stays centred). A text
    element on its own is never stretched.
``set_gap``
    Moves ``id`` along the axis on which it stands apart from ``target_id``
    (or the given axis) so the gap between the two boxes is exactly ``gap``;
    it stays on its side of the target (below it stays below).
``swap``
    Exchanges the places of two elements along the axis on which they stand
    apart: the leading one's start becomes the other's start, and the other's
    far edge becomes the leading one's far edge, so the gap between them is
    kept. Across that axis they exchange the edge they share most closely
    (left, centre or right; top, middle or bottom for a row), so each keeps
    the alignment of the place it takes; when they share it already, neither
    moves across. Two set apart across that axis too (no edge within 2 % of the
    page: two blocks in two columns at different heights) take each other's
    place by the edge each place keeps with the rest of the page, or by their
    starts. Side by side, where both places keep an edge with the rest of the
    page (a column's left edge), each takes the other's place by that edge.
    Two elements further apart than twice the longer one's length
    (tabs over two panels) each take the other's place on the edge that place keeps with
    the rest of the page (start, centre or end; the start when none), not the
    far edge that keeps a row's gap.
"""

from __future__ import annotations

import math

from assistant.actions.engine import EditContext, scale_about
from assistant.actions.schema import MatchSize, SetGap, Swap
from assistant.actions.validate import check_editable, check_no_nesting
from assistant.document import Element
from assistant.errors import InvalidAction
from assistant.geometry import Box, Matrix, apart_axis
from assistant.regions import ANCHOR_POINT, point_of

#: Share of the canvas's shorter side within which two edges count as shared.
SHARED_EDGE = 0.005


def _related(ctx: EditContext, ids: list[str], target_id: str) -> tuple[list[Element], Element]:
    els = check_editable(ctx.layout, ids)
    check_no_nesting(ctx.layout, els)
    target = ctx.el(target_id)
    for e in els:
        if e.id == target.id:
            raise InvalidAction("is both the element to change and the one it is measured against", e.id)
        if target.id in ctx.subtree_ids(e.id) or e.id in ctx.subtree_ids(target.id):
            raise InvalidAction(f"contains or is inside {target.id!r}; relate it to another element", e.id)
    return els, target


def _stretch_plan(ctx: EditContext, el: Element, m: Matrix) -> list[tuple[str, Matrix]]:
    """Stretch ``el`` by ``m``: text moves with its centre, a group's members each by this rule."""
    if el.kind == "group" and el.children:
        plan: list[tuple[str, Matrix]] = []
        for child in el.children:
            plan += _stretch_plan(ctx, ctx.el(child), m)
        return plan
    if el.kind == "text":
        cx, cy = m.apply(el.box.cx, el.box.cy)
        return [(el.id, Matrix.translate(cx - el.box.cx, cy - el.box.cy))]
    return [(el.id, m)]


def apply_match_size(ctx: EditContext, a: MatchSize) -> None:
    """Give the listed elements the target's width, height or size (see the module docstring)."""
    els, target = _related(ctx, a.ids, a.target_id)
    tb = target.box
    wants_w, wants_h = a.dimension in ("width", "both"), a.dimension in ("height", "both")
    if (wants_w and tb.width <= 0) or (wants_h and tb.height <= 0):
        raise InvalidAction(f"has no {a.dimension} to match (its box is {tb.width:g} x {tb.height:g})", target.id)
    fx, fy = ANCHOR_POINT[a.anchor]
    plan: list[tuple[str, Matrix]] = []
    for e in els:
        b = e.box
        if (wants_w and b.width <= 0) or (wants_h and b.height <= 0):
            raise InvalidAction(f"has an empty box ({b.width:g} x {b.height:g}), so it cannot be resized", e.id)
        ax, ay = point_of(b, fx, fy)
        if a.keep_aspect:
            s = (tb.width / b.width if a.dimension == "width" else tb.height / b.height if a.dimension == "height"
                 else math.sqrt(tb.area / b.area))
            plan.append((e.id, scale_about(s, s, ax, ay)))
            continue
        if e.kind == "text":
            raise InvalidAction("is text, which is not stretched; use keep_aspect=true to scale it", e.id)
        sx = tb.width / b.width if wants_w else 1.0
        sy = tb.height / b.height if wants_h else 1.0
        plan += _stretch_plan(ctx, e, scale_about(sx, sy, ax, ay))
    ctx.transform(plan)


def _gap_axis(axis: str, a: Box, b: Box) -> str:
    return apart_axis(a, b) if axis == "auto" else axis


def apply_set_gap(ctx: EditContext, a: SetGap) -> None:
    """Move ``a.id`` so exactly ``a.gap`` separates it from ``a.target_id`` (see the module docstring)."""
    (el,), target = _related(ctx, [a.id], a.target_id)
    b, t = el.box, target.box
    if _gap_axis(a.axis, b, t) == "vertical":
        dy = (t.y2 + a.gap - b.y) if b.cy >= t.cy else (t.y - a.gap - b.y2)
        m = Matrix.translate(0.0, dy)
    else:
        dx = (t.x2 + a.gap - b.x) if b.cx >= t.cx else (t.x - a.gap - b.x2)
        m = Matrix.translate(dx, 0.0)
    ctx.transform([(el.id, m)])


def _cross_shift(a: tuple[float, float], b: tuple[float, float], tol: float) -> float:
    """How far ``a`` moves across the swap axis to take ``b``'s place (``b`` moves back as far).

    The two keep the alignment they share most closely: left, centre or right (top, middle or bottom), so a
    pair right-aligned by eye stays right-aligned; when they share it within ``tol`` neither moves.
    """
    starts, ends = b[0] - a[0], b[1] - a[1]
    centres = (b[0] + b[1]) / 2 - (a[0] + a[1]) / 2
    shift = min((starts, ends, centres), key=abs)
    return 0.0 if abs(shift) <= tol else shift


#: Two elements further apart than this many times the longer one's length stand in places of their own.
APART = 2.0


def _span(b: Box, vertical: bool) -> tuple[float, float]:
    return (b.y, b.y2) if vertical else (b.x, b.x2)


def _edge_counts(ctx: EditContext, e: Element, pair: set[str], vertical: bool, tol: float) -> list[int]:
    """How many other elements line up with the start, the centre and the end of ``e``'s place."""
    lo, hi = _span(e.box, vertical)
    edges = (lo, (lo + hi) / 2, hi)
    counts = [0, 0, 0]
    for o in ctx.layout.elements:
        if o.id in pair or o.kind == "group":
            continue
        olo, ohi = _span(o.box, vertical)
        for k, v in enumerate((olo, (olo + ohi) / 2, ohi)):
            counts[k] += abs(v - edges[k]) <= tol
    return counts


def _kept_places(ctx: EditContext, lead: Element, trail: Element, vertical: bool, tol: float,
                 start: bool = False) -> tuple[float, float] | None:
    """Shifts along one axis that give each the other's place by the edge that place keeps with the page.

    The edge (start, centre or end) other elements line up with: a column's left edge, a row's tops ("swap the
    Supported formats block with the Where is it used block" puts each on the other column's left edge). Where
    a place keeps none: None, or with ``start`` its start.
    """
    pair = {lead.id, trail.id} | set(ctx.subtree_ids(lead.id)) | set(ctx.subtree_ids(trail.id))
    kept = []
    for mover, place in ((lead, trail), (trail, lead)):
        counts = _edge_counts(ctx, place, pair, vertical, tol)
        if max(counts) == 0 and not start:
            return None
        k = max(range(3), key=lambda j: (counts[j], -j))
        (lo, hi), (mlo, mhi) = _span(place.box, vertical), _span(mover.box, vertical)
        kept.append((lo - mlo, (lo + hi) / 2 - (mlo + mhi) / 2, hi - mhi)[k])
    return kept[0], kept[1]


def _apart_places(ctx: EditContext, lead: Element, trail: Element, vertical: bool,
                  tol: float) -> tuple[float, float] | None:
    """Shifts for two elements far apart (each in a place of its own, like tabs over two panels), or None.

    Each takes the other's place on the edge that place keeps with the rest of the page (a tab at the left of
    its panel takes the other panel's left), not the far edge that keeps a row's gap.
    """
    (l0, l1), (t0, t1) = _span(lead.box, vertical), _span(trail.box, vertical)
    if t0 - l1 <= APART * max(l1 - l0, t1 - t0):
        return None
    return _kept_places(ctx, lead, trail, vertical, tol, start=True)


def apply_swap(ctx: EditContext, a: Swap) -> None:
    """Exchange the places of the two listed elements (see the module docstring)."""
    els = check_editable(ctx.layout, a.ids)
    check_no_nesting(ctx.layout, els)
    p, q = els
    vertical = _gap_axis(a.axis, p.box, q.box) == "vertical"
    lead, trail = sorted((p, q), key=lambda e: (e.box.cy, e.box.y) if vertical else (e.box.cx, e.box.x))
    lb, tb = lead.box, trail.box
    c = ctx.layout.canvas
    tol = SHARED_EDGE * min(c.width, c.height)
    if vertical:
        d_lead, d_trail = tb.y2 - lb.y2, lb.y - tb.y
        d_lead, d_trail = _apart_places(ctx, lead, trail, True, tol) or (d_lead, d_trail)
        c_lead, c_trail = _across(ctx, lead, trail, False, tol)
        moves = [(lead, c_lead, d_lead), (trail, c_trail, d_trail)]
    else:
        d_lead, d_trail = tb.x2 - lb.x2, lb.x - tb.x
        d_lead, d_trail = _apart_places(ctx, lead, trail, False, tol) or _kept_places(
            ctx, lead, trail, False, tol) or (d_lead, d_trail)
        c_lead, c_trail = _across(ctx, lead, trail, True, tol)
        moves = [(lead, d_lead, c_lead), (trail, d_trail, c_trail)]
    ctx.transform([(e.id, Matrix.translate(*_on_canvas(ctx, e.box, dx, dy))) for e, dx, dy in moves])


#: Across the swap axis, edges further apart than this share of the page are not lined up by eye.
BY_EYE = 0.02


def _across(ctx: EditContext, lead: Element, trail: Element, vertical: bool, tol: float) -> tuple[float, float]:
    """The shifts of the two across the swap axis (``vertical``: the axis of the shifts).

    Two that line up by eye keep the edge they share (``_cross_shift``); two set apart on that axis too take
    the other's place by the edge each place keeps with the page, or by their starts (the tops of two blocks
    in two columns).
    """
    a, b = _span(lead.box, vertical), _span(trail.box, vertical)
    cross = _cross_shift(a, b, tol)
    c = ctx.layout.canvas
    if abs(cross) <= BY_EYE * (c.height if vertical else c.width):
        return cross, -cross
    return _kept_places(ctx, lead, trail, vertical, tol) or (b[0] - a[0], a[0] - b[0])


def _on_canvas(ctx: EditContext, b: Box, dx: float, dy: float) -> tuple[float, float]:
    """``(dx, dy)`` trimmed so the box goes no further past a canvas edge than it was.

    One of the two that sat on the edge of the page takes the other's place only up to that edge; one drawn
    wholly beside the page (a sticker set next to its sheet) is not trimmed.
    """
    c = ctx.layout.canvas
    if b.intersection(c.box) is None:
        return dx, dy
    lo_x, hi_x = min(b.x, c.x) - b.x, max(b.x2, c.x + c.width) - b.x2
    lo_y, hi_y = min(b.y, c.y) - b.y, max(b.y2, c.y + c.height) - b.y2
    return min(max(dx, lo_x), hi_x), min(max(dy, lo_y), hi_y)
