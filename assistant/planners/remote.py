"""The ``remote`` planner: any OpenAI-compatible chat-completions endpoint, verified by simulation.

``--planner remote --base-url URL --model NAME``; the API key is read from the
environment (:data:`API_KEY_VARS`, first set wins; none is fine for a local
server). Each decision sends the prompt of ``assistant.planners.prompting`` as a system
and a user message (``kind="planner"``) to ``POST {base_url}/chat/completions``
with the action JSON schema (``assistant.planners.grammar.structured_schema``,
specialised to the layout's element ids, the action models' cross-field rules
written as alternatives) as structured output:

* ``structured="json_schema"``: ``response_format = {"type": "json_schema",
  "json_schema": {"name": ..., "schema": ...}}`` (OpenAI's structured outputs);
* ``structured="json_object"``: ``{"type": "json_object", "schema": ...}``
  (llama-cpp-python's server, Anyscale-style JSON mode);
* ``structured="auto"`` (default): the first, switching once to the second when
  the server rejects it with an error that names ``response_format``
  (llama-cpp-python's server answers 500 with a validation error).

K answers with different actions (``samples``) are requested one by one with
seeds (``assistant.planners.modelstep.distinct_answers``: a repeat is drawn
again, at a higher temperature); then ``assistant.planners.modelstep.choose``
validates, simulates and ranks them — with ``tune`` (default) each also with
its amounts scaled, the best version kept; with ``suggestions`` (default) the
fixes the findings suggest are verified beside them.

Failures are retried with exponential backoff — ``backoff · 2^attempt``
seconds, capped at ``max_backoff``, or the server's ``Retry-After`` when it
sends one — up to ``retries`` retries: network errors and timeouts, HTTP 429
and 5xx, a body that is not the chat-completion JSON, and an answer that is
not a valid action (counted invalid; it is asked again with another seed and at
least the sampling temperature, since a seeded server would repeat it word for
word — a server's schema grammar need not keep numbers in range). Then one
``PlannerError`` names the URL
and the last problem. HTTP 401/403 fail at once (no key or a wrong one). The
planner never edits the document (only copies), so a failure leaves it as it
was after the last accepted edit — never half-edited.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from assistant.actions import Action
from assistant.env.observation import observation_text
from assistant.errors import PlannerError
from assistant.planners import register_planner
from assistant.planners.base import PlannerState, Proposal
from assistant.planners.grammar import structured_schema
from assistant.planners.modelstep import (
    ModelStats,
    choose,
    distinct_answers,
    element_ids,
    finding_fixes,
    planner_observation,
    switch,
    validate_answer,
)
from assistant.planners.prompting import SYSTEM_PROMPTS, user_message

#: Environment variables holding the API key, in order of precedence.
API_KEY_VARS = ("LAYOUT_ASSISTANT_API_KEY", "OPENAI_API_KEY")
#: Environment variable with a default base URL.
BASE_URL_VAR = "LAYOUT_ASSISTANT_BASE_URL"
STRUCTURED_MODES = ("auto", "json_schema", "json_object")
_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class _Retry(Exception):
    """A failure worth retrying (the message says what happened)."""

    def __init__(self, problem: str, retry_after: float | None = None, *, switched: bool = False) -> None:
        super().__init__(problem)
        self.retry_after = retry_after
        self.switched = switched  # the request format changed: try again at once, not a failure


def api_key_from_env(env: dict[str, str] | None = None) -> str | None:
    """The first non-empty key among :data:`API_KEY_VARS` (``None`` when none is set)."""
    env = os.environ if env is None else env
    for var in API_KEY_VARS:
        if env.get(var):
            return env[var]
    return None


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class RemotePlanner:
    """OpenAI-compatible chat-completions endpoint with the action schema as structured output."""

    name = "remote"

    def __init__(self, *, base_url: str | None = None, model: str | None = None, samples: int = 1,
                 temperature: float = 0.7, max_tokens: int = 256, timeout: float = 60.0, retries: int = 4,
                 backoff: float = 0.5, max_backoff: float = 8.0, structured: str = "auto",
                 api_key: str | None = None, seed: int = 0, tune: bool = True, suggestions: bool = True,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        base_url = base_url or os.environ.get(BASE_URL_VAR)
        if not base_url:
            raise PlannerError(f"the remote planner needs --base-url URL (or ${BASE_URL_VAR}), "
                               "e.g. http://127.0.0.1:8080/v1")
        if not base_url.startswith(("http://", "https://")):
            raise PlannerError(f"--base-url must start with http:// or https://, got {base_url!r}")
        if not model:
            raise PlannerError("the remote planner needs --model NAME (the model the endpoint serves)")
        if structured not in STRUCTURED_MODES:
            raise PlannerError(f"structured must be one of {STRUCTURED_MODES}, got {structured!r}")
        if samples < 1 or retries < 0 or timeout <= 0:
            raise PlannerError("samples must be >= 1, retries >= 0 and timeout > 0")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = str(model)
        self.samples = int(samples)
        self.temperature = float(temperature)
        self.max_tokens = int(max_tokens)
        self.timeout = float(timeout)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.structured = "json_schema" if structured == "auto" else structured
        self._auto = structured == "auto"
        self.api_key = api_key if api_key is not None else api_key_from_env()
        self.seed = int(seed)
        self.tune = switch("tune", tune)
        self.suggestions = switch("suggestions", suggestions)
        self.sleep = sleep
        self.stats = ModelStats()
        self.attempts = 0

    # -- HTTP -------------------------------------------------------------------
    def _response_format(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.structured == "json_object":
            return {"type": "json_object", "schema": schema}
        return {"type": "json_schema", "json_schema": {"name": "layout_action", "schema": schema}}

    def _post_once(self, client: Any, body: dict[str, Any]) -> str:
        """One request; the answer text, or ``_Retry`` / ``PlannerError``."""
        import httpx

        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        self.attempts += 1
        try:
            resp = client.post(self.url, json=body, headers=headers, timeout=self.timeout)
        except httpx.TimeoutException as exc:
            raise _Retry(f"timed out after {self.timeout:g} s ({type(exc).__name__})") from None
        except httpx.TransportError as exc:
            raise _Retry(f"network error: {exc or type(exc).__name__}") from None
        if resp.status_code in (401, 403):
            raise PlannerError(f"remote planner {self.url}: HTTP {resp.status_code} — set the API key in "
                               f"${API_KEY_VARS[0]} or ${API_KEY_VARS[1]}")
        if (resp.status_code >= 400 and self._auto and "response_format" in resp.text
                and body.get("response_format", {}).get("type") == "json_schema"):
            self.structured = "json_object"  # the server does not know OpenAI's json_schema form
            self._auto = False
            raise _Retry("server rejected response_format json_schema; using json_object", switched=True)
        if resp.status_code in _RETRY_STATUS:
            raise _Retry(f"HTTP {resp.status_code}: {resp.text[:160]!r}",
                         retry_after=_retry_after(resp.headers.get("retry-after")))
        if resp.status_code != 200:
            raise PlannerError(f"remote planner {self.url}: HTTP {resp.status_code}: {resp.text[:300]!r}")
        try:
            content = resp.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise _Retry(f"malformed chat-completion response ({type(exc).__name__}): {resp.text[:160]!r}") from None
        if not isinstance(content, str):
            raise _Retry(f"answer content is not text: {content!r:.160}")
        return content

    def ask(self, messages: list[dict[str, str]], *, ids: Sequence[str] | None, seed: int,
            temperature: float) -> str:
        """One valid action answer (JSON text), retrying with backoff (see the module docstring)."""
        import httpx


        schema = structured_schema(ids)
        problem = "no attempt made"
        with httpx.Client() as client:
            attempt = invalid = 0
            while attempt <= self.retries:
                # an invalid answer is drawn again, not asked for again: another seed, sampled
                body = {"model": self.model, "messages": messages,
                        "temperature": temperature if not invalid else max(temperature, self.temperature),
                        "max_tokens": self.max_tokens, "seed": seed + 7919 * invalid,
                        "response_format": self._response_format(schema)}
                t0 = time.perf_counter()
                wait: float | None = None
                try:
                    text = self._post_once(client, body)
                    if validate_answer(text, self.stats) is not None:
                        return text
                    problem = f"answer is not a valid action: {text[:160]!r}"
                    invalid += 1
                except _Retry as exc:
                    problem = str(exc)
                    wait = exc.retry_after
                    if exc.switched:
                        continue
                    self.stats.errors += 1
                finally:
                    self.stats.seconds += time.perf_counter() - t0
                if attempt < self.retries:
                    delay = min(self.max_backoff, self.backoff * (2 ** attempt))
                    self.sleep(min(self.max_backoff, wait) if wait is not None else delay)
                attempt += 1
        raise PlannerError(f"remote planner {self.url} (model {self.model!r}): gave up after "
                           f"{self.retries + 1} attempts; last problem: {problem}")

    # -- the Planner contract -------------------------------------------------
    def generate(self, system: str, user: str, *, ids: Sequence[str] | None, step: int = 0,
                 samples: int | None = None, deadline: float | None = None) -> list[str]:
        """K valid answers with different actions.

        The first is at temperature 0, the others are sampled from ``temperature``
        up (see ``modelstep.distinct_answers``).
        """
        k = self.samples if samples is None else max(1, int(samples))
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]

        def draw(i: int, temperature: float) -> str:
            return self.ask(messages, ids=ids, seed=self.seed * 100_003 + step * 101 + i, temperature=temperature)

        return distinct_answers(draw, k, self.temperature, deadline=deadline, stats=self.stats)

    def propose_detailed(self, state: PlannerState) -> list[Proposal]:
        """Ranked proposals from the endpoint's verified answers (``[finalize]`` when none improves)."""
        obs = planner_observation(state)
        user = user_message(observation_text(obs), state.instruction or "", kind="planner")
        repeats = self.stats.repeats
        texts = self.generate(SYSTEM_PROMPTS["planner"], user, ids=element_ids(state), step=state.step,
                              deadline=state.deadline)
        # the answers were validated while retrying; choose() counts them again, so undo that (repeats are
        # counted as such, not as answers)
        self.stats.answers -= len(texts) + self.stats.repeats - repeats
        return choose(state, texts, self.stats, source="remote", tune=self.tune,
                      suggested=finding_fixes(obs) if self.suggestions else ())

    def propose(self, state: PlannerState) -> list[Action]:
        """Ranked actions for ``state``."""
        return [p.action for p in self.propose_detailed(state)]


@register_planner("remote")
def make_remote_planner(**options: Any) -> RemotePlanner:
    """OpenAI-compatible endpoint (--base-url URL --model NAME), schema output; answers + suggested fixes simulated."""
    return RemotePlanner(**options)


__all__ = ["RemotePlanner", "make_remote_planner", "api_key_from_env", "API_KEY_VARS", "BASE_URL_VAR"]
