"""GRPO's environment side: the states groups are sampled in, and the rewards their answers get.

``on_policy_state`` and ``file_state`` roll the current policy (``TorchPolicy``, greedy) into a state of a
generated task or a real file; ``score_group`` executes each answer in a copy of the environment and rewards
it as ``GRPOConfig.reward`` says (:data:`REWARDS`: the step's shaped reward, the return of the greedy rest of
the episode, or its final composite gain); ``charge_stops`` and ``best_gain`` adjust a group. The loop that
uses them: ``models.grpo`` (``python -m models.grpo --help``).
"""

from __future__ import annotations

import copy
import time
from typing import Any

from assistant.errors import InvalidAction
from assistant.planners.prompting import build_prompt, parse_completion
from models.lm import LM

#: What a sampled answer can be rewarded with (``GRPOConfig.reward``; see the module docstring).
REWARDS = ("step", "return", "composite")


def planner_prompt(env: Any) -> str:
    """The planner prompt of ``env``'s current state: its observation text and instruction."""
    return build_prompt(env.observation_text(), env.instruction or "", kind="planner")


def score_action(env: Any, text: str, invalid_reward: float) -> dict[str, Any]:
    """Execute one completion in a copy of ``env``; the reward and what happened."""
    try:
        action = parse_completion(text)
    except InvalidAction:
        return {"reward": invalid_reward, "parsed": False, "valid": False, "finalize": False, "premature": False,
                "noop": False}
    trial = copy.deepcopy(env)
    _, reward, terminated, truncated, info = trial.step(action)
    return {"reward": float(reward), "parsed": True, "valid": bool(info["valid"]),
            "finalize": action.get("type") == "finalize", "premature": bool(info.get("premature_finalize")),
            "noop": bool(info.get("noop")), "env": trial, "action": action, "over": bool(terminated or truncated),
            "penalty": float(info["reward_penalty"])}


def continue_greedy(lm: LM, env: Any, *, max_new_tokens: int = 64) -> tuple[float, int]:
    """Play the current policy greedily on ``env`` (in place) to the end of its episode; (summed reward, steps).

    The episode ends as a held-out one does (``models.eval.episodes.run_episode``): at ``finalize``, the step limit,
    or an answer that leaves the state unchanged (not a valid action, or a no-op); that last answer's
    penalty is counted, as the environment charges it.
    """
    policy = TorchPolicy(lm, max_new_tokens=max_new_tokens)
    total, steps = 0.0, 0
    while True:
        decision = policy.act(env)
        _, reward, terminated, truncated, info = env.step(
            decision.action if decision.action is not None else decision.text)
        total, steps = total + float(reward), steps + 1
        if terminated or truncated or not info["valid"] or info.get("noop"):
            return total, steps


def episode_return(lm: LM, result: dict[str, Any], *, max_new_tokens: int = 64) -> dict[str, Any]:
    """``result`` (:func:`score_action`) with the reward of the rest of its greedy episode added.

    The sampled action's shaped reward plus the shaped rewards of the current policy's greedy answers after
    it, to the end of the episode: by the potential's telescoping, the quality the episode ends with minus
    the quality of the state the action was sampled in, less the penalties paid on the way — the held-out
    evaluation's measure of an episode, credited to the one answer that differs. An action that ends the
    episode itself (``finalize``, a no-op, not a valid action, the last step) keeps its own reward. The
    one-step reward stays in ``step_reward``.
    """
    trial = result.get("env")
    if trial is None or not result["valid"] or result["finalize"] or result["noop"] or result["over"]:
        return {**result, "step_reward": result["reward"], "rest_steps": 0}
    rest, steps = continue_greedy(lm, copy.deepcopy(trial), max_new_tokens=max_new_tokens)
    return {**result, "reward": result["reward"] + rest, "step_reward": result["reward"], "rest_steps": steps}


def episode_composite(lm: LM, env: Any, result: dict[str, Any], *, max_new_tokens: int = 64) -> dict[str, Any]:
    """``result`` (:func:`score_action` in ``env``) rewarded by the final composite its greedy episode reaches.

    The reward is the composite of the layout at the end of the episode — the sampled answer, then the current
    policy's greedy answers to the end, stopped as ``models.eval.episodes.run_episode`` stops a held-out
    episode — minus the composite of ``env``, the state the answer was sampled in: the paired gain the
    held-out evaluation measures. Only the sampled answer's own penalty is taken off (a no-op's, a premature
    ``finalize``'s; an answer that is not a valid action keeps its fixed ``invalid_reward``): the answers that
    end the greedy rest change nothing the evaluation scores. The one-step shaped reward stays in
    ``step_reward``.
    """
    if not result["valid"]:
        return {**result, "step_reward": result["reward"], "rest_steps": 0}
    trial = result.get("env")
    steps = 0
    if trial is not None and not (result["finalize"] or result["noop"] or result["over"]):
        trial = copy.deepcopy(trial)
        _, steps = continue_greedy(lm, trial, max_new_tokens=max_new_tokens)
    end = trial.report.composite if trial is not None else env.report.composite
    gain = end - env.report.composite - result.get("penalty", 0.0)
    return {**result, "reward": gain, "step_reward": result["reward"], "rest_steps": steps}


