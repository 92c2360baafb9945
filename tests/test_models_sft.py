"""SFT: completion-masked loss, logging, best-checkpoint selection, on a miniature model."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # much faster than two threads on a busy 2-core machine

from assistant.planners.prompting import format_target, make_record, render_record  # noqa: E402
from models.lm import from_tiny, generate, load_lm  # noqa: E402
from models.sft import (  # noqa: E402
    SFTConfig,
    collate,
    completion_loss,
    encode_records,
    grouped_loss_sum,
    lr_at,
    prefix_groups,
    spread,
    train_sft,
)
from models.tiny import TextCodec, TinyConfig, make_model, train_tokenizer  # noqa: E402

OBS = ("canvas 800x600 px\nelements (id role kind x,y,w,h):\n{el} logo shape 700,500,60,60\n"
       "title title text 40,40,300,60")
REGIONS = ["top_left", "top_right", "bottom_left", "bottom_right"]


def _records() -> list[dict]:
    recs = []
    for region in REGIONS:
        for el in ("logo", "badge"):
            obs = OBS.format(el=el)
            recs.append(make_record(obs, f"put the {el} in the {region.replace('_', ' ')} corner",
                                    {"type": "anchor_to_region", "ids": [el], "region": region}))
    return recs


def _write(path: Path, recs: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return str(path)


@pytest.fixture(scope="module")
def tiny_lm():
    recs = _records()
    codec = TextCodec(train_tokenizer(["".join(render_record(r)) for r in recs], 320, min_frequency=1))
    cfg = TinyConfig(hidden_size=48, num_layers=2, num_heads=4, num_kv_heads=4, intermediate_size=96, max_positions=256)
    return from_tiny(make_model(cfg, codec, seed=0), codec)


def test_collate_masks_prompt_and_padding(tiny_lm) -> None:
    examples, dropped = encode_records(tiny_lm, _records()[:2], max_len=256)
    assert dropped == 0
    batch = collate(examples, tiny_lm.pad_id, torch.device("cpu"))
    for row, (seq, n_prompt) in enumerate(examples):
        labels = batch["labels"][row]
        assert (labels[:n_prompt] == -100).all()
        assert labels[n_prompt:len(seq)].tolist() == seq[n_prompt:]
        assert (labels[len(seq):] == -100).all()
        assert seq[-1] == tiny_lm.eos_id  # the completion ends with eos


def test_completion_loss_is_the_mean_over_completion_tokens_only(tiny_lm) -> None:
    """The loss picks the completion's positions before the upcast; it equals cross-entropy over all positions
    with the prompt and the padding masked, and counts the same tokens."""
    examples, _ = encode_records(tiny_lm, _records()[:3], max_len=256)
    batch = collate(examples, tiny_lm.pad_id, torch.device("cpu"))
    loss, correct, total = completion_loss(tiny_lm.model, batch)
    logits = tiny_lm.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits[:, :-1]
    labels = batch["labels"][:, 1:]
    full = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), labels.reshape(-1),
                                             ignore_index=-100)
    assert float(loss) == pytest.approx(float(full), rel=1e-5)
    assert total == sum(len(seq) - n_prompt for seq, n_prompt in examples)
    assert correct == int(((logits.argmax(-1) == labels) & (labels != -100)).sum())


def test_a_batch_with_non_finite_gradients_is_skipped(tmp_path: Path, tiny_lm, monkeypatch) -> None:
    """An overflow in one batch leaves the weights as they were and is counted in the log; training goes on."""
    import copy

    import models.sft as sft_mod

    real = sft_mod.grouped_loss_sum
    calls = iter(range(1000))

    def overflow_on_first(*args):
        loss, correct, total = real(*args)
        return (loss * float("inf") if next(calls) == 0 else loss), correct, total

    monkeypatch.setattr(sft_mod, "grouped_loss_sum", overflow_on_first)
    lm = copy.deepcopy(tiny_lm)
    before = {k: v.clone() for k, v in lm.model.state_dict().items()}
    recs = _records()
    cfg = SFTConfig(train=_write(tmp_path / "train.jsonl", recs), val=_write(tmp_path / "val.jsonl", recs[:4]),
                    out=str(tmp_path / "sft"), steps=1, batch_size=4, lr=5e-3, warmup=0, log_every=1, eval_every=1)
    train_sft(cfg, lm=lm)
    assert all(torch.equal(before[k], v) for k, v in lm.model.state_dict().items())
    cfg.steps, cfg.out = 3, str(tmp_path / "sft2")
    train_sft(cfg, lm=lm)
    log = [json.loads(x) for x in (tmp_path / "sft2" / "log.jsonl").read_text().splitlines()]
    train = [r for r in log if r.get("event") == "train"]
    assert [r["skipped_nonfinite"] for r in train] == [0, 0, 0]
    assert all(math.isfinite(r["loss"]) for r in train)
    assert any(not torch.equal(before[k], v) for k, v in lm.model.state_dict().items())
    first = [json.loads(x) for x in (tmp_path / "sft" / "log.jsonl").read_text().splitlines()]
    assert [r["skipped_nonfinite"] for r in first if r.get("event") == "train"] == [1]


def test_requests_about_one_layout_are_grouped_by_their_shared_prompt(tiny_lm) -> None:
    """The records ask about two layouts (``logo`` / ``badge``) four ways each. Sorted by their tokens, the requests
    about one layout lie side by side: groups of at most four hold one layout each; the shared tokens stop before
    every member's last prompt token. With no share asked for, or one no two prompts reach, every example is
    alone."""
    examples, _ = encode_records(tiny_lm, _records(), max_len=256)
    layout = ["\nlogo logo shape" in r["messages"][1]["content"] for r in _records()]  # which layout
    assert len(set(layout)) == 2
    for max_group, sizes in ((4, [4, 4]), (3, [2, 3, 3]), (8, [8])):
        groups = prefix_groups(examples, share=0.5, max_group=max_group)
        assert sorted(i for idx, _ in groups for i in idx) == list(range(len(examples)))
        assert sorted(len(idx) for idx, _ in groups) == sizes
        for idx, shared in groups:
            if len(idx) == 1:
                assert shared == 0
                continue
            assert len({tuple(examples[i][0][:shared]) for i in idx}) == 1
            assert 0 < shared < min(examples[i][1] for i in idx)
            if max_group == 4:
                assert len({layout[i] for i in idx}) == 1
    assert prefix_groups(examples, share=0.0, max_group=8) == [([i], 0) for i in range(len(examples))]
    assert all(len(idx) == 1 for idx, _ in prefix_groups(examples, share=1.0, max_group=8))


def _loss_and_grads(model, fn) -> tuple[float, int, int, torch.Tensor]:
    model.zero_grad(set_to_none=True)
    summed, correct, total = fn()
    summed.backward()
    grads = torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None])
    return float(summed), correct, total, grads


def test_grouped_loss_equals_running_every_example_whole(tiny_lm) -> None:
    """Running a group's shared tokens once gives the loss, the counts and the gradients of whole examples."""
    model = tiny_lm.model
    examples, _ = encode_records(tiny_lm, _records()[:7], max_len=256)
    groups = prefix_groups(examples, share=0.5, max_group=3)  # groups of 3 and an example alone
    assert sorted(len(idx) for idx, _ in groups) == [1, 3, 3]
    whole = collate(sorted(examples, key=lambda e: len(e[0])), tiny_lm.pad_id, torch.device("cpu"))
    a = _loss_and_grads(model, lambda: grouped_loss_sum(model, examples, groups, tiny_lm.pad_id, torch.device("cpu")))
    b = _loss_and_grads(model, lambda: _summed(model, whole))
    assert a[0] == pytest.approx(b[0], rel=1e-5) and a[1:3] == b[1:3]
    assert float(b[3].norm()) > 0
    assert torch.allclose(a[3], b[3], rtol=1e-4, atol=1e-6)


