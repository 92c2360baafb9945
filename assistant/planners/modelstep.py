"""One decision of a language-model planner: answers → validated actions → verified choice.

Shared by the ``local`` (llama.cpp) and ``remote`` (OpenAI-compatible) planners.
A model writes up to K *distinct* answers for the same prompt
(:func:`distinct_answers`: answer 0 greedy, the others sampled; a sample that
repeats an earlier action is drawn again, up to ``DRAWS_PER_ANSWER`` × K draws,
at a rising temperature). Each answer is

1. parsed (``assistant.planners.prompting.parse_completion``) and validated
   (``assistant.actions.parse_action``); a failure is *counted* (``invalid``)
   and the answer dropped — never applied;
2. simulated (:func:`assistant.actions.trial.simulate`: applied, scored and
   undone exactly); an action that does not apply (unknown id, locked
   element …) is counted as invalid too;
3. kept when it passes the planner loop's improvement guard
   (``assistant.planners.loop.improves``: a higher composite, or a higher
   instruction fit costing at most the tolerance).

With ``tune`` (the local and remote planners' default), every valid answer
is also simulated with its amounts scaled (:func:`amount_variants`: a move
0.25 … 3 times as far, on both axes or on one; a promote, demote or resize
factor's step from 1 scaled alike; a stack's or spread's gap scaled), and the
answer counts with whichever of those versions scores best. A small model
often names the right edit — which element, which kind of change — with the
wrong amount; the simulation settles the amount, never the edit.

With ``suggestions`` (the local and remote planners' option of that name,
on by default), the fixes that the observation's findings suggest — the ``fix: {…}`` the
prompt shows the model, :func:`finding_fixes` — are verified alongside the
answers, tuned alike: the model's answers and the metrics' own suggestions
compete by simulation. Their proposals say "suggested fix"; their wins are
counted in ``ModelStats.suggested_choice``.

The kept candidates are ranked by composite gain (fit gain breaks ties) and
returned as proposals whose reason says which answer it was (and the amount
chosen); when none is kept the decision is ``finalize`` ("no model answer
improves the layout"). Nothing else is ever proposed: there is no fallback to
another planner.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.actions import Action, parse_action
from assistant.actions.trial import simulate
from assistant.document import Layout
from assistant.env.observation import build_observation, observation_text
from assistant.errors import InvalidAction, PlannerError
from assistant.metrics import MetricReport
from assistant.planners.base import PlannerState, Proposal, action_ids
from assistant.planners.loop import FIT_TOLERANCE, improves, instruction_fit
from assistant.planners.prompting import canonical_action, parse_completion


@dataclass
class ModelStats:
    """Counters of a model planner over its lifetime (reset with :meth:`reset`).

    ``answers`` model answers read; ``invalid`` those that did not parse or
    validate against the action schema (the grammar rules these out);
    ``rejected`` valid actions that do not apply to this layout (the edit
    would leave the canvas, names a locked element …); ``timeouts`` answers
    cut by the per-step timeout;
    ``repeats`` sampled answers that repeated an earlier answer's action
    (drawn again, see :func:`distinct_answers`);
    ``errors`` failed calls (remote); ``decisions`` propose calls;
    ``own_choice`` decisions whose best candidate was the model's first
    (greedy) answer; ``verified_choice`` decisions won by another sample;
    ``suggested_choice`` decisions won by a finding's suggested fix (``suggestions``);
    ``no_improvement`` decisions that found no improving answer;
    ``seconds`` time spent waiting for the model.
    """

    answers: int = 0
    invalid: int = 0
    rejected: int = 0
    timeouts: int = 0
    repeats: int = 0
    errors: int = 0
    decisions: int = 0
    own_choice: int = 0
    verified_choice: int = 0
    suggested_choice: int = 0
    no_improvement: int = 0
    seconds: float = 0.0
    invalid_examples: list[str] = field(default_factory=list)

    def reset(self) -> None:
        """Set every count back to zero."""
        fresh = ModelStats()
        self.__dict__.update(fresh.__dict__)

    @property
    def valid_rate(self) -> float:
        """Share of the answers that validated (1.0 before any answer)."""
        return 1.0 - self.invalid / self.answers if self.answers else 1.0

    def as_dict(self) -> dict[str, Any]:
        """The counts as JSON, with ``valid_rate`` and without the invalid examples."""
        d = {k: v for k, v in self.__dict__.items() if k != "invalid_examples"}
        d["seconds"] = round(self.seconds, 4)
        d["valid_rate"] = round(self.valid_rate, 4)
        return d

    def note_invalid(self, text: str, problem: str, *, rejected: bool = False) -> None:
        """Count an answer that failed validation (or, with ``rejected``, did not apply)."""
        if rejected:
            self.rejected += 1
        else:
            self.invalid += 1
        if len(self.invalid_examples) < 5:
            self.invalid_examples.append(f"{problem}: {text[:160]!r}")


#: draws allowed per wanted distinct answer (a small model repeats its likeliest answers often)
DRAWS_PER_ANSWER = 3
#: sampling temperature multipliers over the first, second and last third of the draws
TEMPERATURE_RAMP = (1.0, 1.25, 1.625)


def answer_key(text: str) -> str:
    """What makes two answers the same: their validated action (canonical JSON), or the text when it is not one."""
    try:
        return json.dumps(parse_action(parse_completion(text)).model_dump(mode="json", exclude_none=True),
                          sort_keys=True)
    except InvalidAction:
        return text.strip()


def distinct_answers(draw: Callable[[int, float], str], k: int, temperature: float, *,
                     deadline: float | None = None, stats: ModelStats | None = None,
                     max_draws: int | None = None) -> list[str]:
    """Up to ``k`` answers with different actions, from ``draw(index, temperature) -> text``.

    Draw 0 is greedy (temperature 0); later draws sample at ``temperature``,
    raised by ``TEMPERATURE_RAMP`` over the second and last third of the
    ``max_draws`` (default ``DRAWS_PER_ANSWER × k``) draws, so that when the
    likeliest answers keep coming back the search widens (best-of-K by
    simulation is only as good as its K different candidates). A repeat is
    counted in ``stats.repeats`` and not returned. Stops at ``k`` answers,
    ``max_draws`` draws, or at ``deadline`` (``time.monotonic()``) once one answer is in.
    Deterministic when ``draw`` is (seeded by its index).
    """
    k = max(1, int(k))
    limit = DRAWS_PER_ANSWER * k if max_draws is None else max(k, int(max_draws))
    texts: list[str] = []
    seen: set[str] = set()
    for i in range(1 if k == 1 else limit):
        if len(texts) >= k or (texts and deadline is not None and time.monotonic() >= deadline):
            break
        ramp = TEMPERATURE_RAMP[min(len(TEMPERATURE_RAMP) - 1, (i - 1) * len(TEMPERATURE_RAMP) // max(limit - 1, 1))]
        text = draw(i, 0.0 if i == 0 else temperature * ramp)
        key = answer_key(text)
        if key in seen:
            if stats is not None:
                stats.repeats += 1
            continue
        seen.add(key)
        texts.append(text)
    return texts


@dataclass
class Candidate:
    """One validated, simulated model answer."""

    index: int
    action: Action
    text: str
    gain: float
    fit_gain: float | None
    report: MetricReport
    changed_ids: tuple[str, ...]
    tuned: str = ""


def validate_answer(text: str, stats: ModelStats) -> Action | None:
    """The validated ``Action`` of a model answer, or ``None`` (counted invalid)."""
    stats.answers += 1
    try:
        return parse_action(parse_completion(text))
    except InvalidAction as exc:
        stats.note_invalid(text, str(exc).splitlines()[0])
        return None


#: Multipliers :func:`amount_variants` applies to an answer's amounts.
AMOUNT_SCALES = (0.25, 0.5, 1.5, 2.0, 3.0)


def amount_variants(action: dict[str, Any]) -> list[dict[str, Any]]:
    """The edit ``action`` (a JSON dict) with its amounts scaled by :data:`AMOUNT_SCALES`.

    The variants are canonical, without repeats or the action itself; none for an
    edit without amounts (align, reorder …).

    - ``move``: ``dx`` and ``dy`` together, and each alone when both are set;
    - ``promote`` / ``demote`` / ``resize`` by ``scale``: the factor's step from 1 (a factor of 1.2
      becomes 1.05, 1.1, 1.3, 1.4, 1.6);
    - ``distribute`` / ``reflow_group`` with a ``gap``: the gap.

    Variants the action schema refuses (a factor not above 1, say) are returned all the same; the
    caller validates each.
    """
    kind = action.get("type")
    forms: list[dict[str, Any]] = []
    if kind == "move":
        dx, dy = float(action.get("dx") or 0.0), float(action.get("dy") or 0.0)
        axes = [(dx, dy)] + ([(dx, 0.0), (0.0, dy)] if dx and dy else [])
        for ax, ay in axes:
            forms += [{**action, "dx": ax * s, "dy": ay * s} for s in (1.0, *AMOUNT_SCALES)]
    elif kind in ("promote", "demote") and action.get("factor") is not None:
        forms = [{**action, "factor": 1.0 + (float(action["factor"]) - 1.0) * s} for s in AMOUNT_SCALES]
    elif kind == "resize" and action.get("scale") is not None:
        forms = [{**action, "scale": 1.0 + (float(action["scale"]) - 1.0) * s} for s in AMOUNT_SCALES]
    elif kind in ("distribute", "reflow_group") and action.get("gap") is not None:
        forms = [{**action, "gap": float(action["gap"]) * s} for s in AMOUNT_SCALES]
    own = json.dumps(canonical_action(action), sort_keys=True)
    out: dict[str, dict[str, Any]] = {}
    for form in forms:
        try:
            canon = canonical_action(form)
        except InvalidAction:
            continue
        key = json.dumps(canon, sort_keys=True)
        if key != own:
            out.setdefault(key, canon)
    return list(out.values())


def describe_amount(answer: dict[str, Any], chosen: dict[str, Any]) -> str:
    """How ``chosen`` (an amount variant of ``answer``) differs, e.g. ``"dy -5 → -15"``; "" when equal."""
    parts = [f"{k} {answer.get(k, 0)} → {v}" for k, v in chosen.items()
             if k in ("dx", "dy", "factor", "scale", "gap") and v != answer.get(k, 0)]
    return ", ".join(parts)


def switch(name: str, value: Any) -> bool:
    """A planner's on/off option (``tune``, ``suggestions``): true or false, 1 or 0; anything else refused."""
    if not isinstance(value, (bool, int)) or value not in (0, 1):
        raise PlannerError(f"{name} must be true or false (1 or 0), got {value!r}")
    return bool(value)


