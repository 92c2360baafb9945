"""A pipeline run's whole evaluation report: every policy and the applicator on held-out seeds, ``EVAL.md``.

``evaluate_run`` is what ``python -m models.eval --run RUN`` and the pipeline's evaluation stage call.
"""

from __future__ import annotations

import filecmp
import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

from models.data import SEED_RANGES
from models.eval.applicator import applicator_cases, evaluate_applicator
from models.eval.episodes import PolicyRow, evaluate_policies
from models.eval.plots import plot_curves
from models.eval.records import EPISODES_FILE, check_same_scores, load_episodes, rows_from_episodes, write_episodes
from models.eval.tables import (
    TUNED_VERIFY,
    applicator_breakdown_table,
    applicator_table,
    more_section,
    policy_table,
    renamed_comparison,
    targets_section,
)

#: A stage exported as a GGUF adapter over the run's ``gguf/base.gguf`` (``models.export_lora``).
LORA_SUFFIX = ".lora.gguf"


#: Rows an evaluation can take from an earlier one's episodes when their model files are not in the run.
REUSABLE = ("base (grammar)", "SFT")


#: The stages played greedily on further held-out seeds when an evaluation asks for ``more_episodes``.
GREEDY_STAGES = ("base (grammar)", "SFT", "GRPO")


def _same_weights(run: Path) -> bool:
    """Whether the GRPO checkpoint the pipeline exports holds the SFT checkpoint's weights byte for byte.

    The exported checkpoint is ``grpo/best``, else ``grpo/final``; the weights are the same when GRPO's
    validation kept the SFT model. The exported GGUF files differ anyway: their names.
    """
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
            f"machine's CPU. Produced by `{command}`; definitions in `models/eval/`.\n",
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
    """The greedy stages' rows on ``episodes`` further held-out seeds from ``first_seed``, and those left out.

    These are ``evaluate_run``'s ``more_episodes``; the rows come in ``GREEDY_STAGES`` order, and the stages
    left out are those neither in the run nor, on these seeds, in ``previous``.
    """
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
