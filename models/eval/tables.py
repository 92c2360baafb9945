"""The report's Markdown: policy and applicator tables, the targets met or not, and the sections around them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from models.eval.applicator import MISSES
from models.eval.episodes import ENDINGS, EpisodeResult, PolicyRow, summarise
from models.eval.stats import comparison_verdict, paired_difference

#: The name of the verified row whose answers' amounts are also tuned by simulation (``GGUFPolicy(tune=True)``).
TUNED_VERIFY = "GRPO + verify + tuned amounts"


def policy_table(rows: list[PolicyRow]) -> str:
    """A Markdown table with a line per row: its scores, answer rates, endings, steps and time per step."""
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
    """A Markdown table with a line per applicator model: accuracy, valid rate, damage and time per request."""
    head = ("| model | held-out requests | edit accuracy | exact match | valid rate | collateral damage | "
            "median ms/request |\n|---|---|---|---|---|---|---|\n")
    return head + "\n".join(
        f"| {r['policy']} | {r['cases']} | {r['edit_accuracy']:.1%} | {r['exact_match']:.1%} | "
        f"{r['valid_rate']:.1%} | {r['collateral_damage']:.2%} | {r['ms_per_request']:.0f} |" for r in results)


def applicator_breakdown_table(results: list[dict[str, Any]]) -> str:
    """Each model's requests by the action they ask for: edit accuracy and why the misses missed.

    Results without a breakdown (reports made before it was measured) are left out; ``""`` when none has one.
    """
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


def versus(a: float, b: float) -> str:
    """``"0.950 vs 0.949 (+0.0012)"``: two composites and their difference (which the rounding may hide)."""
    return f"{a:.3f} vs {b:.3f} ({a - b:+.4f})"


def renamed_comparison(rows: list[PolicyRow]) -> str:
    """A line per verified model row comparing it with the heuristic on the renamed tasks.

    Each pairs the two rows' episodes and gives the 95 % interval of the difference; a row with no
    episodes to pair with the heuristic's (or no heuristic row) gets no line.
    """
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
