"""Instruction fit: how well the layout satisfies the instruction's constraints.

Definition: each constraint scores its own satisfaction in [0, 1] (or ``None``
when it does not apply to this layout) and reports findings; the metric is the
weight-averaged score of the applicable constraints. With no constraints
(``None`` or empty) there is nothing to judge: the metric scores 1.0, is marked
not applicable, and is left out of the composite (weight 0), so a layout
without an instruction is scored on design quality alone.

The constraints themselves are built by :mod:`assistant.instructions` (which sits
above the metrics); here they are anything with a ``weight`` and an
``evaluate(layout)`` that returns a score and findings (:class:`ScoredConstraint`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from assistant.document import Layout
from assistant.metrics.context import LayoutArrays
from assistant.metrics.report import Finding, MetricResult, metric_result

NAME = "instruction_fit"


class ConstraintScore(Protocol):
    """What a constraint's ``evaluate`` returns: a score (None: not applicable) and findings."""

    score: float | None
    findings: list[Finding]


class ScoredConstraint(Protocol):
    """A constraint as the metric sees it."""

    weight: float

    def evaluate(self, layout: Layout) -> ConstraintScore:
        """How well ``layout`` satisfies the constraint."""
        ...


def score_constraints(layout: Layout, constraints: Iterable[ScoredConstraint] | None) -> tuple[float, list[Finding]]:
    """Instruction fit of ``layout`` and all the constraints' findings.

    The fit is the weight-averaged score of the applicable constraints (1.0 when there are none).
    """
    total = weight = 0.0
    findings: list[Finding] = []
    for c in constraints or []:
        ev = c.evaluate(layout)
        findings.extend(ev.findings)
        if ev.score is not None and c.weight > 0:
            total += c.weight * ev.score
            weight += c.weight
    return (total / weight if weight > 0 else 1.0), findings


def instruction_fit(la: LayoutArrays, constraints: Sequence[ScoredConstraint] | None = None) -> MetricResult:
    """Constraint satisfaction (see the module docstring)."""
    if not constraints:
        return metric_result(name=NAME, score=1.0, applicable=False)
    score, findings = score_constraints(la.layout, constraints)
    score = float(min(max(score, 0.0), 1.0))
    return metric_result(name=NAME, score=score, findings=list(findings))
