"""``apply_template``: arrange the top-level elements by role into a grid template.

A template belongs to one canvas shape (portrait: width/height < 0.9,
landscape: > 1.1, square: in between) and maps roles to slots. A slot is a
box in fractions of the canvas safe box plus a horizontal alignment. The
elements of one role (top-level, unlocked) are stacked top-down in their slot
in reading order, with a gap of 1.5 % of the safe height, and scaled
uniformly to fit it: never enlarged, except images, which fill their slot as
far as their aspect allows. Roles a template has no slot for
(``background``, ``decoration`` and any other missing role) stay where
they are.

The templates follow common poster/slide/card grids: a hero image over a
left-aligned text column, a classic single column, a centred title page, a
two-column slide with the title left or the image right, a centred square
card, and an image-over-text card.
"""

from __future__ import annotations

from typing import NamedTuple

from assistant.actions.engine import EditContext, scale_about
from assistant.actions.schema import ApplyTemplate
from assistant.actions.validate import locked_reason
from assistant.document import Canvas, Element
from assistant.errors import InvalidAction
from assistant.geometry import Box, Matrix


class Slot(NamedTuple):
    """Where a role goes in a template: a box in fractions of the safe box, and how its items align there."""

    x: float
    y: float
    w: float
    h: float
    align: str = "left"


TEMPLATES: dict[str, tuple[str, dict[str, Slot]]] = {
    "hero-top": ("portrait", {
        "image": Slot(0, 0, 1, .48, "center"), "badge": Slot(.75, .01, .24, .08, "right"),
        "title": Slot(0, .51, 1, .13), "subtitle": Slot(0, .65, 1, .07), "body": Slot(0, .73, 1, .13),
        "caption": Slot(0, .865, 1, .035), "cta": Slot(0, .91, .45, .09), "logo": Slot(.7, .91, .3, .09, "right"),
    }),
    "classic-column": ("portrait", {
        "logo": Slot(0, 0, .3, .08), "title": Slot(0, .1, 1, .16), "subtitle": Slot(0, .27, 1, .07),
        "image": Slot(0, .36, 1, .34, "center"), "body": Slot(0, .72, 1, .15), "caption": Slot(0, .875, 1, .035),
        "cta": Slot(0, .92, .45, .08), "badge": Slot(.75, .92, .25, .08, "right"),
    }),
    "split-bottom": ("portrait", {
        "title": Slot(0, 0, 1, .18, "center"), "subtitle": Slot(0, .19, 1, .07, "center"),
        "image": Slot(0, .28, 1, .42, "center"), "badge": Slot(.8, .29, .19, .07, "right"),
        "body": Slot(0, .72, .6, .2), "cta": Slot(.62, .72, .38, .1, "right"),
        "logo": Slot(.62, .84, .38, .08, "right"), "caption": Slot(0, .94, 1, .06, "center"),
    }),
    "title-left": ("landscape", {
        "title": Slot(0, .1, .5, .3), "subtitle": Slot(0, .42, .5, .12), "body": Slot(0, .56, .5, .26),
        "cta": Slot(0, .85, .3, .15), "image": Slot(.55, 0, .45, .8, "center"), "badge": Slot(.56, .01, .15, .12),
        "caption": Slot(.55, .83, .22, .1), "logo": Slot(.8, .85, .2, .15, "right"),
    }),
    "title-center": ("landscape", {
        "logo": Slot(.4, 0, .2, .14, "center"), "badge": Slot(.85, 0, .15, .12, "right"),
        "title": Slot(0, .2, 1, .25, "center"), "subtitle": Slot(0, .47, 1, .12, "center"),
        "body": Slot(.15, .61, .7, .2, "center"), "cta": Slot(.35, .84, .3, .16, "center"),
        "caption": Slot(0, .92, .3, .08), "image": Slot(.7, .84, .3, .16, "right"),
    }),
    "image-right": ("landscape", {
        "title": Slot(0, .05, .46, .25), "subtitle": Slot(0, .32, .46, .1), "body": Slot(0, .44, .46, .3),
        "cta": Slot(0, .78, .3, .12), "logo": Slot(0, .92, .2, .08), "image": Slot(.5, 0, .5, .9, "center"),
        "badge": Slot(.51, .01, .15, .1), "caption": Slot(.5, .92, .5, .08, "right"),
    }),
    "centered": ("square", {
        "logo": Slot(.4, 0, .2, .1, "center"), "title": Slot(0, .14, 1, .2, "center"),
        "subtitle": Slot(0, .36, 1, .08, "center"), "image": Slot(.2, .46, .6, .28, "center"),
        "badge": Slot(.82, 0, .18, .1, "right"), "body": Slot(.1, .76, .8, .1, "center"),
        "caption": Slot(.1, .76, .8, .1, "center"), "cta": Slot(.3, .88, .4, .12, "center"),
    }),
    "image-top": ("square", {
        "image": Slot(0, 0, 1, .5, "center"), "badge": Slot(.8, .01, .19, .08, "right"),
        "title": Slot(0, .53, 1, .15), "subtitle": Slot(0, .69, 1, .07), "body": Slot(0, .77, 1, .12),
        "caption": Slot(0, .77, 1, .12), "cta": Slot(0, .9, .4, .1), "logo": Slot(.75, .9, .25, .1, "right"),
    }),
}

