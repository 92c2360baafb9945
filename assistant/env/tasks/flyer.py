"""Dense event flyer on A4, in millimetres (hard).

Description
    An A4 flyer (``width="210mm"``, viewBox in mm, so one world unit is
    3.78 CSS px) with 12 mm margins and two columns: logo top left; title,
    subtitle, intro paragraph and a bulleted list of practical details in the
    wide left column; photo with caption, price badge, date, venue and the
    booking button in the right column; small print on the bottom margin.
Breakage (five, seeded, larger)
    title shrunk, list and date nudged off their column edge, intro pulled
    over the subtitle, the button pushed to the bottom edge, the logo moved
    to another corner, uneven spacing in the right column, the price shrunk.
Instruction
    Logo top left, headline dominant, nothing overlapping, a margin in mm,
    keep the photo where it is (the photo is never broken).
Weights
    Overlap, text fit and margins count more on a print piece this dense.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks import breakage as brk
from assistant.env.tasks import content as ct
from assistant.env.tasks.base import Generated, register_task
from assistant.env.tasks.spec import Block, Spec, badge_block, button_block, stack, text_block

W, H, M = 210.0, 297.0, 12.0
GUTTER = 6.0


def clean_flyer(rng: np.random.Generator) -> Spec:
    """The clean flyer (see the module docstring), its palette and contents drawn from ``rng``."""
    bg, ink, muted, accent, on_accent, img1, img2 = ct.pick(rng, ct.PALETTES)
    title, sub, intro = ct.pick(rng, ct.EVENTS)
    spec = Spec(W, H, unit="mm", world_per_px=25.4 / 96, margin=M, title=str(title))
    cw = W - 2 * M
    left_w = cw * 0.56
    rx = M + left_w + GUTTER
    right_w = cw - left_w - GUTTER
    spec.blocks.append(Block("background", "background", "background", 0, 0, W, H, fill=bg))
    logo = Block("logo", "logo", "logo", M, M, 18, 18, fill=ink, fill2=accent, variant=int(rng.integers(4)),
                 name=str(ct.pick(rng, ct.BRANDS)))
    t = text_block("title", "title", str(title), M, 0, size=15, weight=700, max_width=left_w, fill=ink, leading=1.1)
    s = text_block("subtitle", "subtitle", str(sub), M, 0, size=7, max_width=left_w, fill=muted)
    body = text_block("intro", "body", str(intro), M, 0, size=4.2, max_width=left_w, fill=ink, leading=1.45)
    items = [ct.FLYER_ITEMS[int(k)] for k in rng.permutation(len(ct.FLYER_ITEMS))[:6]]
    lst = text_block("details", "body", [f"• {it}" for it in items], M, 0, size=4.2, fill=ink, leading=1.6,
                     name="details list")
    stack([(t, 12), (s, 5), (body, 8), (lst, 7)], logo.y2)
    photo = Block("photo", "image", "image" if rng.random() < 0.7 else "photo_gradient", rx, t.y, right_w,
                  right_w * 0.9, fill=img1, fill2=img2, variant=int(rng.integers(10)))
    cap = text_block("photo-caption", "caption", f"Last year at {ct.pick(rng, ct.VENUES)}", rx, 0, size=3.2,
                     fill=muted, max_width=right_w)
    date = text_block("date", "subtitle", ct.date_text(rng), rx, 0, size=5.6, weight=700, fill=ink,
                      max_width=right_w)
    venue = text_block("venue", "body", str(ct.pick(rng, ct.VENUES)), rx, 0, size=4.2, fill=muted,
                       max_width=right_w)
    price = badge_block("price", ct.price_text(rng), rx, 0, 26, size=8, fill=accent, fill2=on_accent)
    stack([(cap, 2.5), (date, 9), (venue, 3), (price, 8)], photo.y2)
    cta = button_block("cta", str(ct.pick(rng, ct.CTAS)), rx, 0, 13, size=5, fill=ink, fill2=bg)
    cta.y = max(price.y2, lst.y2) + 14
    fine = text_block("smallprint", "caption", "Programme subject to change. Organised by volunteers; "
                      "all proceeds support the venue.", M, 0, size=3, fill=muted, max_width=cw)
    fine.y = H - M - fine.h
    spec.blocks += [logo, t, s, body, lst, photo, cap, date, venue, price, cta, fine]
    return spec


@register_task("flyer", difficulty="hard", weights={"overlap": 0.18, "text_fit": 0.11, "margins": 0.1})
def generate(rng: np.random.Generator) -> Generated:
    """Dense A4 flyer in mm: many small faults at once."""
    clean = clean_flyer(rng)
    broken = clean.copy()
    options = ["title", "misalign", "overlap", "crowd", "logo", "uneven", "price"]
    chosen = [options[int(k)] for k in rng.permutation(len(options))[:5]]
    breaks: list[str] = []
    for kind in chosen:
        if kind == "title":
            breaks.append(brk.shrink_text(broken, rng, "title", 0.5, 0.6))
        elif kind == "misalign":
            breaks.append(brk.misalign(broken, rng, ["details", "date"], strength=1.3))
        elif kind == "overlap":
            breaks.append(brk.overlap(broken, rng, "intro", "subtitle"))
        elif kind == "crowd":
            breaks.append(brk.crowd_margin(broken, rng, "cta", "bottom"))
        elif kind == "logo":
            breaks.append(brk.move_to_region(broken, "logo", str(ct.pick(rng, ["top_right", "bottom_left"]))))
        elif kind == "uneven":
            breaks.append(brk.uneven_spacing(broken, rng, ["date", "venue", "price"], strength=1.3))
        else:
            breaks.append(brk.shrink_block(broken, rng, "price"))
    margin = str(ct.pick(rng, ["10 mm margins", "margins of 1 cm", "at least 36 px margins"]))
    phrasing = [
        f"Logo top left, make the headline dominant, nothing should overlap, {margin}, "
        "keep the photo where it is.",
        f"Keep the photo where it is and the logo in the top left corner; headline dominant; no overlaps; {margin}.",
    ]
    return Generated(clean, broken, str(ct.pick(rng, phrasing)), breaks)
