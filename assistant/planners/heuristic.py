"""The heuristic planner: candidates from findings, judged by simulation.

Algorithm (one ``propose`` call = one decision):

1. Collect candidate edits for the ``max_findings`` worst findings of the
   current ``MetricReport`` (``assistant.planners.candidates``: the finding's
   own suggestion first, then its metric's generator; a defect only its own
   smallest edit, and a collision also the other moves that clear it at most
   ``DETOUR`` times as far), skipping any that name a locked or kept element;
   at most ``max_candidates`` distinct actions.
2. Simulate each on the live document — ``apply_action`` then ``undo_diff``,
   which restores it exactly, so no deep copies — and score the result with
   ``assistant.metrics.evaluate`` (an edit that would pull a bulleted list off
   its bullet shapes is dropped, ``assistant.planners.lists``). Keep the
   candidates that pass the loop's improvement guard
   (``assistant.planners.loop.improves``): a higher
   composite, or a higher instruction fit costing at most ``tolerance`` —
   and gain at least ``min_gain`` (no edit for a negligible improvement).
3. Rank by value = composite gain − ``collateral`` × (elements changed that no
   finding implicated). With ``beam_width`` > 0, the best few are re-ranked by a
   one-step lookahead: value + ``discount`` × the best gain reachable after
   them (greedy search with a short beam, as in beam-search planning). The
   lookahead is skipped when the leader's value is more than twice the
   runner-up's (with ``discount`` = 0.5 it could rarely change the order).
4. Return the ranked proposals, or ``[finalize]`` when nothing improves. A
   collision's other moves are not ranked: they ride on its own edit's proposal
   (``Proposal.fallbacks``), which the loop tries when the render refuses it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any

from assistant.actions import Action, parse_action
from assistant.actions.trial import attempt
from assistant.document import Layout
from assistant.errors import InvalidAction
from assistant.metrics import Finding, MetricReport
from assistant.planners import register_planner, siblings
from assistant.planners.base import PlannerState, Proposal, action_ids, actionable
from assistant.planners.candidates import candidates_for, unit_of
from assistant.planners.lists import detached_lists, list_markers, snapshot
from assistant.planners.loop import FIT_TOLERANCE, improves, instruction_fit


@dataclass
class _Trial:
    proposal: Proposal
    action: Action
    value: float
    order: int
    finding: int = 0  # the id() of the defect it fixes (0: not a defect's fix)
    own: bool = False  # the defect's own smallest edit


#: A collision may also be cleared by another move (the other element, the other way, pushing what is in
#: the way) at most this many times as long as the smallest one: for when the render refuses the smallest.
DETOUR = 1.5


def _length(action: dict[str, Any]) -> float:
    return math.hypot(action.get("dx", 0.0), action.get("dy", 0.0))


def _defect_fixes(finding: Finding, layout: Layout) -> list[tuple[dict[str, Any], str]]:
    """A defect's own smallest edit; for a collision, then the other moves that clear it about as briefly."""
    own = [(dict(finding.suggestion or {}), f"{finding.metric}: {finding.message} (suggested fix)")]
    if finding.metric != "overlap" or own[0][0].get("type") != "move":
        return own
    reach = DETOUR * _length(own[0][0])
    return own + [(a, why) for a, why in candidates_for(finding, layout)[1:]
                  if a.get("type") == "move" and _length(a) <= reach]


def _with_fallbacks(trials: list[_Trial]) -> list[_Trial]:
    """The trials, a defect's other fixes taken out and carried by its own smallest edit (best first).

    They are tried only when the render refuses that edit (``Proposal.fallbacks``); a defect whose own
    edit does not improve the layout gets none of them.
    """
    spare: dict[int, list[_Trial]] = {}
    for t in trials:
        if t.finding and not t.own:
            spare.setdefault(t.finding, []).append(t)
    out = []
    for t in trials:
        if t.finding and not t.own:
            continue
        if t.finding and t.finding in spare:
            backs = sorted(spare[t.finding], key=lambda b: (-b.value, b.order))
            t.proposal = replace(t.proposal, fallbacks=tuple(b.proposal for b in backs))
        out.append(t)
    return out


