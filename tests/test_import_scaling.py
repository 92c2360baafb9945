"""Import grows like n log n in the number of elements, not n² (issue 54: 8 000 elements took 37 s).

No wall-clock timing here (it would depend on the machine and its load): the
test counts the Python function calls an import makes, which is
deterministic, and requires that twice the elements cost at most 2.5 times
the calls. The synthetic layout exercises every rule that used to scan the
whole document per element: short labels looking for a button shape under
them, pictures looking for the colour behind them, texts under pictures
looking for the nearest other text, shapes asking whether they are the bottom
layer. ``benchmarks/bench_import.py`` times 8 000 and 49 000 elements.

``BoxIndex`` answers are checked against a brute-force scan.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from assistant.geometry import Box
from assistant.importer import import_svg_text, roles
from assistant.importer.spatial import BoxIndex
from assistant.svg.tree import local_name

pytestmark = pytest.mark.timeout(300)


def synthetic(n: int) -> str:
    """A page of ``n`` elements: button shapes, short labels beside them, pictures and texts under them."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">']
    for i in range(n // 4):
        x, y = (i * 37) % 950, (i * 53) % 950
        colour = f"#{(i * 7919) % 0xFFFFFF:06x}"
        parts.append(f'<rect data-role="cta" x="{x}" y="{y}" width="8" height="6" fill="{colour}"/>')
        parts.append(f'<text x="{(x + 500) % 950}" y="{y + 20}" font-size="6">Go {i}</text>')
        parts.append(f'<image x="{x}" y="{(y + 300) % 900}" width="110" height="100"/>')
        parts.append(f'<text x="{x}" y="{(y + 300) % 900 + 108}" font-size="6">Photo {i}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def layered(n: int) -> str:
    """A map-like page of ``n`` paths in two unnamed layers, each path a small shape of its own."""
    rng = random.Random(n)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">']
    for layer in range(2):
        parts.append(f'<g id="layer{layer}">')
        for _ in range(n // 2):
            x, y = rng.uniform(0, 980), rng.uniform(0, 980)
            parts.append(f'<path d="M{x:.1f},{y:.1f} l12,3 l-5,9 z" fill="#{rng.randrange(1 << 24):06x}"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def calls_to_import(text: str) -> int:
    """Python and built-in function calls made by one import (a loop over a node's children in C counts too)."""
    import_svg_text(text)  # the first import loads modules and fonts
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        doc = import_svg_text(text)
    finally:
        sys.setprofile(None)
    assert len(doc.layout) > 0
    return count


def test_twice_the_elements_cost_at_most_two_and_a_half_times_the_calls() -> None:
    small, large = calls_to_import(synthetic(400)), calls_to_import(synthetic(800))
    assert large / small <= 2.5, f"{small} calls for 400 elements, {large} for 800: grows faster than n log n"


def test_a_layer_of_many_shapes_costs_calls_in_proportion() -> None:
    """Role rules read the names of an element's layers: once per layer, not by scanning its children per element."""
    calls_to_import(layered(100))  # the first imports of a process make one-off calls of their own
    small, large = calls_to_import(layered(800)), calls_to_import(layered(1600))
    assert large / small <= 2.5, f"{small} calls for 800 paths, {large} for 1600: grows faster than n log n"


def test_a_crowded_group_is_asked_for_its_name_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding a group's name scans its children (in C, where calls are not counted): once per group, not per child.

    Asked once per path, 49 000 paths in one group took four minutes to import.
    """
    asked: Counter[str] = Counter()
    keyword_role = roles.keyword_role

    def counting(node):  # noqa: ANN001, ANN202 - the wrapped function's own signature
        if local_name(node) == "g":
            asked[node.get("id")] += 1
        return keyword_role(node)

    monkeypatch.setattr(roles, "keyword_role", counting)
    import_svg_text(layered(400))
    assert asked and max(asked.values()) == 1, dict(asked)


def _random_box(rng: random.Random) -> Box:
    scale = 10 ** rng.uniform(-3, 3)
    return Box(x=rng.uniform(-500, 500), y=rng.uniform(-500, 500), width=rng.random() * scale,
               height=rng.random() * scale)


def _meets(a: Box, b: Box) -> bool:
    return a.x <= b.x2 and b.x <= a.x2 and a.y <= b.y2 and b.y <= a.y2


@pytest.mark.parametrize("seed", range(5))
def test_box_index_answers_as_a_full_scan_does(seed: int) -> None:
    rng = random.Random(seed)
    boxes = [_random_box(rng) for _ in range(400)]
    index = BoxIndex(enumerate(boxes))
    removed = set(rng.sample(range(400), 40))
    for k in removed:
        index.remove(k)
    for _ in range(200):
        q = _random_box(rng)
        expected = {k for k, b in enumerate(boxes) if k not in removed and _meets(b, q)}
        assert set(index.query(q)) == expected
        assert len(index.query(q, limit=3)) == min(3, len(expected))
