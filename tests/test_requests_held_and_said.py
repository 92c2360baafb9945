"""Phrasings of held sides, sizes said as a change, names said after a pronoun, and bounds that already hold.

"…, same centre", "bottom-left corner stays put", "keep it flush right" hold a point of the box still while it
grows or shrinks; "could lose about 15%", "15% down" after a size problem, "knock it back 10%", "from 18 down
to 15" and "up to 16" are sizes; "swap them round: 'A' under 'B'" names after the pronoun what it stands for;
"keep it above X", when it is, is a bound and not a move.
"""

from __future__ import annotations

import pytest

from assistant.importer import import_svg_text
from assistant.instructions.requests import understand
from assistant.instructions.requests.language import language_of

LAYOUT = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <rect id="rect1" x="20" y="20" width="560" height="120" fill="#1f4fd1"/>
  <text id="text1" x="300" y="90" font-size="40" text-anchor="middle" font-family="sans-serif">Spring Meetup</text>
  <text id="text2" x="40" y="200" font-size="18" font-family="sans-serif">Thursday 4pm in room 2620</text>
  <text id="text3" x="40" y="260" font-size="14" font-family="sans-serif">Open Source Club</text>
  <text id="text4" x="40" y="300" font-size="24" font-family="sans-serif">Winter Bash</text>
  <text id="text5" x="40" y="400" font-size="12" font-family="sans-serif">Po skončení platnosti prosím odstraňte
    konfiguraci účtu ze svého zařízení.</text>
  <text id="text6" x="40" y="440" font-size="12" font-family="sans-serif">Remove the account from your device
    when it expires.</text>
  <image id="image1" x="380" y="560" width="160" height="160"/>
  <text id="text7" x="40" y="740" font-size="12" font-family="sans-serif">www.example.org</text>
  <text id="text8" x="300" y="780" font-size="12" font-family="sans-serif">4pm - 6pm</text>
