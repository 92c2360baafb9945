"""Text set on a path: its box is the path's, its ink lies along the path (``Element.ink``),
and the overlap and grouping metrics measure it by its ink."""

from __future__ import annotations

import math

import pytest

from assistant.actions import apply_action, parse_action
from assistant.document import Layout
from assistant.importer import import_svg, import_svg_text
from assistant.metrics import evaluate

# a circle of radius 200 about (300, 300), drawn as two arcs starting at the left
RING = ('<path id="ring" fill="none" d="M 100 300 A 200 200 0 1 1 500 300 A 200 200 0 1 1 100 300"/>')
PAGE = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
 width="600" height="600" viewBox="0 0 600 600"><defs>{ring}</defs>
<text id="around" font-family="DejaVu Sans" font-size="20" fill="#222222"><textPath xlink:href="#ring"
 {offset}>{words}</textPath></text>
<text id="centre" x="250" y="305" font-family="DejaVu Sans" font-size="16" fill="#222222">Middle</text>
{extra}</svg>"""
AROUND = "Around the world in eighty words " * 6  # longer than the circle: cut at its end


def page(words: str = AROUND, offset: str = "", extra: str = "") -> Layout:
    return import_svg_text(PAGE.format(ring=RING, words=words, offset=offset, extra=extra)).layout


def test_text_around_a_circle_inks_a_ring_not_the_disc() -> None:
    lay = page()
    e = lay.get("around")
    # the box is the circle's box grown by the ascent; the ink is a band along the circle
    assert e.box.x == pytest.approx(100 - 20 * 0.93, abs=3) and e.box.width == pytest.approx(400 + 2 * 20 * 0.93, abs=6)
    assert 8 <= len(e.ink) <= 64 and all(0 <= r.x <= 1 and 0 <= r.y <= 1 for r in e.ink)
    ink = e.ink_boxes()
    for b in ink:  # every ink box touches the circle and stays near it
        cx, cy = b.cx, b.cy
        assert abs(math.hypot(cx - 300, cy - 300) - 200) < 40
        assert b.width < 100 and b.height < 100
    centre = lay.get("centre").box
    assert not any(b.intersection(centre) for b in ink)
    assert sum(b.area for b in ink) < 0.35 * e.box.area


def test_overlap_and_grouping_see_the_ink() -> None:
    inside = page()
    report = evaluate(inside)
    assert report.score("overlap") == 1.0 and not report.findings("overlap")
    # a label placed on the ring itself is a real text-over-text overlap
    crossing = page(extra='<text id="on-ring" x="470" y="305" font-family="DejaVu Sans" font-size="16">Crossing</text>')
    found = evaluate(crossing).findings("overlap")
    assert [f.element_ids for f in found] == [["around", "on-ring"]]
    assert "text over text" in found[0].message
    # the gap from the middle word to the ringed text is the gap to the ring, not 0 (inside its box)
    import numpy as np

    from assistant.metrics.context import LayoutArrays
    from assistant.metrics.neighbours import box_distance

    la = LayoutArrays(inside)
    i, j = la.ids.index("centre"), la.ids.index("around")
    d = float(box_distance(la, np.array([i]), np.array([j]))[0])
    assert 60 < d < 200


def test_short_text_inks_only_its_stretch_of_the_path() -> None:
    start = page(words="Short label").get("around")
    boxes = start.ink_boxes()
    # the path starts at the left of the circle and runs clockwise over the top
    assert max(b.x2 for b in boxes) < 300 and min(b.y for b in boxes) < 300
    half = page(words="Short label", offset='startOffset="50%"').get("around")
    assert min(b.x for b in half.ink_boxes()) > 300  # half way round: the right-hand side, going down
    centred = page(words="Short label", offset='startOffset="25%" text-anchor="middle"').get("around")
    tops = centred.ink_boxes()
    assert min(b.x for b in tops) < 300 < max(b.x2 for b in tops)  # centred on the top of the circle


def test_ink_follows_edits_and_survives_json() -> None:
    from assistant.document import Document
    from assistant.importer import import_svg_text

    doc = import_svg_text(PAGE.format(ring=RING, words=AROUND, offset="", extra=""))
    before = doc.layout.get("around").ink_boxes()
    apply_action(doc, parse_action({"type": "move", "ids": ["around"], "dx": 30, "dy": -10}))
    after = doc.layout.get("around").ink_boxes()
    assert [c for a in before for c in (a.x + 30, a.y - 10)] == pytest.approx([c for b in after for c in (b.x, b.y)])
    again = Layout.model_validate_json(doc.layout.model_dump_json())
    assert again.get("around").ink == doc.layout.get("around").ink
    assert isinstance(doc, Document)


def test_corpus_flyer_ring_of_words_no_longer_covers_the_page() -> None:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "osgeo" / "osgeo-gsoc-A4.svg"
    if not path.is_file():
        pytest.skip("the shared corpus is not beside the checkout")
    lay = import_svg(path).layout
    ring = lay.get("text20760")
    assert ring.ink and sum(b.area for b in ring.ink_boxes()) < 0.5 * ring.box.area
    text_over_text = [f for f in evaluate(lay).findings("overlap") if "text over text" in f.message
                      and "text20760" in f.element_ids and f.severity != "low"]
    assert text_over_text == []


@pytest.mark.parametrize("shape", [
    '<circle id="ring" cx="300" cy="300" r="200"/>',
    '<ellipse id="ring" cx="300" cy="300" rx="200" ry="200"/>',
])
def test_text_on_a_circle_element_or_an_inline_path(shape: str) -> None:
    """SVG 2 lets a textPath follow a basic shape, or carry its own ``path``: the same ring of ink."""
    ring = page(words=AROUND).get("around")
    via_shape = import_svg_text(PAGE.format(ring=shape, words=AROUND, offset="", extra="")).layout.get("around")
    # a circle starts at its rightmost point, the test path at its leftmost: the same ring, drawn from elsewhere
    assert via_shape.box.as_tuple() == pytest.approx(ring.box.as_tuple(), abs=0.5)
    assert sum(b.area for b in via_shape.ink_boxes()) == pytest.approx(sum(b.area for b in ring.ink_boxes()), rel=0.1)
    inline = PAGE.replace('xlink:href="#ring"', 'path="M 100 300 A 200 200 0 1 1 500 300 A 200 200 0 1 1 100 300"')
    own = import_svg_text(inline.format(ring="", words=AROUND, offset="", extra="")).layout.get("around")
    assert [v for b in own.ink for v in b.as_tuple()] == pytest.approx([v for b in ring.ink for v in b.as_tuple()])
