"""Alignment: shared edges and centres (LayoutGAN++ alignment).

Definition. Kikuchi et al. 2021 (LayoutGAN++; after Lee et al. 2020) score an
element by ``d_i = min_{j≠i} min_t |v_t(i) − v_t(j)|`` over the six alignment
types ``t`` ∈ {left, centre-x, right, top, centre-y, bottom}, horizontal
coordinates divided by the canvas width and vertical ones by its height.
One refinement: a text's horizontal alignment is its anchor (the left edge
of start-anchored text, the centre of middle-anchored text, the right edge of
end-anchored text), since the ragged side of a paragraph aligns with nothing
on purpose. The distance (less a 0.1 % slack for sub-pixel noise) becomes
``s_i = 1 / (1 + d_i / 0.003)`` (aligned → 1; 1 % off → 0.23). The metric is the
importance-weighted mean over elements (weights ``0.1 + importance``: a stray
title costs more than a stray ornament).

Elements: the visible, non-background leaves. The nearest same-type value is
found by sorting each coordinate (O(n log n)), not by comparing all pairs.
Findings name near-misses (0.1 %–2 % apart) with an ``align`` suggestion that
moves the less important element onto its partner's edge.
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import LayoutArrays
from assistant.metrics.report import Finding, MetricResult, severity_for

NAME = "alignment"
SLACK = 0.001
TAU = 0.003
NEAR_MISS = 0.02
MAX_FINDINGS = 5
EDGES = ("left", "center_x", "right", "top", "center_y", "bottom")
_EDGE_WORDS = ("left edges", "horizontal centres", "right edges", "top edges", "vertical centres", "bottom edges")


def nearest_same_type(la: LayoutArrays, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per alignment type and element of ``idx``: normalised distance to the nearest other element and partner.

    Returns ``(dist, partner)`` of shape (6, m); ``inf`` / −1 where the type is
    not active for the element (see the module docstring) or has no partner.
    """
    m = idx.size
    v = la.edges6[:, idx] / la.edge_scale
    # a text aligns horizontally only by its anchor: its other two x types are masked out (NaN sorts last)
    text = la.is_text[idx]
    v[:3][(np.arange(3)[:, None] != la.anchor[idx][None, :]) & text[None, :]] = np.nan
    order = np.argsort(v, axis=1, kind="stable")
    flat = (order + (np.arange(6) * m)[:, None]).ravel()
    sv = v.ravel()[flat].reshape(6, m)
    gaps = sv[:, 1:] - sv[:, :-1]
    gaps[np.isnan(gaps)] = np.inf
    inf = np.full((6, 1), np.inf)
    left = np.concatenate([inf, gaps], axis=1)
    right = np.concatenate([gaps, inf], axis=1)
    pos = np.arange(m)
    nb = np.minimum(np.maximum(np.where(left <= right, pos - 1, pos + 1), 0), m - 1)
    nb = order.ravel()[(nb + (np.arange(6) * m)[:, None]).ravel()]
    dist = np.empty(6 * m)
    partner = np.empty(6 * m, dtype=np.intp)
    dist[flat] = np.minimum(left, right).ravel()
    partner[flat] = idx[nb]
    dist, partner = dist.reshape(6, m), partner.reshape(6, m)
    return dist, partner


def edge_value(la: LayoutArrays, i: int, t: int) -> float:
    return float((la.x1, la.cx, la.x2, la.y1, la.cy, la.y2)[t][i])


def alignment(la: LayoutArrays) -> MetricResult:
    """Importance-weighted LayoutGAN++ alignment score (see module docstring)."""
    idx = la.units.nonzero()[0]
    if idx.size < 2:
        return MetricResult(name=NAME, score=1.0, applicable=idx.size > 0)
    dist, partners = nearest_same_type(la, idx)
    tx = dist[:3].argmin(axis=0)
    ty = 3 + dist[3:].argmin(axis=0)
    cols = np.arange(idx.size)
    dx, dy = dist[tx, cols], dist[ty, cols]
    d = np.minimum(dx, dy)
    s = 1.0 / (1.0 + np.maximum(d - SLACK, 0.0) / TAU)
    w = 0.1 + la.importance[idx]
    score = float((w * s).sum() / w.sum())
    t = np.where(dx <= dy, tx, ty)
    partner = partners[t, cols]
    findings: list[Finding] = []
    near = ((d > SLACK) & (d <= NEAR_MISS)).nonzero()[0]
    near = near[np.argsort(-(w[near] * (1 - s[near])), kind="stable")]
    seen: set[tuple[int, int]] = set()
    for k in near:
        a, b, tt = int(idx[k]), int(partner[k]), int(t[k])
        if (min(a, b), max(a, b)) in seen:
            continue
        seen.add((min(a, b), max(a, b)))
        mover, target = (a, b) if (la.importance[a], -a) <= (la.importance[b], -b) else (b, a)
        if la.locked[mover]:
            mover, target = target, mover
        gap_world = abs(edge_value(la, a, tt) - edge_value(la, b, tt))
        sugg = None if la.locked[mover] else {
            "type": "align", "ids": [la.ids[mover]], "edge": EDGES[tt], "to": "element",
            "target_id": la.ids[target]}
        findings.append(Finding(
            metric=NAME, element_ids=[la.ids[mover], la.ids[target]],
            message=(f"{_EDGE_WORDS[tt]} of {la.name(mover)} and {la.name(target)} are "
                     f"{la.px(gap_world):.1f} px apart — almost aligned"),
            severity=severity_for(float(w[k] * (1 - s[k])), medium=0.4, high=0.8), suggestion=sugg,
            impact=float(w[k] * (1 - s[k]) / w.sum())))
        if len(findings) >= MAX_FINDINGS:
            break
    return MetricResult(name=NAME, score=score, findings=findings)
