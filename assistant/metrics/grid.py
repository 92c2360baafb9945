"""Grid conformance: left and right edges on a detected column grid.

Definition. Two kinds of column grid are candidates:
- *detected*: the left edges are clustered (sorted, split where neighbours
  are more than 0.5 % of the canvas width apart); clusters of at least two
  elements are column starts. Right edges likewise give column ends;
- *regular*: c ∈ {1, 2, 3, 4, 6, 12} equal columns spanning the safe area
  (see ``margins``) or the content area (leftmost left edge to rightmost right
  edge), lines at the column boundaries.
An element's distance to a grid is the smaller of its left edge's distance to
the nearest column start and its right edge's to the nearest column end,
divided by the canvas width; it scores ``1 / (1 + max(0, d − 0.1 %) / 0.3 %)``
(the alignment metric's form). Each grid's score is the mean over elements
less a complexity charge of 0.4 % per line (a grid with a line at every
element would fit anything; the detected grid counts its start and end
lines as half a line each); the detected grid is the best candidate and the
metric is its mean (without the charge). Elements: visible, non-background,
non-decoration leaves narrower than 90 % of the canvas (full-width elements
fit any grid). Findings name elements 0.1 %–3 % off the best grid with a
``move`` suggestion onto its line.

The numbers come from ``fit`` (numpy) or, for pages of at most 256 leaves,
from the compiled kernel ``_native.grid``, which computes the same.
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import LayoutArrays
from assistant.metrics.margins import effective_safe_box
from assistant.metrics.report import Finding, MetricResult, finding, metric_result

NAME = "grid"
COLUMNS = (1, 2, 3, 4, 6, 12)
CLUSTER_TOL = 0.005
SLACK = 0.001
TAU = 0.003
CHARGE = 0.004
NEAR = 0.03
MAX_FINDINGS = 5
#: elements at least this share of the canvas width wide fit any grid and are not judged
FULL_WIDTH = 0.9
#: the candidate grids by row: regular on the safe area, regular on the content area, detected
GRIDS = tuple(f"{c}-column" for c in COLUMNS * 2) + ("detected",)
_COLUMNS = np.array(COLUMNS, dtype=float)
_COLS = np.array(COLUMNS * 2, dtype=float)[:, None]
_LINES = _COLS[:, 0] + 1


def cluster_lines(x: np.ndarray, tol: float, min_size: int = 2) -> list[np.ndarray]:
    """Per row of ``x`` (k, m): the centres of the clusters of its values with ≥ ``min_size`` members.

    A gap wider than ``tol`` between sorted values splits a cluster.
    """
    return _cluster_sorted(np.sort(x, axis=1), tol, min_size)


def _cluster_sorted(s: np.ndarray, tol: float, min_size: int = 2) -> list[np.ndarray]:
    """``cluster_lines`` of rows already sorted.

    All rows are numbered by one cumulative sum (a row's first value always
    starts a cluster, so rows never share one).
    """
    k, m = s.shape
    split = np.empty((k, m), dtype=bool)
    split[:, 0] = True
    np.greater(s[:, 1:] - s[:, :-1], tol, out=split[:, 1:])
    flat = split.ravel()
    cid = flat.cumsum() - 1
    cnt = np.bincount(cid)
    centres = np.bincount(cid, weights=s.ravel()) / cnt
    row = flat.nonzero()[0] // m  # the row of each cluster
    keep = cnt >= min_size
    return [centres[keep & (row == r)] for r in range(k)]


def _nearest(x: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """The nearest of the sorted ``lines`` for each ``x`` (``lines`` non-empty)."""
    k = np.searchsorted(lines, x)
    lo = lines[np.maximum(k - 1, 0)]
    hi = lines[np.minimum(k, lines.size - 1)]
    return np.where(np.abs(x - lo) <= np.abs(x - hi), lo, hi)


def fit(la: LayoutArrays) -> tuple[float, int, int, list[tuple[int, bool, float, float]]] | None:
    """The numeric part of ``grid`` (numpy): the best grid and the elements just off it.

    Returns ``None`` when fewer than two elements are judged, else ``(mean,
    best, m, near)``: the best grid's mean score, its row in ``GRIDS``, the
    number of elements judged, and the near misses ``(i, left, dx, d)`` (0.1 %
    < ``d`` ≤ 3 %), farthest first: leaf index, whether the left edge is the
    closer one, the move in x that puts that edge on its line, and the
    normalised distance. The compiled kernel ``_native.grid`` returns the same.
    """
    idx = la.unit_nodeco_idx
    idx = idx[la.w[idx] < FULL_WIDTH * la.W]
    m = idx.size
    if m < 2:
        return None
    xx = la.edges6[0:3:2][:, idx]  # left and right edges
    x1, x2 = xx
    sx = np.sort(xx, axis=1)  # for the content frame and the detected clusters
    safe = effective_safe_box(la)
    # rows of candidate lines per edge, left edges then right edges: the regular grids (frame, columns) and
    # the detected grid last
    nc = len(COLUMNS)
    f0 = np.array([safe.x] * nc + [float(sx[0, 0])] * nc)
    f1 = np.array([safe.x2] * nc + [float(sx[1, -1])] * nc)
    f0c = f0[:, None]
    step = np.maximum(f1 - f0, 1e-9)[:, None] / _COLS
    x12 = xx.ravel()
    snap = np.empty((2 * nc + 1, 2 * m))
    regular = snap[:2 * nc]
    np.multiply(np.minimum(np.maximum(np.rint((x12 - f0c) / step), 0), _COLS), step, out=regular)
    regular += f0c
    lines = _LINES
    # the detected grid (clusters of left edges and of right edges)
    starts, ends = _cluster_sorted(sx, CLUSTER_TOL * la.W)
    if starts.size or ends.size:
        snap[-1, :m] = _nearest(x1, starts) if starts.size else np.inf
        snap[-1, m:] = _nearest(x2, ends) if ends.size else np.inf
        lines = np.concatenate((lines, [(starts.size + ends.size) / 2]))
    else:
        snap = regular
    e12 = np.abs(x12 - snap)
    e1, e2 = e12[:, :m], e12[:, m:]
    d = np.minimum(e1, e2) / la.W
    sc = 1.0 / (1.0 + np.maximum(d - SLACK, 0.0) / TAU)
    means = sc.sum(axis=1) / m
    valid = np.concatenate((f1 > f0, [True] * (lines.size - f0.size)))
    best = int(np.where(valid, means - CHARGE * lines, -np.inf).argmax())
    d, e1, e2 = d[best], e1[best], e2[best]
    near = ((d > SLACK) & (d <= NEAR)).nonzero()[0]
    near = near[np.argsort(-d[near], kind="stable")]
    left = e1[near] <= e2[near]
    dx = np.where(left, snap[best, near] - x1[near], snap[best, m + near] - x2[near])
    return float(means[best]), best, m, list(zip(idx[near].tolist(), left.tolist(), dx.tolist(), d[near].tolist()))


def grid(la: LayoutArrays) -> MetricResult:
    """Conformance to the best-fitting column grid (see module docstring)."""
    if la.native is not None:
        safe = effective_safe_box(la)
        res = la.native.grid(la.edges6, la.unit_nodeco_idx, la.w, _COLUMNS, la.W, safe.x, safe.x2, FULL_WIDTH,
                             CLUSTER_TOL, SLACK, TAU, CHARGE, NEAR)
    else:
        res = fit(la)
    if res is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    mean, best, m, near = res
    findings: list[Finding] = []
    if not near:
        return metric_result(name=NAME, score=mean, findings=findings)
    ids, locked, label = la.ids, la.locked, GRIDS[best]
    for i, left, dx, d in near[:MAX_FINDINGS]:
        edge = "left" if left else "right"
        findings.append(finding(
            metric=NAME, element_ids=[ids[i]],
            message=f"{edge} edge of {la.name(i)} is {la.px(abs(dx)):.1f} px off the {label} grid",
            severity="low", impact=d / NEAR / m,
            suggestion=None if locked[i] else {"type": "move", "ids": [ids[i]], "dx": round(dx, 3), "dy": 0.0}))
    return metric_result(name=NAME, score=mean, findings=findings)
