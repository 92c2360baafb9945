"""Centring between two elements, a line named by where it is, a bare name after the verb, a gap after a problem.

"Centre the copyright line between the two divider lines", "tighten the gap between MultiROM and the line under it
to 5px", "move tux down 20px", "subtitle is jammed right under the title, give it ~20px gap", "make the title span
the width, equal space either side".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg_text

SLIDE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 500" width="800" height="500">
  <rect id="ground" x="0" y="0" width="800" height="500" fill="#ffffff"/>
  <text id="title" x="300" y="80" font-size="48" font-family="sans-serif">MultiROM</text>
  <text id="blurb" x="300" y="150" font-size="20" font-family="sans-serif">boot any Android you like</text>
  <rect id="rule1" x="60" y="300" width="680" height="3" fill="#333333"/>
  <rect id="rule2" x="60" y="420" width="680" height="3" fill="#333333"/>
  <text id="note" x="300" y="340" font-size="14" font-family="sans-serif">(c) made by someone</text>
  <image id="pic" x="40" y="40" width="200" height="200" href="data:image/png;base64,iVBORw0KGgo="/>
</svg>"""


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(SLIDE, source="slide.svg"), model=None, out_dir=tmp_path, preview=False)


def _box(chat: ChatAssistant, i: str):
    return chat.document.layout.get(i).box


def test_centred_between_two_rules_is_half_way_across_their_gap(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("please centre the small copyright line between the two rules")
    assert reply.edited, reply.text
    middle = (_box(chat, "rule1").y2 + _box(chat, "rule2").y) / 2
    assert _box(chat, "note").cy == pytest.approx(middle, abs=0.5)
    assert _box(chat, "rule1").y == pytest.approx(300, abs=0.1)  # the rules stay


def test_the_line_under_it_is_the_text_below(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("tighten the gap between MultiROM and the line under it to 5px").edited
    assert _box(chat, "blurb").y - _box(chat, "title").y2 == pytest.approx(5, abs=0.5)


def test_a_bare_name_right_after_the_verb_names_the_picture(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "pic")
    assert chat.handle("move tux down 20px").edited
    assert _box(chat, "pic").y - before.y == pytest.approx(20, abs=0.1)


def test_a_gap_given_after_a_crowding_is_from_what_crowds_it(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("the blurb is jammed right under the MultiROM title, give it ~30px gap").edited
    assert _box(chat, "blurb").y - _box(chat, "title").y2 == pytest.approx(30, abs=0.5)


def test_span_the_width_with_equal_space_either_side_is_one_edit(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("make the blurb span the width, equal space either side")
    assert reply.edited, reply.text
    page, blurb = chat.document.layout.canvas.box, _box(chat, "blurb")
    assert blurb.x - page.x == pytest.approx(page.x2 - blurb.x2, abs=2.0)
    assert blurb.width > 0.8 * page.width
