"""More requests on real files that were misheard: "match their vertical centres" after two were named, two that
"should share a vertical centre" with a place that says which, "70mm square", "same vertical centre" after a
place beside another, "10 mm above the bottom of the page" said after "so", "the made with ♡ line", "about 60% of
the band's width" after "bigger", "email address bottom left" where it is, "Commit C++ code", "the gvsig logo is
floating at the bottom", "keep his feet where they are" beside the page's edge.

Each case is a request a designer typed for one of the corpus's designs, checked on the boxes after the edit.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from requests_support import NEEDS_CORPUS
from requests_support import do_request as _do
from requests_support import moved as _moved

pytestmark = NEEDS_CORPUS


def test_their_vertical_centres_are_those_of_the_two_named(tmp_path: Path) -> None:
    b, a, *_ = _do("osgeo/geonode_a4.svg", "geonode.org at the bottom isn't level with the GeoNode logo next to it – "
                   "match their vertical centres", tmp_path)
    assert a["text147"].cy == pytest.approx(a["image3740"].cy, abs=2)
    assert not _moved(b, a, "text147", "image3740")


def test_two_that_should_share_a_vertical_centre_one_said_with_its_place(tmp_path: Path) -> None:
    b, a, *_ = _do("osgeo/gvsig_a4.svg", "gvSIG logo bottom left and www.gvsig.com should share a vertical centre",
                   tmp_path)
    assert a["image362"].cy == pytest.approx(a["text350"].cy, abs=3)
    assert not _moved(b, a, "image362", "text350")


def test_a_size_square_is_both_sides(tmp_path: Path) -> None:
    b, a, *_ = _do("real/rdmo_poster-a0.svg", "the RDMO badge top right is a bit chunky – make it 70mm square and "
                   "keep its right edge where it is", tmp_path)
    badge = a["la-unit-1"]
    assert badge.width == pytest.approx(70, abs=4) and badge.height == pytest.approx(70, abs=4)
    assert badge.x2 == pytest.approx(b["la-unit-1"].x2, abs=3)


def test_the_same_vertical_centre_after_a_place_beside_another(tmp_path: Path) -> None:
    b, a, *_ = _do("real/cbmm_poster.svg", "- Richard Feynman floats off on its own. tuck it right after the quote, "
                   "~20px gap, same vertical centre", tmp_path)
    assert 10 <= a["text6449"].x - a["text7433"].x2 <= 30
    assert a["text6449"].cy == pytest.approx(a["text7433"].cy, abs=5)


def test_a_distance_above_the_bottom_of_the_page_said_after_so(tmp_path: Path) -> None:
    b, a, _w, h = _do("real/hunterosc_spring-into-code-flyer.svg", "drop the footer links so the last line sits 10 mm "
                      "above the bottom of the page", tmp_path)
    assert a["text1040"].y2 == pytest.approx(h - 10, abs=2)
    assert a["text1040"].height == pytest.approx(b["text1040"].height, rel=0.1)


def test_a_sign_in_a_line_names_the_text_that_has_it(tmp_path: Path) -> None:
    b, a, w, h = _do("real/hunterosc_winter-bash.svg", "the little made with ♡ line - bottom centre please, inside "
                     "the margin", tmp_path)
    assert a["text5150"].cx == pytest.approx(w / 2, abs=2) and h - 20 <= a["text5150"].y2 <= h - 9.5
    assert not _moved(b, a, "text5150")


def test_a_share_of_another_width_said_after_bigger_is_how_big(tmp_path: Path) -> None:
    b, a, *_ = _do("real/simplecert_certificate.svg", "CERTIFICATE should be much bigger, about 60% of the band's "
                   "width, and still inside the band", tmp_path)
    assert 140 <= a["label1"].width <= 160
    assert a["label1"].y >= a["rect2"].y - 1 and a["label1"].y2 <= a["rect2"].y2 + 1


def test_a_place_after_a_noun_keeps_the_one_already_there(tmp_path: Path) -> None:
    b, a, *_ = _do("real/cesam_poster-template.svg", "email address bottom left isnt vertically centred in the blue "
                   "footer strip, sort that out", tmp_path)
    assert a["text162"].cy == pytest.approx(a["path144"].cy, abs=2)
    assert a["text376"] == b["text376"]  # a body text further up on the left is not the address


def test_a_sign_that_folds_to_a_letter_is_a_word_of_the_text(tmp_path: Path) -> None:
    b, a, *_ = _do("real/rcukclouds_poster-a4.svg", "Commit C++ code collides w/ the researchers icon, shift it left "
                   "about 5mm", tmp_path)
    assert a["text21294"].x - b["text21294"].x == pytest.approx(-5, abs=1)
    assert not _moved(b, a, "text21294")


def test_where_a_thing_is_said_to_float_says_which_it_is(tmp_path: Path) -> None:
    b, a, *_ = _do("osgeo/gvsig_a4.svg", "the gvsig logo is floating at the bottom, tuck it up to 10px under the "
                   "Mobile text", tmp_path)
    assert a["image362"].y < b["image362"].y  # the logo picture at the bottom, not the wordmark at the top
    assert not _moved(b, a, "image362")


def test_a_held_side_by_the_page_edge_holds_at_a_corner(tmp_path: Path) -> None:
    b, a, *_ = _do("real/zestedecode_social-card.svg", "mascot could be 20% bigger, keep his feet where they are",
                   tmp_path)
    assert a["g7496-5"].height / b["g7496-5"].height == pytest.approx(1.2, abs=0.05)
    assert a["g7496-5"].y2 == pytest.approx(b["g7496-5"].y2, abs=2)
