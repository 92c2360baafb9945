r"""Compare planners on many held-out episodes, paired, with 95 % intervals.

Command (the GRPO stage of a run against its SFT stage, on 32 held-out seeds
per task after the 8 that the evaluation report plays)::

    python -m models.experiments.compare grpo=runs/tiny29/gguf/grpo.gguf sft=runs/tiny29/gguf/sft.gguf \
        --episodes 32 --first-seed 108 --max-steps 6 --out runs/tiny29/compare/COMPARE.md

``models.eval`` writes the full report of one run on a few seeds per task;
this answers one question on more of them: is planner A better than planner
B, beyond the noise of which layouts were drawn? Every planner plays the same
episodes (task × seed, so the same broken layout and brief) greedily, as the
evaluation plays them (``models.eval.episodes.run_episode``); each pair of planners,
in the order given, gets the mean difference of final composites over the
paired episodes, a 95 % bootstrap interval (``models.eval.stats.paired_difference``)
and how many episodes went each way. "Beats" is met only when the interval
lies above zero; under ``MIN_PAIRS`` paired episodes there is no verdict.

A planner is ``NAME=MODEL.gguf`` (llama.cpp), ``NAME=BASE.gguf+ADAPTER.gguf``
(a GGUF LoRA adapter over its base), ``heuristic`` (the teacher),
``fixes`` (the best of the fixes the prompt's findings suggest, by simulation:
what copying a suggestion, and nothing else, reaches) or ``random``. ``--grammar`` decodes under the
runtime's action grammar,
``--samples K`` verifies K different answers by simulation as ``local
--samples K`` does, ``--tune NAME`` also tries each of model NAME's answers
with its amounts scaled, as the runtime planners do by default
(``assistant.planners.modelstep.amount_variants``; the same model file may be
named twice, once with ``--tune``), ``--suggestions NAME`` also verifies the
fixes the observation's findings suggest beside model NAME's answers, as
the ``local`` planner does by default, ``--ids varied`` renames every element as real files name
them, ``--no-instruction`` gives each task's broken layout without its brief
(as ``fix`` meets a file). ``--files A.svg B.svg …`` plays them on real SVG
files instead, each imported once and improved without a brief, paired by
file; ``--variants V`` also plays V − 1 perturbed copies of each
(``models.files``: 1 … ``--perturb`` random damaging edits), paired by file
and seed. Seeds come from the held-out test range (``--split val`` for the
validation range, the one to choose checkpoints on). The report and every
episode (``compare_episodes.jsonl`` beside ``COMPARE.md``; beside another
report, that report's name with ``_episodes.jsonl``) are written only when every
planner loaded and ran.

``--requests N`` compares model files as applicators instead (or measures one): each answers, once,
the evaluation's held-out plain-language requests (N on the broken layout of each
of ``--episodes`` held-out seeds per task; ``--episodes 4 --requests 8`` are the
192 of a ``make train-tiny`` report), scored by edit accuracy, exact match, valid
rate, collateral damage and milliseconds per request::

    python -m models.experiments.compare sft=runs/tiny37/gguf/sft.gguf more=runs/tiny37more/sft.gguf \
        --requests 8 --episodes 4 --out runs/tiny37more/APPLICATOR.md

``--moves any`` makes every such request a move by any distance (1–120 units;
``models.eval.applicator.applicator_cases``), the report's "moves by any distance".
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from models.data import SEED_RANGES

#: Every compared episode (JSON lines), written beside the report: this name for ``COMPARE.md``, and for any
#: other report its own (:func:`episodes_path`).
EPISODES_FILE = "compare_episodes.jsonl"


def episodes_path(report: Path) -> Path:
    """Where the episodes of ``report`` go: ``<stem>_episodes.jsonl`` beside it, the stem in lower case.

    ``COMPARE.md`` → :data:`EPISODES_FILE`, ``VERIFY.md`` → ``verify_episodes.jsonl``, so that two reports
    in one folder keep their own episodes.
    """
    return report.with_name(f"{report.stem.lower()}_episodes.jsonl")


#: Fewer paired episodes than this give a difference but no verdict: a bootstrap over a handful of pairs
#: gives an interval far narrower than the noise.
MIN_PAIRS = 10


#: Planners named without a model file.
BUILT_IN = ("heuristic", "fixes", "random")


def parse_spec(spec: str) -> tuple[str, Path | None, Path | None]:
    """A planner's spec → (name, model, adapter); model and adapter are ``None`` where there is none.

    The spec is ``NAME=MODEL.gguf``, ``NAME=BASE.gguf+ADAPTER.gguf`` or a built-in planner (:data:`BUILT_IN`).
    """
    if spec in BUILT_IN:
        return spec, None, None
    name, sep, path = spec.partition("=")
    if not sep or not name.strip() or not path.strip():
        raise ValueError(f"planner {spec!r}: expected NAME=MODEL.gguf, NAME=BASE.gguf+ADAPTER.gguf, "
                         "'heuristic', 'fixes' or 'random'")
    model, plus, adapter = path.partition("+")
    if plus and not adapter:
        raise ValueError(f"planner {spec!r}: no adapter after '+'")
    return name.strip(), Path(model), Path(adapter) if adapter else None


def model_clause(specs: list[str], decoding: str) -> str:
    """The report's words on how model answers were decoded; nothing when no planner is a model."""
    if all(parse_spec(s)[1] is None for s in specs):
        return ""
    return f", model answers {decoding}, run by llama.cpp on this machine's CPU"


