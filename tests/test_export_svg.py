"""SVG round trip: nothing lost, unedited export renders pixel-identical, edits touch only their node."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from cairosvg.surface import PNGSurface
from lxml import etree
from PIL import Image

from assistant.importer import import_svg
from assistant.render.raster import data_only_fetcher, render_array
from assistant.svg.parse import parse_svg_bytes
from assistant.svg.write import export_svg

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo"
FLYERS = sorted(CORPUS.glob("*.svg"))
#: Checked in the default run; the other flyers run with the slow tests.
QUICK = {"pgRouting_a4.svg", "geonode_a4.svg", "postgis-flyer-a4.svg"}
FLYER_PARAMS = [pytest.param(p, id=p.name, marks=() if p.name in QUICK else pytest.mark.slow) for p in FLYERS]
INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"
SODIPODI = "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"


def _raw_render(data: bytes, width: int) -> np.ndarray:
    png = PNGSurface.convert(bytestring=data, url_fetcher=data_only_fetcher, unsafe=False, output_width=width)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


@pytest.mark.parametrize("path", FLYER_PARAMS)
def test_unedited_round_trip_renders_pixel_identical(path: Path) -> None:
    doc = import_svg(path)
    exported = export_svg(doc)
    before = render_array(parse_svg_bytes(path.read_bytes(), str(path)), width=360)
    after = render_array(parse_svg_bytes(exported, "exported"), width=360)
    assert before.shape == after.shape
    assert np.array_equal(before, after)
    assert (before[..., 3] > 0).any()  # something was drawn
    if b"i:pgfRef" not in path.read_bytes():
        # Straight through cairosvg too, with no conversion on either side.
        assert np.array_equal(_raw_render(path.read_bytes(), 240), _raw_render(exported, 240))


def _pairs(a: etree._Element, b: etree._Element):
    yield a, b
    ca, cb = list(a), list(b)
    assert len(ca) == len(cb), f"children of {a.tag} differ"
    for x, y in zip(ca, cb):
        yield from _pairs(x, y)


def test_everything_survives_inkscape_file() -> None:
    path = CORPUS / "mapbender_a4.svg"
    doc = import_svg(path)
    out = export_svg(doc)
    assert out.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    tree = etree.fromstring(out)
    original = etree.fromstring(path.read_bytes(), etree.XMLParser(huge_tree=True))
    assert tree.nsmap == original.nsmap
    assert tree.find(f"{{{SODIPODI}}}namedview") is not None
    assert tree.get(f"{{{INKSCAPE}}}version") == original.get(f"{{{INKSCAPE}}}version")
    assert tree.find("{http://www.w3.org/2000/svg}metadata") is not None
    generated = set(doc.generated_ids)
    for x, y in _pairs(original, tree):
        assert x.tag == y.tag
        extra = {k: v for k, v in y.attrib.items() if k not in x.attrib}
        assert not extra or set(extra) == {"id"} and extra["id"] in generated
        assert {k: v for k, v in y.attrib.items() if k in x.attrib} == dict(x.attrib)
        assert (x.text or "") == (y.text or "") and (x.tail or "") == (y.tail or "")


def test_doctype_and_libreoffice_namespaces_survive() -> None:
    path = CORPUS / "postgis-flyer-a4.svg"
    out = export_svg(import_svg(path))
    assert b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"' in out
    assert b'xmlns:ooo="http://xml.openoffice.org/svg/export"' in out
    gradients = CORPUS / "geonetwork_a4.svg"
    out = export_svg(import_svg(gradients))
    assert out.count(b"<radialGradient") == gradients.read_bytes().count(b"<radialGradient")


def test_edited_export_changes_only_the_touched_attribute() -> None:
    path = CORPUS / "gdal_a4.svg"
    doc = import_svg(path)
    before = etree.fromstring(export_svg(doc))
    target = next(e for e in doc.layout.elements if e.kind == "text")
    node = doc.node(target.nodes[0])
    old = node.get("transform")
    node.set("transform", ("translate(5,7) " + old) if old else "translate(5,7)")
    after = etree.fromstring(export_svg(doc))
    changed = []
    for x, y in _pairs(before, after):
        assert x.tag == y.tag
        for key in set(x.attrib) | set(y.attrib):
            if x.get(key) != y.get(key):
                changed.append((x.get("id"), key))
        assert (x.text or "") == (y.text or "")
    assert changed == [(target.nodes[0], "transform")]
