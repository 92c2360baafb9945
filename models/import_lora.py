r"""Read a GGUF LoRA adapter back into a peft checkpoint: the inverse of ``models.export_lora``.

Command::

    python -m models.import_lora assistant/data/layout-applicator-gemma.lora.gguf runs/gemma-grpo/sft \
        --base gemma-3-270m

The Gemma adapter ships as a GGUF adapter only; this turns it (or any adapter
``models.export_lora`` wrote) into the checkpoint directory ``LM.save_adapter``
writes — ``adapter_config.json`` + ``adapter_model.safetensors`` +
``layout_base.json`` — so that training can go on from the shipped adapter
(``python -m models.grpo --init DIR``). ``--base`` is the model the adapter was
trained over, as ``models.lm.load_lm`` names it: ``gemma-3-270m`` or a local
Hugging Face model directory.

What is undone: ``blk.N.<tensor>.weight.lora_a`` / ``….lora_b`` map back to
peft's ``lora_A`` / ``lora_B`` of the Hugging Face module, and for a ``llama``
adapter the Q and K rows of ``lora_b`` go back from llama.cpp's interleaved
rotary pairs (``models.import_gguf.unpermute_qk``). The rank comes from the
tensors, the scale from ``adapter.lora.alpha``. The weights come back as the
file holds them (an F16 adapter gives F16-rounded weights).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import gguf
import numpy as np
import torch

from assistant.errors import ExportError, ModelFileError
from models.export_lora import ARCHITECTURES
from models.import_gguf import _field, _tensor, hf_tensor_name, unpermute_qk
from models.lm import LM, LoraSettings, load_lm


def read_adapter(path: str | Path) -> tuple[str, float, dict[str, np.ndarray]]:
    """Architecture, LoRA alpha and the pieces of a GGUF adapter as the file holds them.

    The pieces are ``{"<hf module>.lora_A": array (rank × in), "<hf module>.lora_B": array (out × rank)}``;
    a ``llama`` adapter's Q/K ``lora_B`` rows are still in llama.cpp's rotary order
    (:func:`import_lora` restores them with the base's head counts, which the adapter does not record).
    """
    p = Path(path)
    if not p.is_file():
        raise ModelFileError(p, "adapter GGUF not found")
    try:
        reader = gguf.GGUFReader(str(p))
    except (ValueError, OSError) as exc:
        raise ModelFileError(p, f"not a readable GGUF file: {exc}") from None
    if _field(reader, "general.type") != "adapter" or _field(reader, "adapter.type") != "lora":
        raise ModelFileError(p, "not a LoRA adapter (general.type / adapter.type are not adapter / lora)")
    arch = str(_field(reader, "general.architecture"))
    if arch not in ARCHITECTURES:
        raise ExportError(f"{p}: architecture {arch!r} is not one of {', '.join(ARCHITECTURES)}")
    alpha = _field(reader, "adapter.lora.alpha")
    if alpha is None:
        raise ModelFileError(p, "has no adapter.lora.alpha")
    out: dict[str, np.ndarray] = {}
    for t in reader.tensors:
        weight, _, suffix = t.name.rpartition(".")
        if suffix not in ("lora_a", "lora_b"):
            raise ModelFileError(p, f"unexpected tensor {t.name!r} (an adapter holds only lora_a / lora_b)")
        hf = hf_tensor_name(weight)
        data = _tensor(t)
        out[f"{hf.removesuffix('.weight')}.{'lora_A' if suffix == 'lora_a' else 'lora_B'}"] = data
    if not out:
        raise ModelFileError(p, "the adapter has no tensors")
    return arch, float(alpha), out


def import_lora(path: str | Path, out_dir: str | Path, *, base: str | Path, dropout: float = 0.0,
                device: torch.device | None = None) -> LM:
    """Load ``base`` with the GGUF adapter ``path`` as a trainable peft LoRA adapter; save it to ``out_dir``.

    Returns the model (on ``device``, default CPU). Every tensor of the file must find its module in the
    base, and every LoRA module the base gets must be filled from the file.
    """
    arch, alpha, pieces = read_adapter(path)
    ranks = {a.shape[0] for k, a in pieces.items() if k.endswith(".lora_A")}
    if len(ranks) != 1:
        raise ModelFileError(Path(path), f"adapter tensors have several ranks {sorted(ranks)}")
    targets = tuple(sorted({k.rsplit(".", 2)[-2] for k in pieces}))
    lora = LoraSettings(r=ranks.pop(), alpha=alpha, dropout=dropout, target_modules=targets)
    lm = load_lm(base, lora=lora, device=device or torch.device("cpu"))
    params = {name.replace(".default.weight", ""): p for name, p in lm.model.named_parameters() if "lora_" in name}
    params = {name.removeprefix("base_model.model."): p for name, p in params.items()}
    missing = sorted(set(params) - set(pieces))
    extra = sorted(set(pieces) - set(params))
    if extra:
        raise ModelFileError(Path(path), f"adapter tensors the base {base} has no module for: {', '.join(extra[:4])}")
    if missing:
        raise ModelFileError(Path(path), f"the base's LoRA modules the adapter does not fill: {', '.join(missing[:4])}")
    for name, p in params.items():
        if tuple(pieces[name].shape) != tuple(p.shape):
            raise ModelFileError(Path(path), f"{name} has shape {pieces[name].shape}, the base needs {tuple(p.shape)}")
    if arch == "llama":  # Q/K rows of lora_B back from llama.cpp's rotary pairs (export_gguf.permute_qk)
        config = lm.model.get_base_model().config
        heads = {"q_proj": config.num_attention_heads,
                 "k_proj": getattr(config, "num_key_value_heads", None) or config.num_attention_heads}
        for name in pieces:
            module = name.rsplit(".", 2)[-2]
            if name.endswith(".lora_B") and module in heads:
                pieces[name] = unpermute_qk(pieces[name], heads[module])
    with torch.no_grad():
        for name, p in params.items():
            p.copy_(torch.from_numpy(np.ascontiguousarray(pieces[name])).to(p.dtype))
    lm.save_adapter(out_dir)
    return lm


def main(argv: list[str] | None = None) -> None:
    """Command line: read a GGUF adapter over ``--base`` into a peft checkpoint directory (:func:`import_lora`)."""
    ap = argparse.ArgumentParser(description="Read a GGUF LoRA adapter back into a peft checkpoint.")
    ap.add_argument("adapter", type=Path, help="GGUF LoRA adapter (models.export_lora wrote it)")
    ap.add_argument("out", type=Path, help="checkpoint directory to write")
    ap.add_argument("--base", required=True, help="the base it adapts: gemma-3-270m or a Hugging Face model directory")
    ap.add_argument("--dropout", type=float, default=0.0, help="LoRA dropout for further training")
    args = ap.parse_args(argv)
    import_lora(args.adapter, args.out, base=args.base, dropout=args.dropout)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
