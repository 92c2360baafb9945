"""``set_locked``: lock elements against every later edit, or unlock them.

A lock is written as ``data-locked="true"`` on the element's top-most XML
nodes, the attribute the importer reads (with Inkscape's
``sodipodi:insensitive``), so it survives a save and a re-import; members of
a locked group are locked with it. Unlocking removes both attributes from the
element's nodes and everything inside them. An element locked through a
locked group cannot be unlocked on its own: the message names the group to
unlock instead. An element locked by an enclosing XML node that is no element
(an Inkscape layer the designer locked) is unlocked alone: the lock moves from
that node onto everything else it held, so the rest of the layer stays locked.
"""

from __future__ import annotations

from lxml import etree

from assistant.actions.engine import EditContext
from assistant.actions.schema import SetLocked
from assistant.actions.validate import locked_reason
from assistant.document import Document, Element
from assistant.errors import InvalidAction
from assistant.svg.tree import SODIPODI_NS

LOCK_ATTR = "data-locked"
INSENSITIVE_ATTR = f"{{{SODIPODI_NS}}}insensitive"


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("true", "1", "yes")


def _locked_group(ctx: EditContext, element_id: str) -> str | None:
    """The locked group around the element, if one keeps it locked.

    A group the importer made is locked only because all its members are: it holds no lock of its own.
    """
    g = ctx.el(element_id).group
    while g is not None:
        ge = ctx.el(g)
        if ge.locked and not _made_up(ge):
            return g
        g = ge.group
    return None


def _made_up(el: Element) -> bool:
    """Whether ``el`` is a group the importer made (a section, a lock-up): it draws no node of its own."""
    return el.kind == "group" and not el.nodes


def _relock_made_up(ctx: EditContext, element_id: str) -> None:
    """The groups the importer made round ``element_id``, locked exactly when all their members are."""
    g = ctx.el(element_id).group
    while g is not None:
        ge = ctx.el(g)
        if _made_up(ge) and ge.locked != (locked := all(ctx.el(c).locked for c in ge.children)):
            ctx.update(ge.model_copy(update={"locked": locked}))
        g = ge.group


#: What a moved lock is put on: the nodes that draw (not a title, a description or definitions).
_DRAWN = {"g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "image", "use",
          "flowRoot", "switch", "a", "foreignObject"}


def _lift_enclosing_locks(ctx: EditContext, element_id: str) -> None:
    """Unlock the element where an enclosing node that is no element locks it, leaving the rest locked.

    The lock comes off each such node and goes onto its other drawn children, down the path to the element.
    """
    nodes = ctx.element_nodes(element_id)
    on_path = {a for n in nodes for a in [n, *n.iterancestors()]}
    for n in nodes:
        for anc in n.iterancestors():
            if not (_truthy(anc.get(LOCK_ATTR)) or _truthy(anc.get(INSENSITIVE_ATTR))):
                continue
            for name in (LOCK_ATTR, INSENSITIVE_ATTR):
                if anc.get(name) is not None:
                    ctx.patch.set_attr(anc, name, None)
            stack = [c for c in anc if isinstance(c.tag, str)]
            while stack:
                c = stack.pop()
                if c in nodes:
                    continue
                if c in on_path:
                    stack += [d for d in c if isinstance(d.tag, str)]
                elif etree.QName(c).localname in _DRAWN:
                    ctx.patch.set_attr(c, INSENSITIVE_ATTR, "true")


def locked_in_file(doc: Document, element_id: str) -> str | None:
    """What to unlock so that ``element_id`` can be edited, when only the file's Inkscape locks hold it.

    That is the element itself, or the locked group around it, when the lock on it (on its nodes, on what
    they hold or on what holds them) is Inkscape's ``sodipodi:insensitive`` and none is a ``data-locked``
    (a lock set here, which stands). None when it is not locked, or not only so.
    """
    layout = doc.layout
    if element_id not in layout or locked_reason(layout, element_id) is None:
        return None
    target = element_id
    g = layout.get(element_id).group
    while g is not None:
        if layout.get(g).locked and not _made_up(layout.get(g)):
            target = g
        g = layout.get(g).group
    ctx = EditContext(doc)
    nodes = ctx.element_nodes(target)
    held = [n for top in nodes for n in top.iter() if isinstance(n.tag, str)]
    holding = [a for top in nodes for a in top.iterancestors()]
    if any(_truthy(n.get(LOCK_ATTR)) for n in held + holding):
        return None
    return target if any(_truthy(n.get(INSENSITIVE_ATTR)) for n in held + holding) else None


def apply_set_locked(ctx: EditContext, a: SetLocked) -> None:
    """Lock or unlock the listed elements, in the layout and in the XML (see the module docstring)."""
    seen: set[str] = set()
    for element_id in a.ids:
        if element_id in seen:
            raise InvalidAction("id is listed twice", element_id)
        seen.add(element_id)
        ctx.el(element_id)
        if not a.locked:
            group = _locked_group(ctx, element_id)
            if group:
                raise InvalidAction(f"cannot unlock it: it is inside the locked group {group!r}; unlock that group",
                                    element_id)
            _lift_enclosing_locks(ctx, element_id)
        for node in ctx.element_nodes(element_id):
            if a.locked:
                ctx.patch.set_attr(node, LOCK_ATTR, "true")
                continue
            for n in node.iter():
                if isinstance(n.tag, str):
                    for name in (LOCK_ATTR, INSENSITIVE_ATTR):
                        if n.get(name) is not None:
                            ctx.patch.set_attr(n, name, None)
        for i in ctx.subtree_ids(element_id):
            el = ctx.el(i)
            if el.locked != a.locked:
                ctx.update(el.model_copy(update={"locked": a.locked}))
        _relock_made_up(ctx, element_id)
