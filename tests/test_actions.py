"""Core actions on real documents: move, resize, align; exact undo; minimal patches; atomic batches."""

from __future__ import annotations

import math

import pytest
from actions_support import changed_nodes, layout_dump, osgeo, poster, reimport_mismatches, serialize

from assistant.actions import apply_action, apply_actions, redo_diff, undo_diff
from assistant.errors import InvalidAction


def test_move_in_nested_rotated_group_lands_in_world_space():
    doc = poster()
    old = doc.layout.get("box").box
    diff = apply_action(doc, {"type": "move", "ids": ["box"], "dx": 12.5, "dy": -7.25})
    new = doc.layout.get("box").box
    assert (new.x - old.x, new.y - old.y) == pytest.approx((12.5, -7.25), abs=1e-9)
    assert (new.width, new.height) == pytest.approx((old.width, old.height), abs=1e-9)
    assert diff.changed_ids == ["box"]
    assert reimport_mismatches(doc) == []


def test_move_under_skewed_parent_is_exact():
    doc = poster()
    apply_action(doc, {"type": "move", "ids": ["dot"], "dx": -30, "dy": 41.5})
    assert reimport_mismatches(doc) == []


def test_move_group_moves_its_members():
    doc = poster()
    label = doc.layout.get("card-label").box
    diff = apply_action(doc, {"type": "move", "ids": ["card"], "dx": 10, "dy": 20})
    assert set(diff.changed_ids) == {"card", "card-bg", "card-label"}
    assert doc.layout.get("card-label").box.x == pytest.approx(label.x + 10)
    assert [p["node"] for p in diff.to_json()["xml_patch"]] == ["card"]
    assert reimport_mismatches(doc) == []


def test_move_patch_is_minimal():
    doc = poster()
    before = serialize(doc)
    apply_action(doc, {"type": "move", "ids": ["box", "title", "card"], "dx": 3, "dy": 4})
    assert changed_nodes(before, serialize(doc)) == {"box", "title", "card"}


@pytest.mark.parametrize("anchor", ["top_left", "center", "bottom_right", "right"])
def test_resize_keeps_anchor_and_aspect(anchor):
    doc = poster()
    old = doc.layout.get("box").box
    apply_action(doc, {"type": "resize", "id": "box", "width": old.width * 1.5, "anchor": anchor})
    new = doc.layout.get("box").box
    assert new.width == pytest.approx(old.width * 1.5)
    assert new.height == pytest.approx(old.height * 1.5)
    fx = {"top_left": 0, "center": 0.5, "bottom_right": 1, "right": 1}[anchor]
    fy = {"top_left": 0, "center": 0.5, "bottom_right": 1, "right": 0.5}[anchor]
    assert new.x + fx * new.width == pytest.approx(old.x + fx * old.width)
    assert new.y + fy * new.height == pytest.approx(old.y + fy * old.height)
    assert reimport_mismatches(doc) == []


def test_resize_free_aspect_and_text_font_size():
    doc = poster()
    old = doc.layout.get("dot").box
    apply_action(doc, {"type": "resize", "id": "dot", "width": 40, "height": 20, "keep_aspect": False})
    assert doc.layout.get("dot").box.as_tuple()[2:] == pytest.approx((40, 20))
    assert doc.layout.get("dot").box.x == pytest.approx(old.x)
    size = doc.layout.get("title").font_size
    apply_action(doc, {"type": "resize", "id": "title", "scale": 0.5})
    assert doc.layout.get("title").font_size == pytest.approx(size * 0.5)
    assert reimport_mismatches(doc) == []


@pytest.mark.parametrize("edge,to", [
    ("left", "each_other"), ("right", "each_other"), ("center_x", "each_other"),
    ("top", "margins"), ("center_x", "canvas"), ("bottom", "margins"), ("top", "canvas"), ("center_y", "element"),
])
def test_align(edge, to):
    doc = poster()
    ids = ["box", "dot", "sub"]
    action = {"type": "align", "ids": ids, "edge": edge, "to": to}
    if to == "element":
        action["target_id"] = "title"
    apply_action(doc, action)
    key = {"left": "x", "right": "x2", "center_x": "cx", "top": "y", "bottom": "y2", "center_y": "cy"}[edge]
    values = [getattr(doc.layout.get(i).box, key) for i in ids]
    assert max(values) - min(values) < 1e-9
    if to == "canvas":
        assert values[0] == pytest.approx(getattr(doc.layout.canvas.box, key))
    if to == "margins":
        assert values[0] == pytest.approx(getattr(doc.layout.canvas.safe_box, key))
    if to == "element":
        assert values[0] == pytest.approx(getattr(doc.layout.get("title").box, key))
    assert reimport_mismatches(doc) == []


