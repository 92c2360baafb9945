"""Which element stands on a given side of another: "the text above the photo", "the questions under Thrust 1".

:func:`related_to` picks, of the elements a mention could mean, those on the side of another that the request says;
:func:`toward` orders boxes by how far they lie toward a place on the page ("the top right one").
"""

from __future__ import annotations

from assistant.document import Layout
from assistant.geometry import Box


def related_to(layout: Layout, pool: list[str], targets: list[str], rel: str, count: int = 1) -> list[str]:
    """The one (or ``count``) of ``pool`` nearest to ``targets`` on the side ``rel`` names ("the text above it").

    ``count`` 0, below a heading: all of them down to the next heading ("the questions under Thrust 1").
    """
    if not targets or not pool:
        return []
    if count == 0 and len(targets) > 1:  # "the captions under both screenshots": those under each
        return list(dict.fromkeys(i for k in targets for i in related_to(layout, pool, [k], rel, 0)))
    t = layout.get(targets[0]).box
    inside = {d.id for k in targets for d in layout.descendants_of(k)}
    pool = [i for i in pool if i not in inside]  # "the text in the TikZ box": not the box's own label
    shares = [i for i in pool if i not in targets and (
        min(layout.get(i).box.x2, t.x2) - max(layout.get(i).box.x, t.x) > 0
        if rel in ("above", "over", "below", "under", "underneath", "beneath")
        else min(layout.get(i).box.y2, t.y2) - max(layout.get(i).box.y, t.y) > 0)]
    if rel in ("in", "inside", "within"):  # "the body text in the TikZ box": in it, or nearest the tab heading it
        def held(box: Box) -> list[str]:
            # wholly inside first: a tab set across the panel's top edge is not what is in the panel
            near = [i for i in pool if i not in targets and box.contains(layout.get(i).box,
                                                                         0.05 * max(box.width, box.height))]
            return [i for i in near if box.contains(layout.get(i).box, 0.0)] or near

        # "the two paragraphs in the bubble", where the bubble could be either of two shapes: the smallest
        # that holds as many as are said
        fits = [layout.get(k).box for k in targets if len(held(layout.get(k).box)) >= count]
        t = min(fits, key=lambda b: b.area) if fits else t
        pool = held(t) or pool
    else:
        pool = shares or pool  # the text above a picture is in its column
    if rel == "on":  # "the light on the word …": what is drawn over it
        pool = [i for i in pool if layout.get(i).box.intersection(t) is not None] or pool
    side = {"above": "above", "over": "above", "below": "below", "under": "below", "underneath": "below",
            "beneath": "below", "left of": "left", "to the left of": "left", "right of": "right",
            "to the right of": "right"}.get(rel)
    if side in ("below", "above"):  # "the lines under the photo": not the ones set over it (mostly inside it)
        def over(b: Box) -> bool:
            inside = b.intersection(t)
            return inside is not None and inside.area >= 0.75 * b.area

        pool = [i for i in pool if i in targets or not over(layout.get(i).box)] or pool
    found: list[tuple[float, float, str]] = []
    for i in pool:
        if i in targets:
            continue
        b = layout.get(i).box
        if side == "above" and b.cy < t.cy:
            found.append((t.y - b.y2, 0.0, i))
        elif side == "below" and b.cy > t.cy:
            found.append((b.y - t.y2, 0.0, i))
        elif side == "left" and b.cx < t.cx:
            found.append((t.x - b.x2, 0.0, i))
        elif side == "right" and b.cx > t.cx:
            found.append((b.x - t.x2, 0.0, i))
        elif side is None:  # (of two that touch it, the one whose middle is nearer: a line beside an icon)
            found.append((b.distance(t), ((b.cx - t.cx) ** 2 + (b.cy - t.cy) ** 2) ** 0.5, i))
    if count == 0 and side == "below":
        heading = layout.get(targets[0])
        nxt = [o.box.y for o in layout.elements if o.id not in targets and o.role == heading.role and o.kind == "text"
               and o.box.y > t.y2 and min(o.box.x2, t.x2) - max(o.box.x, t.x) > 0]
        end, last, out = min(nxt, default=float("inf")), t.y2, []
        for _d, _m, i in sorted(found):  # down to the next heading, or to a gap wider than a few of the heading's lines
            b = layout.get(i).box
            if b.y2 > end or b.y - last > 3 * t.height:
                break
            out.append(i)
            last = max(last, b.y2)
        # "the list below it", where it is a paragraph the list starts right under: the one nearest below
        return out or [i for _d, _m, i in sorted(found)[:1]]
    return [i for _d, _m, i in sorted(found)[:max(count, 1)]]


def toward(box: Box, place: str) -> float:
    """How far toward ``place`` ("right", "top_left" …) a box lies: smaller is further that way."""
    key = 0.0
    for side in place.split("_"):
        key += {"right": -box.cx, "left": box.cx, "top": box.cy, "bottom": -box.cy}.get(side, 0.0)
    return key


__all__ = ["related_to", "toward"]
