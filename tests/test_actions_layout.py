"""Layout actions: distribute, snap_to_grid, reflow_group, anchor_to_region, reorder, apply_template, promote."""

from __future__ import annotations

import pytest
from actions_support import layout_dump, osgeo, poster, reimport_mismatches, serialize

from assistant.actions import apply_action, undo_diff
from assistant.actions.templates import TEMPLATES, canvas_shape, templates_for
from assistant.errors import InvalidAction
from assistant.importer import import_svg_text
from assistant.regions import region_box


def _exact_undo(doc, action):
    """Apply, check the re-import agrees, undo, check byte-exact restore; return the diff."""
    tree0, layout0 = serialize(doc), layout_dump(doc)
    diff = apply_action(doc, action)
    assert reimport_mismatches(doc, ids=diff.changed_ids) == []
    after = layout_dump(doc)
    undo_diff(doc, diff)
    assert serialize(doc) == tree0 and layout_dump(doc) == layout0
    return diff, after


def _boxes(after, ids):
    return {e["id"]: e["box"] for e in after if e["id"] in ids}


def test_distribute_gaps_keeps_ends_and_equalises_gaps():
    doc = poster()
    ids = ["title", "sub", "body"]
    ends = {i: doc.layout.get(i).box for i in ("title", "body")}
    diff, after = _exact_undo(doc, {"type": "distribute", "ids": ids, "axis": "vertical"})
    b = _boxes(after, ids)
    gaps = [b["sub"]["y"] - (b["title"]["y"] + b["title"]["height"]),
            b["body"]["y"] - (b["sub"]["y"] + b["sub"]["height"])]
    assert gaps[0] == pytest.approx(gaps[1])
    assert b["title"]["y"] == pytest.approx(ends["title"].y) and b["body"]["y"] == pytest.approx(ends["body"].y)
    assert diff.changed_ids == ["sub"]


def test_distribute_centers_with_fixed_pitch():
    doc = poster()
    ids = ["box", "dot", "title"]
    _, after = _exact_undo(doc, {"type": "distribute", "ids": ids, "axis": "horizontal", "mode": "centers",
                                 "gap": 30})
    centres = sorted(v["x"] + v["width"] / 2 for v in _boxes(after, ids).values())
    assert centres[1] - centres[0] == pytest.approx(30) and centres[2] - centres[1] == pytest.approx(30)


def test_distribute_refuses_when_elements_do_not_fit():
    doc = poster()
    with pytest.raises(InvalidAction, match="longer together"):
        apply_action(doc, {"type": "distribute", "ids": ["title", "sub"], "axis": "horizontal"})


def test_snap_to_square_grid_and_columns():
    doc = poster()
    _, after = _exact_undo(doc, {"type": "snap_to_grid", "ids": ["box", "dot", "title"], "size": 10})
    for b in _boxes(after, ["box", "dot", "title"]).values():
        assert b["x"] / 10 == pytest.approx(round(b["x"] / 10)) and b["y"] / 10 == pytest.approx(round(b["y"] / 10))
    _, after = _exact_undo(doc, {"type": "snap_to_grid", "ids": ["dot"], "columns": 6})
    safe = doc.layout.canvas.safe_box
    k = (_boxes(after, ["dot"])["dot"]["x"] - safe.x) / (safe.width / 6)
    assert k == pytest.approx(round(k))


def test_reflow_group_stacks_a_group_with_one_gap():
    doc = poster()
    ids = ["title", "sub", "body"]
    _, after = _exact_undo(doc, {"type": "reflow_group", "ids": ids, "gap": 12, "align": "start"})
    b = sorted(_boxes(after, ids).values(), key=lambda v: v["y"])
    for p, n in zip(b, b[1:]):
        assert n["y"] - (p["y"] + p["height"]) == pytest.approx(12)
    assert len({round(v["x"], 9) for v in b}) == 1
    _, after = _exact_undo(doc, {"type": "reflow_group", "ids": ["card"], "axis": "vertical", "align": "center"})
    members = _boxes(after, ["card-bg", "card-label"])
    assert members["card-label"]["y"] >= members["card-bg"]["y"] + members["card-bg"]["height"] - 1e-9


