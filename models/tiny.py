"""The ``tiny`` base: a byte-level BPE tokenizer trained on our data and a small Llama.

Both are made from scratch so the bundled applicator is small (a few MB as GGUF),
fast on two CPU cores and free of any third-party weights or licences.

Tokenizer
    Byte-level BPE (``tokenizers`` library) with the GPT-2 pre-tokenizer regex,
    so llama.cpp tokenizes exactly the same way (GGUF ``tokenizer.ggml.pre =
    "gpt-2"``). ``pre="starcoder"`` first splits numbers into single digits
    (as StarCoder's and SmolLM's tokenizers do; llama.cpp's ``"starcoder"``), so
    a number reads the same in a request (" 37px left") and in the answer
    (``"dx": -37``); :func:`pre_tokenizer_kind` tells them apart.
    Special tokens: ``<|bos|>`` (0), ``<|eos|>`` (1), ``<|pad|>`` (2).
    Every sequence starts with ``<|bos|>``; a completion ends with ``<|eos|>``.

Model
    ``transformers.LlamaForCausalLM`` (RMSNorm, SwiGLU MLP, rotary positions),
    untied input/output embeddings, sized by :class:`TinyConfig`.

A checkpoint is a directory holding ``config.json`` + ``model.safetensors``
(``save_pretrained``) and ``tokenizer.json``; :func:`load_checkpoint` reads it back
and ``models.export_gguf`` converts it.

Try it::

    python -m models.tiny --help
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
from tokenizers import Tokenizer, decoders, pre_tokenizers, trainers
from tokenizers import models as tok_models
from transformers import LlamaConfig, LlamaForCausalLM

BOS, EOS, PAD = "<|bos|>", "<|eos|>", "<|pad|>"
SPECIAL_TOKENS: tuple[str, ...] = (BOS, EOS, PAD)
TOKENIZER_FILE = "tokenizer.json"


@dataclass
class TinyConfig:
    """Size of the tiny Llama. Defaults: ~4 M parameters, ~8 MB as F16 GGUF."""

    vocab_size: int = 2048          # tokenizer vocabulary (byte alphabet + merges + specials)
    hidden_size: int = 256          # model width
    num_layers: int = 4             # transformer blocks
    num_heads: int = 4              # attention heads (head dim = hidden / heads)
    num_kv_heads: int = 4           # key/value heads (< num_heads = grouped-query attention)
    intermediate_size: int = 688    # SwiGLU hidden width (~2.7 x hidden, as in Llama)
    max_positions: int = 1536       # context length in tokens
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-5


# --------------------------------------------------------------------------- tokenizer
#: pre-tokenizers a tiny tokenizer may use, by their GGUF ``tokenizer.ggml.pre`` name
PRE_TOKENIZERS: tuple[str, ...] = ("gpt-2", "starcoder")
_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}


def pre_tokenizer_json(kind: str) -> dict[str, Any]:
    """The ``tokenizers`` JSON of the pre-tokenizer that llama.cpp calls ``kind``.

    ``kind`` is one of :data:`PRE_TOKENIZERS`: the GPT-2 regex, after single digits are split off for
    ``starcoder``.
    """
    if kind == "gpt-2":
        return dict(_BYTE_LEVEL)
    if kind == "starcoder":
        return {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, _BYTE_LEVEL]}
    raise ValueError(f"unknown pre-tokenizer {kind!r} (known: {', '.join(PRE_TOKENIZERS)})")


def pre_tokenizer_kind(tokenizer_json: dict[str, Any]) -> str:
    """Which of :data:`PRE_TOKENIZERS` a tokenizer's JSON uses.

    Raises ``ValueError`` for any other: llama.cpp would split its text differently.
    """
    pre = tokenizer_json.get("pre_tokenizer") or {}

    def gpt2(step: dict[str, Any]) -> bool:
        return step.get("type") == "ByteLevel" and step.get("use_regex", True) and not step.get("add_prefix_space")

    steps = pre.get("pretokenizers") or []
    if gpt2(pre):
        return "gpt-2"
    if (pre.get("type") == "Sequence" and len(steps) == 2 and steps[0].get("type") == "Digits"
            and steps[0].get("individual_digits") and gpt2(steps[1])):
        return "starcoder"
    raise ValueError(f"pre-tokenizer {json.dumps(pre)[:200]} is neither of {', '.join(PRE_TOKENIZERS)}: "
                     "llama.cpp would split text differently")


def train_tokenizer(texts: Iterable[str], vocab_size: int, *, min_frequency: int = 2,
                    pre: str = "gpt-2") -> Tokenizer:
    """Train a byte-level BPE tokenizer on ``texts`` (deterministic for the same input).

    ``pre`` is the pre-tokenizer (:data:`PRE_TOKENIZERS`): ``starcoder`` splits numbers into single digits.
    """
    tok = Tokenizer(tok_models.BPE())
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    if pre == "gpt-2":
        tok.pre_tokenizer = byte_level
    elif pre == "starcoder":
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), byte_level])
    else:
        raise ValueError(f"unknown pre-tokenizer {pre!r} (known: {', '.join(PRE_TOKENIZERS)})")
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    tok.train_from_iterator(list(texts), trainer)
    return tok


class TextCodec:
    """Encode/decode with a trained tokenizer; knows the special token ids."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self.bos_id = self._special(BOS)
        self.eos_id = self._special(EOS)
        self.pad_id = self._special(PAD)

    def _special(self, token: str) -> int:
        idx = self.tokenizer.token_to_id(token)
        if idx is None:
            raise ValueError(f"tokenizer lacks the special token {token}")
        return idx

    @property
    def vocab_size(self) -> int:
        """The number of tokens in the vocabulary, special tokens included."""
        return self.tokenizer.get_vocab_size()

    def encode(self, text: str, *, bos: bool = False) -> list[int]:
        """Token ids of ``text`` (special-token strings in the text are not special)."""
        ids = self.tokenizer.encode(text, add_special_tokens=False).ids
        return [self.bos_id, *ids] if bos else ids

    def decode(self, ids: Sequence[int]) -> str:
        """The text of the token ids ``ids``, special tokens left out."""
        return self.tokenizer.decode(list(ids), skip_special_tokens=True)

    @classmethod
    def load(cls, path: str | Path) -> TextCodec:
        """The codec of a ``tokenizers`` JSON file, or of a checkpoint directory's ``TOKENIZER_FILE``."""
        path = Path(path)
        if path.is_dir():
            path = path / TOKENIZER_FILE
        return cls(Tokenizer.from_file(str(path)))


