"""Grouping / proximity: related elements sit closer than unrelated ones.

Definition (Gestalt proximity, as the grouping term of O'Donovan et al.
2014). Two leaves are *related* when they share a parent group, or their roles
are adjacent in the text hierarchy (title–subtitle, subtitle–body — a heading
and its paragraph — and body–body), or they are a caption and an image, or
two parts of a call to action, a logo or a badge (same role). For every
visible, non-background, non-decoration leaf with at least one related and
one unrelated leaf, ``d_rel`` and ``d_unrel`` are the box gaps (Euclidean,
0 when touching) to its nearest related and nearest unrelated leaf, and
``q = (d_rel + δ) / (d_unrel + δ)`` with ``δ`` = 0.5 % of the canvas short
side. The element scores ``clip(1.5 − q, 0, 1)``: 1 when its relative is at
most half as far as any stranger, 0.5 at equal distance, 0 when it is 1.5×
further. Proximity groups what is near: an element whose nearest relative
is further than ``REACH`` (a third of the canvas short side) is not judged —
a header logo and a footer sponsor's logo, or a footer URL (a caption) and a
picture half a page away, are not a group that came apart. The metric is the
mean; the nearest searches are a sweep within a
radius (8 % of the short side, less on crowded pages: 1.5× the mean spacing
``sqrt(canvas area / n)``) with an exact blocked numpy fallback for elements
whose nearest partner lies beyond it (``neighbours``). Up to 256 leaves the
compiled kernel (``proximity``) compares all pairs instead, with the same
result, ties included.
"""

from __future__ import annotations

import math

import numpy as np

from assistant.metrics.context import ROLE_CODES, LayoutArrays
from assistant.metrics.neighbours import DENSE_SHARE, SMALL, ink_table, nearest_split
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "grouping"
MAX_FINDINGS = 10
#: neighbours searched by sweep within this share of the canvas short side first
RADIUS = 0.08
#: the softening of the distance ratio, as a share of the short side
DELTA = 0.005
#: an element whose nearest relative is further than this share of the short side is not judged
REACH = 0.33
_REL = np.zeros((len(ROLE_CODES), len(ROLE_CODES)), dtype=bool)
for _a, _b in (("title", "subtitle"), ("subtitle", "body"), ("body", "body"), ("caption", "image"),
               ("cta", "cta"), ("logo", "logo"), ("badge", "badge")):
    _REL[ROLE_CODES[_a], ROLE_CODES[_b]] = _REL[ROLE_CODES[_b], ROLE_CODES[_a]] = True


#: an element to move: (e, rel, un, d_rel, d_un, s, gx, gy, sx, sy) — see ``proximity``
Stray = tuple[int, int, int, float, float, float, float, float, float, float]
_REL_INT = _REL.astype(int)
_REL_SELF = _REL.diagonal().astype(int)


