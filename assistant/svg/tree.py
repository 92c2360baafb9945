"""Navigating an SVG tree: names, references and coordinate systems.

World space is the user space of the root ``<svg>`` (SVG 1.1 §7.3): the root's
own viewBox→viewport transform is *not* part of it, so world units are viewBox
units. ``node_ctm(node)`` maps a node's own user space to world space; it is
the product of ``local_matrix`` of every ancestor below the root and of the
node itself (SVG 1.1 §7.4–7.5 "nested transformations").

``local_matrix`` of an element is its ``transform`` attribute (with SVG 2
``transform-origin``), followed for ``<use>`` by ``translate(x, y)`` (SVG 1.1
§5.6) and for a nested ``<svg>`` by ``translate(x, y)`` and its
viewBox→viewport transform (§7.8). A ``transform`` on the root ``<svg>``
itself (SVG 2) is not part of world space. Moving a node by a world displacement
``(dx, dy)``: prepend ``translate(L⁻¹·(dx, dy))`` to its ``transform``, where
``L`` is the linear part of ``parent_ctm(node)``.
"""

from __future__ import annotations

from lxml import etree

from assistant.geometry import Matrix, parse_transform
from assistant.svg.units import (
    parse_length,
    parse_preserve_aspect_ratio,
    parse_view_box,
    viewbox_offset,
    viewbox_scale,
)

#: A node of a parsed SVG tree (an element, or a comment or processing instruction).
SvgNode = etree._Element

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
SODIPODI_NS = "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"

#: Elements whose content is never drawn in place (SVG 1.1 §5.3, §14, §13).
NON_RENDERED = frozenset({
    "defs", "symbol", "clipPath", "mask", "pattern", "marker", "linearGradient", "radialGradient",
    "filter", "style", "script", "title", "desc", "metadata", "font", "font-face", "glyph",
    "missing-glyph", "hkern", "vkern", "cursor", "view", "animate", "set", "animateMotion",
    "animateTransform", "animateColor", "solidColor", "solidcolor", "meshgradient", "hatch",
    "foreignObject",
})


def local_name(node: SvgNode) -> str | None:
    """The SVG element name of ``node`` (``"rect"``), or ``None`` for foreign nodes.

    Elements in the SVG namespace count; so do un-namespaced elements when the
    root itself has no namespace (a common hand-written mistake browsers
    tolerate when the file is opened as SVG).
    """
    tag = node.tag
    if not isinstance(tag, str):
        return None
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return name if ns == SVG_NS else None
    if ":" in tag:
        return None
    root_tag = node.getroottree().getroot().tag
    return tag if isinstance(root_tag, str) and not root_tag.startswith("{") else None




def href(node: SvgNode) -> str | None:
    """The ``href`` (SVG 2) or ``xlink:href`` (SVG 1.1) of a node."""
    return node.get("href") if node.get("href") is not None else node.get(f"{{{XLINK_NS}}}href")


def id_index(root: SvgNode) -> dict[str, SvgNode]:
    """Map from ``id`` to node (the first node wins when ids repeat)."""
    out: dict[str, SvgNode] = {}
    for n in root.iter():
        if isinstance(n.tag, str):
            i = n.get("id")
            if i and i not in out:
                out[i] = n
    return out


def ref_id(value: str | None) -> str | None:
    """The id in ``#id`` or ``url(#id)`` (with optional quotes), else ``None``."""
    if not value:
        return None
    v = value.strip()
    if v.lower().startswith("url("):
        end = v.find(")")
        v = v[4:end if end > 0 else None].strip().strip("'\"")
    return v[1:] if v.startswith("#") and len(v) > 1 else None


def viewport_size(node: SvgNode) -> tuple[float, float]:
    """Width and height of the viewport that ``node``'s percentages refer to.

    The nearest ancestor ``<svg>`` (the node itself excluded): its viewBox size
    when it has one, else its own width/height (100 × 100 when unknown).
    """
    p = node.getparent()
    while p is not None and local_name(p) != "svg":
        p = p.getparent()
    if p is None:
        return 100.0, 100.0
    vb = parse_view_box(p.get("viewBox"))
    if vb and vb[2] > 0 and vb[3] > 0:
        return vb[2], vb[3]
    if p.getparent() is None:
        w = parse_length(p.get("width"))
        h = parse_length(p.get("height"))
        return (w or 100.0), (h or 100.0)
    pw, ph = viewport_size(p)
    w = parse_length(p.get("width") or "100%", percent_of=pw)
    h = parse_length(p.get("height") or "100%", percent_of=ph)
    return (w or pw), (h or ph)


