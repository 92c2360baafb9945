"""Instruction fit: how well the layout satisfies the instruction's constraints.

Definition: the score and findings of ``assistant.instructions.score_constraints``
(each constraint's satisfaction in [0, 1], combined there). With no
constraints (``None`` or empty) there is nothing to judge: the metric scores
1.0, is marked not applicable, and is left out of the composite (weight 0),
so a layout without an instruction is scored on design quality alone.
"""

from __future__ import annotations

from typing import Any

from assistant.metrics.context import LayoutArrays
from assistant.metrics.report import MetricResult, metric_result

NAME = "instruction_fit"


def instruction_fit(la: LayoutArrays, constraints: list[Any] | None = None) -> MetricResult:
    """Constraint satisfaction via ``assistant.instructions.score_constraints`` (see module docstring)."""
    if not constraints:
        return metric_result(name=NAME, score=1.0, applicable=False)
    from assistant.instructions import score_constraints

    score, findings = score_constraints(la.layout, constraints)
    score = float(min(max(score, 0.0), 1.0))
    return metric_result(name=NAME, score=score, findings=list(findings))
