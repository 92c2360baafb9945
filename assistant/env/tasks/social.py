"""Social media card (medium).

Description
    A 1080 × 1080 px product announcement with 72 px margins: the logo in
    the top-left corner, a photo across the content width, then the product
    name and a short description flush left with a round price badge beside
    the name, and a button on the bottom margin; or (40 % of seeds) the photo
    in the left half with name, description, price and button stacked in the
    right half.
Breakage (three, seeded)
    the price badge always shrunk to 55–70 % (the brief asks it to stand
    out), plus two of: logo moved to another corner, description pulled up
    over the name, the button pushed against the bottom edge, the name and
    description nudged off their left edge, the name shrunk.
Instruction
    Make the price stand out, logo in the top-left corner, sometimes "less
    crowded" or "keep the photo where it is" (the photo is never broken).
Weights
    Overlap and grouping count more: a card is read at a glance.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks import breakage as brk
from assistant.env.tasks import content as ct
from assistant.env.tasks.base import Generated, register_task
from assistant.env.tasks.spec import Block, Spec, badge_block, button_block, stack, text_block

W = H = 1080.0
M = 72.0


def clean_social(rng: np.random.Generator, split: bool = False) -> Spec:
    """The clean card; ``split`` puts the photo in the left half and the text beside it."""
    bg, ink, muted, accent, on_accent, img1, img2 = ct.pick(rng, ct.PALETTES)
    name, tagline = ct.pick(rng, ct.PRODUCTS)
    brand = str(ct.pick(rng, ct.BRANDS))
    spec = Spec(W, H, margin=M, title=f"{brand}: {name}")
    cw = W - 2 * M
    spec.blocks.append(Block("background", "background", "background", 0, 0, W, H, fill=bg))
    logo = Block("logo", "logo", "logo", M, M, 80, 80, fill=ink, fill2=accent, variant=int(rng.integers(4)),
                 name=brand)
    kind = "image" if rng.random() < 0.75 else "photo_gradient"
    cta = button_block("cta", str(ct.pick(rng, ct.CTAS)), M, H - M - 80, 80, size=30, fill=ink, fill2=bg)
    if split:
        gutter = 48
        pw = (cw - gutter) * 0.5
        photo = Block("photo", "image", kind, M, M + 80 + 40, pw, H - M - (M + 120), fill=img1, fill2=img2,
                      variant=int(rng.integers(10)))
        tx, tw = M + pw + gutter, cw - pw - gutter
        title = text_block("title", "title", str(name), tx, 0, size=58, weight=700, max_width=tw, fill=ink,
                           leading=1.1)
        body = text_block("body", "body", str(tagline), tx, 0, size=28, max_width=tw, fill=muted, leading=1.35)
        price = badge_block("price", ct.price_text(rng), tx, 0, 170, size=50, fill=accent, fill2=on_accent)
        stack([(title, 0), (body, 30), (price, 48)], photo.y)
        cta.x = tx
    else:
        photo = Block("photo", "image", kind, M, M + 80 + 40, cw, 0.36 * H, fill=img1, fill2=img2,
                      variant=int(rng.integers(10)))
        title = text_block("title", "title", str(name), M, 0, size=64, weight=700, max_width=cw * 0.68, fill=ink,
                           leading=1.1)
        body = text_block("body", "body", str(tagline), M, 0, size=30, max_width=cw * 0.68, fill=muted,
                          leading=1.35)
        stack([(title, 48), (body, 30)], photo.y2)
        price = badge_block("price", ct.price_text(rng), W - M - 180, title.y, 180, size=54, fill=accent,
                            fill2=on_accent)
    spec.blocks += [logo, photo, title, body, price, cta]
    return spec


@register_task("social", difficulty="medium", weights={"overlap": 0.18, "grouping": 0.08})
def generate(rng: np.random.Generator) -> Generated:
    """Social card, 1080x1080 px: make the price stand out, logo top left."""
    clean = clean_social(rng, split=bool(rng.random() < 0.4))
    broken = clean.copy()
    breaks = [brk.shrink_block(broken, rng, "price")]
    options = ["logo", "overlap", "crowd", "misalign", "title"]
    for k in rng.permutation(len(options))[:2]:
        kind = options[int(k)]
        if kind == "logo":
            breaks.append(brk.move_to_region(broken, "logo", str(ct.pick(rng, ["top_right", "bottom_right"]))))
        elif kind == "overlap":
            breaks.append(brk.overlap(broken, rng, "body", "title"))
        elif kind == "crowd":
            breaks.append(brk.crowd_margin(broken, rng, "cta", "bottom"))
        elif kind == "misalign":
            breaks.append(brk.misalign(broken, rng, ["title", "body"]))
        else:
            breaks.append(brk.shrink_text(broken, rng, "title", 0.6, 0.75))
    phrasing = [
        "Make the price stand out and put the logo in the top left corner.",
        "Logo top left, make the price stand out, keep the photo where it is.",
        "Make the price stand out, keep the logo in the upper-left corner and make it less crowded.",
        "Put the logo top left; the price should stand out; no overlaps.",
    ]
    return Generated(clean, broken, str(ct.pick(rng, phrasing)), breaks)