def test_align_each_other_left_uses_leftmost():
    doc = poster()
    leftmost = min(doc.layout.get(i).box.x for i in ("box", "dot", "body"))
    apply_action(doc, {"type": "align", "ids": ["box", "dot", "body"], "edge": "left"})
    assert doc.layout.get("dot").box.x == pytest.approx(leftmost)


def test_align_baselines_of_text():
    doc = poster()
    apply_action(doc, {"type": "move", "ids": ["card"], "dx": -40, "dy": 140})
    apply_action(doc, {"type": "align", "ids": ["title", "card-label"], "edge": "baseline", "to": "each_other"})
    from assistant.actions.text_ops import baseline_of
    assert baseline_of(doc, doc.layout.get("card-label")) == pytest.approx(baseline_of(doc, doc.layout.get("title")))
    assert baseline_of(doc, doc.layout.get("title")) == pytest.approx(200.0)
    assert reimport_mismatches(doc, ids=["title", "card-label"]) == []


ACTIONS = [
    {"type": "move", "ids": ["box", "card"], "dx": 5, "dy": 6},
    {"type": "resize", "id": "dot", "scale": 1.3, "anchor": "center"},
    {"type": "align", "ids": ["title", "sub", "body"], "edge": "left", "to": "margins"},
    {"type": "align", "ids": ["title", "sub"], "edge": "center_x", "to": "canvas"},
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a["type"])
def test_undo_is_byte_exact_and_redo_replays(action):
    doc = poster()
    tree0, layout0 = serialize(doc), layout_dump(doc)
    diff = apply_action(doc, action)
    tree1, layout1 = serialize(doc), layout_dump(doc)
    assert tree1 != tree0
    undo_diff(doc, diff)
    assert serialize(doc) == tree0
    assert layout_dump(doc) == layout0
    redo_diff(doc, diff)
    assert serialize(doc) == tree1
    assert layout_dump(doc) == layout1


def test_batch_applies_in_order_and_undoes_exactly():
    doc = poster()
    tree0, layout0 = serialize(doc), layout_dump(doc)
    diffs = apply_actions(doc, ACTIONS)
    assert len(diffs) == len(ACTIONS)
    assert reimport_mismatches(doc) == []
    for d in reversed(diffs):
        undo_diff(doc, d)
    assert serialize(doc) == tree0 and layout_dump(doc) == layout0


def test_batch_is_atomic_and_names_the_failing_action():
    doc = poster()
    tree0, layout0 = serialize(doc), layout_dump(doc)
    bad = ACTIONS[:3] + [{"type": "move", "ids": ["nope"], "dx": 1}]
    with pytest.raises(InvalidAction) as info:
        apply_actions(doc, bad)
    assert "action 3 (move)" in str(info.value) and "'nope'" in str(info.value)
    assert serialize(doc) == tree0 and layout_dump(doc) == layout0


def test_batch_with_malformed_action_applies_nothing():
    doc = poster()
    tree0 = serialize(doc)
    with pytest.raises(InvalidAction, match="action 1"):
        apply_actions(doc, [ACTIONS[0], {"type": "move", "ids": ["box"], "dx": "far"}])
    assert serialize(doc) == tree0


BAD = [
    ({"type": "move", "ids": ["ghost"], "dx": 1}, "ghost", "no element"),
    ({"type": "move", "ids": ["locked"], "dx": 1}, "locked", "locked"),
    ({"type": "move", "ids": ["frozen-a"], "dx": 1}, "frozen-a", "locked"),
    ({"type": "set_text_style", "ids": ["frozen-b"], "fill": "#ff0000"}, "frozen-b", "locked"),
    ({"type": "move", "ids": ["title"], "dx": 5000}, "title", "past the right edge"),
    ({"type": "move", "ids": ["title"], "dy": -400}, "title", "past the top edge"),
    ({"type": "resize", "id": "box", "scale": 50}, "box", "past the"),
    ({"type": "move", "ids": ["card", "card-label"], "dx": 1}, "card-label", "member of group"),
    ({"type": "move", "ids": ["box", "box"], "dx": 1}, "box", "twice"),
    ({"type": "align", "ids": ["box", "title"], "edge": "baseline"}, "box", "only text"),
    ({"type": "align", "ids": ["title"], "edge": "left", "to": "element", "target_id": "zzz"}, "zzz", "no element"),
]


@pytest.mark.parametrize("action,element,words", BAD, ids=[f"{b[0]['type']}-{b[2]}" for b in BAD])
def test_invalid_actions_name_the_element_and_change_nothing(action, element, words):
    doc = poster()
    tree0, layout0 = serialize(doc), layout_dump(doc)
    with pytest.raises(InvalidAction) as info:
        apply_action(doc, action)
    assert info.value.element_id == element
    assert words in str(info.value)
    assert serialize(doc) == tree0 and layout_dump(doc) == layout0


