"""The design's own columns (``assistant.metrics.lines``): a unit knocked off them is a defect; a header is not."""

from __future__ import annotations

from assistant.actions import apply_action
from assistant.importer import import_svg, import_svg_text
from assistant.metrics import evaluate


def _page(*, band: bool, logo_x: float = 40.0, knocked: float = 0.0) -> str:
    """A 1000 × 1400 page: a logo at the top, five pictures on the body's left edge (x = 80).

    A note stands beside each picture; ``knocked`` moves the third picture off the edge.
    """
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1400">',
             '<rect width="1000" height="1400" fill="#ffffff"/>']
    if band:
        parts.append('<rect x="0" y="0" width="1000" height="260" fill="#1d3557"/>')
    parts.append(f'<rect id="logo" data-role="logo" x="{logo_x}" y="60" width="220" height="140" fill="#e63946"/>')
    for i in range(5):
        x = 80 + (knocked if i == 2 else 0.0)
        parts.append(f'<rect id="card{i}" data-role="image" x="{x}" y="{320 + i * 200}" width="300" height="150" '
                     'fill="#a8dadc"/>')
        parts.append(f'<text id="note{i}" x="480" y="{380 + i * 200}" font-size="28">Note {i} on the card</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _alignment_defects(svg: str) -> list[str]:
    report = evaluate(import_svg_text(svg).layout)
    return [f.message for f in report.findings() if f.metric == "alignment" and f.defect]


def test_a_logo_off_the_body_column_is_a_defect_on_the_page_itself() -> None:
    found = _alignment_defects(_page(band=False))
    assert any(m.startswith("logo ") for m in found), found


def test_a_logo_on_a_header_band_keeps_the_bands_own_lines() -> None:
    # the header band is a ground of its own: the body's columns say nothing about the logo on it
    assert _alignment_defects(_page(band=True)) == []


def test_a_card_knocked_off_the_body_column_is_found_under_a_header_band() -> None:
    found = _alignment_defects(_page(band=True, knocked=25.0))
    assert any(m.startswith("card2 ") for m in found), found
    assert not any(m.startswith("logo ") for m in found), found


def _stack(edges: tuple[float, ...]) -> str:
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 612 792">',
             '<text id="head" x="40" y="100" font-size="40" font-weight="700">FIELD NOTES</text>']
    for i, x in enumerate(edges):
        parts.append(f'<text id="line{i}" x="{x}" y="{300 + 70 * i}" font-size="15">Cover line number {i}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def test_like_lines_zigzagging_off_one_edge_are_put_back_on_it_together() -> None:
    report = evaluate(import_svg_text(_stack((58.0, 33.0, 47.0))).layout)
    ragged = [f for f in report.findings() if f.metric == "alignment" and f.defect]
    assert sorted(f.element_ids[0] for f in ragged) == ["line0", "line1", "line2"]
    # one edit for the whole list, onto the heading's edge that lies within reach
    assert all(f.suggestion == {"type": "align", "ids": ["line0", "line1", "line2"], "edge": "left",
                                "to": "element", "target_id": "head"} for f in ragged)


def test_a_steady_cascade_of_indents_is_deliberate() -> None:
    assert _alignment_defects(_stack((33.0, 47.0, 58.0))) == []


def test_fix_sets_the_editorial_examples_cover_lines_on_one_edge() -> None:
    from pathlib import Path

    from assistant.app.batch import FixOptions, improve
    from assistant.importer import import_svg

    doc = import_svg(Path(__file__).resolve().parents[1] / "examples" / "editorial_cover.svg")
    improve(doc, FixOptions())
    edges = {round(doc.layout.get(f"coverline-{i}").box.x, 1) for i in (1, 2, 3, 4)}
    assert edges == {round(doc.layout.get("masthead").box.x, 1)}



def test_a_one_line_text_flush_right_on_a_margin_keeps_the_page_regular() -> None:
    # a left-set name ending on the picture's right edge sits on a line; the button off the column is then found
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1080 1080">'
           '<text id="tag" x="90" y="250" font-size="34">Lighter. Quieter. Twice the battery.</text>'
           '<text id="head" x="90" y="320" font-size="60" font-weight="700">Meet Orbit 2</text>'
           '<rect id="photo" data-role="image" x="90" y="360" width="900" height="440" fill="#f2aa4c"/>'
           '<rect id="shop" data-role="cta" x="137" y="880" width="300" height="84" fill="#f2aa4c"/>'
           '<text id="brand" x="{x}" y="1040" font-size="40">orbit</text></svg>')
    width = import_svg_text(svg.format(x=90)).layout.get("brand").box.width
    found = _alignment_defects(svg.format(x=990 - width))
    assert any(m.startswith("shop ") for m in found), found
    # the same name ending on no line leaves too few units on lines for the page to count as regular
    assert _alignment_defects(svg.format(x=700)) == []



