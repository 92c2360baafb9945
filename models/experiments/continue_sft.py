"""Continue a finished run's SFT from its best checkpoint, then GRPO, export, evaluate, install.

Command (how the bundled model was finished, after ``make train-tiny`` stopped
SFT at its 28-minute budget)::

    python -m models.experiments.continue_sft --from runs/tiny --run runs/tiny2 --minutes 45 --threads 2

The new run reuses the old run's data and untrained base (``data/``, ``init/``,
copied), trains SFT further from ``<from>/sft/best`` for a wall-clock budget
(the best checkpoint by validation loss is kept), then runs GRPO (:func:`continuation_grpo`:
the settings every continuation in the model card's notes started from), the
``tiny`` configuration's GGUF export and evaluation stages
(``models.pipeline.run_pipeline`` with ``resume``; 2 seeds per task, 3 verified
answers) and installs the result as the pipeline does (``models.pipeline.install``).
``--grpo-*``, ``--eval-episodes`` and
``--verify-samples`` change those stages' settings; ``--skip-sft`` reuses the
SFT a stopped run finished and redoes the rest (with a new ``--run``, the
source run's finished SFT is copied there: GRPO again with other settings)::

    python -m models.experiments.continue_sft --from runs/tiny7 --run runs/tiny8 --skip-sft \
        --grpo-steps 40 --grpo-states 8
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from models.model_card import grpo_text


def continuation_grpo() -> Any:
    """The GRPO settings a continuation starts from before its ``--grpo-*`` flags.

    They are those of the ``tiny`` configuration when the bundled model's parts were trained (12 steps of
    2 states × 4 actions), kept here so that the commands quoted in the model card run as they ran.
    """
    from models.grpo import GRPOConfig

    return GRPOConfig(steps=12, states_per_step=2, group_size=4, max_depth=2, lr=2e-5, save_every=6,
                      env_max_steps=6, val_every=6, val_episodes=2, val_max_steps=6)


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m models.experiments.continue_sft``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # data / model
    ap.add_argument("--from", dest="source", default="runs/tiny", help="finished run to continue")
    ap.add_argument("--run", default="runs/tiny2", help="output run directory")
    ap.add_argument("--data", default=None,
                    help="data directory to train on (models.data output; default: the finished run's data/)")
    # optimisation
    ap.add_argument("--minutes", type=float, default=45.0, help="SFT wall-clock budget")
    ap.add_argument("--lr", type=float, default=1e-3, help="peak learning rate (cosine decay over the budget)")
    ap.add_argument("--steps", type=int, default=6000, help="step limit (the time budget usually ends it first)")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    # GRPO and evaluation (default: the ``tiny`` configuration's)
    ap.add_argument("--grpo-steps", type=int, default=None, help="GRPO steps")
    ap.add_argument("--grpo-minutes", type=float, default=None,
                    help="GRPO wall-clock budget (it ends at --grpo-steps or here, whichever comes first)")
    ap.add_argument("--grpo-lr", type=float, default=None, help="GRPO learning rate")
    ap.add_argument("--grpo-depth", type=int, default=None, help="on-policy steps before a sampled GRPO state")
    ap.add_argument("--grpo-group", type=int, default=None, help="actions sampled per GRPO state")
    ap.add_argument("--grpo-states", type=int, default=None, help="states per GRPO step")
    ap.add_argument("--grpo-max-steps", type=int, default=None,
                    help="episode length of the environment GRPO samples states in (as the model is used)")
    ap.add_argument("--grpo-val-every", type=int, default=None,
                    help="validate every N GRPO steps and export the best checkpoint (0: the final one)")
    ap.add_argument("--grpo-val-episodes", type=int, default=None, help="validation seeds per task")
    ap.add_argument("--grpo-stop-share", type=float, default=None,
                    help="share of GRPO states taken where the greedy policy would end the episode early")
    ap.add_argument("--grpo-varied-ids", type=float, default=None,
                    help="share (0-1) of GRPO states whose elements are named as real files name them")
    ap.add_argument("--grpo-files", nargs="+", default=None, metavar="SVG",
                    help="real SVG files a share of GRPO's states comes from (models.files)")
    ap.add_argument("--grpo-file-share", type=float, default=None,
                    help="share (0-1) of GRPO's states drawn from --grpo-files")
    ap.add_argument("--grpo-perturb", type=int, default=None,
                    help="a GRPO file state's file after at most this many random damaging edits")
    ap.add_argument("--grpo-grammar", type=int, choices=(0, 1), default=None,
                    help="1: sample GRPO's groups under the runtime's action grammar (models.grammar_mask)")
    ap.add_argument("--grpo-kl", type=float, default=None, help="GRPO KL penalty coefficient")
    ap.add_argument("--grpo-temperature", type=float, default=None, help="temperature GRPO samples its groups at")
    ap.add_argument("--grpo-charge-stops", type=int, choices=(0, 1), default=None,
                    help="1: a finalize or no-op sampled in GRPO costs the best gain of its group")
    ap.add_argument("--grpo-need-gain", type=int, choices=(0, 1), default=None,
                    help="1: GRPO learns only from groups in which a sampled edit improves the layout")
    from models.grpo_rewards import REWARDS

    ap.add_argument("--grpo-reward", choices=REWARDS, default=None,
                    help="return: a sampled action's reward adds the greedy rest of its episode; composite: the "
                         "final composite gain of that episode (models.grpo)")
    ap.add_argument("--grpo-std-floor", type=float, default=None,
                    help="GRPO advantages are divided by max(group std, this) (models.grpo.group_advantages)")
    ap.add_argument("--eval-episodes", type=int, default=None, help="held-out seeds per task in the evaluation")
    ap.add_argument("--verify-samples", type=int, default=None, help="K of the verified (best-of-K) policy row")
    ap.add_argument("--skip-sft", action="store_true",
                    help="reuse a finished SFT (<run>/sft, copied from <from>/sft into a new run); "
                         "redo GRPO, export and evaluation")
    # logging
    ap.add_argument("--no-install", action="store_true",
                    help="do not ship the model (assistant/data/) nor its card and report (docs/models/)")
    return ap


def main(argv: list[str] | None = None) -> None:
    """Command line: SFT further in a new run (or reuse a finished SFT), then GRPO, export, evaluate, install."""
    args = parser().parse_args(argv)

    import torch

    from models.configs import config
    from models.grpo import GRPOConfig, train_grpo
    from models.pipeline import run_pipeline
    from models.sft import SFTConfig, train_sft

    torch.set_num_threads(args.threads)
    src, run = Path(args.source), Path(args.run)
    run.mkdir(parents=True, exist_ok=True)
    data = Path(args.data) if args.data else src / "data"
    copies = [("data", data), ("init", src / "init")]
    if args.skip_sft and run.resolve() != src.resolve():
        copies.append(("sft", src / "sft"))  # GRPO again, in a new run, on the SFT the source run finished
    for sub, origin in copies:
        if not (run / sub).exists():
            shutil.copytree(origin, run / sub)
    cfg = config("tiny")
    cfg.run, cfg.data.out, cfg.threads = str(run), str(run / "data"), args.threads
    # the continuations' settings, whatever the tiny configuration's are now
    cfg.grpo, cfg.eval_episodes, cfg.eval_more_episodes, cfg.verify_samples = continuation_grpo(), 2, 0, 3
    sft_cfg = SFTConfig(**{**asdict(cfg.sft), "lora": None, "train": str(run / "data/train.jsonl"),
                           "val": str(run / "data/val.jsonl"), "base": str(src / "sft/best"),
                           "out": str(run / "sft"), "steps": args.steps, "lr": args.lr, "warmup": 20,
                           "max_minutes": args.minutes, "threads": args.threads, "eval_every": 150})
    t0 = time.time()
    sft = finished_sft(run) if args.skip_sft else train_sft(sft_cfg)
    print(f"SFT done: {sft.get('best')} after {time.time() - t0:.0f}s", flush=True)
    cfg.grpo = GRPOConfig(**{**asdict(cfg.grpo), **grpo_overrides(args)})  # the notes and the model card read it
    write_notes(run, src, data, args, sft, cfg.grpo)
    grpo_cfg = GRPOConfig(**{**asdict(cfg.grpo), "init": sft["best_dir"], "out": str(run / "grpo"),
                             "tasks": tuple(cfg.data.tasks)})
    grpo = train_grpo(grpo_cfg)
    write_notes(run, src, data, args, sft, cfg.grpo, chosen=grpo.get("best"))
    cfg.sft, cfg.grpo = sft_cfg, grpo_cfg  # what ran, for pipeline.json and the model card
    cfg.eval_episodes = args.eval_episodes or cfg.eval_episodes
    cfg.verify_samples = args.verify_samples or cfg.verify_samples
    cfg.install = not args.no_install
    run_pipeline(cfg, skip_data=True, resume=True)


def finished_sft(run: Path) -> dict:
    """What ``train_sft`` returned for ``<run>/sft``, read back from its log (for ``--skip-sft``)."""
    log = run / "sft" / "log.jsonl"
    if not (run / "sft" / "best").is_dir() or not log.is_file():
        raise SystemExit(f"error: --skip-sft: {run / 'sft'} holds no finished SFT (best/ and log.jsonl)")
    history = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    end = [h for h in history if h.get("event") == "end"]
    if not end:
        raise SystemExit(f"error: --skip-sft: {log} has no end record (the SFT did not finish)")
    return {"best": end[-1]["best"], "best_dir": str(run / "sft" / "best"), "history": history}


GRPO_FLAGS = {"grpo_steps": "steps", "grpo_minutes": "max_minutes", "grpo_lr": "lr", "grpo_depth": "max_depth",
              "grpo_group": "group_size",
              "grpo_states": "states_per_step", "grpo_max_steps": "env_max_steps", "grpo_val_every": "val_every",
              "grpo_val_episodes": "val_episodes", "grpo_stop_share": "stop_share", "grpo_kl": "kl_coef",
              "grpo_temperature": "temperature", "grpo_charge_stops": "charge_stops", "grpo_need_gain": "need_gain",
              "grpo_reward": "reward", "grpo_std_floor": "std_floor",
              "grpo_varied_ids": "varied_ids", "grpo_files": "files", "grpo_file_share": "file_share",
              "grpo_perturb": "perturb", "grpo_grammar": "grammar"}


def grpo_overrides(args: argparse.Namespace) -> dict:
    """The ``GRPOConfig`` fields the ``--grpo-*`` flags set."""
    out = {field: getattr(args, flag) for flag, field in GRPO_FLAGS.items() if getattr(args, flag) is not None}
    if "files" in out:
        out["files"] = tuple(out["files"])
    for switch in ("charge_stops", "need_gain", "grammar"):
        if switch in out:
            out[switch] = bool(out[switch])
    if "steps" in out:
        out["save_every"] = max(6, out["steps"] // 5)
    return out


def flags_text(args: argparse.Namespace) -> str:
    """The optional GRPO / evaluation flags given, as command-line text."""
    names = (*GRPO_FLAGS, "eval_episodes", "verify_samples")
    return "".join(f" --{n.replace('_', '-')} {_flag_value(getattr(args, n))}" for n in names
                   if getattr(args, n) is not None)


def _flag_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(shlex.quote(str(v)) for v in value)
    return value if isinstance(value, str) else f"{value:g}"


def data_command(data: Path) -> str:
    """`` (made by `python -m models.data …`)`` from the data directory's ``stats.json``, or ``""``."""
    stats = data / "stats.json"
    if not stats.is_file():
        return ""
    recorded = json.loads(stats.read_text())
    if recorded.get("command"):  # a models.experiments.mix directory says how it was made, and how its sources were
        sources = "".join(f"; `{d}` by `{c}`" for d, c in recorded.get("made_by", {}).items())
        return f" (made by `{recorded['command']}`{sources})"
    cfg = recorded.get("config", {})
    flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in cfg.items()
                     if k not in ("out", "tasks", "seed") and v is not None)
    tasks = f" --tasks {','.join(cfg['tasks'])}" if cfg.get("tasks") else ""
    return f" (made by `python -m models.data --out {data}{tasks} {flags}`)"


