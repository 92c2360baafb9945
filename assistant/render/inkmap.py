"""Where each unit's ink lies, on a render: the checks an edit must pass before it is kept.

A person judges a layout by its pixels, so the planners check every edit on a render
before keeping it (render-based verification, as in VCoder). Two low-resolution cairo
renders of the page — a little beyond it, to see ink pushed off — paint each movable
top-level unit in its own flat colour (an id), with everything else hidden:

- the **text pass** draws only the units' text;
- the **graphics pass** draws only their shapes and pictures (a picture as its frame).

Gradients, opacity, filters and masks are flattened away; anti-aliased edge pixels (not
fully opaque) are ignored, so every counted pixel names exactly one unit. From the two id
maps :func:`compare` tells, between a state before an edit and after it:

- **new collisions**: pixels where one unit's text lies on another unit's ink (text on
  graphics from the two passes; text on text from the units' measured text boxes), that
  were not there before (a text already set over a picture may shift on it: its collision
  must grow by more than ``GROWTH`` of what it was to count);
- **ink off the page**: a unit's pixels beyond the page's edge that were not there before;
- **clipped labels**: a unit's text pixels outside the frame its own graphics draw (a
  label pushed out of its button), more than before;
- **new overlaps**: a unit that moved whose shapes and pictures now overlap another unit's
  (more than before, by more than ``GROWTH`` of what it was), neither holding the other: a
  photo pushed down onto a button. Measured on the units' drawn boxes, in pixels of the maps.

Backgrounds, bands and ornaments (pinned elements) are not drawn: text on them is meant
to be. A state is measured once and cached by the caller (the planners measure the state
before a step once, and each edit they are about to keep once).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from assistant.document import Document, Element, Layout
from assistant.geometry import Box
from assistant.render.raster import render_array
from assistant.svg.css import StyleResolver
from assistant.svg.tree import local_name

#: Long side of the id renders, in pixels.
SIZE = 320
#: Share of the page rendered beyond each edge, to see ink pushed off it.
BEYOND = 0.06
#: A pixel counts for a unit when at least this opaque (of 255).
ALPHA = 100
#: Most units the id colours tell apart (a layout with more draws its first ones).
MAX_UNITS = 4095
#: A unit's text is a label in a frame when at most this share of it lies outside its graphics' box.
LABEL_INSIDE = 0.1
#: Pixels of a new collision (or of new ink off the page) an edit may add: anti-aliasing noise.
TOLERANCE_PX = 3
#: A collision that was there before counts again when it grows by more than this share of itself.
GROWTH = 0.25
_TEXT_TAGS = frozenset({"text", "tspan", "textPath", "tref", "flowRoot", "flowPara", "flowSpan", "flowDiv",
                        "flowLine", "flowRegion"})
_DRAWN = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "image", "use"})
_NO_PAINT = ("none", "transparent")
_DROP_PROPS = ("filter", "mask", "opacity", "fill-opacity", "stroke-opacity")


@dataclass
class InkState:
    """The two id maps of one state of a document, and what they are of."""

    page: Box
    region: Box
    text: np.ndarray
    graphics: np.ndarray
    units: list[str]
    text_boxes: dict[int, list[Box]] = field(default_factory=dict)
    #: the box around each unit's shapes and pictures (units of text alone have none)
    graphic_boxes: dict[str, Box] = field(default_factory=dict)

    def unit_id(self, code: int) -> str:
        """The element id of a unit's colour code (1-based)."""
        return self.units[code - 1]


