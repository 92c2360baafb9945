"""``set_paint``: the fill, the outline and the opacity of shapes, artwork and text.

What each field touches, in the element's drawn nodes (a group's: all its members'):

* ``fill``: every shape or text that paints a fill (a gradient or pattern fill
  becomes the flat colour). An element drawn by its outline only has no fill to
  set, and is refused: its colour is its ``stroke``.
* ``stroke``: every shape or text whose outline paints. An element with no
  outline gets one only when ``stroke_width`` is given too.
* ``stroke_width``: in world units, converted into each node's own units (its
  transform's scale); it applies to the outlines that paint, or to the new one.
  An outline that would go to nothing where it is all that draws is refused.
  ``stroke_scale`` multiplies the width each outline has ("half as thick").
* ``opacity``: the ``opacity`` of the element's top-most nodes (what they had
  of their own is replaced; what their ancestors add still applies).

Properties are written as text styles are (:func:`~assistant.actions.text_ops.set_property`);
descendants that set the property themselves (a ``tspan`` with its own fill) are
set too. A width change is measured again with the importer's own measure of a
drawn node; a side of the element's box moves only where the box was not cut by a
clip. Pictures have no paint to set: only their opacity.
"""

from __future__ import annotations

from assistant.actions.engine import EditContext
from assistant.actions.schema import SetPaint
from assistant.actions.text_ops import set_property, set_property_over
from assistant.actions.validate import check_box, check_editable
from assistant.actions.xml_patch import local_tag
from assistant.document import Element
from assistant.errors import InvalidAction
from assistant.geometry import Box, _fmt
from assistant.importer.walk import SHAPES, TEXTS, Walker, fill_paints, stroke_paints, stroke_width
from assistant.limits import DEFAULT_LIMITS
from assistant.svg.css import StyleResolver, parse_color
from assistant.svg.rules import num
from assistant.svg.tree import NON_RENDERED, SvgNode, node_ctm

_PAINTED = SHAPES | TEXTS
_HIDDEN = NON_RENDERED | TEXTS


def _painted_nodes(ctx: EditContext, eid: str) -> list[SvgNode]:
    """The shape and text nodes drawn by the element and its members (a text's tspans are its own)."""
    out: list[SvgNode] = []
    seen: set[SvgNode] = set()
    for top in ctx.element_nodes(eid):
        for n in top.iter():
            if not isinstance(n.tag, str) or n in seen or local_tag(n) not in _PAINTED:
                continue
            # (a flowRoot's frame and what defs, clips and masks hold are not drawn as such)
            if n is not top and any(local_tag(p) in _HIDDEN for p in n.iterancestors()):
                continue
            seen.add(n)
            out.append(n)
    return out


def _local_width(node: SvgNode, world: float, style: StyleResolver) -> str:
    """A stroke width of ``world`` world units in the units of ``node`` (its transform's scale)."""
    if (style.get(node, "vector-effect") or "").strip() == "non-scaling-stroke":
        return _fmt(world)
    scale = node_ctm(node).scale_factor
    return _fmt(world / scale if scale > 0 else world)


def _plan_nodes(ctx: EditContext, el: Element, a: SetPaint, style: StyleResolver) -> list[tuple[SvgNode, str, str]]:
    """The (node, property, value) writes ``a`` makes for ``el``; ``InvalidAction`` when it cannot."""
    nodes = _painted_nodes(ctx, el.id)
    writes: list[tuple[SvgNode, str, str]] = []
    if (a.fill, a.stroke, a.stroke_width, a.stroke_scale) != (None, None, None, None) and not nodes:
        raise InvalidAction(f"is a {'picture' if el.kind == 'image' else el.kind} with no shape or text to paint; "
                            "only its opacity can be set", el.id)
    if a.fill is not None:
        filled = [n for n in nodes if fill_paints(style, n)]
        if not filled:
            raise InvalidAction("has no fill: it is drawn by its outline only (set its stroke colour instead)", el.id)
        writes += [(n, "fill", a.fill.lower()) for n in filled]
    outlined = [n for n in nodes if stroke_paints(style, n)]
    if a.stroke_scale is not None and not outlined:
        raise InvalidAction("has no outline to make thinner or thicker", el.id)
    adding = not outlined and (a.stroke is not None or a.stroke_width is not None)
    if adding and (a.stroke is None or a.stroke_width is None):
        missing = "stroke_width" if a.stroke_width is None else "stroke (its colour)"
        raise InvalidAction(f"has no outline; to give it one, set {missing} too", el.id)
    targets = [n for n in nodes if local_tag(n) in SHAPES] if adding else outlined
    if a.stroke is not None:
        writes += [(n, "stroke", a.stroke.lower()) for n in targets]
    if a.stroke_width is not None:
        if a.stroke_width == 0 and any(not fill_paints(style, n) for n in targets):
            raise InvalidAction("is drawn by its outline: with no outline nothing of it would show", el.id)
        writes += [(n, "stroke-width", _local_width(n, a.stroke_width, style)) for n in targets]
    if a.stroke_scale is not None:
        writes += [(n, "stroke-width", _fmt(stroke_width(style, n) * a.stroke_scale)) for n in targets]
    return writes


