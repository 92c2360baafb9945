"""The paragraph or the bullets of a section, gaps halved or set between each item, and amounts that go the right way.

"The Welcome paragraph is all bold and reads heavy next to the others. regular weight pls", "give the Features
bullets a bit more air, 20px between each item", "too much space between the title and the name, halve it",
"10% narrower, still centred where it is now", "red band's a bit fat. 20% shorter, still stuck to the bottom",
"'diagram' spills out of its red tab, widen the tab …", "make the edit box as wide as the build box".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text

FLYER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 840" width="600" height="840">
  <rect id="page" width="600" height="840" fill="#ffffff"/>
  <text id="Title" x="56" y="90" font-family="DejaVu Sans" font-size="36" font-weight="bold">GDAL</text>
  <text id="About" x="58" y="195" font-family="DejaVu Sans" font-size="9" font-weight="bold">
    <tspan x="58" y="195">GDAL is a translator library for raster and vector</tspan>
    <tspan x="58" y="207">geospatial data formats, released under an open</tspan>
    <tspan x="58" y="219">source licence by the Open Source Foundation.</tspan>
  </text>
  <text id="Welcome" x="57" y="172" font-family="DejaVu Sans" font-size="14" font-weight="bold">Welcome</text>
  <text id="formats" x="58" y="352" font-family="DejaVu Sans" font-size="9">
    <tspan x="58" y="352">GDAL supports over 140 raster formats and</tspan>
    <tspan x="58" y="364">over 80 vector formats, with more each year.</tspan>
  </text>
  <text id="formats-head" x="57" y="330" font-family="DejaVu Sans" font-size="14"
        font-weight="bold">Supported formats</text>
  <text id="features-head" x="320" y="172" font-family="DejaVu Sans" font-size="14" font-weight="bold">Features</text>
  <rect id="b1" x="320" y="189" width="4" height="5" fill="#2a7"/>
  <text id="f1" x="335" y="195" font-family="DejaVu Sans" font-size="9">Command-line utilities for translation</text>
  <rect id="b2" x="320" y="209" width="4" height="5" fill="#2a7"/>
  <text id="f2" x="335" y="215" font-family="DejaVu Sans" font-size="9">Efficient raster data access</text>
  <rect id="b3" x="320" y="229" width="4" height="5" fill="#2a7"/>
  <text id="f3" x="335" y="235" font-family="DejaVu Sans" font-size="9">Support for large files</text>
  <rect id="b4" x="320" y="249" width="4" height="5" fill="#2a7"/>
  <text id="f4" x="335" y="255" font-family="DejaVu Sans" font-size="9">Coordinate system engine</text>
  <image id="globe" x="60" y="674" width="90" height="100"/>
  <text id="url" x="430" y="752" font-family="DejaVu Sans" font-size="14">gdal.org</text>
  <rect id="qr" x="500" y="760" width="60" height="60" fill="#000000"/>
</svg>"""

BANNER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 170" width="320" height="170">
  <rect id="sky" width="320" height="170" fill="#f4f1ea"/>
  <text id="heading" x="40" y="60" font-family="DejaVu Sans" font-size="24">Bergen Linux User Group</text>
  <text id="name" x="150" y="95" font-family="DejaVu Sans" font-size="22" font-weight="bold">Zeste de Code</text>
  <rect id="band" x="0" y="120" width="320" height="50" fill="#c0272d"/>
  <text id="site" x="120" y="150" font-family="DejaVu Sans" font-size="12" fill="#ffffff">example.org</text>
