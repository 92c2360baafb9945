"""A paragraph narrowed to keep clear of the next column is set again at its size, where its new lines have room.

"The intro runs into 'The other column starts here' on the right, keep it inside the left column": the words
flow into the narrower measure, as in a text frame. Where the lines it gains would land on what is below it, it is
scaled instead, so nothing new overlaps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.app.formats import export
from assistant.importer import import_svg_text

PAGE = """<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400">
  <rect width="600" height="400" fill="#ffffff"/>
  <text id="heading" x="40" y="50" font-family="DejaVu Sans" font-size="24" font-weight="bold">Welcome</text>
  <text id="intro" x="40" y="90" font-family="DejaVu Sans" font-size="12">
    <tspan x="40" y="90">Our foundation supports open source software for maps and</tspan>
    <tspan x="40" y="105">the people who make them, all over the world, every day.</tspan>
  </text>
  <text id="side" x="380" y="90" font-family="DejaVu Sans" font-size="12">The other column starts here.</text>
  {below}
  <text id="foot" x="40" y="330" font-family="DejaVu Sans" font-size="10">Find out more at example.org</text>
</svg>"""

REQUEST = "the intro runs into 'The other column starts here' on the right, keep it inside the left column"


def _after(svg: str, tmp_path: Path) -> tuple[dict, dict, ChatAssistant]:
    before = import_svg_text(svg, source="page.svg")
    chat = ChatAssistant(import_svg_text(svg, source="page.svg"), model=None, out_dir=tmp_path, preview=False)
    reply = chat.handle(REQUEST)
    assert reply.edited, reply.text
    data = export(chat.document, "svg")
    after = import_svg_text(data.decode() if isinstance(data, bytes) else data, source="after.svg")
    return ({e.id: e for e in before.layout}, {e.id: e for e in after.layout}, chat)


def test_a_narrowed_paragraph_keeps_its_type_size_and_gains_a_line(tmp_path: Path) -> None:
    b, a, _ = _after(PAGE.format(below=""), tmp_path)
    assert a["intro"].box.x2 < a["side"].box.x - 4  # clear of the other column
    assert a["intro"].box.x == pytest.approx(b["intro"].box.x, abs=0.5)
    assert a["intro"].font_size == pytest.approx(b["intro"].font_size)  # the same type, not scaled
    assert a["intro"].lines == 3
    assert a["intro"].box.y == pytest.approx(b["intro"].box.y, abs=0.5)  # the first line stays
    assert all(a[i].box == b[i].box for i in ("heading", "side", "foot"))


def test_no_room_below_for_the_new_line_scales_it_instead(tmp_path: Path) -> None:
    below = '<text id="next" x="40" y="128" font-family="DejaVu Sans" font-size="12">Directly below it.</text>'
    b, a, _ = _after(PAGE.format(below=below), tmp_path)
    assert a["intro"].box.x2 < a["side"].box.x - 4
    assert a["intro"].lines == 2  # not set again: its third line would land on the next one
    assert a["intro"].box.y2 < a["next"].box.y
    assert a["next"].box == b["next"].box


def test_a_single_line_is_not_broken_in_two(tmp_path: Path) -> None:
    svg = PAGE.format(below="").replace(
        '<tspan x="40" y="105">the people who make them, all over the world, every day.</tspan>', "")
    b, a, _ = _after(svg, tmp_path)
    assert a["intro"].lines == 1
    assert a["intro"].box.x2 < a["side"].box.x - 4
