"""LayoutEnv: reset/step contract, rewards, bad input, observations."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from assistant.document import Element
from assistant.env import LayoutEnv, RewardConfig, observation_text
from assistant.env.reward import potential
from assistant.env.tasks import make_task
from assistant.errors import EnvError
from assistant.geometry import Box
from assistant.importer import import_svg
from assistant.metrics import METRIC_NAMES
from assistant.svg.write import export_svg
from tests.conftest import OSGEO_DIR


def _poster_seed_with(breakage: str) -> int:
    return next(s for s in range(50) if any(breakage in b for b in make_task("poster", s).breakages))


@pytest.fixture(scope="module")
def logo_seed() -> int:
    """A poster seed whose logo was moved out of its corner."""
    return _poster_seed_with("move logo")


@pytest.fixture()
def env(logo_seed):
    e = LayoutEnv("poster", max_steps=8)
    e.reset(seed=0, options={"task_seed": logo_seed})
    return e


def test_reset_returns_observation_and_info_with_one_key_per_metric():
    env = LayoutEnv("poster")
    obs, info = env.reset(seed=1, options={"task_seed": 2})
    for name in METRIC_NAMES:
        assert name in info and 0.0 <= info[name] <= 1.0
        assert obs["metrics"][name] == pytest.approx(info[name], abs=1e-4)
    assert info["composite"] == pytest.approx(env.report.composite)
    assert info["task"] == "poster" and info["step"] == 0 and info["valid"]
    assert obs["instruction"] == env.task.instruction
    assert {e["id"] for e in obs["elements"]} >= {"title", "logo", "photo", "cta"}
    assert obs["constraints"] and obs["step"] == 0
    json.dumps(obs, allow_nan=False)


def test_valid_step_reward_is_the_change_in_potential(env):
    phi0 = env._phi
    obs, reward, terminated, truncated, info = env.step(
        {"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"})
    assert info["valid"] and info["changed_ids"] == ["logo"]
    expected = potential(info["composite"], info["instruction_fit"], env.reward_config) - phi0
    assert reward == pytest.approx(expected, abs=1e-12)
    assert reward > 0 and not terminated and not truncated
    assert info["reward_shaping"] == pytest.approx(reward) and info["reward_penalty"] == 0.0


def test_actions_may_be_models_dicts_or_json_text(env):
    from assistant.actions import parse_action

    _, _, _, _, a = env.step(parse_action({"type": "move", "ids": ["logo"], "dx": 5, "dy": 0}))
    _, _, _, _, b = env.step('{"type": "move", "ids": ["logo"], "dx": -5, "dy": 0}')
    assert a["valid"] and b["valid"]


BAD = [
    ({"type": "teleport", "ids": ["logo"]}, "unknown action type"),
    ({"type": "move", "ids": "logo", "dx": 1, "dy": 0}, "ids"),
    ({"type": "move", "ids": ["logo"], "dx": "far", "dy": 0}, "dx"),
    ({"type": "resize", "id": "logo", "width": float("nan")}, "finite"),
    ({"type": "move", "ids": ["ghost"], "dx": 1, "dy": 0}, "ghost"),
    ({"type": "promote", "id": "nobody", "factor": 1.2}, "nobody"),
    ("{not json", "not valid JSON"),
    (42, "JSON object"),
    ({"dx": 3}, "no 'type'"),
]


@pytest.mark.parametrize("action,needle", BAD, ids=[str(b[0])[:30] for b in BAD])
def test_bad_actions_cost_the_invalid_penalty_and_change_nothing(env, action, needle):
    before_svg = export_svg(env.document)
    before_obs = env.observation()
    obs, reward, terminated, truncated, info = env.step(action)
    assert not info["valid"] and needle in info["error"]
    assert reward == -env.reward_config.invalid_penalty
    assert export_svg(env.document) == before_svg
    assert obs["elements"] == before_obs["elements"] and obs["composite"] == before_obs["composite"]
    assert not terminated


def test_noop_is_penalised(env):
    _, reward, _, _, info = env.step({"type": "move", "ids": ["logo"], "dx": 0, "dy": 0})
    assert info["valid"] and info["noop"]
    assert reward == pytest.approx(-env.reward_config.noop_penalty)


def test_acting_after_the_end_or_before_reset_raises():
    env = LayoutEnv("banner", max_steps=2)
    with pytest.raises(EnvError, match="reset"):
        env.step({"type": "finalize"})
    env.reset(seed=0)
    env.step({"type": "move", "ids": ["logo"], "dx": 1, "dy": 0})
    _, _, terminated, truncated, _ = env.step({"type": "move", "ids": ["logo"], "dx": 1, "dy": 0})
    assert truncated and not terminated
    with pytest.raises(EnvError, match="ended"):
        env.step({"type": "move", "ids": ["logo"], "dx": 1, "dy": 0})
    env.reset(seed=0)
    _, _, terminated, truncated, _ = env.step({"type": "finalize"})
    assert terminated and not truncated
    with pytest.raises(EnvError):
        env.step({"type": "finalize"})


def oracle_actions(task) -> list[dict]:
    """Real actions moving (and resizing) every broken top-level element back
    to its clean box: a resize about the point the breakage kept (top-left or
    top-centre), then a move."""
    from assistant.actions import apply_action

    doc = task.broken.copy()
    out = []
    clean = {e.id: e.box for e in task.clean.layout.elements}
    for e in [e for e in doc.layout.elements if e.group is None]:
        box, target = doc.layout.get(e.id).box, clean[e.id]
        if abs(box.width - target.width) > 0.5 and box.width > 0:
            anchor = "top" if abs(box.cx - target.cx) < abs(box.x - target.x) else "top_left"
            a = {"type": "resize", "id": e.id, "scale": target.width / box.width, "anchor": anchor}
            apply_action(doc, a)
            out.append(a)
            box = doc.layout.get(e.id).box
        if abs(box.x - target.x) > 0.05 or abs(box.y - target.y) > 0.05:
            a = {"type": "move", "ids": [e.id], "dx": target.x - box.x, "dy": target.y - box.y}
            apply_action(doc, a)
            out.append(a)
    return out


def test_premature_finalize_is_penalised_and_a_finished_one_is_not(logo_seed):
    task = make_task("poster", logo_seed)
    env = LayoutEnv("poster")
    env.reset(options={"task": task})
    _, reward, terminated, _, info = env.step({"type": "finalize"})
    assert terminated and info["premature_finalize"] and reward == -env.reward_config.premature_penalty
    env.reset(options={"task": task})
    for a in oracle_actions(task):
        env.step(a)
    _, reward, terminated, _, info = env.step({"type": "finalize"})
    assert terminated and not info["premature_finalize"] and reward == 0.0
    assert info["gap_remaining"] < 0.05


def test_premature_without_a_reference_uses_the_threshold():
    doc = import_svg(Path(__file__).resolve().parents[1] / "examples" / "editorial_cover.svg")  # scores about 0.8
    strict = LayoutEnv(reward=RewardConfig(finalize_threshold=0.99))
    strict.reset(options={"document": doc})
    assert strict.step({"type": "finalize"})[4]["premature_finalize"]
    lax = LayoutEnv(reward=RewardConfig(finalize_threshold=0.0))
    lax.reset(options={"document": doc})
    assert not lax.step({"type": "finalize"})[4]["premature_finalize"]


def _random_action(rng, obs):
    """A random action: a finding's suggestion, a random move or promote, or garbage."""
    ids = [e["id"] for e in obs["elements"] if e["role"] != "background"]
    r = rng.random()
    sugg = [f["suggestion"] for w in obs["weakest"] for f in w["findings"] if f.get("suggestion")]
    if r < 0.35 and sugg:
        return sugg[int(rng.integers(len(sugg)))]
    if r < 0.75:
        return {"type": "move", "ids": [ids[int(rng.integers(len(ids)))]],
                "dx": float(rng.normal(0, 25)), "dy": float(rng.normal(0, 25))}
    if r < 0.9:
        return {"type": "promote", "id": ids[int(rng.integers(len(ids)))], "factor": float(rng.uniform(1.05, 1.4))}
    return {"type": "move", "ids": ["no-such-element"], "dx": 1.0, "dy": 1.0}


