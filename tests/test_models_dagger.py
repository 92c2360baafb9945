"""``models.experiments.dagger``: the teacher's labels at the states the learner reaches, seeds, shards and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.data import SEED_RANGES
from models.experiments.dagger import (
    DaggerConfig,
    dagger_episodes,
    main,
    same_action,
    with_varied_ids,
    without_instruction,
)

TASKS = ["banner", "poster", "slide"]


def test_episodes_stay_in_training_seeds_and_shards_split_them() -> None:
    cfg = DaggerConfig(episodes=7, first_seed=2000)
    whole = dagger_episodes(cfg, TASKS)
    assert [(t, s) for _, t, s in whole] == [("banner", 2000), ("poster", 2000), ("slide", 2000),
                                            ("banner", 2001), ("poster", 2001), ("slide", 2001), ("banner", 2002)]
    parts = [dagger_episodes(DaggerConfig(episodes=7, first_seed=2000, shard=(k, 3)), TASKS) for k in range(3)]
    assert sorted(e for p in parts for e in p) == whole
    assert not set(parts[0]) & set(parts[1])
    start, end = SEED_RANGES["train"]
    with pytest.raises(ValueError, match="outside the training seeds"):
        dagger_episodes(DaggerConfig(first_seed=SEED_RANGES["test"][0]), TASKS)
    with pytest.raises(ValueError, match="overflow the training seeds"):
        dagger_episodes(DaggerConfig(episodes=7, first_seed=end - 2), TASKS)
    assert dagger_episodes(DaggerConfig(episodes=6, first_seed=end - 2), TASKS)[-1][2] == end - 1


def test_a_share_of_episodes_runs_without_instruction() -> None:
    assert [without_instruction(i, 0.25) for i in range(8)] == [True, False, False, False] * 2
    assert all(without_instruction(i, 1.0) for i in range(5))
    assert not any(without_instruction(i, 0.0) for i in range(5))


def test_a_seeded_share_of_episodes_names_elements_as_real_files_do() -> None:
    cfg = DaggerConfig(varied_ids=0.3)
    draws = [with_varied_ids(cfg, t, s) for t in TASKS for s in range(2000, 2100)]
    assert draws == [with_varied_ids(cfg, t, s) for t in TASKS for s in range(2000, 2100)]
    assert 0.2 < sum(draws) / len(draws) < 0.4
    assert not any(with_varied_ids(DaggerConfig(), t, 2000) for t in TASKS)
    assert all(with_varied_ids(DaggerConfig(varied_ids=1.0), t, 2000) for t in TASKS)


def test_same_action_compares_parsed_edits() -> None:
    a = {"type": "move", "ids": ["logo"], "dx": 0, "dy": 12.5}
    assert same_action(a, {"type": "move", "ids": ["logo"], "dx": 0.0, "dy": 12.5})
    assert not same_action(a, {"type": "move", "ids": ["logo"], "dx": 0.0, "dy": 12.0})
    assert not same_action(a, None)
    assert not same_action(a, {"type": "teleport"})


def test_bad_arguments_stop_the_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for argv, why in ((["--shard", "2/2"], "0 <= K < N"), (["--shard", "half"], "K/N"),
                      (["--first-seed", "100"], "outside the training seeds"), (["--samples", "0"], "at least 1"),
                      (["--tasks", "poster,menu"], "unknown task"), (["--no-instruction", "2"], "between 0 and 1"),
                      (["--varied-ids", "-0.5"], "between 0 and 1")):
        with pytest.raises(SystemExit) as exc:
            main(["--out", str(tmp_path / "d"), "--model", str(tmp_path / "none.gguf"), *argv])
        assert exc.value.code == 2
        assert why in capsys.readouterr().err
    assert not (tmp_path / "d" / "train.jsonl").exists()
    pytest.importorskip("llama_cpp")
    with pytest.raises(SystemExit) as exc:  # a missing learner: one clear error naming the file, nothing written
        main(["--out", str(tmp_path / "d"), "--model", str(tmp_path / "none.gguf"), "--episodes", "1"])
    assert exc.value.code == 2 and "none.gguf" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_learner_drives_and_the_teacher_labels_every_state(tmp_path: Path) -> None:
    """With the bundled model as learner: each planner record's answer is the heuristic's action at that state."""
    pytest.importorskip("llama_cpp")
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task
    from assistant.planners.local import DEFAULT_MODEL
    from assistant.planners.prompting import make_record
    from models.policies import HeuristicPolicy

    out = tmp_path / "dagger"
    main(["--model", str(DEFAULT_MODEL), "--out", str(out), "--tasks", "banner", "--episodes", "2",
          "--first-seed", "2000", "--max-steps", "2", "--samples", "1", "--no-instruction", "0.5"])
    recs = [json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()]
    stats = json.loads((out / "stats.json").read_text())
    planner = [r for r in recs if r["kind"] == "planner"]
    assert planner and stats["splits"]["train"]["planner"] == len(planner)
    assert stats["splits"]["train"]["applicator"] == len(recs) - len(planner)
    assert stats["command"].startswith("python -m models.experiments.dagger --model")
    assert stats["seed_ranges"] == {"train": [2000, 2002]} and stats["tasks"] == ["banner"]
    assert {r["meta"]["seed"] for r in recs} == {2000, 2001}
    assert all(r["meta"]["source"] == ("dagger" if r["kind"] == "planner" else "expert") for r in recs)
    assert (out / "val.jsonl").read_text() == "" and not (out / "train.jsonl.part").exists()
    # episode 0 runs without the task's instruction (a share of 0.5: every second episode), episode 1 with it
    assert {r["meta"]["seed"]: r["meta"]["instruction"] for r in recs} == {2000: False, 2001: True}
    assert stats["splits"]["train"]["no_instruction"] == 1
    # the first state of each episode is the task's start: its label is the teacher's first action there
    for seed in (2000, 2001):
        env = LayoutEnv("banner", max_steps=3)
        if seed == 2000:
            task = make_task("banner", seed)
            env.reset(seed=seed, options={"document": task.broken.copy(), "weights": task.weights})
            assert env.instruction is None
        else:
            env.reset(seed=seed, options={"task": "banner", "task_seed": seed})
        want = HeuristicPolicy().act(env).action
        first = next(r for r in planner if r["meta"]["seed"] == seed and r["meta"]["step"] == 0)
        assert first == make_record(env.observation_text(), env.instruction or "", want, kind="planner",
                                    meta=first["meta"])
    # later states are the learner's: each record after step 0 follows a step the learner took
    assert all(r["meta"]["step"] <= 2 for r in planner)
    assert 0 <= stats["learner"]["agreement"] <= 1 and stats["learner"]["teacher_steps"] == 0


def test_teacher_share_one_replays_the_teachers_trajectory(tmp_path: Path) -> None:
    """DAgger's beta = 1: the teacher drives every step, so the labels are the heuristic's own trajectory."""
    pytest.importorskip("llama_cpp")
    from assistant.env.tasks import make_task
    from assistant.planners.local import DEFAULT_MODEL
    from models.data import heuristic_actions

    out = tmp_path / "beta1"
    main(["--model", str(DEFAULT_MODEL), "--out", str(out), "--tasks", "poster", "--episodes", "1",
          "--first-seed", "2000", "--max-steps", "3", "--samples", "1", "--teacher-share", "1"])
    planner = [json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()]
    planner = [json.loads(r["messages"][-1]["content"]) for r in planner if r["kind"] == "planner"]
    stats = json.loads((out / "stats.json").read_text())["learner"]
    expected, _ = heuristic_actions(make_task("poster", 2000), max_steps=3, time_budget=60)
    assert [a["type"] for a in planner[:len(expected)]] == [a["type"] for a in expected]
    assert stats["teacher_steps"] == min(len(expected), 3)


class _Stops:
    """A learner that always answers finalize (for the control flow; the real learner is a GGUF model above)."""

    name = "stops"

    def act(self, env):  # noqa: ANN001, ANN201
        from models.policies import Decision

        return Decision({"type": "finalize"}, '{"type":"finalize"}', 0.0)


def test_an_early_stop_ends_pure_dagger_and_is_handed_to_the_teacher_with_a_share() -> None:
    import random

    from models.experiments.dagger import episode
    from models.policies import HeuristicPolicy

    teacher = HeuristicPolicy()
    # banner seed 2000: a layout on which the teacher finds three defects to mend in a row
    recs, counts = episode(_Stops(), teacher, "banner", 2000, DaggerConfig(max_steps=3), random.Random(0))
    assert counts["states"] == 1 and counts["learner_stopped_early"] == 1 and counts["teacher_steps"] == 0
    recs, counts = episode(_Stops(), teacher, "banner", 2000, DaggerConfig(max_steps=3, teacher_share=1e-9),
                           random.Random(0))
    assert counts["states"] == 4 and counts["learner_steps"] == 3
    assert counts["teacher_steps"] == counts["learner_stopped_early"] == 3
    steps = [r["meta"]["step"] for r in recs if r["kind"] == "planner"]
    assert steps == [0, 1, 2, 3]


def test_varied_ids_episodes_label_the_renamed_layout(tmp_path: Path) -> None:
    """``--varied-ids 1``: the prompts show the renamed elements and the teacher's labels use their ids."""
    pytest.importorskip("llama_cpp")
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task
    from assistant.planners.local import DEFAULT_MODEL
    from assistant.planners.prompting import make_record
    from models.policies import HeuristicPolicy

    out = tmp_path / "ids"
    main(["--model", str(DEFAULT_MODEL), "--out", str(out), "--tasks", "slide", "--episodes", "1",
          "--first-seed", "2000", "--max-steps", "2", "--samples", "1", "--teacher-share", "1", "--varied-ids", "1"])
    recs = [json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()]
    assert recs and all(r["meta"]["ids"] == "varied" for r in recs)
    assert json.loads((out / "stats.json").read_text())["splits"]["train"]["varied_ids"] == 1
    task = make_task("slide", 2000, ids="varied")
    env = LayoutEnv(max_steps=3)
    env.reset(seed=2000, options={"task": task})
    want = HeuristicPolicy().act(env).action
    first = next(r for r in recs if r["kind"] == "planner" and r["meta"]["step"] == 0)
    assert first == make_record(env.observation_text(), env.instruction or "", want, kind="planner", meta=first["meta"])
    renamed = {e.id for e in task.broken.layout.elements}
    assert set(want.get("ids", [])) <= renamed and "bullet-1" not in renamed


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_files_are_played_without_a_brief_as_they_are_then_perturbed(tmp_path: Path) -> None:
    """``--files``: episode i is file i % n at seed i // n; seed 0 is the file itself, later seeds perturbed copies."""
    pytest.importorskip("llama_cpp")
    from assistant.planners.local import DEFAULT_MODEL
    from assistant.planners.prompting import make_record
    from models.files import file_env, file_variant, load_files
    from models.policies import HeuristicPolicy

    out = tmp_path / "files"
    files = [EXAMPLES / "poster.svg", EXAMPLES / "slide.svg"]
    main(["--model", str(DEFAULT_MODEL), "--out", str(out), "--files", *map(str, files),
          "--episodes", "4", "--first-seed", "0", "--max-steps", "2", "--samples", "1", "--perturb", "2"])
    recs = [json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()]
    stats = json.loads((out / "stats.json").read_text())
    planner = [r for r in recs if r["kind"] == "planner"]
    assert stats["tasks"] == ["poster.svg", "slide.svg"] and stats["splits"]["train"]["episodes"] == 4
    assert stats["splits"]["train"]["no_instruction"] == 4 and stats["splits"]["train"]["varied_ids"] == 0
    assert {(r["meta"]["task"], r["meta"]["seed"]) for r in planner} == {
        ("poster.svg", 0), ("poster.svg", 1), ("slide.svg", 0), ("slide.svg", 1)}
    assert all(r["meta"]["source"] == "dagger-file" and r["meta"]["instruction"] is False
               and r["meta"]["ids"] == "file" for r in planner)
    for name, doc in load_files(files):
        for seed in (0, 1):
            env, _ = file_env(file_variant(doc, name, seed, 2)[0], max_steps=3)
            want = HeuristicPolicy().act(env).action
            first = next(r for r in planner if (r["meta"]["task"], r["meta"]["seed"], r["meta"]["step"]) ==
                         (name, seed, 0))
            assert first == make_record(env.observation_text(), "", want, kind="planner", meta=first["meta"])


