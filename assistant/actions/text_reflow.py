"""``reflow_text``: fit a text element to a width by re-wrapping its lines or scaling its font.

Modes
    ``wrap``: greedy line breaking at the current size
    (:func:`assistant.text.layout.wrap_lines`); the ``<text>`` children are
    replaced by one ``<tspan>`` per line, at the text's own ``x`` and at
    baselines ``y0 + i·line_height`` (the first baseline stays put). The
    first old line ``tspan``'s styling is kept on every new line.
    ``font_size``: the font size becomes ``size · width / widest_line``,
    clamped to ``[min_size, max_size]`` (defaults: 0.6 × and 1 × the current
    size, so by default text only shrinks).
    ``auto``: nothing when the text already fits; ``font_size`` when a
    reduction to no less than 75 % (and ``min_size``) suffices, else ``wrap``.
"""

from __future__ import annotations

from assistant.actions.engine import EditContext
from assistant.actions.schema import ReflowText
from assistant.actions.text_ops import anchor_point, commit_text, ctm_scale, set_font_size, text_nodes
from assistant.actions.validate import check_editable, check_text
from assistant.actions.xml_patch import NodeSpec, local_tag, rebuild_children
from assistant.document import Element
from assistant.errors import InvalidAction
from assistant.geometry import _fmt
from assistant.svg.tree import SvgNode
from assistant.text.fonts import text_advance
from assistant.text.layout import wrap_lines

_POSITION_ATTRS = {"x", "y", "dx", "dy", "rotate", "id", "textLength", "lengthAdjust"}
_CONTENT_TAGS = {"tspan", "textPath", "a", "tref"}


def current_lines(node: SvgNode) -> list[str]:
    """The text lines of a ``<text>``: one per positioned child ``tspan``, else one line."""
    lines: list[str] = []
    head = (node.text or "").strip()
    if head:
        lines.append(head)
    for child in node:
        if not isinstance(child.tag, str):
            continue
        text = "".join(child.itertext()).strip()
        tail = (child.tail or "").strip()
        starts_line = child.get("y") is not None or child.get("dy") is not None or \
            any(k.endswith("}role") and v == "line" for k, v in child.attrib.items())
        if text:
            if starts_line or not lines:
                lines.append(text)
            else:
                lines[-1] = f"{lines[-1]} {text}"
        if tail:
            lines[-1:] = [f"{lines[-1]} {tail}"] if lines else [tail]
    return [ln for ln in (" ".join(x.split()) for x in lines) if ln]


def _font(el: Element, node: SvgNode) -> tuple[str | None, float, int]:
    s = ctm_scale(node)
    return el.font_family, (el.font_size or 16.0) / s, el.font_weight or 400


def widest_line(lines: list[str], family: str | None, size: float, weight: int) -> float:
    """Advance width of the widest of ``lines`` in this font."""
    return max((text_advance(ln, family, size, weight) for ln in lines), default=0.0)


def _line_height(el: Element, node: SvgNode, size: float) -> float:
    if el.line_height:
        return el.line_height / ctm_scale(node)
    ys = [float(c.get("y")) for c in node if isinstance(c.tag, str) and _is_number(c.get("y"))]
    steps = [b - a for a, b in zip(ys, ys[1:]) if b > a]
    return min(steps) if steps else 1.25 * size


def _is_number(v: str | None) -> bool:
    try:
        float(v)  # type: ignore[arg-type]
        return True
    except (TypeError, ValueError):
        return False


def rewrite_lines(ctx: EditContext, node: SvgNode, lines: list[str], line_height: float) -> None:
    """Replace the content of ``node`` by one ``tspan`` per line (old nodes kept in the patch)."""
    ctx.check_not_reused(node, node.get("id") or "")
    x, y0 = anchor_point(node)
    ns = node.tag[1:].split("}", 1)[0] if node.tag.startswith("{") else None
    tag = f"{{{ns}}}tspan" if ns else "tspan"
    template = next((c for c in node if isinstance(c.tag, str) and local_tag(c) == "tspan"), None)
    keep = [c for c in node if isinstance(c.tag, str) and local_tag(c) not in _CONTENT_TAGS]
    attrs = [(k, v) for k, v in (template.attrib.items() if template is not None else [])
             if k not in _POSITION_ATTRS]
    new_children = [NodeSpec.of(c) for c in keep]
    for c in new_children:
        c.tail = None
    for i, line in enumerate(lines):
        pos = [("x", _fmt(x)), ("y", _fmt(y0 + i * line_height))]
        new_children.append(NodeSpec("element", tag, pos + attrs, {}, line, None, []))
    ctx.run_structural(rebuild_children(node, None, new_children, what="lines"))


def reflow(ctx: EditContext, el: Element, a: ReflowText, width: float) -> None:
    """Fit ``el`` into ``width`` (world units) by wrapping its lines or changing its font size, as ``a.mode`` says."""
    nodes = text_nodes(ctx.doc, el)
    node = nodes[0]
    family, size, weight = _font(el, node)
    s = ctm_scale(node)
    w_local = width / s
    lines = current_lines(node) if local_tag(node) == "text" else [el.text or ""]
    widest = widest_line(lines, family, size, weight)
    if widest <= 0:
        raise InvalidAction("has no text to reflow", el.id)
    world = el.font_size or size * s
    lo = a.min_size if a.min_size is not None else 0.6 * world
    hi = a.max_size if a.max_size is not None else max(world, lo)
    fit = world * w_local / widest
    mode = a.mode
    if mode == "auto":
        if widest <= w_local * (1 + 1e-9):
            ctx.notes.append(f"{el.id!r} already fits in {width:.4g} units")
            return
        words = " ".join(lines).split()
        mode = "font_size" if (fit >= max(0.75 * world, lo) or len(words) < 2) else "wrap"
    if mode == "font_size":
        new_size = min(max(fit, lo), hi)
        if abs(new_size - world) <= 1e-9 * world:
            ctx.notes.append(f"{el.id!r} keeps its font size")
            return
        set_font_size(ctx, el, new_size)
    else:
        if local_tag(node) != "text" or len(nodes) > 1:
            raise InvalidAction("only a single <text> can be re-wrapped; use mode='font_size'", el.id)

        new_lines = wrap_lines(" ".join(lines), w_local, family, size, weight)
        if new_lines == lines:
            ctx.notes.append(f"{el.id!r} already wraps that way")
            return
        rewrite_lines(ctx, node, new_lines, _line_height(el, node, size))
    commit_text(ctx, el)


def available_width(ctx: EditContext, el: Element) -> float:
    """Width from the text's anchor to the safe margin(s) it grows towards."""
    s = ctx.layout.canvas.safe_box
    b = el.box
    anchor = el.text_anchor or "start"
    if anchor == "middle":
        return 2 * min(b.cx - s.x, s.x2 - b.cx)
    if anchor == "end":
        return b.x2 - s.x
    return s.x2 - b.x


def apply_reflow_text(ctx: EditContext, a: ReflowText) -> None:
    """Fit a text element to ``width``, or to the room it has inside the margins."""
    (el,) = check_editable(ctx.layout, [a.id])
    check_text(el)
    width = a.width if a.width is not None else available_width(ctx, el)
    if not width > 0:
        raise InvalidAction("has no room to reflow into inside the margins; give a width", el.id)
    reflow(ctx, el, a, width)
