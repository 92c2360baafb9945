"""Requests about paint that is not a text's style: the colour of a shape, a button or a logo; the thickness and
colour of a line or an outline; opacity; "darker" and "lighter".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from assistant.svg.css import StyleResolver
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: A page with a filled bar under a heading, a logo of two shapes and a caption.
PAGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 400" width="600" height="400">
  <rect id="ground" x="0" y="0" width="600" height="400" fill="#ffffff"/>
  <text id="heading" x="40" y="80" font-size="40" font-family="DejaVu Sans" font-weight="700"
        fill="#202020">Harvest Market</text>
  <rect id="bar" x="40" y="100" width="400" height="8" fill="#2a6f3a"/>
  <g id="logo" data-role="logo">
    <circle id="sun" cx="520" cy="320" r="30" fill="#e0a020"/>
    <rect id="field" x="480" y="340" width="80" height="20" fill="#2a6f3a"/>
  </g>
  <text id="caption" x="40" y="360" font-size="16" font-family="DejaVu Sans" fill="#303030">Every Sunday</text>
</svg>"""


def _chat(tmp_path: Path, doc=None) -> ChatAssistant:
    return ChatAssistant(doc or import_svg_text(PAGE, source="market.svg"), model=None, out_dir=tmp_path,
                         preview=False)


def _prop(chat: ChatAssistant, xml_id: str, prop: str) -> str | None:
    return StyleResolver(chat.document.root).get(chat.document.node(xml_id), prop)


def test_a_line_made_thinner_keeps_its_centre_line(tmp_path: Path) -> None:
    chat = _chat(tmp_path, import_svg(CORPUS / "real" / "businesscard_back.svg"))
    old = chat.document.layout.get("path1077").box
    reply = chat.handle("divider is too chunky, halve its thickness and keep it where it is")
    assert reply.edited, reply.text
    new = chat.document.layout.get("path1077").box
    assert new.width == pytest.approx(old.width / 2, rel=0.02) and new.cx == pytest.approx(old.cx, abs=1e-6)
    assert new.height == pytest.approx(old.height, rel=0.02)  # as long as it was: only its stroke is thinner


def test_a_line_said_to_be_a_colour_takes_it_as_its_stroke(tmp_path: Path) -> None:
    chat = _chat(tmp_path, import_svg(CORPUS / "real" / "businesscard_back.svg"))
    reply = chat.handle("make the divider line dark grey")
    assert reply.edited, reply.text
    assert _prop(chat, "path1077", "stroke") == "#404040" and _prop(chat, "path1077", "fill") == "none"