</svg>"""

TABS = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 750" width="1000" height="750">
  <rect id="bg" width="1000" height="750" fill="#ffffff"/>
  <text id="title" x="100" y="150" font-family="DejaVu Sans" font-size="64">What is Publican?</text>
  <text id="body" x="100" y="240" font-family="DejaVu Sans" font-size="32">A complete toolchain for books</text>
  <g id="edit"><rect id="edit-box" x="290" y="363" width="78" height="72" fill="#c33"/>
    <text id="edit-label" x="329" y="408" font-family="DejaVu Sans" font-size="24" text-anchor="middle"
          fill="#fff">edit</text></g>
  <g id="build"><rect id="build-box" x="600" y="363" width="98" height="72" fill="#c33"/>
    <text id="build-label" x="649" y="408" font-family="DejaVu Sans" font-size="24" text-anchor="middle"
          fill="#fff">build</text></g>
</svg>"""


def _chat(svg: str, tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(svg, source="page.svg"), model=None, out_dir=tmp_path, preview=False)


def _do(svg: str, tmp_path: Path, request: str) -> tuple[dict, ChatAssistant]:
    chat = _chat(svg, tmp_path)
    before = {e.id: e for e in chat.document.layout}
    reply = chat.handle(request)
    assert reply.edited, reply.text
    return before, chat


def test_the_paragraph_of_a_section_is_the_text_under_its_heading(tmp_path: Path) -> None:
    b, chat = _do(FLYER, tmp_path, "Welcome paragraph is all bold and reads heavy next to the others. regular weight "
                                   "pls")
    lay = chat.document.layout
    assert lay.get("About").font_weight == 400
    assert lay.get("Welcome").font_weight == b["Welcome"].font_weight == 700  # the heading stays bold
    assert lay.get("formats-head").font_weight == 700 and lay.get("Title").font_weight == 700


def test_the_bullets_of_a_section_spaced_by_a_gap_between_each_item(tmp_path: Path) -> None:
    b, chat = _do(FLYER, tmp_path, "give the Features bullets a bit more air, 20px between each item, first one "
                                   "stays put")
    lay = chat.document.layout
    items = [lay.get(f"la-item-{k}").box for k in range(1, 5)]
    assert all(next_.y - prev.y2 == pytest.approx(20, abs=1.0) for prev, next_ in zip(items, items[1:]))
    assert items[0] == b["la-item-1"].box


def test_a_swap_of_two_headings_swaps_their_sections_whatever_the_order_of_the_file(tmp_path: Path) -> None:
    b, chat = _do(FLYER, tmp_path, "swap Welcome and Supported formats in the left column")
    lay = chat.document.layout
    assert lay.get("la-section-2").box.y == pytest.approx(b["la-section-1"].box.y, abs=1.0)
    assert lay.get("About").box.y > lay.get("Welcome").box.y  # each paragraph goes with its heading
    assert lay.get("formats").box.y > lay.get("formats-head").box.y


def test_lower_than_the_middle_of_a_picture_then_their_centres_level(tmp_path: Path) -> None:
    b, chat = _do(FLYER, tmp_path, "gdal.org sits lower than the middle of the globe pic, line their centres up "
                                   "(dont move it sideways)")
    lay = chat.document.layout
    assert lay.get("url").box.cy == pytest.approx(lay.get("globe").box.cy, abs=1.0)
    assert lay.get("url").box.x == pytest.approx(b["url"].box.x) and lay.get("globe").box == b["globe"].box


def test_still_in_a_corner_said_without_still_holds_that_corner(tmp_path: Path) -> None:
    b, chat = _do(FLYER, tmp_path, "make the black square 25% bigger, it should stay bottom right")
    q, was = chat.document.layout.get("qr").box, b["qr"].box
    assert q.width == pytest.approx(1.25 * was.width, rel=0.02)
    assert (q.x2, q.y2) == pytest.approx((was.x2, was.y2), abs=0.5)


def test_a_share_narrower_or_shorter_makes_it_smaller(tmp_path: Path) -> None:
    b, chat = _do(BANNER, tmp_path, "red band's a bit fat. 20% shorter, still stuck to the bottom")
    band = chat.document.layout.get("band").box
    assert band.height == pytest.approx(0.8 * b["band"].box.height, rel=0.02)
    assert band.y2 == pytest.approx(b["band"].box.y2, abs=0.5)
    b, chat = _do(BANNER, tmp_path, "Zeste de Code: 10% narrower, still centred where it is now")
    name = chat.document.layout.get("name").box
    assert name.width == pytest.approx(0.9 * b["name"].box.width, rel=0.02)
    assert name.cx == pytest.approx(b["name"].box.cx, abs=1.0)


