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
   canonical completion SFT trains on (:func:`models.grpo_objective.suggested_completions`). They are
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
   (:func:`models.grpo_rewards.episode_return`): the sum telescopes to the final quality of the
   episode, the quantity the held-out evaluation measures, so an edit is judged
   by where the policy's own episode ends up after it rather than by its one
   step (a one-step reward does not line up with end-of-episode quality: it
   rewards stopping next to a few poor edits, and a step's gain the policy then
   undoes). With ``reward="composite"`` the reward is what the held-out
   evaluation scores instead (:func:`models.grpo_rewards.episode_composite`): the final composite
   of that greedy episode minus the composite of the sampled state, less only
   the sampled answer's own penalty — not the potential, which also weighs the
   instruction fit, and not the penalty of the no-op that ends most greedy
   episodes, which the evaluation does not charge and which made an edit
   followed by the policy's usual stop score below a plain ``finalize``.
   Identical answers in a group are scored once.
   An answer that is not an action at all gets ``invalid_reward``. With
   ``charge_stops`` an answer that would end a greedy episode (``finalize``,
   a no-op) is charged the best gain of an edit sampled in its group
   (:func:`models.grpo_rewards.charge_stops`). With ``need_gain`` only groups in which some
   sampled edit improves the layout are learnt from (the others could only
   teach the policy to stop, which its held-out episodes already do too often).
4. **Group-normalised advantages** ``A_i = (r_i − mean r) / (max(std r, std_floor) + eps)``
   (``std_floor`` 0: plain GRPO; above 0, groups whose rewards barely differ
   are not stretched to unit spread, :func:`models.grpo_objective.group_advantages`).
5. **Loss** per completion token: clipped surrogate
   ``−min(ρ A, clip(ρ, 1−ε, 1+ε) A)`` with ρ = π/π_old, plus ``kl_coef`` × the
   k3 estimator of KL(π ‖ π_ref) to the frozen SFT reference; averaged over
   tokens; ``ppo_epochs`` updates per batch.

Logged every step (``OUT/log.jsonl``): mean reward (as the environment
scored the samples, before ``charge_stops``; with ``reward="return"`` or
``"composite"`` the one-step mean beside it as ``step_reward``), parsed rate
(answers that read as an action), valid rate (actions the environment applied),
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

from models.data import SEED_RANGES
from models.files import load_files
from models.grpo_objective import group_advantages, grpo_loss, sample_group, suggested_completions, token_logprobs
from models.grpo_rewards import (
    FILE_SEEDS,
    REWARDS,
    TorchPolicy,
    best_gain,
    charge_stops,
    check_context,
    file_state,
    on_policy_state,
    planner_prompt,
    score_group,
)
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


def grammar_states(grammar: Any, env: Any, n: int) -> Any:
    """``n`` states of ``grammar`` over ``env``'s element ids, or a null context without a grammar.

    ``grammar`` is a ``models.grammar_mask.GrammarMask``; its states are a context that closes them.
    """
    if grammar is None:
        return nullcontext()
    from assistant.planners.modelstep import element_ids

    return grammar.start(element_ids(env.document.layout), n)


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
        stats: dict[str, list[float]] = {"reward": [], "step_reward": [], "parsed": [], "valid": [], "premature": [],
                                         "finalize": [], "suggested": [], "suggested_reward": [], "suggested_best": []}
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
            # the samples, as the environment scored them
            for key in ("reward", "parsed", "valid", "premature", "finalize"):
                stats[key] += [float(r[key]) for r in sampled]
            stats["step_reward"] += [float(r.get("step_reward", r["reward"])) for r in sampled]
            if added:
                stats["suggested_reward"] += [float(r["reward"]) for r in added]
                best_added, best_sampled = max(r["reward"] for r in added), max(r["reward"] for r in sampled)
                stats["suggested_best"].append(float(best_added > best_sampled))
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
               "parsed_rate": sum(stats["parsed"]) / n, "valid_rate": sum(stats["valid"]) / n,
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
    """Command line: a flag per ``GRPOConfig`` field; train (:func:`train_grpo`) and print the checkpoints."""
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
