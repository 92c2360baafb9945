"""Wrapped text: Inkscape ``<flowRoot>``, SVG 2 ``inline-size`` and ``shape-inside``.

Inkscape flowed text (Inkscape 0.4x–0.92, SVG 1.2 draft): a ``<flowRoot>``
holds a ``<flowRegion>`` (rects, paths or ``<use>`` of a shape; the text fills
them one after another) and paragraphs (``<flowPara>``, ``<flowDiv>``,
``<flowSpan>`` runs, ``<flowLine>`` forced breaks). Each paragraph is wrapped
greedily into the region's width with real advances (``textlayout``); an
empty paragraph still takes one line.

Lines follow the CSS inline formatting model: a line's height is the largest
``line-height`` of its runs (``normal`` → 1.25 em, Inkscape's default), its
baseline sits at ``top + half-leading + ascent``; the next line starts one
line height lower. A line whose glyphs (baseline + descent) would cross the
bottom of the region moves to the next region shape, or, when there is none,
is not drawn (as in Inkscape) and the text is marked ``overflow``. A word
wider than its frame is broken between characters when the frame is at least
``WORD_BREAK`` line boxes wide; in a narrower frame it fits no line, and the
text stops there: it and everything after it overflow (Inkscape 1.2,
``Layout-TNG-Compute.cpp``; a name flowed into a frame too small for it shows
nothing).
Regions are the axis-aligned boxes of their shapes (a path flows as its box).
``text-align`` (``start``/``center``/``end``/``justify``; else
``text-anchor``) places each line; justified lines (all but a paragraph's
last) spread the free space over their spaces.

SVG 2 ``inline-size`` wraps a ``<text>`` to that width starting at its first
``x``/``y`` (``text-anchor`` decides whether lines extend right of, around or
left of ``x``); ``shape-inside: url(#id)`` wraps it into the referenced
shape's box, first line at the top. Both use the same line model.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.geometry import Box, parse_transform
from assistant.svg import pathbbox
from assistant.svg.css import StyleResolver, resolve_length
from assistant.svg.tree import SvgNode
from assistant.text.layout import (
    _CONTENT_TAGS,
    _SKIP_TAGS,
    FontSpec,
    LinePlacement,
    Piece,
    Segment,
    TextMetrics,
    _anchor,
    _clean,
    _hidden,
    _summarize,
    font_spec,
    line_height_of,
    local,
    pieces_of,
    preserves_space,
    wrap_pieces,
)

_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_UNBOUNDED = 1e9
#: A frame at least this many line boxes wide breaks a word too long for it between characters.
WORD_BREAK = 4.0


def _id_lookup(node: SvgNode, ref: str) -> SvgNode | None:
    ref = ref.strip()
    if ref.startswith("url("):
        ref = ref[4:].split(")", 1)[0].strip("'\" ")
    if not ref.startswith("#"):
        return None
    found = node.getroottree().getroot().xpath("//*[@id=$i]", i=ref[1:])
    return found[0] if found else None


def _float(node: SvgNode, name: str, default: float = 0.0) -> float:
    value = node.get(name)
    if value is None:
        return default
    try:
        return resolve_length(value, 16.0, 0.0, default=default)
    except ValueError:
        return default


def shape_box(shape: SvgNode, depth: int = 0) -> Box | None:
    """Axis-aligned box of a region shape in its parent's user space (its ``transform`` applied)."""
    name = local(shape)
    try:
        m = parse_transform(shape.get("transform"))
    except ValueError:
        return None
    box: Box | None = None
    if name == "rect":
        w, h = _float(shape, "width"), _float(shape, "height")
        if w > 0 and h > 0:
            box = Box(x=_float(shape, "x"), y=_float(shape, "y"), width=w, height=h)
    elif name in ("circle", "ellipse"):
        rx = _float(shape, "r") if name == "circle" else _float(shape, "rx")
        ry = _float(shape, "r") if name == "circle" else _float(shape, "ry")
        if rx > 0 and ry > 0:
            box = Box.from_edges(_float(shape, "cx") - rx, _float(shape, "cy") - ry,
                                 _float(shape, "cx") + rx, _float(shape, "cy") + ry)
    elif name == "path":
        try:
            box = pathbbox.path_bbox(shape.get("d"))
        except ValueError:
            box = None
    elif name in ("polygon", "polyline"):
        nums = [float(v) for v in shape.get("points", "").replace(",", " ").split() if v]
        pts = list(zip(nums[0::2], nums[1::2]))
        box = Box.from_points(pts) if pts else None
    elif name == "use" and depth < 8:
        ref = shape.get(_XLINK_HREF) or shape.get("href")
        target = _id_lookup(shape, ref or "")
        inner = shape_box(target, depth + 1) if target is not None else None
        if inner is not None:
            box = inner.translated(_float(shape, "x"), _float(shape, "y"))
    if box is None:
        return None
    return box if m.is_identity else m.map_box(box)