def related(la: LayoutArrays, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether leaves ``a`` and ``b`` are related (elementwise, broadcasting; see module docstring)."""
    return _REL[la.role[a], la.role[b]] | ((la.group[a] >= 0) & (la.group[a] == la.group[b]))


def has_relative(la: LayoutArrays, idx: np.ndarray) -> np.ndarray:
    """Whether each element of ``idx`` has at least one related element among ``idx``."""
    g, r = la.group[idx], la.role[idx]
    gcount = np.bincount(g + 1)  # slot 0: no group
    # number of elements of a related role, less the element itself when its role is related to itself
    partners = (_REL_INT @ np.bincount(r, minlength=len(ROLE_CODES)) - _REL_SELF)[r]
    return (partners > 0) | ((g >= 0) & (gcount[g + 1] >= 2))


def proximity(la: LayoutArrays, idx: np.ndarray, radius: float) -> tuple[float, int, list[Stray]] | None:
    """The numeric part of ``grouping`` (numpy; ``idx`` at least three elements, ``radius`` the sweep radius).

    Returns ``None`` when no element has both a related (within ``REACH``)
    and an unrelated other element, else ``(score, count, worst)``: the score, the number of
    elements judged, and those whose ratio ``q`` exceeds 1, largest first
    (at most ``MAX_FINDINGS``), each as ``(e, rel, un, d_rel, d_un, s, gx,
    gy, sx, sy)``: the leaf, its nearest related and unrelated leaves, the
    two distances, its score, the gaps between its box and its relative's
    along x and y (0 where they overlap) and the sides the relative is on
    (``sx`` 1.0 when its centre is further right, else −1.0; ``sy`` further
    down). The compiled kernel ``_native.grouping`` returns the same (it
    compares all pairs, and reproduces the sweep's ties above ``SMALL``).
    """
    d_rel, p_rel, d_un, p_un = nearest_split(la, idx, related, radius, need=has_relative(la, idx))
    sel = (np.isfinite(d_rel) & np.isfinite(d_un) & (d_rel <= REACH * la.short)).nonzero()[0]
    if sel.size == 0:
        return None
    delta = DELTA * la.short
    q = (d_rel[sel] + delta) / (d_un[sel] + delta)
    s = np.minimum(np.maximum(1.5 - q, 0.0), 1.0)
    score = float(np.add.reduce(s) / s.size)  # the mean, summed as ndarray.mean sums
    bad = (q > 1.0).nonzero()[0]
    worst: list[Stray] = []
    if bad.size == 0:
        return score, int(sel.size), worst
    x1, cx, x2, y1, cy, y2 = la.edges6.tolist()
    for k in bad[np.argsort(-q[bad], kind="stable")][:MAX_FINDINGS].tolist():
        r = int(sel[k])
        e, rel = int(idx[r]), int(p_rel[r])
        gx = max(x1[rel] - x2[e], x1[e] - x2[rel], 0.0)
        gy = max(y1[rel] - y2[e], y1[e] - y2[rel], 0.0)
        worst.append((e, rel, int(p_un[r]), float(d_rel[r]), float(d_un[r]), float(s[k]), gx, gy,
                      1.0 if cx[rel] > cx[e] else -1.0, 1.0 if cy[rel] > cy[e] else -1.0))
    return score, int(sel.size), worst


def grouping(la: LayoutArrays) -> MetricResult:
    """Gestalt proximity of related vs unrelated neighbours (see module docstring)."""
    idx = la.unit_nodeco_idx
    m = idx.size
    if m < 3:
        return metric_result(name=NAME, score=1.0, applicable=False)
    radius = min(RADIUS * la.short, 1.5 * math.sqrt(la.W * la.H / m))
    if la.native is not None:
        ink_off, ink_boxes = ink_table(la)
        res = la.native.grouping(la.edges6, la.role, la.group, idx, _REL, ink_off, ink_boxes, radius,
                                 DELTA * la.short, REACH * la.short, SMALL, DENSE_SHARE, MAX_FINDINGS)
    else:
        res = proximity(la, idx, radius)
    if res is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    score, count, worst = res
    findings: list[Finding] = []
    if not worst:
        return metric_result(name=NAME, score=score, findings=findings)
    ids, names, px, locked = la.ids, la.name, la.px, la.locked
    for e, rel, un, dr, du, sk, gx, gy, sx, sy in worst:
        sugg = None
        if not locked[e]:
            # move towards the relative along the axis that separates them, to half the stranger's distance
            target = 0.5 * du
            if gy >= gx:
                sugg = {"type": "move", "ids": [ids[e]], "dx": 0.0, "dy": round(max(gy - target, 0.0) * sy, 3)}
            else:
                sugg = {"type": "move", "ids": [ids[e]], "dx": round(max(gx - target, 0.0) * sx, 3), "dy": 0.0}
        findings.append(finding(
            metric=NAME, element_ids=[ids[e], ids[rel], ids[un]],
            message=(f"{names(e)} is {px(dr):.0f} px from its related {names(rel)} but "
                     f"{px(du):.0f} px from unrelated {names(un)}"),
            severity=severity_for(1.0 - sk, medium=0.3, high=0.8), suggestion=sugg,
            impact=(1.0 - sk) / count))
    return metric_result(name=NAME, score=score, findings=findings)