def _summed(model, batch):
    mean, correct, total = completion_loss(model, batch)
    return mean * total, correct, total


def test_grouped_loss_of_a_sliding_window_model_under_lora_equals_whole_examples() -> None:
    """Gemma 3 (the GPU base) keeps only a window of keys in its sliding layers; with peft's LoRA on top, and a
    shared prompt longer than the window."""
    from peft import LoraConfig, get_peft_model
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig

    torch.manual_seed(0)
    cfg = Gemma3TextConfig(vocab_size=400, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                           num_attention_heads=2, num_key_value_heads=1, head_dim=16, sliding_window=16,
                           layer_types=["sliding_attention", "full_attention"], max_position_embeddings=512)
    model = get_peft_model(Gemma3ForCausalLM(cfg), LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"],
                                                              lora_dropout=0.0))
    prompt = torch.randint(3, 400, (60,)).tolist()
    examples = [(prompt + torch.randint(3, 400, (n,)).tolist(), 60 + n - m) for n, m in ((8, 3), (25, 10), (2, 1))]
    groups = prefix_groups(examples, share=0.5, max_group=8)
    assert [(sorted(idx), shared) for idx, shared in groups] == [([0, 1, 2], 60)]
    a = _loss_and_grads(model, lambda: grouped_loss_sum(model, examples, groups, 0, torch.device("cpu")))
    b = _loss_and_grads(model, lambda: _summed(model, collate(examples, 0, torch.device("cpu"))))
    assert a[0] == pytest.approx(b[0], rel=1e-5) and a[1:3] == b[1:3] == (a[1], 14)
    assert torch.allclose(a[3], b[3], rtol=1e-4, atol=1e-6)


