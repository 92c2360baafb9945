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

The numeric part (the levels' medians, the title's geometric mean and its
rival) is ``type_levels`` (numpy); on layouts of at most 256 leaves the
compiled kernel ``_native.hierarchy`` computes the same (see
``native_core``). The penalties are computed from it in plain Python.
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
_LN_STEP = math.log(STEP)


def _promote(la: LayoutArrays, i: int, factor: float) -> dict | None:
    if la.locked[i]:
        return None
    return {"type": "promote", "id": la.ids[i], "factor": round(float(factor), 4)}


def type_levels(la: LayoutArrays) -> tuple[list[tuple[int, float, int, list[int]]],
                                            tuple[float, float, float, float, int, int] | None] | None:
    """The numeric part of ``hierarchy`` (numpy): ``None`` with fewer than two sized visible texts.

    Returns ``(levels, title)``. ``levels``: per level of ``LEVELS`` present,
    in order, ``(level, median size, smallest, first)``: the smallest text
    (the first in document order on a tie) and the first five in document
    order. ``title``: ``None`` unless there are a title and another text, else
    ``(title, title_prom, other, other_max, head, rival)``: the geometric mean
    of the title sizes, the same with the bold bonus when every title is bold,
    the largest other size with its bold bonus, the largest other size
    without, the largest title and the largest other text (bonus included;
    first on a tie). Sizes are in world units. The compiled kernel
    ``_native.hierarchy`` returns the same (its ``log`` and ``exp`` are the C
    library's, which may differ from numpy's in the last bit).
    """
    texts = (la.is_text & la.visible & (la.font > 0)).nonzero()[0]  # NaN (no size) is not > 0
    if texts.size < 2:
        return None
    size = la.font[texts]
    role = la.role[texts]
    # one sort by (level, size); LEVELS are role codes 0–3
    order = np.lexsort((size, role))
    s_size, s_text = size[order].tolist(), texts[order].tolist()
    counts = np.bincount(role, minlength=len(LEVELS))[:len(LEVELS)].tolist()
    levels = []
    start = 0
    for lv, c in enumerate(counts):
        if c:
            med = (s_size[start + (c - 1) // 2] + s_size[start + c // 2]) / 2
            levels.append((lv, med, s_text[start], sorted(s_text[start:start + c])[:5]))
        start += c
    if not 0 < counts[0] < texts.size:
        return levels, None
    is_title = role == ROLE_CODES["title"]
    t_ids, t_size = texts[is_title], size[is_title]
    title = float(np.exp(np.add.reduce(np.log(t_size)) / t_size.size))  # the mean, as ndarray.mean sums it
    rest = ~is_title
    o_ids, o_raw = texts[rest], size[rest]
    o_size = o_raw * np.where(la.bold[o_ids], 1.1, 1.0)
    k = int(np.argmax(o_size))
    title_prom = title * (1.1 if np.count_nonzero(la.bold[t_ids]) == t_ids.size else 1.0)
    return levels, (title, title_prom, float(o_size[k]), float(o_raw.max()), int(t_ids[np.argmax(t_size)]),
                    int(o_ids[k]))


def hierarchy(la: LayoutArrays) -> MetricResult:
    """Type-scale order, title-first and dominance (see module docstring)."""
    if la.native is not None:
        judged = la.native.hierarchy(la.font, la.role, la.is_text, la.visible, la.bold, len(LEVELS))
    else:
        judged = type_levels(la)
    if judged is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    levels, title_sizes = judged
    findings: list[Finding] = []
    pens = 0.0
    # type scale between consecutive present levels
    for (u, up_med, weakest, up_ids), (lw, lo_med, _, lo_ids) in zip(levels, levels[1:]):
        up, lo = LEVELS[u], LEVELS[lw]
        ratio = up_med / lo_med
        p = PAIR_WEIGHT.get(up, 0.3) * min(1.0, max(0.0, _LN_STEP - math.log(ratio)) / _LN_STEP)
        if p > 1e-9:
            pens += p
            findings.append(finding(
                metric=NAME, element_ids=[la.ids[x] for x in up_ids] + [la.ids[x] for x in lo_ids],
                message=(f"{up} text (median {la.px(up_med):.1f} px) is only {ratio:.2f}× "
                         f"the {lo} text ({la.px(lo_med):.1f} px); a type scale wants ≥ {STEP}×"),
                severity=severity_for(p, medium=0.4, high=0.9), impact=p, defect=ratio < 1.0,
                suggestion=_promote(la, weakest, STEP * lo_med / float(la.font[weakest]))))
    d_term = None
    if title_sizes is not None:
        title, title_prom, other, other_max, head, rival = title_sizes
        p = min(2.0, max(0.0, math.log(other / title_prom)) / _LN_STEP)
        if p > 1e-9:
            pens += p
            findings.append(finding(
                metric=NAME, element_ids=[la.ids[head], la.ids[rival]],
                message=f"the title is not the most prominent text: {la.name(rival)} is larger",
                severity=severity_for(p, medium=0.3, high=0.7), impact=p, defect=True,
                suggestion=_promote(la, head, TARGET_DOMINANCE * other / float(la.font[head]))))
        ratio = title / other_max
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
