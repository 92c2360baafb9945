"""Policies the evaluation compares: random, heuristic, and GGUF models run by llama.cpp.

Every policy answers ``act(env) -> Decision`` for a ``LayoutEnv`` in progress.
Model policies run the exported GGUF through llama-cpp-python — the artefact
that ships — with the shared prompt format (``assistant.planners.prompting``); with
``grammar=True`` decoding is constrained by the runtime's grammar
(``assistant.planners.grammar``: generated from the action JSON schema,
specialised to the layout's element ids, bounded strings and numbers), so every
answer parses, exactly as ``layout-assistant chat`` and the MCP server decode. With
``samples=K`` (verification) the policy draws K candidates with different
actions (greedy + sampled, repeats drawn again at a rising temperature — the
runtime's ``assistant.planners.modelstep.distinct_answers``), simulates each in
a deep copy of the environment and keeps the one with the highest step reward,
answering ``finalize`` when none improves; with ``suggestions`` the fixes the
observation's findings suggest are verified beside the answers, as the runtime
planners' ``suggestions`` option does. With ``tune`` each answer is also
simulated with its amounts scaled (``assistant.planners.modelstep.amount_variants``,
as the runtime planners do by default) and counts with its best version; with
``tune`` and one sample the greedy answer is verified and tuned alike.
"""

from __future__ import annotations

import copy
import json
import random
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.errors import InvalidAction, ModelFileError
from assistant.planners.grammar import within_grammar
from assistant.planners.local import (
    LAZY_GRAMMAR_VOCAB,
    check_adapter_applied,
    fit_applicator_prompt,
    fit_planner_prompt,
    no_weight_repacking,
)
from assistant.planners.modelstep import finding_fixes
from assistant.planners.prompting import STOP_SEQUENCES, parse_completion


@dataclass
class Decision:
    """One policy answer: the action (None when the answer was not a valid action) and its cost."""

    action: dict[str, Any] | None
    text: str
    seconds: float


class RandomPolicy:
    """Uniformly random *valid* edits (``models.requests.synth_action``), finalize with probability 1/12."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, env: Any) -> Decision:
        """``finalize`` one time in twelve, else a random edit valid at ``env``'s state (at most 20 draws)."""
        from models.data import valid_on
        from models.requests import synth_action

        t0 = time.perf_counter()
        if self.rng.random() < 1 / 12:
            return Decision({"type": "finalize"}, "", time.perf_counter() - t0)
        for _ in range(20):
            action = synth_action(env.document.layout, self.rng)
            if action is not None and valid_on(env.document, action):
                return Decision(action, json.dumps(action), time.perf_counter() - t0)
        return Decision({"type": "finalize"}, "", time.perf_counter() - t0)


class HeuristicPolicy:
    """The heuristic planner's top proposal (the teacher)."""

    name = "heuristic"

    def __init__(self) -> None:
        from assistant.planners import get_planner

        self.planner = get_planner("heuristic")

    def act(self, env: Any) -> Decision:
        """The heuristic planner's first proposal at ``env``'s state; ``finalize`` when it proposes nothing."""
        from assistant.planners.base import PlannerState

        t0 = time.perf_counter()
        state = PlannerState(document=env.document, report=env.report, constraints=env.constraints,
                             weights=getattr(env, "_weights", None), instruction=env.instruction,
                             max_steps=env.max_steps, deadline=time.monotonic() + 20.0)
        proposals = self.planner.propose(state)
        action = proposals[0] if proposals else {"type": "finalize"}
        dump = action.model_dump(mode="json", exclude_none=True) if hasattr(action, "model_dump") else dict(action)
        return Decision(dump, json.dumps(dump), time.perf_counter() - t0)


def best_fix(env: Any) -> tuple[float, dict[str, Any] | None]:
    """``(step reward, fix)`` of the suggested fix (:func:`finding_fixes`) that gains most.

    Each fix is simulated in a copy of ``env``; ``(0.0, None)`` when none is valid and improves the layout.
    """
    best_gain, best = 0.0, None
    for fix in finding_fixes(env.observation()):
        _, reward, _, _, info = copy.deepcopy(env).step(fix)
        if info["valid"] and not info.get("noop") and reward > best_gain:
            best_gain, best = reward, fix
    return best_gain, best


