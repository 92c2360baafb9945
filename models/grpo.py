"""GRPO with the layout environment as the verifier.

Command::

    python -m models.grpo --init runs/tiny/sft/best --out runs/tiny/grpo --steps 60 --env-max-steps 6 --val-every 10

Group Relative Policy Optimisation (Shao et al. 2024, DeepSeekMath §4.1), in a
compact torch loop:

1. **On-policy states.** For each of ``states_per_step`` states: pick a task
   by the curriculum (easy tasks first, then medium, then hard: stage *k* of
   *n* covers steps ``[k/n, (k+1)/n)`` of the run — of its steps, or of its
   ``max_minutes`` when that is further along — and draws from difficulties
   up to its own), a training seed (``models.data.SEED_RANGES["train"]``), and
   roll the *current* policy (greedy) forward a random number of steps
   (0 … ``max_depth``) in ``assistant.env.LayoutEnv`` — or, for a share
   ``stop_share`` of the states, on to the first state where its greedy answer
   would end the episode early (invalid, a no-op, ``finalize``): the states
   where the greedy policy loses what the environment still offers. A share
   ``varied_ids`` of the states comes from tasks whose elements are named as
   real files name them (``assistant.env.tasks.ids``: ``slide-title``,
   ``headline``, ``text1234``), so that the policy learns to read ids from the
   layout, as the ``local`` planner meets them, rather than the generators'.
   A share ``file_share`` comes from real SVG ``files`` instead
   (``models.files``: a file as it is or after 1 … ``perturb`` random damaging
   edits, without a brief, as ``layout-assistant fix`` meets it), rolled on by
   the policy in the same way, so that the policy also learns where its
   episodes on layouts nobody generated end up.
2. **A group of G actions.** Sample G completions of the planner prompt
   (``assistant.planners.prompting.build_prompt(kind="planner")``) at ``temperature``.
   With ``grammar`` they are sampled under the runtime's action grammar over
   the state's element ids, as the shipped model decodes
   (``models.grammar_mask``: llama.cpp's grammar sampler masks the torch
   model's logits; ``grammar_vocab`` is a GGUF with the model's tokenizer,
   by default the starting model exported once), so each group holds real
   choices between edits of elements the layout has. The loss still uses the
   model's unmasked token probabilities: raising a sampled token's probability
   raises it under the mask too.
   With ``suggested_fixes`` N > 0 the group also holds up to N of the fixes the
   state's prompt itself suggests (each finding's ``fix: {…}``,
   ``assistant.planners.modelstep.finding_fixes``) that no sample wrote, as the
   canonical completion SFT trains on (:func:`suggested_completions`). They are
   scored, normalised and learnt from as the samples are (their ``π_old`` is the
   current policy's probability of them, so the ratio starts at 1): where a
   suggestion beats what the policy samples it gets a positive advantage, the
   policy's own poorer answers a negative one. A greedy planner that does not
   copy the edit its prompt names rarely samples
   it among G answers; this puts it in the group where it is there to take.
3. **Rewards from the environment.** Each completion is parsed
   (``prompting.parse_completion``) and executed in a deep copy of the
   environment; its reward is the environment's shaped step reward (potential
   difference minus invalid / no-op / premature-finalize penalties). With
   ``reward="return"`` the current policy then plays the rest of that episode
   greedily in the copy and the shaped rewards of its answers are added
   (:func:`episode_return`): the sum telescopes to the final quality of the
   episode, the quantity the held-out evaluation measures, so an edit is judged
   by where the policy's own episode ends up after it rather than by its one
   step (a one-step reward does not line up with end-of-episode quality: it
   rewards stopping next to a few poor edits, and a step's gain the policy then
   undoes). With ``reward="composite"`` the reward is what the held-out
   evaluation scores instead (:func:`episode_composite`): the final composite
   of that greedy episode minus the composite of the sampled state, less only
   the sampled answer's own penalty — not the potential, which also weighs the
   instruction fit, and not the penalty of the no-op that ends most greedy
   episodes, which the evaluation does not charge and which made an edit
   followed by the policy's usual stop score below a plain ``finalize``.
   Identical answers in a group are scored once.
   An answer that is not an action at all gets ``invalid_reward``. With
   ``charge_stops`` an answer that would end a greedy episode (``finalize``,
   a no-op) is charged the best gain of an edit sampled in its group
   (:func:`charge_stops`). With ``need_gain`` only groups in which some
   sampled edit improves the layout are learnt from (the others could only
   teach the policy to stop, which its held-out episodes already do too often).
4. **Group-normalised advantages** ``A_i = (r_i − mean r) / (max(std r, std_floor) + eps)``
   (``std_floor`` 0: plain GRPO; above 0, groups whose rewards barely differ
   are not stretched to unit spread, :func:`group_advantages`).
5. **Loss** per completion token: clipped surrogate
   ``−min(ρ A, clip(ρ, 1−ε, 1+ε) A)`` with ρ = π/π_old, plus ``kl_coef`` × the
   k3 estimator of KL(π ‖ π_ref) to the frozen SFT reference; averaged over
   tokens; ``ppo_epochs`` updates per batch.

Logged every step (``OUT/log.jsonl``): mean reward (as the environment
scored the samples, before ``charge_stops``; with ``reward="return"`` or
``"composite"`` the one-step mean beside it as ``step_reward``), valid rate,
premature-finalize rate, finalize rate (of the sampled answers), KL, loss,
curriculum stage, states with renamed elements, and with ``suggested_fixes``
how many suggestions were added, their mean reward and the share of groups in
which one beat every sample; checkpoints every ``save_every`` steps and the final
one in ``OUT/final``.

**Selection by validation.** With ``val_every`` > 0 the policy is scored
before the first step and every ``val_every`` steps (and after the last) on
validation seeds (``SEED_RANGES["val"]``, never trained on, disjoint from the
held-out test seeds): ``val_episodes`` greedy episodes per task of at most
``val_max_steps`` steps, run and stopped exactly as ``models.eval`` runs the
held-out episodes; the score is their mean final composite. The checkpoint
with the highest score is kept in ``OUT/best`` (the starting SFT model
counts: when no GRPO step beats it, ``best`` is the SFT model) and logged as
``{"event": "val", ...}`` records; ``best`` is what the pipeline exports.
Greedy validation decides, because the evaluation's GRPO row is greedy and its
verification row starts from the greedy answer.

The environment in which states are sampled should have the episode length
the model is used with (``env_max_steps``): the observation shows
``step k/N``, so states of a 24-step episode are prompts the model never sees
in a 6-step one.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import time
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from assistant.errors import InvalidAction
from assistant.planners.prompting import build_prompt, parse_completion
from models.data import SEED_RANGES
from models.files import load_files
from models.lm import LM, describe_device, float32_weights, load_lm, pick_device


@dataclass
class GRPOConfig:
    """Settings of one GRPO run."""

    # model
    init: str = "runs/tiny/sft/best"
    out: str = "runs/tiny/grpo"
    # environment / curriculum
    tasks: tuple[str, ...] = ()        # empty: every registered task
    max_depth: int = 4                 # on-policy steps before a sampled state
    stop_share: float = 0.0            # share of states taken where the greedy policy would stop (see on_policy_state)
    varied_ids: float = 0.0            # share of states whose elements are renamed as real files name them
    files: tuple[str, ...] = ()        # real SVG files a share of the states comes from (models.files)
    file_share: float = 0.0            # that share
    perturb: int = 3                   # a file state's file after 0 … perturb damaging edits
    grammar: bool = False              # sample the groups under the runtime's action grammar (models.grammar_mask)
    grammar_vocab: str = ""            # a GGUF with the model's tokenizer ("": the starting model, exported)
    charge_stops: bool = False         # finalize / no-op answers cost the best gain of their group (charge_stops)
    need_gain: bool = False            # learn only from groups in which a sampled edit improves the layout
    suggested_fixes: int = 0           # add up to N of the prompt's suggested fixes to each group (0: none)
    reward: str = "step"               # "step": the action's shaped reward; "return": plus the greedy rest of the
    #                                    episode; "composite": that episode's final composite gain (REWARDS)
    env_max_steps: int = 24
    # GRPO
    steps: int = 60
    states_per_step: int = 2
    group_size: int = 6
    temperature: float = 1.0
    max_new_tokens: int = 64
    invalid_reward: float = -0.1
    clip_eps: float = 0.2
    kl_coef: float = 0.04
    ppo_epochs: int = 2
    lr: float = 2e-5
    grad_clip: float = 1.0
    adv_eps: float = 1e-4
    std_floor: float = 0.0             # advantages divided by max(group std, std_floor) (group_advantages)
    seed: int = 0
    max_minutes: float = 0.0           # wall-clock budget: stop after the step that passes it (0: none)
    # logging
    save_every: int = 20
    # selection: greedy validation episodes every ``val_every`` steps (0: none; ``final`` is the result)
    val_every: int = 0
    val_episodes: int = 2              # validation seeds per task
    val_max_steps: int = 6


#: What a sampled answer can be rewarded with (``GRPOConfig.reward``; see the module docstring).
REWARDS = ("step", "return", "composite")


def curriculum_tasks(tasks: list[str], step: int, total: int, *, elapsed: float = 0.0,
                     budget: float = 0.0) -> list[str]:
    """Tasks open at ``step``: difficulties up to the current stage (easy → medium → hard).

    The stage follows the run's progress: ``step`` of ``total`` steps or, when a wall-clock
    ``budget`` (seconds) is set, ``elapsed`` of it, whichever is further — a run that its time
    budget stops long before ``total`` still reaches the hard tasks.
    """
    from assistant.env.tasks import DIFFICULTIES, TASKS

    levels = sorted({DIFFICULTIES.index(TASKS[t].difficulty) for t in tasks})
    by_time = int(len(levels) * elapsed / budget) if budget > 0 else 0
    stage = min(len(levels) - 1, max(step * len(levels) // max(total, 1), by_time))
    open_ = [t for t in tasks if DIFFICULTIES.index(TASKS[t].difficulty) <= levels[stage]]
    return open_ or tasks


def planner_prompt(env: Any) -> str:
    return build_prompt(env.observation_text(), env.instruction or "", kind="planner")


@torch.no_grad()
def sample_group(lm: LM, prompt: str, n: int, *, temperature: float, max_new_tokens: int,
                 generator: torch.Generator | None = None, grammar: Any = None) -> list[list[int]]:
    """``n`` sampled completions (token ids, ending with the newline or eos token when reached).

    ``grammar`` (``models.grammar_mask.GrammarStates`` with ``n`` states): each sample's tokens are drawn
    among those its grammar allows, and it ends where its grammar is complete (the forced end token is not
    appended).
    """
    model = lm.model
    model.eval()
    prompt_ids = lm.encode(prompt, bos=True)
    res = model(input_ids=torch.tensor([prompt_ids], device=lm.device), use_cache=True)
    past, logits = res.past_key_values, res.logits[:, -1].expand(n, -1)
    past.batch_repeat_interleave(n)  # the prompt is run once; its keys and values serve all n samples
    outs: list[list[int]] = [[] for _ in range(n)]
    done = [False] * n
    for _ in range(max_new_tokens):
        if grammar is not None:
            logits = mask_logits(grammar, logits, done)
            if all(done):
                break
        # sampled where the logits are (one copy of n token ids per step, not of n vocabulary-wide rows)
        probs = torch.softmax(logits.float() / max(temperature, 1e-5), dim=-1)
        nxt = torch.multinomial(probs, 1, generator=generator).squeeze(1)
        toks = nxt.tolist()
        for i in range(n):
            if done[i]:
                continue
            tok = toks[i]
            outs[i].append(tok)
            if grammar is not None:
                grammar.accept(i, tok)
            if tok == lm.eos_id or "\n" in lm.decode(outs[i][-1:]):
                done[i] = True
        if all(done):
            break
        res = model(input_ids=nxt.view(n, 1).to(lm.device), past_key_values=past, use_cache=True)
        past, logits = res.past_key_values, res.logits[:, -1]
    return outs


def suggested_completions(lm: LM, env: Any, texts: list[str], limit: int, *, grammar: bool) -> list[list[int]]:
    """Token ids of up to ``limit`` of the fixes ``env``'s prompt suggests that none of ``texts`` (the sampled
    answers, first lines) already is, in prompt order.

    Each is the canonical completion (``assistant.planners.prompting.format_target``: what SFT trains on) as
    :func:`sample_group` would have returned it — without its end token under the grammar, which ends a
    sample where the action is complete, with ``eos`` otherwise. An answer counts as the same fix when it
    parses to the same canonical action.
    """
    from assistant.planners.modelstep import finding_fixes
    from assistant.planners.prompting import canonical_action, format_target

    def key(text: str) -> str | None:
        try:
            return json.dumps(canonical_action(parse_completion(text)), sort_keys=True)
        except (InvalidAction, ValueError):
            return None

    seen = {key(t) for t in texts}
    out: list[list[int]] = []
    for fix in finding_fixes(env.observation()):
        if len(out) >= limit:
            break
        try:
            target = format_target(fix)
        except (InvalidAction, ValueError):
            continue
        k = key(target)
        if k is None or k in seen:
            continue
        seen.add(k)
        ids = lm.encode(target.rstrip("\n"))
        out.append(ids if grammar else ids + [lm.eos_id])
    return out


def mask_logits(grammar: Any, logits: torch.Tensor, done: list[bool]) -> torch.Tensor:
    """``logits`` with the tokens each unfinished sample's grammar does not allow set to ``-inf``; a sample
    whose grammar is complete is marked done (its row is left as it is: nothing more is taken from it)."""
    rows = logits.float().cpu().numpy()
    masked = logits.clone()
    for i, finished in enumerate(done):
        if finished:
            continue
        allowed = grammar.allowed(i, rows[i])
        if grammar.ended(allowed):
            done[i] = True
            continue
        keep = torch.from_numpy(allowed).to(masked.device)
        masked[i] = masked[i].masked_fill(~keep, float("-inf"))
    return masked


def token_logprobs(model: Any, prompt_ids: list[int], completions: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token log-probs of each completion given the prompt ([G, T]) and the token mask.

    The prompt, which all G completions share and which is some thirty times longer than one of them, is run
    once; its keys and values are repeated for the G completions, which are run on top of them. Gradients flow
    through both parts, so this is the same function of the weights as running G full sequences (equal up to
    float rounding: :func:`token_logprobs_full`), at about 1/G of the cost.
    """
    width = max(len(c) for c in completions)
    g = len(completions)
    device = next(model.parameters()).device
    comp = torch.full((g, width), pad_id, dtype=torch.long)
    mask = torch.zeros((g, width), dtype=torch.float32)
    for i, c in enumerate(completions):
        comp[i, :len(c)] = torch.tensor(c)
        mask[i, :len(c)] = 1
    comp, mask = comp.to(device), mask.to(device)
    head = model(input_ids=torch.tensor([prompt_ids], device=device), use_cache=True)
    cache = head.past_key_values
    if cache is None:  # a model that keeps no cache (gradient checkpointing turns it off): whole sequences
        return token_logprobs_full(model, prompt_ids, completions, pad_id)
    cache.batch_repeat_interleave(g)
    first = head.logits[:, -1:].float().expand(g, 1, -1)  # predicts each completion's first token
    if width > 1:
        # the padding is on the right, behind the causal mask: no padding mask (see models.sft.completion_loss)
        rest = model(input_ids=comp[:, :-1], past_key_values=cache, use_cache=True).logits.float()
        logits = torch.cat([first, rest], dim=1)
    else:
        logits = first
    logp = torch.log_softmax(logits, dim=-1).gather(-1, comp.unsqueeze(-1)).squeeze(-1)
    return logp, mask


