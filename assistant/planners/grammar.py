r"""The output grammar of a language-model planner, generated from the action JSON schema.

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

The grammar itself is generated from a stricter form of that schema
(:func:`grammar_schema`), so that every answer it admits also passes
``assistant.actions.parse_action``:

* numbers are written compactly (optional ``-``, at most :data:`INT_DIGITS`
  integer and :data:`FRACTION_DIGITS` fraction digits, no exponent) and each
  numeric field gets its own rule that respects its ``minimum`` /
  ``exclusiveMinimum`` / ``maximum`` exactly (``assistant.planners.gbnf_rules``),
  e.g. ``factor`` (> 1, ≤ 4) or ``font_weight`` (integer 100 … 900);
* optional fields are omitted instead of written as ``null`` (as
  ``assistant.planners.prompting.canonical_action`` writes them);
* the cross-field rules of the action models become alternatives
  (:data:`VARIANTS`): ``resize`` names ``scale`` or ``width``/``height``;
  ``align`` with ``to="element"`` names ``target_id``; ``set_text_style``
  sets at least one style field; ``reflow_text`` names at most one of
  ``min_size``/``max_size`` (their order cannot be checked by a grammar);
* free strings (``font_family``, ids when no id set is given) are at most
  :data:`MAX_STRING` plain characters (an id starts with a printable ASCII
  character, as ids are stripped before validation), ``fill`` is ``#`` and six
  hex digits;
* the JSON is compact (no whitespace between tokens, as
  ``assistant.planners.prompting.format_target`` writes it, and no newline, which is
  the completion's stop sequence);
* element ids are written as ``format_target`` writes them (JSON strings with
  UTF-8 as it is, where the converter would write ``\u`` escapes), and an id
  list never names an id right after itself (``["logo","logo"]``): such a list
  validates (``apply_action`` uses each element once) but is never the edit
  asked for — a ``distribute`` of three elements that names one twice spaces
  two. Nor does an ``align`` to an element name as its ``target_id`` the id
  its list names last (an element aligned to itself). The rule for "any id
  but the one before" follows a radix trie over the ids (:func:`_id_rules`);
  only the first :func:`distinct_span` positions of a list are checked (fewer
  on a layout with many ids), to keep the grammar small.

For a plain-language request that names how far to move ("37px left and
12px up"), :func:`request_distances` reads those distances and
:func:`action_grammar` limits a ``move``'s ``dx`` and ``dy`` to them (axis
and sign from the direction word beside each): a small model that reads
"37" may write 3 or 34, a grammar that offers only -37 cannot.

Property order follows the schema (the converter writes required fields
first; the variants keep the canonical order of ``format_target``). What the
grammar cannot know — a locked element, an edit that leaves the canvas — is
found by simulation and counted as a rejection.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from assistant.actions import action_json_schema, parse_action
from assistant.errors import InvalidAction
from assistant.instructions.lexicon import UNIT_PX
from assistant.planners.gbnf_rules import PLAIN_CHAR, number_rule, string_rule
from assistant.planners.prompting import parse_completion

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


#: Cross-field rules of the action models as alternatives of one action type:
#: each variant may ``require`` fields, ``drop`` fields and restrict a field to an ``enum``.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "resize": [{"require": ["scale"], "drop": ["width", "height"]},
               {"require": ["width"], "drop": ["scale"]},
               {"require": ["height"], "drop": ["scale", "width"]}],
    "align": [{"enum": {"to": ["each_other", "canvas", "margins"]}},
              {"require": ["to", "target_id"], "enum": {"to": ["element"]}}],
    "set_text_style": [{"require": ["font_size"]},
                       {"require": ["font_weight"], "drop": ["font_size"]},
                       {"require": ["fill"], "drop": ["font_size", "font_weight"]},
                       {"require": ["font_family"], "drop": ["font_size", "font_weight", "fill"]}],
    "set_paint": [{"require": ["fill"], "drop": ["stroke", "stroke_width", "stroke_scale"]},
                  {"require": ["stroke"], "drop": ["fill", "stroke_scale", "opacity"]},
                  {"require": ["stroke_width"], "drop": ["fill", "stroke", "stroke_scale", "opacity"]},
                  {"require": ["stroke_scale"], "drop": ["fill", "stroke", "stroke_width", "opacity"]},
                  {"require": ["opacity"], "drop": ["fill", "stroke", "stroke_width", "stroke_scale"]}],
    "reflow_text": [{"drop": ["min_size"]}, {"drop": ["max_size"]}],
    "reorder": [{"drop": ["target_id"]}, {"require": ["to", "target_id"], "enum": {"to": ["front", "back"]}}],
}

_PLACEHOLDER = "__gbnf_rule_{}__"
_PLACEHOLDER_RE = re.compile(r'"\\"__gbnf_rule_(\d+)__\\""')


def _not_null(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` without its ``null`` branch (an omitted field means null)."""
    branches = [b for b in node.get("anyOf", ()) if b.get("type") != "null"]
    if "anyOf" in node and len(branches) == 1:
        return {**{k: v for k, v in node.items() if k != "anyOf"}, **branches[0]}
    return node


