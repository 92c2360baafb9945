"""Sets of like things, bounds on one axis, sizes said twice and drawings set beside their page.

"Make all five step boxes the same width as 'validate'", "the feature bullets look uneven … space all six out
evenly", "the intro text is wider than the beige box, keep it within the box's width", "top badge bigger, 60mm
wide, keep proportions", "the page is empty!! … bring everything onto the page", "slide it left until it fits".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from assistant.instructions.requests import understand

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _box(x: float, label: str, ident: str, fill: str = "#dddddd") -> str:
    return (f'<g id="{ident}"><rect id="{ident}-r" x="{x}" y="300" width="{60 + len(label) * 4}" height="50" '
            f'fill="{fill}"/><text id="{ident}-t" x="{x + 8}" y="330" font-size="16" '
            f'font-family="sans-serif">{label}</text></g>')


SLIDE = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600">
  <text id="title" x="60" y="80" font-size="44" font-family="sans-serif">What is it?</text>
  <text id="intro" x="60" y="160" font-size="30" font-family="sans-serif">A complete toolchain for making books</text>
  <rect id="panel" x="80" y="280" width="640" height="100" fill="#f5deb3"/>
  {_box(100, "create", "s1")}{_box(220, "edit", "s2", "#c62828")}{_box(320, "validate", "s3")}
  {_box(470, "build", "s4")}{_box(590, "publish", "s5")}
  <g id="tab"><rect id="tab-r" x="620" y="380" width="90" height="40" fill="#c62828"/>
    <text id="tab-t" x="630" y="405" font-size="14" font-family="sans-serif">diagram</text></g>
  <text id="note" x="60" y="470" font-size="10" font-family="sans-serif">*) a person is needed here</text>
  <text id="comment" x="660" y="560" font-size="22" font-family="sans-serif">/* from 8 to 10 */</text>
</svg>"""


