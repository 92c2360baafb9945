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


@pytest.mark.parametrize("chunk", [1, 7, 500])
def test_filtered_pairs_built_in_blocks_are_the_pairs_filtered_at_once(chunk: int) -> None:
    rng = np.random.default_rng(chunk)
    lo = rng.uniform(0, 100, 300)
    hi = lo + rng.uniform(0, 30, 300)
    tag = rng.integers(0, 3, 300)

    def same_tag(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return tag[a] == tag[b]

    a, b = candidate_pairs(lo, hi)
    keep = same_tag(a, b)
    ca, cb = candidate_pairs(lo, hi, where=same_tag, chunk=chunk)
    assert ca.tolist() == a[keep].tolist() and cb.tolist() == b[keep].tolist()


@pytest.mark.parametrize("n,seed,size", [(300, 0, 60.0), (300, 2, 900.0)])
def test_nearest_split_in_small_blocks_gives_the_same_partners(monkeypatch: pytest.MonkeyPatch, n: int, seed: int,
                                                               size: float) -> None:
    """A dense page is searched block by block (bounded memory): the answer must not depend on the blocks."""
    from assistant.metrics import context

    la = LayoutArrays(random_layout(n, seed, size=size))
    idx = np.arange(la.n)
    whole = nearest_split(la, idx, related, radius=30.0)
    monkeypatch.setattr(context, "PAIR_CHUNK", 50)
    blocked = nearest_split(la, idx, related, radius=30.0)
    for w, b in zip(whole, blocked):
        assert w.tolist() == b.tolist()


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


def grid_layout(rows: int, cols: int) -> Layout:
    """Equal cells on a regular grid: many exact ties between candidate partners."""
    els = [Element(id=f"c{r}-{c}", kind="text", role=("title", "body", "caption")[(r + c) % 3],
                   box=Box(x=10.0 + 100.0 * c, y=10.0 + 60.0 * r, width=80.0 + 30.0 * (c % 2), height=40.0))
           for r in range(rows) for c in range(cols)]
    els.append(Element(id="wide", kind="shape", role="decoration", box=Box(x=0, y=0, width=1000, height=5)))
    return Layout(canvas=Canvas(width=1000, height=1000), elements=els)


@pytest.mark.parametrize("make", [lambda: random_layout(40, 7), lambda: grid_layout(5, 6)])
def test_stacked_tiny_search_equals_the_scan_per_axis(make) -> None:
    from assistant.metrics.neighbours import TINY, nearest_beyond_both

    la = LayoutArrays(make())
    idx = np.arange(la.n)[::-1].copy()  # any order of indices
    assert idx.size <= TINY
    both = nearest_beyond_both(la, idx, tol=1.0)
    for (part, gap), vertical in zip(both, (True, False)):
        want_part, want_gap = nearest_beyond(la, idx, vertical, tol=1.0)
        assert part.tolist() == want_part.tolist()
        assert gap.tolist() == want_gap.tolist()


def test_nearest_beyond_ties_go_to_the_smallest_index_and_reach_only_drops_far_partners() -> None:
    la = LayoutArrays(grid_layout(6, 7))
    idx = np.arange(la.n)
    part, gap = nearest_beyond(la, idx, True, tol=1.0)
    wide = la.ids.index("wide")
    # the full-width strip at the top: every cell of the first row starts 5 below it; the first one wins
    assert la.ids[part[wide]] == "c0-0" and gap[wide] == pytest.approx(5.0)
    near_part, near_gap = nearest_beyond(la, idx, True, tol=1.0, reach=10.0)
    close = gap <= 10.0
    assert near_part[close].tolist() == part[close].tolist()
    assert (near_part[~close] == -1).all() or (near_gap[~close] > 10.0).all()


def test_reading_order_all_pairs_path_equals_the_sorted_count_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.metrics import reading_order as ro

    layout = random_layout(60, 3)
    direct = ro.reading_order(LayoutArrays(layout))
    monkeypatch.setattr(ro, "DIRECT", 0)
    sorted_counts = ro.reading_order(LayoutArrays(layout))
    assert direct.score == sorted_counts.score
    assert direct.model_dump() == sorted_counts.model_dump()