def test_grouped_loss_without_a_cache_runs_whole_examples(tiny_lm) -> None:
    """Gradient checkpointing turns the cache off in training: the group's examples are run whole."""
    import copy

    model = copy.deepcopy(tiny_lm.model)
    model.gradient_checkpointing_enable()
    model.train()
    examples, _ = encode_records(tiny_lm, _records()[:4], max_len=256)
    groups = prefix_groups(examples, share=0.5, max_group=8)
    assert max(len(idx) for idx, _ in groups) > 1
    a = _loss_and_grads(model, lambda: grouped_loss_sum(model, examples, groups, tiny_lm.pad_id, torch.device("cpu")))
    b = _loss_and_grads(model, lambda: _summed(model, collate(examples, tiny_lm.pad_id, torch.device("cpu"))))
    assert a[0] == pytest.approx(b[0], rel=1e-5) and a[1:3] == b[1:3]


def test_too_long_examples_are_dropped(tiny_lm) -> None:
    _, dropped = encode_records(tiny_lm, _records(), max_len=20)
    assert dropped == len(_records())


def test_sft_learns_logs_and_keeps_best(tmp_path: Path, tiny_lm) -> None:
    recs = _records()
    cfg = SFTConfig(train=_write(tmp_path / "train.jsonl", recs), val=_write(tmp_path / "val.jsonl", recs[:4]),
                    out=str(tmp_path / "sft"), steps=60, batch_size=8, lr=5e-3, warmup=5, log_every=10,
                    eval_every=20, max_len=256)
    summary = train_sft(cfg, lm=tiny_lm)
    log = [json.loads(x) for x in Path(summary["log"]).read_text().splitlines()]
    train = [r for r in log if r["event"] == "train"]
    val = [r for r in log if r["event"] == "val"]
    assert train[-1]["loss"] < train[0]["loss"] * 0.5
    assert all(0.0 <= r["acc"] <= 1.0 for r in train) and train[-1]["acc"] > train[0]["acc"]
    assert summary["best"]["val_loss"] == min(r["val_loss"] for r in val)
    best = load_lm(summary["best_dir"], device=torch.device("cpu"))
    _, text = generate(best, render_record(recs[1])[0])
    assert text + "\n" == format_target(recs[1] and {"type": "anchor_to_region", "ids": ["badge"],
                                                     "region": "top_left"})


def test_tokenizer_is_deterministic_and_lossless() -> None:
    texts = ["".join(render_record(r)) for r in _records()]
    a = TextCodec(train_tokenizer(texts, 300, min_frequency=1))
    b = TextCodec(train_tokenizer(texts, 300, min_frequency=1))
    assert a.tokenizer.get_vocab() == b.tokenizer.get_vocab()
    assert (a.bos_id, a.eos_id, a.pad_id) == (0, 1, 2)
    unseen = "Zürich — 12.5px «quoted» 😀\n\tend"
    assert a.decode(a.encode(unseen)) == unseen


def test_learning_rate_decays_over_the_tighter_of_steps_and_time_budget() -> None:
    cfg = SFTConfig(steps=1000, lr=1e-3, min_lr_ratio=0.1, warmup=10)
    assert lr_at(0, cfg) == pytest.approx(1e-4)
    assert lr_at(10, cfg) == pytest.approx(1e-3)
    assert lr_at(999, cfg) == pytest.approx(1e-4, rel=1e-3)
    assert lr_at(100, cfg, elapsed=1e9) == pytest.approx(lr_at(100, cfg))  # no budget: time does not count
    timed = SFTConfig(steps=1000, lr=1e-3, min_lr_ratio=0.1, warmup=10, max_minutes=10.0)
    assert lr_at(100, timed, elapsed=0.0) == pytest.approx(lr_at(100, cfg))
    assert lr_at(100, timed, elapsed=300.0) == pytest.approx(0.55e-3)  # half the budget: half-way down the cosine
    assert lr_at(100, timed, elapsed=600.0) == pytest.approx(1e-4)     # budget spent: the floor


def test_validation_subset_spreads_over_the_file() -> None:
    items = list(range(100))
    assert spread(items, 4) == [0, 25, 50, 75]
    assert spread(items, 200) == items and spread(items, 0) == items