def _leaf_rule(node: dict[str, Any]) -> str | None:
    """Own GBNF body for a number or free-string schema ``node`` (``None``: the converter's rule is exact)."""
    kind = node.get("type")
    if kind in ("number", "integer"):
        return number_rule(node, int_digits=INT_DIGITS, fraction_digits=FRACTION_DIGITS)
    if kind == "string" and "enum" not in node and "const" not in node:
        pattern = node.get("pattern")
        if pattern == r"^#[0-9a-fA-F]{6}$":
            return '"\\"#" [0-9a-fA-F]{6} "\\""'
        if pattern == r'^[^;{}<>\"]+$':
            return string_rule(max(1, int(node.get("minLength", 1))), min(int(node.get("maxLength", MAX_STRING)),
                                                                          MAX_STRING),
                               char=r'[^;{}<>"\\\x00-\x1F\x7F]')
        if pattern is not None:
            raise ValueError(f"no grammar rule for the string pattern {pattern!r}")
        return string_rule(max(1, int(node.get("minLength", 1))), min(int(node.get("maxLength", MAX_STRING)),
                                                                      MAX_STRING),
                           char=PLAIN_CHAR, first=r'[!#-\x5B\x5D-~]')
    return None


def _with_rules(node: Any, rules: list[str]) -> Any:
    """``node`` with every number / free-string leaf replaced by a placeholder constant (rule in ``rules``)."""
    if isinstance(node, list):
        return [_with_rules(v, rules) for v in node]
    if not isinstance(node, dict):
        return node
    node = _not_null(node)
    body = _leaf_rule(node)
    if body is not None:
        rules.append(body)
        return {"const": _PLACEHOLDER.format(len(rules) - 1)}
    return {k: (v if k in ("enum", "const", "required") else _with_rules(v, rules)) for k, v in node.items()}


def _variants(action: dict[str, Any]) -> list[dict[str, Any]]:
    kind = action.get("properties", {}).get("type", {}).get("const")
    out = []
    for spec in VARIANTS.get(kind, [{}]):
        v = copy.deepcopy(action)
        props = v["properties"]
        named = [*spec.get("drop", ()), *spec.get("require", ()), *spec.get("enum", {})]
        if any(n not in props for n in named):
            raise KeyError(f"grammar variant of {kind!r} names unknown fields: {named}")
        for name in spec.get("drop", ()):
            props.pop(name, None)
        for name, values in spec.get("enum", {}).items():
            props[name] = {"type": "string", "enum": list(values)}
        required = list(v.get("required", ()))
        required += [n for n in spec.get("require", ()) if n not in required]
        v["required"] = [n for n in props if n in required]
        out.append(v)
    return out


