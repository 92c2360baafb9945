"""Amounts said after the edit, room given from an edge or another element, and holds said as alignment.

"Logo top left could be bigger, like 25%", "the compass is jammed against the left edge. give it 20px", "'X' is
cramped right under the logos, give it about 4mm", "contact text 10% smaller, keep it top aligned where it is",
"speaker line to 80% please", "red circle smaller, 320px across", "bump the fb link and the www link down 1.5mm",
"Blinky could be louder, 15% bigger", "drop the name line a little, 3 mm lower", "push the address block down".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg_text
from assistant.instructions.requests import understand

CARD = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 400" width="600" height="400">
  <rect id="ground" x="0" y="0" width="600" height="400" fill="#ffffff"/>
  <image id="logo" x="8" y="20" width="80" height="80" href="data:image/png;base64,iVBORw0KGgo="/>
  <text id="title" x="120" y="60" font-size="36" font-family="sans-serif">Open House</text>
  <text id="name" x="120" y="104" font-size="14" font-family="sans-serif">Hosted by the Computer Club</text>
  <text id="where" x="120" y="150" font-size="12" font-family="sans-serif">Building 52, 1st floor</text>
  <text id="fb" x="120" y="300" font-size="12" font-family="sans-serif">fb.com/openhouse</text>
  <text id="www" x="320" y="300" font-size="12" font-family="sans-serif">www.openhouse.org</text>
  <circle id="dot" cx="480" cy="200" r="60" fill="#c62828"/>
</svg>"""


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(CARD, source="card.svg"), model=None, out_dir=tmp_path, preview=False)


def _box(chat: ChatAssistant, i: str):
    return chat.document.layout.get(i).box


def test_an_amount_said_after_a_vague_resize_is_how_much(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "logo")
    assert chat.handle("logo top left could be bigger, like 25%").edited
    assert _box(chat, "logo").width / before.width == pytest.approx(1.25, abs=0.01)


def test_smaller_like_ninety_percent_is_to_that_share(tmp_path: Path) -> None:
    u = understand("the title is too wide, make it smaller, like 90%", import_svg_text(CARD).layout)
    resize = [s for s in u.steps if s.kind == "resize"]
    assert resize and resize[-1].intent.params["percent"] == (90.0, True)


def test_room_given_after_a_problem_at_an_edge_is_from_that_edge(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("the logo is jammed against the left edge, only 8px in. give it 20px").edited
    assert _box(chat, "logo").x == pytest.approx(20, abs=0.5)
    assert _box(chat, "logo").y == pytest.approx(20, abs=0.5)


def test_give_it_some_room_is_the_gap_it_should_be(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("'Hosted by the Computer Club' is cramped right under the title, give it about 20px").edited
    assert _box(chat, "name").y - _box(chat, "title").y2 == pytest.approx(20, abs=0.5)


def test_more_room_said_is_added_to_what_there_is(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    gap = _box(chat, "name").y - _box(chat, "title").y2
    assert chat.handle("add 10px between the title and the hosted by line").edited
    assert _box(chat, "name").y - _box(chat, "title").y2 == pytest.approx(gap + 10, abs=0.5)


def test_a_hold_said_as_alignment_keeps_that_side(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "name")
    assert chat.handle("hosted by line 10% smaller pls, keep it top aligned where it is").edited
    after = _box(chat, "name")
    assert after.y == pytest.approx(before.y, abs=0.3) and after.width < before.width


def test_a_size_with_no_verb_and_a_centre_kept(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "title")
    assert chat.handle("title to 80% please, keep it centred").edited
    after = _box(chat, "title")
    assert after.width / before.width == pytest.approx(0.8, abs=0.02)
    assert after.cx == pytest.approx(before.cx, abs=1.0)


def test_across_is_the_whole_size_of_a_circle(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("red circle smaller, 100px across").edited
    after = _box(chat, "dot")
    assert after.width == pytest.approx(100, abs=1) and after.height == pytest.approx(100, abs=1)


def test_one_verb_for_two_moved_one_way(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    fb, www = _box(chat, "fb"), _box(chat, "www")
    assert chat.handle("bump the fb link and the www link down a touch, 15px").edited
    assert _box(chat, "fb").y - fb.y == pytest.approx(15, abs=0.5)
    assert _box(chat, "www").y - www.y == pytest.approx(15, abs=0.5)
    assert _box(chat, "fb").height == pytest.approx(fb.height, abs=0.1)  # moved, not made bigger


@pytest.mark.parametrize(("request_text", "kind"), [("the title could be louder, 15% bigger", "resize"),
                                                     ("drop the title a little, 12px lower", "nudge")])
def test_a_vague_edit_then_how_much_is_one_edit(request_text: str, kind: str) -> None:
    u = understand(request_text, import_svg_text(CARD).layout)
    assert [s.kind for s in u.steps] == [kind]


def test_the_address_is_the_text_that_says_where() -> None:
    u = understand("push the address block down 30px", import_svg_text(CARD).layout)
    assert u.status == "edit" and u.steps[0].patients == ["where"]


def test_a_keep_centred_hold_said_of_him(tmp_path: Path) -> None:
    u = understand("logo 20% smaller, keep him centred where he is", import_svg_text(CARD).layout)
    assert [s.kind for s in u.steps] == ["resize"] and u.steps[0].intent.params["anchor"] == "center"


def test_scale_down_said_round_two_names_shrinks() -> None:
    u = understand("scale the Open House title down 10%", import_svg_text(CARD).layout)
    (step,) = u.steps
    assert step.kind == "resize" and step.intent.params["shrink"] and step.intent.params["percent"] == (10.0, False)


def test_without_moving_its_corner_is_what_holds(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "dot")
    assert chat.handle("make the red circle 20 percent bigger without moving its top-left corner").edited
    after = _box(chat, "dot")
    assert (after.x, after.y) == pytest.approx((before.x, before.y), abs=0.5) and after.width > before.width


def test_a_gap_said_scant_then_set(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("theres barely any room between the title and 'Hosted by the Computer Club', make that gap "
                       "30px").edited
    assert _box(chat, "name").y - _box(chat, "title").y2 == pytest.approx(30, abs=0.5)


def test_add_a_little_where_there_is_next_to_no_room(tmp_path: Path) -> None:
    tight = CARD.replace('id="name" x="120" y="104"', 'id="name" x="120" y="83.5"')
    chat = ChatAssistant(import_svg_text(tight, source="card.svg"), model=None, out_dir=tmp_path, preview=False)
    assert 0 <= _box(chat, "name").y - _box(chat, "title").y2 <= 3  # next to no room
    assert chat.handle("no breathing room between the title and 'Hosted by the Computer Club', add ~6px").edited
    assert _box(chat, "name").y - _box(chat, "title").y2 == pytest.approx(6, abs=0.5)


def test_keep_it_on_the_left_margin_after_a_resize_holds_that_side(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "logo")
    assert chat.handle("the logo top left is too big, take it down to 75% and keep it on the left margin").edited
    after = _box(chat, "logo")
    assert after.x == pytest.approx(before.x, abs=0.3) and after.width / before.width == pytest.approx(0.75, abs=0.01)
