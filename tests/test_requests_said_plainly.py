"""Requests said plainly that were misread: two ways with one amount, a held edge said with "don't", edges said
to be shared, a state that is not a gap, "right under", a gap said after a problem, a width after "tighten",
room said after "so", texts called bits, even margins after "so", gaps between several, a gap wanted, and the one
that moves when a gap between two is too big.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"

#: A small poster: a title over a tagline set further right, a logo, a caption, a row of three tiles.
PAGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600">
  <rect id="ground" x="0" y="0" width="800" height="600" fill="#ffffff"/>
  <text id="title" x="80" y="120" font-size="60" font-family="DejaVu Sans" fill="#111111">Night Market</text>
  <text id="tagline" x="120" y="170" font-size="24" font-family="DejaVu Sans" fill="#555555">food, music, lights</text>
  <circle id="logo" cx="680" cy="110" r="50" fill="#cc3333"/>
  <text id="quote" x="80" y="300" font-size="28" font-family="DejaVu Sans" fill="#111111">Eat well, walk slowly.</text>
  <text id="author" x="500" y="300" font-size="18" font-family="DejaVu Sans" fill="#111111">Ana Lee</text>
  <rect id="tile-a" x="80" y="450" width="80" height="80" fill="#2255aa"/>
  <rect id="tile-b" x="165" y="450" width="80" height="80" fill="#22aa55"/>
  <rect id="tile-c" x="250" y="450" width="80" height="80" fill="#aa8822"/>
  <text id="footer" x="80" y="580" font-size="14" font-family="DejaVu Sans" fill="#333333">nightmarket.example</text>
</svg>"""


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(PAGE, source="market.svg"), model=None, out_dir=tmp_path, preview=False)


def _box(chat: ChatAssistant, eid: str):
    return chat.document.layout.get(eid).box


def test_two_ways_with_one_amount_go_both_that_far(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "footer")
    reply = chat.handle("footer: up and left by 20px each")
    assert reply.edited, reply.text
    after = _box(chat, "footer")
    assert after.x - before.x == pytest.approx(-20) and after.y - before.y == pytest.approx(-20)
    chat = _chat(tmp_path)
    chat.handle("move the footer up and left by 20px")
    assert _box(chat, "footer").y - before.y == pytest.approx(-20)


def test_dont_move_its_left_edge_holds_that_edge(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "title")
    reply = chat.handle("title 20% bigger pls, dont move its left edge")
    assert reply.edited, reply.text
    after = _box(chat, "title")
    assert after.x == pytest.approx(before.x, abs=0.5) and after.width == pytest.approx(1.2 * before.width, rel=0.03)