def _opacity_writes(ctx: EditContext, el: Element, opacity: float, style: StyleResolver
                    ) -> tuple[list[tuple[SvgNode, str, str]], float]:
    """The opacity writes on the element's top-most nodes, and the factor its drawn opacity changes by."""
    tops = ctx.element_nodes(el.id)
    own = num(style.get(tops[0], "opacity"), 1.0) if tops else 1.0
    factor = opacity / own if own > 0 else 1.0
    return [(n, "opacity", _fmt(opacity)) for n in tops], factor


def _measure(root: SvgNode, nodes: list[SvgNode]) -> dict[SvgNode, Box]:
    walker = Walker(root, "", DEFAULT_LIMITS)
    out = {}
    for n in nodes:
        box = walker.leaf_box(n)
        if box is not None:
            out[n] = box
    return out


def _regrown(box: Box, before: list[Box], after: list[Box]) -> Box:
    """``box`` with each side moved as far as its drawn nodes' extent moved, where the box reached that extent."""
    if not before or not after:
        return box
    old, new = Box.union_all(before), Box.union_all(after)
    tol = 1e-6 * max(box.width, box.height, 1.0)
    x = new.x if abs(box.x - old.x) <= tol else box.x
    y = new.y if abs(box.y - old.y) <= tol else box.y
    x2 = new.x2 if abs(box.x2 - old.x2) <= tol else box.x2
    y2 = new.y2 if abs(box.y2 - old.y2) <= tol else box.y2
    return Box(x=x, y=y, width=max(x2 - x, 0.0), height=max(y2 - y, 0.0))


def apply_set_paint(ctx: EditContext, a: SetPaint) -> None:
    """Set the fill, outline colour, outline width and/or opacity of the elements."""
    els = check_editable(ctx.layout, a.ids)
    style = StyleResolver(ctx.doc.root)
    writes: list[tuple[SvgNode, str, str]] = []
    factors: dict[str, float] = {}
    for el in els:
        mine = _plan_nodes(ctx, el, a, style)
        if a.opacity is not None:
            extra, factors[el.id] = _opacity_writes(ctx, el, a.opacity, style)
            mine += extra
        for n, _, _ in mine:
            ctx.check_not_reused(n, el.id)
        writes += mine
    resized = {n for n, prop, _ in writes if prop == "stroke-width"}
    before = _measure(ctx.doc.root, list(resized)) if resized else {}
    for n, prop, value in writes:
        if prop in ("fill", "stroke"):
            set_property_over(ctx, style, n, prop, value)
        else:
            set_property(ctx, n, prop, value)
    after = _measure(ctx.doc.root, list(resized)) if resized else {}
    fresh = StyleResolver(ctx.doc.root)
    for el in els:
        for eid in ctx.subtree_ids(el.id):
            _update(ctx, eid, fresh, before, after, factors.get(el.id, 1.0))


def _update(ctx: EditContext, eid: str, style: StyleResolver, before: dict[SvgNode, Box], after: dict[SvgNode, Box],
            factor: float) -> None:
    """Put the element's new box, fill and opacity in the layout (and mark it changed)."""
    el = ctx.el(eid)
    nodes = _painted_nodes(ctx, eid) if el.kind != "group" else []
    update: dict[str, object] = {}
    mine = [n for n in nodes if n in before]
    if mine:
        box = _regrown(el.box, [before[n] for n in mine], [after[n] for n in mine if n in after])
        check_box(ctx.layout, eid, el.box, box)
        update["box"] = box
    if nodes and el.kind in ("shape", "text"):
        first = nodes[0]
        colour = style.color(first, "fill") if fill_paints(style, first) else None
        if colour is None and el.kind == "shape" and stroke_paints(style, first):
            colour = parse_color(style.get(first, "stroke"))
        if colour is not None:
            update["fill"] = colour
    if abs(factor - 1.0) > 1e-12:
        update["opacity"] = min(1.0, el.opacity * factor)
    new = el.model_copy(update=update)
    ctx.update(new)
    ctx.touched.add(eid)
