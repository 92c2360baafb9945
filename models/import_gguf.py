"""Read a ``tiny`` GGUF back into a training checkpoint: the inverse of ``models.export_gguf``.

Command::

    python -m models.import_gguf assistant/data/layout-applicator-tiny.gguf runs/bundled/ckpt

The bundled model ships as GGUF only; this turns it (or any GGUF that
``models.export_gguf`` wrote: F32, F16 or Q8_0 weights, a GPT-2-style byte-level
BPE vocabulary) into a checkpoint directory that ``models.lm.load_lm`` opens —
``config.json`` + ``model.safetensors`` (float32) + ``tokenizer.json`` — so that
training can go on from the shipped weights (``models.grpo --init DIR``).

What is undone, tensor by tensor: the GGUF names map back to Hugging Face
Llama names, Q and K rows go back from llama.cpp's interleaved rotary pairs to
Hugging Face's rotate-half layout (the inverse of
:func:`models.export_gguf.permute_qk`), quantized blocks are dequantized. The
tokenizer is rebuilt from the token list, the merges and the control tokens.
The weights come back as the file holds them: an F16 file gives the F16-rounded
weights, so torch's answers match llama.cpp's on that file, not the pre-export
float32 checkpoint's to the last bit.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

import gguf
import numpy as np
import torch
from safetensors.torch import save_file

from assistant.errors import ExportError, ModelFileError
from models.export_gguf import _LAYER_MAP, _TOP_MAP
from models.tiny import PRE_TOKENIZERS, TOKENIZER_FILE, pre_tokenizer_json

_GGUF_TO_HF: dict[str, str] = {v: k for k, v in _TOP_MAP.items()}
#: What an imported checkpoint directory holds (an existing one is replaced, anything else is refused).
CHECKPOINT_FILES = frozenset({"config.json", "generation_config.json", "model.safetensors", TOKENIZER_FILE})


def hf_tensor_name(gguf_name: str) -> str:
    """The Hugging Face Llama name of a GGUF tensor name (``blk.N.attn_q.weight`` → ``model.layers.N.…``)."""
    if gguf_name in _GGUF_TO_HF:
        return _GGUF_TO_HF[gguf_name]
    parts = gguf_name.split(".", 2)
    if len(parts) == 3 and parts[0] == "blk" and parts[1].isdigit():
        for hf_rest, g_rest in _LAYER_MAP.items():
            if parts[2] == g_rest:
                return f"model.layers.{int(parts[1])}.{hf_rest}"
    raise ExportError(f"unexpected tensor {gguf_name!r}: not a Llama GGUF this importer knows")


def unpermute_qk(weights: np.ndarray, n_head: int) -> np.ndarray:
    """Interleaved rotary pairs (llama.cpp) → Hugging Face's rotate-half rows; inverse of ``permute_qk``."""
    rows = weights.shape[0]
    return (weights.reshape(n_head, rows // n_head // 2, 2, *weights.shape[1:])
            .swapaxes(1, 2).reshape(weights.shape))


def _field(reader: gguf.GGUFReader, key: str, default: Any = None) -> Any:
    """A scalar, string or array metadata value of ``reader`` (``default`` when absent)."""
    f = reader.fields.get(key)
    if f is None:
        return default
    if f.types and f.types[0] == gguf.GGUFValueType.ARRAY:
        if len(f.types) > 1 and f.types[1] == gguf.GGUFValueType.STRING:
            return [bytes(f.parts[i]).decode("utf-8") for i in f.data]
        return [f.parts[i].tolist()[0] for i in f.data]
    if f.types and f.types[0] == gguf.GGUFValueType.STRING:
        return bytes(f.parts[f.data[0]]).decode("utf-8")
    return f.parts[f.data[0]].tolist()[0]


def _tensor(t: Any) -> np.ndarray:
    """A reader tensor as float32 in Hugging Face's (rows, columns) order."""
    qtype = gguf.GGMLQuantizationType(int(t.tensor_type))
    shape = tuple(int(x) for x in reversed(t.shape.tolist()))  # GGUF lists the fastest dimension first
    if qtype in (gguf.GGMLQuantizationType.F32, gguf.GGMLQuantizationType.F16):
        data = np.asarray(t.data, dtype=np.float32)
    else:
        data = gguf.quants.dequantize(np.asarray(t.data), qtype).astype(np.float32)
    return data.reshape(shape)


def _tokenizer_json(tokens: list[str], types: list[int], merges: list[str], pre: str = "gpt-2") -> dict[str, Any]:
    """A ``tokenizers`` JSON for a byte-level BPE vocabulary whose pre-tokenizer llama.cpp calls ``pre``.

    The layout is the one ``models.tiny.train_tokenizer`` makes; ``pre`` names one of
    ``models.tiny.PRE_TOKENIZERS``.
    """
    control = int(gguf.TokenType.CONTROL)
    added = [{"id": i, "content": tok, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for i, (tok, kind) in enumerate(zip(tokens, types))
             if kind == control]
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added, "normalizer": None,
        "pre_tokenizer": pre_tokenizer_json(pre),
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": {tok: i for i, tok in enumerate(tokens)},
                  "merges": [m.split(" ", 1) for m in merges]},
    }


