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
section headings (subtitles) below earlier sections' text. Elements:
visible leaves with one of those roles.

The numeric part is ``scan_offences`` (numpy): up to ``DIRECT`` ranked
elements the pair counts come from comparing all pairs in plain Python,
beyond from sorting and ``searchsorted`` per pair of levels (O(n log n));
both give the same floats. On layouts of at most 256 leaves the compiled
kernel ``_native.reading_order`` computes the same from one sort of the scan
keys (see ``native_core``). Findings name the most offending elements.
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import ROLE_CODES, LayoutArrays
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "reading_order"
ORDER = ("title", "subtitle", "body", "cta")
X_WEIGHT = 0.25
MAX_FINDINGS = 10
_REGION = {"title": "top_band", "subtitle": "top_band", "cta": "bottom"}
#: up to this many ranked elements all pairs are compared at once in plain Python (cheaper than a sort per level pair)
DIRECT = 48
#: role code → precedence level (-1: not ranked)
_LEVEL = np.full(len(ROLE_CODES), -1)
_LEVEL[[ROLE_CODES[r] for r in ORDER]] = np.arange(len(ORDER))
#: pair weight by (earlier level, later level); 0 unless the first precedes the second
_PAIR_W = np.triu(np.ones((len(ORDER), len(ORDER))), 1)
_PAIR_W[ORDER.index("subtitle"), ORDER.index("body")] = 0.3
_PAIR_W_L: list[list[float]] = _PAIR_W.tolist()


def scan_key(la: LayoutArrays, idx: np.ndarray | slice) -> np.ndarray:
    """Reading position of each element: top edge plus ``X_WEIGHT`` × left edge, in canvas fractions."""
    c = la.canvas
    return (la.y1[idx] - c.y) / c.height + X_WEIGHT * (la.x1[idx] - c.x) / c.width


def _direct(la: LayoutArrays, idx: np.ndarray, lv: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray]:
    """(total weight, discordant weight, late, early) from all pairs at once, in plain Python (few elements).

    The per-level counts are exact (sums of halves), and they are combined
    level by level in the same order as the sorted-count loop, so the floats
    come out identical.
    """
    key = scan_key(la, idx).tolist()
    lvl = lv.tolist()
    m, nl = len(key), len(ORDER)
    cnt = [0] * nl
    for p in lvl:
        cnt[p] += 1
    before = [[0.0] * nl for _ in range(m)]  # [i][q]: level-q elements scanned before i (ties count ½)
    after = [[0.0] * nl for _ in range(m)]  # [j][p]: level-p elements scanned after j
    for i, ki in enumerate(key):
        bi, li = before[i], lvl[i]
        for j, kj in enumerate(key):
            if kj < ki:
                bi[lvl[j]] += 1.0
                after[j][li] += 1.0
            elif kj == ki:
                bi[lvl[j]] += 0.5
                after[j][li] += 0.5
    safe = [float(c) if c else 1.0 for c in cnt]
    late_l, early_l = [], []
    for i in range(m):
        w, b, a = _PAIR_W_L[lvl[i]], before[i], after[i]
        lt = et = 0.0
        for q in range(nl):
            lt += w[q] * b[q] / safe[q]
            et += _PAIR_W_L[q][lvl[i]] * a[q] / safe[q]
        late_l.append(lt)
        early_l.append(et)
    late = np.zeros(la.n)
    early = np.zeros(la.n)
    late[idx], early[idx] = late_l, early_l
    total = bad = 0.0
    for p in range(nl):
        for q in range(p + 1, nl):
            if cnt[p] and cnt[q]:
                pw = _PAIR_W_L[p][q]
                total += pw * cnt[p] * cnt[q]
                bad += pw * sum(before[i][q] for i in range(m) if lvl[i] == p)
    return total, bad, late, early


