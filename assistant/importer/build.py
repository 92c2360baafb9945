"""Import an SVG file into a ``Document``: the safe tree plus its ``Layout``.

Steps: safe parse (``assistant.svg.parse``), the page (``assistant.svg.units``),
the rendering walk with world boxes (``assistant.importer.walk``), elements
(``assistant.importer.structure``), roles (``assistant.importer.roles``), then stable ids.

Ids: an element's id is the ``id`` of the XML node it stands for. A node an
element references that has no id — or whose id repeats one given earlier in
the document (invalid XML ids; the first holder keeps it, so references still
resolve as renderers resolve them) — gets a generated id ``la-<tag>-<n>``
(``n`` counts per tag in document order, skipping ids in use). Setting those
ids is the only change import makes to the tree; they are listed in
``Document.generated_ids``. An element made of several nodes without a
container of its own (a button or badge group, a cluster of loose outlines)
gets the element id ``la-group-<n>``, ``la-paragraph-<n>`` or
``la-cluster-<n>``, which is on no
node (its ``nodes`` are its parts').

Element properties: text properties come from the text measurement with the
effective font size (local size × the scale of the node's transform to world
space, √|det|); ``rotation`` is the world transform's rotation (normalised
to (-180, 180]); ``locked`` is ``data-locked="true"`` or Inkscape's
``sodipodi:insensitive`` on the node or an ancestor; ``importance`` is
``data-importance`` when given, else the role's default
(``ROLE_IMPORTANCE``); ``ink`` is where a text set on a path inks, and what
shows of a picture when part of its box is plain margin or paint in the
colour behind it (``_picture_ink``).
"""

from __future__ import annotations

import gc
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lxml import etree

from assistant.document import ROLE_IMPORTANCE, Canvas, Document, Element, Layout, hex_rgb
from assistant.errors import LimitExceeded, SvgImportError
from assistant.geometry import Box
from assistant.importer.roles import assign_roles, node_name
from assistant.importer.scene import analyse_scene
from assistant.importer.slides import slide_of_elements
from assistant.importer.spatial import BoxIndex
from assistant.importer.structure import Plan, build_plans, walk_plans
from assistant.importer.walk import Item, Walker
from assistant.limits import DEFAULT_LIMITS, ImportLimits, budget
from assistant.svg.codes import drawn_like_code
from assistant.svg.css import StyleResolver
from assistant.svg.image import CODE_NAME, INK_TOLERANCE, looks_like_code
from assistant.svg.parse import parse_svg_bytes, read_svg_bytes
from assistant.svg.tree import SODIPODI_NS, SvgNode, href, local_name
from assistant.svg.units import canvas_for_root

__all__ = ["ImportLimits", "import_svg", "import_svg_text", "import_tree"]


def import_svg(path: str | Path, *, limits: ImportLimits | None = None) -> Document:
    """Import the SVG file at ``path``; ``SvgImportError`` names the file and the problem."""
    limits = limits or DEFAULT_LIMITS
    data = read_svg_bytes(path, limits)
    return _import(data, str(path), limits)


def import_svg_text(text: str | bytes, *, source: str = "<string>", limits: ImportLimits | None = None) -> Document:
    """Import SVG given as text or bytes; ``source`` names it in errors."""
    return _import(text, source, limits or DEFAULT_LIMITS)


def _import(data: str | bytes, source: str, limits: ImportLimits) -> Document:
    tree = parse_svg_bytes(data, source, limits)
    return import_tree(tree, source=source, limits=limits)


def import_tree(tree: etree._ElementTree, *, source: str = "<string>", limits: ImportLimits | None = None) -> Document:
    """Build the ``Document`` of an already parsed (trusted) lxml tree; sets generated ids on it.

    With ``limits.max_seconds`` the import stops with an ``SvgImportError`` once
    that time is spent; inside a ``limits.budget`` (the MCP server's) it also
    stops when the budget's caller has gone away (``Cancelled``).
    """
    limits = limits or DEFAULT_LIMITS
    try:
        with budget(limits.max_seconds, what="the import"), _fewer_collections():
            return _import_tree(tree, source, limits)
    except LimitExceeded as exc:
        raise SvgImportError(source, f"{exc}; the file is too complex to import in that time") from None


