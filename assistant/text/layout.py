"""Text layout with real font metrics: ``<text>``/``<tspan>``, line wrapping, measured boxes.

``measure_positioned(node, resolver)`` lays out one positioned ``<text>`` the
way an SVG renderer does and returns its ``TextMetrics`` in the node's own user
space (map ``box`` with ``node_ctm(node)``); :func:`assistant.text.measure.measure_text`
chooses between it and the wrapped layouts of :mod:`assistant.text.flow`:

* ``<text>`` with ``<tspan>``/``<a>``/``<textPath>`` content (SVG 1.1 §10.4–10.5,
  SVG 2 §11.7 simplified): ``x``/``y``/``dx``/``dy`` lists address characters
  in document order, inner elements overriding outer ones; a character with an
  absolute ``x`` or ``y`` starts a new text chunk, and each chunk is shifted by
  its ``text-anchor`` (start/middle/end of the chunk's advance). White space
  follows ``xml:space`` (SVG 1.1 §10.15: newlines removed, tabs to spaces,
  leading/trailing spaces stripped, runs collapsed; ``preserve`` turns each
  newline and tab into a space) and the SVG 2 ``white-space: pre*`` values.
* SVG 2 ``inline-size`` and ``shape-inside``, and Inkscape flowed text
  (``<flowRoot>``): see ``assistant.text.flow``.

Advances come from ``assistant.text.fonts`` (hmtx of the installed face, plus
``letter-spacing``/``word-spacing``); the box spans each glyph's advance
horizontally and the face's ascent/descent vertically (the CSS inline box),
trailing spaces excluded. ``rotate``, ``textLength``, ``baseline-shift`` and
vertical writing modes are not modelled (text is laid out horizontally).
``lines`` groups characters by baseline; ``placements`` gives every line's
baseline and placed segments, which the exporters use to turn wrapped text
into plain ``<text>``.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.geometry import Box, Matrix, parse_transform
from assistant.svg import pathbbox
from assistant.svg.css import StyleResolver, resolve_length
from assistant.svg.tree import SvgNode
from assistant.svg.units import parse_length
from assistant.text.fonts import FontSpec
from assistant.text.linebreak import Piece, pieces_of, wrap_lines, wrap_pieces

__all__ = [
    "FontSpec", "LinePlacement", "Piece", "Segment", "TextMetrics", "font_spec", "line_height_of",
    "measure_positioned", "pieces_of", "preserves_space", "wrap_lines", "wrap_pieces",
]

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_CONTENT_TAGS = {"text", "tspan", "a", "textPath", "flowRoot", "flowPara", "flowSpan", "flowDiv", "flowLine"}
_SKIP_TAGS = {"title", "desc", "metadata", "flowRegion", "flowRegionExclude", "tref"}
#: Line height used for ``line-height: normal`` (Inkscape's default, 1.25 em).
NORMAL_LINE_HEIGHT = 1.25
_LIST_SEPARATORS = re.compile(r"[\s,]+")


def local(node: SvgNode) -> str:
    """Local name of an element tag (``""`` for comments and processing instructions)."""
    tag = node.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def font_spec(node: SvgNode, resolver: StyleResolver) -> FontSpec:
    """The ``FontSpec`` of ``node`` from its computed style."""
    style = resolver.computed(node)
    size = resolver.font_size(node)

    def spacing(name: str) -> float:
        v = style.get(name, "normal")
        return 0.0 if v.strip().lower() == "normal" else resolve_length(v, size, size)

    return FontSpec(
        family=style.get("font-family"), size=size, weight=resolver.font_weight(node),
        style=(style.get("font-style") or "normal").strip().lower(),
        letter_spacing=spacing("letter-spacing"), word_spacing=spacing("word-spacing"),
    )


def line_height_of(node: SvgNode, resolver: StyleResolver, size: float | None = None) -> float:
    """``line-height`` of ``node`` in user units: number × font size, %, length.

    ``normal`` and values that are not positive (Inkscape writes ``line-height:0%``
    on positioned text) count as 1.25 em.
    """
    size = resolver.font_size(node) if size is None else size
    value = (resolver.get(node, "line-height") or "normal").strip().lower()
    if value == "normal":
        return NORMAL_LINE_HEIGHT * size
    try:
        lh = float(value) * size
    except ValueError:
        lh = resolve_length(value, size, size, default=NORMAL_LINE_HEIGHT * size)
    return lh if lh > 0 else NORMAL_LINE_HEIGHT * size


@dataclass
class Segment:
    """A placed piece of one line in one style: start ``x``, baseline ``y``, advance ``width``."""

    text: str
    x: float
    y: float
    width: float
    node: SvgNode = field(repr=False)
    font: FontSpec


@dataclass
class LinePlacement:
    """One laid-out line: its text, start ``x``, baseline ``y``, advance and segments."""

    text: str
    x: float
    y: float
    width: float
    segments: list[Segment] = field(default_factory=list)


@dataclass
class TextMetrics:
    """Measured text in the node's own user space (``box``: map it with ``node_ctm``).

    ``layout`` says how it was laid out: ``text`` (positioned glyphs),
    ``inline-size``, ``shape-inside`` or ``flow`` (Inkscape ``flowRoot``).
    ``overflow`` is True when wrapped text did not fit its region (the lines
    that did not fit are in ``hidden_lines`` and are not drawn).
    """

    box: Box
    text: str
    lines: list[str]
    font_family: str | None
    font_size: float
    font_weight: int
    line_height: float | None
    anchor: str
    fill: str | None
    placements: list[LinePlacement] = field(default_factory=list)
    layout: str = "text"
    overflow: bool = False
    hidden_lines: list[str] = field(default_factory=list)
    region: Box | None = None
    #: where the glyphs are when that is not the whole box (text on a path: boxes along the path)
    ink: list[Box] = field(default_factory=list)


# -- white space -----------------------------------------------------------

def preserves_space(node: SvgNode, resolver: StyleResolver) -> bool:
    """True when ``xml:space="preserve"`` (inherited) or ``white-space: pre*`` applies."""
    ws = (resolver.get(node, "white-space") or "").strip().lower()
    if ws.startswith("pre") or ws == "break-spaces":
        return True
    if ws == "normal" or ws == "nowrap":
        return False
    n = node
    while n is not None:
        v = n.get(XML_SPACE) if isinstance(n.tag, str) else None
        if v is not None:
            return v.strip() == "preserve"
        n = n.getparent()
    return False


def _clean(text: str, preserve: bool) -> str:
    if preserve:
        return re.sub(r"[\r\n\t]", " ", text)
    return text.replace("\r", "").replace("\n", "").replace("\t", " ")


# -- characters of a <text> ----------------------------------------------------

@dataclass(slots=True)
class _Char:
    ch: str
    node: SvgNode
    x: float | None = None
    y: float | None = None
    dx: float = 0.0
    dy: float = 0.0


def _numbers(value: str | None, size: float) -> list[float]:
    if not value:
        return []
    out = []
    for part in _LIST_SEPARATORS.split(value.strip()):
        if part:
            out.append(resolve_length(part, size, 100.0, default=0.0))
    return out


def _hidden(node: SvgNode, resolver: StyleResolver) -> bool:
    return (resolver.specified(node).get("display", "").strip().lower() == "none")


def _collect(root: SvgNode, resolver: StyleResolver) -> tuple[list[_Char], list[tuple[SvgNode, int, int]]]:
    """Characters in document order (white space processed) and each element's char range."""
    chars: list[_Char] = []
    ranges: list[tuple[SvgNode, int, int]] = []
    preserve = preserves_space(root, resolver)

    def add(text: str | None, owner: SvgNode) -> None:
        if not text:
            return
        for ch in _clean(text, preserve):
            if not preserve and ch == " " and (not chars or chars[-1].ch == " "):
                continue
            chars.append(_Char(ch, owner))

    _walk_content(root, add, chars, ranges, resolver)
    if not preserve:
        while chars and chars[-1].ch == " ":
            chars.pop()
        ranges = [(n, s, min(e, len(chars))) for n, s, e in ranges]
    if len(ranges) > 1:
        ranges.sort(key=lambda r: _depth(r[0]))
    return chars, ranges


