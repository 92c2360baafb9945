"""The action grammar admits only actions that pass ``parse_action``.

Two checks: the GBNF itself, read as a regular language (the action grammar
has no recursion, so every rule inlines into one Python regular expression),
is compared with ``parse_action`` on boundary numbers and hand-made actions;
and the micro applicator of ``tests/llm_support.py``, sampled hot under the
compiled ``llama_cpp.LlamaGrammar``, writes only valid actions.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

import pytest

pytest.importorskip("llama_cpp")

from llm_support import REQUESTS, SMALL_SVG, planner_state, tiny_gguf  # noqa: E402

from assistant.actions import parse_action  # noqa: E402
from assistant.errors import InvalidAction  # noqa: E402
from assistant.importer import import_svg_text  # noqa: E402
from assistant.planners.gbnf_rules import int_range, number_rule  # noqa: E402
from assistant.planners.grammar import (  # noqa: E402
    DISTINCT_SPAN,
    FRACTION_DIGITS,
    INT_DIGITS,
    action_gbnf,
    distinct_span,
    grammar_schema,
    request_distances,
    within_grammar,
)
from assistant.planners.modelstep import element_ids, planner_prompt_text  # noqa: E402
from assistant.planners.prompting import build_prompt, format_target, layout_text, parse_completion  # noqa: E402

IDS = ["bg", "title", "logo", "body", "footer"]


# -- GBNF as a regular expression ---------------------------------------------------
def gbnf_regex(gbnf: str, start: str = "root") -> re.Pattern[str]:
    """The (non-recursive) GBNF ``gbnf`` as one compiled regular expression for rule ``start``."""
    rules = dict(line.split(" ::= ", 1) for line in gbnf.splitlines() if " ::= " in line)
    done: dict[str, str] = {}

    def expand(name: str) -> str:
        if name not in done:
            done[name] = "(?:" + convert(rules[name]) + ")"
        return done[name]

    def convert(body: str) -> str:
        out, i = [], 0
        while i < len(body):
            c = body[i]
            if c.isspace():
                i += 1
            elif c == '"':
                j, lit = i + 1, []
                while body[j] != '"':
                    if body[j] == "\\":
                        lit.append({'"': '"', "\\": "\\", "n": "\n", "r": "\r"}[body[j + 1]])
                        j += 2
                    else:
                        lit.append(body[j])
                        j += 1
                out.append("(?:" + re.escape("".join(lit)) + ")")
                i = j + 1
            elif c == "[":
                j = i + 1
                while body[j] != "]":
                    j += 2 if body[j] == "\\" else 1
                out.append(body[i:j + 1])
                i = j + 1
            elif c == "{":
                j = body.index("}", i)
                out.append(body[i:j + 1])
                i = j + 1
            elif c in "?|)*+":
                out.append(c)
                i += 1
            elif c == "(":
                out.append("(?:")
                i += 1
            else:
                m = re.match(r"[A-Za-z0-9-]+", body[i:])
                assert m, body[i:]
                out.append(expand(m.group()))
                i += m.end()
        return "".join(out)

    return re.compile(expand(start))


@lru_cache(maxsize=4)
def _action_regex(ids: tuple[str, ...]) -> re.Pattern[str]:
    return gbnf_regex(action_gbnf(list(ids)))


def _valid(obj: dict) -> bool:
    try:
        parse_action(obj)
    except InvalidAction:
        return False
    return True


# -- numbers ---------------------------------------------------------------------------
#: (action type, field, the rest of a valid action of that type)
FIELDS = [
    ("promote", "factor", {"id": "title"}),
    ("demote", "factor", {"id": "title"}),
    ("resize", "scale", {"id": "logo"}),
    ("resize", "width", {"id": "logo"}),
    ("move", "dx", {"ids": ["logo"]}),
    ("distribute", "gap", {"ids": ["logo", "body"], "axis": "vertical"}),
    ("snap_to_grid", "columns", {"ids": ["logo"]}),
    ("set_text_style", "font_size", {"ids": ["title"]}),
    ("set_text_style", "font_weight", {"ids": ["title"]}),
    ("reflow_text", "max_size", {"id": "body"}),
]

_INTS = sorted({*range(0, 120), *range(395, 406), *range(895, 906), *range(9995, 10006),
                *range(999_990, 1_000_002), 1_234_567})
_FRACTIONS = ["", ".0", ".00", ".5", ".05", ".01", ".99", ".000", ".123"]
_FORM = re.compile(rf"-?(0|[1-9][0-9]{{0,{INT_DIGITS - 1}}})(\.[0-9]{{1,{FRACTION_DIGITS}}})?")


def _number_texts() -> list[str]:
    out = [f"{sign}{i}{f}" for sign in ("", "-") for i in _INTS for f in _FRACTIONS]
    return out + ["01", "00.5", "1e1", "-", "1.", ".5", "+1"]


def _field_rule(kind: str, field: str) -> str:
    schema, rules = grammar_schema(IDS)
    for variant in schema["oneOf"]:
        props = variant["properties"]
        if props["type"]["const"] == kind and field in props:
            return rules[int(re.fullmatch(r"__gbnf_rule_(\d+)__", props[field]["const"]).group(1))]
    raise AssertionError(f"{kind}.{field} has no rule")


@pytest.mark.parametrize("kind,field,rest", FIELDS, ids=[f"{k}.{f}" for k, f, _ in FIELDS])
def test_number_rule_admits_exactly_the_valid_compact_numbers(kind, field, rest) -> None:
    rule = gbnf_regex(f"root ::= {_field_rule(kind, field)}")
    admitted = 0
    for text in _number_texts():
        in_grammar = rule.fullmatch(text) is not None
        compact = _FORM.fullmatch(text) is not None and not re.fullmatch(r"-0(\.0*)?", text)
        valid = compact and _valid({"type": kind, **rest, field: json.loads(text)})
        assert in_grammar == valid, (kind, field, text, in_grammar, valid)
        admitted += in_grammar
    assert admitted > 20


def test_number_rule_shapes() -> None:
    assert int_range(100, 900) == '([1-8] [0-9]{2} | "9" ("00"))'
    assert int_range(1, 48) == '([1-9]) | ([1-3] [0-9]{1} | "4" ([0-8]))'
    rule = gbnf_regex("root ::= " + number_rule({"type": "number", "exclusiveMinimum": 1, "maximum": 4},
                                                int_digits=6, fraction_digits=2))
    assert [t for t in ("1", "1.0", "1.01", "1.5", "3.99", "4", "4.00", "4.01", "0.5", "-2")
            if rule.fullmatch(t)] == ["1.01", "1.5", "3.99", "4", "4.00"]
    with pytest.raises(ValueError):
        number_rule({"type": "integer", "exclusiveMinimum": 3, "exclusiveMaximum": 4}, int_digits=6,
                    fraction_digits=2)


# -- whole actions -----------------------------------------------------------------------
GOOD = [
    {"type": "promote", "id": "title", "factor": 1.5},
    {"type": "demote", "id": "logo", "factor": 4},
    {"type": "resize", "id": "logo", "scale": 0.5},
    {"type": "resize", "id": "logo", "width": 80, "height": 40.25, "anchor": "center", "keep_aspect": False},
    {"type": "resize", "id": "logo", "height": 40},
    {"type": "align", "ids": ["title", "body"], "edge": "left"},
    {"type": "align", "ids": ["title", "body"], "edge": "left", "to": "margins"},
    {"type": "align", "ids": ["body"], "edge": "top", "to": "element", "target_id": "logo"},
    {"type": "set_text_style", "ids": ["title"], "font_weight": 700},
    {"type": "set_text_style", "ids": ["title"], "fill": "#aa00FF", "font_family": "DejaVu Sans, serif"},
    {"type": "set_text_style", "ids": ["title", "body"], "font_size": 12.5, "font_weight": 400},
    {"type": "reflow_text", "id": "body", "mode": "wrap", "width": 200, "max_size": 14},
    {"type": "snap_to_grid", "ids": ["logo"], "columns": 12},
    {"type": "move", "ids": ["logo", "title"], "dx": -12.5, "dy": 0},
    {"type": "distribute", "ids": ["title", "body", "footer"], "axis": "vertical", "gap": 0},
    {"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"},
    {"type": "finalize"},
]
BAD = [  # each passes the plain JSON-schema grammar but fails parse_action
    {"type": "demote", "id": "logo", "factor": 0.5},
    {"type": "promote", "id": "logo", "factor": 1},
    {"type": "resize", "id": "logo"},
    {"type": "resize", "id": "logo", "width": 10, "scale": 2},
    {"type": "resize", "id": "logo", "scale": 0},
    {"type": "align", "ids": ["body"], "edge": "top", "to": "element"},
    {"type": "set_text_style", "ids": ["title"]},
    {"type": "set_text_style", "ids": ["title"], "font_size": 0},
    {"type": "set_text_style", "ids": ["title"], "font_weight": 6},
    {"type": "set_text_style", "ids": ["title"], "font_size": None, "font_weight": None},
    {"type": "snap_to_grid", "ids": ["logo"], "columns": 49},
    {"type": "reflow_text", "id": "body", "min_size": 20, "max_size": 10},
    {"type": "distribute", "ids": ["body"], "axis": "vertical"},
]


@pytest.mark.parametrize("action", GOOD, ids=lambda a: a["type"])
def test_grammar_admits_canonical_valid_actions(action) -> None:
    assert _valid(action)
    assert _action_regex(tuple(IDS)).fullmatch(format_target(action).rstrip("\n"))


@pytest.mark.parametrize("action", BAD, ids=lambda a: a["type"])
def test_grammar_refuses_actions_that_fail_validation(action) -> None:
    assert not _valid(action)
    text = json.dumps(action, separators=(",", ":"))
    assert not _action_regex(tuple(IDS)).fullmatch(text)


def test_free_id_strings_without_an_id_set_validate() -> None:
    rx = gbnf_regex(action_gbnf(None))
    assert rx.fullmatch('{"type":"reorder","id":"a b","to":"front"}')
    assert not rx.fullmatch('{"type":"reorder","id":" ","to":"front"}')  # stripped to empty
    assert not rx.fullmatch('{"type":"reorder","id":"' + "x" * 49 + '","to":"front"}')


# -- element ids -----------------------------------------------------------------------
#: ids that share prefixes, hold a quote, a backslash and a non-ASCII letter
ODD_IDS = ["a", "ab", "b", 'q"x', "caf\u00e9", "a\\b"]


@pytest.mark.parametrize("lo", [1, 2])
def test_id_lists_admit_exactly_the_lists_with_no_id_right_after_itself(lo) -> None:
    """Every list of 0 … 6 of the six ids, written as ``format_target`` writes it: the list rule admits it
    exactly when it has ``lo`` … 6 ids and none follows itself, and ``within_grammar`` agrees."""
    import itertools

    rx = gbnf_regex(action_gbnf(ODD_IDS), f"id-list-{lo}-{len(ODD_IDS)}")
    kind = "move" if lo == 1 else "distribute"
    rest = {"dx": 1} if lo == 1 else {"axis": "vertical"}
    admitted = 0
    for n in range(len(ODD_IDS) + 1):
        for ids in itertools.product(ODD_IDS, repeat=n):
            want = lo <= n and all(ids[i] != ids[i - 1] for i in range(1, n))
            assert (rx.fullmatch(json.dumps(list(ids), ensure_ascii=False, separators=(",", ":"))) is not None) == want
            if n <= 3:
                text = format_target({"type": kind, "ids": list(ids), **rest}).rstrip("\n")
                assert within_grammar(text, ODD_IDS) == (want and _valid({"type": kind, "ids": list(ids), **rest}))
            admitted += want
    assert admitted == sum(6 * 5 ** (n - 1) for n in range(lo, 7))


def test_an_element_is_not_aligned_to_the_id_it_was_listed_last() -> None:
    """``align`` to an element: every list of 1 … 3 of four ids and every target. The action rule admits
    the answer exactly when the list has no id right after itself and the target is not its last id."""
    import itertools

    some = ODD_IDS[:3] + ODD_IDS[4:5]  # four ids, two of them sharing a prefix
    rx = gbnf_regex(action_gbnf(some), "id-list-1-4-tail0")
    for n in (1, 2, 3):
        for ids in itertools.product(some, repeat=n):
            for target in some:
                action = {"type": "align", "ids": list(ids), "edge": "left", "to": "element", "target_id": target}
                text = format_target(action).rstrip("\n")
                want = all(ids[i] != ids[i - 1] for i in range(1, n)) and target != ids[-1]
                assert (rx.fullmatch(text[len('{"type":"align","ids":'):-1]) is not None) == want, text
                assert within_grammar(text, some) == want, text
    to_self = {"type": "align", "ids": ["logo"], "edge": "top", "to": "element", "target_id": "logo"}
    assert _valid(to_self) and not _action_regex(tuple(IDS)).fullmatch(format_target(to_self).rstrip("\n"))
    to_canvas = {"type": "align", "ids": ["logo"], "edge": "top", "to": "canvas", "target_id": "logo"}
    assert within_grammar(format_target(to_canvas), IDS)  # the target is not used: no rule for it


def test_a_repeated_id_is_refused_under_an_id_set_and_admitted_without_one() -> None:
    twice = {"type": "distribute", "ids": ["title", "logo", "logo"], "axis": "vertical"}
    assert _valid(twice)  # it validates, but spaces two elements where three were named
    text = format_target(twice).rstrip("\n")
    assert not _action_regex(tuple(IDS)).fullmatch(text) and not within_grammar(text, IDS)
    assert within_grammar(text, None)  # free strings: no id set to follow
    apart = {**twice, "ids": ["logo", "title", "logo"]}  # only a repeat right after itself is refused
    assert _action_regex(tuple(IDS)).fullmatch(format_target(apart).rstrip("\n"))


def test_ids_are_written_as_the_model_learnt_them() -> None:
    """A non-ASCII id as ``format_target`` writes it (UTF-8, not ``\\u00e9``), in an id field and a list."""
    ids = ["caf\u00e9", "logo"]
    rx = gbnf_regex(action_gbnf(ids))
    for action in ({"type": "promote", "id": "caf\u00e9", "factor": 1.5},
                   {"type": "anchor_to_region", "ids": ["logo", "caf\u00e9"], "region": "top_right"}):
        text = format_target(action).rstrip("\n")
        assert "\u00e9" in text and rx.fullmatch(text)
        assert not rx.fullmatch(json.dumps(action, separators=(",", ":")))  # the escaped form


def test_distinct_span_keeps_the_grammar_small_on_many_ids() -> None:
    assert distinct_span(["logo"]) == 1 and distinct_span([]) == 1
    assert distinct_span(IDS) == DISTINCT_SPAN
    some = [f"path{i}" for i in range(40)]
    span = distinct_span(some)
    assert 2 <= span < DISTINCT_SPAN
    late = some[:span] + [some[span - 1]]  # a repeat past the checked positions is not refused
    assert within_grammar(json.dumps({"type": "move", "ids": late, "dx": 1}), some)
    assert not within_grammar(json.dumps({"type": "move", "ids": some[:span - 1] + [some[span - 2]], "dx": 1}),
                              some)
    many = [f"path{i}" for i in range(2000)]  # even two positions would pass the budget: no check
    assert distinct_span(many) == 1
    assert within_grammar(json.dumps({"type": "move", "ids": ["path1", "path1"], "dx": 1}), many)
    assert len(action_gbnf(many)) < 1_000_000


# -- the model under the compiled grammar ------------------------------------------------
@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> dict:
    return tiny_gguf(tmp_path_factory)


def test_hot_samples_under_the_grammar_all_validate(tiny) -> None:
    """200 answers at temperature 1.5 from the micro model: every one parses and validates."""
    from assistant.planners import get_planner

    doc = import_svg_text(SMALL_SVG, source="small.svg")
    ids = element_ids(doc.layout)
    prompts = [build_prompt(layout_text(doc.layout), req, kind="applicator")
               for req in [r for r, _ in REQUESTS] + ["make the footer smaller", "set the body in bold"]]
    prompts.append(build_prompt(planner_prompt_text(planner_state(doc)), "", kind="planner"))
    planner = get_planner("local", model=tiny["path"], samples=40, temperature=1.5, max_tokens=96,
                          step_timeout=300, threads=1)
    # raw draws (``generate`` would drop repeats): 40 seeded samples per prompt
    answers = [planner.complete(p, ids=ids, temperature=1.5, seed=step * 101 + k)
               for step, p in enumerate(prompts) for k in range(40)]
    assert len(answers) == 200
    bad = []
    for text in answers:
        try:
            parse_action(parse_completion(text))
        except InvalidAction as exc:
            bad.append((text, str(exc)))
    assert not bad, bad[:5]
    lists = [json.loads(t)["ids"] for t in answers if "ids" in json.loads(t)]
    assert lists and not [x for x in lists if any(a == b for a, b in zip(x, x[1:]))]
    # hot sampling really explores (how many distinct answers depends on the llama.cpp build's kernels: 9 or more)
    assert len(set(answers)) >= 5


def test_compiled_number_rule_bounds_hot_samples(tiny) -> None:
    """A ``LlamaGrammar`` of one ``factor`` rule: hot samples all lie in (1, 4]."""
    from llama_cpp import LlamaGrammar

    from assistant.planners.local import load_model

    llm = load_model(tiny["path"], threads=1)
    grammar = LlamaGrammar.from_string(f"root ::= {_field_rule('demote', 'factor')}", verbose=False)
    doc = import_svg_text(SMALL_SVG, source="small.svg")
    prompt = build_prompt(layout_text(doc.layout), "make the title bigger", kind="applicator")
    values = []
    for seed in range(40):
        res = llm.create_completion(prompt + '{"type":"promote","id":"title","factor":', max_tokens=8,
                                    temperature=4.0, top_k=0, top_p=1.0, min_p=0.0, seed=seed, grammar=grammar)
        text = res["choices"][0]["text"]
        assert _FORM.fullmatch(text), text
        values.append(float(text))
    assert all(1 < v <= 4 for v in values), values
    assert len(set(values)) >= 3


def test_token_bound_covers_the_longest_answer_the_grammar_allows() -> None:
    from assistant.planners.grammar import MAX_IDS, MAX_STRING, answer_token_bound

    ids = [f"element-with-a-long-id-{i:03d}" for i in range(40)]
    widest = {"type": "set_text_style", "ids": ids[:MAX_IDS], "font_size": 999999.99, "font_weight": 900,
              "fill": "#ffffff", "font_family": "é" * MAX_STRING}
    align = {"type": "align", "ids": ids[:MAX_IDS], "edge": "left", "to": "element", "target_id": ids[-1]}
    for action in (widest, align):
        text = format_target(action)
        assert len(text.encode("utf-8")) <= answer_token_bound(ids), action["type"]
    assert answer_token_bound(None) >= answer_token_bound(["a"])  # free id strings need the most room


# -- distances a request names ---------------------------------------------------------
@pytest.mark.parametrize("request_text,px_per_unit,expected", [
    ("nudge the logo 37px left", 1.0, {"dx": (-37,), "dy": (0,)}),
    ("Shift the title 55px right and 11px up.", 1.0, {"dx": (55,), "dy": (-11,)}),
    ("move the logo left by 20px and up by 7 px", 1.0, {"dx": (-20,), "dy": (-7,)}),
    ("move the logo 20 pixels to the left", 1.0, {"dx": (-20,), "dy": (0,)}),
    ("push the logo 12 units up", 0.5, {"dx": (0,), "dy": (-12,)}),  # the layout's own units
    ("move the logo 10px down", 0.5, {"dx": (0,), "dy": (20,)}),  # 10 CSS px are 20 units of this canvas
    ("move the logo 3pt right", 1.0, {"dx": (4,), "dy": (0,)}),
    ("give the logo 24px more room", 1.0, {"dx": (-24, 0, 24), "dy": (-24, 0, 24)}),  # no direction: any way
    ("move the logo 37px left, keep 20px margins", 1.0, {"dx": (-37, -20, 20), "dy": (-20, 0, 20)}),
    ("nudge the 'Up to 40% off 20px' text 85px right", 1.0, {"dx": (85,), "dy": (0,)}),  # quotes: no distances
    ("don't move the title's box 6px down", 1.0, {"dx": (0,), "dy": (6,)}),  # apostrophes are no quotes
    ("make the title 50% bigger", 1.0, None),
    ("move the logo to the left", 1.0, None),
    ("move the logo 2 cm right", 1.0, None),  # 75.59 px: no whole distance to limit a move to
    ("move the logo 12.5px left", 1.0, None),
    (" and ".join(f"{n}px left" for n in range(1, 10)), 1.0, None),  # more than MAX_DISTANCES
])
def test_request_distances(request_text, px_per_unit, expected) -> None:
    assert request_distances(request_text, px_per_unit) == expected


def test_distances_limit_a_move_and_nothing_else() -> None:
    distances = request_distances("move the logo 37px left, keep 20px margins")
    rx = gbnf_regex(action_gbnf(IDS, distances))
    for dx, dy in ((-37, 0), (-37, 20), (20, -20), (-20, 0)):
        assert rx.fullmatch(f'{{"type":"move","ids":["logo"],"dx":{dx},"dy":{dy}}}'), (dx, dy)
        assert within_grammar(json.dumps({"type": "move", "ids": ["logo"], "dx": dx, "dy": dy}), IDS, distances)
    for dx, dy in ((37, 0), (0, 0), (-34, 0), (-3, 0), (-37, -37), (-37, 1), (-37.5, 0), (-370, 0)):
        text = f'{{"type":"move","ids":["logo"],"dx":{dx},"dy":{dy}}}'
        assert not rx.fullmatch(text), (dx, dy)
        assert not within_grammar(text, IDS, distances), (dx, dy)
        assert within_grammar(text, IDS)  # free without them
    # under distances a move writes both fields (as the applicator's answers do); a left-out dx is 0, refused
    assert not rx.fullmatch('{"type":"move","ids":["logo"],"dy":0}')
    assert not within_grammar('{"type":"move","ids":["logo"],"dy":0}', IDS, distances)
    assert gbnf_regex(action_gbnf(IDS)).fullmatch('{"type":"move","ids":["logo"],"dy":0}')
    # other actions keep their numbers: a resize to 34 wide is still an answer
    assert rx.fullmatch('{"type":"resize","id":"logo","width":34}')
    assert within_grammar('{"type":"resize","id":"logo","width":34}', IDS, distances)
    assert action_gbnf(IDS, None) == action_gbnf(IDS)


def test_compiled_distances_bound_hot_samples() -> None:
    """The bundled applicator, hot, under the whole compiled grammar with a request's distances: every move
    goes exactly as far as asked; without them, the same draws go other distances too."""
    from assistant.planners import get_planner
    from assistant.planners.local import DEFAULT_MODEL

    if not DEFAULT_MODEL.is_file():
        pytest.skip(f"no bundled model at {DEFAULT_MODEL}")
    doc = import_svg_text(SMALL_SVG, source="small.svg")
    ids = element_ids(doc.layout)
    request = "move the logo 37px left and 12px up"
    distances = request_distances(request)
    planner = get_planner("local", step_timeout=300, threads=1)
    prompt = planner.applicator_prompt(doc.layout, request)

    def moves(limit: Any) -> list[tuple[float, float]]:
        out = []
        for seed in range(40):
            action = parse_completion(planner.complete(prompt, ids=ids, temperature=2.0, seed=seed, distances=limit))
            if action["type"] == "move":
                out.append((action.get("dx", 0), action.get("dy", 0)))
        return out

    limited, free = moves(distances), moves(None)
    assert len(limited) >= 10, limited
    assert set(limited) == {(-37, -12)}, limited
    assert any((dx, dy) != (-37, -12) for dx, dy in free), free
