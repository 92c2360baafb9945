"""Neighbour searches shared by the spacing and grouping metrics.

Both are nearest-neighbour questions over all pairs ("the nearest element
below that overlaps horizontally", "the nearest related / unrelated
element"). They are answered without a Python loop over pairs:

- ``nearest_beyond`` sorts the elements by their start along the axis and,
  from each element's first admissible position, probes the following ones
  a window at a time (the window doubling) for the first that overlaps on the
  other axis: that is the nearest, ties going to the smallest index. The
  work grows with the number of probes, not with the number of overlapping
  pairs, so a page of full-width elements costs no more than a sparse one;
  an optional ``reach`` stops the probing early. ``nearest_beyond_both``
  answers both axes for tiny inputs with one stacked all-pairs comparison.
- ``nearest_split`` gathers candidate pairs within a radius with
  ``strip_pair_blocks`` (a sort-and-sweep over x within horizontal strips, so that
  whole columns or rows do not pair up) and keeps, per element, the
  nearest partner of each class (``np.minimum.at``, no sort of the pairs);
  ties go to the partner first in left-edge order after the element, then
  before it (the order a plain sweep over x lists them in). Elements whose nearest partner is not
  provably within the radius fall back to blocked brute force (rows of
  ``BLOCK`` elements, vectorised, bounded memory), as do inputs of at most
  ``SMALL`` elements.

The compiled kernels of spacing and grouping answer the same questions for
pages of at most 256 leaves by comparing all pairs (``ink_table`` hands them
the ink boxes), with the same results and ties.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from assistant.metrics.context import LayoutArrays, candidate_pair_blocks

BLOCK = 512
#: most cells (rows × elements) of one brute-force block: bounds its memory on pages of tens of thousands of elements
BLOCK_CELLS = 1 << 21
#: up to this many elements one brute-force block beats sorting and probing
SMALL = 96
#: when the sweep finds more than this share of all pairs, brute force is cheaper than sorting them
DENSE_SHARE = 0.15
#: candidates probed per step by the exact nearest-after scan
WINDOW = 32
#: up to this many elements ``nearest_beyond_both`` compares all pairs at once
TINY = 48
#: ``edges6`` rows of the two stacked problems of ``nearest_beyond_stacked`` (vertical, horizontal)
_ALONG_START, _ALONG_END = np.array([3, 0]), np.array([5, 2])
_ACROSS_START, _ACROSS_END = np.array([0, 3]), np.array([2, 5])


def blocks(n: int, size: int = BLOCK) -> Iterator[slice]:
    """Slices that cut ``range(n)`` into blocks of at most ``size``."""
    for s in range(0, n, size):
        yield slice(s, min(s + size, n))


def nearest_beyond(la: LayoutArrays, idx: np.ndarray, vertical: bool, tol: float,
                   reach: float = np.inf) -> tuple[np.ndarray, np.ndarray]:
    """For each element of ``idx``: the nearest element of ``idx`` after it along an axis, and the gap.

    Vertical: among the elements whose horizontal extent overlaps this one's
    and whose top is below this one's top and at least its bottom − ``tol``,
    the one with the highest top. Horizontal likewise to the right. Returns
    (partner index into ``la``, or −1; gap, ``inf`` when none); with a finite
    ``reach``, a partner whose gap exceeds it may be reported as none.
    """
    if vertical:
        a1, a2, o1, o2 = la.y1[idx], la.y2[idx], la.x1[idx], la.x2[idx]
    else:
        a1, a2, o1, o2 = la.x1[idx], la.x2[idx], la.y1[idx], la.y2[idx]
    m = idx.size
    part = np.full(m, -1)
    gap = np.full(m, np.inf)
    pending = np.arange(m)
    if pending.size:
        k, g = _scan_beyond(a1, a2, o1, o2, a2 - tol, pending, reach)
        has = k >= 0
        part[pending[has]] = idx[k[has]]
        gap[pending[has]] = g[has]
    return part, gap


def nearest_beyond_both(la: LayoutArrays, idx: np.ndarray, tol: float, reach: float = np.inf
                        ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``nearest_beyond`` vertically and horizontally: ((partners, gaps) below, (partners, gaps) to the right).

    Up to ``TINY`` elements both axes are answered by one stacked (2, m, m)
    comparison (same rule: the smallest start, ties to the smallest index),
    which costs a handful of numpy calls instead of a scan per axis.
    """
    part, gap = nearest_beyond_stacked(la, idx, tol, reach)
    return (part[0], gap[0]), (part[1], gap[1])


