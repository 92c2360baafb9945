"""Deciding what a layout *element* is, from the painted leaves of a drawing.

A designer does not see 200 paths; they see a logo, a paragraph, a button, a
photo, a background. The rules, applied to the ``Item``s of the rendering
walk (``assistant.importer.walk``):

1. **Explicit grouping.** A container (``g``, ``a``, ``switch``, nested
   ``svg``) with a ``data-role`` attribute is one element; a ``cta`` or
   ``badge`` one with a label and at most ``EXPLICIT_GROUP_PARTS`` parts is a
   group element whose parts are its children (as in rule 4).
2. **Compound graphics.** The outermost container whose painted content is
   at least two shapes/images with little or no text (at most two text
   pieces of at most ``WORDMARK_CHARS`` characters — a logo's word mark),
   covering at most ``COMPOUND_MAX_AREA`` of the page, is one element: a
   logo made of 200 paths stays one element, its paths are not listed.
   Inkscape layers never qualify (they are the document's structure).
3. **Paragraphs split into lines.** PDF conversions write every line (and
   every bold run) as its own one-line ``<text>``. Consecutive one-line texts
   continue a paragraph when they sit on the same baseline with at most a
   font size of gap, or start the next line: same font size, same left edge
   (or centre, or right edge, by anchor) within half a font size, and a
   vertical gap below ``LINE_GAP`` font sizes.
4. **Buttons and badges.** A short one-line text painted over a shape that
   contains it, and not much larger than it (``BUTTON_MAX_RATIO`` of the
   text's area), makes a group element with the shape and the text as
   children.
5. **Loose outlines.** Small shapes left over that touch or nearly touch
   (gap at most ``CLUSTER_GAP`` of the smaller one's size) — outlined
   lettering, a logo exported as loose paths — form one element when there
   are at least three of them with curves or many segments. A cluster
   covering more than ``COMPOUND_MAX_AREA`` of the page is split at its
   widest links (single linkage, cut divisively) until each part fits.
6. Everything else is one element per painted leaf: a ``<text>`` or
   ``<flowRoot>`` is a paragraph, an ``<image>`` a picture, a ``<use>`` what
   it draws.

``Plan`` is the result: what each element is made of, before roles and ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from assistant.document import ROLES, Canvas
from assistant.geometry import Box
from assistant.importer.spatial import BoxIndex
from assistant.importer.walk import Item
from assistant.limits import checkpoint
from assistant.svg.tree import INKSCAPE_NS, SvgNode, local_name

WORDMARK_CHARS = 24
COMPOUND_MAX_AREA = 0.25
BUTTON_MAX_RATIO = 12.0
BUTTON_MAX_CHARS = 32
CLUSTER_GAP = 0.25
EXPLICIT_GROUP_PARTS = 4
CLUSTER_MAX_SHAPES = 600
#: Most shapes examined around one label when looking for its button (bounds degenerate files).
BUTTON_CANDIDATES = 256


@dataclass
class Plan:
    """One layout element to be: its kind, the leaves it draws, the nodes edits patch."""

    kind: str
    items: list[Item]
    node: SvgNode | None
    nodes: list[SvgNode]
    children: list[Plan] = field(default_factory=list)
    compound: bool = False
    role: str | None = None
    explicit_role: bool = False
    #: Number of text lines when it differs from the items' own count (merged lines).
    lines: int | None = None
    #: For a picture, the part of ``box`` that shows, when the rest is plain margin or paint in the colour
    #: behind it (set on import; ``Element.ink``).
    ink: Box | None = None

    @cached_property
    def box(self) -> Box:
        """The union of the items' boxes (a plan's items never change once it is made)."""
        if len(self.items) == 1:
            return self.items[0].box
        return Box.union_all(i.box for i in self.items)

    @cached_property
    def z(self) -> int:
        """Paint position of its lowest item."""
        return min(i.z for i in self.items)

    @property
    def text_items(self) -> list[Item]:
        """Its text items."""
        return [i for i in self.items if i.kind == "text"]

    @property
    def text(self) -> str:
        """Its items' text, joined by spaces."""
        return " ".join((i.metrics.text or "").strip() for i in self.text_items if i.metrics is not None).strip()


