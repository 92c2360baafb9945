"""``promote`` / ``demote``: change an element's place in the visual hierarchy.

Hierarchy is carried by size and weight (O'Donovan et al. 2014, the
"importance vs. size" term). Promoting multiplies the size by ``factor``
(text: the font size; other elements: an anchored scale) and, for text, adds
one weight step of 100 per 25 % of growth (at most 900); demoting divides the
size and removes weight the same way (at least 300, so text stays legible).

The element grows from the edge it is anchored to: text from its
``text-anchor`` side, other elements from the canvas side they sit nearest
(left/centre/right third), always from the top. Growth downwards pushes the
*following* siblings that would now collide (below the old box, overlapping
the grown box or an already pushed sibling) down by the same amount, so
nothing collides; a push that would leave the canvas or move a locked element
refuses the whole action.
"""

from __future__ import annotations

from assistant.actions.engine import EditContext, scale_about
from assistant.actions.schema import Demote, Promote
from assistant.actions.text_ops import commit_text, set_font_size, set_plain_property
from assistant.actions.validate import check_box, check_editable, locked_reason
from assistant.document import Element
from assistant.errors import InvalidAction
from assistant.geometry import Box, Matrix


def _weight_step(factor: float) -> int:
    return 100 * max(1, round(4 * (factor - 1.0)))


def _anchor_fx(ctx: EditContext, el: Element) -> float:
    if el.kind == "text":
        return {"start": 0.0, "middle": 0.5, "end": 1.0}[el.text_anchor or "start"]
    c = ctx.layout.canvas
    rel = (el.box.cx - c.x) / c.width
    return 0.0 if rel < 1 / 3 else 1.0 if rel > 2 / 3 else 0.5


def _resize(ctx: EditContext, el: Element, factor: float, weight_delta: int) -> Element:
    """Scale ``el`` by ``factor`` (and shift its weight); the new element."""
    if el.kind == "text":
        set_font_size(ctx, el, (el.font_size or 16.0) * factor)
        if weight_delta:
            w = el.font_weight or 400
            new_w = min(900, w + weight_delta) if weight_delta > 0 else max(300, min(w, w + weight_delta))
            if new_w != w:
                set_plain_property(ctx, el, "font-weight", str(new_w))
        new = commit_text(ctx, el, check=False)
        dy = el.box.y - new.box.y  # glyphs grow about the baseline; keep the top edge where it was
        if abs(dy) > 1e-12 * max(abs(el.box.y), 1.0):
            ctx.transform([(el.id, Matrix.translate(0.0, dy))], check=False)
        new = ctx.layout.get(el.id)
        check_box(ctx.layout, el.id, el.box, new.box)
        return new
    fx = _anchor_fx(ctx, el)
    ax = el.box.x + fx * el.box.width
    ctx.transform([(el.id, scale_about(factor, factor, ax, el.box.y))])
    return ctx.layout.get(el.id)


def push_followers(ctx: EditContext, old: Box, new: Box, el: Element) -> None:
    """Move siblings below ``old`` down by the growth of the bottom edge where they would collide.

    A sibling collides when it overlaps a moving box horizontally and starts
    above that box's new bottom edge; pushed siblings can push further ones.
    """
    grow = new.y2 - old.y2
    if grow <= 1e-9:
        return
    tol = 1e-6 * max(ctx.layout.canvas.width, ctx.layout.canvas.height)
    siblings = [e for e in ctx.layout.elements
                if e.group == el.group and e.id != el.id and e.role != "background" and e.box.y >= old.y2 - tol]
    siblings.sort(key=lambda e: (e.box.y, e.box.x))
    moving = [new]
    pushed: list[Element] = []
    for e in siblings:
        b = e.box
        if any(b.x < m.x2 - tol and b.x2 > m.x + tol and b.y < m.y2 - tol for m in moving):
            why = locked_reason(ctx.layout, e.id)
            if why:
                raise InvalidAction(f"growing {el.id!r} would push it down, but {why}", e.id)
            pushed.append(e)
            moving.append(b.translated(0.0, grow))
    if pushed:
        ctx.transform([(e.id, Matrix.translate(0.0, grow)) for e in pushed])
        ctx.notes.append(f"pushed {', '.join(e.id for e in pushed)} down by {grow:.4g}")


def apply_promote(ctx: EditContext, a: Promote) -> None:
    """Make an element larger by ``factor`` (and bolder) and push the elements below it down."""
    (el,) = check_editable(ctx.layout, [a.id])
    new = _resize(ctx, el, a.factor, _weight_step(a.factor))
    push_followers(ctx, el.box, new.box, el)


def apply_demote(ctx: EditContext, a: Demote) -> None:
    """Make an element smaller by ``factor`` (and lighter)."""
    (el,) = check_editable(ctx.layout, [a.id])
    _resize(ctx, el, 1.0 / a.factor, -_weight_step(a.factor))