@dataclass
class Verdict:
    """What an edit did that a person would see as damage (all empty: it passes)."""

    new_collisions: list[tuple[str, str, int]] = field(default_factory=list)
    off_page: list[tuple[str, int]] = field(default_factory=list)
    clipped: list[tuple[str, int]] = field(default_factory=list)
    overlaps: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the edit passes: nothing new a person would see as damage."""
        return not (self.new_collisions or self.off_page or self.clipped or self.overlaps)

    def describe(self) -> str:
        """One line naming the damage, for a report."""
        parts = [f"text of {a} collides with {b} ({n} px)" for a, b, n in self.new_collisions[:3]]
        parts += [f"{u} ink off the page ({n} px)" for u, n in self.off_page[:3]]
        parts += [f"label of {u} out of its frame ({n} px)" for u, n in self.clipped[:3]]
        parts += [f"{a} now overlaps {b} ({n} px)" for a, b, n in self.overlaps[:3]]
        return "; ".join(parts) or "no visible damage"


def movable_units(layout: Layout, page: int = 0) -> list[Element]:
    """The top-level units the checks draw: on ``page``, not pinned, visible."""
    return [e for e in layout.elements if e.group is None and not e.pinned and e.page == page and e.opacity > 0.01]


def _subtree(layout: Layout, e: Element) -> list[Element]:
    return [e, *layout.descendants_of(e.id)]


def _set_style(node: etree._Element, props: dict[str, str]) -> None:
    kept = []
    for decl in (node.get("style") or "").split(";"):
        name = decl.split(":", 1)[0].strip().lower()
        if decl.strip() and name not in props and name not in _DROP_PROPS:
            kept.append(decl.strip())
    kept += [f"{k}:{v}" for k, v in props.items()]
    node.set("style", ";".join(kept))
    for attr in (*props, *_DROP_PROPS):
        if attr in node.attrib:
            del node.attrib[attr]


def _flat_tree(doc: Document, units: list[Element], text_pass: bool) -> etree._ElementTree:
    """A copy of ``doc``'s tree with every unit painted in its id colour and the rest hidden."""
    tree = copy.deepcopy(doc.tree)
    root = tree.getroot()
    resolver = StyleResolver(doc.root)
    originals = {n.get("id"): n for n in doc.root.iter() if isinstance(n.tag, str) and n.get("id")}
    copies = {n.get("id"): n for n in root.iter() if isinstance(n.tag, str) and n.get("id")}
    for node in root.iter():
        if isinstance(node.tag, str):
            _set_style(node, {})  # no filters, masks or opacity anywhere
    _set_style(root, {"visibility": "hidden"})
    for code, unit in enumerate(units, start=1):
        colour = _colour(code)
        for el in _subtree(doc.layout, unit):
            for xml_id in el.nodes:
                node, original = copies.get(xml_id), originals.get(xml_id)
                if node is None or original is None:
                    continue
                pairs = [(s, o) for s, o in zip(node.iter(), original.iter()) if isinstance(s.tag, str)
                         and not any(local_name(a) == "flowRegion" for a in s.iterancestors())]
                for sub, orig in pairs:
                    _paint(sub, orig, resolver, colour, text_pass)
    return tree


def _paint(node: etree._Element, original: etree._Element, resolver: StyleResolver, colour: str,
           text_pass: bool) -> None:
    tag = local_name(node)
    is_text = tag in _TEXT_TAGS
    drawn = is_text or tag in _DRAWN or tag in ("g", "a", "svg", "switch", "symbol")
    if not drawn:
        return
    if is_text != text_pass and tag not in ("g", "a", "svg", "switch", "symbol"):
        _set_style(node, {"visibility": "hidden"})
        return
    if tag == "flowRegion":
        _set_style(node, {"visibility": "hidden"})
        return
    if tag == "image" and not text_pass:
        # a picture's frame in the unit's colour: same place, same size
        node.tag = "{http://www.w3.org/2000/svg}rect"
        for attr in [a for a in node.attrib if a not in ("x", "y", "width", "height", "transform", "clip-path",
                                                            "id", "style")]:
            del node.attrib[attr]
        _set_style(node, {"visibility": "visible", "fill": colour, "stroke": "none"})
        return
    style = resolver.computed(original)
    fill = "none" if (style.get("fill") or "black").strip().lower() in _NO_PAINT else colour
    stroke = "none" if (style.get("stroke") or "none").strip().lower() in _NO_PAINT else colour
    _set_style(node, {"visibility": "visible", "fill": fill, "stroke": stroke})