def nearest_beyond_stacked(la: LayoutArrays, idx: np.ndarray, tol: float, reach: float = np.inf
                           ) -> tuple[np.ndarray, np.ndarray]:
    """``nearest_beyond_both`` as two (2, m) arrays: partners and gaps, row 0 below, row 1 to the right."""
    m = idx.size
    if m > TINY:
        (pv, gv), (ph, gh) = nearest_beyond(la, idx, True, tol, reach), nearest_beyond(la, idx, False, tol, reach)
        return np.stack((pv, ph)), np.stack((gv, gh))
    e = la.edges6[:, idx]
    # rows: vertical problem (along y, across x), horizontal problem (along x, across y); contiguous copies
    a1, a2, o1, o2 = e[_ALONG_START], e[_ALONG_END], e[_ACROSS_START], e[_ACROSS_END]
    # a partner starts after the element and, when the element's end less ``tol`` is later, not before that
    thr = np.maximum(a2 - tol, a1)
    a1c = a1[:, None, :]
    ok = ((np.minimum(o2[:, :, None], o2[:, None, :]) - np.maximum(o1[:, :, None], o1[:, None, :])) > 0) & (
        a1c > a1[:, :, None]) & (a1c >= thr[:, :, None])
    g = np.where(ok, a1c, np.inf)
    k = g.argmin(axis=2)  # the smallest start, ties to the smallest position
    best = g.ravel()[np.arange(0, 2 * m * m, m) + k.ravel()].reshape(2, m)
    part = np.where(best < np.inf, idx[k], -1)
    return part, best - a2  # inf where there is no partner


def _scan_beyond(a1: np.ndarray, a2: np.ndarray, o1: np.ndarray, o2: np.ndarray, lead: np.ndarray,
                 rows: np.ndarray, reach: float = np.inf, window: int = WINDOW) -> tuple[np.ndarray, np.ndarray]:
    """Exact nearest-after search for ``rows``: the first valid partner in (start, index) order.

    A partner ``j`` of row ``r`` starts after it (``a1[j] > a1[r]``, and
    ``a1[j] >= lead[r]`` when ``lead[r] > a1[r]``) and overlaps it on the other
    axis; the nearest has the smallest start, ties going to the smallest index
    (what an ``argmin`` over all columns picks). Elements sorted by (start,
    index) are probed ``window`` at a time from each row's first admissible
    position (the window doubling each round), so the work is O(n log n +
    rows × probes) instead of O(n²). A row stops once the next start is more
    than ``reach`` past its end: partners farther than that are reported as
    none. Returns (partner position in the arrays, or −1; gap ``a1[j] − a2[r]``).
    """
    m = a1.size
    order = np.argsort(a1, kind="stable")
    sa1, so1, so2 = a1[order], o1[order], o2[order]
    ra1, rlead = a1[rows], lead[rows]
    first = np.where(rlead > ra1, np.searchsorted(sa1, rlead, side="left"), np.searchsorted(sa1, ra1, side="right"))
    part = np.full(rows.size, -1)
    todo = (first < m).nonzero()[0]
    pos = first[todo]
    while todo.size:
        step = np.arange(window)
        cand = pos[:, None] + step[None, :]
        inside = cand < m
        cand = np.minimum(cand, m - 1)
        r = rows[todo]
        ok = inside & ((np.minimum(o2[r, None], so2[cand]) - np.maximum(o1[r, None], so1[cand])) > 0)
        hit = ok.any(axis=1)
        at = np.argmax(ok, axis=1)
        part[todo[hit]] = order[cand[hit, at[hit]]]
        go = ~hit & (pos + window < m)
        todo, pos = todo[go], pos[go] + window
        if reach < np.inf and todo.size:
            near = sa1[pos] - a2[rows[todo]] <= reach
            todo, pos = todo[near], pos[near]
        window *= 2
    gap = np.full(rows.size, np.inf)
    has = part >= 0
    gap[has] = a1[part[has]] - a2[rows[has]]
    return part, gap