def check_seeds(split: str, first_seed: int, episodes: int) -> None:
    """Refuse seeds outside ``split``'s range: a training seed would make the comparison say nothing."""
    lo, hi = SEED_RANGES[split]
    if episodes < 1:
        raise ValueError(f"--episodes must be at least 1, got {episodes}")
    if not (lo <= first_seed and first_seed + episodes <= hi):
        raise ValueError(f"seeds {first_seed}–{first_seed + episodes - 1} leave the {split} range {lo}–{hi - 1}")


def make_policies(specs: list[str], *, grammar: bool, samples: int, tune: list[str] | None = None,
                  suggestions: list[str] | None = None, free_distances: bool = False, least: int = 2) -> list[Any]:
    """Load every planner named by ``specs``, ``least`` of them at least.

    Model files are checked before any episode runs. The model planners named in ``tune`` get their
    answers' amounts tuned by simulation, those named in ``suggestions`` have the findings' suggested fixes
    verified beside their answers; ``free_distances``: a request's move distances are the model's own even
    under the grammar (``GGUFPolicy``).
    """
    from models.policies import FixesPolicy, GGUFPolicy, HeuristicPolicy, RandomPolicy

    parsed = [parse_spec(s) for s in specs]
    names = [name for name, _, _ in parsed]
    if len(set(names)) != len(names):
        raise ValueError(f"planner names must differ: {', '.join(names)}")
    if len(parsed) < least:
        raise ValueError("give at least two planners to compare" if least > 1 else "give a planner")
    models = {name for name, model, _ in parsed if model is not None}
    for flag, named in (("--tune", tune), ("--suggestions", suggestions)):
        stray = [t for t in named or [] if t not in models]
        if stray:
            raise ValueError(f"{flag} {', '.join(stray)}: not a model planner here (model planners: "
                             f"{', '.join(sorted(models)) or 'none'})")
    policies: list[Any] = []
    for name, model, adapter in parsed:
        if model is None:
            policies.append({"heuristic": HeuristicPolicy, "fixes": FixesPolicy, "random": RandomPolicy}[name]())
        else:
            policies.append(GGUFPolicy(model, name=name, grammar=grammar, samples=samples, lora=adapter,
                                       tune=name in (tune or []), suggestions=name in (suggestions or []),
                                       free_distances=free_distances))
    return policies


