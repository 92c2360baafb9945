"""The whole training pipeline: data → tokenizer → SFT → GRPO → GGUF export → evaluation.

Commands::

    python -m models.pipeline --config tiny      # the bundled applicator (make train-tiny), 70 min-2 h on 2 cores
    python -m models.pipeline --config mini      # every stage on a miniature configuration, a few minutes
    python -m models.pipeline --config gemma     # Gemma 3 270M + LoRA, for a GPU (pip install -e '.[gemma]')
    python -m models.pipeline --config gemma-mini  # the Gemma path in miniature (CPU, ~10 min)
    python -m models.pipeline --reevaluate runs/tiny7 --verify-samples 24   # export + evaluation again

Outputs go to ``runs/<config>/`` (``data/``, ``init/`` the untrained base,
``sft/``, ``grpo/``, ``gguf/{base,sft,grpo}.gguf`` (F16) and ``grpo-q8_0.gguf``,
``EVAL.md``). The GRPO model exported is ``grpo/best``, the checkpoint GRPO's
validation episodes chose (the SFT model when no step beat it), or
``grpo/final`` when the configuration does not validate. A pretrained base (``base`` other than
``tiny``: ``gemma-3-270m`` or a local Hugging Face directory) skips the tokenizer and initialisation,
trains LoRA adapters (SFT, then GRPO continuing the same adapter; checkpoints
are adapter directories) and exports each stage as a GGUF adapter
``gguf/{sft,grpo}.lora.gguf`` over ``gguf/base.gguf`` (a link to the base's
GGUF: the packaged Gemma file, or ``base_gguf``), which llama.cpp applies at
load time. With ``install`` (the ``tiny`` and ``gemma`` default; ``--no-install`` turns it
off) the run's GRPO model becomes the shipped one, package data of the core
(:func:`shipped_model`): ``assistant/data/layout-applicator-tiny.gguf`` (F16), for ``gemma``
the adapter ``assistant/data/layout-applicator-gemma.lora.gguf`` (what ``--model gemma`` runs);
its report (``EVAL.md``) and plots are copied and its ``MODEL_CARD.md`` written to
:func:`install_dir`, ``docs/models/tiny/`` or ``docs/models/gemma/``. Every episode the
evaluation played stays in the run (``eval_episodes.jsonl``). ``--reevaluate RUN`` redoes a finished run's
export and evaluation (and installation, when the run installed) with the settings it recorded in
``RUN/pipeline.json`` (``models.configs.load_config``), changed by ``--eval-episodes``,
``--eval-more-episodes`` and ``--verify-samples``: how a changed evaluation reaches ``docs/models/tiny/EVAL.md``
without training again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from assistant.planners.local import BUNDLED_NAME, DATA_DIR, GEMMA_ADAPTER_NAME
from models.configs import CONFIGS, PipelineConfig, config, load_config
from models.grpo import GRPOConfig
from models.requests import MOVE_AMOUNTS
from models.sft import SFTConfig
from models.tiny import PRE_TOKENIZERS

#: The shipped models' documentation: one folder per configuration that installs (:func:`install_dir`).
DOCS_DIR = Path(__file__).resolve().parents[1] / "docs" / "models"


def install_dir(cfg: PipelineConfig) -> Path:
    """Where an installing run puts its model card, report and plots.

    That is ``docs/models/tiny/``, or ``docs/models/gemma/`` for a pretrained base's adapter.
    """
    return DOCS_DIR / ("gemma" if cfg.pretrained else "tiny")


def shipped_model(cfg: PipelineConfig) -> Path:
    """The file an installing run replaces: the bundled model, or for a pretrained base the bundled adapter.

    Both are package data of the core (``assistant.planners.local``), what the ``local`` planner loads.
    """
    return DATA_DIR / (GEMMA_ADAPTER_NAME if cfg.pretrained else BUNDLED_NAME)


def _stage(name: str, t0: float) -> None:
    print(f"== {name} (t={time.time() - t0:.0f}s)", flush=True)


def run_pipeline(cfg: PipelineConfig, *, skip_data: bool = False, resume: bool = False,
                 out_report: Path | None = None) -> dict[str, Any]:
    """Run every stage of ``cfg``; returns paths and summaries.

    ``skip_data`` reuses an existing ``data/``; ``resume`` reuses finished
    ``init/``, ``sft/`` and ``grpo/`` and redoes export and evaluation.
    """
    import torch

    from models import data as data_mod
    from models.eval.run import evaluate_run
    from models.export_gguf import export_gguf
    from models.grpo import train_grpo
    from models.lm import from_tiny, load_lm
    from models.sft import train_sft
    from models.tiny import TextCodec, make_model, save_checkpoint, train_tokenizer

    if not cfg.pretrained and cfg.tokenizer_pre not in PRE_TOKENIZERS:
        raise ValueError(f"tokenizer_pre {cfg.tokenizer_pre!r} is none of {', '.join(PRE_TOKENIZERS)}")
    torch.set_num_threads(cfg.threads)
    t0 = time.time()
    run = Path(cfg.run)
    run.mkdir(parents=True, exist_ok=True)
    (run / "pipeline.json").write_text(json.dumps(asdict(cfg), indent=2, default=str))
    data_dir = Path(cfg.data.out)
    if not (skip_data and (data_dir / "train.jsonl").is_file()):
        _stage("data", t0)
        data_mod.generate(cfg.data)

    if resume and any((run / "grpo" / "final").glob("*.safetensors")):
        _stage("resume: reusing init/, sft/ and grpo/", t0)
        end = [json.loads(x) for x in (run / "sft" / "log.jsonl").read_text().splitlines() if '"end"' in x]
        sft = {"best": end[-1]["best"] if end else {}, "best_dir": str(run / "sft" / "best")}
        chosen = run / "grpo" / "best"
        grpo = {"final_dir": str(run / "grpo" / "final"),
                "best_dir": str(chosen if chosen.is_dir() else run / "grpo" / "final")}
    else:
        files = {"train": str(data_dir / "train.jsonl"), "val": str(data_dir / "val.jsonl"), "out": str(run / "sft")}
        if cfg.pretrained:
            _stage(f"base: {cfg.base} with LoRA r={cfg.lora.r if cfg.lora else 0}", t0)
            sft_cfg = SFTConfig(**{**asdict(cfg.sft), **files, "lora": cfg.lora, "base": cfg.base})
            lm = load_lm(cfg.base, lora=cfg.lora)
            if cfg.base_gguf:  # a local model directory: it must read text as llama.cpp reads it with its GGUF
                from models.export_lora import base_gguf_path
                from models.lm import check_gguf_tokenizer
                check_gguf_tokenizer(lm.encode, base_gguf_path(cfg.base_gguf),
                                     library=f"the tokenizer of {cfg.base}")
        else:
            _stage("tokenizer + base", t0)
            codec = TextCodec(train_tokenizer(data_mod.iter_texts([data_dir / "train.jsonl"]), cfg.vocab_size,
                                              pre=cfg.tokenizer_pre))
            base = make_model(cfg.model, codec, seed=0)
            save_checkpoint(base, codec, run / "init")
            sft_cfg = SFTConfig(**{**asdict(cfg.sft), **files, "lora": None, "base": str(run / "init")})
            lm = from_tiny(base, codec)
        _stage("sft", t0)
        sft = train_sft(sft_cfg, lm=lm)

        _stage("grpo", t0)
        grpo_cfg = GRPOConfig(**{**asdict(cfg.grpo), "init": sft["best_dir"], "out": str(run / "grpo"),
                                 "tasks": tuple(cfg.data.tasks)})
        grpo = train_grpo(grpo_cfg)

    _stage("export", t0)
    gg = run / "gguf"
    if cfg.pretrained:
        export_adapters(cfg, sft["best_dir"], grpo["best_dir"], gg)
    else:
        # F16 is what ships and what the evaluation runs: llama.cpp's AMX repacking of
        # Q8_0 weights crashes on some CPUs (see models.policies.load_llama); Q8_0 is written too.
        export_gguf(run / "init", gg / "base.gguf", out_type="f16", name="layout-base-untrained")
        export_gguf(sft["best_dir"], gg / "sft.gguf", out_type="f16", name="layout-applicator-sft")
        export_gguf(grpo["best_dir"], gg / "grpo.gguf", out_type="f16", name="layout-applicator")
        export_gguf(grpo["best_dir"], gg / "grpo-q8_0.gguf", out_type="q8_0", name="layout-applicator")

    _stage("eval", t0)
    report = out_report or run / "EVAL.md"
    ev = evaluate_run(run, report, episodes=cfg.eval_episodes, max_steps=cfg.eval_max_steps,
                      verify_samples=cfg.verify_samples, applicator_per_layout=cfg.requests_per_layout,
                      tasks=list(cfg.data.tasks) or None, title=cfg.name, renamed=cfg.eval_renamed,
                      more_episodes=cfg.eval_more_episodes)
    summary = {"run": str(run), "sft_best": sft["best"], "grpo_final": grpo["final_dir"],
               "grpo_exported": grpo["best_dir"], "report": str(report),
               "seconds": round(time.time() - t0, 1)}
    if cfg.install:
        summary["installed"] = install(cfg, summary, ev)
    (run / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    _stage(f"done: {json.dumps(summary, default=str)}", t0)
    return {**summary, "eval": ev}


def install(cfg: PipelineConfig, summary: dict[str, Any], ev: dict[str, Any]) -> list[str]:
    """Ship the run's GRPO model as :func:`shipped_model` and its documents in :func:`install_dir`.

    The model is the F16 GGUF, or a pretrained base's GRPO adapter; the documents are its report, plots and
    model card. Returns the files written.
    """
    from models.eval.run import LORA_SUFFIX
    from models.model_card import write_model_card

    gg = Path(summary["run"]) / "gguf"
    model = shipped_model(cfg)
    shutil.copyfile(gg / (f"grpo{LORA_SUFFIX}" if cfg.pretrained else "grpo.gguf"), model)
    docs = install_dir(cfg)
    docs.mkdir(parents=True, exist_ok=True)
    written = [model]
    for path in [Path(summary["report"]), *map(Path, ev["plots"])]:
        if path.resolve() != (docs / path.name).resolve():
            shutil.copyfile(path, docs / path.name)
        written.append(docs / path.name)
    written.append(write_model_card(cfg, summary, ev, docs / "MODEL_CARD.md"))
    return [str(p) for p in written]


def export_adapters(cfg: PipelineConfig, sft_dir: str | Path, grpo_dir: str | Path, gg: Path) -> None:
    """GGUF adapters of the SFT and GRPO checkpoints over the base's GGUF, linked as ``gg/base.gguf``."""
    from models.eval.run import LORA_SUFFIX
    from models.export_lora import base_gguf_path, export_lora

    if cfg.base != "gemma-3-270m" and not cfg.base_gguf:
        raise ValueError(f"base {cfg.base!r} needs base_gguf: a GGUF of that model for llama.cpp to run")
    base_file = base_gguf_path(cfg.base_gguf or cfg.base).resolve()
    gg.mkdir(parents=True, exist_ok=True)
    link = gg / "base.gguf"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(base_file)
    export_lora(sft_dir, gg / f"sft{LORA_SUFFIX}", base=base_file, name="layout-applicator-sft-lora")
    export_lora(grpo_dir, gg / f"grpo{LORA_SUFFIX}", base=base_file, name="layout-applicator-lora")


