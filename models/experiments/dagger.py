r"""DAgger data: the heuristic's action at the states a trained model reaches itself.

Command (one of the four collections behind the bundled model's sixth part;
``runs/tiny6/NOTES.md`` lists them all)::

    python -m models.experiments.dagger --model runs/tiny5/gguf/grpo.gguf --out runs/dagger6c/shard0 \
        --episodes 180 --first-seed 2300 --max-steps 6 --samples 6 --teacher-share 0.3 --shard 0/2

``models.data`` records the heuristic's own trajectories, so a model trained
on it only ever sees states on the heuristic's path. Once the model acts, it
drifts to states the heuristic never visited — typically after a few good
edits, where it answers ``finalize`` (or nothing it proposes improves) while
the heuristic would still fix a smaller defect. DAgger (Ross, Gordon and
Bagnell 2011, "A Reduction of Imitation Learning and Structured Prediction
to No-Regret Online Learning") labels exactly those states: the *learner*
drives the episode, and at every state it visits the *teacher* (the
heuristic planner, ``models.policies.HeuristicPolicy``) says what it would
do. The records are ``planner`` examples (observation + instruction → the
teacher's action, ``finalize`` where the teacher would stop), plus an
``applicator`` example of each teacher edit with a plain-language request,
in the same chat format as ``models.data`` (``assistant.planners.prompting.make_record``).

The learner is a GGUF model run as the evaluation runs it
(``models.policies.GGUFPolicy``): under the runtime grammar, best of
``--samples`` answers by simulation when ``--samples`` > 1. An episode ends
when the learner finalizes or stalls, the environment ends it, or after
``--max-steps`` edits. Episodes use training seeds only
(``--first-seed`` onward, inside ``models.data.SEED_RANGES["train"]``; episode
*i* is task ``tasks[i % len(tasks)]``, seed ``first_seed + i // len(tasks)``).
``--teacher-share B`` is DAgger's mixing: at each step the teacher's action
drives the episode with probability B (seeded per episode), the learner's
otherwise; B = 0 is pure DAgger, B = 1 the teacher's own trajectories. With
B > 0 a learner that stops where the teacher would go on hands that step to the
teacher instead of ending the episode, so that the states past an early stop
(which the learner reaches once it has learnt not to stop) are labelled too.
``--no-instruction F`` runs that share of the episodes (every ``round(1/F)``-th)
without the task's instruction — the layout, its weights and nothing else, as
``layout-assistant fix`` meets a file with no goal — so that the model also
learns to improve a layout when nobody said how. ``--varied-ids F`` names the
elements of that share of the episodes (drawn per episode, seeded) as real
files name them (``assistant.env.tasks.ids``: ``slide-title``, ``headline``,
``text1234``) instead of the generators' ``title``, ``cta``, ``bullet-2``,
so that the model reads ids from the layout instead of memorising them.
``--files A.svg B.svg …`` plays real SVG files instead of the generated
tasks (``models.files``): episode *i* is file ``files[i % len(files)]`` at
seed ``first_seed + i // len(files)``, always without a brief — at seed 0 the
file as it is, at later seeds after 1 … ``--perturb`` random damaging edits —
so that the model learns the states it reaches on layouts nobody generated.
Files are held out by file: keep the files a comparison plays out of this list.
``--teacher search`` labels with the model's own search instead of the
heuristic: the same model with ``--teacher-samples`` different answers per
state, each verified by simulation with its amounts tuned
(``models.policies.GGUFPolicy(tune=True)``, what the ``local`` planner does),
``finalize`` where none improves — expert iteration (Anthony, Tian and Barber
2017, "Thinking Fast and Slow with Deep Learning and Tree Search"): the greedy
policy learns what its own search finds, edits it can already write, where
the heuristic's edits on a file it never saw may be ones it cannot.
``--teacher lookahead`` labels with the heuristic's action or, where one
does at least as well one step ahead, the best of the fixes the prompt's
findings suggest (``models.policies.LookaheadPolicy``): copying a fix from
the prompt would carry over to layouts the model never saw, where the
heuristic's own computed edits do not (``stats.json`` counts the labels
copied; run tiny27 in ``docs/experiments.md`` had a round trained on them).
``--tune 1`` tunes the learner's answers' amounts too.
``--shard K/N`` keeps the
episodes with ``i % N == K`` (run N processes, one per core, and mix their
outputs with ``models.experiments.mix``).

Writes ``train.jsonl``, an empty ``val.jsonl`` and ``test.jsonl``, and
``stats.json``: the command, the seeds, record counts, how often the learner's
action equalled the teacher's, and how often the learner stopped where the
teacher would have gone on.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from models.data import SEED_RANGES


@dataclass
class DaggerConfig:
    """What to collect."""

    model: str = "assistant/data/layout-applicator-tiny.gguf"
    out: str = "runs/dagger"
    tasks: tuple[str, ...] = ()          # empty: every registered task
    episodes: int = 240
    first_seed: int = 2000
    max_steps: int = 6
    samples: int = 6                     # the learner's K (1: greedy)
    temperature: float = 0.8
    shard: tuple[int, int] = (0, 1)
    no_instruction: float = 0.0          # share of episodes run without the task's instruction
    teacher_share: float = 0.0           # DAgger's beta: probability that the teacher's action drives a step
    varied_ids: float = 0.0              # share of episodes whose elements are renamed as real files name them
    files: tuple[str, ...] = ()          # real SVG files to play instead of the generated tasks
    perturb: int = 3                     # with files: at most this many damaging edits at seeds > 0
    seed: int = 0                        # request phrasing
    teacher: str = "heuristic"           # heuristic; search: the model's own best of teacher_samples, tuned;
    #                                      lookahead: the heuristic's action or a fix the prompt suggests
    teacher_samples: int = 32            # with teacher search: answers verified per state
    tune: bool = False                   # the learner's answers' amounts tuned by simulation
    command: str = field(default="", repr=False)


#: Who labels the states (``--teacher``).
TEACHERS = ("heuristic", "search", "lookahead")


def without_instruction(i: int, share: float) -> bool:
    """Whether episode ``i`` runs without its instruction (every ``round(1 / share)``-th episode)."""
    return share > 0 and i % max(1, round(1 / share)) == 0


def with_varied_ids(cfg: DaggerConfig, task: str, seed: int) -> bool:
    """Whether the episode of ``task`` at ``seed`` renames its elements.

    A draw seeded by ``cfg.seed``, the task and the seed, true with probability ``cfg.varied_ids``.
    """
    return cfg.varied_ids > 0 and random.Random(f"{cfg.seed}:ids:{task}:{seed}").random() < cfg.varied_ids


def dagger_episodes(cfg: DaggerConfig, tasks: list[str]) -> list[tuple[int, str, int]]:
    """``(i, task, seed)`` of this shard's episodes; every seed inside the training range.

    With ``cfg.files`` the "tasks" are the file names and the seeds count from ``first_seed`` (0: the file as
    it is), with no range: files are held out by file, not by seed.
    """
    k, n = cfg.shard
    if cfg.files:
        if cfg.first_seed < 0:
            raise ValueError(f"--first-seed must be at least 0 with --files, got {cfg.first_seed}")
        return [(i, tasks[i % len(tasks)], cfg.first_seed + i // len(tasks)) for i in range(cfg.episodes)
                if i % n == k]
    start, end = SEED_RANGES["train"]
    if not start <= cfg.first_seed < end:
        raise ValueError(f"--first-seed {cfg.first_seed} is outside the training seeds {start}-{end - 1}")
    last = cfg.first_seed + (cfg.episodes - 1) // len(tasks)
    if cfg.episodes and last >= end:
        raise ValueError(f"{cfg.episodes} episodes from seed {cfg.first_seed} overflow the training seeds "
                         f"(last {last}, range ends at {end - 1})")
    return [(i, tasks[i % len(tasks)], cfg.first_seed + i // len(tasks)) for i in range(cfg.episodes) if i % n == k]


def same_action(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """Whether two actions are the same edit (parsed, defaults filled, numbers compared as numbers)."""
    if a is None or b is None:
        return False
    from assistant.actions import parse_action
    from assistant.errors import InvalidAction

    try:
        return parse_action(a).model_dump(mode="json") == parse_action(b).model_dump(mode="json")
    except InvalidAction:
        return False


def episode(learner: Any, teacher: Any, task: str, seed: int, cfg: DaggerConfig, rng: random.Random,
            instruction: bool = True, ids: str = "plain") -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The records of one learner-driven episode of a generated task and its counts (see the module docstring)."""
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task

    env = LayoutEnv(task, max_steps=cfg.max_steps + 1)
    t = make_task(task, seed, ids=ids)
    if instruction:
        env.reset(seed=seed, options={"task": t})
    else:
        env.reset(seed=seed, options={"document": t.broken.copy(), "weights": t.weights})
    meta = {"task": task, "seed": seed, "source": "dagger", "instruction": instruction, "ids": ids}
    return drive(learner, teacher, env, meta, cfg, rng)