def structured_schema(ids: Iterable[str] | None = None) -> dict[str, Any]:
    """:func:`runtime_schema` with the cross-field rules (:data:`VARIANTS`) as ``anyOf`` alternatives.

    The schema a remote server's structured output is constrained by: a server that turns it into a grammar
    can then no longer answer, say, ``align`` to ``"element"`` with no ``target_id`` (null), which the action
    models refuse. A field a variant requires is not nullable there. Still a plain JSON schema (no
    placeholders; number ranges as the action schema gives them).
    """
    schema = runtime_schema(ids)
    actions = []
    for action in schema["oneOf"]:
        kind = action.get("properties", {}).get("type", {}).get("const")
        for v in _variants(action):
            for name in (n for spec in VARIANTS.get(kind, ()) for n in spec.get("require", ())):
                if name in v["required"]:
                    v["properties"][name] = _not_null(v["properties"][name])
            actions.append(v)
    return {"anyOf": actions}


# ----------------------------------------------------------------------------- element ids
#: Grammar size (alternatives) the no-repeat id lists may take; beyond it fewer leading positions are checked.
ID_LIST_BUDGET = 4_000
#: Most leading positions of an id list checked for an id right after itself (longer lists are rare).
DISTINCT_SPAN = 8


def _gbnf_literal(text: str) -> str:
    """``text`` as a GBNF string literal (UTF-8 kept as it is)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def _json_id(element_id: str) -> str:
    """An id as an answer writes it: a JSON string, UTF-8 as it is (``assistant.planners.prompting.format_target``)."""
    return json.dumps(element_id, ensure_ascii=False)


class _Node:
    """A node of a radix trie over the ids' JSON strings (prefix-free: each ends in its closing quote)."""

    __slots__ = ("edges", "leaf", "members", "key")

    def __init__(self) -> None:
        self.edges: list[tuple[str, _Node]] = []
        self.leaf: int | None = None
        self.members: frozenset[int] = frozenset()
        self.key = 0


def _radix_trie(words: list[str]) -> _Node:
    def build(items: list[tuple[str, int]]) -> _Node:
        node = _Node()
        node.members = frozenset(i for _, i in items)
        if len(items) == 1 and items[0][0] == "":
            node.leaf = items[0][1]
            return node
        groups: dict[str, list[tuple[str, int]]] = {}
        for word, i in items:
            groups.setdefault(word[0], []).append((word, i))
        for group in groups.values():
            words_in = [w for w, _ in group]
            n = 1  # the longest prefix the group shares
            while all(len(w) > n for w in words_in) and len({w[n] for w in words_in}) == 1:
                n += 1
            node.edges.append((words_in[0][:n], build([(w[n:], i) for w, i in group])))
        return node

    root = build([(w, i) for i, w in enumerate(words)])
    todo, count = [root], 0
    while todo:  # number the nodes, for rule names
        node = todo.pop()
        node.key, count = count, count + 1
        todo.extend(child for _, child in node.edges)
    return root


def _path_cost(root: _Node, index: int) -> int:
    """Alternatives a rule "any id but ``index``" writes: the edges of every node on that id's path."""
    cost, node = 0, root
    while node.leaf is None:
        cost += len(node.edges)
        node = next(child for _, child in node.edges if index in child.members)
    return cost