def main(argv: list[str] | None = None) -> None:
    """Command line: run a named configuration with the options' changes, or ``--reevaluate`` a finished run."""
    ap = argparse.ArgumentParser(description="Run the training pipeline end to end.")
    ap.add_argument("--config", choices=CONFIGS, default="tiny")
    ap.add_argument("--run", default=None, help="output directory (default runs/<config>)")
    ap.add_argument("--skip-data", action="store_true", help="reuse the run's data/ if present")
    ap.add_argument("--resume", action="store_true", help="reuse finished SFT/GRPO outputs; redo export + eval")
    ap.add_argument("--no-install", action="store_true",
                    help="do not ship the model (assistant/data/) nor its card and report (docs/models/)")
    ap.add_argument("--base", default=None,
                    help="pretrained base for the gemma configs: a local Hugging Face model directory")
    ap.add_argument("--base-gguf", default=None, help="GGUF of --base, for llama.cpp to run the adapters over")
    ap.add_argument("--reevaluate", metavar="RUN", default=None,
                    help="redo a finished run's export, evaluation (and installation) with its recorded settings")
    ap.add_argument("--eval-episodes", type=int, default=None, help="held-out seeds per task in the evaluation")
    ap.add_argument("--verify-samples", type=int, default=None, help="K of the verified (best-of-K) policy row")
    ap.add_argument("--eval-more-episodes", type=int, default=None,
                    help="further held-out seeds per task on which the greedy stages are compared (models.eval)")
    ap.add_argument("--tokenizer-pre", choices=PRE_TOKENIZERS, default=None,
                    help="the tiny tokenizer's split: gpt-2 or starcoder (numbers as single digits first; "
                         "tiny and mini use starcoder)")
    ap.add_argument("--move-amounts", choices=MOVE_AMOUNTS, default=None,
                    help="how far the data's synthetic moves go (models.data --move-amounts; "
                         "every configuration: mixed)")
    ap.add_argument("--sft-steps", type=int, default=None,
                    help="SFT optimiser steps (default: the configuration's; tiny 6000)")
    ap.add_argument("--grpo-steps", type=int, default=None,
                    help="GRPO steps (default: the configuration's; tiny 60); checkpoints and validation "
                         "keep the configuration's spacing")
    ap.add_argument("--grpo-suggested-fixes", type=int, default=None, metavar="N",
                    help="GRPO groups also hold up to N of the fixes each prompt suggests (models.grpo "
                         "--suggested-fixes; default: the configuration's, tiny 0)")
    args = ap.parse_args(argv)
    for flag, value in (("--sft-steps", args.sft_steps), ("--grpo-steps", args.grpo_steps)):
        if value is not None and value < 1:
            ap.error(f"{flag} must be at least 1, got {value}")
    if args.grpo_suggested_fixes is not None and args.grpo_suggested_fixes < 0:
        ap.error(f"--grpo-suggested-fixes must be 0 or more, got {args.grpo_suggested_fixes}")
    if args.reevaluate:
        run = Path(args.reevaluate)
        if not any((run / "grpo" / "final").glob("*.safetensors")):
            ap.error(f"--reevaluate: {run} holds no finished GRPO (grpo/final)")
        try:
            cfg = load_config(run / "pipeline.json")
        except ValueError as exc:
            ap.error(f"--reevaluate: {exc}")
        cfg.run = str(run)
        cfg.eval_episodes = args.eval_episodes or cfg.eval_episodes
        cfg.verify_samples = args.verify_samples or cfg.verify_samples
        if args.eval_more_episodes is not None:
            cfg.eval_more_episodes = args.eval_more_episodes
        cfg.install = cfg.install and not args.no_install
        run_pipeline(cfg, skip_data=True, resume=True)
        return
    cfg = config(args.config)
    if args.eval_episodes or args.verify_samples:
        cfg.eval_episodes = args.eval_episodes or cfg.eval_episodes
        cfg.verify_samples = args.verify_samples or cfg.verify_samples
    if args.eval_more_episodes is not None:
        cfg.eval_more_episodes = args.eval_more_episodes
    if args.run:
        cfg.run = args.run
        cfg.data.out = f"{args.run}/data"
    if args.no_install:
        cfg.install = False
    if args.tokenizer_pre:
        if cfg.pretrained:
            ap.error("--tokenizer-pre goes with the tiny base, which trains its own tokenizer")
        cfg.tokenizer_pre = args.tokenizer_pre
    if args.move_amounts:
        cfg.data.move_amounts = args.move_amounts
    if args.sft_steps:
        cfg.sft.steps = args.sft_steps
    if args.grpo_steps:
        cfg.grpo.steps = args.grpo_steps
    if args.grpo_suggested_fixes is not None:
        cfg.grpo.suggested_fixes = args.grpo_suggested_fixes
    if args.base or args.base_gguf:
        if not cfg.pretrained:
            ap.error("--base and --base-gguf go with a pretrained-base config (gemma, gemma-mini)")
        if args.base and not args.base_gguf:
            ap.error("--base needs --base-gguf: llama.cpp runs the trained adapters over a GGUF of that model")
        cfg.base, cfg.base_gguf = args.base or cfg.base, args.base_gguf
        cfg.install = False  # the bundled adapter is Gemma 3 270M's
    run_pipeline(cfg, skip_data=args.skip_data or args.resume, resume=args.resume)


if __name__ == "__main__":
    main()
