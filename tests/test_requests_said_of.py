"""What a request says of an element before asking for an edit, and amounts said of sizes and page edges.

"The footer logo is tiny next to the text. 1.5x please", "KIT logo up 20%, pin the top left corner", "give the
compass a 20px margin from the left edge", "push the title up 2mm, it needs more air above the columns", "scale the
compass so it runs from the top of the letters to the bottom of the line".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg_text
from assistant.instructions.requests import understand

LAYOUT = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 400" width="600" height="400">
  <text id="title" x="40" y="60" font-size="32" font-family="sans-serif">Open mapping day</text>
  <text id="tagline" x="40" y="100" font-size="16" font-family="sans-serif">Talks, tiles and coffee</text>
  <rect id="badge" x="420" y="40" width="60" height="60" fill="#f9a825"/>
  <text id="footer" x="120" y="372" font-size="14" font-family="sans-serif">fablab.example.org</text>
  <circle id="mark" cx="80" cy="367" r="8" fill="#1565c0"/>
  <text id="column" x="40" y="200" font-size="14" font-family="sans-serif">Routing, tiles and styling</text>
</svg>"""


def _steps(request: str):
    u = understand(request, import_svg_text(LAYOUT, source="x.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return [(s.kind, s.patients, s.refs, s.intent.params) for s in u.steps]


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(LAYOUT, source="x.svg"), model=None, out_dir=tmp_path, preview=False)


def test_a_size_said_wrong_is_mended_by_the_amount_after_it() -> None:
    steps = _steps("the blue dot is tiny next to the footer text. 1.5x please")
    assert len(steps) == 1 and steps[0][0] == "resize" and steps[0][1] == ["mark"]
    assert steps[0][3]["factor"] == 1.5


def test_a_size_said_wrong_alone_is_the_edit() -> None:
    kind, patients, _refs, params = _steps("the yellow square looks huge next to the title")[0]
    assert (kind, patients, params["shrink"]) == ("resize", ["badge"], True)


def test_a_gap_said_too_big_is_not_a_size() -> None:
    kinds = [s[0] for s in _steps("the gap between the title and the tagline is way too big, close it to 8px")]
    assert "resize" not in kinds


def test_a_comparison_is_still_a_question() -> None:
    u = understand("the title is bigger than the tagline", import_svg_text(LAYOUT, source="x.svg").layout)
    assert u.status != "edit"


def test_a_share_up_with_no_verb_that_moves_is_a_size() -> None:
    kind, patients, _r, params = _steps("yellow square up 20%, pin the top left corner")[0]
    assert (kind, patients, params["percent"], params["anchor"]) == ("resize", ["badge"], (20.0, False), "top_left")
    assert _steps("move the yellow square up 20%")[0][0] == "nudge"


def test_keep_it_anchored_at_a_corner_holds_that_corner() -> None:
    assert _steps("make the yellow square 20% bigger, keep it anchored top left")[0][3]["anchor"] == "top_left"


def test_a_margin_from_a_page_edge_places_it_that_far_in(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("give the yellow square a 20px margin from the right edge").edited
    assert chat.document.layout.get("badge").box.x2 == pytest.approx(580, abs=0.5)


def test_the_reason_after_an_amount_adds_no_edit() -> None:
    steps = _steps("push the title up 10px, it needs more air above the tagline")
    assert [s[0] for s in steps] == ["nudge"]


def test_an_amount_after_a_full_stop_is_its_own_sentence() -> None:
    steps = _steps("the blue dot is tiny next to the footer text. 1.5x please, keep it centred on the footer text")
    assert [s[0] for s in steps] == ["resize", "center"]
    assert steps[1][1] == ["mark"] and steps[1][2] == ["footer"]


def test_lined_up_is_a_verb_not_a_line() -> None:
    steps = _steps("make the yellow square a touch bigger but keep its left edge lined up with the title")
    assert len(steps) == 1 and steps[0][3]["anchor"] == "left"


def test_an_element_spans_from_a_side_of_one_to_a_side_of_another(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    layout = chat.document.layout
    top, bottom = layout.get("title").box.y, layout.get("tagline").box.y2
    assert chat.handle("scale the yellow square so it runs from the top of the title down to the bottom of the "
                       "tagline").edited
    box = chat.document.layout.get("badge").box
    assert box.y == pytest.approx(top, abs=0.5) and box.y2 == pytest.approx(bottom, abs=0.5)
    assert box.x == pytest.approx(420, abs=0.5)  # (a plain shape stretches; a picture keeps its proportions)
