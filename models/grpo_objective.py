"""GRPO's policy side: groups of answers sampled from the model, and the clipped objective they are learnt from.

``sample_group`` draws a group (under the action grammar when given one), ``suggested_completions`` adds the
prompt's own suggested fixes to it, ``token_logprobs`` scores completions under a model (the shared prompt run
once), ``group_advantages`` normalises a group's rewards and ``grpo_loss`` is the clipped surrogate with the KL
penalty to the reference. The loop that uses them: ``models.grpo`` (``python -m models.grpo --help``).
"""

from __future__ import annotations

import json
from typing import Any

import torch

from assistant.errors import InvalidAction
from assistant.planners.prompting import parse_completion
from models.lm import LM


@torch.no_grad()
def sample_group(lm: LM, prompt: str, n: int, *, temperature: float, max_new_tokens: int,
                 generator: torch.Generator | None = None, grammar: Any = None) -> list[list[int]]:
    """``n`` sampled completions (token ids, ending with the newline or eos token when reached).

    ``grammar`` (``models.grammar_mask.GrammarStates`` with ``n`` states): each sample's tokens are drawn
    among those its grammar allows, and it ends where its grammar is complete (the forced end token is not
    appended).
    """
    model = lm.model
    model.eval()
    prompt_ids = lm.encode(prompt, bos=True)
    res = model(input_ids=torch.tensor([prompt_ids], device=lm.device), use_cache=True)
    past, logits = res.past_key_values, res.logits[:, -1].expand(n, -1)
    past.batch_repeat_interleave(n)  # the prompt is run once; its keys and values serve all n samples
    outs: list[list[int]] = [[] for _ in range(n)]
    done = [False] * n
    for _ in range(max_new_tokens):
        if grammar is not None:
            logits = mask_logits(grammar, logits, done)
            if all(done):
                break
        # sampled where the logits are (one copy of n token ids per step, not of n vocabulary-wide rows)
        probs = torch.softmax(logits.float() / max(temperature, 1e-5), dim=-1)
        nxt = torch.multinomial(probs, 1, generator=generator).squeeze(1)
        toks = nxt.tolist()
        for i in range(n):
            if done[i]:
                continue
            tok = toks[i]
            outs[i].append(tok)
            if grammar is not None:
                grammar.accept(i, tok)
            if tok == lm.eos_id or "\n" in lm.decode(outs[i][-1:]):
                done[i] = True
        if all(done):
            break
        res = model(input_ids=nxt.view(n, 1).to(lm.device), past_key_values=past, use_cache=True)
        past, logits = res.past_key_values, res.logits[:, -1]
    return outs


def suggested_completions(lm: LM, env: Any, texts: list[str], limit: int, *, grammar: bool) -> list[list[int]]:
    """Token ids of up to ``limit`` of the fixes ``env``'s prompt suggests that no sampled answer already is.

    ``texts`` are the sampled answers (their first lines); the fixes come in prompt order. Each is the
    canonical completion (``assistant.planners.prompting.format_target``: what SFT trains on) as
    :func:`sample_group` would have returned it — without its end token under the grammar, which ends a
    sample where the action is complete, with ``eos`` otherwise. An answer counts as the same fix when it
    parses to the same canonical action.
    """
    from assistant.planners.modelstep import finding_fixes
    from assistant.planners.prompting import canonical_action, format_target

    def key(text: str) -> str | None:
        try:
            return json.dumps(canonical_action(parse_completion(text)), sort_keys=True)
        except (InvalidAction, ValueError):
            return None

    seen = {key(t) for t in texts}
    out: list[list[int]] = []
    for fix in finding_fixes(env.observation()):
        if len(out) >= limit:
            break
        try:
            target = format_target(fix)
        except (InvalidAction, ValueError):
            continue
        k = key(target)
        if k is None or k in seen:
            continue
        seen.add(k)
        ids = lm.encode(target.rstrip("\n"))
        out.append(ids if grammar else ids + [lm.eos_id])
    return out


def mask_logits(grammar: Any, logits: torch.Tensor, done: list[bool]) -> torch.Tensor:
    """``logits`` with the tokens each unfinished sample's grammar does not allow set to ``-inf``.

    A sample whose grammar is complete is marked done in ``done`` (its row is left as it is: nothing more
    is taken from it).
    """
    rows = logits.float().cpu().numpy()
    masked = logits.clone()
    for i, finished in enumerate(done):
        if finished:
            continue
        allowed = grammar.allowed(i, rows[i])
        if grammar.ended(allowed):
            done[i] = True
            continue
        keep = torch.from_numpy(allowed).to(masked.device)
        masked[i] = masked[i].masked_fill(~keep, float("-inf"))
    return masked


