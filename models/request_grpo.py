r"""GRPO on plain-language requests, rewarded by each request's geometric check.

SFT teaches the answer written beside a request; GRPO then lets the model try: for a request of the corpus
(``models.request_corpus``) a group of answers is sampled under the runtime's action grammar, each is applied
to the layout and checked with :func:`models.request_corpus.request_met` (does it leave every element where
the request wants it?), and the model is moved towards the answers that pass and away from the rest, with a
KL pull to the model it started from (``models.grpo_objective``: the same sampling, advantages and clipped
objective as the planner's GRPO). Rewards: 1 for an answer that meets the request, :data:`NEAR` for one of the
right kind on the right elements that misses, 0 for any other edit, ``invalid_reward`` for one that does not
apply.

Command (``models.request_recipe`` runs it after SFT)::

    python -m models.request_grpo --init runs/requests/sft/best --train runs/requests/data/train.jsonl \\
        --out runs/requests/grpo --steps 30 --group-size 4
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from assistant.errors import InvalidAction, ModelFileError
from assistant.planners.prompting import parse_completion, render_record
from models.grpo_objective import group_advantages, grpo_loss, sample_group, token_logprobs
from models.lm import LM, describe_device, load_lm, pick_device
from models.request_corpus import applies, request_met

#: Reward of an answer of the requested kind on the requested elements that misses the check.
NEAR = 0.3


@dataclass
class RequestGRPOConfig:
    """Settings of one run (see the module docstring)."""

    init: str = "runs/requests/sft/best"   # the SFT checkpoint (a LoRA adapter directory or a tiny checkpoint)
    train: str = "runs/requests/data/train.jsonl"
    out: str = "runs/requests/grpo"
    steps: int = 30
    group_size: int = 4
    temperature: float = 1.0
    max_new_tokens: int = 48
    lr: float = 2e-5
    kl_coef: float = 0.1
    clip_eps: float = 0.2
    grad_clip: float = 1.0
    invalid_reward: float = -0.1
    grammar: bool = True                 # sample under the runtime's action grammar
    grammar_vocab: str = ""              # a GGUF with the model's tokenizer (default: the base's own)
    max_minutes: float = 0.0
    threads: int = 0
    seed: int = 0


def subject(action: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """An action's type and the elements it edits."""
    ids = action.get("ids") or ([action["id"]] if "id" in action else [])
    return action.get("type", ""), tuple(sorted(ids))


def reward(document: Any, meta: dict[str, Any], text: str, invalid_reward: float) -> tuple[float, bool]:
    """``(reward, met)`` of one sampled answer to the request ``meta`` describes."""
    try:
        action = parse_completion(text)
    except InvalidAction:
        return invalid_reward, False
    band = tuple(meta["band"]) if meta.get("band") else None
    target = meta["target"]
    if request_met(document, target, action, band):
        return 1.0, True
    if not applies(document, action):
        return invalid_reward, False
    return (NEAR if subject(action) == subject(target) else 0.0), False


def layout_of(meta: dict[str, Any], cache: dict[tuple[Any, ...], Any]) -> Any:
    """The document a corpus record was written about (its task, seed and ids), made once."""
    from assistant.env.tasks import make_task

    key = (meta["task"], meta["seed"], meta["ids"])
    if key not in cache:
        cache[key] = make_task(meta["task"], int(meta["seed"]), ids=meta["ids"]).broken
    return cache[key]


