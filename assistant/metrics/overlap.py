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

import numpy as np

from assistant.metrics.context import LayoutArrays
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "overlap"
DEAD_ZONE = 0.02
SCALE = 2.0
LABEL_INSIDE = 0.75
MAX_FINDINGS = 20
HIDDEN = 1.0


def pair_weights(la: LayoutArrays, i: np.ndarray, j: np.ndarray, inter: np.ndarray,
                 hidden: np.ndarray | None = None) -> np.ndarray:
    """Meaning weight of each overlapping pair (see the module table); ``hidden``: ``hidden_text(la, i, j)``."""
    ti, tj = la.is_text[i], la.is_text[j]
    imi, imj = la.is_image[i], la.is_image[j]
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


def overlap(la: LayoutArrays) -> MetricResult:
    """Weighted pairwise overlap of leaves (LayoutGAN++ / PosterLayout overlap, see module docstring)."""
    i, j, inter = la.overlap_pairs
    if i.size:
        keep = la.units[i] & la.units[j]
        i, j, inter = i[keep], j[keep], inter[keep]
    if i.size == 0:
        return metric_result(name=NAME, score=1.0)
    hidden = hidden_text(la, i, j)
    # the covered share of the smaller one; of the text, for hidden text (a bullet over a line hides a letter)
    covered = np.where(hidden, np.where(la.is_text[i], la.ink_area[i], la.ink_area[j]),
                       np.minimum(la.ink_area[i], la.ink_area[j]))
    ratio = inter / np.maximum(covered, 1e-12)
    pen = pair_weights(la, i, j, inter, hidden) * np.maximum(ratio - DEAD_ZONE, 0.0)
    total = float(pen.sum())
    score = float(1.0 / (1.0 + SCALE * total))
    findings = []
    bad = (pen > 0.01).nonzero()[0]
    bad = bad[np.argsort(-pen[bad], kind="stable")][:MAX_FINDINGS]
    gap = 0.01 * la.short
    for k, under in zip(bad.tolist(), hidden[bad].tolist()):
        a, b = int(i[k]), int(j[k])
        if under:
            text, top = (a, b) if la.is_text[a] else (b, a)
            inside = inter[k] >= LABEL_INSIDE * la.ink_area[text]
            # a label inside its panel comes to the front; other text moves clear (or what covers it, when locked)
            if not la.locked[text]:
                sugg = ({"type": "reorder", "id": la.ids[text], "to": "front"} if inside
                        else separating_move(la, text, top, gap))
            else:
                sugg = None if la.locked[top] else separating_move(la, top, text, gap)
            findings.append(finding(
                metric=NAME, element_ids=[la.ids[text], la.ids[top]],
                message=(f"hidden text: {la.name(text)} is painted under {la.name(top)}, "
                         f"which covers {ratio[k]:.0%} of it"),
                severity=severity_for(float(pen[k])), suggestion=sugg, impact=float(pen[k])))
            continue
        kind = ("text over text" if la.is_text[a] and la.is_text[b]
                else "text over image" if (la.is_text[a] and la.is_image[b]) or (la.is_text[b] and la.is_image[a])
                else "elements")
        # move the less important, unlocked one
        mover, other = (a, b) if (la.importance[a], -a) <= (la.importance[b], -b) else (b, a)
        if la.locked[mover] and not la.locked[other]:
            mover, other = other, mover
        sugg = None if la.locked[mover] else separating_move(la, mover, other, gap)
        findings.append(finding(
            metric=NAME, element_ids=[la.ids[a], la.ids[b]],
            message=f"{kind} overlap: {la.name(a)} and {la.name(b)} ({ratio[k]:.0%} of the smaller one covered)",
            severity=severity_for(float(pen[k])), suggestion=sugg, impact=float(pen[k])))
    return metric_result(name=NAME, score=score, findings=findings)
