"""Check an environment's contract, saying exactly what broke.

In the spirit of Gymnasium's ``utils/env_checker.py``: :func:`check_env`
runs the same seed and the same actions twice on the environment and
compares every observation, reward, flag and ``info`` value, reporting the
first difference by its path (``step 3: obs['elements'][2]['box'][0]: 64.0 !=
64.5``). It also checks the shape of what ``reset`` and ``step`` return:
observations are JSON-serialisable dicts with the documented keys, rewards
finite floats, ``info`` carries one key per metric, and invalid actions leave
the document unchanged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from assistant.env.layout_env import LayoutEnv
from assistant.errors import EnvError
from assistant.svg.write import export_svg

OBS_KEYS = ("canvas", "elements", "metrics", "composite", "instruction_fit", "weakest", "instruction",
            "constraints", "step", "max_steps")
INFO_KEYS = ("composite", "instruction_fit", "potential", "valid", "changed_ids", "noop", "premature_finalize",
             "reward_shaping", "reward_penalty", "step")


class EnvCheckError(EnvError):
    """The environment broke its contract; the message says where."""


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Path and values of the first difference between two JSON-like values (None when equal)."""
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return f"{path or '<root>'}: type {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path or '<root>'}: keys {sorted(set(a) ^ set(b)) or 'order'} differ"
        for k in a:
            d = first_difference(a[k], b[k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path or '<root>'}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return None
    if a != b:
        return f"{path or '<root>'}: {a!r} != {b!r}"
    return None


def _check_obs(obs: Any, where: str) -> None:
    if not isinstance(obs, dict):
        raise EnvCheckError(f"{where}: observation is a {type(obs).__name__}, not a dict")
    missing = [k for k in OBS_KEYS if k not in obs]
    if missing:
        raise EnvCheckError(f"{where}: observation lacks {missing}")
    try:
        json.dumps(obs, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise EnvCheckError(f"{where}: observation is not plain JSON: {exc}") from exc


def _check_info(info: Any, env: LayoutEnv, where: str) -> None:
    if not isinstance(info, dict):
        raise EnvCheckError(f"{where}: info is a {type(info).__name__}, not a dict")
    missing = [k for k in INFO_KEYS if k not in info]
    metric_names = list(env.report.metrics)
    missing += [k for k in metric_names if k not in info]
    if missing:
        raise EnvCheckError(f"{where}: info lacks {missing}")
    if not info["valid"] and not info.get("error"):
        raise EnvCheckError(f"{where}: an invalid action must say why in info['error']")


def _run(env: LayoutEnv, seed: int, actions: list[Any], options: dict[str, Any] | None) -> list[tuple[str, Any]]:
    record: list[tuple[str, Any]] = []
    obs, info = env.reset(seed=seed, options=options)
    _check_obs(obs, "reset")
    _check_info(info, env, "reset")
    record.append(("reset", (obs, _plain(info))))
    for i, action in enumerate(actions):
        before = export_svg(env.document)
        obs, reward, terminated, truncated, info = env.step(action)
        where = f"step {i + 1}"
        _check_obs(obs, where)
        _check_info(info, env, where)
        if not isinstance(reward, float) or not math.isfinite(reward):
            raise EnvCheckError(f"{where}: reward {reward!r} is not a finite float")
        if not info["valid"] and export_svg(env.document) != before:
            raise EnvCheckError(f"{where}: invalid action changed the document ({info.get('error')})")
        record.append((where, (obs, reward, terminated, truncated, _plain(info))))
        if terminated or truncated:
            break
    record.append(("final document", export_svg(env.document)))
    return record


def _plain(info: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(info, default=str))


def check_env(env: LayoutEnv, seed: int, actions: Iterable[Any], *, options: dict[str, Any] | None = None) -> None:
    """Run ``actions`` twice from ``reset(seed=seed, options=options)``; require the same results.

    Observations, rewards, flags, info and the final SVG must all be identical.

    Raises ``EnvCheckError`` naming the step and the path of the first
    difference, or the contract rule that was broken.
    """
    actions = list(actions)
    first = _run(env, seed, actions, options)
    second = _run(env, seed, actions, options)
    if len(first) != len(second):
        raise EnvCheckError(f"episode length differs between runs: {len(first)} != {len(second)} records")
    names = ("obs", "reward", "terminated", "truncated", "info")
    for (where, a), (_, b) in zip(first, second):
        if where == "final document":
            if a != b:
                raise EnvCheckError("the final documents differ between runs with the same seed and actions")
            continue
        labels = ("obs", "info") if where == "reset" else names
        for label, x, y in zip(labels, a, b):
            d = first_difference(x, y)
            if d:
                raise EnvCheckError(f"{where}: {label}{d if d.startswith('[') else ': ' + d}")


__all__ = ["check_env", "first_difference", "EnvCheckError"]