def _walk_content(node: SvgNode, add: Callable[[str | None, SvgNode], None], chars: list[_Char],
                  ranges: list[tuple[SvgNode, int, int]], resolver: StyleResolver) -> None:
    """Add the characters of ``node`` and of its shown content elements, and record each element's range."""
    start = len(chars)
    add(node.text, node)
    for child in node:
        if local(child) in _CONTENT_TAGS and not _hidden(child, resolver):
            _walk_content(child, add, chars, ranges, resolver)
        add(child.tail, node)
    ranges.append((node, start, len(chars)))


def _depth(node: SvgNode) -> int:
    d = 0
    while node is not None:
        d += 1
        node = node.getparent()
    return d


def _assign_positions(chars: list[_Char], ranges: list[tuple[SvgNode, int, int]],
                      resolver: StyleResolver) -> None:
    """Apply x/y/dx/dy lists, outer elements first so inner ones override (SVG 2 §11.8.1)."""
    for node, start, end in ranges:
        size: float | None = None
        for attr in ("x", "y", "dx", "dy"):
            value = node.get(attr)
            if not value:
                continue
            if size is None:
                size = resolver.font_size(node)
            for i, v in enumerate(_numbers(value, size)[: max(end - start, 0)]):
                setattr(chars[start + i], attr, v)