</svg>"""


def _steps(request: str):
    u = understand(request, import_svg_text(LAYOUT, source="x.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return u.steps


@pytest.mark.parametrize("request_text,anchor", [
    ("the picture could be 20% bigger, same centre", "center"),
    ("picture 25% bigger pls, bottom-left corner stays put", "bottom_left"),
    ("make the picture 10% smaller and keep its top right corner where it is", "top_right"),
    ("the picture 30% bigger, right edge stays", "right"),
    ("shrink the picture by a fifth but keep it centred where it is", "center"),
    ("the picture should be 15% smaller, keep it flush right", "right"),
])
def test_the_point_a_resize_holds(request_text: str, anchor: str) -> None:
    steps = _steps(request_text)
    assert [s.kind for s in steps] == ["resize"], [s.text for s in steps]
    assert steps[0].intent.params["anchor"] == anchor
    assert steps[0].patients == ["image1"]


@pytest.mark.parametrize("request_text,grow,percent", [
    ("the picture could lose about 15%", False, 15.0),
    ("the picture is a tad oversized. 15% down", False, 15.0),
    ("the web address is unreadable from the back of the room. up ~20%", True, 20.0),
    ("the picture is too loud, knock it back 10%", False, 10.0),
])
def test_a_share_said_as_a_change_of_size(request_text: str, grow: bool, percent: float) -> None:
    steps = _steps(request_text)
    assert [s.kind for s in steps] == ["resize"], [s.text for s in steps]
    assert steps[0].intent.params["grow"] is grow and steps[0].intent.params["shrink"] is not grow
    assert steps[0].intent.params["percent"] == (percent, False)


@pytest.mark.parametrize("request_text,size", [
    ("'Thursday 4pm' up to 20", {"abs": 20.0}),
    ("'Thursday 4pm' is too small next to the title, take it to 22", {"abs": 22.0}),
    ("take the date line from 18 down to 15", {"factor": 15 / 18}),
])
def test_a_size_of_type_said_without_a_unit(request_text: str, size: dict) -> None:
    steps = _steps(request_text)
    assert [s.kind for s in steps] == ["style"] and steps[0].patients == ["text2"], [s.text for s in steps]
    said = steps[0].intent.params["font_size"]
    if "abs" in size:
        assert said["abs"].value == size["abs"]
    else:
        assert abs(said["factor"] - size["factor"]) < 1e-9


def test_a_size_of_type_with_a_held_side_is_one_resize_about_it() -> None:
    doc = import_svg_text(LAYOUT, source="x.svg")
    from assistant.app.requests import RequestRunner
    from assistant.app.session import Session

    outcome = RequestRunner(Session(doc)).handle("take the date line from 18 down to 15, left edge stays")
    assert outcome.actions == [{"type": "resize", "id": "text2", "scale": round(15 / 18, 4), "anchor": "left"}]


def test_a_pronoun_said_before_the_names_it_stands_for() -> None:
    steps = _steps('swap them round: "Open Source Club" underneath "Winter Bash"')
    assert [s.kind for s in steps] == ["swap"]  # the names say which; where each ends is the swap itself
    assert set(steps[0].patients) == {"text3", "text4"}


def test_a_reason_then_the_move_that_makes_it() -> None:
    steps = _steps("more room between the title and 'Thursday 4pm' please: move that line down 5mm")
    assert [s.kind for s in steps] == ["nudge"], [s.text for s in steps]


def test_a_bound_that_holds_is_not_a_move() -> None:
    steps = _steps("take 'Open Source Club' down 10px but keep it above Winter Bash")
    assert [s.kind for s in steps] == ["nudge"], [s.text for s in steps]
    assert steps[0].patients == ["text3"]


def test_what_a_problem_is_about_is_it_though_the_other_is_not_found() -> None:
    steps = _steps("the title hugs the top of the purple bar, move it down 10px")
    assert [s.kind for s in steps] == ["nudge"] and steps[0].patients == ["text1"]


def test_a_demonstrative_before_an_adjective_and_a_noun_that_is_also_a_verb() -> None:
    steps = _steps("'Thursday 4pm' is too small against that huge title, make it 20% bigger")
    assert steps[-1].patients == ["text2"]
    steps = _steps("the date line is as loud as the title, make it 10% smaller")
    assert steps[-1].patients == ["text2"]


def test_a_language_said_picks_the_text_in_it() -> None:
    steps = _steps("move the Czech note down 10px")
    assert steps[0].patients == ["text5"]
    steps = _steps("move the English note down 10px")
    assert steps[0].patients == ["text6"]


@pytest.mark.parametrize("text,language", [
    ("Po skončení platnosti prosím odstraňte konfiguraci účtu ze svého zařízení.", "czech"),
    ("Freie Software und offene Daten für alle", "german"),
    ("Un projet de la faironnerie ABC de l'université du Havre", "french"),
    ("Spotkanie dla wszystkich, wstęp wolny", "polish"),
    ("Você sabe o que é", "portuguese"),
    ("Join us for the winter bash", "english"),
    # too little to tell: a web address, labels, a name in plain letters
    ("https://cat.eduroam.org/?idp=364", None),
    ("user: pass: auth:", None),
    ("Winter Bash", None),
])
def test_language_of_a_text(text: str, language: str | None) -> None:
    assert language_of(text) == language


def test_a_time_range_is_named_by_its_words_and_a_dash_in_it_splits_nothing() -> None:
    steps = _steps("4pm - 6pm 20% bigger, same centre")
    assert [s.kind for s in steps] == ["resize"] and steps[0].patients == ["text8"]
    steps = _steps("swap www.example.org and 4pm - 6pm")
    assert [s.kind for s in steps] == ["swap"] and set(steps[0].patients) == {"text7", "text8"}


@pytest.mark.parametrize("request_text,size", [
    ("title 40 -> 32", {"factor": 32 / 40}),
    ("the title could fill the band more, go to about 48", {"abs": 48.0}),
])
def test_sizes_said_tersely(request_text: str, size: dict) -> None:
    steps = _steps(request_text)
    said = steps[-1].intent.params["font_size"]
    assert steps[-1].patients == ["text1"]
    assert said["abs"].value == size["abs"] if "abs" in size else abs(said["factor"] - size["factor"]) < 1e-9


def test_both_after_two_names_is_those_two() -> None:
    steps = _steps("Open Source Club and Winter Bash both sit a few px right, centre them on the page")
    assert set(steps[0].patients) == {"text3", "text4"}


def test_bigger_than_it_needs_to_be_and_a_square_size_with_a_corner_held() -> None:
    steps = _steps("the picture is bigger than it needs to be - 120px square, keep the top right corner where it is")
    assert [s.kind for s in steps] == ["resize"] and steps[0].patients == ["image1"]
    params = steps[0].intent.params
    assert params["size"][0] == "width" and params["size"][1].value == 120 and params["anchor"] == "top_right"


def test_names_that_run_into_something_are_what_them_means() -> None:
    steps = _steps("'Open Source Club' and 'Winter Bash' run right into the purple tab. move them down 10px")
    assert [s.kind for s in steps] == ["nudge"] and set(steps[0].patients) == {"text3", "text4"}