def walk_plans(plans: list[Plan]) -> list[Plan]:
    """Every plan and, after each, its children (depth first): the elements' paint order."""
    out: list[Plan] = []
    for p in plans:
        out.append(p)
        out.extend(walk_plans(p.children))
    return out


def explicit_role(node: SvgNode) -> str | None:
    """The node's ``data-role`` when it names a known role."""
    if node is None:
        return None
    value = (node.get("data-role") or "").strip().lower()
    return value if value in ROLES else None


def is_layer(node: SvgNode) -> bool:
    """True for an Inkscape layer (a group with ``inkscape:groupmode="layer"``)."""
    return node.get(f"{{{INKSCAPE_NS}}}groupmode") == "layer"


def _text_len(item: Item) -> int:
    return len((item.metrics.text or "").strip()) if item.metrics is not None else 0


class Grouper:
    """Turn painted items into element plans (see the module docstring)."""

    def __init__(self, items: list[Item], canvas: Canvas) -> None:
        self.items = items
        self.canvas = canvas
        self.members: dict[SvgNode, list[Item]] = {}
        for it in items:
            for c in it.containers:
                self.members.setdefault(c, []).append(it)
        self._verdict: dict[SvgNode, bool] = {}

    def _is_compound(self, c: SvgNode) -> bool:
        hit = self._verdict.get(c)
        if hit is not None:
            return hit
        self._verdict[c] = verdict = self._compound_rule(c)
        return verdict

    def _compound_rule(self, c: SvgNode) -> bool:
        if explicit_role(c):
            return True
        if is_layer(c) or local_name(c) not in ("g", "a", "switch", "svg"):
            return False
        members = self.members.get(c, [])
        if any(explicit_role(m.node) for m in members):
            return False  # a part that names its own role stays its own element
        texts = [m for m in members if m.kind == "text"]
        graphics = [m for m in members if m.kind != "text"]
        if len(graphics) < 2 or len(texts) > 2:
            return False
        if any(_text_len(t) > WORDMARK_CHARS or (t.metrics and len(t.metrics.lines) > 1) for t in texts):
            return False
        box = Box.union_all(m.box for m in members)
        page = self.canvas.box
        if box.area > COMPOUND_MAX_AREA * page.area:
            return False
        if texts and len(graphics) < 3:
            return False  # a shape and a word: a button or a badge, decided below
        return True

    def plans(self) -> list[Plan]:
        """Element plans in paint order (a group plan lists its children)."""
        atomic: dict[SvgNode, list[Item]] = {}
        singles: list[Plan] = []
        order: list[tuple[int, SvgNode]] = []
        for it in self.items:
            owner = next((c for c in it.containers if self._is_compound(c)), None)
            if owner is None:
                singles.append(Plan(kind=it.kind, items=[it], node=it.node, nodes=[it.node]))
                order.append((it.z, singles[-1]))
            else:
                if owner not in atomic:
                    atomic[owner] = []
                    order.append((it.z, owner))
                atomic[owner].append(it)
        plans: list[Plan] = []
        for _z, key in order:
            if isinstance(key, Plan):
                plans.append(key)
                continue
            its = atomic[key]
            kinds = {i.kind for i in its}
            kind = kinds.pop() if len(kinds) == 1 else ("image" if kinds == {"image", "shape"} and
                                                      _image_dominates(its) else "shape")
            role = explicit_role(key)
            if role in ("cta", "badge") and "text" in kinds and len(its) <= EXPLICIT_GROUP_PARTS:
                # an explicit button or badge keeps its parts as children (a label can be restyled)
                children = [Plan(kind=i.kind, items=[i], node=i.node, nodes=[i.node]) for i in its]
                plans.append(Plan(kind="group", items=its, node=key, nodes=[key], children=children,
                                  role=role, explicit_role=True))
                continue
            plans.append(Plan(kind=kind, items=its, node=key, nodes=[key], compound=True,
                              role=role, explicit_role=role is not None))
        # buttons before clusters: a row of rounded buttons must not become one "logo"
        return self._cluster_outlines(self._pair_buttons(self._merge_lines(plans)))

    def _merge_lines(self, plans: list[Plan]) -> list[Plan]:
        """Rule 3: join consecutive one-line texts into paragraphs."""
        out: list[Plan] = []
        for p in plans:
            prev = out[-1] if out else None
            if prev is not None and _one_line_text(p) and (_one_line_text(prev) or prev.lines) \
                    and prev.kind == "text" and not prev.compound and not prev.explicit_role:
                joined = _continues(prev, p.items[0])
                if joined:
                    items = prev.items + p.items
                    lines = (prev.lines or 1) + (1 if joined == "next" else 0)
                    owner = _lowest_common_container(items)
                    node = owner if owner is not None and len(self.members.get(owner, [])) == len(items) else None
                    out[-1] = Plan(kind="text", items=items, node=node,
                                   nodes=[node] if node is not None else [n for it in items for n in [it.node]],
                                   lines=lines)
                    continue
            out.append(p)
        return out

    def _cluster_outlines(self, plans: list[Plan]) -> list[Plan]:
        """Rule 5: merge loose small shapes that touch into one compound."""
        page = self.canvas.box.area
        cand = [i for i, p in enumerate(plans)
                if p.kind == "shape" and not p.compound and len(p.items) == 1 and explicit_role(p.node) is None
                and p.box.area <= 0.1 * page]
        if len(cand) < 3 or len(cand) > CLUSTER_MAX_SHAPES:
            return plans
        clusters = _clusters(cand, plans, COMPOUND_MAX_AREA * page)
        merged: dict[int, Plan] = {}
        drop: set[int] = set()
        for c in clusters:
            items = [plans[i].items[0] for i in c]
            if len(c) < 3 or not (any(it.curved for it in items) or sum(it.segments for it in items) >= 24):
                continue
            owner = _lowest_common_container(items)
            node = owner if owner is not None and len(self.members.get(owner, [])) == len(items) else None
            merged[c[0]] = Plan(kind="shape", items=items, node=node,
                                nodes=[node] if node is not None else [it.node for it in items], compound=True)
            drop.update(c[1:])
        return [merged.get(i, p) for i, p in enumerate(plans) if i not in drop]

    def _pair_buttons(self, plans: list[Plan]) -> list[Plan]:
        """Rule 4: join a short label with the shape right under it into a group.

        That shape is the nearest such shape painted before the label.

        The shapes that may be buttons are filed in a ``BoxIndex`` as the labels
        are met in paint order, so each label looks only at the shapes around it.
        """
        used: set[int] = set()
        groups: dict[int, Plan] = {}
        tol = 0.01 * min(self.canvas.width, self.canvas.height)
        max_area = 0.1 * self.canvas.box.area
        shapes = BoxIndex()
        filed = 0
        for ti, tp in enumerate(plans):
            if ti % 256 == 0:
                checkpoint()
            if tp.kind != "text" or tp.compound or len(tp.items) != 1:
                continue
            t = tp.items[0]
            if _text_len(t) > BUTTON_MAX_CHARS or (t.metrics and len(t.metrics.lines) > 1) or _text_len(t) == 0:
                continue
            for si in range(filed, ti):  # file the shapes painted before this label
                sp = plans[si]
                if sp.kind == "shape" and not sp.compound and len(sp.items) == 1 \
                        and explicit_role(sp.node) in (None, "cta", "badge") and sp.box.area <= max_area:
                    shapes.add(si, sp.box)
            filed = max(filed, ti)
            tb = t.box
            reach = (tb.x - tol, tb.y - tol, tb.x2 + tol, tb.y2 + tol)
            best: int | None = None
            for si in shapes.query(reach, limit=BUTTON_CANDIDATES):
                sb = plans[si].box
                if (best is None or si > best) and sb.contains(tb, tol) \
                        and sb.area <= BUTTON_MAX_RATIO * max(tb.area, 1e-9):
                    best = si
            if best is None:
                continue
            shapes.remove(best)
            used.update((best, ti))
            sp = plans[best]
            parent = _common_parent(sp.items[0], t)
            node = parent if parent is not None and len(self.members.get(parent, [])) == 2 else None
            group = Plan(kind="group", items=sp.items + tp.items, node=node,
                         nodes=[node] if node is not None else sp.nodes + tp.nodes, children=[sp, tp])
            groups[best] = group
        out: list[Plan] = []
        for i, p in enumerate(plans):
            if i in groups:
                out.append(groups[i])
            elif i not in used:
                out.append(p)
        return out