#: Whether ``measure_positioned`` takes the short way for a plain ``<text>`` (tests compare the two ways).
SHORT_WAY = True
_LONG_WAY = object()


def measure_positioned(node: SvgNode, resolver: StyleResolver) -> TextMetrics | None:
    """Lay out a positioned ``<text>`` (see the module docstring); None when it draws nothing."""
    if SHORT_WAY and len(node) == 0 and not node.get("dx") and not node.get("dy"):
        plain = _measure_plain(node, resolver)
        if plain is not _LONG_WAY:
            return plain  # type: ignore[return-value]
    chars, ranges = _collect(node, resolver)
    if not chars or not any(c.ch.strip() for c in chars):
        return None
    _assign_positions(chars, ranges, resolver)
    fonts: dict[SvgNode, FontSpec] = {}

    def spec(n: SvgNode) -> FontSpec:
        if n not in fonts:
            fonts[n] = font_spec(n, resolver)
        return fonts[n]

    # Advances per character, computed per run of the same owner for speed.
    adv: list[float] = []
    count = len(chars)
    i = 0
    while i < count:
        owner = chars[i].node
        j = i + 1
        while j < count and chars[j].node is owner:
            j += 1
        adv.extend(spec(owner).advances("".join([c.ch for c in chars[i:j]])))
        i = j

    # Pen positions and text chunks.
    pos: list[tuple[float, float]] = []
    chunks: list[list[int]] = []
    cx = cy = 0.0
    for k, c in enumerate(chars):
        new_chunk = k == 0 or c.x is not None or c.y is not None
        if c.x is not None:
            cx = c.x
        if c.y is not None:
            cy = c.y
        cx += c.dx
        cy += c.dy
        if new_chunk:
            chunks.append([])
        chunks[-1].append(k)
        pos.append((cx, cy))
        cx += adv[k]
    shift = [0.0] * len(chars)
    for chunk in chunks:
        anchor = (resolver.get(chars[chunk[0]].node, "text-anchor") or "start").strip().lower()
        width = pos[chunk[-1]][0] + adv[chunk[-1]] - pos[chunk[0]][0]
        d = -width if anchor == "end" else -width / 2 if anchor == "middle" else 0.0
        for k in chunk:
            shift[k] = d

    glyphs: dict[SvgNode, tuple[float, float, float] | None] = {}

    def glyph(n: SvgNode) -> tuple[float, float, float] | None:
        """Ascent, descent and letter spacing of the characters of ``n``; None when font-size 0 draws nothing."""
        if n not in glyphs:
            f = spec(n)
            glyphs[n] = (*f.extents(), f.letter_spacing) if f.size > 0 else None
        return glyphs[n]

    edges: list[tuple[float, float, float, float]] = []
    by_line: dict[float, list[int]] = {}
    for k, c in enumerate(chars):
        x, y = pos[k][0] + shift[k], pos[k][1]
        key = round(y, 3)
        by_line.setdefault(key, []).append(k)
        if c.ch.strip():
            g = glyph(c.node)
            if g is not None:
                asc, desc, spacing = g
                edges.append((x, y - asc, x + adv[k] - spacing, y + desc))
    if not edges:
        return None
    lefts, tops, rights, bottoms = zip(*edges)
    box = Box.from_edges(min(lefts), min(tops), max(rights), max(bottoms))
    on_path = _text_path_layout(node, resolver, sum(adv))
    ink: list[Box] = []
    if on_path is not None:
        box, ink = on_path

    placements = []
    for ks in by_line.values():
        line_text = "".join([chars[k].ch for k in ks])
        if not line_text.strip():
            continue
        segs: list[Segment] = []
        last: Segment | None = None
        for k in ks:
            c = chars[k]
            x = pos[k][0] + shift[k]
            if last is not None and last.node is c.node and abs(last.x + last.width - x) < 1e-6:
                last.text += c.ch
                last.width += adv[k]
            else:
                last = Segment(c.ch, x, pos[k][1], adv[k], c.node, spec(c.node))
                segs.append(last)
        x0 = min(s.x for s in segs)
        placements.append(LinePlacement(line_text.strip(), x0, pos[ks[0]][1],
                                        max(s.x + s.width for s in segs) - x0, segs))

    metrics = _summarize(node, resolver, chars, placements, box, spec, layout="text")
    metrics.ink = ink
    return metrics