def distinct_span(ids: Iterable[str]) -> int:
    """How many leading positions of an id list the grammar over ``ids`` keeps from repeating the id before.

    An answer that names one element twice in a row (``["logo","logo"]``) is never the edit asked for: a
    ``distribute`` of three elements spaces two, an ``align`` of two aligns one. The grammar forbids it in the
    first ``distinct_span(ids)`` positions of every id list: :data:`DISTINCT_SPAN` of them unless the layout
    has so many ids that the rules would pass :data:`ID_LIST_BUDGET` alternatives, fewer then. ``1`` (no
    check) where fewer than two ids exist or where even the first two positions would pass the budget (about a
    hundred ids), so that the grammar stays as small as it was without the check.
    """
    id_list = list(dict.fromkeys(ids))
    if len(id_list) < 2:
        return 1
    root = _radix_trie([_json_id(i) for i in id_list])
    per_position = sum(_path_cost(root, i) for i in range(len(id_list))) + len(id_list)
    span = min(DISTINCT_SPAN, ID_LIST_BUDGET // per_position)
    return span if span >= 2 else 1


def _id_rules(ids: list[str], lists: Iterable[tuple[int, int, str]]) -> dict[str, str]:
    """GBNF rules for the element ids: ``id-one`` (one id) and one id list for each ``(lo, hi, tail)`` of ``lists``.

    The list is ``id-list-LO-HI`` (a JSON array of ``lo`` … ``hi`` ids, no id right after itself in the first
    :func:`distinct_span` positions) or, where ``tail`` names a rule, ``id-list-LO-HI-TAIL``: the array, then
    that rule (the fields between the list and a ``target_id``), then a target id that is not the list's last
    id (where the list is shorter than the span; any id after a longer list).

    A radix trie over the ids' JSON strings keeps "any id but the one before" linear in the ids' length:
    the rule for it follows the excluded id's path and shares every other branch.
    """
    words = [_json_id(i) for i in ids]
    root = _radix_trie(words)
    span = distinct_span(ids)
    out: dict[str, str] = {"id-one": " | ".join(_gbnf_literal(w) for w in words)}
    memo: dict[str, str | None] = {}  # rule name → itself, or None where no id is left

    def trie(prefix: str, node: _Node, excl: int | None, then: Callable[[int], str]) -> str | None:
        """Rule ``prefix-n<node>[-x<excl>]``: an id from ``node`` on, not ``excl``, each followed by ``then(id)``."""
        excl = excl if excl is not None and excl in node.members else None
        name = f"{prefix}-n{node.key}" + ("" if excl is None else f"-x{excl}")
        if name not in memo:
            alts = []
            for label, child in node.edges:
                if child.leaf is not None:
                    if child.leaf != excl:
                        alts.append(f"{_gbnf_literal(label)} {then(child.leaf)}".rstrip())
                elif (rest := trie(prefix, child, excl, then)) is not None:
                    alts.append(f"{_gbnf_literal(label)} {rest}")
            memo[name] = name if alts else None
            if alts:
                out[name] = " | ".join(alts)
        return memo[name]

    def target(j: int | None) -> str:
        """A target id other than ``j`` (any id where ``j`` is None)."""
        found = "id-one" if j is None else trie("id-target", root, j, lambda _i: "")
        if found is None:
            raise ValueError(f"no target id other than {ids[j]!r}")
        return found

    def id_list(lo: int, hi: int, tail: str) -> None:
        """Add the rules of the id list of ``lo`` … ``hi`` ids followed by ``tail``."""
        # rules of the k-th id on depend on ``lo`` only while k < lo: lists of 1 and of 2 or more share the rest

        def tag(k: int) -> str:
            return f"id{hi}{tail}" + (f"m{lo}" if k < lo else "")

        def end(k: int, j: int) -> str:
            return f'"]" {tail} {target(j if k < span else None)}' if tail else ""

        def cont(k: int, j: int) -> str:
            """The rest of the list after its ``k``-th id, ``j`` (the closing bracket and tail too if ``tail``)."""
            tracked = k < span
            name = f"{tag(k)}-after{k}" + (f"-{j}" if tracked else "")
            if name not in out:
                nxt = pick(k + 1, j if tracked else None) if k < hi else None
                if nxt is None and k < lo:
                    raise ValueError(f"no id can follow {ids[j]!r}")  # fewer than two ids: span is 1
                more = f'"," {nxt}' if nxt else None
                if tail:
                    body = more if k < lo else " | ".join(x for x in (more, end(k, j)) if x)
                else:
                    body = more if k < lo else (f"( {more} )?" if more else '""')
                out[name] = body
            return name

        def pick(k: int, not_id: int | None) -> str | None:
            """Rule: the ``k``-th id (not ``not_id``) and the rest of the list."""
            if not_id is None and k >= span:  # any id, and the rest does not depend on which
                name = f"{tag(k)}-{k}"
                if name not in out:
                    out[name] = f"id-one {cont(k, 0)}"
                return name
            return trie(f"{tag(k)}-{k}", root, not_id, lambda leaf: cont(k, leaf))

        first = pick(1, None)
        out[f"id-list-{lo}-{hi}" + (f"-{tail}" if tail else "")] = f'"[" {first}' + ("" if tail else ' "]"')

    for lo, hi, tail in sorted(set(lists)):
        id_list(lo, hi, tail)
    return out


#: The action field that names the element an ``ids`` list is lined up with: never the list's last id.
TARGET_FIELD = "target_id"


def _enum_literal(node: dict[str, Any]) -> str:
    values = node.get("enum", [node["const"]] if "const" in node else None)
    if not values:
        raise ValueError(f"no grammar rule for a field between an id list and its target: {node}")
    return "( " + " | ".join(_gbnf_literal(json.dumps(v, ensure_ascii=False)) for v in values) + " )"


def _id_placeholders(actions: list[dict[str, Any]], rules: list[str],
                     tails: dict[str, str]) -> set[tuple[int, int, str]]:
    """Replace the id fields of ``actions`` by placeholders; return the ``(minItems, maxItems, tail)`` of the id lists.

    The id fields are enums of the layout's ids; the placeholders name :func:`_id_rules`' rules.

    Where an action requires both an id list and :data:`TARGET_FIELD` (``align`` to an element), the list's
    placeholder takes the fields after it up to the target too (required enums; written as ``tails``'
    rules), so that the target can be kept from being the list's last id.
    """
    lists: set[tuple[int, int, str]] = set()
    for action in actions:
        props = action.get("properties", {})
        order = list(props)
        for key in order:
            if key not in props:  # taken into an id list's tail
                continue
            sub = _not_null(props[key])
            if key in ID_FIELDS and "enum" in sub:
                body = "id-one"
            elif key in ID_LIST_FIELDS and sub.get("type") == "array" and "enum" in sub.get("items", {}):
                lo, hi = int(sub.get("minItems", 0)), int(sub["maxItems"])
                if not 1 <= lo <= hi:
                    raise ValueError(f"id list of {lo} … {hi} ids: the grammar writes at least one")
                tail = ""
                required = action.get("required", [])
                if TARGET_FIELD in required and TARGET_FIELD in props:
                    between = order[order.index(key) + 1:order.index(TARGET_FIELD)]
                    if any(n not in required for n in between) or order[-1] != TARGET_FIELD:
                        raise ValueError(f"{key} and {TARGET_FIELD} must have only required fields between them")
                    text = " ".join(f'"," {_gbnf_literal(json.dumps(n) + ":")} {_enum_literal(_not_null(props[n]))}'
                                    for n in between) + f' "," {_gbnf_literal(json.dumps(TARGET_FIELD) + ":")}'
                    tail = next((n for n, b in tails.items() if b == text), f"tail{len(tails)}")
                    tails[tail] = text
                    for n in (*between, TARGET_FIELD):
                        props.pop(n)
                    action["required"] = [n for n in required if n in props]
                lists.add((lo, hi, tail))
                body = f"id-list-{lo}-{hi}" + (f"-{tail}" if tail else "")
            else:
                continue
            rules.append(body)
            props[key] = {"const": _PLACEHOLDER.format(len(rules) - 1)}
    return lists


def _grammar_parts(ids: Iterable[str] | None) -> tuple[dict[str, Any], list[str], dict[str, str]]:
    schema = runtime_schema(ids)
    actions = [v for a in schema["oneOf"] for v in _variants(_not_null(a))]
    rules: list[str] = []
    helpers: dict[str, str] = {}
    if ids is not None and (id_list := list(dict.fromkeys(ids))):
        tails: dict[str, str] = {}
        helpers = _id_rules(id_list, _id_placeholders(actions, rules, tails))
        helpers.update(tails)
    return {"oneOf": _with_rules(actions, rules)}, rules, helpers


def grammar_schema(ids: Iterable[str] | None = None) -> tuple[dict[str, Any], list[str]]:
    """``(schema, rules)``: :func:`runtime_schema` made exact for the grammar (see the module docstring).

    Numbers, free strings and element ids are placeholders ``"__gbnf_rule_N__"``
    whose GBNF body is ``rules[N]``; :func:`action_gbnf` substitutes them (an
    id body names a rule of :func:`_id_rules`, which it adds).
    """
    schema, rules, _helpers = _grammar_parts(ids)
    return schema, rules


def within_grammar(text: str, ids: Iterable[str] | None = None, distances: Distances | None = None) -> bool:
    """Whether ``text`` is an answer the grammar admits in substance.

    That is one action that validates, whose id fields name only ``ids`` (at most :data:`MAX_IDS` in a
    list, none right after itself in the first :func:`distinct_span` positions, an ``align`` to an element
    not to the list's last id while the list is shorter than that) and whose free strings are at most
    :data:`MAX_STRING` characters.

    With ``distances`` (:func:`request_distances`), a ``move``'s ``dx`` and ``dy`` must also be among theirs.

    What the local planner accepts from a model decoded without the grammar before falling back to it
    (``LocalPlanner.complete``); the grammar itself is stricter only in layout (spacing, key order, digits).
    """
    try:
        data = parse_completion(text)
        parse_action(data)
    except InvalidAction:
        return False
    allowed = None if ids is None else set(ids)
    span = 1 if ids is None else distinct_span(ids)

    def ok(key: str, value: Any) -> bool:
        if isinstance(value, dict):
            return all(ok(k, v) for k, v in value.items())
        if key in ID_LIST_FIELDS and isinstance(value, list):
            return (len(value) <= MAX_IDS and all(allowed is None or v in allowed for v in value)
                    and all(value[i] != value[i - 1] for i in range(1, min(len(value), span))))
        if isinstance(value, list):
            return all(ok(key, v) for v in value)
        if key in ID_FIELDS and isinstance(value, str):
            return allowed is None or value in allowed
        return not isinstance(value, str) or len(value) <= MAX_STRING

    if not ok("", data):
        return False
    if distances is not None and data.get("type") == "move":
        if any(float(data.get(f) or 0) not in distances.get(f, (0,)) for f in MOVE_FIELDS):
            return False
    listed = next((data[k] for k in ID_LIST_FIELDS if isinstance(data.get(k), list)), None)
    return not (allowed is not None and listed and _target_required(data) and len(listed) < span
                and data.get(TARGET_FIELD) == listed[-1])


def _target_required(data: dict[str, Any]) -> bool:
    """Whether ``data`` is of a variant (:data:`VARIANTS`) that requires :data:`TARGET_FIELD`."""
    return any(TARGET_FIELD in spec.get("require", ())
               and all(data.get(k) in v for k, v in spec.get("enum", {}).items())
               for spec in VARIANTS.get(str(data.get("type")), ()))


def action_gbnf(ids: Iterable[str] | None = None, distances: Distances | None = None) -> str:
    """GBNF text for one compact action JSON object (see the module docstring).

    ``distances`` (:func:`request_distances`): a ``move`` then writes both ``dx`` and ``dy``, each one of
    its values.
    """
    gbnf, move_rules = _base_gbnf(None if ids is None else tuple(dict.fromkeys(ids)), distances is not None)
    if distances is None:
        return gbnf
    for field, name in zip(MOVE_FIELDS, move_rules):
        gbnf = _replace_rule(gbnf, name, distance_rule(distances.get(field, (0,))))
    return gbnf


@lru_cache(maxsize=32)
def _base_gbnf(ids: tuple[str, ...] | None, move_fields: bool = False) -> tuple[str, tuple[str, ...]]:
    """The grammar over ``ids`` and the names of the rules of a move's :data:`MOVE_FIELDS`.

    With ``move_fields`` a move must write both fields.
    """
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    schema, rules, helpers = _grammar_parts(ids)
    move = next(a for a in schema["oneOf"] if a["properties"]["type"].get("const") == "move")
    if move_fields:
        move["required"] = [k for k in move["properties"] if k in (*move.get("required", ()), *MOVE_FIELDS)]
    move_rules = tuple("value-" + re.fullmatch(r"__gbnf_rule_(\d+)__", move["properties"][f]["const"])[1]
                       for f in MOVE_FIELDS)
    gbnf = json_schema_to_gbnf(json.dumps(schema))
    gbnf = _PLACEHOLDER_RE.sub(lambda m: f"value-{m.group(1)}", gbnf)
    if "__gbnf_rule_" in gbnf:
        raise RuntimeError("the JSON-schema converter wrote a constant in an unexpected form")
    gbnf = _replace_rule(gbnf, "space", '""')
    for i, body in enumerate(rules):
        gbnf += f"value-{i} ::= {body}\n"
    for name, body in helpers.items():
        gbnf += f"{name} ::= {body}\n"
    return gbnf, move_rules


# ----------------------------------------------------------------------------- distances a request names
#: The fields of a ``move`` that :func:`request_distances` limits.
MOVE_FIELDS = ("dx", "dy")
#: The whole numbers of layout units each field of a move may be: ``{"dx": (-37,), "dy": (0,)}``.
Distances = Mapping[str, tuple[int, ...]]
#: Most distances one request may name for the grammar to limit a move to them.
MAX_DISTANCES = 8
#: Quoted text (an element's words, "the 'Up to 40%' text"): its numbers are no distances.
_QUOTED_RE = re.compile(r"(?<!\w)'[^']*'(?!\w)|\"[^\"]*\"|\u2018[^\u2019]*\u2019|\u201c[^\u201d]*\u201d")
_DISTANCE_RE = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>px|pixels?|pt|points?|pc|mm|millimet(?:re|er)s?|cm|"
    r"centimet(?:re|er)s?|inch(?:es)?|units?)\b", re.IGNORECASE)