def token_logprobs(model: Any, prompt_ids: list[int], completions: list[list[int]],
                   pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token log-probs of each completion given the prompt ([G, T]) and the token mask.

    The prompt, which all G completions share and which is some thirty times longer than one of them, is run
    once; its keys and values are repeated for the G completions, which are run on top of them. Gradients flow
    through both parts, so this is the same function of the weights as running G full sequences (equal up to
    float rounding: :func:`token_logprobs_full`), at about 1/G of the cost.
    """
    width = max(len(c) for c in completions)
    g = len(completions)
    device = next(model.parameters()).device
    comp = torch.full((g, width), pad_id, dtype=torch.long)
    mask = torch.zeros((g, width), dtype=torch.float32)
    for i, c in enumerate(completions):
        comp[i, :len(c)] = torch.tensor(c)
        mask[i, :len(c)] = 1
    comp, mask = comp.to(device), mask.to(device)
    head = model(input_ids=torch.tensor([prompt_ids], device=device), use_cache=True)
    cache = head.past_key_values
    if cache is None:  # a model that keeps no cache (gradient checkpointing turns it off): whole sequences
        return token_logprobs_full(model, prompt_ids, completions, pad_id)
    cache.batch_repeat_interleave(g)
    first = head.logits[:, -1:].float().expand(g, 1, -1)  # predicts each completion's first token
    if width > 1:
        # the padding is on the right, behind the causal mask: no padding mask (see models.sft.completion_loss)
        rest = model(input_ids=comp[:, :-1], past_key_values=cache, use_cache=True).logits.float()
        logits = torch.cat([first, rest], dim=1)
    else:
        logits = first
    logp = torch.log_softmax(logits, dim=-1).gather(-1, comp.unsqueeze(-1)).squeeze(-1)
    return logp, mask


def token_logprobs_full(model: Any, prompt_ids: list[int], completions: list[list[int]],
                        pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`token_logprobs` by running each whole sequence (prompt + completion): the reference it is tested on."""
    width = max(len(c) for c in completions)
    g = len(completions)
    device = next(model.parameters()).device
    seq = torch.full((g, len(prompt_ids) + width), pad_id, dtype=torch.long)
    mask = torch.zeros((g, width), dtype=torch.float32)
    for i, c in enumerate(completions):
        seq[i, :len(prompt_ids)] = torch.tensor(prompt_ids)
        seq[i, len(prompt_ids):len(prompt_ids) + len(c)] = torch.tensor(c)
        mask[i, :len(c)] = 1
    seq, mask = seq.to(device), mask.to(device)
    logits = model(input_ids=seq).logits[:, len(prompt_ids) - 1:-1].float()
    logp = torch.log_softmax(logits, dim=-1).gather(-1, seq[:, len(prompt_ids):].unsqueeze(-1)).squeeze(-1)
    return logp, mask


def group_advantages(rewards: torch.Tensor, eps: float = 1e-4, *, std_floor: float = 0.0) -> torch.Tensor:
    """GRPO advantages: rewards normalised within their group (zero when all are equal).

    The divisor is the group's standard deviation, or ``std_floor`` when that is larger: a group whose rewards
    differ by less than the floor (a few thousandths of composite between edits that all do about the same)
    gets advantages that small instead of being stretched to unit spread, so it cannot outweigh groups with a
    real choice in them.
    """
    std = rewards.std(unbiased=False)
    if float(std) < 1e-9:
        return torch.zeros_like(rewards)
    return (rewards - rewards.mean()) / (max(float(std), std_floor) + eps)


def grpo_loss(new: torch.Tensor, old: torch.Tensor, ref: torch.Tensor, adv: torch.Tensor, mask: torch.Tensor,
              *, clip_eps: float, kl_coef: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Clipped surrogate + k3 KL penalty, averaged over completion tokens; returns (loss, mean KL).

    ``new``/``old``/``ref``: per-token log-probs [G, T] under the policy being
    trained, the policy that sampled, and the frozen reference; ``adv``: [G].
    """
    ratio = torch.exp(new - old)
    a = adv.to(new.device).unsqueeze(1)
    surrogate = torch.minimum(ratio * a, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * a)
    kl = torch.exp(ref - new) - (ref - new) - 1
    n = mask.sum().clamp(min=1)
    return ((-surrogate + kl_coef * kl) * mask).sum() / n, ((kl * mask).sum() / n).detach()