def _measure_plain(node: SvgNode, resolver: StyleResolver) -> TextMetrics | None | object:
    """``measure_positioned`` of a plain ``<text>``, or ``_LONG_WAY`` when it is not that plain.

    Plain: no child elements, one ``x`` and one ``y`` (or none), white space collapsed. It is one chunk on one
    line in one style, laid out with the same arithmetic without a record per character (most labels of a large
    drawing are plain).
    """
    if preserves_space(node, resolver):
        return _LONG_WAY
    chars: list[str] = []
    for ch in _clean(node.text or "", False):
        if ch == " " and (not chars or chars[-1] == " "):
            continue
        chars.append(ch)
    while chars and chars[-1] == " ":
        chars.pop()
    if not chars or not any(c.strip() for c in chars):
        return None
    n = len(chars)
    start_x = start_y = None
    size: float | None = None
    for attr in ("x", "y"):
        value = node.get(attr)
        if not value:
            continue
        if size is None:
            size = resolver.font_size(node)
        numbers = _numbers(value, size)
        if len(numbers) > 1 and n > 1:
            return _LONG_WAY  # a position per character
        if numbers:
            start_x, start_y = (numbers[0], start_y) if attr == "x" else (start_x, numbers[0])
    spec = font_spec(node, resolver)
    text = "".join(chars)
    adv = spec.advances(text)
    cx = start_x if start_x is not None else 0.0
    cy = start_y if start_y is not None else 0.0
    cx += 0.0
    cy += 0.0
    xs: list[float] = []
    for a in adv:
        xs.append(cx)
        cx += a
    anchor = (resolver.get(node, "text-anchor") or "start").strip().lower()
    width = xs[-1] + adv[-1] - xs[0]
    shift = -width if anchor == "end" else -width / 2 if anchor == "middle" else 0.0
    if spec.size <= 0:
        return None
    asc, desc = spec.extents()
    spacing = spec.letter_spacing
    left = right = None
    for k in range(n):
        if chars[k].strip():
            x = xs[k] + shift
            r = x + adv[k] - spacing
            left = x if left is None or x < left else left
            right = r if right is None or r > right else right
    box = Box.from_edges(left, cy - asc, right, cy + desc)
    segs: list[Segment] = []
    last: Segment | None = None
    for k in range(n):
        x = xs[k] + shift
        if last is not None and abs(last.x + last.width - x) < 1e-6:
            last.text += chars[k]
            last.width += adv[k]
        else:
            last = Segment(chars[k], x, cy, adv[k], node, spec)
            segs.append(last)
    x0 = min(s.x for s in segs)
    placements = [LinePlacement(text.strip(), x0, cy, max(s.x + s.width for s in segs) - x0, segs)]
    return _summarize(node, resolver, (), placements, box, lambda _n: spec, layout="text")


