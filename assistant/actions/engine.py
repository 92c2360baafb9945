"""The edit context: plan world-space changes, check them, then patch layout and XML together.

Geometric actions reduce to a *plan*: for each element, a world affine map
(a translation, or a scale about an anchor point). :meth:`EditContext.transform`
checks every resulting box (finite, sane size, not pushed off the canvas)
before anything changes, then

* maps the layout boxes of the planned elements, their members, and any other
  element whose XML nodes all sit inside a moved node (so the layout always
  agrees with what the tree draws);
* patches the ``transform`` of the top-most XML nodes involved
  (see :mod:`assistant.actions.xml_patch` for the maths).

Every change is recorded, so a failure part-way rolls back and a finished
edit becomes a :class:`~assistant.actions.diff.Diff`.

Limits
    A box is mapped, not measured again: for content cut by a ``clip-path``
    or a nested ``<svg>`` viewport *above* the moved node (the clip stays
    put), the visible box after the edit can differ from the mapped one.
    Nodes that a ``<use>`` elsewhere draws again are refused (the copy would
    change behind the layout's back).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from assistant.actions.diff import Diff, forget_nodes
from assistant.actions.validate import check_box
from assistant.actions.xml_patch import PatchOp, XmlPatch, transform_node
from assistant.document import Document, Element
from assistant.errors import InvalidAction
from assistant.geometry import Box, Matrix
from assistant.svg.tree import SvgNode, href, parent_ctm, ref_id


def scale_about(sx: float, sy: float, ax: float, ay: float) -> Matrix:
    """World scale by ``(sx, sy)`` keeping the point ``(ax, ay)`` fixed."""
    return Matrix.translate(ax, ay) @ Matrix.scale(sx, sy) @ Matrix.translate(-ax, -ay)


def map_element(el: Element, m: Matrix) -> Element:
    """``el`` with its box (and font sizes, for a scale) mapped by the world affine ``m``."""
    update: dict[str, Any] = {"box": m.map_box(el.box)}
    s = math.sqrt(abs(m.a * m.d - m.b * m.c))
    if abs(s - 1.0) > 1e-12:
        if el.font_size is not None:
            update["font_size"] = el.font_size * s
        if el.line_height is not None:
            update["line_height"] = el.line_height * s
    return el.model_copy(update=update)


class EditContext:
    """Records layout and XML changes for one action on ``doc``."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.layout = doc.layout
        self.patch = XmlPatch()
        self.elements_before: dict[str, Element] = {}
        self.order_before: list[str] | None = None
        self.notes: list[str] = []
        #: Elements changed in what the layout does not record (an outline's colour): reported as changed.
        self.touched: set[str] = set()
        # Plain dict indexes (the layout's and document's own lookups are slower per call).
        self._els: dict[str, Element] = {e.id: e for e in doc.layout.elements}
        self._nodes: dict[str, SvgNode] = {}
        self._reused: dict[str, list[SvgNode]] | None = None

    def el(self, element_id: str) -> Element:
        """The current element with this id (``InvalidAction`` when unknown)."""
        e = self._els.get(element_id)
        return e if e is not None else self.layout.get(element_id)

    def check_not_reused(self, node: SvgNode, element_id: str) -> None:
        """Refuse editing a node that a ``<use>`` elsewhere draws again (directly or via an ancestor).

        The copy would change too, and the layout would not know it.
        """
        if self._reused is None:
            self._reused = {}
            for u in self.doc.root.iter("{http://www.w3.org/2000/svg}use", "use"):
                target = ref_id(href(u))
                if target:
                    self._reused.setdefault(target, []).append(u)
        if not self._reused:
            return
        for n in [node, *node.iterancestors()]:
            nid = n.get("id")
            users = self._reused.get(nid) if nid else None
            if users:
                names = ", ".join(repr(u.get("id") or "<use>") for u in users[:3])
                raise InvalidAction(f"its node {node.get('id')!r} is drawn again by <use> {names}; editing it "
                                    f"would change that copy too (edit the <use> instead)", element_id)

    def node(self, xml_id: str) -> SvgNode:
        """The XML node with this id (looked up once per action)."""
        n = self._nodes.get(xml_id)
        if n is None:
            n = self._nodes[xml_id] = self.doc.node(xml_id)
        return n

    # -- layout bookkeeping ---------------------------------------------------
    def update(self, el: Element) -> None:
        """Put ``el`` in the layout, remembering the element it replaces."""
        if el.id not in self.elements_before:
            self.elements_before[el.id] = self.el(el.id)
        self.layout.replace(el)
        self._els[el.id] = el

    def set_order(self, order: list[str]) -> None:
        """Put the layout's elements in the paint order ``order`` (ids), remembering the old one."""
        if self.order_before is None:
            self.order_before = [e.id for e in self.layout.elements]
        by_id = {e.id: e for e in self.layout.elements}
        self.layout.elements[:] = [by_id[i] for i in order]
        self.layout._index = None

    def run_structural(self, op: PatchOp) -> None:
        """Run an op that rebuilds nodes; node lookups are refreshed afterwards."""
        self.patch.run(op)
        self._nodes.clear()
        forget_nodes(self.doc)

    def rollback(self) -> None:
        """Undo everything this action did, in the tree and in the layout."""
        self.patch.undo()
        if self.patch.structural:
            forget_nodes(self.doc)
        for el in self.elements_before.values():
            self.layout.replace(el)
            self._els[el.id] = el
        if self.order_before is not None:
            by_id = {e.id: e for e in self.layout.elements}
            self.layout.elements[:] = [by_id[i] for i in self.order_before]
            self.layout._index = None

    def refresh_groups(self) -> None:
        """Give each group above a changed element the union box of its members again.

        Only groups whose box was that union before the edit (the importer's
        definition) are refreshed; others keep their box.
        """
        todo = {self.el(i).group for i in self.elements_before} - {None}
        done: set[str] = set()
        while todo:
            gid = todo.pop()
            if gid is None or gid in done:
                continue
            done.add(gid)
            g = self.el(gid)
            members = [self.el(c) for c in g.children]
            if not members:
                continue
            before = [self.elements_before.get(m.id, m).box for m in members]
            old_union = Box.union_all(before)
            g_old = self.elements_before.get(gid, g).box
            tol = 1e-9 * max(g_old.width, g_old.height, 1.0)
            if any(abs(a - b) > tol for a, b in zip(old_union.as_tuple(), g_old.as_tuple())):
                continue
            new_union = Box.union_all(m.box for m in members)
            if new_union != g.box:
                self.update(g.model_copy(update={"box": new_union}))
            if g.group is not None:
                todo.add(g.group)

    def finish(self, action: dict[str, Any] | None) -> Diff:
        """The ``Diff`` of this action: changed elements before and after, paint order, XML patch, notes."""
        changed = []
        before: dict[str, Box] = {}
        after: dict[str, Box] = {}
        elements_before: dict[str, Element] = {}
        elements_after: dict[str, Element] = {}
        for el in self.layout.elements:
            old = self.elements_before.get(el.id)
            if old is None or (old == el and el.id not in self.touched):
                continue
            changed.append(el.id)
            before[el.id], after[el.id] = old.box, el.box
            elements_before[el.id], elements_after[el.id] = old, el
        order_after = None
        order_before = self.order_before
        if order_before is not None:
            order_after = [e.id for e in self.layout.elements]
            if order_after == order_before:
                order_before = order_after = None
        return Diff(action=action, changed_ids=changed, before=before, after=after, patch=self.patch,
                    elements_before=elements_before, elements_after=elements_after,
                    order_before=order_before, order_after=order_after, notes=list(self.notes))

    # -- XML helpers ------------------------------------------------------------
    def subtree_ids(self, element_id: str) -> list[str]:
        """The element and all its members (depth first)."""
        out = [element_id]
        stack = list(self.el(element_id).children)
        while stack:
            i = stack.pop()
            out.append(i)
            stack.extend(self.el(i).children)
        return out

    def element_nodes(self, element_id: str) -> list[SvgNode]:
        """XML nodes of the element and of its members, top-most only (none inside another)."""
        nodes: list[SvgNode] = []
        seen: set[SvgNode] = set()
        for i in self.subtree_ids(element_id):
            for xml_id in self.el(i).nodes:
                n = self.node(xml_id)
                if n not in seen:
                    seen.add(n)
                    nodes.append(n)
        return [n for n in nodes if not any(a in seen for a in n.iterancestors())]

    # -- the geometric primitive --------------------------------------------------
    def transform(self, plan: Iterable[tuple[str, Matrix]], *, check: bool = True) -> None:
        """Apply a world affine to each planned element (with its members), layout and XML.

        Raises ``InvalidAction`` (before changing anything) when a result box
        is not acceptable.
        """
        plan = [(i, m) for i, m in plan if not m.is_identity]
        if not plan:
            return
        element_m: dict[str, Matrix] = {}
        node_m: dict[SvgNode, Matrix] = {}
        for eid, m in plan:
            for i in self.subtree_ids(eid):
                element_m[i] = m
            for n in self.element_nodes(eid):
                self.check_not_reused(n, eid)
                node_m[n] = m
        # Elements drawn entirely inside a moved node travel with it.
        owners: dict[str, list[str]] = {}
        for e in self._els.values():
            if e.id not in element_m:
                for xml_id in e.nodes:
                    owners.setdefault(xml_id, []).append(e.id)
        found: dict[str, tuple[set[str], Matrix]] = {}
        for top, m in node_m.items():
            for d in top.iter():
                xml_id = d.get("id") if isinstance(d.tag, str) else None
                for eid in owners.get(xml_id, ()) if xml_id else ():
                    found.setdefault(eid, (set(), m))[0].add(xml_id)
        for eid, (ids, m) in found.items():
            if ids >= set(self._els[eid].nodes):
                element_m[eid] = m
        new_elements = {i: map_element(self.el(i), m) for i, m in element_m.items()}
        if check:
            for i, new in new_elements.items():
                check_box(self.layout, i, self.el(i).box, new.box)
        parents_old = {n: parent_ctm(n) for n in node_m}
        ordered = sorted(node_m, key=lambda n: sum(1 for _ in n.iterancestors()))
        try:
            for n in ordered:
                p_old = parents_old[n]
                p_now = parent_ctm(n) if any(a in node_m for a in n.iterancestors()) else p_old
                transform_node(self.patch, n, node_m[n], p_old, p_now)
        except Exception:
            self.rollback()
            raise
        for new in new_elements.values():
            self.update(new)
