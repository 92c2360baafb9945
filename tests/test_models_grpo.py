"""GRPO: advantages, the clipped/KL loss, environment-scored samples, and a miniature run."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # much faster than two threads on a busy 2-core machine

from assistant.env import LayoutEnv  # noqa: E402
from assistant.prompting import format_target  # noqa: E402
import models.grpo as grpo_mod  # noqa: E402
from models.grpo import (  # noqa: E402
    GRPOConfig, curriculum_tasks, group_advantages, grpo_loss, planner_prompt, sample_group, score_action,
    token_logprobs, train_grpo, validate,
)
from models.lm import from_tiny  # noqa: E402
from models.tiny import TextCodec, TinyConfig, make_model, train_tokenizer  # noqa: E402


@pytest.fixture(scope="module")
def env() -> LayoutEnv:
    e = LayoutEnv("banner", max_steps=6)
    e.reset(seed=0, options={"task": "banner", "task_seed": 1000})
    return e


@pytest.fixture(scope="module")
def lm(env):
    text = planner_prompt(env) + format_target({"type": "finalize"})
    codec = TextCodec(train_tokenizer([text, '{"type":"move","ids":["x"],"dx":1,"dy":0}'], 400, min_frequency=1))
    cfg = TinyConfig(hidden_size=32, num_layers=1, num_heads=2, num_kv_heads=2, intermediate_size=64,
                     max_positions=2048)
    return from_tiny(make_model(cfg, codec, seed=0), codec)


def test_group_advantages_are_normalised_and_zero_without_signal() -> None:
    adv = group_advantages(torch.tensor([0.0, 1.0, 2.0]))
    assert abs(float(adv.mean())) < 1e-6 and float(adv[2]) > 0 > float(adv[0])
    assert torch.equal(group_advantages(torch.tensor([0.3, 0.3])), torch.zeros(2))


def test_grpo_step_raises_the_better_completion(lm, env) -> None:
    prompt_ids = lm.encode(planner_prompt(env), bos=True)
    good = lm.encode(format_target({"type": "finalize"}))
    bad = lm.encode('{"type":"move","ids":["x"],"dx":1,"dy":0}\n')
    comps = [good, bad]
    model = copy.deepcopy(lm.model)
    ref = copy.deepcopy(model).eval()
    with torch.no_grad():
        old, _ = token_logprobs(model, prompt_ids, comps, lm.pad_id)
        refp, _ = token_logprobs(ref, prompt_ids, comps, lm.pad_id)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    new, mask = token_logprobs(model, prompt_ids, comps, lm.pad_id)
    loss, kl = grpo_loss(new, old, refp, group_advantages(torch.tensor([1.0, -1.0])), mask, clip_eps=0.2, kl_coef=0.04)
    assert float(kl) == pytest.approx(0.0, abs=1e-6)  # policy == reference before the update
    loss.backward()
    opt.step()
    with torch.no_grad():
        after, _ = token_logprobs(model, prompt_ids, comps, lm.pad_id)
    seq = lambda lp, m: (lp * m).sum(1)  # noqa: E731
    assert seq(after, mask)[0] > seq(old, mask)[0]
    assert seq(after, mask)[1] < seq(old, mask)[1]


def test_score_action_runs_in_a_copy_and_penalises_non_actions(env) -> None:
    before = env.document.layout.model_dump()
    res = score_action(env, '{"type":"move","ids":["no-such-id"],"dx":1,"dy":0}', invalid_reward=-0.1)
    assert res["valid"] is False and res["reward"] < 0
    assert score_action(env, "garbage", invalid_reward=-0.1)["reward"] == -0.1
    fin = score_action(env, '{"type":"finalize"}', invalid_reward=-0.1)
    assert fin["finalize"] and fin["premature"]  # finalizing the broken start is premature
    assert env.document.layout.model_dump() == before


def test_curriculum_opens_harder_tasks_later() -> None:
    from assistant.tasks import TASKS, task_names

    names = task_names()
    first = curriculum_tasks(names, 0, 9)
    last = curriculum_tasks(names, 8, 9)
    assert {TASKS[t].difficulty for t in first} == {"easy"}
    assert set(last) == set(names)


def test_sample_group_is_deterministic_for_a_seed(lm, env) -> None:
    prompt = planner_prompt(env)
    a = sample_group(lm, prompt, 2, temperature=1.0, max_new_tokens=6, generator=torch.Generator().manual_seed(3))
    b = sample_group(lm, prompt, 2, temperature=1.0, max_new_tokens=6, generator=torch.Generator().manual_seed(3))
    assert a == b and all(1 <= len(c) <= 6 for c in a)


def test_miniature_grpo_run_logs_and_checkpoints(tmp_path: Path, lm) -> None:
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=2, states_per_step=1, group_size=2,
                     max_depth=0, max_new_tokens=8, save_every=1, temperature=1.5)
    summary = train_grpo(cfg, lm=lm)
    log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines()]
    assert [r["step"] for r in log] == [1, 2]
    for key in ("reward", "valid_rate", "premature_finalize_rate", "kl", "loss"):
        assert all(isinstance(r[key], float) for r in log)
    assert (Path(summary["final_dir"]) / "model.safetensors").is_file()
    assert (tmp_path / "grpo" / "step1" / "tokenizer.json").is_file()


def test_validation_runs_greedy_episodes_on_the_validation_seeds(lm) -> None:
    v = validate(lm, ["banner"], 2, max_steps=2)
    # the untrained model's greedy answers are not actions: each episode ends where its seed started
    starts = []
    for seed in (500, 501):
        _, info = LayoutEnv("banner", max_steps=2).reset(seed=seed, options={"task": "banner", "task_seed": seed})
        starts.append(info["composite"])
    assert starts[0] != starts[1]
    assert v["episodes"] == 2 and v["composite"] == pytest.approx(sum(starts) / 2) and v["gap_closed"] == 0.0


def test_validation_keeps_the_best_checkpoint(tmp_path: Path, lm, monkeypatch) -> None:
    out = tmp_path / "grpo"
    (out / "best").mkdir(parents=True)
    (out / "best" / "stale.txt").write_text("from an earlier run")
    scores = iter([0.50, 0.70, 0.70])  # the SFT model, step 1, step 2 (a tie keeps the earlier)
    monkeypatch.setattr(grpo_mod, "validate",
                        lambda *a, **k: {"composite": next(scores), "gap_closed": 0.0, "episodes": 1})
    cfg = GRPOConfig(out=str(out), tasks=("banner",), steps=2, states_per_step=1, group_size=2, max_depth=0,
                     max_new_tokens=8, save_every=1, temperature=1.5, val_every=1, val_episodes=1, val_max_steps=2)
    summary = train_grpo(cfg, lm=lm)
    vals = [json.loads(x) for x in (out / "log.jsonl").read_text().splitlines() if '"val"' in x]
    assert [(r["step"], r["best_step"]) for r in vals] == [(0, 0), (1, 1), (2, 1)]
    assert summary["best"]["step"] == 1 and summary["best_dir"] == str(out / "best")
    assert (out / "best" / "model.safetensors").is_file() and not (out / "best" / "stale.txt").exists()
    assert (out / "best" / "model.safetensors").read_bytes() == (out / "step1" / "model.safetensors").read_bytes()


def test_without_validation_the_final_checkpoint_is_the_result(tmp_path: Path, lm) -> None:
    out = tmp_path / "grpo"
    (out / "best").mkdir(parents=True)
    cfg = GRPOConfig(out=str(out), tasks=("banner",), steps=1, states_per_step=1, group_size=2, max_depth=0,
                     max_new_tokens=8, save_every=5)
    summary = train_grpo(cfg, lm=lm)
    assert summary["best_dir"] == summary["final_dir"] == str(out / "final") and "best" not in summary
    assert not (out / "best").exists()