_DIRECTION = r"(?P<dir>left|right|leftwards?|rightwards?|up|down|upwards?|downwards?|higher|lower)"
#: A direction right after a distance ("37px left", "37px to the left") or right before it ("left by 37px").
_AFTER_RE = re.compile(r"\s*(?:(?:further|more)\s+)?(?:(?:to|towards)\s+the\s+)?" + _DIRECTION + r"\b", re.IGNORECASE)
_BEFORE_RE = re.compile(r"\b" + _DIRECTION + r"\s+(?:by\s+)?$", re.IGNORECASE)


def request_distances(request: str, px_per_unit: float = 1.0) -> dict[str, tuple[int, ...]] | None:
    """What each field of a move may be, after the distances ``request`` names ("37px left", "12 units up").

    A request that says how far to move an element ("nudge the logo 37px left") is answered with that
    distance, not one near it: a small model that reads "37" may write 3 or 34, and the grammar built from
    these values (:func:`action_grammar`) only lets a ``move`` write them. A distance with a direction
    beside it ("37px left", "37px to the left", "down by 12px") fixes its axis and sign: ``dx`` -37, and 0
    is no longer an answer on that axis; a distance without one ("24px") may go either way along either
    axis; an axis the request names no distance for stays 0. Lengths are read as the instruction compiler
    reads them (``assistant.instructions.lexicon.UNIT_PX``; "units" are the layout's own) and converted with
    the canvas's ``px_per_unit``; numbers in quotes (an element's text) and percentages are not distances.
    ``None`` — moves stay free — when the request names no length, more than :data:`MAX_DISTANCES`, or one
    that is not a whole number of layout units (the grammar could not write it exactly).
    """
    text = _QUOTED_RE.sub(lambda m: " " * len(m.group()), request)
    paired: dict[str, set[int]] = {f: set() for f in MOVE_FIELDS}
    loose: set[int] = set()
    found = 0
    for m in _DISTANCE_RE.finditer(text):
        unit = m["unit"].lower()
        value = float(m["num"]) if unit.startswith("unit") else float(m["num"]) * UNIT_PX[unit] / (px_per_unit or 1.0)
        if abs(value - round(value)) > 1e-6 or round(value) >= 10 ** INT_DIGITS:
            return None
        found += 1
        side = _AFTER_RE.match(text, m.end()) or _BEFORE_RE.search(text, 0, m.start())
        if side is None:
            loose.add(round(value))
            continue
        word = side["dir"].lower()
        field = "dx" if word.startswith(("left", "right")) else "dy"
        sign = -1 if word.startswith(("left", "up", "higher")) else 1
        paired[field].add(sign * round(value))
    if not 0 < found <= MAX_DISTANCES:
        return None
    return {f: tuple(sorted(paired[f] | {s * d for d in loose for s in (1, -1)} | ({0} if not paired[f] else set())))
            for f in MOVE_FIELDS}