def file_episode(learner: Any, teacher: Any, name: str, document: Any, seed: int, cfg: DaggerConfig,
                 rng: random.Random) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The records of one learner-driven episode of a real file, without a brief as ``fix`` meets it.

    The file is played as it is at seed 0 and perturbed at later seeds (``models.files``).
    """
    from models.files import file_env, file_variant

    doc, _ = file_variant(document, name, seed, cfg.perturb)
    env, _ = file_env(doc, max_steps=cfg.max_steps + 1)
    meta = {"task": name, "seed": seed, "source": "dagger-file", "instruction": False, "ids": "file"}
    return drive(learner, teacher, env, meta, cfg, rng)


def read_as_learner(learner: Any, env: Any) -> str:
    """The observation text of ``env`` as the learner's prompt holds it.

    It is shortened as the runtime shortens a prompt longer than the model's context
    (``assistant.planners.local.fit_planner_prompt``), so that a large file's states are trained on as they
    are read instead of dropped by SFT as too long.
    """
    from assistant.planners.local import fit_planner_observation

    llm = getattr(learner, "llm", None)
    if llm is None:
        return env.observation_text()
    return fit_planner_observation(llm, env.observation(), env.instruction or "")


def drive(learner: Any, teacher: Any, env: Any, meta: dict[str, Any], cfg: DaggerConfig,
          rng: random.Random) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Let the learner (or, at DAgger's mixing rate, the teacher) drive ``env``; label every state it reaches.

    A learner that cannot read the state (its prompt longer than the model's context) counts as stopping there.
    """
    from assistant.planners.prompting import make_record
    from models.data import applicator_records

    records: list[dict[str, Any]] = []
    counts = {"states": 0, "agree": 0, "learner_stopped_early": 0, "teacher_finalize": 0, "teacher_steps": 0,
              "learner_steps": 0}
    driver = random.Random(f"{cfg.seed}:driver:{meta['task']}:{meta['seed']}")
    for step in range(cfg.max_steps + 1):
        meta_step = {**meta, "step": step}
        want = teacher.act(env).action or {"type": "finalize"}
        records.append(make_record(read_as_learner(learner, env), env.instruction or "", want, kind="planner",
                                   meta=meta_step))
        counts["states"] += 1
        teacher_stops = want.get("type") == "finalize"
        counts["teacher_finalize"] += teacher_stops
        if not teacher_stops:
            records += applicator_records(env.document, rng, want, 0, meta_step)
        if step == cfg.max_steps:
            break
        if driver.random() < cfg.teacher_share:  # the teacher drives this step
            if teacher_stops:
                break
            got = want
            counts["teacher_steps"] += 1
        else:
            try:
                got = learner.act(env).action
            except ValueError:  # the prompt does not fit the learner's context
                got = None
            counts["learner_steps"] += 1
            counts["agree"] += same_action(got, want)
            if got is None or got.get("type") == "finalize":
                counts["learner_stopped_early"] += not teacher_stops
                if teacher_stops or cfg.teacher_share <= 0:
                    break
                got = want  # handed to the teacher (see the module docstring)
                counts["teacher_steps"] += 1
        _, _, terminated, truncated, info = env.step(got)
        if terminated or truncated or not info["valid"] or info.get("noop"):
            break
    return records, counts


