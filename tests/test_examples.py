"""The bundled examples: real layouts with obvious problems that `make run` fixes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli import app
from assistant.importer import import_svg
from assistant.metrics import evaluate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NAMES = sorted(p.name for p in EXAMPLES.glob("*.svg"))


def test_there_are_four_to_six_examples():
    assert 4 <= len(NAMES) <= 6
    assert {"poster.svg", "flyer.svg", "editorial_cover.svg", "social_card.svg"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_example_imports_and_has_obvious_problems(name):
    doc = import_svg(EXAMPLES / name)
    roles = {e.role for e in doc.layout.elements}
    assert {"title", "background"} <= roles
    report = evaluate(doc.layout)
    assert report.composite < 0.95  # published designs score about 0.97 (tests/test_norms.py)
    defects = [f for f in report.findings() if f.defect]
    assert defects, f"{name} should show at least one clear problem"


def test_make_run_fixes_every_example(tmp_path):
    out, summary = tmp_path / "out", tmp_path / "s.json"
    res = CliRunner().invoke(app, ["fix", str(EXAMPLES), "--out", str(out), "--report", str(out / "report.html"),
                                   "--json", str(summary), "--max-steps", "3", "--jobs", "2"])
    assert res.exit_code == 0, res.output
    files = json.loads(summary.read_text())["files"]
    assert sorted(Path(f["source"]).name for f in files) == NAMES
    for f in files:
        assert f["score_after"] > f["score_before"], f["source"]
    assert (out / "report.html").stat().st_size > 10_000
