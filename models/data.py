"""SFT data: heuristic trajectories on every task, as chat-format JSONL.

Command::

    python -m models.data --out runs/tiny/data --train-episodes 120 --val-episodes 12 --test-episodes 12

Seeds are split into disjoint ranges (:data:`SEED_RANGES`) so held-out test
seeds are never trained on: **train 1000–9999**, **validation 500–999**,
**test 100–499** (the heuristic's own held-out evaluation uses 100–109, inside
the test range). Episode *i* of a split uses task ``tasks[i % len(tasks)]`` and
seed ``start + i // len(tasks)``.

For each episode the heuristic planner (``assistant.planners``, registered as
``heuristic``) is run on the task's broken layout with the task's weights and
instruction (``run_planner``, as in ``assistant.app.evaluation``); its accepted
actions are then replayed in ``assistant.env.LayoutEnv`` to record the states.
Two kinds of records (``assistant.planners.prompting.make_record``):

* **planner** — environment observation text + task instruction → the
  heuristic's next action; after its last edit, ``finalize``;
* **applicator** — the element list (``prompting.layout_text``) + a
  plain-language request → the exact action. Requests are generated from
  actions (``models.requests``): from the heuristic's action at that state
  and from ``synthetic_per_state`` random plausible edits, each validated by
  applying it to a copy of the document.

``kind_weights`` (``--kind-weights distribute=4,align=5``) and ``role_words``
(``--role-words 0.6``) set the mix of synthetic requests: how often each kind of
edit is asked for (``models.requests.KIND_WEIGHTS``) and how often an element
whose role is unique is named by a role word rather than by its text or id. By
default they are the evaluation's mix; a training set may ask more often for
what a model gets wrong, while the held-out requests stay the same.

``varied_ids`` (``--varied-ids F``) renames every element of a share F of
the episodes and layouts as real files name them (``slide-title``,
``headline``, ``text1234``; ``assistant.env.tasks.ids``), a seeded draw per task
and seed, so a model learns to read the ids it is given instead of the
generators' own; their records say ``"ids": "varied"`` in ``meta``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from assistant.planners.prompting import layout_text, make_record
from models.requests import KIND_WEIGHTS, MOVE_AMOUNTS, ROLE_WORDS_SHARE, kind_weights, request_for, synth_action

#: Disjoint seed ranges per split (inclusive start, exclusive end).
SEED_RANGES: dict[str, tuple[int, int]] = {"train": (1000, 10000), "val": (500, 1000), "test": (100, 500)}


@dataclass
class DataConfig:
    """What to generate."""

    out: str = "runs/tiny/data"
    tasks: tuple[str, ...] = ()            # empty: every registered task
    train_episodes: int = 120
    val_episodes: int = 12
    test_episodes: int = 12
    max_steps: int = 12                    # heuristic edits per episode
    synthetic_per_state: int = 2           # random applicator requests per visited state
    applicator_layouts: int = 0            # extra train layouts with applicator requests only
    requests_per_layout: int = 4           # requests on each extra layout
    time_budget: float = 20.0              # seconds per heuristic episode
    seed: int = 0                          # request phrasing / synthetic action randomness
    varied_ids: float = 0.0                # share of episodes and layouts with elements renamed as real files name them
    kind_weights: dict[str, float] = field(default_factory=dict)  # synthetic request kinds drawn more or less often
    role_words: float = ROLE_WORDS_SHARE   # chance a unique-role element is named by role, not by its words or id
    move_amounts: str = "common"           # how far synthetic moves go (models.requests.move_amounts)


def split_episodes(split: str, n: int, tasks: list[str]) -> list[tuple[str, int]]:
    """``(task, seed)`` pairs of a split; seeds stay inside :data:`SEED_RANGES` [split]."""
    start, end = SEED_RANGES[split]
    pairs = [(tasks[i % len(tasks)], start + i // len(tasks)) for i in range(n)]
    if pairs and pairs[-1][1] >= end:
        raise ValueError(f"{n} episodes overflow the {split} seed range {start}-{end - 1}")
    return pairs


def heuristic_actions(task: Any, *, max_steps: int, time_budget: float) -> tuple[list[dict[str, Any]], str]:
    """The heuristic's accepted actions on ``task`` and why it stopped."""
    from assistant.instructions.brief import compile_brief
    from assistant.planners import get_planner
    from assistant.planners.loop import run_planner

    doc = task.broken.copy()
    brief = compile_brief(task.instruction, doc.layout)
    result = run_planner(doc, get_planner("heuristic"), constraints=brief.constraints, weights=task.weights,
                         instruction=task.instruction, keep=brief.keep_ids, max_steps=max_steps,
                         time_budget=time_budget)
    return [dict(s.action) for s in result.steps], result.stopped