def _seal(seal_x2: float, *, rule: bool = False, others_x2: float | None = None) -> str:
    """Pictures on the left edge (x = 100) ending at x = 1800 (and three more ending at ``others_x2``); a seal
    in the top right corner ending at ``seal_x2``, over a rule from 100 to 1900 perhaps."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 2400">']
    if rule:
        parts.append('<rect x="100" y="300" width="1800" height="2" fill="#999"/>')
    parts.append(f'<rect id="seal" data-role="logo" x="{seal_x2 - 150}" y="100" width="150" height="150" fill="#c00"/>')
    ends = [1800.0] * 3 + ([others_x2] * 3 if others_x2 is not None else [])
    for i, x2 in enumerate(ends):
        parts.append(f'<rect id="pic{i}" data-role="image" x="100" y="{400 + 320 * i}" width="{x2 - 100}" '
                     'height="250" fill="#8ab"/>')
    parts.append("</svg>")
    return "\n".join(parts)


def test_an_element_on_the_end_of_a_pinned_rule_sits_on_a_line() -> None:
    # 100 units right of the pictures' edge, the seal is found off it; ending where the rule ends, it is on a line
    assert any(m.startswith("seal ") for m in _alignment_defects(_seal(1900.0)))
    assert _alignment_defects(_seal(1900.0, rule=True)) == []


def test_a_shift_below_the_smallest_move_means_near_enough() -> None:
    # 10 units (under MIN_SHIFT of the page) off the pictures' edge: near enough, though a shift of 90 would put
    # it on the edge of three other pictures
    assert any(m.startswith("seal ") for m in _alignment_defects(_seal(1900.0, others_x2=1810.0)))
    assert _alignment_defects(_seal(1810.0, others_x2=1720.0)) == []


def test_two_columns_of_like_lines_are_judged_each_on_its_own() -> None:
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">']
    for i, x in enumerate((80, 100, 90)):  # a tidy column at x = 60, and one far below it zigzagging
        parts.append(f'<text id="l{i}" x="60" y="{100 + 40 * i}" font-size="20">Left column line {i}</text>')
        parts.append(f'<text id="r{i}" x="{x}" y="{700 + 40 * i}" font-size="20">Lower line {i}</text>')
    parts.append("</svg>")
    report = evaluate(import_svg_text("\n".join(parts)).layout)
    ragged = [f for f in report.findings() if f.metric == "alignment" and f.defect]
    # the lower column is mended as a whole (onto the edge above), not only its line nearest that edge
    assert sorted(f.element_ids[0] for f in ragged) == ["r0", "r1", "r2"]
    assert {f.suggestion["type"] for f in ragged} == {"align"}


def _knocked(dx: float, dy: float, which: int = 2) -> str:
    """Five cards down the left edge (x = 80), 50 apart, a note beside each; card ``which`` knocked by (dx, dy)."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1400">']
    for i in range(5):
        x, y = 80 + (dx if i == which else 0.0), 120 + i * 250 + (dy if i == which else 0.0)
        parts.append(f'<rect id="card{i}" data-role="image" x="{x}" y="{y}" width="300" height="200" fill="#a8dadc"/>')
        parts.append(f'<text id="note{i}" x="480" y="{180 + i * 250}" font-size="28">Note {i} on the card</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _defects(svg: str) -> list:
    report = evaluate(import_svg_text(svg).layout)
    return [f for f in report.findings() if f.metric == "alignment" and f.defect]


def test_a_card_knocked_off_its_column_and_its_spacing_is_put_back_on_both_at_once() -> None:
    found = [f for f in _defects(_knocked(30.0, 22.0)) if f.element_ids[0] == "card2"]
    assert len(found) == 1, found
    assert found[0].suggestion == {"type": "move", "ids": ["card2"], "dx": -30.0, "dy": -22.0}
    assert "off its column's spacing (between card1 and card3)" in found[0].message


def test_the_last_card_goes_back_to_the_gap_the_column_repeats() -> None:
    found = [f for f in _defects(_knocked(-30.0, 25.0, which=4)) if f.element_ids[0] == "card4"]
    assert [f.suggestion for f in found] == [{"type": "move", "ids": ["card4"], "dx": 30.0, "dy": -25.0}]
    assert "off its column's spacing (under card3)" in found[0].message


def test_spacing_alone_is_not_a_defect() -> None:
    # the gaps of a column in real designs are set too freely for a changed gap alone to say "knocked"
    assert _defects(_knocked(0.0, 22.0)) == []


def test_a_ragged_list_does_not_hide_a_card_knocked_off_its_column() -> None:
    parts = _knocked(30.0, 0.0).replace("</svg>", "").split("\n")
    for i, x in enumerate((600.0, 611.0, 600.0)):
        parts.append(f'<text id="item{i}" x="{x}" y="{1300 + 30 * i}" font-size="20">List item {i}</text>')
    found = {f.element_ids[0] for f in _defects("\n".join(parts) + "</svg>")}
    assert {"item1", "card2"} <= found, found


def test_a_section_knocked_off_the_column_is_moved_back_whole(osgeo_dir) -> None:
    # a heading with its body, grouped by the importer: they keep each other's edge wherever the section stands
    doc = import_svg(osgeo_dir / "geonetwork_a4.svg")
    assert _section_defects(doc) == []
    apply_action(doc, {"type": "move", "ids": ["la-section-3"], "dx": 35.0, "dy": 0.0})
    found = _section_defects(doc)
    assert [f.suggestion for f in found] == [{"type": "move", "ids": ["la-section-3"], "dx": -35.0, "dy": 0.0}]


def _section_defects(doc) -> list:
    return [f for f in evaluate(doc.layout).findings() if f.metric == "alignment" and f.defect
            and f.element_ids[0].startswith("la-section-")]