def token_logprobs_full(model: Any, prompt_ids: list[int], completions: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`token_logprobs` by running each whole sequence (prompt + completion): the reference it is tested on."""
    width = max(len(c) for c in completions)
    g = len(completions)
    device = next(model.parameters()).device
    seq = torch.full((g, len(prompt_ids) + width), pad_id, dtype=torch.long)
    mask = torch.zeros((g, width), dtype=torch.float32)
    for i, c in enumerate(completions):
        seq[i, :len(prompt_ids)] = torch.tensor(prompt_ids)
        seq[i, len(prompt_ids):len(prompt_ids) + len(c)] = torch.tensor(c)
        mask[i, :len(c)] = 1
    seq, mask = seq.to(device), mask.to(device)
    logits = model(input_ids=seq).logits[:, len(prompt_ids) - 1:-1].float()
    logp = torch.log_softmax(logits, dim=-1).gather(-1, seq[:, len(prompt_ids):].unsqueeze(-1)).squeeze(-1)
    return logp, mask


def group_advantages(rewards: torch.Tensor, eps: float = 1e-4, *, std_floor: float = 0.0) -> torch.Tensor:
    """GRPO advantages: rewards normalised within their group (zero when all are equal).

    The divisor is the group's standard deviation, or ``std_floor`` when that is larger: a group whose rewards
    differ by less than the floor (a few thousandths of composite between edits that all do about the same)
    gets advantages that small instead of being stretched to unit spread, so it cannot outweigh groups with a
    real choice in them.
    """
    std = rewards.std(unbiased=False)
    if float(std) < 1e-9:
        return torch.zeros_like(rewards)
    return (rewards - rewards.mean()) / (max(float(std), std_floor) + eps)


def grpo_loss(new: torch.Tensor, old: torch.Tensor, ref: torch.Tensor, adv: torch.Tensor, mask: torch.Tensor,
              *, clip_eps: float, kl_coef: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Clipped surrogate + k3 KL penalty, averaged over completion tokens; returns (loss, mean KL).

    ``new``/``old``/``ref``: per-token log-probs [G, T] under the policy being
    trained, the policy that sampled, and the frozen reference; ``adv``: [G].
    """
    ratio = torch.exp(new - old)
    a = adv.to(new.device).unsqueeze(1)
    surrogate = torch.minimum(ratio * a, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * a)
    kl = torch.exp(ref - new) - (ref - new) - 1
    n = mask.sum().clamp(min=1)
    return ((-surrogate + kl_coef * kl) * mask).sum() / n, ((kl * mask).sum() / n).detach()


def score_action(env: Any, text: str, invalid_reward: float) -> dict[str, Any]:
    """Execute one completion in a copy of ``env``; the reward and what happened."""
    try:
        action = parse_completion(text)
    except InvalidAction:
        return {"reward": invalid_reward, "valid": False, "finalize": False, "premature": False, "noop": False}
    trial = copy.deepcopy(env)
    _, reward, terminated, truncated, info = trial.step(action)
    return {"reward": float(reward), "valid": bool(info["valid"]), "finalize": action.get("type") == "finalize",
            "premature": bool(info.get("premature_finalize")), "noop": bool(info.get("noop")), "env": trial,
            "action": action, "over": bool(terminated or truncated), "penalty": float(info["reward_penalty"])}


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
    episode — minus the composite of ``env``, the state the answer was sampled in: the paired gain the held-out evaluation
    measures. Only the sampled answer's own penalty is taken off (a no-op's, a premature ``finalize``'s; an
    answer that is not a valid action keeps its fixed ``invalid_reward``): the answers that end the greedy
    rest change nothing the evaluation scores. The one-step shaped reward stays in ``step_reward``.
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