def _origin(node: SvgNode) -> tuple[float, float]:
    """SVG 2 ``transform-origin`` (CSS Transforms 1 §6) in user units; keywords/% of the viewport."""
    text = node.get("transform-origin")
    if not text:
        style = node.get("style") or ""
        for decl in style.split(";"):
            name, _, value = decl.partition(":")
            if name.strip().lower() == "transform-origin":
                text = value
    if not text or not text.strip():
        return 0.0, 0.0
    vw, vh = viewport_size(node)
    words = text.split()
    keyword = {"left": ("x", 0.0), "right": ("x", 1.0), "top": ("y", 0.0), "bottom": ("y", 1.0)}
    x: float | None = None
    y: float | None = None
    pending: list[str] = []
    for w in words[:2]:
        lw = w.lower()
        if lw in keyword:
            axis, frac = keyword[lw]
            if axis == "x":
                x = frac * vw
            else:
                y = frac * vh
        else:
            pending.append(lw)
    for w in pending:
        if x is None:
            x = vw / 2 if w == "center" else parse_length(w, percent_of=vw, default=0.0)
        elif y is None:
            y = vh / 2 if w == "center" else parse_length(w, percent_of=vh, default=0.0)
    if x is None:
        x = vw / 2
    if y is None:
        y = vh / 2
    return float(x or 0.0), float(y or 0.0)


def transform_matrix(node: SvgNode) -> Matrix:
    """The node's ``transform`` attribute (identity when absent or invalid), with transform-origin."""
    text = node.get("transform")
    if not text:
        return Matrix()
    try:
        m = parse_transform(text)
    except ValueError:
        return Matrix()
    if node.get("transform-origin") or "transform-origin" in (node.get("style") or ""):
        ox, oy = _origin(node)
        if ox or oy:
            m = Matrix.translate(ox, oy) @ m @ Matrix.translate(-ox, -oy)
    return m


def nested_svg_matrix(node: SvgNode, width: float | None = None, height: float | None = None) -> Matrix:
    """``translate(x, y)`` then the viewBox→viewport transform of a nested ``<svg>`` (or symbol)."""
    vw, vh = viewport_size(node)
    x = parse_length(node.get("x"), percent_of=vw, default=0.0) or 0.0
    y = parse_length(node.get("y"), percent_of=vh, default=0.0) or 0.0
    if local_name(node) == "symbol":
        x = y = 0.0  # a symbol's x/y belong to the referencing use (SVG 2 §5.6.2)
    w = width if width is not None else parse_length(node.get("width") or "100%", percent_of=vw, default=vw)
    h = height if height is not None else parse_length(node.get("height") or "100%", percent_of=vh, default=vh)
    m = Matrix.translate(x, y)
    vb = parse_view_box(node.get("viewBox"))
    if vb and vb[2] > 0 and vb[3] > 0 and w and h and w > 0 and h > 0:
        align, mode = parse_preserve_aspect_ratio(node.get("preserveAspectRatio"))
        sx, sy = viewbox_scale(vb[2], vb[3], w, h, align, mode)
        tx, ty = viewbox_offset(vb[2], vb[3], w, h, sx, sy, align)
        m = m @ Matrix(sx, 0.0, 0.0, sy, tx - vb[0] * sx, ty - vb[1] * sy)
    return m


def local_matrix(node: SvgNode) -> Matrix:
    """Transform from ``node``'s user space to its parent's user space (identity for the root)."""
    parent = node.getparent()
    if parent is None:
        return Matrix()
    name = local_name(node)
    m = transform_matrix(node)
    if name == "use":
        vw, vh = viewport_size(node)
        x = parse_length(node.get("x"), percent_of=vw, default=0.0) or 0.0
        y = parse_length(node.get("y"), percent_of=vh, default=0.0) or 0.0
        if x or y:
            m = m @ Matrix.translate(x, y)
    elif name == "svg":
        m = m @ nested_svg_matrix(node)
    return m if m.is_finite() else Matrix()


def node_ctm(node: SvgNode) -> Matrix:
    """Transform from ``node``'s own user space to world space (iterative, no recursion)."""
    chain = []
    n = node
    while n is not None and isinstance(n.tag, str):
        chain.append(n)
        n = n.getparent()
    m = Matrix()
    for anc in reversed(chain):
        m = m @ local_matrix(anc)
    return m


def parent_ctm(node: SvgNode) -> Matrix:
    """Transform from the user space ``node`` is placed in (its parent's) to world space."""
    parent = node.getparent()
    return node_ctm(parent) if parent is not None else Matrix()
