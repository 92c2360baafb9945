"""Whether a drawing is a QR code (or a like 2-D code) drawn as vector modules.

QR generators that write SVG draw the code as many equal squares ("modules"),
either one ``<rect>`` each or one path of many square subpaths, often with
neighbouring modules merged into runs one module high or wide, on a white
square. A designer calls that "the QR code", though no id or label says so.

``drawn_like_code`` looks only at the sizes of those pieces, in the drawing's
own units: most of them have one common short side (the module), every such
piece measures whole modules both ways, and the code is at least
``MIN_MODULES_ACROSS`` modules across and about square. Logos, icons and
lettering drawn as paths have pieces of many sizes and fail it.
"""

from __future__ import annotations

from collections import Counter

from assistant.svg import pathbbox
from assistant.svg.tree import SvgNode, local_name
from assistant.svg.units import parse_length

#: Fewest pieces of module size a code has (the smallest QR code, 21 × 21 modules, has well over a hundred).
MIN_PIECES = 40
#: Fewest modules across a code (version 1 is 21; Micro QR is 11).
MIN_MODULES_ACROSS = 11
#: Most path segments read (a code of 177 × 177 modules drawn square by square has about 60 000).
MAX_SEGMENTS = 80_000
#: Share of the pieces that must measure whole modules.
MODULE_SHARE = 0.8
#: Relative tolerance of "the same length".
TOLERANCE = 0.03


def _subpath_sizes(d: str | None) -> list[tuple[float, float, float, float]]:
    """Boxes ``(x1, y1, x2, y2)`` of the closed pieces of path data ``d`` (a new piece where the pen jumps)."""
    try:
        segs = pathbbox.parse_path(d, max_segments=MAX_SEGMENTS)
    except ValueError:
        return []
    out: list[tuple[float, float, float, float]] = []
    xs: list[float] = []
    ys: list[float] = []
    last = None
    for s in segs:
        if last is not None and s.points[0] != last and xs:
            out.append((min(xs), min(ys), max(xs), max(ys)))
            xs, ys = [], []
        for x, y in s.points:
            xs.append(x)
            ys.append(y)
        last = s.points[-1]
    if xs:
        out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def _pieces(node: SvgNode) -> list[tuple[float, float, float, float]]:
    out: list[tuple[float, float, float, float]] = []
    for n in node.iter():
        tag = local_name(n)
        if tag == "rect":
            x = parse_length(n.get("x"), percent_of=0.0, default=0.0) or 0.0
            y = parse_length(n.get("y"), percent_of=0.0, default=0.0) or 0.0
            w = parse_length(n.get("width"), percent_of=0.0, default=0.0) or 0.0
            h = parse_length(n.get("height"), percent_of=0.0, default=0.0) or 0.0
            if w > 0 and h > 0:
                out.append((x, y, x + w, y + h))
        elif tag == "path":
            out += _subpath_sizes(n.get("d"))
        elif tag in ("text", "image", "use", "circle", "ellipse"):
            return []  # a code is squares only
    return out


def _few_pieces(node: SvgNode) -> bool:
    """Whether ``node`` surely draws fewer than ``MIN_PIECES`` pieces, told without reading any path data.

    A rect is one piece; a path starts a piece only at a move or after a close, so it has no more pieces than
    it has ``M``, ``m``, ``Z`` and ``z`` letters.
    """
    count = 0
    for n in node.iter():
        tag = local_name(n)
        if tag == "rect":
            count += 1
        elif tag == "path":
            d = n.get("d") or ""
            count += d.count("M") + d.count("m") + d.count("Z") + d.count("z")
        if count >= MIN_PIECES:
            return False
    return True


def _whole(length: float, module: float) -> bool:
    k = round(length / module)
    return k >= 1 and abs(length - k * module) <= TOLERANCE * module * max(k, 1) ** 0.5


def drawn_like_code(node: SvgNode) -> bool:
    """Whether ``node`` (a group, path or rect with what it contains) draws a 2-D code (see the module docstring)."""
    if _few_pieces(node):
        return False
    pieces = _pieces(node)
    if len(pieces) < MIN_PIECES:
        return False
    x1 = min(p[0] for p in pieces)
    y1 = min(p[1] for p in pieces)
    x2 = max(p[2] for p in pieces)
    y2 = max(p[3] for p in pieces)
    width, height = x2 - x1, y2 - y1
    if width <= 0 or height <= 0 or not 0.85 <= width / height <= 1.18:
        return False
    # the backdrop square and the finder frames drawn as one piece are not modules
    small = [(p[2] - p[0], p[3] - p[1]) for p in pieces
             if max(p[2] - p[0], p[3] - p[1]) < 0.3 * max(width, height)]
    if len(small) < MIN_PIECES:
        return False
    shortest = Counter(round(min(w, h), 3) for w, h in small)
    module = shortest.most_common(1)[0][0]
    if module <= 0 or max(width, height) < MIN_MODULES_ACROSS * module:
        return False
    whole = sum(1 for w, h in small if _whole(w, module) and _whole(h, module))
    return whole >= MIN_PIECES and whole >= MODULE_SHARE * len(small)


__all__ = ["drawn_like_code"]
