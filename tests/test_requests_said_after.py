"""What a clause after an edit says about it: how far in from the corner it went to, the centre it grows from, the
size of type it reaches, the margins it fits between, and a move that is how a gap said before is closed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.importer import import_svg
from assistant.instructions.requests.understand import understand
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")


def _steps(name: str, request: str) -> list:
    u = understand(request, import_svg(CORPUS / name).layout)
    assert u.status == "edit", u.message
    return u.steps


def test_how_far_in_from_the_corner_it_went_to() -> None:
    (step,) = _steps("osgeo/gdal_a4.svg", "OSGeo logo to the bottom right corner, 12mm in from both edges")
    assert step.kind == "edge" and step.intent.params["edge"] == "bottom_right"
    assert step.intent.params["inset"].value == 12 and step.intent.params["inset"].unit == "mm"


def test_how_far_above_the_edge_it_went_down_to() -> None:
    (step,) = _steps("osgeo/gdal_a4.svg", "send gdal.org down to the bottom, 30px above the bottom edge")
    assert step.kind == "edge" and step.intent.params["edge"] == "bottom"
    assert step.intent.params["inset"].value == 30


def test_grow_it_from_its_centre_says_the_anchor_of_the_size_before() -> None:
    (step,) = _steps("osgeo/gdal_a4.svg", "the OSGeo logo could be larger. 20% bigger, grow it from its centre")
    assert step.kind == "resize" and step.intent.params["anchor"] == "center"
    assert step.intent.params["percent"][0] == 20


@pytest.mark.parametrize(("request_", "size"), [
    ("gdal.org could be bigger, 18px", {"abs": 18.0}),
    ("make gdal.org bigger, 16pt", {"abs": 16.0}),
    ("make gdal.org 2px bigger", {"delta": 2.0}),
])
def test_a_size_of_type_said_after_bigger_is_the_size_to_reach(request_: str, size: dict) -> None:
    (step,) = _steps("osgeo/gdal_a4.svg", request_)
    said = step.intent.params["font_size"]
    (kind, value), = size.items()
    assert kind in said and said[kind].value == value, said


def test_a_move_that_closes_the_gap_said_before_is_how() -> None:
    (step,) = _steps("osgeo/pgRouting_a4.svg", "close up the gap under Overview - move the Core Features block up "
                                               "20px")
    assert step.kind == "nudge"


def test_a_share_of_what_it_is_now() -> None:
    (step,) = _steps("osgeo/gdal_a4.svg", "make the OSGeo logo like 90% of what it is now")
    assert step.kind == "resize" and step.intent.params["percent"] == (90.0, True)


def test_words_of_a_text_with_a_colon_end_no_clause() -> None:
    (step,) = _steps("real/cernlib_bookmark-recto.svg", "push Due date: down 10px from the title")
    assert step.kind == "nudge" and step.patients == ["text5352-2"]  # measured from the title, which stays


def test_a_swap_of_two_said_as_one_is_how_they_trade_sides() -> None:
    (step,) = _steps("real/kieleckamasa_plakat.svg", "swap the two links at the bottom so the www one is on the left "
                                                     "and fb on the right")
    assert step.kind == "swap" and len(step.patients) == 2


_HELD_OUT = [
    ("hackday_zk.tsv", "colour ACM logo to the top left corner"),
    ("hackday_zk.tsv", "send the second Hunter Hack Day down to the bottom"),
    ("falanster_zk.tsv", "grow it from its own centre"),
    ("pgrouting_zk.tsv", "pgRouting.org could be bigger, 18px"),
    ("t7b_zk.tsv", "same margin on both sides, left edge stays"),
    ("arduiciole_zk.tsv", "right end near the margin"),
    ("pgrouting_zk.tsv", "close up the gap under Overview"),
    ("publican_zk.tsv", "footnote's tiny - 14px please"),
    ("pyconcz_zm.tsv", "90% of what it is now"),
    ("kielce_zm.tsv", "swap the two links at the bottom"),
    ("cernlib_zl.tsv", "push Due date: down 10px"),
]


@pytest.mark.parametrize(("tsv", "said"), _HELD_OUT)
def test_held_out_requests_said_after(tsv: str, said: str, tmp_path: Path) -> None:
    from benchmarks.bench_requests import HELDOUT, read_cases, run_case

    case = next(c for c in read_cases(HELDOUT / tsv) if said.lower() in c.request.lower())
    result = run_case(case, None, tmp_path)
    assert result["met"] and not result["moved"], (case.request, result["reply"])
