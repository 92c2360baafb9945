"""Fitting clipped lines, lines typed out, lists, gaps said before a place, and what "one", "it" and "the heading" mean.

"The web address is cut off on the right, shrink it till it fits, same margin both sides", "Rowerowa rewolucja!
runs off the edge — fit it in with ~5mm either side", "Zagłosuj i zachęć do tego samego znajomych → about 85%",
"list text a bit smaller (10%) so it isn't crammed against the line underneath", "put it 20px under Entrance",
"centred between the yellow arrow and the green one", "under Thrust 2 the two questions float too far from the
heading, pull both up so the first starts 20px below it".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.app.formats import export
from assistant.importer import import_svg_text

# A flyer whose page clips what runs past its edges, as a print file with its trim does.
FLYER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 560" width="400" height="560">
  <defs><clipPath id="trim"><rect x="0" y="0" width="400" height="560"/></clipPath></defs>
  <g clip-path="url(#trim)">
    <rect id="band" x="0" y="0" width="400" height="90" fill="#231f20"/>
    <text id="h1" x="60" y="70" font-size="56" font-weight="bold" font-family="sans-serif" fill="#fff">VOTE</text>
    <text id="h2" x="20" y="160"
          font-size="40" font-weight="bold" font-family="sans-serif">Bicycle revolution now</text>
    <text id="p1" x="20" y="220" font-size="16" font-family="sans-serif">Until the end of May you can vote.</text>
    <text id="p2" x="20" y="270" font-size="14" font-family="sans-serif">
      <tspan x="20" y="270">The project covers:</tspan>
      <tspan x="20" y="290">- safe bicycle lanes</tspan>
      <tspan x="20" y="310">- a lane up the hill</tspan>
      <tspan x="20" y="330">- lower kerbs</tspan>
    </text>
    <text id="p3" x="20" y="345" font-size="16"
          font-weight="bold" font-family="sans-serif">Vote and tell all of your friends to vote too</text>
    <rect id="foot" x="0" y="480" width="400" height="80" fill="#231f20"/>
    <text id="url1" x="20" y="530"
          font-size="36" font-weight="bold" font-family="sans-serif" fill="#fff">participate.example.org</text>
  </g>
</svg>"""


def _chat(svg: str, tmp_path: Path, name: str = "flyer.svg") -> ChatAssistant:
    return ChatAssistant(import_svg_text(svg, source=name), model=None, out_dir=tmp_path, preview=False)


def _drawn(chat: ChatAssistant) -> dict:
    """The boxes of the written file read again: what a viewer of the result sees."""
    data = export(chat.document, "svg")
    doc = import_svg_text(data.decode() if isinstance(data, bytes) else data, source="after.svg")
    return {e.id: e.box for e in doc.layout}


def test_a_clipped_line_knows_how_long_it_is(tmp_path: Path) -> None:
    el = _chat(FLYER, tmp_path).document.layout.get("url1")
    assert el.box.x2 == pytest.approx(400, abs=0.5)  # what shows ends at the trim
    assert el.whole_box().x2 > 420  # what it draws runs on past it


def test_shrink_till_it_fits_with_the_same_margin_both_sides(tmp_path: Path) -> None:
    chat = _chat(FLYER, tmp_path)
    reply = chat.handle("the web address at the bottom is cut off on the right. shrink it till it fits, same margin "
                        "both sides, keep it in the black bar")
    assert reply.edited, reply.text
    web = _drawn(chat)["url1"]
    assert web.x >= 15 and web.x2 <= 385
    assert web.x == pytest.approx(400 - web.x2, abs=1.5)  # as far in on the right as on the left


def test_fit_it_in_with_a_margin_either_side(tmp_path: Path) -> None:
    chat = _chat(FLYER, tmp_path)
    reply = chat.handle("Bicycle revolution now runs off the edge — fit it in with ~30px either side")
    assert reply.edited, reply.text
    slogan = _drawn(chat)["h2"]
    assert slogan.x >= 28 and slogan.x2 <= 372