# --------------------------------------------------------------------------- model
def make_model(cfg: TinyConfig, codec: TextCodec, *, seed: int = 0) -> LlamaForCausalLM:
    """A freshly initialised tiny Llama for ``codec``'s vocabulary."""
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=codec.vocab_size, hidden_size=cfg.hidden_size,
        intermediate_size=cfg.intermediate_size, num_hidden_layers=cfg.num_layers,
        num_attention_heads=cfg.num_heads, num_key_value_heads=cfg.num_kv_heads,
        max_position_embeddings=cfg.max_positions, rope_theta=cfg.rope_theta,
        rms_norm_eps=cfg.rms_norm_eps, tie_word_embeddings=False, attention_bias=False,
        mlp_bias=False, bos_token_id=codec.bos_id, eos_token_id=codec.eos_id,
        pad_token_id=codec.pad_id, hidden_act="silu",
    )
    return LlamaForCausalLM(config)


def save_checkpoint(model: LlamaForCausalLM, codec: TextCodec, out_dir: str | Path) -> Path:
    """Write ``config.json``, ``model.safetensors`` and ``tokenizer.json`` into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out, safe_serialization=True)
    codec.tokenizer.save(str(out / TOKENIZER_FILE))
    return out


def load_checkpoint(path: str | Path) -> tuple[LlamaForCausalLM, TextCodec]:
    """Load a checkpoint directory written by :func:`save_checkpoint` (eval mode, float32)."""
    model = LlamaForCausalLM.from_pretrained(Path(path), dtype=torch.float32)
    model.eval()
    return model, TextCodec.load(path)


@torch.no_grad()
def greedy_generate(model: LlamaForCausalLM, codec: TextCodec, prompt: str, *,
                    max_new_tokens: int = 96, stop: str | None = "\n") -> tuple[list[int], str]:
    """Greedy decoding from ``<|bos|>`` + ``prompt``; stops at ``<|eos|>`` or ``stop`` in the text.

    Returns the generated token ids (the stop/eos token excluded only for eos)
    and their decoded text cut before ``stop``.
    """
    ids = torch.tensor([codec.encode(prompt, bos=True)])
    out: list[int] = []
    past = None
    step_input = ids
    for _ in range(max_new_tokens):
        res = model(input_ids=step_input, past_key_values=past, use_cache=True)
        past = res.past_key_values
        nxt = int(res.logits[0, -1].argmax())
        if nxt == codec.eos_id:
            break
        out.append(nxt)
        text = codec.decode(out)
        if stop is not None and stop in text:
            return out, text.split(stop, 1)[0]
        step_input = torch.tensor([[nxt]])
    return out, codec.decode(out)


def parameter_count(model: torch.nn.Module) -> int:
    """The number of parameters of ``model``."""
    return sum(p.numel() for p in model.parameters())


def main(argv: list[str] | None = None) -> None:
    """Print the parameter count of a tiny config (a quick sizing aid)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, value in asdict(TinyConfig()).items():
        ap.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    args = ap.parse_args(argv)
    cfg = TinyConfig(**{k: getattr(args, k) for k in asdict(TinyConfig())})
    tok = train_tokenizer(["hello world"], 300)
    model = make_model(cfg, TextCodec(tok))
    model.resize_token_embeddings(cfg.vocab_size)
    n = parameter_count(model)
    print(f"{cfg}\nparameters: {n:,}  (~{2 * n / 1e6:.1f} MB as F16, ~{1.07 * n / 1e6:.1f} MB as Q8_0)")


if __name__ == "__main__":
    main()
