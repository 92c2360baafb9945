"""Turn wrapped text into plain positioned ``<text>`` so any SVG 1.1 renderer draws it.

cairosvg (like most renderers) does not draw Inkscape's ``<flowRoot>`` and
ignores SVG 2 ``inline-size``/``shape-inside``. ``flatten_wrapped_text(tree)``
returns a COPY of the tree in which each such element is replaced, in place, by
a ``<text>`` whose ``<tspan>``s sit at the baselines and x positions computed by
``assistant.text.flow`` (same id, ``transform``, class and paint). Each tspan
names the installed font family it was measured with, so the renderer draws
the very glyphs that were measured. Lines that did not fit the flow region are
left out, as Inkscape leaves them out.
"""

from __future__ import annotations

import copy

from lxml import etree

from assistant.svg.css import StyleResolver
from assistant.svg.tree import SvgNode
from assistant.text.fonts import FontSpec, face_family, find_face
from assistant.text.layout import TextMetrics, local
from assistant.text.measure import measure_text

SVG_NS = "http://www.w3.org/2000/svg"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_HIDDEN_PARENTS = {"defs", "clipPath", "mask", "pattern", "marker", "symbol"}
#: Paint and decoration properties copied onto each tspan from the run it came from.
_PAINT = ("fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
          "stroke-linejoin", "stroke-linecap", "text-decoration", "paint-order")
_DROP_STYLE = {"shape-inside", "shape-padding", "shape-subtract", "inline-size", "line-height",
               "text-align", "white-space", "font", "font-family", "font-size", "font-weight",
               "font-style", "letter-spacing", "word-spacing", "text-anchor"}


def _fmt(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".") or "0"


def _wrapped_nodes(root: SvgNode, resolver: StyleResolver) -> list[SvgNode]:
    out = []
    for node in root.iter():
        name = local(node)
        if name == "flowRoot":
            out.append(node)
        elif name == "text":
            style = resolver.computed(node)
            if "url(" in (style.get("shape-inside") or "") or (style.get("inline-size") or "").strip():
                out.append(node)
    return [n for n in out if not any(local(a) in _HIDDEN_PARENTS for a in n.iterancestors())]


def _style_text(style: dict[str, str]) -> str:
    return ";".join(f"{k}:{v}" for k, v in style.items())


def _kept_style(node: SvgNode, resolver: StyleResolver) -> str:
    own = resolver.specified(node)
    return _style_text({k: v for k, v in own.items() if k not in _DROP_STYLE and not k.startswith("-inkscape")})


def _segment_style(seg_node: SvgNode, font: FontSpec, resolver: StyleResolver) -> str:
    computed = resolver.computed(seg_node)
    face = find_face(font.family, font.weight, font.style)
    family = face_family(font.family, font.weight, font.style)
    weight = "bold" if face is not None and face.weight >= 600 or face is None and font.weight >= 600 else "normal"
    style = {
        "font-family": f"'{family}'", "font-size": _fmt(font.size) + "px", "font-weight": weight,
        "font-style": "italic" if face is not None and face.italic else "normal",
    }
    if font.letter_spacing:
        style["letter-spacing"] = _fmt(font.letter_spacing) + "px"
    for prop in _PAINT:
        if prop in computed:
            style[prop] = computed[prop]
    return _style_text(style)


def plain_text_for(node: SvgNode, metrics: TextMetrics, resolver: StyleResolver) -> SvgNode:
    """The ``<text>`` element that draws ``metrics`` in place of ``node``."""
    text = etree.Element(f"{{{SVG_NS}}}text", nsmap=None)
    for attr in ("id", "transform", "class", "opacity", "clip-path", "mask", "filter", "display", "visibility"):
        if node.get(attr) is not None:
            text.set(attr, node.get(attr))
    kept = _kept_style(node, resolver)
    if kept:
        text.set("style", kept)
    text.set(XML_SPACE, "preserve")
    for line in metrics.placements:
        for seg in line.segments:
            if not seg.text:
                continue
            tspan = etree.SubElement(text, f"{{{SVG_NS}}}tspan")
            tspan.set("x", _fmt(seg.x))
            tspan.set("y", _fmt(seg.y))
            tspan.set("style", _segment_style(seg.node, seg.font, resolver))
            tspan.text = seg.text
    return text


def flatten_wrapped_text(tree: etree._ElementTree | SvgNode) -> etree._ElementTree:
    """A copy of ``tree`` with flowed and SVG 2 wrapped text replaced by positioned ``<text>``."""
    if not hasattr(tree, "getroot"):
        tree = tree.getroottree()
    resolver = StyleResolver(tree.getroot())
    targets = _wrapped_nodes(tree.getroot(), resolver)
    # Measure on the original (its resolver), then apply to the same nodes in the copy.
    plans = []
    for node in targets:
        metrics = measure_text(node, resolver)
        replacement = plain_text_for(node, metrics, resolver) if metrics is not None else None
        plans.append((node, replacement))
    out = copy.deepcopy(tree)
    twin = dict(zip(tree.getroot().iter(), out.getroot().iter()))
    for node, replacement in plans:
        old = twin[node]
        parent = old.getparent()
        if parent is None:
            continue
        if replacement is None:
            tail = old.tail
            prev = old.getprevious()
            parent.remove(old)
            if tail:
                if prev is not None:
                    prev.tail = (prev.tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
            continue
        replacement.tail = old.tail
        parent.replace(old, replacement)
    return out
