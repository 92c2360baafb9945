"""Environment speed: reset time and steps per second for every task.

Each task is reset once per seed (task generation, SVG import, first metric
report) and then stepped with a fixed cycle of small valid moves and aligns,
the common case for a planner or a policy; every step applies the action to
the layout and the XML and recomputes the full metric report.
"""

from __future__ import annotations

import time

from assistant.env import LayoutEnv
from assistant.env.tasks import task_names

SEEDS = (0, 1, 2)
STEPS = 40


def _cycle(obs: dict) -> list[dict]:
    ids = [e["id"] for e in obs["elements"] if e["role"] != "background" and e["group"] is None]
    out: list[dict] = []
    for i, eid in enumerate(ids):
        d = 3.0 if i % 2 else -3.0
        out.append({"type": "move", "ids": [eid], "dx": d, "dy": -d})
    out.append({"type": "align", "ids": ids[:2], "edge": "left", "to": "each_other"})
    return out


def run() -> list[dict]:
    """One row per task: elements, mean reset and step time, steps a second (see the module docstring)."""
    rows: list[dict] = []
    LayoutEnv("poster").reset(seed=0)  # warm imports and fonts
    for name in task_names():
        env = LayoutEnv(name, max_steps=STEPS + 1)
        reset_s = step_s = 0.0
        steps = 0
        elements = 0
        for seed in SEEDS:
            t0 = time.perf_counter()
            obs, _ = env.reset(seed=seed)
            reset_s += time.perf_counter() - t0
            elements = len(obs["elements"])
            cycle = _cycle(obs)
            t0 = time.perf_counter()
            for i in range(STEPS):
                env.step(cycle[i % len(cycle)])
            step_s += time.perf_counter() - t0
            steps += STEPS
        rows.append({
            "task": name,
            "difficulty": env.task.difficulty,
            "elements": elements,
            "reset ms": 1000 * reset_s / len(SEEDS),
            "step ms": 1000 * step_s / steps,
            "steps/s": steps / step_s,
        })
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
