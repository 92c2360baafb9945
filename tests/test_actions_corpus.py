"""Every action family over the whole real corpus: re-import agrees with the layout, undo is exact.

Slow (every OSGeo flyer is imported three times); the default run covers three flyers in
``test_actions.py``.
"""

from __future__ import annotations

import pytest
from actions_support import layout_dump, reimport_mismatches, same_xml, serialize, svg_prefix_first
from conftest import osgeo_files, resvg_files

from assistant.actions import apply_action, undo_diff
from assistant.errors import InvalidAction, LayoutError
from assistant.importer import import_svg


def _inside(doc, e) -> bool:
    c = doc.layout.canvas
    b = e.box
    return c.x < b.x and b.x2 < c.x + c.width and c.y < b.y and b.y2 < c.y + c.height


def _script(doc) -> list[dict]:
    """A realistic edit script for a document: nudges, a resize, alignment, text style, hierarchy."""
    free = [e for e in doc.layout.top_level() if not e.locked and e.role != "background" and _inside(doc, e)]
    texts = [e for e in free if e.kind == "text"]
    out: list[dict] = []
    for e in free[:5]:
        out.append({"type": "move", "ids": [e.id], "dx": 1.25, "dy": -0.75})
    if free:
        out.append({"type": "resize", "id": max(free, key=lambda e: e.box.area).id, "scale": 0.9,
                    "anchor": "center"})
    if len(texts) >= 2:
        out.append({"type": "align", "ids": [t.id for t in texts[:2]], "edge": "left"})
    if texts:
        big = max(texts, key=lambda e: e.font_size or 0)
        out.append({"type": "set_text_style", "ids": [big.id], "fill": "#1a1a1a", "font_size": big.font_size * 0.95})
        out.append({"type": "promote", "id": big.id, "factor": 1.1})
        out.append({"type": "reorder", "id": big.id, "to": "front"})
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path", osgeo_files(), ids=lambda p: p.name)
def test_osgeo_edit_script_round_trips(path):
    doc = import_svg(path)
    tree0, layout0 = serialize(doc), layout_dump(doc)
    diffs, changed = [], set()
    for action in _script(doc):
        before = serialize(doc), layout_dump(doc)
        try:
            d = apply_action(doc, action)
        except InvalidAction:  # a refusal must leave the document as it was
            assert (serialize(doc), layout_dump(doc)) == before
            continue
        diffs.append(d)
        changed.update(d.changed_ids)
    if any(e.locked for e in doc.layout) and not diffs:
        pytest.skip("every element of this flyer is locked")
    assert diffs
    assert reimport_mismatches(doc, ids=sorted(changed)) == []
    for d in reversed(diffs):
        undo_diff(doc, d)
    assert layout_dump(doc) == layout0
    root = doc.root.get("id") or "/*"
    restacked_top = any(d.action["type"] == "reorder" and any(
        op["parent"] == root for op in d.to_json()["xml_patch"]) for d in diffs)
    if restacked_top and svg_prefix_first(doc):
        # documented lxml limit: a moved child of such a root is written as svg:tag (same XML, other bytes)
        assert same_xml(serialize(doc), tree0)
    else:
        assert serialize(doc) == tree0


def _unpredictable(doc) -> bool:
    """Content clipped by a nested <svg> viewport does not move with its clip (a documented limit), and text
    on a path is measured along the referenced path's geometry, so their boxes are not mapped copies."""
    names = {n.tag.rsplit("}", 1)[-1] for n in doc.root.iter() if isinstance(n.tag, str) and n is not doc.root}
    return bool(names & {"svg", "textPath"})


@pytest.mark.slow
def test_resvg_cases_edit_and_undo_exactly():
    checked = 0
    for path in resvg_files():
        try:
            doc = import_svg(path)
        except LayoutError:
            continue
        tree0, layout0 = serialize(doc), layout_dump(doc)
        c = doc.layout.canvas
        diffs = []
        for e in doc.layout.top_level()[:4]:
            dx = 1.5 if e.box.x2 + 1.5 <= c.x + c.width else -1.5
            for action in ({"type": "move", "ids": [e.id], "dx": dx, "dy": 0.0},
                           {"type": "resize", "id": e.id, "scale": 0.95, "anchor": "center"}):
                before = serialize(doc)
                try:
                    diffs.append(apply_action(doc, action))
                except InvalidAction:
                    assert serialize(doc) == before, path
        if diffs and not _unpredictable(doc):
            changed = sorted({i for d in diffs for i in d.changed_ids})
            assert reimport_mismatches(doc, ids=changed) == [], path
        for d in reversed(diffs):
            undo_diff(doc, d)
        assert serialize(doc) == tree0, path
        assert layout_dump(doc) == layout0, path
        checked += 1
    assert checked > 400
