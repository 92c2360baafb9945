"""Judging a metric against what published designs do: the norms.

A metric's own measure (``MetricResult.raw``) says how a layout compares with an ideal:
everything aligned, nothing overlapping, a strict type scale. Published designs are not
ideal and are not wrong: text sits on photos and bands, ornaments bleed off the page, a
poster is deliberately asymmetric. So each measure is judged against the range real designs
show (``NORMS``: the 5th percentile of the measure over the real designs of ``../shared/corpus``,
computed by ``python -m benchmarks.norms``):

- at or above its norm, a metric scores 1 and reports no findings — except *defects*
  (``Finding.defect``): things published designs do not do, such as text printed on other
  text, a label pushed out of its button, a title smaller than its body text, text off the
  page, or an element knocked off the columns the rest of the design keeps;
- below its norm, the score falls linearly to 0 at a measure of 0, and every finding is reported;
- defects cost their metric ``1 − exp(−DEFECT_COST · Σ impact)`` whatever the rest scores, so a
  layout with one clear defect scores clearly lower, and removing it raises the score.

Planners act on what is reported, so a design inside the norms gets no edits.
"""

from __future__ import annotations

import math

from assistant.metrics.report import MetricResult, metric_result

#: Raw-measure norm of each metric (the 5th percentile of the real corpus; ``python -m benchmarks.norms``).
#: Metrics without a norm (instruction fit: the user's own request) are judged by their measure.
NORMS: dict[str, float] = {
    "overlap": 0.103, "alignment": 0.335, "spacing": 0.541, "margins": 0.125, "balance": 0.497,
    "hierarchy": 0.607, "grouping": 0.383, "reading_order": 0.295, "text_fit": 0.271, "grid": 0.508,
    "whitespace": 0.64, "contrast": 0.539,
}


#: How hard defects hit their metric (one defect of impact 0.5 leaves it at 0.37).
DEFECT_COST = 2.0


def judge(result: MetricResult, norm: float | None = None) -> MetricResult:
    """``result`` judged against its norm (``NORMS`` unless given; see the module docstring)."""
    norm = NORMS.get(result.name) if norm is None else norm
    if norm is None or not result.applicable:
        return result
    raw = result.score
    defects = [f for f in result.findings if f.defect]
    inside = raw >= norm
    score = 1.0 if inside else max(raw, 0.0) / norm
    if defects:
        score = min(score, math.exp(-DEFECT_COST * sum(max(f.impact, 0.0) for f in defects)))
    return metric_result(name=result.name, score=float(score), findings=defects if inside else result.findings,
                         applicable=True, raw=raw)


__all__ = ["NORMS", "judge"]