def test_reflow_group_needs_a_group_or_several_ids():
    with pytest.raises(InvalidAction, match="group id or at least two"):
        apply_action(poster(), {"type": "reflow_group", "ids": ["title"]})


@pytest.mark.parametrize("region", ["top_left", "top", "bottom_right", "center", "hero", "footer", "top_band"])
def test_anchor_to_region_places_the_block(region):
    doc = poster()
    _, after = _exact_undo(doc, {"type": "anchor_to_region", "ids": ["card"], "region": region})
    b = _boxes(after, ["card"])["card"]
    r = region_box(doc.layout.canvas, region)
    if region in ("top_left", "top", "top_band"):
        assert b["y"] == pytest.approx(r.y)
    if region in ("bottom_right", "footer"):
        assert b["y"] + b["height"] == pytest.approx(r.y2)
    if region in ("center", "hero", "top", "footer", "top_band"):
        assert b["x"] + b["width"] / 2 == pytest.approx(r.cx)
    if region == "bottom_right":
        assert b["x"] + b["width"] == pytest.approx(r.x2)


def test_reorder_changes_paint_order_in_xml_and_layout():
    doc = poster()
    diff, after = _exact_undo(doc, {"type": "reorder", "id": "box", "to": "front"})
    order = [e["id"] for e in after]
    assert order.index("box") > order.index("frozen-b")
    assert [p["node"] for p in diff.to_json()["xml_patch"]] == ["outer"]
    zs = {e["id"]: e["z"] for e in after}
    assert zs["box"] == max(zs.values())
    diff, after = _exact_undo(doc, {"type": "reorder", "id": "title", "to": "backward"})
    order = [e["id"] for e in after]
    assert order.index("title") < order.index("dot")
    diff, after = _exact_undo(doc, {"type": "reorder", "id": "card", "to": "back"})
    assert [e["id"] for e in after][:4] == ["bg", "card", "card-bg", "card-label"]


def _painted_order(doc) -> list[str]:
    return [n.get("id") for n in doc.root.iter() if isinstance(n.tag, str) and n.get("id")]


def test_reorder_behind_or_in_front_of_another_element():
    doc = poster()
    diff, after = _exact_undo(doc, {"type": "reorder", "id": "body", "to": "back", "target_id": "title"})
    order = [e["id"] for e in after]
    assert order.index("dot") < order.index("body") == order.index("title") - 1  # just behind it, not at the back
    assert [p["node"] for p in diff.to_json()["xml_patch"]] == ["body"]
    # the box drawn inside two groups that wrap nothing else: the outer group moves, in front of the subtitle
    diff, after = _exact_undo(doc, {"type": "reorder", "id": "box", "to": "front", "target_id": "sub"})
    order = [e["id"] for e in after]
    assert order.index("sub") < order.index("box") < order.index("body")
    assert [p["node"] for p in diff.to_json()["xml_patch"]] == ["outer"]


def test_reorder_against_an_element_it_is_already_behind_changes_nothing():
    doc = poster()
    tree = serialize(doc)
    diff = apply_action(doc, {"type": "reorder", "id": "title", "to": "back", "target_id": "body"})
    assert diff.is_noop and serialize(doc) == tree
    assert any("behind 'body' already" in n for n in diff.notes)


def test_reorder_of_a_member_against_an_element_outside_its_group_moves_the_other():
    doc = poster()
    # the label cannot leave its card (that would drop the card's transform): the title goes in front of it
    action = {"type": "reorder", "id": "card-label", "to": "back", "target_id": "title"}
    _exact_undo(doc, action)
    diff = apply_action(doc, action)
    order = _painted_order(doc)
    assert order.index("card-label") < order.index("title")
    assert order.index("card-bg") < order.index("card-label")  # the card itself is as it was
    assert any("'title' moved" in n for n in diff.notes)