def test_a_whole_line_typed_out_names_that_line(tmp_path: Path) -> None:
    chat = _chat(FLYER, tmp_path)
    before = chat.document.layout.get("p3").whole_box()  # (it runs past the trim)
    reply = chat.handle("Vote and tell all of your friends to vote too → about 85% size so it fits on the page")
    assert reply.edited, reply.text
    assert _drawn(chat)["p3"].width == pytest.approx(0.85 * before.width, rel=0.03)
    assert chat.document.layout.get("h1").box == import_svg_text(FLYER).layout.get("h1").box


def test_the_list_text_is_the_text_set_as_a_list(tmp_path: Path) -> None:
    chat = _chat(FLYER, tmp_path)
    before = chat.document.layout.get("p2").box
    reply = chat.handle("list text a bit smaller (10%) so it isnt crammed against the bold line underneath")
    assert reply.edited, reply.text
    assert chat.document.layout.get("p2").box.height == pytest.approx(0.9 * before.height, rel=0.03)
    assert chat.document.layout.get("p1").box == import_svg_text(FLYER).layout.get("p1").box


def test_a_para_the_same_width_as_the_list_below_it_both_left_edges_stay(tmp_path: Path) -> None:
    chat = _chat(FLYER, tmp_path)
    reply = chat.handle("make the intro para the same width as the list below it, both left edges stay")
    assert reply.edited, reply.text
    intro, items = chat.document.layout.get("p1").box, chat.document.layout.get("p2").box
    assert intro.width == pytest.approx(items.width, abs=1.5)
    assert intro.x == pytest.approx(20, abs=1.0)


BOOKMARK = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 220 800" width="220" height="800">
  <text id="entrance" x="10" y="30" font-size="14" font-family="sans-serif">Entrance</text>
  <text id="downstairs" x="10" y="200" font-size="14" font-family="sans-serif">Downstairs</text>
  <text id="feedback" x="10" y="420" font-size="10" font-family="sans-serif">
    <tspan x="10" y="420">Feedback</tspan><tspan x="10" y="434">Help us and the environment: send</tspan>
    <tspan x="10" y="448">your thoughts to the library team</tspan></text>
  <image id="logo" x="130" y="600" width="70" height="70" href="data:image/png;base64,iVBORw0KGgo="/>
</svg>"""


def test_a_length_before_under_is_the_gap(tmp_path: Path) -> None:
    chat = _chat(BOOKMARK, tmp_path, "bookmark.svg")
    reply = chat.handle("Downstairs is floating miles down the strip. put it 20px under Entrance")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("downstairs").box.y - lay.get("entrance").box.y2 == pytest.approx(20, abs=0.5)


def test_a_gap_said_at_the_end_is_where_it_is_placed(tmp_path: Path) -> None:
    chat = _chat(BOOKMARK, tmp_path, "bookmark.svg")
    reply = chat.handle("put the logo just under the feedback paragraph, left aligned with it, roughly 10px gap")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("logo").box.y - lay.get("feedback").box.y2 == pytest.approx(10, abs=0.5)
    assert lay.get("logo").box.x == pytest.approx(lay.get("feedback").box.x, abs=0.5)


STRIP = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600">
  <rect id="ground" x="0" y="0" width="800" height="600" fill="#ffffff"/>
  <text id="title" x="40" y="60" font-size="40" font-family="sans-serif">Success with mentors</text>
  <circle id="sun" cx="700" cy="200" r="40" fill="#fbbc05"><title>GSoC logo</title></circle>
  <circle id="compass" cx="700" cy="330" r="40" fill="#34a853"><title>OSGeo logo</title></circle>
  <path id="wedge1" d="M 150 540 L 330 532 L 330 548 Z" fill="#fbbc05"/>
  <path id="wedge2" d="M 470 532 L 650 540 L 470 548 Z" fill="#34a853"/>
  <text id="guide" x="350" y="548" font-size="22" font-weight="bold" font-family="sans-serif">Guidelines</text>
  <rect id="qr_left" x="40" y="470" width="90" height="90" fill="#000000"><title>QR code</title></rect>
  <rect id="qr_right" x="690" y="480" width="70" height="70" fill="#000000"><title>QR code</title></rect>
</svg>"""


