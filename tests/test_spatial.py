"""The compiled spatial index answers exactly what its Python definition answers, in the same order.

``assistant.importer._spatial`` is built with the metric kernels (``make``); import uses it for every
"which boxes meet this one?" of grouping, roles and the scene pass. Its answers, their order and where a
``limit`` cuts them must be the definition's (``PyBoxIndex``), or import would group a file differently
depending on whether the extension is built.
"""

from __future__ import annotations

import random

import pytest

from assistant.geometry import Box
from assistant.importer import spatial
from assistant.importer.spatial import PyBoxIndex

pytestmark = pytest.mark.skipif(spatial._spatial is None, reason="the compiled index is not built")


def _compiled(boxes=()):
    return spatial._CompiledBoxIndex(boxes)


def _box(rng: random.Random) -> Box:
    kind = rng.random()
    if kind < 0.1:  # points and hairlines share a level
        return Box(x=rng.uniform(-50, 50), y=rng.uniform(-50, 50), width=0.0, height=rng.choice([0.0, 3.0]))
    if kind < 0.2:  # a page-wide band
        return Box(x=rng.uniform(-10, 10), y=rng.uniform(-200, 200), width=rng.uniform(300, 900), height=20.0)
    scale = rng.choice([1.0, 8.0, 60.0, 400.0])
    return Box(x=rng.uniform(-300, 300), y=rng.uniform(-300, 300), width=rng.random() * scale,
               height=rng.random() * scale)


@pytest.mark.parametrize("seed", range(8))
def test_same_answers_in_the_same_order(seed: int) -> None:
    rng = random.Random(seed)
    boxes = [_box(rng) for _ in range(600)]
    py, c = PyBoxIndex(), _compiled()
    for k, b in enumerate(boxes):  # filed in a shuffled order of keys, and some piled on one spot
        key = (k * 7919) % 600
        py.add(key, b)
        c.add(key, b)
    for k in rng.sample(range(600), 60):
        py.remove(k)
        c.remove(k)
    assert len(py) == len(c)
    for _ in range(300):
        q = _box(rng) if rng.random() < 0.8 else boxes[rng.randrange(600)]
        for limit in (None, 0, 1, 3, 9, 1000):
            assert c.query(q, limit=limit) == py.query(q, limit=limit)
        e = (q.x, q.y, q.x2, q.y2)
        assert c.query(e) == py.query(e)  # edges as a tuple alike
    for k in range(0, 600, 37):
        assert c.box(k) == py.box(k)


def test_a_query_far_off_and_a_huge_one() -> None:
    boxes = [Box(x=i * 3.0, y=i * 2.0, width=2.0, height=1.0) for i in range(50)]
    py, c = PyBoxIndex(enumerate(boxes)), _compiled(enumerate(boxes))
    for q in [(1e15, 1e15, 1e15 + 1, 1e15 + 1), (-1e12, -1e12, 1e12, 1e12), (5.0, 5.0, 4.0, 4.0),
              (-1e300, -1e300, 1e300, 1e300)]:
        assert c.query(q) == py.query(q)
        assert c.query(q, limit=2) == py.query(q, limit=2)


def test_an_unknown_key_and_a_negative_one() -> None:
    c = _compiled([(3, Box(x=0, y=0, width=1, height=1))])
    with pytest.raises(KeyError):
        c.box(4)
    with pytest.raises(ValueError):
        c.add(-1, Box(x=0, y=0, width=1, height=1))
    with pytest.raises(ValueError):
        c.remove(1 << 40)  # not an index of any list: refused, not allocated for
    assert c.query((0.5, 0.5, 0.6, 0.6)) == [3]
    c.remove(3)
    assert c.query((0.5, 0.5, 0.6, 0.6)) == [] and len(c) == 0