def test_reorder_against_another_refuses_what_cannot_be():
    doc = poster()
    with pytest.raises(InvalidAction, match="contains or is inside 'card-bg'"):
        apply_action(doc, {"type": "reorder", "id": "card", "to": "back", "target_id": "card-bg"})
    with pytest.raises(InvalidAction, match="needs to='front' or to='back'"):
        apply_action(doc, {"type": "reorder", "id": "title", "to": "forward", "target_id": "body"})
    with pytest.raises(InvalidAction, match="against itself"):
        apply_action(doc, {"type": "reorder", "id": "title", "to": "front", "target_id": "title"})
    with pytest.raises(InvalidAction, match="nope"):
        apply_action(doc, {"type": "reorder", "id": "title", "to": "front", "target_id": "nope"})


def test_reorder_at_the_top_is_a_noop():
    doc = poster()
    apply_action(doc, {"type": "reorder", "id": "title", "to": "front"})
    tree = serialize(doc)
    diff = apply_action(doc, {"type": "reorder", "id": "title", "to": "forward"})
    assert diff.is_noop and serialize(doc) == tree


def test_templates_exist_for_every_canvas_shape():
    shapes = {shape for shape, _ in TEMPLATES.values()}
    assert shapes == {"portrait", "landscape", "square"}
    for shape in shapes:
        assert sum(1 for s, _ in TEMPLATES.values() if s == shape) >= 2


def test_apply_template_on_a_real_flyer_puts_roles_in_their_slots():
    doc = osgeo("gdal_a4.svg")
    assert canvas_shape(doc.layout.canvas) == "portrait"
    diff, after = _exact_undo(doc, {"type": "apply_template", "template": "classic-column"})
    assert diff.changed_ids
    safe = doc.layout.canvas.safe_box
    by_id = {e["id"]: e for e in after}
    for i in diff.changed_ids:
        e = by_id[i]
        if e["group"] is None:
            b = e["box"]
            assert safe.x - 1e-6 <= b["x"] and b["x"] + b["width"] <= safe.x2 + 1e-6


def test_apply_template_refuses_the_wrong_canvas_shape():
    doc = poster()
    with pytest.raises(InvalidAction, match="landscape") as info:
        apply_action(doc, {"type": "apply_template", "template": "title-left"})
    for name in templates_for(doc.layout.canvas):
        assert name in str(info.value)


def test_apply_template_landscape_slide():
    doc = import_svg_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 900">'
        '<rect id="bg" width="1600" height="900" fill="#f4f4f4"/>'
        '<image id="photo" x="100" y="500" width="400" height="300" href="data:image/png;base64,iVBORw0KGgo="/>'
        '<text id="headline" x="900" y="120" font-size="64" font-family="DejaVu Sans" font-weight="bold">'
        'Quarterly results</text>'
        '<text id="note" x="900" y="820" font-size="20" font-family="DejaVu Sans">Internal use only</text></svg>')
    assert {e.id: e.role for e in doc.layout} == {"bg": "background", "photo": "image", "headline": "title",
                                                  "note": "caption"}
    diff, after = _exact_undo(doc, {"type": "apply_template", "template": "title-left"})
    assert diff.changed_ids == ["photo", "headline", "note"]
    safe = doc.layout.canvas.safe_box
    b = _boxes(after, ["headline", "photo"])
    h, p = b["headline"], b["photo"]
    assert h["x"] == pytest.approx(safe.x) and h["x"] + h["width"] <= safe.x + 0.5 * safe.width + 1e-6
    assert p["x"] >= safe.x + 0.55 * safe.width - 1e-6 and p["x"] + p["width"] <= safe.x2 + 1e-6
    assert p["width"] > 400  # the image grows to fill its slot


