"""Geometry for requests that name a problem: an overlap to clear, an element off the page.

:func:`separate` clears a *mover* off one or more *obstacles* by the
smallest change that works, tried in this order of cost:

1. a move up, down, left or right just far enough to leave a gap
   (:func:`gap_for` of the page) that keeps the mover on the page and creates
   no new overlap with another content element;
2. a shrink of the mover (never below :data:`MIN_SHRINK` of its size) that
   fits it into the free band on one side of the obstacles, or a shrink of a
   picture away from the text it covers;
3. a move that creates a new overlap, the last resort.

A move that leaves the safe margins costs more than one that keeps inside
them. Each candidate is a list of action dicts; :func:`separate` returns them
best first, so a caller can try the next when one is refused.

:func:`inside` moves elements the least distance that puts them inside the
safe box (inside the page when they are larger than it).
"""

from __future__ import annotations

import math
from typing import Any

from assistant.document import Element, Layout
from assistant.geometry import Box
from assistant.instructions.requests import amounts as am
from assistant.instructions.select import is_full_bleed

#: Smallest share of its size a mover may be shrunk to.
MIN_SHRINK = 0.55
#: Cost (world units) of an overlap the edit creates, as a multiple of the page's diagonal.
NEW_OVERLAP_COST = 10.0


def gap_for(layout: Layout) -> float:
    """The gap left between separated elements: 2 % of the page's shorter side."""
    c = layout.canvas
    return 0.02 * min(c.width, c.height)


def _related(layout: Layout, a: str, b: str) -> bool:
    def chain(i: str) -> set[str]:
        out = {i}
        g = layout.get(i).group
        while g is not None:
            out.add(g)
            g = layout.get(g).group
        return out

    return a in chain(b) or b in chain(a)


def obstacles_for(layout: Layout, mover: str, skip: set[str]) -> list[Element]:
    """Content elements the mover must not newly overlap (top level, not itself or its kin, not ``skip``)."""
    out = []
    for e in layout.elements:
        if e.group is not None or e.id in skip or _related(layout, e.id, mover):
            continue
        if e.role in ("background", "decoration") or is_full_bleed(layout, e):
            continue
        out.append(e)
    return out


def overlaps(a: Box, b: Box, tol: float = 0.5) -> bool:
    """Whether two boxes overlap by more than ``tol`` on both axes."""
    return min(a.x2, b.x2) - max(a.x, b.x) > tol and min(a.y2, b.y2) - max(a.y, b.y) > tol


def _on_page(layout: Layout, box: Box, before: Box) -> tuple[bool, bool]:
    """(still on the canvas no further out than before, inside the safe box)."""
    c, s = layout.canvas.box, layout.canvas.safe_box
    tol = 1e-6 * max(c.width, c.height)
    ok = all(after <= max(prior, 0.0) + tol for prior, after in (
        (c.x - before.x, c.x - box.x), (c.y - before.y, c.y - box.y),
        (before.x2 - c.x2, box.x2 - c.x2), (before.y2 - c.y2, box.y2 - c.y2)))
    return ok, s.contains(box, tol=0.5)


def _cost(layout: Layout, mover: Element, box: Box, others: list[Element], base: float) -> float | None:
    ok, safe = _on_page(layout, box, mover.box)
    if not ok:
        return None
    c = layout.canvas
    diag = (c.width ** 2 + c.height ** 2) ** 0.5
    new = sum(1 for e in others if overlaps(box, e.box) and not overlaps(mover.box, e.box))
    return base + (0.0 if safe else 0.25 * diag) + NEW_OVERLAP_COST * diag * new