def score_group(lm: LM, env: Any, texts: list[str], cfg: "GRPOConfig") -> list[dict[str, Any]]:
    """Score each sampled answer in a copy of ``env`` as ``cfg.reward`` says (module docstring, step 3).

    With ``return`` and ``composite``, answers with the same text are scored once: execution and the greedy
    rest of an episode are deterministic, and the rest of an episode is most of the cost.
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
    valid action, a no-op or ``finalize`` (``models.eval.episodes.run_episode``'s stop rule). These are the states
    where greedy episodes stop short of what verification reaches. When the policy meets none, the
    state ``depth`` steps in is returned as without ``to_stop``.
    """
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task

    env = LayoutEnv(task, max_steps=max_steps)
    env.reset(seed=seed, options={"task": make_task(task, seed, ids=ids)})
    return roll_on(lm, env, depth, max_steps, to_stop=to_stop)


def file_state(lm: LM, name: str, document: Any, seed: int, depth: int, max_steps: int, *, perturb: int,
               to_stop: bool = False) -> Any:
    """:func:`on_policy_state` on a real file: ``document`` at ``seed`` (``models.files.file_variant``: as it
    is at seed 0, perturbed after), without a brief, rolled on by the current policy."""
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


def grammar_states(grammar: Any, env: Any, n: int) -> Any:
    """``n`` states of ``grammar`` (a ``models.grammar_mask.GrammarMask``) over ``env``'s element ids (a context
    that closes them), or a null context without one."""
    if grammar is None:
        return nullcontext()
    from assistant.planners.modelstep import element_ids

    return grammar.start(element_ids(env.document.layout), n)


