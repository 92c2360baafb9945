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
    (``assistant.regions``).

An element is *in* a region when the centre of its box lies in the zone;
:func:`region_fit` scores partial fits by how far the centre is from the zone,
relative to a third of the safe box's shorter side.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

from assistant.document import Canvas
from assistant.geometry import Box
from assistant.regions import region_box as _action_region_box

RegionName = Literal[
    "top_band", "top_left", "top", "top_right", "left", "center", "right",
    "bottom_left", "bottom", "bottom_right", "hero", "footer",
]
REGION_NAMES: tuple[str, ...] = get_args(RegionName)

region_box = _action_region_box
"""The zone of a region on a canvas in world units (one definition, shared with
``anchor_to_region``)."""


def distance_to_box(x: float, y: float, box: Box) -> float:
    """Euclidean distance from point ``(x, y)`` to ``box`` (0 inside it)."""
    dx = max(box.x - x, 0.0, x - box.x2)
    dy = max(box.y - y, 0.0, y - box.y2)
    return math.hypot(dx, dy)


def region_fit(canvas: Canvas, region: str, box: Box) -> float:
    """How well ``box`` sits in ``region``.

    1 when its centre is in the zone, falling linearly to 0 at a third of the
    safe box's shorter side away.
    """
    zone = region_box(canvas, region)
    s = canvas.safe_box
    scale = max(min(s.width, s.height) / 3, 1e-9)
    d = distance_to_box(box.cx, box.cy, zone)
    return max(0.0, 1.0 - d / scale)


__all__ = ["RegionName", "REGION_NAMES", "region_box", "region_fit", "distance_to_box"]
