"""PNG/PDF/array rendering through cairosvg: sizes, sandboxing, flowed text made visible."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import numpy as np
import pytest
from cairosvg.surface import PNGSurface
from lxml import etree
from PIL import Image

from assistant.errors import ExportError
from assistant.importer import import_svg
from assistant.render.raster import data_only_fetcher, render_array, render_pdf, render_png, render_svg_bytes
from assistant.render.textconvert import flatten_wrapped_text
from assistant.svg.parse import parse_svg_bytes

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo"
SVG = "http://www.w3.org/2000/svg"


def _tree(text: str):
    return parse_svg_bytes(text.encode(), "<test>")


def _red_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (255, 0, 0)).save(buf, format="PNG")
    return buf.getvalue()


def _red_pixels(arr: np.ndarray) -> int:
    r, g, b, a = (arr[..., i].astype(int) for i in range(4))
    return int(((r > 200) & (g < 60) & (b < 60) & (a > 200)).sum())


def test_png_size_options() -> None:
    tree = _tree(f'<svg xmlns="{SVG}" viewBox="0 0 200 100" width="200" height="100">'
                 '<rect width="200" height="100" fill="#0000ff"/></svg>')
    assert Image.open(io.BytesIO(render_png(tree))).size == (200, 100)
    assert Image.open(io.BytesIO(render_png(tree, width=50))).size == (50, 25)
    assert Image.open(io.BytesIO(render_png(tree, scale=2))).size == (400, 200)
    arr = render_array(tree, height=10)
    assert arr.shape == (10, 20, 4) and arr.dtype == np.uint8
    assert (arr[..., 2] > 200).all()
    with pytest.raises(ExportError, match="width"):
        render_png(tree, width=0)


def test_region_render_shows_only_that_box() -> None:
    tree = _tree(f'<svg xmlns="{SVG}" viewBox="0 0 200 100"><rect width="100" height="100" fill="#ff0000"/>'
                 '<rect x="100" width="100" height="100" fill="#0000ff"/></svg>')
    from assistant.geometry import Box

    arr = render_array(tree, region=Box(x=100, y=0, width=100, height=100), width=40)
    assert arr.shape[:2] == (40, 40)
    assert _red_pixels(arr) == 0 and (arr[..., 2] > 200).all()


def test_pdf_output() -> None:
    pdf = render_pdf(import_svg(CORPUS / "gdal_a4.svg"))
    assert pdf.startswith(b"%PDF-") and len(pdf) > 10_000


def test_external_files_and_urls_are_never_read(tmp_path: Path) -> None:
    red = tmp_path / "red.png"
    red.write_bytes(_red_png())
    data_uri = "data:image/png;base64," + base64.b64encode(_red_png()).decode()
    template = (f'<svg xmlns="{SVG}" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">'
                '<image x="0" y="0" width="40" height="40" xlink:href="{href}"/></svg>')
    shown = render_array(_tree(template.format(href=data_uri)))
    assert _red_pixels(shown) > 1000  # data: URIs work, so absence below is the sandbox
    for href in (red.as_uri(), str(red), "red.png", "http://127.0.0.1:9/red.png"):
        arr = render_array(_tree(template.format(href=href)))
        assert _red_pixels(arr) == 0, href
    assert data_only_fetcher(red.as_uri()).startswith(b"<svg")
    assert data_only_fetcher("data:text/plain,hi%20there") == b"hi there"


def test_flowed_text_is_drawn_where_it_was_measured() -> None:
    path = CORPUS / "pgRouting_a4.svg"
    doc = import_svg(path)
    element = doc.layout.get("flowRoot4588")
    width = 600
    k = width / doc.layout.canvas.width
    converted = render_array(doc, width=width)
    raw_png = PNGSurface.convert(bytestring=path.read_bytes(), url_fetcher=data_only_fetcher, output_width=width)
    raw = np.asarray(Image.open(io.BytesIO(raw_png)).convert("RGBA"))
    b = element.box
    y1, y2, x1, x2 = int(b.y * k), int(b.y2 * k) + 1, int(b.x * k), int(b.x2 * k) + 1

    def dark(a: np.ndarray) -> int:
        crop = a[y1:y2, x1:x2].astype(int)
        return int(((crop[..., :3].sum(axis=2) < 200) & (crop[..., 3] > 128)).sum())

    assert dark(raw) < 20               # cairosvg alone does not draw flowRoot
    assert dark(converted) > 400        # converted: the paragraph is there, inside its measured box
    # Nothing dark just outside the measured box on its left (text sits inside it).
    left = converted[y1:y2, max(x1 - 8, 0):x1 - 1].astype(int)
    assert int(((left[..., :3].sum(axis=2) < 200) & (left[..., 3] > 128)).sum()) == 0


def test_flatten_works_on_a_copy_and_keeps_ids() -> None:
    tree = etree.parse(str(CORPUS / "osgeo-gsoc-A4.svg"))
    before = etree.tostring(tree)
    flat = flatten_wrapped_text(tree)
    assert etree.tostring(tree) == before
    assert not flat.getroot().xpath("//*[local-name()='flowRoot']")
    node = flat.getroot().xpath("//*[@id='flowRoot20752']")[0]
    assert node.tag == f"{{{SVG}}}text"
    assert node.get("transform") == tree.getroot().xpath("//*[@id='flowRoot20752']")[0].get("transform")
    assert "".join(node.itertext()).startswith("Get to know")
    assert b"<flowRoot" not in render_svg_bytes(tree)


def test_svg2_shape_inside_text_is_wrapped_in_the_render() -> None:
    svg = (f'<svg xmlns="{SVG}" width="300" height="200" viewBox="0 0 300 200">'
           '<defs><rect id="frame" x="20" y="20" width="120" height="160"/></defs>'
           '<text style="shape-inside:url(#frame);font-size:14px;font-family:sans-serif;fill:#000000">'
           'Wrapped text stays inside its frame instead of running off to the right edge</text></svg>')
    converted = render_array(_tree(svg))
    raw = np.asarray(Image.open(io.BytesIO(PNGSurface.convert(bytestring=svg.encode(),
                                                                  url_fetcher=data_only_fetcher))).convert("RGBA"))

    def dark(a: np.ndarray, x1: int, x2: int) -> int:
        crop = a[:, x1:x2].astype(int)
        return int(((crop[..., :3].sum(axis=2) < 300) & (crop[..., 3] > 128)).sum())

    assert dark(converted, 20, 141) > 300
    assert dark(converted, 142, 300) == 0     # nothing right of the frame
    assert dark(raw, 20, 141) < 50            # cairosvg alone sets it as one line at (0, 0), out of view


def test_pixel_buffer_matches_the_png() -> None:
    """``render_array`` reads cairo's premultiplied buffer; it must equal the decoded PNG (±1 from rounding)."""
    tree = _tree(f'<svg xmlns="{SVG}" viewBox="0 0 60 40"><rect width="40" height="30" fill="#ff8000" '
                 'fill-opacity="0.3"/><circle cx="40" cy="20" r="15" fill="#2060c0" opacity="0.7"/></svg>')
    arr = render_array(tree, width=120)
    png = np.asarray(Image.open(io.BytesIO(render_png(tree, width=120))).convert("RGBA"))
    assert arr.shape == png.shape == (80, 120, 4)
    assert np.abs(arr.astype(int) - png.astype(int)).max() <= 1
    assert arr[78, 118, 3] == 0  # the transparent background stays transparent
    assert 60 < arr[10, 10, 3] < 100  # 30 % opaque orange stays 30 % opaque, not premultiplied
