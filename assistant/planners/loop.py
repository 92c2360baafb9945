"""Run any planner on a document until it finalizes or a budget runs out.

``run_planner`` is the one loop shared by ``layout-assistant fix``, the
planner evaluation and the MCP server: it asks the planner for ranked
proposals, applies the first one that validates, and keeps the edit only when
the layout got better — the *improvement guard*:

    accept  ⇔  composite_after > composite_before + ε
           or (fit_after > fit_before + ε  and  composite_after ≥ composite_before − tolerance)

where ``fit`` is the ``instruction_fit`` metric (present only when the user
gave an instruction) and ``tolerance`` defaults to ``FIT_TOLERANCE`` = 0.005;
in addition the composite may never fall more than ``tolerance`` below the
starting composite over the whole run (so trading composite for instruction
fit cannot accumulate).
An edit that fails the guard is undone exactly (``undo_diff``), so a run never
returns a layout that scores lower than it started (without an instruction:
not at all; with one: by at most ``tolerance``, and only for a better fit).
The result says how many edits were made, which elements changed and why
(finding → action).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from assistant.actions import Action, parse_action, redo_diff, undo_diffs
from assistant.actions.trial import attempt
from assistant.document import Document
from assistant.errors import InvalidAction, PlannerError
from assistant.instructions import Constraint, ContrastConstraint
from assistant.metrics import MetricReport, evaluate
from assistant.planners import siblings
from assistant.planners.base import Planner, PlannerState, PlanResult, Proposal, StepRecord, proposals_of
from assistant.planners.lists import detached_lists, list_markers, snapshot
from assistant.render.inkmap import InkState, compare, measure

#: How much composite an edit may cost when it improves the instruction fit.
FIT_TOLERANCE = 0.005
#: Smallest change counted as an improvement (metric noise floor).
EPSILON = 1e-6
#: How many ranked proposals the loop tries per step before giving up …
TRIES_PER_STEP = 4
#: … and how many more tries the fallbacks of proposals the render refused may take.
MAX_FALLBACKS = 4



class SessionLike(Protocol):
    """What :func:`run_planner` needs of a session (``assistant.app.session.Session``).

    Its document, and ``apply``, which makes one edit one history entry and undo step.
    """

    @property
    def document(self) -> Document:
        """The document the session edits."""
        ...

    def apply(self, actions: list[Action]) -> object:
        """Apply ``actions`` as one edit."""
        ...


def instruction_fit(report: MetricReport) -> float | None:
    """The ``instruction_fit`` score of a ``MetricReport`` (None without constraints)."""
    result = report.metrics.get("instruction_fit") if getattr(report, "metrics", None) else None
    return None if result is None else float(result.score)


def improves(before: MetricReport, after: MetricReport, tolerance: float = FIT_TOLERANCE) -> bool:
    """The improvement guard (see the module docstring) on two ``MetricReport``s."""
    if after.composite > before.composite + EPSILON:
        return True
    fit_b, fit_a = instruction_fit(before), instruction_fit(after)
    if fit_b is None or fit_a is None:
        return False
    return fit_a > fit_b + EPSILON and after.composite >= before.composite - tolerance


def lock_elements(document: Document, ids: Iterable[str]) -> list[str]:
    """Mark ``ids`` (and their descendants) locked so every action rejects them.

    Unknown ids raise ``InvalidAction`` naming the id. Returns the ids locked.
    """
    layout = document.layout
    done: list[str] = []
    for element_id in ids:
        element = layout.get(element_id)
        for e in [element, *layout.descendants_of(element_id)]:
            if not e.locked:
                layout.replace(e.model_copy(update={"locked": True}))
            done.append(e.id)
    return done


def _action_dict(action: Action | dict[str, Any]) -> dict[str, Any]:
    dump = getattr(action, "model_dump", None)
    return dump(mode="json", exclude_none=True) if callable(dump) else dict(action)


def _action_type(action: Action | dict[str, Any]) -> str:
    return str(getattr(action, "type", None) or _action_dict(action).get("type", ""))


def _recolours(action: Action) -> bool:
    return _action_type(action) == "set_text_style" and _action_dict(action).get("fill") is not None


@contextmanager
def _undone(document: Document, trial: Any) -> Iterator[None]:
    """The document as it was before ``trial``'s edit, for the block's duration."""
    undo_diffs(document, trial.diffs)
    try:
        yield
    finally:
        for d in trial.diffs:
            redo_diff(document, d)


def run_planner(
    target: Document | SessionLike,
    planner: Planner,
    *,
    constraints: list[Constraint] | None = None,
    weights: dict[str, float] | None = None,
    instruction: str | None = None,
    locked: Iterable[str] = (),
    keep: Iterable[str] = (),
    max_steps: int = 20,
    time_budget: float | None = None,
    tolerance: float = FIT_TOLERANCE,
    guard: bool = True,
    verify: bool = True,
) -> PlanResult:
    """Improve ``target`` in place with ``planner``; return what happened.

    Args:
        target: a ``Document``, or an ``assistant.app.session.Session`` — then each
            accepted edit goes through ``Session.apply`` (one history entry and
            undo step per edit; rejected trials leave no trace in the history).
        planner: proposes the edits, ranked (see ``Planner``).
        constraints: the compiled instruction the composite measures.
        weights: the composite's metric weights (None: the defaults).
        instruction: the instruction text, for planners that read it.
        locked: element ids no edit may touch (they are marked locked).
        keep: ids an instruction asks to keep where they are (never proposed).
        max_steps: most edits to apply.
        time_budget: seconds for the whole run (None: no limit).
        tolerance: composite an edit may cost for a better instruction fit (see ``improves``).
        guard: undo any edit that does not pass ``improves`` (on by default).
        verify: check every edit on a render before keeping it (:mod:`assistant.render.inkmap`): one that
            makes text collide with other ink, pushes ink off the page or a label out of its frame is
            undone and recorded in ``PlanResult.rejected`` (on by default).
    """
    if max_steps < 0:
        raise PlannerError(f"max_steps must be >= 0, got {max_steps}")
    session = None if isinstance(target, Document) else target
    document: Document = target if session is None else session.document
    t0 = time.monotonic()
    deadline = None if time_budget is None else t0 + time_budget
    constraints = list(constraints or [])
    locked_ids = frozenset(lock_elements(document, locked))
    protected = locked_ids | frozenset(keep)

    def score() -> MetricReport:
        return evaluate(document.layout, constraints=constraints or None, weights=weights)

    report = start = score()
    result = PlanResult(planner=getattr(planner, "name", type(planner).__name__), start=start, end=start)
    stopped = "max_steps"
    ink: InkState | None = None  # the render of the current state, measured when first needed
    ink_start: InkState | None = None
    for step in range(max_steps):
        if deadline is not None and time.monotonic() >= deadline:
            stopped = "time_budget"
            break
        state = PlannerState(
            document=document, report=report, constraints=constraints, weights=weights,
            instruction=instruction, locked=locked_ids, keep=frozenset(keep), step=step,
            max_steps=max_steps, deadline=deadline,
        )
        proposals = proposals_of(planner, state)
        if not proposals:
            stopped = "no_proposal"
            break
        accepted: tuple[Proposal, Action, tuple[tuple[str, ...], MetricReport], float] | None = None
        finalize = False
        markers = list_markers(document.layout)  # a refused try is undone: the same lists for every try
        listed = snapshot(document.layout, markers)
        # lists of like texts move together on the planner's own initiative; a brief may move one of them
        sets = [] if instruction or constraints else siblings.sibling_sets(document.layout)
        kin = siblings.snapshot(document.layout, sets)
        queue = list(proposals[:TRIES_PER_STEP])
        tries = 0
        while queue and tries < TRIES_PER_STEP + MAX_FALLBACKS:
            proposal = queue.pop(0)
            tries += 1
            result.proposed += 1
            try:
                action = parse_action(_action_dict(proposal.action))
            except InvalidAction:
                continue
            if _action_type(action) == "finalize":
                result.valid += 1
                finalize = True
                break
            if _recolours(action) and not (instruction or any(isinstance(c, ContrastConstraint) for c in constraints)):
                continue  # text keeps its colour unless the user asks (contrast is reported, not fixed)
            t_step = time.monotonic()
            try:
                with attempt(document, action, constraints=constraints, weights=weights) as trial:
                    if (set(trial.changed_ids) & protected or detached_lists(listed, document.layout, markers)
                            or siblings.detached_siblings(kin, document.layout, sets)):
                        continue  # it would move a locked or kept element, pull a list off its bullets or apart
                    result.valid += 1
                    after = trial.report
                    if guard and not (improves(report, after, tolerance)
                                      and after.composite >= start.composite - tolerance):
                        continue  # undone as the block ends
                    if verify:
                        if ink is None:
                            with _undone(document, trial):
                                ink = ink_start = measure(document)
                        ink_after = measure(document)
                        verdict = compare(ink, ink_after)
                        if not verdict.ok:
                            result.rejected.append(f"{_action_type(action)} {sorted(trial.changed_ids)[:3]}: "
                                                   f"{verdict.describe()}")
                            queue[:0] = proposal.fallbacks  # the other ways to mend that defect, next
                            continue
                        ink = ink_after
                    trial.keep()
            except InvalidAction:
                continue
            if session is not None:  # replay the accepted edit through the session's history
                undo_diffs(document, trial.diffs)
                session.apply([action])
            accepted = (proposal, action, (trial.changed_ids, after), time.monotonic() - t_step)
            break
        if finalize and accepted is None:
            stopped = "finalize"
            break
        if accepted is None:
            stopped = "no_improvement"
            break
        proposal, action, (changed, after), seconds = accepted
        record = StepRecord(
            step=step, action=_action_dict(action), reason=proposal.reason or _action_type(action),
            metric=proposal.metric, changed_ids=changed,
            composite_before=report.composite, composite_after=after.composite,
            fit_before=instruction_fit(report), fit_after=instruction_fit(after), seconds=seconds,
        )
        result.steps.append(record)
        for element_id in changed:
            result.changes.setdefault(element_id, []).append(record.reason)
        report = after
    result.end = report
    result.stopped = stopped
    if ink_start is not None and ink is not None and result.steps:
        result.damage = compare(ink_start, ink)  # what all the kept edits together show, against the start
    result.seconds = time.monotonic() - t0
    return result


__all__ = ["run_planner", "improves", "instruction_fit", "lock_elements", "FIT_TOLERANCE", "SessionLike"]
