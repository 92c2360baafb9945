"""``distinct_answers``: K answers with different actions, repeats drawn again at a rising temperature."""

from __future__ import annotations

import json

from assistant.planners.modelstep import DRAWS_PER_ANSWER, TEMPERATURE_RAMP, ModelStats, answer_key, distinct_answers


def move(dx: float) -> str:
    return json.dumps({"type": "move", "ids": ["logo"], "dx": dx, "dy": 0.0})


class Model:
    """Answers from a script, one per draw; records what it was asked."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.calls: list[tuple[int, float]] = []

    def __call__(self, i: int, temperature: float) -> str:
        self.calls.append((i, temperature))
        return self.answers[min(i, len(self.answers) - 1)]


def test_one_sample_is_one_greedy_draw() -> None:
    m = Model([move(1), move(2)])
    assert distinct_answers(m, 1, 0.8) == [move(1)]
    assert m.calls == [(0, 0.0)]


def test_repeats_are_skipped_and_counted() -> None:
    m = Model([move(1), move(1), ' {"type": "move", "dx": 1.0, "ids": ["logo"], "dy": 0.0}', move(2), move(3)])
    stats = ModelStats()
    out = distinct_answers(m, 3, 0.8, stats=stats)
    assert out == [move(1), move(2), move(3)]
    assert stats.repeats == 2  # the second answer and the same action written in another key order
    assert [i for i, _ in m.calls] == [0, 1, 2, 3, 4]


def test_temperature_rises_over_the_draws_and_the_draws_are_bounded() -> None:
    m = Model([move(1)])  # a model that always gives the same answer
    stats = ModelStats()
    out = distinct_answers(m, 4, 0.5, stats=stats)
    assert out == [move(1)]
    assert len(m.calls) == DRAWS_PER_ANSWER * 4 and stats.repeats == DRAWS_PER_ANSWER * 4 - 1
    temps = [t for _, t in m.calls]
    assert temps[0] == 0.0 and temps == sorted(temps)
    assert {round(t / 0.5, 6) for t in temps[1:]} == {round(r, 6) for r in TEMPERATURE_RAMP}
    m2 = Model([move(1)])
    distinct_answers(m2, 4, 0.5, max_draws=6)
    assert len(m2.calls) == 6


def test_deadline_stops_after_the_first_answer() -> None:
    m = Model([move(1), move(2)])
    assert distinct_answers(m, 5, 0.8, deadline=0.0) == [move(1)]
    assert len(m.calls) == 1


def test_unparsable_answers_are_keyed_by_their_text() -> None:
    assert answer_key(" not json ") == "not json"
    assert answer_key(move(1)) == answer_key(' {"dy": 0, "dx": 1, "ids": ["logo"], "type": "move"}')


# -- amounts tuned by simulation -------------------------------------------------------
from assistant.planners.modelstep import AMOUNT_SCALES, amount_variants, choose  # noqa: E402


def test_amount_variants_scale_amounts_never_the_edit() -> None:
    both = amount_variants({"type": "move", "ids": ["a"], "dx": 10, "dy": -4})
    pairs = {(v["dx"], v["dy"]) for v in both}
    assert {(10 * s, -4 * s) for s in AMOUNT_SCALES} <= pairs  # both axes together
    assert (10, 0) in pairs and (0, -4) in pairs and (30, 0) in pairs and (0, -12) in pairs  # each alone
    assert (10, -4) not in pairs and len(pairs) == len(both)  # not the answer itself, no repeats
    assert all(v["type"] == "move" and v["ids"] == ["a"] for v in both)
    assert all(v["dx"] * 10 >= 0 and v["dy"] * -4 >= 0 for v in both)  # never the other way
    one_axis = amount_variants({"type": "move", "ids": ["a"], "dx": 0, "dy": 8})
    assert sorted(v["dy"] for v in one_axis) == [2, 4, 12, 16, 24] and {v["dx"] for v in one_axis} == {0}
    assert [v["factor"] for v in amount_variants({"type": "promote", "id": "t", "factor": 1.2})] == [
        1.05, 1.1, 1.3, 1.4, 1.6]
    assert [v["scale"] for v in amount_variants({"type": "resize", "id": "p", "scale": 0.8})] == [
        0.95, 0.9, 0.7, 0.6, 0.4]
    assert [v["gap"] for v in amount_variants({"type": "distribute", "ids": ["a", "b", "c"], "axis": "y",
                                               "mode": "gaps", "gap": 10})] == [2.5, 5, 15, 20, 30]
    for fixed in ({"type": "align", "ids": ["a"], "edge": "left", "to": "canvas"},
                  {"type": "resize", "id": "p", "width": 100}, {"type": "finalize"},
                  {"type": "distribute", "ids": ["a", "b", "c"], "axis": "x", "mode": "gaps"}):
        assert amount_variants(fixed) == []


def _one_problem_state():
    from test_planner_heuristic import ONE_PROBLEM, _state

    from assistant.importer import import_svg_text

    return _state(import_svg_text(ONE_PROBLEM, source="card.svg"))


def _choice(state, answer: dict, *, tune: bool, stats: ModelStats | None = None):
    (best, *_) = choose(state, [json.dumps(answer)], stats or ModelStats(), source="local", tune=tune)
    return best


def test_tuning_keeps_the_answers_edit_at_its_best_amount() -> None:
    state = _one_problem_state()  # the logo pokes out of the bottom-right margin
    before = state.document.layout.get("logo").box
    short = {"type": "move", "ids": ["logo"], "dx": -10, "dy": -10}
    plain, tuned = _choice(state, short, tune=False), _choice(state, short, tune=True)
    assert plain.action.model_dump(exclude_none=True)["dx"] == -10 and "tuned" not in plain.reason
    moved = tuned.action.model_dump(exclude_none=True)
    assert moved["ids"] == ["logo"] and moved["dx"] < -10 and moved["dy"] < -10  # further, the same way
    assert tuned.gain > plain.gain > 0
    assert "the model's own choice, amount tuned: dx -10.0 → " in tuned.reason
    assert state.document.layout.get("logo").box == before  # only copies were edited


def test_tuning_rescues_an_answer_that_overshoots_and_never_turns_it_around() -> None:
    state = _one_problem_state()
    stats = ModelStats()
    over = {"type": "move", "ids": ["logo"], "dx": -760, "dy": 0}  # off the canvas: refused as it is
    assert _choice(state, over, tune=False).action.type == "finalize"
    rescued = _choice(state, over, tune=True, stats=stats)
    assert rescued.action.type == "move" and -760 < rescued.action.dx < 0 and rescued.gain > 0
    assert stats.rejected == 1  # the answer itself is still counted as not applying
    wrong_way = {"type": "move", "ids": ["logo"], "dx": 10, "dy": 10}  # further out: no amount helps
    assert _choice(state, wrong_way, tune=True).action.type == "finalize"


def test_tuning_never_touches_a_locked_element() -> None:
    from dataclasses import replace

    state = replace(_one_problem_state(), locked=frozenset({"logo"}))
    stats = ModelStats()
    best = _choice(state, {"type": "move", "ids": ["logo"], "dx": -10, "dy": -10}, tune=True, stats=stats)
    assert best.action.type == "finalize" and stats.rejected == 1


# -- the findings' suggested fixes verified beside the answers --------------------------
def test_suggested_fixes_compete_with_the_answers_by_simulation() -> None:
    from assistant.planners.modelstep import finding_fixes, planner_observation

    state = _one_problem_state()  # the logo pokes out of the bottom-right margin; its finding suggests a move
    fixes = finding_fixes(planner_observation(state))
    assert fixes and all(f["type"] != "finalize" for f in fixes)
    wrong_way = json.dumps({"type": "move", "ids": ["logo"], "dx": 10, "dy": 10})
    alone = choose(state, [wrong_way], ModelStats(), source="local", tune=True)
    assert [p.action.type for p in alone] == ["finalize"]
    stats = ModelStats()
    (best, *_) = choose(state, [wrong_way], stats, source="local", tune=True, suggested=fixes)
    assert best.action.type != "finalize" and best.gain > 0 and "logo" in best.element_ids
    assert "suggested fix" in best.reason and "local model's answers" in best.reason
    assert stats.suggested_choice == 1 and stats.own_choice == stats.verified_choice == 0
    assert stats.answers == 1  # the fixes are not counted as the model's answers


def test_an_answer_equal_to_a_suggested_fix_is_the_models_own() -> None:
    from assistant.planners.modelstep import finding_fixes, planner_observation

    state = _one_problem_state()
    fix = finding_fixes(planner_observation(state))[0]
    stats = ModelStats()
    (best, *_) = choose(state, [json.dumps(fix)], stats, source="local", suggested=[fix])
    assert "the model's own choice" in best.reason and stats.own_choice == 1 and stats.suggested_choice == 0


def test_suggested_fixes_never_touch_locked_elements_and_say_why_nothing_helps() -> None:
    from dataclasses import replace

    from assistant.planners.modelstep import finding_fixes, planner_observation

    state = replace(_one_problem_state(), locked=frozenset({"logo"}))
    fixes = [f for f in finding_fixes(planner_observation(_one_problem_state())) if "logo" in json.dumps(f)]
    assert fixes  # unlocked, the logo's finding suggests moving it
    stats = ModelStats()
    (only,) = choose(state, [], stats, source="local", tune=True, suggested=fixes)
    assert only.action.type == "finalize" and stats.rejected == 0  # a fix is no model answer to count
    assert f"nor does any of the {len(fixes)} suggested fix" in only.reason