#: arc length of one ink box of text on a path, in ascents (short enough to follow a curve)
INK_RUN_ASCENTS = 1.0
#: most ink boxes per text on a path
MAX_INK_RUNS = 64


def _text_path_layout(node: SvgNode, resolver: StyleResolver, advance: float) -> tuple[Box, list[Box]] | None:
    """Box and ink of text set on a path (SVG 1.1 §10.13), or None when it is not on a usable path.

    The box is the path's box grown by the largest ascent on every side (what
    moving or aligning the text moves). The ink is where the letters are: the
    stretch of the path the text's ``advance`` covers from ``startOffset``
    (shifted back by half or all of it for ``text-anchor`` middle or end, cut
    at the path's ends), as boxes of about ``INK_RUN_ASCENTS`` ascents of arc
    length each, spanning the ascent on the glyphs' upper side of the path
    (the left of its direction) and the descent below. Text around a circle
    thus inks a ring, not the disc inside it.
    """
    for tp in node.iter("{*}textPath"):
        try:
            found = _path_of(tp, node)
        except ValueError:
            continue
        if found is None:
            continue
        segs, m = found
        box = pathbbox.segments_bbox(segs, m)
        if box is None:
            continue
        grow = max(font_spec(n, resolver).extents()[0] for n in (node, tp))
        outer = Box(x=box.x - grow, y=box.y - grow, width=box.width + 2 * grow, height=box.height + 2 * grow)
        asc, desc = font_spec(tp, resolver).extents()
        return outer, _ink_along(segs, m, tp, resolver, advance, asc, desc)
    return None


def _path_of(tp: SvgNode, node: SvgNode) -> tuple[list[pathbbox.Segment], Matrix] | None:
    """The segments a ``<textPath>`` follows and the transform they are in; None when there is none.

    The segments are its SVG 2 ``path`` attribute, or the ``<path>``, ``<circle>``,
    ``<ellipse>`` or ``<rect>`` its ``href`` names (with that element's ``transform``).
    Raises ValueError on bad data.
    """
    if tp.get("path"):
        return pathbbox.parse_path(tp.get("path")), Matrix()
    ref = (tp.get("{http://www.w3.org/1999/xlink}href") or tp.get("href") or "").strip()
    if not ref.startswith("#"):
        return None
    found = node.getroottree().getroot().xpath("//*[@id=$i]", i=ref[1:])
    if not found:
        return None
    target, kind = found[0], local(found[0])

    def ln(attr: str) -> float:
        return parse_length(target.get(attr), percent_of=0.0, default=0.0) or 0.0

    if kind == "path":
        segs = pathbbox.parse_path(target.get("d"))
    elif kind == "circle":
        segs = pathbbox.ellipse_segments(ln("cx"), ln("cy"), ln("r"), ln("r"))
    elif kind == "ellipse":
        segs = pathbbox.ellipse_segments(ln("cx"), ln("cy"), ln("rx"), ln("ry"))
    elif kind == "rect":
        rx, ry = ln("rx"), ln("ry")
        segs = pathbbox.rect_segments(ln("x"), ln("y"), ln("width"), ln("height"), rx or ry, ry or rx)
    else:
        return None
    return segs, parse_transform(target.get("transform"))