# -- runs ------------------------------------------------------------------

def _runs(node: SvgNode, resolver: StyleResolver, preserve: bool) -> list[tuple[str, SvgNode, FontSpec]]:
    """``(text, node, font)`` runs of a paragraph in document order; flowLine → newline."""
    fonts: dict[SvgNode, FontSpec] = {}
    out: list[tuple[str, SvgNode, FontSpec]] = []

    def spec(n: SvgNode) -> FontSpec:
        if n not in fonts:
            fonts[n] = font_spec(n, resolver)
        return fonts[n]

    def add(text: str | None, owner: SvgNode) -> None:
        if text:
            t = _clean(text, preserve)
            if not preserve:
                t = " ".join(t.split(" "))
            out.append((t, owner, spec(owner)))

    _walk_runs(node, add, spec, out, resolver)
    return out


def _walk_runs(n: SvgNode, add: Callable[[str | None, SvgNode], None], spec: Callable[[SvgNode], FontSpec],
               out: list[tuple[str, SvgNode, FontSpec]], resolver: StyleResolver) -> None:
    """Add the runs of ``n`` and of its shown content elements (a ``flowLine`` ends in a newline)."""
    add(n.text, n)
    for child in n:
        name = local(child)
        if name in _CONTENT_TAGS and name not in _SKIP_TAGS and not _hidden(child, resolver):
            _walk_runs(child, add, spec, out, resolver)
            if name == "flowLine":
                out.append(("\n", n, spec(n)))
        add(child.tail, n)


def _paragraphs(root: SvgNode, resolver: StyleResolver) -> list[SvgNode]:
    """The paragraph elements of a flowRoot, in order (flowDiv contents flattened)."""
    paras: list[SvgNode] = []
    for child in root:
        name = local(child)
        if name == "flowPara":
            paras.append(child)
        elif name == "flowDiv":
            paras.extend(_paragraphs(child, resolver))
        elif name == "flowSpan":
            paras.append(child)
    return [p for p in paras if not _hidden(p, resolver)]


# -- line placement ------------------------------------------------------------

def _align(node: SvgNode, resolver: StyleResolver) -> str:
    value = (resolver.get(node, "text-align") or "").strip().lower()
    if value in ("center", "middle"):
        return "center"
    if value in ("end", "right"):
        return "end"
    if value == "justify":
        return "justify"
    if value in ("start", "left"):
        return "start"
    anchor = _anchor(node, resolver)
    return {"middle": "center", "end": "end"}.get(anchor, "start")


class _Flow:
    """Places lines into a list of region boxes, top to bottom."""

    def __init__(self, regions: list[Box]) -> None:
        self.regions = regions
        self.index = 0
        self.top = regions[0].y if regions else 0.0
        self.overflow = False

    def place(self, height: float, ascent: float, descent: float) -> tuple[Box, float] | None:
        """Region and baseline for a line of this height, or None when nothing is left."""
        while self.index < len(self.regions):
            region = self.regions[self.index]
            baseline = self.top + (height - (ascent + descent)) / 2 + ascent
            if baseline + descent <= region.y2 + 1e-6 or region.height >= _UNBOUNDED:
                self.top += height
                return region, baseline
            self.index += 1
            if self.index < len(self.regions):
                self.top = self.regions[self.index].y
        self.overflow = True
        return None


