"""The one prompt format shared by model training and the runtime local planner.

Everything a language model sees or says goes through this module: the
training pipeline (``models/``) renders its examples with it and the runtime
planner builds its prompts and parses its answers with it, so the two can
never drift apart. It imports nothing heavy (no torch).

Prompt format (plain text, no chat template; section markers on their own line)::

    ### System
    You turn one edit request into exactly one layout action ...
    ### Layout
    <observation text of the environment>
    ### Request                      (applicator)   |   ### Goal   (planner)
    push the logo into the top-right corner
    ### Action
    {"type":"anchor_to_region","ids":["logo"],"region":"top_right"}

The completion is one line of canonical compact JSON (see :func:`format_target`)
followed by a newline; generation stops at the newline (:data:`STOP_SEQUENCES`)
or the model's end-of-sequence token.

Chat records (JSONL, one per line) carry the same content as
``{"messages": [{"role": "system", ...}, {"role": "user", ...},
{"role": "assistant", ...}], "kind": ...}``; :func:`render_record` turns one
into the exact ``(prompt, completion)`` pair :func:`build_prompt` and
:func:`format_target` produce.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal

from assistant.document import Layout
from assistant.env.observation import canvas_line, element_lines, layout_element_dicts
from assistant.errors import InvalidAction

Kind = Literal["applicator", "planner"]
KINDS: tuple[str, ...] = ("applicator", "planner")

SYSTEM_MARK = "### System"
LAYOUT_MARK = "### Layout"
REQUEST_MARK = "### Request"
GOAL_MARK = "### Goal"
ACTION_MARK = "### Action"

#: The completion ends at the first newline: the action is one line of JSON.
COMPLETION_END = "\n"
STOP_SEQUENCES: tuple[str, ...] = ("\n",)

SYSTEM_PROMPTS: dict[str, str] = {
    "applicator": (
        "You turn one edit request into exactly one layout action. "
        "Use only element ids listed in the layout. Answer with one line of JSON."
    ),
    "planner": (
        "You improve the layout one step at a time. Choose the single next action "
        "that best improves it and fits the goal; answer finalize when it is done. "
        "Answer with one line of JSON."
    ),
}

#: Field order of every action type, as in the agreed action vocabulary. Used
#: when ``assistant.actions`` is not importable; otherwise the order of the
#: action JSON schema's ``properties`` wins (it is what the output grammar follows).
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "move": ("type", "ids", "dx", "dy"),
    "resize": ("type", "id", "width", "height", "scale", "anchor", "keep_aspect"),
    "align": ("type", "ids", "edge", "to", "target_id"),
    "distribute": ("type", "ids", "axis", "mode", "gap"),
    "snap_to_grid": ("type", "ids", "columns", "size"),
    "reflow_text": ("type", "id", "mode", "width", "min_size", "max_size"),
    "reflow_group": ("type", "ids", "axis", "gap", "align"),
    "promote": ("type", "id", "factor"),
    "demote": ("type", "id", "factor"),
    "anchor_to_region": ("type", "ids", "region"),
    "reorder": ("type", "id", "to", "target_id"),
    "apply_template": ("type", "template"),
    "set_text_style": ("type", "ids", "font_size", "font_weight", "fill", "font_family"),
    "set_paint": ("type", "ids", "fill", "stroke", "stroke_width", "stroke_scale", "opacity"),
    "match_size": ("type", "dimension", "anchor", "keep_aspect", "ids", "target_id"),
    "set_gap": ("type", "gap", "axis", "id", "target_id"),
    "swap": ("type", "ids", "axis"),
    "set_locked": ("type", "ids", "locked"),
    "finalize": ("type",),
}

#: Decimal places kept per numeric field (world units get one decimal; ratios two).
FIELD_DECIMALS: dict[str, int] = {"scale": 2, "factor": 2, "stroke_scale": 2, "opacity": 2}
DEFAULT_DECIMALS = 1


# --------------------------------------------------------------------------- prompts
def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"prompt kind must be one of {KINDS}, got {kind!r}")


def user_message(observation_text: str, request: str, *, kind: Kind = "applicator") -> str:
    """The user turn: the layout section and the request (applicator) or goal (planner)."""
    _check_kind(kind)
    mark = REQUEST_MARK if kind == "applicator" else GOAL_MARK
    request = " ".join(request.split()) or "(none)"
    return f"{LAYOUT_MARK}\n{observation_text.strip()}\n{mark}\n{request}"


def render_prompt(system: str, user: str) -> str:
    """Render a system + user turn as the plain-text prompt, ending at the action marker."""
    return f"{SYSTEM_MARK}\n{system}\n{user}\n{ACTION_MARK}\n"


def build_prompt(observation_text: str, request: str, *, kind: Kind = "applicator") -> str:
    """The prompt for one model call.

    ``observation_text`` is the environment's compact text view of the layout
    (``LayoutEnv.observation_text``); ``request`` is the user's edit request
    (applicator) or the task instruction (planner; may be empty).
    """
    _check_kind(kind)
    return render_prompt(SYSTEM_PROMPTS[kind], user_message(observation_text, request, kind=kind))


def layout_text(layout: Layout, *, compact: int = 0, leave_out: frozenset[str] = frozenset()) -> str:
    """The applicator's view of a layout: the canvas line and one line per element.

    Same line format as the environment's ``observation_text`` (``id role kind
    x,y,w,h "text" size=…``, whole world units), without metrics or findings, so
    a request can be answered from the element list alone. ``compact`` and
    ``leave_out`` shorten it as they shorten the observation
    (``assistant.env.observation.fit_text``).
    """
    c = layout.canvas
    s = c.safe_box
    canvas = {"width": round(float(c.width), 1), "height": round(float(c.height), 1), "units": c.units,
              "safe_box": [round(float(v), 1) for v in (s.x, s.y, s.width, s.height)]}
    lines = [canvas_line(canvas)] + element_lines(layout_element_dicts(layout), c.units, compact=compact,
                                                  leave_out=leave_out)
    return "\n".join(lines)


# --------------------------------------------------------------------------- targets
def _schema_fields() -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
    """Per-type property order and required fields from ``action_json_schema()``, if available."""
    try:
        from assistant.actions import action_json_schema  # noqa: PLC0415 (optional, import-light)
    except ImportError:  # the actions package may be absent
        return {}, {}
    return _fields_from_schema(action_json_schema)


@lru_cache(maxsize=1)
def _fields_from_schema(schema_fn: Callable[[], dict[str, Any]]
                       ) -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
    schema = schema_fn()
    defs = schema.get("$defs", {}) or schema.get("definitions", {})
    candidates = list(defs.values()) + list(schema.get("oneOf", [])) + list(schema.get("anyOf", []))
    if "properties" in schema:
        candidates.append(schema)
    order: dict[str, tuple[str, ...]] = {}
    required: dict[str, frozenset[str]] = {}
    for sub in candidates:
        props = sub.get("properties", {})
        type_prop = props.get("type", {})
        name = type_prop.get("const")
        if name is None and len(type_prop.get("enum", [])) == 1:
            name = type_prop["enum"][0]
        if not isinstance(name, str):
            continue
        order[name] = tuple(props)
        required[name] = frozenset(sub.get("required", ()))
    return order, required


def _round_value(key: str, value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidAction(f"field {key!r} is not a finite number: {value!r}")
        rounded = round(value, FIELD_DECIMALS.get(key, DEFAULT_DECIMALS))
        if rounded == 0:
            return 0
        return int(rounded) if rounded.is_integer() else rounded
    if isinstance(value, (list, tuple)):
        return [_round_value(key, v) for v in value]
    if isinstance(value, dict):
        return {k: _round_value(k, v) for k, v in value.items()}
    raise InvalidAction(f"field {key!r} has an unsupported value {value!r}")


def canonical_action(action: dict[str, Any]) -> dict[str, Any]:
    """The action dict in canonical form: fixed key order, rounded numbers, no optional nulls.

    Key order is the action JSON schema's property order (``type`` first);
    ``None`` values are dropped unless the schema requires the field; floats are
    rounded (:data:`FIELD_DECIMALS`) and integral floats written as integers.
    Accepts a dict or anything with ``model_dump()`` (a pydantic ``Action``).
    """
    if hasattr(action, "model_dump"):
        action = action.model_dump(mode="json")  # type: ignore[union-attr]
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise InvalidAction(f"an action must be a JSON object with a string 'type', got {action!r}")
    kind = action["type"]
    schema_order, schema_required = _schema_fields()
    order = schema_order.get(kind) or ACTION_FIELDS.get(kind, ("type",))
    required = schema_required.get(kind, frozenset({"type"}))
    keys = [k for k in order if k in action] + sorted(k for k in action if k not in order)
    out: dict[str, Any] = {"type": kind}
    for key in keys:
        if key == "type":
            continue
        value = action[key]
        if value is None and key not in required:
            continue
        out[key] = _round_value(key, value)
    return out


def format_target(action: dict[str, Any]) -> str:
    """The completion text for an action: canonical compact JSON plus :data:`COMPLETION_END`."""
    text = json.dumps(canonical_action(action), separators=(",", ":"), ensure_ascii=False)
    return text + COMPLETION_END


# --------------------------------------------------------------------------- parsing
def _first_json_object(text: str) -> str | None:
    """The first balanced ``{...}`` in ``text`` (string literals respected), or ``None``."""
    start = text.find("{")
    if start < 0:
        return None
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return None


def parse_completion(text: str) -> dict[str, Any]:
    """Extract the action JSON object from a model completion.

    Returns the dict (validate it with ``assistant.actions.parse_action``).
    Raises :class:`InvalidAction` when there is no complete JSON object, it does
    not parse, or it has no string ``type``.
    """
    blob = _first_json_object(text)
    if blob is None:
        raise InvalidAction(f"model answer holds no complete JSON object: {text[:120]!r}")
    try:
        obj = json.loads(blob)
    except json.JSONDecodeError as exc:
        raise InvalidAction(f"model answer is not valid JSON ({exc.msg}): {blob[:120]!r}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise InvalidAction(f"model answer has no string 'type': {blob[:120]!r}")
    return obj


# --------------------------------------------------------------------------- chat records
def make_record(observation_text: str, request: str, action: dict[str, Any], *,
                kind: Kind = "applicator", meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """One chat-format training record (a JSONL line's object)."""
    _check_kind(kind)
    record: dict[str, Any] = {
        "kind": kind,
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPTS[kind]},
            {"role": "user", "content": user_message(observation_text, request, kind=kind)},
            {"role": "assistant", "content": format_target(action).rstrip("\n")},
        ],
    }
    if meta:
        record["meta"] = meta
    return record


def render_record(record: dict[str, Any]) -> tuple[str, str]:
    """``(prompt, completion)`` for a chat record; equals ``build_prompt`` + ``format_target``."""
    messages = record.get("messages")
    if not isinstance(messages, list):
        raise ValueError("chat record has no 'messages' list")
    roles = {m.get("role"): m.get("content") for m in messages if isinstance(m, dict)}
    if [m.get("role") for m in messages] != ["system", "user", "assistant"]:
        raise ValueError(f"chat record must hold system, user, assistant turns; got "
                         f"{[m.get('role') for m in messages]}")
    prompt = render_prompt(str(roles["system"]), str(roles["user"]))
    return prompt, str(roles["assistant"]).rstrip("\n") + COMPLETION_END
