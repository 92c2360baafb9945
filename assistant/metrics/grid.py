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
from assistant.metrics.report import Finding, MetricResult

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


def cluster_lines(x: np.ndarray, tol: float, min_size: int = 2) -> np.ndarray:
    """Centres of the clusters of ``x`` (gaps > ``tol`` split) with at least ``min_size`` members."""
    s = np.sort(x)
    cid = np.concatenate([[0], ((s[1:] - s[:-1]) > tol).cumsum()])
    cnt = np.bincount(cid)
    centres = np.bincount(cid, weights=s) / cnt
    return centres[cnt >= min_size]


def _nearest(x: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """The nearest of the sorted ``lines`` for each ``x`` (``lines`` non-empty)."""
    k = np.searchsorted(lines, x)
    lo = lines[np.maximum(k - 1, 0)]
    hi = lines[np.minimum(k, lines.size - 1)]
    return np.where(np.abs(x - lo) <= np.abs(x - hi), lo, hi)


def grid(la: LayoutArrays) -> MetricResult:
    """Conformance to the best-fitting column grid (see module docstring)."""
    idx = (la.units & ~la.is_deco & (la.w < 0.9 * la.W)).nonzero()[0]
    if idx.size < 2:
        return MetricResult(name=NAME, score=1.0, applicable=False)
    x1, x2 = la.x1[idx], la.x2[idx]
    safe = effective_safe_box(la)
    tol_w = la.W
    m = idx.size
    # regular grids, all at once: rows = (frame, columns) candidates; left and right edges side by side
    nc = len(COLUMNS)
    f0 = np.array([safe.x] * nc + [float(x1.min())] * nc)
    f1 = np.array([safe.x2] * nc + [float(x2.max())] * nc)
    f0c = f0[:, None]
    step = np.maximum(f1 - f0, 1e-9)[:, None] / _COLS
    x12 = np.concatenate((x1, x2))
    s12 = f0c + np.minimum(np.maximum(np.rint((x12 - f0c) / step), 0), _COLS) * step
    s1, s2 = s12[:, :m], s12[:, m:]
    labels = list(_LABELS)
    lines = _LINES
    # the detected grid (clusters of left edges and of right edges)
    starts, ends = cluster_lines(x1, CLUSTER_TOL * la.W), cluster_lines(x2, CLUSTER_TOL * la.W)
    if starts.size or ends.size:
        d1 = _nearest(x1, starts) if starts.size else np.full(x1.size, np.inf)
        d2 = _nearest(x2, ends) if ends.size else np.full(x2.size, np.inf)
        s1 = np.concatenate((s1, d1[None, :]))
        s2 = np.concatenate((s2, d2[None, :]))
        labels.append("detected")
        lines = np.concatenate((lines, [(starts.size + ends.size) / 2]))
    e1, e2 = np.abs(x1 - s1), np.abs(x2 - s2)
    d = np.minimum(e1, e2) / tol_w
    sc = 1.0 / (1.0 + np.maximum(d - SLACK, 0.0) / TAU)
    means = sc.sum(axis=1) / idx.size
    valid = np.concatenate((f1 > f0, [True] * (len(labels) - f0.size)))
    best = int(np.where(valid, means - CHARGE * lines, -np.inf).argmax())
    mean, label = float(means[best]), labels[best]
    d, left_closer, s1, s2 = d[best], e1[best] <= e2[best], s1[best], s2[best]
    findings = []
    near = ((d > SLACK) & (d <= NEAR)).nonzero()[0]
    for j in near[np.argsort(-d[near], kind="stable")][:MAX_FINDINGS]:
        i = int(idx[j])
        dx = float((s1[j] - x1[j]) if left_closer[j] else (s2[j] - x2[j]))
        edge = "left" if left_closer[j] else "right"
        findings.append(Finding(
            metric=NAME, element_ids=[la.ids[i]],
            message=f"{edge} edge of {la.name(i)} is {la.px(abs(dx)):.1f} px off the {label} grid",
            severity="low", impact=float(d[j] / NEAR) / idx.size,
            suggestion=None if la.locked[i] else {"type": "move", "ids": [la.ids[i]], "dx": round(dx, 3), "dy": 0.0}))
    return MetricResult(name=NAME, score=mean, findings=findings)
