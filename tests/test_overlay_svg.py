"""SVG overlay on a real OSGeo flyer: layers, boxes, labels, findings, safe rendering, the CLI path."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import numpy as np
import pytest
from cairosvg.surface import PNGSurface
from lxml import etree
from PIL import Image
from typer.testing import CliRunner

from assistant.cli import app
from assistant.errors import ExportError, InvalidAction
from assistant.importer import import_svg
from assistant.render.overlay import ROLE_COLOURS
from assistant.render.overlay_svg import render_overlay_svg
from assistant.render.raster import data_only_fetcher, render_png

FLYER = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo" / "gdal_a4.svg"
SVG = "{http://www.w3.org/2000/svg}"
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


@pytest.fixture(scope="module")
def doc():
    return import_svg(FLYER)


def _parse(data: bytes) -> etree._Element:
    return etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))


def _layers(root: etree._Element) -> dict[str, etree._Element]:
    return {g.get(f"{INKSCAPE}label"): g for g in root.iter(f"{SVG}g") if g.get(f"{INKSCAPE}groupmode") == "layer"}


def _render(data: bytes, width: int) -> np.ndarray:
    png = PNGSurface.convert(bytestring=data, url_fetcher=data_only_fetcher, unsafe=False, output_width=width,
                             background_color="white")
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _near(arr: np.ndarray, colour: str, tol: int = 40) -> np.ndarray:
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    return np.abs(arr - rgb).sum(axis=2) < tol


def test_root_has_the_canvas_and_one_inkscape_layer_per_overlay(doc) -> None:
    root = _parse(render_overlay_svg(doc, overlays=("boxes", "grid", "margins", "findings"),
                                     findings=[{"element_ids": ["Title"], "message": "m", "severity": "warning"}]))
    c = doc.layout.canvas
    assert [float(v) for v in root.get("viewBox").replace(",", " ").split()] == [c.x, c.y, c.width, c.height]
    assert (root.get("width"), root.get("height")) == ("595px", "842px")
    layers = _layers(root)
    assert list(layers) == ["Layout", "Margins", "Grid", "Element boxes", "Findings"]
    assert all(g.getparent() is root for g in layers.values())
    only_boxes = _layers(_parse(render_overlay_svg(doc)))
    assert list(only_boxes) == ["Layout", "Element boxes"]


def test_layout_layer_embeds_the_document_with_flowed_text_converted(doc) -> None:
    root = _parse(render_overlay_svg(doc))
    images = list(_layers(root)["Layout"].iter(f"{SVG}image"))
    assert len(images) == 1
    image = images[0]
    href = image.get(XLINK_HREF)
    assert href.startswith("data:image/svg+xml;base64,")
    c = doc.layout.canvas
    assert [float(image.get(k)) for k in ("x", "y", "width", "height")] == [c.x, c.y, c.width, c.height]
    embedded = _parse(base64.b64decode(href.split(",", 1)[1]))
    assert "GDAL/OGR is a translator library" in "".join(embedded.itertext())


def test_flowed_text_is_embedded_as_regular_text() -> None:
    flowed = import_svg(FLYER.with_name("pgRouting_a4.svg"))
    assert flowed.node("flowRoot4588").tag == f"{SVG}flowRoot"
    href = next(_parse(render_overlay_svg(flowed)).iter(f"{SVG}image")).get(XLINK_HREF)
    embedded = _parse(base64.b64decode(href.split(",", 1)[1]))
    assert not list(embedded.iter(f"{SVG}flowRoot"))
    converted = [t for t in embedded.iter(f"{SVG}text") if t.get("id") == "flowRoot4588"]
    assert len(converted) == 1 and len(list(converted[0].iter(f"{SVG}tspan"))) > 1


def test_one_rect_per_element_box_at_its_coordinates(doc) -> None:
    root = _parse(render_overlay_svg(doc))
    rects = {}
    for r in _layers(root)["Element boxes"].iter(f"{SVG}rect"):
        if r.get("data-element-id") is not None and r.getparent().get("class") == "element-boxes":
            assert r.get("data-element-id") not in rects
            rects[r.get("data-element-id")] = r
    shown = [e for e in doc.layout.elements if e.role != "background"]
    assert len(shown) > 10
    assert set(rects) == {e.id for e in shown}
    for e in shown:
        r = rects[e.id]
        got = [float(r.get(k)) for k in ("x", "y", "width", "height")]
        assert got == pytest.approx([e.box.x, e.box.y, e.box.width, e.box.height], abs=1e-3), e.id
        assert r.get("stroke") == ROLE_COLOURS[e.role]
        assert r.get("data-role") == e.role


def test_labels_name_ids_and_roles(doc) -> None:
    root = _parse(render_overlay_svg(doc))
    labels = ["".join(t.itertext()) for t in _layers(root)["Element boxes"].iter(f"{SVG}text")]
    expected = [f"{e.id} · {e.role}" for e in doc.layout.elements if e.role not in ("background", "decoration")]
    assert "Title · title" in labels
    assert sorted(labels) == sorted(expected)


def test_grid_margins_and_ids_filter(doc) -> None:
    root = _parse(render_overlay_svg(doc, overlays=("grid", "margins"), columns=6))
    layers = _layers(root)
    safe = doc.layout.canvas.safe_box
    xs = sorted(float(ln.get("x1")) for ln in layers["Grid"].iter(f"{SVG}line"))
    assert xs == pytest.approx([safe.x + i * safe.width / 6 for i in range(7)], abs=1e-3)
    dashed = [r for r in layers["Margins"].iter(f"{SVG}rect") if r.get("stroke-dasharray")]
    assert len(dashed) == 1
    assert [float(dashed[0].get(k)) for k in ("x", "y", "width", "height")] == pytest.approx(
        [safe.x, safe.y, safe.width, safe.height], abs=1e-3)
    only = _parse(render_overlay_svg(doc, ids=["Title", "url"]))
    ids = {r.get("data-element-id") for r in _layers(only)["Element boxes"].iter(f"{SVG}rect")} - {None}
    assert ids == {"Title", "url"}
    with pytest.raises(InvalidAction, match="no-such-id"):
        render_overlay_svg(doc, ids=["no-such-id"])
    with pytest.raises(ExportError, match="sparkles"):
        render_overlay_svg(doc, overlays=("boxes", "sparkles"))


def test_findings_outline_named_elements_with_the_message_as_title(doc) -> None:
    findings = [
        {"element_ids": ["Title", "url"], "message": "title and url do not align", "severity": "warning"},
        {"element_ids": ["gone"], "message": "names nothing here", "severity": "info"},
    ]
    root = _parse(render_overlay_svg(doc, overlays=("findings",), findings=findings))
    groups = [g for g in _layers(root)["Findings"] if g.get("class") == "finding"]
    assert len(groups) == 1
    assert groups[0].find(f"{SVG}title").text == "1. title and url do not align"
    outlined = {r.get("data-element-id"): r for r in groups[0].iter(f"{SVG}rect") if r.get("data-element-id")}
    assert set(outlined) == {"Title", "url"}
    box = doc.layout.get("url").box
    assert float(outlined["url"].get("x")) == pytest.approx(box.x, abs=1e-3)


def test_renders_safely_and_lines_up_with_the_page(doc) -> None:
    data = render_overlay_svg(doc)
    assert render_overlay_svg(doc) == data  # deterministic
    img = _render(data, 600)
    assert img.shape[:2] == (round(600 * 842 / 595), 600)
    assert img.std() > 20  # not blank
    k = 600 / doc.layout.canvas.width
    title = doc.layout.get("Title").box
    x = int(round(title.x * k))
    column = img[int(title.y * k) + 2:int(title.y2 * k) - 2, max(x - 2, 0):x + 3]
    assert _near(column, ROLE_COLOURS["title"]).mean() > 0.15
    # Without overlays the SVG shows exactly the page render.
    plain = _render(render_overlay_svg(doc, overlays=()), 300)
    page = np.asarray(Image.open(io.BytesIO(render_png(doc, width=300))).convert("RGBA")).astype(float)
    alpha = page[..., 3:] / 255.0
    page_on_white = page[..., :3] * alpha + 255 * (1 - alpha)
    assert plain.shape == page_on_white.shape
    assert np.abs(plain - page_on_white).mean() < 2.0


def test_cli_writes_the_svg_overlay_and_refuses_bad_outputs(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "boxes.svg"
    result = runner.invoke(app, ["render", str(FLYER), "--out", str(out), "--overlay", "--grid", "--margins"])
    assert result.exit_code == 0, result.output
    assert list(_layers(_parse(out.read_bytes()))) == ["Layout", "Margins", "Grid", "Element boxes"]
    for args, needle in [(["--out", str(tmp_path / "x.gif"), "--overlay"], "suffix"),
                         (["--out", str(tmp_path / "y.svg")], "layout-assistant export"),
                         (["--out", str(tmp_path / "z.svg"), "--overlay", "--width", "300"], "PNG output only")]:
        result = runner.invoke(app, ["render", str(FLYER), *args])
        assert result.exit_code == 2, result.output
        assert needle in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boxes.svg"]
