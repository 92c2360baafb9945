"""The real corpus: every OSGeo flyer imports into a sensible element list, and every
resvg edge case either imports or is refused with an SvgImportError (never another
exception, never a hang)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from assistant.errors import SvgImportError
from assistant.importer import import_svg, import_svg_text
from tests.conftest import osgeo_files, resvg_files

OSGEO = osgeo_files()
RESVG = resvg_files()

#: Roles that a reader sees at a glance on each flyer (the big web address at the foot is its call to action;
#: Mapbender's screenshots have captions).
OBVIOUS_ROLES: dict[str, set[str]] = {
    "osgeo_a4.svg": {"title", "subtitle", "body", "logo", "background", "cta"},
    "gdal_a4.svg": {"title", "subtitle", "body", "logo", "image", "cta"},
    "geonetwork_a4.svg": {"title", "body", "logo", "cta"},
    "geonode_a4.svg": {"title", "body", "image", "logo", "cta"},
    "gvsig_a4.svg": {"title", "body", "image", "logo", "background", "cta"},
    "mapbender_a4.svg": {"title", "body", "logo", "image", "caption", "cta"},
    "osgeo-gsoc-A4.svg": {"title", "subtitle", "body", "logo", "image"},
    "pgRouting_a4.svg": {"title", "body", "logo", "cta"},
    "postgis-flyer-a4.svg": {"title", "subtitle", "body", "image", "cta"},
    "OSGeo_bronze_sponsor.svg": {"logo"},
}

#: The main title's text (start), as printed on each A4 flyer.
TITLES = {
    "osgeo_a4.svg": "Open Source", "gdal_a4.svg": "GDAL", "geonode_a4.svg": "GeoNode",
    "postgis-flyer-a4.svg": "PostGIS", "osgeo-gsoc-A4.svg": "Success with", "pgRouting_a4.svg": "pgRouting",
}


def test_corpus_is_present() -> None:
    assert len(OSGEO) == 10 and len(RESVG) == 640


@pytest.mark.timeout(120)
@pytest.mark.parametrize("path", OSGEO, ids=lambda p: p.name)
def test_osgeo_flyer_imports_sensibly(path: Path) -> None:
    doc = import_svg(path)
    layout = doc.layout
    canvas = layout.canvas.box
    low, high = (2, 10) if path.name == "OSGeo_bronze_sponsor.svg" else (15, 80)  # a badge, not a flyer
    assert low <= len(layout) <= high, [e.id for e in layout]
    roles = Counter(e.role for e in layout)
    missing = OBVIOUS_ROLES[path.name] - set(roles)
    assert not missing, (missing, roles)
    # ids are unique, every node an element names exists, groups and children agree
    ids = [e.id for e in layout]
    assert len(ids) == len(set(ids))
    for e in layout:
        for xml_id in e.nodes:
            assert doc.node(xml_id) is not None
        for c in e.children:
            assert layout.get(c).group == e.id
        if e.group is not None:
            assert e.id in layout.get(e.group).children
        assert [x.z for x in layout] == sorted(x.z for x in layout)
    # mostly on the page
    inside = [e for e in layout if canvas.intersection(e.box) is not None]
    assert len(inside) >= 0.9 * len(layout)
    # text elements carry measured font properties
    for e in layout:
        if e.kind == "text":
            assert e.text and e.font_size and e.font_size > 0 and e.lines and e.lines >= 1
    if path.name in TITLES:
        titles = [e for e in layout if e.role == "title"]
        assert any(e.text.startswith(TITLES[path.name]) for e in titles), [e.text for e in titles]
    # backgrounds (the page, bands, panels) are pinned; at most one covers the page, and it is painted first
    bgs = layout.by_role("background")
    assert all(b.pinned for b in bgs)
    full = [b for b in bgs if b.box.area >= 0.9 * canvas.area]
    assert len(full) <= 1
    if full:
        assert full[0].z <= 2


@pytest.mark.timeout(120)
@pytest.mark.parametrize("path", OSGEO, ids=lambda p: p.name)
def test_osgeo_import_is_deterministic_and_reimports_with_the_same_ids(path: Path) -> None:
    a = import_svg(path)
    b = import_svg(path)
    assert a.layout.model_dump() == b.layout.model_dump()
    assert a.generated_ids == b.generated_ids
    text = etree.tostring(a.tree, xml_declaration=True, encoding="UTF-8")
    again = import_svg_text(text, source=str(path))
    assert [e.id for e in again.layout] == [e.id for e in a.layout]
    assert again.generated_ids == []
    for x, y in zip(a.layout, again.layout):
        assert x.box == y.box and x.role == y.role


def test_import_changes_nothing_but_generated_ids() -> None:
    path = next(p for p in OSGEO if p.name == "gvsig_a4.svg")
    original = etree.fromstring(path.read_bytes())
    doc = import_svg(path)
    generated = set(doc.generated_ids)
    before = list(original.iter())
    after = list(doc.root.iter())
    assert len(before) == len(after)
    for x, y in zip(before, after):
        assert x.tag == y.tag and x.text == y.text and x.tail == y.tail
        ax, ay = dict(x.attrib), dict(y.attrib)
        if ay.get("id") in generated:
            ax.pop("id", None)
            ay.pop("id")
        assert ax == ay


@pytest.mark.timeout(30)
@pytest.mark.parametrize("path", RESVG, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_resvg_case_imports_or_is_refused_cleanly(path: Path) -> None:
    try:
        doc = import_svg(path)
    except SvgImportError as exc:
        assert exc.source == str(path) and exc.problem
        return
    for e in doc.layout:
        assert e.box.width >= 0 and e.box.height >= 0
