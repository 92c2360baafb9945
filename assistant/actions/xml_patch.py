"""Minimal, exactly reversible patches of the kept SVG tree.

A patch is a list of small operations on lxml nodes: set an attribute, set a
node's text, rebuild a node's children (to restack them or rewrite text
lines). Each operation remembers the old value (a rebuilt subtree is kept as
a description), so :meth:`XmlPatch.undo` restores the tree byte for byte and
:meth:`XmlPatch.redo` replays it.

Transforms
    An edit moves or scales an element in *world* space (the root ``<svg>``
    user space). A node's ``transform`` attribute acts in its parent's user
    space, whose map to world space is ``P = parent_ctm(node)``. A world affine
    ``M`` therefore becomes the local prefix ``K = P⁻¹ M P`` (``node_ctm``
    changes from ``P T`` to ``M P T = P (K T)``); for a pure translation by
    ``d`` this is ``translate(L⁻¹ d)`` with ``L`` the linear part of ``P``.
    The prefix is merged into a leading ``translate``/``matrix`` term when
    there is one, otherwise written in front of the existing list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from assistant.errors import InvalidAction
from assistant.geometry import Matrix, parse_transform
from assistant.svg.tree import SvgNode, _origin

_FIRST_TERM_RE = re.compile(r"\s*(matrix|translate)\s*\(([^)]*)\)\s*,?\s*", re.I)


def node_label(node: SvgNode) -> str:
    """A stable way to name a node in a diff: its id, else its path in the tree."""
    nid = node.get("id") if isinstance(node.tag, str) else None
    if nid:
        return nid
    return node.getroottree().getpath(node)


def index_path(node: SvgNode) -> tuple[int, ...]:
    """Child indices from the root down to ``node``."""
    out = []
    p = node.getparent()
    while p is not None:
        out.append(p.index(node))
        node, p = p, p.getparent()
    return tuple(reversed(out))


class NodeRef:
    """A node that survives being rebuilt: the node object while it is in the tree, else its index path.

    Patches are undone and redone strictly in reverse order, so when an
    operation runs the tree has the shape it had when the operation was
    recorded, and the index path finds the (possibly rebuilt) node.
    """

    __slots__ = ("node", "root", "path")

    def __init__(self, node: SvgNode) -> None:
        self.node = node
        self.root = node.getroottree().getroot()
        self.path = index_path(node)

    def get(self) -> SvgNode:
        """The node at this place in the tree now (found again by its index path after a rebuild)."""
        top = self.node
        while (p := top.getparent()) is not None:
            top = p
        if top is self.root:
            return self.node
        n = self.root
        for i in self.path:
            n = n[i]
        self.node = n
        return n


@dataclass
class AttrOp:
    """Attribute ``name`` (Clark notation) of a node changes from ``old`` to ``new`` (None: absent)."""

    ref: NodeRef
    name: str
    old: str | None
    new: str | None
    structural = False

    def _set(self, value: str | None) -> None:
        node = self.ref.get()
        if value is None:
            node.attrib.pop(self.name, None)
        else:
            node.set(self.name, value)

    def do(self) -> None:
        """Set the attribute to ``new``."""
        self._set(self.new)

    def undo(self) -> None:
        """Set the attribute back to ``old``."""
        self._set(self.old)

    def describe(self) -> dict[str, Any]:
        """The change as JSON: node, attribute name, old and new value."""
        return {"node": node_label(self.ref.get()), "op": "attribute", "name": self.name,
                "old": self.old, "new": self.new}


@dataclass
class TextOp:
    """A node's ``text`` (or ``tail``) changes from ``old`` to ``new``."""

    ref: NodeRef
    which: str
    old: str | None
    new: str | None
    structural = False

    def do(self) -> None:
        """Set the text to ``new``."""
        setattr(self.ref.get(), self.which, self.new)

    def undo(self) -> None:
        """Set the text back to ``old``."""
        setattr(self.ref.get(), self.which, self.old)

    def describe(self) -> dict[str, Any]:
        """The change as JSON: node, ``text`` or ``tail``, old and new value."""
        return {"node": node_label(self.ref.get()), "op": self.which, "old": self.old, "new": self.new}


