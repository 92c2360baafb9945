"""What every planner sees and returns.

A planner is anything with ``propose(state) -> list[Action]``: given the
current document, its metric report and the user's constraints, it returns
candidate edits ranked best first (``[finalize]`` or ``[]`` when it has nothing
better to do). Planners that know *why* they propose an action also implement
``propose_detailed(state) -> list[Proposal]``; ``proposals_of`` gives every
planner that richer form, so the loop can report per-element change reasons.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from assistant.actions import Action
from assistant.document import Document
from assistant.instructions import Constraint, ContrastConstraint
from assistant.metrics import Backdrop, Finding, MetricReport
from assistant.render.inkmap import Verdict


@dataclass(frozen=True)
class Proposal:
    """One candidate edit and why it is proposed.

    ``reason`` is human text ("overlap: 'title' covers 'photo' → move title");
    ``metric`` the metric whose finding led to it (or ``"planner"``);
    ``gain`` the composite change the planner expects (simulated), ``fit_gain``
    the expected change of the instruction fit; both ``None`` when unknown.
    ``fallbacks`` are the other edits that mend the same defect, best first: the
    loop tries them, before any other proposal, when the render refuses this one.
    """

    action: Action
    reason: str = ""
    metric: str = "planner"
    element_ids: tuple[str, ...] = ()
    gain: float | None = None
    fit_gain: float | None = None
    fallbacks: tuple[Proposal, ...] = ()


@dataclass
class PlannerState:
    """Everything a planner may look at for one decision.

    ``document`` is the live document (planners must not mutate it except
    through apply-then-undo simulation that restores it exactly); ``report``
    the current ``MetricReport``; ``constraints`` the compiled instruction
    constraints; ``weights`` the composite's metric weights (None: defaults);
    ``locked`` ids that must not change (``--lock`` plus locked elements);
    ``keep`` ids an instruction asks to keep in place; ``deadline`` a
    ``time.monotonic()`` value after which the planner should answer quickly.
    """

    document: Document
    report: MetricReport
    constraints: list[Constraint] = field(default_factory=list)
    weights: dict[str, float] | None = None
    instruction: str | None = None
    locked: frozenset[str] = frozenset()
    keep: frozenset[str] = frozenset()
    step: int = 0
    max_steps: int = 20
    deadline: float | None = None
    backdrop: Backdrop | None = None

    @property
    def frozen_ids(self) -> frozenset[str]:
        """Ids no planner edit may touch: locked, kept, and elements marked ``locked`` or ``pinned``."""
        marked = frozenset(e.id for e in self.document.layout.elements if e.locked or e.pinned)
        return self.locked | self.keep | marked

    def time_left(self) -> float:
        """Seconds before ``deadline`` (infinity without one)."""
        if self.deadline is None:
            return float("inf")
        return self.deadline - time.monotonic()


@runtime_checkable
class Planner(Protocol):
    """The planner contract shared by the CLI, the MCP server and the evaluation."""

    name: str

    def propose(self, state: PlannerState) -> list[Action]:
        """Candidate actions for ``state``, best first."""
        ...


@dataclass(frozen=True)
class StepRecord:
    """One step the loop took: the action applied and what it changed."""

    step: int
    action: dict[str, Any]
    reason: str
    metric: str
    changed_ids: tuple[str, ...]
    composite_before: float
    composite_after: float
    fit_before: float | None = None
    fit_after: float | None = None
    seconds: float = 0.0


@dataclass
class PlanResult:
    """What running a planner on one document produced.

    ``steps`` the applied edits in order; ``proposed`` / ``valid`` count the
    actions the planner proposed and how many of them validated (the
    valid-action rate is ``valid / proposed``); ``changes`` maps each changed
    element id to the reasons it changed; ``stopped`` says why the loop ended
    (``finalize``, ``max_steps``, ``time_budget``, ``no_proposal``,
    ``no_improvement``, ``invalid_action``).
    """

    planner: str
    start: MetricReport
    end: MetricReport
    steps: list[StepRecord] = field(default_factory=list)
    proposed: int = 0
    valid: int = 0
    changes: dict[str, list[str]] = field(default_factory=dict)
    stopped: str = "finalize"
    seconds: float = 0.0
    not_understood: list[str] = field(default_factory=list)
    #: Edits that passed the score but failed the render check (``assistant.render.inkmap``), and why.
    rejected: list[str] = field(default_factory=list)
    #: The render check of the finished run against its start (None: no edit kept, or no check run).
    damage: Verdict | None = None

    @property
    def edits(self) -> int:
        """Number of edits applied."""
        return len(self.steps)

    @property
    def elements_changed(self) -> int:
        """Number of elements the edits changed."""
        return len(self.changes)

    @property
    def valid_rate(self) -> float:
        """Share of proposed actions that validated (1.0 when none were proposed)."""
        return self.valid / self.proposed if self.proposed else 1.0


def proposals_of(planner: Planner, state: PlannerState) -> list[Proposal]:
    """The planner's ranked proposals, with reasons when the planner gives them."""
    detailed = getattr(planner, "propose_detailed", None)
    if callable(detailed):
        return list(detailed(state))
    return [Proposal(action=a, reason=f"proposed by {getattr(planner, 'name', 'planner')}")
            for a in planner.propose(state)]


__all__ = ["Proposal", "PlannerState", "Planner", "StepRecord", "PlanResult", "actionable", "proposals_of"]


def action_ids(action: dict[str, Any]) -> set[str]:
    """Every element id an action (in JSON form) names: ``id``, ``ids`` and ``target_id``."""
    out: set[str] = set()
    for key in ("id", "ids", "target_id"):
        v = action.get(key)
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list):
            out.update(x for x in v if isinstance(x, str))
    return out


def actionable(findings: Iterable[Finding], constraints: Iterable[Any] = ()) -> list[Finding]:
    """The findings a planner may act on, in their order: defects, and what the user's brief asks.

    Do no harm: a published design is mostly right, so a planner edits only what the metrics judge
    a defect (``Finding.defect``: something real designs do not do) and what the brief asks
    (instruction fit); other findings are advice, reported but not acted on. Contrast is never
    fixed by recolouring text on a planner's own initiative: its findings count only when the
    brief asks for contrast (a ``ContrastConstraint``).
    """
    constraints = list(constraints)
    asked = any(isinstance(c, ContrastConstraint) for c in constraints)
    return [f for f in findings if (f.metric == "contrast" and asked)
            or (f.metric != "contrast" and (f.defect or f.metric == "instruction_fit"))]
