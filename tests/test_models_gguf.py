"""GGUF export: llama.cpp must tokenize and decode exactly like the torch model it came from.

A tiny Llama (grouped-query attention, so the K permutation is exercised with
fewer heads than Q) is trained in the test for a few hundred steps on a handful
of prompt → action strings, so its greedy outputs are non-trivial; then it is
exported to F16 and Q8_0 GGUF and run by llama.cpp (llama-cpp-python).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # much faster than two threads on a busy 2-core machine
pytest.importorskip("transformers")
pytest.importorskip("gguf")
llama_cpp = pytest.importorskip("llama_cpp")

from assistant.planners.prompting import build_prompt, format_target  # noqa: E402
from models.export_gguf import export_gguf, permute_qk  # noqa: E402
from models.tiny import TextCodec, TinyConfig, greedy_generate, make_model, save_checkpoint, train_tokenizer  # noqa: E402

EXAMPLES = [
    ("title 'Sale' box=40,40,400,80\nlogo image box=700,520,60,60", "push the logo into the top-right corner",
     {"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"}),
    ("title 'Sale' box=40,40,400,80\nprice text '$9' box=100,300,60,20", "make the price stand out",
     {"type": "promote", "id": "price", "factor": 1.5}),
    ("title 'Menu' box=52,40,300,60\nbody text box=40,120,300,200", "nudge the title 12px left",
     {"type": "move", "ids": ["title"], "dx": -12, "dy": 0}),
    ("headline text box=60,40,500,90\nbody text box=72,160,480,220", "align the body with the headline",
     {"type": "align", "ids": ["body"], "edge": "left", "to": "element", "target_id": "headline"}),
]
EXTRA_TEXTS = ["Ünïcödé  spaces\t\ttabs 12.5px -3 ### {\"a\":[1,2]} don't", "  leading space\n\n\nnewlines "]


def _pairs() -> list[tuple[str, str]]:
    return [(build_prompt(obs, req), format_target(act)) for obs, req, act in EXAMPLES]


def _train(model, codec: TextCodec, pairs: list[tuple[str, str]], steps: int) -> float:
    """Full-sequence next-token training on the example strings; returns the final loss."""
    seqs = [codec.encode(p + c, bos=True) + [codec.eos_id] for p, c in pairs]
    width = max(map(len, seqs))
    ids = torch.full((len(seqs), width), codec.pad_id)
    labels = torch.full((len(seqs), width), -100)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = torch.tensor(s)
        labels[i, :len(s)] = torch.tensor(s)
        mask[i, :len(s)] = 1
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
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
def exported(tmp_path_factory) -> dict:
    torch.manual_seed(0)
    tmp = tmp_path_factory.mktemp("gguf")
    pairs = _pairs()
    codec = TextCodec(train_tokenizer([p + c for p, c in pairs] + EXTRA_TEXTS, vocab_size=400, min_frequency=1))
    cfg = TinyConfig(hidden_size=64, num_layers=2, num_heads=4, num_kv_heads=2, intermediate_size=96,
                     max_positions=512)
    model = make_model(cfg, codec, seed=0)
    final_loss = _train(model, codec, pairs, steps=160)
    ckpt = save_checkpoint(model, codec, tmp / "ckpt")
    return {
        "model": model, "codec": codec, "pairs": pairs, "loss": final_loss,
        "f16": export_gguf(ckpt, tmp / "m-f16.gguf", out_type="f16"),
        "q8": export_gguf(ckpt, tmp / "m-q8.gguf", out_type="q8_0"),
    }


def _llama(path: Path, **kw):
    return llama_cpp.Llama(model_path=str(path), n_ctx=512, n_threads=2, n_batch=512, verbose=False, seed=0, **kw)


def test_permute_qk_matches_rotate_half_to_interleaved() -> None:
    # one head, head_dim 4: HF rows [r0 r1 | r2 r3] (halves) → interleaved pairs [r0 r2 r1 r3]
    w = np.arange(4 * 3, dtype=np.float32).reshape(4, 3)
    assert np.array_equal(permute_qk(w, 1), w[[0, 2, 1, 3]])


def test_model_learned_the_examples(exported) -> None:
    assert exported["loss"] < 0.1
    for prompt, completion in exported["pairs"]:
        _, text = greedy_generate(exported["model"], exported["codec"], prompt)
        assert text + "\n" == completion


def test_llama_cpp_tokenizes_like_tokenizers(exported) -> None:
    llm = _llama(exported["f16"])
    codec = exported["codec"]
    texts = [p + c for p, c in exported["pairs"]] + EXTRA_TEXTS + ["unseen words: zebra 3.14159 €"]
    for text in texts:
        assert llm.tokenize(text.encode("utf-8"), add_bos=True, special=False) == codec.encode(text, bos=True), text
        ids = codec.encode(text)
        assert llm.detokenize(ids).decode("utf-8") == codec.decode(ids)


def _llama_greedy(llm, codec: TextCodec, prompt: str, max_new: int = 96) -> list[int]:
    llm.reset()
    out: list[int] = []
    for tok in llm.generate(codec.encode(prompt, bos=True), top_k=1, top_p=1.0, min_p=0.0, temp=0.0,
                            repeat_penalty=1.0, reset=True):
        if tok == codec.eos_id or len(out) >= max_new:
            break
        out.append(tok)
        if "\n" in codec.decode(out):
            break
    return out


def test_llama_cpp_greedy_equals_torch_greedy_f16(exported) -> None:
    llm = _llama(exported["f16"])
    codec, model = exported["codec"], exported["model"]
    prompts = [p for p, _ in exported["pairs"]] + [build_prompt("logo image box=1,2,3,4", "logo to the top left")]
    for prompt in prompts:
        torch_ids, torch_text = greedy_generate(model, codec, prompt)
        assert _llama_greedy(llm, codec, prompt) == torch_ids
        res = llm.create_completion(prompt, max_tokens=96, temperature=0.0, top_k=1, repeat_penalty=1.0,
                                    stop=["\n"])
        assert res["choices"][0]["text"] == torch_text


def test_llama_cpp_logits_match_torch_f16(exported) -> None:
    llm = _llama(exported["f16"], logits_all=True)
    codec, model = exported["codec"], exported["model"]
    prompt = exported["pairs"][1][0]
    ids = codec.encode(prompt, bos=True)
    llm.reset()
    llm.eval(ids)
    cpp = np.asarray(llm.scores[llm.n_tokens - 1], dtype=np.float32)
    with torch.no_grad():
        ref = model(input_ids=torch.tensor([ids])).logits[0, -1].numpy()
    assert np.max(np.abs(cpp - ref)) < 0.02 * max(1.0, float(np.max(np.abs(ref))))


def test_q8_0_loads_runs_and_is_smaller(exported) -> None:
    from models.policies import load_llama

    assert exported["q8"].stat().st_size < exported["f16"].stat().st_size
    # without weight repacking: llama.cpp's AMX Q8_0 path crashes on some CPUs (llama.cpp #20824)
    llm = load_llama(exported["q8"], n_ctx=512)
    codec = exported["codec"]
    for prompt, completion in exported["pairs"]:
        out = _llama_greedy(llm, codec, prompt)
        assert out, "Q8_0 model generated nothing"
        # the memorised answers have wide logit margins: 8-bit weights keep them
        assert json.loads(codec.decode(out)) == json.loads(completion)


def test_export_rejects_a_non_checkpoint(tmp_path: Path) -> None:
    from assistant.errors import ModelFileError
    with pytest.raises(ModelFileError, match="config.json"):
        export_gguf(tmp_path, tmp_path / "x.gguf")


# --------------------------------------------------------------------------- import (GGUF → checkpoint)
def test_import_gives_back_the_f16_weights_and_the_tokenizer(exported, tmp_path: Path) -> None:
    from models.import_gguf import import_gguf
    from models.lm import load_lm

    ckpt = import_gguf(exported["f16"], tmp_path / "back")
    lm = load_lm(ckpt, device=torch.device("cpu"))
    codec, model = exported["codec"], exported["model"]
    # the tokenizer is rebuilt: the same ids, the same special tokens, the same text back
    for text in [p + c for p, c in exported["pairs"]] + EXTRA_TEXTS + ["unseen words: zebra 3.14159 €"]:
        assert lm.encode(text, bos=True) == codec.encode(text, bos=True), text
        assert lm.decode(codec.encode(text)) == codec.decode(codec.encode(text))
    assert (lm.bos_id, lm.eos_id, lm.pad_id) == (codec.bos_id, codec.eos_id, codec.pad_id)
    # every matrix is the original rounded to F16 (Q and K rows back in Hugging Face's order); norms are exact
    original = model.state_dict()
    for name, tensor in lm.model.state_dict().items():
        if name.endswith("rotary_emb.inv_freq"):
            continue
        expected = original[name].half().float() if tensor.ndim == 2 else original[name]
        assert torch.equal(tensor, expected), name
    for prompt, completion in exported["pairs"]:
        _, text = greedy_generate(lm.model, lm.codec, prompt)
        assert text + "\n" == completion


def test_import_then_export_writes_the_same_gguf_tensors(exported, tmp_path: Path) -> None:
    import gguf

    from models.import_gguf import import_gguf

    again = export_gguf(import_gguf(exported["f16"], tmp_path / "back"), tmp_path / "again.gguf", out_type="f16")
    a, b = gguf.GGUFReader(str(exported["f16"])), gguf.GGUFReader(str(again))
    assert [t.name for t in a.tensors] == [t.name for t in b.tensors]
    for x, y in zip(a.tensors, b.tensors):
        assert np.array_equal(np.asarray(x.data), np.asarray(y.data)), x.name
    llm = _llama(again)
    for prompt, _ in exported["pairs"]:
        assert _llama_greedy(llm, exported["codec"], prompt) == greedy_generate(
            exported["model"], exported["codec"], prompt)[0]


def test_import_dequantizes_q8_0(exported, tmp_path: Path) -> None:
    from models.import_gguf import import_gguf
    from models.tiny import load_checkpoint

    model, codec = load_checkpoint(import_gguf(exported["q8"], tmp_path / "q8"))
    ref = exported["model"].state_dict()
    for name, tensor in model.state_dict().items():
        if tensor.ndim == 2:  # 8-bit blocks: within a block's step of the original
            step = ref[name].abs().max() / 127
            assert float((tensor - ref[name]).abs().max()) <= float(step) + 1e-6, name
    for prompt, completion in exported["pairs"]:
        assert json.loads(greedy_generate(model, codec, prompt)[1]) == json.loads(completion)


def test_import_names_the_file_it_cannot_read(tmp_path: Path) -> None:
    from assistant.errors import ModelFileError
    from models.import_gguf import import_gguf

    with pytest.raises(ModelFileError, match="no such GGUF file"):
        import_gguf(tmp_path / "missing.gguf", tmp_path / "out")
    bad = tmp_path / "notes.gguf"
    bad.write_bytes(b"this is not a model\n" * 10)
    with pytest.raises(ModelFileError, match="notes.gguf.*not a readable GGUF"):
        import_gguf(bad, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing half-written


def test_import_refuses_to_overwrite_a_directory_it_did_not_write(exported, tmp_path: Path) -> None:
    from assistant.errors import ModelFileError
    from models.import_gguf import import_gguf

    keep = tmp_path / "work"
    keep.mkdir()
    (keep / "notes.txt").write_text("mine")
    with pytest.raises(ModelFileError, match="work: exists and is not a checkpoint"):
        import_gguf(exported["f16"], keep)
    assert (keep / "notes.txt").read_text() == "mine"
    first = import_gguf(exported["f16"], tmp_path / "ckpt")
    assert import_gguf(exported["f16"], first) == first  # its own output is replaced


# --------------------------------------------------------------------------- pre-tokenizers (how text is split)
NUMBER_TEXTS = ["move the logo 37px left", '{"type":"move","ids":["logo"],"dx":-37,"dy":120}',
                "x=123.45 -0.5 1000000 20x30 #ff00aa 2026-11-27", "٣٤ ² ½ 12³", "  7  ", "a1b22c333"]


@pytest.mark.parametrize("pre", ["gpt-2", "starcoder"])
def test_each_split_exports_and_imports_as_llama_cpp_reads_it(pre: str, tmp_path: Path) -> None:
    """Both pre-tokenizers reach llama.cpp (GGUF ``tokenizer.ggml.pre``) and come back from it unchanged."""
    import gguf

    from models.import_gguf import import_gguf
    from models.lm import load_lm

    texts = [p + c for p, c in _pairs()] + EXTRA_TEXTS + NUMBER_TEXTS
    codec = TextCodec(train_tokenizer(texts, vocab_size=400, min_frequency=1, pre=pre))
    request, answer = codec.tokenizer.encode(" 37px left").tokens, codec.tokenizer.encode('"dx": -37').tokens
    if pre == "starcoder":  # a number reads the same in a request and in an answer, digit by digit
        assert [t for t in request if t.isdigit()] == ["3", "7"] == [t for t in answer if t.isdigit()]
        assert not any(len(t) > 1 and any(c.isdigit() for c in t) for text in NUMBER_TEXTS
                       for t in codec.tokenizer.encode(text).tokens)
    else:  # under the GPT-2 regex a number may be one token
        assert "37" in answer
    cfg = TinyConfig(hidden_size=32, num_layers=1, num_heads=2, num_kv_heads=2, intermediate_size=64,
                     max_positions=256)
    out = export_gguf(save_checkpoint(make_model(cfg, codec, seed=0), codec, tmp_path / "ckpt"),
                      tmp_path / f"{pre}.gguf", out_type="f16")
    field = gguf.GGUFReader(str(out)).fields["tokenizer.ggml.pre"]
    assert bytes(field.parts[field.data[0]]).decode() == pre
    llm = _llama(out)
    lm = load_lm(import_gguf(out, tmp_path / "back"), device=torch.device("cpu"))
    for text in texts:
        assert llm.tokenize(text.encode("utf-8"), add_bos=True, special=False) == codec.encode(text, bos=True), text
        assert lm.encode(text, bos=True) == codec.encode(text, bos=True), text


def test_export_and_import_refuse_a_split_llama_cpp_would_not_repeat(exported, tmp_path: Path, monkeypatch) -> None:
    from assistant.errors import ExportError, ModelFileError
    from models import export_gguf as export_mod
    from models.import_gguf import import_gguf

    ckpt = save_checkpoint(exported["model"], exported["codec"], tmp_path / "ckpt")
    tok = json.loads((ckpt / "tokenizer.json").read_text())
    tok["pre_tokenizer"] = {"type": "Whitespace"}
    (ckpt / "tokenizer.json").write_text(json.dumps(tok))
    with pytest.raises(ExportError, match=r"tokenizer\.json.*Whitespace.*llama\.cpp would split text differently"):
        export_gguf(ckpt, tmp_path / "x.gguf")
    assert not (tmp_path / "x.gguf").exists()

    monkeypatch.setattr(export_mod, "pre_tokenizer_kind", lambda _json: "llama3")
    odd = export_gguf(save_checkpoint(exported["model"], exported["codec"], tmp_path / "ckpt2"),
                      tmp_path / "llama3.gguf")
    with pytest.raises(ModelFileError, match=r"llama3\.gguf.*pre-tokenizer 'llama3' is none of gpt-2, starcoder"):
        import_gguf(odd, tmp_path / "back")
    assert not (tmp_path / "back").exists()
