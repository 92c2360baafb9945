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


def scan_key(la: LayoutArrays, idx: np.ndarray) -> np.ndarray:
    c = la.canvas
    return (la.y1[idx] - c.y) / c.height + X_WEIGHT * (la.x1[idx] - c.x) / c.width


def reading_order(la: LayoutArrays) -> MetricResult:
    """Weighted Kendall concordance of role precedence and Z/F scan order (see module docstring)."""
    levels = []
    for p, role in enumerate(ORDER):
        idx = np.nonzero(la.visible & (la.role == ROLE_CODES[role]))[0]
        if idx.size:
            key = scan_key(la, idx)
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
            np.add.at(late, ia, w * disc / ib.size)
            lo, hi = np.searchsorted(sa, kb, side="left"), np.searchsorted(sa, kb, side="right")
            np.add.at(early, ib, w * ((sa.size - hi) + 0.5 * (hi - lo)) / ia.size)
    score = 1.0 - bad / total if total else 1.0
    findings = []
    offence = np.maximum(late, early)
    worst = np.nonzero(offence > 0)[0]
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
