"""Supervised fine-tuning on chat-format JSONL (planner and applicator examples).

Command (the pipeline runs it for you; this is the stand-alone form)::

    python -m models.sft --train data/train.jsonl --val data/val.jsonl \
        --base runs/tiny/init --out runs/tiny/sft --steps 3000 --batch-size 16

Each record is rendered with ``assistant.planners.prompting.render_record`` into the
exact prompt the runtime builds plus the target completion; the loss is the
next-token cross-entropy on the completion tokens only (prompt and padding are
masked with -100). ``tiny`` checkpoints are trained in full; pretrained bases
(``gemma-3-270m`` or a local Hugging Face directory) get LoRA adapters (peft),
merged back when saving. Training loss and completion-token accuracy are logged
every ``log_every`` steps, validation loss/accuracy every ``eval_every`` steps,
and the checkpoint with the lowest validation loss is kept in ``OUT/best``.

Examples whose prompts begin alike — the requests asked about one layout, which
share the system prompt and the layout's element list and differ only in the
request — are trained as one group (``--shared-prefix``, the share of the shorter
prompt they must have in common; 0 turns it off): the shared tokens are run once
and their keys and values serve every example of the group, the same loss and
gradients as running each whole (``prefix_groups``, ``grouped_loss_sum``). On the
``tiny`` configuration's data that is 1.9 times fewer tokens an epoch and 2.3
times as many examples a second on two CPU cores. A step takes whole groups until
it holds ``batch_size`` examples.

``--adapter A.gguf`` trains on from a GGUF LoRA adapter over ``--base`` (the
shipped Gemma adapter, say) instead of a fresh one: ``models.import_lora``
reads it into a trainable peft adapter of its own rank and modules (written to
``OUT/init``), with ``--adapter-dropout`` during training::

    python -m models.sft --base gemma-3-270m --adapter assistant/data/layout-applicator-gemma.lora.gguf \
        --train runs/data33/mix/train.jsonl --val runs/data33/mix/val.jsonl --out runs/gemma34/sft \
        --batch-size 8 --lr 1e-4 --warmup 20 --eval-every 50 --max-minutes 7.26
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from assistant.errors import ModelFileError
from assistant.planners.prompting import render_record
from models.lm import LM, LoraSettings, describe_device, load_lm, pick_device


@dataclass
class SFTConfig:
    """Settings of one SFT run (data / model / optimisation / logging)."""

    # data
    train: str = "runs/tiny/data/train.jsonl"
    val: str = "runs/tiny/data/val.jsonl"
    max_len: int = 2048            # tokens (the tiny model's context); longer examples are dropped (counted in the log)
    # model
    base: str = "runs/tiny/init"   # tiny checkpoint dir | gemma-3-270m | HF model dir
    lora: LoraSettings | None = None
    adapter: str = ""              # GGUF LoRA adapter over ``base`` to train on from (its rank and modules kept)
    adapter_dropout: float = 0.05  # LoRA dropout of that adapter while it trains
    # optimisation
    steps: int = 3000
    batch_size: int = 16
    lr: float = 1e-3
    min_lr_ratio: float = 0.1      # cosine decay ends at lr * min_lr_ratio
    warmup: int = 100
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    seed: int = 0
    # examples whose prompts share at least this share of the shorter prompt (the layout of an applicator
    # request asked several ways) are trained as one group, the shared tokens run once (0: every example whole)
    shared_prefix: float = 0.5
    max_group: int = 8             # examples in one such group at most
    # logging
    out: str = "runs/tiny/sft"
    log_every: int = 25
    eval_every: int = 250
    max_val_examples: int = 256
    threads: int = 0               # torch CPU threads (0: torch default)
    max_minutes: float = 0.0       # wall-clock budget; stop (and validate) when exceeded (0: none)
    extra: dict[str, Any] = field(default_factory=dict)


def load_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """The records of a JSON-lines file, one per non-blank line."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def encode_records(lm: LM, records: Iterable[dict[str, Any]], max_len: int) -> tuple[list[tuple[list[int], int]], int]:
    """Token ids of prompt+completion+eos and the prompt length; drops examples over ``max_len``."""
    out: list[tuple[list[int], int]] = []
    dropped = 0
    for rec in records:
        prompt, completion = render_record(rec)
        p_ids = lm.encode(prompt, bos=True)
        c_ids = lm.encode(completion) + [lm.eos_id]
        if len(p_ids) + len(c_ids) > max_len:
            dropped += 1
            continue
        out.append((p_ids + c_ids, len(p_ids)))
    return out, dropped


