"""``reorder``: change an element's paint order by moving its XML nodes among their siblings.

SVG paints in document order (SVG 1.1 §3.3), so "front" is the last rendered
sibling position and "back" the first above any background element
(a card sent "back" stays visible in front of the full-bleed background).
Nodes are moved in place (never detached), so they keep their namespace
prefix; the one exception is a direct child of a root that declares the SVG
namespace under a prefix *before* the default one (some Inkscape files):
libxml2 then writes the moved node with that prefix (``svg:text``), which is
the same XML name but not the same bytes. An element nested in groups that wrap
nothing else (``<g><g><rect/></g></g>``) restacks its outermost such group. ``forward``/``backward`` step over one
rendered sibling that is not part of the element. Non-rendered siblings
(``defs``, ``style``, ``title``, metadata, comments) are not counted. After
the XML changes, the layout's paint order is re-derived from the document
order of each element's first node and the existing ``z`` values are
re-dealt in that order.
"""

from __future__ import annotations

from assistant.actions.engine import EditContext
from assistant.actions.schema import Reorder
from assistant.actions.validate import check_editable
from assistant.actions.xml_patch import MoveOp, NodeRef, local_tag, node_label
from assistant.errors import InvalidAction
from assistant.svg.tree import SvgNode

_NOT_PAINTED = {"defs", "style", "title", "desc", "metadata", "namedview", "script", "symbol", "clipPath",
                "mask", "linearGradient", "radialGradient", "pattern", "filter", "marker"}


def _painted(node: SvgNode) -> bool:
    return isinstance(node.tag, str) and local_tag(node) not in _NOT_PAINTED


def _background_nodes(ctx: EditContext) -> set[SvgNode]:
    out: set[SvgNode] = set()
    for e in ctx.layout.elements:
        if e.role == "background":
            for xml_id in e.nodes:
                n = ctx.doc.node(xml_id)
                out.add(n)
                out.update(n.iterancestors())
    return out


def _restack(ctx: EditContext, parent: SvgNode, ours: list[SvgNode], to: str) -> None:
    kids = list(parent)
    others = [k for k in kids if k not in ours]
    painted_others = [k for k in others if _painted(k)]
    if to == "back":
        backdrop = _background_nodes(ctx)
        painted_others = [k for k in painted_others if k not in backdrop] or painted_others[-1:]
    if not painted_others:
        return
    if to == "front":
        new = others + ours
    elif to == "back":
        i = others.index(painted_others[0])
        new = others[:i] + ours + others[i:]
    elif to == "forward":
        last = kids.index(ours[-1])
        after = [k for k in painted_others if kids.index(k) > last]
        if not after:
            return
        i = others.index(after[0]) + 1
        new = others[:i] + ours + others[i:]
    else:
        first = kids.index(ours[0])
        before = [k for k in painted_others if kids.index(k) < first]
        if not before:
            return
        i = others.index(before[-1])
        new = others[:i] + ours + others[i:]
    if new == kids:
        return
    ref = NodeRef(parent)
    for n in sorted(ours, key=new.index):
        t = new.index(n)
        cur = parent.index(n)
        if t == 0:
            final = 0
        else:
            pred = parent.index(new[t - 1])
            final = pred + 1 if cur > pred else pred
        if final != cur:
            ctx.patch.run(MoveOp(ref, cur, final, node_label(n)))


def _own_wrapper(ctx: EditContext, node: SvgNode, owned: set[str]) -> SvgNode:
    """The highest ancestor that wraps only ``node`` (single painted child, no other element's node)."""
    root = ctx.doc.root
    while True:
        parent = node.getparent()
        if parent is None or parent is root:
            return node
        if [k for k in parent if _painted(k)] != [node]:
            return node
        pid = parent.get("id")
        if pid and pid in ctx.layout and pid not in owned:
            return node
        node = parent


def _ancestry(node: SvgNode) -> list[SvgNode]:
    """``node`` and its ancestors, the root last."""
    return [node, *node.iterancestors()]


def _under(node: SvgNode, top: SvgNode) -> SvgNode:
    """The child of ``top`` that is or holds ``node`` (``node`` lies under ``top``)."""
    while node.getparent() is not top:
        node = node.getparent()
    return node


def _movable(ctx: EditContext, el_id: str, anchor: SvgNode) -> list[tuple[SvgNode, SvgNode, SvgNode]] | None:
    """For each node of ``el_id``: the node to move, the parent it moves in and the sibling to move beside.

    The node to move is the element's node (or the group that wraps only it); it moves among the children of
    its nearest common ancestor with ``anchor``, beside the child that holds ``anchor``. None when it would
    have to leave a group that holds other elements as well (moving the group would restack them too).
    """
    owned = set(ctx.subtree_ids(el_id))
    line = _ancestry(anchor)
    out = []
    for n in ctx.element_nodes(el_id):
        wrapper = _own_wrapper(ctx, n, owned)
        if wrapper in line:
            raise InvalidAction(f"holds the node {node_label(anchor)!r} it is restacked against", el_id)
        top = next(p for p in _ancestry(wrapper)[1:] if p in line)
        if wrapper.getparent() is not top:
            return None
        out.append((wrapper, top, _under(anchor, top)))
    return out


