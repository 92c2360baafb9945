"""Bulleted lists drawn as a paragraph plus loose bullet shapes stay together under every planner."""

from __future__ import annotations

import pytest

from assistant.actions import apply_action, parse_action, undo_diff
from assistant.importer import import_svg, import_svg_text
from assistant.planners import get_planner
from assistant.planners.lists import detached_lists, list_markers, snapshot
from assistant.planners.loop import run_planner

LIST = """<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400">
  <rect id="bg" x="0" y="0" width="600" height="400" fill="#ffffff"/>
  <text id="list" x="60" y="100" font-family="DejaVu Sans" font-size="16" fill="#111111">
    <tspan x="60" y="100">First point of the list</tspan>
    <tspan x="60" y="140">Second point</tspan>
    <tspan x="60" y="180">Third point</tspan>
  </text>
  <polygon id="b1" points="40,89 48,94 40,99" fill="#4ab969"/>
  <polygon id="b2" points="40,129 48,134 40,139" fill="#4ab969"/>
  <polygon id="b3" points="40,169 48,174 40,179" fill="#4ab969"/>
  <rect id="swatch" x="300" y="300" width="8" height="8" fill="#4ab969"/>
  <rect id="tile" x="20" y="120" width="30" height="30" fill="#4ab969"/>
</svg>"""


def test_bullets_beside_the_lines_are_the_lists_markers() -> None:
    layout = import_svg_text(LIST).layout
    # far away, or larger than the text's bullets could be: not markers
    assert list_markers(layout) == {"list": ["b1", "b2", "b3"]}


@pytest.mark.parametrize(("action", "detached"), [
    ({"type": "move", "ids": ["list"], "dx": 12, "dy": 0}, ["list"]),
    ({"type": "move", "ids": ["list", "b1", "b2", "b3"], "dx": 12, "dy": -5}, []),
    ({"type": "move", "ids": ["b2"], "dx": 0, "dy": 3}, []),       # the text stays: the bullet's own business
    ({"type": "move", "ids": ["swatch"], "dx": 10, "dy": 0}, []),
    ({"type": "set_text_style", "ids": ["list"], "font_size": 12}, ["list"]),
    ({"type": "promote", "id": "list", "factor": 1.25}, ["list"]),
    ({"type": "resize", "id": "list", "scale": 0.9}, ["list"]),
])
def test_an_edit_detaches_a_list_unless_its_bullets_move_with_it(action, detached) -> None:
    doc = import_svg_text(LIST)
    markers = list_markers(doc.layout)
    before = snapshot(doc.layout, markers)
    diff = apply_action(doc, parse_action(action))
    assert detached_lists(before, doc.layout, markers) == detached
    undo_diff(doc, diff)
    assert detached_lists(before, doc.layout, markers) == []


class _Proposes:
    """Proposes one fixed edit every step."""

    name = "scripted"

    def __init__(self, action):
        self.action = action

    def propose(self, state):
        return [self.action]


@pytest.mark.parametrize("guard", [True, False])
def test_the_planner_loop_refuses_an_edit_that_pulls_a_list_off_its_bullets(guard) -> None:
    doc = import_svg_text(LIST)
    result = run_planner(doc, _Proposes({"type": "move", "ids": ["list"], "dx": 30, "dy": 0}), max_steps=2,
                         guard=guard)
    assert result.steps == [] and result.stopped == "no_improvement"
    assert doc.layout.get("list").box.x == import_svg_text(LIST).layout.get("list").box.x
    together = run_planner(doc, _Proposes({"type": "move", "ids": ["list", "b1", "b2", "b3"], "dx": 30, "dy": 0}),
                           max_steps=1, guard=False)
    assert len(together.steps) == 1


def test_fix_keeps_the_mapbender_lists_on_their_bullets(osgeo_dir) -> None:
    """Fixing the Mapbender flyer used to shrink its "More Functionality" list away from its seven bullets."""
    doc = import_svg(osgeo_dir / "mapbender_a4.svg")
    markers = list_markers(doc.layout)
    assert len(markers["Together-these-appro"]) == 7 and len(markers["Local-Chapters"]) == 7
    before = snapshot(doc.layout, markers)
    result = run_planner(doc, get_planner("heuristic"), max_steps=6)
    assert result.end.composite >= result.start.composite
    assert detached_lists(before, doc.layout, markers) == []