def test_continuation_notes_name_the_data_command(tmp_path: Path) -> None:
    from models.data import DataConfig
    from models.experiments.continue_sft import data_command

    assert data_command(tmp_path) == ""
    cfg = DataConfig(out=str(tmp_path), tasks=("banner", "poster"), applicator_layouts=40)
    (tmp_path / "stats.json").write_text(json.dumps({"config": {**cfg.__dict__, "tasks": list(cfg.tasks)}}))
    cmd = data_command(tmp_path)
    assert f"python -m models.data --out {tmp_path} --tasks banner,poster" in cmd
    assert "--applicator-layouts 40" in cmd and "--time-budget 20.0" in cmd


def test_continuation_grpo_and_evaluation_flags() -> None:
    import argparse
    from dataclasses import replace

    from models.experiments.continue_sft import continuation_grpo, flags_text, grpo_overrides, parser
    from models.model_card import grpo_text

    none = parser().parse_args([])
    tiny = continuation_grpo()
    assert grpo_text(replace(tiny, **grpo_overrides(none))).startswith("12 steps of 2 states × 4 sampled actions")
    some = argparse.Namespace(**{**vars(none), "grpo_steps": 120, "grpo_lr": 3e-5, "grpo_depth": 4,
                                 "verify_samples": 6})
    assert grpo_overrides(some) == {"steps": 120, "lr": 3e-5, "max_depth": 4, "save_every": 24}
    assert flags_text(some) == " --grpo-steps 120 --grpo-lr 3e-05 --grpo-depth 4 --verify-samples 6"
    text = grpo_text(replace(tiny, **grpo_overrides(some)))
    assert "120 steps" in text and "4 on-policy steps deep in 6-step episodes" in text
    assert "validated every 6 steps on 2 validation seeds per task" in text and "exported" not in text
    val = argparse.Namespace(**{**vars(none), "grpo_states": 4, "grpo_max_steps": 6, "grpo_val_every": 10,
                                "grpo_val_episodes": 8})
    assert grpo_overrides(val) == {"states_per_step": 4, "env_max_steps": 6, "val_every": 10, "val_episodes": 8}
    assert flags_text(val) == " --grpo-states 4 --grpo-max-steps 6 --grpo-val-every 10 --grpo-val-episodes 8"
    g = replace(tiny, **grpo_overrides(val))
    assert grpo_text(g, {"step": 30, "composite": 0.8812}).endswith("exported: step 30, 0.881")
    assert "exported: the SFT model (no GRPO step beat it)" in grpo_text(g, {"step": 0, "composite": 0.86})
    assert "KL coefficient 0.04, sampled at temperature 1" in text and "greedy policy would end" not in text
    assert "cost the best gain" not in text and "budget" not in text
    timed = argparse.Namespace(**{**vars(none), "grpo_steps": 400, "grpo_minutes": 40.0})
    assert grpo_overrides(timed) == {"steps": 400, "max_minutes": 40.0, "save_every": 80}
    assert flags_text(timed) == " --grpo-steps 400 --grpo-minutes 40"
    assert ("or fewer steps where its 40-minute budget ran out first"
            in grpo_text(replace(tiny, **grpo_overrides(timed))))
    stop = argparse.Namespace(**{**vars(none), "grpo_stop_share": 0.5, "grpo_kl": 0.02, "grpo_charge_stops": 1,
                                 "grpo_need_gain": 1, "grpo_temperature": 0.6})
    assert grpo_overrides(stop) == {"stop_share": 0.5, "kl_coef": 0.02, "charge_stops": True, "need_gain": True,
                                    "temperature": 0.6}
    assert flags_text(stop) == (" --grpo-stop-share 0.5 --grpo-kl 0.02 --grpo-temperature 0.6 --grpo-charge-stops 1"
                                " --grpo-need-gain 1")
    text = grpo_text(replace(tiny, **grpo_overrides(stop)))
    assert "50% of the states where the greedy policy would end its episode early" in text
    assert "a sampled finalize or no-op cost the best gain of an edit sampled beside it" in text
    assert "learning only from groups in which a sampled edit improved the layout" in text
    assert "played on greedily" not in text
    ret = parser().parse_args(["--grpo-reward", "return", "--grpo-lr", "3e-5", "--grpo-std-floor", "0.05"])
    assert grpo_overrides(ret) == {"lr": 3e-5, "reward": "return", "std_floor": 0.05}
    assert flags_text(ret) == " --grpo-lr 3e-05 --grpo-reward return --grpo-std-floor 0.05"
    text = grpo_text(replace(tiny, **grpo_overrides(ret)))
    assert "each sampled action rewarded with the return of its episode played on greedily" in text
    assert "advantages divided by the group's reward spread or 0.05, whichever is larger" in text
    assert "reward spread" not in grpo_text(tiny)
    assert "fixes its prompt suggests" not in grpo_text(tiny)
    assert "each group also held up to 2 of the fixes its prompt suggests that no sample wrote" in grpo_text(
        replace(tiny, suggested_fixes=2))
    comp = parser().parse_args(["--grpo-reward", "composite"])
    assert grpo_overrides(comp) == {"reward": "composite"}
    text = grpo_text(replace(tiny, **grpo_overrides(comp)))
    assert "each sampled action rewarded with the final composite gain of its episode played on greedily" in text
    assert "the return of its episode" not in text and "real files" not in text
    renamed = parser().parse_args(["--grpo-varied-ids", "0.5"])
    assert grpo_overrides(renamed) == {"varied_ids": 0.5}
    assert flags_text(renamed) == " --grpo-varied-ids 0.5"
    assert "; 50% of the states with elements named as real files name them" in grpo_text(
        replace(tiny, **grpo_overrides(renamed)))
    files = parser().parse_args(["--grpo-files", "a.svg", "my flyer.svg", "--grpo-file-share", "0.25",
                                 "--grpo-perturb", "2"])
    assert grpo_overrides(files) == {"files": ("a.svg", "my flyer.svg"), "file_share": 0.25, "perturb": 2}
    assert flags_text(files) == " --grpo-files a.svg 'my flyer.svg' --grpo-file-share 0.25 --grpo-perturb 2"
    assert ("; 25% of the states from 2 real SVG files without a brief, as they are or after up to 2 random "
            "damaging edits") in grpo_text(replace(tiny, **grpo_overrides(files)))
    gram = parser().parse_args(["--grpo-grammar", "1"])
    assert grpo_overrides(gram) == {"grammar": True} and flags_text(gram) == " --grpo-grammar 1"
    assert "; groups sampled under the runtime's action grammar over each state's element ids" in grpo_text(
        replace(tiny, **grpo_overrides(gram)))
    assert "action grammar" not in grpo_text(tiny)


