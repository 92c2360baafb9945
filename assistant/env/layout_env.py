"""``LayoutEnv``: improve a layout one edit action at a time (Gymnasium-style).

Description
    An episode starts from a generated task (a realistically broken layout
    with a brief, see :mod:`assistant.env.tasks`) or from any imported
    ``Document`` with an optional instruction. The agent edits it with the
    project's action vocabulary until it finalizes or runs out of steps.

Action space
    One action of :mod:`assistant.actions` — an ``Action`` model, its JSON
    dict or its JSON text (``{"type": "move", "ids": ["logo"], "dx": 10,
    "dy": 0}``, …, ``{"type": "finalize"}``). ``action_space`` is the JSON
    schema of that union.

Observation
    A dict of plain JSON values (see :mod:`assistant.env.observation`): canvas,
    elements (ids, roles, boxes, text snippets), metric scores, the weakest
    metrics with findings and suggested fixes, the instruction, the step.
    :func:`observation_text` renders it compactly for language models.

Reward
    Potential-based shaping ``Φ(s') − Φ(s)`` with
    ``Φ = (composite + β·instruction_fit) / (1 + β)``, minus penalties for
    invalid actions, no-ops and premature finalize (see
    :mod:`assistant.env.reward`). The episode's total is
    ``Φ(final) − Φ(initial) − penalties``.

Episode end
    ``terminated`` when the agent finalizes; ``truncated`` after
    ``max_steps`` steps. Stepping after either raises ``EnvError``; invalid
    actions (unknown type, wrong field types, NaN sizes, unknown ids, locked
    elements) do not end the episode: they leave the state unchanged, cost
    the invalid penalty and say why in ``info["error"]``.

Arguments:
    ``task``: a task name or list of names to draw from (default: all);
    ``max_steps`` (24); ``reward``: a ``RewardConfig``; ``weights``: metric
    weights overriding the task's; ``weakest`` / ``findings_per_metric``:
    how much of the metric report the observation shows.

``info`` (from ``reset`` and ``step``) has one key per metric score, plus
``composite``, ``instruction_fit``, ``potential``, ``valid``, ``error`` (only
when invalid), ``changed_ids``, ``noop``, ``premature_finalize``, the reward
terms ``reward_shaping`` / ``reward_penalty``, ``step`` and ``task``.
All randomness (which task, which task seed) comes from ``np_random``, one
``numpy.random.Generator`` seeded by ``reset(seed=...)``. ``copy.deepcopy(env)``
(or ``env.clone()``) gives an independent env for simulation, cheaply.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assistant.actions import action_json_schema, apply_action, parse_action
from assistant.document import Document, Layout
from assistant.env.observation import build_observation, observation_text
from assistant.env.reward import RewardConfig, is_premature, potential, remaining_gap_share, shaping
from assistant.env.tasks import TASKS, Task, make_task, task_names
from assistant.errors import EnvError, InvalidAction, LayoutError
from assistant.importer import import_svg_text
from assistant.instructions import Constraint
from assistant.instructions.brief import compile_brief
from assistant.metrics import MetricReport, evaluate
from assistant.svg.write import export_svg

#: Largest task seed drawn by the environment.
_MAX_TASK_SEED = 2**31 - 1


class LayoutEnv:
    """Improve a layout by edit actions; see the module docstring for the contract."""

    metadata: dict[str, Any] = {"render_modes": ["svg"]}

    def __init__(self, task: str | list[str] | None = None, *, max_steps: int = 24,
                 reward: RewardConfig | None = None, weights: dict[str, float] | None = None,
                 weakest: int = 3, findings_per_metric: int = 2) -> None:
        names = task_names() if task is None else [task] if isinstance(task, str) else list(task)
        unknown = [n for n in names if n not in TASKS]
        if unknown or not names:
            raise EnvError(f"unknown task(s) {unknown}; known tasks: {', '.join(task_names())}")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise EnvError(f"max_steps must be a positive integer, got {max_steps!r}")
        self.task_names = names
        self.max_steps = max_steps
        self.reward_config = reward or RewardConfig()
        self.weights_override = dict(weights) if weights else None
        self.weakest = weakest
        self.findings_per_metric = findings_per_metric
        self.np_random: np.random.Generator = np.random.default_rng()
        self._doc: Document | None = None
        self._task: Task | None = None
        self._instruction: str | None = None
        self._constraints: list[Constraint] = []
        self._clean_phi: float | None = None
        self._steps = 0
        self._done = True
        self._started = False

    # -- spaces -----------------------------------------------------------
    @property
    def action_space(self) -> dict[str, Any]:
        """JSON schema of the action union (the grammar an agent must follow)."""
        return action_json_schema()

    # -- state accessors ----------------------------------------------------
    @property
    def document(self) -> Document:
        """The document being edited (do not mutate it directly)."""
        if self._doc is None:
            raise EnvError("call reset() before using the environment")
        return self._doc

    @property
    def task(self) -> Task | None:
        """The current ``Task`` (None when the episode started from a document)."""
        return self._task

    @property
    def constraints(self) -> list[Constraint]:
        """The episode's constraints (compiled from its instruction or given), as a new list."""
        return list(self._constraints)

    @property
    def instruction(self) -> str | None:
        """The episode's instruction (None when it has none)."""
        return self._instruction

    # -- episode ------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Start an episode and return its first observation and info.

        ``options`` may hold ``task`` (a name or ``Task``), ``task_seed``, or
        ``document`` (a ``Document`` or SVG text) with ``instruction``,
        ``constraints`` (list or JSON) and ``weights``.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise EnvError(f"seed must be an integer, got {seed!r}")
            self.np_random = np.random.default_rng(int(seed))
        # Until this reset succeeds the env is unusable (a failed reset leaves no half-started episode).
        self._started, self._done = False, True
        opts = dict(options or {})
        unknown = sorted(set(opts) - {"task", "task_seed", "document", "instruction", "constraints", "weights"})
        if unknown:
            raise EnvError(f"unknown reset option(s) {unknown}")
        self._task = None
        self._not_understood: list[str] = []
        if opts.get("document") is not None:
            if opts.get("task") is not None:
                raise EnvError("give either a task or a document, not both")
            self._doc = self._load_document(opts["document"])
            self._instruction = opts.get("instruction")
            brief = compile_brief(self._instruction, self._doc.layout, constraints=opts.get("constraints"))
            self._not_understood = list(brief.not_understood)
            self._constraints = list(brief.constraints)
            weights = opts.get("weights")
            self._clean_phi = None
        else:
            task = opts.get("task")
            if isinstance(task, Task):
                self._task = task
            else:
                name = task if task is not None else self.task_names[int(self.np_random.integers(len(self.task_names)))]
                tseed = opts.get("task_seed")
                if tseed is None:
                    tseed = int(self.np_random.integers(_MAX_TASK_SEED))
                self._task = make_task(name, tseed)
            self._doc = self._task.broken.copy()
            self._instruction = self._task.instruction
            self._constraints = list(self._task.constraints)
            if opts.get("instruction") or opts.get("constraints") is not None:
                raise EnvError("instruction/constraints options go with a document; tasks bring their own")
            weights = opts.get("weights", self._task.weights)
        self._weights = {**(weights or {}), **(self.weights_override or {})} or None
        self._steps = 0
        self._report = self._evaluate(self._doc.layout)
        self._phi = self._potential(self._report)
        self._phi_initial = self._phi
        if self._task is not None:
            self._clean_phi = self._potential(self._evaluate(self._task.clean.layout))
        self._done = False
        self._started = True
        info = self._info(valid=True, changed_ids=[], noop=False, premature=False, shaped=0.0, penalty=0.0)
        if self._not_understood:
            info["not_understood"] = list(self._not_understood)
        return self._observe(), info

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        """Apply one action; returns ``(obs, reward, terminated, truncated, info)``."""
        if not self._started:
            raise EnvError("call reset() before step()")
        if self._done:
            raise EnvError("the episode has ended (finalized or out of steps); call reset() to start another")
        cfg = self.reward_config
        self._steps += 1
        terminated = premature = noop = False
        changed: list[str] = []
        error = None
        shaped = penalty = 0.0
        try:
            parsed = parse_action(action)
            if parsed.type == "finalize":
                terminated = True
                premature = is_premature(self._phi, self._phi_initial, self._clean_phi, cfg)
                penalty = cfg.premature_penalty if premature else 0.0
            else:
                diff = apply_action(self.document, parsed)
                changed = list(diff.changed_ids)
                report = self._evaluate(self.document.layout)
                phi = self._potential(report)
                shaped = shaping(self._phi, phi)
                noop = diff.is_noop or (all(diff.before.get(i) == diff.after.get(i) for i in changed)
                                        and abs(shaped) < 1e-12 and report.scores() == self._report.scores())
                penalty = cfg.noop_penalty if noop else 0.0
                self._report, self._phi = report, phi
        except InvalidAction as exc:
            error = str(exc)
            penalty = cfg.invalid_penalty
        truncated = not terminated and self._steps >= self.max_steps
        self._done = terminated or truncated
        info = self._info(valid=error is None, changed_ids=changed, noop=noop, premature=premature,
                          shaped=shaped, penalty=penalty)
        if error is not None:
            info["error"] = error
        return self._observe(), shaped - penalty, terminated, truncated, info

    def __deepcopy__(self, memo: dict[int, Any]) -> LayoutEnv:
        """An independent copy for simulation (GRPO samples, lookahead).

        The document and the random generator are copied; the task, constraints
        and metric report, which the env never mutates, are shared.
        """
        import copy as _copy

        clone = _copy.copy(self)
        clone.np_random = _copy.deepcopy(self.np_random, memo)
        if self._doc is not None:
            clone._doc = self._doc.copy()
        return clone

    def clone(self) -> LayoutEnv:
        """Same as ``copy.deepcopy(env)``."""
        import copy as _copy

        return _copy.deepcopy(self)

    # -- views ----------------------------------------------------------------
    def observation(self) -> dict[str, Any]:
        """The current observation dict (same as the last one returned)."""
        return self._observe()

    def observation_text(self) -> str:
        """The current observation as compact text for language models."""
        return observation_text(self._observe())

    def render(self) -> str:
        """The current document as SVG text."""
        return export_svg(self.document).decode("utf-8")

    @property
    def report(self) -> MetricReport:
        """The current ``MetricReport``."""
        if not self._started:
            raise EnvError("call reset() first")
        return self._report

    # -- internals ------------------------------------------------------------
    def _load_document(self, doc: Document | str | bytes) -> Document:
        if isinstance(doc, Document):
            return doc.copy()
        if isinstance(doc, (str, bytes)):
            try:
                return import_svg_text(doc, source="<reset document>")
            except LayoutError as exc:
                raise EnvError(f"reset document: {exc}") from exc
        raise EnvError(f"the document option must be a Document or SVG text, got {type(doc).__name__}")

    def _evaluate(self, layout: Layout) -> MetricReport:
        return evaluate(layout, constraints=self._constraints, weights=self._weights)

    def _potential(self, report: MetricReport) -> float:
        return potential(report.composite, report.metrics["instruction_fit"].score, self.reward_config)

    def _observe(self) -> dict[str, Any]:
        return build_observation(self.document.layout, self._report, instruction=self._instruction,
                                 constraints=self._constraints, step=self._steps, max_steps=self.max_steps,
                                 weakest=self.weakest, findings_per_metric=self.findings_per_metric)

    def _info(self, *, valid: bool, changed_ids: list[str], noop: bool, premature: bool, shaped: float,
              penalty: float) -> dict[str, Any]:
        info: dict[str, Any] = dict(self._report.scores())
        info.update({
            "composite": self._report.composite,
            "potential": self._phi,
            "valid": valid,
            "changed_ids": changed_ids,
            "noop": noop,
            "premature_finalize": premature,
            "reward_shaping": shaped,
            "reward_penalty": penalty,
            "step": self._steps,
            "task": self._task.name if self._task is not None else None,
        })
        if self._clean_phi is not None:
            info["clean_potential"] = self._clean_phi
            info["gap_remaining"] = remaining_gap_share(self._phi, self._phi_initial, self._clean_phi)
        return info


__all__ = ["LayoutEnv", "RewardConfig", "observation_text"]