def test_total_reward_agrees_with_final_quality():
    """Potential-based shaping: the return is Φ(final) − Φ(initial) − penalties,
    so among episodes paying the same penalties the better final layout earns more."""
    env = LayoutEnv("social", max_steps=6)
    rng = np.random.default_rng(7)
    episodes = []
    for _ in range(24):
        obs, info = env.reset(options={"task_seed": 4})
        phi0, total, penalties = info["potential"], 0.0, 0.0
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(_random_action(rng, obs))
            total += reward
            penalties += info["reward_penalty"]
            done = terminated or truncated
        assert total == pytest.approx(info["potential"] - phi0 - penalties, abs=1e-9)
        episodes.append((round(penalties, 9), info["potential"], total))
    by_penalty: dict[float, list] = {}
    for p, phi, total in episodes:
        by_penalty.setdefault(p, []).append((phi, total))
    compared = 0
    for group in by_penalty.values():
        for phi_a, tot_a in group:
            for phi_b, tot_b in group:
                if phi_a > phi_b + 1e-9:
                    assert tot_a > tot_b
                    compared += 1
    assert compared > 0
    finals = [phi for _, phi, _ in episodes]
    assert max(finals) - min(finals) > 0.01  # the episodes really differ


def test_reset_from_an_imported_document_with_instruction_and_json_constraints():
    doc = import_svg(OSGEO_DIR / "pgRouting_a4.svg")
    env = LayoutEnv()
    obs, info = env.reset(options={"document": doc, "instruction": "logo top right and make it sparkle",
                                   "constraints": '[{"type": "margins", "min_px": 20}]'})
    assert env.task is None and "clean_potential" not in info
    assert info["not_understood"] and "sparkle" in info["not_understood"][0]
    assert [c.type for c in env.constraints] == ["region", "margins"]
    assert "logo top right" in obs["instruction"]
    _, _, _, _, info = env.step({"type": "anchor_to_region", "ids": [obs["elements"][1]["id"]], "region": "center"})
    assert export_svg(doc) != export_svg(env.document) or not info["valid"]  # the caller's document is a copy


