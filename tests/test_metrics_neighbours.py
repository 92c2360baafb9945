"""The sweep/probe neighbour searches agree with brute force."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.document import Canvas, Element, Layout
from assistant.geometry import Box
from assistant.metrics.context import LayoutArrays, candidate_pairs
from assistant.metrics.grouping import related
from assistant.metrics.neighbours import box_distance, nearest_beyond, nearest_split


def random_layout(n: int, seed: int, size: float = 200.0) -> Layout:
    rng = np.random.default_rng(seed)
    roles = ["title", "subtitle", "body", "caption", "image", "logo"]
    els = []
    for i in range(n):
        w, h = rng.uniform(1, size, 2)
        x, y = rng.uniform(0, 1000 - w), rng.uniform(0, 1000 - h)
        els.append(Element(id=f"e{i}", kind="text", role=roles[i % len(roles)],
                           box=Box(x=float(x), y=float(y), width=float(w), height=float(h)),
                           group=f"g{i % 7}" if i % 3 == 0 else None))
    return Layout(canvas=Canvas(width=1000, height=1000), elements=els)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_candidate_pairs_finds_every_overlapping_interval_pair(seed: int) -> None:
    rng = np.random.default_rng(seed)
    lo = rng.uniform(0, 100, 300)
    hi = lo + rng.uniform(0, 10, 300)
    a, b = candidate_pairs(lo, hi)
    got = {(min(i, j), max(i, j)) for i, j in zip(a.tolist(), b.tolist())}
    want = {(i, j) for i in range(300) for j in range(i + 1, 300) if lo[j] <= hi[i] and lo[i] <= hi[j]}
    assert got == want


@pytest.mark.parametrize("n,seed,vertical", [(400, 0, True), (400, 1, False), (50, 2, True), (50, 3, False),
                                             (400, 4, True)])
def test_nearest_beyond_matches_brute_force(n: int, seed: int, vertical: bool) -> None:
    la = LayoutArrays(random_layout(n, seed, size=120.0 if seed < 4 else 900.0))
    idx = np.arange(la.n)
    part, gap = nearest_beyond(la, idx, vertical, tol=1.0)
    a1, a2, o1, o2 = (la.y1, la.y2, la.x1, la.x2) if vertical else (la.x1, la.x2, la.y1, la.y2)
    for i in range(la.n):
        ok = [(a1[j] - a2[i], j) for j in range(la.n) if j != i and min(o2[i], o2[j]) - max(o1[i], o1[j]) > 0
              and a1[j] > a1[i] and a1[j] >= a2[i] - 1.0]
        if not ok:
            assert part[i] == -1 and np.isinf(gap[i])
        else:
            assert gap[i] == pytest.approx(min(ok)[0])


@pytest.mark.parametrize("n,seed,size", [(300, 0, 60.0), (300, 5, 60.0), (60, 1, 60.0), (300, 2, 900.0)])
def test_nearest_split_matches_brute_force(n: int, seed: int, size: float) -> None:
    la = LayoutArrays(random_layout(n, seed, size=size))
    idx = np.arange(la.n)
    d_rel, p_rel, d_un, p_un = nearest_split(la, idx, related, radius=30.0)
    dist = box_distance(la, idx[:, None], idx[None, :])
    rel = related(la, idx[:, None], idx[None, :])
    np.fill_diagonal(dist, np.inf)
    want_rel = np.where(rel, dist, np.inf).min(axis=1)
    want_un = np.where(~rel, dist, np.inf).min(axis=1)
    assert np.allclose(d_rel, want_rel)
    assert np.allclose(d_un, want_un)
    fin = np.isfinite(d_rel)
    assert np.allclose(dist[idx[fin], p_rel[fin]], d_rel[fin])
