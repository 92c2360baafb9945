"""Edits, metrics and planning on one open document (called under its lock).

Every edit call goes through :func:`apply_edits` and becomes one undo step of
the document's ``Session``. The metric report of the current state is cached
per ``OpenDocument.version`` (bumped by every change and every new brief), so
reading metrics after an edit costs nothing extra.

Dry runs and suggestions never touch the live document: they work on
``Document.copy()``.
"""

from __future__ import annotations

import time
from typing import Any

from assistant.actions import Action, parse_actions
from assistant.actions.trial import simulate
from assistant.app.session import EditResult
from assistant.document import Layout
from assistant.errors import InvalidAction, SessionError
from assistant.instructions import Constraint, constraints_json
from assistant.instructions.brief import Brief, compile_brief
from assistant.metrics import MetricReport, evaluate
from assistant.planners import get_planner
from assistant.planners.base import PlannerState, Proposal, StepRecord, proposals_of
from assistant.planners.loop import run_planner
from mcp_server import views
from mcp_server.results import (
    EditEffect,
    EditOutcome,
    History,
    HistoryEntry,
    HistoryStep,
    Improvement,
    InstructionEcho,
    PlannerStep,
    Suggestion,
)
from mcp_server.store import OpenDocument

#: Most edits one apply_edits call may carry.
MAX_EDITS = 100


def evaluate_layout_with(layout: Layout, constraints: list[Constraint],
                         checks: list[str] | None = None) -> MetricReport:
    """``assistant.metrics.evaluate`` with the given constraints (none: instruction_fit not applicable)."""
    return evaluate(layout, constraints=constraints or None, checks=checks)


def evaluate_layout(entry: OpenDocument, layout: Layout, checks: list[str] | None = None) -> MetricReport:
    """The metric report of ``layout`` under the document's brief."""
    return evaluate_layout_with(layout, entry.constraints, checks)


def current_report(entry: OpenDocument) -> MetricReport:
    """The metric report of the document as it is now (cached per version)."""
    cached = entry.report_cache
    if cached is not None and cached[0] == entry.version:
        return cached[1]
    report = evaluate_layout(entry, entry.document.layout)
    entry.report_cache = (entry.version, report)
    return report


def parse_edits(edits: list[Any]) -> list[Action]:
    """Typed actions from JSON objects; errors name the failing edit's index and why."""
    if not edits:
        raise SessionError("edits is empty; pass at least one action object such as "
                           '{"type": "move", "ids": ["title"], "dx": 10, "dy": 0}')
    if len(edits) > MAX_EDITS:
        raise SessionError(f"{len(edits)} edits in one call; send at most {MAX_EDITS} per apply_edits call")
    return parse_actions(edits)


def _effects(result: EditResult, layout: Layout) -> list[EditEffect]:
    return [
        EditEffect(index=e.index, type=e.type, changed_ids=list(e.changed_ids),
                   boxes={k: layout.get(k).box for k in e.changed_ids if k in layout})
        for e in result.edits
    ]


def apply_edits(entry: OpenDocument, edits: list[Any], *, expected_revision: int | None,
                dry_run: bool = False) -> EditOutcome:
    """Apply ``edits`` atomically as one undo step (or simulate them with ``dry_run``)."""
    actions = parse_edits(edits)
    before = current_report(entry)
    if dry_run:
        with entry.session.trial(actions, expected_revision) as result:
            after = evaluate_layout(entry, entry.document.layout)
            effects = _effects(result, entry.document.layout)
    else:
        result = entry.session.apply(actions, expected_revision=expected_revision)
        entry.touch()
        after = current_report(entry)
        effects = _effects(result, entry.document.layout)
    return EditOutcome(
        doc_id=entry.doc_id, revision=entry.session.revision, applied=not dry_run,
        edits=effects,
        composite_before=round(before.composite, 4), composite_after=round(after.composite, 4),
        metric_delta=views.metric_delta(before, after),
    )


def step_history(entry: OpenDocument, direction: str) -> HistoryStep:
    """Undo or redo one edit call; report which elements changed back."""
    session = entry.session
    result = session.undo() if direction == "undo" else session.redo()
    entry.touch()
    layout = entry.document.layout
    return HistoryStep(
        doc_id=entry.doc_id, revision=session.revision, changed_ids=list(result.changed_ids),
        boxes={k: layout.get(k).box for k in result.changed_ids if k in layout},
        can_undo=session.can_undo, can_redo=session.can_redo,
    )


def suggest(entry: OpenDocument, *, goal: str | None, engine: str, max_suggestions: int) -> list[Suggestion]:
    """Ranked candidate edits with the composite gain each would bring alone (nothing applied)."""
    constraints = list(entry.constraints)
    instruction = entry.instruction
    if goal:
        constraints += compile_brief(goal, entry.document.layout).constraints
        instruction = f"{instruction}. {goal}" if instruction else goal
    base = evaluate_layout_with(entry.document.layout, constraints)
    planner = get_planner(engine)
    scratch = entry.document.copy()
    state = PlannerState(document=scratch, report=base, constraints=constraints,
                         instruction=instruction, max_steps=1)
    proposals = proposals_of(planner, state)
    ranked: list[tuple[float, int, tuple[dict[str, Any], Proposal]]] = []
    seen: set[str] = set()
    for i, p in enumerate(proposals[: max(4 * max_suggestions, 8)]):
        action = p.action
        payload = action.to_json() if hasattr(action, "to_json") else dict(action)
        key = repr(sorted(payload.items()))
        if payload.get("type") == "finalize" or key in seen:
            continue
        seen.add(key)
        try:
            gain = simulate(scratch, action, constraints=constraints).report.composite - base.composite
        except InvalidAction:
            continue
        ranked.append((gain, i, (payload, p)))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    return [
        Suggestion(rank=r + 1, edit=payload, reason=p.reason or payload["type"], metric=p.metric,
                   predicted_gain=round(gain, 4))
        for r, (gain, _, (payload, p)) in enumerate(ranked[:max_suggestions])
    ]


