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
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "alignment"
SLACK = 0.001
TAU = 0.003
NEAR_MISS = 0.02
MAX_FINDINGS = 5
EDGES = ("left", "center_x", "right", "top", "center_y", "bottom")
_ROWS6 = np.arange(6)[:, None]
_EDGE_WORDS = ("left edges", "horizontal centres", "right edges", "top edges", "vertical centres", "bottom edges")


def nearest_same_type(la: LayoutArrays, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per alignment type and element of ``idx``: normalised distance to the nearest other element and partner.

    Returns ``(dist, partner)`` of shape (6, m); ``inf`` where the type is not
    active for the element (see the module docstring) or has no partner. Each
    row is sorted once; an element's nearest is the closer of its sorted
    neighbours (the left one on a tie).
    """
    m = idx.size
    v = la.align_values[:, idx]
    order = np.argsort(v, axis=1, kind="stable")
    flat = (order + _row_offsets(m)).ravel()
    sv = v.ravel()[flat].reshape(6, m)
    # gaps to the sorted neighbours, padded with inf on both ends; NaN (a masked type) never pairs
    gp = np.full((6, m + 1), np.inf)
    np.subtract(sv[:, 1:], sv[:, :-1], out=gp[:, 1:m])
    gp[np.isnan(gp)] = np.inf
    left, right = gp[:, :m], gp[:, 1:]
    # the right neighbour only when strictly closer (it then exists); else the left one, or itself at position 0
    nb = np.maximum(np.arange(1, m + 1) - 2 * (left <= right), 0)
    nb = order.ravel()[(nb + _row_offsets(m)).ravel()]
    dist = np.empty(6 * m)
    partner = np.empty(6 * m, dtype=np.intp)
    dist[flat] = np.minimum(left, right).ravel()
    partner[flat] = idx[nb]
    return dist.reshape(6, m), partner.reshape(6, m)


def _row_offsets(m: int) -> np.ndarray:
    """Flat offsets of the six rows of a (6, m) array, as a column."""
    return _ROWS6 * m


def edge_value(la: LayoutArrays, i: int, t: int) -> float:
    """Coordinate ``t`` (a row of ``edges6``: x1, cx, x2, y1, cy, y2) of leaf ``i``."""
    return float(la.edges6[t, i])


def near_misses(la: LayoutArrays, idx: np.ndarray) -> tuple[float, float, list[tuple[int, int, int, float]]]:
    """The numeric part of ``alignment`` (numpy; ``idx`` at least two elements).

    Returns ``(score, wsum, near)``: the score, the sum of the weights, and the
    near misses ``(a, partner, type, cost)`` (leaf indices, alignment type of
    the nearest partner, ``w · (1 − s)``), most costly first. The compiled
    kernel ``_native.alignment`` returns the same.
    """
    m = idx.size
    dist, partners = nearest_same_type(la, idx)
    d3 = dist.reshape(2, 3, m)
    t2 = d3.argmin(axis=1)  # best horizontal and vertical type per element
    dx, dy = d3.min(axis=1)
    d = np.minimum(dx, dy)
    s = 1.0 / (1.0 + np.maximum(d - SLACK, 0.0) / TAU)
    w = 0.1 + la.importance[idx]
    wsum = float(w.sum())
    score = float((w * s).sum() / wsum)
    near = ((d > SLACK) & (d <= NEAR_MISS)).nonzero()[0]
    if near.size == 0:
        return score, wsum, []
    cost = w[near] * (1 - s[near])
    rank = np.argsort(-cost, kind="stable")
    near, cost = near[rank], cost[rank]
    th, tv = t2
    t = np.where(dx[near] <= dy[near], th[near], tv[near] + 3)
    return score, wsum, list(zip(idx[near].tolist(), partners[t, near].tolist(), t.tolist(), cost.tolist()))


def alignment(la: LayoutArrays) -> MetricResult:
    """Importance-weighted LayoutGAN++ alignment score (see module docstring)."""
    idx = la.unit_idx
    m = idx.size
    if m < 2:
        return metric_result(name=NAME, score=1.0, applicable=m > 0)
    if la.native is not None:
        score, wsum, near = la.native.alignment(la.edges6, la.anchor, la.is_text, idx, la.importance,
                                                la.W, la.H, SLACK, TAU, NEAR_MISS)
    else:
        score, wsum, near = near_misses(la, idx)
    findings: list[Finding] = []
    if not near:
        return metric_result(name=NAME, score=score, findings=findings)
    imp, locked, ids = la.importance.tolist(), la.locked.tolist(), la.ids
    seen: set[tuple[int, int]] = set()
    for a, b, tt, cost in near:
        if (min(a, b), max(a, b)) in seen:
            continue
        seen.add((min(a, b), max(a, b)))
        mover, target = (a, b) if (imp[a], -a) <= (imp[b], -b) else (b, a)
        if locked[mover]:
            mover, target = target, mover
        gap_world = abs(edge_value(la, a, tt) - edge_value(la, b, tt))
        sugg = None if locked[mover] else {
            "type": "align", "ids": [ids[mover]], "edge": EDGES[tt], "to": "element", "target_id": ids[target]}
        findings.append(finding(
            metric=NAME, element_ids=[ids[mover], ids[target]],
            message=(f"{_EDGE_WORDS[tt]} of {la.name(mover)} and {la.name(target)} are "
                     f"{la.px(gap_world):.1f} px apart — almost aligned"),
            severity=severity_for(cost, medium=0.4, high=0.8), suggestion=sugg, impact=cost / wsum))
        if len(findings) >= MAX_FINDINGS:
            break
    return metric_result(name=NAME, score=score, findings=findings)