def decoding_text(grammar: bool, samples: int, tune: list[str] | None,
                  suggestions: list[str] | None = None) -> str:
    """How the report's model answers were decoded and chosen."""
    text = ("under the action grammar, " if grammar else "") + (
        f"best of {samples} different answers verified by simulation" if samples > 1 else "greedy")
    if tune:
        text += (f"; {', '.join(tune)} also with each answer's amounts scaled ×0.25 … ×3 and the best version "
                 "kept (`assistant.planners.modelstep.amount_variants`)")
    if suggestions:
        text += (f"; {', '.join(suggestions)} with the fixes the findings suggest verified beside the answers "
                 "(`assistant.planners.modelstep.finding_fixes`)")
    return text


def comparison_rows(rows: list[Any]) -> list[dict[str, Any]]:
    """Each pair of planners (in the order given, first minus second) over the episodes both played."""
    from models.eval.stats import comparison_verdict, paired_difference

    overall = [r for r in rows if r.task == "all"] or rows
    out = []
    for a, b in itertools.combinations(overall, 2):
        diff = paired_difference(a, b)
        if diff is None:
            continue
        mean, lo, hi, pairs = diff
        theirs = {(e.task, e.seed): e.composite for e in b.details}
        deltas = [e.composite - theirs[(e.task, e.seed)] for e in a.details if (e.task, e.seed) in theirs]
        out.append({"a": a.policy, "b": b.policy, "a_composite": a.composite, "b_composite": b.composite,
                    "mean": mean, "low": lo, "high": hi, "pairs": pairs,
                    "better": sum(d > 1e-9 for d in deltas), "worse": sum(d < -1e-9 for d in deltas),
                    "verdict": comparison_verdict(mean, lo, hi, strict=True) if pairs >= MIN_PAIRS
                    else f"too few episodes ({pairs} < {MIN_PAIRS})"})
    return out


def comparison_table(comparisons: list[dict[str, Any]]) -> str:
    """A Markdown table of :func:`comparison_rows`: differences, intervals, episodes each way and verdicts."""
    head = ("| A − B | A | B | mean difference | 95 % interval | episodes A better / worse / same | A beats B |\n"
            "|---|---|---|---|---|---|---|")
    lines = [f"| {c['a']} − {c['b']} | {c['a_composite']:.3f} | {c['b_composite']:.3f} | {c['mean']:+.4f} | "
             f"{c['low']:+.4f} … {c['high']:+.4f} | {c['better']} / {c['worse']} / "
             f"{c['pairs'] - c['better'] - c['worse']} | {c['verdict']} |" for c in comparisons]
    return "\n".join([head, *lines])


