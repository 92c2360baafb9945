"""The planner registry and the seed-list parser."""

from __future__ import annotations

import pytest

from assistant.errors import EnvError, PlannerError
from assistant.planners import available_planners, get_planner, register_planner
from assistant.planners.base import Planner
from assistant.seeds import parse_seeds


def test_heuristic_is_registered_with_help_text():
    planners = available_planners()
    assert "heuristic" in planners
    assert planners["heuristic"]  # one-line description from the factory docstring
    planner = get_planner("heuristic")
    assert isinstance(planner, Planner)
    assert planner.name == "heuristic"


def test_unknown_planner_lists_the_known_ones():
    with pytest.raises(PlannerError) as err:
        get_planner("no-such-planner")
    assert "no-such-planner" in str(err.value)
    assert "heuristic" in str(err.value)


def test_bad_option_is_a_planner_error():
    with pytest.raises(PlannerError, match="bad options"):
        get_planner("heuristic", no_such_option=1)


def test_options_reach_the_planner():
    planner = get_planner("heuristic", beam_width=0, max_candidates=7)
    assert planner.beam_width == 0 and planner.max_candidates == 7


def test_register_rejects_a_second_owner_of_a_name():
    @register_planner("test-registry-dummy")
    def first(**_):
        """A dummy."""

    def second(**_):
        """Another dummy."""

    with pytest.raises(PlannerError, match="already registered"):
        register_planner("test-registry-dummy")(second)
    with pytest.raises(PlannerError, match="must be letters"):
        register_planner("bad name!")


@pytest.mark.parametrize("spec, seeds", [
    ("0-9", list(range(10))),
    ("1,3,5", [1, 3, 5]),
    ("0-2, 10, 20-21", [0, 1, 2, 10, 20, 21]),
    ("7", [7]),
    ("3,3,1-3", [1, 2, 3]),
])
def test_parse_seeds(spec, seeds):
    assert parse_seeds(spec) == seeds


@pytest.mark.parametrize("spec", ["", "a", "5-2", "-1", "1,,2", "1-2-3", "0-99999999"])
def test_parse_seeds_rejects(spec):
    with pytest.raises(EnvError):
        parse_seeds(spec)
