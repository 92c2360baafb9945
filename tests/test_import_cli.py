"""``layout-assistant inspect`` through the CLI runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from assistant.cli import app
from tests.conftest import OSGEO_DIR

runner = CliRunner()


def test_inspect_lists_elements_of_a_flyer() -> None:
    path = OSGEO_DIR / "osgeo_a4.svg"
    result = runner.invoke(app, ["inspect", str(path)])
    assert result.exit_code == 0, result.output
    assert "canvas 595 × 842" in result.output
    assert "title" in result.output and "'Open Source" in result.output
    assert result.output.strip().splitlines()[-1].startswith("roles: ")


def test_inspect_json_is_the_layout(tmp_path: Path) -> None:
    p = tmp_path / "a.svg"
    p.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">'
                 '<rect id="r" x="10" y="10" width="20" height="20"/></svg>')
    result = runner.invoke(app, ["inspect", str(p), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["canvas"]["width"] == 100
    assert [e["id"] for e in data["elements"]] == ["r"]
    assert data["elements"][0]["box"] == {"x": 10.0, "y": 10.0, "width": 20.0, "height": 20.0}


def test_inspect_bad_file_is_a_clean_error(tmp_path: Path) -> None:
    p = tmp_path / "bad.svg"
    p.write_text("<svg><g></svg>")
    result = runner.invoke(app, ["inspect", str(p)])
    assert result.exit_code == 2
    assert "malformed XML" in result.output and "bad.svg" in result.output
    assert "Traceback" not in result.output
