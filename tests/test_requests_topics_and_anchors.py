"""Which element a request is about, said before a colon or with where it stands, and the side a resize grows from.

"the logo next to the title: make it 50px square and keep its top right corner where it is", "the photo under the
heading, a bit smaller" (the photo that is under it, not a move), "winter bash 15% bigger, grow it from the left
edge", "make it 15% bigger from the left edge", "scale it up 15%, anchored left".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg_text

PAGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <rect id="page" width="600" height="800" fill="#ffffff"/>
  <text id="title" x="40" y="80" font-family="DejaVu Sans" font-size="40" font-weight="bold">Winter Bash</text>
  <image id="logo" x="500" y="40" width="80" height="80"/>
  <text id="heading" x="40" y="300" font-family="DejaVu Sans" font-size="24" font-weight="bold">Program</text>
  <image id="photo" x="40" y="372" width="240" height="160"/>
  <image id="map" x="320" y="600" width="240" height="150"/>
  <text id="note" x="40" y="700" font-family="DejaVu Sans" font-size="14">Bring a laptop</text>
</svg>"""


def _do(request: str, tmp_path: Path) -> tuple[dict, dict]:
    chat = ChatAssistant(import_svg_text(PAGE, source="page.svg"), model=None, out_dir=tmp_path, preview=False)
    before = {e.id: e.box for e in chat.document.layout}
    reply = chat.handle(request)
    assert reply.edited, reply.text
    return before, {e.id: e.box for e in chat.document.layout}


def _only(b: dict, a: dict, *ids: str) -> None:
    assert [k for k in b if k not in ids and a[k] != b[k]] == []


def test_a_topic_before_a_colon_names_the_element_and_its_place_is_not_a_move(tmp_path: Path) -> None:
    b, a = _do("the logo next to Winter Bash: make it 50px square and keep its top right corner where it is", tmp_path)
    assert a["logo"].width == pytest.approx(50, abs=0.5) and a["logo"].height == pytest.approx(50, abs=0.5)
    assert a["logo"].x2 == pytest.approx(b["logo"].x2, abs=0.5) and a["logo"].y == pytest.approx(b["logo"].y, abs=0.5)
    _only(b, a, "logo")


def test_an_element_named_by_where_it_already_is_is_that_element(tmp_path: Path) -> None:
    b, a = _do("the photo under Program, a bit smaller", tmp_path)
    assert a["photo"].width < b["photo"].width and b["photo"].contains(a["photo"], 0.5)  # shrunk where it is
    _only(b, a, "photo")


def test_where_it_is_not_yet_is_still_a_move(tmp_path: Path) -> None:
    b, a = _do("the note under the photo, then make it bold", tmp_path)
    assert a["note"].y > b["photo"].y2 - 1 and a["note"].y < b["note"].y


@pytest.mark.parametrize("request_", [
    "Winter Bash 15% bigger, grow it from the left edge",
    "make Winter Bash 15% bigger from the left edge",
    "scale Winter Bash up 15%, anchored left",
])
def test_the_side_a_resize_grows_from_holds(request_: str, tmp_path: Path) -> None:
    b, a = _do(request_, tmp_path)
    assert a["title"].width / b["title"].width == pytest.approx(1.15, abs=0.03)
    assert a["title"].x == pytest.approx(b["title"].x, abs=0.5)
    _only(b, a, "title")


def test_a_move_measured_from_a_side_is_still_a_move(tmp_path: Path) -> None:
    b, a = _do("move the photo 100px from the left edge", tmp_path)
    assert a["photo"].x == pytest.approx(100, abs=1) and a["photo"].width == pytest.approx(b["photo"].width)