class HeuristicPlanner:
    """Greedy planner with a short beam: proposes the simulated-best fixes of the current findings."""

    name = "heuristic"

    def __init__(
        self,
        *,
        max_findings: int = 12,
        max_candidates: int = 48,
        beam_width: int = 2,
        min_gain: float = 0.001,
        discount: float = 0.5,
        collateral: float = 0.002,
        tolerance: float = FIT_TOLERANCE,
        top_k: int = 4,
    ) -> None:
        self.max_findings = max_findings
        self.max_candidates = max_candidates
        self.beam_width = beam_width
        self.min_gain = min_gain
        self.discount = discount
        self.collateral = collateral
        self.tolerance = tolerance
        self.top_k = top_k

    # -- the Planner contract ---------------------------------------------
    def propose(self, state: PlannerState) -> list[Action]:
        """Ranked actions for ``state`` (``[finalize]`` when no edit improves the layout)."""
        return [p.action for p in self.propose_detailed(state)]

    def propose_detailed(self, state: PlannerState) -> list[Proposal]:
        """Ranked proposals with reasons and simulated gains."""
        trials = self._trials(state, state.report, self.max_findings, self.max_candidates)
        if not trials:
            return [Proposal(action=parse_action({"type": "finalize"}),
                             reason="no candidate edit improves the layout", metric="planner")]
        trials.sort(key=lambda t: (-t.value, t.order))
        contested = len(trials) > 1 and trials[1].value * 2.0 > trials[0].value
        if self.beam_width > 0 and contested and state.time_left() > 1.0:
            beam = trials[: self.beam_width]
            for t in beam:
                t.value += self.discount * self._lookahead(state, t.action)
            beam.sort(key=lambda t: (-t.value, t.order))
            trials = beam + trials[self.beam_width:]
        return [t.proposal for t in trials[: self.top_k]]

    # -- search -------------------------------------------------------------
    def _candidates(self, state: PlannerState, report: MetricReport, max_findings: int,
                    max_candidates: int) -> list[tuple[dict[str, Any], str, Finding]]:
        layout = state.document.layout
        frozen = state.frozen_ids
        frozen_units = {unit_of(layout, i).id for i in frozen if i in layout}
        seen: set[str] = set()
        out: list[tuple[dict[str, Any], str, Finding]] = []
        for finding in actionable(report.findings(), state.constraints)[:max_findings]:
            # a defect comes with the smallest edit that removes it: that edit, not a generic family of moves
            options = (_defect_fixes(finding, layout) if finding.defect and finding.suggestion
                       else candidates_for(finding, layout))
            for action, reason in options:
                ids = action_ids(action)
                if ids & frozen or ids & frozen_units:
                    continue
                key = json.dumps(action, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                out.append((action, reason, finding))
                if len(out) >= max_candidates:
                    return out
        return out

    def _simulate(self, state: PlannerState, action: Action, markers: dict[str, list[str]],
                  listed: dict[str, Any], sets: list[list[str]] | None = None,
                  kin: dict[str, Any] | None = None) -> tuple[MetricReport, set[str]] | None:
        """Apply, score and undo ``action``; ``(report, changed ids)``, or None when it is refused.

        It is refused when invalid, when it would pull a bulleted list off its
        bullets (``markers`` and their ``listed`` snapshot, ``assistant.planners.lists``)
        or one line of a list of like texts away from the others (``sets`` and their
        ``kin`` snapshot, ``assistant.planners.siblings``).
        """
        doc = state.document
        try:
            with attempt(doc, action, constraints=state.constraints, weights=state.weights) as trial:
                if detached_lists(listed, doc.layout, markers) or (
                        sets and siblings.detached_siblings(kin or {}, doc.layout, sets)):
                    return None
                return trial.report, set(trial.changed_ids)
        except InvalidAction:
            return None

    def _trials(self, state: PlannerState, report: MetricReport, max_findings: int,
                max_candidates: int) -> list[_Trial]:
        layout = state.document.layout
        markers = list_markers(layout)
        listed = snapshot(layout, markers)  # every simulation is undone: one snapshot serves them all
        sets = [] if state.instruction or state.constraints else siblings.sibling_sets(layout)
        kin = siblings.snapshot(layout, sets)
        trials: list[_Trial] = []
        for order, (raw, reason, finding) in enumerate(
                self._candidates(state, report, max_findings, max_candidates)):
            if state.time_left() <= 0 and trials:
                break
            try:
                action = parse_action(raw)
            except InvalidAction:
                continue
            sim = self._simulate(state, action, markers, listed, sets, kin)
            if sim is None:
                continue
            after, changed = sim
            if changed & state.keep or not improves(report, after, self.tolerance):
                continue
            gain = after.composite - report.composite
            fit_b, fit_a = instruction_fit(report), instruction_fit(after)
            fit_gain = None if fit_b is None or fit_a is None else fit_a - fit_b
            if gain < self.min_gain and (fit_gain or 0.0) < self.min_gain:
                continue
            implicated = set(finding.element_ids) | {unit_of(layout, i).id for i in finding.element_ids
                                                     if i in layout}
            collateral = {c for c in changed if c not in implicated
                          and (c not in layout or unit_of(layout, c).id not in implicated)}
            value = gain - self.collateral * len(collateral) + 0.1 * max(fit_gain or 0.0, 0.0)
            proposal = Proposal(action=action, reason=reason, metric=finding.metric,
                                element_ids=tuple(finding.element_ids), gain=gain, fit_gain=fit_gain)
            trials.append(_Trial(proposal, action, value, order, id(finding) if finding.defect else 0,
                                 raw == finding.suggestion))
        return _with_fallbacks(trials)

    def _lookahead(self, state: PlannerState, action: Action) -> float:
        """Best value reachable one edit after ``action`` (0 when none improves)."""
        try:
            with attempt(state.document, action, constraints=state.constraints, weights=state.weights) as trial:
                nxt = self._trials(state, trial.report, max(2, self.max_findings // 4),
                                   max(8, self.max_candidates // 4))
        except InvalidAction:
            return 0.0
        return max((t.value for t in nxt), default=0.0)


@register_planner("heuristic")
def make_heuristic(**options: Any) -> HeuristicPlanner:
    """Fix the worst findings first: simulated candidates, greedy with a short beam; never worsens."""
    return HeuristicPlanner(**options)


__all__ = ["HeuristicPlanner", "make_heuristic"]
