"""Sets said as one block, sides swapped, items counted under a heading, a band named as the header, and amounts.

"swap it round: logo on the right, words on the left", "centre the title + tagline vertically on the circle", "push
the title+tagline block over to the right so it has the same 50px margin the circle has on the left", "the three tips
are spread too far apart, 15px gaps between them", "keep it centred vertically in the grey header", "move the divider
a couple of mm left", "love the grey wedges. what typeface is the title set in?".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus" / "real"

BANNER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 500" width="1024" height="500">
  <rect id="ground" width="1024" height="500" fill="#ffffff"/>
  <circle id="mark" cx="250" cy="250" r="200" fill="#e53935"/>
  <text id="title" x="500" y="200" font-family="DejaVu Sans" font-size="72" font-weight="bold">MultiROM</text>
  <text id="tagline" x="520" y="260" font-family="DejaVu Sans" font-size="36" fill="#555555">The multiboot mod</text>
</svg>"""

CARD = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600">
  <rect id="page" width="800" height="600" fill="#ffffff"/>
  <g id="header"><rect id="band" x="0" y="0" width="800" height="110" fill="#dddddd"/>
    <text id="head" x="40" y="70" font-family="DejaVu Sans" font-size="40">Research data</text></g>
  <rect id="badge" x="660" y="30" width="60" height="60" fill="#0b5fa5"/>
  <text id="sub" x="40" y="190" font-family="DejaVu Sans" font-size="30" font-weight="bold">Praktické tipy</text>
  <text id="t1" x="60" y="250" font-family="DejaVu Sans" font-size="18">Red and green notes</text>
  <text id="t2" x="60" y="310" font-family="DejaVu Sans" font-size="18">The mentor keeps off the keyboard</text>
  <text id="t3" x="60" y="380" font-family="DejaVu Sans" font-size="18">Start slowly</text>
  <rect id="divider" x="420" y="160" width="3" height="300" fill="#0b5fa5"/>
</svg>"""


def _do(svg: str, request: str, tmp_path: Path, edited: bool = True) -> tuple[dict, dict, str]:
    chat = ChatAssistant(import_svg_text(svg, source="page.svg"), model=None, out_dir=tmp_path, preview=False)
    before = {e.id: e.box for e in chat.document.layout}
    reply = chat.handle(request)
    assert reply.edited == edited, reply.text
    return before, {e.id: e.box for e in chat.document.layout}, reply.text


def _kept(b: dict, a: dict, *ids: str) -> None:
    assert [k for k in b if k not in ids and a[k] != b[k]] == []


@pytest.mark.parametrize("request_", ["swap it round: logo on the right, words on the left",
                                      "flip it round - the circle on the right, the words on the left"])
def test_two_sides_swapped_move_each_side_as_one_block(request_: str, tmp_path: Path) -> None:
    b, a, _ = _do(BANNER, request_, tmp_path)
    assert a["mark"].x > a["title"].x2 - 1 and a["mark"].x > a["tagline"].x2 - 1
    # the words keep their places to each other, and the pair its outer edges
    assert a["tagline"].x - a["title"].x == pytest.approx(b["tagline"].x - b["title"].x, abs=0.5)
    assert min(a["title"].x, a["tagline"].x) == pytest.approx(b["mark"].x, abs=0.5)
    assert a["mark"].x2 == pytest.approx(max(b["title"].x2, b["tagline"].x2), abs=0.5)


def test_texts_stacked_and_centred_on_a_shape_move_as_one(tmp_path: Path) -> None:
    b, a, _ = _do(BANNER, "centre the words (title + tagline together) vertically on the circle", tmp_path)
    top, bottom = a["title"].y, a["tagline"].y2
    assert (top + bottom) / 2 == pytest.approx(a["mark"].cy, abs=1.0)
    assert a["tagline"].y - a["title"].y == pytest.approx(b["tagline"].y - b["title"].y, abs=0.5)


def test_a_block_pushed_to_a_side_with_a_margin_said_moves_as_one(tmp_path: Path) -> None:
    b, a, _ = _do(BANNER, "push the title+tagline block over to the right so it has the same 50px margin the circle "
                          "has on the left", tmp_path)
    assert max(a["title"].x2, a["tagline"].x2) == pytest.approx(1024 - 50, abs=1.0)
    assert a["tagline"].x - a["title"].x == pytest.approx(b["tagline"].x - b["title"].x, abs=0.5)
    _kept(b, a, "title", "tagline")


def test_a_move_by_an_amount_closer_is_by_that_amount(tmp_path: Path) -> None:
    b, a, _ = _do(BANNER, "move the text 40px closer to the logo", tmp_path)
    assert a["title"].x - b["title"].x == pytest.approx(-40, abs=0.5)
    assert a["tagline"].x - b["tagline"].x == pytest.approx(-40, abs=0.5)


def test_items_counted_under_a_heading_get_the_gap_said(tmp_path: Path) -> None:
    b, a, _ = _do(CARD, "the three tips are spread too far apart, 15px gaps between them", tmp_path)
    assert a["t2"].y - a["t1"].y2 == pytest.approx(15, abs=0.5)
    assert a["t3"].y - a["t2"].y2 == pytest.approx(15, abs=0.5)
    _kept(b, a, "t1", "t2", "t3", "la-section-1")  # (the section round them, under the heading)


def test_a_band_across_the_top_is_the_header(tmp_path: Path) -> None:
    b, a, _ = _do(CARD, "badge 10% smaller, keep it centred vertically in the grey header", tmp_path)
    assert a["badge"].width == pytest.approx(0.9 * b["badge"].width, abs=0.5)
    assert a["badge"].cy == pytest.approx(b["band"].cy, abs=0.5)


def test_a_couple_of_mm_is_two(tmp_path: Path) -> None:
    b, a, _ = _do(CARD, "move the divider a couple of mm left", tmp_path)
    assert b["divider"].x - a["divider"].x == pytest.approx(2 * 96 / 25.4, abs=0.05)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")
def test_a_text_crashing_into_a_row_gets_the_gap_from_the_row(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "kieleckamasa_plakat.svg"), model=None, out_dir=tmp_path, preview=False)
    b = {e.id: e.box for e in chat.document.layout}
    reply = chat.handle("body text is crashing into the fb / www links at the bottom, leave a couple of mm between "
                        "them")
    assert reply.edited, reply.text
    a = {e.id: e.box for e in chat.document.layout}
    body, links = "flowRoot4706", ("text3678-8-3", "text3678-8")  # the paragraph, and the two links side by side
    assert min(a[k].y for k in links) - a[body].y2 == pytest.approx(2.0, abs=0.3)  # mm: the file's unit
    assert a[links[1]].x - a[links[0]].x == pytest.approx(b[links[1]].x - b[links[0]].x, abs=0.01)  # still a row


def test_praise_and_a_question_get_no_edit(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg_text(CARD, source="page.svg"), model=None, out_dir=tmp_path, preview=False)
    reply = chat.handle("love the grey band at the top. what typeface is the heading set in?")
    assert not reply.edited