def compare(specs: list[str], *, episodes: int, first_seed: int | None = None, split: str = "test",
            max_steps: int = 6, tasks: list[str] | None = None, grammar: bool = False, samples: int = 1,
            ids: str = "plain", instruction: bool = True, files: list[str | Path] | None = None,
            variants: int = 1, perturb: int = 3, tune: list[str] | None = None,
            suggestions: list[str] | None = None, out: str | Path | None = None,
            command: str = "") -> dict[str, Any]:
    """Play every planner on the same episodes; the rows, the pairwise comparisons and the report's path.

    With ``files`` the episodes are those SVG files (no brief), not generated tasks.
    """
    from assistant.env.tasks import task_names
    from models.eval.episodes import evaluate_policies
    from models.eval.records import write_episodes
    from models.eval.tables import policy_table

    if files:
        return compare_files(specs, files, max_steps=max_steps, grammar=grammar, samples=samples,
                             variants=variants, perturb=perturb, tune=tune, suggestions=suggestions, out=out,
                             command=command)

    if samples < 1:
        raise ValueError(f"--samples must be at least 1, got {samples}")
    if split not in SEED_RANGES or split == "train":
        raise ValueError(f"--split must be 'test' or 'val', got {split!r}")
    first = SEED_RANGES[split][0] if first_seed is None else first_seed
    check_seeds(split, first, episodes)
    known = task_names()
    tasks = tasks or known
    unknown = [t for t in tasks if t not in known]
    if unknown:
        raise ValueError(f"unknown task(s) {', '.join(unknown)}; known: {', '.join(known)}")
    policies = make_policies(specs, grammar=grammar, samples=samples, tune=tune, suggestions=suggestions)
    rows = evaluate_policies(policies, tasks, episodes, max_steps=max_steps, ids=ids, first_seed=first,
                             instruction=instruction)
    comparisons = comparison_rows(rows)
    result: dict[str, Any] = {"rows": rows, "comparisons": comparisons, "report": None}
    if out is not None:
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        decoding = decoding_text(grammar, samples, tune, suggestions)
        bare = "" if instruction else ", without the tasks' instructions"
        text = [f"# Planner comparison on {split} seeds\n",
                f"Seeds {first}–{first + episodes - 1} of tasks {', '.join(tasks)} ({len(tasks) * episodes} "
                f"episodes per planner, elements named `{ids}`{bare}), at most {max_steps} steps per episode"
                f"{model_clause(specs, decoding)}."
                + (f" Produced by `{command}`." if command else "") + "\n",
                "## Paired differences of the final composite\n", comparison_table(comparisons), "",
                "## Planners\n", policy_table(rows), ""]
        episodes_file = write_episodes(episodes_path(out), {ids: rows})
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text("\n".join(text) + "\n", encoding="utf-8")
        tmp.replace(out)
        result.update(report=str(out), episodes=str(episodes_file))
    return result


def compare_requests(specs: list[str], *, episodes: int, per_layout: int, tasks: list[str] | None = None,
                     grammar: bool = False, moves: str = "", free_distances: bool = False,
                     out: str | Path | None = None, command: str = "") -> dict[str, Any]:
    """Every model, as the applicator, answers the same held-out plain-language requests once (greedy).

    The requests are the evaluation's (``models.eval.applicator.applicator_cases``): ``per_layout`` on the
    broken layout of each of the first ``episodes`` held-out seeds per task, so that ``--episodes 4 --requests 8``
    gives the 192 of a ``make train-tiny`` report. Each model gets edit accuracy, exact match, valid rate,
    collateral damage and milliseconds per request (``models.eval.applicator.evaluate_applicator``).
    ``moves="any"``: every request is a move by any distance instead.
    """
    from assistant.env.tasks import task_names
    from models.eval.applicator import applicator_cases, evaluate_applicator
    from models.eval.tables import applicator_breakdown_table, applicator_table

    if per_layout < 1:
        raise ValueError(f"--requests must be at least 1, got {per_layout}")
    check_seeds("test", SEED_RANGES["test"][0], episodes)
    known = task_names()
    tasks = tasks or known
    unknown = [t for t in tasks if t not in known]
    if unknown:
        raise ValueError(f"unknown task(s) {', '.join(unknown)}; known: {', '.join(known)}")
    built_in = [parse_spec(s)[0] for s in specs if parse_spec(s)[1] is None]
    if built_in:
        raise ValueError(f"--requests compares model applicators; {', '.join(built_in)} answers no request")
    # one model is enough here: its table of edit accuracy and collateral damage needs no partner
    policies = make_policies(specs, grammar=grammar, samples=1, free_distances=free_distances, least=1)
    if moves not in ("", "any"):
        raise ValueError(f"--moves {moves!r}: the only other set of requests is 'any' (moves by any distance)")
    cases = applicator_cases(tasks, episodes, per_layout, moves=moves)
    results = []
    for policy in policies:
        results.append(evaluate_applicator(policy, cases))
        print(json.dumps(results[-1]))
    result: dict[str, Any] = {"applicator": results, "report": None}
    if out is not None:
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        first = SEED_RANGES["test"][0]
        text = ["# Applicator comparison on held-out requests\n",
                f"{len(cases)} plain-language requests{', each a move by any distance,' if moves else ','} "
                f"up to {per_layout} on the broken layout of each of seeds "
                f"{first}–{first + episodes - 1} of tasks {', '.join(tasks)}; each answered once"
                f"{model_clause(specs, decoding_text(grammar, 1, None))}"
                + (", move distances left to the model" if grammar and free_distances else
                   ", a move limited to the distances its request names" if grammar else "") + "."
                + (f" Produced by `{command}`." if command else "") + "\n",
                applicator_table(results), "",
                "By the action each request asks for (`models.eval.applicator.MISSES`: why the misses missed):\n",
                applicator_breakdown_table(results), ""]
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text("\n".join(text) + "\n", encoding="utf-8")
        tmp.replace(out)
        result["report"] = str(out)
    return result