def test_a_bar_drawn_filled_gets_thinner_across_its_short_side(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the green bar under the heading is a bit heavy, make it thinner")
    assert reply.edited, reply.text
    b = chat.document.layout.get("bar").box
    assert b.width == pytest.approx(400) and b.height < 7 and b.cy == pytest.approx(104, abs=0.01)


def test_a_filled_bar_can_be_set_to_a_thickness(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("make the bar 4px thick")
    assert reply.edited, reply.text
    assert chat.document.layout.get("bar").box.height == pytest.approx(4)


def test_a_logo_takes_a_colour_in_every_part(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("make the logo black")
    assert reply.edited, reply.text
    assert _prop(chat, "sun", "fill") == _prop(chat, "field", "fill") == "#000000"
    assert _prop(chat, "heading", "fill") == "#202020"


def test_a_button_said_to_be_a_colour_is_its_backdrop_not_its_label(tmp_path: Path) -> None:
    chat = _chat(tmp_path, import_svg(EXAMPLES / "flyer.svg"))
    label = _prop(chat, "signup-label", "fill")
    reply = chat.handle("make the sign up button red")
    assert reply.edited, reply.text
    assert _prop(chat, "signup-bg", "fill") == "#ff0000" and _prop(chat, "signup-label", "fill") == label


@pytest.mark.parametrize(("request_text", "opacity"), [
    ("make the photo 50% transparent", 0.5),
    ("the photo should be 40% opacity", 0.4),
    ("photo semi-transparent please", 0.5),
])
def test_opacity_said_in_words_or_numbers(tmp_path: Path, request_text: str, opacity: float) -> None:
    chat = _chat(tmp_path, import_svg(EXAMPLES / "flyer.svg"))
    reply = chat.handle(request_text)
    assert reply.edited, reply.text
    assert float(_prop(chat, "garden-photo", "opacity")) == pytest.approx(opacity)
    assert chat.document.layout.get("garden-photo").box == import_svg(EXAMPLES / "flyer.svg").layout.get(
        "garden-photo").box


def test_an_outline_with_a_width_and_a_colour(tmp_path: Path) -> None:
    chat = _chat(tmp_path, import_svg(EXAMPLES / "flyer.svg"))
    reply = chat.handle("give the photo a 3px dark green border")
    assert reply.edited, reply.text
    assert _prop(chat, "garden-photo", "stroke") == "#006400"
    assert float(_prop(chat, "garden-photo", "stroke-width")) == pytest.approx(3)


def test_darker_and_lighter(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("make the green bar darker")
    assert reply.edited, reply.text
    dark = _prop(chat, "bar", "fill")
    assert dark != "#2a6f3a" and all(int(dark[i:i + 2], 16) <= int("2a6f3a"[i - 1:i + 1], 16) for i in (1, 3, 5))
    reply = chat.handle("the caption could be lighter")  # regular type already: a lighter colour
    assert reply.edited, reply.text
    assert _prop(chat, "caption", "fill") not in ("#303030", None)
    reply = chat.handle("make the heading lighter")  # bold type: a lighter weight, as before
    assert reply.edited, reply.text
    assert _prop(chat, "heading", "font-weight") == "400" and _prop(chat, "heading", "fill") == "#202020"


def test_thinner_text_is_still_a_lighter_weight(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("make the heading thinner")
    assert reply.edited, reply.text
    assert _prop(chat, "heading", "font-weight") == "400"


def test_a_picture_named_only_by_what_it_shows_is_not_recoloured_on_a_guess(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("can u make the snowflakes whiter")
    assert not reply.edited and "which element" in reply.text
    reply = chat.handle("make the logo black")  # a kind of element said: no guess
    assert reply.edited, reply.text


def test_a_logo_with_words_in_it_takes_the_colour_whole(tmp_path: Path) -> None:
    page = PAGE.replace('<circle id="sun"', '<text id="word" x="480" y="300" font-size="14" font-family="DejaVu Sans" '
                                           'fill="#2a6f3a">Harvest</text>\n    <circle id="sun"')
    chat = _chat(tmp_path, import_svg_text(page, source="market.svg"))
    reply = chat.handle("make the logo white")
    assert reply.edited, reply.text
    assert _prop(chat, "sun", "fill") == _prop(chat, "word", "fill") == "#ffffff"


@pytest.mark.parametrize(("request_text", "prop", "value"), [
    ("halve the divider's thickness", "stroke-width", 0.3465),
    ("set the divider opacity to 40%", "opacity", 0.4),
])
def test_thickness_and_opacity_said_as_nouns(tmp_path: Path, request_text: str, prop: str, value: float) -> None:
    chat = _chat(tmp_path, import_svg(CORPUS / "real" / "businesscard_back.svg"))
    old = chat.document.layout.get("path1077").box
    reply = chat.handle(request_text)
    assert reply.edited, reply.text
    assert float(_prop(chat, "path1077", prop)) == pytest.approx(value, rel=0.02)
    assert chat.document.layout.get("path1077").box.height == pytest.approx(old.height, rel=0.02)  # no resize


def test_a_line_said_thicker_and_a_colour_keeps_its_length(tmp_path: Path) -> None:
    chat = _chat(tmp_path, import_svg(CORPUS / "real" / "businesscard_back.svg"))
    old = chat.document.layout.get("path1077").box
    reply = chat.handle("make the divider twice as thick and dark grey")
    assert reply.edited, reply.text
    assert _prop(chat, "path1077", "stroke") == "#404040" and '"type":"resize"' not in reply.text
    assert chat.document.layout.get("path1077").box.width == pytest.approx(2 * old.width, rel=0.02)