def distance_rule(values: Iterable[int]) -> str:
    """GBNF body for a move's ``dx`` or ``dy`` that is one of ``values`` (whole numbers, signed)."""
    return "( " + " | ".join(f'"{v}"' for v in sorted({int(v) for v in values})) + " )"


def answer_token_bound(ids: Iterable[str] | None = None) -> int:
    """Tokens enough for *any* answer the grammar over ``ids`` allows (give generation at least this many).

    Every token is at least one byte, so a byte bound is a token bound:
    :data:`_FIELD_BYTES` covers the keys, punctuation, enums and numbers of the
    widest action; id lists hold at most :data:`MAX_IDS` ids and an action has
    at most two more id fields; free strings (font family, fill) are at most
    :data:`MAX_STRING` characters of up to four UTF-8 bytes. An answer cut by a
    smaller ``max_tokens`` would not parse, which the grammar cannot prevent.
    """
    id_list = list(ids or [])
    longest = max((len(i.encode("utf-8")) for i in id_list), default=4 * MAX_STRING) + 3  # quotes + comma
    return _FIELD_BYTES + (MAX_IDS + 2) * longest + 2 * 4 * MAX_STRING


#: Bytes of an action's keys, punctuation, enum values and numbers (generous; see answer_token_bound).
_FIELD_BYTES = 512


@lru_cache(maxsize=64)
def _compiled(ids: tuple[str, ...] | None, distances: tuple[tuple[str, tuple[int, ...]], ...] | None) -> Any:
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(action_gbnf(ids, None if distances is None else dict(distances)), verbose=False)


def action_grammar(ids: Iterable[str] | None = None, distances: Distances | None = None) -> Any:
    """A compiled ``llama_cpp.LlamaGrammar`` for :func:`action_gbnf` (cached per id set and distances)."""
    key = None if distances is None else tuple(
        (f, tuple(sorted({int(d) for d in distances.get(f, (0,))}))) for f in MOVE_FIELDS)
    return _compiled(None if ids is None else tuple(dict.fromkeys(ids)), key)


__all__ = ["runtime_schema", "structured_schema", "grammar_schema", "action_gbnf", "VARIANTS", "action_grammar",
           "answer_token_bound", "request_distances", "distance_rule", "Distances", "MOVE_FIELDS",
           "MAX_STRING", "INT_DIGITS", "FRACTION_DIGITS"]
