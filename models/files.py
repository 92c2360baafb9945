"""Real SVG files as episodes: imported once, improved without a brief, seen as is or perturbed.

``layout-assistant fix`` meets a file with no goal: the layout, the default
metric weights and nothing else. The generated tasks cover that only in part
(their layouts are built by this project's generators), so the training data
and the comparisons also play real files (``models.experiments.dagger --files``,
``models.experiments.compare --files``). An episode of a file is ``(file, seed)``:

- seed 0 is the file as it is;
- seed ``s`` > 0 is the file after 1 … ``perturb`` random *damaging* edits
  (drawn with ``random.Random(f"{name}:{s}")``, ``models.requests.synth_action``:
  moves, anchors, resizes, restyles, reorders of the file's own elements), each
  kept only when it is valid and lowers the composite by at least
  ``MIN_DAMAGE`` — a real layout knocked about as a designer's draft would be,
  so one file gives many different states to repair.

Files are held out *by file*: which files train and which test is the
command's choice (run tiny31 in ``docs/experiments.md`` used seven files to train, seven to test).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

#: A perturbing edit must lower the composite by at least this much (one that does not is drawn again).
MIN_DAMAGE = 0.003

#: Candidate edits drawn per perturbing edit before giving up on it (the file keeps fewer edits).
TRIES = 40


def load_files(files: list[str | Path]) -> list[tuple[str, Any]]:
    """``(file name, Document)`` for every file, imported once; names must differ (episodes are paired by name).

    An unreadable file raises the importer's error naming it, before any episode runs.
    """
    from assistant.importer import import_svg

    paths = [Path(f) for f in files]
    names = [p.name for p in paths]
    if len(set(names)) != len(names):
        raise ValueError(f"file names must differ (episodes are paired by name): {', '.join(names)}")
    return [(p.name, import_svg(p)) for p in paths]


def file_variant(document: Any, name: str, seed: int, perturb: int) -> tuple[Any, list[dict[str, Any]]]:
    """The document of episode ``(name, seed)`` (a copy; ``document`` is untouched) and the edits that made it."""
    from assistant.env import LayoutEnv
    from models.requests import synth_action

    if seed < 0 or perturb < 0:
        raise ValueError(f"seed and perturb must be at least 0, got seed {seed}, perturb {perturb}")
    if seed == 0 or perturb == 0:
        return document.copy(), []
    rng = random.Random(f"{name}:{seed}")
    want = rng.randint(1, perturb)
    env = LayoutEnv(max_steps=want * TRIES + 1)
    _, info = env.reset(seed=0, options={"document": document.copy()})
    done: list[dict[str, Any]] = []
    for _ in range(want):
        for _ in range(TRIES):
            action = synth_action(env.document.layout, rng)
            if action is None:
                return env.document.copy(), done
            trial = copy.deepcopy(env)
            _, _, _, _, after = trial.step(action)
            if after["valid"] and not after.get("noop") and after["composite"] <= info["composite"] - MIN_DAMAGE:
                env, info = trial, after
                done.append(action)
                break
    return env.document.copy(), done


def file_env(document: Any, *, max_steps: int) -> tuple[Any, dict[str, Any]]:
    """A fresh episode on ``document`` as ``fix`` meets it: no brief, default weights."""
    from assistant.env import LayoutEnv

    env = LayoutEnv(max_steps=max_steps)
    _, info = env.reset(seed=0, options={"document": document})
    return env, info
