"""Text actions: ``set_text_style`` and ``reflow_text``, plus text helpers for other actions.

Style changes are written where they take effect with the least change
(CSS cascade, SVG 2 §6.4): a property already in the node's ``style``
attribute is edited there; else an existing presentation attribute is
changed; else the property is appended to ``style`` (which beats class rules).
Descendants (``tspan``, ``flowPara`` …) that set the same property themselves
would override the new value, so they are updated too: absolute font sizes
scale by the same ratio (relative ``em``/``%`` sizes follow by themselves),
other properties take the new value.

When the font size changes, the absolute ``y`` positions of line ``tspan``s
and absolute ``dy`` offsets scale about the first baseline, so the line
spacing stays proportional (as a design tool re-flowing the text would).
Wrapped text keeps its line breaks: the frames of an Inkscape ``<flowRoot>``
(its ``<flowRegion>`` rects) and an SVG 2 ``inline-size`` scale by the same
ratio about their top-left corner, so a paragraph made bigger shows every line
(a frame that stayed put would hide the lines that no longer fit) and one made
smaller does not grow wider.
After any text change the element is measured again with
:func:`assistant.text.measure.measure_text`, the same measurement the importer
uses, and the result box is checked against the canvas.
"""

from __future__ import annotations

import math
import re

from assistant.actions.engine import EditContext
from assistant.actions.schema import SetTextStyle
from assistant.actions.validate import check_box, check_editable, check_text
from assistant.actions.xml_patch import local_tag
from assistant.document import Document, Element
from assistant.errors import InvalidAction
from assistant.geometry import Box, _fmt
from assistant.svg.css import StyleResolver
from assistant.svg.tree import SvgNode, node_ctm
from assistant.text.fonts import font_extents
from assistant.text.measure import measure_text

TEXT_TAGS = {"text", "flowRoot"}
_NUM_RE = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|pt|pc|mm|cm|in|q)?\s*$", re.I)
_UNIT_PX = {None: 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0,
            "q": 96 / 101.6}


def text_nodes(doc: Document, el: Element) -> list[SvgNode]:
    """The ``<text>``/``<flowRoot>`` nodes of a text element."""
    out = []
    for xml_id in el.nodes:
        n = doc.node(xml_id)
        if local_tag(n) in TEXT_TAGS:
            out.append(n)
        else:
            out.extend(d for d in n.iter() if isinstance(d.tag, str) and local_tag(d) in TEXT_TAGS)
    if not out:
        raise InvalidAction("has no <text> node to edit", el.id)
    return out


def _first_number(value: str | None) -> float | None:
    if not value:
        return None
    m = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", value)
    return float(m.group(1)) if m else None


def anchor_point(node: SvgNode) -> tuple[float, float]:
    """The first glyph position ``(x, y)`` of a ``<text>`` in its own user space.

    That is where its first characters are set: the ``<text>``'s own ``x``/``y`` when it holds characters before
    any ``<tspan>``, else those of the first part that holds some (a ``<text x="-0.09" y="-10">`` whose one tspan
    sets ``x="56.9" y="113"`` starts at 56.9, 113), a part without its own taking what was set before it.
    """
    x, y = _first_number(node.get("x")), _first_number(node.get("y"))
    if (node.text or "").strip():
        return (x or 0.0, y or 0.0)
    for d in node.iter():
        if d is node or not isinstance(d.tag, str):
            continue
        own_x, own_y = _first_number(d.get("x")), _first_number(d.get("y"))
        x = own_x if own_x is not None else x
        y = own_y if own_y is not None else y
        if (d.text or "").strip():
            break
    return (x or 0.0, y or 0.0)


def baseline_of(doc: Document, el: Element) -> float:
    """World y of the first baseline of a text element (SVG text ``y`` is the baseline)."""
    node = text_nodes(doc, el)[0]
    if local_tag(node) == "flowRoot":
        ascent, _ = font_extents(el.font_family, el.font_size or 16.0, el.font_weight or 400)
        return el.box.y + ascent
    return node_ctm(node).apply(*anchor_point(node))[1]


def ctm_scale(node: SvgNode) -> float:
    """The scale from ``node``'s user space to world space; ``InvalidAction`` when it is singular."""
    s = node_ctm(node).scale_factor
    if not s > 0:
        raise InvalidAction("its text is drawn with a singular transform", node.get("id"))
    return s