def _steps(request: str, svg: str = SLIDE):
    u = understand(request, import_svg_text(svg, source="slide.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return [(s.kind, s.patients, s.refs, s.intent.params) for s in u.steps]


def _chat(tmp_path: Path, svg: str = SLIDE) -> ChatAssistant:
    return ChatAssistant(import_svg_text(svg, source="slide.svg"), model=None, out_dir=tmp_path, preview=False)


def test_a_counted_set_is_the_row_of_like_things() -> None:
    # panels, tabs and logos are boxes too; five of a kind in one row are the five said
    (kind, patients, refs, _p), = _steps("make all five step boxes the same width as 'validate'")
    assert kind == "match" and refs == ["s3"] and sorted(patients) == ["s1", "s2", "s4", "s5"]


def test_matched_boxes_end_up_as_wide_as_the_one_named(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert chat.handle("make all five step boxes the same width as 'validate'").edited
    widths = {round(chat.document.layout.get(i).box.width, 1) for i in ("s1", "s2", "s3", "s4", "s5")}
    assert len(widths) == 1


def test_a_button_is_named_by_its_colour_word_and_a_noun_for_a_tab() -> None:
    steps = _steps("the red diagram tab is tucked behind the beige box - bring it to the front and drop it 15px")
    assert [s[0] for s in steps] == ["zorder", "nudge"] and all(s[1] == ["tab"] for s in steps)


@pytest.mark.skipif(not (CORPUS / "real").is_dir(), reason="needs ../shared/corpus")
def test_a_verb_between_two_nouns_is_part_of_the_name() -> None:
    u = understand("nudge the blue map pin icon 8 px left", import_svg(CORPUS / "real" / "blug_plakat.svg").layout)
    assert u.status == "edit" and [(s.kind, s.patients) for s in u.steps] == [("nudge", ["g18333"])]


def test_a_bound_across_keeps_a_text_between_the_sides_of_a_box_not_in_it(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the intro text is wider than the beige box, keep it within the box's width")
    assert reply.edited, reply.text
    intro, panel = chat.document.layout.get("intro").box, chat.document.layout.get("panel").box
    assert panel.x - 0.5 <= intro.x and intro.x2 <= panel.x2 + 0.5
    assert intro.y2 < panel.y  # still above the box, not moved into it


def test_a_type_size_to_reach_after_a_verb_of_growing() -> None:
    for request in ("the note is unreadable, bump it to 16px", "increase the note to 16px"):
        (kind, patients, _refs, params), = _steps(request)
        assert (kind, patients) == ("style", ["note"]) and params["font_size"]["abs"].value == 16


@pytest.mark.skipif(not (CORPUS / "real").is_dir(), reason="needs ../shared/corpus")
def test_a_picture_bumped_to_a_size_in_pixels_takes_it_on_its_longer_side(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "real" / "blug_plakat.svg"), model=None, out_dir=tmp_path, preview=False)
    assert chat.handle("bump the QR code to 200px").edited
    box = chat.document.layout.get("image3448").box
    assert abs(max(box.width, box.height) - 200) < 0.5


def test_a_share_of_its_size_is_the_size_it_becomes() -> None:
    (kind, _patients, _refs, params), = _steps("make the comment 90% of its size")
    assert kind in ("resize", "style")
    if kind == "resize":
        assert params["percent"] == (90.0, True)
    else:
        assert abs(params["font_size"]["factor"] - 0.9) < 1e-9


def test_a_vague_size_then_how_much_is_one_size_and_proportions_kept() -> None:
    steps = _steps("the red box bigger, 120px wide, keep proportions")
    assert len(steps) == 1 and steps[0][0] == "resize" and steps[0][3]["keep_aspect"] is True


def test_slide_it_until_it_fits_goes_as_far_as_it_takes(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = chat.document.layout.get("comment").box
    assert before.x2 > 800  # it runs off the right edge
    assert chat.handle("the comment is cut off - slide it left until it fits, same size").edited
    after = chat.document.layout.get("comment").box
    assert after.x2 <= 800 and after.y == pytest.approx(before.y) and after.width == pytest.approx(before.width)


def test_has_to_sit_inside_the_margins_is_a_goal() -> None:
    (kind, patients, _refs, _p), = _steps("the comment has to sit inside the page margins")
    assert (kind, patients) == ("inside", ["comment"])


STICKER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 600" width="400" height="600">
  <rect id="ground" x="500" y="0" width="600" height="600" fill="#ffff00"/>
  <rect id="blob" x="540" y="120" width="500" height="400" fill="#e8ff00"/>
  <text id="big" x="800" y="150" font-size="120" font-family="sans-serif">DIY</text>
  <text id="mesh" x="560" y="300" font-size="30" font-family="sans-serif">mesh</text>
  <text id="wifi" x="900" y="420" font-size="30" font-family="sans-serif">wi-fi</text>
</svg>"""


def test_a_drawing_beside_its_page_comes_onto_it_whole(tmp_path: Path) -> None:
    chat = _chat(tmp_path, STICKER)
    layout = chat.document.layout
    before = {i: layout.get(i).box for i in ("ground", "big", "mesh", "wifi")}
    assert chat.handle("the page is empty! bring everything onto the page").edited
    after = {i: chat.document.layout.get(i).box for i in before}
    page = chat.document.layout.canvas.box
    assert all(page.contains(b, 0.5) for b in after.values())
    # one scale and one shift for all of it: the words keep their places on the yellow square
    f = after["ground"].width / before["ground"].width
    for i in ("big", "mesh", "wifi"):
        assert (after[i].x - after["ground"].x) == pytest.approx((before[i].x - before["ground"].x) * f, abs=2.0)


def test_the_background_said_is_the_largest_shape_of_its_colour_and_covers_the_page(tmp_path: Path) -> None:
    chat = _chat(tmp_path, STICKER)
    assert chat.handle("stretch the yellow background so it covers the whole page").edited
    box = chat.document.layout.get("ground").box
    assert box.as_tuple() == pytest.approx((0, 0, 400, 600), abs=0.5)


def test_two_labels_beside_the_page_swap_there(tmp_path: Path) -> None:
    chat = _chat(tmp_path, STICKER)
    mesh, wifi = chat.document.layout.get("mesh").box, chat.document.layout.get("wifi").box
    assert chat.handle("swap the mesh and wi-fi labels").edited
    mesh2, wifi2 = chat.document.layout.get("mesh").box, chat.document.layout.get("wifi").box
    assert mesh2.cx == pytest.approx(wifi.cx, abs=15) and wifi2.cx == pytest.approx(mesh.cx, abs=15)
    assert mesh2.cy == pytest.approx(wifi.cy, abs=15) and wifi2.cy == pytest.approx(mesh.cy, abs=15)


@pytest.mark.skipif(not (CORPUS / "osgeo").is_dir(), reason="needs ../shared/corpus")
def test_bullets_named_by_their_heading_and_all_six_of_them_spaced(tmp_path: Path) -> None:
    doc = import_svg(CORPUS / "osgeo" / "gdal_a4.svg")
    u = understand("the feature bullets look uneven – the last one is jammed up under the one above it. space all "
                   "six out evenly pls", doc.layout)
    assert u.status == "edit" and [s.kind for s in u.steps] == ["distribute"]
    assert u.steps[0].patients == [f"la-item-{k}" for k in range(1, 7)]


@pytest.mark.skipif(not (CORPUS / "osgeo").is_dir(), reason="needs ../shared/corpus")
def test_two_blocks_in_two_columns_swap_by_their_top_left_corners(tmp_path: Path) -> None:
    chat = ChatAssistant(import_svg(CORPUS / "osgeo" / "gdal_a4.svg"), model=None, out_dir=tmp_path, preview=False)
    layout = chat.document.layout
    a, b = layout.get("la-section-4").box, layout.get("la-section-2").box
    assert chat.handle("swap the Supported formats block with the Where is it used block").edited
    a2, b2 = chat.document.layout.get("la-section-4").box, chat.document.layout.get("la-section-2").box
    assert (a2.x, a2.y) == pytest.approx((b.x, b.y), abs=1.0) and (b2.x, b2.y) == pytest.approx((a.x, a.y), abs=1.0)


@pytest.mark.skipif(not (CORPUS / "real").is_dir(), reason="needs ../shared/corpus")
def test_a_logo_named_by_its_web_address_run_together(tmp_path: Path) -> None:
    doc = import_svg(CORPUS / "real" / "zestedecode_affiche.svg")
    u = understand("zeste de savoir logo down 5mm", doc.layout)
    assert u.status == "edit" and u.steps[0].patients == ["la-lockup-1"]


def test_a_type_size_that_runs_off_the_page_grows_from_another_side(tmp_path: Path) -> None:
    svg = SLIDE.replace('<text id="comment" x="660"', '<text id="comment" x="560"')
    chat = _chat(tmp_path, svg)
    before = chat.document.layout.get("comment").box
    assert before.x2 <= 800 < before.x + before.width * 1.4  # grown from its start it would run off the right
    assert chat.handle("the comment is tiny, bump it to 30").edited
    after = chat.document.layout.get("comment").box
    assert after.x2 <= 800 + 0.5 and after.height > before.height * 1.2


def test_a_word_before_a_sticker_names_no_barcode_where_there_is_none() -> None:
    u = understand("the barcode sticker at the bottom needs more room around it",
                   import_svg_text(SLIDE, source="slide.svg").layout)
    assert u.status == "missing"


POSTER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 900" width="1200" height="900">
  <text id="h1" x="60" y="100" font-size="36" font-family="sans-serif">Thrust 1: Development</text>
  <text id="q11" x="80" y="160" font-size="20" font-family="sans-serif">How do infants learn?</text>
  <text id="q12" x="80" y="220" font-size="20" font-family="sans-serif">What do toddlers see?</text>
  <text id="h2" x="60" y="320" font-size="36" font-family="sans-serif">Thrust 2: Circuits</text>
  <text id="q21" x="80" y="380" font-size="20" font-family="sans-serif">How do neurons compute?</text>
  <text id="q22" x="80" y="430" font-size="20" font-family="sans-serif">Can we find signatures</text>
  <text id="q23" x="80" y="500" font-size="20" font-family="sans-serif">Why do circuits differ?</text>
  <text id="h3" x="660" y="100" font-size="36" font-family="sans-serif">Thrust 3: Vision</text>
  <text id="q31" x="680" y="160" font-size="20" font-family="sans-serif">How does vision work?</text>
  <text id="about" x="660" y="620" font-size="18" font-weight="700"
        font-family="sans-serif">The open source software</text>
  <text id="intro" x="660" y="560" font-size="18" font-family="sans-serif">A plain first paragraph here</text>
  <text id="quote" x="60" y="780" font-size="28" font-family="sans-serif">What I cannot create</text>
  <text id="author" x="700" y="780" font-size="20" font-family="sans-serif">- R. Feynman</text>
  <text id="credit" x="60" y="860" font-size="12"
        font-family="sans-serif">Jane Doe, http://jane.example.org. License: CC BY</text>
</svg>"""


def _poster(request: str):
    u = understand(request, import_svg_text(POSTER, source="poster.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return [(s.kind, s.patients, s.refs, s.intent.params) for s in u.steps]


def test_the_questions_under_a_heading_are_those_down_to_the_next_heading() -> None:
    (kind, patients, _r, _p), = _poster("the questions under Thrust 2 are tiny, make them 10% bigger")
    assert kind in ("resize", "style") and sorted(patients) == ["q21", "q22", "q23"]
    (kind, patients, _r, _p), = _poster("space the three questions under Thrust 2 evenly")
    assert kind == "distribute" and patients == ["q21", "q22", "q23"]


def test_follow_on_its_line_with_a_gap(tmp_path: Path) -> None:
    chat = _chat(tmp_path, POSTER)
    before = chat.document.layout.get("author").box
    assert chat.handle("'- R. Feynman' should follow the quote with just a 30px gap").edited
    after, quote = chat.document.layout.get("author").box, chat.document.layout.get("quote").box
    assert after.x == pytest.approx(quote.x2 + 30, abs=1.0) and after.y == pytest.approx(before.y)


def test_a_wish_is_the_request_and_a_weight_says_which_paragraph() -> None:
    (kind, patients, _r, _p), = _poster("I'd like 20px between Thrust 3 and the bold paragraph")
    assert kind == "gap" and set(patients) == {"h3", "about"}


INFOGRAPHIC = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 700" width="1000" height="700">
  <text id="title" x="60" y="80" font-size="40" font-family="sans-serif">A week of campus wifi</text>
  <text id="desc" x="60" y="560" font-size="14" font-family="sans-serif"><tspan x="60" dy="0">526 359 access
    point log entries of one week of university life</tspan><tspan x="60" dy="18">from Friday to Friday, shown as
    lines between buildings</tspan><tspan x="60" dy="18">Source and data: http://data.example.org</tspan></text>
  <text id="credit" x="600" y="640" font-size="14" font-family="sans-serif"><tspan x="600" dy="0">Jane Doe,
    http://jane.example.org</tspan><tspan x="600" dy="18">License: Creative Commons Attribution 4.0</tspan></text>
  <rect id="badge" x="860" y="640" width="80" height="30" fill="#333333"/>
</svg>"""


def test_a_description_is_not_a_credit_line() -> None:
    u = understand("make the description text 25% bigger", import_svg_text(INFOGRAPHIC, source="i.svg").layout)
    assert u.status == "edit" and u.steps[0].patients == ["desc"]


def test_a_move_with_a_purpose_of_not_running_under_keeps_its_amount() -> None:
    (kind, patients, _r, params), = _poster("slide the credit 100px to the left so it doesnt run under the quote")
    assert kind == "nudge" and params["moves"][0][1].value == 100


def test_drawn_on_top_then_send_it_behind_is_one_edit() -> None:
    layout = import_svg_text(INFOGRAPHIC, source="i.svg").layout
    u = understand("the credit text is drawn on top of the cc badge, send it behind", layout,
                   read=lambda ids: {"badge": "BY"})
    assert u.status == "edit" and [(s.kind, s.patients) for s in u.steps] == [("zorder", ["credit"])]


def test_a_vague_size_then_the_size_of_type_is_one_size() -> None:
    steps = _poster("the author a bit smaller - 16 instead of 20 - and keep it where it is")
    sizes = [s for s in steps if s[0] in ("style", "resize")]
    assert len(sizes) == 1 and sizes[0][3]["font_size"]["factor"] == pytest.approx(0.8)


def test_a_licence_badge_is_named_cc_by_its_letters() -> None:
    svg = POSTER.replace("</svg>", '<rect id="badge" x="1000" y="820" width="80" height="30" fill="#333"/></svg>')
    layout = import_svg_text(svg, source="poster.svg").layout
    u = understand("move the CC badge up 10px", layout, read=lambda ids: {"badge": "BY SA"})
    assert u.status == "edit" and u.steps[0].patients == ["badge"]
