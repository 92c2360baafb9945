"""Limits said after an edit, lists in brackets and with slashes, and more ways of saying where and how much.

"make the name bold, but don't let it run into the logo" and "…, still inside the green band" bound the edit
before them (a step that mends only what the edit broke); "(Autor, Maintainer, Sponzor)" and "fork / fix /
test" name the elements a noun described; "growing upwards", "→ 16px", "close it to 8px", "indent it by 3 mm",
"so there's 20px to spare", "so they all start at 7 mm" and "should start where X starts" say how; "the word
Date", "the short line" and "that heading" say which.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from assistant.instructions.requests import understand

LAYOUT = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800">
  <rect id="band" x="0" y="0" width="600" height="120" fill="#2e7d32"/>
  <text id="heading" x="40" y="70" font-size="30" font-family="sans-serif" fill="#ffffff">CERTIFICATE</text>
  <text id="tagline" x="40" y="160" font-size="18" font-family="sans-serif">Spring workshop on maps</text>
  <text id="name" x="40" y="240" font-size="24" font-family="sans-serif">Petra Novak</text>
  <image id="logo" x="232" y="214" width="60" height="30"/>
  <text id="role1" x="40" y="420" font-size="16" font-family="sans-serif">Autor</text>
  <text id="role2" x="240" y="420" font-size="16" font-family="sans-serif">Maintainer</text>
  <text id="role3" x="440" y="420" font-size="16" font-family="sans-serif">Sponzor</text>
  <text id="when" x="300" y="520" font-size="16" font-family="sans-serif">xx/xx/xxxx</text>
  <path id="rule1" d="M 40 600 L 560 600" stroke="#000000" stroke-width="2"/>
  <path id="rule2" d="M 300 540 L 420 540" stroke="#000000" stroke-width="2"/>
  <text id="label" x="340" y="560" font-size="12" font-family="sans-serif">Date</text>
  <text id="intro" x="20" y="680" font-size="14" font-family="sans-serif">Join us for two days of talks</text>
  <text id="list" x="20" y="710" font-size="14" font-family="sans-serif">Routing, tiles and styling</text>
</svg>"""


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(LAYOUT, source="x.svg"), model=None, out_dir=tmp_path, preview=False)


def _box(chat: ChatAssistant, eid: str):
    return chat.document.layout.get(eid).box


