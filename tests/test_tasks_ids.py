"""Tasks with elements named as real files name them: same layout, brief and scores; only the ids differ."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from assistant.env import LayoutEnv
from assistant.env.tasks import generate_svgs, make_task, task_names
from assistant.env.tasks.ids import STYLES, SYNONYMS, rename_ids
from assistant.env.tasks.spec import Block
from assistant.errors import EnvError
from assistant.metrics import evaluate

NAMES = task_names()
XML_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")


def _rename(obj, mapping):
    """``obj`` (JSON-like) with every string that is an old id replaced by the new one."""
    if isinstance(obj, dict):
        return {k: _rename(v, mapping) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rename(v, mapping) for v in obj]
    return mapping.get(obj, obj) if isinstance(obj, str) else obj


def _pair(name, seed, ids):
    plain, renamed = make_task(name, seed), make_task(name, seed, ids=ids)
    a, b = plain.broken.layout.elements, renamed.broken.layout.elements
    return plain, renamed, {x.id: y.id for x, y in zip(a, b)}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("ids", [*STYLES, "varied"])
def test_renamed_task_is_the_same_task_under_other_ids(name, ids):
    plain, renamed, mapping = _pair(name, 3, ids)
    for doc_p, doc_r in ((plain.broken, renamed.broken), (plain.clean, renamed.clean)):
        a, b = doc_p.layout.elements, doc_r.layout.elements
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert (x.role, x.kind, x.box, x.text, x.fill) == (y.role, y.kind, y.box, y.text, y.fill)
            assert mapping.get(x.id) == y.id and XML_NAME.match(y.id)
            assert mapping.get(x.group, x.group) == y.group and [mapping[c] for c in x.children] == y.children
        assert len({e.id for e in b}) == len(b)
    if ids in ("prefixed", "tool"):  # every id of the file is renamed (groups the importer adds are its own)
        own = {e.id for e in plain.broken.layout.elements if e.nodes}
        assert all(old != new for old, new in mapping.items() if old in own)
    assert renamed.instruction == plain.instruction and renamed.ids == ids
    # the brief compiles to the same constraints, on the renamed elements
    dump = lambda cs: [c.model_dump(mode="json") for c in cs]  # noqa: E731
    assert dump(renamed.constraints) == _rename(dump(plain.constraints), mapping)
    # and scores the same
    sp = evaluate(plain.broken.layout, constraints=plain.constraints, weights=plain.weights)
    sr = evaluate(renamed.broken.layout, constraints=renamed.constraints, weights=renamed.weights)
    assert sr.scores() == pytest.approx(sp.scores(), abs=1e-12)


def test_same_edit_earns_the_same_reward_under_renamed_ids():
    plain, renamed, mapping = _pair("poster", 7, "varied")
    actions = [{"type": "move", "ids": ["title"], "dx": 12.0, "dy": -8.0},
               {"type": "align", "ids": ["subtitle"], "edge": "left", "to": "element", "target_id": "title"},
               {"type": "finalize"}]
    got = []
    for task, rename in ((plain, {}), (renamed, mapping)):
        env = LayoutEnv(max_steps=6)
        env.reset(seed=0, options={"task": task})
        got.append([env.step(_rename(a, rename))[1] for a in actions])
    assert got[0] == pytest.approx(got[1], abs=1e-12) and len(set(got[0])) > 1


def test_naming_is_seeded_and_differs_between_tasks_and_seeds():
    a, b = generate_svgs("flyer", 5, "varied"), generate_svgs("flyer", 5, "varied")
    assert a[0] == b[0] and a[1] == b[1]
    seen = {tuple(e.id for e in make_task(n, s, ids="varied").broken.layout.elements)
            for n in ("slide", "flyer") for s in range(4)}
    assert len(seen) == 8
    # plain naming is the generators' own: unchanged by this option
    assert generate_svgs("flyer", 5)[0] == generate_svgs("flyer", 5, "plain")[0]


def test_every_style_comes_up_and_synonym_series_stay_consistent():
    styles = set()
    for seed in range(40):
        rng = np.random.default_rng(seed)
        blocks = [Block(f"bullet-{k}", "body", "text", 0, 0, 10, 10) for k in range(1, 4)]
        mapping = rename_ids(blocks, rng)
        words = {v.rsplit("-", 1)[0] for v in mapping.values()}
        if all(v.endswith(str(k)) and "-" in v for k, v in enumerate(mapping.values(), 1)):
            styles.add("synonyms" if words <= set(SYNONYMS["bullet"]) else "prefixed")
        elif all(v.startswith("text") for v in mapping.values()):
            styles.add("tool")
        if words <= set(SYNONYMS["bullet"]):
            assert len(words) == 1  # one word for the whole series
    assert styles == set(STYLES)


def test_unknown_naming_is_an_error():
    with pytest.raises(EnvError, match="unknown id naming 'fancy'"):
        make_task("poster", 1, ids="fancy")
    with pytest.raises(ValueError, match="unknown id style"):
        rename_ids([], np.random.default_rng(0), "fancy")
    assert json.dumps(make_task("poster", 1).ids) == '"plain"'