def test_a_problem_said_without_its_subject_then_the_amount_is_one_edit(tmp_path: Path) -> None:
    b, chat = _do(BANNER, tmp_path, "Zeste de Code, is a bit shouty - 10% smaller, keep it centred")
    name = chat.document.layout.get("name").box
    assert name.width == pytest.approx(0.9 * b["name"].box.width, rel=0.03)  # once, not twice
    assert name.cx == pytest.approx(b["name"].box.cx, abs=1.0)


def test_nudged_to_the_middle_where_it_is_nearly_centred_across(tmp_path: Path) -> None:
    b, chat = _do(BANNER, tmp_path, "Bergen Linux User Group isnt quite centred, nudge it to the middle")
    h = chat.document.layout.get("heading").box
    assert h.cx == pytest.approx(160, abs=1.0)
    assert h.y == pytest.approx(b["heading"].box.y)  # not down to the middle of the page


def test_same_for_a_text_at_the_bottom_says_which_one_not_where(tmp_path: Path) -> None:
    b, chat = _do(BANNER, tmp_path, "same for example.org at the bottom, centre it on the page")
    s = chat.document.layout.get("site").box
    assert s.cx == pytest.approx(160, abs=1.0) and s.y == pytest.approx(b["site"].box.y)


@pytest.mark.parametrize("request_", ["too much space between the heading and Zeste de Code, halve it",
                                      "halve the gap between the heading and Zeste de Code"])
def test_halving_a_gap_halves_the_gap_not_the_element(tmp_path: Path, request_: str) -> None:
    b, chat = _do(BANNER, tmp_path, request_)
    lay = chat.document.layout
    gap = lay.get("name").box.y - lay.get("heading").box.y2
    assert gap == pytest.approx(0.5 * (b["name"].box.y - b["heading"].box.y2), abs=0.5)
    assert lay.get("name").box.width == pytest.approx(b["name"].box.width)


def test_the_tab_after_its_red_tab_is_that_tab(tmp_path: Path) -> None:
    # a slide whose word 'diagram' runs past the right of its red tab, among four other tabs
    chat = ChatAssistant(import_svg(CORPUS / "real" / "publican_slide-toolchain.svg"), model=None, out_dir=tmp_path,
                         preview=False)
    b = {e.id: e.box for e in chat.document.layout}
    reply = chat.handle("'diagram' spills out of its red tab, widen the tab so the word fits with a bit of padding")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("rect3785-0").box.x2 >= lay.get("text4424").box.x2 + 5  # the tab under 'diagram'
    assert all(lay.get(i).box == b[i] for i in ("g8548", "g8538", "g8594", "g8571", "g8543"))  # not another


def test_a_box_as_wide_as_another_widens_its_backdrop_not_its_label(tmp_path: Path) -> None:
    b, chat = _do(TABS, tmp_path, "make the edit box as wide as the build box")
    lay = chat.document.layout
    assert lay.get("edit-box").box.width == pytest.approx(b["build-box"].box.width, abs=0.5)
    assert lay.get("edit-label").box == b["edit-label"].box  # the word keeps its size and place
    assert lay.get("edit-box").box.cx == pytest.approx(b["edit-box"].box.cx, abs=0.5)


def test_too_shouty_next_to_another_is_a_size_not_a_place(tmp_path: Path) -> None:
    b, chat = _do(TABS, tmp_path, "title's too shouty next to the body - take it down to about 52px")
    t = chat.document.layout.get("title")
    assert t.font_size == pytest.approx(52) and t.box.x == pytest.approx(b["title"].box.x, abs=0.5)