def import_gguf(path: str | Path, out_dir: str | Path) -> Path:
    """Write the checkpoint directory ``out_dir`` from the GGUF file ``path``; returns ``out_dir``."""
    from transformers import LlamaConfig  # noqa: PLC0415

    src, out = Path(path), Path(out_dir)
    if out.exists() and not (out.is_dir() and {p.name for p in out.iterdir()} <= CHECKPOINT_FILES):
        raise ModelFileError(out, "exists and is not a checkpoint this importer wrote; choose a new directory")
    if not src.is_file():
        raise ModelFileError(src, "no such GGUF file")
    try:
        reader = gguf.GGUFReader(str(src))
    except Exception as exc:  # the gguf package raises ValueError / struct errors / IndexError on bad files
        raise ModelFileError(src, f"not a readable GGUF file ({exc})") from exc
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise ModelFileError(src, f"architecture {arch!r} is not llama; only the tiny Llama can be imported")
    if _field(reader, "tokenizer.ggml.model") != "gpt2":
        raise ModelFileError(src, "the vocabulary is not a GPT-2-style byte-level BPE")
    pre = _field(reader, "tokenizer.ggml.pre", "gpt-2")
    if pre not in PRE_TOKENIZERS:
        raise ModelFileError(src, f"its pre-tokenizer {pre!r} is none of {', '.join(PRE_TOKENIZERS)}")
    tokens = _field(reader, "tokenizer.ggml.tokens")
    types = _field(reader, "tokenizer.ggml.token_type")
    merges = _field(reader, "tokenizer.ggml.merges", [])
    n_head = int(_field(reader, "llama.attention.head_count"))
    n_kv = int(_field(reader, "llama.attention.head_count_kv", n_head))
    hidden = int(_field(reader, "llama.embedding_length"))
    config = LlamaConfig(
        vocab_size=len(tokens), hidden_size=hidden, intermediate_size=int(_field(reader, "llama.feed_forward_length")),
        num_hidden_layers=int(_field(reader, "llama.block_count")), num_attention_heads=n_head,
        num_key_value_heads=n_kv, max_position_embeddings=int(_field(reader, "llama.context_length")),
        rope_theta=float(_field(reader, "llama.rope.freq_base", 10000.0)),
        rms_norm_eps=float(_field(reader, "llama.attention.layer_norm_rms_epsilon")),
        tie_word_embeddings=False, attention_bias=False, mlp_bias=False,
        bos_token_id=_field(reader, "tokenizer.ggml.bos_token_id"),
        eos_token_id=_field(reader, "tokenizer.ggml.eos_token_id"),
        pad_token_id=_field(reader, "tokenizer.ggml.padding_token_id"), hidden_act="silu",
    )
    state: dict[str, torch.Tensor] = {}
    for t in reader.tensors:
        try:
            name = hf_tensor_name(t.name)
        except ExportError as exc:
            raise ModelFileError(src, str(exc)) from exc
        data = _tensor(t)
        if name.endswith("q_proj.weight"):
            data = unpermute_qk(data, n_head)
        elif name.endswith("k_proj.weight"):
            data = unpermute_qk(data, n_kv)
        state[name] = torch.from_numpy(np.array(data, dtype=np.float32, order="C"))
    expected = {"model.embed_tokens.weight", "model.norm.weight", "lm_head.weight"}
    if missing := sorted(expected - set(state)):
        raise ModelFileError(src, f"lacks the tensors {', '.join(missing)}")
    tmp = out.with_name(out.name + ".tmp")  # written whole, then moved into place
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    config.save_pretrained(tmp)
    save_file(state, str(tmp / "model.safetensors"), metadata={"format": "pt"})
    (tmp / TOKENIZER_FILE).write_text(json.dumps(_tokenizer_json(tokens, types, merges, pre), ensure_ascii=False),
                                      encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return out


def main(argv: list[str] | None = None) -> None:
    """Command line: turn a tiny GGUF into a checkpoint directory (:func:`import_gguf`)."""
    ap = argparse.ArgumentParser(description="Turn a tiny GGUF back into a training checkpoint directory.")
    ap.add_argument("gguf", type=Path, help="a GGUF written by models.export_gguf")
    ap.add_argument("out", type=Path, help="checkpoint directory to write")
    args = ap.parse_args(argv)
    out = import_gguf(args.gguf, args.out)
    print(f"wrote {out} (config.json, model.safetensors, {TOKENIZER_FILE})")


if __name__ == "__main__":
    main()