def collate(batch: list[tuple[list[int], int]], pad_id: int, device: torch.device) -> dict[str, torch.Tensor]:
    """Right-padded input ids, attention mask, and labels masked to the completion."""
    width = max(len(ids) for ids, _ in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for i, (seq, n_prompt) in enumerate(batch):
        ids[i, :len(seq)] = torch.tensor(seq)
        mask[i, :len(seq)] = 1
        labels[i, n_prompt:len(seq)] = torch.tensor(seq[n_prompt:])
    return {"input_ids": ids.to(device), "attention_mask": mask.to(device), "labels": labels.to(device)}


def completion_loss(model: Any, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, int, int]:
    """Mean cross-entropy over completion tokens, plus (correct, total) next-token counts."""
    summed, correct, total = completion_loss_sum(model, batch)
    return summed / max(total, 1), correct, total


def completion_loss_sum(model: Any, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, int, int]:
    """Summed cross-entropy over completion tokens, plus (correct, total) next-token counts."""
    # No padding mask: the padding is on the right, where the causal mask already keeps it from every real
    # token. With one, a padded row's positions past the last real token by more than a sliding window
    # (Gemma 3's 512) see no key at all; attention gives NaN there, and the backward spreads it.
    logits = model(input_ids=batch["input_ids"]).logits
    shift_labels = batch["labels"][:, 1:]
    valid = shift_labels != -100
    # only the completion's positions, before the upcast: a pretrained base's vocabulary (262 144 for
    # Gemma 3) makes float32 logits of every prompt position the largest tensor of the step
    picked = logits[:, :-1][valid].float()
    targets = shift_labels[valid]
    loss = torch.nn.functional.cross_entropy(picked, targets, reduction="sum")
    correct = int((picked.argmax(-1) == targets).sum())
    return loss, correct, int(valid.sum())


Example = tuple[list[int], int]   # token ids of prompt + completion + eos, and the prompt's length


def common_prefix(a: list[int], b: list[int]) -> int:
    """How many leading tokens ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def prefix_groups(examples: list[Example], *, share: float, max_group: int) -> list[tuple[list[int], int]]:
    """The examples (by index) in groups that share their first tokens: ``(indices, shared)`` for each group.

    Examples are sorted by their tokens, which puts the requests asked about one layout side by side; a run
    of neighbours joins one group while the tokens all of them share are at least ``share`` of the shortest
    prompt among them (and ``max_group`` at most). ``shared`` always stops before a group's last prompt token,
    so every position whose prediction is trained lies after it. Every example is in exactly one group; one
    that shares too little with its neighbours is a group of its own (``shared`` 0). ``share`` 0 puts every
    example alone.
    """
    if share <= 0 or max_group < 2:
        return [([i], 0) for i in range(len(examples))]
    order = sorted(range(len(examples)), key=lambda i: examples[i][0])
    groups: list[tuple[list[int], int]] = []
    members: list[int] = []
    shared = 0
    shortest = 0

    def close() -> None:
        if members:
            groups.append((list(members), shared if len(members) > 1 else 0))

    for i in order:
        ids, n_prompt = examples[i]
        if members and len(members) < max_group:
            joint = min(shared, common_prefix(examples[members[0]][0], ids), n_prompt - 1)
            low = min(shortest, n_prompt)
            if joint >= share * low and joint > 0:
                members.append(i)
                shared, shortest = joint, low
                continue
        close()
        members, shared, shortest = [i], n_prompt - 1, n_prompt
    close()
    return groups


def grouped_loss_sum(model: Any, examples: list[Example], groups: list[tuple[list[int], int]], pad_id: int,
                     device: torch.device) -> tuple[torch.Tensor, int, int]:
    """:func:`completion_loss_sum` over the examples of ``groups``, each group's shared tokens run once.

    The groups are those of :func:`prefix_groups`.

    The shared tokens are run with a cache; its keys and values are repeated for the group's examples, whose
    own tokens are run on top of them, right-padded (behind the causal mask, as :func:`completion_loss`
    explains). Gradients flow through both parts, so the loss is the same function of the weights as running
    every example whole (equal up to float rounding), at the cost of the shared tokens once. Examples alone,
    and every example when the model keeps no cache, are run whole in one batch.
    """
    whole = [examples[i] for idx, shared in groups if shared == 0 for i in idx]
    total_loss = torch.zeros((), device=device)
    correct = total = 0
    for idx, shared in groups:
        if shared == 0:
            continue
        members = [examples[i] for i in idx]
        head = model(input_ids=torch.tensor([members[0][0][:shared]], device=device), use_cache=True)
        cache = head.past_key_values
        if cache is None:  # gradient checkpointing keeps no cache: run these whole
            whole += members
            continue
        cache.batch_repeat_interleave(len(members))
        batch = collate([(ids[shared:], n_prompt - shared) for ids, n_prompt in members], pad_id, device)
        logits = model(input_ids=batch["input_ids"], past_key_values=cache, use_cache=True).logits
        labels = batch["labels"][:, 1:]
        valid = labels != -100
        picked = logits[:, :-1][valid].float()
        targets = labels[valid]
        total_loss = total_loss + torch.nn.functional.cross_entropy(picked, targets, reduction="sum")
        correct += int((picked.argmax(-1) == targets).sum())
        total += int(valid.sum())
    if whole:
        loss, c, n = completion_loss_sum(model, collate(sorted(whole, key=lambda e: len(e[0])), pad_id, device))
        total_loss, correct, total = total_loss + loss, correct + c, total + n
    return total_loss, correct, total


@torch.no_grad()
def evaluate_loss(lm: LM, examples: list[tuple[list[int], int]], batch_size: int) -> dict[str, float]:
    """Validation loss (token-weighted) and completion-token accuracy."""
    lm.model.eval()
    total_loss, correct, total = 0.0, 0, 0
    for i in range(0, len(examples), batch_size):
        batch = collate(examples[i:i + batch_size], lm.pad_id, lm.device)
        loss, c, n = completion_loss(lm.model, batch)
        total_loss += float(loss) * n
        correct += c
        total += n
    lm.model.train()
    return {"val_loss": total_loss / max(total, 1), "val_acc": correct / max(total, 1)}


def spread(items: list[Any], n: int) -> list[Any]:
    """At most ``n`` of ``items``, evenly spaced (validation covers every part of the file, not its head)."""
    if n <= 0 or len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


def lr_at(step: int, cfg: SFTConfig, elapsed: float = 0.0) -> float:
    """Linear warm-up then cosine decay to ``lr * min_lr_ratio``.

    The decay runs over ``cfg.steps`` or, when a wall-clock budget
    (``max_minutes``) is set and ``elapsed`` seconds say it is the tighter
    limit, over that budget, so a run stopped by time still ends at the low rate.
    """
    if step < cfg.warmup:
        return cfg.lr * (step + 1) / cfg.warmup
    progress = min(1.0, (step - cfg.warmup) / max(1, cfg.steps - cfg.warmup))
    if cfg.max_minutes > 0:
        progress = max(progress, min(1.0, elapsed / (60 * cfg.max_minutes)))
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress)))


def start_model(cfg: SFTConfig, out: Path) -> LM:
    """The model SFT starts from, on the device :func:`pick_device` picks.

    That is ``cfg.base`` with a fresh LoRA adapter (``cfg.lora``), with the GGUF adapter ``cfg.adapter`` read
    back as a trainable one (saved to ``out/init``), or in full for a ``tiny`` checkpoint.
    """
    if not cfg.adapter:
        return load_lm(cfg.base, lora=cfg.lora, device=pick_device())
    if cfg.lora is not None:
        raise ValueError("an adapter to train on keeps its own rank and modules: give it without LoRA settings")
    from models.import_lora import import_lora

    return import_lora(cfg.adapter, out / "init", base=cfg.base, dropout=cfg.adapter_dropout, device=pick_device())


def train_sft(cfg: SFTConfig, lm: LM | None = None) -> dict[str, Any]:
    """Run SFT; returns a summary (best validation loss, its step, paths, log)."""
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    out = Path(cfg.out)
    lm = lm or start_model(cfg, out)
    out.mkdir(parents=True, exist_ok=True)
    train, dropped_train = encode_records(lm, load_jsonl(cfg.train), cfg.max_len)
    val, dropped_val = encode_records(lm, load_jsonl(cfg.val), cfg.max_len)
    val = spread(val, cfg.max_val_examples)
    if not train or not val:
        raise ValueError(f"SFT needs training and validation examples (got {len(train)} and {len(val)})")
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=2, default=str))
    log_path = out / "log.jsonl"
    log = log_path.open("w", encoding="utf-8")
    groups = prefix_groups(train, share=cfg.shared_prefix, max_group=cfg.max_group)
    whole_tokens = sum(len(ids) for ids, _ in train)
    run_tokens = whole_tokens - sum(shared * (len(idx) - 1) for idx, shared in groups)
    head = {"event": "start", "train_examples": len(train), "val_examples": len(val),
            "dropped_too_long": dropped_train + dropped_val,
            "shared_prefix_groups": sum(len(idx) > 1 for idx, _ in groups),
            "tokens_per_epoch": run_tokens, "tokens_per_epoch_unshared": whole_tokens,
            "parameters": sum(p.numel() for p in lm.model.parameters()),
            "trainable": sum(p.numel() for p in lm.model.parameters() if p.requires_grad),
            "device": describe_device(lm.device)}
    log.write(json.dumps(head) + "\n")
    print(json.dumps(head))
    params = [p for p in lm.model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay, betas=(0.9, 0.95))
    lm.model.train()
    order: list[int] = []  # indices into groups; a step takes groups until it holds batch_size examples
    best = {"val_loss": float("inf"), "step": -1}
    run_loss, run_correct, run_total, run_steps, skipped, t0 = 0.0, 0, 0, 0, 0, time.time()
    history: list[dict[str, Any]] = []
    for step in range(cfg.steps):
        picked: list[tuple[list[int], int]] = []
        while sum(len(idx) for idx, _ in picked) < cfg.batch_size:
            if not order:
                order = list(range(len(groups)))
                rng.shuffle(order)
            picked.append(groups[order.pop()])
        for group in opt.param_groups:
            group["lr"] = lr_at(step, cfg, time.time() - t0)
        summed, correct, total = grouped_loss_sum(lm.model, train, picked, lm.pad_id, lm.device)
        loss = summed / max(total, 1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
        if torch.isfinite(norm):
            opt.step()
            run_loss += float(loss.detach())
            run_correct += correct
            run_total += total
        else:  # an overflow in this batch: skip it rather than write NaN into the weights
            skipped += 1
            run_steps -= 1
        over_time = cfg.max_minutes > 0 and time.time() - t0 > 60 * cfg.max_minutes
        last = step == cfg.steps - 1 or over_time
        run_steps += 1
        if (step + 1) % cfg.log_every == 0 or last:
            rec = {"event": "train", "step": step + 1, "loss": run_loss / run_steps if run_steps else math.nan,
                   "acc": run_correct / max(run_total, 1), "lr": lr_at(step, cfg, time.time() - t0),
                   "s": round(time.time() - t0, 1), "skipped_nonfinite": skipped}
            history.append(rec)
            log.write(json.dumps(rec) + "\n")
            log.flush()
            print(json.dumps(rec))
            run_loss, run_correct, run_total, run_steps = 0.0, 0, 0, 0
        if (step + 1) % cfg.eval_every == 0 or last:
            rec = {"event": "val", "step": step + 1, **evaluate_loss(lm, val, cfg.batch_size)}
            history.append(rec)
            log.write(json.dumps(rec) + "\n")
            log.flush()
            print(json.dumps(rec))
            if rec["val_loss"] < best["val_loss"]:
                best = {"val_loss": rec["val_loss"], "val_acc": rec["val_acc"], "step": step + 1}
                lm.save(out / "best")
        if over_time:
            log.write(json.dumps({"event": "time_budget", "step": step + 1}) + "\n")
            break
    log.write(json.dumps({"event": "end", "best": best}) + "\n")
    log.close()
    return {"best": best, "best_dir": str(out / "best"), "log": str(log_path), "history": history}


def main(argv: list[str] | None = None) -> None:
    """Command line: a flag per ``SFTConfig`` field; train (:func:`train_sft`) and print the best checkpoint."""
    ap = argparse.ArgumentParser(description="Supervised fine-tuning on chat JSONL.")
    defaults = SFTConfig()
    for name, value in asdict(defaults).items():
        if name in ("lora", "extra"):
            continue
        ap.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    ap.add_argument("--lora-r", type=int, default=0, help="LoRA rank for pretrained bases (0: full training)")
    args = ap.parse_args(argv)
    if args.adapter and args.lora_r:
        ap.error("--adapter trains that adapter on at its own rank: leave out --lora-r")
    kwargs = {k: getattr(args, k) for k in asdict(defaults) if k not in ("lora", "extra")}
    cfg = SFTConfig(**kwargs, lora=LoraSettings(r=args.lora_r, alpha=2 * args.lora_r) if args.lora_r else None)
    try:
        summary = train_sft(cfg)
    except (ValueError, OSError, ModelFileError) as exc:
        raise SystemExit(f"models.sft: {exc}") from exc
    print(json.dumps({"best": summary["best"], "best_dir": summary["best_dir"]}))


if __name__ == "__main__":
    main()
