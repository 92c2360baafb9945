"""An understood clause → the exact edit actions, against the layout as it is when the clause runs.

:func:`plan_step` returns *alternatives*: lists of action dicts (the action
vocabulary's JSON), best first; a caller applies the first one the document
accepts (a resize anchored at the left edge may be refused where the right
edge would not be). An empty list means the request is already met.
:class:`CannotPlan` says, in words, why a clause cannot be done here.

Conventions a designer would expect:

* a resize keeps the element's edge that lines up with the margin or with
  other elements (left-aligned text grows to the right), else the side of the
  page it sits on (a logo in the bottom-right corner grows up and left);
  :func:`resize_anchors` lists the anchors in that order;
* text gets bigger or smaller through its font size (``set_text_style``) and
  falls back to a scale; pictures, logos and groups are scaled;
* "align X with Y" lines up left edges when X and Y are stacked and tops when
  they stand side by side; a lone element aligns with the column of edges
  the others share, else with the margin;
* "more space under X" moves the element below X; "X and Y are too far apart"
  moves whichever comes later in reading order;
* "put X under Y" swaps X and Y when they are neighbours in the wrong order,
  otherwise moves X below Y with the usual gap of the layout.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from assistant.document import Element, Layout
from assistant.geometry import Box, apart_axis
from assistant.instructions.requests import amounts as am
from assistant.instructions.requests import fixes
from assistant.instructions.requests.frame import Intent
from assistant.instructions.select import is_full_bleed

Actions = list[dict[str, Any]]


class CannotPlan(Exception):
    """A clause that cannot be turned into an edit on this layout; the message says why."""


# -- helpers -------------------------------------------------------------------------------
def _tol(layout: Layout) -> float:
    c = layout.canvas
    return 0.006 * min(c.width, c.height)


def content(layout: Layout, skip: set[str] | frozenset[str] = frozenset()) -> list[Element]:
    """Top-level content elements (not background, decoration or full-bleed), less ``skip``."""
    return [e for e in layout.elements if e.group is None and e.id not in skip
            and e.role not in ("background", "decoration") and not is_full_bleed(layout, e)]


def resize_anchors(layout: Layout, el: Element) -> list[str]:
    """Resize anchors for ``el``, preferred first (see the module docstring)."""
    c, s, b = layout.canvas.box, layout.canvas.safe_box, el.box
    tol = _tol(layout)
    others = [e.box for e in content(layout) if e.id != el.id]
    if abs(b.x - s.x) <= tol or sum(abs(o.x - b.x) <= tol for o in others) >= 1 or b.x < s.x:
        h = "left"
    elif abs(b.x2 - s.x2) <= tol or sum(abs(o.x2 - b.x2) <= tol for o in others) >= 1 or b.x2 > s.x2:
        h = "right"
    elif abs(b.cx - c.cx) <= 2 * tol:
        h = "center"
    else:
        h = "left" if b.cx < c.x + c.width / 3 else "right" if b.cx > c.x + 2 * c.width / 3 else "center"
    if b.y2 > s.y2 - tol or b.cy > c.y + 2 * c.height / 3:
        v = "bottom"
    elif b.cy < c.y + c.height / 3 or b.y < s.y + tol:
        v = "top"
    else:
        v = "center"
    first = _anchor_name(v, h)
    order = [first] + [_anchor_name(vv, hh) for vv in (v, "center", "top", "bottom") for hh in (h, "center", "left",
                                                                                              "right")]
    return list(dict.fromkeys(order))


def _anchor_name(v: str, h: str) -> str:
    if v == "center" and h == "center":
        return "center"
    if v == "center":
        return h
    if h == "center":
        return v
    return f"{v}_{h}"


def _is_text(el: Element) -> bool:
    return el.kind == "text" and el.role not in ("logo",) and el.font_size is not None


def text_ids(layout: Layout, el: Element) -> list[str]:
    """``el`` when it is text, else the text elements inside it."""
    if el.kind == "text":
        return [el.id]
    return [d.id for d in layout.descendants_of(el.id) if d.kind == "text"] if el.kind == "group" else []


def scale_alternatives(layout: Layout, ids: list[str], s: float, *, text_first: bool = True) -> list[Actions]:
    """Ways to scale each of ``ids`` by ``s``: font size for text, then anchored resizes."""
    if abs(s - 1.0) < 1e-9:
        return [[]]
    first: Actions = []
    by_anchor: list[Actions] = []
    for i in ids:
        el = layout.get(i)
        if text_first and _is_text(el) and len(el.nodes) > 1:
            # a unit of several texts (the lines of a title set one by one): scaled whole, its lines closer together
            first.append({"type": "resize", "id": i, "scale": round(s, 4),
                          "anchor": {"middle": "top", "end": "top_right"}.get(el.text_anchor or "", "top_left")})
        elif text_first and _is_text(el):
            first.append({"type": "set_text_style", "ids": [i], "font_size": round(el.font_size * s, 3)})
        else:
            first.append({"type": "resize", "id": i, "scale": round(s, 4), "anchor": resize_anchors(layout, el)[0]})
    out = [first]
    if len(ids) == 1:
        el = layout.get(ids[0])
        by_anchor = [[{"type": "resize", "id": el.id, "scale": round(s, 4), "anchor": a}]
                     for a in resize_anchors(layout, el)]
    return out + by_anchor


def typical_gap(layout: Layout, axis: str = "vertical") -> float:
    """The median positive gap between neighbouring content elements along ``axis`` (bounded)."""
    els = content(layout)
    c = layout.canvas
    side = c.height if axis == "vertical" else c.width
    gaps = []
    for a in els:
        best = None
        for b in els:
            if a is b:
                continue
            if axis == "vertical":
                if min(a.box.x2, b.box.x2) - max(a.box.x, b.box.x) <= 0:
                    continue
                g = b.box.y - a.box.y2
            else:
                if min(a.box.y2, b.box.y2) - max(a.box.y, b.box.y) <= 0:
                    continue
                g = b.box.x - a.box.x2
            if g > 0 and (best is None or g < best):
                best = g
        if best is not None:
            gaps.append(best)
    g = statistics.median(gaps) if gaps else 0.03 * side
    return min(max(g, 0.01 * side), 0.05 * side)


def widest_split(layout: Layout, ids: list[str], axis: str) -> tuple[float, list[str], list[str]] | None:
    """``ids`` split in two along ``axis`` ("x" or "y") where the widest gap between them lies: (gap, before, after).

    The gap is from the far edge of those before to the near edge of the first after; it is negative where they run
    into each other. None for fewer than two elements.
    """
    lo = (lambda b: b.x) if axis == "x" else (lambda b: b.y)
    hi = (lambda b: b.x2) if axis == "x" else (lambda b: b.y2)
    order = sorted(ids, key=lambda i: lo(layout.get(i).box))
    splits = [(lo(layout.get(order[k]).box) - max(hi(layout.get(i).box) for i in order[:k]), k)
              for k in range(1, len(order))]
    if not splits:
        return None
    gap, k = max(splits)
    return gap, order[:k], order[k:]


def gap_between(a: Box, b: Box, axis: str) -> float:
    """The gap between two boxes along ``axis`` (negative when they overlap on it)."""
    if axis == "vertical":
        return max(b.y - a.y2, a.y - b.y2)
    return max(b.x - a.x2, a.x - b.x2)


def neighbour_below(layout: Layout, el: Element, *, above: bool = False) -> Element | None:
    """The nearest content element below (or above) ``el`` that shares some of its width."""
    best: tuple[float, Element] | None = None
    for e in content(layout, {el.id}):
        if fixes._related(layout, e.id, el.id):
            continue
        if min(e.box.x2, el.box.x2) - max(e.box.x, el.box.x) <= 0:
            continue
        d = (el.box.y - e.box.y2) if above else (e.box.y - el.box.y2)
        centre_ok = (e.box.cy < el.box.cy) if above else (e.box.cy > el.box.cy)
        if centre_ok and (best is None or d < best[0]):
            best = (d, e)
    return best[1] if best else None


def step_amount(layout: Layout, degree: str) -> float:
    """A nudge of ``degree`` in world units (a share of the page's shorter side)."""
    c = layout.canvas
    return am.STEP[degree] * min(c.width, c.height)


def arrangement(layout: Layout, ids: list[str]) -> str:
    """How the elements are set: ``vertical`` for a column, ``horizontal`` for a row.

    A column is one under another, none beside another; otherwise the way their centres spread more decides.
    """
    boxes = [layout.get(i).box for i in ids]
    ys, xs = [b.cy for b in boxes], [b.cx for b in boxes]
    if len(boxes) == 2:
        return apart_axis(boxes[0], boxes[1])
    pairs = [(a, b) for k, a in enumerate(boxes) for b in boxes[k + 1:]]
    if all(min(a.y2, b.y2) <= max(a.y, b.y) for a, b in pairs) and all(
            min(a.x2, b.x2) > max(a.x, b.x) for a, b in pairs):
        return "vertical"  # a column: each under the other, all overlapping across (left-aligned lines of any width)
    if all(min(a.x2, b.x2) <= max(a.x, b.x) for a, b in pairs) and all(
            min(a.y2, b.y2) > max(a.y, b.y) for a, b in pairs):
        return "horizontal"
    return "vertical" if max(ys) - min(ys) >= max(xs) - min(xs) else "horizontal"


#: The stretches that make an element larger ("wider", "taller"); the others ("narrower", "shorter") shrink it.
GROWING_STRETCHES = ("wider", "taller", "longer", "fatter")


def scale_factor(p: dict[str, Any]) -> float:
    """The factor a resize intent's parameters ask for (see the intents' ``resize`` rule)."""
    grow = p.get("grow") or not p.get("shrink")
    if p.get("stretch") and not p.get("grow") and not p.get("shrink"):  # "10 % narrower", "20 % shorter"
        grow = p["stretch"] in GROWING_STRETCHES
    if p.get("factor"):
        f = float(p["factor"])
        return 1 / f if p.get("shrink") and f > 1 else f
    if p.get("percent"):
        value, absolute = p["percent"]
        if absolute:
            return value / 100
        return 1 + value / 100 if grow else max(0.05, 1 - value / 100)
    if p.get("fraction"):
        f = float(p["fraction"])
        return 1 + f if grow else max(0.05, 1 - f)
    s = am.SCALE[p.get("degree", "medium")]
    return s if grow else 1 / s

@dataclass
class Step:
    """A clause ready to plan: its intent and the element ids its mentions resolved to."""

    intent: Intent
    patients: list[str]
    refs: list[str] = field(default_factory=list)
    text: str = ""
    #: The element the ``refs`` stand for when they are "everything else" (a column to line up with).
    refs_are_others: bool = False

    @property
    def kind(self) -> str:
        """The intent's kind."""
        return self.intent.kind



def stretchable(el: Element) -> bool:
    """Whether a size change may stretch ``el`` on one axis.

    Plain shapes and a button's or badge's backdrop may; a picture, a logo or text never.
    """
    if el.kind == "group":
        return el.role in ("cta", "badge")
    return el.kind == "shape" and el.role not in ("image", "logo")


def need(step: Step, n: int = 1, what: str = "element") -> None:
    """Raise ``CannotPlan`` asking which element, when the step names fewer than ``n``."""
    if len(step.patients) < n:
        raise CannotPlan(f"which {what}{'s' if n > 1 else ''} should I change? Name {'them' if n > 1 else 'it'}, "
                         f"e.g. 'the title'")


def world_length(layout: Layout, length: am.Length, axis: str) -> float:
    """``length`` in world units along ``axis`` (x or y)."""
    return am.to_world(length, layout.canvas, axis)


#: Kinds of step that move what they name about the page.
MOVES = frozenset({"nudge", "region", "edge", "place", "center", "third", "align"})
#: Most area of a line's box an icon or bullet beside it has, as a share.
ICON_SHARE = 0.05


def with_icons(layout: Layout, ids: list[str]) -> list[str]:
    """``ids`` with a text the importer set as an item with its icons (or bullet) taken as the item.

    Only where the item's other members are small pictures or marks beside a line of running text, not a title.
    """
    out = []
    for i in ids:
        e = layout.get(i)
        item = layout.get(e.group) if e.group and e.group.startswith("la-item-") else None
        marks = [d for d in layout.descendants_of(item.id) if d.id != i] if item is not None else []
        if item is not None and e.kind == "text" and e.role not in ("title", "subtitle") and marks and all(
                d.kind in ("image", "shape") and d.box.area <= ICON_SHARE * e.box.area for d in marks):
            i = item.id
        if i not in out:
            out.append(i)
    return out


# -- builders ------------------------------------------------------------------------------

__all__ = ["Step", "stretchable", "need", "world_length", "CannotPlan", "Actions", "resize_anchors",
           "scale_alternatives", "typical_gap", "gap_between", "neighbour_below", "step_amount", "arrangement",
           "scale_factor", "GROWING_STRETCHES", "content", "text_ids", "Intent", "widest_split", "with_icons",
           "MOVES"]
