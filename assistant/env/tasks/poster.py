"""Event poster (easy).

Description
    A 900 × 1200 px event poster with 64 px margins: the logo in the top
    right corner, a photo across the content width with its credit line,
    then kicker, headline, subtitle, body copy and date stacked with a
    regular rhythm, flush left or (40 % of seeds) on the centre axis, and a
    ticket button on the bottom margin.
Breakage (two of, seeded)
    headline shrunk to 40–50 % (always, or the logo moved out of its corner),
    logo moved to the wrong corner, body/date nudged off the left edge,
    button pushed against the bottom edge, body pulled up over the subtitle.
Instruction
    Logo in the top-right corner, headline dominant, sometimes "keep the
    photo where it is" (the photo is never broken); centred posters also ask
    for a centred headline.
Weights
    Hierarchy and alignment count a little more than by default.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks import breakage as brk
from assistant.env.tasks import content as ct
from assistant.env.tasks.base import Generated, register_task
from assistant.env.tasks.spec import Block, Spec, button_block, stack, text_block

W, H, M = 900.0, 1200.0, 64.0


def clean_poster(rng: np.random.Generator, centered: bool = False) -> Spec:
    """The clean poster; ``centered`` sets the text column on the centre axis."""
    bg, ink, muted, accent, on_accent, img1, img2 = ct.pick(rng, ct.PALETTES)
    title, sub, body = ct.pick(rng, ct.EVENTS)
    venue = str(ct.pick(rng, ct.VENUES))
    spec = Spec(W, H, margin=M, title=str(title))
    cw = W - 2 * M
    x, anchor = (W / 2, "middle") if centered else (M, "start")
    spec.blocks.append(Block("background", "background", "background", 0, 0, W, H, fill=bg))
    logo = Block("logo", "logo", "logo", W - M - 72, M, 72, 72, fill=ink, fill2=accent,
                 variant=int(rng.integers(4)), name=str(ct.pick(rng, ct.BRANDS)))
    photo_y = M + 72 + 32
    credit = text_block("credit", "caption", f"Photo: {ct.pick(rng, ct.BRANDS)} Studio", x, 0, size=15,
                        fill=muted, anchor=anchor)
    kicker = text_block("kicker", "subtitle", venue.upper(), x, 0, size=20, weight=700, fill=accent, anchor=anchor)
    t = text_block("title", "title", str(title), x, 0, size=84, weight=700, max_width=cw, fill=ink, leading=1.1,
                   anchor=anchor)
    s = text_block("subtitle", "subtitle", str(sub), x, 0, size=34, max_width=cw, fill=muted, anchor=anchor)
    b = text_block("body", "body", str(body), x, 0, size=22, max_width=cw * 0.72, fill=ink, leading=1.4,
                   anchor=anchor)
    d = text_block("date", "body", ct.date_text(rng), x, 0, size=22, weight=700, fill=ink, anchor=anchor)
    cta = button_block("cta", str(ct.pick(rng, ct.CTAS)), M, H - M - 64, 64, size=24, fill=accent,
                       fill2=on_accent, pad=36)
    if centered:
        cta.x = W / 2 - cta.w / 2
    column = [(credit, 10), (kicker, 40), (t, 14), (s, 16), (b, 32), (d, 16)]
    text_h = sum(blk.h + gap for blk, gap in column)
    photo_h = (cta.y - 48) - photo_y - text_h
    photo = Block("photo", "image", "image" if rng.random() < 0.7 else "photo_gradient", M, photo_y, cw,
                  photo_h, fill=img1, fill2=img2, variant=int(rng.integers(10)))
    stack(column, photo.y2)
    spec.blocks += [logo, photo, credit, kicker, t, s, b, d, cta]
    return spec


@register_task("poster", difficulty="easy", weights={"hierarchy": 0.14, "alignment": 0.12})
def generate(rng: np.random.Generator) -> Generated:
    """Event poster, 900x1200 px: fix the headline size and the logo corner."""
    centered = bool(rng.random() < 0.4)
    clean = clean_poster(rng, centered)
    broken = clean.copy()
    breaks: list[str] = []
    if rng.random() < 0.6:
        breaks.append(brk.shrink_text(broken, rng, "title"))
        optional = ["logo", "misalign", "crowd", "overlap"]
    else:
        breaks.append(brk.move_to_region(broken, "logo", str(ct.pick(rng, ["bottom_right", "top_left"]))))
        optional = ["title", "misalign", "crowd", "overlap"]
    extra = optional[int(rng.integers(len(optional)))]
    if extra == "logo":
        breaks.append(brk.move_to_region(broken, "logo", "bottom_right"))
    elif extra == "title":
        breaks.append(brk.shrink_text(broken, rng, "title"))
    elif extra == "misalign":
        breaks.append(brk.misalign(broken, rng, ["body", "date"]))
    elif extra == "crowd":
        breaks.append(brk.crowd_margin(broken, rng, "cta", "bottom"))
    else:
        breaks.append(brk.overlap(broken, rng, "body", "subtitle"))
    phrasing = [
        "Put the logo in the top right corner and make the headline dominant.",
        "Logo top right, headline dominant, keep the photo where it is.",
        "Make the title the dominant element and keep the logo in the upper-right corner.",
        "Keep the photo where it is, move the logo to the top right and make the headline dominant.",
    ]
    brief = str(ct.pick(rng, phrasing))
    if centered:
        brief += " " + str(ct.pick(rng, ["Keep the headline centered.", "Center the title on the page."]))
    return Generated(clean, broken, brief, breaks)