def write_notes(run: Path, src: Path, data: Path, args: argparse.Namespace, sft: dict, grpo: Any,
                chosen: dict | None = None) -> Path:
    """``<run>/NOTES.md``: the source run's notes, then what this continuation did (the model card quotes it)."""
    earlier = (src / "NOTES.md").read_text().strip() + "\n\n" if (src / "NOTES.md").is_file() else ""
    steps = max((h["step"] for h in sft["history"] if h.get("event") == "train"), default=0)
    best = sft["best"]
    if args.skip_sft:  # no SFT ran: GRPO again on a finished SFT
        text = (f"{earlier}GRPO again on `{run}/sft/best` (the SFT `{src}` finished: {steps} steps, best validation "
                f"loss {best.get('val_loss', float('nan')):.4f} at step {best.get('step')}) by "
                f"`python -m models.experiments.continue_sft --from {src} --run {run} --skip-sft "
                f"--threads {args.threads}"
                f"{flags_text(args)}`: GRPO ({grpo_text(grpo, chosen)}), export and evaluation.")
        path = run / "NOTES.md"
        path.write_text(text + "\n", encoding="utf-8")
        return path
    text = (f"{earlier}Continued from `{src}/sft/best` by "
            f"`python -m models.experiments.continue_sft --from {src} --run {run}"
            f"{f' --data {data}' if args.data else ''} --minutes {args.minutes:g} --lr {args.lr:g} "
            f"--threads {args.threads}{flags_text(args)}`: {steps} more SFT steps on `{data}`{data_command(data)} "
            f"(best validation loss {best.get('val_loss', float('nan')):.4f} at step {best.get('step')}), "
            f"then GRPO ({grpo_text(grpo, chosen)}), export and evaluation.")
    path = run / "NOTES.md"
    path.write_text(text + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    main()