def test_the_green_one_after_the_yellow_arrow_is_the_green_arrow(tmp_path: Path) -> None:
    chat = _chat(STRIP, tmp_path, "strip.svg")
    reply = chat.handle("'Guidelines' isnt quite centred between the yellow arrow and the green one, fix")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("guide").box.cx == pytest.approx((lay.get("wedge1").box.x2 + lay.get("wedge2").box.x) / 2, abs=1.0)
    assert lay.get("sun").box == import_svg_text(STRIP).layout.get("sun").box


def test_small_for_a_heading_then_a_size_and_leave_it_where_it_is(tmp_path: Path) -> None:
    chat = _chat(STRIP, tmp_path, "strip.svg")
    before = chat.document.layout.get("guide").box
    reply = chat.handle("Guidelines down at the bottom is pretty small for a heading - take it up to 30px, "
                        "leave it where it is")
    assert reply.edited, reply.text
    after = chat.document.layout.get("guide").box
    assert after.height > 1.2 * before.height
    assert after.cx == pytest.approx(before.cx, abs=1.0) and after.cy == pytest.approx(before.cy, abs=1.0)


def test_the_right_hand_one_matches_the_left_of_the_two_said_before(tmp_path: Path) -> None:
    chat = _chat(STRIP, tmp_path, "strip.svg")
    reply = chat.handle("qr codes arent the same size, make the right hand one match the left")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("qr_right").box.width == pytest.approx(90, abs=1.0)
    assert lay.get("qr_left").box.width == pytest.approx(90, abs=0.1)


def test_keep_it_where_it_starts_holds_its_left_edge(tmp_path: Path) -> None:
    chat = _chat(STRIP, tmp_path, "strip.svg")
    reply = chat.handle("title is a bit shouty, 40 -> 32, keep it where it starts")
    assert reply.edited, reply.text
    assert chat.document.layout.get("title").box.x == pytest.approx(import_svg_text(STRIP).layout.get("title").box.x,
                                                                     abs=0.5)


POSTER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 800" width="1000" height="800">
  <text id="head" x="40" y="60" font-size="48" font-weight="bold" font-family="sans-serif">Research poster</text>
  <text id="t1" x="520" y="200" font-size="26" font-weight="bold" font-family="sans-serif">Thrust 1: Vision</text>
  <text id="q1" x="540" y="250" font-size="16" font-family="sans-serif">How do we see objects?</text>
  <text id="t2" x="520" y="400" font-size="26" font-weight="bold" font-family="sans-serif">Thrust 2: Circuits</text>
  <text id="q2a" x="540" y="560" font-size="16" font-family="sans-serif">Can we find signatures of thought?</text>
  <text id="q2b" x="540" y="600" font-size="16" font-family="sans-serif">What do circuits compute?</text>
</svg>"""


def test_the_first_of_both_goes_under_the_heading_and_both_move(tmp_path: Path) -> None:
    chat = _chat(POSTER, tmp_path, "poster.svg")
    reply = chat.handle("under Thrust 2 the two questions float too far from the heading, pull both up so the first "
                        "starts 20px below it")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("q2a").box.y - lay.get("t2").box.y2 == pytest.approx(20, abs=0.5)
    assert lay.get("q2b").box.y - lay.get("q2a").box.y == pytest.approx(40, abs=1.0)  # they move together
    assert lay.get("head").box == import_svg_text(POSTER).layout.get("head").box


COLUMNS = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <text id="welcome" x="40" y="100" font-size="18" font-weight="bold" font-family="sans-serif">Welcome</text>
  <text id="About" x="40" y="130" font-size="11"
        font-weight="bold" font-family="sans-serif">The foundation supports open software for maps everywhere</text>
  <text id="right_head" x="310" y="100" font-size="18" font-weight="bold" font-family="sans-serif">Open Source</text>
  <text id="beliefs" x="310" y="130" font-size="11" font-family="sans-serif">We hold a belief in open data</text>
  <text id="Intro" x="310" y="400" font-size="11" font-family="sans-serif">A new approach to the world's problems</text>
  <text id="url" x="400" y="760" font-size="14" letter-spacing="4" font-family="sans-serif"><tspan>ww</tspan>
    <tspan dx="3">w.</tspan><tspan dx="3">osgeo.org</tspan></text>
</svg>"""