def valid_on(document: Any, action: dict[str, Any]) -> bool:
    """Whether ``action`` validates and applies to a copy of ``document``."""
    from assistant.actions import apply_action, parse_action
    from assistant.errors import InvalidAction

    try:
        apply_action(document.copy(), parse_action(action))
    except InvalidAction:
        return False
    return True


def applicator_records(document: Any, rng: random.Random, expert: dict[str, Any] | None, n_synth: int,
                       meta: dict[str, Any], cfg: DataConfig | None = None) -> list[dict[str, Any]]:
    """Applicator records at one state: the expert action and ``n_synth`` synthetic edits, with requests.

    ``cfg`` gives the mix of synthetic requests (``kind_weights``, ``role_words``; by default the evaluation's).
    """
    cfg = cfg or DataConfig()
    weights = kind_weights(cfg.kind_weights)
    layout = document.layout
    view = layout_text(layout)
    out = []
    candidates = ([expert] if expert else []) + [synth_action(layout, rng, weights, cfg.move_amounts)
                                                for _ in range(n_synth)]
    for i, action in enumerate(candidates):
        if action is None:
            continue
        request, norm = request_for(action, layout, rng, cfg.role_words)
        if not valid_on(document, norm):
            continue
        out.append(make_record(view, request, norm, kind="applicator",
                               meta={**meta, "source": "expert" if (expert and i == 0) else "synthetic"}))
    return out


def ids_style(cfg: DataConfig, task_name: str, seed: int) -> str:
    """``"varied"`` for a seeded share ``cfg.varied_ids`` of the ``(task, seed)`` pairs, else ``"plain"``."""
    draw = random.Random(f"{cfg.seed}:ids:{task_name}:{seed}").random()
    return "varied" if cfg.varied_ids > 0 and draw < cfg.varied_ids else "plain"


def episode_records(task_name: str, seed: int, cfg: DataConfig, rng: random.Random) -> list[dict[str, Any]]:
    """All records of one episode (see the module docstring)."""
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task

    ids = ids_style(cfg, task_name, seed)
    env = LayoutEnv(task_name, max_steps=cfg.max_steps + 1)
    env.reset(seed=seed, options={"task": make_task(task_name, seed, ids=ids)})
    actions, stopped = heuristic_actions(env.task, max_steps=cfg.max_steps, time_budget=cfg.time_budget)
    if stopped != "max_steps":
        actions.append({"type": "finalize"})
    records: list[dict[str, Any]] = []
    for step, action in enumerate(actions):
        meta = {"task": task_name, "seed": seed, "step": step, "ids": ids}
        records.append(make_record(env.observation_text(), env.instruction or "", action, kind="planner", meta=meta))
        expert = action if action["type"] != "finalize" else None
        records += applicator_records(env.document, rng, expert, cfg.synthetic_per_state, meta, cfg)
        if action["type"] == "finalize":
            break
        _, _, terminated, truncated, info = env.step(action)
        if not info["valid"] or terminated or truncated:
            break
    return records