def _colour(code: int) -> str:
    """The id colour of unit ``code``: four bits per channel, each at the middle of its sixteenth."""
    r, g, b = code >> 8 & 15, code >> 4 & 15, code & 15
    return f"#{8 + 16 * r:02x}{8 + 16 * g:02x}{8 + 16 * b:02x}"


def _ids(rgba: np.ndarray, count: int) -> np.ndarray:
    """Colour codes of the pixels at least half covered by one of ``count`` units (0 elsewhere).

    Over a transparent page an edge pixel keeps its unit's colour at a lower alpha; the
    colour is read back to the nearest sixteenth of each channel, so rounding does not matter.
    """
    digits = np.clip(rgba[..., :3].astype(np.int32) // 16, 0, 15)
    code = (digits[..., 0] << 8) | (digits[..., 1] << 4) | digits[..., 2]
    return np.where((rgba[..., 3] >= ALPHA) & (code >= 1) & (code <= count), code, 0)


def measure(doc: Document, *, page: int = 0, size: int = SIZE) -> InkState:
    """The id maps of ``doc`` as it is now (two renders; see the module docstring)."""
    layout = doc.layout
    pages = layout.canvas.page_boxes()
    box = pages[page] if 0 <= page < len(pages) else pages[0]
    pad_x, pad_y = BEYOND * box.width, BEYOND * box.height
    region = Box(x=box.x - pad_x, y=box.y - pad_y, width=box.width + 2 * pad_x, height=box.height + 2 * pad_y)
    width = size if region.width >= region.height else None
    height = None if width else size
    units = movable_units(layout, page)[:MAX_UNITS]
    maps = []
    for text_pass in (True, False):
        tree = _flat_tree(doc, units, text_pass)
        maps.append(_ids(render_array(tree, width=width, height=height, region=region), len(units)))
    text_boxes: dict[int, list[Box]] = {}
    graphic_boxes: dict[str, Box] = {}
    for code, unit in enumerate(units, start=1):
        members = _subtree(layout, unit)
        text_boxes[code] = [b for el in members if el.kind == "text" for b in el.ink_boxes()]
        drawn = [el.box for el in members if el.kind not in ("text", "group") and el.box.area > 0]
        if drawn:
            graphic_boxes[unit.id] = Box.union_all(drawn)
    return InkState(page=box, region=region, text=maps[0], graphics=maps[1], units=[u.id for u in units],
                    text_boxes=text_boxes, graphic_boxes=graphic_boxes)


def collisions(state: InkState) -> dict[tuple[str, str], int]:
    """Pixels of each unit's text lying on another unit's ink: ``{(text unit, other unit): pixels}``."""
    both = (state.text > 0) & (state.graphics > 0) & (state.text != state.graphics)
    out: dict[tuple[str, str], int] = {}
    if both.any():
        pairs, counts = np.unique(np.stack([state.text[both], state.graphics[both]]), axis=1, return_counts=True)
        for (a, b), n in zip(pairs.T.tolist(), counts.tolist()):
            out[(state.unit_id(a), state.unit_id(b))] = int(n)
    # text on text: the measured boxes of two units' text, in pixels of the id maps
    sx = state.text.shape[1] / state.region.width
    sy = state.text.shape[0] / state.region.height
    items = [(code, b) for code, boxes in state.text_boxes.items() for b in boxes]
    items.sort(key=lambda t: t[1].x)
    for i, (a, ba) in enumerate(items):
        for b, bb in items[i + 1:]:
            if bb.x > ba.x2:
                break
            if a == b:
                continue
            inter = ba.intersection(bb)
            if inter is not None:
                px = int(inter.width * sx * inter.height * sy)
                if px > 0:
                    key = (state.unit_id(min(a, b)), state.unit_id(max(a, b)))
                    out[key] = out.get(key, 0) + px
    return out


def off_page(state: InkState) -> dict[str, int]:
    """Pixels of each unit drawn beyond the page's edge."""
    h, w = state.text.shape
    x0 = round((state.page.x - state.region.x) / state.region.width * w)
    x1 = round((state.page.x2 - state.region.x) / state.region.width * w)
    y0 = round((state.page.y - state.region.y) / state.region.height * h)
    y1 = round((state.page.y2 - state.region.y) / state.region.height * h)
    outside = np.ones((h, w), dtype=bool)
    outside[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = False
    ink = np.where(state.text > 0, state.text, state.graphics)
    codes, counts = np.unique(ink[outside & (ink > 0)], return_counts=True)
    return {state.unit_id(int(c)): int(n) for c, n in zip(codes, counts)}


def clipped_labels(state: InkState) -> dict[str, tuple[int, int]]:
    """``(outside, all)`` text pixels of each unit that draws both text and graphics.

    ``outside`` counts its text pixels beyond the box its own graphics draw.
    """
    out: dict[str, tuple[int, int]] = {}
    for code in np.unique(state.text[state.text > 0]).tolist():
        frame = np.nonzero(state.graphics == code)
        if frame[0].size == 0:
            continue
        y0, y1, x0, x1 = frame[0].min(), frame[0].max(), frame[1].min(), frame[1].max()
        ty, tx = np.nonzero(state.text == code)
        n = int(((ty < y0 - 1) | (ty > y1 + 1) | (tx < x0 - 1) | (tx > x1 + 1)).sum())
        out[state.unit_id(code)] = (n, int(ty.size))
    return out


def compare(before: InkState, after: InkState, *, tolerance: int = TOLERANCE_PX) -> Verdict:
    """What ``after`` shows that ``before`` did not (see the module docstring)."""
    verdict = Verdict()
    cb, ca = collisions(before), collisions(after)
    for key, n in sorted(ca.items()):
        was = cb.get(key, 0)
        if n - was > max(tolerance, GROWTH * was):
            verdict.new_collisions.append((key[0], key[1], n - was))
    ob, oa = off_page(before), off_page(after)
    for unit, n in sorted(oa.items()):
        if n - ob.get(unit, 0) > tolerance:
            verdict.off_page.append((unit, n - ob.get(unit, 0)))
    lb, lab = clipped_labels(before), clipped_labels(after)
    for unit, (n, _) in sorted(lab.items()):
        was, total = lb.get(unit, (0, 0))
        if total and was <= LABEL_INSIDE * total and n - was > tolerance:  # a label that sat in its frame
            verdict.clipped.append((unit, n - was))
    verdict.overlaps = new_overlaps(before, after, tolerance)
    return verdict


def new_overlaps(before: InkState, after: InkState, tolerance: int = TOLERANCE_PX) -> list[tuple[str, str, int]]:
    """``(moved unit, other unit, pixels)`` for graphics a move laid over another unit's (see the module docstring)."""
    gb, ga = before.graphic_boxes, after.graphic_boxes
    px = (after.text.shape[1] / after.region.width) * (after.text.shape[0] / after.region.height)
    out = []
    for unit in sorted(u for u in ga if u in gb and ga[u] != gb[u]):
        for other in sorted(ga):
            if other == unit or other not in gb:
                continue
            a, o = ga[unit], ga[other]
            if a.contains(o) or o.contains(a):
                continue
            now, was = _meet(a, o) * px, _meet(gb[unit], gb[other]) * px
            if now - was > max(tolerance, GROWTH * was):
                out.append((unit, other, round(now - was)))
    return out


def _meet(a: Box, b: Box) -> float:
    inter = a.intersection(b)
    return inter.area if inter is not None else 0.0


__all__ = ["InkState", "Verdict", "clipped_labels", "collisions", "compare", "measure", "movable_units", "new_overlaps",
           "off_page"]
