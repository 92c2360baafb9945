"""The design spec a task generator builds before it writes SVG.

A ``Spec`` is a canvas size plus ``Block``s (one per layout element, with its
box, role and content). Generators lay out a clean spec on a grid, copy it,
break the copy (``assistant.env.tasks.breakage``) and render both to SVG
(``assistant.env.tasks.render``). Text boxes are measured with the real font
metrics of ``assistant.text.fonts`` so the spec's boxes are the boxes the importer
will find: a text block's box runs from the first line's ascent to the last
line's descent and is as wide as its longest line.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from assistant.text.fonts import font_extents, text_advance

SANS = "DejaVu Sans"
SERIF = "DejaVu Serif"


@dataclass
class Block:
    """One element of a generated layout (box in world units)."""

    id: str
    role: str
    #: text | image | photo_gradient | logo | button | badge | panel | rule | background
    kind: str
    x: float
    y: float
    w: float
    h: float
    lines: list[str] = field(default_factory=list)
    font_size: float = 0.0
    weight: int = 400
    family: str = SANS
    fill: str = "#111111"
    #: start | middle | end: how each line sits in the box.
    anchor: str = "start"
    #: Baseline-to-baseline distance as a multiple of the font size.
    leading: float = 1.25
    #: Second colour: button/badge label, image gradient end, logo accent.
    fill2: str = "#ffffff"
    #: Per-block variation (image pixels, logo shape).
    variant: int = 0
    name: str = ""

    @property
    def x2(self) -> float:
        """Right edge."""
        return self.x + self.w

    @property
    def y2(self) -> float:
        """Bottom edge."""
        return self.y + self.h

    @property
    def cx(self) -> float:
        """Horizontal centre."""
        return self.x + self.w / 2

    def move(self, dx: float, dy: float) -> None:
        """Shift the block by ``(dx, dy)``."""
        self.x += dx
        self.y += dy


@dataclass
class Spec:
    """A whole layout: canvas (world units), unit text for the root size, blocks in paint order."""

    width: float
    height: float
    blocks: list[Block] = field(default_factory=list)
    #: Unit of the root ``width``/``height`` attributes ("" for px without unit, or "mm").
    unit: str = ""
    #: World units per CSS px (1 for px canvases, 96/25.4 px per mm → 25.4/96 mm per px).
    world_per_px: float = 1.0
    title: str = ""
    margin: float = 0.0

    def get(self, block_id: str) -> Block:
        """The block with this id; ``KeyError`` when there is none."""
        for b in self.blocks:
            if b.id == block_id:
                return b
        raise KeyError(block_id)

    def has(self, block_id: str) -> bool:
        """True when a block has this id."""
        return any(b.id == block_id for b in self.blocks)

    def copy(self) -> Spec:
        """An independent deep copy."""
        return copy.deepcopy(self)


def advance(text: str, size: float, weight: int = 400, family: str = SANS) -> float:
    """Advance width of ``text`` in the given font (world units = size units)."""
    return float(text_advance(text, family, size, weight))


def extents(size: float, weight: int = 400, family: str = SANS) -> tuple[float, float]:
    """(ascent, descent) of the font at ``size``."""
    a, d = font_extents(family, size, weight)
    return float(a), float(abs(d))


def wrap(text: str, max_width: float, size: float, weight: int = 400, family: str = SANS) -> list[str]:
    """Greedy line breaking at spaces so each line fits ``max_width``.

    A single over-long word gets a line of its own.
    """
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and advance(trial, size, weight, family) > max_width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def text_block(block_id: str, role: str, text: str | list[str], x: float, y: float, *, size: float,
               max_width: float | None = None, weight: int = 400, family: str = SANS, fill: str = "#111111",
               anchor: str = "start", leading: float = 1.25, name: str = "") -> Block:
    """A text block whose top-left is ``(x, y)`` (for ``middle``: ``x`` is the centre).

    ``text`` is wrapped to ``max_width`` unless it is already a list of lines.
    """
    lines = list(text) if isinstance(text, list) else (
        wrap(text, max_width, size, weight, family) if max_width else [text])
    b = Block(id=block_id, role=role, kind="text", x=x, y=y, w=0.0, h=0.0, lines=lines, font_size=size,
              weight=weight, family=family, fill=fill, anchor=anchor, leading=leading, name=name)
    measure(b)
    if anchor == "middle":
        b.x = x - b.w / 2
    elif anchor == "end":
        b.x = x - b.w
    return b


def measure(b: Block) -> None:
    """Set ``b.w``/``b.h`` from its lines and font (text blocks only)."""
    a, d = extents(b.font_size, b.weight, b.family)
    b.w = max(advance(line, b.font_size, b.weight, b.family) for line in b.lines)
    b.h = a + d + (len(b.lines) - 1) * b.leading * b.font_size


def rescale_text(b: Block, factor: float) -> None:
    """Scale a text block's font size by ``factor``.

    The block keeps its anchor point (left edge, centre or right edge) and its top.
    """
    anchor_x = b.x if b.anchor == "start" else b.cx if b.anchor == "middle" else b.x2
    b.font_size *= factor
    measure(b)
    b.x = anchor_x if b.anchor == "start" else anchor_x - b.w / 2 if b.anchor == "middle" else anchor_x - b.w


def stack(items: list[tuple[Block, float]], y: float) -> float:
    """Place blocks top to bottom from ``y`` and return the last bottom.

    Each block goes ``gap`` below the previous bottom (the gap is applied before the block).
    """
    for blk, gap in items:
        blk.y = y + gap
        y = blk.y2
    return y


def badge_block(block_id: str, label: str, x: float, y: float, diameter: float, *, size: float, fill: str,
                fill2: str, role: str = "badge", weight: int = 700) -> Block:
    """A round badge (price, sticker) with a centred label."""
    return Block(block_id, role, "badge", x, y, diameter, diameter, lines=[label], font_size=size, weight=weight,
                 fill=fill, fill2=fill2)


def button_block(block_id: str, label: str, x: float, y: float, height: float, *, size: float, fill: str,
                 fill2: str, pad: float | None = None) -> Block:
    """A pill button sized to its label."""
    pad = 1.5 * size if pad is None else pad
    return Block(block_id, "cta", "button", x, y, advance(label, size, 700) + 2 * pad, height, lines=[label],
                 font_size=size, weight=700, fill=fill, fill2=fill2)


def scale_block(b: Block, factor: float) -> None:
    """Scale a non-text block (badge, logo, button) about its centre, label included."""
    cx, cy = b.x + b.w / 2, b.y + b.h / 2
    b.w *= factor
    b.h *= factor
    b.font_size *= factor
    b.x, b.y = cx - b.w / 2, cy - b.h / 2


__all__ = ["Block", "Spec", "stack", "badge_block", "button_block", "scale_block", "SANS", "SERIF", "advance",
           "extents", "wrap", "text_block", "measure", "rescale_text"]
