"""``set_paint``: the fill, outline and opacity of shapes, artwork, pictures and text, with undo and clear refusals."""

from __future__ import annotations

import pytest

from assistant.actions import apply_action, undo_diff
from assistant.errors import InvalidAction
from assistant.importer import import_svg, import_svg_text
from assistant.svg.css import StyleResolver
from assistant.svg.write import export_svg
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"

PAGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300">
  <rect id="ground" x="0" y="0" width="400" height="300" fill="#ffffff"/>
  <g id="art" transform="scale(2)">
    <rect id="box" x="20" y="20" width="40" height="30" fill="#3366cc" stroke="#000000" stroke-width="1"/>
    <circle id="dot" cx="90" cy="35" r="10" fill="url(#g)"/>
  </g>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/></linearGradient></defs>
  <rect id="frame" transform="scale(2)" x="20" y="100" width="30" height="20" fill="#eeeeee" stroke="#000000"
        stroke-width="1"/>
  <line id="rule" x1="40" y1="150" x2="360" y2="150" stroke="#999999" stroke-width="4"/>
  <rect id="bar" x="40" y="170" width="320" height="6" fill="#222222"/>
  <text id="title" x="40" y="230" font-size="24" font-family="DejaVu Sans" fill="#111111">Open <tspan
    id="hi" fill="#cc0000">day</tspan></text>
  <image id="pic" x="260" y="200" width="100" height="80" href="data:image/png;base64,iVBORw0KGgo="/>
</svg>"""


def _doc():
    return import_svg_text(PAGE, source="page.svg")


def _style(doc, xml_id: str, prop: str) -> str | None:
    return StyleResolver(doc.root).get(doc.node(xml_id), prop)


def test_fill_of_artwork_paints_every_part_and_undo_restores_it() -> None:
    doc = _doc()
    before = export_svg(doc)
    diff = apply_action(doc, {"type": "set_paint", "ids": ["art"], "fill": "#00AA00"})
    assert _style(doc, "box", "fill") == "#00aa00" and _style(doc, "dot", "fill") == "#00aa00"  # the gradient too
    assert _style(doc, "box", "stroke") == "#000000"  # its outline is not its fill
    assert diff.changed_ids == ["art"] and doc.layout.get("art").fill == "#00aa00"
    undo_diff(doc, diff)
    assert export_svg(doc) == before


def test_outline_width_is_in_world_units_and_the_box_grows_with_it() -> None:
    doc = _doc()
    old = doc.layout.get("frame").box
    apply_action(doc, {"type": "set_paint", "ids": ["frame"], "stroke_width": 6})
    assert float(_style(doc, "frame", "stroke-width")) == pytest.approx(3.0)  # scale(2): 3 of its own units
    new = doc.layout.get("frame").box
    assert new.x == pytest.approx(old.x - 2.0) and new.width == pytest.approx(old.width + 4.0)  # 2 → 6 world


def test_a_line_drawn_by_its_outline_takes_its_colour_as_stroke_and_halves_its_thickness() -> None:
    doc = _doc()
    with pytest.raises(InvalidAction, match=r"'rule'.*outline only.*stroke"):
        apply_action(doc, {"type": "set_paint", "ids": ["rule"], "fill": "#ff0000"})
    apply_action(doc, {"type": "set_paint", "ids": ["rule"], "stroke": "#ff0000", "stroke_scale": 0.5})
    assert _style(doc, "rule", "stroke") == "#ff0000" and float(_style(doc, "rule", "stroke-width")) == 2.0
    el = doc.layout.get("rule")
    assert el.box.height == pytest.approx(2.0) and el.box.y == pytest.approx(149.0) and el.fill == "#ff0000"
    with pytest.raises(InvalidAction, match="nothing of it would show"):
        apply_action(doc, {"type": "set_paint", "ids": ["rule"], "stroke_width": 0})


def test_a_new_outline_needs_a_colour_and_a_width() -> None:
    doc = _doc()
    with pytest.raises(InvalidAction, match=r"'bar'.*no outline.*stroke_width"):
        apply_action(doc, {"type": "set_paint", "ids": ["bar"], "stroke": "#000000"})
    with pytest.raises(InvalidAction, match=r"'bar'.*no outline to make thinner"):
        apply_action(doc, {"type": "set_paint", "ids": ["bar"], "stroke_scale": 0.5})
    apply_action(doc, {"type": "set_paint", "ids": ["bar"], "stroke": "#000000", "stroke_width": 2})
    assert doc.layout.get("bar").box.height == pytest.approx(8.0)


def test_text_colour_reaches_a_run_that_sets_its_own() -> None:
    doc = _doc()
    apply_action(doc, {"type": "set_paint", "ids": ["title"], "fill": "#0000ff", "opacity": 0.5})
    assert _style(doc, "title", "fill") == "#0000ff" and _style(doc, "hi", "fill") == "#0000ff"
    el = doc.layout.get("title")
    assert el.fill == "#0000ff" and el.opacity == pytest.approx(0.5)


def test_a_picture_takes_only_an_opacity() -> None:
    doc = _doc()
    with pytest.raises(InvalidAction, match=r"'pic'.*picture.*only its opacity"):
        apply_action(doc, {"type": "set_paint", "ids": ["pic"], "fill": "#000000"})
    diff = apply_action(doc, {"type": "set_paint", "ids": ["pic"], "opacity": 0.4})
    assert diff.changed_ids == ["pic"] and doc.layout.get("pic").opacity == pytest.approx(0.4)


def test_an_outline_colour_alone_is_reported_as_a_change() -> None:
    doc = _doc()
    diff = apply_action(doc, {"type": "set_paint", "ids": ["frame"], "stroke": "#ff00ff"})
    assert diff.changed_ids == ["frame"] and _style(doc, "frame", "stroke") == "#ff00ff"


def test_a_locked_element_and_an_empty_action_are_refused() -> None:
    doc = _doc()
    apply_action(doc, {"type": "set_locked", "ids": ["bar"]})
    with pytest.raises(InvalidAction, match="'bar'.*locked"):
        apply_action(doc, {"type": "set_paint", "ids": ["bar"], "fill": "#000000"})
    with pytest.raises(InvalidAction, match="at least one"):
        apply_action(doc, {"type": "set_paint", "ids": ["rule"]})
    with pytest.raises(InvalidAction, match="not both"):
        apply_action(doc, {"type": "set_paint", "ids": ["rule"], "stroke_width": 1, "stroke_scale": 2})


def test_a_divider_on_a_real_card_is_made_half_as_thick_about_its_centre_line() -> None:
    doc = import_svg(CORPUS / "real" / "businesscard_back.svg")
    old = doc.layout.get("path1077").box
    apply_action(doc, {"type": "set_locked", "ids": ["path1077"], "locked": False})
    apply_action(doc, {"type": "set_paint", "ids": ["path1077"], "stroke_scale": 0.5})
    new = doc.layout.get("path1077").box
    assert new.width == pytest.approx(old.width / 2, rel=0.01) and new.cx == pytest.approx(old.cx)
    again = import_svg_text(export_svg(doc).decode(), source="card.svg")  # what the file says now
    assert again.layout.get("path1077").box.width == pytest.approx(new.width, rel=0.01)