def _sorted_counts(la: LayoutArrays, vis_role: np.ndarray
                   ) -> tuple[float, float, np.ndarray, np.ndarray] | None:
    """(total weight, discordant weight, late, early) from sorting and ``searchsorted`` per pair of levels.

    ``None`` when fewer than two levels are present.
    """
    levels = []
    keys = None
    for p, role in enumerate(ORDER):
        idx = (vis_role == ROLE_CODES[role]).nonzero()[0]
        if idx.size:
            if keys is None:
                keys = scan_key(la, slice(None))
            key = keys[idx]
            levels.append((p, idx, key, np.sort(key)))
    if len(levels) < 2:
        return None
    total = 0.0
    bad = 0.0
    late = np.zeros(la.n)  # weighted share of pairs in which an element is read after what should follow it
    early = np.zeros(la.n)  # ... or before what should precede it
    for a in range(len(levels)):
        pa, ia, ka, sa = levels[a]
        for b in range(a + 1, len(levels)):
            pb, ib, kb, sb = levels[b]
            w = _PAIR_W_L[pa][pb]
            # for each earlier-precedence element: how many later-precedence elements are scanned before it
            lo, hi = np.searchsorted(sb, ka, side="left"), np.searchsorted(sb, ka, side="right")
            disc = lo + 0.5 * (hi - lo)
            total += w * ia.size * ib.size
            bad += w * float(disc.sum())
            late[ia] += w * disc / ib.size  # ia holds distinct indices
            lo, hi = np.searchsorted(sa, kb, side="left"), np.searchsorted(sa, kb, side="right")
            early[ib] += w * ((sa.size - hi) + 0.5 * (hi - lo)) / ia.size
    return total, bad, late, early


def scan_offences(la: LayoutArrays, limit: int = MAX_FINDINGS
                  ) -> tuple[float, list[tuple[int, float, float, float]]] | None:
    """The numeric part of ``reading_order`` (numpy): ``None`` when fewer than two precedence levels are present.

    Returns ``(score, offenders)``: the score and the elements with a positive
    offence ``(leaf, offence, late, early)`` (``late``: the weighted share of
    pairs in which the element is read after what should follow it;
    ``early``: before what should precede it; the offence is the larger),
    most offending first, at most ``limit``. Up to ``DIRECT`` ranked elements
    the counts come from all pairs in plain Python, beyond from sorted counts
    per pair of levels; both give the same floats. The compiled kernel
    ``_native.reading_order`` returns the same.
    """
    lv_all = np.where(la.visible, _LEVEL[la.role], -1)
    ranked = (lv_all >= 0).nonzero()[0]
    if ranked.size <= DIRECT:
        lv = lv_all[ranked]
        if lv.size < 2 or not np.count_nonzero(lv != lv[0]):
            return None
        total, bad, late, early = _direct(la, ranked, lv)
    else:
        counted = _sorted_counts(la, np.where(la.visible, la.role, -1))
        if counted is None:
            return None
        total, bad, late, early = counted
    score = 1.0 - bad / total if total else 1.0
    offence = np.maximum(late, early)
    worst = (offence > 0).nonzero()[0]
    if worst.size == 0:
        return score, []
    worst = worst[np.argsort(-offence[worst], kind="stable")][:limit]
    return score, list(zip(worst.tolist(), offence[worst].tolist(), late[worst].tolist(), early[worst].tolist()))


def reading_order(la: LayoutArrays) -> MetricResult:
    """Weighted Kendall concordance of role precedence and Z/F scan order (see module docstring)."""
    if la.native is not None:
        c = la.canvas
        counted = la.native.reading_order(la.edges6, la.role, la.visible, _LEVEL, _PAIR_W, c.x, c.y, c.width,
                                          c.height, X_WEIGHT, MAX_FINDINGS)
    else:
        counted = scan_offences(la)
    if counted is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    score, worst = counted
    findings: list[Finding] = []
    for e, off, lt, er in worst:
        region = _REGION.get(la.roles[e])
        sugg = (None if region is None or la.locked[e]
                else {"type": "anchor_to_region", "ids": [la.ids[e]], "region": region})
        what = "after elements that should follow it" if lt >= er else "before elements that should precede it"
        findings.append(finding(
            metric=NAME, element_ids=[la.ids[e]],
            message=f"{la.name(e)} is read {what} (top-to-bottom, left-to-right scan)",
            severity=severity_for(off, medium=0.5, high=1.0), suggestion=sugg, impact=off))
    return metric_result(name=NAME, score=float(score), findings=findings)
