"""Requests about paint order: "behind X" and "in front of X" restack against X, not to the back or front of the
page; "X is hidden behind Y" is an overlap to clear; "…, just not behind the card" is a limit, not a second edit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"

#: A card on a ground: a photo, a title the photo hides half of, a badge, a caption and a white panel.
PAGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <rect id="ground" x="0" y="0" width="600" height="800" fill="#203040"/>
  <rect id="panel" x="40" y="420" width="520" height="300" fill="#ffffff"/>
  <text id="title" x="60" y="120" font-size="48" font-family="DejaVu Sans" fill="#ffffff">Summer Fair</text>
  <image id="photo" x="40" y="90" width="520" height="300" href="data:image/png;base64,iVBORw0KGgo="/>
  <circle id="c1" cx="480" cy="470" r="40" fill="#e03030"/>
  <text id="caption" x="60" y="480" font-size="20" font-family="DejaVu Sans" fill="#000000">Saturday at noon</text>
  <text id="venue" x="60" y="520" font-size="20" font-family="DejaVu Sans" fill="#000000">Town hall square</text>
</svg>"""


def _order(chat: ChatAssistant) -> list[str]:
    return [n.get("id") for n in chat.document.root.iter() if isinstance(n.tag, str) and n.get("id")]


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(PAGE, source="card.svg"), model=None, out_dir=tmp_path, preview=False)


def test_behind_something_goes_just_behind_it(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("put the red circle behind the caption")
    assert reply.edited, reply.text
    order = _order(chat)
    assert order.index("panel") < order.index("c1") == order.index("caption") - 1, order  # not behind the panel


def test_in_front_of_something_goes_just_in_front_of_it(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("bring the title in front of the photo")
    assert reply.edited, reply.text
    order = _order(chat)
    assert order.index("photo") + 1 == order.index("title") < order.index("c1"), order


def test_behind_all_the_text_but_not_behind_the_panel(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the circle should sit behind all the text, just not behind the white panel")
    assert reply.edited, reply.text
    order = _order(chat)
    assert order.index("panel") < order.index("c1") < min(order.index(t) for t in ("title", "caption", "venue"))
    assert reply.text.count('"type":"reorder"') == 1, reply.text  # the limit adds no edit


def test_hidden_behind_is_an_overlap_to_clear(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = chat.document.layout.get("photo").box
    reply = chat.handle("the title is hidden behind the photo, move the photo down so it clears the title")
    assert reply.edited, reply.text
    layout = chat.document.layout
    assert layout.get("photo").box.y >= layout.get("title").box.y2 - 0.5 > before.y
    assert _order(chat).index("title") < _order(chat).index("photo")  # the order is not what was asked about


def test_bring_it_in_front_while_it_stays_where_it_is(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = chat.document.layout.get("title").box
    reply = chat.handle("the title is half hidden behind the photo, bring it in front. don't move it though")
    assert reply.edited, reply.text
    assert _order(chat).index("title") > _order(chat).index("photo")
    assert chat.document.layout.get("title").box == before
    assert not chat.document.layout.get("title").locked  # restacking moves nothing, so nothing needed holding


_HELD_OUT = [
    ("blug_plakat_i.tsv", "little calendar icon with the 31 on it"),
    ("publican_z.tsv", "half hidden behind the beige panel"),
    ("gvsig_za.tsv", "is hidden behind the desktop screenshot"),
    ("linuxdays_eduguest_j.tsv", "eduroam logo should sit behind all the text"),
]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")
@pytest.mark.parametrize(("tsv", "said"), _HELD_OUT)
def test_held_out_requests_about_paint_order(tsv: str, said: str, tmp_path: Path) -> None:
    from benchmarks.bench_requests import HELDOUT, read_cases, run_case

    case = next(c for c in read_cases(HELDOUT / tsv) if said.lower() in c.request.lower())
    result = run_case(case, None, tmp_path)
    assert result["met"], (case.request, result["reply"])


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")
def test_the_cable_goes_behind_the_figure_on_a_real_poster(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "real/falanster_mesh-poster-3.svg"), model=None, out_dir=tmp_path,
                         preview=False)
    reply = chat.handle("send g5968 behind path1946-4")
    assert reply.edited, reply.text
    order = _order(chat)
    assert order.index("rect3303") < order.index("g5968") < order.index("path1946-4"), order
