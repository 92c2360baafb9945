"""Policies played on held-out episodes: generated tasks (with or without their brief) and imported files.

``run_episode`` plays one task at one seed, ``run_file_episode`` one file, both to the stop rule of
``play_episode``; ``evaluate_policies`` plays every policy on every task and sums the episodes up in rows
(``summarise``): what the report's policy tables show (``python -m models.eval --run runs/tiny``).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from typing import Any

from models.data import SEED_RANGES


@dataclass
class EpisodeResult:
    """One episode of a policy on a task and seed: its scores at the end and how its answers fared."""

    policy: str
    task: str
    seed: int
    composite: float
    fit: float
    gap_closed: float
    answers: int = 0
    parsed: int = 0        # answers that parse as an action of the schema (well-formed)
    valid: int = 0         # answers the environment accepted
    premature: bool = False
    steps: int = 0
    seconds: float = 0.0
    ended: str = ""        # what ended it: one of ENDINGS


#: How an episode can end: an answer that left the layout unchanged, one that was not a valid action,
#: ``finalize``, or the step limit.
ENDINGS = ("no-op", "invalid", "finalize", "step limit")


@dataclass
class PolicyRow:
    """A policy's episodes on one task (or ``all``) summed up: mean scores, rates per answer, the endings' shares."""

    policy: str
    task: str
    episodes: int
    composite: float
    fit: float
    gap_closed: float
    valid_rate: float
    premature_rate: float
    wellformed_rate: float
    steps: float
    ms_per_step: float
    details: list[EpisodeResult] = field(default_factory=list, repr=False)
    ended: dict[str, float] = field(default_factory=dict)   # share of episodes per ending (ENDINGS)


def run_episode(policy: Any, task: str, seed: int, *, max_steps: int, ids: str = "plain",
                instruction: bool = True) -> EpisodeResult:
    """One held-out episode of ``policy`` (see the module docstring for the stop rule).

    ``ids``: how the task's elements are named (``assistant.env.tasks.generate_svgs``). Without
    ``instruction`` the task's broken layout comes as a plain document, with the task's metric
    weights and no brief, as ``fix`` meets a file; there is no clean layout to close a gap to, so
    its gap closed is 0.
    """
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task

    env = LayoutEnv(task, max_steps=max_steps)
    t = make_task(task, seed, ids=ids)
    options = {"task": t} if instruction else {"document": t.broken.copy(), "weights": t.weights}
    _, info = env.reset(seed=seed, options=options)
    return play_episode(policy, env, info, task, seed)


def run_file_episode(policy: Any, document: Any, name: str, *, max_steps: int, seed: int = 0) -> EpisodeResult:
    """``policy`` improving one imported file (``assistant.document.Document``) on its own.

    No brief, the default metric weights, the same stop rule as :func:`run_episode`; recorded as task
    ``name``, ``seed`` (``models.files``: 0 for the file as it is, above for a perturbed copy).
    A file the model cannot read (its prompt longer than the model's context) ends the episode as an
    invalid answer, the layout unchanged: the planner failed on that file.
    """
    from models.files import file_env

    env, info = file_env(document, max_steps=max_steps)
    return play_episode(policy, env, info, name, seed, refusals_invalid=True)


def play_episode(policy: Any, env: Any, info: dict[str, Any], task: str, seed: int, *,
                 refusals_invalid: bool = False) -> EpisodeResult:
    """Let ``policy`` act in the freshly reset ``env`` until the episode ends or an answer stops it.

    With ``refusals_invalid`` a model that refuses the prompt (``ValueError``: longer than its context)
    gives an answer that is no action, which ends the episode as invalid.
    """
    from models.policies import Decision

    res = EpisodeResult(policy.name, task, seed, info["composite"], info["instruction_fit"],
                        1.0 - info.get("gap_remaining", 1.0))
    while True:
        try:
            decision = policy.act(env)
        except ValueError as exc:
            if not refusals_invalid:
                raise
            decision = Decision(None, f"no answer: {exc}", 0.0)
        res.answers += 1
        res.parsed += decision.action is not None
        res.seconds += decision.seconds
        _, _, terminated, truncated, info = env.step(decision.action if decision.action is not None else decision.text)
        res.steps += 1
        res.valid += int(bool(info["valid"]))
        res.premature = bool(info.get("premature_finalize"))
        if terminated or truncated or not info["valid"] or info.get("noop"):
            res.ended = ("finalize" if terminated else "invalid" if not info["valid"] else
                         "no-op" if info.get("noop") else "step limit")
            break
    res.composite, res.fit = env.report.composite, env.report.metrics["instruction_fit"].score
    res.gap_closed = 1.0 - info.get("gap_remaining", 1.0)
    return res


def summarise(policy: str, task: str, eps: list[EpisodeResult]) -> PolicyRow:
    """The row of ``policy`` on ``task`` from its episodes ``eps``: means per episode, rates per answer."""
    answers = sum(e.answers for e in eps)
    return PolicyRow(
        policy=policy, task=task, episodes=len(eps), composite=statistics.fmean(e.composite for e in eps),
        fit=statistics.fmean(e.fit for e in eps), gap_closed=statistics.fmean(e.gap_closed for e in eps),
        valid_rate=sum(e.valid for e in eps) / max(answers, 1),
        premature_rate=sum(e.premature for e in eps) / len(eps),
        wellformed_rate=sum(e.parsed for e in eps) / max(answers, 1), steps=statistics.fmean(e.steps for e in eps),
        ms_per_step=1000 * sum(e.seconds for e in eps) / max(answers, 1), details=eps,
        ended={k: sum(e.ended == k for e in eps) / max(len(eps), 1) for k in ENDINGS})


def evaluate_policies(policies: list[Any], tasks: list[str], episodes: int, *, max_steps: int = 12,
                      ids: str = "plain", first_seed: int | None = None,
                      instruction: bool = True) -> list[PolicyRow]:
    """One row per policy × task plus an ``all`` row per policy (when there are several tasks).

    Elements are named as ``ids`` says; without ``instruction`` the tasks come without their briefs
    (:func:`run_episode`). Episode *i* of a task runs seed ``first_seed + i`` (default: the first held-out test seed).
    """
    start = SEED_RANGES["test"][0] if first_seed is None else first_seed
    rows: list[PolicyRow] = []
    for policy in policies:
        all_eps: list[EpisodeResult] = []
        for task in tasks:
            eps = [run_episode(policy, task, start + i, max_steps=max_steps, ids=ids, instruction=instruction)
                   for i in range(episodes)]
            all_eps += eps
            rows.append(summarise(policy.name, task, eps))
            print(json.dumps({k: v for k, v in rows[-1].__dict__.items() if k != "details"}))
        if len(tasks) > 1:
            rows.append(summarise(policy.name, "all", all_eps))
    return rows