def _understood(request: str):
    u = understand(request, import_svg_text(LAYOUT, source="x.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return u


def test_a_limit_after_an_edit_mends_what_the_edit_broke(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("make the name 40% bigger, but don't let it run into the logo")
    assert reply.edited, reply.text
    name, logo = _box(chat, "name"), _box(chat, "logo")
    assert name.x2 <= logo.x + 0.01 or name.y >= logo.y2 or name.y2 <= logo.y  # clear of the logo
    assert name.height > 1.2 * import_svg_text(LAYOUT, source="x.svg").layout.get("name").box.height


def test_a_limit_that_holds_adds_no_edit() -> None:
    u = _understood("make the tagline a bit bigger without touching the name")
    assert [s.kind for s in u.steps] == ["resize", "separate"]
    assert u.steps[1].patients == ["tagline"] and u.steps[1].refs == ["name"]
    assert u.steps[1].intent.params.get("bound")


def test_inside_what_was_named_not_only_the_page(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("CERTIFICATE could fill the bar more, go to about 60 - keep it inside the green band")
    assert reply.edited, reply.text
    heading, band = _box(chat, "heading"), _box(chat, "band")
    assert band.contains(heading, 0.5)
    assert chat.document.layout.get("heading").font_size > 50


def test_inside_the_sheet_is_the_page() -> None:
    u = _understood("the tagline is tiny, make it a little bigger? keep it inside the poster though")
    assert [s.kind for s in u.steps] == ["resize", "inside"]
    assert u.steps[1].refs == []


def test_growing_upwards_holds_the_bottom_edge() -> None:
    u = _understood("make the tagline about 15% larger, growing upwards so it doesnt hit the name")
    assert u.steps[0].kind == "resize" and u.steps[0].intent.params.get("anchor") == "bottom"


def test_an_arrow_before_a_size_sets_the_type_size() -> None:
    u = _understood("tagline 'Spring workshop on maps' → 16px please, it's a bit meek next to the heading")
    assert [(s.kind, s.patients) for s in u.steps] == [("style", ["tagline"])]
    assert u.steps[0].intent.params["font_size"]["abs"].value == 16


def test_close_the_gap_said_before_to_a_length(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("the gap between the tagline and the name is way too big, close it to 8px")
    assert reply.edited, reply.text
    assert abs(_box(chat, "name").y - _box(chat, "tagline").y2 - 8) < 0.5


def test_indent_is_a_move_to_the_right(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = _box(chat, "list")
    reply = chat.handle("indent the 'Routing, tiles and styling' line by 10px, intro stays put")
    assert reply.edited, reply.text
    assert abs(_box(chat, "list").x - before.x - 10) < 0.01 and _box(chat, "intro").x == 20


def test_the_axis_a_centring_keeps_is_no_lock() -> None:
    u = _understood("move the label so it's vertically centred on the logo, dont change its horizontal position")
    assert [s.kind for s in u.steps] == ["center"]


def test_room_to_spare_from_the_edge_it_touches_and_the_size_it_keeps() -> None:
    u = _understood("Sponzor is kissing the right edge, pull it in so theres about 20px to spare. same size")
    assert [s.kind for s in u.steps] == ["edge"]
    assert u.steps[0].intent.params["inset"].value == 20


def test_a_list_in_brackets_names_what_the_noun_described() -> None:
    u = _understood("the bottom row (Autor, Maintainer, Sponzor) sits too low – lift all three up 20px")
    assert [(s.kind, sorted(s.patients)) for s in u.steps] == [("nudge", ["role1", "role2", "role3"])]


def test_a_list_with_slashes() -> None:
    u = _understood("Autor / Maintainer / Sponzor arent on the same top edge, fix pls")
    assert [(s.kind, sorted(s.patients)) for s in u.steps] == [("align", ["role1", "role2", "role3"])]


def test_start_where_another_starts() -> None:
    u = _understood("'Petra Novak' should start where the tagline starts - slide the name across so their left edges"
                    " line up")
    assert [(s.kind, s.patients, s.refs, s.intent.params["edge"]) for s in u.steps] == [
        ("align", ["name"], ["tagline"], "left")]


def test_the_word_and_the_short_line(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("Centre the word Date under the short line")
    assert reply.edited, reply.text
    assert abs(_box(chat, "label").cx - _box(chat, "rule2").cx) < 0.5
    assert _box(chat, "when") == import_svg_text(LAYOUT, source="x.svg").layout.get("when").box


def test_a_problem_against_what_is_not_there_is_asked_about() -> None:
    u = understand("the label isn't centred under the phone, centre it", import_svg_text(LAYOUT, source="x.svg").layout)
    assert u.status == "missing" and not u.steps


def test_those_two_after_a_wrong_order_are_the_two_named() -> None:
    u = _understood("'Spring workshop on maps' reads after the name but it should come before it - swap those two "
                    "lines round")
    assert [(s.kind, sorted(s.patients)) for s in u.steps] == [("swap", ["name", "tagline"])]


def test_what_comes_with_a_move() -> None:
    u = _understood("nudge the intro up 10px, the 'Routing, tiles and styling' line comes with it")
    assert [(s.kind, s.patients) for s in u.steps] == [("nudge", ["intro", "list"])]


def test_they_all_start_at_a_distance_from_the_left() -> None:
    u = _understood("20px left margin is too tight for print. move the intro and the Routing line in so they all "
                    "start at 30 px")
    assert [(s.kind, sorted(s.patients), s.intent.params.get("edge")) for s in u.steps] == [
        ("edge", ["intro", "list"], "left")]


def test_room_below_then_how_is_one_move() -> None:
    u = _understood("give the roles a little air below the name – move Autor and Maintainer down 10px")
    assert [(s.kind, sorted(s.patients)) for s in u.steps] == [("nudge", ["role1", "role2"])]


def test_a_gap_said_after_so_moves_what_the_main_clause_moves() -> None:
    u = _understood("pull 'Sponzor' up so there's just 15px between the name and that text")
    assert [(s.kind, s.patients, s.refs) for s in u.steps] == [("gap", ["role3"], ["name"])]


def test_finishing_flush_with_the_end_of_a_rule_is_the_right_edge() -> None:
    u = _understood("push the Date label over to the right so it finishes flush with the end of the short line")
    assert [(s.kind, s.patients, s.refs, s.intent.params["edge"]) for s in u.steps] == [
        ("align", ["label"], ["rule2"], "right")]


def test_their_left_edges_to_another_and_their_own_texts() -> None:
    u = _understood("Autor and Maintainer are a pixel out from the intro. snap all their left edges to the intro's "
                    "left edge")
    assert [(s.kind, sorted(s.patients), s.refs, s.intent.params["edge"]) for s in u.steps] == [
        ("align", ["role1", "role2"], ["intro"], "left")]


def test_room_clear_on_both_sides_after_a_fit(tmp_path: Path) -> None:
    wide = LAYOUT.replace('x="20" y="710" font-size="14"', 'x="20" y="710" font-size="50"')
    chat = ChatAssistant(import_svg_text(wide, source="x.svg"), model=None, out_dir=tmp_path, preview=False)
    assert chat.document.layout.get("list").box.x2 > 600  # runs off the page
    reply = chat.handle("the Routing line is cut off on the right - scale it down so it shows whole, roughly 30px "
                        "clear on both sides")
    assert reply.edited, reply.text
    box = _box(chat, "list")
    assert abs(box.x - 30) < 1 and abs(box.x2 - 570) < 1


PANEL = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 400" width="600" height="400">
  <rect id="panel" x="300" y="40" width="260" height="300" fill="#ffe600"/>
  <text id="word" x="320" y="120" font-size="40" font-family="sans-serif">DIY</text>
  <text id="site" x="320" y="300" font-size="16" font-family="sans-serif">example.org</text>
  <text id="name" x="40" y="80" font-size="24" font-family="sans-serif">Ada Hudson</text>
  <text id="degree" x="40" y="110" font-size="12" font-family="sans-serif">MS Software Engineering</text>
  <path id="divider" d="M 190 50 L 190 130" stroke="#1565c0" stroke-width="2"/>
  <image id="icon1" x="40" y="200" width="16" height="16"/>
  <image id="icon2" x="40" y="230" width="16" height="16"/>
  <image id="icon3" x="40" y="260" width="16" height="16"/>
</svg>"""


def _panel_chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(PANEL, source="card.svg"), model=None, out_dir=tmp_path, preview=False)


def _panel_understood(request: str):
    u = understand(request, import_svg_text(PANEL, source="card.svg").layout)
    assert u.status == "edit", (u.status, u.message)
    return u


def test_snap_to_the_edge_of_another() -> None:
    u = _panel_understood("snap 'MS Software Engineering' to the right edge of 'Ada Hudson'")
    assert [(s.kind, s.patients, s.refs, s.intent.params["edge"]) for s in u.steps] == [
        ("align", ["degree"], ["name"], "right")]


def test_add_room_between_two_one_of_which_stays(tmp_path: Path) -> None:
    chat = _panel_chat(tmp_path)
    before = {i: _box(chat, i) for i in ("name", "degree")}
    reply = chat.handle("add 4 px between the name and 'MS Software Engineering', name doesn't move")
    assert reply.edited, reply.text
    assert _box(chat, "name") == before["name"]
    assert abs((_box(chat, "degree").y - before["degree"].y) - 4) < 0.5


def test_a_size_for_each_of_several(tmp_path: Path) -> None:
    chat = _panel_chat(tmp_path)
    reply = chat.handle("the icons are a touch small, make them all 20px tall")
    assert reply.edited, reply.text
    assert all(abs(_box(chat, i).height - 20) < 0.01 for i in ("icon1", "icon2", "icon3"))


def test_the_amount_said_wins_over_the_reason() -> None:
    u = _panel_understood("slide the divider 3px to the right so it stops colliding with the name")
    assert [(s.kind, s.intent.params["moves"][0][1].value) for s in u.steps] == [("nudge", 3.0)]


def test_a_distance_from_the_edge_of_what_holds_it(tmp_path: Path) -> None:
    chat = _panel_chat(tmp_path)
    reply = chat.handle("example.org is floating in no man's land, push it right so it sits 20px from the edge of the "
                        "yellow panel")
    assert reply.edited, reply.text
    assert abs(_box(chat, "panel").x2 - _box(chat, "site").x2 - 20) < 0.5


def test_room_under_another_said_after_so() -> None:
    u = _panel_understood("too much air between the name and the icons - bring the top icon up so there's 30px under"
                          " the degree")
    assert [(s.kind, s.intent.params.get("rel"), s.intent.params.get("length").value) for s in u.steps] == [
        ("gap", "under", 30.0)]


def test_a_side_that_stays_lined_up_with_another_is_held() -> None:
    u = _panel_understood("make the degree bigger, left edge stays lined up with the name")
    assert [(s.kind, s.intent.params.get("anchor")) for s in u.steps] == [("resize", "left")]


def test_a_limit_inside_what_holds_it_and_none_where_nothing_does() -> None:
    u = _panel_understood("DIY could be a touch bigger, but keep it inside the yellow")
    assert [(s.kind, s.refs) for s in u.steps] == [("resize", []), ("inside", ["panel"])]
    u = _panel_understood("make the name a touch bigger, but keep it inside the yellow")
    assert [s.kind for s in u.steps] == ["resize"]


PGROUTING = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo" / "pgRouting_a4.svg"


@pytest.mark.skipif(not PGROUTING.is_file(), reason="../shared (its corpus) is not here")
def test_that_section_moves_so_its_heading_lines_up() -> None:
    doc = import_svg(PGROUTING)
    u = understand("Software sits lower than Overview for no reason - move that section up so the Software heading "
                   "lines up with Overview", doc.layout)
    heading = next(e for e in doc.layout.elements if e.kind == "text" and e.text == "Software")
    assert [(s.kind, s.patients, s.intent.params["edge"]) for s in u.steps] == [("align", [heading.group], "top")]


def test_a_limit_said_alone_that_holds_says_so(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    reply = chat.handle("keep the heading inside the green band")
    assert not reply.edited and "already inside" in reply.text


def test_a_size_for_two_said_together() -> None:
    u = _understood("the roles are a bit shouty, bring Autor and Maintainer down to about 12px")
    assert [(s.kind, sorted(s.patients), s.intent.params["font_size"]["abs"].value) for s in u.steps] == [
        ("style", ["role1", "role2"], 12.0)]


@pytest.mark.skipif(not PGROUTING.is_file(), reason="../shared (its corpus) is not here")
def test_the_question_about_what_it_stands_for_comes_first() -> None:
    u = understand("OSGeo logo: vertically center it on the big pgRouting title", import_svg(PGROUTING).layout)
    assert u.status == "question" and "which osgeo logo" in u.message


def test_jammed_against_then_the_gap_it_should_be() -> None:
    u = _understood("the tagline is jammed right up against the name — give it a 20px gap")
    said = [(s.kind, s.patients, s.refs, s.intent.params["op"], s.intent.params["length"].value) for s in u.steps]
    assert said == [("gap", ["tagline"], ["name"], "set", 20.0)]


def test_which_one_by_where_it_is_with_a_move_by_an_amount() -> None:
    u = _understood("move the heading and the tagline under it down 12px together")
    assert [(s.kind, sorted(s.patients)) for s in u.steps] == [("nudge", ["heading", "tagline"])]


def test_a_question_about_the_design_is_no_edit() -> None:
    u = understand("is the tagline spelt right?", import_svg_text(LAYOUT, source="x.svg").layout)
    assert u.status == "not_understood" and not u.steps


def test_a_place_before_a_colon_says_which() -> None:
    u = _understood("logo top right: shrink to 80%, keep its top-right corner where it is")
    assert [(s.kind, s.patients, s.intent.params.get("anchor")) for s in u.steps] == [("resize", ["logo"], "top_right")]


def test_a_heading_set_as_two_texts_named_whole() -> None:
    two = LAYOUT.replace('<text id="tagline" x="40" y="160" font-size="18" font-family="sans-serif">Spring workshop on '
                         'maps</text>', '<text id="t1" x="40" y="160" font-size="18" font-family="sans-serif">DConf'
                         '</text><text id="t2" x="140" y="160" font-size="18" font-family="sans-serif">2018</text>')
    u = understand("shift the DConf 2018 heading down 10px", import_svg_text(two, source="x.svg").layout)
    assert [(s.kind, sorted(s.patients)) for s in u.steps] == [("nudge", ["t1", "t2"])]


def test_a_type_size_and_a_margin_from_a_corner() -> None:
    u = _understood("tagline is shouting a bit, take it down to ~15px type")
    assert [(s.kind, s.intent.params["font_size"]["abs"].value) for s in u.steps] == [("style", 15.0)]
    u = _understood("the logo is jammed in the corner, give it 8px of margin on the right and bottom")
    assert [(s.kind, s.intent.params["edge"], s.intent.params["inset"].value) for s in u.steps] == [
        ("edge", "bottom_right", 8.0)]
