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
fit any grid).
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
_COLS = np.array(COLUMNS * 2, dtype=float)[:, None]
_LABELS = tuple(f"{c}-column" for c in COLUMNS * 2)
_LINES = _COLS[:, 0] + 1


def cluster_lines(x: np.ndarray, tol: float, min_size: int = 2) -> list[np.ndarray]:
    """Per row of ``x`` (k, m): centres of the clusters of its values (gaps > ``tol`` split) with ≥ ``min_size`` members."""
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


def grid(la: LayoutArrays) -> MetricResult:
    """Conformance to the best-fitting column grid (see module docstring)."""
    idx = la.unit_nodeco_idx
    idx = idx[la.w[idx] < 0.9 * la.W]
    if idx.size < 2:
        return metric_result(name=NAME, score=1.0, applicable=False)
    xx = la.edges6[0:3:2][:, idx]  # left and right edges
    x1, x2 = xx
    sx = np.sort(xx, axis=1)  # for the content frame and the detected clusters
    safe = effective_safe_box(la)
    tol_w = la.W
    m = idx.size
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
    labels = list(_LABELS)
    lines = _LINES
    # the detected grid (clusters of left edges and of right edges)
    starts, ends = _cluster_sorted(sx, CLUSTER_TOL * la.W)
    if starts.size or ends.size:
        snap[-1, :m] = _nearest(x1, starts) if starts.size else np.inf
        snap[-1, m:] = _nearest(x2, ends) if ends.size else np.inf
        labels.append("detected")
        lines = np.concatenate((lines, [(starts.size + ends.size) / 2]))
    else:
        snap = regular
    e12 = np.abs(x12 - snap)
    e1, e2 = e12[:, :m], e12[:, m:]
    d = np.minimum(e1, e2) / tol_w
    sc = 1.0 / (1.0 + np.maximum(d - SLACK, 0.0) / TAU)
    means = sc.sum(axis=1) / idx.size
    valid = np.concatenate((f1 > f0, [True] * (len(labels) - f0.size)))
    best = int(np.where(valid, means - CHARGE * lines, -np.inf).argmax())
    mean, label = float(means[best]), labels[best]
    d, left_closer, s1, s2 = d[best], e1[best] <= e2[best], snap[best, :m], snap[best, m:]
    findings: list[Finding] = []
    near = ((d > SLACK) & (d <= NEAR)).nonzero()[0]
    if near.size == 0:
        return metric_result(name=NAME, score=mean, findings=findings)
    ids, locked = la.ids, la.locked
    for j in near[np.argsort(-d[near], kind="stable")][:MAX_FINDINGS].tolist():
        i = int(idx[j])
        left = bool(left_closer[j])
        dx = float((s1[j] - x1[j]) if left else (s2[j] - x2[j]))
        edge = "left" if left else "right"
        findings.append(finding(
            metric=NAME, element_ids=[ids[i]],
            message=f"{edge} edge of {la.name(i)} is {la.px(abs(dx)):.1f} px off the {label} grid",
            severity="low", impact=float(d[j] / NEAR) / m,
            suggestion=None if locked[i] else {"type": "move", "ids": [ids[i]], "dx": round(dx, 3), "dy": 0.0}))
    return metric_result(name=NAME, score=mean, findings=findings)
