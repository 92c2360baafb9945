"""The action vocabulary: JSON schema shape and parsing errors."""

from __future__ import annotations

import json

import pytest

from assistant.actions import ACTION_TYPES, Move, Resize, action_json_schema, parse_action, parse_actions
from assistant.errors import InvalidAction

VOCABULARY = ["move", "resize", "align", "distribute", "snap_to_grid", "reflow_text", "reflow_group", "promote",
              "demote", "anchor_to_region", "reorder", "apply_template", "set_text_style", "set_paint", "match_size",
              "set_gap", "swap", "set_locked", "finalize"]


def _walk(node):
    yield node
    if isinstance(node, dict):
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_vocabulary_is_exactly_the_agreed_one():
    assert list(ACTION_TYPES) == VOCABULARY


def test_schema_is_flat_strict_and_discriminated():
    schema = action_json_schema()
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text
    variants = schema["oneOf"]
    assert [v["properties"]["type"]["const"] for v in variants] == VOCABULARY
    for v in variants:
        assert v["additionalProperties"] is False
        assert v["required"][0] == "type"
        for name, prop in v["properties"].items():
            if name != "type":
                assert prop.get("description"), (v["title"], name)
    numbers = [n for n in _walk(schema) if isinstance(n, dict) and n.get("type") == "number"]
    assert numbers and all("maximum" in n or "exclusiveMaximum" in n for n in numbers)
    id_lists = [v["properties"]["ids"] for v in variants if "ids" in v["properties"]]
    assert all(p["minItems"] >= 1 and p["items"]["minLength"] == 1 for p in id_lists)


def test_schema_of_one_type():
    s = action_json_schema("align")
    assert s["properties"]["edge"]["enum"] == ["left", "right", "top", "bottom", "center_x", "center_y", "baseline"]
    with pytest.raises(KeyError, match="valid types"):
        action_json_schema("teleport")


def test_parse_from_dict_json_and_model():
    a = parse_action({"type": "move", "ids": ["a"], "dx": 3, "dy": -1.5})
    assert isinstance(a, Move) and a.dx == 3.0
    assert parse_action(json.dumps(a.to_json())) == a
    assert parse_action(a) is a
    r = parse_action('{"type": "resize", "id": "x", "scale": 2}')
    assert isinstance(r, Resize) and r.anchor == "top_left" and r.keep_aspect is True


@pytest.mark.parametrize("obj,words", [
    ({"type": "teleport", "ids": ["a"]}, "unknown action type 'teleport'; valid types: move, resize"),
    ({"ids": ["a"], "dx": 1}, "no 'type'"),
    ({"type": "move", "ids": ["a"], "dx": "far"}, "dx"),
    ({"type": "move", "ids": ["a"], "dx": True}, "dx"),
    ({"type": "move", "ids": "a", "dx": 1}, "ids"),
    ({"type": "move", "ids": [], "dx": 1}, "ids"),
    ({"type": "move", "ids": [""], "dx": 1}, "ids"),
    ({"type": "move", "ids": ["a"], "dx": float("nan")}, "finite"),
    ({"type": "move", "ids": ["a"], "dx": float("inf")}, "finite"),
    ({"type": "move", "ids": ["a"], "dx": 1e12}, "dx"),
    ({"type": "move", "ids": ["a"], "dz": 1}, "dz"),
    ({"type": "resize", "id": "a"}, "width, height or scale"),
    ({"type": "resize", "id": "a", "width": 0}, "width"),
    ({"type": "resize", "id": "a", "width": -5}, "width"),
    ({"type": "resize", "id": "a", "height": float("nan")}, "finite"),
    ({"type": "resize", "id": "a", "scale": 2, "anchor": "middle"}, "anchor"),
    ({"type": "align", "ids": ["a"], "edge": "left", "to": "element"}, "target_id"),
    ({"type": "distribute", "ids": ["a"], "axis": "horizontal"}, "ids"),
    ({"type": "set_text_style", "ids": ["a"]}, "at least one"),
    ({"type": "set_text_style", "ids": ["a"], "fill": "red"}, "fill"),
    ({"type": "promote", "id": "a", "factor": 0.5}, "factor"),
    ({"type": "apply_template", "template": "nope"}, "template"),
    ({"type": "reflow_text", "id": "a", "min_size": 20, "max_size": 10}, "min_size"),
    ("{not json", "not valid JSON"),
    ('{"type": "move", "ids": ["a"], "dx": NaN}', "finite"),
    (["move"], "JSON object"),
])
def test_parse_errors_are_clear(obj, words):
    with pytest.raises(InvalidAction) as info:
        parse_action(obj)
    assert words in str(info.value)


def test_parse_actions_names_the_index():
    with pytest.raises(InvalidAction, match="action 1: unknown action type"):
        parse_actions([{"type": "finalize"}, {"type": "fly"}])
    assert len(parse_actions('[{"type": "finalize"}, {"type": "move", "ids": ["a"], "dx": 1}]')) == 2


def test_actions_are_immutable_and_round_trip():
    for t in VOCABULARY:
        schema = action_json_schema(t)
        assert schema["properties"]["type"]["const"] == t
    a = parse_action({"type": "distribute", "ids": ["a", "b"], "axis": "vertical", "mode": "centers"})
    with pytest.raises(Exception):
        a.axis = "horizontal"  # type: ignore[misc]
    assert parse_action(a.to_json()) == a
