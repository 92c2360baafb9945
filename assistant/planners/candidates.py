"""Candidate edits from metric findings, one generator per metric (a registry).

Each generator takes a ``Finding`` and the layout and returns candidate
actions (JSON dicts) that could fix it, each with a short reason. They only
name elements the finding implicates (minimal collateral damage); which
candidate is actually good is decided later by simulation, so generators
propose several plausible fixes rather than guess one:

- overlap → move either element out of the other along each axis (by the
  penetration depth plus a gap), alone or pushing the units it would run into
  along with it (a headline moved up takes the line set above it);
- alignment → align to the nearest shared edge or centre of a neighbour, or to
  the margins;
- margins → move inside the safe box (shrink first when it cannot fit);
- spacing / grouping → distribute or stack the implicated elements;
- hierarchy / text_fit → promote or demote, reflow text;
- grid → snap to a column grid; contrast → a darker or lighter text colour;
- instruction_fit and anything else → anchor to a region, small nudges.

A finding's own ``suggestion`` (when the metric knows a fix) always comes first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from assistant.document import Element, Layout
from assistant.geometry import Box
from assistant.metrics import Finding

Candidate = tuple[dict[str, Any], str]
Generator = Callable[[Finding, Layout], list[Candidate]]

GENERATORS: dict[str, Generator] = {}

REGIONS = ("top_band", "top_left", "top", "top_right", "left", "center", "right",
           "bottom_left", "bottom", "bottom_right", "hero", "footer")


def generator(*metrics: str) -> Callable[[Generator], Generator]:
    """Register a candidate generator for findings of ``metrics``."""
    def decorator(fn: Generator) -> Generator:
        for m in metrics:
            GENERATORS[m] = fn
        return fn
    return decorator


@dataclass(frozen=True)
class Geometry:
    """Sizes derived from the canvas used by every generator (world units)."""

    gap: float
    nudge: float
    snap: float

    @classmethod
    def of(cls, layout: Layout) -> Geometry:
        short = min(layout.canvas.width, layout.canvas.height)
        return cls(gap=0.025 * short, nudge=0.03 * short, snap=0.08 * short)


def unit_of(layout: Layout, element_id: str) -> Element:
    """The element an edit should move for ``element_id``: its outermost group."""
    e = layout.get(element_id)
    seen = {e.id}
    while e.group is not None and e.group in layout and e.group not in seen:
        e = layout.get(e.group)
        seen.add(e.id)
    return e


def units(layout: Layout, ids: Iterable[str]) -> list[Element]:
    """Distinct movable units for ``ids`` (unknown ids skipped), in first-seen order."""
    out: dict[str, Element] = {}
    for i in ids:
        if i in layout:
            u = unit_of(layout, i)
            out.setdefault(u.id, u)
    return list(out.values())


def _round(v: float) -> float:
    return float(round(v, 3))


def move(ids: list[str], dx: float, dy: float) -> dict[str, Any]:
    return {"type": "move", "ids": ids, "dx": _round(dx), "dy": _round(dy)}


def fit_inside(box: Box, area: Box) -> tuple[float, float]:
    """Displacement that brings ``box`` inside ``area`` (0 on an axis where it cannot fit)."""
    dx = dy = 0.0
    if box.width <= area.width:
        dx = area.x - box.x if box.x < area.x else (area.x2 - box.x2 if box.x2 > area.x2 else 0.0)
    if box.height <= area.height:
        dy = area.y - box.y if box.y < area.y else (area.y2 - box.y2 if box.y2 > area.y2 else 0.0)
    return dx, dy


def candidates_for(finding: Finding, layout: Layout) -> list[Candidate]:
    """The finding's suggestion (if any) followed by its metric generator's candidates."""
    out: list[Candidate] = []
    label = f"{finding.metric}: {finding.message}"
    if finding.suggestion:
        out.append((dict(finding.suggestion), f"{label} (suggested fix)"))
    gen = GENERATORS.get(finding.metric, nudges)
    out.extend((action, f"{label} → {why}") for action, why in gen(finding, layout))
    return out


#: Most units one move may push along with the one it clears.
PUSH_MAX = 3


def _hits(a: Box, b: Box) -> bool:
    return a.intersection(b) is not None


def pushed(layout: Layout, mover: Element, dx: float, dy: float, *, fixed: Element) -> list[Element] | None:
    """The units moving ``mover`` by ``(dx, dy)`` would run into, to move along with it (a push).

    Each unit the moved ones would newly overlap joins them, until none is left; None when that
    would push ``fixed``, something pinned or locked, more than ``PUSH_MAX`` units, or a unit off the
    canvas. An empty list: the move runs into nothing.
    """
    canvas = layout.canvas.box
    others = [u for u in layout.top_level() if u.id not in (mover.id, fixed.id) and u.page == mover.page
              and u.role not in ("background", "decoration") and u.box.width > 0 and u.box.height > 0]
    moving, out = [mover], []
    while True:
        hit = [u for u in others if u not in out and any(
            _hits(m.box.translated(dx, dy), u.box) and not _hits(m.box, u.box) for m in moving)]
        if not hit:
            return out
        if any(u.pinned or u.locked for u in hit) or len(out) + len(hit) > PUSH_MAX:
            return None
        if any(_hits(m.box.translated(dx, dy), fixed.box) for m in hit):
            return None
        if not all(canvas.contains(u.box.translated(dx, dy), tol=1e-6) for u in hit):
            return None
        out.extend(hit)
        moving.extend(hit)


@generator("overlap")
def separate(finding: Finding, layout: Layout) -> list[Candidate]:
    """Move either element out of the other along each direction, by the overlap plus a gap.

    Where the move would run into another unit, the same move pushing that unit along is proposed too.
    """
    us = units(layout, finding.element_ids)
    g = Geometry.of(layout)
    if len(us) < 2:
        # both ids sit in one group: move the leaves themselves
        us = [layout.get(i) for i in finding.element_ids[:2] if i in layout]
    if len(us) < 2:
        return nudges(finding, layout)
    out: list[Candidate] = []
    canvas = layout.canvas.box
    for a, b in ((us[0], us[1]), (us[1], us[0])):
        ab, bb = a.box, b.box
        options = {
            "up": (0.0, bb.y - ab.y2 - g.gap), "down": (0.0, bb.y2 - ab.y + g.gap),
            "left": (bb.x - ab.x2 - g.gap, 0.0), "right": (bb.x2 - ab.x + g.gap, 0.0),
        }
        for name, (dx, dy) in options.items():
            moved = ab.translated(dx, dy)
            if canvas.contains(moved, tol=1e-6):
                out.append((move([a.id], dx, dy), f"move {a.id} {name} clear of {b.id}"))
                along = pushed(layout, a, dx, dy, fixed=b)
                if along:
                    out.append((move([a.id, *(u.id for u in along)], dx, dy),
                                f"move {a.id} {name} clear of {b.id}, pushing {', '.join(u.id for u in along)}"))
        if a.kind == "text":
            out.append(({"type": "reflow_text", "id": a.id, "mode": "auto"}, f"reflow {a.id}"))
    return out


_EDGES_X = {"left": lambda b: b.x, "right": lambda b: b.x2, "center_x": lambda b: b.cx}
_EDGES_Y = {"top": lambda b: b.y, "bottom": lambda b: b.y2, "center_y": lambda b: b.cy}


@generator("alignment")
def align_nearest(finding: Finding, layout: Layout) -> list[Candidate]:
    """Align each implicated element to the nearest edge/centre of a neighbour, or to the margins."""
    us = units(layout, finding.element_ids)
    out: list[Candidate] = []
    reach = 0.12 * layout.canvas.width
    others = [e for e in layout.top_level() if e.role not in ("background",)]
    for u in us:
        best: list[tuple[float, str, str]] = []
        for edges in (_EDGES_X, _EDGES_Y):
            for edge, at in edges.items():
                for o in others:
                    if o.id == u.id or o.box.area >= 0.9 * layout.canvas.box.area:
                        continue
                    d = abs(at(u.box) - at(o.box))
                    if 1e-3 < d <= reach:
                        best.append((d, edge, o.id))
        best.sort()
        for d, edge, target in best[:4]:
            out.append(({"type": "align", "ids": [u.id], "edge": edge, "to": "element", "target_id": target},
                        f"align {edge} of {u.id} with {target} (off by {d:.1f})"))
        out.append(({"type": "align", "ids": [u.id], "edge": "left", "to": "margins"},
                    f"align {u.id} to the left margin"))
    if len(us) >= 2:
        ids = [u.id for u in us]
        for edge in ("left", "center_x", "right", "top"):
            out.append(({"type": "align", "ids": ids, "edge": edge, "to": "each_other"},
                        f"align {edge} edges of {', '.join(ids)}"))
    return out


@generator("margins")
def into_safe_box(finding: Finding, layout: Layout) -> list[Candidate]:
    """Move each implicated element inside the safe box; shrink it first when it cannot fit."""
    safe = layout.canvas.safe_box
    out: list[Candidate] = []
    for u in units(layout, finding.element_ids):
        dx, dy = fit_inside(u.box, safe)
        if dx or dy:
            out.append((move([u.id], dx, dy), f"move {u.id} inside the safe margins"))
        if u.box.width > safe.width or u.box.height > safe.height:
            scale = 0.98 * min(safe.width / max(u.box.width, 1e-9), safe.height / max(u.box.height, 1e-9))
            if 0 < scale < 1:
                out.append(({"type": "resize", "id": u.id, "scale": _round(scale), "anchor": "center"},
                            f"shrink {u.id} to fit the safe box"))
        if u.kind == "text":
            out.append(({"type": "reflow_text", "id": u.id, "mode": "auto"}, f"reflow {u.id} into the margins"))
    return out


@generator("spacing", "grouping")
def respace(finding: Finding, layout: Layout) -> list[Candidate]:
    """Distribute or stack the implicated elements with even gaps."""
    us = units(layout, finding.element_ids)
    ids = [u.id for u in us]
    out: list[Candidate] = []
    if len(ids) >= 3:
        for axis in ("vertical", "horizontal"):
            out.append(({"type": "distribute", "ids": ids, "axis": axis, "mode": "gaps"},
                        f"distribute {', '.join(ids)} {axis}ly"))
    if len(ids) >= 2:
        out.append(({"type": "reflow_group", "ids": ids, "axis": "vertical", "align": "start"},
                    f"stack {', '.join(ids)} with one gap"))
    out.extend(nudges(finding, layout))
    return out


@generator("hierarchy", "text_fit")
def reweigh(finding: Finding, layout: Layout) -> list[Candidate]:
    """Promote important elements, demote minor ones, reflow text that does not fit."""
    out: list[Candidate] = []
    for i in finding.element_ids:
        if i not in layout:
            continue
        e = unit_of(layout, i) if layout.get(i).kind != "text" else layout.get(i)
        for f in (1.2, 1.5, 2.0):
            out.append(({"type": "promote", "id": e.id, "factor": f}, f"promote {e.id} ×{f}"))
        for f in (1.2, 1.5):
            out.append(({"type": "demote", "id": e.id, "factor": f}, f"demote {e.id} ÷{f}"))
        if e.kind == "text":
            out.append(({"type": "reflow_text", "id": e.id, "mode": "auto"}, f"reflow {e.id}"))
    return out


@generator("grid")
def snap(finding: Finding, layout: Layout) -> list[Candidate]:
    """Snap the implicated elements to a column grid."""
    ids = [u.id for u in units(layout, finding.element_ids)]
    if not ids:
        return []
    return [({"type": "snap_to_grid", "ids": ids, "columns": c}, f"snap {', '.join(ids)} to {c} columns")
            for c in (12, 6, 4)] + align_nearest(finding, layout)


@generator("contrast")
def recolour(finding: Finding, layout: Layout) -> list[Candidate]:
    """Near-black or near-white text for the implicated text elements.

    Only when the finding's own suggestion is not a shade of the text's colour
    (a brand colour keeps its hue when a shade of it passes).
    """
    shade = (finding.suggestion or {}).get("fill")
    if shade and shade not in ("#000000", "#ffffff"):
        return nudges(finding, layout)
    out: list[Candidate] = []
    for i in finding.element_ids:
        if i in layout and layout.get(i).kind == "text":
            for fill in ("#111111", "#ffffff"):
                out.append(({"type": "set_text_style", "ids": [i], "fill": fill}, f"set {i} colour to {fill}"))
    return out + nudges(finding, layout)


@generator("instruction_fit")
def follow_instruction(finding: Finding, layout: Layout) -> list[Candidate]:
    """Anchor implicated elements to each region; promote/demote them."""
    out: list[Candidate] = []
    us = units(layout, finding.element_ids)
    for u in us[:3]:
        for region in REGIONS:
            out.append(({"type": "anchor_to_region", "ids": [u.id], "region": region},
                        f"anchor {u.id} to {region}"))
    out.extend(reweigh(finding, layout))
    ids = [u.id for u in us]
    if len(ids) >= 2:
        out.append(({"type": "align", "ids": ids, "edge": "left", "to": "each_other"}, "align left"))
    return out


def nudges(finding: Finding, layout: Layout) -> list[Candidate]:
    """Small moves of each implicated element along both axes (fallback generator)."""
    g = Geometry.of(layout)
    canvas = layout.canvas.box
    out: list[Candidate] = []
    for u in units(layout, finding.element_ids)[:3]:
        if u.box.area >= 0.9 * canvas.area:
            continue
        for step in (g.nudge, 2 * g.nudge):
            for dx, dy, name in ((-step, 0, "left"), (step, 0, "right"), (0, -step, "up"), (0, step, "down")):
                if canvas.contains(u.box.translated(dx, dy), tol=1e-6):
                    out.append((move([u.id], dx, dy), f"nudge {u.id} {name}"))
    return out


__all__ = ["GENERATORS", "generator", "candidates_for", "units", "unit_of", "fit_inside", "Candidate"]