def test_starts_further_right_then_share_a_left_edge(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    title = _box(chat, "title")
    reply = chat.handle("the tagline starts further right than the title does.. push it left so they share a left edge")
    assert reply.edited, reply.text
    assert _box(chat, "tagline").x == pytest.approx(title.x, abs=0.5) and _box(chat, "title") == title
    assert '"type":"set_gap"' not in reply.text  # the state said first is no matter of room
    chat = _chat(tmp_path)
    reply = chat.handle("the tagline and the title should share a left edge")
    assert reply.edited, reply.text
    assert _box(chat, "tagline").x == pytest.approx(_box(chat, "title").x, abs=0.5)


def test_should_go_right_under_is_a_request_and_sits_close(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("Ana Lee should go right under the quote, flush right with it")
    assert reply.edited, reply.text
    q, a = _box(chat, "quote"), _box(chat, "author")
    assert a.x2 == pytest.approx(q.x2, abs=0.5) and 0 <= a.y - q.y2 <= 14  # as close as the next line would be


def test_a_gap_said_after_a_problem_is_the_edit(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the tagline is sitting right on top of the quote - 40px gap between them please")
    assert reply.edited, reply.text
    assert _box(chat, "quote").y - _box(chat, "tagline").y2 == pytest.approx(40, abs=3)


def test_room_said_after_so_is_between_the_two_the_problem_named(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the quote floats a bit far below the tagline - pull it up so there's only 30px between")
    assert reply.edited, reply.text
    assert _box(chat, "quote").y - _box(chat, "tagline").y2 == pytest.approx(30, abs=3)


def test_tighten_to_a_width_is_a_width(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "quote")
    reply = chat.handle("the quote is too long. tighten it to 300px wide, same left edge")
    assert reply.edited, reply.text
    after = _box(chat, "quote")
    assert after.width == pytest.approx(300, rel=0.02) and after.x == pytest.approx(before.x, abs=0.5)


def test_bits_of_text_are_the_texts(tmp_path: Path) -> None:
    doc = import_svg_text(PAGE.replace('<text id="quote"', '<text id="quote" display="none"').replace(
        '<text id="author"', '<text id="author" display="none"').replace(
        '<text id="footer"', '<text id="footer" display="none"'), source="market.svg")
    chat = ChatAssistant(doc, model=None, out_dir=tmp_path, preview=False)
    title, tagline = _box(chat, "title"), _box(chat, "tagline")
    reply = chat.handle("both bits of text feel a long way from the edge, slide them 30px to the left together")
    assert reply.edited, reply.text
    assert _box(chat, "title").x - title.x == pytest.approx(-30) and _box(chat, "tagline").x - tagline.x == \
        pytest.approx(-30)


def test_margins_the_same_both_sides_after_so(tmp_path: Path) -> None:
    wide = PAGE.replace('font-size="60" font-family="DejaVu Sans" fill="#111111">Night Market',
                        'font-size="130" font-family="DejaVu Sans" fill="#111111">Night Market')
    chat = ChatAssistant(import_svg_text(wide, source="market.svg"), model=None, out_dir=tmp_path, preview=False)
    assert _box(chat, "title").x2 > 800
    reply = chat.handle("the title runs off the page. scale it down so the margins are the same both sides")
    assert reply.edited, reply.text
    b = _box(chat, "title")
    assert b.x2 <= 800 and abs(b.x - (800 - b.x2)) <= 8


def test_gaps_between_several_set_each_gap(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the three tiles are crammed together - 20px gaps between them pls")
    assert reply.edited, reply.text
    a, b, c = (_box(chat, i) for i in ("tile-a", "tile-b", "tile-c"))
    assert b.x - a.x2 == pytest.approx(20, abs=0.5) and c.x - b.x2 == pytest.approx(20, abs=0.5)


def test_a_gap_wanted_after_a_problem(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the quote is jammed under the tagline, want ~50px between")
    assert reply.edited, reply.text
    assert _box(chat, "quote").y - _box(chat, "tagline").y2 == pytest.approx(50, abs=3)


def test_too_much_gap_between_two_moves_the_later(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    tagline = _box(chat, "tagline")
    reply = chat.handle("too much gap between the tagline and the quote, cut it to 40px")
    assert reply.edited, reply.text
    assert _box(chat, "tagline") == tagline and _box(chat, "quote").y - tagline.y2 == pytest.approx(40, abs=3)


def test_the_benchmark_measures_a_text_the_new_import_draws_inside_a_larger_unit(tmp_path: Path) -> None:
    from assistant.svg.write import export_svg
    from benchmarks.bench_requests import boxes_after

    svg = CORPUS / "real" / "dlang_dconf18-banner.svg"
    before = import_svg(svg)
    chat = ChatAssistant(import_svg(svg), model=None, out_dir=tmp_path, preview=False)
    reply = chat.handle("2018 is jammed right up against DConf — give it a 20px gap")
    assert reply.edited, reply.text
    after = import_svg_text(export_svg(chat.document).decode(), source=svg.name)
    assert "text2810-7" not in {e.id for e in after.layout.elements}  # drawn inside the group the two now make
    a = boxes_after(before, after)
    assert a["text2810-7"][0] - (a["text2810"][0] + a["text2810"][2]) == pytest.approx(20, abs=1)


#: A card: a heading over a note, a framed box holding a label set high, another empty frame, a badge and its
#: caption beside it.
CARD = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600">
  <rect id="ground" x="0" y="0" width="800" height="600" fill="#ffffff"/>
  <text id="heading" x="60" y="90" font-size="44" font-family="DejaVu Sans" fill="#111111">Open Studio Day</text>
  <text id="note" x="60" y="130" font-size="18" font-family="DejaVu Sans" fill="#333333">doors at ten</text>
  <rect id="frame-a" x="60" y="200" width="300" height="240" fill="none" stroke="#555555" stroke-width="2"
        stroke-dasharray="6 4"/>
  <text id="label" x="110" y="240" font-size="20" font-family="DejaVu Sans" fill="#555555">picture here</text>
  <rect id="frame-b" x="430" y="200" width="300" height="240" fill="none" stroke="#555555" stroke-width="2"
        stroke-dasharray="6 4"/>
  <circle id="badge" cx="700" cy="80" r="40" fill="#2266cc"/>
  <text id="studio" x="430" y="560" font-size="16" font-family="DejaVu Sans" fill="#333333">studio.example</text>
</svg>"""


def _card(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(CARD, source="card.svg"), model=None, out_dir=tmp_path, preview=False)


def test_make_the_gap_a_length_is_no_size_of_type(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    size = chat.document.layout.get("note").font_size
    reply = chat.handle("the note is a bit close to the heading above it, make the gap 30px")
    assert reply.edited, reply.text
    assert chat.document.layout.get("note").font_size == pytest.approx(size)
    assert _box(chat, "note").y - _box(chat, "heading").y2 == pytest.approx(30, abs=1)


def test_a_size_said_after_narrower_is_the_size(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    before = _box(chat, "frame-a")
    reply = chat.handle("the left box narrower please, 200px wide, keep it centred where it is")
    assert reply.edited, reply.text
    after = _box(chat, "frame-a")
    assert after.width == pytest.approx(200, abs=1) and after.cx == pytest.approx(before.cx, abs=1)
    assert reply.text.count('"type":"resize"') == 1


def test_touching_the_edges_then_a_share_and_centred(tmp_path: Path) -> None:
    wide = CARD.replace('font-size="44" font-family="DejaVu Sans" fill="#111111">Open Studio Day',
                        'font-size="88" font-family="DejaVu Sans" fill="#111111">Open Studio Day').replace(
        'x="60" y="90" font-size="88"', 'x="20" y="90" font-size="88"')
    chat = ChatAssistant(import_svg_text(wide, source="card.svg"), model=None, out_dir=tmp_path, preview=False)
    before = _box(chat, "heading")
    reply = chat.handle("the heading nearly touches the edges. 90% and keep it centred")
    assert reply.edited, reply.text
    after = _box(chat, "heading")
    assert after.width == pytest.approx(0.9 * before.width, rel=0.02) and after.cx == pytest.approx(before.cx, abs=1)


def test_how_it_is_now_said_after_the_edit_adds_nothing(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    reply = chat.handle("the badge should be the same height as the heading, its taller atm")
    assert reply.edited, reply.text
    assert reply.text.count('"type"') == 1 and _box(chat, "badge").height == pytest.approx(
        _box(chat, "heading").height, rel=0.05)


def test_sits_high_in_a_frame_then_centre_it_both_ways(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    reply = chat.handle("the label sits high in the dashed box; centre it both ways")
    assert reply.edited, reply.text
    label, frame = _box(chat, "label"), _box(chat, "frame-a")
    assert label.cx == pytest.approx(frame.cx, abs=1) and label.cy == pytest.approx(frame.cy, abs=1)


def test_a_gap_on_the_side_said_after_a_place(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    reply = chat.handle("the label should live under the left box, not in it. 12px below")
    assert reply.edited, reply.text
    assert _box(chat, "label").y - _box(chat, "frame-a").y2 == pytest.approx(12, abs=1)


def test_so_the_tops_match_after_sits_higher_and_the_side_it_keeps(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    before = _box(chat, "badge")
    reply = chat.handle("the badge sits higher than the heading, drop it so the tops match. keep it on the right")
    assert reply.edited, reply.text
    after = _box(chat, "badge")
    assert after.y == pytest.approx(_box(chat, "heading").y, abs=1) and after.x == pytest.approx(before.x)


def test_centre_them_on_each_other_after_level_with(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    reply = chat.handle("studio.example should be level with the badge - centre them on each other vertically")
    assert reply.edited, reply.text
    assert '"to":"canvas"' not in reply.text
    assert _box(chat, "studio").cy == pytest.approx(_box(chat, "badge").cy, abs=1)


def test_a_column_starts_a_distance_right_of_a_line(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    reply = chat.handle("put the note and the heading 40px right of the left box")
    assert reply.edited, reply.text
    x = _box(chat, "frame-a").x2 + 40
    assert min(_box(chat, "note").x, _box(chat, "heading").x) == pytest.approx(x, abs=1)
    assert _box(chat, "note").x - _box(chat, "heading").x == pytest.approx(0, abs=1)  # moved as one block


def test_a_box_the_named_text_is_not_in_is_asked_about(tmp_path: Path) -> None:
    chat = _card(tmp_path)
    reply = chat.handle("centre studio.example on the dashed box")
    assert not reply.edited and "which" in reply.text  # it lies on the page, in neither box
