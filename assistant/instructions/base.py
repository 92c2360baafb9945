"""The constraint base classes and the findings they produce.

``ConstraintBase`` gives every constraint its ``weight``, the ``phrase`` it came from,
``score(layout)`` and ``describe()``; ``TargetedConstraint`` adds the ``ids`` / ``role``
target. See :mod:`assistant.instructions.constraints` for the contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from assistant.document import Element, Layout, Role
from assistant.instructions import select as sel
from assistant.metrics.report import Finding

METRIC = "instruction_fit"


#: Constraint severities → the metrics' severity labels and ranking impact.
_SEVERITY = {"info": ("low", 0.0), "warning": ("medium", 0.5), "error": ("high", 1.0)}


def make_finding(ids: list[str], message: str, severity: str = "warning",
                 suggestion: dict[str, Any] | None = None) -> Finding:
    """A ``assistant.metrics.Finding`` for the instruction-fit metric.

    ``severity`` is ``info`` (not applicable / a note), ``warning`` or ``error``.
    """
    label, impact = _SEVERITY[severity]
    return Finding(metric=METRIC, element_ids=list(ids), message=message, severity=label,
                   suggestion=suggestion, impact=impact)


@dataclass
class Evaluation:
    """Score of one constraint (``None``: not applicable) and its findings."""

    score: float | None
    findings: list[Finding] = field(default_factory=list)


def _short(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, dict):
        return ",".join(f"{x:.0f}" for x in v.values())
    return str(v)


class ConstraintBase(BaseModel):
    """What every constraint has: a weight, the phrase it came from, a score and a description."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Relative weight of this constraint in the instruction-fit mean.
    weight: float = Field(1.0, ge=0.0, allow_inf_nan=False)
    #: The instruction phrase it was compiled from (None when given as JSON).
    phrase: str | None = None

    def evaluate(self, layout: Layout) -> Evaluation:  # pragma: no cover - abstract
        """The score of ``layout`` (None: not applicable) and its findings; each constraint defines it."""
        raise NotImplementedError

    def score(self, layout: Layout) -> tuple[float, list[Finding]]:
        """``(score, findings)``; a not-applicable constraint scores 1.0."""
        ev = self.evaluate(layout)
        return (1.0 if ev.score is None else ev.score), ev.findings

    def describe(self) -> str:
        """One short line for observations and reports."""
        fields = self.model_dump(mode="json", exclude={"weight", "phrase", "type"}, exclude_none=True)
        parts = [f"{k}={','.join(v) if isinstance(v, list) else _short(v)}" for k, v in fields.items()
                 if v != [] and k != "tolerance_px"]
        return " ".join([self.type, *parts])  # type: ignore[attr-defined]


class TargetedConstraint(ConstraintBase):
    """A constraint on the elements ``ids`` names, else those of ``role``, else every content element."""

    ids: list[str] = Field(default_factory=list)
    role: Role | None = None

    def _targets(self, layout: Layout) -> tuple[list[Element], Evaluation | None]:
        found, missing = sel.resolve_target(layout, self.ids, self.role)
        findings = [make_finding([i], f"{self.type} constraint names unknown element '{i}'", "info")
                    for i in missing]
        if not found:
            what = f"role '{self.role}'" if self.role else "the named elements"
            findings.append(make_finding([], f"{self.type} constraint: no element with {what} in the layout",
                                         "info"))
            return [], Evaluation(None, findings)
        return found, (Evaluation(None, findings) if findings else None)


def with_notes(score: float, findings: list[Finding], notes: Evaluation | None) -> Evaluation:
    """An ``Evaluation`` of ``score`` clamped to [0, 1], with ``notes``' findings before ``findings``."""
    return Evaluation(float(min(max(score, 0.0), 1.0)), (notes.findings if notes else []) + findings)


__all__ = ["METRIC", "make_finding", "Evaluation", "ConstraintBase", "TargetedConstraint", "with_notes"]