#: A file state's perturbation seed is drawn from 0 … FILE_SEEDS - 1 (0: the file as it is).
FILE_SEEDS = 10_000


def check_context(lm: LM, documents: list[tuple[str, Any]], max_new_tokens: int) -> None:
    """Refuse, by name, a GRPO file whose prompt and answer would not fit the model's context (the model
    would read it truncated)."""
    from models.files import file_env

    limit = int(getattr(lm.model.config, "max_position_embeddings", 0) or 0)
    for name, document in documents:
        env, _ = file_env(document.copy(), max_steps=1)
        need = len(lm.encode(planner_prompt(env), bos=True)) + max_new_tokens
        if limit and need > limit:
            raise ValueError(f"{name}: its prompt and answer take {need} tokens, more than the model's "
                             f"{limit}-token context; leave it out of the GRPO files")


def validate(lm: LM, tasks: list[str], episodes: int, max_steps: int) -> dict[str, Any]:
    """Mean final composite (and gap closed) of greedy episodes on the first ``episodes`` validation seeds per task.

    The episodes run in float32 (:func:`models.lm.float32_weights`), as the exported model will, also when
    training runs in bfloat16.
    """
    from models.eval.episodes import run_episode

    start = SEED_RANGES["val"][0]
    policy = TorchPolicy(lm)
    with float32_weights(lm.model):
        eps = [run_episode(policy, task, start + i, max_steps=max_steps) for task in tasks for i in range(episodes)]
    return {"composite": sum(e.composite for e in eps) / len(eps),
            "gap_closed": sum(e.gap_closed for e in eps) / len(eps), "episodes": len(eps)}


