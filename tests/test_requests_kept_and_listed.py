"""What a move keeps, lists between dashes, distances from an unnamed edge, and sizes said as two numbers.

"bring both down 15px, same gap between them" and "…, same height" say what a move keeps, not a second edit;
"the subheads - A, B, C - get lost in the body copy" names A, B and C; "so it ends 3mm from the edge" is the
edge it is nearest; "80px -> 64px" after a problem is a size; "bring the QR down so its middle lines up with
X" centres it on the vertical axis; "the bold headline is too big" asks for no weight.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.importer import import_svg, import_svg_text
from assistant.instructions.requests import understand
from assistant.instructions.requests.amounts import Length
from assistant.instructions.requests.build import plan_step

LAYOUT = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <rect id="panel" x="150" y="300" width="300" height="400" fill="#f0e0c0"/>
  <text id="title" x="40" y="80" font-size="40" font-family="sans-serif">Spring Meetup</text>
  <text id="subtitle" x="40" y="120" font-size="18" font-family="sans-serif">Routing and graphs in the database</text>
  <text id="head1" x="40" y="200" font-size="14" font-weight="bold" font-family="sans-serif">High friendliness</text>
  <text id="head2" x="240" y="200" font-size="14" font-weight="bold" font-family="sans-serif">Wide compatibility</text>
  <text id="head3" x="440" y="200" font-size="14" font-weight="bold" font-family="sans-serif">Mobile use</text>
  <text id="line1" x="200" y="400" font-size="20" font-family="sans-serif">Thursday evening</text>
  <text id="line2" x="210" y="450" font-size="20" font-family="sans-serif">Room 2620</text>
  <text id="url" x="420" y="760" font-size="30" font-family="sans-serif">www.example.org</text>
  <image id="qr" x="500" y="20" width="80" height="80"/>
</svg>"""


