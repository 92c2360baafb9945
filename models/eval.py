"""Held-out evaluation of layout policies and of the applicator; writes a run's ``EVAL.md``.

Command::

    python -m models.eval --run runs/tiny --episodes 10          # the report: runs/tiny/EVAL.md

``--run`` is a pipeline run directory (``models.pipeline``) holding
``gguf/{base,sft,grpo}.gguf`` (or, for a pretrained base trained with LoRA,
``gguf/base.gguf`` and the adapters ``gguf/{sft,grpo}.lora.gguf``, which
llama.cpp applies over it) and the SFT/GRPO logs. Test seeds come from
``models.data.SEED_RANGES["test"]`` (never trained on).

**Policy table** — per policy × task, over the held-out episodes: final
composite, instruction fit, *gap closed* ``1 − gap_remaining`` (the
environment's share of the potential gap between the broken start and the
task's clean layout that was closed; 1 = reached the clean layout's quality),
well-formed rate (answers that parse as an action of the schema — what a
grammar guarantees), valid-action rate (answers the environment accepted:
ids exist, nothing locked moved, boxes stay on the canvas …), premature-finalize
rate (episodes ended by a finalize the environment calls premature), how the
episodes ended (a no-op, an answer that was not a valid action, ``finalize``,
or the step limit: shares in that order), steps, and milliseconds per
decision. Policies: random valid actions, the heuristic teacher, the base
model (the untrained ``tiny`` initialisation, grammar-constrained), SFT, GRPO,
GRPO under the runtime grammar (as the ``local`` planner decodes), and GRPO
with verification (best of K by simulation: the greedy answer and sampled
ones until K different edits are in — a repeat is drawn again at a rising
temperature, at most 3K draws —, all under the grammar as ``local --samples K``
decodes; each edit is tried on a copy of the environment and the one with the
highest reward is taken, finalize when none improves), and the same with each
answer also tried with its amounts scaled (``GRPO + verify + tuned amounts``:
``assistant.planners.modelstep.amount_variants``, what the runtime planners do
by default). A greedy model episode
stops when an answer leaves the state unchanged (invalid or no-op): greedy
decoding would repeat it.

**Applicator table** — on held-out plain-language requests (generated from
actions on the test tasks' layouts, ``models.requests``): *edit accuracy* (the
predicted action moves every element to the same box as the target action,
within 0.5 world units, or equals it exactly), exact match, valid rate, and
*collateral damage* (elements the prediction changed that the target did not
change, as a share of all elements the target left alone), and the median
milliseconds per request (the median, so that a few requests stalled by other
work on a shared machine do not decide it).

**Comparisons** — the targets that compare two policies ("SFT beats base",
"GRPO beats SFT", "GRPO + verification ≥ heuristic") pair their episodes
(same task, same seed, so the same broken layout) and give the mean
difference of final composites with a 95 % bootstrap interval; "beats" is met
only when the interval lies above zero (``within noise`` when the mean favours
it but the interval holds zero). Forty-eight episodes tell apart differences of
about 0.015; the greedy stages differ by less. ``more_episodes`` (``--more-episodes``)
plays the greedy stages (base, SFT, GRPO) on that many further held-out seeds
per task, right after the table's, and "SFT beats base" and "GRPO beats SFT"
then pair the table's episodes and those together (the report shows them in
their own table). Every episode's result is written beside the report
(``eval_episodes.jsonl``).
"""

from __future__ import annotations

import argparse
import filecmp
import json
import random
import shutil
import statistics
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from models.data import SEED_RANGES

#: Every evaluated episode (JSON lines), written beside the report.
EPISODES_FILE = "eval_episodes.jsonl"

#: The name of the verified row whose answers' amounts are also tuned by simulation (``GGUFPolicy(tune=True)``).
TUNED_VERIFY = "GRPO + verify + tuned amounts"

#: A stage exported as a GGUF adapter over the run's ``gguf/base.gguf`` (``models.export_lora``).
LORA_SUFFIX = ".lora.gguf"


@dataclass
class EpisodeResult:
    policy: str
    task: str
    seed: int
    composite: float
    fit: float
    gap_closed: float
    answers: int = 0
    parsed: int = 0        # answers that parse as an action of the schema (well-formed)
    valid: int = 0         # answers the environment accepted
    premature: bool = False
    steps: int = 0
    seconds: float = 0.0
    ended: str = ""        # what ended it: one of ENDINGS


#: How an episode can end: an answer that left the layout unchanged, one that was not a valid action,
#: ``finalize``, or the step limit.
ENDINGS = ("no-op", "invalid", "finalize", "step limit")


@dataclass
class PolicyRow:
    policy: str
    task: str
    episodes: int
    composite: float
    fit: float
    gap_closed: float
    valid_rate: float
    premature_rate: float
    wellformed_rate: float
    steps: float
    ms_per_step: float
    details: list[EpisodeResult] = field(default_factory=list, repr=False)
    ended: dict[str, float] = field(default_factory=dict)   # share of episodes per ending (ENDINGS)


def run_episode(policy: Any, task: str, seed: int, *, max_steps: int, ids: str = "plain",
                instruction: bool = True) -> EpisodeResult:
    """One held-out episode of ``policy`` (see the module docstring for the stop rule).

    ``ids``: how the task's elements are named (``assistant.env.tasks.generate_svgs``). Without
    ``instruction`` the task's broken layout comes as a plain document, with the task's metric
    weights and no brief, as ``fix`` meets a file; there is no clean layout to close a gap to, so
    its gap closed is 0.
    """
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task

    env = LayoutEnv(task, max_steps=max_steps)
    t = make_task(task, seed, ids=ids)
    options = {"task": t} if instruction else {"document": t.broken.copy(), "weights": t.weights}
    _, info = env.reset(seed=seed, options=options)
    return play_episode(policy, env, info, task, seed)