def compare_files(specs: list[str], files: list[str | Path], *, max_steps: int = 6, grammar: bool = False,
                  samples: int = 1, variants: int = 1, perturb: int = 3, tune: list[str] | None = None,
                  suggestions: list[str] | None = None, out: str | Path | None = None,
                  command: str = "") -> dict[str, Any]:
    """Play every planner on the same real SVG files (imported once each, improved without a brief).

    Each file is played at seeds ``0 … variants - 1`` (``models.files``: seed 0 as it is, later seeds after
    1 … ``perturb`` random damaging edits).
    """
    from models.eval.episodes import run_file_episode, summarise
    from models.eval.records import write_episodes
    from models.eval.tables import policy_table
    from models.files import file_variant, load_files

    if samples < 1:
        raise ValueError(f"--samples must be at least 1, got {samples}")
    if variants < 1 or perturb < 0:
        raise ValueError(f"--variants must be at least 1 and --perturb at least 0, got {variants} and {perturb}")
    loaded = load_files(files)  # an unreadable file is named before any planner loads
    episodes = [(name, seed, file_variant(doc, name, seed, perturb)[0])
                for name, doc in loaded for seed in range(variants)]
    policies = make_policies(specs, grammar=grammar, samples=samples, tune=tune, suggestions=suggestions)
    rows: list[Any] = []
    for policy in policies:
        eps = [run_file_episode(policy, doc.copy(), name, max_steps=max_steps, seed=seed)
               for name, seed, doc in episodes]
        for name, _ in loaded:
            rows.append(summarise(policy.name, name, [e for e in eps if e.task == name]))
        rows.append(summarise(policy.name, "all", eps))
        print(json.dumps({k: v for k, v in rows[-1].__dict__.items() if k != "details"}))
    comparisons = comparison_rows(rows)
    result: dict[str, Any] = {"rows": rows, "comparisons": comparisons, "report": None}
    if out is not None:
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        decoding = decoding_text(grammar, samples, tune, suggestions)
        text = ["# Planner comparison on SVG files\n",
                f"{len(loaded)} files, each imported once and improved without a brief (default metric weights)"
                + (f", each played as it is and in {variants - 1} perturbed copies (seeds 1–{variants - 1}, "
                   f"1–{perturb} random damaging edits each, `models.files`)" if variants > 1 else "") + ", "
                f"at most {max_steps} steps per file{model_clause(specs, decoding)}."
                + (f" Produced by `{command}`." if command else "") + "\n",
                "## Paired differences of the final composite\n", comparison_table(comparisons), "",
                "## Planners\n", policy_table(rows), ""]
        episodes_file = write_episodes(episodes_path(out), {"file": rows})
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text("\n".join(text) + "\n", encoding="utf-8")
        tmp.replace(out)
        result.update(report=str(out), episodes=str(episodes_file))
    return result


