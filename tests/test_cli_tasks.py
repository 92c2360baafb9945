"""``layout-assistant tasks`` and ``eval-planner`` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from assistant.app.evaluation import evaluate_planner, markdown_table, overall
from assistant.cli import app
from assistant.env.tasks import task_names
from assistant.importer import import_svg

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_tasks_list_names_every_task():
    res = invoke("tasks", "list")
    assert res.exit_code == 0
    for name in task_names():
        assert name in res.output


def test_tasks_export_writes_importable_svgs(tmp_path):
    res = invoke("tasks", "export", "--task", "poster", "--seeds", "0-2,7", "--out", tmp_path / "t",
                 "--clean", "--instruction-file")
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "t").iterdir())
    assert names == sorted([f"poster-{s}{x}" for s in (0, 1, 2, 7) for x in (".svg", "-clean.svg", ".txt")])
    doc = import_svg(tmp_path / "t" / "poster-7.svg")
    assert len(doc.layout) > 3
    assert (tmp_path / "t" / "poster-7.txt").read_text().strip()
    # same seed, same bytes
    again = invoke("tasks", "export", "--task", "poster", "--seeds", "7", "--out", tmp_path / "u")
    assert again.exit_code == 0
    assert (tmp_path / "u" / "poster-7.svg").read_bytes() == (tmp_path / "t" / "poster-7.svg").read_bytes()


def test_tasks_export_names_elements_as_real_files_do(tmp_path):
    res = invoke("tasks", "export", "--task", "slide", "--seeds", "4", "--out", tmp_path / "t", "--ids", "tool")
    assert res.exit_code == 0, res.output
    ids = [e.id for e in import_svg(tmp_path / "t" / "slide-4.svg").layout.elements]
    assert not {"title", "chart"} & set(ids) and any(i.startswith("text") and i[4:].isdigit() for i in ids)


@pytest.mark.parametrize("args, message", [
    (["--task", "nope", "--seeds", "1"], "known tasks"),
    (["--task", "poster", "--seeds", "3-1"], "bad seed range"),
    (["--task", "poster", "--seeds", "x"], "bad seed"),
    (["--task", "poster", "--seeds", "1", "--ids", "fancy"], "unknown --ids 'fancy'"),
])
def test_tasks_export_usage_errors(tmp_path, args, message):
    res = runner.invoke(app, ["tasks", "export", *args, "--out", str(tmp_path / "o")])
    assert res.exit_code == 2
    assert message in res.output


def test_tasks_export_into_a_file_path_fails_cleanly(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    res = runner.invoke(app, ["tasks", "export", "--task", "poster", "--seeds", "0", "--out", str(f)])
    assert res.exit_code == 2 and "cannot create output folder" in res.output


def test_eval_planner_on_one_episode(tmp_path):
    out = tmp_path / "eval.json"
    res = invoke("eval-planner", "--tasks", "banner", "--seeds", "100", "--json", out, "--target", "0.5")
    assert res.exit_code == 0, res.output
    assert "closed" in res.output and "banner" in res.output
    data = json.loads(out.read_text())
    (episode,) = data["episodes"]
    assert episode["task"] == "banner" and episode["seed"] == 100
    assert episode["end"] >= episode["start"] and episode["valid"] == episode["proposed"]


def test_eval_planner_usage_errors():
    assert runner.invoke(app, ["eval-planner", "--tasks", "nope", "--seeds", "1"]).exit_code == 2
    assert runner.invoke(app, ["eval-planner", "--planner", "nope", "--seeds", "1"]).exit_code == 2
    assert runner.invoke(app, ["eval-planner", "--seeds", "9-1"]).exit_code == 2


def test_markdown_table_has_a_row_per_task_and_a_total():
    rows = evaluate_planner("heuristic", tasks=["banner"], seeds=[101], max_steps=3)
    table = markdown_table(rows)
    assert "| banner | 1 |" in table and "| **all** | 1 |" in table
    assert overall(rows).valid_rate == 1.0


@pytest.mark.slow
def test_heuristic_closes_most_of_the_gap_on_held_out_seeds():
    rows = evaluate_planner("heuristic", seeds=[100, 101])
    total = overall(rows)
    assert total.valid_rate == 1.0
    assert total.worse == 0
    assert total.gap_closed >= 0.8, markdown_table(rows)