@dataclass
class NodeSpec:
    """A detached description of a node (element, comment or processing instruction) and its subtree."""

    kind: str
    tag: str | None
    attrib: list[tuple[str, str]]
    nsmap: dict[str | None, str]
    text: str | None
    tail: str | None
    children: list[NodeSpec]

    @classmethod
    def of(cls, node: SvgNode) -> NodeSpec:
        """The description of ``node`` and its subtree (namespaces its parent declares left out)."""
        tail = node.tail
        if node.tag is etree.Comment:
            return cls("comment", None, [], {}, node.text, tail, [])
        if node.tag is etree.ProcessingInstruction:
            return cls("pi", node.target, [], {}, node.text, tail, [])
        if not isinstance(node.tag, str):
            return cls("comment", None, [], {}, etree.tostring(node, encoding="unicode", with_tail=False), tail, [])
        parent = node.getparent()
        inherited = parent.nsmap if parent is not None else {}
        own = {k: v for k, v in node.nsmap.items() if inherited.get(k) != v}
        return cls("element", node.tag, list(node.attrib.items()), own, node.text, tail,
                   [cls.of(c) for c in node])

    def build(self, parent: SvgNode) -> SvgNode:
        """Append this node as the last child of ``parent``.

        Elements are made with ``SubElement`` in place, which keeps the prefix
        the document uses for a namespace (moving a node would re-pick the
        first prefix declared for it, e.g. ``svg:`` in Inkscape files).
        """
        if self.kind == "element":
            node = etree.SubElement(parent, self.tag, attrib=dict(self.attrib), nsmap=self.nsmap or None)
            node.text = self.text
            for c in self.children:
                c.build(node)
        else:
            node = etree.Comment(self.text) if self.kind == "comment" else etree.ProcessingInstruction(
                self.tag, self.text)
            parent.append(node)
        node.tail = self.tail
        return node

    def to_xml(self) -> str:
        """The described node as XML text, without its tail."""
        holder = etree.Element("holder")
        return etree.tostring(self.build(holder), encoding="unicode", with_tail=False)


@dataclass
class RebuildOp:
    """The children (and leading text) of a node are replaced by new ones, built in place.

    Used to restack nodes (a permutation of the old children) and to rewrite
    text lines. Both directions build the nodes afresh from their
    descriptions, so serialisation after undo is byte for byte the original.
    """

    ref: NodeRef
    old_text: str | None
    old: list[NodeSpec]
    new_text: str | None
    new: list[NodeSpec]
    what: str = "children"
    structural = True

    def _put(self, text: str | None, specs: list[NodeSpec]) -> None:
        node = self.ref.get()
        for c in list(node):
            node.remove(c)
        node.text = text
        for spec in specs:
            spec.build(node)

    def do(self) -> None:
        """Put the new children in place."""
        self._put(self.new_text, self.new)

    def undo(self) -> None:
        """Put the old children back."""
        self._put(self.old_text, self.old)

    def describe(self) -> dict[str, Any]:
        """The change as JSON: node, old and new leading text, old and new children as XML."""
        return {"node": node_label(self.ref.get()), "op": self.what, "old_text": self.old_text,
                "old": [c.to_xml() for c in self.old], "new_text": self.new_text, "new": [c.to_xml() for c in self.new]}


def rebuild_children(node: SvgNode, new_text: str | None, new: list[NodeSpec], what: str = "children") -> RebuildOp:
    """An op replacing ``node``'s children by ``new`` (call ``XmlPatch.run`` on it)."""
    return RebuildOp(NodeRef(node), node.text, [NodeSpec.of(c) for c in node], new_text, new, what)


def move_child(parent: SvgNode, node: SvgNode, final: int) -> None:
    """Move ``node`` among ``parent``'s children so it ends up at index ``final``.

    ``insert`` of an attached node moves it without detaching it first, which
    keeps the namespace prefix it is written with (a detached node would
    re-pick the first prefix declared for its namespace).
    """
    cur = parent.index(node)
    if final != cur:
        parent.insert(final + 1 if final > cur else final, node)


@dataclass
class MoveOp:
    """A child of a node moves from index ``old`` to index ``new`` (indices in the resulting list)."""

    ref: NodeRef
    old: int
    new: int
    #: The moved node, as named in the diff.
    label: str = ""
    structural = False

    def do(self) -> None:
        """Move the child from ``old`` to ``new``."""
        parent = self.ref.get()
        move_child(parent, parent[self.old], self.new)

    def undo(self) -> None:
        """Move the child back from ``new`` to ``old``."""
        parent = self.ref.get()
        move_child(parent, parent[self.new], self.old)

    def describe(self) -> dict[str, Any]:
        """The change as JSON: moved node, parent, old and new index."""
        return {"node": self.label, "op": "position", "parent": node_label(self.ref.get()),
                "old": self.old, "new": self.new}


PatchOp = AttrOp | TextOp | RebuildOp | MoveOp