def train_request_grpo(cfg: RequestGRPOConfig, lm: LM | None = None) -> dict[str, Any]:
    """Run GRPO; returns the log history and the final checkpoint's directory."""
    from assistant.planners.modelstep import element_ids

    if cfg.group_size < 2:
        raise ValueError("GRPO needs groups of at least 2 answers")
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    try:
        records = [json.loads(line) for line in Path(cfg.train).read_text(encoding="utf-8").splitlines()
                   if line.strip()]
    except json.JSONDecodeError as exc:
        raise ValueError(f"{cfg.train}: not JSON lines ({exc})") from None
    records = [r for r in records if isinstance(r, dict) and (r.get("meta") or {}).get("target")]
    if not records:
        raise ValueError(f"{cfg.train}: no request records with a target (write them with models.request_corpus)")
    lm = lm or load_lm(cfg.init, device=pick_device())
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=2))
    grammar = None
    if cfg.grammar:
        from models.grammar_mask import GrammarMask, vocab_gguf_for

        grammar = GrammarMask(cfg.grammar_vocab or vocab_gguf_for(lm, out / "vocab"))
    gen = torch.Generator(device=lm.device).manual_seed(cfg.seed)
    ref = copy.deepcopy(lm.model).eval()
    for p in ref.parameters():
        p.requires_grad_(False)
    params = [p for p in lm.model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.0)
    docs: dict[tuple[Any, ...], Any] = {}
    history: list[dict[str, Any]] = []
    t0 = time.time()
    with (out / "log.jsonl").open("w", encoding="utf-8") as log:
        log.write(json.dumps({"event": "start", "device": describe_device(lm.device),
                              "trainable": sum(p.numel() for p in params), "records": len(records)}) + "\n")
        for step in range(cfg.steps):
            record = rng.choice(records)
            meta = record["meta"]
            doc = layout_of(meta, docs)
            prompt, _ = render_record(record)
            with (grammar.start(element_ids(doc.layout), cfg.group_size) if grammar else nullcontext()) as states:
                comps = sample_group(lm, prompt, cfg.group_size, temperature=cfg.temperature,
                                     max_new_tokens=cfg.max_new_tokens, generator=gen, grammar=states)
            scored = [reward(doc, meta, lm.decode(c), cfg.invalid_reward) for c in comps]
            rewards = torch.tensor([r for r, _ in scored])
            adv = group_advantages(rewards)
            loss_val = kl_val = 0.0
            comps = [c or [lm.eos_id] for c in comps]
            if bool(adv.abs().sum() > 0):
                p_ids = lm.encode(prompt, bos=True)
                with torch.no_grad():
                    old = token_logprobs(lm.model, p_ids, comps, lm.pad_id)[0]
                    refp = token_logprobs(ref, p_ids, comps, lm.pad_id)[0]
                lm.model.train()
                opt.zero_grad(set_to_none=True)
                new, mask = token_logprobs(lm.model, p_ids, comps, lm.pad_id)
                loss, kl = grpo_loss(new, old, refp, adv, mask, clip_eps=cfg.clip_eps, kl_coef=cfg.kl_coef)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
                opt.step()
                loss_val, kl_val = float(loss.detach()), float(kl)
            rec = {"step": step + 1, "kind": meta.get("kind"), "reward": float(rewards.mean()),
                   "met": sum(m for _, m in scored) / len(scored), "signal": bool(adv.abs().sum() > 0),
                   "loss": loss_val, "kl": kl_val, "s": round(time.time() - t0, 1)}
            history.append(rec)
            log.write(json.dumps(rec) + "\n")
            log.flush()
            if cfg.max_minutes > 0 and time.time() - t0 > 60 * cfg.max_minutes:
                log.write(json.dumps({"event": "time_budget", "step": step + 1}) + "\n")
                break
    final = lm.save(out / "final")
    return {"final_dir": str(final), "history": history}


def main(argv: list[str] | None = None) -> None:
    """Command line: a flag per ``RequestGRPOConfig`` field."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, value in asdict(RequestGRPOConfig()).items():
        kind = (lambda s: s.lower() in ("1", "true", "yes")) if isinstance(value, bool) else type(value)
        ap.add_argument(f"--{name.replace('_', '-')}", type=kind, default=value)
    args = ap.parse_args(argv)
    try:
        summary = train_request_grpo(RequestGRPOConfig(**vars(args)))
    except (ValueError, OSError, ModelFileError) as exc:
        raise SystemExit(f"models.request_grpo: {exc}") from exc
    hist = summary["history"]
    print(json.dumps({"final_dir": summary["final_dir"], "steps": len(hist),
                      "met": sum(h["met"] for h in hist) / max(len(hist), 1)}))


if __name__ == "__main__":
    main()
