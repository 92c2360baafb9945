"""Neighbour searches shared by the spacing and grouping metrics.

Both are nearest-neighbour questions over all pairs ("the nearest element
below that overlaps horizontally", "the nearest related / unrelated
element"). They are answered without a Python loop over pairs:

- ``nearest_beyond`` gathers the pairs that overlap on the other axis with
  the sort-and-sweep of ``candidate_pairs`` and keeps the nearest valid one per
  element (one lexicographic sort); when the sweep finds nearly all pairs (every
  element spans the page) blocked brute force is cheaper and is used instead.
- ``nearest_split`` gathers candidate pairs within a radius with the
  sort-and-sweep of ``candidate_pairs`` and keeps, per element, the nearest
  partner of each class; elements whose nearest partner is not provably
  within the radius fall back to blocked brute force (rows of ``BLOCK``
  elements, vectorised, bounded memory).
"""

from __future__ import annotations

from typing import Callable, Iterator

import numpy as np

from assistant.metrics.context import LayoutArrays, candidate_pairs

BLOCK = 512
#: up to this many elements one brute-force block beats sorting and probing
SMALL = 96
#: when the sweep finds more than this share of all pairs, brute force is cheaper than sorting them
DENSE_SHARE = 0.15


def blocks(n: int, size: int = BLOCK) -> Iterator[slice]:
    for s in range(0, n, size):
        yield slice(s, min(s + size, n))


def nearest_beyond(la: LayoutArrays, idx: np.ndarray, vertical: bool, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """For each element of ``idx``: the nearest element of ``idx`` after it along an axis, and the gap.

    Vertical: among the elements whose horizontal extent overlaps this one's
    and whose top is below this one's top and at least its bottom − ``tol``,
    the one with the highest top. Horizontal likewise to the right. Returns
    (partner index into ``la``, or −1; gap, ``inf`` when none).
    """
    if vertical:
        a1, a2, o1, o2 = la.y1[idx], la.y2[idx], la.x1[idx], la.x2[idx]
    else:
        a1, a2, o1, o2 = la.x1[idx], la.x2[idx], la.y1[idx], la.y2[idx]
    m = idx.size
    part = np.full(m, -1)
    gap = np.full(m, np.inf)
    pending = np.arange(m)
    if m > SMALL:
        # candidate pairs overlapping on the other axis (sort and sweep), then the nearest valid one per row
        pa, pb = candidate_pairs(o1, o2)
        if pa.size <= DENSE_SHARE * m * m:
            rows, cols = np.concatenate([pa, pb]), np.concatenate([pb, pa])
            lead = a2 - tol
            ok = ((np.minimum(o2[rows], o2[cols]) - np.maximum(o1[rows], o1[cols])) > 0) & (
                a1[cols] > a1[rows]) & ((a1[cols] >= lead[rows]) | ~(lead > a1)[rows])
            rows, cols = rows[ok], cols[ok]
            best, k = _first_per_row(rows, a1[cols] - a2[rows], cols, m)
            has = k >= 0
            part[has] = idx[k[has]]
            gap[has] = best[has]
            pending = np.empty(0, dtype=np.intp)
    if pending.size:
        lead = a2 - tol
        cols = np.arange(m)
        for sl in blocks(pending.size):
            r = pending[sl]
            g = a1[None, :] - a2[r, None]
            ok = ((np.minimum(o2[r, None], o2[None, :]) - np.maximum(o1[r, None], o1[None, :])) > 0) & (
                a1[None, :] >= np.where(lead > a1, lead, -np.inf)[r, None]) & (a1[None, :] > a1[r, None]) & (
                cols[None, :] != r[:, None])
            g = np.where(ok, g, np.inf)
            kk = np.argmin(g, axis=1)
            best = g[np.arange(r.size), kk]
            has = np.isfinite(best)
            part[r[has]] = idx[kk[has]]
            gap[r[has]] = best[has]
    return part, gap


def box_distance(la: LayoutArrays, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Euclidean gap between boxes ``a`` and ``b`` (broadcasting; 0 when they touch or overlap)."""
    dx = np.maximum(np.maximum(la.x1[b] - la.x2[a], la.x1[a] - la.x2[b]), 0.0)
    dy = np.maximum(np.maximum(la.y1[b] - la.y2[a], la.y1[a] - la.y2[b]), 0.0)
    return np.hypot(dx, dy)


Relation = Callable[[LayoutArrays, np.ndarray, np.ndarray], np.ndarray]


def _first_per_row(rows: np.ndarray, d: np.ndarray, cols: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    best = np.full(m, np.inf)
    part = np.full(m, -1)
    if rows.size:
        o = np.lexsort((d, rows))  # stable: ties keep pair order, so results are deterministic
        r, dd, cc = rows[o], d[o], cols[o]
        first = np.ones(r.size, dtype=bool)
        first[1:] = r[1:] != r[:-1]
        best[r[first]] = dd[first]
        part[r[first]] = cc[first]
    return best, part


def nearest_split(la: LayoutArrays, idx: np.ndarray, related: Relation, radius: float,
                  need: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per element of ``idx``: (distance, partner) to the nearest related and the nearest unrelated other element.

    ``related(la, a, b)`` says elementwise whether leaves ``a`` and ``b`` are
    related. Partners are indices into ``la`` (−1 when there is none). Only
    the rows where ``need`` is true are guaranteed exact (default: all).
    """
    m = idx.size
    h = radius / 2
    if m <= SMALL:
        pa = pb = np.empty(0, dtype=np.intp)  # a single brute-force block is cheaper
    else:
        pa, pb = candidate_pairs(la.x1[idx] - h, la.x2[idx] + h)
    if pa.size:
        keep = (np.minimum(la.y2[idx[pa]], la.y2[idx[pb]]) - np.maximum(la.y1[idx[pa]], la.y1[idx[pb]])) >= -radius
        pa, pb = pa[keep], pb[keep]
    if pa.size > DENSE_SHARE * m * m:
        # so crowded that nearly everything is near everything: brute force is cheaper than sorting pairs
        pa = pb = np.empty(0, dtype=np.intp)
    rows = np.concatenate([pa, pb])
    cols = np.concatenate([pb, pa])
    d = box_distance(la, idx[rows], idx[cols])
    rel = related(la, idx[rows], idx[cols])
    d_rel, p_rel = _first_per_row(rows[rel], d[rel], cols[rel], m)
    d_un, p_un = _first_per_row(rows[~rel], d[~rel], cols[~rel], m)
    unsure = (d_rel > radius) | (d_un > radius)
    todo = np.nonzero(unsure if need is None else unsure & need)[0]
    allc = np.arange(m)
    for sl in blocks(todo.size):
        r = todo[sl]
        dd = box_distance(la, idx[r][:, None], idx[None, :])
        rl = related(la, idx[r][:, None], idx[None, :])
        me = r[:, None] == allc[None, :]
        dr = np.where(rl & ~me, dd, np.inf)
        du = np.where(~rl & ~me, dd, np.inf)
        kr, ku = np.argmin(dr, axis=1), np.argmin(du, axis=1)
        ar = np.arange(r.size)
        d_rel[r], p_rel[r] = dr[ar, kr], kr
        d_un[r], p_un[r] = du[ar, ku], ku
    p_rel = np.where(np.isfinite(d_rel), idx[np.maximum(p_rel, 0)], -1)
    p_un = np.where(np.isfinite(d_un), idx[np.maximum(p_un, 0)], -1)
    return d_rel, p_rel, d_un, p_un
