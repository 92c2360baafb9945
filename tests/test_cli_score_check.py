"""``layout-assistant score`` and ``check`` through typer's CliRunner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_score_prints_metrics_and_findings_with_ids():
    res = invoke("score", EXAMPLES / "flyer.svg")
    assert res.exit_code == 0, res.output
    assert "composite" in res.output
    for metric in ("overlap", "alignment", "margins", "hierarchy"):
        assert metric in res.output
    data = json.loads(invoke("score", EXAMPLES / "flyer.svg", "--json").output)
    ids = {i for f in data["files"][0]["findings"] for i in f["element_ids"]}
    assert ids, "the flyer example has findings naming elements"
    assert any(i in res.output for i in ids)


def test_score_json_is_complete(tmp_path):
    res = invoke("score", EXAMPLES, "--json")
    assert res.exit_code == 0
    files = json.loads(res.output)["files"]
    assert len(files) == len(list(EXAMPLES.glob("*.svg")))
    for f in files:
        assert 0.0 <= f["composite"] <= 1.0
        assert set(f["metrics"]) >= {"overlap", "alignment", "margins"}
        for m in f["metrics"].values():
            assert 0.0 <= m["score"] <= 1.0
    out = tmp_path / "scores.json"
    assert invoke("score", EXAMPLES / "poster.svg", "--out", out).exit_code == 0
    assert json.loads(out.read_text())["files"][0]["source"].endswith("poster.svg")


def test_score_bad_inputs(tmp_path):
    bad = tmp_path / "bad.svg"
    bad.write_text("<html><body>not svg</body></html>")
    res = invoke("score", bad, tmp_path / "missing.svg", EXAMPLES / "poster.svg")
    assert res.exit_code == 1
    assert "bad.svg: FAILED" in res.output and "missing.svg: FAILED" in res.output
    assert "poster.svg: composite" in res.output


def test_score_with_instruction_reports_fit_and_unknown_phrases():
    res = invoke("score", EXAMPLES / "poster.svg", "--json", "--instruction", "logo top right, sing a song")
    data = json.loads(res.output)["files"][0]
    assert data["metrics"]["instruction_fit"]["applicable"]
    assert any("sing a song" in p for p in data["not_understood"])


def test_check_passes_and_fails_on_threshold(tmp_path):
    res = invoke("check", EXAMPLES / "poster.svg", "--min-score", "0")
    assert res.exit_code == 0 and "PASS" in res.output
    res = invoke("check", EXAMPLES / "poster.svg", EXAMPLES / "flyer.svg", "--min-score", "0.999")
    assert res.exit_code == 1
    assert res.output.count("FAIL") >= 2 and "fix:" in res.output
    scores = json.loads(invoke("score", EXAMPLES / "poster.svg", "--json").output)["files"][0]["composite"]
    assert invoke("check", EXAMPLES / "poster.svg", "--min-score", f"{scores - 0.001:.4f}").exit_code == 0
    assert invoke("check", EXAMPLES / "poster.svg", "--min-score", f"{scores + 0.001:.4f}").exit_code == 1


def test_check_after_fix_scores_higher(tmp_path):
    shutil.copy(EXAMPLES / "social_card.svg", tmp_path / "card.svg")
    before = json.loads(invoke("score", tmp_path / "card.svg", "--json").output)["files"][0]["composite"]
    assert invoke("fix", tmp_path / "card.svg", "--out", tmp_path / "out").exit_code == 0
    after = json.loads(invoke("score", tmp_path / "out" / "card.svg", "--json").output)["files"][0]["composite"]
    assert after > before
    assert invoke("check", tmp_path / "out" / "card.svg", "--min-score", f"{before + 1e-4:.4f}").exit_code == 0


def test_check_usage_errors(tmp_path):
    assert runner.invoke(app, ["check", str(EXAMPLES)]).exit_code == 2  # --min-score is required
    assert runner.invoke(app, ["check", str(EXAMPLES), "--min-score", "1.5"]).exit_code == 2
    res = invoke("check", tmp_path / "missing.svg", "--min-score", "0.5")
    assert res.exit_code == 1 and "no such file" in res.output


@pytest.mark.parametrize("command", ["fix", "score", "check", "tasks", "eval-planner", "planners"])
def test_every_command_has_help_with_an_example(command):
    res = runner.invoke(app, [command, "--help"])
    assert res.exit_code == 0
    assert "layout-assistant" in res.output  # a real usage example


def test_planners_lists_heuristic():
    res = invoke("planners")
    assert res.exit_code == 0 and "heuristic" in res.output


def test_score_shows_the_severity_of_each_finding():
    res = invoke("score", EXAMPLES / "poster.svg")
    assert "[high]" in res.output or "[medium]" in res.output
