"""The heuristic planner and the planner loop, on real imported layouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.actions import parse_action
from assistant.errors import InvalidAction
from assistant.importer import import_svg, import_svg_text
from assistant.instructions.brief import compile_brief
from assistant.metrics import evaluate
from assistant.planners import get_planner
from assistant.planners.base import PlannerState
from assistant.planners.loop import run_planner
from assistant.svg.write import export_svg

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: A tidy card with exactly one problem: the logo pokes out of the bottom-right margin.
ONE_PROBLEM = """<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
  <rect id="bg" data-role="background" x="0" y="0" width="800" height="800" fill="#ffffff"/>
  <text id="title" data-role="title" x="80" y="160" font-family="DejaVu Sans" font-size="64"
        font-weight="700" fill="#111111">Open Studio</text>
  <text id="sub" data-role="subtitle" x="80" y="230" font-family="DejaVu Sans" font-size="28"
        fill="#333333">Saturday, ten to four</text>
  <rect id="pic" data-role="image" x="80" y="290" width="640" height="330" fill="#5577aa"/>
  <text id="logo" data-role="logo" x="740" y="790" font-family="DejaVu Serif" font-size="30"
        font-weight="700" fill="#111111">atelier</text>
</svg>"""


def _state(doc, **kw):
    return PlannerState(document=doc, report=evaluate(doc.layout, constraints=kw.get("constraints")), **kw)


@pytest.mark.parametrize("name", ["poster.svg", "flyer.svg", "social_card.svg"])
def test_improves_examples_and_never_lowers_the_score(name):
    doc = import_svg(EXAMPLES / name)
    result = run_planner(doc, get_planner("heuristic"), max_steps=6)
    assert result.end.composite > result.start.composite + 0.02
    scores = [result.start.composite] + [s.composite_after for s in result.steps]
    assert scores == sorted(scores)  # every step improved
    assert result.valid_rate == 1.0 and result.proposed >= result.edits
    assert evaluate(doc.layout).composite == pytest.approx(result.end.composite)
    for step in result.steps:
        assert step.reason and step.changed_ids
        for element_id in step.changed_ids:
            assert step.reason in result.changes[element_id]


def test_propose_leaves_the_document_exactly_as_it_was():
    doc = import_svg(EXAMPLES / "poster.svg")
    svg, layout = export_svg(doc), doc.layout.model_dump()
    proposals = get_planner("heuristic").propose_detailed(_state(doc))
    assert proposals and all(p.gain is None or p.gain > 0 for p in proposals)
    assert export_svg(doc) == svg and doc.layout.model_dump() == layout


def test_ranked_proposals_are_valid_and_best_first():
    doc = import_svg(EXAMPLES / "social_card.svg")
    proposals = get_planner("heuristic", beam_width=0).propose_detailed(_state(doc))
    gains = [p.gain for p in proposals]
    assert gains == sorted(gains, reverse=True)
    # a collision's own smallest edit carries the other ways to clear it, for when the render refuses it
    (straddle,) = [p for p in proposals if p.fallbacks]
    assert straddle.action.to_json()["ids"] == ["product"]
    assert [p.action.to_json()["ids"] for p in straddle.fallbacks[:1]] == [["headline", "tagline"]]
    assert all(q.element_ids == straddle.element_ids and q.gain > 0 for q in straddle.fallbacks)
    for p in proposals:
        assert parse_action(p.action.to_json()) == p.action
        assert p.reason.startswith(p.metric)


def test_finalize_when_nothing_improves_enough():
    doc = import_svg(EXAMPLES / "poster.svg")
    (proposal,) = get_planner("heuristic", min_gain=1.0).propose_detailed(_state(doc))
    assert proposal.action.type == "finalize"
    result = run_planner(doc, get_planner("heuristic", min_gain=1.0), max_steps=5)
    assert result.stopped == "finalize" and result.edits == 0


def test_only_the_implicated_element_changes():
    doc = import_svg_text(ONE_PROBLEM, source="one-problem.svg")
    start = evaluate(doc.layout)
    assert any(f.element_ids == ["logo"] and f.defect for f in start.findings())  # half of it off the page
    before = {e.id: e.box for e in doc.layout.elements}
    result = run_planner(doc, get_planner("heuristic"), max_steps=1)
    assert result.edits == 1
    assert set(result.changes) == {"logo"}
    for e in doc.layout.elements:
        if e.id != "logo":
            assert e.box == before[e.id]


def test_locked_elements_never_change():
    doc = import_svg(EXAMPLES / "poster.svg")
    free = run_planner(doc.copy(), get_planner("heuristic"), max_steps=8)
    touched = sorted(free.changes)[:2]
    assert touched
    before = {i: doc.layout.get(i).box for i in touched}
    result = run_planner(doc, get_planner("heuristic"), locked=touched, max_steps=8)
    assert not set(result.changes) & set(touched)
    assert {i: doc.layout.get(i).box for i in touched} == before
    assert result.end.composite >= result.start.composite


def test_locking_an_unknown_id_is_an_error():
    doc = import_svg(EXAMPLES / "poster.svg")
    with pytest.raises(InvalidAction, match="nope"):
        run_planner(doc, get_planner("heuristic"), locked=["nope"])


def test_keep_instruction_holds_the_element_in_place():
    doc = import_svg(EXAMPLES / "poster.svg")
    brief = compile_brief("keep the photo where it is", doc.layout)
    constraints, keep = brief.constraints, brief.keep_ids
    assert keep == ["photo"] and not brief.not_understood
    box = doc.layout.get("photo").box
    result = run_planner(doc, get_planner("heuristic"), constraints=constraints, keep=keep, max_steps=8)
    assert doc.layout.get("photo").box == box
    assert "photo" not in result.changes
    assert result.end.composite >= result.start.composite


def test_instruction_fit_improves_when_asked():
    doc = import_svg(EXAMPLES / "poster.svg")
    brief = compile_brief("logo top right", doc.layout)
    constraints, keep = brief.constraints, brief.keep_ids
    result = run_planner(doc, get_planner("heuristic"), constraints=constraints, keep=keep, max_steps=8)

    def fit(r):
        return r.metrics["instruction_fit"].score

    assert fit(result.end) > fit(result.start)
    assert result.end.composite >= result.start.composite - 0.005


def test_same_input_same_edits():
    runs = [run_planner(import_svg(EXAMPLES / "slide.svg"), get_planner("heuristic"), max_steps=5)
            for _ in range(2)]
    assert [s.action for s in runs[0].steps] == [s.action for s in runs[1].steps]


class _Saboteur:
    """Proposes one harmful edit (and one invalid one), to test the loop's guard."""

    name = "saboteur"

    def propose(self, state):
        return [parse_action({"type": "move", "ids": ["ghost"], "dx": 1.0, "dy": 0.0}),
                parse_action({"type": "move", "ids": ["title"], "dx": 0.0, "dy": 600.0})]


