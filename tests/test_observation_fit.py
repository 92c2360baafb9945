"""Observations shortened to fit a model's context: ``fit_observation_text`` and ``fit_planner_prompt``."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.env import LayoutEnv
from assistant.env.observation import COMPACT_LEVELS, fit_observation_text, observation_text
from assistant.importer import import_svg
from assistant.planners.local import DEFAULT_MODEL as BUNDLED

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _obs(path: Path) -> dict:
    env = LayoutEnv(max_steps=8)
    env.reset(seed=0, options={"document": import_svg(path)})
    return env.observation()


def test_a_prompt_that_fits_is_left_as_it_is() -> None:
    obs = _obs(EXAMPLES / "poster.svg")
    assert fit_observation_text(obs, lambda t: True) == observation_text(obs)


def test_each_level_is_shorter_and_keeps_the_line_format(osgeo_dir: Path) -> None:
    obs = _obs(osgeo_dir / "mapbender_a4.svg")  # no locked elements: level 2 leaves nothing out
    full, short, unlocked, bare = [observation_text(obs, compact=k) for k in range(COMPACT_LEVELS + 1)]
    assert len(full) > len(short) == len(unlocked) > len(bare)
    assert all(len(q) <= 12 for q in short.split("\nscore ", 1)[0].split('"')[1::2])  # text cut to 12 characters
    assert bare.split("\nscore ", 1)[0].count('"') == 0  # element text gone
    for text in (short, bare):  # the same lines, fewer characters; the score, findings and step lines kept
        assert [line.split(" ", 4)[:4] for line in text.split("\n")[:3]] == \
            [line.split(" ", 4)[:4] for line in full.split("\n")[:3]]
        assert full.split("\nscore ", 1)[1] == text.split("\nscore ", 1)[1]
    locked = _obs(osgeo_dir / "osgeo-gsoc-A4.svg")  # every element locked: no edit may touch them
    listed, counted = observation_text(locked, compact=1), observation_text(locked, compact=2)
    assert len(counted) < len(listed) // 2 and "(not listed: 66 locked)" in counted
    assert all(f"\n{e['id']} " not in counted for e in locked["elements"])


def test_a_budget_leaves_out_the_least_important_elements_but_none_a_finding_names(osgeo_dir: Path) -> None:
    obs = _obs(osgeo_dir / "mapbender_a4.svg")
    bare = observation_text(obs, compact=COMPACT_LEVELS)
    budget = len(bare) * 2 // 3
    text = fit_observation_text(obs, lambda t: len(t) <= budget)
    assert len(text) <= budget and "others)" in text
    named = {i for w in obs["weakest"] for f in w["findings"] for i in f["ids"]}
    listed = {line.split(" ", 1)[0] for line in text.split("\n")}
    assert named <= listed | {e["id"] for e in obs["elements"] if e.get("locked")}
    # nothing fits: the shortest text there is
    assert len(fit_observation_text(obs, lambda t: False)) < budget


def test_the_local_planner_reads_a_file_longer_than_its_context(osgeo_dir: Path) -> None:
    pytest.importorskip("llama_cpp")
    from assistant.planners.local import ANSWER_RESERVE, fit_planner_prompt
    from assistant.planners.prompting import build_prompt
    from models.policies import load_llama

    llm = load_llama(BUNDLED)
    count = lambda p: len(llm.tokenize(p.encode(), add_bos=True, special=True))  # noqa: E731
    for name in ("osgeo-gsoc-A4.svg", "postgis-flyer-a4.svg", "gdal_a4.svg"):
        obs = _obs(osgeo_dir / name)
        full = build_prompt(observation_text(obs), "", kind="planner")
        prompt = fit_planner_prompt(llm, obs, "")
        assert count(prompt) <= llm.n_ctx() - ANSWER_RESERVE
        assert (prompt == full) == (count(full) <= llm.n_ctx() - ANSWER_RESERVE)


def test_the_applicator_prompt_of_a_large_file_fits_and_keeps_the_element_asked_about(osgeo_dir: Path) -> None:
    from assistant.env.observation import fit_text, layout_element_dicts
    from assistant.planners.prompting import layout_text

    layout = import_svg(osgeo_dir / "mapbender_a4.svg").layout
    elements = layout_element_dicts(layout)
    asked = min(elements, key=lambda e: e["box"][2] * e["box"][3])["id"]  # the first one to go otherwise
    budget = len(layout_text(layout, compact=COMPACT_LEVELS)) * 2 // 3
    text = fit_text(lambda level, out: layout_text(layout, compact=level, leave_out=out), elements, {asked},
                    lambda t: len(t) <= budget)
    assert len(text) <= budget and f"\n{asked} " in text and "others)" in text
    assert layout_text(layout, compact=0) == fit_text(
        lambda level, out: layout_text(layout, compact=level, leave_out=out), elements, set(), lambda t: True)


def test_chat_answers_a_request_on_a_file_longer_than_the_models_context(osgeo_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    from typer.testing import CliRunner

    from assistant.cli import app
    from assistant.planners.local import ANSWER_RESERVE, fit_applicator_prompt
    from models.policies import load_llama

    llm = load_llama(BUNDLED)
    layout = import_svg(osgeo_dir / "postgis-flyer-a4.svg").layout
    prompt = fit_applicator_prompt(llm, layout, "make la-text-1 bigger")
    assert len(llm.tokenize(prompt.encode(), add_bos=True, special=True)) <= llm.n_ctx() - ANSWER_RESERVE
    assert "\nla-text-1 title text " in prompt
    res = CliRunner().invoke(app, ["chat", str(osgeo_dir / "osgeo-gsoc-A4.svg"), "--once",
                                   "make text14621 bigger", "--out", str(tmp_path / "chat")])
    assert "exceed" not in res.output and "context" not in res.output, res.output
