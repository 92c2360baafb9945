"""Named regions of the canvas safe box, and anchor points of boxes.

Regions are defined relative to the safe box ``S`` (the canvas inside its
margins), so they follow the margins a document or instruction sets:

* a 3 × 3 grid of equal cells: ``top_left``, ``top``, ``top_right``, ``left``,
  ``center``, ``right``, ``bottom_left``, ``bottom``, ``bottom_right``;
* ``top_band``: the full-width top 25 % of ``S``;
* ``hero``: the full-width top 55 % of ``S`` (the place for the key visual);
* ``footer``: the full-width bottom 15 % of ``S``.

Each region also has a *placement*: the point of a block that is put on the
same point of the region (a block anchored ``top_left`` touches the region's
top-left corner; ``hero`` centres it; ``footer`` centres it horizontally on
the region's bottom edge).
"""

from __future__ import annotations

from assistant.document import Canvas
from assistant.geometry import Box

#: (column, row) fractions of each 3 × 3 cell.
_CELLS = {
    "top_left": (0, 0), "top": (1, 0), "top_right": (2, 0),
    "left": (0, 1), "center": (1, 1), "right": (2, 1),
    "bottom_left": (0, 2), "bottom": (1, 2), "bottom_right": (2, 2),
}

#: Which point of a block meets the same point of the region: (fx, fy) in [0, 1].
PLACEMENT: dict[str, tuple[float, float]] = {
    "top_left": (0.0, 0.0), "top": (0.5, 0.0), "top_right": (1.0, 0.0),
    "left": (0.0, 0.5), "center": (0.5, 0.5), "right": (1.0, 0.5),
    "bottom_left": (0.0, 1.0), "bottom": (0.5, 1.0), "bottom_right": (1.0, 1.0),
    "top_band": (0.5, 0.0), "hero": (0.5, 0.5), "footer": (0.5, 1.0),
}

#: Fixed point of a box for each resize anchor name: (fx, fy) in [0, 1].
ANCHOR_POINT: dict[str, tuple[float, float]] = {k: v for k, v in PLACEMENT.items() if k in _CELLS}


def region_box(canvas: Canvas, name: str) -> Box:
    """The world box of region ``name`` inside the canvas safe box."""
    s = canvas.safe_box
    if name in _CELLS:
        col, row = _CELLS[name]
        w, h = s.width / 3, s.height / 3
        return Box(x=s.x + col * w, y=s.y + row * h, width=w, height=h)
    if name == "top_band":
        return Box(x=s.x, y=s.y, width=s.width, height=0.25 * s.height)
    if name == "hero":
        return Box(x=s.x, y=s.y, width=s.width, height=0.55 * s.height)
    if name == "footer":
        return Box(x=s.x, y=s.y + 0.85 * s.height, width=s.width, height=0.15 * s.height)
    raise KeyError(f"unknown region {name!r}")


def point_of(box: Box, fx: float, fy: float) -> tuple[float, float]:
    """The point at fractions ``(fx, fy)`` of ``box`` (0, 0 = top-left)."""
    return box.x + fx * box.width, box.y + fy * box.height


def placement_offset(block: Box, region: Box, name: str) -> tuple[float, float]:
    """Displacement that puts ``block`` on ``region`` by the placement rule of ``name``."""
    fx, fy = PLACEMENT[name]
    bx, by = point_of(block, fx, fy)
    rx, ry = point_of(region, fx, fy)
    return rx - bx, ry - by