def test_the_bold_intro_under_welcome_is_not_the_one_whose_id_is_intro(tmp_path: Path) -> None:
    chat = _chat(COLUMNS, tmp_path, "columns.svg")
    reply = chat.handle("the bold intro under Welcome runs into 'We hold a belief in open data' on the right. keep it "
                        "inside the left column, same left edge")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("About").box.x2 < lay.get("beliefs").box.x
    assert lay.get("About").box.x == pytest.approx(40, abs=0.5)
    assert lay.get("Intro").box == import_svg_text(COLUMNS).layout.get("Intro").box


def test_an_address_typed_whole_names_the_text_set_letter_by_letter(tmp_path: Path) -> None:
    chat = _chat(COLUMNS, tmp_path, "columns.svg")
    before = chat.document.layout.get("url").box
    reply = chat.handle("www.osgeo.org is tiny. bump it up 20% and keep its right edge where it is")
    assert reply.edited, reply.text
    after = chat.document.layout.get("url").box
    assert after.height == pytest.approx(1.2 * before.height, rel=0.03)
    assert after.x2 == pytest.approx(before.x2, abs=0.5)


STACK = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <text id="a" x="40" y="100" font-size="18" font-weight="bold" font-family="sans-serif">Open Source Software</text>
  <text id="b" x="40" y="200" font-size="18" font-weight="bold" font-family="sans-serif">Open Geospatial</text>
  <text id="c" x="40" y="400" font-size="18" font-weight="bold" font-family="sans-serif">Software Foundation</text>
</svg>"""


def test_more_room_above_one_than_above_another_then_the_two_gaps_match(tmp_path: Path) -> None:
    chat = _chat(STACK, tmp_path, "stack.svg")
    reply = chat.handle("the spacing is uneven, theres more room above Software Foundation than above Open Geospatial. "
                        "make the two gaps match")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("b").box.y - lay.get("a").box.y2 == pytest.approx(lay.get("c").box.y - lay.get("b").box.y2, abs=1.0)


CARD = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 700 420" width="700" height="420">
  <text id="who" x="40" y="110" font-size="60" font-family="sans-serif">Cameron Hudson</text>
  <text id="deg" x="40" y="200" font-size="22" font-family="sans-serif">MS Software Engineering</text>
  <text id="mail" x="420" y="200" font-size="16" font-family="sans-serif">cameron@example.com</text>
  <text id="quote" x="40" y="330" font-size="24"
        font-family="sans-serif">What I cannot create I do not understand</text>
  <text id="by" x="640" y="340" font-size="14" font-family="sans-serif">- R. F.</text>
  <text id="note" x="40" y="390" font-size="12"
        font-family="sans-serif">Po skončení platnosti prosím odstraňte účet</text>
</svg>"""


def test_the_degree_text_is_the_one_that_gives_a_degree(tmp_path: Path) -> None:
    chat = _chat(CARD, tmp_path, "card.svg")
    reply = chat.handle("move the name and the degree text down 6px together")
    assert reply.edited, reply.text
    assert chat.document.layout.get("deg").box.y - import_svg_text(CARD).layout.get("deg").box.y == pytest.approx(6)
    assert chat.document.layout.get("mail").box == import_svg_text(CARD).layout.get("mail").box


def test_a_share_of_what_it_is_now_is_that_size(tmp_path: Path) -> None:
    chat = _chat(CARD, tmp_path, "card.svg")
    before = chat.document.layout.get("who").box
    assert chat.handle("Cameron Hudson is too big for the card, 90% of what it is now").edited
    assert chat.document.layout.get("who").box.width == pytest.approx(0.9 * before.width, rel=0.03)


def test_tucked_right_after_the_quote_and_centred_on_that_line(tmp_path: Path) -> None:
    chat = _chat(CARD, tmp_path, "card.svg")
    reply = chat.handle("'- R. F.' is floating off on its own; tuck it right after the quote and centre it "
                        "vertically on that line")
    assert reply.edited, reply.text
    by, quote = chat.document.layout.get("by").box, chat.document.layout.get("quote").box
    assert 0 <= by.x - quote.x2 <= 20
    assert by.cy == pytest.approx(quote.cy, abs=0.5)