def mean_or_none(values: list[float]) -> float | None:
    """The mean of ``values`` (``None`` when there are none: nothing of that kind was logged this step)."""
    return sum(values) / len(values) if values else None


def check_config(cfg: GRPOConfig) -> None:
    """Refuse settings GRPO cannot run with (``ValueError``), before a model is loaded or a file written."""
    if cfg.reward not in REWARDS:
        raise ValueError(f"GRPO reward must be one of {', '.join(REWARDS)}; got {cfg.reward!r}")
    for name in ("stop_share", "varied_ids", "file_share"):
        if not 0.0 <= getattr(cfg, name) <= 1.0:
            raise ValueError(f"GRPO {name} must be a share between 0 and 1; got {getattr(cfg, name)!r}")
    if cfg.suggested_fixes < 0:
        raise ValueError(f"GRPO suggested_fixes must be 0 or more; got {cfg.suggested_fixes!r}")
    if cfg.file_share > 0 and not cfg.files:
        raise ValueError("GRPO file_share needs files to draw states from")


def train_grpo(cfg: GRPOConfig, lm: LM | None = None) -> dict[str, Any]:
    """Run GRPO from ``cfg.init``; returns a summary with the log history, the final and the best checkpoint.

    ``best_dir`` is the checkpoint chosen by validation (``val_every`` > 0), else the final one.
    """
    from assistant.env.tasks import task_names

    check_config(cfg)
    documents = load_files(list(cfg.files)) if cfg.files else []  # an unreadable file is named first
    if cfg.grammar and cfg.grammar_vocab:
        from assistant.planners.local import check_model_file

        check_model_file(cfg.grammar_vocab)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    lm = lm or load_lm(cfg.init, device=pick_device())
    check_context(lm, documents, cfg.max_new_tokens)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / "best", ignore_errors=True)  # a choice of an earlier run in this directory
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=2))
    grammar = None
    if cfg.grammar:
        from models.grammar_mask import GrammarMask, vocab_gguf_for

        grammar = GrammarMask(cfg.grammar_vocab or vocab_gguf_for(lm, out / "vocab"))
    gen = torch.Generator(device=lm.device).manual_seed(cfg.seed)  # samples are drawn on the model's device
    ref = copy.deepcopy(lm.model).eval()
    for p in ref.parameters():
        p.requires_grad_(False)
    params = [p for p in lm.model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.0)
    tasks = list(cfg.tasks) or task_names()
    lo, hi = SEED_RANGES["train"]
    history: list[dict[str, Any]] = []
    log = (out / "log.jsonl").open("w", encoding="utf-8")
    log.write(json.dumps({"event": "start", "device": describe_device(lm.device),
                          "trainable": sum(p.numel() for p in params)}) + "\n")
    t0 = time.time()
    best: dict[str, Any] = {}

    def check(step: int) -> None:
        """Validate the current policy; keep it in ``OUT/best`` when it beats every earlier check."""
        v = validate(lm, tasks, cfg.val_episodes, cfg.val_max_steps)
        better = not best or v["composite"] > best["composite"]
        if better:
            best.update(v, step=step)
            lm.save(out / "best")
        rec = {"event": "val", "step": step, **v, "best_step": best["step"], "s": round(time.time() - t0, 1)}
        history.append(rec)
        log.write(json.dumps(rec) + "\n")
        log.flush()
        print(json.dumps(rec), flush=True)

    if cfg.val_every > 0:
        check(0)
    for step in range(cfg.steps):
        open_tasks = curriculum_tasks(tasks, step, cfg.steps, elapsed=time.time() - t0, budget=60 * cfg.max_minutes)
        groups = []
        stats: dict[str, list[float]] = {"reward": [], "step_reward": [], "valid": [], "premature": [], "finalize": [],
                                         "suggested": [], "suggested_reward": [], "suggested_best": []}
        varied = from_files = 0
        for _ in range(cfg.states_per_step):
            task = rng.choice(open_tasks)
            seed, depth, to_stop = rng.randrange(lo, hi), rng.randint(0, cfg.max_depth), rng.random() < cfg.stop_share
            # drawn only when asked for, so that runs without renamed states keep their random sequence
            ids = "varied" if cfg.varied_ids > 0 and rng.random() < cfg.varied_ids else "plain"
            if cfg.file_share > 0 and rng.random() < cfg.file_share:
                name, document = rng.choice(documents)
                env = file_state(lm, name, document, rng.randrange(FILE_SEEDS), depth, cfg.env_max_steps,
                                 perturb=cfg.perturb, to_stop=to_stop)
                from_files += 1
            else:
                env = on_policy_state(lm, task, seed, depth, cfg.env_max_steps, to_stop=to_stop, ids=ids)
                varied += ids == "varied"
            prompt = planner_prompt(env)
            with grammar_states(grammar, env, cfg.group_size) as states:
                comps = sample_group(lm, prompt, cfg.group_size, temperature=cfg.temperature,
                                     max_new_tokens=cfg.max_new_tokens, generator=gen, grammar=states)
            texts = [lm.decode(c).split("\n", 1)[0] for c in comps]
            if cfg.suggested_fixes > 0:
                extra = suggested_completions(lm, env, texts, cfg.suggested_fixes, grammar=grammar is not None)
                comps, texts = comps + extra, texts + [lm.decode(c).split("\n", 1)[0] for c in extra]
                stats["suggested"].append(len(extra))
            results = score_group(lm, env, texts, cfg)
            sampled, added = results[:cfg.group_size], results[cfg.group_size:]
            for key in ("reward", "valid", "premature", "finalize"):  # the samples, as the environment scored them
                stats[key] += [float(r[key]) for r in sampled]
            stats["step_reward"] += [float(r.get("step_reward", r["reward"])) for r in sampled]
            if added:
                stats["suggested_reward"] += [float(r["reward"]) for r in added]
                stats["suggested_best"].append(float(max(r["reward"] for r in added) > max(r["reward"] for r in sampled)))
            if cfg.need_gain and best_gain(results) <= 0:
                continue  # nothing sampled improves: the group could only teach stopping
            if cfg.charge_stops:
                results = charge_stops(results)
            rewards = torch.tensor([r["reward"] for r in results])
            adv = group_advantages(rewards, cfg.adv_eps, std_floor=cfg.std_floor)
            if not bool(adv.abs().sum() > 0):
                continue  # all rewards equal: no signal in this group
            groups.append((lm.encode(prompt, bos=True), comps, adv))
        loss_val = kl_val = 0.0
        if groups:
            with torch.no_grad():
                olds = [token_logprobs(lm.model, p, c, lm.pad_id)[0] for p, c, _ in groups]
                refs = [token_logprobs(ref, p, c, lm.pad_id)[0] for p, c, _ in groups]
            lm.model.train()
            for _ in range(cfg.ppo_epochs):
                opt.zero_grad(set_to_none=True)
                total_loss = torch.tensor(0.0)
                total_kl = torch.tensor(0.0)
                for (p_ids, comps, adv), old, refp in zip(groups, olds, refs):
                    new, mask = token_logprobs(lm.model, p_ids, comps, lm.pad_id)
                    loss, kl = grpo_loss(new, old, refp, adv, mask, clip_eps=cfg.clip_eps, kl_coef=cfg.kl_coef)
                    (loss / len(groups)).backward()
                    total_loss = total_loss + loss.detach() / len(groups)
                    total_kl = total_kl + kl / len(groups)
                torch.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
                opt.step()
                loss_val, kl_val = float(total_loss), float(total_kl)
        n = max(len(stats["reward"]), 1)
        rec = {"step": step + 1, "reward": sum(stats["reward"]) / n, "step_reward": sum(stats["step_reward"]) / n,
               "valid_rate": sum(stats["valid"]) / n,
               "premature_finalize_rate": sum(stats["premature"]) / n, "finalize_rate": sum(stats["finalize"]) / n,
               "kl": kl_val, "loss": loss_val, "groups_with_signal": len(groups), "varied_states": varied,
               "file_states": from_files, "suggested": sum(stats["suggested"]),
               "suggested_reward": mean_or_none(stats["suggested_reward"]),
               "suggested_best": mean_or_none(stats["suggested_best"]),
               "stage_tasks": open_tasks, "s": round(time.time() - t0, 1)}
        history.append(rec)
        log.write(json.dumps(rec) + "\n")
        log.flush()
        print(json.dumps(rec))
        if (step + 1) % cfg.save_every == 0:
            lm.save(out / f"step{step + 1}")
        over_time = cfg.max_minutes > 0 and time.time() - t0 > 60 * cfg.max_minutes
        if cfg.val_every > 0 and ((step + 1) % cfg.val_every == 0 or step + 1 == cfg.steps or over_time):
            check(step + 1)
        if over_time:
            log.write(json.dumps({"event": "time_budget", "step": step + 1}) + "\n")
            break
    log.close()
    final = lm.save(out / "final")
    if not best:
        return {"final_dir": str(final), "best_dir": str(final), "history": history}
    return {"final_dir": str(final), "best_dir": str(out / "best"), "best": best, "history": history}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="GRPO with the layout environment as verifier.")
    d = GRPOConfig()
    for name, value in asdict(d).items():
        if name == "tasks":
            ap.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
            continue
        if name == "files":
            ap.add_argument("--files", nargs="+", default=(), metavar="SVG",
                            help="real SVG files a share (--file-share) of the states comes from")
            continue
        kind = (lambda v: v.lower() in ("1", "true", "yes")) if isinstance(value, bool) else type(value)
        ap.add_argument(f"--{name.replace('_', '-')}", type=kind, default=value,
                        choices=REWARDS if name == "reward" else None)
    args = ap.parse_args(argv)
    kw = {k: getattr(args, k) for k in asdict(d) if k not in ("tasks", "files")}
    cfg = GRPOConfig(**kw, tasks=tuple(t for t in args.tasks.split(",") if t), files=tuple(args.files))
    from assistant.errors import LayoutError

    try:
        summary = train_grpo(cfg)
    except (ValueError, LayoutError) as exc:
        ap.error(str(exc))
    print(json.dumps({k: summary[k] for k in ("final_dir", "best_dir", "best") if k in summary}))


if __name__ == "__main__":
    main()