def collect(cfg: DaggerConfig) -> dict[str, Any]:
    """Run the episodes and write the output directory (see the module docstring)."""
    from assistant.env.tasks import task_names
    from models.policies import GGUFPolicy, HeuristicPolicy, LookaheadPolicy

    documents: dict[str, Any] = {}
    if cfg.files:
        from models.files import load_files

        if cfg.tasks:
            raise ValueError("give either --tasks or --files, not both")
        if cfg.perturb < 0:
            raise ValueError(f"--perturb must be at least 0, got {cfg.perturb}")
        documents = dict(load_files(list(cfg.files)))  # an unreadable file is named before the model loads
        tasks = list(documents)
    else:
        tasks = list(cfg.tasks) or task_names()
        unknown = sorted(set(tasks) - set(task_names()))
        if unknown:
            raise ValueError(f"unknown task(s): {', '.join(unknown)}; known: {', '.join(task_names())}")
    plan = dagger_episodes(cfg, tasks)
    if cfg.teacher not in TEACHERS:
        raise ValueError(f"--teacher must be one of {', '.join(TEACHERS)}, got {cfg.teacher!r}")
    if cfg.teacher_samples < 1:
        raise ValueError(f"--teacher-samples must be at least 1, got {cfg.teacher_samples}")
    learner = GGUFPolicy(cfg.model, name="learner", grammar=True, samples=cfg.samples, temperature=cfg.temperature,
                         tune=cfg.tune)
    teacher: Any = LookaheadPolicy() if cfg.teacher == "lookahead" else HeuristicPolicy()
    if cfg.teacher == "search":  # the same weights, searching: many answers, verified, amounts tuned
        teacher = GGUFPolicy(cfg.model, name="search", grammar=True, samples=cfg.teacher_samples,
                             temperature=cfg.temperature, tune=True, llm=learner.llm)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    totals = {"episodes": 0, "planner": 0, "applicator": 0, "states": 0, "agree": 0, "learner_stopped_early": 0,
              "teacher_finalize": 0, "teacher_steps": 0, "learner_steps": 0, "no_instruction": 0, "varied_ids": 0}
    rng = random.Random(f"{cfg.seed}:dagger:{cfg.shard[0]}")
    t0 = time.time()
    tmp = out / "train.jsonl.part"  # becomes train.jsonl when every episode is written; removed on failure
    try:
        _write_episodes(tmp, plan, learner, teacher, cfg, rng, totals, t0, documents)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(out / "train.jsonl")
    for name in ("val.jsonl", "test.jsonl"):
        (out / name).write_text("")
    seeds = sorted({s for _, _, s in plan})
    stats = {"command": cfg.command, "config": {**asdict(cfg), "command": None}, "tasks": tasks,
             "seed_ranges": {"train": [seeds[0], seeds[-1] + 1]} if seeds else {},
             "splits": {"train": {k: totals[k] for k in ("planner", "applicator", "episodes", "no_instruction",
                                                          "varied_ids")}},
             "learner": {"agreement": totals["agree"] / max(totals["learner_steps"], 1),
                         "stopped_early": totals["learner_stopped_early"], "states": totals["states"],
                         "teacher_steps": totals["teacher_steps"]},
             "teacher": {"name": cfg.teacher, "copied_fixes": getattr(teacher, "copied", None)},
             "seconds": round(time.time() - t0)}
    (out / "stats.json").write_text(json.dumps(stats, indent=2))
    return stats


