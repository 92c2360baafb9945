"""models.experiments.compare: planners paired on the same held-out episodes, with intervals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp")

from assistant.planners.local import DEFAULT_MODEL  # noqa: E402
from models.experiments.compare import (  # noqa: E402
    EPISODES_FILE,
    check_seeds,
    compare,
    episodes_path,
    main,
    parse_spec,
)

BUNDLED = DEFAULT_MODEL  # the bundled applicator, package data of the core


def test_parse_spec_forms_and_errors():
    assert parse_spec("heuristic") == ("heuristic", None, None)
    assert parse_spec("random") == ("random", None, None)
    assert parse_spec("fixes") == ("fixes", None, None)
    assert parse_spec("grpo=runs/x/grpo.gguf") == ("grpo", Path("runs/x/grpo.gguf"), None)
    assert parse_spec("g=base.gguf+a.lora.gguf") == ("g", Path("base.gguf"), Path("a.lora.gguf"))
    for bad in ("grpo.gguf", "=x.gguf", "name=", "g=base.gguf+"):
        with pytest.raises(ValueError, match="planner"):
            parse_spec(bad)


def test_seeds_must_stay_in_their_split():
    check_seeds("test", 100, 400)
    with pytest.raises(ValueError, match="leave the test range 100–499"):
        check_seeds("test", 108, 400)
    with pytest.raises(ValueError, match="leave the val range"):
        check_seeds("val", 400, 8)
    with pytest.raises(ValueError, match="at least 1"):
        check_seeds("test", 100, 0)


def test_pairs_episodes_and_writes_report(tmp_path):
    out = tmp_path / "cmp" / "COMPARE.md"
    res = compare([f"model={BUNDLED}", "heuristic", "random"], episodes=2, first_seed=110,
                  tasks=["banner", "poster"], out=out, command="python -m models.experiments.compare …")
    overall = {r.policy: r for r in res["rows"] if r.task == "all"}
    assert set(overall) == {"model", "heuristic", "random"}
    assert sorted({(e.task, e.seed) for e in overall["model"].details}) == [
        ("banner", 110), ("banner", 111), ("poster", 110), ("poster", 111)]
    pairs = {(c["a"], c["b"]): c for c in res["comparisons"]}
    assert list(pairs) == [("model", "heuristic"), ("model", "random"), ("heuristic", "random")]
    c = pairs[("heuristic", "random")]
    theirs = {(e.task, e.seed): e.composite for e in overall["random"].details}
    deltas = [e.composite - theirs[(e.task, e.seed)] for e in overall["heuristic"].details]
    assert c["mean"] == pytest.approx(sum(deltas) / 4)
    assert c["low"] <= c["mean"] <= c["high"] and c["pairs"] == 4
    assert c["better"] + c["worse"] <= 4 and c["better"] == sum(d > 1e-9 for d in deltas)
    assert c["verdict"] == "too few episodes (4 < 10)"  # no verdict from a bootstrap over four pairs
    text = out.read_text()
    assert "Seeds 110–111 of tasks banner, poster (4 episodes per planner" in text
    assert "| heuristic − random |" in text and "python -m models.experiments.compare …" in text
    stored = [json.loads(x) for x in (out.parent / EPISODES_FILE).read_text().splitlines()]
    assert len(stored) == 12 and {s["seed"] for s in stored} == {110, 111}


def test_validation_split_verdict_and_bad_input_write_nothing(tmp_path):
    out = tmp_path / "COMPARE.md"
    res = compare(["heuristic", "random"], episodes=5, split="val", tasks=["slide", "banner"])
    assert {e.seed for r in res["rows"] for e in r.details} == set(range(500, 505)) and res["report"] is None
    (c,) = res["comparisons"]
    assert c["pairs"] == 10 and c["verdict"] in ("yes", "no", "within noise")
    assert (c["verdict"] == "yes") == (c["low"] > 0)  # the teacher against random edits, judged by its interval
    with pytest.raises(ValueError, match="must differ"):
        compare(["heuristic", "heuristic"], episodes=1, out=out)
    with pytest.raises(ValueError, match="at least two"):
        compare(["heuristic"], episodes=1, out=out)
    with pytest.raises(ValueError, match="unknown task"):
        compare(["heuristic", "random"], episodes=1, tasks=["nope"], out=out)
    with pytest.raises(ValueError, match="--samples must be at least 1"):
        compare(["heuristic", "random"], episodes=1, samples=0, out=out)
    with pytest.raises(ValueError, match="'test' or 'val'"):
        compare(["heuristic", "random"], episodes=1, split="train", out=out)
    assert not out.exists() and not (tmp_path / EPISODES_FILE).exists()


def test_cli_names_the_missing_model_and_exits_nonzero(tmp_path, capsys):
    missing = tmp_path / "gone.gguf"
    with pytest.raises(SystemExit) as exc:
        main([f"a={missing}", "heuristic", "--episodes", "1", "--out", str(tmp_path / "C.md")])
    assert str(missing) in str(exc.value.code) and "not found" in str(exc.value.code)
    assert not (tmp_path / "C.md").exists()
    not_gguf = tmp_path / "text.gguf"
    not_gguf.write_text("not a model")
    with pytest.raises(SystemExit) as exc:
        main([f"a={not_gguf}", "heuristic", "--episodes", "1"])
    assert str(not_gguf) in str(exc.value.code)


def test_without_instructions_the_tasks_come_as_bare_documents(tmp_path):
    from assistant.env import LayoutEnv
    from assistant.env.tasks import make_task
    from models.eval.episodes import run_episode
    from models.policies import HeuristicPolicy

    out = tmp_path / "COMPARE.md"
    res = compare(["heuristic", "random"], episodes=2, first_seed=120, tasks=["poster"], instruction=False, out=out)
    assert "elements named `plain`, without the tasks' instructions), at most" in out.read_text()
    bare = {e.seed: e for r in res["rows"] if r.policy == "heuristic" and r.task == "poster" for e in r.details}
    # the same broken layout, scored with the task's weights but no brief: instruction fit is 1 and no gap exists
    env = LayoutEnv("poster", max_steps=6)
    t = make_task("poster", 120)
    _, info = env.reset(seed=120, options={"document": t.broken.copy(), "weights": t.weights})
    assert env.instruction is None and info["instruction_fit"] == 1.0
    assert bare[120].fit == 1.0 and bare[120].gap_closed == 0.0
    with_brief = LayoutEnv("poster", max_steps=6)
    _, start = with_brief.reset(seed=120, options={"task": t})
    assert with_brief.instruction and start["instruction_fit"] < 1.0  # the brief is what the bare run lacks
    again = run_episode(HeuristicPolicy(), "poster", 120, max_steps=6, instruction=False)
    assert again.composite == pytest.approx(bare[120].composite) and again.fit == 1.0


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_files_are_compared_paired_by_name(tmp_path):
    out = tmp_path / "files" / "COMPARE.md"
    files = [EXAMPLES / "poster.svg", EXAMPLES / "slide.svg"]
    res = compare(["heuristic", "random"], episodes=1, files=files, max_steps=3, out=out)
    per_file = {(r.policy, r.task): r for r in res["rows"]}
    assert {t for _, t in per_file} == {"poster.svg", "slide.svg", "all"}
    (c,) = res["comparisons"]
    deltas = [per_file[("heuristic", f)].composite - per_file[("random", f)].composite
              for f in ("poster.svg", "slide.svg")]
    assert c["pairs"] == 2 and c["mean"] == pytest.approx(sum(deltas) / 2)
    text = out.read_text()
    assert text.startswith("# Planner comparison on SVG files") and "2 files, each imported once" in text
    stored = [json.loads(x) for x in (out.parent / EPISODES_FILE).read_text().splitlines()]
    assert {(s["policy"], s["task"], s["ids"]) for s in stored} >= {("heuristic", "poster.svg", "file")}


def test_files_with_perturbed_variants_are_paired_by_file_and_seed(tmp_path):
    from models.eval.episodes import run_file_episode
    from models.files import file_variant, load_files
    from models.policies import HeuristicPolicy

    out = tmp_path / "variants" / "COMPARE.md"
    files = [EXAMPLES / "poster.svg", EXAMPLES / "slide.svg"]
    res = compare(["heuristic", "random"], episodes=1, files=files, max_steps=2, variants=3, perturb=2, out=out)
    rows = {(r.policy, r.task): r for r in res["rows"]}
    assert rows[("heuristic", "all")].episodes == 6 and rows[("heuristic", "poster.svg")].episodes == 3
    (c,) = res["comparisons"]
    assert c["pairs"] == 6
    assert {(e.task, e.seed) for e in rows[("random", "all")].details} == {
        (f, s) for f in ("poster.svg", "slide.svg") for s in range(3)}
    # seed 2 of slide.svg is the perturbed copy models.files makes, played from its own composite
    name, doc = load_files([EXAMPLES / "slide.svg"])[0]
    again = run_file_episode(HeuristicPolicy(), file_variant(doc, name, 2, 2)[0], name, max_steps=2, seed=2)
    played = next(e for e in rows[("heuristic", "all")].details if (e.task, e.seed) == (name, 2))
    assert played.composite == pytest.approx(again.composite) and played.steps == again.steps
    assert "each played as it is and in 2 perturbed copies" in out.read_text()
    with pytest.raises(ValueError, match="--variants"):
        compare(["heuristic", "random"], episodes=1, files=files, variants=0, out=tmp_path / "none.md")
    assert not (tmp_path / "none.md").exists()


def test_a_file_the_model_cannot_read_is_its_failure_not_a_crash(osgeo_dir):
    from assistant.importer import import_svg
    from models.eval.episodes import run_file_episode
    from models.policies import GGUFPolicy, load_llama

    long_file = osgeo_dir / "osgeo-gsoc-A4.svg"
    doc = import_svg(long_file)
    # a context too short for even the most compact prompt (the system prompt alone does not fit)
    short = GGUFPolicy(BUNDLED, name="m", grammar=True, llm=load_llama(BUNDLED, n_ctx=160))
    res = run_file_episode(short, doc.copy(), long_file.name, max_steps=3)
    assert (res.ended, res.valid, res.steps) == ("invalid", 0, 1) and res.parsed <= 1
    # with the model's own context the file, whose full prompt is longer than it, is read in brief
    res = run_file_episode(GGUFPolicy(BUNDLED, name="m", grammar=True), doc.copy(), long_file.name, max_steps=3)
    # (a well-formed answer; every element of this file is locked, so only finalize would be a valid one)
    assert res.parsed == res.answers >= 1 and res.seconds > 0


def test_bad_files_are_named_and_nothing_is_written(tmp_path, capsys):
    out = tmp_path / "C.md"
    with pytest.raises(ValueError, match="file names must differ"):
        compare(["heuristic", "random"], episodes=1, files=[EXAMPLES / "poster.svg", EXAMPLES / "poster.svg"], out=out)
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg><rect")
    with pytest.raises(SystemExit) as exc:
        main(["heuristic", "random", "--files", str(EXAMPLES / "slide.svg"), str(broken), "--out", str(out)])
    assert "broken.svg" in str(exc.value.code)
    assert not out.exists() and not (tmp_path / EPISODES_FILE).exists()


def test_tuned_amounts_are_a_named_planners_option(tmp_path):
    import copy

    from models.files import file_env, file_variant, load_files
    from models.policies import GGUFPolicy

    with pytest.raises(ValueError, match="--tune heuristic: not a model planner"):
        compare(["heuristic", "random"], episodes=1, tune=["heuristic"], out=tmp_path / "C.md")
    assert not (tmp_path / "C.md").exists()
    # the same model, once as it answers and once with its answers' amounts tuned, on the same damaged copy of a file
    name, doc = load_files([EXAMPLES / "slide.svg"])[0]
    plain = GGUFPolicy(BUNDLED, name="plain", grammar=True, samples=1)
    tuned = GGUFPolicy(BUNDLED, name="tuned", grammar=True, samples=1, tune=True, llm=plain.llm)
    env, _ = file_env(file_variant(doc, name, 3, 3)[0], max_steps=4)
    mine, theirs = plain.act(env), tuned.act(env)
    assert mine.action["type"] == theirs.action["type"] == "move" and mine.action["ids"] == theirs.action["ids"]
    scale = theirs.action["dy"] / mine.action["dy"]  # the greedy answer's move, further or less far
    assert theirs.action["dx"] == mine.action["dx"] * scale and scale > 0 and scale != 1
    gains = [copy.deepcopy(env).step(d.action)[1] for d in (mine, theirs)]
    assert gains[1] > max(gains[0], 0.0)  # greedy alone barely moves the score; the tuned move improves it
    out = tmp_path / "T.md"
    res = compare([f"plain={BUNDLED}", f"tuned={BUNDLED}"], episodes=1, files=[EXAMPLES / "flyer.svg"],
                  max_steps=2, grammar=True, tune=["tuned"], out=out)
    assert {r.policy for r in res["rows"]} == {"plain", "tuned"}
    assert "tuned also with each answer's amounts scaled" in out.read_text()


def test_the_fixes_baseline_copies_the_best_suggested_fix(tmp_path):
    """``fixes``: the suggested fix that gains most by simulation, ``finalize`` when none improves; compared
    like any planner."""
    import copy

    from models.files import file_env, load_files
    from models.policies import FixesPolicy, finding_fixes

    def gain(env, action):
        _, reward, _, _, info = copy.deepcopy(env).step(action)
        return reward if info["valid"] and not info.get("noop") else float("-inf")

    ((_, doc),) = load_files([EXAMPLES / "slide.svg"])
    env, _ = file_env(doc, max_steps=12)
    fixes = finding_fixes(env.observation())
    got = FixesPolicy().act(env).action
    assert got in fixes
    assert gain(env, got) == max(gain(env, f) for f in fixes) > 0
    for _ in range(12):  # played on, it stops exactly where no suggested fix improves the layout
        got = FixesPolicy().act(env).action
        if got["type"] == "finalize":
            break
        env.step(got)
    assert got == {"type": "finalize"}
    assert all(gain(env, f) <= 0 for f in finding_fixes(env.observation()))

    res = compare(["fixes", "random"], episodes=1, files=[EXAMPLES / "slide.svg"], max_steps=2,
                  out=tmp_path / "COMPARE.md")
    assert {r.policy for r in res["rows"]} == {"fixes", "random"} and res["comparisons"][0]["pairs"] == 1
    assert "llama.cpp" not in (tmp_path / "COMPARE.md").read_text()  # no model answered


def test_a_model_with_suggestions_does_at_least_as_well_as_the_fixes_each_step(tmp_path):
    """``--suggestions NAME``: the findings' fixes are verified beside the model's answers, so each decision
    gains at least what the best fix alone gains, and the report says how the answers were chosen."""
    import copy

    from models.files import file_env, load_files
    from models.policies import FixesPolicy, GGUFPolicy

    def gain(env, action):
        _, reward, _, _, info = copy.deepcopy(env).step(action)
        return reward if info["valid"] and not info.get("noop") else 0.0

    ((_, doc),) = load_files([EXAMPLES / "slide.svg"])
    env, _ = file_env(doc, max_steps=12)
    model = GGUFPolicy(BUNDLED, name="m", grammar=True, suggestions=True)
    steps = 0
    for _ in range(3):
        fix = FixesPolicy().act(env).action
        if fix["type"] == "finalize":
            break  # the findings suggest nothing more (the bullets go back on their edge in one edit)
        got = model.act(env).action
        assert gain(env, got) >= gain(env, fix) > 0
        env.step(got)
        steps += 1
    assert steps >= 1

    with pytest.raises(ValueError, match="--suggestions fixes: not a model planner"):
        compare(["m=" + str(BUNDLED), "fixes"], episodes=1, files=[EXAMPLES / "slide.svg"], suggestions=["fixes"])
    res = compare(["m=" + str(BUNDLED), "fixes"], episodes=1, files=[EXAMPLES / "slide.svg"], max_steps=2,
                  grammar=True, suggestions=["m"], out=tmp_path / "COMPARE.md")
    assert res["comparisons"][0]["pairs"] == 1
    assert "m with the fixes the findings suggest verified beside the answers" in (tmp_path / "COMPARE.md").read_text()


def test_models_compare_as_applicators_on_the_evaluations_requests(tmp_path, capsys):
    """``--requests N`` answers the evaluation's held-out requests once per model, as ``models.eval`` scores them."""
    from models.eval.applicator import applicator_cases, evaluate_applicator
    from models.policies import GGUFPolicy

    out = tmp_path / "APPLICATOR.md"
    main([f"a={BUNDLED}", f"b={BUNDLED}", "--requests", "3", "--episodes", "1", "--tasks", "banner,poster",
          "--grammar", "--out", str(out)])
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert [r["policy"] for r in rows] == ["a", "b"]
    want = evaluate_applicator(GGUFPolicy(BUNDLED, name="a", grammar=True),
                               applicator_cases(["banner", "poster"], 1, 3))
    for r in rows:
        assert r["cases"] == want["cases"] == 6
        for key in ("edit_accuracy", "exact_match", "valid_rate", "collateral_damage"):
            assert r[key] == pytest.approx(want[key])
        assert r["by_action"] == want["by_action"]
    text = out.read_text()
    assert "6 plain-language requests" in text and "under the action grammar" in text
    assert f"| a | 6 | {want['edit_accuracy']:.1%} |" in text
    for action, tally in want["by_action"].items():  # the breakdown, one row per model and action asked for
        assert f"| b | {action} | {tally['cases']} | {tally['right'] / tally['cases']:.1%} |" in text


