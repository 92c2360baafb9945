"""Columns, edges taken to a line, rows of captions and the text under a heading.

"Nudge the whole left column 2mm to the right", "the right column is jammed against the blue line, give it 4mm",
"make it start level with Bash but keep the bottom where it is", "Finitions sits higher than the other captions,
drop it down to line up with them", "swap the 2nd and 4th photos", "the Welcome para runs into the right column,
narrow it so there's a 20px gutter".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from assistant.instructions.requests import understand

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _section(x: float, y: float, head: str, body: str, ident: str) -> str:
    return (f'<text id="{ident}-h" x="{x}" y="{y}" font-size="22" font-weight="bold" font-family="sans-serif">'
            f'{head}</text><text id="{ident}-b" x="{x}" y="{y + 30}" font-size="14" font-family="sans-serif">'
            f'{body}</text>')


CARD = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 500" width="800" height="500">
  <rect id="ground" x="0" y="0" width="800" height="500" fill="#ffffff"/>
  <text id="title" x="60" y="60" font-size="34" font-family="sans-serif">How to say hello in six languages</text>
  {_section(60, 130, "Bash", "echo hello", "bash")}{_section(60, 230, "Python", "print('hello')", "py")}
  {_section(60, 330, "Ruby", "puts 'hello'", "rb")}
  <rect id="divider" x="390" y="95" width="4" height="300" fill="#1565c0"/>
  {_section(400, 130, "C", "printf(hello)", "c")}{_section(400, 230, "Java", "println(hello)", "java")}
  {_section(400, 330, "Go", "fmt.Println(hello)", "go")}
  <text id="cap1" x="60" y="440" font-size="16" font-family="sans-serif">first</text>
  <text id="cap2" x="230" y="430" font-size="16" font-family="sans-serif">second</text>
  <text id="cap3" x="400" y="440" font-size="16" font-family="sans-serif">third</text>
  <text id="cap4" x="570" y="440" font-size="16" font-family="sans-serif">fourth</text>
</svg>"""


def _layout():
    return import_svg_text(CARD, source="card.svg").layout


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(CARD, source="card.svg"), model=None, out_dir=tmp_path, preview=False)


def _top_level(layout, ids):
    out = set()
    for i in ids:
        while layout.get(i).group is not None:
            i = layout.get(i).group
        out.add(i)
    return out


def test_the_left_column_is_what_stands_in_it() -> None:
    layout = _layout()
    u = understand("nudge the whole left column 20px to the right", layout)
    assert u.status == "edit", u.message
    (step,) = u.steps
    members = {d for i in step.patients for d in [i, *(x.id for x in layout.descendants_of(i))]}
    assert {"bash-h", "py-h", "rb-h"} <= members and not {"c-h", "java-h", "go-h", "title"} & members


def test_a_column_gets_room_from_the_line_as_one(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the right column is jammed up against the blue line, give it about 30px of room")
    assert reply.edited, reply.text
    layout = chat.document.layout
    divider = layout.get("divider").box
    for i in ("c-h", "java-h", "go-h", "c-b"):
        assert layout.get(i).box.x - divider.x2 == pytest.approx(30, abs=1.0)
    assert layout.get("bash-h").box.x == pytest.approx(60, abs=0.5)  # the other column stays


def test_in_the_right_column_is_still_a_place(tmp_path: Path) -> None:
    u = understand("put the title in the right column", _layout())
    assert u.status == "edit" and all(s.patients == ["title"] for s in u.steps)


def test_an_edge_taken_to_a_line_while_the_other_holds_is_a_resize(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = chat.document.layout.get("divider").box
    reply = chat.handle("the blue line sticks up above Bash - make it start level with the Bash heading but keep "
                        "the bottom where it is")
    assert reply.edited, reply.text
    after, bash = chat.document.layout.get("divider").box, chat.document.layout.get("bash-h").box
    assert after.y == pytest.approx(bash.y, abs=0.5) and after.y2 == pytest.approx(before.y2, abs=0.5)


def test_stretched_till_the_margin_with_the_left_edge_put(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = chat.document.layout.get("title").box
    reply = chat.handle("stretch the title till its right edge hits the right margin, left edge stays put")
    assert reply.edited, reply.text
    after, safe = chat.document.layout.get("title").box, chat.document.layout.canvas.safe_box
    assert after.x == pytest.approx(before.x, abs=0.5) and after.x2 == pytest.approx(safe.x2, abs=1.0)


def test_a_caption_higher_than_the_others_goes_onto_their_row(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("second sits higher than the other captions, drop it down to line up with them")
    assert reply.edited, reply.text
    layout = chat.document.layout
    assert layout.get("cap2").box.y == pytest.approx(layout.get("cap1").box.y, abs=0.5)
    assert layout.get("cap2").box.x == pytest.approx(230, abs=0.5)  # not onto their column


@pytest.mark.skipif(not (CORPUS / "real").is_dir(), reason="needs ../shared/corpus")
def test_two_ordinals_share_one_noun_and_count_within_the_strip() -> None:
    layout = import_svg(CORPUS / "real" / "arduiciole_poster-centre.svg").layout
    u = understand("swap the 2nd and 4th photo placeholders in the strip at the bottom", layout)
    assert u.status == "edit" and sorted(u.steps[0].patients) == ["image36252", "image36263"]


@pytest.mark.skipif(not (CORPUS / "osgeo").is_dir(), reason="needs ../shared/corpus")
def test_the_para_of_a_heading_narrowed_to_leave_a_gutter(tmp_path: Path) -> None:
    path = CORPUS / "osgeo" / "geonetwork_a4.svg"
    chat = ChatAssistant(import_svg(path), model=None, out_dir=tmp_path, preview=False, input_path=path)
    reply = chat.handle("Welcome para runs right into the right hand column, narrow it so theres a 20px gutter "
                        "between the columns")
    assert reply.edited, reply.text
    layout = chat.document.layout
    para, right = layout.get("GeoNetwork-is-a-cata").box, layout.get("Describe-information").box
    assert 19 <= right.x - para.x2 <= 32  # (a flowed paragraph set smaller wraps where its words allow)
    assert layout.get("tspan63").box.x2 < right.x  # the heading "Welcome" is not what was narrowed


@pytest.mark.skipif(not (CORPUS / "real").is_dir(), reason="needs ../shared/corpus")
def test_a_title_set_line_by_line_shrinks_whole(tmp_path: Path) -> None:
    path = CORPUS / "real" / "encukou_pyconcz19-title-slide.svg"
    chat = ChatAssistant(import_svg(path), model=None, out_dir=tmp_path, preview=False, input_path=path)
    before = chat.document.layout.get("la-paragraph-1").box
    assert chat.handle("BUILDING AN ASYNCIO EVENT LOOP - 10 % smaller").edited
    after = chat.document.layout.get("la-paragraph-1").box
    assert after.height / before.height == pytest.approx(0.9, abs=0.03)  # its lines closer, not only smaller