def main(argv: list[str] | None = None) -> None:
    """Command line: compare the planners on paired episodes, or as applicators with ``--requests``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("planners", nargs="+", metavar="PLANNER",
                    help="NAME=MODEL.gguf, NAME=BASE.gguf+ADAPTER.gguf, heuristic, fixes or random")
    ap.add_argument("--episodes", type=int, default=32, help="seeds per task")
    ap.add_argument("--first-seed", type=int, default=None, help="first seed (default: the split's first)")
    ap.add_argument("--split", default="test", help="test (held out) or val (validation)")
    ap.add_argument("--max-steps", type=int, default=6, help="steps per episode")
    ap.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
    ap.add_argument("--grammar", action="store_true", help="decode under the runtime's action grammar")
    ap.add_argument("--samples", type=int, default=1, help="K answers verified by simulation (1: greedy)")
    ap.add_argument("--tune", action="append", default=[], metavar="NAME",
                    help="model planner NAME also tries each answer with its amounts scaled (repeatable)")
    ap.add_argument("--suggestions", action="append", default=[], metavar="NAME",
                    help="model planner NAME also verifies the fixes the findings suggest (repeatable)")
    ap.add_argument("--ids", choices=("plain", "varied"), default="plain",
                    help="varied: elements renamed as real files name them")
    ap.add_argument("--no-instruction", action="store_true",
                    help="the tasks' broken layouts without their instructions, as fix meets a file")
    ap.add_argument("--files", nargs="+", default=None, metavar="SVG",
                    help="real SVG files to play instead of generated tasks (no brief)")
    ap.add_argument("--variants", type=int, default=1,
                    help="with --files: play each file as it is and in VARIANTS - 1 perturbed copies (models.files)")
    ap.add_argument("--perturb", type=int, default=3,
                    help="with --files: at most this many random damaging edits per perturbed copy")
    ap.add_argument("--requests", type=int, default=0, metavar="N",
                    help="compare the models as applicators instead: N held-out requests on each layout of "
                         "--episodes seeds per task, answered once each")
    ap.add_argument("--moves", choices=("any",), default="",
                    help="with --requests: every request a move by any distance (1-120 units)")
    ap.add_argument("--free-distances", action="store_true",
                    help="with --requests --grammar: leave a move's distance to the model instead of limiting it "
                         "to the distances the request names (assistant.planners.grammar.request_distances)")
    ap.add_argument("--out", default=None, help="Markdown report (episodes beside it)")
    args = ap.parse_args(argv)
    from assistant.errors import LayoutError

    command = "python -m models.experiments.compare " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.requests:
        stray = [flag for flag, on in (("--samples", args.samples != 1), ("--tune", args.tune),
                                       ("--suggestions", args.suggestions), ("--files", args.files),
                                       ("--no-instruction", args.no_instruction), ("--ids", args.ids != "plain"),
                                       ("--split", args.split != "test"), ("--first-seed", args.first_seed is not None))
                 if on]
        if stray:
            ap.error(f"--requests answers each held-out request once: leave out {', '.join(stray)}")
        try:
            res = compare_requests(args.planners, episodes=args.episodes, per_layout=args.requests,
                                   tasks=[t for t in args.tasks.split(",") if t] or None, grammar=args.grammar,
                                   moves=args.moves, free_distances=args.free_distances, out=args.out,
                                   command=command)
        except (ValueError, OSError, LayoutError) as exc:
            raise SystemExit(f"models.experiments.compare: {exc}") from exc
        if res["report"]:
            print(f"report: {res['report']}")
        return
    if args.moves or args.free_distances:
        ap.error(f"{'--moves' if args.moves else '--free-distances'} is about the requests of --requests; "
                 "give --requests N")
    try:
        res = compare(args.planners, episodes=args.episodes, first_seed=args.first_seed, split=args.split,
                      max_steps=args.max_steps, tasks=[t for t in args.tasks.split(",") if t] or None,
                      grammar=args.grammar, samples=args.samples, ids=args.ids,
                      instruction=not args.no_instruction, files=args.files, variants=args.variants,
                      perturb=args.perturb, tune=args.tune, suggestions=args.suggestions, out=args.out,
                      command=command)
    except (ValueError, OSError, LayoutError) as exc:
        raise SystemExit(f"models.experiments.compare: {exc}") from exc
    for c in res["comparisons"]:
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in c.items()}))
    if res["report"]:
        print(f"report: {res['report']}")


if __name__ == "__main__":
    main()