def _write_episodes(path: Path, plan: list[tuple[int, str, int]], learner: Any, teacher: Any, cfg: DaggerConfig,
                    rng: random.Random, totals: dict[str, int], t0: float, documents: dict[str, Any]) -> None:
    """Run ``plan``'s episodes, writing their records to ``path`` and adding their counts to ``totals``.

    ``documents`` (file name → imported file) is set when the episodes are files.
    """
    with path.open("w", encoding="utf-8") as fh:
        for i, task, seed in plan:
            if documents:
                bare, ids = True, "file"
                records, counts = file_episode(learner, teacher, task, documents[task], seed, cfg, rng)
            else:
                bare = without_instruction(i, cfg.no_instruction)
                ids = "varied" if with_varied_ids(cfg, task, seed) else "plain"
                records, counts = episode(learner, teacher, task, seed, cfg, rng, instruction=not bare, ids=ids)
            for rec in records:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                totals[rec["kind"]] += 1
            for k, v in counts.items():
                totals[k] += v
            totals["episodes"] += 1
            totals["no_instruction"] += bare
            totals["varied_ids"] += ids == "varied"
            print(json.dumps({"episode": i, "task": task, "seed": seed, "instruction": not bare, "ids": ids, **counts,
                              "seconds": round(time.time() - t0)}), flush=True)


