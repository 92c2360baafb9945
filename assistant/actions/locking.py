"""``set_locked``: lock elements against every later edit, or unlock them.

A lock is written as ``data-locked="true"`` on the element's top-most XML
nodes, the attribute the importer reads (with Inkscape's
``sodipodi:insensitive``), so it survives a save and a re-import; members of
a locked group are locked with it. Unlocking removes both attributes from the
element's nodes and everything inside them. An element locked through a
locked group (or an XML ancestor outside the element) cannot be unlocked on
its own: the message names what to unlock instead.
"""

from __future__ import annotations

from assistant.actions.engine import EditContext
from assistant.actions.schema import SetLocked
from assistant.errors import InvalidAction
from assistant.svg.tree import SODIPODI_NS

LOCK_ATTR = "data-locked"
INSENSITIVE_ATTR = f"{{{SODIPODI_NS}}}insensitive"


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("true", "1", "yes")


def _locked_from_outside(ctx: EditContext, element_id: str) -> str | None:
    """What keeps the element locked besides its own nodes: a locked group or XML ancestor."""
    g = ctx.el(element_id).group
    while g is not None:
        ge = ctx.el(g)
        if ge.locked:
            return f"it is inside the locked group {g!r}; unlock that group"
        g = ge.group
    for n in ctx.element_nodes(element_id):
        for anc in n.iterancestors():
            if _truthy(anc.get(LOCK_ATTR)) or _truthy(anc.get(INSENSITIVE_ATTR)):
                return f"an enclosing XML node ({anc.get('id') or anc.tag}) is locked"
    return None


def apply_set_locked(ctx: EditContext, a: SetLocked) -> None:
    """Lock or unlock the listed elements, in the layout and in the XML (see the module docstring)."""
    seen: set[str] = set()
    for element_id in a.ids:
        if element_id in seen:
            raise InvalidAction("id is listed twice", element_id)
        seen.add(element_id)
        ctx.el(element_id)
        if not a.locked:
            why = _locked_from_outside(ctx, element_id)
            if why:
                raise InvalidAction(f"cannot unlock it: {why}", element_id)
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
