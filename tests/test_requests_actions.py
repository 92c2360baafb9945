"""The actions added for plain-language requests: match_size, set_gap, swap, set_locked.

Each one applies to the layout and the XML together, is undone exactly, refuses what it cannot do with a message
naming the problem, and is part of the schema the MCP tools and the model grammar are generated from.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastmcp import Client
from mcp_support import data, make_workspace

from assistant.actions import apply_action, parse_action, undo_diff
from assistant.app.formats import export
from assistant.errors import InvalidAction
from assistant.importer import import_svg, import_svg_text
from assistant.planners.grammar import action_gbnf, within_grammar
from mcp_server.server import build_server

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _doc(name: str = "flyer"):
    return import_svg(EXAMPLES / f"{name}.svg")


def _svg(doc) -> bytes:
    data = export(doc, "svg")
    return data if isinstance(data, bytes) else data.encode()


def _box(doc, element_id: str) -> tuple[float, float, float, float]:
    return doc.layout.get(element_id).box.as_tuple()


def _reimported(doc, element_id: str) -> tuple[float, float, float, float]:
    return import_svg_text(_svg(doc).decode(), source="edited.svg").layout.get(element_id).box.as_tuple()


EDITS = [
    {"type": "match_size", "dimension": "width", "keep_aspect": False, "ids": ["signup"], "target_id": "garden-photo"},
    {"type": "match_size", "dimension": "height", "ids": ["headline"], "target_id": "strapline"},
    {"type": "match_size", "dimension": "both", "ids": ["garden-photo"], "target_id": "signup"},
    {"type": "set_gap", "gap": 40, "id": "garden-photo", "target_id": "strapline"},
    {"type": "set_gap", "gap": 0, "axis": "vertical", "id": "when", "target_id": "about"},
    {"type": "swap", "ids": ["about", "when"]},
    {"type": "set_locked", "ids": ["signup"]},
]


@pytest.mark.parametrize("edit", EDITS, ids=[f"{e['type']}-{i}" for i, e in enumerate(EDITS)])
def test_each_new_action_applies_and_undoes_exactly(edit) -> None:
    doc = _doc()
    before_svg, before_layout = _svg(doc), doc.layout.model_dump()
    diff = apply_action(doc, edit)
    assert diff.changed_ids
    undo_diff(doc, diff)
    assert _svg(doc) == before_svg and doc.layout.model_dump() == before_layout


def test_match_size_stretches_a_button_backdrop_and_keeps_its_label_size() -> None:
    doc = _doc()
    label = _box(doc, "signup-label")
    apply_action(doc, EDITS[0])
    assert _box(doc, "signup")[2] == pytest.approx(_box(doc, "garden-photo")[2])
    new_label = _box(doc, "signup-label")
    assert new_label[2:] == pytest.approx(label[2:])            # text is never stretched
    bg = doc.layout.get("signup-bg").box
    assert new_label[0] + new_label[2] / 2 == pytest.approx(bg.cx)  # still centred on the backdrop
    assert _reimported(doc, "signup")[2] == pytest.approx(348.0, abs=0.5)


def test_match_size_with_keep_aspect_scales_uniformly_about_the_anchor() -> None:
    doc = _doc("slide")
    chart = doc.layout.get("chart").box
    apply_action(doc, {"type": "match_size", "dimension": "width", "anchor": "top_right", "ids": ["chart"],
                       "target_id": "point-1"})
    new = doc.layout.get("chart").box
    s = new.width / chart.width
    assert new.width == pytest.approx(doc.layout.get("point-1").box.width)
    assert new.height == pytest.approx(chart.height * s) and new.x2 == pytest.approx(chart.x2)


def test_set_gap_keeps_the_side_and_sets_the_exact_gap() -> None:
    doc = _doc("slide")
    apply_action(doc, {"type": "set_gap", "gap": 12, "id": "point-3", "target_id": "point-2"})
    p2, p3 = doc.layout.get("point-2").box, doc.layout.get("point-3").box
    assert p3.y - p2.y2 == pytest.approx(12) and p3.x == 104.0
    apply_action(doc, {"type": "set_gap", "gap": 30, "id": "point-1", "target_id": "point-2"})
    p1 = doc.layout.get("point-1").box
    assert p2.y - p1.y2 == pytest.approx(30)                     # above stays above


def test_swap_exchanges_places_and_keeps_the_gap_between() -> None:
    doc = _doc()
    about, when = doc.layout.get("about").box, doc.layout.get("when").box
    apply_action(doc, {"type": "swap", "ids": ["when", "about"]})
    a2, w2 = doc.layout.get("about").box, doc.layout.get("when").box
    assert w2.y == pytest.approx(about.y) and a2.y2 == pytest.approx(when.y2)
    assert a2.y - w2.y2 == pytest.approx(when.y - about.y2)
    assert (a2.x, w2.x) == (about.x, when.x)


def test_swap_side_by_side_elements_exchanges_along_the_row() -> None:
    doc = _doc("slide")
    title, chart = doc.layout.get("point-1").box, doc.layout.get("chart").box
    apply_action(doc, {"type": "swap", "ids": ["point-1", "chart"], "axis": "horizontal"})
    p1, c = doc.layout.get("point-1").box, doc.layout.get("chart").box
    assert c.x == pytest.approx(title.x) and p1.x2 == pytest.approx(chart.x2)


def test_swap_of_two_words_whose_boxes_reach_into_each_other_keeps_their_line() -> None:
    """"DConf" and "2018" in one line, each with a taller ornament: the boxes overlap on both axes."""
    from assistant.geometry import Box, apart_axis

    dconf, year = Box(x=182, y=22, width=674, height=173), Box(x=535, y=22, width=666, height=209)
    assert apart_axis(dconf, year) == "horizontal"
    assert apart_axis(Box(x=0, y=0, width=100, height=40), Box(x=10, y=30, width=100, height=40)) == "vertical"


#: A layer the designer locked in Inkscape, with two logos on it.
LOCKED_LAYER = (Path(__file__).parent / "data" / "locked_layer.svg").read_text()


def test_unlocking_an_element_of_a_locked_layer_leaves_the_rest_of_the_layer_locked() -> None:
    """A designer locked the layer in Inkscape; "unlock the blue logo" frees that logo alone."""
    doc = import_svg_text(LOCKED_LAYER, source="layer.svg")
    assert doc.layout.get("logo-a").locked and doc.layout.get("logo-b").locked
    before_svg, before_layout = _svg(doc), doc.layout.model_dump()
    undo_diff(doc, apply_action(doc, {"type": "set_locked", "ids": ["logo-a"], "locked": False}))
    assert _svg(doc) == before_svg and doc.layout.model_dump() == before_layout  # undone exactly
    with pytest.raises(InvalidAction, match="locked \\(unlock it first"):
        apply_action(doc, {"type": "move", "ids": ["logo-a"], "dx": 5})
    apply_action(doc, {"type": "set_locked", "ids": ["logo-a"], "locked": False})
    assert not doc.layout.get("logo-a").locked and doc.layout.get("logo-b").locked
    assert apply_action(doc, {"type": "move", "ids": ["logo-a"], "dx": 5}).changed_ids
    again = import_svg_text(_svg(doc).decode(), source="layer.svg")
    assert not again.layout.get("logo-a").locked and again.layout.get("logo-b").locked
    assert not again.layout.get("title").locked


def test_set_locked_round_trips_and_blocks_later_edits() -> None:
    doc = _doc()
    apply_action(doc, {"type": "set_locked", "ids": ["signup"]})
    assert all(doc.layout.get(i).locked for i in ("signup", "signup-bg", "signup-label"))
    with pytest.raises(InvalidAction, match="locked"):
        apply_action(doc, {"type": "move", "ids": ["signup"], "dx": 5})
    again = import_svg_text(_svg(doc).decode(), source="locked.svg")
    assert again.layout.get("signup").locked and again.layout.get("signup-label").locked
    with pytest.raises(InvalidAction, match="inside the locked group 'signup'; unlock that group"):
        apply_action(doc, {"type": "set_locked", "ids": ["signup-label"], "locked": False})
    apply_action(doc, {"type": "set_locked", "ids": ["signup"], "locked": False})
    assert apply_action(doc, {"type": "move", "ids": ["signup"], "dx": 5}).changed_ids
    assert not import_svg_text(_svg(doc).decode(), source="unlocked.svg").layout.get("signup-label").locked


@pytest.mark.parametrize("edit,message", [
    ({"type": "match_size", "dimension": "width", "ids": ["headline"], "target_id": "headline"},
     "is both the element to change and the one it is measured against"),
    ({"type": "match_size", "dimension": "width", "keep_aspect": False, "ids": ["headline"],
      "target_id": "garden-photo"}, "is text, which is not stretched"),
    ({"type": "match_size", "dimension": "width", "ids": ["signup-label"], "target_id": "signup"},
     "contains or is inside 'signup'"),
    ({"type": "match_size", "dimension": "width", "ids": ["headline"], "target_id": "nope"},
     "no element with this id"),
    ({"type": "set_gap", "gap": 5000, "id": "when", "target_id": "about"}, "past the bottom edge"),
    ({"type": "swap", "ids": ["signup", "signup-label"]}, "member of group 'signup'"),
])
def test_refusals_name_the_problem_and_change_nothing(edit, message) -> None:
    doc = _doc()
    before = _svg(doc)
    with pytest.raises(InvalidAction, match=message):
        apply_action(doc, edit)
    assert _svg(doc) == before


@pytest.mark.parametrize("bad,message", [
    ({"type": "swap", "ids": ["a"]}, "at least 2"),
    ({"type": "swap", "ids": ["a", "b", "c"]}, "at most 2"),
    ({"type": "set_gap", "gap": -1, "id": "a", "target_id": "b"}, "greater than or equal to 0"),
    ({"type": "match_size", "dimension": "depth", "ids": ["a"], "target_id": "b"}, "dimension"),
    ({"type": "match_size", "dimension": "width", "ids": ["a"]}, "target_id"),
])
def test_malformed_new_actions_are_refused_by_the_schema(bad, message) -> None:
    with pytest.raises(InvalidAction, match=message):
        parse_action(bad)


def test_the_model_grammar_writes_the_new_actions() -> None:
    ids = ["a", "b", "c"]
    gbnf = action_gbnf(ids)
    for kind in ("match_size", "set_gap", "swap", "set_locked"):
        assert f'\\"{kind}\\"' in gbnf
    assert within_grammar('{"type":"swap","ids":["a","b"]}', ids)
    assert not within_grammar('{"type":"swap","ids":["a","a"]}', ids)
    assert within_grammar('{"type":"match_size","dimension":"width","ids":["a"],"target_id":"b"}', ids)
    assert within_grammar('{"type":"set_gap","gap":12,"id":"a","target_id":"b"}', ids)
    assert within_grammar('{"type":"set_locked","ids":["c"],"locked":false}', ids)


@pytest.mark.anyio
async def test_the_mcp_server_applies_and_undoes_the_new_actions(tmp_path: Path) -> None:
    async with Client(build_server(make_workspace(tmp_path / "ws"))) as client:
        doc_id = data(await client.call_tool("open_document", {"path": "poster.svg"}))["doc_id"]
        edits = [{"type": "swap", "ids": ["title", "subtitle"]},
                 {"type": "set_gap", "gap": 30, "id": "caption", "target_id": "photo"},
                 {"type": "match_size", "dimension": "width", "ids": ["body"], "target_id": "caption"},
                 {"type": "set_locked", "ids": ["logo"]}]
        done = data(await client.call_tool("apply_edits", {"doc_id": doc_id, "edits": edits}))
        changed = {i for e in done["edits"] for i in e["changed_ids"]}
        assert done["applied"] and {"title", "subtitle", "caption", "body", "logo"} <= changed
        assert [e["type"] for e in done["edits"]] == ["swap", "set_gap", "match_size", "set_locked"]
        refused = await client.call_tool("move_elements", {"doc_id": doc_id, "ids": ["logo"], "dx": 5, "dy": 0},
                                         raise_on_error=False)
        assert refused.is_error
        undone = data(await client.call_tool("undo", {"doc_id": doc_id}))
        assert undone["revision"] == 2