def test_promote_grows_text_and_pushes_colliding_followers():
    doc = poster()
    title, sub = doc.layout.get("title"), doc.layout.get("sub")
    diff, after = _exact_undo(doc, {"type": "promote", "id": "title", "factor": 1.6})
    by_id = {e["id"]: e for e in after}
    assert by_id["title"]["font_size"] == pytest.approx(title.font_size * 1.6)
    assert by_id["title"]["font_weight"] >= title.font_weight
    assert by_id["title"]["box"]["y"] == pytest.approx(title.box.y)
    t, s = by_id["title"]["box"], by_id["sub"]["box"]
    assert s["y"] >= t["y"] + t["height"] - 1e-6
    assert s["y"] - sub.box.y == pytest.approx(t["y"] + t["height"] - title.box.y2)
    assert "sub" in diff.changed_ids


def test_demote_shrinks_and_lightens():
    doc = poster()
    title = doc.layout.get("title")
    _, after = _exact_undo(doc, {"type": "demote", "id": "title", "factor": 1.5})
    t = {e["id"]: e for e in after}["title"]
    assert t["font_size"] == pytest.approx(title.font_size / 1.5)
    assert t["font_weight"] < title.font_weight


def test_promote_shape_scales_about_its_side():
    doc = poster()
    dot = doc.layout.get("dot")
    _, after = _exact_undo(doc, {"type": "promote", "id": "dot", "factor": 1.25})
    d = _boxes(after, ["dot"])["dot"]
    assert d["width"] == pytest.approx(dot.box.width * 1.25) and d["y"] == pytest.approx(dot.box.y)


def test_promote_refuses_to_push_a_locked_element():
    doc = import_svg_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400">'
        '<text id="h" x="20" y="60" font-size="30" font-family="DejaVu Sans">Heading</text>'
        '<rect id="l" data-locked="true" x="20" y="70" width="200" height="40" fill="#000000"/></svg>')
    tree = serialize(doc)
    with pytest.raises(InvalidAction, match="push it down") as info:
        apply_action(doc, {"type": "promote", "id": "h", "factor": 2})
    assert info.value.element_id == "l" and serialize(doc) == tree


INKSCAPE = """<svg xmlns:svg="http://www.w3.org/2000/svg" xmlns="http://www.w3.org/2000/svg"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 300 300">
  <g inkscape:groupmode="layer" id="layer1">
    <rect id="a" x="10" y="10" width="80" height="60" fill="#aa0000"/>
    <text id="t" x="20" y="150" font-size="14" font-family="DejaVu Sans">A line of text that will wrap</text>
    <rect id="b" x="150" y="10" width="80" height="60" fill="#0000aa"/>
  </g>
  <rect id="top" x="200" y="200" width="40" height="40" fill="#00aa00"/>
  <circle id="dot" cx="60" cy="250" r="20" fill="#aaaa00"/>
</svg>"""


@pytest.mark.parametrize("action", [
    {"type": "reorder", "id": "a", "to": "front"},
    {"type": "reorder", "id": "b", "to": "back"},
    {"type": "reflow_text", "id": "t", "mode": "wrap", "width": 100},
])
def test_restack_and_rewrap_keep_namespace_prefixes(action):
    doc = import_svg_text(INKSCAPE)
    tree0 = serialize(doc)
    diff = apply_action(doc, action)
    assert b"svg:" not in serialize(doc).split(b">", 1)[1]
    undo_diff(doc, diff)
    assert serialize(doc) == tree0


def test_restacking_a_root_child_under_a_prefixed_root_keeps_the_xml():
    from actions_support import same_xml
    doc = import_svg_text(INKSCAPE)
    tree0, layout0 = serialize(doc), layout_dump(doc)
    diff = apply_action(doc, {"type": "reorder", "id": "top", "to": "front"})
    order = [c.get("id") for c in doc.root]
    assert order[-1] == "top"
    undo_diff(doc, diff)
    assert same_xml(serialize(doc), tree0) and layout_dump(doc) == layout0