def _shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(p) for p in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shard wants K/N (e.g. 0/2), got {text!r}") from None
    if not (n >= 1 and 0 <= k < n):
        raise argparse.ArgumentTypeError(f"--shard K/N needs 0 <= K < N, got {text!r}")
    return k, n


def main(argv: list[str] | None = None) -> None:
    """Command line: collect this shard's DAgger records under ``--out`` (:func:`collect`); print its counts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    d = DaggerConfig()
    ap.add_argument("--model", default=d.model, help="the learner: a GGUF file")
    ap.add_argument("--out", default=d.out)
    ap.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
    ap.add_argument("--episodes", type=int, default=d.episodes)
    ap.add_argument("--first-seed", type=int, default=d.first_seed)
    ap.add_argument("--max-steps", type=int, default=d.max_steps)
    ap.add_argument("--samples", type=int, default=d.samples, help="the learner's K (best of K by simulation)")
    ap.add_argument("--temperature", type=float, default=d.temperature)
    ap.add_argument("--no-instruction", type=float, default=d.no_instruction,
                    help="share of episodes (0-1) run without the task's instruction")
    ap.add_argument("--teacher-share", type=float, default=d.teacher_share,
                    help="probability (0-1) that the teacher's action drives a step (DAgger's beta)")
    ap.add_argument("--varied-ids", type=float, default=d.varied_ids,
                    help="share of episodes (0-1) whose elements are named as real files name them")
    ap.add_argument("--files", nargs="+", default=(), metavar="SVG",
                    help="real SVG files to play (no brief) instead of the generated tasks; seeds from --first-seed")
    ap.add_argument("--perturb", type=int, default=d.perturb,
                    help="with --files: at most this many random damaging edits at seeds above 0 (models.files)")
    ap.add_argument("--teacher", choices=TEACHERS, default=d.teacher,
                    help="who labels each state: the heuristic, the model's own search (expert iteration), or "
                         "lookahead (the heuristic's action or a fix the prompt suggests, whichever gains more)")
    ap.add_argument("--teacher-samples", type=int, default=d.teacher_samples,
                    help="with --teacher search: different answers verified (amounts tuned) per state")
    ap.add_argument("--tune", type=int, choices=(0, 1), default=int(d.tune),
                    help="1: the learner's answers' amounts are tuned by simulation too")
    ap.add_argument("--shard", type=_shard, default=d.shard, help="K/N: this process's share of the episodes")
    ap.add_argument("--seed", type=int, default=d.seed)
    args = ap.parse_args(argv)
    if args.episodes < 1 or args.max_steps < 1 or args.samples < 1:
        ap.error("--episodes, --max-steps and --samples must be at least 1")
    for name in ("no_instruction", "teacher_share", "varied_ids"):
        if not 0 <= getattr(args, name) <= 1:
            ap.error(f"--{name.replace('_', '-')} is a share between 0 and 1, got {getattr(args, name)}")
    from models.policies import load_llama  # noqa: F401  (fail early without the [train] extra)

    cfg = DaggerConfig(model=args.model, out=args.out, tasks=tuple(t for t in args.tasks.split(",") if t),
                       episodes=args.episodes, first_seed=args.first_seed, max_steps=args.max_steps,
                       samples=args.samples, temperature=args.temperature, shard=args.shard, seed=args.seed,
                       no_instruction=args.no_instruction, teacher_share=args.teacher_share,
                       varied_ids=args.varied_ids, files=tuple(args.files), perturb=args.perturb,
                       teacher=args.teacher, teacher_samples=args.teacher_samples, tune=bool(args.tune),
                       command="python -m models.experiments.dagger "
                       + shlex.join(sys.argv[1:] if argv is None else argv))
    from assistant.errors import LayoutError, ModelFileError

    try:
        stats = collect(cfg)
    except (ValueError, ModelFileError, LayoutError) as exc:
        ap.error(str(exc))
    print(json.dumps({"out": cfg.out, **stats["splits"]["train"], **stats["learner"]}))


if __name__ == "__main__":
    main()
