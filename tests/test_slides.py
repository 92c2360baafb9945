"""Slides drawn as stacked Inkscape layers are pages; a page drawn in layers is one page."""

from __future__ import annotations

from assistant.app.requests import RequestRunner
from assistant.app.session import Session
from assistant.importer import import_svg_text
from assistant.instructions.requests.scope import page_said
from assistant.metrics import evaluate

_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
         'viewBox="0 0 800 450" width="800" height="450">')


def _slide(k: int, title: str, body: str) -> str:
    return (f'<g inkscape:groupmode="layer" id="layer{k}" inkscape:label="Slide {k}">'
            f'<text id="title{k}" x="40" y="80" font-size="40" font-family="sans-serif">{title}</text>'
            f'<text id="body{k}" x="40" y="160" font-size="20" font-family="sans-serif">{body}</text></g>')


DECK = _HEAD + "".join(_slide(k, t, b) for k, (t, b) in enumerate([
    ("Community courses", "Taught by volunteers"), ("About me", "Core developer since 2012"),
    ("Why Python", "Readable and friendly"), ("Thank you", "Join the community")], start=1)) + "</svg>"

#: One poster in three layers: a background, the words, a picture. Nothing is drawn over anything else's words.
POSTER = _HEAD + (
    '<g inkscape:groupmode="layer" id="bg"><rect id="rect1" x="0" y="0" width="800" height="450" fill="#eef"/>'
    '<text id="t0" x="600" y="430" font-size="10" font-family="sans-serif">printed on recycled paper</text></g>'
    '<g inkscape:groupmode="layer" id="words">'
    '<text id="t1" x="40" y="80" font-size="40" font-family="sans-serif">Summer Jazz Night</text>'
    '<text id="t2" x="40" y="160" font-size="20" font-family="sans-serif">Friday, the park</text></g>'
    '<g inkscape:groupmode="layer" id="art"><image id="i1" x="500" y="100" width="250" height="250"/>'
    '<text id="t3" x="500" y="380" font-size="12" font-family="sans-serif">Photo: A. Person</text></g>'
    "</svg>")


def test_stacked_layers_whose_words_lie_on_each_other_are_slides() -> None:
    layout = import_svg_text(DECK, source="deck.svg").layout
    assert len(layout.canvas.page_boxes()) == 4
    assert [layout.get(f"title{k}").page for k in range(1, 5)] == [0, 1, 2, 3]
    # the titles of different slides are not piled into one unit, and they are not judged as colliding
    assert all(layout.get(f"title{k}").group is None for k in range(1, 5))
    assert evaluate(layout).composite > 0.8


def test_a_request_names_a_slide_by_number_or_by_its_words() -> None:
    doc = import_svg_text(DECK, source="deck.svg")
    before = doc.layout.get("title2").box
    outcome = RequestRunner(Session(doc)).handle("on slide 2 move the title down 20px")
    assert outcome.edited and [a.get("ids") for a in outcome.actions] == [["title2"]], outcome.actions
    assert doc.layout.get("title2").box.y - before.y == 20
    outcome = RequestRunner(Session(doc)).handle("Why Python slide: make the body text bold")
    assert outcome.edited and [a.get("ids") for a in outcome.actions] == [["body3"]], outcome.actions
    # plain words before "page" name no page, even where only one slide's text says them ("the")
    assert page_said("move the title to the top of the page", doc.layout)[0] is None
    assert page_said("on the next slide move the title down", doc.layout)[0] is None


def test_a_page_drawn_in_layers_stays_one_page() -> None:
    layout = import_svg_text(POSTER, source="poster.svg").layout
    assert len(layout.canvas.page_boxes()) == 1
    assert {e.page for e in layout.elements} == {0}
