"""Text actions: set_text_style and reflow_text, on inline SVGs and real flyers."""

from __future__ import annotations

import pytest
from actions_support import changed_nodes, layout_dump, osgeo, poster, reimport_mismatches, serialize
from lxml import etree

from assistant.actions import apply_action, undo_diff
from assistant.errors import InvalidAction
from assistant.importer import import_svg_text
from assistant.text.fonts import text_advance

SVG_NS = "{http://www.w3.org/2000/svg}"

STYLED = """<svg xmlns="http://www.w3.org/2000/svg"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0 0 600 800">
  <style>.accent { fill: #cc0000; }</style>
  <g id="scaled" transform="translate(50,100) scale(2)">
    <text id="head" x="10" y="30" style="font-size:20px;font-family:DejaVu Sans;fill:#111111">Head <tspan
      id="hot" class="accent" style="font-size:30px">line</tspan></text>
  </g>
  <text id="para" x="40" y="400" style="font-size:16px;line-height:1.25;font-family:DejaVu Sans"
        xml:space="preserve"><tspan sodipodi:role="line" id="l1" x="40" y="400">First line of a</tspan><tspan
        sodipodi:role="line" id="l2" x="40" y="420">short paragraph here</tspan></text>
  <rect id="shape" x="300" y="600" width="100" height="50" fill="#445566"/>
</svg>"""


def styled():
    return import_svg_text(STYLED, source="styled.svg")


def _check_exact(doc, action):
    tree0, layout0 = serialize(doc), layout_dump(doc)
    diff = apply_action(doc, action)
    assert reimport_mismatches(doc, ids=diff.changed_ids) == []
    tree1 = serialize(doc)
    undo_diff(doc, diff)
    assert serialize(doc) == tree0 and layout_dump(doc) == layout0
    return diff, tree0, tree1


def test_set_text_style_writes_presentation_attributes_in_place():
    doc = poster()
    diff, before, after = _check_exact(doc, {"type": "set_text_style", "ids": ["title"], "font_size": 28,
                                             "fill": "#224466", "font_weight": 400, "font_family": "DejaVu Serif"})
    assert changed_nodes(before, after) == {"title"}
    node = etree.fromstring(after).find(f".//{SVG_NS}text[@id='title']")
    assert node.get("font-size") == "28" and node.get("font-weight") == "400"
    assert node.get("font-family") == "DejaVu Serif" and node.get("style") == "fill:#224466"  # no fill attribute
    e = diff.elements_after["title"]
    assert (e.font_size, e.fill, e.font_weight) == (pytest.approx(28), "#224466", 400)


def test_set_text_style_in_scaled_group_uses_world_units_and_fixes_tspans():
    doc = styled()
    old = doc.layout.get("head")
    # the largest run (the tspan: 30 of the group's scale 2 = 60 world) is set to 90: every size scales by 1.5
    assert old.font_size == pytest.approx(60)
    diff, before, after = _check_exact(doc, {"type": "set_text_style", "ids": ["head"], "font_size": 90,
                                             "fill": "#0000ff"})
    assert changed_nodes(before, after) == {"head", "hot"}
    tree = etree.fromstring(after)
    head, hot = tree.find(".//*[@id='head']"), tree.find(".//*[@id='hot']")
    assert "font-size:30" in head.get("style") and "fill:#0000ff" in head.get("style")
    # the tspan overrode the size (30 of 20): it keeps its proportion; its class colour is overridden too
    assert "font-size:45" in hot.get("style") and "fill:#0000ff" in hot.get("style")
    assert diff.elements_after["head"].font_size == pytest.approx(90)


def test_font_size_change_scales_line_positions():
    doc = styled()
    _, _, after = _check_exact(doc, {"type": "set_text_style", "ids": ["para"], "font_size": 32})
    tree = etree.fromstring(after)
    assert tree.find(".//*[@id='l1']").get("y") == "400"
    assert tree.find(".//*[@id='l2']").get("y") == "440"