def run_file_episode(policy: Any, document: Any, name: str, *, max_steps: int, seed: int = 0) -> EpisodeResult:
    """``policy`` improving one imported file (``assistant.document.Document``) on its own: no brief, the
    default metric weights, the same stop rule as :func:`run_episode`; recorded as task ``name``, ``seed``
    (``models.files``: 0 for the file as it is, above for a perturbed copy).
    A file the model cannot read (its prompt longer than the model's context) ends the episode as an
    invalid answer, the layout unchanged: the planner failed on that file."""
    from models.files import file_env

    env, info = file_env(document, max_steps=max_steps)
    return play_episode(policy, env, info, name, seed, refusals_invalid=True)


def play_episode(policy: Any, env: Any, info: dict[str, Any], task: str, seed: int, *,
                 refusals_invalid: bool = False) -> EpisodeResult:
    """Let ``policy`` act in the freshly reset ``env`` until the episode ends or an answer stops it.

    With ``refusals_invalid`` a model that refuses the prompt (``ValueError``: longer than its context)
    gives an answer that is no action, which ends the episode as invalid.
    """
    from models.policies import Decision

    res = EpisodeResult(policy.name, task, seed, info["composite"], info["instruction_fit"],
                        1.0 - info.get("gap_remaining", 1.0))
    while True:
        try:
            decision = policy.act(env)
        except ValueError as exc:
            if not refusals_invalid:
                raise
            decision = Decision(None, f"no answer: {exc}", 0.0)
        res.answers += 1
        res.parsed += decision.action is not None
        res.seconds += decision.seconds
        _, _, terminated, truncated, info = env.step(decision.action if decision.action is not None else decision.text)
        res.steps += 1
        res.valid += int(bool(info["valid"]))
        res.premature = bool(info.get("premature_finalize"))
        if terminated or truncated or not info["valid"] or info.get("noop"):
            res.ended = ("finalize" if terminated else "invalid" if not info["valid"] else
                         "no-op" if info.get("noop") else "step limit")
            break
    res.composite, res.fit = env.report.composite, env.report.metrics["instruction_fit"].score
    res.gap_closed = 1.0 - info.get("gap_remaining", 1.0)
    return res


def summarise(policy: str, task: str, eps: list[EpisodeResult]) -> PolicyRow:
    answers = sum(e.answers for e in eps)
    return PolicyRow(
        policy=policy, task=task, episodes=len(eps), composite=statistics.fmean(e.composite for e in eps),
        fit=statistics.fmean(e.fit for e in eps), gap_closed=statistics.fmean(e.gap_closed for e in eps),
        valid_rate=sum(e.valid for e in eps) / max(answers, 1),
        premature_rate=sum(e.premature for e in eps) / len(eps),
        wellformed_rate=sum(e.parsed for e in eps) / max(answers, 1), steps=statistics.fmean(e.steps for e in eps),
        ms_per_step=1000 * sum(e.seconds for e in eps) / max(answers, 1), details=eps,
        ended={k: sum(e.ended == k for e in eps) / max(len(eps), 1) for k in ENDINGS})


def evaluate_policies(policies: list[Any], tasks: list[str], episodes: int, *, max_steps: int = 12,
                      ids: str = "plain", first_seed: int | None = None,
                      instruction: bool = True) -> list[PolicyRow]:
    """One row per policy × task plus an ``all`` row per policy (elements named as ``ids`` says;
    without ``instruction`` the tasks come without their briefs, :func:`run_episode`).

    Episode *i* of a task runs seed ``first_seed + i`` (default: the first held-out test seed).
    """
    start = SEED_RANGES["test"][0] if first_seed is None else first_seed
    rows: list[PolicyRow] = []
    for policy in policies:
        all_eps: list[EpisodeResult] = []
        for task in tasks:
            eps = [run_episode(policy, task, start + i, max_steps=max_steps, ids=ids, instruction=instruction)
                   for i in range(episodes)]
            all_eps += eps
            rows.append(summarise(policy.name, task, eps))
            print(json.dumps({k: v for k, v in rows[-1].__dict__.items() if k != "details"}))
        if len(tasks) > 1:
            rows.append(summarise(policy.name, "all", all_eps))
    return rows


# --------------------------------------------------------------------------- applicator
def applicator_cases(tasks: list[str], episodes: int, per_layout: int, seed: int = 0, *,
                     moves: str = "") -> list[dict[str, Any]]:
    """Held-out ``(document, request, target action)`` cases on the test tasks' broken layouts.

    By default the requests are the evaluation's mix of edits (``models.requests.KIND_WEIGHTS``), moves by the
    common distances, drawn exactly as in every earlier report. ``moves="any"`` makes every request a move by
    any distance (``models.requests.move_amounts``), from a random stream of its own."""
    from assistant.env.tasks import make_task
    from models.data import valid_on
    from models.requests import KIND_WEIGHTS, request_for, synth_action

    weights, amounts = None, "common"
    if moves:
        amounts = moves
        weights = {k: float(k == "move") for k in KIND_WEIGHTS}
    rng = random.Random(f"applicator-test:{seed}" + (f":moves-{moves}" if moves else ""))
    start = SEED_RANGES["test"][0]
    cases = []
    for task in tasks:
        for i in range(episodes):
            doc = make_task(task, start + i).broken
            made = 0
            for _ in range(per_layout * 4):
                action = synth_action(doc.layout, rng, weights, amounts)
                if action is None:
                    continue
                request, target = request_for(action, doc.layout, rng)
                if valid_on(doc, target):
                    cases.append({"task": task, "seed": start + i, "document": doc, "request": request,
                                  "target": target})
                    made += 1
                if made >= per_layout:
                    break
    return cases


def _boxes_after(document: Any, action: dict[str, Any]) -> dict[str, Any] | None:
    from assistant.actions import apply_action, parse_action
    from assistant.errors import InvalidAction

    doc = document.copy()
    try:
        apply_action(doc, parse_action(action))
    except InvalidAction:
        return None
    return {e.id: e.box for e in doc.layout.elements}


