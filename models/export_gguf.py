"""Export a Llama checkpoint (``models.tiny`` or a merged LoRA model) to GGUF for llama.cpp.

Command::

    python -m models.export_gguf CHECKPOINT_DIR OUT.gguf --type q8_0   # or f16

What llama.cpp expects (as in llama.cpp's ``convert_hf_to_gguf.py``, ``LlamaModel``):

* architecture ``llama``; hyperparameters ``llama.context_length``,
  ``embedding_length``, ``block_count``, ``feed_forward_length``,
  ``rope.dimension_count`` (head dim), ``attention.head_count``,
  ``attention.head_count_kv``, ``attention.layer_norm_rms_epsilon``,
  ``rope.freq_base``; ``general.file_type``;
* tensor names ``token_embd``, ``blk.N.{attn_norm, attn_q, attn_k, attn_v,
  attn_output, ffn_norm, ffn_gate, ffn_up, ffn_down}``, ``output_norm``,
  ``output``;
* Q and K projection rows permuted from Hugging Face's rotate-half rotary
  layout back to the interleaved-pair layout llama.cpp's ``rope`` uses
  (:func:`permute_qk`);
* 1-D tensors (norms) stay float32; 2-D tensors are F16 or Q8_0 (a tensor whose
  rows are not a multiple of the 32-wide Q8_0 block falls back to F16);
* the tokenizer as a GPT-2-style byte-level BPE: ``tokenizer.ggml.model =
  "gpt2"``, ``tokenizer.ggml.pre`` naming the split regex the tokenizer's
  pre-tokenizer uses (``"gpt-2"``, or ``"starcoder"``: single digits first;
  ``models.tiny.pre_tokenizer_kind``), tokens, token types (specials are
  CONTROL), merges, bos/eos/pad ids, ``add_bos_token = true``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Literal

import gguf
import numpy as np
import torch
from safetensors.torch import load_file

from assistant.errors import ExportError, ModelFileError
from models.tiny import pre_tokenizer_kind

GgufType = Literal["f16", "q8_0"]
#: Tensors kept F16 in a Q8_0 file (name substrings).
KEEP_F16: tuple[str, ...] = ()

_LAYER_MAP: dict[str, str] = {
    "input_layernorm.weight": "attn_norm.weight",
    "self_attn.q_proj.weight": "attn_q.weight",
    "self_attn.k_proj.weight": "attn_k.weight",
    "self_attn.v_proj.weight": "attn_v.weight",
    "self_attn.o_proj.weight": "attn_output.weight",
    "post_attention_layernorm.weight": "ffn_norm.weight",
    "mlp.gate_proj.weight": "ffn_gate.weight",
    "mlp.up_proj.weight": "ffn_up.weight",
    "mlp.down_proj.weight": "ffn_down.weight",
}
_TOP_MAP: dict[str, str] = {
    "model.embed_tokens.weight": "token_embd.weight",
    "model.norm.weight": "output_norm.weight",
    "lm_head.weight": "output.weight",
}


def permute_qk(weights: np.ndarray, n_head: int) -> np.ndarray:
    """Undo Hugging Face's Q/K row permutation (rotate-half → interleaved rotary pairs).

    Same reshape as llama.cpp's ``LlamaModel.permute``: rows grouped per head as
    (2, head_dim/2) are swapped to (head_dim/2, 2). ``n_head`` is the number of
    heads the rows belong to (key/value heads for K).
    """
    rows = weights.shape[0]
    return (weights.reshape(n_head, 2, rows // n_head // 2, *weights.shape[1:])
            .swapaxes(1, 2).reshape(weights.shape))


def gguf_tensor_name(hf_name: str) -> str | None:
    """GGUF name for a Hugging Face Llama tensor name (``None`` for buffers we skip)."""
    if hf_name in _TOP_MAP:
        return _TOP_MAP[hf_name]
    parts = hf_name.split(".")
    if len(parts) > 3 and parts[0] == "model" and parts[1] == "layers":
        rest = ".".join(parts[3:])
        if rest in _LAYER_MAP:
            return f"blk.{int(parts[2])}.{_LAYER_MAP[rest]}"
    if hf_name.endswith("rotary_emb.inv_freq"):
        return None
    raise ExportError(f"unexpected tensor {hf_name!r}: not a Llama checkpoint this exporter knows")


def _load_state(checkpoint: Path) -> dict[str, torch.Tensor]:
    files = sorted(checkpoint.glob("*.safetensors"))
    if not files:
        raise ModelFileError(checkpoint, "no *.safetensors weights in the checkpoint directory")
    state: dict[str, torch.Tensor] = {}
    for f in files:
        state.update(load_file(str(f)))
    if "lm_head.weight" not in state and "model.embed_tokens.weight" in state:
        state["lm_head.weight"] = state["model.embed_tokens.weight"]  # tied embeddings
    return state


def _tokenizer_tables(tokenizer_json: dict) -> tuple[list[str], list[int], list[str], dict[str, int]]:
    """Tokens (by id), token types, merges ("a b") and special ids from a tokenizers JSON."""
    model = tokenizer_json.get("model", {})
    if model.get("type") != "BPE":
        raise ExportError("only byte-level BPE tokenizers can be exported (tokenizer.json model is "
                          f"{model.get('type')!r})")
    vocab: dict[str, int] = dict(model["vocab"])
    specials: dict[str, int] = {}
    for added in tokenizer_json.get("added_tokens", []):
        vocab[added["content"]] = added["id"]
        if added.get("special"):
            specials[added["content"]] = added["id"]
    size = max(vocab.values()) + 1
    tokens = [f"[PAD{i}]" for i in range(size)]
    types = [int(gguf.TokenType.UNUSED)] * size
    for text, idx in vocab.items():
        tokens[idx] = text
        types[idx] = int(gguf.TokenType.CONTROL if text in specials else gguf.TokenType.NORMAL)
    merges = [m if isinstance(m, str) else " ".join(m) for m in model.get("merges", [])]
    return tokens, types, merges, specials


def _quantize(name: str, data: np.ndarray, out_type: GgufType,
              keep_f16: tuple[str, ...] = ()) -> tuple[np.ndarray, gguf.GGMLQuantizationType]:
    if data.ndim == 1:
        return data.astype(np.float32), gguf.GGMLQuantizationType.F32
    if out_type == "q8_0" and data.shape[-1] % 32 == 0 and not any(k in name for k in keep_f16):
        qtype = gguf.GGMLQuantizationType.Q8_0
        return gguf.quants.quantize(data.astype(np.float32), qtype), qtype
    return data.astype(np.float16), gguf.GGMLQuantizationType.F16


def export_gguf(checkpoint: str | Path, out_path: str | Path, *, out_type: GgufType = "f16",
                name: str = "layout-applicator", keep_f16: tuple[str, ...] = KEEP_F16) -> Path:
    """Write ``checkpoint`` (HF Llama dir with ``tokenizer.json``) as a GGUF file; returns its path."""
    ckpt = Path(checkpoint)
    if out_type not in ("f16", "q8_0"):
        raise ExportError(f"GGUF type must be f16 or q8_0, got {out_type!r}")
    cfg_file, tok_file = ckpt / "config.json", ckpt / "tokenizer.json"
    for f in (cfg_file, tok_file):
        if not f.is_file():
            raise ModelFileError(f, "missing from the checkpoint directory")
    cfg = json.loads(cfg_file.read_text())
    if cfg.get("model_type") != "llama":
        raise ExportError(f"{ckpt}: model_type {cfg.get('model_type')!r} is not llama")
    n_head = int(cfg["num_attention_heads"])
    n_kv = int(cfg.get("num_key_value_heads") or n_head)
    hidden = int(cfg["hidden_size"])
    head_dim = int(cfg.get("head_dim") or hidden // n_head)

    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    writer = gguf.GGUFWriter(str(tmp), "llama")
    writer.add_name(name)
    writer.add_context_length(int(cfg["max_position_embeddings"]))
    writer.add_embedding_length(hidden)
    writer.add_block_count(int(cfg["num_hidden_layers"]))
    writer.add_feed_forward_length(int(cfg["intermediate_size"]))
    writer.add_rope_dimension_count(head_dim)
    writer.add_head_count(n_head)
    writer.add_head_count_kv(n_kv)
    writer.add_layer_norm_rms_eps(float(cfg["rms_norm_eps"]))
    rope_theta = cfg.get("rope_theta") or (cfg.get("rope_parameters") or {}).get("rope_theta", 10000.0)
    writer.add_rope_freq_base(float(rope_theta))
    writer.add_vocab_size(int(cfg["vocab_size"]))
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0 if out_type == "q8_0" else gguf.LlamaFileType.MOSTLY_F16)

    tok_json = json.loads(tok_file.read_text())
    try:
        pre = pre_tokenizer_kind(tok_json)
    except ValueError as exc:
        raise ExportError(f"{tok_file}: {exc}") from exc
    tokens, types, merges, _specials = _tokenizer_tables(tok_json)
    if len(tokens) != int(cfg["vocab_size"]):
        raise ExportError(f"tokenizer has {len(tokens)} tokens but the model's vocab_size is {cfg['vocab_size']}")
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(pre)
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    for key, setter in (("bos_token_id", writer.add_bos_token_id), ("eos_token_id", writer.add_eos_token_id),
                        ("pad_token_id", writer.add_pad_token_id)):
        if cfg.get(key) is not None:
            setter(int(cfg[key]))
    writer.add_add_bos_token(True)
    writer.add_add_eos_token(False)

    for hf_name, tensor in _load_state(ckpt).items():
        gname = gguf_tensor_name(hf_name)
        if gname is None:
            continue
        data = tensor.to(torch.float32).numpy()
        if hf_name.endswith("q_proj.weight"):
            data = permute_qk(data, n_head)
        elif hf_name.endswith("k_proj.weight"):
            data = permute_qk(data, n_kv)
        data, qtype = _quantize(gname, data, out_type, keep_f16)
        writer.add_tensor(gname, data, raw_dtype=qtype)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    tmp.replace(out)
    return out


def main(argv: list[str] | None = None) -> None:
    """Command line: export a checkpoint directory to a GGUF file (:func:`export_gguf`); print its size."""
    ap = argparse.ArgumentParser(description="Export a Llama checkpoint directory to GGUF.")
    ap.add_argument("checkpoint", type=Path, help="directory with config.json, *.safetensors, tokenizer.json")
    ap.add_argument("out", type=Path, help="output .gguf path")
    ap.add_argument("--type", dest="out_type", choices=("f16", "q8_0"), default="q8_0")
    ap.add_argument("--name", default="layout-applicator")
    args = ap.parse_args(argv)
    path = export_gguf(args.checkpoint, args.out, out_type=args.out_type, name=args.name)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {args.out_type})")


if __name__ == "__main__":
    main()
