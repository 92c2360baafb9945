"""The output grammar of a language-model planner, generated from the action JSON schema.

A model constrained by this grammar can only write one action JSON object of
the agreed vocabulary (``assistant.actions.action_json_schema``): llama.cpp's
JSON-schema-to-GBNF converter (``llama_cpp.llama_grammar.json_schema_to_gbnf``,
the Python port of llama.cpp's ``json-schema-to-grammar``) turns the schema
into GBNF, which ``llama_cpp.LlamaGrammar.from_string`` compiles.

The schema is first specialised to the document at hand (:func:`runtime_schema`):

* element-id fields (``id``, ``ids[]``, ``target_id``) become an ``enum`` of
  the layout's element ids, so the model can only name elements that exist;
* ``maxItems`` of id lists is capped at the number of ids (at most
  :data:`MAX_IDS`) and free strings at
  :data:`MAX_STRING` characters (the schema's 1000-item / 256-character limits
  would otherwise expand into a grammar of ~300 kB);
* titles, descriptions and defaults are dropped (they do not constrain output).

The GBNF is then tightened to the training format (:func:`action_gbnf`):
compact JSON (no whitespace between tokens, as ``assistant.prompting.format_target``
writes it, and no newline, which is the completion's stop sequence) and
numbers with at most :data:`INT_DIGITS` integer and :data:`FRACTION_DIGITS`
fraction digits and no exponent, so every number is finite.

Ranges (``minimum`` …) of non-integer numbers are not expressible in the
converter's GBNF; an answer outside them fails validation and is counted as
invalid by the planner, never applied.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any, Iterable

#: Element-id fields of the action vocabulary.
ID_FIELDS = ("id", "target_id")
ID_LIST_FIELDS = ("ids",)
#: Longest free string (font family) the grammar allows.
MAX_STRING = 48
#: Most ids one action may list in the grammar (keeps the GBNF small).
MAX_IDS = 24
#: Digits allowed before / after the decimal point of a number.
INT_DIGITS = 6
FRACTION_DIGITS = 2

_DROP_KEYS = ("title", "description", "default", "examples")


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k not in _DROP_KEYS}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def _id_string(ids: list[str] | None) -> dict[str, Any]:
    if ids:
        return {"type": "string", "enum": list(ids)}
    return {"type": "string", "minLength": 1, "maxLength": MAX_STRING}


def _specialise_string(node: dict[str, Any], ids: list[str] | None) -> dict[str, Any]:
    """``node`` (a string schema or an anyOf with a string branch) with the string made an id."""
    if "anyOf" in node:
        return {**node, "anyOf": [_id_string(ids) if b.get("type") == "string" else b for b in node["anyOf"]]}
    return _id_string(ids)


def _walk(node: Any, ids: list[str] | None) -> None:
    if isinstance(node, list):
        for v in node:
            _walk(v, ids)
        return
    if not isinstance(node, dict):
        return
    props = node.get("properties")
    if isinstance(props, dict):
        for key, sub in list(props.items()):
            if key in ID_FIELDS:
                props[key] = _specialise_string(sub, ids)
            elif key in ID_LIST_FIELDS and isinstance(sub, dict) and sub.get("type") == "array":
                sub["items"] = _id_string(ids)
                cap = min(len(ids), MAX_IDS) if ids else MAX_IDS
                sub["maxItems"] = max(int(sub.get("minItems", 0)), min(int(sub.get("maxItems", cap)), cap))
    if node.get("type") == "string" and "enum" not in node and "maxLength" in node:
        node["maxLength"] = min(int(node["maxLength"]), MAX_STRING)
    for key, value in node.items():
        if key != "enum":
            _walk(value, ids)


def runtime_schema(ids: Iterable[str] | None = None) -> dict[str, Any]:
    """The action JSON schema specialised to a document whose element ids are ``ids``.

    ``ids=None`` keeps id fields free strings (≤ :data:`MAX_STRING` characters).
    The result is still a JSON schema (usable as an OpenAI-style structured
    output schema); every action it admits also matches ``action_json_schema()``
    except for numeric ranges.
    """
    from assistant.actions import action_json_schema

    id_list = None if ids is None else list(dict.fromkeys(ids))
    schema = _strip(copy.deepcopy(action_json_schema()))
    _walk(schema, id_list)
    return schema


def _replace_rule(gbnf: str, name: str, body: str) -> str:
    lines = gbnf.splitlines()
    out, found = [], False
    for line in lines:
        if line.split("::=", 1)[0].strip() == name:
            out.append(f"{name} ::= {body}")
            found = True
        else:
            out.append(line)
    if not found:
        out.append(f"{name} ::= {body}")
    return "\n".join(out) + "\n"


def action_gbnf(ids: Iterable[str] | None = None) -> str:
    """GBNF text for one compact action JSON object (see the module docstring)."""
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    gbnf = json_schema_to_gbnf(json.dumps(runtime_schema(ids)))
    gbnf = _replace_rule(gbnf, "space", '""')
    gbnf = _replace_rule(gbnf, "integral-part", f'[0] | [1-9] [0-9]{{0,{INT_DIGITS - 1}}}')
    gbnf = _replace_rule(gbnf, "decimal-part", f"[0-9]{{1,{FRACTION_DIGITS}}}")
    gbnf = _replace_rule(gbnf, "number", '("-"? integral-part) ("." decimal-part)? space')
    return gbnf


@lru_cache(maxsize=32)
def _compiled(ids: tuple[str, ...] | None) -> Any:
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(action_gbnf(ids), verbose=False)


def action_grammar(ids: Iterable[str] | None = None) -> Any:
    """A compiled ``llama_cpp.LlamaGrammar`` for :func:`action_gbnf` (cached per id set)."""
    return _compiled(None if ids is None else tuple(dict.fromkeys(ids)))


__all__ = ["runtime_schema", "action_gbnf", "action_grammar", "MAX_STRING", "INT_DIGITS", "FRACTION_DIGITS"]