def _moves(mover: Box, blocks: list[Box], gap: float) -> list[tuple[float, float]]:
    """The four shortest translations that clear ``mover`` off ``blocks`` (with ``gap``)."""
    out: list[tuple[float, float]] = []
    over_x = [b for b in blocks if min(b.x2, mover.x2) - max(b.x, mover.x) > 0]
    over_y = [b for b in blocks if min(b.y2, mover.y2) - max(b.y, mover.y) > 0]
    if over_x:
        out.append((0.0, min(b.y for b in over_x) - gap - mover.y2))
        out.append((0.0, max(b.y2 for b in over_x) + gap - mover.y))
    if over_y:
        out.append((min(b.x for b in over_y) - gap - mover.x2, 0.0))
        out.append((max(b.x2 for b in over_y) + gap - mover.x, 0.0))
    return out


def _shrinks(layout: Layout, mover: Box, blocks: list[Box], gap: float) -> list[tuple[float, str, float, float]]:
    """(scale, anchor, dx, dy): shrink the mover into the free band beside the blocks, on each side."""
    s = layout.canvas.safe_box
    u = Box.union_all(blocks)
    out = []
    bands = {
        "right": Box.from_edges(u.x2 + gap, s.y, s.x2, s.y2), "left": Box.from_edges(s.x, s.y, u.x - gap, s.y2),
        "bottom": Box.from_edges(s.x, u.y2 + gap, s.x2, s.y2), "top": Box.from_edges(s.x, s.y, s.x2, u.y - gap),
    }
    for side, band in bands.items():
        if band.width <= 0 or band.height <= 0:
            continue
        k = min(1.0, band.width / mover.width, band.height / mover.height)
        if k < MIN_SHRINK or k >= 1.0:
            continue
        w, h = mover.width * k, mover.height * k
        x = min(max(mover.x, band.x), band.x2 - w) if side in ("top", "bottom") else (
            band.x if side == "right" else band.x2 - w)
        y = min(max(mover.y, band.y), band.y2 - h) if side in ("left", "right") else (
            band.y if side == "bottom" else band.y2 - h)
        out.append((k, "top_left", x - mover.x, y - mover.y))
    return out


def separate(layout: Layout, movers: list[str], obstacles: list[str]) -> list[list[dict[str, Any]]]:
    """Action lists that clear each mover in turn off ``obstacles``, cheapest first (see the module docstring)."""
    gap = gap_for(layout)
    options: list[tuple[float, list[dict[str, Any]]]] = []
    for rank, mid in enumerate(movers):
        mover = layout.get(mid)
        blocks = [layout.get(o).box for o in obstacles if o != mid and overlaps(mover.box, layout.get(o).box, 0.0)]
        if not blocks:
            continue
        others = obstacles_for(layout, mid, set(obstacles))
        for dx, dy in _moves(mover.box, blocks, gap):
            box = mover.box.translated(dx, dy)
            if any(overlaps(box, b, 0.0) for b in blocks):
                continue
            cost = _cost(layout, mover, box, others, abs(dx) + abs(dy) + rank * 1e-3)
            if cost is not None:
                options.append((cost, [{"type": "move", "ids": [mid], "dx": round(dx, 3), "dy": round(dy, 3)}]))
        for k, anchor, dx, dy in _shrinks(layout, mover.box, blocks, gap):
            box = Box(x=mover.box.x + dx, y=mover.box.y + dy, width=mover.box.width * k, height=mover.box.height * k)
            diag = (mover.box.width ** 2 + mover.box.height ** 2) ** 0.5
            cost = _cost(layout, mover, box, others, (1 - k) * 2 * diag + abs(dx) + abs(dy))
            if cost is not None:
                options.append((cost, [{"type": "resize", "id": mid, "scale": round(k, 4), "anchor": anchor},
                                       {"type": "move", "ids": [mid], "dx": round(dx, 3), "dy": round(dy, 3)}]))
        options += _crop_away(layout, mover, blocks, others, gap)
    options.sort(key=lambda o: o[0])
    return [acts for _c, acts in options]


