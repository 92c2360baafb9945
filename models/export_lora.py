"""Export a peft LoRA adapter as a GGUF adapter that llama.cpp applies over an existing base GGUF.

Command::

    python -m models.export_lora ADAPTER_DIR OUT.gguf --base BASE.gguf      # e.g. --base gemma-3-270m

``ADAPTER_DIR`` is what ``LM.save_adapter`` (peft's ``save_pretrained``) writes:
``adapter_config.json`` and ``adapter_model.safetensors``. ``--base`` is the
GGUF the adapter was trained over (``gemma-3-270m`` names the packaged Gemma 3
270M): the adapter must match its architecture and tensor shapes, and at run
time llama.cpp loads both (``Llama(model_path=BASE, lora_path=OUT)``,
``models.policies.load_llama(..., lora=OUT)``). Shipping the base unchanged and
a few-MB adapter beside it avoids re-exporting the base's tokenizer and
quantisation.

What llama.cpp expects (as its ``convert_lora_to_gguf.py`` writes it):

* ``general.type = "adapter"``, ``adapter.type = "lora"``,
  ``adapter.lora.alpha`` (float), ``general.architecture`` of the base;
* for each adapted weight ``blk.N.<tensor>.weight`` of the base, two tensors
  ``blk.N.<tensor>.weight.lora_a`` (peft's ``lora_A``, shape rank × in) and
  ``….lora_b`` (``lora_B``, out × rank); llama.cpp adds
  ``alpha / rank · B·A·x`` to the weight's product;
* for a ``llama`` base, Q and K rows of ``lora_b`` get the same rotary-pair
  permutation the base's Q/K weights got (``models.export_gguf.permute_qk``);
  ``gemma3`` keeps Hugging Face's layout (llama.cpp runs it with NeoX rope).

Only plain LoRA is supported (no DoRA, rsLoRA, biases, per-module ranks or
extra saved modules); anything else is refused with an ``ExportError``.
"""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path

import gguf
import numpy as np
from safetensors.numpy import load_file

from assistant.errors import ExportError, ModelFileError
from models.export_gguf import gguf_tensor_name, permute_qk

#: Base architectures whose tensor names follow the Llama map of ``models.export_gguf``.
ARCHITECTURES: tuple[str, ...] = ("llama", "gemma3")
_UNSUPPORTED = ("use_dora", "use_rslora", "fan_in_fan_out", "modules_to_save", "rank_pattern", "alpha_pattern")


def base_gguf_path(base: str | Path) -> Path:
    """``base`` as a GGUF path (``gemma-3-270m`` and ``smollm2-135m`` name the packaged bases)."""
    from models.lm import base_gguf

    named = base_gguf(base)
    if named is not None:
        return named
    path = Path(base)
    if not path.is_file():
        raise ModelFileError(path, "base GGUF not found")
    return path


def _base_tensors(base: Path) -> tuple[str, dict[str, int], dict[str, tuple[int, ...]]]:
    """Architecture, head counts and the (ne-order) shapes of every tensor of the base GGUF.

    Read once per file version in a process: parsing a GGUF's metadata takes seconds when it holds a large
    vocabulary (Gemma 3's 262 144 tokens), and a training round exports several checkpoints over one base.
    """
    try:
        stat = base.stat()
    except OSError as exc:
        raise ModelFileError(base, f"not a readable GGUF file: {exc.strerror or exc}") from None
    arch, heads, shapes = _read_base_tensors(str(base.resolve()), stat.st_mtime_ns, stat.st_size)
    return arch, dict(heads), dict(shapes)


@functools.lru_cache(maxsize=4)
def _read_base_tensors(base: str, mtime_ns: int, size: int) -> tuple[str, dict[str, int], dict[str, tuple[int, ...]]]:
    del mtime_ns, size  # the cache key: a rewritten file is read again
    try:
        reader = gguf.GGUFReader(base)
    except (ValueError, OSError) as exc:
        raise ModelFileError(base, f"not a readable GGUF file: {exc}") from None

    def field(key: str) -> object:
        f = reader.fields.get(key)
        return None if f is None else f.contents()

    arch = str(field("general.architecture"))
    heads = {"q": int(field(f"{arch}.attention.head_count") or 0),
             "k": int(field(f"{arch}.attention.head_count_kv") or field(f"{arch}.attention.head_count") or 0)}
    shapes = {t.name: tuple(int(d) for d in t.shape) for t in reader.tensors}
    return arch, heads, shapes