def test_one_model_is_measured_alone_as_an_applicator_but_episodes_need_two(tmp_path, capsys):
    """An applicator table needs no partner; a paired comparison of episodes does."""
    out = tmp_path / "ONE.md"
    main([f"bundled={BUNDLED}", "--requests", "2", "--episodes", "1", "--tasks", "banner", "--grammar",
          "--out", str(out)])
    (row,) = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert row["policy"] == "bundled" and row["cases"] == 2
    assert "| bundled | 2 |" in out.read_text()
    with pytest.raises(SystemExit) as err:
        main([f"bundled={BUNDLED}", "--episodes", "1", "--tasks", "banner", "--out", str(tmp_path / "E.md")])
    assert "at least two" in str(err.value) and not (tmp_path / "E.md").exists()


def test_models_compare_as_applicators_on_moves_by_any_distance(tmp_path, capsys):
    from models.eval.applicator import applicator_cases

    out = tmp_path / "MOVES.md"
    main([f"a={BUNDLED}", f"b={BUNDLED}", "--requests", "2", "--episodes", "1", "--tasks", "poster", "--moves", "any",
          "--grammar", "--out", str(out)])
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert rows[0]["cases"] == 2 and list(rows[0]["by_action"]) == ["move"]
    assert "2 plain-language requests, each a move by any distance, up to 2" in out.read_text()
    assert [c["request"] for c in applicator_cases(["poster"], 1, 2, moves="any")] != [
        c["request"] for c in applicator_cases(["poster"], 1, 2)]
    with pytest.raises(SystemExit) as err:
        main([f"a={BUNDLED}", f"b={BUNDLED}", "--moves", "any", "--episodes", "1", "--out", str(tmp_path / "X.md")])
    assert err.value.code == 2 and "--moves is about the requests of --requests" in capsys.readouterr().err
    assert not (tmp_path / "X.md").exists()
    with pytest.raises(SystemExit) as err:
        main([f"a={BUNDLED}", f"b={BUNDLED}", "--free-distances", "--episodes", "1"])
    assert err.value.code == 2 and "--free-distances is about the requests of --requests" in capsys.readouterr().err