class _CannotRead:
    """A learner whose context the prompt does not fit (llama.cpp raises ValueError then)."""

    name = "short"

    def act(self, env):  # noqa: ANN001, ANN201
        raise ValueError("Requested tokens exceed context window")


def test_a_learner_that_cannot_read_the_file_stops_and_the_teacher_takes_over() -> None:
    import random

    from models.experiments.dagger import file_episode
    from models.files import load_files
    from models.policies import HeuristicPolicy

    ((name, doc),) = load_files([EXAMPLES / "editorial_cover.svg"])
    recs, counts = file_episode(_CannotRead(), HeuristicPolicy(), name, doc, 0, DaggerConfig(max_steps=2),
                                random.Random(0))
    assert counts["states"] == 1 and counts["learner_stopped_early"] == 1
    recs, counts = file_episode(_CannotRead(), HeuristicPolicy(), name, doc, 0,
                                DaggerConfig(max_steps=2, teacher_share=1e-9), random.Random(0))
    assert counts["states"] == 3 and counts["teacher_steps"] == 2


def test_bad_file_arguments_stop_the_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg><rect")
    poster = str(EXAMPLES / "poster.svg")
    for argv, why in ((["--files", poster, "--tasks", "poster"], "either --tasks or --files"),
                      (["--files", poster, "--first-seed", "-1"], "at least 0"),
                      (["--files", poster, "--perturb", "-1"], "--perturb"),
                      (["--files", poster, poster], "file names must differ"),
                      (["--files", poster, str(broken)], "broken.svg")):
        with pytest.raises(SystemExit) as exc:
            main(["--out", str(tmp_path / "d"), "--model", str(tmp_path / "none.gguf"), *argv])
        assert exc.value.code == 2
        assert why in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_the_models_own_search_can_label_the_states(tmp_path: Path) -> None:
    """``--teacher search``: each label is what the model's best of K tuned answers would do (expert iteration)."""
    pytest.importorskip("llama_cpp")
    from assistant.planners.local import DEFAULT_MODEL
    from assistant.planners.prompting import make_record
    from models.files import file_env, file_variant, load_files
    from models.policies import GGUFPolicy

    model = DEFAULT_MODEL
    out = tmp_path / "search"
    main(["--model", str(model), "--out", str(out), "--files", str(EXAMPLES / "poster.svg"), "--episodes", "1",
          "--first-seed", "1", "--max-steps", "1", "--samples", "1", "--teacher", "search",
          "--teacher-samples", "4", "--tune", "1"])
    stats = json.loads((out / "stats.json").read_text())
    assert stats["config"]["teacher"] == "search" and stats["config"]["teacher_samples"] == 4
    first = next(json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()
                 if json.loads(x)["kind"] == "planner")
    ((name, doc),) = load_files([EXAMPLES / "poster.svg"])
    env, _ = file_env(file_variant(doc, name, 1, 3)[0], max_steps=2)
    want = GGUFPolicy(model, name="search", grammar=True, samples=4, tune=True).act(env).action
    assert want["type"] != "finalize"  # its search improves the poster: the label is that edit
    _, reward, _, _, info = env.step(want)
    assert info["valid"] and reward > 0
    env, _ = file_env(file_variant(doc, name, 1, 3)[0], max_steps=2)
    assert first == make_record(env.observation_text(), "", want, kind="planner", meta=first["meta"])
    with pytest.raises(SystemExit):
        main(["--model", str(model), "--out", str(tmp_path / "bad"), "--teacher-samples", "0", "--teacher", "search"])
    assert not (tmp_path / "bad").exists()


