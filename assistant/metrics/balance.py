"""Balance: visual weight about the centre (Ngo, Teo & Byrne 2003).

Definitions. Each element's visual weight is ``w = area × (0.3 + 0.7 ·
darkness) × (0.5 + importance)`` where darkness is ``1 − L`` of its fill
(WCAG relative luminance; 0.5 when unknown, e.g. photos) and text boxes count
half their area (ink covers about half a text box).
- Balance BM (Ngo et al. 2003, eq. for BM): moments ``W_side = Σ w_i · |c_i −
  C|`` of the elements whose centre lies on each side of the vertical and the
  horizontal centre axis; ``BM_v = (W_L − W_R) / max(W_L, W_R)`` (likewise
  top/bottom) and ``BM = 1 − (|BM_v| + |BM_h|) / 2``.
- Equilibrium EM (Ngo et al. 2003): the offset of the weighted centre of mass
  from the canvas centre, in half-widths / half-heights:
  ``EM = 1 − (|EM_x| + |EM_y|) / 2``.
Score ``(BM + EM) / 2``. Elements: visible, non-background leaves with an
area. Below 0.85 a finding names the heavier side (the axis with the larger
``|BM| + |EM|``) and suggests moving the unlocked element with the largest
moment on it so as to bring the centre of mass to the centre (kept on the
canvas). The numbers come from ``imbalance`` (numpy) or, for layouts of at
most ``native_core.MAX_ELEMENTS`` leaves, the compiled kernel
``_native.balance``.
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import LayoutArrays
from assistant.metrics.contrast import luminance
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "balance"
#: scores from this up raise no finding
BALANCED = 0.85


def visual_weight(la: LayoutArrays, idx: np.ndarray) -> np.ndarray:
    """Visual weight of the leaves ``idx`` (see module docstring)."""
    pal = la.palette  # darkness per distinct fill, then per leaf
    unknown = np.isnan(pal[:, 0])
    code = la.fill_code[idx]
    dark = (1.0 - luminance(np.where(np.isnan(pal), 0.5, pal)))[code]
    text = la.is_text[idx]
    dark[unknown[code] & ~text] = 0.5
    area = la.area[idx] * np.where(text, 0.5, 1.0)
    return area * (0.3 + 0.7 * dark) * (0.5 + la.importance[idx]) * la.opacity[idx]


def _side_balance(left: float, right: float) -> float:
    """``(W_L − W_R) / max(W_L, W_R)``: the signed imbalance of two moments (0 when both are 0)."""
    m = max(left, right)
    return 0.0 if m <= 0 else (left - right) / m


#: the heavier side and the element to move: ``(horizontal, offset, leaf or -1, shift)``
Heavy = tuple[bool, float, int, float]


def imbalance(la: LayoutArrays, idx: np.ndarray) -> tuple[float, Heavy | None] | None:
    """The numeric part of ``balance`` (numpy; ``idx`` the weighed elements, at least one).

    Returns ``None`` when the elements weigh nothing, else ``(score, heavy)``;
    ``heavy`` is ``None`` when the score reaches ``BALANCED``, else the axis
    judged (horizontal when its imbalance is at least the vertical one), the
    signed centre-of-mass offset along it (``EM_x`` or ``EM_y``), the unlocked
    element on the heavy side with the largest moment (-1 when none; the first
    on a tie) and the shift along the axis that moves the centre of mass to
    the centre, kept on the canvas. The compiled kernel ``_native.balance``
    returns the same.
    """
    w = visual_weight(la, idx)
    tw = float(w.sum())
    if tw <= 0:
        return None
    c = la.canvas
    cxc, cyc = c.x + c.width / 2, c.y + c.height / 2
    d = la.edges6[1::3][:, idx] - np.array(((cxc,), (cyc,)))  # centre offsets, rows x and y
    # moments: rows left, top (offsets < 0), right, bottom (> 0), then the signed sums of x and y
    # (each summed on its own: a row-wise ``sum(axis=1)`` adds in another order than a 1-d sum)
    mom = [float(row.sum()) for row in np.concatenate((w * np.maximum(np.concatenate((-d, d)), 0), w * d))]
    bm_v, bm_h = _side_balance(mom[0], mom[2]), _side_balance(mom[1], mom[3])
    bm = 1.0 - (abs(bm_v) + abs(bm_h)) / 2
    em_x = mom[4] / (tw * c.width / 2)
    em_y = mom[5] / (tw * c.height / 2)
    em = 1.0 - (min(abs(em_x), 1.0) + min(abs(em_y), 1.0)) / 2
    score = float(min(max((bm + em) / 2, 0.0), 1.0))
    if score >= BALANCED:
        return score, None
    horizontal = abs(bm_v) + abs(em_x) >= abs(bm_h) + abs(em_y)
    pos, off, moment = (d[0], em_x, mom[4]) if horizontal else (d[1], em_y, mom[5])
    heavy = ((pos * off > 0) & ~la.locked[idx]).nonzero()[0]
    if heavy.size == 0:
        return score, (horizontal, off, -1, 0.0)
    k = int(heavy[np.argmax(w[heavy] * np.abs(pos[heavy]))])
    i = int(idx[k])
    shift = -moment / float(w[k])
    if horizontal:
        shift = float(min(max(shift, c.x - la.x1[i]), c.x + c.width - la.x2[i]))
    else:
        shift = float(min(max(shift, c.y - la.y1[i]), c.y + c.height - la.y2[i]))
    return score, (horizontal, off, i, shift)


def balance(la: LayoutArrays) -> MetricResult:
    """Ngo balance BM and equilibrium EM of visual weight (see module docstring)."""
    idx = la.unit_area_idx
    if idx.size == 0:
        return metric_result(name=NAME, score=1.0, applicable=False)
    if la.native is not None:
        c = la.canvas
        judged = la.native.balance(idx, la.palette, la.fill_code, la.is_text, la.area, la.importance, la.opacity,
                                   la.edges6, la.locked, c.x, c.y, c.width, c.height, BALANCED)
    else:
        judged = imbalance(la, idx)
    if judged is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    score, heavy = judged
    findings: list[Finding] = []
    if heavy is not None:
        horizontal, off, i, shift = heavy
        side = ("right" if off > 0 else "left") if horizontal else ("bottom" if off > 0 else "top")
        sugg = None
        ids = []
        if i >= 0:
            ids = [la.ids[i]]
            sugg = {"type": "move", "ids": ids, "dx": round(shift, 3) if horizontal else 0.0,
                    "dy": 0.0 if horizontal else round(shift, 3)}
        findings.append(finding(
            metric=NAME, element_ids=list(ids), message=f"visual weight is heavy on the {side} (balance {score:.2f})",
            severity=severity_for(1 - score, medium=0.3, high=0.5), suggestion=sugg, impact=1 - score))
    return metric_result(name=NAME, score=score, findings=findings)
