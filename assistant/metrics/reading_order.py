"""Reading order: role precedence against a Z/F scan of the page.

Definition. Roles have a precedence: title (0) → subtitle (1) → body (2) →
cta (3). The scan position of an element follows a Z/F reading pattern: top
to bottom first, left to right within a band, ``key = y_top / H + 0.25 ·
x_left / W`` (a quarter of the width across weighs like 6 % of the height
down). Over all pairs of elements with different precedence, the metric is a
weighted Kendall concordance (Kendall's τ rescaled to [0, 1]): a pair is
concordant when the higher-precedence element is scanned first, ties count
half. Pairs involving the title or a call to action weigh 1; subtitle–body
pairs weigh 0.3, since a page with several sections legitimately has
section headings (subtitles) below earlier sections' text. The
pair counts come from sorting and ``searchsorted`` per pair of levels
(O(n log n)), not from comparing every pair. Elements: visible leaves with
one of those roles.
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import ROLE_CODES, LayoutArrays
from assistant.metrics.report import Finding, MetricResult, severity_for

NAME = "reading_order"
ORDER = ("title", "subtitle", "body", "cta")
X_WEIGHT = 0.25
MAX_FINDINGS = 10
_REGION = {"title": "top_band", "subtitle": "top_band", "cta": "bottom"}
#: up to this many ranked elements all pairs are compared at once (fewer numpy calls than a sort per level pair)
DIRECT = 64
#: role code → precedence level (-1: not ranked)
_LEVEL = np.full(len(ROLE_CODES), -1)
_LEVEL[[ROLE_CODES[r] for r in ORDER]] = np.arange(len(ORDER))
#: pair weight by (earlier level, later level); 0 unless the first precedes the second
_PAIR_W = np.triu(np.ones((len(ORDER), len(ORDER))), 1)
_PAIR_W[ORDER.index("subtitle"), ORDER.index("body")] = 0.3


def scan_key(la: LayoutArrays, idx: np.ndarray | slice) -> np.ndarray:
    c = la.canvas
    return (la.y1[idx] - c.y) / c.height + X_WEIGHT * (la.x1[idx] - c.x) / c.width


def _direct(la: LayoutArrays, idx: np.ndarray, lv: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray]:
    """(total weight, discordant weight, late, early) from all pairs at once.

    The per-level counts are exact (sums of halves), and they are combined
    level by level in the same order as the sorted-count loop, so the floats
    come out identical.
    """
    key = scan_key(la, idx)
    # c[i, j]: 1 when j is scanned before i, ½ on a tie
    c = (key[None, :] < key[:, None]) + 0.5 * (key[None, :] == key[:, None])
    nl = len(ORDER)
    onehot = (lv[:, None] == np.arange(nl)[None, :]).astype(float)
    cnt = onehot.sum(axis=0)
    before = c @ onehot  # [i, q]: level-q elements scanned before i
    after = c.T @ onehot  # [j, p]: level-p elements scanned after j
    block = onehot.T @ before  # [p, q]: discordant count between levels p and q
    w = _PAIR_W[lv]  # [i, q]: weight when i's level precedes q
    wt = _PAIR_W[:, lv].T  # [j, p]: weight when p precedes j's level
    safe = np.where(cnt > 0, cnt, 1.0)
    late_t = w * before / safe
    early_t = wt * after / safe
    late = np.zeros(la.n)
    early = np.zeros(la.n)
    li, ei = np.zeros(idx.size), np.zeros(idx.size)
    for q in range(nl):
        li += late_t[:, q]
        ei += early_t[:, q]
    late[idx], early[idx] = li, ei
    total = bad = 0.0
    n = cnt.tolist()
    for p in range(nl):
        for q in range(p + 1, nl):
            if n[p] and n[q]:
                pw = float(_PAIR_W[p, q])
                total += pw * n[p] * n[q]
                bad += pw * float(block[p, q])
    return total, bad, late, early


def reading_order(la: LayoutArrays) -> MetricResult:
    """Weighted Kendall concordance of role precedence and Z/F scan order (see module docstring)."""
    lv_all = np.where(la.visible, _LEVEL[la.role], -1)
    ranked = (lv_all >= 0).nonzero()[0]
    if ranked.size <= DIRECT:
        lv = lv_all[ranked]
        if lv.size < 2 or (lv == lv[0]).all():
            return MetricResult(name=NAME, score=1.0, applicable=False)
        total, bad, late, early = _direct(la, ranked, lv)
        return _result(la, total, bad, late, early)
    levels = []
    vis_role = np.where(la.visible, la.role, -1)
    keys = None
    for p, role in enumerate(ORDER):
        idx = (vis_role == ROLE_CODES[role]).nonzero()[0]
        if idx.size:
            if keys is None:
                keys = scan_key(la, slice(None))
            key = keys[idx]
            levels.append((p, role, idx, key, np.sort(key)))
    if len(levels) < 2:
        return MetricResult(name=NAME, score=1.0, applicable=False)
    total = 0.0
    bad = 0.0
    late = np.zeros(la.n)  # weighted share of pairs in which an element is read after what should follow it
    early = np.zeros(la.n)  # ... or before what should precede it
    for a in range(len(levels)):
        pa, ra, ia, ka, sa = levels[a]
        for b in range(a + 1, len(levels)):
            pb, rb, ib, kb, sb = levels[b]
            w = 0.3 if (ra, rb) == ("subtitle", "body") else 1.0
            # for each earlier-precedence element: how many later-precedence elements are scanned before it
            lo, hi = np.searchsorted(sb, ka, side="left"), np.searchsorted(sb, ka, side="right")
            disc = lo + 0.5 * (hi - lo)
            total += w * ia.size * ib.size
            bad += w * float(disc.sum())
            late[ia] += w * disc / ib.size  # ia holds distinct indices
            lo, hi = np.searchsorted(sa, kb, side="left"), np.searchsorted(sa, kb, side="right")
            early[ib] += w * ((sa.size - hi) + 0.5 * (hi - lo)) / ia.size
    return _result(la, total, bad, late, early)


def _result(la: LayoutArrays, total: float, bad: float, late: np.ndarray, early: np.ndarray) -> MetricResult:
    score = 1.0 - bad / total if total else 1.0
    findings = []
    offence = np.maximum(late, early)
    worst = (offence > 0).nonzero()[0]
    for e in worst[np.argsort(-offence[worst], kind="stable")][:MAX_FINDINGS]:
        e = int(e)
        role = la.roles[e]
        region = _REGION.get(role)
        sugg = None if la.locked[e] or region is None else {
            "type": "anchor_to_region", "ids": [la.ids[e]], "region": region}
        what = "after elements that should follow it" if late[e] >= early[e] else "before elements that should precede it"
        findings.append(Finding(
            metric=NAME, element_ids=[la.ids[e]],
            message=f"{la.name(e)} is read {what} (top-to-bottom, left-to-right scan)",
            severity=severity_for(float(offence[e]), medium=0.5, high=1.0), suggestion=sugg,
            impact=float(offence[e])))
    return MetricResult(name=NAME, score=float(score), findings=findings)
