"""Every evaluated episode as a JSON line: written beside a report, read back, and reused by a later report.

A later evaluation may take an earlier one's rows (``rows_from_episodes``) only after the deterministic heuristic,
played again, ends every shared episode exactly as recorded (``check_same_scores``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from models.data import SEED_RANGES
from models.eval.episodes import EpisodeResult, PolicyRow, summarise

#: Every evaluated episode (JSON lines), written beside the report.
EPISODES_FILE = "eval_episodes.jsonl"


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


def rows_from_episodes(stored: list[dict[str, Any]], policy: str, tasks: list[str], episodes: int,
                       source: str | Path, first_seed: int | None = None) -> list[PolicyRow]:
    """``policy``'s rows rebuilt from an earlier evaluation's episodes.

    The episodes are the held-out seeds from ``first_seed`` (default the first held-out seed) with the
    generators' ids. Every task must have its ``episodes`` held-out seeds there; ``[]`` when ``policy`` is
    not there at all.
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
    """Raise unless ``policy``'s episodes run now end as the earlier evaluation recorded them.

    Returns how many episodes were compared. The heuristic is deterministic, so any difference means the
    environment, the tasks or the metrics changed since: the earlier episodes would then not pair with new
    ones. Every episode run now that the earlier evaluation also played is compared (an earlier report on
    fewer seeds checks those it has); at least one must be there.
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
