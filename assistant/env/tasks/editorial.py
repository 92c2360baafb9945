"""Editorial magazine cover (medium).

Description
    An 816 × 1056 px (US Letter at 96 dpi) cover with 56 px margins: the
    masthead centred on the top margin, a price badge in the top-right
    corner, the issue line and a full-width cover photo, then the cover story
    (kicker, serif headline, standfirst) in the left seven columns and three
    cover lines stacked in the right column, sharing the headline's top line.
Breakage (three, seeded)
    headline shrunk to 40–50 %, cover lines nudged off their left edge,
    uneven spacing between the cover lines, the standfirst pulled up over
    the headline, the price badge pushed against the right edge.
Instruction
    Headline dominant, cover lines aligned left, keep the photo (or the
    masthead) where it is, sometimes a margin in px.
Weights
    Alignment, spacing rhythm and the grid count more on an editorial grid.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks import breakage as brk
from assistant.env.tasks import content as ct
from assistant.env.tasks.base import Generated, register_task
from assistant.env.tasks.spec import SERIF, Block, Spec, badge_block, stack, text_block

W, H, M = 816.0, 1056.0, 56.0


def clean_cover(rng: np.random.Generator) -> Spec:
    """The clean cover (see the module docstring), its palette, magazine and cover lines drawn from ``rng``."""
    bg, ink, muted, accent, on_accent, img1, img2 = ct.pick(rng, ct.PALETTES)
    mag = str(ct.pick(rng, ct.MAGAZINES))
    picks = rng.permutation(len(ct.COVER_LINES))[:4]
    story, lines = ct.COVER_LINES[int(picks[0])], [ct.COVER_LINES[int(k)] for k in picks[1:]]
    spec = Spec(W, H, margin=M, title=f"{mag} cover")
    cw = W - 2 * M
    col = (cw - 5 * 16) / 6
    spec.blocks.append(Block("background", "background", "background", 0, 0, W, H, fill=bg))
    masthead = text_block("masthead", "logo", mag, W / 2, M, size=40, weight=700, family=SERIF, fill=ink,
                          anchor="middle", name=mag)
    price = badge_block("price", ct.price_text(rng), W - M - 84, M, 84, size=24, fill=accent, fill2=on_accent)
    issue = text_block("issue", "caption", f"Issue {int(rng.integers(12, 140))} · {ct.pick(rng, ct.MONTHS)} "
                       f"{int(rng.integers(2024, 2028))}", M, masthead.y2 + 28, size=14, fill=muted)
    photo = Block("photo", "image", "image" if rng.random() < 0.7 else "photo_gradient", M, issue.y2 + 10, cw,
                  0.31 * H, fill=img1, fill2=img2, variant=int(rng.integers(10)))
    left_w = 4 * col + 3 * 16
    kicker = text_block("kicker", "caption", "COVER STORY", M, 0, size=15, weight=700, fill=accent)
    title = text_block("title", "title", story, M, 0, size=56, weight=700, family=SERIF, max_width=left_w,
                       fill=ink, leading=1.12)
    stand = text_block("standfirst", "subtitle", "A reported feature from our correspondents, with photographs "
                       "and maps.", M, 0, size=24, family=SERIF, max_width=left_w, fill=muted, leading=1.35)
    stack([(kicker, 28), (title, 10), (stand, 18)], photo.y2)
    rx = M + 4 * (col + 16)
    covers = [text_block(f"coverline-{i + 1}", "body", line, rx, 0, size=19, weight=700, max_width=2 * col + 16,
                         fill=ink, leading=1.3, name=f"cover line {i + 1}") for i, line in enumerate(lines)]
    stack([(covers[0], 0)] + [(c, 28) for c in covers[1:]], kicker.y)
    spec.blocks += [masthead, price, issue, photo, kicker, title, stand, *covers]
    return spec


@register_task("editorial", difficulty="medium",
               weights={"alignment": 0.13, "spacing": 0.09, "grid": 0.06, "hierarchy": 0.12})
def generate(rng: np.random.Generator) -> Generated:
    """Magazine cover, 816x1056 px: headline dominant, cover lines aligned."""
    clean = clean_cover(rng)
    broken = clean.copy()
    breaks: list[str] = []
    options = ["title", "misalign", "uneven", "overlap", "crowd"]
    chosen = [options[int(k)] for k in rng.permutation(len(options))[:3]]
    if "title" not in chosen and "misalign" not in chosen:
        chosen[0] = "title" if rng.random() < 0.5 else "misalign"
    for kind in chosen:
        if kind == "title":
            breaks.append(brk.shrink_text(broken, rng, "title", 0.45, 0.55))
        elif kind == "misalign":
            ids = [f"coverline-{i}" for i in (2, 3)]
            breaks.append(brk.misalign(broken, rng, ids, strength=1.2))
        elif kind == "uneven":
            breaks.append(brk.uneven_spacing(broken, rng, ["coverline-2", "coverline-3"], strength=1.2))
        elif kind == "overlap":
            breaks.append(brk.overlap(broken, rng, "standfirst", "title"))
        else:
            breaks.append(brk.crowd_margin(broken, rng, "price", "right"))
    keep = str(ct.pick(rng, ["keep the photo where it is", "don't move the masthead", "keep the photo in place"]))
    phrasing = [
        f"Make the headline dominant, align the cover lines left and {keep}.",
        f"Headline dominant; line up the cover lines on the left; {keep}.",
        f"{keep.capitalize()}, make the headline dominant, align the cover lines left and keep 40 px margins.",
    ]
    return Generated(clean, broken, str(ct.pick(rng, phrasing)), breaks)
