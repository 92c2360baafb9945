"""Requests that name a whole by its parts, an element by what it is beside, and a limit said after a move.

"move the whole outline lockup (acm, ×, osc and its title) down 20mm": the parts in brackets go with it, each the
one beside the others; "the text beside it": "it" is what the clause is about, not that text; "the Mapbender
wordmark next to it": the wordmark within reach of it, not the logo of that name across the page; "… and it still
clears the heading": the moved picture keeps clear of it, smaller if it must.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.importer import import_svg
from assistant.instructions.requests.clauses import known_words
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.scope import without_asides
from assistant.instructions.requests.understand import understand
from assistant.instructions.requests.words import tokenise
from assistant.render.looks import looks
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")
HACK_DAY = CORPUS / "real/hunterosc_hack-day.svg"
#: The outline version of the Hack Day lock-up: the ACM roundel, the ×, the OSC badge and the title under them.
OUTLINE = ["la-cluster-1", "text1561-2", "la-unit-2", "text1565-6"]


def _steps(path: Path, request: str) -> list:
    doc = import_svg(path)
    u = understand(request, doc.layout, see=lambda ids: looks(doc, ids))  # ("outline": as the chat sees it)
    assert u.status == "edit", u.message
    return u.steps


def test_a_symbol_in_a_list_is_a_text_of_its_own() -> None:
    index = ElementIndex(import_svg(HACK_DAY).layout, None)
    tokens = tokenise("the lockup (acm, ×, osc)", known_words(index))
    assert [t.kind for t in tokens if t.raw == "×" or t.kind == "quote"] == ["quote"]


def test_the_parts_of_a_whole_in_brackets_are_said_again_after_the_move() -> None:
    index = ElementIndex(import_svg(HACK_DAY).layout, None)
    tokens = without_asides(tokenise("move the whole outline lockup (acm, osc and its title) down 20mm",
                                     known_words(index)))
    said = " ".join(t.text for t in tokens)
    assert said == "move the whole outline lockup down 20 mm , together with acm and osc and its title", said


def test_a_whole_lockup_moves_with_the_parts_listed() -> None:
    (step,) = _steps(HACK_DAY, "move the whole outline lockup (acm, ×, osc and its title) down 20mm")
    assert sorted(step.patients) == sorted(OUTLINE)


def test_a_part_listed_that_moves_already_is_no_error() -> None:
    steps = _steps(HACK_DAY, "the outline version sits about 1.5mm left of the colour one. shift the whole bottom "
                             "set (roundel, ×, OSC box and its title) 1.5mm to the right")
    assert sorted(steps[-1].patients) == sorted(OUTLINE)


def test_the_text_beside_it_is_beside_what_the_clause_is_about() -> None:
    (step,) = _steps(CORPUS / "real/blug_plakat.svg",
                     "little calendar icon with the 31 on it, bring it in front of the text beside it")
    assert step.patients == ["g2578"] and step.refs == ["text19013"]  # the lines the icon overlaps


def test_the_wordmark_next_to_it_is_the_one_within_reach() -> None:
    steps = _steps(CORPUS / "osgeo/mapbender_a4.svg", "the yellow/blue pin icon bottom left and the Mapbender "
                   "wordmark next to it aren't lined up - centre them on each other vertically")
    assert sorted(steps[-1].patients + steps[-1].refs) == ["g20", "g26"]


def test_a_move_that_must_still_clear_a_heading_makes_the_picture_smaller(tmp_path: Path) -> None:
    from benchmarks.bench_requests import HELDOUT, read_cases, run_case

    for tsv, said in (("gvsig_j.tsv", "hidden under the desktop screenshot"),
                      ("gvsig_zf.tsv", "hidden behind the desktop screenshot")):
        case = next(c for c in read_cases(HELDOUT / tsv) if said in c.request)
        result = run_case(case, None, tmp_path)
        assert result["met"], (case.request, result["reply"])
        assert '"type":"resize"' in result["reply"], result["reply"]


def test_the_pin_icon_is_a_noun() -> None:
    (step,) = _steps(CORPUS / "osgeo/mapbender_a4.svg", "the pin icon and the mapbender wordmark next to it should be "
                                                         "centred on each other vertically")
    assert step.kind == "center" and sorted(step.patients + step.refs) == ["g20", "g26"]


def test_next_to_it_says_which_not_what_to_centre_on() -> None:
    (step,) = _steps(CORPUS / "osgeo/geonode_a4.svg", "geonode.org and the geonode logo next to it arent centred on "
                                                       "each other vertically - fix")
    assert sorted(step.patients + step.refs) == ["image3740", "text147"]  # the logo beside the address


def test_them_after_a_look_judged_beside_another_is_what_was_judged() -> None:
    steps = _steps(CORPUS / "real/linuxdays_eduguest-card.svg", "domain/valid until values look a bit weedy next to "
                   "the user+pass, make them 10% bigger")
    assert steps[-1].patients == ["text4943"]  # the values, not the labels they were judged beside


def test_a_noun_for_a_picture_names_the_picture_that_draws_the_word() -> None:
    doc = import_svg(CORPUS / "osgeo/gdal_a4.svg")
    u = understand("osgeo logo should be as wide as the gdal globe image", doc.layout,
                   read=lambda ids: {"Page-1-4": "OSGeo Project", "image4933": "GDAL"})  # as a render reads them
    assert [(s.patients, s.refs) for s in u.steps] == [(["Page-1-4"], ["image4933"])]  # not the title "GDAL"
