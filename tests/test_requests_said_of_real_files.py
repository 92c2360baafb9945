"""Requests on real files that name things the way the page shows them, and amounts the way people say them.

"Computer Science Club Network: drop it to 6.5" (a size in the units the layout lists), "the bold Welcome intro"
(the first text under that heading), "'Open Geospaital applies...' is jammed right under the bullets, give it 20px of
room" (the list in its column), "git workflow slide: fork / fix / test / merge arent evenly spaced" (a slide named
by part of its heading, a verb that is one of the texts listed), "url in the footer - 18px please", "osgeo logo 15%
smaller, keep its left edge and bottom", "QR code top right is way bigger than it needs to be - 75% and keep it in
the corner", "the three paragraphs under 'Co je MultiROM?' have uneven spacing, make the gaps equal".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")


def _do(name: str, request: str, tmp_path: Path) -> tuple[dict, dict]:
    chat = ChatAssistant(import_svg(CORPUS / name), model=None, out_dir=tmp_path, preview=False)
    before = {e.id: e.box for e in chat.document.layout}
    reply = chat.handle(request)
    assert reply.edited, reply.text
    return before, {e.id: e.box for e in chat.document.layout}


def test_a_type_size_without_a_unit_is_in_the_layouts_own_units(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "real/hunterosc_interest-meeting-square.svg"), model=None,
                         out_dir=tmp_path, preview=False)
    chat.handle("Computer Science Club Network: drop it to 6.5")
    assert chat.document.layout.get("text1031").font_size == pytest.approx(6.5, abs=0.01)  # mm, as listed


def test_the_intro_under_a_heading_is_the_first_text_under_it(tmp_path: Path) -> None:
    b, a = _do("osgeo/osgeo_a4.svg", "the bold Welcome intro runs into the right column, narrow it so it stops ~10px "
                                     "short of 'Open Source Software'", tmp_path)
    assert a["About"].x2 <= a["Open-Source-Software"].x - 7
    assert a["la-text-4"] == b["la-text-4"]  # the heading "Welcome" stays as it is


def test_the_bullets_a_text_is_under_are_the_list_in_its_column(tmp_path: Path) -> None:
    b, a = _do("osgeo/osgeo_a4.svg", "'Open Geospaital applies...' is jammed right under the bullets, give it 20px of "
                                     "room", tmp_path)
    assert a["close"].y - a["la-item-1"].y2 == pytest.approx(20, abs=1)


def test_a_slide_named_by_part_of_its_heading_and_a_verb_in_a_list_of_texts(tmp_path: Path) -> None:
    b, a = _do("real/encukou_pyconsk18-deck.svg", "git workflow slide: fork / fix / test / merge arent evenly spaced, "
                                                  "fix that", tmp_path)
    row = sorted((a[k] for k in ("text7062", "text7066", "text7350", "text7074")), key=lambda box: box.x)
    gaps = [q.x - p.x2 for p, q in zip(row, row[1:])]
    assert max(gaps) - min(gaps) <= 1.0


def test_a_size_said_alone_after_a_dash_is_the_texts_type_size(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "osgeo/osgeo_a4.svg"), model=None, out_dir=tmp_path, preview=False)
    assert chat.handle("url in the footer - 18px please").edited
    assert chat.document.layout.get("url").font_size == pytest.approx(18, abs=0.01)


def test_two_sides_held_are_the_corner_they_meet_in(tmp_path: Path) -> None:
    b, a = _do("osgeo/osgeo_a4.svg", "osgeo logo bottom left 15% smaller, keep its left edge and bottom", tmp_path)
    assert a["logo"].width == pytest.approx(0.85 * b["logo"].width, rel=0.02)
    assert (a["logo"].x, a["logo"].y2) == pytest.approx((b["logo"].x, b["logo"].y2), abs=0.5)


def test_a_share_said_after_a_size_problem_is_how_much(tmp_path: Path) -> None:
    b, a = _do("real/multirom_poster-cs.svg", "QR code top right is way bigger than it needs to be - 75% and keep it "
                                              "in the corner", tmp_path)
    assert a["g8552"].width == pytest.approx(0.75 * b["g8552"].width, rel=0.02)
    assert (a["g8552"].x2, a["g8552"].y) == pytest.approx((b["g8552"].x2, b["g8552"].y), abs=0.5)


def test_what_a_set_has_is_its_problem_and_the_set_is_the_one_under_the_heading(tmp_path: Path) -> None:
    b, a = _do("real/multirom_poster-cs.svg", 'the three paragraphs under "Co je MultiROM?" have uneven spacing, make '
                                              "the gaps equal", tmp_path)
    ids = ("flowRoot9045", "flowRoot9059", "flowRoot9079")
    gaps = [a[q].y - a[p].y2 for p, q in zip(ids, ids[1:])]
    assert abs(gaps[0] - gaps[1]) <= 1.0 and a["flowRoot9033"] == b["flowRoot9033"]