def score_group(lm: LM, env: Any, texts: list[str], cfg: Any) -> list[dict[str, Any]]:
    """Score each sampled answer in a copy of ``env`` as ``cfg.reward`` says (``models.grpo``'s docstring, step 3).

    ``cfg`` is a ``models.grpo.GRPOConfig``. With ``return`` and ``composite``, answers with the same text
    are scored once: execution and the greedy rest of an episode are deterministic, and the rest of an
    episode is most of the cost.
    """
    if cfg.reward == "step":
        return [score_action(env, text, cfg.invalid_reward) for text in texts]
    if cfg.reward not in REWARDS:
        raise ValueError(f"GRPO reward must be one of {', '.join(REWARDS)}; got {cfg.reward!r}")
    done: dict[str, dict[str, Any]] = {}
    for text in texts:
        if text not in done:
            scored = score_action(env, text, cfg.invalid_reward)
            done[text] = (episode_return(lm, scored, max_new_tokens=cfg.max_new_tokens) if cfg.reward == "return"
                          else episode_composite(lm, env, scored, max_new_tokens=cfg.max_new_tokens))
    return [done[t] for t in texts]


def best_gain(results: list[dict[str, Any]]) -> float:
    """The highest reward of a valid edit (not ``finalize``, not a no-op) among ``results`` (0 when none)."""
    return max((r["reward"] for r in results if r["valid"] and not r["finalize"] and not r["noop"]), default=0.0)


def charge_stops(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Charge the answers that end a greedy episode (``finalize``, a no-op) with the best gain their group found.

    The environment rewards a finalize the environment does not call premature with 0 and a no-op with a small
    penalty, which is above the mean of any group holding a few poor edits: GRPO then learns to stop. Here such
    an answer's reward is lowered by the best reward of an edit sampled beside it (nothing when no edit in the
    group improves the layout) — stopping costs what the policy itself showed it could still gain, the rule by
    which the verified policy finalizes. Returns new result dicts; the others are unchanged.
    """
    gain = best_gain(results)
    return [{**r, "reward": r["reward"] - max(gain, 0.0)} if r["valid"] and (r["finalize"] or r["noop"]) else r
            for r in results]


class TorchPolicy:
    """Greedy planner answers of an ``LM`` in training (torch), as ``models.eval`` policies answer."""

    def __init__(self, lm: LM, *, name: str = "grpo", max_new_tokens: int = 64) -> None:
        self.lm, self.name, self.max_new_tokens = lm, name, max_new_tokens

    def act(self, env: Any) -> Any:
        """The model's greedy answer to ``env``'s planner prompt, parsed (``None`` when it is no action), timed."""
        from models.lm import generate
        from models.policies import Decision

        t0 = time.perf_counter()
        _, text = generate(self.lm, planner_prompt(env), max_new_tokens=self.max_new_tokens)
        try:
            action = parse_completion(text)
        except InvalidAction:
            action = None
        return Decision(action, text, time.perf_counter() - t0)


def on_policy_state(lm: LM, task: str, seed: int, depth: int, max_steps: int, *, to_stop: bool = False,
                    ids: str = "plain") -> Any:
    """An environment advanced ``depth`` steps by the current policy (greedy); stops early at episode end.

    ``ids``: how the task's elements are named (``assistant.env.tasks.make_task``).

    With ``to_stop`` the policy is rolled on, up to the episode's length, to the first state at which its
    greedy answer would end a held-out episode without the episode being over: an answer that is not a
    valid action, a no-op or ``finalize`` (``models.eval.episodes.run_episode``'s stop rule). These are the
    states where greedy episodes stop short of what verification reaches. When the policy meets none, the
    state ``depth`` steps in is returned as without ``to_stop``.
    """
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task

    env = LayoutEnv(task, max_steps=max_steps)
    env.reset(seed=seed, options={"task": make_task(task, seed, ids=ids)})
    return roll_on(lm, env, depth, max_steps, to_stop=to_stop)


def file_state(lm: LM, name: str, document: Any, seed: int, depth: int, max_steps: int, *, perturb: int,
               to_stop: bool = False) -> Any:
    """:func:`on_policy_state` on a real file: ``document`` at ``seed``, without a brief.

    The file is as it is at seed 0 and perturbed at later seeds (``models.files.file_variant``), then rolled
    on by the current policy.
    """
    from models.files import file_env, file_variant

    env, _ = file_env(file_variant(document, name, seed, perturb)[0], max_steps=max_steps)
    return roll_on(lm, env, depth, max_steps, to_stop=to_stop)


def roll_on(lm: LM, env: Any, depth: int, max_steps: int, *, to_stop: bool = False) -> Any:
    """``env`` advanced by the current greedy policy as :func:`on_policy_state` describes."""
    policy = TorchPolicy(lm)
    seen = [env]
    for _ in range(max_steps if to_stop else depth):
        action = policy.act(env).action
        if action is None or action.get("type") == "finalize":
            return env if to_stop else seen[min(depth, len(seen) - 1)]
        trial = copy.deepcopy(env)
        _, _, terminated, truncated, info = trial.step(action)
        if not info["valid"] or (to_stop and info.get("noop")):
            return env if to_stop else seen[min(depth, len(seen) - 1)]
        if terminated or truncated:
            break
        env = trial
        seen.append(env)
    return seen[min(depth, len(seen) - 1)]


#: A file state's perturbation seed is drawn from 0 … FILE_SEEDS - 1 (0: the file as it is).
FILE_SEEDS = 10_000


def check_context(lm: LM, documents: list[tuple[str, Any]], max_new_tokens: int) -> None:
    """Refuse, by name, a GRPO file whose prompt and answer would not fit the model's context.

    The model would read such a file truncated.
    """
    from models.files import file_env

    limit = int(getattr(lm.model.config, "max_position_embeddings", 0) or 0)
    for name, document in documents:
        env, _ = file_env(document.copy(), max_steps=1)
        need = len(lm.encode(planner_prompt(env), bos=True)) + max_new_tokens
        if limit and need > limit:
            raise ValueError(f"{name}: its prompt and answer take {need} tokens, more than the model's "
                             f"{limit}-token context; leave it out of the GRPO files")