def _broken(line: list[Piece], width: float) -> list[list[Piece]]:
    """``line``, one word too wide for ``width``, broken between characters (each line as full as fits)."""
    out: list[list[Piece]] = [[]]
    used = 0.0
    for p in line:
        text = p.text
        while text:
            n = len(text)  # the longest start of what is left that fits the rest of the line
            while n > 0 and used + p.font.advance(text[:n]) > width + 1e-9:
                n -= 1
            if n == 0 and out[-1]:
                out.append([])
                used = 0.0
                continue
            n = max(n, 1)  # one character always stands on a line of its own
            out[-1].append(Piece(text[:n], p.node, p.font, p.font.advance(text[:n])))
            used += out[-1][-1].width
            text = text[n:]
            if text:
                out.append([])
                used = 0.0
    return [x for x in out if x]


def _layout(paragraphs: list[tuple[SvgNode, list[Piece]]], regions: list[Box], resolver: StyleResolver,
            default_align: str | None = None) -> tuple[list[LinePlacement], list[str], bool]:
    flow = _Flow(regions)
    bounded = all(r.height < _UNBOUNDED for r in regions)  # a frame, not SVG 2 ``inline-size``
    placements: list[LinePlacement] = []
    hidden: list[str] = []
    for para, pieces in paragraphs:
        align = default_align or _align(para, resolver)
        para_font = font_spec(para, resolver)
        width = regions[flow.index].width if flow.index < len(regions) else regions[-1].width
        lines = wrap_pieces(pieces, width) if pieces else [[]]
        li = 0
        while li < len(lines):
            line = lines[li]
            while line and line[-1].space:
                line = line[:-1]
            fonts = [p.font for p in line] or [para_font]
            nodes = [p.node for p in line] or [para]
            height = max(line_height_of(n, resolver, f.size) for n, f in zip(nodes, fonts))
            ascent = max(f.extents()[0] for f in fonts)
            descent = max(f.extents()[1] for f in fonts)
            text = "".join(p.text for p in line)
            li += 1
            if bounded and text.strip() and sum(p.width for p in line) > width + 1e-6:
                if width >= WORD_BREAK * height and len(text.strip()) > 1:  # broken between characters
                    lines[li - 1:li] = _broken(line, width)
                    li -= 1
                    continue
                flow.overflow = True  # it fits no line: the text stops here
            spot = None if flow.overflow else flow.place(height, ascent, descent)
            if spot is None:
                if text.strip():
                    hidden.append(text.strip())
                continue
            region, baseline = spot
            if not text.strip():
                continue
            natural = sum(p.width for p in line)
            justify = align == "justify" and li < len(lines)
            gaps = sum(1 for p in line if p.space)
            extra = (region.width - natural) / gaps if justify and gaps and natural < region.width else 0.0
            x = region.x
            if align == "center":
                x = region.x + (region.width - natural) / 2
            elif align == "end":
                x = region.x2 - natural
            segs: list[Segment] = []
            for p in line:
                if p.space and extra:
                    x += p.width + extra  # justified: each word becomes its own segment
                    continue
                if not extra and segs and segs[-1].node is p.node:
                    segs[-1].text += p.text
                    segs[-1].width += p.width
                else:
                    segs.append(Segment(p.text, x, baseline, p.width, p.node, p.font))
                x += p.width
            if segs:
                x0 = segs[0].x
                placements.append(LinePlacement(text.strip(), x0, baseline,
                                                segs[-1].x + segs[-1].width - x0, segs))
    return placements, hidden, flow.overflow


def _box_of(placements: list[LinePlacement]) -> Box | None:
    edges = []
    for p in placements:
        for s in p.segments:
            if s.text.strip() and s.font.size > 0:
                asc, desc = s.font.extents()
                edges.append((s.x, s.y - asc, s.x + s.width, s.y + desc))
    if not edges:
        return None
    return Box.from_edges(min(e[0] for e in edges), min(e[1] for e in edges),
                          max(e[2] for e in edges), max(e[3] for e in edges))


