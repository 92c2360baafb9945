r"""How often a model planner writes one of the fixes its prompt suggests.

Command (the bundled model against another run's SFT model on two held-out files)::

    python -m models.experiments.fixcopy bundled=assistant/data/layout-applicator-tiny.gguf \
        t33=runs/tiny33/gguf/sft.gguf \
        --samples 8 --variants 4 --files examples/flyer.svg examples/slide.svg …

The observation a planner reads lists its findings, each with a suggested fix
(``fix: {"type":"move",…}``). On a file it never saw, copying the best of them
is most of what the heuristic does (``models.experiments.compare fixes heuristic --files …``),
so how often a model's answers are such a copy says whether it reads the
prompt or replays edits it learnt on the generated layouts. For each file (as
it is and in ``--variants`` − 1 perturbed copies, ``models.files``) and each
model, at the file's first state: ``--samples`` different answers under the
action grammar (greedy first, as the planners draw them), counted as *exact*
(the answer is one of the suggested fixes, in canonical form) or *same edit*
(the same kind of action on the same elements as one of them, amounts aside).
Prints one JSON line per model.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def edit_key(action: dict[str, Any]) -> tuple[Any, ...]:
    """What an edit does, amounts aside: its kind and the elements it names."""
    ids = action.get("ids") or ([action["id"]] if action.get("id") else [])
    return (action.get("type"), tuple(ids))


def copy_counts(policy: Any, env: Any, samples: int) -> dict[str, int]:
    """Answers of ``policy`` at ``env``'s state that copy a suggested fix (exact / same edit), greedy first."""
    from assistant.errors import InvalidAction
    from assistant.planners.local import fit_planner_prompt
    from assistant.planners.modelstep import distinct_answers
    from assistant.planners.prompting import canonical_action, parse_completion
    from models.policies import finding_fixes

    fixes = finding_fixes(env.observation())
    exact = {json.dumps(canonical_action(f), sort_keys=True) for f in fixes}
    edits = {edit_key(f) for f in fixes}
    prompt = fit_planner_prompt(policy.llm, env.observation(), env.instruction or "")
    decoding = policy._decoding(env.document.layout)
    texts = distinct_answers(lambda i, t: policy.complete(prompt, temperature=t, **decoding, seed=i), samples,
                             policy.temperature)
    counts = {"answers": 0, "exact": 0, "same_edit": 0, "greedy_exact": 0, "greedy_same_edit": 0}
    for i, text in enumerate(texts):
        try:
            action = canonical_action(parse_completion(text))
        except InvalidAction:
            continue
        hit = json.dumps(action, sort_keys=True) in exact, edit_key(action) in edits
        counts["answers"] += 1
        counts["exact"] += hit[0]
        counts["same_edit"] += hit[1]
        if i == 0:
            counts["greedy_exact"] += hit[0]
            counts["greedy_same_edit"] += hit[1]
    return counts


def main(argv: list[str] | None = None) -> None:
    """Command line: count each model's copied fixes at the first state of every file and variant."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("planners", nargs="+", metavar="NAME=MODEL.gguf",
                    help="model planners (NAME=MODEL.gguf or NAME=BASE.gguf+ADAPTER.gguf)")
    ap.add_argument("--files", nargs="+", required=True, metavar="SVG", help="real SVG files (no brief)")
    ap.add_argument("--samples", type=int, default=8, help="different answers per state")
    ap.add_argument("--variants", type=int, default=4, help="each file as it is and VARIANTS - 1 perturbed copies")
    ap.add_argument("--perturb", type=int, default=3, help="at most this many damaging edits per perturbed copy")
    args = ap.parse_args(argv)
    if args.samples < 1 or args.variants < 1 or args.perturb < 0:
        ap.error("--samples and --variants must be at least 1, --perturb at least 0")
    from assistant.errors import LayoutError, ModelFileError
    from models.experiments.compare import parse_spec
    from models.files import file_env, file_variant, load_files
    from models.policies import GGUFPolicy

    try:
        specs = [parse_spec(s) for s in args.planners]
        if any(model is None for _, model, _ in specs):
            raise ValueError("fixcopy measures model planners: give NAME=MODEL.gguf")
        documents = load_files(args.files)
        policies = [GGUFPolicy(model, name=name, grammar=True, lora=adapter) for name, model, adapter in specs]
    except (ValueError, LayoutError, ModelFileError) as exc:
        ap.error(str(exc))
    totals = {p.name: {"states": 0} for p in policies}
    for name, document in documents:
        for seed in range(args.variants):
            env, _ = file_env(file_variant(document, name, seed, args.perturb)[0], max_steps=8)
            for policy in policies:
                row = totals[policy.name]
                row["states"] += 1
                for key, value in copy_counts(policy, env, args.samples).items():
                    row[key] = row.get(key, 0) + value
    for policy_name, row in totals.items():
        print(json.dumps({"planner": policy_name, **row}))


if __name__ == "__main__":
    main()
