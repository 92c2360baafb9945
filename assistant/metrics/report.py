"""Metric results: ``Finding``, ``MetricResult``, ``MetricReport``.

Every metric produces a ``MetricResult``: a score in [0, 1] (1 = best) and
findings that name the elements concerned, say what is wrong and, where one
edit would fix it, suggest that edit as an action in the JSON form accepted by
``assistant.actions.parse_action`` (``{"type": "move", "ids": [...], ...}``).
``MetricReport`` gathers the results and their weighted composite.

The metrics build these from values they have already computed and typed
(``str``, ``float``, lists of ids, plain dicts), so they use ``finding`` /
``metric_result`` / ``metric_report``: the same objects as the validating
constructors give, built as ``BaseModel.model_construct`` builds them (no
validation), at a fraction of the cost.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Severity = Literal["low", "medium", "high"]

_SEVERITY_RANK = {"high": 0, "medium": 1, "low": 2}


def severity_for(penalty: float, medium: float = 0.25, high: float = 0.6) -> Severity:
    """Map a penalty (0 = fine, 1 = one clear defect) to a severity label."""
    if penalty >= high:
        return "high"
    if penalty >= medium:
        return "medium"
    return "low"


_new = object.__new__
_set = object.__setattr__


def _trusted(cls: type[BaseModel], values: dict[str, Any]) -> Any:
    """An instance of ``cls`` holding ``values`` (every field, in field order), not validated.

    What ``model_construct`` does for a model without private attributes or
    extras, without its per-call default handling; every field counts as set
    (``model_fields_set``).
    """
    m = _new(cls)
    _set(m, "__dict__", values)
    _set(m, "__pydantic_fields_set__", set(values))
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", None)
    return m


class Finding(BaseModel):
    """One problem a metric found.

    ``impact`` is how much this problem costs its metric (penalty units, used to
    rank findings); ``suggestion`` is an action (JSON form) that would fix it,
    or ``None`` when no single edit does.
    """

    metric: str
    element_ids: list[str] = Field(default_factory=list)
    message: str
    severity: Severity = "low"
    suggestion: dict[str, Any] | None = None
    impact: float = 0.0
    #: A defect: something published designs do not do (text on text, a label out of its button, a title
    #: smaller than its body text, content off the page, an element knocked off the design's own lines).
    #: Reported and acted on whatever the rest of the design scores (see ``assistant.metrics.norms``).
    defect: bool = False


class MetricResult(BaseModel):
    """The score of one metric (in [0, 1], 1 = best) and its findings."""

    name: str
    score: float
    findings: list[Finding] = Field(default_factory=list)
    #: False when the metric had nothing to judge (e.g. no constraints);
    #: such a metric scores 1.0 and is left out of the composite.
    applicable: bool = True
    #: The metric's own measure before it is judged against the norms of published designs
    #: (``assistant.metrics.norms``); None when the score is that measure.
    raw: float | None = None


def finding(metric: str, element_ids: list[str], message: str, severity: Severity = "low",
            suggestion: dict[str, Any] | None = None, impact: float = 0.0, defect: bool = False) -> Finding:
    """A ``Finding`` from known-good values (``impact`` a Python float), without validation."""
    return _trusted(Finding, {"metric": metric, "element_ids": element_ids, "message": message,
                              "severity": severity, "suggestion": suggestion, "impact": impact,
                              "defect": defect})


def metric_result(name: str, score: float, findings: list[Finding] | None = None,
                  applicable: bool = True, raw: float | None = None) -> MetricResult:
    """A ``MetricResult`` from known-good values (``score`` a Python float), without validation."""
    return _trusted(MetricResult, {"name": name, "score": score,
                                   "findings": [] if findings is None else findings, "applicable": applicable,
                                   "raw": raw})


class MetricReport(BaseModel):
    """All metric results of one layout and their weighted composite.

    ``weights`` are the normalised weights actually used (they sum to 1 over
    the applicable metrics that were computed).
    """

    composite: float
    metrics: dict[str, MetricResult]
    weights: dict[str, float]

    def score(self, name: str) -> float:
        """The score of the metric ``name``."""
        return self.metrics[name].score

    def scores(self) -> dict[str, float]:
        """``{metric name: score}`` in a fixed order (one key per metric)."""
        return {k: v.score for k, v in self.metrics.items()}

    def weakest(self, n: int = 3) -> list[MetricResult]:
        """The ``n`` lowest-scoring applicable metrics (ties broken by weight, then name)."""
        ranked = sorted(
            (m for m in self.metrics.values() if m.applicable),
            key=lambda m: (m.score, -self.weights.get(m.name, 0.0), m.name),
        )
        return ranked[:n]

    def findings(self, metric: str | None = None, min_severity: Severity = "low") -> list[Finding]:
        """All findings (or those of one metric), most severe and costly first."""
        limit = _SEVERITY_RANK[min_severity]
        out = [
            f for m in self.metrics.values() if metric is None or m.name == metric
            for f in m.findings if _SEVERITY_RANK[f.severity] <= limit
        ]
        out.sort(key=lambda f: (_SEVERITY_RANK[f.severity], -f.impact * self.weights.get(f.metric, 1.0), f.metric))
        return out

    def summary(self) -> str:
        """A compact one-line-per-metric text summary (for logs and LM observations)."""
        lines = [f"composite {self.composite:.3f}"]
        for m in self.metrics.values():
            tag = "" if m.applicable else " (n/a)"
            lines.append(f"{m.name} {m.score:.3f}{tag} ({len(m.findings)} findings)")
        return "\n".join(lines)


def metric_report(composite: float, metrics: dict[str, MetricResult], weights: dict[str, float]) -> MetricReport:
    """A ``MetricReport`` from known-good values, without validation."""
    return _trusted(MetricReport, {"composite": composite, "metrics": metrics, "weights": weights})