def _restack_against(ctx: EditContext, el_id: str, ref_id: str, to: str) -> bool:
    """Put ``el_id`` just behind (``to`` "back") or just in front of ``ref_id``; False when it cannot move.

    Nothing changes when it is on that side already.
    """
    position = {n: i for i, n in enumerate(ctx.doc.root.iter())}
    ours, theirs = ctx.element_nodes(el_id), ctx.element_nodes(ref_id)
    if not ours or not theirs:
        ctx.notes.append(f"{el_id!r} or {ref_id!r} has no XML nodes; nothing to restack")
        return True
    first, last = min(theirs, key=position.__getitem__), max(theirs, key=position.__getitem__)
    if to == "back" and max(position[n] for n in ours) < position[first] or \
            to == "front" and min(position[n] for n in ours) > position[last]:
        side = "behind" if to == "back" else "in front of"
        ctx.notes.append(f"{el_id!r} is {side} {ref_id!r} already; nothing to restack")
        return True
    plan = _movable(ctx, el_id, first if to == "back" else last)
    if plan is None:
        return False
    for node, parent, beside in (plan if to == "back" else reversed(plan)):
        cur, at = parent.index(node), parent.index(beside)
        if to == "back":
            final = at - 1 if cur < at else at
        else:
            final = at if cur < at else at + 1
        if final != cur:
            ctx.patch.run(MoveOp(NodeRef(parent), cur, final, node_label(node)))
    return True


def apply_reorder(ctx: EditContext, a: Reorder) -> None:
    """Restack an element's nodes among their siblings (to the front or back, one step up or down).

    With a ``target_id``, the element goes just behind (``back``) or just in front of (``front``) that
    element, wherever both are drawn: the element's node (or the group that wraps only it) moves beside the
    node that holds the other under their nearest common group. When the element shares its group with
    others, the other element moves to the other side of it instead; when neither can, the edit is refused.
    """
    (el,) = check_editable(ctx.layout, [a.id])
    if a.target_id is not None:
        ref = ctx.el(a.target_id)
        if ref.id in ctx.subtree_ids(el.id) or el.id in ctx.subtree_ids(ref.id):
            raise InvalidAction(f"contains or is inside {ref.id!r}; restack it against another element", el.id)
        if not _restack_against(ctx, el.id, ref.id, a.to):
            check_editable(ctx.layout, [ref.id])
            if not _restack_against(ctx, ref.id, el.id, "front" if a.to == "back" else "back"):
                raise InvalidAction(f"and {ref.id!r} each share a group with other elements; restack a group", el.id)
            ctx.notes.append(f"{ref.id!r} moved to the other side of {el.id!r}: {el.id!r} shares its group")
        if ctx.patch.ops:
            resync_paint_order(ctx)
        return
    owned = set(ctx.subtree_ids(el.id))
    nodes = [_own_wrapper(ctx, n, owned) for n in ctx.element_nodes(el.id)]
    if not nodes:
        ctx.notes.append(f"{el.id!r} has no XML nodes; nothing to restack")
        return
    by_parent: dict[SvgNode, list[SvgNode]] = {}
    for n in nodes:
        by_parent.setdefault(n.getparent(), []).append(n)
    for parent, ours in by_parent.items():
        ours.sort(key=parent.index)
        _restack(ctx, parent, ours, a.to)
    if ctx.patch.ops:
        resync_paint_order(ctx)


def resync_paint_order(ctx: EditContext) -> None:
    """Re-derive the layout's paint order from the tree and re-deal the ``z`` values."""
    layout = ctx.layout
    position = {n: i for i, n in enumerate(ctx.doc.root.iter())}

    def key(eid: str) -> float:
        best = float("inf")
        for i in [eid] + [d.id for d in layout.descendants_of(eid)]:
            for xml_id in layout.get(i).nodes:
                best = min(best, position.get(ctx.doc.node(xml_id), best))
            if best != float("inf") and i == eid:
                break
        return best

    old = list(layout.elements)
    keys = {e.id: key(e.id) for e in old}
    last = -1.0
    for e in old:  # elements with no nodes keep their place after their predecessor
        if keys[e.id] == float("inf"):
            keys[e.id] = last
        last = keys[e.id]
    new = sorted(old, key=lambda e: keys[e.id])
    zs = sorted(e.z for e in old)
    ctx.set_order([e.id for e in new])
    for e, z in zip(new, zs):
        if e.z != z:
            ctx.update(e.model_copy(update={"z": z}))