def test_lookahead_labels_a_fix_the_prompt_suggests_when_it_does_at_least_as_well(tmp_path: Path) -> None:
    """``--teacher lookahead``: on a variant of examples/slide.svg the heuristic moves one bullet, but the
    prompt's own suggested move of another gains at least as much one step ahead, so the label is that fix,
    copied."""
    pytest.importorskip("llama_cpp")
    import copy

    from assistant.planners.local import DEFAULT_MODEL
    from assistant.planners.prompting import make_record
    from models.files import file_env, file_variant, load_files
    from models.policies import HeuristicPolicy, LookaheadPolicy, finding_fixes

    ((name, doc),) = load_files([EXAMPLES / "slide.svg"])
    env, _ = file_env(file_variant(doc, name, 1, 3)[0], max_steps=2)
    teacher = LookaheadPolicy()
    got = teacher.act(env).action
    heuristic = HeuristicPolicy().act(env).action
    fixes = finding_fixes(env.observation())
    assert got in fixes and got != heuristic and teacher.copied == 1
    text = env.observation_text()
    assert all(f"fix: {json.dumps(f, separators=(',', ':'))}" in text for f in fixes)  # what the model reads

    def gain(action: dict) -> float:
        _, reward, _, _, info = copy.deepcopy(env).step(action)
        assert info["valid"]
        return reward

    assert gain(got) >= gain(heuristic) > 0
    assert gain(got) == max(gain(f) for f in fixes if copy.deepcopy(env).step(f)[4]["valid"])

    out = tmp_path / "lookahead"
    main(["--model", str(DEFAULT_MODEL), "--out", str(out), "--files", str(EXAMPLES / "slide.svg"),
          "--episodes", "1", "--first-seed", "1", "--max-steps", "1", "--samples", "1", "--teacher", "lookahead"])
    stats = json.loads((out / "stats.json").read_text())
    assert stats["teacher"] == {"name": "lookahead", "copied_fixes": stats["teacher"]["copied_fixes"]}
    assert stats["teacher"]["copied_fixes"] >= 1
    first = next(json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()
                 if json.loads(x)["kind"] == "planner")
    assert first == make_record(text, "", got, kind="planner", meta=first["meta"])


