"""Restore, collateral and harm: does a fixer put a real design back, and leave the rest alone?

The ground truth is the designer's own file. For one design and one seed:

1. **Displace** 1–3 of its content elements (top-level, not background or decoration,
   not locked, inside the page): each is moved by 1–6 % of the page (a random direction)
   or resized so that its width changes by 1–6 % of the page width (about its top-left
   corner, aspect kept). The edits are real actions, so the SVG changes too.
2. **Fix** the displaced copy the way ``layout-assistant fix`` does (:func:`assistant.app.batch.improve`).
3. **Measure**, per displaced element, ``restore = 1 − distance left / distance displaced``
   (1: back where the designer had it; 0: untouched; < 0: pushed further away), and
   ``collateral``: the share of the other top-level elements that moved by more than
   ``MOVED`` of the page.

**Harm** is the share of top-level elements moved by more than ``MOVED`` of the page when
the untouched design is fixed. A box's distance to another is the root-mean-square
distance of their corners (a plain move by d is d), in units of the page's longer side.

``python -m benchmarks.run --only restore`` runs it over ``../shared/corpus/real`` and
``../shared/corpus/osgeo`` (``make bench``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from assistant.actions import apply_action
from assistant.document import Document, Element, Layout
from assistant.errors import InvalidAction
from assistant.geometry import Box

#: An element counts as moved when a corner moved by more than this share of the page's longer side.
MOVED = 0.004
#: Displacements, as a share of the page (longer side for moves, width for resizes).
DISPLACE_MIN, DISPLACE_MAX = 0.01, 0.06
#: Roles never displaced: they are not content.
NOT_CONTENT = ("background", "decoration")

Fixer = Callable[[Document], None]


def box_distance(a: Box, b: Box) -> float:
    """Root-mean-square distance between the corners of ``a`` and ``b`` (world units)."""
    return math.sqrt(((a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.x2 - b.x2) ** 2 + (a.y2 - b.y2) ** 2) / 2.0)


def content_elements(layout: Layout) -> list[Element]:
    """The top-level elements a displacement may pick: content on a page and inside it, free to edit."""
    pages = layout.canvas.page_boxes()
    return [e for e in layout.top_level()
            if e.role not in NOT_CONTENT and not e.locked and not e.pinned and e.page >= 0
            and pages[e.page].contains(e.box, 1e-6) and e.box.width > 0 and e.box.height > 0]


@dataclass(frozen=True)
class Displacement:
    """One element knocked out of place: its id, the action, and its box before and after."""

    id: str
    action: dict
    original: Box
    displaced: Box


def displace(doc: Document, rng: np.random.Generator, *, count: tuple[int, int] = (1, 3)) -> list[Displacement]:
    """Knock 1–3 content elements of ``doc`` out of place, in place; what was done.

    An element whose edit does not apply (it would leave the page, it is rotated …) is
    skipped for another; a design with no content element gets no displacement.
    """
    layout = doc.layout
    page = layout.canvas.box
    side = max(page.width, page.height)
    candidates = content_elements(layout)
    rng.shuffle(candidates)  # type: ignore[arg-type]
    want = int(rng.integers(count[0], count[1] + 1))
    done: list[Displacement] = []
    for element in candidates:
        if len(done) >= want:
            break
        original = layout.get(element.id).box
        share = float(rng.uniform(DISPLACE_MIN, DISPLACE_MAX))
        if rng.random() < 0.7:
            angle = float(rng.uniform(0, 2 * math.pi))
            action = {"type": "move", "ids": [element.id], "dx": share * side * math.cos(angle),
                      "dy": share * side * math.sin(angle)}
        else:
            grow = 1 if rng.random() < 0.5 else -1
            width = original.width + grow * share * page.width
            if width <= 0.2 * original.width:
                continue
            action = {"type": "resize", "id": element.id, "scale": width / original.width}
        try:
            apply_action(doc, action)
        except InvalidAction:
            continue
        done.append(Displacement(element.id, action, original, layout.get(element.id).box))
    return done


def moved_ids(before: Layout, after: Layout, *, among: list[str] | None = None) -> list[str]:
    """Ids of top-level elements (or of ``among``) whose box moved by more than ``MOVED`` of the page."""
    side = max(before.canvas.width, before.canvas.height)
    ids = among if among is not None else [e.id for e in before.top_level()]
    return [i for i in ids if i in after and box_distance(before.get(i).box, after.get(i).box) > MOVED * side]


@dataclass
class DesignResult:
    """The restore measurement of one design and seed."""

    source: str
    seed: int
    elements: int
    displaced: list[str] = field(default_factory=list)
    restore: list[float] = field(default_factory=list)
    collateral: float = 0.0
    harm: float | None = None
    error: str | None = None


def measure_restore(original: Document, fixer: Fixer, seed: int) -> DesignResult:
    """Displace elements of a copy of ``original`` with ``seed``, fix it, and measure restore and collateral."""
    result = DesignResult(source=original.source, seed=seed, elements=len(original.layout.top_level()))
    doc = original.copy()
    moves = displace(doc, np.random.default_rng(seed))
    if not moves:
        return result
    fixer(doc)
    base = original.layout
    for m in moves:
        result.displaced.append(m.id)
        before = box_distance(m.original, m.displaced)
        after = box_distance(m.original, doc.layout.get(m.id).box)
        result.restore.append(1.0 - after / before if before > 0 else 0.0)
    others = [e.id for e in base.top_level() if e.id not in result.displaced]
    result.collateral = len(moved_ids(base, doc.layout, among=others)) / max(len(others), 1)
    return result


def measure_harm(original: Document, fixer: Fixer) -> float:
    """The share of top-level elements ``fixer`` moves on the untouched design."""
    doc = original.copy()
    fixer(doc)
    top = original.layout.top_level()
    return len(moved_ids(original.layout, doc.layout)) / max(len(top), 1)


__all__ = ["Displacement", "DesignResult", "box_distance", "content_elements", "displace", "measure_harm",
           "measure_restore", "moved_ids", "MOVED"]