def test_the_grammar_moves_as_far_as_a_request_names_and_free_distances_leave_it_to_the_model(tmp_path, capsys):
    """Under the runtime's grammar every answered move goes the distance its request names; ``--free-distances``
    leaves the distance to the model (``GGUFPolicy(free_distances=True)``), and each report says which."""
    from models.experiments.compare import make_policies

    args = [f"a={BUNDLED}", f"b={BUNDLED}", "--requests", "4", "--episodes", "1", "--tasks", "poster,slide",
            "--moves", "any", "--grammar"]
    main([*args, "--out", str(tmp_path / "LIMITED.md")])
    limited = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert limited[0]["by_action"]["move"]["cases"] == 8 and limited[0]["by_action"]["move"]["other settings"] == 0
    assert "a move limited to the distances its request names" in (tmp_path / "LIMITED.md").read_text()
    main([*args, "--free-distances", "--out", str(tmp_path / "FREE.md")])
    free = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert free[0]["cases"] == limited[0]["cases"] == 8
    assert "move distances left to the model" in (tmp_path / "FREE.md").read_text()
    specs = [f"a={BUNDLED}"]
    assert [p.free_distances for p in make_policies(specs, grammar=True, samples=1, least=1)] == [False]
    assert [p.free_distances for p in make_policies(specs, grammar=True, samples=1, free_distances=True,
                                                    least=1)] == [True]