def _ink_along(segs: list[pathbbox.Segment], m: Matrix, tp: SvgNode, resolver: StyleResolver, advance: float,
               asc: float, desc: float) -> list[Box]:
    """Ink boxes of text of length ``advance`` on the path ``segs`` (see ``_text_path_layout``)."""
    # points along each segment, their arc length and subpath; a subpath's move adds no length (the text jumps)
    pts: list[tuple[float, float]] = []
    arc: list[float] = []
    seg_of: list[int] = []
    sub_of: list[int] = []
    total, sub = 0.0, 0
    for k, seg in enumerate(segs):
        for j, q in enumerate(pathbbox.sample_segments([seg], 24)):
            x, y = m.apply(*q)
            if j:
                total += math.hypot(x - pts[-1][0], y - pts[-1][1])
            elif pts and math.hypot(x - pts[-1][0], y - pts[-1][1]) > 1e-6 * (1.0 + total):
                sub += 1
            pts.append((x, y))
            arc.append(total)
            seg_of.append(k)
            sub_of.append(sub)
    if total <= 0:
        return []
    size = resolver.font_size(tp)
    start = resolve_length(tp.get("startOffset") or "0", size, total)
    anchor = (resolver.get(tp, "text-anchor") or "start").strip().lower()
    start -= advance if anchor == "end" else advance / 2 if anchor == "middle" else 0.0
    lo, hi = max(start, 0.0), min(start + advance, total)
    if hi <= lo:
        return []
    run = max(INK_RUN_ASCENTS * asc, (hi - lo) / MAX_INK_RUNS, 1e-9)
    runs: dict[tuple[int, int], list[tuple[float, float]]] = {}  # (subpath, stretch) → points
    last = len(pts) - 1
    for k, (x, y) in enumerate(pts):
        if not lo <= arc[k] <= hi:
            continue
        # the glyphs' up direction: the path's direction (within its segment) turned to its left (y grows downwards)
        a = pts[k - 1] if k > 0 and seg_of[k - 1] == seg_of[k] else pts[k]
        b = pts[k + 1] if k < last and seg_of[k + 1] == seg_of[k] else pts[k]
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dy / n, -dx / n
        r = runs.setdefault((sub_of[k], int((arc[k] - lo) / run)), [])
        r += [(x + ux * asc, y + uy * asc), (x - ux * desc, y - uy * desc)]
    # consecutive stretches of one subpath share their end points, so the boxes join up
    keys = sorted(runs)
    for a_, b_ in zip(keys, keys[1:]):
        if a_[0] == b_[0]:
            runs[a_] += runs[b_][:2]
    return [Box.from_points(r) for r in runs.values()]


def _summarize(node: SvgNode, resolver: StyleResolver, chars: Sequence[Any], placements: list[LinePlacement],
               box: Box, spec: Callable[[SvgNode], FontSpec], *, layout: str, line_height: float | None = None,
               anchor: str | None = None) -> TextMetrics:
    """Dominant font (by character count), line height and fill of a laid-out text.

    ``chars`` are the laid-out characters (``ch`` and ``node``); with none, ``node`` sets the text alone.
    """
    counts: dict[SvgNode, int] = {}
    for c in chars:
        if c.ch.strip():
            counts[c.node] = counts.get(c.node, 0) + 1
    main = max(counts, key=lambda n: (counts[n], spec(n).size)) if counts else node
    f = spec(main)
    baselines = [p.y for p in placements]
    if line_height is None:
        gaps = [abs(b - a) for a, b in zip(baselines, baselines[1:]) if abs(b - a) > 1e-6]
        line_height = statistics.median(gaps) if gaps else line_height_of(main, resolver, f.size)
    return TextMetrics(
        box=box,
        text="\n".join(p.text for p in placements),
        lines=[p.text for p in placements],
        font_family=f.family, font_size=f.size, font_weight=f.weight, line_height=line_height,
        anchor=anchor or _anchor(node, resolver), fill=resolver.color(main),
        placements=placements, layout=layout,
    )


def _anchor(node: SvgNode, resolver: StyleResolver) -> str:
    value = (resolver.get(node, "text-anchor") or "start").strip().lower()
    return value if value in ("start", "middle", "end") else "start"
