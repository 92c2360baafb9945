"""Evaluation: applicator accuracy / collateral damage definitions and policy episodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.eval.applicator import applicator_cases, evaluate_applicator
from models.eval.episodes import run_episode, summarise
from models.eval.tables import policy_table
from models.policies import HeuristicPolicy, RandomPolicy


class _Oracle:
    """Answers every request with its target action (looked up by request text)."""

    name = "oracle"

    def __init__(self, cases):
        self.answers = {c["request"]: c["target"] for c in cases}

    def apply_request(self, layout, request):
        return self.answers[request], "", 0.001


class _WrongElement(_Oracle):
    """Moves an element the request did not name, far away."""

    name = "wrong"

    def apply_request(self, layout, request):
        target = self.answers[request]
        named = set(target.get("ids") or [target.get("id")])
        other = next(e.id for e in layout.elements if e.id not in named and e.role != "background")
        return {"type": "move", "ids": [other], "dx": 50, "dy": 50}, "", 0.001


class _Garbage(_Oracle):
    name = "garbage"

    def apply_request(self, layout, request):
        return None, "not json", 0.001


@pytest.fixture(scope="module")
def cases():
    return applicator_cases(["poster"], episodes=1, per_layout=6)


def test_applicator_cases_are_held_out_and_valid(cases) -> None:
    assert len(cases) == 6
    assert all(100 <= c["seed"] < 500 for c in cases)


def test_oracle_is_perfect_and_wrong_element_is_collateral(cases) -> None:
    perfect = evaluate_applicator(_Oracle(cases), cases)
    assert perfect["edit_accuracy"] == 1.0 and perfect["exact_match"] == 1.0
    assert perfect["collateral_damage"] == 0.0 and perfect["valid_rate"] == 1.0
    wrong = evaluate_applicator(_WrongElement(cases), cases)
    assert wrong["edit_accuracy"] == 0.0 and wrong["collateral_damage"] > 0.0
    garbage = evaluate_applicator(_Garbage(cases), cases)
    assert garbage["valid_rate"] == 0.0 and garbage["edit_accuracy"] == 0.0


def test_applicator_breakdown_says_why_each_miss_missed(cases) -> None:
    """Every request is counted once under the action it asks for, as right or under one reason for missing."""
    from models.eval.applicator import MISSES, _miss
    from models.eval.tables import applicator_breakdown_table

    kinds = {c["target"]["type"] for c in cases}
    results = {p.name: evaluate_applicator(p, cases) for p in (_Oracle(cases), _WrongElement(cases), _Garbage(cases))}
    for r in results.values():
        assert set(r["by_action"]) == kinds
        for tally in r["by_action"].values():
            assert tally["cases"] == tally["right"] + sum(tally[k] for k in MISSES)
        assert sum(t["cases"] for t in r["by_action"].values()) == len(cases)
    assert all(t["right"] == t["cases"] for t in results["oracle"]["by_action"].values())
    assert all(t["invalid"] == t["cases"] for t in results["garbage"]["by_action"].values())
    wrong = results["wrong"]["by_action"]
    assert all(t["right"] == 0 for t in wrong.values())
    # the wrong policy answers a move of another element: another action, or for a move the other elements
    assert all(t["other action"] == t["cases"] for k, t in wrong.items() if k != "move")
    assert all(t["other elements"] == t["cases"] for k, t in wrong.items() if k == "move")

    move = {"type": "move", "ids": ["title"], "dx": 0, "dy": 50}
    assert _miss({**move, "dy": 5}, move) == "other settings"
    assert _miss({**move, "ids": ["title", "title"]}, move) == "other elements"
    assert _miss({"type": "demote", "id": "title", "factor": 1.1}, move) == "other action"

    table = applicator_breakdown_table(list(results.values()))
    assert table.count("\n| oracle |") == len(kinds)
    assert "| garbage |" in table and "0.0%" in table
    assert applicator_breakdown_table([{k: v for k, v in results["oracle"].items() if k != "by_action"}]) == ""


def test_heuristic_episode_closes_gap_and_random_is_valid() -> None:
    h = run_episode(HeuristicPolicy(), "banner", 100, max_steps=3)
    r = run_episode(RandomPolicy(seed=1), "banner", 100, max_steps=3)
    assert h.valid == h.answers and r.valid == r.answers
    assert h.gap_closed > 0.0
    rows = [summarise("heuristic", "banner", [h]), summarise("random", "banner", [r])]
    table = policy_table(rows)
    assert "| heuristic | banner | 1 |" in table and "| random | banner | 1 |" in table


def test_grammar_policy_answers_parse_and_name_layout_ids(cases) -> None:
    """The bundled model under the runtime grammar: every applicator answer is a valid action on the layout."""
    from assistant.actions import parse_action
    from assistant.planners.local import DEFAULT_MODEL
    from models.policies import GGUFPolicy

    policy = GGUFPolicy(DEFAULT_MODEL, name="bundled + grammar", grammar=True)
    for case in cases:
        action, text, _ = policy.apply_request(case["document"].layout, case["request"])
        assert action is not None, text
        parse_action(action)
        ids = {e.id for e in case["document"].layout.elements}
        named = set(action.get("ids") or []) | {action[k] for k in ("id", "target_id") if action.get(k)}
        assert named <= ids, (text, named - ids)
    result = evaluate_applicator(policy, cases)
    assert result["valid_rate"] >= 5 / 6  # parseable always; one case may still fail the document's own checks


#: The bundled model's greedy episodes on three held-out seeds, as its report recorded them
#: (``docs/models/tiny/EVAL.md``).
BUNDLED_EPISODES = Path(__file__).resolve().parent / "data" / "bundled_episodes.jsonl"


def test_the_bundled_model_replays_its_reports_episodes() -> None:
    """The shipped file, run by llama.cpp as the evaluation runs it, plays three held-out episodes step for step
    as recorded (``tests/data/bundled_episodes.jsonl``: recorded with this release's judgement of layouts; the
    numbers of ``docs/models/tiny/EVAL.md`` were measured under the earlier one)."""
    from assistant.planners.local import DEFAULT_MODEL
    from models.eval.records import load_episodes
    from models.policies import GGUFPolicy

    stored = {(e["task"], e["seed"]): e for e in load_episodes(BUNDLED_EPISODES)}
    assert set(stored) == {("banner", 100), ("editorial", 101), ("flyer", 102)}
    policy = GGUFPolicy(DEFAULT_MODEL, name="GRPO")
    for (task, seed), want in sorted(stored.items()):
        assert (want["policy"], want["ids"]) == ("GRPO", "plain")
        got = run_episode(policy, task, seed, max_steps=6)
        assert (got.steps, got.ended) == (want["steps"], want["ended"])
        assert got.composite == pytest.approx(want["composite"], abs=1e-9)


def test_targets_show_the_difference_the_rounding_hides() -> None:
    from models.eval.episodes import PolicyRow
    from models.eval.tables import targets_section

    def row(policy: str, composite: float) -> PolicyRow:
        return PolicyRow(policy, "all", 48, composite, 1.0, 1.0, 1.0, 0.0, 1.0, 5.0, 10.0)

    rows = [row("heuristic", 0.94975), row("GRPO + verify (K=32, grammar)", 0.94992),
            row("SFT", 0.8801), row("GRPO", 0.8799), row("base (grammar)", 0.781)]
    text = targets_section(rows, [], {})
    assert "| GRPO + verification ≥ heuristic (final composite) | 0.950 vs 0.950 (+0.0002) | yes |" in text
    assert "| GRPO beats SFT (final composite) | 0.880 vs 0.880 (-0.0002) | no |" in text
    assert "| SFT beats base (final composite) | 0.880 vs 0.781 (+0.0991) | yes |" in text


def test_targets_compare_paired_episodes_with_a_bootstrap_interval() -> None:
    from models.eval.episodes import EpisodeResult, PolicyRow
    from models.eval.stats import comparison_verdict, paired_difference
    from models.eval.tables import targets_section

    def row(policy: str, composites: list[float]) -> PolicyRow:
        eps = [EpisodeResult(policy, task, seed, c, 1.0, 1.0)
               for (task, seed), c in zip([(t, s) for t in ("poster", "slide") for s in range(100, 110)], composites)]
        mean = sum(composites) / len(composites)
        return PolicyRow(policy, "all", len(eps), mean, 1.0, 1.0, 1.0, 0.0, 1.0, 5.0, 10.0, details=eps)

    hard = [0.70 + 0.01 * i for i in range(20)]  # the layouts differ far more than the policies do
    base = row("base (grammar)", [x - 0.2 for x in hard])
    sft = row("SFT", hard)
    grpo = row("GRPO", [x + (0.004 if i % 2 else -0.002) for i, x in enumerate(hard)])  # +0.001 on average, noisy
    heur = row("heuristic", [x + 0.05 for x in hard])
    verify = row("GRPO + verify (K=8, grammar)", [x + 0.05 + (0.001 if i % 2 else -0.0015) for i, x in enumerate(hard)])

    mean, lo, hi, n = paired_difference(grpo, sft)
    assert n == 20 and abs(mean - 0.001) < 1e-12 and lo < 0 < hi
    # pairing removes the layouts' spread: a constant shift has a zero-width interval however spread the layouts are
    assert paired_difference(sft, base) == pytest.approx((0.2, 0.2, 0.2, 20))
    text = targets_section([base, sft, grpo, heur, verify], [], {})
    assert "| SFT beats base (final composite) | 0.795 vs 0.595 (+0.2000); 95 % CI of the paired difference " \
           "+0.2000 … +0.2000, 20 episodes | yes |" in text
    assert "GRPO beats SFT (final composite) | 0.796 vs 0.795 (+0.0010); 95 % CI of the paired difference -0.0" in text
    assert text.split("GRPO beats SFT")[1].split("\n")[0].endswith("| within noise |")
    assert text.split("GRPO + verification ≥ heuristic")[1].split("\n")[0].endswith("| within noise |")
    # the verified row with tuned amounts has its own line; the plain verified row keeps its own
    tuned = row("GRPO + verify + tuned amounts (K=8, grammar)", [x + 0.06 for x in hard])
    text = targets_section([base, sft, grpo, heur, verify, tuned], [], {})
    assert text.split("GRPO + verification ≥ heuristic")[1].split("\n")[0].endswith("| within noise |")
    line = text.split("GRPO + verification, amounts tuned ≥ heuristic")[1].split("\n")[0]
    assert "0.855 vs 0.845 (+0.0100)" in line and line.endswith("| yes |")

    # episodes that only one row ran are not compared
    assert paired_difference(sft, PolicyRow("other", "all", 0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 5.0, 10.0)) is None
    assert comparison_verdict(0.01, 0.002, 0.02, strict=True) == "yes"
    assert comparison_verdict(-0.001, -0.01, 0.008, strict=True) == "no"
    assert comparison_verdict(0.0, -0.01, 0.01, strict=False) == "yes"
    assert comparison_verdict(-0.02, -0.03, -0.01, strict=False) == "no"


class _Scripted:
    """Answers the same action (or text that is no action) every step."""

    def __init__(self, name, action, text=""):
        self.name, self.action, self.text = name, action, text

    def act(self, env):
        from models.policies import Decision

        action = self.action(env) if callable(self.action) else self.action
        return Decision(action, self.text, 0.001)


def test_episodes_say_what_ended_them() -> None:
    from models.eval.episodes import ENDINGS
    from models.eval.tables import endings_text

    def wiggle(env):  # never a no-op: left, right, left …
        return {"type": "move", "ids": ["logo"], "dx": 1 - 2 * (env.observation()["step"] % 2), "dy": 0}

    policies = {"no-op": _Scripted("still", {"type": "move", "ids": ["logo"], "dx": 0, "dy": 0}),
                "invalid": _Scripted("garbage", None, "not an action"),
                "finalize": _Scripted("done", {"type": "finalize"}),
                "step limit": _Scripted("wiggle", wiggle)}
    eps = {}
    for ending, policy in policies.items():
        eps[ending] = run_episode(policy, "banner", 100, max_steps=3)
        assert eps[ending].ended == ending
    assert eps["step limit"].steps == 3 and eps["no-op"].steps == 1
    row = summarise("mixed", "banner", [*eps.values(), eps["no-op"]])
    assert row.ended == {"no-op": 0.4, "invalid": 0.2, "finalize": 0.2, "step limit": 0.2}
    assert list(row.ended) == list(ENDINGS)
    assert endings_text(row.ended) == "40 / 20 / 20 / 20 %" and endings_text({}) == "–"
    assert "| 20% | 40 / 20 / 20 / 20 % | 1.4 |" in policy_table([row])  # the finalize at the start is premature


def test_grpo_rows_repeat_the_sft_rows_when_grpo_kept_the_sft_weights(tmp_path: Path) -> None:
    from models.eval.episodes import EpisodeResult, PolicyRow
    from models.eval.run import _as_policy, _same_weights

    run = tmp_path / "run"
    for d in ("sft/best", "grpo/best", "grpo/final"):
        (run / d).mkdir(parents=True)
    (run / "sft" / "best" / "adapter_model.safetensors").write_bytes(b"weights of step 0")
    (run / "grpo" / "final" / "adapter_model.safetensors").write_bytes(b"weights of step 4")
    assert not _same_weights(run)  # grpo/best holds nothing yet
    (run / "grpo" / "best" / "adapter_model.safetensors").write_bytes(b"weights of step 0")
    assert _same_weights(run)  # validation kept the SFT model: best is what the pipeline exports
    (run / "grpo" / "best" / "adapter_model.safetensors").write_bytes(b"weights of step 2")
    assert not _same_weights(run)
    ep = EpisodeResult(policy="SFT", task="banner", seed=9000, composite=0.9, fit=1.0, gap_closed=0.8)
    row = PolicyRow(policy="SFT", task="banner", episodes=1, composite=0.9, fit=1.0, gap_closed=0.8, valid_rate=1.0,
                    premature_rate=0.0, wellformed_rate=1.0, steps=3.0, ms_per_step=10.0, details=[ep])
    (copy,) = _as_policy([row], "GRPO")
    assert copy.policy == "GRPO" and copy.details[0].policy == "GRPO" and copy.composite == 0.9
    assert row.policy == "SFT" and ep.policy == "SFT"  # the SFT row is left as it was


def test_an_earlier_evaluations_rows_are_reused_only_when_the_heuristic_scores_as_then(tmp_path: Path) -> None:
    from dataclasses import replace

    from models.eval.episodes import evaluate_policies
    from models.eval.records import check_same_scores, load_episodes, rows_from_episodes, write_episodes
    from models.eval.stats import paired_difference

    rows = evaluate_policies([HeuristicPolicy(), RandomPolicy(seed=3)], ["banner", "poster"], 2, max_steps=2)
    # stands in for an SFT model whose file is gone: the random policy's episodes under that name
    sft = [replace(r, policy="SFT", details=[replace(e, policy="SFT") for e in r.details])
           for r in rows if r.policy == "random"]
    path = write_episodes(tmp_path / "eval_episodes.jsonl",
                          {"plain": [r for r in rows if r.policy == "heuristic"] + sft})
    stored = load_episodes(path)
    assert check_same_scores(stored, rows, path) == 4
    back = rows_from_episodes(stored, "SFT", ["banner", "poster"], 2, path)
    assert [(r.task, r.episodes) for r in back] == [("banner", 2), ("poster", 2), ("all", 4)]
    for a, b in zip(back, sft):
        assert (a.composite, a.valid_rate, a.steps, a.ended) == (b.composite, b.valid_rate, b.steps, b.ended)
    heur = next(r for r in rows if r.policy == "heuristic" and r.task == "all")
    assert paired_difference(heur, back[-1])[3] == 4  # they pair episode by episode
    assert rows_from_episodes(stored, "base (grammar)", ["banner"], 2, path) == []  # not there: no rows
    with pytest.raises(ValueError, match="no SFT episode of task banner with seed 102"):
        rows_from_episodes(stored, "SFT", ["banner"], 3, path)
    # the environment scores differently now: the earlier episodes must not be paired with new ones
    changed = [{**e, "composite": e["composite"] + 0.01} if e["policy"] == "heuristic" and e["seed"] == 101 else e
               for e in stored]
    with pytest.raises(ValueError, match=r"heuristic now ends \w+ seed 101 .* the environment changed"):
        check_same_scores(changed, rows, path)
    with pytest.raises(ValueError, match="does not hold the heuristic's episodes"):
        check_same_scores([e for e in stored if e["policy"] != "heuristic"], rows, path)
    # an earlier report on fewer seeds: the episodes both have are compared, and a change there still counts
    fewer = [e for e in stored if e["seed"] == 100]
    assert check_same_scores(fewer, rows, path) == 2
    with pytest.raises(ValueError, match=r"heuristic now ends \w+ seed 100 .* the environment changed"):
        check_same_scores([{**e, "steps": e["steps"] + 1} if e["policy"] == "heuristic" else e for e in fewer],
                          rows, path)


def test_a_grpo_run_from_the_shipped_model_is_reported_with_the_earlier_sft_rows(tmp_path: Path) -> None:
    """A run holding only a GRPO model (``models.grpo --init`` the shipped one): the report takes the SFT rows
    and the SFT loss curve from the earlier report, pairs them with the new rows, and names its whole command."""
    import shutil
    from dataclasses import replace

    from assistant.planners.local import DEFAULT_MODEL
    from models.eval.episodes import evaluate_policies
    from models.eval.records import load_episodes, write_episodes
    from models.eval.run import evaluate_run

    run, prev = tmp_path / "run", tmp_path / "earlier"
    (run / "gguf").mkdir(parents=True), prev.mkdir()
    shutil.copyfile(DEFAULT_MODEL, run / "gguf" / "grpo.gguf")
    rows = evaluate_policies([HeuristicPolicy(), RandomPolicy(seed=5)], ["banner"], 2, max_steps=6)  # seeds 100, 101
    sft = [replace(r, policy="SFT", details=[replace(e, policy="SFT") for e in r.details])
           for r in rows if r.policy == "random"]
    previous = write_episodes(prev / "eval_episodes.jsonl",
                              {"plain": [r for r in rows if r.policy == "heuristic"] + sft})
    (prev / "eval_sft_loss.png").write_bytes(b"\x89PNG earlier curve")
    out = run / "report" / "EVAL.md"

    got = evaluate_run(run, out, episodes=1, max_steps=6, verify_samples=2, applicator_per_layout=2,
                       tasks=["banner"], renamed=False, previous=previous, more_episodes=1)

    report = out.read_text(encoding="utf-8")
    assert (f"`python -m models.eval --run {run} --out {out} --episodes 1 --max-steps 6 --verify-samples 2 "
            f"--requests-per-layout 2 --more-episodes 1 --previous {previous}`") in report
    sft_row = next(r for r in got["rows"] if r.policy == "SFT")
    assert sft_row.composite == sft[0].details[0].composite and "| SFT | banner | 1 |" in report
    # seed 101: GRPO played now, the SFT episode taken from the earlier evaluation, no base model anywhere
    assert [(r.policy, [e.seed for e in r.details]) for r in got["more"]] == [("SFT", [101]), ("GRPO", [101])]
    assert got["more"][0].composite == sft[0].details[1].composite
    assert "Left out: base (grammar) (no model file in this run and no episodes on these seeds in" in report
    assert "on held-out seeds 101 of each task (1 episode a stage)" in report
    assert "2 episodes (seeds 100–101 of each task)" in report.split("| GRPO beats SFT")[1].split("\n")[0]
    assert "rows are the episodes of an earlier evaluation" in report
    assert [a["policy"] for a in got["applicator"]] == ["GRPO", "GRPO + grammar"]  # no SFT file to measure
    assert (out.parent / "eval_sft_loss.png").read_bytes() == b"\x89PNG earlier curve"
    assert "![eval_sft_loss](eval_sft_loss.png)" in report
    assert {e["policy"] for e in load_episodes(out.parent / "eval_episodes.jsonl")} >= {"heuristic", "SFT", "GRPO"}


def test_more_episodes_join_the_greedy_stage_comparisons() -> None:
    """Rows of the greedy stages on further seeds pair with the table's in "GRPO beats SFT"; other targets
    keep the table's episodes."""
    from models.eval.episodes import EpisodeResult, PolicyRow, summarise
    from models.eval.tables import targets_section

    def rows(policy: str, seeds: range, shift: float) -> PolicyRow:
        eps = [EpisodeResult(policy, "poster", s, 0.70 + 0.01 * (s % 7) + shift + (0.003 if s % 2 else -0.001),
                             1.0, 1.0) for s in seeds]
        return summarise(policy, "poster", eps)

    table = [rows("SFT", range(100, 108), 0.0), rows("GRPO", range(100, 108), 0.001),
             rows("heuristic", range(100, 108), 0.05), rows("GRPO + verify (K=4, grammar)", range(100, 108), 0.05)]
    alone = targets_section(table, [], {})
    assert "8 episodes |" in alone.split("GRPO beats SFT")[1].split("\n")[0]
    more = [rows("SFT", range(108, 140), 0.0), rows("GRPO", range(108, 140), 0.004)]
    text = targets_section(table, [], {}, more)
    line = text.split("GRPO beats SFT")[1].split("\n")[0]
    assert "40 episodes (seeds 100–139 of each task)" in line and line.endswith("| yes |")
    assert "8 episodes |" in text.split("GRPO + verification ≥ heuristic")[1].split("\n")[0]
    # a stage with no further rows keeps both sides on the table's episodes
    only_grpo = targets_section(table, [], {}, [r for r in more if r.policy == "GRPO"])
    assert "8 episodes |" in only_grpo.split("GRPO beats SFT")[1].split("\n")[0]


def test_more_episodes_must_stay_among_the_held_out_seeds(tmp_path: Path) -> None:
    from models.eval.cli import main
    from models.eval.run import evaluate_run

    with pytest.raises(ValueError, match=r"need held-out seeds 100–500; the held-out seeds are 100–499"):
        evaluate_run(tmp_path, tmp_path / "EVAL.md", episodes=8, more_episodes=393)
    with pytest.raises(SystemExit, match="models.eval: --episodes 8 and --more-episodes -1"):
        main(["--run", str(tmp_path), "--out", str(tmp_path / "EVAL.md"), "--episodes", "8", "--more-episodes", "-1"])
    assert not (tmp_path / "EVAL.md").exists()
