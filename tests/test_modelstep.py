"""``distinct_answers``: K answers with different actions, repeats drawn again at a rising temperature."""

from __future__ import annotations

import json

from assistant.planners.modelstep import (DRAWS_PER_ANSWER, TEMPERATURE_RAMP, ModelStats, answer_key,
                                          distinct_answers)


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