LINE_GAP = 0.8


def _one_line_text(p: Plan) -> bool:
    return (p.kind == "text" and len(p.items) == 1 and not p.compound and not p.explicit_role
            and p.items[0].metrics is not None and len(p.items[0].metrics.lines) == 1
            and explicit_role(p.items[0].node) is None)


def _size(it: Item) -> float:
    return it.metrics.font_size * it.ctm.scale_factor


def _continues(prev: Plan, it: Item) -> str | None:
    """How ``it`` follows the text of ``prev``.

    ``"same"`` when it continues the last line of ``prev``, ``"next"`` when it
    starts the next line of the same paragraph, else None.
    """
    last = prev.items[-1]
    if abs(it.ctm.rotation_degrees) > 0.01 or abs(last.ctm.rotation_degrees) > 0.01:
        return None
    s_last, s_new = _size(last), _size(it)
    a, b = last.box, it.box
    if abs(a.y2 - b.y2) <= 0.2 * max(s_last, s_new) and 0 <= b.x - a.x2 <= max(s_last, s_new) * 1.0 + 1e-9:
        return "same"
    first = prev.items[0]
    line_start = [x for x in prev.items if abs(x.box.y2 - a.y2) <= 0.2 * s_last][0]
    if abs(s_new - _size(first)) > 0.05 * s_new:
        return None
    gap = b.y - a.y2
    if not (-0.3 * s_new <= gap <= LINE_GAP * s_new):
        return None
    anchor = it.metrics.anchor
    line = Box.union_all(x.box for x in prev.items if abs(x.box.y2 - a.y2) <= 0.2 * s_last)
    if anchor == "middle":
        ok = abs(line.cx - b.cx) <= 0.5 * s_new
    elif anchor == "end":
        ok = abs(line.x2 - b.x2) <= 0.5 * s_new
    else:
        ok = abs(line_start.box.x - b.x) <= 0.5 * s_new
    return "next" if ok else None