def _changed(before: dict[str, Any], after: dict[str, Any], tol: float = 0.5) -> set[str]:
    return {i for i, b in before.items() if i in after and max(
        abs(b.x - after[i].x), abs(b.y - after[i].y), abs(b.width - after[i].width),
        abs(b.height - after[i].height)) > tol}


#: why an applicator answer missed, in the order :func:`applicator_breakdown_table` shows them
MISSES: tuple[str, ...] = ("invalid", "other action", "other elements", "other settings")


def _named(action: dict[str, Any]) -> list[str]:
    """The element ids an action names, in order (``ids``, then ``id``, then ``target_id``)."""
    return [*(action.get("ids") or []), *(action[k] for k in ("id", "target_id") if action.get(k))]


def _miss(pred: dict[str, Any], target: dict[str, Any]) -> str:
    """Why the applicable action ``pred`` is not the edit ``target`` asks for (one of :data:`MISSES` but invalid)."""
    if pred.get("type") != target.get("type"):
        return "other action"
    if _named(pred) != _named(target):
        return "other elements"
    return "other settings"


def evaluate_applicator(policy: Any, cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Edit accuracy, exact match, valid rate and collateral damage of ``policy.apply_request``.

    ``by_action`` breaks the requests down by the action they ask for: how many, how many answered right, and
    why the others missed (:data:`MISSES`: no applicable action, another action, the right action on other
    elements — a repeated or neighbouring id —, or the right action and elements with other settings, such as
    an amount)."""
    from assistant.planners.prompting import canonical_action

    acc = exact = valid = 0
    collateral: list[float] = []
    seconds: list[float] = []
    by_action: dict[str, dict[str, int]] = {}
    for case in cases:
        doc = case["document"]
        before = {e.id: e.box for e in doc.layout.elements}
        want = _boxes_after(doc, case["target"])
        pred, _text, secs = policy.apply_request(doc.layout, case["request"])
        seconds.append(secs)
        got = _boxes_after(doc, pred) if pred is not None else None
        tally = by_action.setdefault(str(case["target"].get("type")),
                                     {"cases": 0, "right": 0, **dict.fromkeys(MISSES, 0)})
        tally["cases"] += 1
        if got is None:
            collateral.append(0.0)
            tally["invalid"] += 1
            continue
        valid += 1
        same_action = canonical_action(pred) == canonical_action(case["target"])
        exact += same_action
        want_changed = _changed(before, want) if want is not None else set()
        got_changed = _changed(before, got)
        untouched = [i for i in before if i not in want_changed]
        collateral.append(len(got_changed - want_changed) / max(len(untouched), 1))
        right = same_action or (want is not None and not _changed(want, got) and got_changed == want_changed)
        acc += right
        tally["right" if right else _miss(pred, case["target"])] += 1
    n = max(len(cases), 1)
    return {"policy": policy.name, "cases": len(cases), "edit_accuracy": acc / n, "exact_match": exact / n,
            "valid_rate": valid / n, "collateral_damage": statistics.fmean(collateral) if collateral else 0.0,
            # the median: on a shared machine a few stalled requests would otherwise decide a mean
            "ms_per_request": 1000 * statistics.median(seconds) if seconds else 0.0,
            "by_action": dict(sorted(by_action.items()))}


# --------------------------------------------------------------------------- report
def policy_table(rows: list[PolicyRow]) -> str:
    head = ("| policy | task | episodes | final composite | instruction fit | gap closed | well-formed | valid rate | "
            "premature finalize | ended by no-op / invalid / finalize / step limit | steps | ms/step |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    return head + "\n".join(
        f"| {r.policy} | {r.task} | {r.episodes} | {r.composite:.3f} | {r.fit:.3f} | {r.gap_closed:.2f} | "
        f"{r.wellformed_rate:.0%} | {r.valid_rate:.0%} | {r.premature_rate:.0%} | {endings_text(r.ended)} | "
        f"{r.steps:.1f} | {r.ms_per_step:.0f} |" for r in rows)


def endings_text(ended: dict[str, float]) -> str:
    """``44 / 10 / 8 / 38 %``: the shares of :data:`ENDINGS`, in that order (``–`` when not recorded)."""
    if not ended:
        return "–"
    return " / ".join(f"{100 * ended.get(k, 0.0):.0f}" for k in ENDINGS) + " %"


def applicator_table(results: list[dict[str, Any]]) -> str:
    head = ("| model | held-out requests | edit accuracy | exact match | valid rate | collateral damage | "
            "median ms/request |\n|---|---|---|---|---|---|---|\n")
    return head + "\n".join(
        f"| {r['policy']} | {r['cases']} | {r['edit_accuracy']:.1%} | {r['exact_match']:.1%} | "
        f"{r['valid_rate']:.1%} | {r['collateral_damage']:.2%} | {r['ms_per_request']:.0f} |" for r in results)


def applicator_breakdown_table(results: list[dict[str, Any]]) -> str:
    """Each model's requests by the action they ask for: edit accuracy and why the misses missed.

    Results without a breakdown (reports made before it was measured) are left out; ``""`` when none has one."""
    rows = []
    for r in results:
        for action, t in (r.get("by_action") or {}).items():
            misses = " / ".join(str(t.get(k, 0)) for k in MISSES)
            accuracy = t["right"] / max(t["cases"], 1)
            rows.append(f"| {r['policy']} | {action} | {t['cases']} | {accuracy:.1%} | {misses} |")
    if not rows:
        return ""
    return ("| model | action asked for | requests | edit accuracy | missed: invalid / other action / other elements"
            " / other settings |\n|---|---|---|---|---|\n" + "\n".join(rows))


def targets_section(rows: list[PolicyRow], app: list[dict[str, Any]], sizes: dict[str, float],
                    more: list[PolicyRow] | None = None) -> str:
    """The issue's targets next to the measured numbers (overall rows), met or not.

    ``more``: the greedy stages' rows on further held-out seeds (:func:`evaluate_run`'s ``more_episodes``);
    a comparison of two policies that both have such rows pairs the table's episodes and those together.
    """
    overall = {r.policy: r for r in rows if r.task == "all"} or {r.policy: r for r in rows}
    extra = _overall(more or [])
    get = overall.get
    lines = ["| target | measured | met |", "|---|---|---|"]

    def add(target: str, measured: str, met: bool | str | None) -> None:
        verdict = met if isinstance(met, str) else "yes" if met else "no" if met is not None else "n/a"
        lines.append(f"| {target} | {measured} | {verdict} |")

    def compare(target: str, a: PolicyRow, b: PolicyRow, *, strict: bool) -> None:
        seeds = ""
        if a.policy in extra and b.policy in extra:
            a, b = (summarise(r.policy, "all", r.details + extra[r.policy].details) for r in (a, b))
            seeds = f" (seeds {seed_span(a.details)} of each task)"
        diff = paired_difference(a, b)
        if diff is None:  # no episodes to pair: the means alone
            add(target, versus(a.composite, b.composite),
                a.composite > b.composite if strict else a.composite >= b.composite)
            return
        mean, lo, hi, n = diff
        measured = (f"{versus(a.composite, b.composite)}; 95 % CI of the paired difference {lo:+.4f} … {hi:+.4f}, "
                    f"{n} episodes{seeds}")
        add(target, measured, comparison_verdict(mean, lo, hi, strict=strict))

    base, sft, grpo = get("base (grammar)"), get("SFT"), get("GRPO")
    verify = next((r for k, r in overall.items() if k.startswith("GRPO + verify (")), None)
    tuned = next((r for k, r in overall.items() if k.startswith(TUNED_VERIFY)), None)
    heur = get("heuristic")
    grammar_rows = [r for k, r in overall.items() if k.endswith("(grammar)")]
    for r in grammar_rows:
        add(f"100 % valid actions with the grammar ({r.policy}: well-formed; accepted by the environment "
            f"{r.valid_rate:.0%})", f"{r.wellformed_rate:.0%}", r.wellformed_rate >= 1.0)
    if sft:
        add("≥ 95 % valid without grammar after SFT", f"{sft.valid_rate:.0%}", sft.valid_rate >= 0.95)
    if sft and base:
        compare("SFT beats base (final composite)", sft, base, strict=True)
    if grpo and sft:
        compare("GRPO beats SFT (final composite)", grpo, sft, strict=True)
    if verify and heur:
        compare("GRPO + verification ≥ heuristic (final composite)", verify, heur, strict=False)
    if tuned and heur:
        compare("GRPO + verification, amounts tuned ≥ heuristic (final composite)", tuned, heur, strict=False)
    for r in app:
        add(f"applicator edit accuracy ≥ 90 % ({r['policy']})", f"{r['edit_accuracy']:.1%}", r["edit_accuracy"] >= 0.9)
        add(f"collateral damage ≤ 2 % ({r['policy']})", f"{r['collateral_damage']:.2%}", r["collateral_damage"] <= 0.02)
        add(f"≤ 50 ms per action ({r['policy']}, applicator request, median)", f"{r['ms_per_request']:.0f} ms",
            r["ms_per_request"] <= 50)
    for name, mb in sizes.items():
        add(f"model file ≤ 30 MB ({name})", f"{mb:.1f} MB", mb <= 30)
    return "\n".join(lines)


def _overall(rows: list[PolicyRow]) -> dict[str, PolicyRow]:
    """Each policy's ``all`` row (its only row when the rows cover a single task)."""
    return {r.policy: r for r in rows if r.task == "all"} or {r.policy: r for r in rows}


