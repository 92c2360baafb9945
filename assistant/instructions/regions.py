"""Named regions of a canvas, as instructions and ``anchor_to_region`` name them.

Definition
    Regions are zones of the canvas's *safe box* (the canvas inset by its safe
    margins). The nine compass regions split the safe box into thirds on each
    axis, as the rule of thirds does (``top_left`` … ``bottom_right``, with
    ``top``, ``left``, ``center``, ``right``, ``bottom`` for the middle cells).
    ``top_band`` is the top quarter of the safe box over its full width,
    ``footer`` the bottom 15 % over its full width, and ``hero`` the upper
    55 % over its full width (where a key image or headline sits). These are
    the zones ``anchor_to_region`` places elements into
    (``assistant.actions.regions``).

An element is *in* a region when the centre of its box lies in the zone;
:func:`region_fit` scores partial fits by how far the centre is from the zone,
relative to a third of the safe box's shorter side.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

from assistant.document import Canvas
from assistant.geometry import Box

RegionName = Literal[
    "top_band", "top_left", "top", "top_right", "left", "center", "right",
    "bottom_left", "bottom", "bottom_right", "hero", "footer",
]
REGION_NAMES: tuple[str, ...] = get_args(RegionName)

#: (column, row) of each compass region in the 3×3 split of the safe box.
_CELLS: dict[str, tuple[int, int]] = {
    "top_left": (0, 0), "top": (1, 0), "top_right": (2, 0),
    "left": (0, 1), "center": (1, 1), "right": (2, 1),
    "bottom_left": (0, 2), "bottom": (1, 2), "bottom_right": (2, 2),
}
#: Bands over the full safe width: (top, height) as shares of the safe height.
_BANDS: dict[str, tuple[float, float]] = {
    "top_band": (0.0, 0.25), "hero": (0.0, 0.55), "footer": (0.85, 0.15),
}


def region_box(canvas: Canvas, region: str) -> Box:
    """The zone of ``region`` on ``canvas`` in world units (see module docstring)."""
    s = canvas.safe_box
    if region in _CELLS:
        col, row = _CELLS[region]
        w, h = s.width / 3, s.height / 3
        return Box(x=s.x + col * w, y=s.y + row * h, width=w, height=h)
    if region in _BANDS:
        top, height = _BANDS[region]
        return Box(x=s.x, y=s.y + top * s.height, width=s.width, height=height * s.height)
    raise ValueError(f"unknown region {region!r}; known regions: {', '.join(REGION_NAMES)}")


def distance_to_box(x: float, y: float, box: Box) -> float:
    """Euclidean distance from point ``(x, y)`` to ``box`` (0 inside it)."""
    dx = max(box.x - x, 0.0, x - box.x2)
    dy = max(box.y - y, 0.0, y - box.y2)
    return math.hypot(dx, dy)


def region_fit(canvas: Canvas, region: str, box: Box) -> float:
    """How well ``box`` sits in ``region``: 1 when its centre is in the zone,
    falling linearly to 0 at a third of the safe box's shorter side away."""
    zone = region_box(canvas, region)
    s = canvas.safe_box
    scale = max(min(s.width, s.height) / 3, 1e-9)
    d = distance_to_box(box.cx, box.cy, zone)
    return max(0.0, 1.0 - d / scale)


__all__ = ["RegionName", "REGION_NAMES", "region_box", "region_fit", "distance_to_box"]