GAP_FRACTION = 0.015


def canvas_shape(canvas: Canvas) -> str:
    """``"portrait"``, ``"landscape"`` or ``"square"`` (within 10 %) for the canvas's proportions."""
    r = canvas.width / canvas.height
    return "portrait" if r < 0.9 else "landscape" if r > 1.1 else "square"


def templates_for(canvas: Canvas) -> list[str]:
    """Names of the templates made for the canvas's shape."""
    shape = canvas_shape(canvas)
    return [name for name, (s, _) in TEMPLATES.items() if s == shape]


def slot_box(canvas: Canvas, slot: Slot) -> Box:
    """The slot's box on this canvas, in world units."""
    s = canvas.safe_box
    return Box(x=s.x + slot.x * s.width, y=s.y + slot.y * s.height, width=slot.w * s.width, height=slot.h * s.height)


def _fill_slot(items: list[Element], region: Box, align: str, gap: float) -> list[tuple[str, Matrix]]:
    widths = [e.box.width for e in items]
    heights = [e.box.height for e in items]
    total_gap = gap * (len(items) - 1)
    limits = []
    if max(widths) > 0:
        limits.append(region.width / max(widths))
    if sum(heights) > 0:
        limits.append(max(region.height - total_gap, 0.0) / sum(heights))
    s = min(limits) if limits else 1.0
    if not (len(items) == 1 and items[0].role == "image"):
        s = min(s, 1.0)
    if not s > 0:
        s = 1.0
    stacked = sum(heights) * s + total_gap
    y = region.y + (region.height - stacked) / 2 if align == "center" else region.y
    plan = []
    for e in items:
        w, h = e.box.width * s, e.box.height * s
        x = region.x if align == "left" else region.x2 - w if align == "right" else region.cx - w / 2
        m = Matrix.translate(x - e.box.x, y - e.box.y) @ scale_about(s, s, e.box.x, e.box.y)
        plan.append((e.id, m))
        y += h + gap
    return plan


def apply_template(ctx: EditContext, a: ApplyTemplate) -> None:
    """Move and scale the top-level elements into the slots of the template for their roles."""
    canvas = ctx.layout.canvas
    shape, slots = TEMPLATES[a.template]
    if shape != canvas_shape(canvas):
        raise InvalidAction(
            f"template {a.template!r} is for {shape} canvases; this canvas is {canvas_shape(canvas)} "
            f"({canvas.width:g} x {canvas.height:g}); use one of: {', '.join(templates_for(canvas))}")
    by_slot: dict[Slot, list[Element]] = {}
    for e in ctx.layout.top_level():
        slot = slots.get(e.role)
        if slot is None:
            continue
        if locked_reason(ctx.layout, e.id):
            ctx.notes.append(f"{e.id!r} is locked and stays where it is")
            continue
        by_slot.setdefault(slot, []).append(e)
    if not by_slot:
        raise InvalidAction(f"no unlocked top-level element has a role that template {a.template!r} places")
    gap = GAP_FRACTION * canvas.safe_box.height
    plan: list[tuple[str, Matrix]] = []
    for slot, items in by_slot.items():
        items.sort(key=lambda e: (e.box.y, e.box.x))
        plan.extend(_fill_slot(items, slot_box(canvas, slot), slot.align, gap))
    ctx.transform(plan)
