"""The shared prompt format: prompts, canonical targets, parsing, chat records."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assistant.errors import InvalidAction
from assistant.planners.prompting import (
    ACTION_MARK,
    STOP_SEQUENCES,
    build_prompt,
    canonical_action,
    format_target,
    make_record,
    parse_completion,
    render_record,
)

OBS = "canvas 800x600\ntitle#title text 'Spring Sale' box=40,40,400,80\nlogo#logo image box=700,520,60,60"


def test_prompt_has_sections_in_order_and_ends_at_action_marker() -> None:
    p = build_prompt(OBS, "push the logo into the top-right corner", kind="applicator")
    i_sys, i_lay, i_req, i_act = (p.index(m) for m in ("### System", "### Layout", "### Request", "### Action"))
    assert i_sys < i_lay < i_req < i_act
    assert p.endswith(ACTION_MARK + "\n")
    assert "push the logo into the top-right corner" in p


def test_planner_prompt_uses_goal_section_and_empty_goal_is_explicit() -> None:
    p = build_prompt(OBS, "", kind="planner")
    assert "### Goal\n(none)\n" in p and "### Request" not in p
    assert build_prompt(OBS, "a", kind="planner") != build_prompt(OBS, "a", kind="applicator")


def test_unknown_kind_is_rejected() -> None:
    with pytest.raises(ValueError, match="kind"):
        build_prompt(OBS, "x", kind="critic")  # type: ignore[arg-type]


def test_format_target_is_canonical_compact_single_line() -> None:
    a = {"dy": -10.04, "ids": ["title"], "type": "move", "dx": 12.349999}
    t = format_target(a)
    assert t == '{"type":"move","ids":["title"],"dx":12.3,"dy":-10}\n'
    assert t.count("\n") == 1 and t.endswith("\n")
    # key order does not depend on the input order
    assert format_target(dict(reversed(list(a.items())))) == t


def test_optional_nulls_dropped_and_ratios_keep_two_decimals() -> None:
    t = format_target({"type": "resize", "id": "logo", "width": None, "height": None,
                       "scale": 1.2345, "anchor": "center", "keep_aspect": True})
    obj = json.loads(t)
    assert obj == {"type": "resize", "id": "logo", "scale": 1.23, "anchor": "center", "keep_aspect": True}
    assert list(obj)[0] == "type"
    assert (canonical_action({"type": "promote", "id": "t", "factor": 1.0})
            == {"type": "promote", "id": "t", "factor": 1})


def test_non_finite_number_is_rejected() -> None:
    with pytest.raises(InvalidAction, match="finite"):
        format_target({"type": "move", "ids": ["a"], "dx": float("nan"), "dy": 0.0})


def test_parse_completion_roundtrips_format_target() -> None:
    a = {"type": "align", "ids": ["a", "b"], "edge": "left", "to": "each_other"}
    assert parse_completion(format_target(a)) == canonical_action(a)


def test_parse_completion_tolerates_surrounding_text_and_braces_in_strings() -> None:
    text = 'Sure: {"type":"set_text_style","ids":["t"],"fill":"#ff0000","font_family":"A {b}"} trailing'
    assert parse_completion(text)["font_family"] == "A {b}"


@pytest.mark.parametrize("bad", ["", "no json here", '{"type":"move","ids":["a"]', '{"ids":["a"]}',
                                 "{'type': 'move'}", '["type"]', '{"type": 3}'])
def test_parse_completion_errors_are_invalid_action(bad: str) -> None:
    with pytest.raises(InvalidAction):
        parse_completion(bad)


def test_record_renders_to_exactly_the_runtime_prompt_and_target() -> None:
    action = {"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"}
    for kind in ("applicator", "planner"):
        rec = make_record(OBS, "logo to the top right", action, kind=kind, meta={"task": "t", "seed": 1})
        json.loads(json.dumps(rec))  # JSONL-serialisable
        assert [m["role"] for m in rec["messages"]] == ["system", "user", "assistant"]
        prompt, completion = render_record(rec)
        assert prompt == build_prompt(OBS, "logo to the top right", kind=kind)
        assert completion == format_target(action)


def test_stop_sequence_cuts_after_the_json_line() -> None:
    completion = format_target({"type": "finalize"}) + "### garbage the model might continue with"
    cut = min(completion.find(s) for s in STOP_SEQUENCES if s in completion)
    assert parse_completion(completion[:cut]) == {"type": "finalize"}


def test_render_record_rejects_malformed_records() -> None:
    with pytest.raises(ValueError):
        render_record({"messages": [{"role": "user", "content": "x"}]})
    with pytest.raises(ValueError):
        render_record({})


def test_module_is_import_light() -> None:
    code = "import sys, assistant.planners.prompting; print(any(m in sys.modules for m in ('torch','transformers')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_key_order_follows_the_action_schema() -> None:
    from assistant.actions import action_json_schema

    for sub in action_json_schema()["oneOf"]:
        kind = sub["properties"]["type"]["const"]
        full = {k: ("x" if k != "type" else kind) for k in sub["properties"]}
        assert list(canonical_action(full)) == list(sub["properties"])