def test_requests_refuse_planners_and_options_that_answer_no_request(tmp_path, capsys):
    out = tmp_path / "A.md"
    with pytest.raises(SystemExit) as err:
        main([f"a={BUNDLED}", "heuristic", "--requests", "2", "--episodes", "1", "--out", str(out)])
    assert "heuristic answers no request" in str(err.value)
    with pytest.raises(SystemExit) as err:
        main([f"a={BUNDLED}", f"b={BUNDLED}", "--requests", "2", "--samples", "4", "--out", str(out)])
    assert err.value.code == 2 and "leave out --samples" in capsys.readouterr().err
    with pytest.raises(SystemExit) as err:
        main([f"a={BUNDLED}", f"b={tmp_path / 'none.gguf'}", "--requests", "2", "--episodes", "1", "--out", str(out)])
    assert "none.gguf" in str(err.value)
    with pytest.raises(SystemExit) as err:
        main([f"a={BUNDLED}", f"b={BUNDLED}", "--requests", "2", "--episodes", "900", "--out", str(out)])
    assert "leave the test range" in str(err.value)
    assert not out.exists()


def test_reports_in_one_folder_keep_their_own_episodes(tmp_path):
    assert episodes_path(tmp_path / "COMPARE.md") == tmp_path / EPISODES_FILE
    compare(["heuristic", "random"], episodes=1, tasks=["banner"], out=tmp_path / "COMPARE.md")
    compare(["heuristic", "random"], episodes=2, tasks=["banner"], out=tmp_path / "VERIFY.md")
    first = (tmp_path / EPISODES_FILE).read_text().splitlines()
    second = (tmp_path / "verify_episodes.jsonl").read_text().splitlines()
    assert len(first) == 2 and len(second) == 4