def _crop_away(layout: Layout, mover: Element, blocks: list[Box], others: list[Element],
               gap: float) -> list[tuple[float, list[dict[str, Any]]]]:
    """Shrink a picture away from what it covers, keeping its far edge (and its centre on the other axis)."""
    if mover.kind == "text" or mover.role not in ("image", "logo", "badge"):
        return []
    u = Box.union_all(blocks)
    b = mover.box
    out = []
    for anchor, k in (("bottom", (b.y2 - (u.y2 + gap)) / b.height), ("top", ((u.y - gap) - b.y) / b.height),
                      ("right", (b.x2 - (u.x2 + gap)) / b.width), ("left", ((u.x - gap) - b.x) / b.width)):
        if not MIN_SHRINK <= k < 1.0:
            continue
        w, h = b.width * k, b.height * k
        fx, fy = {"bottom": (0.5, 1.0), "top": (0.5, 0.0), "right": (1.0, 0.5), "left": (0.0, 0.5)}[anchor]
        ax, ay = b.x + fx * b.width, b.y + fy * b.height
        box = Box(x=ax - fx * w, y=ay - fy * h, width=w, height=h)
        if any(overlaps(box, blk, 0.0) for blk in blocks):
            continue
        diag = (b.width ** 2 + b.height ** 2) ** 0.5
        cost = _cost(layout, mover, box, others, (1 - k) * 2 * diag)
        if cost is not None:
            out.append((cost, [{"type": "resize", "id": mover.id, "scale": round(k, 4), "anchor": anchor}]))
    return out


def on_axis(box: Box, axis: str | None, page: Box) -> Box:
    """``box`` on one axis only ("x": its columns across the page's whole height; "y": its rows); None: itself."""
    if axis == "x":
        return Box(x=box.x, y=page.y, width=box.width, height=page.height)
    if axis == "y":
        return Box(x=page.x, y=box.y, width=page.width, height=box.height)
    return box


def _block_inside(layout: Layout, ids: list[str], union: Box, area: Box) -> list[dict[str, Any]]:
    """A drawing set beside the page, too big for it, brought in whole, at the top left of ``area``.

    Each part is scaled alike and moved so that the drawing keeps its arrangement.
    """
    f = 0.99 * min(area.width / union.width, area.height / union.height)
    out: list[dict[str, Any]] = []
    for i in ids:
        b = layout.get(i).box
        out.append({"type": "resize", "id": i, "scale": round(f, 4), "anchor": "top_left"})
        x, y = area.x + (b.x - union.x) * f, area.y + (b.y - union.y) * f
        out.append({"type": "move", "ids": [i], "dx": round(x - b.x, 3), "dy": round(y - b.y, 3)})
    return out