def _understood(request: str):
    u = understand(request, import_svg_text(LAYOUT, source="x.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return u


@pytest.mark.parametrize("request_text", [
    "the title and the subtitle are crammed against the top. bring both down ~15px, same gap between them",
    "move the title and the subtitle down 15px keeping the spacing between them",
    "nudge the title and the subtitle down 15px, keep the gap as it is",
])
def test_the_gap_a_joint_move_keeps_is_no_edit(request_text: str) -> None:
    u = _understood(request_text)
    assert [s.kind for s in u.steps] == ["nudge"]
    assert set(u.steps[0].patients) == {"title", "subtitle"}


def test_the_level_a_move_keeps_is_no_size_to_match() -> None:
    u = _understood("move the web address left so it starts 10 mm from the left edge of the page. same height")
    assert [s.kind for s in u.steps] == ["edge"]
    assert u.steps[0].intent.params["edge"] == "left"


def test_a_distance_from_the_edge_it_is_nearest() -> None:
    u = _understood("the web address is too close to the edge - pull it in so it ends 8mm from the edge")
    assert [s.kind for s in u.steps] == ["edge"]
    step = u.steps[0]
    assert step.patients == ["url"] and step.intent.params["inset"] == Length(8.0, "mm")
    assert step.intent.params["edge"] is None  # the builder takes the nearest: here the right


def test_a_gap_to_a_side_of_the_page() -> None:
    u = _understood("pull the QR code in so there's 60px between it and the right side of the page")
    step = u.steps[-1]
    assert step.kind == "edge" and step.intent.params["edge"] == "right"
    assert step.intent.params["inset"] == Length(60.0, "px")


def test_a_list_between_dashes_says_what_the_noun_means() -> None:
    u = _understood("the little bold subheads - High friendliness, Wide compatibility, Mobile use - get lost in "
                    "the body copy. bump all three up ~15%")
    assert [s.kind for s in u.steps] == ["resize"]
    assert u.steps[0].patients == ["head1", "head2", "head3"]
    assert u.steps[0].intent.params["grow"] and u.steps[0].intent.params["percent"] == (15.0, False)


@pytest.mark.parametrize("request_text", ["the bold headline is too big", "the bold title is too big"])
def test_a_weight_said_before_the_noun_asks_for_none(request_text: str) -> None:
    u = _understood(request_text)
    assert [s.kind for s in u.steps] == ["resize"]


def test_a_size_from_one_number_to_another_after_a_problem() -> None:
    u = _understood("the web address is shouting. 30px -> 24px")
    assert [s.kind for s in u.steps] == ["style"]
    assert u.steps[0].intent.params["font_size"] == {"factor": pytest.approx(0.8)}


def test_a_size_from_one_number_down_to_about_another() -> None:
    u = _understood("web address is a bit big, 30 down to about 24, keep it centered")
    assert [s.kind for s in u.steps] == ["style"]
    assert u.steps[0].intent.params["anchor"] == "center"


@pytest.mark.parametrize("request_text,anchor", [
    ("the web address 10% smaller around the same centre", "center"),
    ("the web address 20% bigger from its centre", "center"),
    ("web address 15% smaller but keep its right end where it is", "right"),
    ("the QR code 15% larger, centred on where it is now", "center"),
    ("make the web address 18 px instead of 30, left edge unchanged", "left"),
])
def test_more_ways_to_say_what_a_resize_holds(request_text: str, anchor: str) -> None:
    u = _understood(request_text)
    assert len(u.steps) == 1 and u.steps[0].intent.params["anchor"] == anchor


def test_a_move_up_or_down_until_the_middles_line_up_is_vertical() -> None:
    u = _understood("bring the QR code down so its middle lines up with the title's middle")
    assert [s.kind for s in u.steps] == ["center"]
    assert u.steps[0].intent.params["axis"] == "y" and u.steps[0].refs == ["title"]


def test_the_frame_is_the_panel_they_sit_in() -> None:
    u = _understood("Thursday evening and Room 2620 sit a few px off - centre them in the frame")
    assert u.steps[0].kind == "center" and u.steps[0].refs == ["panel"]


def test_two_moves_after_a_colon_are_two_edits() -> None:
    u = _understood("more room between the title and the subtitle: title up 3px, subtitle down 3px")
    assert [(s.kind, s.patients) for s in u.steps] == [("nudge", ["title"]), ("nudge", ["subtitle"])]


def test_units_are_the_documents_own() -> None:
    u = _understood("lift the web address about 12 units")
    assert u.steps[0].intent.params["moves"] == [("up", Length(12.0, "units"))]


def test_a_clause_that_opens_with_its_subject_makes_it_it() -> None:
    u = _understood("Spring Meetup starts almost on the trim. move it right 10px")
    assert [(s.kind, s.patients) for s in u.steps] == [("nudge", ["title"])]


PICTURES = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <text id="headline" x="40" y="80" font-size="35" font-family="sans-serif">Open Source Geospatial</text>
  <text id="tagline" x="40" y="130" font-size="18" font-family="sans-serif">Success with the community</text>
  <image id="left-pic" x="60" y="600" width="100" height="100"/>
  <image id="right-pic" x="400" y="590" width="120" height="120"/>
</svg>"""


def _on_pictures(request: str):
    u = understand(request, import_svg_text(PICTURES, source="p.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return u


def test_centred_across_the_width_is_no_stretch() -> None:
    u = _on_pictures("centre the tagline across the width of the page, same height as now")
    assert [(s.kind, s.intent.params.get("axis")) for s in u.steps] == [("center", "x")]


def test_a_width_by_a_height_is_a_size_not_a_factor() -> None:
    u = _on_pictures("the right picture is a bit small. make it 90 x 90, keeping its centre")
    params = u.steps[0].intent.params
    assert u.steps[0].kind == "resize" and params["factor"] is None
    assert params["size"] == ("width", Length(90.0, "px")) and params["anchor"] == "center"


def test_a_distance_down_from_the_top_and_from_a_corner() -> None:
    u = _on_pictures("put the top of the tagline 60mm down from the top edge")
    assert u.steps[0].kind == "edge" and u.steps[0].intent.params["edge"] == "top"
    u = _on_pictures("the headline is jammed in the corner. give it 15px from both the top and the left edge")
    assert [s.kind for s in u.steps] == ["edge"] and u.steps[0].intent.params["edge"] == "top_left"


@pytest.mark.parametrize("request_text,kinds", [
    ("headline's shouting. 35 -> 30pt please, keep it flush left", ["style"]),
    ("nudge the headline and the tagline 10px right, both together", ["nudge"]),
    ("centre the headline and the tagline horizontally, dont move them up or down", ["center"]),
    ("the headline and the tagline both lean to the right, neither is actually centred on the A4. centre them both "
     "horizontally", ["center"]),
    ("the 2 pictures at the bottom dont match, left one is smaller. make the left picture the same size as the right "
     "one", ["match"]),
    ("swap the two pictures round pls, left one goes right and right one goes left", ["swap"]),
])
def test_what_only_describes_or_holds_adds_no_edit(request_text: str, kinds: list[str]) -> None:
    assert [s.kind for s in _on_pictures(request_text).steps] == kinds


def test_the_left_one_of_those_named_before() -> None:
    u = _on_pictures("the 2 pictures at the bottom dont match, left one is smaller. make it as big as the right one")
    assert u.steps[-1].patients == ["left-pic"] and u.steps[-1].refs == ["right-pic"]


def test_line_an_edge_of_one_up_with_an_edge_of_another() -> None:
    u = _on_pictures("line the right edge of the left picture up with the right edge of the tagline")
    step = u.steps[0]
    assert (step.kind, step.patients, step.refs, step.intent.params["edge"]) == (
        "align", ["left-pic"], ["tagline"], "right")
    u = _on_pictures("line the tops of the left picture and the right picture up")
    assert (u.steps[0].kind, u.steps[0].intent.params["edge"]) == ("align", "top")


def test_a_gap_said_with_a_bare_number_between_two_sides() -> None:
    u = _on_pictures("I want 25 between the bottom of the headline and the tagline")
    step = u.steps[0]
    assert step.kind == "gap" and step.patients == ["headline", "tagline"]
    assert step.intent.params["length"] == Length(25.0, "px")


@pytest.mark.parametrize("request_text,anchor", [
    ("make the right picture bigger, say 20%, stays centred in the card", "center"),
    ("the right picture: 20% smaller, centred where it is now", "center"),
    ("the right picture is heavy. 20% smaller, keep its right edge and its vertical centre", "right"),
    ("the right picture 20% smaller, keep its vertical centre", "center"),
])
def test_still_more_ways_to_say_what_a_resize_holds(request_text: str, anchor: str) -> None:
    u = _on_pictures(request_text)
    assert [s.kind for s in u.steps] == ["resize"]
    assert u.steps[0].intent.params["anchor"] == anchor and u.steps[0].intent.params["percent"] == (20.0, False)


def test_a_gap_said_to_be_double_is_no_resize() -> None:
    u = understand("the gap under the tagline is double the others",
                   import_svg_text(PICTURES, source="p.svg").layout)
    assert not any(s.kind == "resize" for s in u.steps)


def test_a_place_said_higher_than_another_alone_asks_them_level() -> None:
    u = _on_pictures("the left picture sits ~10px lower than the right picture")
    assert [(s.kind, s.intent.params.get("edge"), s.refs) for s in u.steps] == [("align", "top", ["right-pic"])]
    u = _on_pictures("the left picture sits lower than the right one. bring it onto the same line as the right picture")
    assert [(s.kind, s.refs) for s in u.steps] == [("align", ["right-pic"])]


def test_a_problem_of_place_then_another_edit_of_it_is_that_edit() -> None:
    u = _on_pictures("the big bold headline crashes into the right edge. scale it down 8%, top left corner fixed")
    assert [(s.kind, s.intent.params.get("anchor")) for s in u.steps] == [("resize", "top_left")]



GEONODE = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo" / "geonode_a4.svg"


@pytest.mark.skipif(not GEONODE.is_file(), reason="../shared (its corpus) is not here")
def test_a_gap_before_a_heading_moves_its_section() -> None:
    doc = import_svg(GEONODE)
    heading = next(e for e in doc.layout.elements if e.kind == "text" and e.text == "Implemented Standards")
    assert heading.group is not None and heading.group.startswith("la-section")  # the heading of its section
    u = understand("the gap before Implemented Standards is too big, close it to 10px", doc.layout)
    actions = plan_step(u.steps[-1], doc.layout)[0]
    assert actions[0]["type"] == "set_gap" and actions[0]["id"] == heading.group


def test_a_second_problem_of_the_same_element_is_said_of_the_first() -> None:
    u = _on_pictures("the right picture is too big, it touches the edge. shrink it by 10%")
    assert [(s.kind, s.intent.params.get("percent")) for s in u.steps] == [("resize", (10.0, False))]
