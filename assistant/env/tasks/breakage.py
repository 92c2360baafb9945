"""Realistic, reproducible ways to break a clean layout spec.

Each breakage is a small function of the spec, the task's random generator
and the blocks it touches; it edits the spec in place and returns one line
saying what it did (kept in ``Task.breakages``). Magnitudes are relative to
the canvas's shorter side ``S`` so they mean the same on a 300 px banner and
a 297 mm flyer. Every breakage can be undone by the action vocabulary:

========================  ===============================================
breakage                  repair
========================  ===============================================
``misalign``              ``align`` (left edges) / ``snap_to_grid``
``shrink_text``           ``promote``
``shrink_block``          ``promote`` / ``resize``
``move_to_region``        ``anchor_to_region`` back to the asked region
``overlap``               ``move`` / ``reflow_group``
``crowd_margin``          ``move`` / ``anchor_to_region``
``uneven_spacing``        ``reflow_group`` / ``distribute``
========================  ===============================================

Moved blocks are clamped to the canvas so nothing is lost off the page.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks.spec import Block, Spec, rescale_text, scale_block


def _s(spec: Spec) -> float:
    return min(spec.width, spec.height)


def clamp(spec: Spec, b: Block) -> None:
    """Keep ``b`` inside the canvas."""
    b.x = min(max(b.x, 0.0), spec.width - b.w)
    b.y = min(max(b.y, 0.0), spec.height - b.h)


def _sign(rng: np.random.Generator) -> float:
    return 1.0 if rng.random() < 0.5 else -1.0


def misalign(spec: Spec, rng: np.random.Generator, ids: list[str], strength: float = 1.0) -> str:
    """Shift each block sideways by 1.2–3 % of S (× strength), in a random direction."""
    done = []
    for i in ids:
        b = spec.get(i)
        dx = _sign(rng) * float(rng.uniform(0.012, 0.03)) * _s(spec) * strength
        if b.x + dx < spec.margin * 0.5:
            dx = abs(dx)
        b.move(dx, 0.0)
        clamp(spec, b)
        done.append(f"{i} {dx:+.1f}")
    return "misalign " + ", ".join(done)


def shrink_text(spec: Spec, rng: np.random.Generator, block_id: str, low: float = 0.4, high: float = 0.5) -> str:
    """Scale a text block's font size down by a factor in ``[low, high]``."""
    f = float(rng.uniform(low, high))
    rescale_text(spec.get(block_id), f)
    return f"shrink {block_id} x{f:.2f}"


def shrink_block(spec: Spec, rng: np.random.Generator, block_id: str, low: float = 0.55,
                 high: float = 0.7) -> str:
    """Scale a badge, button or logo (label included) down about its centre."""
    f = float(rng.uniform(low, high))
    scale_block(spec.get(block_id), f)
    return f"shrink {block_id} x{f:.2f}"


def move_to_region(spec: Spec, block_id: str, corner: str) -> str:
    """Put a block into a corner (``top_left`` …) of the margin box, away from where it belongs."""
    b, m = spec.get(block_id), spec.margin
    b.x = m if "left" in corner else spec.width - m - b.w
    b.y = m if "top" in corner else spec.height - m - b.h
    return f"move {block_id} to {corner}"


def overlap(spec: Spec, rng: np.random.Generator, block_id: str, onto_id: str, strength: float = 1.0) -> str:
    """Pull a block up so that it covers 30–60 % (× strength) of the block above it."""
    b, o = spec.get(block_id), spec.get(onto_id)
    share = min(0.9, float(rng.uniform(0.3, 0.6)) * strength)
    dy = (o.y2 - share * min(o.h, b.h)) - b.y
    b.move(0.0, dy)
    clamp(spec, b)
    return f"overlap {block_id} onto {onto_id} ({share:.0%})"


def crowd_margin(spec: Spec, rng: np.random.Generator, block_id: str, side: str) -> str:
    """Push a block to within 0–0.8 % of S of one canvas edge."""
    b = spec.get(block_id)
    gap = float(rng.uniform(0.0, 0.008)) * _s(spec)
    if side == "left":
        b.x = gap
    elif side == "right":
        b.x = spec.width - b.w - gap
    elif side == "top":
        b.y = gap
    else:
        b.y = spec.height - b.h - gap
    return f"crowd {block_id} to the {side} edge ({gap:.1f})"


def uneven_spacing(spec: Spec, rng: np.random.Generator, ids: list[str], strength: float = 1.0) -> str:
    """Perturb the vertical gaps of a stack.

    Each block (and every later one) moves by ±1–3 % of S (× strength), never
    into the block above.
    """
    shift, done = 0.0, []
    prev_bottom = None
    for i in ids:
        b = spec.get(i)
        step = _sign(rng) * float(rng.uniform(0.01, 0.03)) * _s(spec) * strength
        shift += step
        new_y = b.y + shift
        if prev_bottom is not None and new_y < prev_bottom + 0.004 * _s(spec):
            shift += prev_bottom + 0.004 * _s(spec) - new_y
            new_y = b.y + shift
        b.y = new_y
        clamp(spec, b)
        prev_bottom = b.y2
        done.append(f"{i} {shift:+.1f}")
    return "uneven spacing " + ", ".join(done)


__all__ = ["misalign", "shrink_text", "shrink_block", "move_to_region", "overlap", "crowd_margin",
           "uneven_spacing", "clamp"]