def inside(layout: Layout, ids: list[str], within: Box | None = None, shrink: bool = True) -> list[dict[str, Any]]:
    """Edits that bring each element inside the safe box (the canvas when it does not fit), or [] when inside.

    An element larger than the safe box is first made small enough to fit in it (a text by its font size, from
    its left edge; anything else scaled from its top-left corner), then moved in. ``within`` is another box to
    keep them in (a band, a panel) in place of the page. ``shrink=False`` ("… but don't shrink it") only moves.
    """
    out: list[dict[str, Any]] = []
    c, s = (layout.canvas.box, layout.canvas.safe_box) if within is None else (within, within)
    boxes = [layout.get(i).box for i in ids]
    union = Box.union_all(boxes) if boxes else None
    if len(ids) > 1 and union is not None and union.intersection(c) is None and (
            union.width > s.width or union.height > s.height):
        return _block_inside(layout, ids, union, s)
    if len(ids) > 1 and union is not None and union.width <= s.width and union.height <= s.height and (all(
            b.intersection(boxes[0]) is not None for b in boxes[1:]) or union.intersection(c) is None):
        # a text and its shadow, piled, or a drawing set beside the page: one move keeps them together
        dx = max(s.x - union.x, 0.0) + min(s.x2 - union.x2, 0.0)
        dy = max(s.y - union.y, 0.0) + min(s.y2 - union.y2, 0.0)
        return [{"type": "move", "ids": list(ids), "dx": round(dx, 3), "dy": round(dy, 3)}] if (
            abs(dx) > 1e-6 or abs(dy) > 1e-6) else []
    for i in ids:
        e = layout.get(i)
        b = e.box
        f = min(s.width / b.width if b.width > 0 else 1.0, s.height / b.height if b.height > 0 else 1.0)
        if f < 1.0 and s.width > 0 and s.height > 0 and shrink:
            f *= 0.99  # a hair under, so that rounding leaves it inside
            if e.kind == "text" and e.font_size:
                out.append({"type": "set_text_style", "ids": [i], "font_size": round(e.font_size * f, 2)})
                # type shrinks about where the text is anchored (a centred line about its middle) and its baseline
                ax = {"middle": b.cx, "end": b.x2}.get(e.text_anchor or "start", b.x)
                ay = b.y + 0.8 * b.height
                wide = s.width / b.width <= s.height / b.height
                b = Box(x=ax - (ax - b.x) * f, y=ay - (ay - b.y) * f, width=b.width * f, height=b.height * f)
                if wide and within is None and not layout.canvas.pages:
                    # as wide as the safe box now, it goes across the middle of the page, wherever its lines are
                    # anchored (a line's own text-anchor may differ from its text's)
                    out.append({"type": "align", "ids": [i], "edge": "center_x", "to": "canvas"})
                    b = Box(x=c.cx - b.width / 2, y=b.y, width=b.width, height=b.height)
            else:
                out.append({"type": "resize", "id": i, "scale": round(f, 4), "anchor": "top_left"})
                b = Box(x=b.x, y=b.y, width=b.width * f, height=b.height * f)
        area = s if b.width <= s.width and b.height <= s.height else c
        dx = max(area.x - b.x, 0.0) + min(area.x2 - b.x2, 0.0)
        dy = max(area.y - b.y, 0.0) + min(area.y2 - b.y2, 0.0)
        if area is c:  # too wide for the margins, not for the page: as far in from the edge it ran past as it can go
            dx += math.copysign(max(c.width - b.width, 0.0) / 2, dx) if b.width > s.width and dx else 0.0
            dy += math.copysign(max(c.height - b.height, 0.0) / 2, dy) if b.height > s.height and dy else 0.0
        if abs(dx) > 1e-6 or abs(dy) > 1e-6:
            out.append({"type": "move", "ids": [i], "dx": round(dx, 3), "dy": round(dy, 3)})
    return out


def fit_inset(layout: Layout, eid: str, holder: Box, inset: tuple[Any, str]) -> list[dict[str, Any]] | None:
    """``eid`` scaled down to fit ``holder`` with room ``inset`` on the sides said, and set that far in.

    "Shrink it so it sits inside the header with 40px above and below": (40px, "y"); "x" is either side, "both" all
    round. None where it cannot fit with that much room.
    """
    length, axis = inset
    b = layout.get(eid).box
    dx, dy = am.to_world(length, layout.canvas, "x"), am.to_world(length, layout.canvas, "y")
    s = min([1.0] + ([(holder.width - 2 * dx) / b.width] if axis in ("x", "both") and b.width > 0 else []) + (
        [(holder.height - 2 * dy) / b.height] if axis in ("y", "both") and b.height > 0 else []))
    if s <= 0:
        return None
    w, h = b.width * s, b.height * s
    x = holder.x + dx if axis in ("x", "both") else min(max(b.x, holder.x), holder.x2 - w)
    y = holder.y + dy if axis in ("y", "both") else min(max(b.y, holder.y), holder.y2 - h)
    out = [{"type": "resize", "id": eid, "scale": round(s, 4), "anchor": "top_left"}] if s < 0.9999 else []
    return out + [{"type": "move", "ids": [eid], "dx": round(x - b.x, 3), "dy": round(y - b.y, 3)}]


__all__ = ["fit_inset", "separate", "inside", "on_axis", "overlaps", "gap_for", "obstacles_for", "MIN_SHRINK"]