def test_lookahead_keeps_the_heuristics_action_when_no_fix_does_as_well() -> None:
    """Where every suggested fix gains less than the heuristic's edit (or none is valid),
    the label is the heuristic's.
    """
    import copy

    from models.files import file_env, file_variant, load_files
    from models.policies import HeuristicPolicy, LookaheadPolicy, finding_fixes

    ((name, doc),) = load_files([EXAMPLES / "poster.svg"])
    env, _ = file_env(file_variant(doc, name, 0, 3)[0], max_steps=2)
    heuristic = HeuristicPolicy().act(env).action
    got = LookaheadPolicy().act(env).action
    assert got == heuristic  # promote the title: no suggested fix gains as much
    _, h_gain, *_ = copy.deepcopy(env).step(heuristic)
    for fix in finding_fixes(env.observation()):
        _, reward, _, _, info = copy.deepcopy(env).step(fix)
        assert not info["valid"] or reward < h_gain or fix == heuristic


def test_a_large_files_states_are_recorded_as_the_learner_reads_them(tmp_path: Path, osgeo_dir: Path) -> None:
    """postgis-flyer-a4.svg's full observation overflows the bundled model's context: the planner record holds
    the shortened text the runtime's prompt holds, so SFT trains on it instead of dropping it as too long."""
    pytest.importorskip("llama_cpp")
    from assistant.planners.local import ANSWER_RESERVE, DEFAULT_MODEL, fit_planner_prompt
    from assistant.planners.prompting import build_prompt, render_record
    from models.files import file_env, load_files
    from models.policies import load_llama

    svg = osgeo_dir / "postgis-flyer-a4.svg"
    out = tmp_path / "large"
    main(["--model", str(DEFAULT_MODEL), "--out", str(out), "--files", str(svg), "--episodes", "1",
          "--first-seed", "0", "--max-steps", "1", "--samples", "1"])
    first = next(json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()
                 if json.loads(x)["kind"] == "planner")
    llm = load_llama(DEFAULT_MODEL)
    ((_, doc),) = load_files([svg])
    env, _ = file_env(doc, max_steps=2)

    def tokens(text: str) -> int:
        return len(llm.tokenize(text.encode("utf-8"), add_bos=True, special=True))

    assert tokens(build_prompt(env.observation_text(), "", kind="planner")) > llm.n_ctx() - ANSWER_RESERVE
    prompt, _ = render_record(first)
    assert prompt == fit_planner_prompt(llm, env.observation(), "")
    assert tokens(prompt) <= llm.n_ctx() - ANSWER_RESERVE