def test_skip_sft_reads_a_finished_sft_back(tmp_path: Path) -> None:
    from models.experiments.continue_sft import finished_sft

    with pytest.raises(SystemExit, match="holds no finished SFT"):
        finished_sft(tmp_path)
    (tmp_path / "sft" / "best").mkdir(parents=True)
    log = tmp_path / "sft" / "log.jsonl"
    log.write_text('{"event": "train", "step": 20, "loss": 0.5}\n')
    with pytest.raises(SystemExit, match="no end record"):
        finished_sft(tmp_path)
    log.write_text(log.read_text() + '{"event": "end", "best": {"val_loss": 0.2, "step": 20}}\n')
    got = finished_sft(tmp_path)
    assert got["best"] == {"val_loss": 0.2, "step": 20} and got["best_dir"] == str(tmp_path / "sft" / "best")
    assert [h["event"] for h in got["history"]] == ["train", "end"]


def test_notes_of_grpo_again_on_a_finished_sft(tmp_path: Path) -> None:
    from dataclasses import replace

    from models.experiments.continue_sft import continuation_grpo, parser, write_notes

    src, run = tmp_path / "tiny7", tmp_path / "tiny8"
    src.mkdir(), run.mkdir()
    (src / "NOTES.md").write_text("Part (7) trained the SFT.\n")
    args = parser().parse_args(["--grpo-steps", "40", "--grpo-lr", "1e-5", "--grpo-states", "8",
                                "--grpo-val-every", "10", "--verify-samples", "32", "--skip-sft"])
    sft = {"best": {"val_loss": 0.1654, "step": 806},
           "history": [{"event": "train", "step": 800}, {"event": "train", "step": 806}]}
    grpo = replace(continuation_grpo(), steps=40, lr=1e-5, states_per_step=8, val_every=10)
    text = write_notes(run, src, src / "data", args, sft, grpo, chosen={"step": 20, "composite": 0.8853}).read_text()
    assert text.startswith("Part (7) trained the SFT.\n\nGRPO again on ")
    assert f"(the SFT `{src}` finished: 806 steps, best validation loss 0.1654 at step 806)" in text
    assert f"--from {src} --run {run} --skip-sft --threads 2 --grpo-steps 40 --grpo-lr 1e-05 --grpo-states 8" in text
    assert "more SFT steps" not in text and "--minutes" not in text  # no SFT ran
    assert text.rstrip().endswith("exported: step 20, 0.885), export and evaluation.")
