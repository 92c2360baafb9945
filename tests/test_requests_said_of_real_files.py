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


@pytest.mark.parametrize("request_", ["url in the footer - 18px please", "the url in the footer. 18px please"])
def test_a_size_said_alone_after_a_dash_is_the_texts_type_size(request_: str, tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "osgeo/osgeo_a4.svg"), model=None, out_dir=tmp_path, preview=False)
    assert chat.handle(request_).edited
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


def test_a_band_is_the_long_shape_and_a_problem_across_centres_across(tmp_path: Path) -> None:
    b, a = _do("real/hunterosc_interest-meeting-square.svg", "Computer Science Club Network looks shoved over to the "
                                                             "right, centre it in the purple band", tmp_path)
    assert a["text1031"].cx == pytest.approx(a["rect839"].cx, abs=0.5)  # the band across the foot, not the tall panel
    assert a["text1031"].y == pytest.approx(b["text1031"].y, abs=0.01)  # across only: it stays under the logos


def test_two_lines_under_a_picture_are_the_ones_clear_of_it_and_where_each_goes_is_said(tmp_path: Path) -> None:
    b, a = _do("real/hunterosc_interest-meeting-square.svg", "swap the two little lines under the photo, credit on "
                                                             "the left and the join line on the right", tmp_path)
    assert a["text7983"].x < b["text7983"].x and a["text1064"].x > b["text1064"].x
    assert a["text1031"] == b["text1031"]  # the line set over the photo stays


def test_top_to_bottom_is_vertically(tmp_path: Path) -> None:
    b, a = _do("real/rdmo_postcard-back-de.svg", "sideways credit line should be centred top to bottom on the card",
               tmp_path)
    assert a["text821"].cy == pytest.approx(105 / 2, abs=0.5) and a["text821"].x == pytest.approx(b["text821"].x)


def test_bottoms_out_level_with_the_end_of_a_list_is_the_bottoms(tmp_path: Path) -> None:
    b, a = _do("osgeo/geonetwork_a4.svg", "drop the Analyze information section so it bottoms out level with the end "
                                          "of the Easy configuration bullets", tmp_path)
    assert a["la-section-3"].y2 == pytest.approx(a["la-item-1"].y2, abs=0.5)


def test_a_swap_of_headings_text_and_all_swaps_their_sections(tmp_path: Path) -> None:
    b, a = _do("osgeo/geonetwork_a4.svg", "swap 'Make your maps' and 'Analyze information' round, text and all",
               tmp_path)
    # "Analyze information" (with its text) now stands where "Make your maps" began, and that one below it
    assert a["la-section-3"].y == pytest.approx(b["la-section-4"].y, abs=1)
    assert a["la-section-4"].y > a["la-section-3"].y2


def test_a_gutter_wanted_is_room_not_a_thing(tmp_path: Path) -> None:
    b, a = _do("osgeo/geonetwork_a4.svg", "Welcome paragraph bleeds into the right hand column. make it narrower so "
                                          "theres a proper gutter before 'Describe information using...'", tmp_path)
    assert a["GeoNetwork-is-a-cata"].x2 <= a["Describe-information"].x - 8
    assert a["OSGeo_project"] == b["OSGeo_project"]


def test_a_share_of_what_it_is_now(tmp_path: Path) -> None:
    b, a = _do("real/businesscard_back.svg", "title at 85% of what it is now", tmp_path)
    assert a["text900"].width == pytest.approx(0.85 * b["text900"].width, rel=0.03)


def test_room_asked_after_a_move_is_why(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "real/ritlug_meetup-banner.svg"), model=None, out_dir=tmp_path,
                         preview=False)
    reply = chat.handle("move date + time down 15px, give the headline some air")
    assert reply.edited and reply.text.count('"type"') == 1, reply.text  # one move, no gap of its own


def test_a_text_named_by_its_word_before_the_noun_word(tmp_path: Path) -> None:
    b, a = _do("osgeo/osgeo-gsoc-A4.svg", "make the Guidelines word at the bottom about 20% larger", tmp_path)
    assert a["text1453"].width / b["text1453"].width == pytest.approx(1.2, abs=0.05)


def test_further_in_from_a_side_is_a_move_away_from_it(tmp_path: Path) -> None:
    b, a = _do("osgeo/osgeo_a4.svg", "the url should sit 5mm further in from the right", tmp_path)
    assert b["url"].x - a["url"].x == pytest.approx(5 * 96 / 25.4, abs=0.1) and a["url"].y == b["url"].y


def test_a_swap_said_with_what_it_is_for_is_the_swap(tmp_path: Path) -> None:
    b, a = _do("real/hunterosc_winter-bash.svg", "flip Open Source Club and Winter Bash so the big title is on top",
               tmp_path)
    assert a["la-unit-1"].y < a["la-unit-2"].y and a["la-unit-1"].y == pytest.approx(b["la-unit-2"].y, abs=1)


def test_an_amount_more_is_that_much_more_however_tight_it_is(tmp_path: Path) -> None:
    b, a = _do("real/hunterosc_spring-into-code-flyer.svg", "Spring Break 2020 is tight under the title, give it 4mm "
                                                            "more space", tmp_path)
    before = b["text4594"].y - b["flowRoot834"].y2
    assert a["text4594"].y - a["flowRoot834"].y2 == pytest.approx(before + 4, abs=0.1)  # mm, the file's unit


def test_what_is_wrong_said_again_after_the_edit_is_no_edit_of_its_own(tmp_path: Path) -> None:
    b, a = _do("osgeo/mapbender_a4.svg", "caption 'Mapbender Application' should be centred under the map screenshot, "
                                         "not hanging left", tmp_path)
    caption, shot = a["Together-these-appro-2"], a["image3731"]
    assert caption.cx == pytest.approx(shot.cx, abs=1) and caption.y == b["Together-these-appro-2"].y


def test_the_values_are_the_texts_beside_their_labels(tmp_path: Path) -> None:
    b, a = _do("real/linuxdays_eduguest-card.svg", "nudge the user / pass values down 3px so the password clears the "
                                                   "logo", tmp_path)
    assert a["text4780"].y > b["text4780"].y and a["g4861"] == b["g4861"] and a["text4915"] == b["text4915"]


def test_spacing_said_to_be_uneven_is_evened_and_the_gaps_are_no_thing_to_resize(tmp_path: Path) -> None:
    b, a = _do("real/cbmm_poster.svg", "questions under Thrust 4 are unevenly spaced, some gaps are way bigger. make "
                                       "the gaps between them equal", tmp_path)
    assert all(a[k].height == pytest.approx(b[k].height) for k in b if k.startswith("flowRoot7365"))


def test_where_a_text_starts_wrongly_is_a_problem_not_a_place(tmp_path: Path) -> None:
    b, a = _do("real/cbmm_poster.svg", "'Our Research' starts 25px left of the thrust headings under it. line it up "
                                       "with them", tmp_path)
    assert a["text6441-6"].y == b["text6441-6"].y and a["text6441-6"].x == pytest.approx(a["text6445"].x, abs=0.5)


def test_what_a_line_is_lined_up_with_is_all_that_the_with_names(tmp_path: Path) -> None:
    b, a = _do("real/linuxdays_eduguest-card.svg", "why is the czech note indented? line its left edge up with the "
                                                   "user:/pass: labels", tmp_path)
    assert a["flowRoot6337"].x == pytest.approx(b["text4915"].x, abs=0.5)
    assert a["text4780"] == b["text4780"] and a["text4943"] == b["text4943"]  # the values stay where they are
