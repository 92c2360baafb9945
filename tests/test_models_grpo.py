"""GRPO: advantages, the clipped/KL loss, environment-scored samples, and a miniature run."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # much faster than two threads on a busy 2-core machine

import models.grpo as grpo_mod  # noqa: E402
import models.grpo_rewards as rewards_mod  # noqa: E402
from assistant.env import LayoutEnv  # noqa: E402
from assistant.planners.prompting import format_target  # noqa: E402
from models.grpo import GRPOConfig, curriculum_tasks, train_grpo, validate  # noqa: E402
from models.grpo_objective import (  # noqa: E402
    group_advantages,
    grpo_loss,
    sample_group,
    token_logprobs,
    token_logprobs_full,
)
from models.grpo_rewards import planner_prompt, score_action  # noqa: E402
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


def test_std_floor_keeps_near_ties_small_and_leaves_real_choices_alone() -> None:
    ties = torch.tensor([0.001, -0.001, 0.0, 0.002])          # edits that all do about the same
    assert float(group_advantages(ties).abs().max()) > 1.0    # plain GRPO stretches them to unit spread
    floored = group_advantages(ties, std_floor=0.05)
    assert float(floored.abs().max()) < 0.05
    assert int(floored.argmax()) == 3 and int(floored.argmin()) == 1
    choice = torch.tensor([0.1, -0.01, -0.01, 0.1])           # std 0.055, above the floor: unchanged
    assert torch.allclose(group_advantages(choice, std_floor=0.05), group_advantages(choice))


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


@pytest.mark.parametrize("lengths", [(5, 12, 1, 9), (1, 1), (7,)])
def test_token_logprobs_reads_the_prompt_once_with_the_same_values_and_gradients(lm, env, lengths) -> None:
    prompt_ids = lm.encode(planner_prompt(env), bos=True)
    gen = torch.Generator().manual_seed(sum(lengths))
    comps = [torch.randint(3, 400, (n,), generator=gen).tolist() for n in lengths]  # ragged, right-padded
    model = copy.deepcopy(lm.model).train()
    results = []
    for fn in (token_logprobs_full, token_logprobs):
        model.zero_grad(set_to_none=True)
        logp, mask = fn(model, prompt_ids, comps, lm.pad_id)
        ((logp * mask).sum() + (logp * mask)[:, :1].sum()).backward()
        grads = torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None])
        results.append(((logp * mask).detach(), mask, grads))
    (full, full_mask, full_grad), (shared, shared_mask, shared_grad) = results
    assert torch.equal(full_mask, shared_mask) and full.shape == (len(lengths), max(lengths))
    assert torch.allclose(shared, full, atol=1e-5)
    assert float(full_grad.norm()) > 0
    assert torch.allclose(shared_grad, full_grad, rtol=1e-4, atol=1e-6)


def test_token_logprobs_without_a_cache_run_whole_sequences(lm, env) -> None:
    """Gradient checkpointing turns the cache off in training: the log-probs fall back to whole sequences."""
    prompt_ids = lm.encode(planner_prompt(env), bos=True)[:80]
    comps = [[5, 6, 7], [8]]
    model = copy.deepcopy(lm.model)
    model.gradient_checkpointing_enable()
    model.train()
    assert model(input_ids=torch.tensor([prompt_ids]), use_cache=True).past_key_values is None
    logp, mask = token_logprobs(model, prompt_ids, comps, lm.pad_id)
    full, _ = token_logprobs_full(model, prompt_ids, comps, lm.pad_id)
    assert torch.allclose(logp * mask, full * mask, atol=1e-5)


def test_token_logprobs_of_a_sliding_window_model_under_lora_match_whole_sequences() -> None:
    """Gemma 3 (the GPU base) keeps only a window of keys in its sliding layers; with peft's LoRA on top."""
    from peft import LoraConfig, get_peft_model
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig

    torch.manual_seed(0)
    cfg = Gemma3TextConfig(vocab_size=400, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                           num_attention_heads=2, num_key_value_heads=1, head_dim=16, sliding_window=16,
                           layer_types=["sliding_attention", "full_attention"], max_position_embeddings=512)
    model = get_peft_model(Gemma3ForCausalLM(cfg), LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"],
                                                              lora_dropout=0.0))
    prompt = torch.randint(3, 400, (60,)).tolist()  # longer than the window
    comps = [torch.randint(3, 400, (n,)).tolist() for n in (5, 20, 1)]
    results = []
    for fn in (token_logprobs_full, token_logprobs):
        model.zero_grad(set_to_none=True)
        logp, mask = fn(model, prompt, comps, 0)
        (logp * mask).sum().backward()
        grads = torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None])
        results.append(((logp * mask).detach(), grads))
    assert torch.allclose(results[1][0], results[0][0], atol=1e-5)
    assert float(results[0][1].norm()) > 0
    assert torch.allclose(results[1][1], results[0][1], rtol=1e-4, atol=1e-6)


