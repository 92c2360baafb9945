"""Spacing rhythm: consistency of the gaps between stacked neighbours.

Definition. Each element is linked to its nearest neighbour below that
overlaps it horizontally (a vertical stack) and to its nearest neighbour to
the right that overlaps it vertically (a row), when the gap is at most 8 % of
the canvas short side (farther elements are separate regions, not
neighbours). Links are grouped by axis and by the roles at both ends
(heading → body, body → body, image → caption, …): a rhythm means that the
same kind of neighbours sit the same distance apart, while different kinds
may differ (a heading hugs its paragraph; paragraphs are spaced wider).
Within each group of at least two links the consistency is judged by the
coefficient of variation of the gaps ``CV = std / mean`` (O'Donovan et al.
2014 and Ngo et al. 2003 both reward regular spacing; a 0.5 % of the short
side softening in the mean keeps touching elements stable); a group scores
``max(0, 1 − CV)`` and the metric is the link-count-weighted mean. With no
such group there is nothing to judge. Elements: visible, non-background,
non-decoration leaves (bullets and rules are not part of the text rhythm).
Findings name the gap furthest from its group's median and suggest the exact
``move`` that restores it (of the element and the rest of its column or row,
so that no other gap changes). The numeric part is ``uneven_links`` (numpy),
or its compiled kernel up to 256 leaves.
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import LayoutArrays
from assistant.metrics.neighbours import nearest_beyond_stacked
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "spacing"
CV_REPORT = 0.25
REACH = 0.08
MAX_FINDINGS = 10
#: links overlap on the other axis and may start up to this share of the short side before the element's end
TOL = 0.002
#: the softening added to a group's mean gap, as a share of the short side
SOFT = 0.005

#: a reported kind of link: (a, b, gap, median, vertical, cv, count, rest) — see ``uneven_links``
Uneven = tuple[int, int, float, float, bool, float, int, list[int]]


def _rest_of_stack(la: LayoutArrays, idx: np.ndarray, b: int, vertical: bool) -> np.ndarray:
    """``b`` and the elements after it in its column (or row): moving them together changes one gap only."""
    if vertical:
        after = (la.y1[idx] >= la.y1[b]) & (np.minimum(la.x2[idx], la.x2[b]) - np.maximum(la.x1[idx], la.x1[b]) > 0)
    else:
        after = (la.x1[idx] >= la.x1[b]) & (np.minimum(la.y2[idx], la.y2[b]) - np.maximum(la.y1[idx], la.y1[b]) > 0)
    return idx[after]


def uneven_links(la: LayoutArrays, idx: np.ndarray) -> tuple[float, float, list[Uneven]] | None:
    """The numeric part of ``spacing`` (numpy; ``idx`` at least three elements).

    Returns ``None`` when no kind of link has two links (nothing to judge),
    else ``(score, links, worst)``: the score, the number of links in kinds
    of two or more, and the kinds whose CV exceeds ``CV_REPORT``, most uneven
    first (at most ``MAX_FINDINGS``), each as ``(a, b, gap, median, vertical,
    cv, count, rest)``: the link furthest from its kind's median gap (leaf
    ``a`` to leaf ``b``, its gap), the kind's axis, CV and number of links,
    and ``rest`` the leaves that move with ``b`` (``b`` and the rest of its
    column or row). The compiled kernel ``_native.spacing`` returns the same
    (it compares all pairs for the nearest neighbours, with the same ties).
    """
    m = idx.size
    tol = TOL * la.short
    reach = REACH * la.short
    part, gap = nearest_beyond_stacked(la, idx, tol, reach)
    part, gap = part.ravel(), gap.ravel()  # vertical links first, then horizontal
    sel = (gap <= reach).nonzero()[0]  # no partner: gap inf
    if sel.size < 2:
        return None
    src, dst = np.concatenate((idx, idx))[sel], part[sel]
    g = np.maximum(gap[sel], 0.0)
    role = la.role
    key = (sel >= m) * 100 + role[src] * 10 + role[dst]
    # link kinds: key = axis · 100 + role codes (< 200); bincount over the keys keeps the groups in key order
    per_key = np.bincount(key)
    uniq = per_key.nonzero()[0]
    slot = np.zeros(per_key.size, dtype=np.intp)
    slot[uniq] = np.arange(uniq.size)
    grp = slot[key]
    cnt = per_key[uniq]
    multi = cnt >= 2
    if not multi.any():
        return None
    s1 = np.bincount(grp, weights=g)
    s2 = np.bincount(grp, weights=g * g)
    mean = s1 / cnt
    cv = np.sqrt(np.maximum(s2 / cnt - mean * mean, 0.0)) / (mean + SOFT * la.short)
    per = np.maximum(0.0, 1.0 - cv)
    cnt_multi = float(cnt[multi].sum())
    score = float((cnt * per)[multi].sum() / cnt_multi)
    worst: list[Uneven] = []
    bad = (multi & (cv > CV_REPORT)).nonzero()[0]
    for c in bad[np.argsort(-cv[bad], kind="stable")][:MAX_FINDINGS].tolist():
        links = (grp == c).nonzero()[0]
        gl = g[links]
        med = float(np.sort(gl)[(gl.size - 1) // 2])
        k = int(links[np.argmax(np.abs(gl - med))])
        b = int(dst[k])
        vertical = bool(uniq[c] < 100)
        worst.append((int(src[k]), b, float(g[k]), med, vertical, float(cv[c]), int(cnt[c]),
                      _rest_of_stack(la, idx, b, vertical).tolist()))
    return score, cnt_multi, worst


def spacing(la: LayoutArrays) -> MetricResult:
    """Gap consistency per kind of neighbour pair (see module docstring)."""
    idx = la.unit_nodeco_idx
    if idx.size < 3:
        return metric_result(name=NAME, score=1.0, applicable=False)
    if la.native is not None:
        short = la.short
        res = la.native.spacing(la.edges6, la.role, idx, TOL * short, REACH * short, SOFT * short, CV_REPORT,
                                MAX_FINDINGS)
    else:
        res = uneven_links(la, idx)
    if res is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    score, links, worst = res
    findings: list[Finding] = []
    if not worst:
        return metric_result(name=NAME, score=score, findings=findings)
    ids, names, locked = la.ids, la.name, la.locked
    for a, b, gk, med, vertical, cvc, count, rest in worst:
        delta = med - gk
        axis = "vertical" if vertical else "horizontal"
        sugg = None if any(locked[i] for i in rest) else {"type": "move", "ids": [ids[i] for i in rest],
                                                          "dx": 0.0 if vertical else round(delta, 3),
                                                          "dy": round(delta, 3) if vertical else 0.0}
        findings.append(finding(
            metric=NAME, element_ids=[ids[a], ids[b]],
            message=(f"uneven {axis} rhythm: {names(a)} and {names(b)} are {la.px(gk):.1f} px apart "
                     f"where the same kind of neighbours use about {la.px(med):.1f} px (CV {cvc:.2f})"),
            severity=severity_for(cvc, medium=0.5, high=1.0), suggestion=sugg,
            impact=min(cvc, 1.0) * float(count) / links))
    return metric_result(name=NAME, score=score, findings=findings)