def test_member_of_locked_group_is_refused_and_group_with_locked_member_too():
    doc = poster()
    card = doc.layout.get("card")
    doc.layout.replace(card.model_copy(update={"locked": True}))
    tree0 = serialize(doc)
    with pytest.raises(InvalidAction, match="inside the locked group 'card'"):
        apply_action(doc, {"type": "move", "ids": ["card-label"], "dx": 1})
    doc.layout.replace(card)
    label = doc.layout.get("card-label")
    doc.layout.replace(label.model_copy(update={"locked": True}))
    with pytest.raises(InvalidAction, match="member 'card-label' is locked"):
        apply_action(doc, {"type": "move", "ids": ["card"], "dx": 1})
    assert serialize(doc) == tree0


def test_off_canvas_message_says_how_far():
    doc = poster()
    x2 = doc.layout.get("title").box.x2
    with pytest.raises(InvalidAction) as info:
        apply_action(doc, {"type": "move", "ids": ["title"], "dx": 400 - x2 + 25})
    assert "25 units past the right edge" in str(info.value)


def test_bleed_may_stay_beyond_canvas_but_not_go_further():
    from assistant.importer import import_svg_text
    doc = import_svg_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 600">'
                          '<rect id="bleed" x="-10" y="-10" width="420" height="620" fill="#eeeeee"/>'
                          '<rect id="pic" x="50" y="50" width="100" height="80" fill="#335577"/></svg>')
    with pytest.raises(InvalidAction, match="past the left edge"):
        apply_action(doc, {"type": "move", "ids": ["bleed"], "dx": -5})
    with pytest.raises(InvalidAction, match="past the left edge"):
        apply_action(doc, {"type": "resize", "id": "bleed", "scale": 1.1, "anchor": "center"})
    with pytest.raises(InvalidAction, match="15 units past the right edge"):
        apply_action(doc, {"type": "move", "ids": ["bleed"], "dx": 5})  # less bleed left, more right
    apply_action(doc, {"type": "resize", "id": "bleed", "scale": 0.9, "anchor": "center"})
    assert doc.layout.get("bleed").box.width == pytest.approx(378)
    assert reimport_mismatches(doc) == []


@pytest.mark.parametrize("name", ["gdal_a4.svg", "postgis-flyer-a4.svg", "geonetwork_a4.svg"])
def test_real_flyer_edits_round_trip_through_reimport(name):
    doc = osgeo(name)
    tree0, layout0 = serialize(doc), layout_dump(doc)
    c = doc.layout.canvas
    # Elements cut by the canvas edge are clipped by an ancestor clip-path that does not move with them:
    # their visible box is not a mapped copy of the old one (a documented limit), so the check uses the
    # elements that lie inside the canvas.
    movable = [e for e in doc.layout.top_level() if not e.locked and e.role != "background"
               and c.x < e.box.x and e.box.x2 < c.x + c.width and c.y < e.box.y and e.box.y2 < c.y + c.height]
    diffs = []
    for e in movable[:8]:
        dx = 2.5 if e.box.x2 + 2.5 <= c.x + c.width else -2.5 if e.box.x - 2.5 >= c.x else 0.0
        dy = -1.75 if e.box.y - 1.75 >= c.y else 1.75 if e.box.y2 + 1.75 <= c.y + c.height else 0.0
        diffs.append(apply_action(doc, {"type": "move", "ids": [e.id], "dx": dx, "dy": dy}))
    shrink = max(movable, key=lambda e: e.box.area)
    diffs.append(apply_action(doc, {"type": "resize", "id": shrink.id, "scale": 0.9, "anchor": "center"}))
    assert reimport_mismatches(doc, ids=[e.id for e in movable]) == []
    for d in reversed(diffs):
        undo_diff(doc, d)
    assert serialize(doc) == tree0
    assert layout_dump(doc) == layout0


def test_finalize_changes_nothing():
    doc = poster()
    tree0 = serialize(doc)
    diff = apply_action(doc, {"type": "finalize"})
    assert diff.is_noop and serialize(doc) == tree0


def test_diff_json_lists_exact_patch():
    doc = poster()
    diff = apply_action(doc, {"type": "move", "ids": ["title"], "dx": 10, "dy": 0})
    j = diff.to_json()
    assert j["changed_ids"] == ["title"]
    assert j["after"]["title"][0] - j["before"]["title"][0] == pytest.approx(10)
    (op,) = j["xml_patch"]
    assert op == {"node": "title", "op": "attribute", "name": "transform", "old": None, "new": "translate(10,0)"}
    assert all(math.isfinite(v) for v in j["after"]["title"])


def test_apply_actions_accepts_one_action_or_a_json_array():
    doc = poster()
    assert len(apply_actions(doc, {"type": "move", "ids": ["box"], "dx": 1})) == 1
    assert len(apply_actions(doc, '[{"type": "finalize"}, {"type": "move", "ids": ["box"], "dx": 1}]')) == 2