@dataclass
class XmlPatch:
    """An ordered list of applied operations; undo runs them backwards."""

    ops: list[PatchOp] = field(default_factory=list)

    @property
    def structural(self) -> bool:
        """True when nodes were rebuilt (node objects held elsewhere may be stale)."""
        return any(op.structural for op in self.ops)

    def run(self, op: PatchOp) -> None:
        """Apply ``op`` now and record it."""
        op.do()
        self.ops.append(op)

    def set_attr(self, node: SvgNode, name: str, value: str | None) -> None:
        """Set attribute ``name`` of ``node`` to ``value`` (None: remove it) and record it; nothing when unchanged."""
        old = node.get(name)
        if old != value:
            self.run(AttrOp(NodeRef(node), name, old, value))

    def set_text(self, node: SvgNode, value: str | None, which: str = "text") -> None:
        """Set ``node``'s ``text`` (or ``tail``) to ``value`` and record it; nothing when unchanged."""
        old = getattr(node, which)
        if old != value:
            self.run(TextOp(NodeRef(node), which, old, value))

    def undo(self) -> None:
        """Undo every operation, the last first."""
        for op in reversed(self.ops):
            op.undo()

    def redo(self) -> None:
        """Apply every operation again, in order."""
        for op in self.ops:
            op.do()

    def describe(self) -> list[dict[str, Any]]:
        """Every operation as JSON, in order."""
        return [op.describe() for op in self.ops]


# -- transforms ------------------------------------------------------------------

#: Elements whose ``transform`` attribute renderers honour (SVG 1.1 "transformable").
TRANSFORMABLE = {
    "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text",
    "image", "use", "a", "switch", "foreignObject", "flowRoot", "svg",
}


def local_tag(node: SvgNode) -> str:
    """Local name of ``node``'s tag (``""`` for comments and processing instructions)."""
    tag = node.tag if isinstance(node.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def world_to_local(world: Matrix, parent: Matrix, parent_now: Matrix | None = None) -> Matrix:
    """``P⁻¹ M P``: the prefix for a node's own transform that applies world affine ``M``.

    ``parent_now`` is the parent CTM at patch time when an ancestor was
    patched already (then ``K = P_now⁻¹ M P``, so the node still ends up
    mapped by exactly ``M`` relative to where it was drawn before).
    """
    try:
        inv = (parent if parent_now is None else parent_now).inverse()
    except ValueError:
        raise InvalidAction("its parent transform is singular, so it cannot be moved") from None
    if parent_now is None and (world.a, world.b, world.c, world.d) == (1.0, 0.0, 0.0, 1.0):
        return Matrix.translate(*inv.apply_vector(world.e, world.f))  # translate(L⁻¹ d), exactly
    return _clean(inv @ world @ parent)


def _clean(m: Matrix) -> Matrix:
    """Round linear entries within 1e-12 of 0 or ±1 (float noise of P⁻¹ M P) to the exact value."""
    vals = []
    for v in (m.a, m.b, m.c, m.d):
        r = round(v)
        vals.append(float(r) if r in (-1, 0, 1) and abs(v - r) < 1e-12 else v)
    return Matrix(*vals, m.e, m.f)


def prefixed_transform(old: str | None, k: Matrix) -> str:
    """The ``transform`` text equal to ``k`` followed by ``old`` (merged into a leading translate/matrix)."""
    old = (old or "").strip()
    m = _FIRST_TERM_RE.match(old)
    if m:
        first = parse_transform(old[:m.end()].rstrip().rstrip(","))
        rest = old[m.end():].strip()
        merged = (k @ first)
        text = merged.to_svg()
        return f"{text} {rest}" if rest else text
    if not old:
        return k.to_svg()
    return f"{k.to_svg()} {old}"


def transform_node(patch: XmlPatch, node: SvgNode, world: Matrix, parent: Matrix,
                   parent_now: Matrix | None = None) -> None:
    """Apply the world affine ``world`` to ``node`` (parent CTM ``parent``) by patching its transform."""
    tag = local_tag(node)
    style = node.get("style") or ""
    if re.search(r"(^|;)\s*transform\s*:", style):
        raise InvalidAction(f"its <{tag}> node sets its transform in CSS, which edits do not rewrite",
                            node.get("id"))
    if tag not in TRANSFORMABLE:
        raise InvalidAction(f"its <{tag}> node cannot take a transform", node.get("id"))
    k = world_to_local(world, parent, parent_now)
    if node.get("transform-origin") or "transform-origin" in style:
        # The attribute is applied as T(o) · transform · T(-o): write T(-o) K T(o) in front.

        ox, oy = _origin(node)
        k = Matrix.translate(-ox, -oy) @ k @ Matrix.translate(ox, oy)
    if not k.is_finite():
        raise InvalidAction("the edit gives a non-finite transform", node.get("id"))
    old = node.get("transform")
    try:
        parse_transform(old)
    except ValueError:
        old = None  # renderers ignore an invalid transform; the new one replaces it
    patch.set_attr(node, "transform", prefixed_transform(old, k))