# -- writing style properties ---------------------------------------------------

def _style_decls(style: str | None) -> list[tuple[str, str]]:
    out = []
    for part in (style or "").split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            out.append((k.strip(), v.strip()))
    return out


def set_property(ctx: EditContext, node: SvgNode, prop: str, value: str) -> None:
    """Set CSS property ``prop`` on ``node`` where it takes effect with the least change."""
    style = node.get("style")
    decls = _style_decls(style)
    if any(k == prop for k, _ in decls):
        parts = []
        for part in (style or "").split(";"):
            if ":" in part and part.split(":", 1)[0].strip() == prop:
                lead = part[: len(part) - len(part.lstrip())]
                part = f"{lead}{prop}:{value}"
            parts.append(part)
        ctx.patch.set_attr(node, "style", ";".join(parts))
    elif node.get(prop) is not None:
        ctx.patch.set_attr(node, prop, value)
    else:
        s = (style or "").strip()
        ctx.patch.set_attr(node, "style", f"{s};{prop}:{value}" if s and not s.endswith(";") else f"{s}{prop}:{value}")


def _own_value(node: SvgNode, prop: str) -> str | None:
    for k, v in _style_decls(node.get("style")):
        if k == prop:
            return v
    return node.get(prop)


def _descendants(node: SvgNode) -> list[SvgNode]:
    return [d for d in node.iter() if d is not node and isinstance(d.tag, str)]


def _scaled_numbers(value: str, ratio: float, origin: float) -> str | None:
    """A list of plain numbers (``x="0 25.06 47.8"``) scaled by ``ratio`` about ``origin``; None for anything else."""
    parts = [p for p in re.split(r"[\s,]+", value.strip()) if p]
    if not parts or not all((m := _NUM_RE.match(p)) and m.group(2) is None for p in parts):
        return None
    if all(abs(float(p) - origin) * abs(ratio - 1.0) <= 1e-9 * max(1.0, abs(origin)) for p in parts):
        return None  # (a line that starts at the first glyph stays as written)
    return " ".join(_fmt(origin + (float(p) - origin) * ratio) for p in parts)


def _scale_positions(ctx: EditContext, node: SvgNode, ratio: float) -> None:
    """Scale absolute glyph and line positions about the first glyph: ``x`` (``dx``) across, ``y`` (``dy``) down.

    A text set glyph by glyph (``x="0 25.06 47.8 …"``, as PDF converters write it) or in runs that each start at
    their own ``x`` keeps its letters spaced for its new size; lines that all start at the first ``x`` stay there.
    """
    x0, y0 = anchor_point(node)
    # (the <text>'s own x places nothing when its parts set their own before any character of it)
    for d in ([node] if (node.text or "").strip() else []) + _descendants(node):
        for attr, origin in (("x", x0), ("dx", 0.0)):
            value = d.get(attr)
            scaled = _scaled_numbers(value, ratio, origin) if value else None
            if scaled is not None:
                ctx.patch.set_attr(d, attr, scaled)
    for d in _descendants(node):
        y = d.get("y")
        if y is not None and _NUM_RE.match(y) and _NUM_RE.match(y).group(2) is None:
            yv = float(y)
            ctx.patch.set_attr(d, "y", _fmt(y0 + (yv - y0) * ratio))
        dy = d.get("dy")
        if dy is not None and _NUM_RE.match(dy) and _NUM_RE.match(dy).group(2) is None:
            ctx.patch.set_attr(d, "dy", _fmt(float(dy) * ratio))


def _scale_spacing(ctx: EditContext, node: SvgNode, ratio: float) -> None:
    """Scale the absolute letter and word spacing of a text and its parts by ``ratio``.

    Tracking set in px is a share of the type size to the eye: left as it was, type made smaller would set looser
    and break its lines elsewhere.
    """
    for n in [node, *_descendants(node)]:
        for prop in ("letter-spacing", "word-spacing"):
            own = _own_value(n, prop)
            m = _NUM_RE.match(own) if own else None
            if m and float(m.group(1)) != 0:
                set_property(ctx, n, prop, _fmt(float(m.group(1)) * _UNIT_PX[(m.group(2) or "").lower() or None]
                                                * ratio))


def _local_number(node: SvgNode, attr: str) -> float | None:
    m = _NUM_RE.match(node.get(attr) or "")
    return float(m.group(1)) if m and m.group(2) is None else None