def test_reflow_text_wrap_fits_the_width():
    doc = poster()
    body = doc.layout.get("body")
    diff, _, after = _check_exact(doc, {"type": "reflow_text", "id": "body", "mode": "wrap", "width": 160})
    new = diff.elements_after["body"]
    assert new.lines >= 2 and new.box.width <= 160 + 1e-6
    assert new.box.y == pytest.approx(body.box.y)
    lines = [t.text for t in etree.fromstring(after).find(".//*[@id='body']")]
    assert " ".join(lines) == body.text
    assert all(text_advance(ln, "DejaVu Sans", 14) <= 160 for ln in lines)


def test_reflow_text_wrap_keeps_line_styling():
    doc = styled()
    diff, _, after = _check_exact(doc, {"type": "reflow_text", "id": "para", "mode": "wrap", "width": 90})
    spans = list(etree.fromstring(after).find(".//*[@id='para']"))
    assert len(spans) > 2
    assert all(s.get("{http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd}role") == "line" for s in spans)
    assert [float(s.get("y")) for s in spans[:2]] == [400.0, 420.0]


def test_reflow_text_font_size_shrinks_to_width():
    doc = poster()
    body = doc.layout.get("body")
    diff, _, _ = _check_exact(doc, {"type": "reflow_text", "id": "body", "mode": "font_size", "width": 250,
                                    "min_size": 6})
    new = diff.elements_after["body"]
    assert new.box.width == pytest.approx(250, rel=0.02)
    assert new.font_size < body.font_size


def test_reflow_text_respects_min_size():
    doc = poster()
    diff = apply_action(doc, {"type": "reflow_text", "id": "body", "mode": "font_size", "width": 50,
                              "min_size": 12})
    assert diff.elements_after["body"].font_size == pytest.approx(12)


def test_reflow_text_auto_leaves_fitting_text_alone():
    doc = poster()
    tree = serialize(doc)
    diff = apply_action(doc, {"type": "reflow_text", "id": "title", "mode": "auto"})
    assert diff.is_noop and serialize(doc) == tree and "already fits" in diff.notes[0]
    diff = apply_action(doc, {"type": "reflow_text", "id": "body", "mode": "auto", "width": 150})
    assert diff.elements_after["body"].lines >= 2


@pytest.mark.parametrize("action", [
    {"type": "set_text_style", "ids": ["shape"], "fill": "#000000"},
    {"type": "reflow_text", "id": "shape"},
    {"type": "set_text_style", "ids": ["head", "ghost"], "font_size": 10},
])
def test_text_actions_refuse_non_text_and_unknown_ids(action):
    doc = styled()
    tree = serialize(doc)
    with pytest.raises(InvalidAction) as info:
        apply_action(doc, action)
    assert info.value.element_id in ("shape", "ghost")
    assert serialize(doc) == tree


def test_text_growth_off_canvas_is_refused():
    doc = poster()
    tree = serialize(doc)
    with pytest.raises(InvalidAction, match="past the right edge"):
        apply_action(doc, {"type": "set_text_style", "ids": ["body"], "font_size": 40})
    assert serialize(doc) == tree


def test_real_flyer_text_style_round_trip():
    doc = osgeo("gdal_a4.svg")
    texts = [e for e in doc.layout.leaves() if e.kind == "text" and not e.locked]
    target = max(texts, key=lambda e: e.font_size or 0)
    diff, before, after = _check_exact(doc, {"type": "set_text_style", "ids": [target.id],
                                             "font_size": target.font_size * 0.9, "fill": "#202020"})
    assert diff.elements_after[target.id].font_size == pytest.approx(target.font_size * 0.9)
    assert changed_nodes(before, after) <= {target.id} | {
        d.get("id") or d.getroottree().getpath(d) for d in doc.node(target.nodes[0]).iter()}


FLOWED = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300">
  <flowRoot id="copy" style="font-size:12px;line-height:1.25;font-family:DejaVu Sans" xml:space="preserve"><flowRegion>
    <rect id="frame" x="{x}" y="40" width="{w}" height="60"/></flowRegion><flowPara>Wrapped text keeps its line
    breaks when it is made bigger or smaller, and no line of it is hidden.</flowPara></flowRoot>