def _gap(a: Box, b: Box) -> float:
    return max(a.x - b.x2, b.x - a.x2, a.y - b.y2, b.y - a.y2, 0.0)


def _clusters(cand: list[int], plans: list[Plan], max_area: float) -> list[list[int]]:
    """Single-linkage clusters of ``cand`` at relative gap ``CLUSTER_GAP``.

    A cluster is split at its widest links (a minimum spanning tree cut
    divisively) until each covers at most ``max_area``.
    """
    boxes = {i: plans[i].box for i in cand}
    sizes = {i: max(boxes[i].width, boxes[i].height, 1e-12) for i in cand}
    edges = []
    for pos, a in enumerate(cand):
        for b in cand[pos + 1:]:
            r = _gap(boxes[a], boxes[b]) / min(sizes[a], sizes[b])
            if r <= CLUSTER_GAP:
                edges.append((r, a, b))
    edges.sort()
    parent = {i: i for i in cand}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    tree = []
    for e in edges:
        ra, rb = find(e[1]), find(e[2])
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
            tree.append(e)
    while True:
        parent = {i: i for i in cand}
        for _r, a, b in tree:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        groups: dict[int, list[int]] = {}
        for i in cand:
            groups.setdefault(find(i), []).append(i)
        too_big = {find(g[0]) for g in groups.values()
                   if len(g) > 1 and Box.union_all(boxes[i] for i in g).area > max_area}
        if not too_big:
            return sorted(sorted(g) for g in groups.values())
        cut = max(k for k, (_r, a, _b) in enumerate(tree) if find(a) in too_big)
        del tree[cut]


def _lowest_common_container(items: list[Item]) -> SvgNode | None:
    common = items[0].containers
    for it in items[1:]:
        n = 0
        while n < len(common) and n < len(it.containers) and common[n] is it.containers[n]:
            n += 1
        common = common[:n]
    return common[-1] if common else None


def _image_dominates(items: list[Item]) -> bool:
    img = sum(i.box.area for i in items if i.kind == "image")
    return img >= 0.5 * Box.union_all(i.box for i in items).area


def _common_parent(a: Item, b: Item) -> SvgNode | None:
    if a.containers and b.containers and a.containers[-1] is b.containers[-1]:
        return a.containers[-1]
    return None


def build_plans(items: list[Item], canvas: Canvas) -> list[Plan]:
    """Element plans for the painted ``items`` of one document, in paint order."""
    return Grouper(items, canvas).plans()