def test_a_few_words_of_another_language_name_their_text(tmp_path: Path) -> None:
    chat = _chat(CARD, tmp_path, "card.svg")
    before = chat.document.layout.get("note").box
    reply = chat.handle("the czech note (Po skončení platnosti...) 10% smaller pls")
    assert reply.edited, reply.text
    assert chat.document.layout.get("note").box.width == pytest.approx(0.9 * before.width, rel=0.03)


HEADER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1400" width="1000" height="1400">
  <text id="name" x="100" y="120" font-size="80" font-weight="bold" font-family="sans-serif">MultiROM</text>
  <text id="sub" x="100" y="200" font-size="30" font-family="sans-serif">boot any system you like</text>
  <text id="author" x="100" y="380" font-size="24" font-family="sans-serif">Vojtech Bocek</text>
  <rect id="qr" x="800" y="20" width="180" height="180" fill="#000000"><title>QR code</title></rect>
</svg>"""


def test_bigger_and_a_share_past_the_whole_is_that_size(tmp_path: Path) -> None:
    chat = _chat(HEADER, tmp_path, "header.svg")
    before = chat.document.layout.get("name").box
    assert chat.handle("MultiROM title bigger - 120% - and keep it centred on the page").edited
    after = chat.document.layout.get("name").box
    assert after.width == pytest.approx(1.2 * before.width, rel=0.03)
    assert after.cx == pytest.approx(500, abs=1.0)


def test_down_to_a_width_is_a_size_and_still_in_its_corner(tmp_path: Path) -> None:
    chat = _chat(HEADER, tmp_path, "header.svg")
    reply = chat.handle("qr code is a bit big, bring it down to about 150px wide, it should still hug the top right")
    assert reply.edited, reply.text
    qr = chat.document.layout.get("qr").box
    assert qr.width == pytest.approx(150, abs=0.5)
    assert (qr.x2, qr.y) == pytest.approx((980, 20), abs=0.5)


def test_the_gap_between_them_is_between_the_two_said_before(tmp_path: Path) -> None:
    chat = _chat(HEADER, tmp_path, "header.svg")
    reply = chat.handle("Vojtech Bocek sits way below the subtitle, pull the name up so there's like 20px between them")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("author").box.y - lay.get("sub").box.y2 == pytest.approx(20, abs=0.5)
    assert lay.get("sub").box.y == pytest.approx(import_svg_text(HEADER).layout.get("sub").box.y)


TEMPLATE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 700" width="1000" height="700">
  <text id="title" x="420" y="180" font-size="60" font-family="sans-serif">El titulo</text>
  <text id="date" x="560" y="205" font-size="34" font-family="sans-serif">fecha</text>
  <text id="hint" x="800" y="440" font-size="20" font-family="sans-serif">tan solo una frase</text>
  <text id="note" x="40" y="400" font-size="20" font-family="sans-serif">NO poner imagenes</text>
</svg>"""


def test_them_after_a_crash_is_both_and_between_is_between_them(tmp_path: Path) -> None:
    chat = _chat(TEMPLATE, tmp_path, "template.svg")
    reply = chat.handle("'fecha' is crashing into the title - space them out so there's ~10px between")
    assert reply.edited, reply.text
    lay = chat.document.layout
    assert lay.get("date").box.y - lay.get("title").box.y2 == pytest.approx(10, abs=0.5)


def test_a_move_to_a_side_then_under_a_text_goes_under_that_text(tmp_path: Path) -> None:
    chat = _chat(TEMPLATE, tmp_path, "template.svg")
    reply = chat.handle("move the 'NO poner imagenes' note over to the right hand side, under 'tan solo una frase'")
    assert reply.edited, reply.text
    note, hint = chat.document.layout.get("note").box, chat.document.layout.get("hint").box
    assert note.y >= hint.y2 - 0.5 and note.y - hint.y2 < 40
    assert note.x == pytest.approx(hint.x, abs=1.0)
