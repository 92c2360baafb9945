"""Average the weights of checkpoints trained from one start: a "model soup" of GRPO runs.

Command (two GRPO runs of different seeds from the bundled model, averaged)::

    python -m models.experiments.soup runs/c49/s3/step40 runs/c49/s4/step40 --out runs/c49/soup

GRPO runs that differ only in their seed start from the same weights and
take small steps away from them (the KL penalty holds them near the
reference), so each ends at the start plus the common part of what the
environment's rewards teach plus a seed's own drift. The mean of their
weights keeps the common part and shrinks the drift; averaged fine-tunes of
one model often score like their better member (Wortsman et al., "Model
soups", 2022). Measured here on two GRPO seeds (run tiny49, ``docs/experiments.md``),
the soup scored between them. ``--weights`` gives each checkpoint a share
(normalised to sum to 1; default equal shares): with the starting checkpoint
and a trained one it interpolates between them.

Every input is a full checkpoint directory that ``models.lm.load_lm`` opens
(``config.json`` + ``model.safetensors`` + ``tokenizer.json``, not a LoRA adapter; a GGUF becomes one
with ``models.import_gguf``). They must be the same model: the same
``config.json``, the same tokenizer, the same tensor names and shapes — a
checkpoint that is not is named with what differs, and nothing is written.
The output directory gets the first checkpoint's config and tokenizer and the
averaged float32 weights, written whole and then moved into place.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from assistant.errors import ModelFileError
from models.import_gguf import CHECKPOINT_FILES
from models.tiny import TOKENIZER_FILE

WEIGHTS_FILE = "model.safetensors"
#: What a soup directory holds (an existing one is replaced, anything else is refused).
SOUP_FILES = CHECKPOINT_FILES | {"soup.json"}
#: ``config.json`` keys that say how a checkpoint was saved, not what model it is (an imported GGUF and a
#: trained checkpoint of one model differ in them).
NOT_THE_MODEL = ("transformers_version", "dtype", "torch_dtype", "architectures")


def _read(path: Path, name: str) -> str:
    f = path / name
    if not f.is_file():
        raise ModelFileError(path, f"not a checkpoint directory (no {name})")
    try:
        return f.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ModelFileError(f, "not a text file") from exc


def _config(text: str, path: Path) -> dict:
    try:
        cfg = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelFileError(path / "config.json", f"not JSON ({exc.msg})") from exc
    if not isinstance(cfg, dict):
        raise ModelFileError(path / "config.json", "not a model configuration (a JSON object)")
    for key in NOT_THE_MODEL:
        cfg.pop(key, None)
    return cfg


def share_weights(n: int, weights: list[float] | None) -> list[float]:
    """Each checkpoint's share: ``weights`` normalised to sum to 1, or equal shares."""
    if weights is None:
        return [1.0 / n] * n
    if len(weights) != n:
        raise ValueError(f"{len(weights)} weights for {n} checkpoints; give one weight per checkpoint")
    if any(not (w > 0 and math.isfinite(w)) for w in weights):
        raise ValueError(f"weights must all be finite numbers above 0, got {weights}")
    total = sum(weights)
    return [w / total for w in weights]


def soup(checkpoints: list[str | Path], out: str | Path, weights: list[float] | None = None) -> Path:
    """Write the weighted mean of ``checkpoints``' weights to ``out``; returns ``out``."""
    paths = [Path(c) for c in checkpoints]
    if len(paths) < 2:
        raise ValueError(f"a soup needs at least two checkpoints, got {len(paths)}")
    shares = share_weights(len(paths), weights)
    out = Path(out)
    if out.resolve() in {p.resolve() for p in paths}:
        raise ValueError(f"{out}: the output would overwrite one of the checkpoints")
    if out.exists() and not (out.is_dir() and {p.name for p in out.iterdir()} <= SOUP_FILES):
        raise ModelFileError(out, "exists and is not a checkpoint; choose a new directory")
    first = paths[0]
    config = _config(_read(first, "config.json"), first)
    tokenizer = _read(first, TOKENIZER_FILE)
    total: dict[str, torch.Tensor] = {}
    for path, share in zip(paths, shares):
        if path != first:
            if _config(_read(path, "config.json"), path) != config:
                raise ModelFileError(path, f"its config.json differs from {first}'s: not the same model")
            if _read(path, TOKENIZER_FILE) != tokenizer:
                raise ModelFileError(path, f"its tokenizer differs from {first}'s: not the same model")
        if not (path / WEIGHTS_FILE).is_file():
            raise ModelFileError(path, f"not a checkpoint directory (no {WEIGHTS_FILE})")
        try:
            state = load_file(str(path / WEIGHTS_FILE))
        except Exception as exc:  # safetensors raises its own error types for a damaged file
            raise ModelFileError(path / WEIGHTS_FILE, f"not readable safetensors ({exc})") from exc
        if total and set(state) != set(total):
            odd = sorted(set(state) ^ set(total))
            raise ModelFileError(path, f"its tensors differ from {first}'s ({', '.join(odd[:3])}): not the same model")
        for name, tensor in state.items():
            t = tensor.to(torch.float32) * share
            if name in total:
                if total[name].shape != t.shape:
                    raise ModelFileError(path, f"tensor {name} is {tuple(t.shape)}, {first}'s "
                                               f"{tuple(total[name].shape)}: not the same model")
                total[name] += t
            else:
                total[name] = t
    tmp = out.with_name(out.name + ".tmp")  # written whole, then moved into place
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name in CHECKPOINT_FILES - {WEIGHTS_FILE}:
        if (first / name).is_file():
            shutil.copyfile(first / name, tmp / name)
    save_file({k: v.contiguous() for k, v in total.items()}, str(tmp / WEIGHTS_FILE), metadata={"format": "pt"})
    (tmp / "soup.json").write_text(json.dumps({"checkpoints": [str(p) for p in paths], "shares": shares}, indent=2))
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return out


def main(argv: list[str] | None = None) -> None:
    """Command line: write the weighted mean of the checkpoints to ``--out`` (:func:`soup`)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoints", nargs="+", help="checkpoint directories of one model (models.lm.load_lm)")
    ap.add_argument("--out", required=True, help="checkpoint directory to write")
    ap.add_argument("--weights", nargs="+", type=float, default=None,
                    help="each checkpoint's share, in order (normalised; default equal)")
    args = ap.parse_args(argv)
    try:
        out = soup(args.checkpoints, args.out, args.weights)
    except (ValueError, ModelFileError) as exc:
        raise SystemExit(f"error: {exc}") from None
    print(f"wrote {out}: the mean of {len(args.checkpoints)} checkpoints")


if __name__ == "__main__":
    main()
