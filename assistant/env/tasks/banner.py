"""Web banner (easy).

Description
    A 1200 × 300 px leaderboard-style banner with 30 px margins: the logo on
    the left, headline and subline stacked beside it, and the button on the
    right, all centred on the banner's horizontal midline.
Breakage (two, seeded)
    the button moved off the right (to the left of the text or the top
    left), the headline shrunk, the subline nudged off the headline's left
    edge, or the logo pushed against the left edge.
Instruction
    Logo on the left, button on the right, headline dominant.
Weights
    Balance and alignment count more on a strip this narrow.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks import breakage as brk
from assistant.env.tasks import content as ct
from assistant.env.tasks.base import Generated, register_task
from assistant.env.tasks.spec import Block, Spec, button_block, text_block

W, H, M = 1200.0, 300.0, 30.0


def clean_banner(rng: np.random.Generator) -> Spec:
    """The clean banner (see the module docstring), its palette, product and brand drawn from ``rng``."""
    bg, ink, muted, accent, on_accent, _, _ = ct.pick(rng, ct.PALETTES)
    name, tagline = ct.pick(rng, ct.PRODUCTS)
    brand = str(ct.pick(rng, ct.BRANDS))
    spec = Spec(W, H, margin=M, title=f"{brand} banner")
    spec.blocks.append(Block("background", "background", "background", 0, 0, W, H, fill=bg))
    logo = Block("logo", "logo", "logo", M + 20, H / 2 - 50, 100, 100, fill=ink, fill2=accent,
                 variant=int(rng.integers(4)), name=brand)
    tx = logo.x2 + 60
    title = text_block("title", "title", str(name), tx, 0, size=56, weight=700, fill=ink)
    sub = text_block("subtitle", "subtitle", str(tagline), tx, 0, size=28, fill=muted)
    top = H / 2 - (title.h + 14 + sub.h) / 2
    title.y, sub.y = top, top + title.h + 14
    cta = button_block("cta", str(ct.pick(rng, ct.CTAS)), 0, H / 2 - 36, 72, size=28, fill=accent, fill2=on_accent)
    cta.x = W - M - 20 - cta.w
    spec.blocks += [logo, title, sub, cta]
    return spec


@register_task("banner", difficulty="easy", weights={"balance": 0.08, "alignment": 0.12})
def generate(rng: np.random.Generator) -> Generated:
    """Web banner, 1200x300 px: button back on the right, headline dominant."""
    clean = clean_banner(rng)
    broken = clean.copy()
    breaks: list[str] = []
    b = broken.get("cta")
    if rng.random() < 0.5:
        b.x = broken.width * float(rng.uniform(0.55, 0.6)) - b.w / 2
        b.y = broken.margin + float(rng.uniform(0, 20))
        breaks.append("move cta to the middle top")
    else:
        breaks.append(brk.move_to_region(broken, "cta", "bottom_left"))
        breaks.append(brk.move_to_region(broken, "logo", "top_right"))
    extra = ["title", "misalign", "crowd"][int(rng.integers(3))]
    if extra == "title":
        breaks.append(brk.shrink_text(broken, rng, "title", 0.5, 0.6))
    elif extra == "misalign":
        breaks.append(brk.misalign(broken, rng, ["subtitle"]))
    else:
        breaks.append(brk.crowd_margin(broken, rng, "logo", "left") if breaks[-1] != "move logo to top_right"
                      else brk.shrink_text(broken, rng, "title", 0.5, 0.6))
    phrasing = [
        "Logo on the left, button on the right, make the headline dominant.",
        "Put the button on the right side and keep the logo on the left; the headline should dominate.",
        "Make the headline dominant, the logo goes on the left and the call to action on the right.",
    ]
    return Generated(clean, broken, str(ct.pick(rng, phrasing)), breaks)