def history(entry: OpenDocument) -> History:
    """Every edit call, undo and redo of the session, with the undo and redo depths."""
    session = entry.session
    entries, undoable, redoable = [], 0, 0
    for item in session.history:
        entries.append(HistoryEntry(revision=item.revision, kind=item.kind, edits=list(item.actions),
                                    changed_ids=list(item.changed_ids)))
        if item.kind == "edit":
            undoable, redoable = undoable + 1, 0
        elif item.kind == "undo":
            undoable, redoable = undoable - 1, redoable + 1
        else:
            undoable, redoable = undoable + 1, redoable - 1
    return History(doc_id=entry.doc_id, revision=session.revision, entries=entries,
                   undoable=undoable, redoable=redoable)


def set_instruction(entry: OpenDocument, brief: str) -> InstructionEcho:
    """Compile ``brief`` into constraints for this document (an empty brief clears them)."""
    brief = brief.strip()
    if not brief:
        entry.brief = Brief()
        entry.touch()
        return InstructionEcho(doc_id=entry.doc_id, instruction="", understood=[], not_understood=[],
                               constraints=[], instruction_fit=None)
    entry.brief = compile_brief(brief, entry.document.layout)
    entry.touch()
    report = current_report(entry)
    fit = report.metrics.get("instruction_fit")
    return InstructionEcho(
        doc_id=entry.doc_id, instruction=brief, understood=list(entry.brief.understood),
        not_understood=list(entry.brief.not_understood),
        constraints=constraints_json(entry.constraints),
        instruction_fit=None if fit is None or not fit.applicable else round(float(fit.score), 4),
    )


class PlannerRun:
    """A planner loop run step by step on a copy, then applied to the document as one edit call.

    ``start`` → ``step`` until ``done`` → ``finish``. Between steps the caller
    reports progress; the live document is locked only in ``start`` and
    ``finish``, and ``finish`` refuses to apply when the document changed in
    between.
    """

    def __init__(self, entry: OpenDocument, *, planner: str, max_steps: int, time_budget: float,
                 expected_revision: int | None) -> None:
        self.entry, self.planner_name = entry, planner
        self.max_steps, self.time_budget = max_steps, time_budget
        self.expected_revision = expected_revision
        self.steps: list[StepRecord] = []
        self.done = False
        self.stopped = "max_steps"
        self.composite = 0.0

    def start(self) -> None:
        """Lock the document briefly: check the revision, copy it and score it."""
        with self.entry.lock:
            self.entry.session.check_revision(self.expected_revision)
            self.revision = self.entry.session.revision
            self.planner = get_planner(self.planner_name)
            self.scratch = self.entry.document.copy()
            self.before = current_report(self.entry)
            self.constraints = list(self.entry.constraints)
            self.instruction = self.entry.instruction
        self.composite = self.before.composite
        self.t0 = time.monotonic()
        self.deadline = self.t0 + self.time_budget

    def step(self) -> None:
        """Let the planner make one edit on the copy; set ``done`` when it stops or the time is up."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.done, self.stopped = True, "time_budget"
            return
        result = run_planner(self.scratch, self.planner, constraints=self.constraints,
                             instruction=self.instruction, max_steps=1, time_budget=left)
        self.steps.extend(result.steps)
        self.composite = result.end.composite
        if result.stopped != "max_steps" or not result.steps:
            self.done, self.stopped = True, result.stopped
        elif len(self.steps) >= self.max_steps:
            self.done, self.stopped = True, "max_steps"

    def finish(self) -> Improvement:
        """Apply the planner's edits to the document as one edit call; ``SessionError`` when it changed meanwhile."""
        entry = self.entry
        with entry.lock:
            if entry.session.revision != self.revision:
                raise SessionError(
                    f"document {entry.doc_id!r} changed during improve_layout (revision {self.revision} → "
                    f"{entry.session.revision}); nothing was applied, run it again"
                )
            if self.steps:
                entry.session.apply(parse_actions([s.action for s in self.steps]), expected_revision=self.revision)
                entry.touch()
            after = current_report(entry)
            return Improvement(
                doc_id=entry.doc_id, planner=self.planner_name, revision=entry.session.revision,
                applied=bool(self.steps), stopped=self.stopped,
                steps=[PlannerStep(edit=s.action, reason=s.reason, changed_ids=list(s.changed_ids),
                                   composite_after=round(s.composite_after, 4)) for s in self.steps],
                composite_before=round(self.before.composite, 4), composite_after=round(after.composite, 4),
                metrics_before=views.scores(self.before), metrics_after=views.scores(after),
                seconds=round(time.monotonic() - self.t0, 3),
            )
