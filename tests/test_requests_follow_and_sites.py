"""Problems said with a verb ("hangs down into", "is tight under", "is glued to"), what follows them, and web sites.

"James Shaw is glued to the email address. about 3mm gap between them please", "for Blinky hangs down into the black
strip at the bottom, lift it up a bit", "… is tight under the map screenshot - give it another 10px or so, text
follows", "big hole between Overview and Core Features, tighten it to ~25px", "swap fb.com and the website",
"arXiv preprints pokes out of the red box, scale the words down so they sit inside".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg_text

POSTER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <rect id="page" width="600" height="800" fill="#ffffff"/>
  <text id="name" x="40" y="60" font-family="DejaVu Sans" font-size="16" font-weight="bold">James Shaw</text>
  <text id="contact" x="143" y="60" font-family="DejaVu Sans" font-size="11">js102@example.net | example.org</text>
  <text id="overview" x="40" y="120" font-family="DejaVu Sans" font-size="20" font-weight="bold">Overview</text>
  <text id="features" x="40" y="260" font-family="DejaVu Sans" font-size="20" font-weight="bold">Core Features</text>
  <image id="map" x="320" y="100" width="240" height="150"/>
  <text id="roads" x="320" y="275" font-family="DejaVu Sans" font-size="18" font-weight="bold">Roads</text>
  <text id="p1" x="320" y="300" font-family="DejaVu Sans" font-size="11">
    <tspan x="320" y="300">Integral solution for the management</tspan>
    <tspan x="320" y="314">of roads and their signs.</tspan></text>
  <text id="p2" x="320" y="340" font-family="DejaVu Sans" font-size="11">
    <tspan x="320" y="340">It allows a complete inventory</tspan>
    <tspan x="320" y="354">of every road in the region.</tspan></text>
  <text id="fb" x="40" y="700" font-family="DejaVu Sans" font-size="14">fb.com/examplemasa</text>
  <text id="www" x="360" y="700" font-family="DejaVu Sans" font-size="14">www.examplemasa.pl</text>
  <g id="arxiv-box"><rect id="red-box" x="40" y="560" width="80" height="30" fill="#b31b1b"/>
    <text id="arxiv" x="46" y="580" font-family="DejaVu Sans" font-size="14" fill="#ffffff">arXiv preprints</text></g>
  <rect id="strip" x="0" y="740" width="600" height="60" fill="#000000"/>
  <text id="blinky" x="200" y="752" font-family="DejaVu Sans" font-size="30">for Blinky</text>
</svg>"""


def _do(request: str, tmp_path: Path) -> tuple[dict, dict]:
    chat = ChatAssistant(import_svg_text(POSTER, source="poster.svg"), model=None, out_dir=tmp_path, preview=False)
    before = {e.id: e.box for e in chat.document.layout}
    reply = chat.handle(request)
    assert reply.edited, reply.text
    return before, {e.id: e.box for e in chat.document.layout}


def test_glued_to_then_a_gap_between_them_is_that_gap(tmp_path: Path) -> None:
    b, a = _do("James Shaw is glued to the email address. about 3mm gap between them please", tmp_path)
    gap_mm = (a["contact"].x - a["name"].x2) * 25.4 / 96
    assert gap_mm == pytest.approx(3, abs=0.2)


def test_a_big_hole_between_two_headings_then_a_size_sets_that_gap(tmp_path: Path) -> None:
    b, a = _do("big hole between Overview and Core Features, tighten it to ~25px", tmp_path)
    assert a["features"].y - a["overview"].y2 == pytest.approx(25, abs=0.5)


def test_hangs_down_into_a_strip_then_it_is_what_hangs(tmp_path: Path) -> None:
    b, a = _do("for Blinky hangs down into the black strip at the bottom, lift it up a bit", tmp_path)
    assert a["blinky"].y < b["blinky"].y and a["strip"] == b["strip"]


def test_tight_under_then_another_amount_and_the_text_follows(tmp_path: Path) -> None:
    b, a = _do("Roads heading is tight under the map - give it another 10px or so, text follows", tmp_path)
    for i in ("roads", "p1", "p2"):  # the heading and both paragraphs under it, spaced as they were
        assert a[i].y - b[i].y == pytest.approx(10, abs=0.5), i
    assert a["map"] == b["map"]


def test_a_web_site_typed_names_the_address_it_starts(tmp_path: Path) -> None:
    b, a = _do("swap fb.com and the website", tmp_path)
    assert a["fb"].cx == pytest.approx(b["www"].cx, abs=3) and a["www"].cx == pytest.approx(b["fb"].cx, abs=3)


def test_the_word_after_what_pokes_out_of_its_box_is_the_word_in_it(tmp_path: Path) -> None:
    b, a = _do("arXiv preprints pokes out of the red box, scale the words down so they sit inside", tmp_path)
    assert a["arxiv"].width < b["arxiv"].width and a["red-box"] == b["red-box"]


@pytest.mark.parametrize("request_", ["for Blinky hangs down into the black strip. pull it up so it's all on the white",
                                      "for Blinky hangs over the black strip at the bottom. move it up so it's all on "
                                      "the white"])
def test_hangs_into_a_strip_then_up_is_up_out_of_it(tmp_path: Path, request_: str) -> None:
    b, a = _do(request_, tmp_path)
    assert a["blinky"].y2 <= a["strip"].y + 0.5 and a["strip"] == b["strip"]
