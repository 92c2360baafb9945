"""One round for a pretrained base on a GPU: SFT of a LoRA adapter, then GRPO, both exported as GGUF adapters.

Command (the base is loaded once; with ``models.sft`` and ``models.grpo`` as two commands, Gemma 3 270M
is read and de-quantized twice)::

    python -m models.experiments.adapter_round --base gemma-3-270m \
        --adapter assistant/data/layout-applicator-gemma.lora.gguf \
        --train runs/tiny36/data/train.jsonl --val runs/tiny36/data/val.jsonl --out runs/gemma35 \
        --sft max_minutes=4.5 batch_size=8 lr=1e-4 \
        --grpo max_minutes=2.5 reward=composite kl_coef=0.5 stop_share=0.5 varied_ids=0.5

1. **SFT** (``models.sft.train_sft``) from the GGUF adapter ``--adapter`` read back into peft
   (``models.import_lora``), or from a fresh adapter of rank ``--lora-r``; the checkpoint with the lowest
   validation loss is kept (``OUT/sft/best``) and exported as ``OUT/sft.lora.gguf``.
2. **GRPO** (``models.grpo.train_grpo``) from those best weights, on the model already in memory, in
   float32: the greedy answers that pick states and validate checkpoints are then the ones llama.cpp
   gives, not bfloat16's. Every checkpoint (``OUT/grpo/stepN``, ``OUT/grpo/final``) is exported as
   ``OUT/grpo-stepN.lora.gguf`` / ``OUT/grpo.lora.gguf``, for choosing among them where llama.cpp runs.

``--skip-sft`` gives the whole run to GRPO, from ``--adapter`` itself (no ``--train`` / ``--val`` needed).

``--sft KEY=VALUE …`` and ``--grpo KEY=VALUE …`` set fields of :class:`models.sft.SFTConfig` and
:class:`models.grpo.GRPOConfig` (lists comma-separated); paths and the base are this command's own. A
summary (device, minutes per stage, best validation loss, GRPO steps, files) goes to ``OUT/summary.json``, the
loss and reward curves to ``OUT/eval_sft_loss.png`` and ``OUT/eval_grpo_reward.png``.
``--base`` other than ``gemma-3-270m`` (a local Hugging Face directory) needs ``--base-gguf``, the GGUF
llama.cpp runs the adapters over.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from assistant.errors import ModelFileError

#: Fields the command sets itself (``--train``, ``--out``, ...): not settable through ``--sft`` / ``--grpo``.
OWN_SFT = ("train", "val", "out", "base", "adapter", "lora")
OWN_GRPO = ("init", "out")


def parse_settings(pairs: list[str], cls: type, own: tuple[str, ...]) -> dict[str, Any]:
    """``KEY=VALUE`` strings as keyword arguments of the dataclass ``cls``, each converted to its field's type."""
    defaults = cls()
    known = {f.name for f in fields(cls)
             if isinstance(getattr(defaults, f.name), (bool, int, float, str, tuple))} - set(own)
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in known:
            raise ValueError(f"{pair!r} is not a setting KEY=VALUE of {cls.__name__} "
                             f"(settings: {', '.join(sorted(known))})")
        default = getattr(defaults, key)
        try:
            if isinstance(default, bool):
                if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(text)
                value: Any = text.lower() in ("true", "1", "yes")
            elif isinstance(default, tuple):
                value = tuple(s for s in text.split(",") if s)
            else:
                value = type(default)(text)
        except ValueError:
            raise ValueError(f"{pair!r}: {text!r} is not a {type(default).__name__}") from None
        out[key] = value
    return out


