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
from assistant.metrics.report import Finding, MetricResult, severity_for

NAME = "hierarchy"
STEP = 1.2
LEVELS = ("title", "subtitle", "body", "caption")
PAIR_WEIGHT = {"title": 1.0, "subtitle": 0.7, "body": 0.3}
DOMINANCE_SCALE = 1.0
TARGET_DOMINANCE = 1.5


def _median(a: np.ndarray) -> float:
    s = np.sort(a)
    return float(s[(s.size - 1) // 2] + s[s.size // 2]) / 2


def _promote(la: LayoutArrays, i: int, factor: float) -> dict | None:
    if la.locked[i]:
        return None
    return {"type": "promote", "id": la.ids[i], "factor": round(float(factor), 4)}


def hierarchy(la: LayoutArrays) -> MetricResult:
    """Type-scale order, title-first and dominance (see module docstring)."""
    texts = (la.is_text & la.visible & ~np.isnan(la.font) & (la.font > 0)).nonzero()[0]
    if texts.size < 2:
        return MetricResult(name=NAME, score=1.0, applicable=False)
    size = la.font[texts]
    role = la.role[texts]
    findings: list[Finding] = []
    pens = 0.0
    # type scale between consecutive present levels
    present = [(lv, texts[role == ROLE_CODES[lv]], size[role == ROLE_CODES[lv]]) for lv in LEVELS]
    present = [p for p in present if p[1].size]
    for (up, up_ids, up_s), (lo, lo_ids, lo_s) in zip(present, present[1:]):
        ratio = _median(up_s) / _median(lo_s)
        p = PAIR_WEIGHT.get(up, 0.3) * min(1.0, max(0.0, math.log(STEP) - math.log(ratio)) / math.log(STEP))
        if p > 1e-9:
            pens += p
            weakest = int(up_ids[np.argmin(up_s)])
            findings.append(Finding(
                metric=NAME, element_ids=[la.ids[int(x)] for x in up_ids[:5]] + [la.ids[int(x)] for x in lo_ids[:5]],
                message=(f"{up} text (median {la.px(_median(up_s)):.1f} px) is only {ratio:.2f}× "
                         f"the {lo} text ({la.px(_median(lo_s)):.1f} px); a type scale wants ≥ {STEP}×"),
                severity=severity_for(p, medium=0.4, high=0.9), impact=p,
                suggestion=_promote(la, weakest, STEP * _median(lo_s) / float(la.font[weakest]))))
    is_title = role == ROLE_CODES["title"]
    d_term = None
    if is_title.any() and (~is_title).any():
        t_ids, t_size = texts[is_title], size[is_title]
        title = float(np.exp(np.log(t_size).mean()))
        o_size = size[~is_title] * np.where(la.bold[texts[~is_title]], 1.1, 1.0)
        k = int(np.argmax(o_size))
        other = float(o_size[k])
        title_prom = title * (1.1 if la.bold[t_ids].all() else 1.0)
        p = min(2.0, max(0.0, math.log(other / title_prom)) / math.log(STEP))
        head = int(t_ids[np.argmax(t_size)])
        if p > 1e-9:
            pens += p
            findings.append(Finding(
                metric=NAME, element_ids=[la.ids[head], la.ids[int(texts[~is_title][k])]],
                message=f"the title is not the most prominent text: {la.name(int(texts[~is_title][k]))} is larger",
                severity=severity_for(p, medium=0.3, high=0.7), impact=p,
                suggestion=_promote(la, head, TARGET_DOMINANCE * other / float(la.font[head]))))
        ratio = title / float(size[~is_title].max())
        d_term = max(0.0, 1.0 - math.exp(-(ratio - 1.0) / DOMINANCE_SCALE))
        if 1.0 <= ratio < TARGET_DOMINANCE and not findings:
            findings.append(Finding(
                metric=NAME, element_ids=[la.ids[head]],
                message=f"the title is only {ratio:.2f}× the next largest text; it reads weakly",
                severity="low", impact=1.0 - d_term,
                suggestion=_promote(la, head, TARGET_DOMINANCE / ratio)))
    base = math.exp(-pens)
    score = base if d_term is None else 0.5 * base + 0.5 * d_term
    return MetricResult(name=NAME, score=float(score), findings=findings)