</svg>"""


def _flowed(x=20, w=160):
    return import_svg_text(FLOWED.format(x=x, w=w), source="flowed.svg")


@pytest.mark.parametrize("ratio", [0.85, 1.25])
def test_flowed_text_keeps_its_line_breaks_when_its_size_changes(ratio):
    doc = _flowed()
    before = doc.layout.get("copy")
    action = {"type": "set_text_style", "ids": ["copy"], "font_size": 12 * ratio}
    _, _, after = _check_exact(doc, action)
    frame = etree.fromstring(after).find(f".//{SVG_NS}rect[@id='frame']")
    assert float(frame.get("width")) == pytest.approx(160 * ratio) and float(frame.get("x")) == 20
    apply_action(doc, action)
    now = doc.layout.get("copy")
    assert now.lines == before.lines
    assert now.box.width == pytest.approx(before.box.width * ratio, rel=0.08)
    assert now.box.height == pytest.approx(before.box.height * ratio, rel=0.08)
    assert (now.box.x, now.box.y) == pytest.approx((before.box.x, before.box.y), abs=1.5)


def test_flowed_text_grown_at_the_page_edge_wraps_into_more_lines_and_shows_them_all():
    doc = _flowed(x=200, w=190)  # the frame ends 10 units before the right edge
    before = doc.layout.get("copy")
    apply_action(doc, {"type": "set_text_style", "ids": ["copy"], "font_size": 18})
    now = doc.layout.get("copy")
    assert now.box.x2 <= 400 + 1e-6
    assert now.lines > before.lines
    words = "Wrapped text keeps its line breaks when it is made bigger or smaller, and no line of it is hidden."
    assert "hidden." in now.text and now.text.split() == words.split()


GLYPHS = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 300">
  <text id="word" x="-0.09" y="-10" style="font-size:40px;font-family:DejaVu Sans"><tspan id="w1"
    x="50 75.06 97.85 123.04 136.1" y="100">gvSIG</tspan></text>
  <text id="runs" x="0" y="0" style="font-size:20px;font-family:DejaVu Sans"><tspan x="50" y="200">plain </tspan><tspan
    x="110" y="200" style="font-weight:bold">bold</tspan></text>
</svg>"""


@pytest.mark.parametrize("ratio", [0.8, 1.25])
def test_a_text_set_glyph_by_glyph_keeps_its_letters_spaced_for_its_new_size(ratio):
    # PDF converters write each glyph's x; the word scales about its first glyph (not about the <text>'s own,
    # unused x and y), so it grows as a word does and stays where it starts
    doc = import_svg_text(GLYPHS, source="glyphs.svg")
    before = doc.layout.get("word").box
    action = {"type": "set_text_style", "ids": ["word"], "font_size": 40 * ratio}
    _check_exact(doc, action)  # (exact, and undone)
    apply_action(doc, action)
    after = doc.layout.get("word").box
    assert doc.node("word").get("x") == "-0.09"  # the <text>'s own x places nothing here: left as written
    assert after.width / before.width == pytest.approx(ratio, rel=0.03)
    assert after.x == pytest.approx(before.x, abs=0.5)
    xs = [float(v) for v in doc.node("w1").get("x").split()]
    assert xs[0] == pytest.approx(50) and xs[1] == pytest.approx(50 + 25.06 * ratio, abs=0.01)


def test_runs_of_one_line_move_apart_with_their_size():
    doc = import_svg_text(GLYPHS, source="glyphs.svg")
    _check_exact(doc, {"type": "set_text_style", "ids": ["runs"], "font_size": 30})
    apply_action(doc, {"type": "set_text_style", "ids": ["runs"], "font_size": 30})
    second = doc.root.findall(f".//{SVG_NS}tspan")[-1]
    assert float(second.get("x")) == pytest.approx(50 + 60 * 1.5)
