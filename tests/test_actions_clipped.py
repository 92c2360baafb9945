"""A line that runs off its page is aligned by all it draws, and may be centred though it is wider than the page.

The Polish poster's third headline ("Rowerowa rewolucja!") is wider than its A6 page, which clips it: its box is the
part that shows, its ``whole`` all it draws. Centred on the page, it sticks out on both sides, on each less than it
did on the right before.
"""

from __future__ import annotations

import pytest

from assistant.actions import apply_action, undo_diff
from assistant.errors import InvalidAction
from assistant.importer import import_svg
from benchmarks.bench_requests import SHARED

POSTER = SHARED / "corpus/real/kieleckamasa_plakat-budzet.svg"
pytestmark = pytest.mark.skipif(not POSTER.is_file(), reason="../shared (its corpus) is not here")
LINE = "text3678-3-7"


def test_a_clipped_line_centres_by_all_it_draws() -> None:
    doc = import_svg(POSTER)
    page = doc.layout.canvas.box
    whole = doc.layout.get(LINE).whole_box()
    assert whole.width > page.width and whole.x2 > page.x2  # runs off the right, wider than the page
    diff = apply_action(doc, {"type": "align", "ids": [LINE], "edge": "center_x", "to": "canvas"})
    after = doc.layout.get(LINE).whole_box()
    assert after.cx == pytest.approx(page.cx, abs=0.01)
    assert max(page.x - after.x, after.x2 - page.x2) < whole.x2 - page.x2  # sticks out less than it did
    undo_diff(doc, diff)
    assert doc.layout.get(LINE).whole_box() == whole


def test_a_line_wider_than_the_page_may_not_go_further_out() -> None:
    doc = import_svg(POSTER)
    with pytest.raises(InvalidAction, match="past the left edge"):
        apply_action(doc, {"type": "move", "ids": [LINE], "dx": -10, "dy": 0})  # further out than it is on the right