def test_loop_guard_undoes_harmful_edits_exactly():
    doc = import_svg(EXAMPLES / "poster.svg")
    svg = export_svg(doc)
    result = run_planner(doc, _Saboteur(), max_steps=3)
    assert result.edits == 0 and result.stopped == "no_improvement"
    assert result.proposed == 2 and result.valid == 1 and result.valid_rate == 0.5
    assert export_svg(doc) == svg
    assert result.end.composite == result.start.composite


def test_time_budget_and_max_steps_stop_the_loop():
    doc = import_svg(EXAMPLES / "poster.svg")
    assert run_planner(doc.copy(), get_planner("heuristic"), max_steps=0).stopped == "max_steps"
    result = run_planner(doc, get_planner("heuristic"), max_steps=20, time_budget=0.0)
    assert result.stopped == "time_budget" and result.edits == 0


def test_runs_on_a_session_with_one_history_entry_per_edit():
    from assistant.app.session import Session

    doc = import_svg(EXAMPLES / "social_card.svg")
    svg = export_svg(doc)
    session = Session(doc)
    result = run_planner(session, get_planner("heuristic"), max_steps=3)
    assert result.edits >= 1
    assert session.revision == result.edits
    assert [h.actions for h in session.history] == [[s.action] for s in result.steps]
    for _ in range(result.edits):
        session.undo()
    assert export_svg(session.document) == svg


class _MovesTheTitle:
    """Proposes moving the title (which the user asked to keep)."""

    name = "title-mover"

    def propose(self, state):
        return [parse_action({"type": "move", "ids": ["title"], "dx": 0.0, "dy": -30.0})]


def test_an_edit_that_would_move_a_kept_element_is_refused():
    doc = import_svg(EXAMPLES / "poster.svg")
    svg = export_svg(doc)
    result = run_planner(doc, _MovesTheTitle(), keep=["title"], max_steps=2)
    assert result.edits == 0 and result.valid == 0 and result.proposed == 1
    assert export_svg(doc) == svg