class FixesPolicy:
    """The best of the fixes the prompt's findings suggest, by simulation; ``finalize`` when none improves.

    A baseline for the model planners: what copying a suggestion from the prompt, and nothing else, reaches
    (``models.experiments.compare fixes …``).
    """

    name = "fixes"

    def act(self, env: Any) -> Decision:
        """The suggested fix that gains most at ``env``'s state (:func:`best_fix`); ``finalize`` when none does."""
        t0 = time.perf_counter()
        fix = best_fix(env)[1] or {"type": "finalize"}
        return Decision(fix, json.dumps(fix), time.perf_counter() - t0)


class LookaheadPolicy:
    """The heuristic's action, or a fix the prompt itself suggests when that does at least as well.

    The observation a model reads lists its findings, each with a suggested
    fix (``fix: {"type":"move",…}``). The heuristic's edit is often none of
    them, and a small model does not learn to compute it for a layout it has
    not seen; copying a fix from the prompt would not depend on the layout. So
    this teacher simulates the heuristic's action and every suggested fix one
    step ahead (in a copy of the environment) and labels the state with the
    fix that gains most when it gains at least as much as the heuristic's
    action, the heuristic's action otherwise (``finalize`` included).
    ``copied`` counts the labels that are a suggested fix. Trained on, it did
    not teach the bundled tiny model to copy (run tiny27, ``docs/experiments.md``).
    """

    name = "lookahead"

    def __init__(self) -> None:
        self.heuristic = HeuristicPolicy()
        self.copied = 0

    def act(self, env: Any) -> Decision:
        """The label of ``env``'s state: the best suggested fix or the heuristic's action, as the class says."""
        t0 = time.perf_counter()
        want = self.heuristic.act(env).action or {"type": "finalize"}
        best_gain, best = best_fix(env)
        if best is not None:
            bar = 0.0
            if want.get("type") != "finalize":
                _, bar, _, _, info = copy.deepcopy(env).step(want)
                bar = bar if info["valid"] else float("-inf")
            if best_gain >= bar:
                self.copied += 1
                want = best
        return Decision(want, json.dumps(want), time.perf_counter() - t0)


def load_llama(path: str | Path, *, n_ctx: int = 2048, threads: int = 1, repack: bool = False,
               lora: str | Path | None = None) -> Any:
    """A llama.cpp model for ``path`` (clear error when the file is missing or unreadable).

    ``repack=False`` (default) disables llama.cpp's weight repacking, see
    :func:`assistant.planners.local.no_weight_repacking`. ``lora`` is a GGUF adapter (``models.export_lora``)
    applied over the model at scale 1.
    """
    import llama_cpp

    p = Path(path)
    for f in (p, Path(lora) if lora else None):
        if f is not None and not f.is_file():
            raise ModelFileError(f, "model file not found")
    try:
        with (nullcontext() if repack else no_weight_repacking()):
            llm = llama_cpp.Llama(model_path=str(p), n_ctx=n_ctx, n_threads=threads, n_batch=512,
                                  verbose=False, seed=0, lora_path=str(lora) if lora else None)
    except (ValueError, RuntimeError) as exc:
        raise ModelFileError(Path(lora) if lora else p, f"llama.cpp could not load it: {exc}") from None
    if lora:
        check_adapter_applied(llm, lora, p)
    return llm


