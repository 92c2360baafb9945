"""The render check an edit must pass (``assistant.render.inkmap``), on real cairo renders."""

from __future__ import annotations

from assistant.actions import apply_action
from assistant.importer import import_svg_text
from assistant.render.inkmap import collisions, compare, measure

PAGE = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800">
  <rect width="600" height="800" fill="#223344"/>
  <rect id="photo" data-role="image" x="150" y="200" width="400" height="400" fill="#8899aa"/>
  <text id="line" data-role="body" x="{x}" y="{y}" font-family="DejaVu Sans" font-size="16"
        fill="#ffffff">A line set across the photo</text>
</svg>"""


def _moved(x: float, dx: float, *, y: float = 300.0, dy: float = 0.0) -> tuple[object, object]:
    doc = import_svg_text(PAGE.format(x=x, y=y))
    before = measure(doc)
    apply_action(doc, {"type": "move", "ids": ["line"], "dx": dx, "dy": dy})
    return before, measure(doc)


def test_text_moved_onto_a_picture_it_was_clear_of_is_a_new_collision() -> None:
    before, after = _moved(60.0, 0.0, y=150.0, dy=150.0)  # from above the photo to across its edge
    assert ("line", "photo") not in collisions(before)
    verdict = compare(before, after)
    assert not verdict.ok and [(a, b) for a, b, _ in verdict.new_collisions] == [("line", "photo")]


def test_text_already_across_a_picture_may_shift_a_little_on_it() -> None:
    before, after = _moved(60.0, 6.0)
    assert collisions(after)[("line", "photo")] > collisions(before)[("line", "photo")] > 0
    assert compare(before, after).ok


def test_text_already_across_a_picture_pushed_well_onto_it_is_a_new_collision() -> None:
    before, after = _moved(60.0, 60.0)
    assert not compare(before, after).ok


CARD = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1080 1080">
  <rect width="1080" height="1080" fill="#101820"/>
  <rect id="product" data-role="image" x="90" y="330" width="900" height="480" fill="#f2aa4c"/>
  <g id="shop" data-role="cta">
    <rect x="90" y="880" width="300" height="84" rx="42" fill="#f2aa4c"/>
    <text x="240" y="934" text-anchor="middle" font-size="32" fill="#101820">Shop now</text>
  </g>
</svg>"""


def _card_moved(dy: float) -> object:
    doc = import_svg_text(CARD)
    before = measure(doc)
    apply_action(doc, {"type": "move", "ids": ["product"], "dx": 0.0, "dy": dy})
    return compare(before, measure(doc))


def test_a_picture_pushed_onto_a_button_is_a_new_overlap() -> None:
    verdict = _card_moved(86.0)
    assert not verdict.ok and [(a, b) for a, b, _ in verdict.overlaps] == [("product", "shop")]
    assert "product now overlaps shop" in verdict.describe()


def test_a_picture_moved_within_the_free_space_passes() -> None:
    assert _card_moved(40.0).ok