#: A headline straddling the top of a photo, its tagline set just above it and a button just below the photo:
#: moving the photo down would run into the button, moving the headline up alone into its tagline.
STRADDLE = """<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">
  <rect id="bg" x="0" y="0" width="1000" height="1000" fill="#111827"/>
  <rect id="photo" data-role="image" x="80" y="320" width="840" height="440" fill="#f2a94e"/>
  <text id="tagline" x="80" y="260" font-family="DejaVu Sans" font-size="32" fill="#cbd5e1">Lighter. Quieter.</text>
  <text id="headline" x="80" y="360" font-family="DejaVu Sans" font-size="80" font-weight="700"
        fill="#ffffff">Meet Orbit</text>
  <g id="shop" data-role="cta">
    <rect id="shop-bg" x="80" y="800" width="280" height="80" rx="40" fill="#f2a94e"/>
    <text id="shop-label" x="220" y="852" text-anchor="middle" font-family="DejaVu Sans" font-size="30"
          font-weight="700" fill="#111827">Shop now</text>
  </g>
</svg>"""


def test_a_collision_the_render_refuses_to_clear_one_way_is_cleared_by_pushing_what_is_in_the_way():
    doc = import_svg_text(STRADDLE)
    before = {e.id: e.box for e in doc.layout.top_level()}
    result = run_planner(doc, get_planner("heuristic"), max_steps=4)
    layout = doc.layout
    headline, tagline, photo = layout.get("headline").box, layout.get("tagline").box, layout.get("photo").box
    assert headline.y2 <= photo.y  # the headline clears the photo …
    assert tagline.y2 <= headline.y and tagline.y >= 0  # … and took its tagline along, still on the page
    assert layout.get("shop").box == before["shop"] and photo == before["photo"]
    moves = [s.action for s in result.steps if s.action["type"] == "move"]
    assert any(set(a["ids"]) == {"headline", "tagline"} and a["dx"] == 0 for a in moves)
    assert any(r.startswith("move ['photo']") for r in result.rejected)  # the smallest edit, refused first


def test_a_push_stops_at_what_may_not_move_and_at_the_canvas_edge():
    from assistant.planners.candidates import pushed

    layout = import_svg_text(STRADDLE).layout
    headline, photo = layout.get("headline"), layout.get("photo")
    assert [u.id for u in pushed(layout, headline, 0.0, -83.9, fixed=photo)] == ["tagline"]
    assert pushed(layout, headline, 0.0, -10.0, fixed=photo) == []  # runs into nothing yet
    layout.get("tagline").box = layout.get("tagline").box.translated(0.0, -200.0)  # now 30 units from the top
    assert pushed(layout, headline, 0.0, -250.0, fixed=photo) is None  # it would leave the page
    layout.get("tagline").box = layout.get("tagline").box.translated(0.0, 200.0)
    layout.get("tagline").locked = True
    assert pushed(layout, headline, 0.0, -83.9, fixed=photo) is None


#: Lines set in a column on the left, a photo on the right running into them.
BESIDE = """<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800" viewBox="0 0 600 800">
  <rect id="bg" x="0" y="0" width="600" height="800" fill="#2e3846"/>
  <rect id="photo" data-role="image" x="150" y="200" width="410" height="410" fill="#8aa1b1"/>
  <text id="line-1" x="40" y="300" font-family="DejaVu Sans" font-size="15"
        fill="#eeeeee">Mapping ice with drones</text>
  <text id="line-2" x="40" y="370" font-family="DejaVu Sans" font-size="15"
        fill="#eeeeee">A year on a weather ship</text>
  <text id="line-3" x="40" y="440" font-family="DejaVu Sans" font-size="15"
        fill="#eeeeee">Rivers that run backwards</text>
</svg>"""


def test_a_photo_running_into_the_lines_beside_it_narrows_away_from_them():
    from assistant.metrics.overlap import GUTTER

    doc = import_svg_text(BESIDE)
    defects = [f for f in evaluate(doc.layout).findings() if f.defect and f.metric == "overlap"]
    assert defects and all(f.suggestion["type"] == "resize" and f.suggestion["anchor"] == "top_right"
                           for f in defects)  # narrowing is shorter than moving any line 200 units
    run_planner(doc, get_planner("heuristic"), max_steps=4)
    layout = doc.layout
    photo = layout.get("photo").box
    lines = [layout.get(f"line-{k}").box for k in (1, 2, 3)]
    assert photo.x2 == pytest.approx(560) and photo.y == pytest.approx(200)  # its right edge and top kept
    assert photo.width == pytest.approx(photo.height)  # its proportions kept
    assert all(b.x2 + GUTTER * 600 <= photo.x + 1e-6 for b in lines)  # every line clear, in one edit
    assert [layout.get(f"line-{k}").box for k in (1, 2, 3)] == lines and lines[0].x == pytest.approx(40)
    # a photo that would keep under NARROW_LEAST of its width is not narrowed: the lines move instead
    narrow = import_svg_text(BESIDE.replace('width="410" height="410"', 'width="200" height="200"'))
    found = [f for f in evaluate(narrow.layout).findings() if f.metric == "overlap" and f.defect]
    assert found and all(f.suggestion["type"] == "move" for f in found)
