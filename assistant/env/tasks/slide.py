"""Presentation slide, 16:9 (medium).

Description
    A 1920 × 1080 px slide with 96 px margins: title and subtitle on the
    top band, four bullet points stacked with an even rhythm in the left
    half, a chart image with its caption in the right half, the logo small
    in the bottom-right corner.
Breakage (three, seeded)
    bullets nudged off their left edge, uneven bullet spacing, the logo
    moved to the top-right corner, the title shrunk, the caption pulled up
    over the chart.
Instruction
    Bullets aligned left, logo bottom right, title dominant, sometimes
    "keep the chart where it is" (the chart is never broken).
Weights
    Spacing rhythm and alignment count more: slides are read as lists.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks import breakage as brk
from assistant.env.tasks import content as ct
from assistant.env.tasks.base import Generated, register_task
from assistant.env.tasks.spec import Block, Spec, stack, text_block

W, H, M = 1920.0, 1080.0, 96.0


def clean_slide(rng: np.random.Generator) -> Spec:
    """The clean slide (see the module docstring), its palette and contents drawn from ``rng``."""
    bg, ink, muted, accent, _, img1, img2 = ct.pick(rng, ct.PALETTES)
    title, sub, bullets = ct.pick(rng, ct.SLIDE_TOPICS)
    spec = Spec(W, H, margin=M, title=str(title))
    cw = W - 2 * M
    spec.blocks.append(Block("background", "background", "background", 0, 0, W, H, fill=bg))
    t = text_block("title", "title", str(title), M, M, size=88, weight=700, fill=ink)
    s = text_block("subtitle", "subtitle", str(sub), M, 0, size=42, fill=muted)
    stack([(s, 20)], t.y2)
    items = [text_block(f"bullet-{i + 1}", "body", f"• {b}", M, 0, size=36, fill=ink, max_width=cw * 0.45,
                        name=f"bullet {i + 1}") for i, b in enumerate(bullets)]
    stack([(items[0], 80)] + [(b, 40) for b in items[1:]], s.y2)
    chart = Block("chart", "image", "image" if rng.random() < 0.6 else "photo_gradient", M + cw * 0.52, s.y2 + 80,
                  cw * 0.48, 0.4 * H, fill=img1, fill2=img2, variant=int(rng.integers(10)), name="chart")
    cap = text_block("chart-caption", "caption", f"Figure {int(rng.integers(1, 9))}: {str(sub).lower()}",
                     chart.x, chart.y2 + 14, size=24, fill=muted, max_width=chart.w)
    logo = Block("logo", "logo", "logo", W - M - 88, H - M - 88, 88, 88, fill=ink, fill2=accent,
                 variant=int(rng.integers(4)), name=str(ct.pick(rng, ct.BRANDS)))
    spec.blocks += [t, s, *items, chart, cap, logo]
    return spec


@register_task("slide", difficulty="medium", weights={"spacing": 0.1, "alignment": 0.13})
def generate(rng: np.random.Generator) -> Generated:
    """Slide, 1920x1080 px: bullets aligned and evenly spaced, logo bottom right."""
    clean = clean_slide(rng)
    broken = clean.copy()
    options = ["misalign", "uneven", "logo", "title", "caption"]
    chosen = [options[int(k)] for k in rng.permutation(len(options))[:3]]
    breaks: list[str] = []
    for kind in chosen:
        if kind == "misalign":
            breaks.append(brk.misalign(broken, rng, ["bullet-2", "bullet-4"]))
        elif kind == "uneven":
            breaks.append(brk.uneven_spacing(broken, rng, ["bullet-2", "bullet-3", "bullet-4"]))
        elif kind == "logo":
            breaks.append(brk.move_to_region(broken, "logo", "top_right"))
        elif kind == "title":
            breaks.append(brk.shrink_text(broken, rng, "title", 0.4, 0.5))
        else:
            breaks.append(brk.overlap(broken, rng, "chart-caption", "chart", strength=0.5))
    phrasing = [
        "Align the bullets left, put the logo in the bottom right corner and make the title dominant.",
        "Logo bottom right, title dominant, bullets aligned left, keep the chart where it is.",
        "Make the title dominant; the logo goes bottom right; line up the bullet points on the left.",
    ]
    return Generated(clean, broken, str(ct.pick(rng, phrasing)), breaks)
