"""The rendering walk: every painted leaf of an SVG tree with its world box.

The walk follows the SVG rendering model (SVG 1.1 §3, §5, §14): document
order is paint order; ``defs``, ``symbol``, ``clipPath``, ``mask``,
``pattern``, ``marker`` and other non-rendered content is skipped in place;
``<use>`` draws its referenced content (a ``symbol`` gets a viewport from the
use's ``width``/``height``); ``<switch>`` draws its first child whose
conditional attributes pass (``requiredExtensions`` never do, ``systemLanguage``
matches English); a nested ``<svg>`` opens a new viewport that clips unless
``overflow`` is visible.

A leaf is not drawn, and yields nothing, when ``display:none`` is on it or
on an ancestor, when it is ``visibility:hidden``/``collapse``, when its
accumulated ``opacity`` is 0, or when neither its fill nor its stroke paints
(``none`` or zero opacity, or a zero stroke width).

Boxes: a shape's box is the tight box of its geometry mapped to world space
(``assistant.svg.pathbbox``) widened by half the world stroke width when the
stroke paints, i.e. the visual extent with mitre and cap overshoot ignored.
A ``clip-path`` intersects the box with the clip path's own world box
(``objectBoundingBox`` clip units are honoured on leaves, mapped onto the
leaf's world box; on groups they are ignored). A nested ``<svg>`` clips to its
viewport, a ``<symbol>`` to the ``<use>`` viewport. An ``<image>`` box is the
rectangle its picture is drawn in (``assistant.svg.image``). Text is measured by
``assistant.text.measure.measure_text`` (real font metrics).
Everything is iterative except following ``<use>`` references, whose depth is
bounded (``MAX_USE_DEPTH``); cycles are skipped, as renderers do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree
from pydantic import ValidationError

from assistant.errors import SvgImportError
from assistant.geometry import Box, Matrix
from assistant.limits import ImportLimits, checkpoint
from assistant.svg.css import StyleResolver
from assistant.svg.image import PictureInk, image_rect, picture_ink
from assistant.svg.pathbbox import (
    NonFiniteNumber,
    PathTooComplex,
    Segment,
    ellipse_segments,
    parse_path,
    poly_segments,
    rect_segments,
    segments_bbox,
)
from assistant.svg.rules import (
    clamp01,
    conditions_pass,
    expanded_size,
    intersect,
    is_keyword,
    local_matrix_no_parent,
    num,
    overflow_visible,
)
from assistant.svg.tree import (
    NON_RENDERED,
    SvgNode,
    href,
    id_index,
    local_matrix,
    local_name,
    nested_svg_matrix,
    node_ctm,
    ref_id,
    transform_matrix,
    viewport_size,
)
from assistant.svg.units import has_nonfinite, parse_length, parse_numbers, parse_points
from assistant.text.layout import TextMetrics
from assistant.text.measure import measure_text

MAX_USE_DEPTH = 24
CONTAINERS = frozenset({"g", "a", "switch", "svg"})
SHAPES = frozenset({"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"})
TEXTS = frozenset({"text", "flowRoot"})
GEOMETRY_ATTRS = ("x", "y", "width", "height", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2",
                  "points", "d", "transform")
_GEOMETRY_SET = frozenset(GEOMETRY_ATTRS)
#: Attributes that place the characters of a text and its tspans.
_TEXT_POSITIONS = ("x", "y", "dx", "dy")


@dataclass
class Item:
    """One painted leaf: a shape, an image, a text block, or everything a ``<use>`` draws."""

    node: SvgNode
    tag: str
    kind: str
    box: Box
    ctm: Matrix
    z: int
    containers: tuple[SvgNode, ...]
    opacity: float = 1.0
    fill: str | None = None
    metrics: TextMetrics | None = None
    segments: int = 0
    curved: bool = False
    parts: list[Item] = field(default_factory=list)
    #: A shape's stroke colour (``fill`` is its fill, or the stroke when it has none).
    stroke: str | None = None
    #: An embedded picture's subject inside its margin, in world units (``svg_image.picture_ink``).
    picture: PictureInk | None = None
    #: A text's box before a clip cut it (None when nothing was cut): ``box`` is what shows.
    whole: Box | None = None


@dataclass
class _Frame:
    node: SvgNode
    ctm: Matrix
    opacity: float
    clip: Box | None
    containers: tuple[SvgNode, ...]


class Walker:
    """Collect the painted ``Item``s of a tree in paint order (see the module docstring)."""

    def __init__(self, tree: etree._ElementTree | SvgNode, source: str, limits: ImportLimits,
                 resolver: StyleResolver | None = None) -> None:
        self.root = tree.getroot() if hasattr(tree, "getroot") else tree
        self.source = source
        self.limits = limits
        self.style = resolver or StyleResolver(self.root)
        self.ids = id_index(self.root)
        self.items: list[Item] = []
        self.visited = 0
        self._z = 0
        self._use_stack: list[SvgNode] = []
        # per-node caches (the tree does not change during a walk; use content repeats)
        self._seg_cache: dict[SvgNode, list[Segment]] = {}
        self._lm_cache: dict[SvgNode, Matrix] = {}
        self._vp_cache: dict[SvgNode, tuple[float, float]] = {}
        self._finite_ok: set[SvgNode] = set()
        self.segments = 0  # path segments made so far (limits.max_path_segments)
        self.text_chars = 0  # characters of text measured so far (limits.max_text_chars)

    # -- public -------------------------------------------------------------
    def walk(self) -> list[Item]:
        """The painted items of the tree in paint order; ``SvgImportError`` when it draws too much."""
        if expanded_size(self.root, self.ids, self.limits.max_rendered) > self.limits.max_rendered:
            raise SvgImportError(self.source, f"too many elements to draw (more than {self.limits.max_rendered}, "
                                              "counting the content <use> elements repeat)")
        self._walk(self.root, Matrix(), 1.0, None, (), sink=self.items)
        return self.items

    # -- helpers ------------------------------------------------------------
    def _fail(self, node: SvgNode, problem: str) -> SvgImportError:
        name = local_name(node) or str(node.tag)
        ident = node.get("id")
        where = f"<{name} id={ident!r}>" if ident else f"<{name}> (line {node.sourceline})"
        return SvgImportError(self.source, f"{where}: {problem}")

    def _check_finite(self, node: SvgNode) -> None:
        if node in self._finite_ok:
            return
        for attr, value in node.attrib.items():
            if attr in _GEOMETRY_SET and has_nonfinite(value):
                raise self._fail(node, f"attribute {attr}={value!r} is not a finite number")
        self._finite_ok.add(node)

    def _check_range(self, node: SvgNode, box: Box) -> None:
        """Refuse a drawn box beyond ``max_coordinate`` (so sizes, areas and distances stay finite)."""
        limit = self.limits.max_coordinate
        if not (-limit <= box.x and box.x + box.width <= limit and -limit <= box.y and box.y + box.height <= limit):
            raise self._fail(node, f"its geometry overflows: it is drawn at x={box.x:.4g}..{box.x2:.4g}, "
                                   f"y={box.y:.4g}..{box.y2:.4g}, beyond the ±{limit:g} the importer accepts")

    def _local_matrix(self, node: SvgNode) -> Matrix:
        m = self._lm_cache.get(node)
        if m is None:
            m = self._lm_cache[node] = local_matrix(node)
        return m

    def _viewport(self, node: SvgNode) -> tuple[float, float]:
        parent = node.getparent()
        vp = self._vp_cache.get(parent)
        if vp is None:
            vp = self._vp_cache[parent] = viewport_size(node)
        return vp

    def _clip_box(self, node: SvgNode, ctm: Matrix, own_box: Box | None) -> Box | None:
        """World box of the clip path referenced by ``node``'s ``clip-path`` (None: no clipping)."""
        ref = ref_id(self.style.get(node, "clip-path"))
        clip = self.ids.get(ref) if ref else None
        if clip is None or local_name(clip) != "clipPath":
            return None
        m = ctm @ local_matrix_no_parent(clip)
        if clip.get("clipPathUnits") == "objectBoundingBox":
            if own_box is None:
                return None
            m = Matrix(own_box.width, 0, 0, own_box.height, own_box.x, own_box.y) @ local_matrix_no_parent(clip)
        boxes: list[Box] = []
        for child in clip:
            name = local_name(child)
            if name in SHAPES or name in TEXTS:
                b = self._leaf_box(child, name, m @ local_matrix_no_parent(child))
                if b is not None:
                    boxes.append(b)
            elif name == "use":
                target = self.ids.get(ref_id(href(child)) or "")
                tname = local_name(target) if target is not None else None
                if tname in SHAPES or tname in TEXTS:
                    b = self._leaf_box(target, tname, m @ local_matrix(child) @ local_matrix_no_parent(target))
                    if b is not None:
                        boxes.append(b)
        if not boxes:
            return Box(x=0, y=0, width=0, height=0)  # an empty clip path hides everything
        return Box.union_all(boxes)

    # -- geometry -------------------------------------------------------------
    def _segments(self, node: SvgNode, name: str) -> list[Segment]:
        segs = self._seg_cache.get(node)
        if segs is None:
            segs = self._seg_cache[node] = self._make_segments(node, name)
            self.segments += len(segs)
            if self.segments > self.limits.max_path_segments:
                raise self._too_complex(node)
        return segs

    def _too_complex(self, node: SvgNode) -> SvgImportError:
        return self._fail(node, f"the drawing has more than {self.limits.max_path_segments} path segments, "
                                "more than the importer accepts")

    def _make_segments(self, node: SvgNode, name: str) -> list[Segment]:
        self._check_finite(node)
        vw, vh = self._viewport(node)
        diag = ((vw * vw + vh * vh) / 2) ** 0.5

        def ln(attr: str, ref: float) -> float:
            return parse_length(node.get(attr), percent_of=ref, default=0.0) or 0.0

        if name == "path":
            try:
                return parse_path(node.get("d"), max_segments=self.limits.max_path_segments - self.segments)
            except NonFiniteNumber as exc:
                raise self._fail(node, f"attribute d: {exc}") from None
            except PathTooComplex:
                raise self._too_complex(node) from None
        if name == "rect":
            w, h = ln("width", vw), ln("height", vh)
            rx_t, ry_t = node.get("rx"), node.get("ry")
            rx = parse_length(rx_t, percent_of=vw) if rx_t is not None else None
            ry = parse_length(ry_t, percent_of=vh) if ry_t is not None else None
            rx = ry if rx is None or rx < 0 else rx
            ry = rx if ry is None or ry < 0 else ry
            return rect_segments(ln("x", vw), ln("y", vh), w, h, rx or 0.0, ry or 0.0)
        if name == "circle":
            r = ln("r", diag)
            return ellipse_segments(ln("cx", vw), ln("cy", vh), r, r)
        if name == "ellipse":
            rx_t, ry_t = node.get("rx"), node.get("ry")
            rx = parse_length(rx_t, percent_of=vw) if rx_t not in (None, "auto") else None
            ry = parse_length(ry_t, percent_of=vh) if ry_t not in (None, "auto") else None
            rx = ry if rx is None else rx
            ry = rx if ry is None else ry
            return ellipse_segments(ln("cx", vw), ln("cy", vh), rx or 0.0, ry or 0.0)
        if name == "line":
            return poly_segments([(ln("x1", vw), ln("y1", vh)), (ln("x2", vw), ln("y2", vh))], closed=False)
        if name in ("polyline", "polygon"):
            pts = parse_points(node.get("points"))
            if len(pts) > self.limits.max_path_segments - self.segments + 1:
                raise self._too_complex(node)
            return poly_segments(pts, closed=name == "polygon") if pts else []
        return []

    def _stroke_half(self, node: SvgNode, ctm: Matrix) -> float:
        """Half the stroke width in world units when the stroke paints, else 0."""
        if not stroke_paints(self.style, node):
            return 0.0
        width = stroke_width(self.style, node)
        scale = ctm.scale_factor
        if (self.style.get(node, "vector-effect") or "").strip() == "non-scaling-stroke":
            scale = 1.0
        return width * scale / 2

    def _paints(self, node: SvgNode, name: str) -> bool:
        """Whether the fill or the stroke of a shape/text paints anything."""
        return fill_paints(self.style, node, name) or stroke_paints(self.style, node)

    def leaf_box(self, node: SvgNode) -> Box | None:
        """World box of a shape or text node where it stands (no clipping, no visibility check)."""
        name = local_name(node)
        return self._leaf_box(node, name, node_ctm(node)) if name else None

    def _leaf_box(self, node: SvgNode, name: str, ctm: Matrix) -> Box | None:
        """World box of a shape or text node under ``ctm`` (no clipping, no visibility check)."""
        if name in SHAPES:
            segs = self._segments(node, name)
            box = segments_bbox(segs, ctm)
            if box is None:
                return None
            half = self._stroke_half(node, ctm)
            if half:
                box = Box(x=box.x - half, y=box.y - half, width=box.width + 2 * half, height=box.height + 2 * half)
            return box
        if name in TEXTS:
            metrics = self._measure(node)
            return ctm.map_box(metrics.box) if metrics is not None else None
        return None

    def _measure(self, node: SvgNode) -> TextMetrics | None:
        self.text_chars += sum(len(t) for t in node.itertext())
        if self.text_chars > self.limits.max_text_chars:
            raise self._fail(node, f"the drawing has more than {self.limits.max_text_chars} characters of text, "
                                   "more than the importer measures")
        limit = self.limits.max_coordinate
        for d in node.iter():
            if not isinstance(d.tag, str):
                continue
            for attr in _TEXT_POSITIONS:
                value = d.get(attr)
                if value and any(not abs(v) <= limit for v in parse_numbers(value)):
                    raise self._fail(d, f"attribute {attr} places text beyond ±{limit:g}: its coordinates overflow "
                                        "what the importer accepts")
        return measure_text(node, self.style)

    # -- the walk -------------------------------------------------------------
    def _walk(self, start: SvgNode, ctm: Matrix, opacity: float, clip: Box | None,
              containers: tuple[SvgNode, ...], sink: list[Item]) -> None:
        stack = [_Frame(start, ctm, opacity, clip, containers)]
        while stack:
            fr = stack.pop()
            node = fr.node
            name = local_name(node)
            if name is None or name in NON_RENDERED:
                continue
            self.visited += 1
            if self.visited & 255 == 0:
                checkpoint()
            if self.visited > self.limits.max_rendered:
                raise SvgImportError(self.source, f"too many elements to draw (more than {self.limits.max_rendered}, "
                                                  "counting the content <use> elements repeat)")
            if not conditions_pass(node) or is_keyword(self.style.get(node, "display"), "none"):
                continue
            is_root = node is self.root and not self._use_stack
            if not is_root:
                self._check_finite(node)
            m = fr.ctm if is_root else fr.ctm @ self._local_matrix(node)
            if not m.is_finite():
                raise self._fail(node, "its transform is not finite")
            op = fr.opacity * clamp01(num(self.style.get(node, "opacity"), 1.0))
            if op <= 0 or abs(m.determinant) < 1e-300:
                continue
            clip_box = fr.clip
            if name in CONTAINERS or name == "use":
                try:
                    clip_box = intersect(clip_box, self._clip_box(node, m, None))
                except (ValidationError, OverflowError):
                    raise self._fail(node, "its clip path's geometry overflows") from None
                if name == "svg" and not is_root and not overflow_visible(self.style.get(node, "overflow")):
                    clip_box = intersect(clip_box, self._viewport_box(node, fr.ctm))
            if clip_box is not None and clip_box.width == 0 and clip_box.height == 0:
                continue
            if name == "use":
                self._use(node, m, op, clip_box, fr.containers, sink)
                continue
            if name in CONTAINERS:
                kids = [c for c in node if local_name(c) is not None]
                if name == "switch":
                    kids = [c for c in kids if local_name(c) not in NON_RENDERED and conditions_pass(c)][:1]
                sub = fr.containers if is_root else fr.containers + (node,)
                for child in reversed(kids):
                    stack.append(_Frame(child, m, op, clip_box, sub))
                continue
            try:
                item = self._leaf(node, name, m, op, clip_box, fr.containers)
            except (ValidationError, OverflowError):
                # a Box refused a non-finite coordinate: numbers so large the geometry overflows
                raise self._fail(node, "its geometry overflows (coordinates too large to represent)") from None
            if item is not None:
                self._check_range(node, item.box)
                sink.append(item)

    def _viewport_box(self, node: SvgNode, parent_ctm: Matrix) -> Box | None:
        vw, vh = viewport_size(node)
        x = parse_length(node.get("x"), percent_of=vw, default=0.0) or 0.0
        y = parse_length(node.get("y"), percent_of=vh, default=0.0) or 0.0
        w = parse_length(node.get("width") or "100%", percent_of=vw, default=vw) or 0.0
        h = parse_length(node.get("height") or "100%", percent_of=vh, default=vh) or 0.0
        if w <= 0 or h <= 0:
            return Box(x=0, y=0, width=0, height=0)
        return (parent_ctm @ transform_matrix(node)).map_box(Box(x=x, y=y, width=w, height=h))

    def _leaf(self, node: SvgNode, name: str, m: Matrix, op: float, clip: Box | None,
              containers: tuple[SvgNode, ...]) -> Item | None:
        if is_keyword(self.style.get(node, "visibility"), "hidden", "collapse"):
            return None
        metrics = None
        segs = 0
        curved = False
        stroke: str | None = None
        picture: PictureInk | None = None
        if name in SHAPES:
            if not self._paints(node, name):
                return None
            segments = self._segments(node, name)
            box = segments_bbox(segments, m)
            if box is None:
                return None
            half = self._stroke_half(node, m)
            if half:
                box = Box(x=box.x - half, y=box.y - half, width=box.width + 2 * half, height=box.height + 2 * half)
            segs = len(segments)
            curved = any(s.kind != "L" for s in segments)
            kind = "shape"
            stroke = self.style.color(node, "stroke")
            fill = self.style.color(node, "fill") or stroke
        elif name == "image":
            self._check_finite(node)
            rect = image_rect(node, self._viewport(node))
            if rect is None:
                return None
            box = m.map_box(rect)
            kind, fill = "image", None
            subject = picture_ink(node, rect)
            if subject is not None:
                picture = PictureInk(box=m.map_box(subject.box), margin=subject.margin)
        elif name in TEXTS:
            self._check_finite(node)
            metrics = self._measure(node)
            if metrics is None or not (metrics.text or "").strip():
                return None
            if not self._paints(node, "text") and not _descendant_paints(self, node):
                return None
            box = m.map_box(metrics.box)
            kind = "text"
            fill = metrics.fill
        else:
            return None  # an unknown or unsupported element draws nothing
        clip = intersect(clip, self._clip_box(node, m, box))
        whole = None
        if clip is not None:
            inter = box.intersection(clip)
            if inter is None:
                return None
            whole = box if kind == "text" and (inter.width < box.width or inter.height < box.height) else None
            box = inter
        if picture is not None:
            inside = picture.box.intersection(box)
            picture = PictureInk(box=inside, margin=picture.margin) if inside is not None else None
        self._z += 1
        return Item(node=node, tag=name, kind=kind, box=box, ctm=m, z=self._z, containers=containers,
                    opacity=op, fill=fill, metrics=metrics, segments=segs, curved=curved, stroke=stroke,
                    picture=picture, whole=whole)

    def _use(self, node: SvgNode, m: Matrix, op: float, clip: Box | None, containers: tuple[SvgNode, ...],
             sink: list[Item]) -> None:
        target = self.ids.get(ref_id(href(node)) or "")
        if target is None or local_name(target) is None:
            return
        if target in self._use_stack or len(self._use_stack) >= MAX_USE_DEPTH:
            return  # a reference cycle or a runaway chain: drawn as nothing (as renderers do)
        if any(a is target for a in node.iterancestors()) or node is target:
            return
        self._use_stack.append(node)
        try:
            parts: list[Item] = []
            tname = local_name(target)
            if tname == "symbol":
                vw, vh = viewport_size(node)
                w = parse_length(node.get("width") or "100%", percent_of=vw, default=vw)
                h = parse_length(node.get("height") or "100%", percent_of=vh, default=vh)
                sm = m @ local_matrix_no_parent(target) @ nested_svg_matrix(target, w, h)
                inner_clip = clip
                if not overflow_visible(self.style.get(target, "overflow")) and w and h and w > 0 and h > 0:
                    inner_clip = intersect(clip, m.map_box(Box(x=0, y=0, width=w, height=h)))
                for child in target:
                    if local_name(child) is not None:
                        self._walk(child, sm, op, inner_clip, containers, parts)
            else:
                self._walk_instance(target, m, op, clip, containers, parts)
        finally:
            self._use_stack.pop()
        if not parts:
            return
        box = Box.union_all(p.box for p in parts)
        kinds = {p.kind for p in parts}
        kind = kinds.pop() if len(kinds) == 1 else "shape"
        first = parts[0]
        self._z += 1
        sink.append(Item(
            node=node, tag="use", kind=kind, box=box, ctm=m, z=self._z, containers=containers,
            opacity=op, fill=first.fill, metrics=first.metrics if len(parts) == 1 else None,
            segments=sum(p.segments for p in parts), curved=any(p.curved for p in parts), parts=parts,
        ))

    def _walk_instance(self, target: SvgNode, m: Matrix, op: float, clip: Box | None,
                       containers: tuple[SvgNode, ...], sink: list[Item]) -> None:
        """Draw ``target`` (with its own transform) as the content of a ``<use>``."""
        name = local_name(target)
        if name in NON_RENDERED:
            return
        # _walk applies local_matrix(target), which is what the instance needs.
        self._walk(target, m, op, clip, containers, sink)


