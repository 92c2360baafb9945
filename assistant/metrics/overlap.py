"""Overlap: unintended intersections between elements.

Definition. LayoutGAN++ (Kikuchi et al. 2021) measures overlap as the sum over
element pairs of the intersection area over an element's area; PosterLayout
(Hsu et al. 2023) drops the underlay (background) from it. Here, for each pair
of visible, non-background leaves ``(i, j)`` that intersect, the covered share
of the smaller one ``r = |i ∩ j| / min(|i|, |j|)`` is weighted by what the
overlap means:

==========================  ======  ========================================
pair                        weight  note
==========================  ======  ========================================
text over text              1.0     unreadable
text over image             0.7     bad unless the image is a background
text over shape             0.4     0 when the text lies (75 %) inside the
                                    shape or both share a group (a label on
                                    a button, text on a panel)
text over decoration        0.2     likewise
image over image            0.5
other pairs                 0.15    0 when one contains the other (a panel
                                    behind a photo, an icon on a badge)
text *under* an opaque      1.0     hidden: painted before an image or a
element                             filled shape (≥ 50 % opacity) that covers
                                    it — never a label, whatever the above;
                                    ``r`` is the share of the *text* covered
==========================  ======  ========================================

Paint order decides which is on top (leaves are in paint order): a label on
a button is painted after the button; the same text painted before it is
invisible where they meet.

Backgrounds (role ``background`` or non-text elements covering ≥ 80 % of the
canvas) are excluded, so text on a full-bleed background is never an overlap;
groups are excluded (only leaves are compared), so children inside their
parent group are never an overlap. Text set on a path is measured by its ink
(``Element.ink``: boxes along the path), not by the path's whole box, so
words around a circle overlap what they cross, not everything inside the
circle. A 2 % dead zone ignores touching text boxes
(ascender/descender slack). Penalty ``P = Σ weight · max(0, r − 0.02)``;
score ``1 / (1 + 2 P)``: one text block fully over another scores ≈ 0.34,
and every further overlap keeps lowering it (no saturation at 0).
"""

from __future__ import annotations

import math

import numpy as np

from assistant.document import Element
from assistant.geometry import Box
from assistant.metrics.context import LayoutArrays
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "overlap"
DEAD_ZONE = 0.02
SCALE = 2.0
LABEL_INSIDE = 0.75
MAX_FINDINGS = 20
#: A picture narrowed to clear a text beside it keeps at least this share of its width, and leaves this
#: share of the short side between them.
NARROW_LEAST, GUTTER = 0.6, 0.025
#: penalty above which an overlapping pair gets a finding
REPORT = 0.01
#: a defect (``Finding.defect``): text over other text covering this share of the smaller one. (Text
#: "hidden" under a box is advice only: the box may be a thin drawing or a transparent picture.)
DEFECT_TEXT_ON_TEXT = 0.3
#: a defect too: text straddling the edge of a picture, between these shares of it on the picture
STRADDLE = (0.2, 0.8)
#: A text's line box holds more than its glyphs: above the capitals and ascenders (this many em, a little
#: under what common fonts leave) and, under a last line without descenders, the descent (this many em).
GLYPH_TOP, GLYPH_DESCENT = 0.12, 0.2
#: Text on text is a defect when, beyond ``DEFECT_TEXT_ON_TEXT`` of the line boxes, the glyph boxes meet
#: over this share of the smaller one (letters touching letters, not line spacing set tight).
GLYPH_OVERLAP = 0.1
_DESCENDERS = frozenset("gjpqyQJ,;()[]{}|/@$ßçţşŗ")


def glyph_box(e: Element) -> Box:
    """Where the glyphs of text ``e`` can ink: its box less the room above them and the unused descent."""
    b, em = e.box, e.font_size or 0.0
    last = (e.text or "").rsplit("\n", 1)[-1]
    top = min(b.y + GLYPH_TOP * em, b.y2)
    bottom = b.y2 if any(c in _DESCENDERS for c in last) else max(b.y2 - GLYPH_DESCENT * em, top)
    return Box(x=b.x, y=top, width=b.width, height=bottom - top)


def _defect(la: LayoutArrays, a: int, b: int, kind: str, ratio: float, inter: float) -> bool:
    """Whether an overlap is one published designs do not make (see ``Finding.defect``).

    Text on other text (even in one section: a heading on its own paragraph), measured on where
    their glyphs can ink (:func:`glyph_box`): a date set tight under its title overlaps the title's
    line box, not its letters; two copies of the same words piled up are one text with its
    shadow. Text straddling a picture's edge (a caption set *on* a photo lies wholly inside it,
    one pushed half onto it does not), unless both belong to one group (a lock-up's line on its
    logo).
    """
    if kind == "text over text":
        # a single decorative letter on a headline is a design, not a collision
        short = min(len((la.elements[i].text or "").strip()) for i in (a, b))
        if ratio < DEFECT_TEXT_ON_TEXT or short <= 3:
            return False
        if " ".join((la.elements[a].text or "").split()) == " ".join((la.elements[b].text or "").split()):
            return False  # a copy of the same words under them: a shadow, an outline or a glow

        ga, gb = glyph_box(la.elements[a]), glyph_box(la.elements[b])
        met = ga.intersection(gb)
        smaller = min(ga.area, gb.area)
        return met is not None and smaller > 0 and met.area >= GLYPH_OVERLAP * smaller
    if la.group[a] >= 0 and la.group[a] == la.group[b]:
        return False  # a lock-up's line on its logo, a label on its button
    if la.is_text[a] != la.is_text[b]:
        text, other = (a, b) if la.is_text[a] else (b, a)
        if la.is_picture[other]:  # a picture, or a placeholder for one
            share = inter / max(float(la.ink_area[text]), 1e-12)
            return STRADDLE[0] <= share <= STRADDLE[1]
    return False