def _frame_rects(node: SvgNode) -> list[SvgNode]:
    """The ``<rect>`` frames of a ``<flowRoot>`` with plain numeric geometry."""
    return [r for region in node if isinstance(region.tag, str) and local_tag(region) == "flowRegion"
            for r in region if isinstance(r.tag, str) and local_tag(r) == "rect"
            and all(_local_number(r, a) is not None for a in ("x", "y", "width", "height"))]


def _widest_on_page(ctx: EditContext, rect: SvgNode, width: float, right: float) -> float:
    """``width`` for ``rect``, narrowed so that the frame ends at the page's right edge ``right`` at the most.

    A frame already past the edge keeps its width; a frame drawn mirrored or turned is left as asked.
    """
    x, y, w = (_local_number(rect, a) for a in ("x", "y", "width"))
    ctm = node_ctm(rect)
    (x0, y0), (x1, y1) = ctm.apply(x, y), ctm.apply(x + w, y)
    if not (x1 > x0 and abs(y1 - y0) < 1e-9 * max(1.0, x1 - x0)):
        return width
    per_unit = (x1 - x0) / w
    return max(w, min(width, (right - x0) / per_unit))


def _fit_flow(ctx: EditContext, node: SvgNode, el: Element, ratio: float, lines: int) -> None:
    """Scale the frames of flowed text by ``ratio``; a frame that would pass the page's edge grows taller instead.

    ``lines``: how many lines the text had (-1: some were hidden, and are left so). A line that filled its frame to
    the last fraction of a unit may still not fit the frame scaled (advances do not scale quite exactly): the frame
    widens by a hundredth at a time, a few times at the most, to keep that many lines.
    """
    rects = _frame_rects(node)
    page = ctx.layout.canvas.page_box(el.page)
    capped = False
    for rect in rects:
        w, h = _local_number(rect, "width"), _local_number(rect, "height")
        width = w * ratio if ratio <= 1 else _widest_on_page(ctx, rect, w * ratio, page.x2)
        capped = capped or width < w * ratio
        ctx.patch.set_attr(rect, "width", _fmt(width))
        ctx.patch.set_attr(rect, "height", _fmt(h * ratio * (w * ratio / width)))
    resolver = StyleResolver(ctx.doc.root)
    for _ in range(3 if rects and not capped and lines >= 0 else 0):
        tm = measure_text(node, resolver)
        if tm is None or len(tm.lines) <= lines:
            break
        for rect in rects:
            ctx.patch.set_attr(rect, "width", _fmt(_local_number(rect, "width") * 1.01))
    # a narrower frame may need more lines than the estimate: it grows until none is hidden
    for _ in range(8 if lines >= 0 else 0):
        tm = measure_text(node, resolver)
        if tm is None or not tm.overflow or not rects:
            return
        for rect in rects:
            ctx.patch.set_attr(rect, "height", _fmt(_local_number(rect, "height") * 1.2))


def _scale_frames(ctx: EditContext, node: SvgNode, el: Element, ratio: float, lines: int) -> None:
    """Scale the frames wrapped text flows into by ``ratio`` about their top-left corner (same line breaks)."""
    if local_tag(node) == "flowRoot":
        _fit_flow(ctx, node, el, ratio, lines)
        return
    size = _own_value(node, "inline-size")
    m = _NUM_RE.match(size) if size else None
    if m:
        set_property(ctx, node, "inline-size", _fmt(float(m.group(1)) * ratio) + (m.group(2) or ""))