def test_score_action_runs_in_a_copy_and_penalises_non_actions(env) -> None:
    before = env.document.layout.model_dump()
    res = score_action(env, '{"type":"move","ids":["no-such-id"],"dx":1,"dy":0}', invalid_reward=-0.1)
    assert res["valid"] is False and res["reward"] < 0
    assert score_action(env, "garbage", invalid_reward=-0.1)["reward"] == -0.1
    fin = score_action(env, '{"type":"finalize"}', invalid_reward=-0.1)
    assert fin["finalize"] and fin["premature"]  # finalizing the broken start is premature
    assert env.document.layout.model_dump() == before


def test_curriculum_opens_harder_tasks_later() -> None:
    from assistant.env.tasks import TASKS, task_names

    names = task_names()
    first = curriculum_tasks(names, 0, 9)
    last = curriculum_tasks(names, 8, 9)
    assert {TASKS[t].difficulty for t in first} == {"easy"}
    assert set(last) == set(names)
    # a run its time budget stops early: the stage follows the time spent too
    assert curriculum_tasks(names, 0, 1000, elapsed=0.0, budget=600.0) == first
    assert set(curriculum_tasks(names, 10, 1000, elapsed=590.0, budget=600.0)) == set(names)
    assert curriculum_tasks(names, 10, 1000, elapsed=590.0, budget=0.0) == first  # no budget: steps alone


def test_sample_group_is_deterministic_for_a_seed(lm, env) -> None:
    prompt = planner_prompt(env)
    a = sample_group(lm, prompt, 2, temperature=1.0, max_new_tokens=6, generator=torch.Generator().manual_seed(3))
    b = sample_group(lm, prompt, 2, temperature=1.0, max_new_tokens=6, generator=torch.Generator().manual_seed(3))
    assert a == b and all(1 <= len(c) <= 6 for c in a)


def test_miniature_grpo_run_logs_and_checkpoints(tmp_path: Path, lm) -> None:
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=2, states_per_step=1, group_size=2,
                     max_depth=0, max_new_tokens=8, save_every=1, temperature=1.5)
    summary = train_grpo(cfg, lm=lm)
    start, *log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines()]
    assert start["event"] == "start" and start["device"].startswith("cpu") and start["trainable"] > 0
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


def test_time_budget_stops_after_the_step_that_passes_it_and_validates_there(tmp_path: Path, lm,
                                                                             monkeypatch) -> None:
    out = tmp_path / "grpo"
    clock = iter(range(0, 10_000, 50))  # every reading of the clock is 50 s after the last
    monkeypatch.setattr(grpo_mod.time, "time", lambda: float(next(clock)))
    monkeypatch.setattr(grpo_mod, "validate", lambda *a, **k: {"composite": 0.5, "gap_closed": 0.0, "episodes": 1})
    cfg = GRPOConfig(out=str(out), tasks=("banner",), steps=50, states_per_step=1, group_size=2, max_depth=0,
                     max_new_tokens=8, save_every=100, temperature=1.5, val_every=10, max_minutes=4.0)
    summary = train_grpo(cfg, lm=lm)
    log = [json.loads(x) for x in (out / "log.jsonl").read_text().splitlines()]
    steps = [r["step"] for r in log if "reward" in r]
    assert 1 <= len(steps) < 10  # stopped long before 50 steps, on the clock
    assert log[-1] == {"event": "time_budget", "step": steps[-1]}
    assert [r["step"] for r in log if r.get("event") == "val"] == [0, steps[-1]]  # validated where it stopped
    assert (Path(summary["final_dir"]) / "model.safetensors").is_file()