def run_round(*, base: str, out: str | Path, train: str = "", val: str = "", adapter: str = "", lora_r: int = 0,
              base_gguf: str = "", sft: dict[str, Any] | None = None, grpo: dict[str, Any] | None = None,
              skip_sft: bool = False) -> dict[str, Any]:
    """SFT then GRPO on one loaded base; returns (and writes to ``OUT/summary.json``) what the round made.

    ``skip_sft``: GRPO straight from ``adapter`` (read back into ``OUT/sft/init``), all of a budget for it.
    """
    from peft import set_peft_model_state_dict  # noqa: PLC0415
    from safetensors.torch import load_file  # noqa: PLC0415

    from models.eval.plots import plot_curves  # noqa: PLC0415
    from models.export_lora import base_gguf_path, export_lora  # noqa: PLC0415
    from models.grpo import GRPOConfig, check_config, train_grpo  # noqa: PLC0415
    from models.lm import LoraSettings, describe_device  # noqa: PLC0415
    from models.sft import SFTConfig, start_model, train_sft  # noqa: PLC0415

    if bool(adapter) == bool(lora_r):
        raise ValueError("give the GGUF adapter to train on (adapter) or the rank of a fresh one (lora_r), not both")
    if skip_sft and not adapter:
        raise ValueError("skipping SFT needs an adapter to start GRPO from")
    if base != "gemma-3-270m" and not base_gguf:
        raise ValueError(f"base {base!r} needs base_gguf: the GGUF llama.cpp runs the adapters over")
    for path, flag in () if skip_sft else ((train, "train"), (val, "val")):
        if not path:
            raise ValueError(f"SFT needs {flag} data (or skip_sft)")
        if not Path(path).is_file():
            raise ModelFileError(path, "training data not found")
    gguf = base_gguf_path(base_gguf or base).resolve()
    out = Path(out)
    lora = LoraSettings(r=lora_r, alpha=2 * lora_r) if lora_r else None
    scfg = SFTConfig(**{**(sft or {}), "train": train, "val": val, "out": str(out / "sft"), "base": base,
                        "adapter": adapter, "lora": lora})
    gcfg = GRPOConfig(**{**(grpo or {}), "init": str(out / "sft" / "best"), "out": str(out / "grpo")})
    check_config(gcfg)
    t0 = time.time()
    lm = start_model(scfg, out / "sft")
    if lm.kind != "hf" or not lm.has_lora:
        raise ValueError(f"base {base!r} is not a pretrained model with a LoRA adapter")
    loaded = time.time()
    files: dict[str, str] = {}
    if skip_sft:
        sft_summary: dict[str, Any] = {"best": {}, "history": []}
        gcfg.init = str(out / "sft" / "init")
    else:
        sft_summary = train_sft(scfg, lm)
        best_dir = Path(sft_summary["best_dir"])
        set_peft_model_state_dict(lm.model, load_file(str(best_dir / "adapter_model.safetensors")))
        files["sft"] = str(export_lora(best_dir, out / "sft.lora.gguf", base=gguf, name="layout-applicator-sft-lora"))
    sft_done = time.time()
    lm.model.float()  # exact widening: GRPO chooses in float32, as llama.cpp's answers are decided
    grpo_summary = train_grpo(gcfg, lm)
    grpo_dir = Path(gcfg.out)
    for ckpt in sorted(grpo_dir.glob("step*"), key=lambda p: int(p.name[4:]) if p.name[4:].isdigit() else -1):
        if ckpt.name[4:].isdigit():
            files[ckpt.name] = str(export_lora(ckpt, out / f"grpo-{ckpt.name}.lora.gguf", base=gguf,
                                               name="layout-applicator-lora"))
    files["grpo"] = str(export_lora(Path(grpo_summary["final_dir"]), out / "grpo.lora.gguf", base=gguf,
                                    name="layout-applicator-lora"))
    plots = plot_curves(out, out)  # OUT/sft/log.jsonl, OUT/grpo/log.jsonl → eval_sft_loss.png, eval_grpo_reward.png
    steps = [h for h in grpo_summary["history"] if "reward" in h and "step" in h]
    summary = {
        "device": describe_device(lm.device), "base": base, "base_gguf": str(gguf), "adapter": adapter,
        "minutes": {"load": round((loaded - t0) / 60, 2), "sft": round((sft_done - loaded) / 60, 2),
                    "grpo": round((time.time() - sft_done) / 60, 2)},
        "sft": {"best": sft_summary["best"], "steps": max((h["step"] for h in sft_summary["history"]), default=0),
                "config": asdict(scfg)},
        "grpo": {"steps": len(steps), "final_dir": grpo_summary["final_dir"], "best_dir": grpo_summary["best_dir"],
                 "config": asdict(gcfg)},
        "files": files, "plots": [str(p) for p in plots],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    return summary


def main(argv: list[str] | None = None) -> None:
    """Command line: one SFT-then-GRPO round of a LoRA adapter (:func:`run_round`); prints its summary's gist."""
    ap = argparse.ArgumentParser(description="SFT then GRPO of a LoRA adapter over a pretrained base, in one process.")
    ap.add_argument("--base", default="gemma-3-270m", help="gemma-3-270m or a local Hugging Face model directory")
    ap.add_argument("--base-gguf", default="", help="GGUF of --base for llama.cpp (default: the packaged Gemma file)")
    ap.add_argument("--adapter", default="", help="GGUF LoRA adapter over the base to train on from")
    ap.add_argument("--lora-r", type=int, default=0, help="rank of a fresh adapter instead of --adapter")
    ap.add_argument("--train", default="", help="SFT data (chat JSONL)")
    ap.add_argument("--val", default="", help="SFT validation data")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sft", nargs="*", default=[], metavar="KEY=VALUE", help="models.sft.SFTConfig settings")
    ap.add_argument("--grpo", nargs="*", default=[], metavar="KEY=VALUE", help="models.grpo.GRPOConfig settings")
    ap.add_argument("--skip-sft", action="store_true", help="GRPO straight from --adapter")
    args = ap.parse_args(argv)
    from models.grpo import GRPOConfig  # noqa: PLC0415
    from models.sft import SFTConfig  # noqa: PLC0415

    try:
        sft = parse_settings(args.sft, SFTConfig, OWN_SFT)
        grpo = parse_settings(args.grpo, GRPOConfig, OWN_GRPO)
    except ValueError as exc:
        ap.error(str(exc))
    try:
        summary = run_round(base=args.base, train=args.train, val=args.val, out=args.out, adapter=args.adapter,
                            lora_r=args.lora_r, base_gguf=args.base_gguf, sft=sft, grpo=grpo, skip_sft=args.skip_sft)
    except (ValueError, OSError, ModelFileError) as exc:
        raise SystemExit(f"models.experiments.adapter_round: {exc}") from exc
    print(json.dumps({k: summary[k] for k in ("device", "minutes", "files")}))


if __name__ == "__main__":
    main()
