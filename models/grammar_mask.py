"""The runtime's action grammar as a token mask for sampling from a torch model.

``layout-assistant chat``, the MCP server's local planner and the evaluation
decode under the action grammar (``assistant.planners.grammar``: GBNF from the
action schema, specialised to the layout's element ids), so every answer the
shipped model gives parses and names only elements the layout has. GRPO
samples its groups from the torch model; without the grammar most samples on
a layout with unfamiliar ids name elements it does not have, and a group of
invalid answers teaches little. :class:`GrammarMask` lets the torch sampler
decode under the *same* grammar: llama.cpp's grammar sampler
(``llama_sampler_init_grammar``, over the vocabulary of a GGUF that shares the
model's tokenizer, loaded with ``vocab_only``) is given each step's logits and
marks the tokens the grammar does not allow next with ``-inf``; the sampler
then draws among the rest and tells the grammar which token it took.

A completion ends where the grammar is complete (only end-of-generation
tokens remain allowed); the forced end token is not part of the completion.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

#: llama_token_data as numpy sees it: {int32 id; float logit; float p}.
_TOKEN_DATA = np.dtype([("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])


class GrammarMask:
    """llama.cpp's grammar sampler over the vocabulary of ``vocab_gguf`` (see the module docstring)."""

    def __init__(self, vocab_gguf: str | Path) -> None:
        import llama_cpp

        from assistant.planners.local import check_model_file

        path = check_model_file(vocab_gguf)
        self._llama_cpp = llama_cpp
        self._llm = llama_cpp.Llama(str(path), vocab_only=True, verbose=False)
        self._vocab = self._llm._model.vocab
        self.n_vocab = int(self._llm.n_vocab())
        self.path = path
        self.eog = np.array([bool(llama_cpp.llama_vocab_is_eog(self._vocab, t)) for t in range(self.n_vocab)])

    def start(self, ids: Iterable[str], n: int) -> GrammarStates:
        """``n`` independent grammar states for answers about a layout whose element ids are ``ids``."""
        from assistant.planners.grammar import action_grammar

        grammar = action_grammar(list(ids))
        text, root = grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        samplers = [self._llama_cpp.llama_sampler_init_grammar(self._vocab, text, root) for _ in range(n)]
        if any(not s for s in samplers):
            for s in samplers:
                if s:
                    self._llama_cpp.llama_sampler_free(s)
            raise RuntimeError("llama.cpp could not compile the action grammar")
        return GrammarStates(self, samplers)


class GrammarStates:
    """One grammar state per sample; free them with :meth:`close` (or use as a context manager)."""

    def __init__(self, mask: GrammarMask, samplers: list[Any]) -> None:
        self.mask = mask
        self.samplers = samplers
        self._buf = np.zeros(mask.n_vocab, dtype=_TOKEN_DATA)
        self._buf["id"] = np.arange(mask.n_vocab, dtype=np.int32)

    def __enter__(self) -> GrammarStates:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def allowed(self, i: int, logits: np.ndarray) -> np.ndarray:
        """Which tokens the grammar of sample ``i`` allows next (a bool array over the vocabulary).

        ``logits`` is the model's row for that sample (only its first ``n_vocab`` entries are the GGUF's
        tokens; a wider row's extra entries are never allowed).
        """
        lc = self.mask._llama_cpp
        n = self.mask.n_vocab
        self._buf["logit"] = np.asarray(logits[:n], dtype=np.float32)
        self._buf["p"] = 0.0
        arr = lc.llama_token_data_array(
            data=self._buf.ctypes.data_as(ctypes.POINTER(lc.llama_token_data)), size=n, selected=-1, sorted=False)
        lc.llama_sampler_apply(self.samplers[i], ctypes.byref(arr))
        if arr.size != n:  # the grammar sampler masks in place; it never drops candidates
            raise RuntimeError("llama.cpp's grammar sampler changed the candidate list")
        out = np.zeros(len(logits), dtype=bool)
        out[self._buf["id"]] = np.isfinite(self._buf["logit"])
        return out

    def accept(self, i: int, token: int) -> None:
        """Advance sample ``i``'s grammar past ``token`` (one the grammar allowed)."""
        self.mask._llama_cpp.llama_sampler_accept(self.samplers[i], int(token))

    def ended(self, allowed: np.ndarray) -> bool:
        """Whether the grammar is complete: only end-of-generation tokens are allowed."""
        n = self.mask.n_vocab
        return bool(allowed[:n][~self.mask.eog].sum() == 0)

    def close(self) -> None:
        """Free every sample's llama.cpp grammar sampler; the states are unusable afterwards."""
        for s in self.samplers:
            self.mask._llama_cpp.llama_sampler_free(s)
        self.samplers = []


def vocab_gguf_for(lm: Any, out_dir: str | Path) -> Path:
    """A GGUF whose vocabulary is ``lm``'s.

    That is the base's own GGUF for a pretrained base read from one (``models.lm.base_gguf``), else the model
    exported to ``out_dir/vocab.gguf`` (a tiny model: a couple of megabytes, written once per run).
    """
    base = str(lm.meta.get("base", ""))
    if lm.kind == "hf":
        from models.lm import base_gguf

        named = base_gguf(base) if base else None
        if named is not None:
            return named
    if lm.kind != "tiny":
        raise ValueError("GRPO under the grammar needs grammar_vocab: a GGUF with this model's tokenizer "
                         f"(the model is {base or 'a Hugging Face model'})")
    from models.export_gguf import export_gguf

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / "vocab-checkpoint"
    lm.save(ckpt)
    target = out / "vocab.gguf"
    export_gguf(ckpt, target)
    return target