def strip_pair_blocks(lo_x: np.ndarray, hi_x: np.ndarray, lo_y: np.ndarray, hi_y: np.ndarray,
                      where: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
                      ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Index pairs whose rectangles ``[lo_x, hi_x] × [lo_y, hi_y]`` may overlap (a superset; each pair once).

    The page is cut into about √n horizontal strips; each rectangle is listed
    in every strip it touches, and one sort-and-sweep over x within strips
    (``candidate_pair_blocks`` on x offset by strip) pairs the rectangles sharing a
    strip. A pair is kept in the first strip both touch only. Unlike a sweep
    over one axis, columns or rows of elements do not pair up wholesale.

    The pairs come in blocks, each filtered by ``where`` (element pairs → mask)
    as it is made, so memory follows the pairs kept, not the candidates.
    """
    m = lo_x.size
    y0 = float(lo_y.min())
    ns = max(1, int(np.sqrt(m)))
    size = max((float(hi_y.max()) - y0) / ns, 1e-9)
    s0 = np.minimum((np.maximum(lo_y - y0, 0.0) / size).astype(np.intp), ns - 1)
    s1 = np.minimum((np.maximum(hi_y - y0, 0.0) / size).astype(np.intp), ns - 1)
    counts = s1 - s0 + 1
    elem = np.repeat(np.arange(m), counts)
    strip = s0[elem] + (np.arange(elem.size) - np.repeat(np.cumsum(counts) - counts, counts))
    x0 = float(lo_x.min())
    span = float(hi_x.max()) - x0
    off = 2.0 * span + 1.0  # strips apart on the offset axis; rounding cannot bring them together

    def keep(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        first = strip[a] == np.maximum(s0[elem[a]], s0[elem[b]])
        return first if where is None else first & where(elem[a], elem[b])

    for a, b in candidate_pair_blocks(strip * off + (lo_x[elem] - x0), strip * off + (hi_x[elem] - x0), where=keep):
        yield elem[a], elem[b]


def box_distance(la: LayoutArrays, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Euclidean gap between boxes ``a`` and ``b`` (1-d pairs; 0 when they touch or overlap).

    A leaf whose ink is only part of its box (``LayoutArrays.inky``) is measured
    by its ink boxes (``ink_gaps``).
    """
    dx = np.maximum(np.maximum(la.x1[b] - la.x2[a], la.x1[a] - la.x2[b]), 0.0)
    dy = np.maximum(np.maximum(la.y1[b] - la.y2[a], la.y1[a] - la.y2[b]), 0.0)
    d = np.hypot(dx, dy)
    for k in la.inky:
        for this, other in ((a, b), (b, a)):
            sel = (this == k).nonzero()[0]
            if sel.size:
                d[sel] = ink_gaps(la, other[sel], k)
    return d


def ink_gaps(la: LayoutArrays, leaves: np.ndarray, k: int) -> np.ndarray:
    """Gap between the box of each of ``leaves`` and the nearest ink box of leaf ``k`` (``Element.ink``)."""
    p = la.ink_edges(k)
    x1, x2, y1, y2 = la.x1[leaves][:, None], la.x2[leaves][:, None], la.y1[leaves][:, None], la.y2[leaves][:, None]
    dx = np.maximum(np.maximum(p[:, 0] - x2, x1 - p[:, 2]), 0.0)
    dy = np.maximum(np.maximum(p[:, 1] - y2, y1 - p[:, 3]), 0.0)
    return np.hypot(dx, dy).min(axis=1)


_NO_INK = (np.zeros(0, dtype=np.int64), np.zeros((0, 4)))


def ink_table(la: LayoutArrays) -> tuple[np.ndarray, np.ndarray]:
    """The ink boxes of all leaves as one table, for the compiled kernels: ``(offsets, boxes)``.

    Leaf ``i``'s ink boxes (``ink_edges``, rows ``x1, y1, x2, y2``) are rows
    ``offsets[i]:offsets[i + 1]`` of ``boxes``; a leaf without ink
    (not in ``inky``) has none. Both are empty when no leaf has ink.
    """
    if not la.inky:
        return _NO_INK
    counts = np.zeros(la.n + 1, dtype=np.int64)
    parts = []
    for k in la.inky:
        e = la.ink_edges(k).reshape(-1, 4)
        counts[k + 1] = e.shape[0]
        parts.append(e)
    return np.cumsum(counts), np.ascontiguousarray(np.concatenate(parts), dtype=float)


Relation = Callable[[LayoutArrays, np.ndarray, np.ndarray], np.ndarray]


def _first_per_row(rows: np.ndarray, d: np.ndarray, cols: np.ndarray, m: int,
                   order: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the smallest ``d`` and its column; ties go to the smallest ``order`` (default: the earliest pair)."""
    best = np.full(m, np.inf)
    part = np.full(m, -1)
    if rows.size:
        np.minimum.at(best, rows, d)
        tie = (d == best[rows]).nonzero()[0]
        if order is not None:
            # the earliest pair among the ties of smallest order
            o = order[tie]
            low = np.full(m, np.iinfo(np.intp).max)
            np.minimum.at(low, rows[tie], o)
            tie = tie[o == low[rows[tie]]]
        at = np.full(m, rows.size)
        np.minimum.at(at, rows[tie], tie)
        has = at < rows.size
        part[has] = cols[at[has]]
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
        # a single brute-force block is cheaper than sweeping
        d_rel, d_un = np.full(m, np.inf), np.full(m, np.inf)
        p_rel, p_un = np.full(m, -1), np.full(m, -1)
        todo = np.arange(m) if need is None else need.nonzero()[0]
        return _brute_split(la, idx, related, todo, d_rel, p_rel, d_un, p_un)
    lo_x, hi_x, lo_y, hi_y = la.x1[idx] - h, la.x2[idx] + h, la.y1[idx] - h, la.y2[idx] + h

    def near(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
        ia, ib = idx[pa], idx[pb]
        return ((np.minimum(la.x2[ia], la.x2[ib]) - np.maximum(la.x1[ia], la.x1[ib])) >= -radius) & (
            (np.minimum(la.y2[ia], la.y2[ib]) - np.maximum(la.y1[ia], la.y1[ib])) >= -radius)

    # ties go to the partner first in left-edge order after the element, then first before it
    rank = np.empty(m, dtype=np.intp)
    rank[np.argsort(lo_x, kind="stable")] = np.arange(m)
    d_rel, p_rel, t_rel = np.full(m, np.inf), np.full(m, -1), np.full(m, np.iinfo(np.intp).max)
    d_un, p_un, t_un = d_rel.copy(), p_rel.copy(), t_rel.copy()
    found = 0
    for pa, pb in strip_pair_blocks(lo_x, hi_x, lo_y, hi_y, where=near):
        found += pa.size
        if found > DENSE_SHARE * m * m:
            # so crowded that nearly everything is near everything: brute force is cheaper than sorting pairs
            d_rel[:], p_rel[:], d_un[:], p_un[:] = np.inf, -1, np.inf, -1
            break
        rows = np.concatenate([pa, pb])
        cols = np.concatenate([pb, pa])
        d = box_distance(la, idx[rows], idx[cols])
        rel = related(la, idx[rows], idx[cols])
        tie = rank[cols] + m * (rank[cols] < rank[rows])
        for sel, best_d, best_p, best_t in ((rel, d_rel, p_rel, t_rel), (~rel, d_un, p_un, t_un)):
            _merge_best(rows[sel], d[sel], cols[sel], tie[sel], best_d, best_p, best_t)
    unsure = (d_rel > radius) | (d_un > radius)
    todo = (unsure if need is None else unsure & need).nonzero()[0]
    return _brute_split(la, idx, related, todo, d_rel, p_rel, d_un, p_un)


def _merge_best(rows: np.ndarray, d: np.ndarray, cols: np.ndarray, tie: np.ndarray, best_d: np.ndarray,
                best_p: np.ndarray, best_t: np.ndarray) -> None:
    """Fold one block of pairs into the best partner per row so far (smallest ``d``, then smallest ``tie``).

    ``tie`` names a partner uniquely for its row, so blocks may come in any order.
    """
    m = best_d.size
    cd, cp = _first_per_row(rows, d, cols, m, tie)
    has = cp >= 0
    if not has.any():
        return
    # the tie value of each row's chosen partner: the smallest tie among its pairs at distance cd
    ct = np.full(m, np.iinfo(np.intp).max)
    at = (d == cd[rows]).nonzero()[0]
    np.minimum.at(ct, rows[at], tie[at])
    better = has & ((cd < best_d) | ((cd == best_d) & (ct < best_t)))
    best_d[better], best_p[better], best_t[better] = cd[better], cp[better], ct[better]


def _brute_split(la: LayoutArrays, idx: np.ndarray, related: Relation, todo: np.ndarray, d_rel: np.ndarray,
                 p_rel: np.ndarray, d_un: np.ndarray, p_un: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Exact nearest related / unrelated partners of the rows ``todo`` (blocks of all pairs); finish the result."""
    x1, x2, y1, y2 = la.x1[idx], la.x2[idx], la.y1[idx], la.y2[idx]
    for sl in blocks(todo.size, max(1, min(BLOCK, BLOCK_CELLS // max(idx.size, 1)))):
        r = todo[sl]
        ar = np.arange(r.size)
        # box gaps as ``box_distance``: per axis the larger of the two one-sided gaps, at least 0
        dx = np.maximum(np.maximum(x1 - x2[r, None], x1[r, None] - x2), 0.0)
        dy = np.maximum(np.maximum(y1 - y2[r, None], y1[r, None] - y2), 0.0)
        dd = np.hypot(dx, dy)
        for k in la.inky:  # text on a path: measured by its ink, not by the path's box
            c = (idx == k).nonzero()[0]
            if c.size:
                g = ink_gaps(la, idx, k)
                dd[:, c[0]] = g[r]
                dd[(r == c[0]).nonzero()[0], :] = g
        dd[ar, r] = np.inf  # never the element itself
        rl = related(la, idx[r][:, None], idx[None, :])
        dr = np.where(rl, dd, np.inf)
        du = np.where(rl, np.inf, dd)
        kr, ku = dr.argmin(axis=1), du.argmin(axis=1)
        d_rel[r], p_rel[r] = dr[ar, kr], kr
        d_un[r], p_un[r] = du[ar, ku], ku
    p_rel = np.where(np.isfinite(d_rel), idx[np.maximum(p_rel, 0)], -1)
    p_un = np.where(np.isfinite(d_un), idx[np.maximum(p_un, 0)], -1)
    return d_rel, p_rel, d_un, p_un