class _Chars:
    """Adapter giving ``_summarize`` the characters of placed segments."""

    def __init__(self, ch: str, node: SvgNode) -> None:
        self.ch, self.node = ch, node


def _finish(node: SvgNode, resolver: StyleResolver, placements: list[LinePlacement], hidden: list[str],
            overflow: bool, layout: str, region: Box | None) -> TextMetrics | None:
    box = _box_of(placements)
    if box is None:
        return None
    chars = [_Chars(ch, s.node) for p in placements for s in p.segments for ch in s.text]
    fonts: dict[SvgNode, FontSpec] = {s.node: s.font for p in placements for s in p.segments}

    def spec(n: SvgNode) -> FontSpec:
        return fonts[n] if n in fonts else font_spec(n, resolver)

    line_height = None
    if len(placements) < 2:
        main = placements[0].segments[0]
        line_height = line_height_of(main.node, resolver, main.font.size)
    metrics = _summarize(node, resolver, chars, placements, box, spec, layout=layout, line_height=line_height)
    metrics.overflow = overflow
    metrics.hidden_lines = hidden
    metrics.region = region
    return metrics


def measure_flow(node: SvgNode, resolver: StyleResolver) -> TextMetrics | None:
    """Lay out an Inkscape ``<flowRoot>`` (see the module docstring); None when nothing shows."""
    regions: list[Box] = []
    for child in node:
        if local(child) == "flowRegion":
            for shape in child:
                b = shape_box(shape)
                if b is not None and b.width > 0:
                    regions.append(b)
    if not regions:
        return None
    preserve = preserves_space(node, resolver)
    paragraphs = [(p, pieces_of(_runs(p, resolver, preserve))) for p in _paragraphs(node, resolver)]
    placements, hidden, overflow = _layout(paragraphs, regions, resolver)
    return _finish(node, resolver, placements, hidden, overflow, "flow", Box.union_all(regions))


def measure_wrapped_text(node: SvgNode, resolver: StyleResolver) -> TextMetrics | None:
    """Lay out a ``<text>`` with ``shape-inside`` or ``inline-size``; None when neither applies."""
    style = resolver.computed(node)
    preserve = preserves_space(node, resolver)
    runs = _runs(node, resolver, preserve)
    if not preserve and runs:
        first, *rest = runs
        runs = [(first[0].lstrip(), first[1], first[2]), *rest]
    pieces = pieces_of(runs)
    shape_ref = style.get("shape-inside") or ""
    if "url(" in shape_ref:
        for ref in shape_ref.split("url(")[1:]:
            target = _id_lookup(node, "url(" + ref)
            region = shape_box(target) if target is not None else None
            if region is not None:
                placements, hidden, overflow = _layout([(node, pieces)], [region], resolver)
                return _finish(node, resolver, placements, hidden, overflow, "shape-inside", region)
        return None
    size = resolver.font_size(node)
    width = resolve_length(style.get("inline-size", "0"), size, 0.0)
    if width <= 0:
        return None
    xs = (node.get("x") or "0").replace(",", " ").split()
    ys = (node.get("y") or "0").replace(",", " ").split()
    x = resolve_length(xs[0], size, 0.0) if xs else 0.0
    y = resolve_length(ys[0], size, 0.0) if ys else 0.0
    anchor = _anchor(node, resolver)
    left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    font = font_spec(node, resolver)
    ascent, descent = font.extents()
    lh = line_height_of(node, resolver, size)
    # The first baseline is the text's y: the region starts one half-leading + ascent above it.
    top = y - ((lh - (ascent + descent)) / 2 + ascent)
    region = Box(x=left, y=top, width=width, height=_UNBOUNDED)
    align = {"middle": "center", "end": "end"}.get(anchor, "start")
    placements, hidden, overflow = _layout([(node, pieces)], [region], resolver, default_align=align)
    return _finish(node, resolver, placements, hidden, overflow, "inline-size", None)