def set_font_size(ctx: EditContext, el: Element, world_size: float) -> None:
    """Give the text of ``el`` the world font size ``world_size``, scaling sizes its parts set themselves alike.

    ``el.font_size`` is the size of its largest run: that run gets ``world_size`` and every other size of the
    text (the node's own, a part's own) is scaled by the same ratio, so that a text of mixed sizes keeps them.
    """
    resolver = StyleResolver(ctx.doc.root)
    factor = world_size / el.font_size if el.font_size and el.font_size > 0 else None
    for node in text_nodes(ctx.doc, el):
        ctx.check_not_reused(node, el.id)
        old = resolver.font_size(node)
        local = old * factor if factor is not None else world_size / ctm_scale(node)
        ratio = local / old if old > 0 else 1.0
        if not (math.isfinite(local) and 1e-4 <= ratio <= 1e4):  # a tiny font (font-size="1e-320") cannot grow
            raise InvalidAction(f"its font size ({old:g} in its own units) cannot be scaled to {world_size:g}", el.id)
        overrides = [(d, resolver.specified(d).get("font-size")) for d in _descendants(node)]
        tm = measure_text(node, resolver) if local_tag(node) == "flowRoot" else None
        # (a text already cut short by its frame stays so: what it hid is not for a resize to show)
        lines = -1 if tm is None or tm.overflow else len(tm.lines)
        set_property(ctx, node, "font-size", _fmt(local))
        for d, own in overrides:
            m = _NUM_RE.match(own) if own else None
            if m:  # absolute sizes would not follow the parent: scale them alike
                px = float(m.group(1)) * _UNIT_PX[(m.group(2) or "").lower() or None]
                set_property(ctx, d, "font-size", _fmt(px * ratio))
        if abs(ratio - 1.0) > 1e-12:
            _scale_positions(ctx, node, ratio)
            _scale_spacing(ctx, node, ratio)
            _scale_frames(ctx, node, el, ratio, lines)
            lh = _own_value(node, "line-height")
            m = _NUM_RE.match(lh) if lh else None
            if m and m.group(2):
                px = float(m.group(1)) * _UNIT_PX[m.group(2).lower()]
                set_property(ctx, node, "line-height", _fmt(px * ratio))


def set_plain_property(ctx: EditContext, el: Element, prop: str, value: str) -> None:
    """Set ``prop`` on the element's text nodes and on descendants that specify it themselves."""
    resolver = StyleResolver(ctx.doc.root)
    for node in text_nodes(ctx.doc, el):
        ctx.check_not_reused(node, el.id)
        set_property_over(ctx, resolver, node, prop, value)


def set_property_over(ctx: EditContext, resolver: StyleResolver, node: SvgNode, prop: str, value: str) -> None:
    """Set ``prop`` on ``node`` and on its descendants that set it themselves (which would win otherwise)."""
    overrides = [d for d in _descendants(node) if prop in resolver.specified(d)]
    set_property(ctx, node, prop, value)
    for d in overrides:
        set_property(ctx, d, prop, value)


# -- measuring ----------------------------------------------------------------------

def remeasure(ctx: EditContext, el: Element) -> Element:
    """``el`` with box and text properties measured again from its (patched) XML."""
    resolver = StyleResolver(ctx.doc.root)
    boxes: list[Box] = []
    first = None
    lines = 0
    for node in text_nodes(ctx.doc, el):
        tm = measure_text(node, resolver)
        if tm is None:
            continue
        lines += max(len(tm.lines), 1)
        ctm = node_ctm(node)
        boxes.append(ctm.map_box(tm.box))
        if first is None or tm.font_size * ctm.scale_factor > first[0].font_size * first[1]:
            first = (tm, ctm.scale_factor)
    if not boxes or first is None:
        raise InvalidAction("its text could not be measured after the edit", el.id)
    tm, s = first
    return el.model_copy(update={
        "box": Box.union_all(boxes),
        "font_family": tm.font_family or el.font_family,
        "font_size": tm.font_size * s,
        "font_weight": tm.font_weight,
        "line_height": tm.line_height * s if tm.line_height is not None else el.line_height,
        "lines": lines,
        "fill": tm.fill if tm.fill is not None else el.fill,
    })


def commit_text(ctx: EditContext, el: Element, *, check: bool = True) -> Element:
    """Measure ``el`` again, check the new box (unless told not to), and put it in the layout."""
    new = remeasure(ctx, el)
    if check:
        check_box(ctx.layout, el.id, el.box, new.box)
    ctx.update(new)
    return new


# -- actions ----------------------------------------------------------------------------

def apply_set_text_style(ctx: EditContext, a: SetTextStyle) -> None:
    """Set font size, weight, fill and/or family of the text elements."""
    els = check_editable(ctx.layout, a.ids)
    for el in els:
        check_text(el)
    for el in els:
        if a.font_size is not None:
            set_font_size(ctx, el, a.font_size)
        if a.font_weight is not None:
            set_plain_property(ctx, el, "font-weight", str(a.font_weight))
        if a.fill is not None:
            set_plain_property(ctx, el, "fill", a.fill.lower())
        if a.font_family is not None:
            set_plain_property(ctx, el, "font-family", a.font_family)
        commit_text(ctx, el)