HIDDEN = 1.0


def pair_weights(la: LayoutArrays, i: np.ndarray, j: np.ndarray, inter: np.ndarray,
                 hidden: np.ndarray | None = None) -> np.ndarray:
    """Meaning weight of each overlapping pair (see the module table); ``hidden``: ``hidden_text(la, i, j)``."""
    ti, tj = la.is_text[i], la.is_text[j]
    imi, imj = la.is_picture[i], la.is_picture[j]
    soft_i = la.is_shape[i] | la.is_deco[i]
    soft_j = la.is_shape[j] | la.is_deco[j]
    same_group = (la.group[i] >= 0) & (la.group[i] == la.group[j])
    j_holds_i = la.contains(j, i)
    i_holds_j = la.contains(i, j)
    w = np.full(i.shape, 0.15)
    w = np.where(~(ti | tj) & (j_holds_i | i_holds_j), 0.0, w)
    w = np.where(imi & imj, 0.5, w)
    mostly_i = inter >= LABEL_INSIDE * la.ink_area[i]
    mostly_j = inter >= LABEL_INSIDE * la.ink_area[j]
    label = (ti & soft_j & (mostly_i | same_group)) | (tj & soft_i & (mostly_j | same_group))
    partial = np.where(la.is_deco[i] | la.is_deco[j], 0.2, 0.4)
    w = np.where((ti & soft_j) | (tj & soft_i), np.where(label, 0.0, partial), w)
    w = np.where((ti & imj) | (tj & imi), 0.7, w)
    w = np.where(ti & tj, 1.0, w)
    return np.where(hidden_text(la, i, j) if hidden is None else hidden, HIDDEN, w)