_GC_LOCK = threading.Lock()
_GC_USERS = 0
_GC_SAVED: tuple[int, int, int] | None = None


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the garbage collector's young generation less often, and the full collection not at all, while importing.

    Import makes hundreds of thousands of small objects that all stay alive
    until it ends; with the default thresholds the collector walks them again
    and again (young collections), and full collections walk all of them each
    time the heap has grown by a quarter: a tenth of a 50 000-element import.
    Young collections still free the short-lived cycles. The thresholds are
    restored when the last import running in the process ends.
    """
    global _GC_USERS, _GC_SAVED
    with _GC_LOCK:
        if _GC_USERS == 0:
            _GC_SAVED = gc.get_threshold()
            gc.set_threshold(max(_GC_SAVED[0], 100_000), _GC_SAVED[1], 1 << 30)
        _GC_USERS += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_USERS -= 1
            if _GC_USERS == 0 and _GC_SAVED is not None:
                gc.set_threshold(*_GC_SAVED)


def _import_tree(tree: Any, source: str, limits: ImportLimits) -> Document:
    root = tree.getroot()
    canvas = canvas_for_root(root, source, limits)
    resolver = StyleResolver(root, source=source, limits=limits)
    items = Walker(tree, source, limits, resolver).walk()
    plans = build_plans(items, canvas)
    generated = _assign_ids(root, plans)  # before roles: names are read from the final ids
    _mark_picture_ink(plans)  # before roles: a caption is placed by what shows of its picture
    assign_roles(plans, canvas)
    elements = _elements(plans, canvas, generated)
    slides = None if canvas.pages else slide_of_elements(root, elements)
    if slides is not None:  # a deck of stacked layers: each layer a page at the place of the canvas
        canvas = canvas.model_copy(update={"pages": [canvas.box] * slides[1]})
    layout = Layout(canvas=canvas, elements=elements)
    explicit = {e.id for e, p in zip(elements, walk_plans(plans)) if p.explicit_role}
    analyse_scene(layout, explicit, pages=slides[0] if slides is not None else None)
    return Document(source=source, tree=tree, layout=layout, generated_ids=generated.node_ids)


class _Ids:
    def __init__(self) -> None:
        self.node_ids: list[str] = []
        self.group_ids: dict[int, str] = {}


def _assign_ids(root: SvgNode, plans: list[Plan]) -> _Ids:
    """Give every node an element references a unique id (see the module docstring)."""
    order: dict[SvgNode, int] = {}
    first_holder: dict[str, SvgNode] = {}
    for i, n in enumerate(root.iter()):
        order[n] = i
        if isinstance(n.tag, str):
            ident = n.get("id")
            if ident and ident not in first_holder:
                first_holder[ident] = n
    used = set(first_holder)
    wanted: set[SvgNode] = set()
    for p in walk_plans(plans):
        if p.node is not None:
            wanted.add(p.node)
        wanted.update(p.nodes)
    out = _Ids()
    counters: dict[str, int] = {}
    for node in sorted(wanted, key=lambda n: order.get(n, 0)):
        ident = node.get("id")
        if ident and first_holder.get(ident) is node:
            continue
        tag = local_name(node) or "node"
        n = counters.get(tag, 0)
        while True:
            n += 1
            cand = f"la-{tag}-{n}"
            if cand not in used:
                break
        counters[tag] = n
        used.add(cand)
        node.set("id", cand)
        out.node_ids.append(cand)
    counts: dict[str, int] = {}
    for p in walk_plans(plans):
        if p.node is None:
            prefix = {"group": "group", "text": "paragraph"}.get(p.kind, "cluster")
            k = counts.get(prefix, 0)
            while True:
                k += 1
                cand = f"la-{prefix}-{k}"
                if cand not in used:
                    break
            counts[prefix] = k
            used.add(cand)
            out.group_ids[id(p)] = cand
    return out


def _rotation(items: list[Item]) -> float:
    if all(i.ctm.b == 0 and i.ctm.a > 0 for i in items):
        return 0.0  # no rotation (the common case, without trigonometry)
    rots = {round(_norm_angle(i.ctm.rotation_degrees), 3) for i in items}
    if len(rots) != 1:
        return 0.0
    r = rots.pop()
    return 0.0 if abs(r) < 1e-6 else r


def _norm_angle(deg: float) -> float:
    deg = math.fmod(deg, 360.0)
    if deg <= -180.0:
        deg += 360.0
    elif deg > 180.0:
        deg -= 360.0
    return deg


def _truthy(v: str | None) -> bool:
    return v is not None and v.strip().lower() in ("true", "1", "yes")


_INSENSITIVE = f"{{{SODIPODI_NS}}}insensitive"


def _locked(node: SvgNode) -> bool:
    n = node
    while n is not None and isinstance(n.tag, str):
        if _truthy(n.get("data-locked")) or _truthy(n.get(_INSENSITIVE)):
            return True
        n = n.getparent()
    return False


def _importance(node: SvgNode, role: str) -> float:
    raw = node.get("data-importance") if node is not None else None
    if raw is not None:
        try:
            v = float(raw)
        except ValueError:
            v = float("nan")
        if math.isfinite(v):
            return min(max(v, 0.0), 1.0)
    return ROLE_IMPORTANCE[role]


def _file_name(node: SvgNode) -> str | None:
    """The name of the file an ``<image>`` links to ("pandas-logo-300.png" → "pandas-logo-300"), or None.

    A designer placed the file by that name, and names the picture by it ("the pandas logo"). Embedded data
    and references within the document have no file name. The file is never read.
    """
    ref = (href(node) or "").strip()
    if not ref or ref.startswith(("data:", "#")):
        return None
    stem = Path(ref.split("?", 1)[0].split("#", 1)[0].replace("\\", "/").rsplit("/", 1)[-1]).stem
    return stem if any(c.isalpha() for c in stem) and len(stem) <= 80 else None


def _element(p: Plan, ident: str, canvas: Canvas, z: int, group: str | None, children: list[str]) -> Element:
    node = p.node if p.node is not None else p.items[0].node
    role = p.role or "decoration"
    kw: dict[str, Any] = {}
    texts = [i for i in p.items if i.kind == "text" and i.metrics is not None]
    if p.kind == "text" and texts:
        main = max(texts, key=lambda i: i.metrics.font_size * i.ctm.scale_factor)
        m, s = main.metrics, main.ctm.scale_factor
        kw.update(
            text=p.text, font_family=m.font_family, font_size=m.font_size * s, font_weight=m.font_weight,
            line_height=(m.line_height * s) if m.line_height else None,
            text_anchor=m.anchor if m.anchor in ("start", "middle", "end") else "start",
            lines=p.lines or sum(max(len(i.metrics.lines), 1) for i in texts), fill=m.fill,
        )
        if any(i.metrics.ink for i in texts):
            kw["ink"] = _relative_ink(p, texts)
        if any(i.whole is not None for i in texts) and p.box.width > 0 and p.box.height > 0:
            kw["whole"] = Box.union_all(i.whole or i.box for i in texts).relative_to(p.box)  # (what a clip cut off)
    elif p.kind != "image":
        main = max(p.items, key=lambda i: i.box.area)
        kw["fill"] = main.fill
    elif p.ink is not None and p.box.width > 0 and p.box.height > 0:
        kw["ink"] = [p.ink.relative_to(p.box)]
    name = node_name(node)
    if name is None and p.kind == "image" and len(p.items) == 1:
        # what everyone calls a QR code, though no file says so; else the name of the file a picture shows
        name = CODE_NAME if looks_like_code(p.items[0].node) else _file_name(p.items[0].node)
    elif name is None and p.kind in ("group", "shape") and p.box.height > 0 and \
            0.8 <= p.box.width / p.box.height <= 1.25 and drawn_like_code(node):
        name = CODE_NAME  # the same code drawn as squares
    return Element(
        id=ident, kind=p.kind, role=role, box=p.box, rotation=_rotation(p.items), z=z,
        opacity=max(i.opacity for i in p.items), locked=_locked(node), importance=_importance(node, role),
        group=group, children=children, nodes=[n.get("id") for n in p.nodes], name=name, **kw,
    )


def _relative_ink(p: Plan, texts: list[Item]) -> list[Box]:
    """The ink of a text plan, clipped to the plan's box and relative to it (see ``Element.ink``).

    The ink is the boxes along a path where a text is set on one, else the text's box.
    """
    b = p.box
    out = []
    for item in texts:
        for part in ([item.ctm.map_box(x) for x in item.metrics.ink] or [item.box]):
            part = part.intersection(b)
            if part is not None and b.width > 0 and b.height > 0:
                out.append(part.relative_to(b))
    return out


def _mark_picture_ink(plans: list[Plan]) -> None:
    """Set ``Plan.ink`` on pictures whose box shows only what lies behind it in places (see ``_picture_ink``)."""
    below: list[Plan] = []
    index = BoxIndex()  # the shapes and pictures of `below`, by position
    for p in walk_plans(plans):  # paint order, as the elements will be
        if p.kind == "image":
            p.ink = _picture_ink(p, _backdrop_colour(below, p.box, index))
        if p.kind not in ("text", "group"):
            index.add(len(below), p.box)
        below.append(p)


def _picture_ink(p: Plan, back: str | None) -> Box | None:
    """What shows of an image plan drawn over the colour ``back`` (None: over a picture), or None: all of it.

    Two things in a picture's box can be invisible: a plain margin of an
    embedded picture (white around a product shot, transparency around a
    logo; ``svg_image.picture_ink``) when the margin has the colour behind
    the element, and shapes painted in that colour (white patches on a white
    page, often left where a picture was retouched). The result is the box of
    the rest, when that is smaller than the whole box by more than 1 %.
    """
    parts: list[Box] = []
    for item in p.items:
        if item.kind == "image" and item.picture is not None and (
                item.picture.margin is None or _same_colour(item.picture.margin, back)):
            parts.append(item.picture.box)
        elif item.kind == "shape" and _same_colour(item.fill, back) and (
                item.stroke is None or _same_colour(item.stroke, back)):
            continue
        else:
            parts.append(item.box)
    b = p.box
    ink = Box.union_all(parts).intersection(b) if parts else None
    if ink is None:
        return None
    tx, ty = max(0.5, 0.01 * b.width), max(0.5, 0.01 * b.height)
    if ink.x - b.x <= tx and b.x2 - ink.x2 <= tx and ink.y - b.y <= ty and b.y2 - ink.y2 <= ty:
        return None
    return ink


#: Most shapes examined under one picture's centre for the colour behind it (bounds degenerate files).
BACKDROP_CANDIDATES = 1024


def _backdrop_colour(below: list[Plan], box: Box, index: BoxIndex) -> str | None:
    """The colour behind the centre of ``box``.

    That is the topmost filled shape (at least half opaque) of ``below`` there,
    white (the page) when none, None when a picture is. ``index`` files the
    shapes and pictures of ``below`` by their position in it.
    """
    centre = (box.cx, box.cy, box.cx, box.cy)
    for k in sorted(index.query(centre, limit=BACKDROP_CANDIDATES), reverse=True):
        q = below[k]
        if q.kind == "image":
            return None
        main = max(q.items, key=lambda i: i.box.area)
        if main.fill and max(i.opacity for i in q.items) >= 0.5:
            return main.fill
    return "#ffffff"


def _same_colour(a: str | None, b: str | None, tolerance: int = INK_TOLERANCE) -> bool:
    """Two ``#rrggbb`` colours within ``tolerance`` (0–255) in every channel; False when either is unknown."""
    ca, cb = hex_rgb(a), hex_rgb(b)
    return ca is not None and cb is not None and 255 * max(abs(x - y) for x, y in zip(ca, cb)) <= tolerance + 1e-9


def _ident(p: Plan, ids: _Ids) -> str:
    return p.node.get("id") if p.node is not None else ids.group_ids[id(p)]


def _add_element(p: Plan, group: str | None, out: list[Element], canvas: Canvas, ids: _Ids) -> None:
    """Append the element of ``p`` to ``out``, then its children's (depth first)."""
    pid = _ident(p, ids)
    out.append(_element(p, pid, canvas, len(out), group, [_ident(c, ids) for c in p.children]))
    for c in p.children:
        _add_element(c, pid, out, canvas, ids)


def _elements(plans: list[Plan], canvas: Canvas, ids: _Ids) -> list[Element]:
    out: list[Element] = []
    for p in plans:
        _add_element(p, None, out, canvas, ids)
    seen: set[str] = set()
    for e in out:
        if e.id in seen:  # cannot happen with unique node ids; guards the Layout index
            raise SvgImportError(None, f"internal: element id {e.id!r} assigned twice")
        seen.add(e.id)
    return out