def seed_span(eps: list[EpisodeResult]) -> str:
    """``"100–163"``: the lowest and highest seed of ``eps`` (``"101"`` when they are one)."""
    seeds = [e.seed for e in eps]
    if not seeds:
        return "none"
    return f"{min(seeds)}–{max(seeds)}" if max(seeds) > min(seeds) else str(seeds[0])


def paired_difference(a: PolicyRow, b: PolicyRow, *, resamples: int = 10_000,
                      seed: int = 0) -> tuple[float, float, float, int] | None:
    """Mean final-composite difference ``a − b`` over the episodes both rows ran, with a 95 % bootstrap interval.

    Episodes are paired by (task, seed): both policies started from the same
    broken layout, so the layout's own difficulty cancels. The interval is
    the 2.5th and 97.5th percentiles of the mean over ``resamples`` resamples
    of the pairs (seeded, so a report is reproducible). ``None`` when the rows
    share no episode. Returns ``(mean, low, high, pairs)``.
    """
    import numpy as np

    theirs = {(e.task, e.seed): e.composite for e in b.details}
    pairs = [e.composite - theirs[(e.task, e.seed)] for e in a.details if (e.task, e.seed) in theirs]
    if not pairs:
        return None
    d = np.asarray(pairs, dtype=float)
    means = d[np.random.default_rng(seed).integers(0, len(d), size=(resamples, len(d)))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(d.mean()), float(lo), float(hi), len(d)


def comparison_verdict(mean: float, lo: float, hi: float, *, strict: bool) -> str:
    """``yes`` / ``no`` / ``within noise`` for "a beats b" (``strict``) or "a reaches b" from a paired difference.

    "Beats" is met when the whole 95 % interval lies above zero, and not met
    when the mean difference is not positive; a positive mean whose interval
    holds zero is ``within noise``. "Reaches" is met when the mean difference
    is not negative, not met when the whole interval lies below zero, and
    ``within noise`` in between.
    """
    if strict:
        return "yes" if lo > 0 else "no" if mean <= 0 else "within noise"
    return "yes" if mean >= 0 else "no" if hi < 0 else "within noise"


def versus(a: float, b: float) -> str:
    """``"0.950 vs 0.949 (+0.0012)"``: two composites and their difference (which the rounding may hide)."""
    return f"{a:.3f} vs {b:.3f} ({a - b:+.4f})"


def _moving_mean(xs: list[float], window: int) -> list[float]:
    """The mean of each value and the ``window - 1`` before it (fewer at the start)."""
    out, total = [], 0.0
    for i, x in enumerate(xs):
        total += x - (xs[i - window] if i >= window else 0.0)
        out.append(total / min(i + 1, window))
    return out


def plot_curves(run: Path, out_dir: Path) -> list[Path]:
    """Loss (SFT) and reward (GRPO) curves as PNGs; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    sft_log, grpo_log = run / "sft" / "log.jsonl", run / "grpo" / "log.jsonl"
    if sft_log.is_file():
        recs = [json.loads(x) for x in sft_log.read_text().splitlines() if x.strip()]
        tr = [r for r in recs if r.get("event") == "train"]
        va = [r for r in recs if r.get("event") == "val"]
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot([r["step"] for r in tr], [r["loss"] for r in tr], label="train loss")
        ax.plot([r["step"] for r in va], [r["val_loss"] for r in va], "o-", label="validation loss")
        ax.set_xlabel("step"), ax.set_ylabel("cross-entropy (completion tokens)"), ax.set_yscale("log")
        ax.legend(), fig.tight_layout()
        written.append(out_dir / "eval_sft_loss.png")
        fig.savefig(written[-1], dpi=100)
        plt.close(fig)
    if grpo_log.is_file():
        every = [json.loads(x) for x in grpo_log.read_text().splitlines() if x.strip()]
        recs = [r for r in every if "event" not in r]  # one per step
        val = [r for r in every if r.get("event") == "val"]
        steps = [r["step"] for r in recs]
        panels = 3 + bool(val)
        fig, axes = plt.subplots(panels, 1, figsize=(6.5, 2.0 * panels), sharex=True)
        reward = [r["reward"] for r in recs]
        axes[0].plot(steps, reward, lw=0.6, alpha=0.5, label="mean reward")
        axes[0].plot(steps, _moving_mean(reward, 10), lw=2, label="10-step mean")
        axes[0].axhline(0, color="grey", lw=0.5), axes[0].set_ylabel("reward"), axes[0].legend(fontsize=8)
        axes[1].plot(steps, [r["valid_rate"] for r in recs], lw=0.8, label="valid rate (sampled)")
        axes[1].plot(steps, [r.get("premature_finalize_rate", 0.0) for r in recs], lw=0.8, label="premature finalize")
        axes[1].set_ylim(-0.02, 1.02), axes[1].set_ylabel("share"), axes[1].legend(fontsize=8)
        axes[2].plot(steps, [r["kl"] for r in recs], lw=0.8, color="tab:green")
        axes[2].set_ylabel("KL to reference")
        if val:
            axes[3].plot([r["step"] for r in val], [r["composite"] for r in val], "o-")
            axes[3].set_ylabel("validation\nfinal composite")
        for a, b in zip(recs, recs[1:]):  # the curriculum opening harder tasks
            if a.get("stage_tasks") != b.get("stage_tasks"):
                for ax in axes:
                    ax.axvline(b["step"], color="grey", ls=":", lw=0.8)
                axes[0].annotate(f"+{', '.join(sorted(set(b.get('stage_tasks') or []) - set(a.get('stage_tasks') or [])))}",
                                 (b["step"], 1), xycoords=("data", "axes fraction"), fontsize=7, va="top")
        axes[-1].set_xlabel("GRPO step"), fig.tight_layout()
        written.append(out_dir / "eval_grpo_reward.png")
        fig.savefig(written[-1], dpi=100)
        plt.close(fig)
    return written


def renamed_comparison(rows: list[PolicyRow]) -> str:
    """A line per verified model row comparing it with the heuristic on the renamed tasks (paired, with its
    interval)."""
    overall = {r.policy: r for r in rows if r.task == "all"}
    heur = overall.get("heuristic")
    lines = []
    for verify in (r for k, r in overall.items() if k.startswith("GRPO + verify")):
        diff = paired_difference(verify, heur) if heur else None
        if diff is None:
            continue
        mean, lo, hi, n = diff
        lines.append(f"{verify.policy} against the heuristic here: {versus(verify.composite, heur.composite)}; "
                     f"95 % CI of the paired difference {lo:+.4f} … {hi:+.4f} over {n} episodes "
                     f"(reaches it: {comparison_verdict(mean, lo, hi, strict=False)}).\n")
    return "\n".join(lines)


def write_episodes(path: Path, rows_by_ids: dict[str, list[PolicyRow]]) -> Path:
    """Every evaluated episode as one JSON line (policy, task, seed, ids, scores, counts), written atomically."""
    lines = [json.dumps({**asdict(e), "ids": ids}) for ids, rows in rows_by_ids.items()
             for r in rows if r.task != "all" for e in r.details]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load_episodes(path: str | Path) -> list[dict[str, Any]]:
    """The episodes :func:`write_episodes` wrote."""
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]


#: Rows an evaluation can take from an earlier one's episodes when their model files are not in the run.
REUSABLE = ("base (grammar)", "SFT")


#: The stages played greedily on further held-out seeds when an evaluation asks for ``more_episodes``.
GREEDY_STAGES = ("base (grammar)", "SFT", "GRPO")


def rows_from_episodes(stored: list[dict[str, Any]], policy: str, tasks: list[str], episodes: int,
                       source: str | Path, first_seed: int | None = None) -> list[PolicyRow]:
    """``policy``'s rows rebuilt from an earlier evaluation's episodes (held-out seeds from ``first_seed``,
    default the first held-out seed; generators' ids).

    Every task must have its ``episodes`` held-out seeds there; ``[]`` when ``policy`` is not there at all.
    """
    start = SEED_RANGES["test"][0] if first_seed is None else first_seed
    names = {f.name for f in fields(EpisodeResult)}
    mine = {(e["task"], e["seed"]): e for e in stored if e["policy"] == policy and e.get("ids", "plain") == "plain"}
    if not mine:
        return []
    rows, all_eps = [], []
    for task in tasks:
        missing = [start + i for i in range(episodes) if (task, start + i) not in mine]
        if missing:
            raise ValueError(f"{source}: no {policy} episode of task {task} with seed {missing[0]} "
                             f"({len(missing)} of its {episodes} held-out seeds missing)")
        eps = [EpisodeResult(**{k: v for k, v in mine[(task, start + i)].items() if k in names})
               for i in range(episodes)]
        all_eps += eps
        rows.append(summarise(policy, task, eps))
    if len(tasks) > 1:
        rows.append(summarise(policy, "all", all_eps))
    return rows


def check_same_scores(stored: list[dict[str, Any]], rows: list[PolicyRow], source: str | Path,
                      policy: str = "heuristic") -> int:
    """Raise unless ``policy``'s episodes run now end as the earlier evaluation recorded them; returns how many
    were compared.

    The heuristic is deterministic, so any difference means the environment, the tasks or the metrics
    changed since: the earlier episodes would then not pair with new ones. Every episode run now that the
    earlier evaluation also played is compared (an earlier report on fewer seeds checks those it has); at
    least one must be there.
    """
    then = {(e["task"], e["seed"]): e for e in stored if e["policy"] == policy and e.get("ids", "plain") == "plain"}
    now = [e for r in rows if r.policy == policy and r.task != "all" for e in r.details if (e.task, e.seed) in then]
    if not now:
        raise ValueError(f"{source}: does not hold the {policy}'s episodes on these held-out seeds to check against")
    for e in now:
        old = then[(e.task, e.seed)]
        if abs(e.composite - old["composite"]) > 1e-9 or e.steps != old["steps"] or e.ended != old["ended"]:
            raise ValueError(f"{source}: the {policy} now ends {e.task} seed {e.seed} at {e.composite:.6f} after "
                             f"{e.steps} steps ({e.ended}), recorded there as {old['composite']:.6f} after "
                             f"{old['steps']} ({old['ended']}): the environment changed, its episodes cannot be "
                             f"paired with new ones")
    return len(now)


def _same_weights(run: Path) -> bool:
    """Whether the GRPO checkpoint the pipeline exports (``grpo/best``, else ``grpo/final``) holds the SFT
    checkpoint's weights byte for byte (GRPO's validation kept the SFT model). The exported GGUF files
    differ anyway: their names."""
    sft = run / "sft" / "best"
    grpo = run / "grpo" / "best" if (run / "grpo" / "best").is_dir() else run / "grpo" / "final"
    a, b = sorted(sft.glob("*.safetensors")), sorted(grpo.glob("*.safetensors"))
    return bool(a) and [p.name for p in a] == [p.name for p in b] and all(
        filecmp.cmp(x, y, shallow=False) for x, y in zip(a, b))


def _as_policy(rows: list[PolicyRow], name: str) -> list[PolicyRow]:
    """``rows`` of one policy under another name (episodes included)."""
    return [replace(r, policy=name, details=[replace(e, policy=name) for e in r.details]) for r in rows]


def evaluate_run(run: str | Path, out: str | Path, *, episodes: int = 10, max_steps: int = 12,
                 verify_samples: int = 4, applicator_per_layout: int = 6, tasks: list[str] | None = None,
                 title: str = "tiny", renamed: bool = True, previous: str | Path | None = None,
                 more_episodes: int = 0) -> dict[str, Any]:
    """Evaluate a pipeline run directory and write the Markdown report ``out``.

    ``more_episodes``: further held-out seeds per task, right after the table's ``episodes``, on which the
    greedy stages (``GREEDY_STAGES``) are played too; "SFT beats base" and "GRPO beats SFT" pair them
    with the table's episodes (a stage reused from ``previous`` joins only when its episodes on those
    seeds are there).

    ``previous``: an earlier report's episodes file (``eval_episodes.jsonl``). The base and SFT rows, when
    their model files are not in ``run`` (a GRPO run started from a shipped model), are taken from it —
    after the heuristic's episodes, run again, have been checked to end exactly as recorded there
    (:func:`check_same_scores`), so that the old episodes pair with the new ones.

    When GRPO's exported model is byte for byte the SFT model (its validation kept the SFT model), the
    GRPO rows are the SFT rows under GRPO's name: decoding is deterministic, so evaluating the same file
    twice would only cost time. ``renamed=False`` leaves out the table of tasks with renamed elements.
    """
    from assistant.env.tasks import task_names
    from models.policies import GGUFPolicy, HeuristicPolicy, RandomPolicy

    run, out = Path(run), Path(out)
    tasks = tasks or task_names()
    more_first = SEED_RANGES["test"][0] + episodes
    if more_episodes < 0 or more_first + more_episodes > SEED_RANGES["test"][1]:
        raise ValueError(f"--episodes {episodes} and --more-episodes {more_episodes} need held-out seeds "
                         f"{SEED_RANGES['test'][0]}–{more_first + more_episodes - 1}; the held-out seeds are "
                         f"{SEED_RANGES['test'][0]}–{SEED_RANGES['test'][1] - 1}")
    gg = run / "gguf"
    policies: list[Any] = [RandomPolicy(), HeuristicPolicy()]
    if (gg / "base.gguf").is_file():
        policies.append(GGUFPolicy(gg / "base.gguf", name="base (grammar)", grammar=True))
    models: dict[str, Any] = {}
    grpo_is_sft = _same_weights(run)
    for stage in ("sft", "grpo"):
        if (gg / f"{stage}.gguf").is_file():
            models[stage] = GGUFPolicy(gg / f"{stage}.gguf", name=stage.upper())
        elif (gg / f"{stage}{LORA_SUFFIX}").is_file():  # a GGUF adapter over base.gguf (pretrained bases)
            models[stage] = GGUFPolicy(gg / "base.gguf", name=stage.upper(), lora=gg / f"{stage}{LORA_SUFFIX}")
        if stage in models and not (stage == "grpo" and grpo_is_sft and "sft" in models):
            policies.append(models[stage])
    copied = grpo_is_sft and "sft" in models and "grpo" in models
    if "grpo" in models:
        policies.append(GGUFPolicy(gg / "grpo.gguf", name="GRPO (grammar)", grammar=True, llm=models["grpo"].llm))
        # as the runtime's ``local`` planner with ``--samples K -O tune=0``: grammar-constrained answers, verified by
        # simulation
        policies.append(GGUFPolicy(gg / "grpo.gguf", name=f"GRPO + verify (K={verify_samples}, grammar)",
                                   samples=verify_samples, grammar=True, llm=models["grpo"].llm))
        # the same, each answer also tried with its amounts scaled, as the runtime planners now choose by default
        policies.append(GGUFPolicy(gg / "grpo.gguf", name=f"{TUNED_VERIFY} (K={verify_samples}, grammar)",
                                   samples=verify_samples, grammar=True, tune=True, llm=models["grpo"].llm))
    rows = evaluate_policies(policies, tasks, episodes, max_steps=max_steps)
    reused: list[str] = []
    if previous is not None:
        stored = load_episodes(previous)
        checked = check_same_scores(stored, rows, previous)
        at = max(i for i, r in enumerate(rows) if r.policy == "heuristic") + 1
        for name in reversed(REUSABLE):
            if not any(p.name == name for p in policies):
                got = rows_from_episodes(stored, name, tasks, episodes, previous)
                rows[at:at] = got
                reused += [name] if got else []
    if copied:
        at = max(i for i, r in enumerate(rows) if r.policy == "SFT") + 1
        rows[at:at] = _as_policy([r for r in rows if r.policy == "SFT"], "GRPO")
    more, more_missing = _more_stage_rows(policies, tasks, more_episodes, more_first, max_steps=max_steps,
                                          copied=copied, previous=previous)
    # the same held-out tasks with their elements named as real files name them (``assistant.env.tasks.ids``)
    renamed_rows = evaluate_policies(
        [p for p in policies if p.name == "heuristic" or p.name.startswith("GRPO")] if renamed else [],
        tasks, episodes, max_steps=max_steps, ids="varied")
    if copied and renamed:  # the plain GRPO policy was left out above; it is the SFT model
        sft_renamed = evaluate_policies([models["sft"]], tasks, episodes, max_steps=max_steps, ids="varied")
        at = sum(1 for r in renamed_rows if r.policy == "heuristic")
        renamed_rows[at:at] = _as_policy(sft_renamed, "GRPO")
    appliers = [p for k, p in models.items() if not (k == "grpo" and copied)]
    if "grpo" in models:  # what ships: the runtime's grammar over the layout's ids and the request's distances
        appliers.append(GGUFPolicy(gg / "grpo.gguf", name="GRPO + grammar", llm=models["grpo"].llm, grammar=True))
    cases = applicator_cases(tasks, episodes, applicator_per_layout)
    moves = applicator_cases(tasks, episodes, applicator_per_layout, moves="any")
    app = [evaluate_applicator(p, cases) for p in appliers]
    any_moves = [evaluate_applicator(p, moves) for p in appliers]
    if copied:
        for results in (app, any_moves):
            results.insert(1, {**next(a for a in results if a["policy"] == "SFT"), "policy": "GRPO"})
    for r in app + any_moves:
        print(json.dumps(r))
    out.parent.mkdir(parents=True, exist_ok=True)
    plots = plot_curves(run, out.parent)
    if "SFT" in reused and not (run / "sft" / "log.jsonl").is_file():  # the earlier report's SFT model, its curve
        earlier = Path(previous).parent / "eval_sft_loss.png"
        if earlier.is_file():
            plots.insert(0, out.parent / earlier.name)
            if earlier.resolve() != plots[0].resolve():
                shutil.copyfile(earlier, plots[0])
    episodes_file = write_episodes(out.parent / EPISODES_FILE, {"plain": rows + more, "varied": renamed_rows})
    sizes = {p.name: f"{p.stat().st_size / 1e6:.1f} MB" for p in sorted(gg.glob("*.gguf"))}
    ship = {p.name: p.stat().st_size / 1e6 for p in sorted(gg.glob("grpo*.gguf"))}
    command = (f"python -m models.eval --run {run} --out {out} --episodes {episodes} --max-steps {max_steps} "
               f"--verify-samples {verify_samples} --requests-per-layout {applicator_per_layout}"
               + (f" --more-episodes {more_episodes}" if more_episodes else "")
               + (f" --previous {previous}" if previous is not None else ""))
    text = [f"# Evaluation — `{title}` run\n",
            f"Held-out test seeds {SEED_RANGES['test'][0]}–{SEED_RANGES['test'][0] + episodes - 1} of tasks "
            f"{', '.join(tasks)} (never trained on; training uses {SEED_RANGES['train'][0]}+), at most "
            f"{max_steps} steps per episode. Model rows run the exported GGUF files with llama.cpp on this "
            f"machine's CPU. Produced by `{command}`; definitions in `models/eval.py`.\n",
            "## Against the targets\n", targets_section(rows, app, ship, more), "",
            "## Policies\n", policy_table(rows), "",
            *(["GRPO's exported model is the SFT model byte for byte (GRPO's validation kept it), so the GRPO "
               "rows repeat the SFT rows.\n"] if copied else []),
            *([f"The {' and '.join(reversed(reused))} rows are the episodes of an earlier evaluation "
               f"(`{previous}`): their model files are not in this run. The heuristic's {checked} episodes, run "
               "again for this report, ended exactly as recorded there (same final composite, steps and ending), "
               "so the environment scores as it did then and those episodes pair with the new ones. Their "
               "applicator rows are not measured again here.\n"] if reused else []),
            *(more_section(more, more_missing, previous) if more_episodes else []),
            "## Elements named as real files name them\n",
            *(["The same held-out tasks with every element renamed in a style drawn per task (`slide-title`, "
               "`headline`, `point-1`, `text1234`; `assistant.env.tasks.ids`): the layouts, briefs and scores are "
               "the same, only the ids differ. A model that learnt the generators' ids instead of reading the "
               "layout loses here.\n",
               policy_table([r for r in renamed_rows if r.task == "all"] or renamed_rows), "",
               renamed_comparison(renamed_rows)] if renamed else
              ["Not run for this report (`eval_renamed` off in the run's configuration).\n"]),
            "## Applicator (plain-language requests → one action)\n",
            *(["\"GRPO + grammar\" decodes as `layout-assistant chat` does: under the grammar over the layout's ids, "
               "a move limited to the distances its request names (`assistant.planners.grammar.request_distances`); "
               "the other rows are the models on their own.\n"] if "grpo" in models else []),
            applicator_table(app) if app else "(no models)",
            *(["", "By the action each request asks for; a miss is an answer that is no applicable action, another "
               "action, the right action on other elements, or the right action and elements with other settings "
               "(an amount, an edge, a region):\n", breakdown] if (breakdown := applicator_breakdown_table(app))
              else []),
            "", "### Moves by any distance\n",
            "Held-out requests that each move one element by any whole distance (1–120 units along one axis, "
            "1–60 along the other of a diagonal move, any direction; `applicator_cases(..., moves=\"any\")`), "
            "on the same layouts: a designer asks for 37 px as readily as for 40.\n",
            applicator_table(any_moves) if any_moves else "(no models)",
            "", f"Model files: {', '.join(f'{k} {v}' for k, v in sizes.items()) or 'none'}. Every episode's "
            f"result, for other comparisons: `{episodes_file}`.\n"]
    text += [f"![{p.stem}]({p.name})" for p in plots]
    out.write_text("\n".join(text) + "\n", encoding="utf-8")
    return {"rows": rows, "renamed": renamed_rows, "applicator": app, "any_moves": any_moves,
            "plots": [str(p) for p in plots], "report": str(out),
            "episodes": str(episodes_file), "more": more}


def _more_stage_rows(policies: list[Any], tasks: list[str], episodes: int, first_seed: int, *, max_steps: int,
                     copied: bool, previous: str | Path | None) -> tuple[list[PolicyRow], list[str]]:
    """The greedy stages' rows on ``episodes`` further held-out seeds from ``first_seed`` (``evaluate_run``'s
    ``more_episodes``), in ``GREEDY_STAGES`` order, and the stages left out: those neither in the run nor,
    on these seeds, in ``previous``."""
    if episodes <= 0:
        return [], []
    played = evaluate_policies([p for p in policies if p.name in GREEDY_STAGES], tasks, episodes,
                               max_steps=max_steps, first_seed=first_seed)
    by_stage = {name: [r for r in played if r.policy == name] for name in GREEDY_STAGES}
    if copied:  # GRPO's model is the SFT model: its episodes are the SFT model's
        by_stage["GRPO"] = _as_policy(by_stage["SFT"], "GRPO")
    stored = load_episodes(previous) if previous is not None else []
    for name in GREEDY_STAGES:
        if not by_stage[name] and stored:
            try:
                by_stage[name] = rows_from_episodes(stored, name, tasks, episodes, previous, first_seed=first_seed)
            except ValueError:  # the earlier evaluation did not play these seeds
                by_stage[name] = []
    missing = [name for name in GREEDY_STAGES if not by_stage[name]]
    return [r for name in GREEDY_STAGES for r in by_stage[name]], missing


def more_section(more: list[PolicyRow], missing: list[str], previous: str | Path | None) -> list[str]:
    """The report's section on the greedy stages' further held-out episodes."""
    if not more:
        return ["## Greedy stages on more held-out episodes\n",
                f"Not measured: none of {', '.join(missing)} has a model file in this run"
                + (f" or episodes on these seeds in `{previous}`" if previous is not None else "") + ".\n"]
    overall = _overall(more)
    first = next(iter(overall.values()))
    text = ["## Greedy stages on more held-out episodes\n",
            f"Each stage decoded greedily as in the table above (the base under the grammar, SFT and GRPO "
            f"without it), on held-out seeds {seed_span(first.details)} of each task ({first.episodes} "
            f"episode{'s' if first.episodes != 1 else ''} a stage). \"SFT beats base\" and \"GRPO beats SFT\" "
            "pair these episodes with the table's.\n",
            policy_table(more), ""]
    if missing:
        text.append(f"Left out: {', '.join(missing)} (no model file in this run"
                    + (f" and no episodes on these seeds in `{previous}`" if previous is not None else "") + ").\n")
    return text


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Evaluate policies and the applicator on held-out seeds.")
    ap.add_argument("--run", default="runs/tiny", help="pipeline run directory")
    ap.add_argument("--out", default=None, help="Markdown report (default: RUN/EVAL.md); episodes and plots beside it")
    ap.add_argument("--episodes", type=int, default=10, help="held-out seeds per task")
    ap.add_argument("--max-steps", type=int, default=12)
    ap.add_argument("--verify-samples", type=int, default=4)
    ap.add_argument("--requests-per-layout", type=int, default=6)
    ap.add_argument("--more-episodes", type=int, default=0,
                    help="further held-out seeds per task on which the greedy stages (base, SFT, GRPO) are "
                         "played and compared as well")
    ap.add_argument("--previous", default=None, metavar="EPISODES",
                    help="an earlier report's eval_episodes.jsonl: the base and SFT rows come from it when their "
                         "model files are not in the run (checked by re-running the heuristic)")
    args = ap.parse_args(argv)
    try:
        evaluate_run(args.run, args.out or Path(args.run) / "EVAL.md", episodes=args.episodes, max_steps=args.max_steps,
                     verify_samples=args.verify_samples, applicator_per_layout=args.requests_per_layout,
                     previous=args.previous, more_episodes=args.more_episodes)
    except (ValueError, OSError) as exc:
        raise SystemExit(f"models.eval: {exc}") from exc


if __name__ == "__main__":
    main()
