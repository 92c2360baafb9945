"""Text layout with real font metrics: positioned text, anchors, wrapping, flowed text, corpus files."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from assistant.svg.css import StyleResolver
from assistant.text.fonts import font_extents, text_advance
from assistant.text.layout import wrap_lines
from assistant.text.measure import measure_text

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo"
SVG = "http://www.w3.org/2000/svg"


def measure(body: str, xml_id: str = "t", extra_ns: str = ""):
    root = etree.fromstring(f'<svg xmlns="{SVG}" {extra_ns}>{body}</svg>'.encode())
    node = root.xpath(f"//*[@id='{xml_id}']")[0]
    return measure_text(node, StyleResolver(root))


def test_single_line_box_from_real_advances_and_extents() -> None:
    m = measure('<text id="t" x="10" y="50" font-family="sans-serif" font-size="20">Hello</text>')
    width = text_advance("Hello", "sans-serif", 20)
    ascent, descent = font_extents("sans-serif", 20)
    assert m.box.x == pytest.approx(10)
    assert m.box.width == pytest.approx(width)
    assert m.box.y == pytest.approx(50 - ascent)
    assert m.box.height == pytest.approx(ascent + descent)
    assert m.lines == ["Hello"] and m.font_size == 20 and m.anchor == "start"
    assert m.fill == "#000000"


@pytest.mark.parametrize("anchor,shift", [("start", 0.0), ("middle", -0.5), ("end", -1.0)])
def test_text_anchor_shifts_each_chunk(anchor: str, shift: float) -> None:
    m = measure(f'<text id="t" x="100" y="50" font-size="10" text-anchor="{anchor}">Anchor</text>')
    w = text_advance("Anchor", "sans-serif", 10)
    assert m.box.x == pytest.approx(100 + shift * w)
    assert m.anchor == anchor


def test_tspans_lines_inherited_fonts_and_dx() -> None:
    m = measure('<text id="t" font-size="10" style="font-family:serif;fill:#336699">'
                '<tspan x="0" y="10">First line</tspan>'
                '<tspan x="0" y="22" font-weight="bold">Second <tspan dx="5" font-size="20">big</tspan></tspan>'
                '</text>')
    assert m.lines == ["First line", "Second big"]
    assert m.line_height == pytest.approx(12)
    assert m.fill == "#336699"
    second = text_advance("Second ", "serif", 10, 700) + 5 + text_advance("big", "serif", 20, 700)
    assert m.box.width == pytest.approx(max(second, text_advance("First line", "serif", 10)))
    asc20, _ = font_extents("serif", 20, 700)
    assert m.box.y == pytest.approx(min(10 - font_extents("serif", 10)[0], 22 - asc20))


def test_per_character_x_list_and_whitespace_collapse() -> None:
    m = measure('<text id="t" y="10" x="0 100 200" font-size="10">  a   b  </text>')
    # "a b" after collapsing: 'a' at 0, ' ' at 100, 'b' at 200 (three chunks).
    assert m.lines == ["a b"]
    assert m.box.x == pytest.approx(0)
    assert m.box.x2 == pytest.approx(200 + text_advance("b", "sans-serif", 10))
    pre = measure('<text id="t" y="10" x="0" font-size="10" xml:space="preserve">a   b</text>')
    assert pre.box.width == pytest.approx(text_advance("a   b", "sans-serif", 10))


def test_empty_and_hidden_text_is_none() -> None:
    assert measure('<text id="t" x="0" y="0">   </text>') is None
    assert measure('<text id="t"><tspan style="display:none">gone</tspan></text>') is None


def test_wrap_lines_greedy_with_real_widths() -> None:
    text = "The quick brown fox jumps over the lazy dog"
    width = text_advance("The quick brown fox", "sans-serif", 10) + 0.01
    lines = wrap_lines(text, width, "sans-serif", 10)
    assert lines[0] == "The quick brown fox"
    assert " ".join(lines) == text
    for line in lines:
        assert text_advance(line, "sans-serif", 10) <= width
    # A long word stands alone rather than being lost; newlines force breaks.
    assert wrap_lines("a incomprehensibilities b", 20, "sans-serif", 10) == ["a", "incomprehensibilities", "b"]
    assert wrap_lines("one\ntwo", 1000, "sans-serif", 10) == ["one", "two"]


def test_inline_size_wraps_from_the_text_position() -> None:
    m = measure('<text id="t" x="10" y="30" style="font-size:10px;inline-size:60px;line-height:1.5">'
                'alpha beta gamma delta epsilon</text>')
    assert m.layout == "inline-size"
    assert len(m.lines) >= 3
    assert m.placements[0].y == pytest.approx(30)
    assert m.placements[1].y - m.placements[0].y == pytest.approx(15)
    assert m.box.x >= 10 - 1e-6 and m.box.x2 <= 70 + 1e-6
    assert m.line_height == pytest.approx(15)


def test_shape_inside_wraps_into_the_rect() -> None:
    m = measure('<defs><rect id="r" x="20" y="40" width="80" height="200"/></defs>'
                '<text id="t" style="shape-inside:url(#r);font-size:12px;text-align:center">'
                'Lorem ipsum dolor sit amet, consectetur</text>')
    assert m.layout == "shape-inside"
    assert m.region is not None and m.region.width == 80
    assert m.box.x >= 20 - 1e-6 and m.box.x2 <= 100 + 1e-6 and m.box.y >= 40 - 1e-6
    for p in m.placements:  # centred lines
        assert p.x + p.width / 2 == pytest.approx(60, abs=1e-6)


def test_flowroot_wraps_paragraphs_and_hides_overflow() -> None:
    body = ('<flowRoot id="t" xml:space="preserve" style="font-size:10px;line-height:1.25;font-family:serif">'
            '<flowRegion><rect x="0" y="0" width="100" height="40"/></flowRegion>'
            '<flowPara>one two three four five six seven eight nine ten eleven twelve</flowPara>'
            '<flowPara/><flowPara>after the gap</flowPara></flowRoot>')
    m = measure(body)
    assert m.layout == "flow"
    assert len(m.lines) == 3                     # 40 / 12.5 → three lines fit
    assert m.overflow and m.hidden_lines
    for p in m.placements:
        assert p.width <= 100 + 1e-6
    assert m.placements[1].y - m.placements[0].y == pytest.approx(12.5)
    full = measure(body.replace('height="40"', 'height="400"'))
    assert not full.overflow
    assert full.lines[-1] == "after the gap"
    # The empty paragraph still takes a line: the gap before "after the gap" is two line heights.
    assert full.placements[-1].y - full.placements[-2].y == pytest.approx(25)


def test_a_word_too_long_for_a_narrow_frame_stops_the_flowed_text() -> None:
    """A frame under four line boxes wide: the word fits no line, and it and what follows are not drawn."""
    body = ('<flowRoot id="t" style="font-size:20px;line-height:1.25;font-family:sans-serif">'
            '<flowRegion><rect x="0" y="0" width="90" height="200"/></flowRegion>'
            '<flowPara>Cameron</flowPara><flowPara>Hudson</flowPara></flowRoot>')
    assert text_advance("Cameron", "sans-serif", 20) > 90 > 3 * 25  # wider than the frame, under 4 × 25
    assert measure(body) is None  # nothing shows
    shorter = measure(body.replace("Cameron", "Cam"))
    assert shorter.lines == ["Cam", "Hudson"] and not shorter.overflow
    second = measure(body.replace("Cameron", "Cam").replace("Hudson", "Extraordinarily"))
    assert second.lines == ["Cam"] and second.overflow and second.hidden_lines == ["Extraordinarily"]


def test_a_word_too_long_for_a_wide_frame_breaks_between_characters() -> None:
    """A frame at least four line boxes wide breaks a word longer than it, each line as full as fits."""
    word = "Supercalifragilisticexpialidocious"
    m = measure('<flowRoot id="t" style="font-size:10px;line-height:1.25;font-family:sans-serif">'
                '<flowRegion><rect x="0" y="0" width="60" height="200"/></flowRegion>'
                f'<flowPara>{word} and more</flowPara></flowRoot>')
    assert 60 >= 4 * 12.5 and not m.overflow
    assert "".join(m.lines).replace(" ", "").startswith(word) and len(m.lines) >= 3
    for p in m.placements:
        assert p.width <= 60 + 1e-6
    assert text_advance(m.lines[0] + word[len(m.lines[0])], "sans-serif", 10) > 60  # as full as fits


def test_flowroot_region_through_use_and_justify() -> None:
    m = measure('<defs><rect id="r" x="10" y="10" width="120" height="300"/></defs>'
                '<flowRoot id="t" xml:space="preserve" style="font-size:9px;text-align:justify">'
                '<flowRegion><use xlink:href="#r"/></flowRegion>'
                '<flowPara>justified text spreads its words over the whole width of the region box</flowPara>'
                '</flowRoot>', extra_ns='xmlns:xlink="http://www.w3.org/1999/xlink"')
    assert len(m.placements) >= 2
    first = m.placements[0]
    assert first.x == pytest.approx(10)
    assert first.x + first.width == pytest.approx(130, abs=1e-6)  # justified: flush right too
    last = m.placements[-1]
    assert last.x + last.width < 130 - 1                            # last line is not stretched


def test_corpus_flowed_text_pgrouting() -> None:
    tree = etree.parse(str(CORPUS / "pgRouting_a4.svg"))
    r = StyleResolver(tree)
    node = tree.getroot().xpath("//*[@id='flowRoot4588']")[0]
    m = measure_text(node, r)
    assert m.layout == "flow"
    joined = " ".join(m.lines)
    assert joined.startswith("pgRouting extends the PostGIS/PostgreSQL geospatial database")
    assert "Using it, is with SQL queries." in joined
    assert m.font_weight == 700 and m.fill == "#0b3033"
    rect = tree.getroot().xpath("//*[@id='rect4586']")[0]
    assert m.box.x >= float(rect.get("x")) - 1e-6
    assert m.box.x2 <= float(rect.get("x")) + float(rect.get("width")) + 1e-6


def test_every_corpus_text_measures() -> None:
    for path in sorted(CORPUS.glob("*.svg")):
        tree = etree.parse(str(path), etree.XMLParser(recover=True, huge_tree=True))
        r = StyleResolver(tree)
        for node in tree.getroot().iter(f"{{{SVG}}}text", f"{{{SVG}}}flowRoot"):
            m = measure_text(node, r)
            if m is not None:
                assert m.box.width > 0 and m.box.height > 0, (path.name, node.get("id"))
                assert m.lines and all(line.strip() for line in m.lines)


def test_resvg_text_edge_cases_measure_without_error() -> None:
    """Every <text> of the resvg text suite lays out (or is None) with a finite, non-negative box."""
    count = 0
    for path in sorted((CORPUS.parent / "resvg").glob("**/*.svg")):
        try:
            tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
        except etree.XMLSyntaxError:
            continue  # malformed on purpose: the importer's tests cover it
        r = StyleResolver(tree)
        for node in tree.getroot().iter(f"{{{SVG}}}text"):
            m = measure_text(node, r)
            count += 1
            if m is not None:
                assert m.box.width >= 0 and m.box.height > 0, path.name
    assert count > 300