class GGUFPolicy:
    """A GGUF model run by llama.cpp, as planner (``kind="planner"``) or applicator."""

    def __init__(self, path: str | Path, *, name: str, grammar: bool = False, samples: int = 1,
                 temperature: float = 0.8, max_tokens: int = 96, seed: int = 0, llm: Any = None,
                 lora: str | Path | None = None, tune: bool = False, suggestions: bool = False,
                 free_distances: bool = False) -> None:
        self.name = name
        #: under the grammar, leave a requested move's distance to the model (the runtime limits it to the
        #: distances the request names; ``grammar.request_distances``)
        self.free_distances = free_distances
        self.tune = tune
        self.suggestions = suggestions
        self.llm = llm or load_llama(path, lora=lora)
        self.grammar = grammar
        # as the runtime's local planner: a large vocabulary answers without the grammar first
        self.lazy_grammar = int(self.llm.n_vocab()) >= LAZY_GRAMMAR_VOCAB
        self.samples = samples
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.seed = seed

    def _decoding(self, layout: Any, request: str | None = None) -> dict[str, Any]:
        """Grammar settings for ``layout``; nothing without ``grammar``.

        The settings are the runtime's grammar over the layout's element ids (as chat and the MCP server
        decode) — for a ``request``, with a move's distances limited to those it names, as chat decodes — and
        room for its longest answer.
        """
        if not self.grammar:
            return {}
        from assistant.planners.grammar import action_grammar, answer_token_bound, request_distances
        from assistant.planners.modelstep import element_ids

        ids = element_ids(layout)
        distances = (None if request is None or self.free_distances
                     else request_distances(request, layout.canvas.px_per_unit))
        return {"grammar": action_grammar(ids, distances),
                "max_tokens": max(self.max_tokens, answer_token_bound(ids)), "ids": ids, "distances": distances}

    def complete(self, prompt: str, *, temperature: float = 0.0, seed: int = 0, grammar: Any = None,
                 max_tokens: int | None = None, ids: list[str] | None = None,
                 distances: dict[str, tuple[int, ...]] | None = None) -> str:
        """One answer; under ``grammar`` (decoded lazily for a large vocabulary, as ``LocalPlanner.complete``)."""
        if grammar is not None and self.lazy_grammar:
            text = self._create(prompt, temperature=temperature, seed=seed, grammar=None, max_tokens=None)
            if within_grammar(text, ids, distances):
                return text
        return self._create(prompt, temperature=temperature, seed=seed, grammar=grammar, max_tokens=max_tokens)

    def _create(self, prompt: str, *, temperature: float, seed: int, grammar: Any, max_tokens: int | None) -> str:
        res = self.llm.create_completion(
            prompt, max_tokens=max_tokens or self.max_tokens, temperature=temperature,
            top_k=1 if temperature <= 0 else 0, top_p=1.0, min_p=0.0, repeat_penalty=1.0, stop=list(STOP_SEQUENCES),
            grammar=grammar, seed=seed)
        return res["choices"][0]["text"]

    def answer(self, prompt: str, **decoding: Any) -> tuple[dict[str, Any] | None, str]:
        """One answer to ``prompt`` (:meth:`complete`), parsed as an action (``None`` when it is none), and its text."""
        text = self.complete(prompt, **decoding)
        try:
            return parse_completion(text), text
        except InvalidAction:
            return None, text

    def act(self, env: Any) -> Decision:
        """The model's planner answer at ``env``'s state.

        With one sample and neither ``tune`` nor ``suggestions`` it is the greedy answer. Otherwise ``samples``
        different answers (plus, with ``suggestions``, the fixes the prompt suggests; with ``tune``, each
        edit's amount variants) are simulated in copies of ``env`` and the valid edit with the highest step
        reward above 0 is chosen; ``finalize`` when none improves the layout.
        """
        t0 = time.perf_counter()
        prompt = fit_planner_prompt(self.llm, env.observation(), env.instruction or "")
        if self.samples <= 1 and not self.tune and not self.suggestions:
            action, text = self.answer(prompt, **self._decoding(env.document.layout))
            return Decision(action, text, time.perf_counter() - t0)
        from assistant.planners.modelstep import amount_variants, distinct_answers

        decoding = self._decoding(env.document.layout)
        step = int(env.observation()["step"])

        def draw(i: int, temperature: float) -> str:
            return self.complete(prompt, temperature=temperature, **decoding, seed=self.seed * 100_003 + step * 101 + i)

        best: tuple[float, dict[str, Any] | None, str] = (0.0, None, "")
        texts = distinct_answers(draw, self.samples, self.temperature)
        if self.suggestions:
            texts += [json.dumps(fix) for fix in finding_fixes(env.observation())]
        for text in texts:
            try:
                action = parse_completion(text)
            except InvalidAction:
                continue
            if action.get("type") == "finalize":
                continue
            for form in [action, *(amount_variants(action) if self.tune else [])]:
                _, reward, _, _, info = copy.deepcopy(env).step(form)
                if info["valid"] and reward > best[0]:
                    best = (reward, form, text if form is action else json.dumps(form))
        action = best[1] or {"type": "finalize"}
        return Decision(action, best[2] or json.dumps(action), time.perf_counter() - t0)

    def apply_request(self, layout: Any, request: str) -> tuple[dict[str, Any] | None, str, float]:
        """Applicator use: the action for ``request`` on ``layout``, the raw text and seconds taken."""
        t0 = time.perf_counter()
        action, text = self.answer(fit_applicator_prompt(self.llm, layout, request),
                                   **self._decoding(layout, request))
        return action, text, time.perf_counter() - t0