def hidden_text(la: LayoutArrays, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Per pair: one is text painted before (under) the other, an opaque leaf (``LayoutArrays.opaque``)."""
    opaque = la.opaque
    return (la.is_text[i] & opaque[j] & (j > i)) | (la.is_text[j] & opaque[i] & (i > j))


def separating_move(la: LayoutArrays, mover: int, other: int, gap: float) -> dict:
    """The smallest ``move`` of ``mover`` that clears ``other`` by ``gap``, preferring to stay on the canvas."""
    cands = [
        (la.x2[other] + gap - la.x1[mover], 0.0),
        (la.x1[other] - gap - la.x2[mover], 0.0),
        (0.0, la.y2[other] + gap - la.y1[mover]),
        (0.0, la.y1[other] - gap - la.y2[mover]),
    ]
    c = la.canvas

    def cost(d: tuple[float, float]) -> tuple[bool, float]:
        nx1, ny1 = la.x1[mover] + d[0], la.y1[mover] + d[1]
        inside = (nx1 >= c.x and ny1 >= c.y and nx1 + la.w[mover] <= c.x + c.width
                  and ny1 + la.h[mover] <= c.y + c.height)
        return (not inside, abs(d[0]) + abs(d[1]))

    dx, dy = min(cands, key=cost)
    return {"type": "move", "ids": [la.ids[mover]], "dx": round(float(dx), 3), "dy": round(float(dy), 3)}


def narrowing_resize(la: LayoutArrays, picture: int, text: int, gap: float) -> tuple[dict, float] | None:
    """A ``resize`` of ``picture`` that clears ``text`` set beside it, and how far the picture's corners move.

    The picture keeps its top and the edge away from the text and narrows (its proportions kept) until
    it stops ``gap`` short of every text on that side that runs into it (a list of lines beside a photo
    is cleared in one edit); None when the text is not beside it, the picture sits in a group, or it
    would keep less than ``NARROW_LEAST`` of its width.
    """
    px1, px2, w, h = la.x1[picture], la.x2[picture], la.w[picture], la.h[picture]
    if la.group[picture] >= 0 or w <= 0:
        return None
    meets = (la.is_text & la.units & (la.x2 > px1) & (la.x1 < px2) & (la.y2 > la.y1[picture])
             & (la.y1 < la.y2[picture]))
    if la.cx[text] < px1:  # set on its left: the picture gives way from the left
        beside = meets & (la.cx < px1)
        width, anchor = px2 - (float(la.x2[beside].max()) + gap), "top_right"
    elif la.cx[text] > px2:
        beside = meets & (la.cx > px2)
        width, anchor = (float(la.x1[beside].min()) - gap) - px1, "top_left"
    else:
        return None
    scale = width / w
    if not NARROW_LEAST <= scale < 1.0:
        return None
    moved = math.hypot(w * (1 - scale), h * (1 - scale)) / math.sqrt(2.0)  # one corner keeps its place
    return {"type": "resize", "id": la.ids[picture], "scale": round(float(scale), 4), "anchor": anchor}, moved


def penalties(la: LayoutArrays) -> tuple[float, list[tuple[int, int, bool, float, float, float]]]:
    """The numeric part of ``overlap`` (numpy): the score and the pairs worth a finding.

    Returns ``(score, bad)``, ``bad`` the pairs whose penalty exceeds ``REPORT``
    as ``(a, b, hidden, ratio, penalty, intersection)``, largest penalty first
    (ties in pair order), at most ``MAX_FINDINGS``. The compiled kernel
    ``_native.overlap`` returns the same.
    """
    i, j, inter = la.overlap_pairs
    if i.size:
        keep = la.units[i] & la.units[j]
        i, j, inter = i[keep], j[keep], inter[keep]
    if i.size == 0:
        return 1.0, []
    hidden = hidden_text(la, i, j)
    # the covered share of the smaller one; of the text, for hidden text (a bullet over a line hides a letter)
    covered = np.where(hidden, np.where(la.is_text[i], la.ink_area[i], la.ink_area[j]),
                       np.minimum(la.ink_area[i], la.ink_area[j]))
    ratio = inter / np.maximum(covered, 1e-12)
    pen = pair_weights(la, i, j, inter, hidden) * np.maximum(ratio - DEAD_ZONE, 0.0)
    score = float(1.0 / (1.0 + SCALE * float(pen.sum())))
    bad = (pen > REPORT).nonzero()[0]
    bad = bad[np.argsort(-pen[bad], kind="stable")][:MAX_FINDINGS]
    return score, list(zip(i[bad].tolist(), j[bad].tolist(), hidden[bad].tolist(), ratio[bad].tolist(),
                           pen[bad].tolist(), inter[bad].tolist()))


def overlap(la: LayoutArrays) -> MetricResult:
    """Weighted pairwise overlap of leaves (LayoutGAN++ / PosterLayout overlap, see module docstring)."""
    if la.native is not None:
        i, j, inter = la.overlap_pairs
        score, bad = la.native.overlap(i, j, inter, la.units, la.is_text, la.is_picture, la.is_shape, la.is_deco,
                                       la.group, la.opaque, la.ink_area, la.edges6, la.short, DEAD_ZONE,
                                       LABEL_INSIDE, HIDDEN, SCALE, REPORT, MAX_FINDINGS)
    else:
        score, bad = penalties(la)
    findings: list[Finding] = []
    gap = 0.01 * la.short
    is_text, is_image, locked, imp, ids = la.is_text, la.is_picture, la.locked, la.importance, la.ids
    for a, b, under, ratio, pen, inter in bad:
        if under:
            text, top = (a, b) if is_text[a] else (b, a)
            inside = inter >= LABEL_INSIDE * la.ink_area[text]
            # a label inside its panel comes to the front; other text moves clear (or what covers it, when locked)
            if not locked[text]:
                sugg = ({"type": "reorder", "id": ids[text], "to": "front"} if inside
                        else separating_move(la, text, top, gap))
            else:
                sugg = None if locked[top] else separating_move(la, top, text, gap)
            findings.append(finding(
                metric=NAME, element_ids=[ids[text], ids[top]],
                message=(f"hidden text: {la.name(text)} is painted under {la.name(top)}, "
                         f"which covers {ratio:.0%} of it"),
                severity=severity_for(pen), suggestion=sugg, impact=pen))
            continue
        kind = ("text over text" if is_text[a] and is_text[b]
                else "text over image" if (is_text[a] and is_image[b]) or (is_text[b] and is_image[a])
                else "elements")
        # move the less important, unlocked one
        mover, other = (a, b) if (imp[a], -a) <= (imp[b], -b) else (b, a)
        if locked[mover] and not locked[other]:
            mover, other = other, mover
        sugg = None if locked[mover] else separating_move(la, mover, other, gap)
        if kind == "text over image":
            # a text beside a picture it runs into: the picture narrowing away from it may be the smaller edit
            text, picture = (a, b) if is_text[a] else (b, a)
            narrow = None if locked[picture] else narrowing_resize(la, picture, text, GUTTER * la.short)
            if narrow is not None and (sugg is None or narrow[1] < abs(sugg["dx"]) + abs(sugg["dy"])):
                sugg = narrow[0]
        findings.append(finding(
            metric=NAME, element_ids=[ids[a], ids[b]],
            message=f"{kind} overlap: {la.name(a)} and {la.name(b)} ({ratio:.0%} of the smaller one covered)",
            severity=severity_for(pen), suggestion=sugg, impact=pen,
            defect=_defect(la, a, b, kind, ratio, inter)))
    return metric_result(name=NAME, score=score, findings=findings)