def test_without_validation_the_final_checkpoint_is_the_result(tmp_path: Path, lm) -> None:
    out = tmp_path / "grpo"
    (out / "best").mkdir(parents=True)
    cfg = GRPOConfig(out=str(out), tasks=("banner",), steps=1, states_per_step=1, group_size=2, max_depth=0,
                     max_new_tokens=8, save_every=5)
    summary = train_grpo(cfg, lm=lm)
    assert summary["best_dir"] == summary["final_dir"] == str(out / "final") and "best" not in summary
    assert not (out / "best").exists()


class _Scripted:
    """Stands in for the greedy policy: answers a fixed sequence of actions, one per call."""

    answers: list = []

    def __init__(self, lm, **_: object) -> None:
        self.calls = iter(type(self).answers)

    def act(self, env):
        from models.policies import Decision

        return Decision(next(self.calls), "", 0.0)


def _steps(env) -> int:
    return int(env.observation()["step"])


@pytest.mark.parametrize(("answers", "to_stop", "depth", "expected"), [
    # two edits, then a no-op: the stop state is the one the no-op was answered in
    ([{"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}] * 2 + [{"type": "move", "ids": ["logo"], "dx": 0, "dy": 0}]
     + [{"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}] * 3, True, 0, 2),
    # without to_stop the same policy is rolled ``depth`` steps, through the no-op
    ([{"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}] * 2 + [{"type": "move", "ids": ["logo"], "dx": 0, "dy": 0}]
     + [{"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}] * 3, False, 4, 4),
    # finalize and answers that are not actions stop it too
    ([{"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}, {"type": "finalize"}], True, 0, 1),
    ([None], True, 3, 0),
    # an action the environment refuses (an unknown id)
    ([{"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}, {"type": "move", "ids": ["nope"], "dx": 2, "dy": 0}],
     True, 0, 1),
    # a policy that never stops early: the state ``depth`` steps in
    ([{"type": "move", "ids": ["logo"], "dx": 1 - 2 * (i % 2), "dy": 0} for i in range(6)], True, 3, 3),
])
def test_on_policy_state_can_stop_where_the_greedy_episode_would(monkeypatch, answers, to_stop, depth,
                                                                  expected) -> None:
    from models.grpo_rewards import on_policy_state

    monkeypatch.setattr(_Scripted, "answers", answers)
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    env = on_policy_state(None, "banner", 1000, depth, 6, to_stop=to_stop)
    assert _steps(env) == expected


def test_charge_stops_costs_a_stop_the_best_gain_of_its_group() -> None:
    from models.grpo_rewards import charge_stops

    def r(reward, *, valid=True, finalize=False, noop=False):
        return {"reward": reward, "valid": valid, "finalize": finalize, "noop": noop, "premature": False}

    group = [r(0.0, finalize=True), r(-0.01, noop=True), r(0.08), r(-0.03), r(-0.1, valid=False), r(0.02)]
    charged = [x["reward"] for x in charge_stops(group)]
    assert charged == pytest.approx([-0.08, -0.09, 0.08, -0.03, -0.1, 0.02])
    assert [x["reward"] for x in group][:2] == [0.0, -0.01]  # the results given are not changed
    # the environment's rewards make finalize the best answer of this group; charged, the best edit is
    assert int(group_advantages(torch.tensor([x["reward"] for x in group])).argmax()) == 2
    assert int(group_advantages(torch.tensor([0.0, -0.01, -0.02, -0.03, -0.1]) ).argmax()) == 0
    # no edit improves: stopping costs nothing
    calm = [r(0.0, finalize=True), r(-0.02), r(-0.05, valid=False)]
    assert [x["reward"] for x in charge_stops(calm)] == [0.0, -0.02, -0.05]


def test_grpo_command_line_reads_boolean_settings(monkeypatch, capsys) -> None:
    seen = []
    monkeypatch.setattr(grpo_mod, "train_grpo", lambda cfg: seen.append(cfg) or {"final_dir": "f", "best_dir": "b"})
    grpo_mod.main(["--charge-stops", "false", "--stop-share", "0.5"])
    grpo_mod.main(["--charge-stops", "true"])
    grpo_mod.main([])
    assert [(c.charge_stops, c.stop_share) for c in seen] == [(False, 0.5), (True, 0.0), (False, 0.0)]


@pytest.mark.parametrize(("need_gain", "scored", "learnt"), [
    (True, [("finalize", 0.0), ("edit", -0.02)], False),   # nothing sampled improves: skipped
    (False, [("finalize", 0.0), ("edit", -0.02)], True),
    (True, [("noop", -0.01), ("edit", 0.05)], True),
])
def test_need_gain_learns_only_from_groups_with_an_improving_edit(tmp_path: Path, lm, monkeypatch, need_gain,
                                                                  scored, learnt) -> None:
    answers = iter(scored * 4)

    def fake_score(env, text, invalid_reward):
        kind, reward = next(answers)
        return {"reward": reward, "parsed": True, "valid": True, "finalize": kind == "finalize",
                "noop": kind == "noop", "premature": False}

    monkeypatch.setattr(rewards_mod, "score_action", fake_score)
    model = copy.deepcopy(lm)
    before = {k: v.clone() for k, v in model.model.state_dict().items()}
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=1, states_per_step=1, group_size=2,
                     max_depth=0, max_new_tokens=8, save_every=5, temperature=1.5, need_gain=need_gain,
                     charge_stops=True, lr=1e-2)
    train_grpo(cfg, lm=model)
    log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines() if '"event"' not in x]
    assert log[0]["groups_with_signal"] == int(learnt)
    assert log[0]["reward"] == pytest.approx(sum(r for _, r in scored) / 2)  # as the environment scored them
    changed = any(not torch.equal(before[k], v) for k, v in model.model.state_dict().items())
    assert changed is learnt


_MOVE = {"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}
_STILL = {"type": "move", "ids": ["logo"], "dx": 0, "dy": 0}


def test_episode_return_adds_the_greedy_rest_of_the_episode(monkeypatch, env) -> None:
    from models.grpo_rewards import episode_return

    # after the sampled move the policy moves once more, then answers a no-op: its episode ends there
    monkeypatch.setattr(_Scripted, "answers", [_MOVE, _STILL, _MOVE])
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    before = env.document.layout.model_dump()
    first = score_action(env, json.dumps(_MOVE), invalid_reward=-0.1)
    res = episode_return(None, first)
    replay = copy.deepcopy(env)
    rewards = [replay.step(a)[1] for a in (_MOVE, _MOVE, _STILL)]
    assert res["rest_steps"] == 2 and res["step_reward"] == pytest.approx(rewards[0])
    assert res["reward"] == pytest.approx(sum(rewards))
    # the no-op's penalty is in it; by the potential's telescoping the rest is the quality gained less penalties
    assert rewards[2] == pytest.approx(-replay.reward_config.noop_penalty)
    assert env.document.layout.model_dump() == before and _steps(first["env"]) == 1  # copies only


@pytest.mark.parametrize("text", ['{"type":"finalize"}', json.dumps(_STILL), "not an action",
                                  '{"type":"move","ids":["nope"],"dx":2,"dy":0}'])
def test_an_answer_that_ends_the_episode_keeps_its_own_reward(monkeypatch, env, text) -> None:
    from models.grpo_rewards import episode_return

    monkeypatch.setattr(_Scripted, "answers", [])  # the policy is never asked
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    first = score_action(env, text, invalid_reward=-0.1)
    res = episode_return(None, first)
    assert res["reward"] == res["step_reward"] == first["reward"] and res["rest_steps"] == 0


def test_the_last_step_of_an_episode_has_no_rest(monkeypatch) -> None:
    from models.grpo_rewards import episode_return

    e = LayoutEnv("banner", max_steps=1)
    e.reset(seed=0, options={"task": "banner", "task_seed": 1000})
    monkeypatch.setattr(_Scripted, "answers", [])
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    res = episode_return(None, score_action(e, json.dumps(_MOVE), invalid_reward=-0.1))
    assert res["rest_steps"] == 0 and res["reward"] == res["step_reward"]


def test_composite_reward_is_the_final_composite_gain_of_the_greedy_episode(monkeypatch, env) -> None:
    from models.grpo_rewards import episode_composite, episode_return

    # after the sampled move the policy moves once more, then answers a no-op: its episode ends there
    monkeypatch.setattr(_Scripted, "answers", [_MOVE, _STILL])
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    before = env.document.layout.model_dump()
    first = score_action(env, json.dumps(_MOVE), invalid_reward=-0.1)
    res = episode_composite(None, env, first)
    replay = copy.deepcopy(env)
    infos = [replay.step(a)[4] for a in (_MOVE, _MOVE, _STILL)]
    assert infos[2]["noop"] and infos[2]["reward_penalty"] > 0
    # what the held-out evaluation scores: the composite the episode ends with, less the one it started from;
    # the no-op that ended it costs nothing there, and the instruction fit counts only as the composite weighs it
    assert res["reward"] == pytest.approx(replay.report.composite - env.report.composite)
    assert res["rest_steps"] == 2 and res["step_reward"] == pytest.approx(first["reward"])
    monkeypatch.setattr(_Scripted, "answers", [_MOVE, _STILL])
    assert episode_return(None, first)["reward"] != pytest.approx(res["reward"])
    assert env.document.layout.model_dump() == before and _steps(first["env"]) == 1  # copies only


@pytest.mark.parametrize(("text", "expected"), [
    ('{"type":"finalize"}', lambda e, r: -r.premature_penalty if _premature(e) else 0.0),
    (json.dumps(_STILL), lambda e, r: -r.noop_penalty),
    ("not an action", lambda e, r: -0.1),
    ('{"type":"move","ids":["nope"],"dx":2,"dy":0}', lambda e, r: -r.invalid_penalty),
])
def test_composite_reward_of_an_answer_that_ends_the_episode_is_its_own_penalty(monkeypatch, env, text,
                                                                                expected) -> None:
    from models.grpo_rewards import episode_composite

    monkeypatch.setattr(_Scripted, "answers", [])  # the policy is never asked
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    res = episode_composite(None, env, score_action(env, text, invalid_reward=-0.1))
    assert res["rest_steps"] == 0
    assert res["reward"] == pytest.approx(expected(env, env.reward_config))


def _premature(env) -> bool:
    return bool(copy.deepcopy(env).step({"type": "finalize"})[4]["premature_finalize"])


def test_composite_reward_of_a_last_step_is_its_own_composite_gain(monkeypatch) -> None:
    from models.grpo_rewards import episode_composite

    e = LayoutEnv("banner", max_steps=1)
    e.reset(seed=0, options={"task": "banner", "task_seed": 1000})
    monkeypatch.setattr(_Scripted, "answers", [])
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    first = score_action(e, json.dumps(_MOVE), invalid_reward=-0.1)
    res = episode_composite(None, e, first)
    assert res["rest_steps"] == 0
    assert res["reward"] == pytest.approx(first["env"].report.composite - e.report.composite)


@pytest.mark.parametrize("reward", ["return", "composite"])
def test_episode_scoring_runs_each_distinct_answer_once(monkeypatch, env, reward) -> None:
    from models.grpo_rewards import score_group

    calls = []
    real = rewards_mod.score_action
    monkeypatch.setattr(rewards_mod, "score_action", lambda e, t, r: calls.append(t) or real(e, t, r))
    monkeypatch.setattr(_Scripted, "answers", [_STILL] * 3)
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    texts = [json.dumps(_MOVE), '{"type":"finalize"}', json.dumps(_MOVE)]
    res = score_group(None, env, texts, GRPOConfig(reward=reward))
    assert calls == texts[:2] and res[0] is res[2] and res[0]["rest_steps"] == 1
    calls.clear()
    assert [r["reward"] for r in score_group(None, env, texts, GRPOConfig(reward="step"))] == pytest.approx(
        [res[0]["step_reward"], res[1]["reward"], res[0]["step_reward"]])
    assert calls == texts  # one step each: nothing saved by remembering


def test_an_unknown_reward_is_refused(tmp_path: Path, lm) -> None:
    with pytest.raises(ValueError, match="one of step, return, composite; got 'final'"):
        train_grpo(GRPOConfig(out=str(tmp_path / "g"), reward="final"), lm=lm)


@pytest.mark.parametrize("reward", ["return", "composite"])
def test_miniature_grpo_run_with_episode_rewards(tmp_path: Path, lm, reward) -> None:
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=1, states_per_step=1, group_size=3,
                     max_depth=1, max_new_tokens=8, save_every=1, temperature=1.5, reward=reward, env_max_steps=3)
    train_grpo(cfg, lm=lm)
    log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines() if '"event"' not in x]
    assert isinstance(log[0]["step_reward"], float) and isinstance(log[0]["reward"], float)
    assert json.loads((tmp_path / "grpo" / "config.json").read_text())["reward"] == reward


def test_validation_decides_in_float32_and_leaves_bfloat16_weights_as_they_were(lm, env) -> None:
    """A model trained in bfloat16 is checked in float32 (what the exported model computes in); afterwards its
    weights are the same bfloat16 bits, so training goes on unchanged."""
    from models.lm import LM, float32_weights, generate

    low = copy.deepcopy(lm.model).to(torch.bfloat16)
    widened = copy.deepcopy(low).float()  # the same weights, widened once
    before = {n: t.clone() for n, t in low.state_dict().items()}
    low_lm = LM(**{**lm.__dict__, "model": low})
    wide_lm = LM(**{**lm.__dict__, "model": widened})
    prompt = planner_prompt(env)
    with float32_weights(low) as m:
        assert all(p.dtype == torch.float32 for p in m.parameters())
        inside = generate(low_lm, prompt, max_new_tokens=12)
    assert inside == generate(wide_lm, prompt, max_new_tokens=12)
    after = low.state_dict()
    assert all(after[n].dtype == torch.bfloat16 and torch.equal(after[n], before[n]) for n in before)
    assert validate(low_lm, ["banner"], 1, max_steps=2) == validate(wide_lm, ["banner"], 1, max_steps=2)


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_shares_outside_zero_to_one_are_refused(tmp_path: Path, lm, share) -> None:
    with pytest.raises(ValueError, match=rf"varied_ids must be a share between 0 and 1; got {share}"):
        train_grpo(GRPOConfig(out=str(tmp_path / "g"), varied_ids=share), lm=lm)
    with pytest.raises(ValueError, match="stop_share must be a share"):
        train_grpo(GRPOConfig(out=str(tmp_path / "g"), stop_share=share), lm=lm)


def test_on_policy_state_can_rename_the_elements(monkeypatch) -> None:
    from assistant.env.tasks import make_task
    from models.grpo_rewards import on_policy_state

    monkeypatch.setattr(_Scripted, "answers", [{"type": "move", "ids": ["ad-logo"], "dx": 2, "dy": 0}] * 3)
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    env = on_policy_state(None, "banner", 1000, 2, 6, ids="varied")
    renamed = make_task("banner", 1000, ids="varied")
    assert _steps(env) == 2 and "ad-logo" in planner_prompt(env)
    assert [e.id for e in env.document.layout.elements] == [e.id for e in renamed.broken.layout.elements]
    assert env.instruction == renamed.instruction
    plain = on_policy_state(None, "banner", 1000, 0, 6)
    assert "ad-logo" not in planner_prompt(plain) and "logo" in [e.id for e in plain.document.layout.elements]


@pytest.mark.parametrize(("share", "renamed"), [(1.0, 3), (0.0, 0)])
def test_grpo_draws_the_asked_share_of_states_with_renamed_elements(tmp_path: Path, lm, monkeypatch, share,
                                                                     renamed) -> None:
    from assistant.env.tasks import make_task

    states, prompts = [], []
    real_state, real_sample = grpo_mod.on_policy_state, grpo_mod.sample_group

    def state(lm_, task, seed, *a, **kw):
        env = real_state(lm_, task, seed, *a, **kw)
        states.append((task, seed, [e.id for e in env.document.layout.elements]))
        return env

    monkeypatch.setattr(grpo_mod, "on_policy_state", state)
    monkeypatch.setattr(grpo_mod, "sample_group", lambda m, p, n, **kw: prompts.append(p) or real_sample(m, p, n, **kw))
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=1, states_per_step=3, group_size=2,
                     max_depth=0, max_new_tokens=8, save_every=5, varied_ids=share)
    train_grpo(cfg, lm=lm)
    log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines() if '"event"' not in x]
    assert log[0]["varied_states"] == renamed and len(states) == len(prompts) == 3
    named = {"varied" if ids == [e.id for e in make_task(t, s, ids="varied").broken.layout.elements] else
             "plain" if ids == [e.id for e in make_task(t, s).broken.layout.elements] else "?" for t, s, ids in states}
    assert named == ({"varied"} if renamed else {"plain"})
    # the sampled prompts list the elements by the names their states gave them
    assert all(f"\n{ids[1]} logo shape " in p for (_, _, ids), p in zip(states, prompts))


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_a_file_state_is_the_file_variant_rolled_on_by_the_policy(monkeypatch) -> None:
    from models.files import file_variant, load_files
    from models.grpo_rewards import file_state

    ((name, doc),) = load_files([EXAMPLES / "slide.svg"])
    first = "slide-title"
    monkeypatch.setattr(_Scripted, "answers", [{"type": "move", "ids": [first], "dx": 2, "dy": 0}] * 3)
    monkeypatch.setattr(rewards_mod, "TorchPolicy", _Scripted)
    env = file_state(None, name, doc, 3, 2, 6, perturb=2)
    assert _steps(env) == 2 and env.instruction is None
    variant, _ = file_variant(doc, name, 3, 2)
    start = next(e for e in variant.layout.elements if e.id == first)
    now = next(e for e in env.document.layout.elements if e.id == first)
    assert now.box.x == pytest.approx(start.box.x + 4, abs=0.01)
    assert next(e for e in doc.layout.elements if e.id == first).box.x == 80  # the imported file is untouched


@pytest.mark.parametrize(("share", "from_files"), [(1.0, 2), (0.0, 0)])
def test_grpo_draws_the_asked_share_of_states_from_files(tmp_path: Path, lm, monkeypatch, share, from_files) -> None:
    prompts = []
    real_sample = grpo_mod.sample_group
    monkeypatch.setattr(grpo_mod, "sample_group", lambda m, p, n, **kw: prompts.append(p) or real_sample(m, p, n, **kw))
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=1, states_per_step=2, group_size=2,
                     max_depth=0, max_new_tokens=8, save_every=5, file_share=share,
                     files=(str(EXAMPLES / "slide.svg"),))
    train_grpo(cfg, lm=lm)
    log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines() if '"event"' not in x]
    assert log[0]["file_states"] == from_files and len(prompts) == 2
    # a slide.svg state lists the file's own elements; a banner state the generator's
    assert sum("\nslide-title title text " in p for p in prompts) == from_files


def test_grpo_files_that_cannot_be_used_are_refused_by_name(tmp_path: Path, lm, osgeo_dir: Path) -> None:
    out = tmp_path / "g"
    with pytest.raises(ValueError, match="file_share needs files"):
        train_grpo(GRPOConfig(out=str(out), file_share=0.5), lm=lm)
    with pytest.raises(ValueError, match="file_share must be a share"):
        train_grpo(GRPOConfig(out=str(out), file_share=1.5, files=(str(EXAMPLES / "slide.svg"),)), lm=lm)
    with pytest.raises(ValueError, match=r"osgeo-gsoc-A4\.svg: its prompt and answer take \d+ tokens"):
        train_grpo(GRPOConfig(out=str(out), file_share=0.5, files=(str(osgeo_dir / "osgeo-gsoc-A4.svg"),)), lm=lm)
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg><rect")
    from assistant.errors import LayoutError

    with pytest.raises(LayoutError, match="broken.svg"):
        train_grpo(GRPOConfig(out=str(out), file_share=0.5, files=(str(broken),)), lm=lm)
    assert not out.exists()  # refused before anything is written


def _fixes(env) -> list[dict]:
    from assistant.planners.modelstep import finding_fixes

    fixes = finding_fixes(env.observation())
    assert len(fixes) >= 2, "the banner state should suggest fixes"
    return fixes


@pytest.mark.parametrize("grammar", [False, True])
def test_suggested_completions_are_the_prompts_fixes_no_sample_wrote(lm, env, grammar) -> None:
    from models.grpo_objective import suggested_completions

    fixes = _fixes(env)
    sampled = [json.dumps(fixes[0]), "not json", format_target({"type": "finalize"}).strip()]
    out = suggested_completions(lm, env, sampled, 10, grammar=grammar)
    want = [format_target(f).rstrip("\n") for f in fixes[1:]]
    assert [lm.decode(c[:-1] if not grammar else c) for c in out] == want[:len(out)] and len(out) == len(want)
    assert all((c[-1] == lm.eos_id) is (not grammar) for c in out)
    assert len(suggested_completions(lm, env, sampled, 1, grammar=grammar)) == 1
    assert suggested_completions(lm, env, [json.dumps(f) for f in fixes], 10, grammar=grammar) == []


def test_grpo_learns_from_a_suggested_fix_its_samples_missed(tmp_path: Path, lm, env, monkeypatch) -> None:
    fix = format_target(_fixes(env)[0]).rstrip("\n")
    scored_texts = []

    def fake_score(state, text, invalid_reward):
        scored_texts.append(text)
        return {"reward": 0.1 if text == fix else 0.0, "parsed": True, "valid": True, "finalize": False,
                "noop": False, "premature": False}

    monkeypatch.setattr(rewards_mod, "score_action", fake_score)
    monkeypatch.setattr(grpo_mod, "on_policy_state", lambda *a, **k: copy.deepcopy(env))
    model = copy.deepcopy(lm)
    prompt_ids = model.encode(planner_prompt(env), bos=True)
    target = [model.encode(fix) + [model.eos_id]]
    with torch.no_grad():
        before = float(token_logprobs(model.model, prompt_ids, target, model.pad_id)[0].sum())
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=1, states_per_step=1, group_size=3,
                     max_depth=0, max_new_tokens=8, save_every=5, suggested_fixes=1, lr=1e-2)
    train_grpo(cfg, lm=model)
    log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines() if '"event"' not in x]
    assert fix in scored_texts and len(scored_texts) == 4            # three samples and the suggestion
    assert log[0]["suggested"] == 1 and log[0]["suggested_best"] == 1.0
    assert log[0]["suggested_reward"] == pytest.approx(0.1) and log[0]["reward"] == 0.0  # samples only
    with torch.no_grad():
        after = float(token_logprobs(model.model, prompt_ids, target, model.pad_id)[0].sum())
    assert after > before


def test_a_negative_number_of_suggested_fixes_is_refused(tmp_path: Path, lm) -> None:
    with pytest.raises(ValueError, match="suggested_fixes"):
        train_grpo(GRPOConfig(out=str(tmp_path / "g"), suggested_fixes=-1), lm=lm)
