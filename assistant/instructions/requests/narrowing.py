"""Made narrower (or shorter) to clear what stands beside it, and a paragraph set again in a narrower measure.

"The Welcome para runs into the right column, narrow it so there's a 20px gutter": the side that runs into its
neighbour comes in, the other stays; a paragraph that fills its measure keeps its type size and gains lines
(:func:`rewraps`), anything else is scaled.
"""

from __future__ import annotations

from assistant.document import Element, Layout
from assistant.geometry import Box
from assistant.instructions.requests import amounts as am
from assistant.instructions.requests.plan import Actions, Step, stretchable, world_length
from assistant.text.fonts import text_advance
from assistant.text.linebreak import wrap_lines


def clear_of_said(layout: Layout, step: Step, room: am.Length | float) -> list[Actions]:
    """:func:`clear_of` for the one element ``step`` sizes, clear of its references by ``room``.

    With none said ("narrow it so there's a 20px gutter between the columns", "… pull its right edge in"), clear of
    what stands next to it, and only scaled: the room is measured from the ink, which a paragraph set again in a
    narrower measure need not fill.
    """
    el = layout.get(step.patients[0])
    if step.refs:
        return clear_of(layout, el, step.refs, room)
    return clear_of(layout, el, _neighbours(layout, el.id), room)[-1:]


def _neighbours(layout: Layout, eid: str) -> list[str]:
    """The top-level content on the page of ``eid`` other than it and what holds it: no band, backdrop or ornament."""
    el = layout.get(eid)
    return [e.id for e in layout.top_level() if e.id != eid and eid not in {d.id for d in layout.descendants_of(e.id)}
            and e.page == el.page and not e.pinned and e.role not in ("background", "decoration")]


def clear_of(layout: Layout, el: Element, refs: list[str], room: am.Length | float) -> list[Actions]:
    """``el`` made narrower (or shorter) from the side it runs into the nearest of ``refs``, ``room`` short of it.

    "The Welcome para runs into the right column, narrow it so there's a 20px gutter": its left edge stays.
    [] when none of ``refs`` lies beside it.
    """
    b = el.box
    beside = [layout.get(r).box for r in refs if r != el.id]
    right = [r for r in beside if r.cx > b.cx and min(r.y2, b.y2) > max(r.y, b.y)]
    below = [r for r in beside if r.cy > b.cy and min(r.x2, b.x2) > max(r.x, b.x)]
    if right:
        edge = min(r.x for r in right) - (room if isinstance(room, float) else world_length(layout, room, "x"))
        size, dim, anchor = edge - b.x, "width", "left"
    elif below:
        edge = min(r.y for r in below) - (room if isinstance(room, float) else world_length(layout, room, "y"))
        size, dim, anchor = edge - b.y, "height", "top"
    else:
        return []
    if size <= 0 or size >= (b.width if dim == "width" else b.height):
        return []
    resize = [{"type": "resize", "id": el.id, dim: round(size, 3), "anchor": anchor,
               "keep_aspect": not stretchable(el)}]
    if dim == "width" and rewraps(layout, el, size):  # a paragraph keeps its type size, set in more lines
        return [[{"type": "reflow_text", "id": el.id, "mode": "wrap", "width": round(size, 3)}], resize]
    return [resize]


#: Least share of its measure the longest line of a paragraph set again must fill.
FILLS = 0.9


def rewraps(layout: Layout, el: Element, width: float) -> bool:
    """Whether a paragraph narrowed to ``width`` is better set again at its size than scaled down.

    So a designer narrows a text frame: the words flow into the narrower measure and the type keeps its size.
    That needs a paragraph (two lines or more, set from its left edge), words that fill the measure (its longest
    line at least ``FILLS`` of it: long words that break far short of it leave a wider gap than was asked) and room
    for the lines it gains: nothing but what lies behind it in the strip they take below it. Else it is scaled.
    """
    if el.kind != "text" or (el.lines or 1) < 2 or (el.text_anchor or "start") != "start" or not el.font_size:
        return False
    words = " ".join((el.text or "").split())
    lines = wrap_lines(words, width, el.font_family, el.font_size, el.font_weight or 400)
    widest = max((text_advance(ln, el.font_family, el.font_size, el.font_weight or 400) for ln in lines), default=0.0)
    if not lines or widest > width or widest < FILLS * width:
        return False  # a word longer than the measure, or lines that stop far short of it
    step = el.line_height or el.box.height / (el.lines or 1)
    gained = (len(lines) - (el.lines or 1)) * step
    if gained <= 0:
        return True
    b = el.box
    strip = Box(x=b.x, y=b.y2, width=width, height=gained + 0.25 * el.font_size)
    for o in layout:
        if o.id == el.id or o.pinned or o.box.contains(b, 0.5) or b.contains(o.box, 0.5):
            continue  # itself, what it lies on, and its own parts
        if o.box.intersection(strip) is not None:
            return False
    return True


__all__ = ["clear_of_said", "clear_of", "rewraps", "FILLS"]
