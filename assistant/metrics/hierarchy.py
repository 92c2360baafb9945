"""Hierarchy: visual prominence follows role importance.

Definitions.
- Type scale: text roles form levels title > subtitle > body > caption. For
  each pair of consecutive levels present, the median font size of the upper
  level must be at least 1.2× that of the lower one (the minor-third step of
  a modular type scale); penalty ``min(1, max(0, ln 1.2 − ln(ratio)) / ln 1.2)``
  (1 when equal or inverted), weighted by how much the pair matters:
  title/subtitle 1, subtitle/body 0.7, body/caption 0.3.
- Title first: the title (geometric mean of the title font sizes) must be the
  largest text, bold counting as 10 % larger; penalty
  ``min(2, ln(largest other / title) / ln 1.2)`` when it is not.
- Dominance (the importance-vs-size term of O'Donovan et al. 2014, where
  prominence should grow with importance): ``d = 1 − exp(−(ratio − 1))``
  for the ratio of the title size to the largest other text (0 when not
  larger, 0.63 at 2×, 0.86 at 3×): it keeps growing with dominance, so
  shrinking even a clearly dominant headline costs something.

Score ``0.5 · exp(−Σ penalties) + 0.5 · d``; with no title the dominance term
is left out. Elements: visible text leaves with a font size; not applicable
with fewer than two of them.
"""

from __future__ import annotations

import math

import numpy as np

from assistant.metrics.context import ROLE_CODES, LayoutArrays
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "hierarchy"
STEP = 1.2
LEVELS = ("title", "subtitle", "body", "caption")
PAIR_WEIGHT = {"title": 1.0, "subtitle": 0.7, "body": 0.3}
DOMINANCE_SCALE = 1.0
TARGET_DOMINANCE = 1.5


def _promote(la: LayoutArrays, i: int, factor: float) -> dict | None:
    if la.locked[i]:
        return None
    return {"type": "promote", "id": la.ids[i], "factor": round(float(factor), 4)}


def hierarchy(la: LayoutArrays) -> MetricResult:
    """Type-scale order, title-first and dominance (see module docstring)."""
    texts = (la.is_text & la.visible & (la.font > 0)).nonzero()[0]  # NaN (no size) is not > 0
    if texts.size < 2:
        return metric_result(name=NAME, score=1.0, applicable=False)
    size = la.font[texts]
    role = la.role[texts]
    findings: list[Finding] = []
    pens = 0.0
    # type scale between consecutive present levels: one sort by (level, size); LEVELS are role codes 0–3
    order = np.lexsort((size, role))
    s_size, s_text = size[order].tolist(), texts[order].tolist()
    counts = np.bincount(role, minlength=len(LEVELS))[:len(LEVELS)].tolist()
    present = []  # (level, first and past-last position in the sorted order, median size)
    start = 0
    for lv, c in zip(LEVELS, counts):
        if c:
            present.append((lv, start, start + c, (s_size[start + (c - 1) // 2] + s_size[start + c // 2]) / 2))
        start += c
    for (up, u0, u1, up_med), (lo, l0, l1, lo_med) in zip(present, present[1:]):
        ratio = up_med / lo_med
        p = PAIR_WEIGHT.get(up, 0.3) * min(1.0, max(0.0, math.log(STEP) - math.log(ratio)) / math.log(STEP))
        if p > 1e-9:
            pens += p
            weakest = s_text[u0]  # the smallest, first in document order on a tie
            up_ids, lo_ids = sorted(s_text[u0:u1])[:5], sorted(s_text[l0:l1])[:5]
            findings.append(finding(
                metric=NAME, element_ids=[la.ids[x] for x in up_ids] + [la.ids[x] for x in lo_ids],
                message=(f"{up} text (median {la.px(up_med):.1f} px) is only {ratio:.2f}× "
                         f"the {lo} text ({la.px(lo_med):.1f} px); a type scale wants ≥ {STEP}×"),
                severity=severity_for(p, medium=0.4, high=0.9), impact=p,
                suggestion=_promote(la, weakest, STEP * lo_med / float(la.font[weakest]))))
    d_term = None
    if 0 < counts[0] < texts.size:
        is_title = role == ROLE_CODES["title"]
        t_ids, t_size = texts[is_title], size[is_title]
        title = float(np.exp(np.add.reduce(np.log(t_size)) / t_size.size))  # the mean, as ndarray.mean sums it
        rest = ~is_title
        o_ids, o_raw = texts[rest], size[rest]
        o_size = o_raw * np.where(la.bold[o_ids], 1.1, 1.0)
        k = int(np.argmax(o_size))
        other = float(o_size[k])
        title_prom = title * (1.1 if np.count_nonzero(la.bold[t_ids]) == t_ids.size else 1.0)
        p = min(2.0, max(0.0, math.log(other / title_prom)) / math.log(STEP))
        head = int(t_ids[np.argmax(t_size)])
        if p > 1e-9:
            pens += p
            rival = int(o_ids[k])
            findings.append(finding(
                metric=NAME, element_ids=[la.ids[head], la.ids[rival]],
                message=f"the title is not the most prominent text: {la.name(rival)} is larger",
                severity=severity_for(p, medium=0.3, high=0.7), impact=p,
                suggestion=_promote(la, head, TARGET_DOMINANCE * other / float(la.font[head]))))
        ratio = title / float(o_raw.max())
        d_term = max(0.0, 1.0 - math.exp(-(ratio - 1.0) / DOMINANCE_SCALE))
        if 1.0 <= ratio < TARGET_DOMINANCE and not findings:
            findings.append(finding(
                metric=NAME, element_ids=[la.ids[head]],
                message=f"the title is only {ratio:.2f}× the next largest text; it reads weakly",
                severity="low", impact=1.0 - d_term,
                suggestion=_promote(la, head, TARGET_DOMINANCE / ratio)))
    base = math.exp(-pens)
    score = base if d_term is None else 0.5 * base + 0.5 * d_term
    return metric_result(name=NAME, score=float(score), findings=findings)