def extra_layouts(split: str, n: int, tasks: list[str]) -> list[tuple[str, int]]:
    """``(task, seed)`` of applicator-only layouts: the upper half of the split's seed range."""
    start, end = SEED_RANGES[split]
    mid = start + (end - start) // 2
    pairs = [(tasks[i % len(tasks)], mid + i // len(tasks)) for i in range(n)]
    if pairs and pairs[-1][1] >= end:
        raise ValueError(f"{n} layouts overflow the {split} seed range {start}-{end - 1}")
    return pairs


def layout_records(task_name: str, seed: int, n: int, rng: random.Random, ids: str = "plain",
                   cfg: DataConfig | None = None) -> list[dict[str, Any]]:
    """Applicator records on a task's broken layout (no trajectory): ``n`` synthetic requests."""
    from assistant.env.tasks import make_task

    doc = make_task(task_name, seed, ids=ids).broken
    return applicator_records(doc, rng, None, n, {"task": task_name, "seed": seed, "step": 0, "ids": ids}, cfg)


def generate(cfg: DataConfig) -> dict[str, Any]:
    """Write ``train.jsonl``, ``val.jsonl``, ``test.jsonl`` and ``stats.json`` under ``cfg.out``."""
    from assistant.env.tasks import task_names

    if not 0.0 <= cfg.varied_ids <= 1.0:
        raise ValueError(f"varied_ids {cfg.varied_ids} is not a share between 0 and 1")
    if not 0.0 <= cfg.role_words <= 1.0:
        raise ValueError(f"role_words {cfg.role_words} is not a share between 0 and 1")
    kind_weights(cfg.kind_weights)
    if cfg.move_amounts not in MOVE_AMOUNTS:
        raise ValueError(f"move_amounts {cfg.move_amounts!r} is not one of {', '.join(MOVE_AMOUNTS)}")
    tasks = list(cfg.tasks) or task_names()
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    stats: dict[str, Any] = {"config": asdict(cfg), "tasks": tasks, "seed_ranges": SEED_RANGES, "splits": {}}
    for split, n in (("train", cfg.train_episodes), ("val", cfg.val_episodes), ("test", cfg.test_episodes)):
        rng = random.Random(f"{cfg.seed}:{split}")
        counts = {"planner": 0, "applicator": 0, "episodes": n}
        extra = cfg.applicator_layouts if split == "train" else cfg.applicator_layouts // 20
        with (out / f"{split}.jsonl").open("w", encoding="utf-8") as fh:
            for task_name, seed in split_episodes(split, n, tasks):
                for rec in episode_records(task_name, seed, cfg, rng):
                    fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                    counts[rec["kind"]] += 1
            for task_name, seed in extra_layouts(split, extra, tasks):
                for rec in layout_records(task_name, seed, cfg.requests_per_layout, rng,
                                          ids_style(cfg, task_name, seed), cfg):
                    fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
                    counts[rec["kind"]] += 1
        pairs = split_episodes(split, n, tasks) + extra_layouts(split, extra, tasks)
        counts["renamed"] = sum(ids_style(cfg, t, s) == "varied" for t, s in pairs)  # episodes and layouts
        stats["splits"][split] = counts
        print(json.dumps({"split": split, **counts}))
    (out / "stats.json").write_text(json.dumps(stats, indent=2))
    return stats


def iter_texts(paths: list[Path]) -> Iterator[str]:
    """Prompt + completion texts of JSONL files (for tokenizer training)."""
    from assistant.planners.prompting import render_record

    for path in paths:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    prompt, completion = render_record(json.loads(line))
                    yield prompt + completion


def parse_kind_weights(text: str) -> dict[str, float]:
    """``"distribute=3,align=5"`` → ``{"distribute": 3.0, "align": 5.0}``, checked by ``kind_weights``."""
    out: dict[str, float] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        kind, sep, value = item.partition("=")
        try:
            if not sep:
                raise ValueError
            out[kind.strip()] = float(value)
        except ValueError:
            raise ValueError(f"{item!r} is not kind=weight") from None
    kind_weights(out)
    return out


def main(argv: list[str] | None = None) -> None:
    """Command line: build a ``DataConfig`` from the arguments and write its data under ``--out`` (:func:`generate`)."""
    ap = argparse.ArgumentParser(description="Generate SFT data from heuristic trajectories.")
    d = DataConfig()
    ap.add_argument("--out", default=d.out)
    ap.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
    for name in ("train_episodes", "val_episodes", "test_episodes", "max_steps", "synthetic_per_state", "seed",
                 "applicator_layouts", "requests_per_layout"):
        ap.add_argument(f"--{name.replace('_', '-')}", type=int, default=getattr(d, name))
    ap.add_argument("--time-budget", type=float, default=d.time_budget)
    ap.add_argument("--varied-ids", type=float, default=d.varied_ids,
                    help="share of episodes and layouts whose elements are renamed as real files name them")
    ap.add_argument("--kind-weights", default="",
                    help="request kinds drawn more or less often, e.g. distribute=3,align=5 (kinds: "
                         + ", ".join(KIND_WEIGHTS) + ")")
    ap.add_argument("--role-words", type=float, default=d.role_words,
                    help="chance that an element whose role is unique is named by a role word")
    ap.add_argument("--move-amounts", choices=MOVE_AMOUNTS, default=d.move_amounts,
                    help="how far synthetic moves go: the common distances (default), any whole number, or "
                         "each half the time (mixed)")
    args = ap.parse_args(argv)
    if not 0.0 <= args.varied_ids <= 1.0:
        ap.error(f"--varied-ids {args.varied_ids} is not a share between 0 and 1")
    if not 0.0 <= args.role_words <= 1.0:
        ap.error(f"--role-words {args.role_words} is not a share between 0 and 1")
    try:
        weights = parse_kind_weights(args.kind_weights)
    except ValueError as exc:
        ap.error(f"--kind-weights: {exc}")
    cfg = DataConfig(out=args.out, tasks=tuple(t for t in args.tasks.split(",") if t), kind_weights=weights,
                     **{k: getattr(args, k) for k in ("train_episodes", "val_episodes", "test_episodes",
                                                      "max_steps", "synthetic_per_state", "seed", "time_budget",
                                                      "applicator_layouts", "requests_per_layout", "varied_ids",
                                                      "role_words", "move_amounts")})
    generate(cfg)


if __name__ == "__main__":
    main()
