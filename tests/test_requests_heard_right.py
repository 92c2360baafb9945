"""Requests on real files that were misheard: a count larger than the titles, the other of a pair named a sentence
before, "loads of", "his name" under a quote, "down to 90%", "title's enormous. 85%", a shape sized in px, "the
same text size as", "10px under the title" after a move, posters of a file of several, two captions where one is a
credit, "the box with X in it", "centre it at the very bottom", "take 25% off", the same margin as another's on
the other side, "till its end lines up with the right side of", "ending 5% in from the edge", "towards the
text" after a nudge, the panel a tab heads said with a place, four boxes of a column where a frame is there too,
"pokes out further right than", "that QR" said before, "the pale blue box", "at the same x as … underneath",
words in brackets after the poster said, two "together" centred as one, two kept "relative to each other".

Each case is a request a designer typed for one of the corpus's designs, checked on the boxes after the edit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.geometry import Box
from assistant.importer import import_svg
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")


def _do(name: str, request: str, tmp_path: Path) -> tuple[dict[str, Box], dict[str, Box], float, float, str]:
    chat = ChatAssistant(import_svg(CORPUS / name), model=None, out_dir=tmp_path, preview=False)
    layout = chat.document.layout
    before = {e.id: e.box for e in layout}
    reply = chat.handle(request)
    assert reply.edited, reply.text
    return before, {e.id: e.box for e in chat.document.layout}, layout.canvas.width, layout.canvas.height, reply.text


def _moved(b: dict[str, Box], a: dict[str, Box], *allowed: str) -> list[str]:
    return [k for k in b if k in a and a[k] != b[k] and k not in allowed]


def test_three_headlines_where_one_text_is_the_title_are_the_three_headings(tmp_path: Path) -> None:
    b, a, *_ = _do("real/kieleckamasa_plakat-budzet.svg",
                   "the three headlines have wonky spacing, make the gaps between them equal", tmp_path)
    top, mid, low = a["text3678-3-7-3-3"], a["text3678-3-7-3"], a["text3678-3-7"]
    assert abs((mid.y - top.y2) - (low.y - mid.y2)) <= 0.4
    assert a["text3678-3-7-3-0"] == b["text3678-3-7-3-0"]  # the title is no headline of the three


def test_the_one_on_the_right_is_the_other_of_the_pair_said_a_sentence_before(tmp_path: Path) -> None:
    b, a, *_ = _do("osgeo/osgeo-gsoc-A4.svg", "why are the two QR codes different sizes? make the left one the same "
                                             "size as the one on the right", tmp_path)
    assert abs(a["image1461"].width - a["image1473"].width) <= 0.05 * a["image1473"].width
    assert a["image1473"] == b["image1473"]


def test_his_name_is_the_name_under_the_quote_and_loads_of_is_no_element(tmp_path: Path) -> None:
    b, a, *_ = _do("real/cbmm_poster.svg", "loads of empty space at the bottom - move the Feynman quote and his "
                                           "name down 150px", tmp_path)
    for eid in ("text7433", "text6449"):  # the quote and "- Richard Feynman" under it
        assert a[eid].y - b[eid].y == pytest.approx(150, abs=20)
    assert not _moved(b, a, "text7433", "text6449")


def test_down_to_a_share_is_the_size_to_reach(tmp_path: Path) -> None:
    b, a, *_ = _do("real/zestedecode_affiche.svg", "Zeste de Code, down to 90%, still centered", tmp_path)
    assert a["text571"].width / b["text571"].width == pytest.approx(0.9, abs=0.03)
    assert a["text571"].cx == pytest.approx(b["text571"].cx, abs=1)


@pytest.mark.parametrize("request_text", ["title's enormous. 85% please, left edge stays",
                                          "the title is huge, 85% please, left edge stays"])
def test_a_share_after_too_big_is_the_size_to_reach(request_text: str, tmp_path: Path) -> None:
    b, a, *_ = _do("osgeo/osgeo_a4.svg", request_text, tmp_path)
    assert a["la-text-5"].width / b["la-text-5"].width == pytest.approx(0.85, abs=0.04)
    assert a["la-text-5"].x == pytest.approx(b["la-text-5"].x, abs=1)


def test_a_shape_said_in_px_is_sized_not_styled(tmp_path: Path) -> None:
    b, a, *_ = _do("real/multirom_play-feature.svg", "shrink the hydra circle to 360px, same centre", tmp_path)
    circle = a["path3289"]
    assert 350 <= circle.width <= 370 and abs(circle.height - circle.width) <= 1
    assert circle.cx == pytest.approx(b["path3289"].cx, abs=3) and circle.cy == pytest.approx(b["path3289"].cy, abs=3)


def test_the_same_text_size_as_another_is_its_size_of_type(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "real/hunterosc_interest-meeting-square.svg"), model=None,
                         out_dir=tmp_path, preview=False)
    reply = chat.handle("the join ACM caption is bigger than the photo credit, make it the same text size as the "
                        "credit")
    assert reply.edited, reply.text
    layout = chat.document.layout
    assert layout.get("text1064").font_size == pytest.approx(layout.get("text7983").font_size, rel=0.02)


def test_a_distance_under_said_after_a_move_places_it_that_far(tmp_path: Path) -> None:
    b, a, *_ = _do("real/multirom_play-feature.svg", "tagline up a bit, 10px under the title. title doesnt move",
                   tmp_path)
    assert 7 <= a["flowRoot4220"].y - a["text4204"].y2 <= 13
    assert a["text4204"] == b["text4204"]


def test_a_poster_of_a_file_of_several_is_its_page(tmp_path: Path) -> None:
    b, a, *_ = _do("real/pro0049_cartaz.svg", "first poster: headline 10% bigger, keep it centred", tmp_path)
    assert a["text3"].width / b["text3"].width == pytest.approx(1.1, abs=0.03)  # the headline of page 1
    assert not _moved(b, a, "text3")


def test_two_captions_counted_keep_the_one_that_is_a_credit(tmp_path: Path) -> None:
    b, a, *_ = _do("real/hunterosc_interest-meeting-square.svg", "swap the two little captions under the band: "
                   "credit on the left, the join ACM one on the right", tmp_path)
    assert a["text7983"].x < a["text1064"].x
    assert not _moved(b, a, "text7983", "text1064")


def test_the_box_with_texts_in_it_is_the_one_that_holds_them(tmp_path: Path) -> None:
    b, a, *_ = _do("real/hunterosc_interest-meeting-square.svg", "move the purple box with General Interest Meeting "
                   "+ the date in it down 5mm, all together", tmp_path)
    for eid in ("rect8445", "la-section-1"):
        assert a[eid].y - b[eid].y == pytest.approx(5, abs=0.5)
    assert not _moved(b, a, "rect8445", "la-section-1", "text876", "text1050")


def test_centre_it_at_the_very_bottom_is_the_middle_of_the_foot(tmp_path: Path) -> None:
    b, a, w, h, _ = _do("real/cernlib_bookmark-recto.svg", "the cc licence badge is stuck out to the right, "
                        "centre it at the very bottom of the page instead", tmp_path)
    badge = a["layer1-5"]
    assert abs(badge.cx - w / 2) <= 4 and h - 25 <= badge.y2 <= h


def test_take_a_share_off_is_smaller_by_it(tmp_path: Path) -> None:
    b, a, *_ = _do("real/cernlib_bookmark-recto.svg", "the empty photo frame beside the map is too big. take 25% "
                   "off it but keep its top right corner put", tmp_path)
    frame, was = a["la-image-1"], b["la-image-1"]
    assert frame.width / was.width == pytest.approx(0.75, abs=0.03)
    assert frame.x2 == pytest.approx(was.x2, abs=1) and frame.y == pytest.approx(was.y, abs=1)


def test_the_same_distance_from_one_side_as_another_from_the_other(tmp_path: Path) -> None:
    b, a, w, *_ = _do("osgeo/osgeo_a4.svg", "url should sit the same distance from the right edge as the title is "
                      "from the left", tmp_path)
    assert abs((w - a["url"].x2) - a["la-text-5"].x) <= 3
    assert not _moved(b, a, "url")


def test_its_end_lines_up_with_the_right_side_of_another(tmp_path: Path) -> None:
    b, a, *_ = _do("real/encukou_pyconcz19-title-slide.svg", "move for Blinky left till its end lines up with the "
                   "right side of the title", tmp_path)
    assert a["text918"].x2 == pytest.approx(a["la-paragraph-1"].x2, abs=4)
    assert a["text918"].y == pytest.approx(b["text918"].y, abs=3)


def test_ending_a_share_in_from_the_edge_after_a_move_to_that_side(tmp_path: Path) -> None:
    b, a, w, *_ = _do("real/encukou_pyconcz19-title-slide.svg", "push my name line over to the right, ending ~5% in "
                      "from the edge", tmp_path)
    assert a["text873"].x2 == pytest.approx(0.95 * w, abs=8)
    assert a["text873"].cy == pytest.approx(b["text873"].cy, abs=2)


def test_towards_a_thing_after_a_nudge_is_which_way_it_goes(tmp_path: Path) -> None:
    b, a, *_ = _do("real/zestedecode_affiche.svg", "nudge the mascot 5mm to the right, towards the text", tmp_path)
    assert a["g7496"].x - b["g7496"].x == pytest.approx(5, abs=0.5)
    assert not _moved(b, a, "g7496")


def test_the_panel_a_tab_heads_above_another(tmp_path: Path) -> None:
    b, a, *_ = _do("real/cesam_poster-template.svg", "Conclusions panel is skinny - make it as wide as the Code panel "
                                                     "above it, same left edge", tmp_path)
    assert a["path518"].width == pytest.approx(a["path468"].width, rel=0.05)
    assert a["path518"].x == pytest.approx(b["path518"].x, abs=5)


def test_four_boxes_in_a_column_are_the_four_as_wide_as_each_other(tmp_path: Path) -> None:
    b, a, *_ = _do("real/cesam_poster-template.svg", "even out the vertical gaps between the four boxes in the left "
                                                     "column", tmp_path)
    boxes = [a[i] for i in ("path202", "path252", "path318", "path368")]
    gaps = [low.y - high.y2 for high, low in zip(boxes, boxes[1:])]
    assert max(gaps) - min(gaps) <= 2
    assert a["path48"] == b["path48"]  # the logo's frame, in that column too, is no box of the four


def test_poking_out_further_right_than_the_rest_is_its_right_edge_off(tmp_path: Path) -> None:
    b, a, *_ = _do("real/hunterosc_interest-meeting-square.svg", "the photo credit pokes out further right than "
                   "everything else - line its right edge up with the right edge of the purple band", tmp_path)
    assert a["text7983"].x2 == pytest.approx(a["rect839"].x2, abs=1.5)
    assert a["text7983"].y == pytest.approx(b["text7983"].y, abs=1.5)
    assert not _moved(b, a, "text7983")


def test_that_noun_is_the_one_said_in_the_clause_before() -> None:
    from assistant.instructions.requests.understand import understand

    layout = import_svg(CORPUS / "osgeo/osgeo-gsoc-A4.svg").layout
    u = understand("little OSGeo compass above the right QR: bigger, centred over that QR", layout)
    assert u.status == "edit", u.message
    assert u.steps[-1].refs == ["image1473"]  # the QR on the right, said before the colon


def test_a_pale_colour_said_picks_the_light_box_of_that_colour(tmp_path: Path) -> None:
    b, a, *_ = _do("real/rcukclouds_poster-a4.svg", "'Amazon Web Services' isnt centred in the pale blue box - centre "
                   "it horizontally", tmp_path)
    assert a["text6291"].cx == pytest.approx(a["rect20206"].cx, abs=2)  # the pale box, not the blue arrows
    assert not _moved(b, a, "text6291")


def test_start_at_the_same_x_as_the_one_underneath(tmp_path: Path) -> None:
    b, a, *_ = _do("real/encukou_pyconsk18-deck.svg", "red hat logo should start at the same x as naucse.python.cz "
                   "underneath", tmp_path)
    assert a["g7969"].x == pytest.approx(a["text7996"].x, abs=2)
    assert a["text7996"] == b["text7996"]


def test_words_in_brackets_after_the_poster_said_name_that_poster(tmp_path: Path) -> None:
    b, a, *_ = _do("real/pro0049_cartaz.svg", "on the 2nd poster (Construção Tradicional) make the axon drawing 20% "
                   "bigger, bottom right corner stays put", tmp_path)
    assert a["image1"].width / b["image1"].width == pytest.approx(1.2, abs=0.05)
    assert a["image1"].x2 == pytest.approx(b["image1"].x2, abs=4) and a["image1"].y2 == pytest.approx(b["image1"].y2,
                                                                                                      abs=4)
    assert not _moved(b, a, "image1")


def test_two_said_together_are_centred_as_one(tmp_path: Path) -> None:
    b, a, *_ = _do("real/multirom_play-feature.svg", "title + tagline together should be vertically centred on the "
                   "circle", tmp_path)
    block = Box.union_all([a["text4204"], a["flowRoot4220"]])
    assert block.cy == pytest.approx(a["path3289"].cy, abs=3)
    assert a["flowRoot4220"].y - a["text4204"].y == pytest.approx(b["flowRoot4220"].y - b["text4204"].y, abs=0.5)


def test_kept_where_they_are_to_each_other_moves_them_as_one(tmp_path: Path) -> None:
    b, a, w, *_ = _do("real/multirom_play-feature.svg", "slide the text over so it ends at the right margin, keep "
                      "title and tagline where they are relative to each other", tmp_path)
    assert 995 <= max(a["text4204"].x2, a["flowRoot4220"].x2) <= 1003
    assert a["flowRoot4220"].x - a["text4204"].x == pytest.approx(b["flowRoot4220"].x - b["text4204"].x, abs=0.5)
