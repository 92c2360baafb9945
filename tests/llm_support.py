"""A tiny GGUF applicator for the local/remote planner and chat tests, made with the training code.

``tiny_gguf(tmp_path_factory)`` trains a micro Llama (``models.tiny``: byte-level
BPE tokenizer + ``LlamaForCausalLM``) for a few seconds of CPU on a handful of
prompt → action pairs for ``examples/flyer.svg`` and exports it with
``models.export_gguf`` (F16). It is built once per test session (cached in the
session's base temp folder) and shared by every test module that asks for it.
The layout is :data:`SMALL_SVG` (six elements; its footer sits off the column
of the lines above it), so prompts stay short and training takes seconds; the loss covers the completion tokens only.

The prompts are the runtime's own: the applicator prompt of
``assistant.planners.prompting`` for :data:`REQUESTS` (the later requests also on the
layout the first one leaves, as a chat session asks them), the planner prompt of the
untouched flyer (answer: the heuristic planner's first edit), and the same
applicator turn rendered by llama-cpp-python's ``llama-2`` chat format, which
is what its OpenAI-compatible server feeds the model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The layout every tiny-model test edits.
SMALL_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
  <rect id="bg" x="0" y="0" width="400" height="300" fill="#ffffff"/>
  <text id="title" x="30" y="60" font-family="DejaVu Sans" font-size="28" fill="#222222">Spring Fair</text>
  <rect id="logo" x="300" y="200" width="60" height="60" fill="#3366cc"/>
  <text id="body" x="30" y="120" font-family="DejaVu Sans" font-size="12"
        fill="#333333">Music, food and games for all</text>
  <text id="info" x="30" y="150" font-family="DejaVu Sans" font-size="12" fill="#333333">Free entry</text>
  <text id="footer" x="22" y="285" font-family="DejaVu Sans" font-size="12" fill="#555555">Town square, May 4</text>
</svg>
"""

#: Requests the tiny model learns, with the exact action it must answer.
REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("move the logo to the top right", {"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"}),
    ("make the title bigger", {"type": "promote", "id": "title", "factor": 1.5}),
]
#: The request the server test sends through the chat template.
SERVER_REQUEST = REQUESTS[0]


def planner_state(doc: Any) -> Any:
    from assistant.metrics import evaluate
    from assistant.planners.base import PlannerState

    return PlannerState(document=doc, report=evaluate(doc.layout))


def heuristic_first_action(doc: Any) -> dict[str, Any]:
    """The heuristic planner's first edit of ``doc`` (what the planner prompt is trained to answer)."""
    from assistant.planners import get_planner

    action = get_planner("heuristic", beam_width=0).propose(planner_state(doc))[0]
    return action.model_dump(mode="json", exclude_none=True)


def training_pairs() -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """``(prompt, completion)`` pairs and the planner's target action."""
    from llama_cpp.llama_chat_format import format_llama2

    from assistant.actions import apply_action, parse_action
    from assistant.importer import import_svg_text
    from assistant.planners.modelstep import planner_prompt_text
    from assistant.planners.prompting import SYSTEM_PROMPTS, build_prompt, format_target, layout_text, user_message

    doc = import_svg_text(SMALL_SVG, source="small.svg")
    pairs = [(build_prompt(layout_text(doc.layout), req, kind="applicator"), format_target(act))
             for req, act in REQUESTS]
    # the second request once the first is applied, as a chat session asks it: the micro model learns both
    # states rather than being trusted to carry a request across a changed layout
    moved = import_svg_text(SMALL_SVG, source="small.svg")
    apply_action(moved, parse_action(REQUESTS[0][1]))
    pairs += [(build_prompt(layout_text(moved.layout), req, kind="applicator"), format_target(act))
              for req, act in REQUESTS[1:]]
    plan_action = heuristic_first_action(doc)
    pairs.append((build_prompt(planner_prompt_text(planner_state(doc)), "", kind="planner"),
                  format_target(plan_action)))
    req, act = SERVER_REQUEST
    chat = format_llama2([{"role": "system", "content": SYSTEM_PROMPTS["applicator"]},
                          {"role": "user", "content": user_message(layout_text(doc.layout), req)}])
    pairs.append((chat.prompt, format_target(act)))
    return pairs, plan_action


def _train(model: Any, codec: Any, pairs: list[tuple[str, str]], steps: int, lr: float = 1e-2) -> tuple[float, int]:
    import torch

    prompts = [codec.encode(p, bos=True) for p, _ in pairs]
    seqs = [q + codec.encode(c) + [codec.eos_id] for q, (_, c) in zip(prompts, pairs)]
    width = max(map(len, seqs))
    ids = torch.full((len(seqs), width), codec.pad_id)
    labels = torch.full((len(seqs), width), -100)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for i, (q, s) in enumerate(zip(prompts, seqs)):
        ids[i, :len(s)] = torch.tensor(s)
        labels[i, len(q):len(s)] = torch.tensor(s[len(q):])
        mask[i, :len(s)] = 1
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    loss = torch.tensor(0.0)
    step = 0
    while step < steps:
        step += 1
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if float(loss.detach()) < 0.01:
            break
    model.eval()
    return float(loss.detach()), step


def build_tiny_gguf(out_dir: Path) -> dict[str, Any]:
    """Train and export the micro model into ``out_dir``; returns its facts."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("gguf")
    from models.export_gguf import export_gguf
    from models.tiny import TextCodec, TinyConfig, make_model, save_checkpoint, train_tokenizer

    torch.manual_seed(0)
    torch.set_num_threads(1)
    pairs, plan_action = training_pairs()
    codec = TextCodec(train_tokenizer([p + c for p, c in pairs], vocab_size=1000, min_frequency=1))
    cfg = TinyConfig(hidden_size=64, num_layers=2, num_heads=4, num_kv_heads=2, intermediate_size=128,
                     max_positions=2048)
    model = make_model(cfg, codec, seed=0)
    loss, steps = _train(model, codec, pairs, steps=300)
    ckpt = save_checkpoint(model, codec, out_dir / "ckpt")
    path = export_gguf(ckpt, out_dir / "tiny-f16.gguf", out_type="f16", name="test-applicator")
    facts = {"path": str(path), "loss": loss, "steps": steps, "plan_action": plan_action}
    (out_dir / "facts.json").write_text(json.dumps(facts))
    return facts


def tiny_gguf(tmp_path_factory: Any) -> dict[str, Any]:
    """The session's micro model (built on first use; later calls read the cached facts)."""
    llama_cpp = pytest.importorskip("llama_cpp")  # noqa: F841
    out = tmp_path_factory.getbasetemp() / "tiny-applicator-gguf"
    facts_file = out / "facts.json"
    if facts_file.is_file():
        return json.loads(facts_file.read_text())
    out.mkdir(parents=True, exist_ok=True)
    return build_tiny_gguf(out)
