"""The env checker: same seed + same actions → identical episodes, over every task."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.env import LayoutEnv
from assistant.env.checker import EnvCheckError, check_env, first_difference
from assistant.env.tasks import task_names


def _actions_for(env: LayoutEnv, seed: int) -> list:
    """A fixed mix of actions built from the task's own elements and findings."""
    obs, _ = env.reset(seed=seed)
    ids = [e["id"] for e in obs["elements"] if e["role"] not in ("background",)]
    title = next((e["id"] for e in obs["elements"] if e["role"] == "title"), ids[0])
    suggestions = [f["suggestion"] for w in obs["weakest"] for f in w["findings"] if f.get("suggestion")]
    return [
        *suggestions[:2],
        {"type": "move", "ids": [ids[-1]], "dx": 7.5, "dy": -3.25},
        {"type": "move", "ids": ["not-there"], "dx": 1, "dy": 1},
        {"type": "promote", "id": title, "factor": 1.15},
        '{"type": "align", "ids": ' + f'["{ids[0]}", "{ids[1]}"]' + ', "edge": "left", "to": "each_other"}',
        {"type": "finalize"},
    ]


@pytest.mark.parametrize("name", task_names())
def test_env_is_deterministic_for_every_task(name):
    env = LayoutEnv(name, max_steps=10)
    actions = _actions_for(env, seed=5)
    check_env(env, 5, actions)


class _LeakyEnv(LayoutEnv):
    """An env whose reward depends on randomness it does not own."""

    _leak = np.random.default_rng()

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward + float(self._leak.random()), terminated, truncated, info


def test_checker_names_the_step_and_what_differs():
    env = _LeakyEnv("banner", max_steps=4)
    with pytest.raises(EnvCheckError, match=r"step 1: reward"):
        check_env(env, 0, [{"type": "move", "ids": ["logo"], "dx": 2, "dy": 0}])


def test_first_difference_gives_the_path():
    a = {"elements": [{"id": "a", "box": [1.0, 2.0]}], "step": 1}
    b = {"elements": [{"id": "a", "box": [1.0, 2.5]}], "step": 1}
    assert first_difference(a, b) == "['elements'][0]['box'][1]: 2.0 != 2.5"
    assert first_difference(a, a) is None
    assert "length" in first_difference([1], [1, 2])