@pytest.mark.parametrize("options,needle", [
    ({"task": "nope"}, "unknown task"),
    ({"colour": "red"}, "unknown reset option"),
    ({"document": 42}, "Document or SVG text"),
    ({"document": "<svg", "instruction": "x"}, "reset document"),
    ({"task": "poster", "instruction": "logo top left"}, "go with a document"),
])
def test_bad_reset_options_raise_env_error(options, needle):
    with pytest.raises(EnvError, match=needle):
        LayoutEnv().reset(seed=0, options=options)


def test_a_failed_reset_leaves_no_episode_to_step():
    from assistant.errors import LayoutError

    env = LayoutEnv("banner")
    env.reset(seed=0)
    with pytest.raises(LayoutError, match="no_such_metric"):
        env.reset(seed=0, options={"weights": {"no_such_metric": 1.0}})
    with pytest.raises(EnvError, match="reset"):
        env.step({"type": "finalize"})


def test_bad_constructor_arguments_raise_env_error():
    with pytest.raises(EnvError):
        LayoutEnv("nope")
    with pytest.raises(EnvError):
        LayoutEnv(max_steps=0)
    with pytest.raises(ValueError):
        RewardConfig(invalid_penalty=float("nan"))


def test_seed_picks_the_same_task_and_task_seed():
    a, b = LayoutEnv(), LayoutEnv()
    oa, ia = a.reset(seed=123)
    ob, ib = b.reset(seed=123)
    assert a.task.name == b.task.name and a.task.seed == b.task.seed and oa == ob
    names = {LayoutEnv().reset(seed=s)[1]["task"] for s in range(12)}
    assert len(names) >= 3


def _tokens(text: str) -> int:
    """A conservative token count: words, numbers and each punctuation mark."""
    return len(re.findall(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]", text))


def test_observation_text_is_compact_for_a_30_element_layout():
    task = make_task("flyer", 0)
    doc = task.broken.copy()
    layout = doc.layout
    base = layout.get("details")
    for i in range(30 - len(layout.elements)):
        layout.elements.append(Element(id=f"note-{i}", kind="text", role="caption", text=f"Note number {i} about it",
                                       box=Box(x=20 + i, y=240, width=40, height=4), font_size=3.0,
                                       z=100 + i, fill=base.fill))
    layout._index = None
    env = LayoutEnv()
    obs, _ = env.reset(options={"document": doc, "instruction": task.instruction})
    assert len(obs["elements"]) == 30
    text = observation_text(obs)
    assert _tokens(text) < 1500, _tokens(text)
    for e in obs["elements"]:
        assert e["id"] in text
    assert task.instruction in text and "weakest" in text and "step 0/" in text
    assert env.observation_text() == text


def test_render_gives_the_current_svg(env):
    env.step({"type": "move", "ids": ["logo"], "dx": 10, "dy": 0})
    svg = env.render()
    assert svg.lstrip().startswith("<") and "logo" in svg
    assert math.isfinite(env.report.composite)


def test_deepcopy_gives_an_independent_env_with_the_same_future(env):
    import copy

    twin = copy.deepcopy(env)
    action = {"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"}
    before = export_svg(env.document)
    a = twin.step(action)
    assert export_svg(env.document) == before and env.observation()["step"] == 0
    b = env.step(action)
    assert a[0] == b[0] and a[1] == b[1] and a[4] == b[4]
    assert env.clone().observation() == env.observation()