def fill_paints(style: StyleResolver, node: SvgNode, name: str | None = None) -> bool:
    """Whether the node's fill paints (a colour or a paint server, not ``none`` nor fully transparent).

    A ``<line>`` has no inside to fill.
    """
    if (name or local_name(node)) == "line":
        return False
    fill = (style.get(node, "fill") or "black").strip().lower()
    return fill not in ("none", "transparent") and num(style.get(node, "fill-opacity"), 1.0) > 0


def stroke_width(style: StyleResolver, node: SvgNode) -> float:
    """The node's own stroke width, in its user units (1 when none is set)."""
    return parse_length(style.get(node, "stroke-width") or "1", percent_of=100.0, default=1.0) or 0.0


def stroke_paints(style: StyleResolver, node: SvgNode) -> bool:
    """Whether the node's outline paints: a stroke that is not ``none``, transparent or zero wide."""
    stroke = (style.get(node, "stroke") or "none").strip().lower()
    return (stroke not in ("none", "transparent") and num(style.get(node, "stroke-opacity"), 1.0) > 0
            and stroke_width(style, node) > 0)


def _descendant_paints(walker: Walker, node: SvgNode) -> bool:
    for d in node.iterdescendants():
        name = local_name(d)
        if name and walker._paints(d, "text"):
            return True
    return False
