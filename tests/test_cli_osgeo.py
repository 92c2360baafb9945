"""``fix`` on every real OSGeo flyer: no crash, no score lowered (slow: ~10 files)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from assistant.cli import app


@pytest.mark.slow
def test_fix_whole_osgeo_corpus_never_lowers_a_score(osgeo_dir, tmp_path):
    out, summary = tmp_path / "out", tmp_path / "s.json"
    res = CliRunner().invoke(app, ["fix", str(osgeo_dir), "--out", str(out), "--json", str(summary),
                                   "--report", str(out / "report.html"), "--max-steps", "8"])
    assert res.exit_code == 0, res.output
    files = json.loads(summary.read_text())["files"]
    assert len(files) == len(list(osgeo_dir.glob("*.svg")))
    for f in files:
        assert f["ok"], f
        assert f["score_after"] >= f["score_before"], f["source"]
        assert f["valid"] == f["proposed"]
    assert sum(f["score_after"] - f["score_before"] for f in files) > 0
