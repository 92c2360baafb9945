"""The request understander: words, numbers and units, references, and the edit each phrasing becomes.

Phrasings here are written for these tests (not the development or held-out sets): synonyms, terse and casual
forms, typos, British spelling, numbers in words, quoted text, several clauses.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from assistant.app.requests import RequestRunner
from assistant.app.session import Session
from assistant.importer import import_svg
from assistant.instructions.requests import understand
from assistant.instructions.requests.amounts import Length, first_length, to_world
from assistant.instructions.requests.turns import turn_command
from assistant.instructions.requests.words import fold, squash, tokenise

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(name: str, request: str):
    doc = import_svg(EXAMPLES / f"{name}.svg")
    before = {e.id: e.box for e in doc.layout.elements}
    runner = RequestRunner(Session(doc))
    outcome = runner.handle(request)
    after = {e.id: e.box for e in doc.layout.elements}
    return outcome, before, after, doc.layout


# -- words --------------------------------------------------------------------------------
def test_tokens_keep_quotes_and_fold_spelling_numbers_and_contractions() -> None:
    toks = tokenise("Centre the ‘Sign up online’ button, it's twenty five px off — don't move the logo's box")
    words = [t.text for t in toks]
    assert words[:2] == ["center", "the"] and toks[2].kind == "quote" and toks[2].raw == "Sign up online"
    assert "25" in words and "it" in words and "is" in words and "not" in words and "logo" in words
    assert [t.text for t in tokenise("left-align the top-right one")] == ["left", "align", "the", "top", "right",
                                                                          "one"]
    assert [t.text for t in tokenise("move 40px, x2 and 3x")][1:4] == ["40", "px", ","]
    # how a text is set says which one, and is no amount; "on one line" still asks for a row; "e.g." ends nothing
    assert [t.text for t in tokenise("the white two-line title")] == ["the", "white", "title"]
    assert [t.text for t in tokenise("the date and time on one line")][-2:] == ["1", "line"]
    assert [t.text for t in tokenise("as e.g. the title")] == ["as", "the", "title"]


@pytest.mark.parametrize("typed,meant", [("titel", "title"), ("hedline", "headline"), ("biger", "bigger"),
                                         ("alighn", "align"), ("tall", "tall"), ("close", "close"),
                                         ("bullets", "bullets"), ("compass", "compass"), ("letters", "letters"),
                                         ("backgorund", "background")])
def test_typos_are_corrected_against_the_vocabulary_but_real_words_stay(typed: str, meant: str) -> None:
    # a seven-letter word two letters from a known one is another word ("compass" is not "compress"), and a
    # typo keeps its first letter ("letters" is not "better")
    known = {"title", "headline", "bigger", "align", "all", "closer", "bullet", "tall", "close", "compress",
             "better", "background"}
    assert tokenise(typed, known)[0].text == meant


def test_the_one_that_is_a_pronoun_is_not_a_number() -> None:
    assert [t.kind for t in tokenise("the left one")] == ["word", "word", "word"]
    assert tokenise("point one")[1].kind == "number" and tokenise("one inch")[0].value == 1.0
    assert tokenise("the size of the colour one above it")[5].kind == "word"  # "the colour one": a pronoun


def test_a_word_ending_in_us_or_is_is_not_a_plural() -> None:
    from assistant.instructions.requests.refs import _singular

    assert _singular("campus") == ("campus", False) and _singular("analysis") == ("analysis", False)
    assert _singular("logos") == ("logo", True)


@pytest.mark.parametrize("skel,kind,dimension", [
    ("E0 should be exactly the size of E1 above E2", "match", "both"),
    ("make E0 the width of E1", "match", "width"),
    ("double the size of E0", "resize", None),  # names no other: it grows
    ("make E0 about 80 percent the size of E1", "match", "both"),
])
def test_the_size_of_another_is_a_match(skel: str, kind: str, dimension: str | None) -> None:
    from assistant.instructions.requests.intents import detect

    found = detect(skel)
    assert found is not None and found.kind == kind and found.params.get("dimension") == dimension, found


@pytest.mark.parametrize("text,world", [("12 px", 12.0), ("9 pt", 12.0), ("5 mm", 5 * 96 / 25.4),
                                        ("1 cm", 96 / 2.54), ("0.5 in", 48.0), ("10 %", 128.0)])
def test_lengths_convert_to_world_units(text: str, world: float) -> None:
    layout = import_svg(EXAMPLES / "slide.svg").layout
    length = first_length(text)
    assert isinstance(length, Length) and to_world(length, layout.canvas, "x") == pytest.approx(world)


@pytest.mark.parametrize("name", ["flyer.svg", "editorial_cover.svg"])
def test_points_on_a_page_drawn_in_points_are_units(name: str) -> None:
    # an A5 flyer 420 × 595 and a US letter cover 612 × 792: paper sizes in points, whose type reads "9" for 9pt
    layout = import_svg(EXAMPLES / name).layout
    assert to_world(Length(9.0, "pt"), layout.canvas, "x") == pytest.approx(9.0)
    assert to_world(Length(12.0, "px"), layout.canvas, "x") == pytest.approx(12.0)


def test_fold_and_squash_compare_names_loosely() -> None:
    assert squash("Sign-Up") == squash("sign up") == "signup"
    assert fold("Jménoslav\u00a0Příjmení") == "jmenoslav prijmeni"


# -- references ----------------------------------------------------------------------------
@pytest.mark.parametrize("name,request_text,ids", [
    ("flyer", "nudge the sign up button left", ["signup"]),                      # id spelled apart
    ("flyer", "nudge the 'Sign up online' button left", ["signup"]),             # quoted label → its button
    ("flyer", "nudge 'Sign up online' left", ["signup"]),
    ("flyer", "nudge the schedule left", ["when"]),                              # what the text says
    ("slide", "nudge the second bullet left", ["point-2"]),                      # ordinal among a role
    ("slide", "nudge the last bullet point left", ["point-3"]),
    ("slide", "nudge point two left", ["point-2"]),                              # number in words in a name
    ("editorial_cover", "nudge cover line 3 left", ["coverline-3"]),
    ("editorial_cover", "nudge the first coverline left", ["coverline-1"]),
    ("editorial_cover", "nudge the bottom cover line left", ["coverline-4"]),    # place adjective
    ("social_card", "nudge the product shot left", ["product"]),
    ("social_card", "nudge the logo up", ["brand"]),                              # role word
    ("slide", "nudge the graph left", ["chart"]),                                 # synonym
    ("poster", "nudge the heading left", ["title"]),
])
def test_references_resolve_to_the_named_element(name: str, request_text: str, ids: list[str]) -> None:
    outcome, *_ = _run(name, request_text)
    assert outcome.edited, outcome.message
    assert outcome.actions[0]["ids"] == ids


def test_an_ambiguous_reference_is_a_question_not_a_guess() -> None:
    layout = import_svg(EXAMPLES / "flyer.svg").layout
    u = understand("make the text bigger", layout)
    assert u.status == "question" and set(u.candidates) >= {"about", "when"} and "which text" in u.message


def test_an_overlap_narrows_the_text_to_the_one_overlapped() -> None:
    outcome, before, after, _ = _run("flyer", "the picture is sitting on the text, sort it out")
    assert outcome.edited and outcome.actions[0]["ids"] == ["about"]
    assert after["about"].y >= after["garden-photo"].y2 - 1


@pytest.mark.parametrize("request_text", ["move the QR code up", "make the price tag red"])
def test_an_element_the_layout_lacks_is_said_so(request_text: str) -> None:
    outcome, before, after, _ = _run("poster", request_text)
    assert outcome.kind == "missing" and "no 'the" in outcome.message and before == after


@pytest.mark.parametrize("request_text", ["", "   ", "asdf qwerty zxcv", "mach das Logo größer bitte",
                                          "do the thing with the stuff", "x" * 10000, "make it pop"])
def test_nonsense_empty_long_and_foreign_requests_change_nothing(request_text: str) -> None:
    outcome, before, after, _ = _run("poster", request_text)
    assert not outcome.edited and outcome.message and before == after


# -- intents and their edits ---------------------------------------------------------------
def _dx(b, a, k):
    return a[k].x - b[k].x


def _dy(b, a, k):
    return a[k].y - b[k].y


CASES = [
    # moves: regions, corners, edges, thirds, centre
    ("poster", "stick the logo in the upper left corner", lambda b, a, c: a["logo"].cx < c.width / 3
     and a["logo"].cy < c.height / 3),
    ("poster", "logo → bottom left", lambda b, a, c: a["logo"].cx < c.width / 3 and a["logo"].cy > 2 * c.height / 3),
    ("poster", "shove the details to the right edge", lambda b, a, c: abs(a["details"].x2 - c.safe_box.x2) < 1),
    ("poster", "drop the title into the lower third", lambda b, a, c: a["title"].cy > 2 * c.height / 3),
    ("slide", "put the chart dead centre", lambda b, a, c: abs(a["chart"].cx - 640) < 1 and abs(a["chart"].cy - 360)
     < 1),
    ("slide", "centre the title on the page", lambda b, a, c: abs(a["slide-title"].cx - 640) < 1),
    # nudges with units and degree words
    ("poster", "shift the title a smidge to the right", lambda b, a, c: 0 < _dx(b, a, "title") < 20),
    ("poster", "push the details down by a lot", lambda b, a, c: _dy(b, a, "details") > 50),
    ("poster", "raise the logo by 2 cm", lambda b, a, c: abs(_dy(b, a, "logo") + 2 * 96 / 2.54) < 0.01),
    ("poster", "move the subtitle left 5% and up ten pixels", lambda b, a, c: abs(_dx(b, a, "subtitle") + 30) < 0.01
     and abs(_dy(b, a, "subtitle") + 10) < 0.01),
    # resizes
    ("poster", "photo: half the size", lambda b, a, c: abs(a["photo"].width / b["photo"].width - 0.5) < 0.01),
    ("poster", "blow the photo up by 10 percent", lambda b, a, c: abs(a["photo"].width / b["photo"].width - 1.1)
     < 0.01),
    ("poster", "the logo is too small", lambda b, a, c: a["logo"].area > b["logo"].area * 1.05),
    ("poster", "photo to 90%", lambda b, a, c: abs(a["photo"].width / b["photo"].width - 0.9) < 0.01),
    ("poster", "scale the photo down a touch", lambda b, a, c: 0.85 < a["photo"].width / b["photo"].width < 0.99),
    ("poster", "make the photo 400 px wide", lambda b, a, c: abs(a["photo"].width - 400) < 0.01),
    ("poster", "make the photo fill the width", lambda b, a, c: abs(a["photo"].width - c.safe_box.width) < 0.5),
    ("flyer", "make the button as tall as the headline", lambda b, a, c: abs(a["signup"].height
                                                                              - a["headline"].height) < 0.5),
    ("flyer", "give the footer the same width as the photo", lambda b, a, c: abs(a["footer"].width
                                                                                  - a["garden-photo"].width) < 0.5),
    # alignment
    ("slide", "line the source up with the bullets", lambda b, a, c: abs(a["source"].x - a["point-1"].x) < 0.5
     or abs(a["source"].x - a["point-2"].x) < 0.5),
    ("slide", "right align the title with the chart", lambda b, a, c: abs(a["slide-title"].x2 - a["chart"].x2)
     < 0.5),
    ("slide", "make point 2 flush with point 1", lambda b, a, c: abs(a["point-2"].x - a["point-1"].x) < 0.5),
    ("social_card", "bottom align the logo with the button", lambda b, a, c: abs(a["brand"].y2 - a["shop"].y2)
     < 0.5),
    # spacing
    ("slide", "even up the spacing of the points", lambda b, a, c: abs((a["point-2"].y - a["point-1"].y)
                                                                       - (a["point-3"].y - a["point-2"].y)) < 1),
    ("slide", "bring point 3 up closer to point 2", lambda b, a, c: a["point-3"].y - a["point-2"].y2
     < b["point-3"].y - b["point-2"].y2 - 5),
    ("poster", "put 20px between the photo and the details", lambda b, a, c: abs(a["details"].y - a["photo"].y2
                                                                                 - 20) < 0.5),
    ("poster", "more breathing room between the title and the subtitle",
     lambda b, a, c: a["subtitle"].y - a["title"].y2 > b["subtitle"].y - b["title"].y2 + 3),
    # order, overlap, page
    ("flyer", "the about text and the dates should switch places", lambda b, a, c: a["when"].y < a["about"].y),
    ("social_card", "tagline should go below the headline", lambda b, a, c: a["tagline"].y >= a["headline"].y2 - 1),
    ("social_card", "get the headline off the product image", lambda b, a, c: a["headline"].y2 <= a["product"].y + 1
     or a["headline"].y >= a["product"].y2 - 1),
    ("social_card", "the logo is hanging off the page, pull it in", lambda b, a, c: a["brand"].x2 <= c.width),
    # several clauses, pronouns, terse
    ("poster", "make the title bigger, then move it up a bit", lambda b, a, c: a["title"].area > b["title"].area
     and _dy(b, a, "title") < 0),
    ("poster", "logo top right and title centred", lambda b, a, c: a["logo"].cx > 2 * c.width / 3
     and abs(a["title"].cx - 300) < 1),
    ("poster", "enlarge the titel slightly and make it bolder", lambda b, a, c: a["title"].area > b["title"].area),
    # amounts in words, lists of numbered elements, a problem and then its fix, a place that says which one
    ("poster", "drop the logo by half an inch", lambda b, a, c: abs(_dy(b, a, "logo") - 48) < 0.01),
    ("poster", "the photo is too large - reduce it by a third",
     lambda b, a, c: abs(a["photo"].width / b["photo"].width - 2 / 3) < 0.01),
    ("editorial_cover", "shift cover lines 3 and 4 up 6px", lambda b, a, c: _dy(b, a, "coverline-3") == -6
     and _dy(b, a, "coverline-4") == -6 and _dy(b, a, "coverline-2") == 0),
    ("editorial_cover", "line coverline 3, 4 and 2 up with coverline 1 on the left",
     lambda b, a, c: all(abs(a[k].x - a["coverline-1"].x) < 0.5
                         for k in ("coverline-2", "coverline-3", "coverline-4"))),
    ("flyer", "make the caption at the bottom smaller", lambda b, a, c: a["footer"].area < b["footer"].area),
    # a relation or a place that says which element, and plural descriptions
    ("flyer", "make the text right under the photo a bit smaller", lambda b, a, c: a["about"].area < b["about"].area
     and a["when"] == b["when"]),
    ("poster", "move the heading on the right up 10px", lambda b, a, c: _dy(b, a, "subtitle") == -10
     and _dy(b, a, "title") == 0),
    ("flyer", "put the footer above the button", lambda b, a, c: a["footer"].y2 <= a["signup"].y
     and a["signup"] == b["signup"]),
    # a stack's spacing, idioms, terse sizes, units that look like names
    ("slide", "the bullets are too squashed together", lambda b, a, c: a["point-2"].y - a["point-1"].y2
     > b["point-2"].y - b["point-1"].y2),
    ("slide", "space the bullets 30px apart", lambda b, a, c: abs(a["point-2"].y - a["point-1"].y2 - 30) < 0.01
     and abs(a["point-3"].y - a["point-2"].y2 - 30) < 0.01),
    ("slide", "twenty px between point 1 and point 2", lambda b, a, c: abs(a["point-2"].y - a["point-1"].y2 - 20)
     < 0.01),
    ("slide", "the third point is out of line", lambda b, a, c: a["point-3"].x != b["point-3"].x),
    ("slide", "title size 40", lambda b, a, c: a["slide-title"].height < b["slide-title"].height),
    ("slide", "nudge point 3 up 3 points", lambda b, a, c: abs(_dy(b, a, "point-3") + 4) < 0.01
     and a["point-1"] == b["point-1"]),
    ("slide", "could we get the chart a touch higher", lambda b, a, c: _dy(b, a, "chart") < 0),
    ("flyer", "make the button a bit wider", lambda b, a, c: a["signup"].width > b["signup"].width
     and a["signup-label"].width == pytest.approx(b["signup-label"].width)
     and a["signup-label"].cx == pytest.approx(a["signup-bg"].cx)),
]


@pytest.mark.parametrize("name,request_text,check", CASES, ids=[c[1] for c in CASES])
def test_each_phrasing_becomes_the_edit_asked_for(name: str, request_text: str, check) -> None:
    outcome, before, after, layout = _run(name, request_text)
    assert outcome.edited, f"{outcome.kind}: {outcome.message}"
    assert check(before, after, layout.canvas), outcome.actions


@pytest.mark.parametrize("request_text,action", [
    ("make the title bold", {"type": "set_text_style", "font_weight": 700}),
    ("title in dark grey please", {"type": "set_text_style", "fill": "#404040"}),
    ("colour the subtitle #336699", {"type": "set_text_style", "fill": "#336699"}),
    ("set the subtitle font to Georgia", {"type": "set_text_style", "font_family": "Georgia"}),
    ("make the details text 24px", {"type": "set_text_style", "font_size": 24.0}),
    ("bring the logo to the front", {"type": "reorder", "to": "front"}),
    ("send the photo backwards one level", {"type": "reorder", "to": "backward"}),
    ("put the sun behind the photo", {"type": "reorder", "to": "back"}),
    ("lock the logo", {"type": "set_locked", "locked": True}),
    ("don't let anyone move the photo, keep it where it is", {"type": "set_locked", "locked": True}),
    ("unlock the logo", {"type": "set_locked", "locked": False}),
    ("swap the title and the subtitle", {"type": "swap"}),
    ("make all the headings dark red", {"type": "set_text_style", "ids": ["title"], "fill": "#8b0000"}),
])
def test_style_order_lock_and_swap_requests(request_text: str, action: dict) -> None:
    outcome, *_ = _run("poster", request_text)
    assert outcome.edited, outcome.message
    first = outcome.actions[0]
    assert {k: first.get(k) for k in action} == action


def test_a_request_already_met_changes_nothing() -> None:
    outcome, before, after, _ = _run("flyer", "put the dates under the photo")
    assert outcome.kind == "nothing" and before == after


@pytest.mark.parametrize("text,kind,factor,reference", [
    ("undo", "undo", 1.0, None), ("undo that please", "undo", 1.0, None), ("take that back", "undo", 1.0, None),
    ("again", "repeat", 1.0, None), ("a bit more", "repeat", 0.5, None), ("more", "repeat", 1.0, None),
    ("a lot more", "repeat", 2.0, None), ("a bit less", "repeat", -0.5, None), ("too much", "repeat", -0.5, None),
    ("no, the other one", "other", 1.0, None), ("wrong one", "other", 1.0, None),
    ("no, I meant the subtitle", "other", 1.0, "the subtitle"), ("not the title, the subtitle", "other", 1.0,
                                                                   "the subtitle"),
    ("tidy it up", "improve", 1.0, None), ("fix the layout", "improve", 1.0, None),
    ("can you make the poster look more professional?", "improve", 1.0, None),
    ("this looks messy, can you fix it", "improve", 1.0, None), ("clean up the page a bit", "improve", 1.0, None),
])
def test_turn_commands(text: str, kind: str, factor: float, reference: str | None) -> None:
    cmd = turn_command(text)
    assert cmd is not None and cmd.kind == kind and cmd.factor == factor and cmd.reference == reference


def test_requests_that_are_not_turn_commands() -> None:
    assert turn_command("move the logo more to the left") is None
    assert turn_command("make the title bigger") is None
    # about one element, or about the problem the conversation just named: not the whole layout
    for text in ("fix the title", "improve the logo", "fix that", "sort it out", "make it bigger"):
        assert turn_command(text) is None, text


def test_a_quoted_heading_is_the_heading_and_its_section_is_named_as_such() -> None:
    layout = import_svg(Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo" / "pgRouting_a4.svg").layout
    assert understand('make the "Overview" heading bold', layout).targets == ["text4557"]
    assert understand('move the "Overview" section down a bit', layout).targets == ["la-section-1"]


def test_word_soup_never_raises_and_every_edit_undoes() -> None:
    vocab = ["move", "make", "the", "logo", "title", "photo", "button", "bigger", "left", "top", "right", "align",
             "with", "and", "it", "them", "so", "then", ",", "swap", "10px", "20%", "twice", "a", "bit", "half",
             "'Summer Jazz Night'", "under", "over", "centre", "evenly", "bold", "red", "lock", "one", "3", "the other"]
    rng = random.Random(7)
    doc = import_svg(EXAMPLES / "poster.svg")
    runner = RequestRunner(Session(doc))
    start = doc.layout.model_dump()
    for _ in range(300):
        outcome = runner.handle(" ".join(rng.choice(vocab) for _ in range(rng.randint(1, 10))))
        assert outcome.kind in ("edited", "nothing", "question", "missing", "not_understood", "failed", "command")
        if outcome.edited:
            runner.session.undo()
        assert doc.layout.model_dump() == start


def test_what_a_move_compares_with_does_not_move_and_a_size_beside_something_is_no_place() -> None:
    from assistant.instructions.requests.intents import detect

    higher = detect("E0 sits higher than E1 so bring it down")
    assert higher is not None and higher.kind == "nudge" and higher.patients == [0]
    # "looks too big next to its paragraph" judges a size; it does not ask to put it next to the paragraph
    assert detect("E0 looks too big next to E1").kind == "resize"
    assert detect("put E0 next to E1").kind == "place"
    assert detect("E0 next to E1 is tiny") is None  # which one, and what is wrong: a later clause says what to do


@pytest.mark.parametrize("skel,params", [
    ("drop E0 from 17.5 to 15", {"font_size": {"factor": 15 / 17.5}}),
    ("take E0 down from 64 px to 56 px", {"font_size": {"factor": 56 / 64}}),
    ("E0 is a bit heavy", {"font_weight": 400}),
])
def test_sizes_said_from_one_to_another_and_a_heavy_text(skel: str, params: dict) -> None:
    from assistant.instructions.requests.style import detect_style

    found = detect_style(skel)
    assert found is not None and found.params == params, found


def test_up_by_a_share_in_size_is_a_resize_not_a_move() -> None:
    from assistant.instructions.requests.intents import detect

    found = detect("E0 up 10 % in size")
    assert found is not None and found.kind == "resize" and found.params["grow"], found


@pytest.mark.parametrize("text,cls", [("Jménoslav Příjmenodlouhý", "name"), ("Du 8 au 10 octobre", "date"),
                                      ("Quinta-feira, 27 de março", "date"), ("blug.linux.no", "url")])
def test_what_a_text_says_in_the_languages_of_the_corpus(text: str, cls: str) -> None:
    from assistant.instructions.requests.index import content_classes

    assert content_classes(text).get(cls, 0.0) >= 0.5, content_classes(text)


@pytest.mark.parametrize("typed,words", [("the date/time block", ["the", "date", "time", "block"]),
                                         ("the yellow date bit at the top", ["the", "yellow", "date", "at", "the",
                                                                             "top"]),
                                         ("see cat.eduroam.org/x", ["see", "cat.eduroam.org/x"])])
def test_slashed_words_and_a_bit_after_a_noun(typed: str, words: list[str]) -> None:
    assert [t.text for t in tokenise(typed)] == words


def test_a_footnote_size_said_instead_and_those_two() -> None:
    from assistant.instructions.requests.index import content_classes
    from assistant.instructions.requests.style import detect_style

    assert content_classes("*) a human being is currently required")["footnote"] == 1.0
    assert "footnote" not in content_classes("*)")  # a marker alone notes nothing
    assert detect_style("56 px instead of 64").params == {"font_size": {"factor": 56 / 64}}
    assert [t.text for t in tokenise("swap those two boxes")] == ["swap", "them"]
