"""models.experiments.fixcopy: how often a model's answers copy a fix its prompt suggests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp")

from assistant.planners.local import DEFAULT_MODEL  # noqa: E402
from models.experiments.fixcopy import copy_counts, edit_key, main  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BUNDLED = DEFAULT_MODEL  # the bundled applicator, package data of the core
EXAMPLES = REPO / "examples"


def test_an_edit_is_its_kind_and_elements_amounts_aside():
    assert edit_key({"type": "move", "ids": ["a", "b"], "dx": 3}) == edit_key({"type": "move", "ids": ["a", "b"]})
    assert edit_key({"type": "promote", "id": "t", "factor": 1.5}) == ("promote", ("t",))
    assert edit_key({"type": "move", "ids": ["a"]}) != edit_key({"type": "move", "ids": ["b"]})
    assert edit_key({"type": "finalize"}) == ("finalize", ())


def test_answers_are_counted_against_the_prompts_fixes():
    """The greedy answer counts as a copy exactly when it is one of the state's suggested fixes."""
    from assistant.planners.prompting import canonical_action, parse_completion
    from models.files import file_env, load_files
    from models.policies import GGUFPolicy, finding_fixes

    policy = GGUFPolicy(BUNDLED, name="bundled", grammar=True)
    ((_, doc),) = load_files([EXAMPLES / "flyer.svg"])
    env, _ = file_env(doc, max_steps=8)
    counts = copy_counts(policy, env, 3)
    assert counts["answers"] == 3 and counts["exact"] <= counts["same_edit"] <= counts["answers"]
    from assistant.planners.local import fit_planner_prompt

    greedy = canonical_action(parse_completion(policy.complete(fit_planner_prompt(policy.llm, env.observation(), ""),
                                                               **policy._decoding(env.document.layout))))
    fixes = [canonical_action(f) for f in finding_fixes(env.observation())]
    assert counts["greedy_exact"] == (greedy in fixes)
    assert counts["greedy_same_edit"] == (edit_key(greedy) in {edit_key(f) for f in fixes})


def test_the_command_prints_one_line_per_model_and_refuses_bad_input(tmp_path, capsys):
    main([f"m={BUNDLED}", "--samples", "2", "--variants", "2", "--files", str(EXAMPLES / "slide.svg")])
    (line,) = capsys.readouterr().out.splitlines()
    row = json.loads(line)
    assert row["planner"] == "m" and row["states"] == 2 and 0 < row["answers"] <= 4
    for argv, why in ((["heuristic", "--files", str(EXAMPLES / "slide.svg")], "model planners"),
                      ([f"m={BUNDLED}", "--files", str(tmp_path / "nope.svg")], "nope.svg"),
                      ([f"m={BUNDLED}", "--samples", "0", "--files", str(EXAMPLES / "slide.svg")], "--samples")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2 and why in capsys.readouterr().err