def finding_fixes(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """The fixes the observation's findings suggest (the ``fix: {…}`` of its prompt), first mention kept."""
    fixes: list[dict[str, Any]] = []
    seen: set[str] = set()
    for weak in obs["weakest"]:
        for finding in weak["findings"]:
            fix = {k: v for k, v in (finding.get("suggestion") or {}).items() if v is not None}
            key = json.dumps(fix, sort_keys=True)
            if fix and key not in seen:
                seen.add(key)
                fixes.append(fix)
    return fixes


def choose(state: PlannerState, texts: list[str], stats: ModelStats, *, source: str,
           tolerance: float = FIT_TOLERANCE, tune: bool = False,
           suggested: Sequence[dict[str, Any]] = ()) -> list[Proposal]:
    """Ranked proposals from the model answers ``texts`` for ``state`` (see the module docstring).

    The ``suggested`` fixes (:func:`finding_fixes`) are verified beside the answers when given.
    """
    stats.decisions += 1
    frozen = state.frozen_ids
    seen: set[str] = set()
    kept: list[Candidate] = []
    said_finalize = False
    before = state.report
    fit_b = instruction_fit(before)

    def trial(action: Action) -> tuple[MetricReport, tuple[str, ...]] | None:
        """The simulated ``(report, changed)`` of ``action`` when it passes the improvement guard."""
        tried = simulate(state.document, action, constraints=state.constraints, weights=state.weights)
        return (tried.report, tried.changed_ids) if improves(before, tried.report, tolerance) else None

    answers = len(texts)
    for index, text in enumerate([*texts, *(json.dumps(fix) for fix in suggested)]):
        if index < answers:
            action = validate_answer(text, stats)
        else:
            try:
                action = parse_action(json.loads(text))
            except InvalidAction:
                continue
        if action is None:
            continue
        dump = action.model_dump(mode="json", exclude_none=True)
        if dump.get("type") == "finalize":
            said_finalize = said_finalize or index == 0
            continue
        key = json.dumps(dump, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        if action_ids(dump) & frozen:
            if index < answers:
                stats.note_invalid(text, "names a locked or kept element", rejected=True)
            continue
        options: list[tuple[Action, tuple[MetricReport, tuple[str, ...]]]] = []
        try:
            result = trial(action)
            if result is not None:
                options.append((action, result))
        except InvalidAction as exc:
            if index < answers:
                stats.note_invalid(text, str(exc).splitlines()[0], rejected=True)
        if tune and state.time_left() > 0:
            for form in amount_variants(dump):
                try:
                    variant = parse_action(form)
                    result = trial(variant)
                except InvalidAction:
                    continue
                if result is not None:
                    options.append((variant, result))
        if not options:
            continue
        best, (report, changed) = max(options, key=lambda o: o[1][0].composite)
        fit_a = instruction_fit(report)
        fit_gain = None if fit_b is None or fit_a is None else fit_a - fit_b
        tuned = describe_amount(dump, best.model_dump(mode="json", exclude_none=True)) if best is not action else ""
        kept.append(Candidate(index, best, text, report.composite - before.composite, fit_gain, report, changed,
                              tuned))
    if not kept:
        stats.no_improvement += 1
        why = ("the model answered finalize" if said_finalize
               else f"no {source} answer improves the layout ({answers} answer{'s' * (answers != 1)})")
        if suggested:
            why += f", nor does any of the {len(suggested)} suggested fix{'es' * (len(suggested) != 1)}"
        return [Proposal(action=parse_action({"type": "finalize"}), reason=why, metric="planner")]
    kept.sort(key=lambda c: (-c.gain, -(c.fit_gain or 0.0), c.index))
    if kept[0].index == 0:
        stats.own_choice += 1
    elif kept[0].index < answers:
        stats.verified_choice += 1
    else:
        stats.suggested_choice += 1
    out = []
    for c in kept:
        which = (f"{source} model: the model's own choice" if c.index == 0
                 else f"{source} model: sample {c.index + 1} of {answers}" if c.index < answers
                 else f"a finding's suggested fix ({c.index - answers + 1} of {len(suggested)}), "
                      f"verified beside the {source} model's answers")
        which += f", amount tuned: {c.tuned}" if c.tuned else ""
        fit = "" if not c.fit_gain else f", fit {c.fit_gain:+.3f}"
        out.append(Proposal(action=c.action, reason=f"{which} (simulated {c.gain:+.4f}{fit})",
                            metric="planner", element_ids=c.changed_ids, gain=c.gain, fit_gain=c.fit_gain))
    return out


def planner_observation(state: PlannerState) -> dict[str, Any]:
    """The observation dict for ``state`` (same as ``LayoutEnv.observation``)."""
    return build_observation(state.document.layout, state.report, instruction=state.instruction,
                             constraints=state.constraints, step=state.step, max_steps=state.max_steps)


def planner_prompt_text(state: PlannerState) -> str:
    """The planner observation text for ``state`` (same as ``LayoutEnv.observation_text``)."""
    return observation_text(planner_observation(state))


def element_ids(state_or_layout: PlannerState | Layout) -> list[str]:
    """Ids a model may name: every element of the layout, in paint order."""
    layout = getattr(getattr(state_or_layout, "document", None), "layout", None) or state_or_layout
    return [e.id for e in layout.elements]


__all__ = ["ModelStats", "Candidate", "distinct_answers", "answer_key", "DRAWS_PER_ANSWER", "TEMPERATURE_RAMP",
           "validate_answer", "choose", "amount_variants", "AMOUNT_SCALES", "planner_prompt_text",
           "planner_observation",
           "element_ids", "finding_fixes", "switch"]
