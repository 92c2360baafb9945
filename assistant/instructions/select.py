"""Which elements a constraint talks about, and how prominent they are.

Definitions used by every constraint:

- *content elements*: top-level elements that are neither a ``background``
  nor ``decoration`` role nor full-bleed (a box covering 90 % of the canvas or
  more): the things a designer places and a reader reads.
- *outermost elements of a role*: elements with that role none of whose
  ancestor groups has the same role (a button group with role ``cta`` is the
  target, not the label inside it).
- *prominence*: for text (or a group holding text) the largest font size in
  world units, since type size is what reads as emphasis; for anything else
  the square root of the box area, a linear size comparable across shapes.
"""

from __future__ import annotations

import math

from assistant.document import Element, Layout


def is_full_bleed(layout: Layout, e: Element) -> bool:
    """True when ``e`` covers at least 90 % of the canvas area."""
    return e.box.area >= 0.9 * layout.canvas.width * layout.canvas.height


def content_elements(layout: Layout) -> list[Element]:
    """Top-level elements other than backgrounds, decorations and full-bleed boxes."""
    return [
        e for e in layout.elements
        if e.group is None and e.role not in ("background", "decoration") and not is_full_bleed(layout, e)
    ]


def ancestors(layout: Layout, e: Element) -> list[Element]:
    """Parent groups of ``e``, nearest first (unknown parents are skipped)."""
    out: list[Element] = []
    seen: set[str] = set()
    g = e.group
    while g is not None and g in layout and g not in seen:
        seen.add(g)
        parent = layout.get(g)
        out.append(parent)
        g = parent.group
    return out


def outermost_with_role(layout: Layout, role: str) -> list[Element]:
    """Elements of ``role`` that no ancestor of the same role contains."""
    return [
        e for e in layout.elements
        if e.role == role and not any(a.role == role for a in ancestors(layout, e))
    ]


def resolve_target(layout: Layout, ids: list[str], role: str | None) -> tuple[list[Element], list[str]]:
    """The elements named by ``ids`` (when given) or by ``role``.

    Returns ``(elements, missing_ids)``. With neither ids nor a role the target
    is every content element.
    """
    if ids:
        found = [layout.get(i) for i in ids if i in layout]
        return found, [i for i in ids if i not in layout]
    if role is not None:
        return outermost_with_role(layout, role), []
    return content_elements(layout), []


def text_leaves(layout: Layout, e: Element) -> list[Element]:
    """``e`` itself when it is text, else the text elements inside it."""
    if e.kind == "text":
        return [e]
    if e.kind == "group":
        return [d for d in layout.descendants_of(e.id) if d.kind == "text"]
    return []


def font_size_of(layout: Layout, e: Element) -> float | None:
    """Largest font size (world units) of the text in ``e``, or None."""
    sizes = [t.font_size for t in text_leaves(layout, e) if t.font_size]
    return max(sizes) if sizes else None


def prominence(layout: Layout, e: Element) -> float:
    """Font size for text-bearing elements, else sqrt(box area) (see module docstring)."""
    fs = font_size_of(layout, e)
    if fs is not None and e.role not in ("image", "logo"):
        return fs
    return math.sqrt(max(e.box.area, 0.0))


def is_texty(layout: Layout, e: Element) -> bool:
    """Whether ``e``'s prominence is measured by its type size."""
    return e.role not in ("image", "logo") and font_size_of(layout, e) is not None


def px(layout: Layout, world: float) -> float:
    """World units → CSS px."""
    return world * layout.canvas.px_per_unit


def world(layout: Layout, css_px: float) -> float:
    """CSS px → world units."""
    return css_px / layout.canvas.px_per_unit if layout.canvas.px_per_unit else css_px


def label(e: Element) -> str:
    """Short human reference to an element for finding messages."""
    return f"'{e.id}' ({e.role})"


__all__ = [
    "content_elements", "outermost_with_role", "resolve_target", "text_leaves", "font_size_of",
    "prominence", "is_texty", "is_full_bleed", "ancestors", "px", "world", "label",
]