def _adapter(adapter_dir: Path) -> tuple[dict, dict[str, np.ndarray]]:
    cfg_file, weights = adapter_dir / "adapter_config.json", adapter_dir / "adapter_model.safetensors"
    for f in (cfg_file, weights):
        if not f.is_file():
            raise ModelFileError(f, "missing from the adapter directory (save it with LM.save_adapter)")
    cfg = json.loads(cfg_file.read_text())
    if cfg.get("peft_type", "LORA") != "LORA":
        raise ExportError(f"{adapter_dir}: peft_type {cfg.get('peft_type')!r} is not LORA")
    bad = [k for k in _UNSUPPORTED if cfg.get(k)]
    if cfg.get("bias", "none") != "none":
        bad.append("bias")
    if bad:
        raise ExportError(f"{adapter_dir}: LoRA options llama.cpp adapters cannot express: {', '.join(bad)}")
    return cfg, load_file(str(weights))


def adapter_tensors(adapter_dir: Path, state: dict[str, np.ndarray], arch: str,
                    heads: dict[str, int]) -> dict[str, np.ndarray]:
    """GGUF tensor name → array (``….lora_a`` / ``….lora_b``) of the peft ``state`` read from ``adapter_dir``."""
    out: dict[str, np.ndarray] = {}
    for name, array in state.items():
        if ".lora_A." in name:
            part, suffix = ".lora_A.", "lora_a"
        elif ".lora_B." in name:
            part, suffix = ".lora_B.", "lora_b"
        else:
            raise ExportError(f"{adapter_dir}: unexpected tensor {name!r} (only lora_A / lora_B are exported)")
        hf = name.removeprefix("base_model.model.").replace(part, ".")
        gname = gguf_tensor_name(hf)
        if gname is None or not gname.startswith("blk."):
            raise ExportError(f"{adapter_dir}: cannot adapt {hf!r} (only attention and MLP projections)")
        data = array.astype(np.float32)
        if arch == "llama" and suffix == "lora_b" and hf.endswith(("q_proj.weight", "k_proj.weight")):
            data = permute_qk(data, heads["q" if hf.endswith("q_proj.weight") else "k"])
        out[f"{gname}.{suffix}"] = data
    return out


def export_lora(adapter_dir: str | Path, out_path: str | Path, *, base: str | Path,
                out_type: str = "f16", name: str = "layout-applicator-lora") -> Path:
    """Write the GGUF adapter of ``adapter_dir`` for the base GGUF ``base``; returns its path."""
    adapter_dir = Path(adapter_dir)
    if out_type not in ("f16", "f32"):
        raise ExportError(f"adapter type must be f16 or f32, got {out_type!r}")
    base_path = base_gguf_path(base)
    arch, heads, shapes = _base_tensors(base_path)
    if arch not in ARCHITECTURES:
        raise ExportError(f"{base_path}: architecture {arch!r} is not one of {', '.join(ARCHITECTURES)}")
    cfg, state = _adapter(adapter_dir)
    tensors = adapter_tensors(adapter_dir, state, arch, heads)
    if not tensors:
        raise ExportError(f"{adapter_dir}: the adapter has no LoRA tensors")
    for gname, data in tensors.items():
        weight = gname.rsplit(".", 1)[0]
        if weight not in shapes:
            raise ExportError(f"{adapter_dir}: {weight} is not a tensor of the base {base_path.name}")
        n_in, n_out = shapes[weight][0], shapes[weight][1]   # GGUF shapes are (columns, rows)
        want = (int(cfg["r"]), n_in) if gname.endswith("lora_a") else (n_out, int(cfg["r"]))
        if data.shape != want:
            raise ExportError(f"{adapter_dir}: {gname} has shape {data.shape}, the base needs {want}")

    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    writer = gguf.GGUFWriter(str(tmp), arch)
    writer.add_type(gguf.GGUFType.ADAPTER)
    writer.add_string(gguf.Keys.Adapter.TYPE, "lora")
    writer.add_float32(gguf.Keys.Adapter.LORA_ALPHA, float(cfg["lora_alpha"]))
    writer.add_name(name)
    dtype = np.float16 if out_type == "f16" else np.float32
    for gname, data in sorted(tensors.items()):
        writer.add_tensor(gname, data.astype(dtype))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    tmp.replace(out)
    return out


def main(argv: list[str] | None = None) -> None:
    """Command line: export a peft adapter as a GGUF adapter over ``--base`` (:func:`export_lora`)."""
    ap = argparse.ArgumentParser(description="Export a peft LoRA adapter as a llama.cpp GGUF adapter.")
    ap.add_argument("adapter", type=Path, help="directory with adapter_config.json and adapter_model.safetensors")
    ap.add_argument("out", type=Path, help="output .gguf path")
    ap.add_argument("--base", required=True, help="base GGUF the adapter applies to (or gemma-3-270m)")
    ap.add_argument("--type", dest="out_type", choices=("f16", "f32"), default="f16")
    args = ap.parse_args(argv)
    path = export_lora(args.adapter, args.out, base=args.base, out_type=args.out_type)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {args.out_type})")


if __name__ == "__main__":
    main()
