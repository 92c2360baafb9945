"""``layout-assistant render`` through the CLI runner."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from assistant.cli import app

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo"
runner = CliRunner()


def test_render_png_with_width(tmp_path: Path) -> None:
    out = tmp_path / "flyer.png"
    result = runner.invoke(app, ["render", str(CORPUS / "gdal_a4.svg"), "--out", str(out), "--width", "300"])
    assert result.exit_code == 0, result.output
    assert Image.open(io.BytesIO(out.read_bytes())).size[0] == 300


def test_render_overlay_and_pdf(tmp_path: Path) -> None:
    png = tmp_path / "boxes.png"
    result = runner.invoke(app, ["render", str(CORPUS / "osgeo_a4.svg"), "--out", str(png), "--overlay",
                                 "--grid", "--margins", "--width", "500"])
    assert result.exit_code == 0, result.output
    assert max(Image.open(png).size) == 500
    pdf = tmp_path / "flyer.pdf"
    result = runner.invoke(app, ["render", str(CORPUS / "osgeo_a4.svg"), "--out", str(pdf)])
    assert result.exit_code == 0, result.output
    assert pdf.read_bytes().startswith(b"%PDF-")


def test_user_errors_are_clean_and_write_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.svg"
    bad.write_text("<svg><unclosed></svg>")
    cases = [
        ([str(tmp_path / "missing.svg"), "--out", str(tmp_path / "a.png")], "missing.svg"),
        ([str(bad), "--out", str(tmp_path / "b.png")], "bad.svg"),
        ([str(CORPUS / "gdal_a4.svg"), "--out", str(tmp_path / "c.gif")], "suffix"),
        ([str(CORPUS / "gdal_a4.svg"), "--out", str(tmp_path / "d.pdf"), "--overlay"], "not PDF"),
        ([str(CORPUS / "gdal_a4.svg"), "--out", str(tmp_path / "e.pdf"), "--width", "300"], "PNG output only"),
        ([str(CORPUS / "gdal_a4.svg"), "--out", str(tmp_path / "f.svg")], "layout-assistant export"),
    ]
    for args, needle in cases:
        result = runner.invoke(app, ["render", *args])
        assert result.exit_code == 2, result.output
        assert "error:" in result.output and needle in result.output
        assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.svg"]


def test_input_is_never_overwritten(tmp_path: Path) -> None:
    src = tmp_path / "flyer.svg"
    shutil.copy(CORPUS / "gdal_a4.svg", src)
    before = src.read_bytes()
    result = runner.invoke(app, ["render", str(src), "--out", str(src)])
    assert result.exit_code == 2
    assert src.read_bytes() == before


def test_render_creates_the_output_folder(tmp_path):
    from typer.testing import CliRunner

    from assistant.cli import app
    from tests.conftest import OSGEO_DIR

    out = tmp_path / "new" / "deeper" / "gdal.png"
    result = CliRunner().invoke(app, ["render", str(OSGEO_DIR / "gdal_a4.svg"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_export_writes_svg_and_pdf_and_never_overwrites(tmp_path):
    from lxml import etree
    from typer.testing import CliRunner

    from assistant.cli import app
    from tests.conftest import OSGEO_DIR

    src = OSGEO_DIR / "gdal_a4.svg"
    runner = CliRunner()
    svg = tmp_path / "out" / "gdal.svg"
    result = runner.invoke(app, ["export", str(src), "--out", str(svg)])
    assert result.exit_code == 0, result.output
    original = etree.parse(str(src)).getroot()
    exported = etree.fromstring(svg.read_bytes())
    assert exported.tag == original.tag and len(list(exported.iter())) == len(list(original.iter()))
    pdf = tmp_path / "out" / "gdal.pdf"
    assert runner.invoke(app, ["export", str(src), "--out", str(pdf)]).exit_code == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    again = runner.invoke(app, ["export", str(src), "--out", str(pdf)])
    assert again.exit_code != 0 and "already exists" in again.output
    assert runner.invoke(app, ["export", str(src), "--out", str(pdf), "--force"]).exit_code == 0
    bad = runner.invoke(app, ["export", str(src), "--out", str(tmp_path / "x.gif")])
    assert bad.exit_code != 0 and "suffix" in bad.output
