"""Lists of like texts (cover lines, agenda items) move together on a planner's own initiative, or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.actions import apply_action, parse_action, undo_diff
from assistant.importer import import_svg, import_svg_text
from assistant.instructions.brief import compile_brief
from assistant.planners import get_planner
from assistant.planners.loop import run_planner
from assistant.planners.siblings import detached_siblings, sibling_sets, snapshot

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

AGENDA = """<svg xmlns="http://www.w3.org/2000/svg" width="600" height="500" viewBox="0 0 600 500">
  <text id="title" x="60" y="70" font-family="DejaVu Sans" font-size="32" font-weight="bold">Programme</text>
  <text id="a" x="60" y="150" font-family="DejaVu Sans" font-size="16" fill="#222222">Opening and welcome</text>
  <text id="b" x="60" y="190" font-family="DejaVu Sans" font-size="16" fill="#222222">Talks on open maps</text>
  <text id="c" x="60" y="230" font-family="DejaVu Sans" font-size="16" fill="#222222">Lunch in the garden</text>
  <text id="d" x="60" y="270" font-family="DejaVu Sans" font-size="16" fill="#222222">Workshops</text>
  <text id="note" x="60" y="270" font-family="DejaVu Sans" font-size="16" fill="#cc0000"
        transform="translate(300 0)">Free entry</text>
  <text id="far" x="60" y="460" font-family="DejaVu Sans" font-size="16" fill="#222222">See you there</text>
</svg>"""


def test_like_texts_one_under_the_next_are_a_list() -> None:
    layout = import_svg_text(AGENDA).layout
    # another colour, another column or far below: not in the list
    assert sibling_sets(layout) == [["a", "b", "c", "d"]]


def test_the_examples_cover_lines_and_bullets_are_lists() -> None:
    cover = import_svg(EXAMPLES / "editorial_cover.svg").layout
    assert sibling_sets(cover) == [["coverline-2", "coverline-3", "coverline-4"]]
    slide = import_svg(EXAMPLES / "slide.svg").layout
    assert sibling_sets(slide) == [["point-1", "point-2", "point-3"]]


@pytest.mark.parametrize(("action", "detached"), [
    ({"type": "move", "ids": ["d"], "dx": 0, "dy": 120}, ["d"]),            # pulled away from the others
    ({"type": "move", "ids": ["b"], "dx": 250, "dy": 0}, ["b"]),
    ({"type": "move", "ids": ["a", "b", "c", "d"], "dx": 0, "dy": 120}, []),  # the whole list
    ({"type": "move", "ids": ["b"], "dx": 4, "dy": 0}, []),                 # a nudge within the list
    ({"type": "move", "ids": ["note"], "dx": 0, "dy": 100}, []),            # not a member
])
def test_an_edit_detaches_a_member_only_when_it_pulls_it_away(action, detached) -> None:
    doc = import_svg_text(AGENDA)
    sets = sibling_sets(doc.layout)
    before = snapshot(doc.layout, sets)
    diff = apply_action(doc, parse_action(action))
    assert detached_siblings(before, doc.layout, sets) == detached
    undo_diff(doc, diff)
    assert detached_siblings(before, doc.layout, sets) == []


def test_a_member_put_back_towards_the_list_is_not_detached() -> None:
    doc = import_svg_text(AGENDA)
    apply_action(doc, parse_action({"type": "move", "ids": ["d"], "dx": 0, "dy": 60}))  # knocked out of place
    sets = sibling_sets(doc.layout)
    before = snapshot(doc.layout, sets)
    apply_action(doc, parse_action({"type": "move", "ids": ["d"], "dx": 0, "dy": -60}))
    assert detached_siblings(before, doc.layout, sets) == []


class _Proposes:
    """Proposes one fixed edit every step."""

    name = "scripted"

    def __init__(self, action):
        self.action = action

    def propose(self, state):
        return [self.action]


def test_the_loop_refuses_pulling_one_line_away_but_a_brief_may() -> None:
    move_d = {"type": "move", "ids": ["d"], "dx": 0, "dy": 150}
    doc = import_svg_text(AGENDA)
    alone = run_planner(doc, _Proposes(move_d), max_steps=1, guard=False, verify=False)
    assert alone.steps == [] and doc.layout.get("d").box.y == import_svg_text(AGENDA).layout.get("d").box.y
    brief = compile_brief("move the workshops line down", doc.layout)
    asked = run_planner(doc, _Proposes(move_d), max_steps=1, guard=False, verify=False,
                        constraints=brief.constraints, instruction="move the workshops line down")
    assert len(asked.steps) == 1


def test_fix_leaves_the_cover_lines_together() -> None:
    """The editorial example's fix used to move one cover line of three clear of the photo, breaking the list."""
    doc = import_svg(EXAMPLES / "editorial_cover.svg")
    lines = ["coverline-2", "coverline-3", "coverline-4"]
    before = {i: doc.layout.get(i).box for i in lines}
    run_planner(doc, get_planner("heuristic"), max_steps=6)
    offsets = {(round(doc.layout.get(i).box.x - before[i].x, 3), round(doc.layout.get(i).box.y - before[i].y, 3))
               for i in lines}
    edges = {round(doc.layout.get(i).box.x, 3) for i in lines}
    assert len({dy for _, dy in offsets}) == 1  # none pulled up or down away from the others
    assert len(offsets) == 1 or len(edges) == 1  # untouched, moved as one, or put back on one edge together
