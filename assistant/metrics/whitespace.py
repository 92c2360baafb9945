"""Whitespace / density: how much of the canvas the content occupies.

Definition. Ngo, Teo & Byrne (2003) density ``DM = 1 − 2 |0.5 − Σ a_i /
a_frame|`` rewards about half the frame covered. Here the covered share is the
area of the *union* of the visible, non-background leaf boxes (overlaps count
once), exact up to 64 boxes and on a 128 × 128 raster beyond (see
``coverage``; O(n + cells); pages of at most 256 leaves use the compiled
kernel ``_native.whitespace``, which computes the same). Inside the target band
30 %–70 % (Ngo's 50 % ± 20 %) the score is 1; outside it falls with Ngo's slope:
``1 − 2 · distance to the band`` (too crowded or too empty).
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import LayoutArrays
from assistant.metrics.report import MetricResult, finding, metric_result

NAME = "whitespace"
GRID = 128
#: up to this many boxes the union area is computed exactly
EXACT = 64
BAND = (0.30, 0.70)
_CORNER_SIGNS = np.array([1.0, -1.0, -1.0, 1.0])


def _distinct(v: np.ndarray) -> np.ndarray:
    """The sorted distinct values of ``v`` (``np.unique`` for finite floats, with less overhead)."""
    v = np.sort(v)
    keep = np.empty(v.size, dtype=bool)
    keep[:1] = True
    np.not_equal(v[1:], v[:-1], out=keep[1:])
    return v[keep]


def coverage(la: LayoutArrays, idx: np.ndarray, grid: int = GRID) -> float:
    """Share of the canvas covered by the union of the boxes ``idx``.

    This is the numpy version; the compiled kernel ``_native.whitespace`` returns the same.

    The canvas is cut into cells — exactly at the boxes' edges when there are
    at most ``EXACT`` boxes (the union area is then exact), else a uniform
    ``grid`` × ``grid`` raster — and a cell counts as covered when its centre
    lies in some box (a difference array and two cumulative sums).
    """
    if idx.size == 0:
        return 0.0
    c = la.canvas
    x0, x1c, y0, y1c = c.x, c.x + c.width, c.y, c.y + c.height
    bx1, bx2 = np.minimum(np.maximum(la.edges6[0:3:2][:, idx], x0), x1c)  # left and right edges on the canvas
    by1, by2 = np.minimum(np.maximum(la.edges6[3:6:2][:, idx], y0), y1c)  # top and bottom edges
    if idx.size <= EXACT:
        ex = _distinct(np.concatenate([[x0, x1c], bx1, bx2]))
        ey = _distinct(np.concatenate([[y0, y1c], by1, by2]))
    else:
        ex, ey = np.linspace(x0, x1c, grid + 1), np.linspace(y0, y1c, grid + 1)
    mx, my = (ex[1:] + ex[:-1]) / 2, (ey[1:] + ey[:-1]) / 2
    c0, c1 = np.searchsorted(mx, bx1), np.searchsorted(mx, bx2)
    r0, r1 = np.searchsorted(my, by1), np.searchsorted(my, by2)
    ok = (c1 > c0) & (r1 > r0)
    c0, c1, r0, r1 = c0[ok], c1[ok], r0[ok], r1[ok]
    nx, ny = mx.size + 1, my.size + 1
    # corners of each box in the difference array: (r0, c0) +, (r0, c1) −, (r1, c0) −, (r1, c1) +
    flat = np.concatenate((r0, r0, r1, r1)) * nx + np.concatenate((c0, c1, c0, c1))
    sign = np.repeat(_CORNER_SIGNS, c0.size)
    diff = np.bincount(flat, weights=sign, minlength=nx * ny).reshape(ny, nx)
    covered = diff.cumsum(axis=0).cumsum(axis=1)[:-1, :-1] > 0.5
    area = ((ey[1:] - ey[:-1])[:, None] * (ex[1:] - ex[:-1])[None, :])[covered].sum()
    return float(area / (c.width * c.height))


def whitespace(la: LayoutArrays) -> MetricResult:
    """Ngo density against a target band of covered share (see module docstring)."""
    idx = la.unit_area_idx
    if la.native is not None:
        c = la.canvas
        cov = la.native.whitespace(la.edges6, idx, c.x, c.y, c.width, c.height, EXACT, GRID)
    else:
        cov = coverage(la, idx)  # an empty page is as "too empty" as it gets
    lo, hi = BAND
    dist = max(lo - cov, cov - hi, 0.0)
    score = max(0.0, 1.0 - 2.0 * dist)
    findings = []
    if dist > 0:
        what = "crowded" if cov > hi else "empty"
        findings.append(finding(
            metric=NAME, element_ids=[],
            message=f"content covers {cov:.0%} of the canvas: too {what} (target {lo:.0%}–{hi:.0%})",
            severity="medium" if dist > 0.15 else "low", impact=2 * dist))
    return metric_result(name=NAME, score=score, findings=findings)
