"""Session: revisions, atomic edits, dry runs, undo/redo and a deterministic history."""

from __future__ import annotations

import pytest
from actions_support import layout_dump, osgeo, poster, serialize

from assistant.app.session import EditResult, Session
from assistant.errors import InvalidAction, SessionError

MOVE = {"type": "move", "ids": ["title"], "dx": 10, "dy": 5}
ALIGN = {"type": "align", "ids": ["title", "sub"], "edge": "left", "to": "margins"}


def test_revision_counts_edit_calls_not_actions():
    s = Session(poster())
    assert s.revision == 0
    r = s.apply([MOVE, ALIGN])
    assert isinstance(r, EditResult) and r.revision == 1 == s.revision
    assert [e.type for e in r.edits] == ["move", "align"]
    assert r.edits[0].changed_ids == ["title"]
    assert r.edits[0].after["title"].x - r.edits[0].before["title"].x == pytest.approx(10)
    assert r.changed_ids == ["title", "sub"]
    s.apply(MOVE, expected_revision=1)
    assert s.revision == 2


def test_stale_expected_revision_is_refused_with_the_current_one():
    s = Session(poster())
    s.apply([MOVE])
    tree = serialize(s.document)
    with pytest.raises(SessionError, match="revision 1") as info:
        s.apply([ALIGN], expected_revision=0)
    assert "expected_revision=1" in str(info.value)
    assert serialize(s.document) == tree and s.revision == 1


def test_dry_run_reports_without_changing_anything():
    s = Session(poster())
    tree, layout = serialize(s.document), layout_dump(s.document)
    r = s.apply([MOVE, ALIGN], dry_run=True)
    assert r.dry_run and r.revision == 0 and r.changed_ids == ["title", "sub"]
    assert serialize(s.document) == tree and layout_dump(s.document) == layout
    assert s.history == [] and not s.can_undo
    real = s.apply([MOVE, ALIGN])
    assert [e.after for e in real.edits] == [e.after for e in r.edits]


def test_invalid_edit_leaves_session_untouched():
    s = Session(poster())
    s.apply([MOVE])
    tree, layout = serialize(s.document), layout_dump(s.document)
    with pytest.raises(InvalidAction, match="action 1"):
        s.apply([ALIGN, {"type": "move", "ids": ["locked"], "dx": 1}])
    assert s.revision == 1 and len(s.history) == 1
    assert serialize(s.document) == tree and layout_dump(s.document) == layout


def test_undo_redo_are_exact_and_a_new_edit_clears_redo():
    s = Session(osgeo("gdal_a4.svg"))
    t0, l0 = serialize(s.document), layout_dump(s.document)
    ids = [e.id for e in s.document.layout.top_level() if e.kind == "text" and not e.locked][:2]
    s.apply([{"type": "move", "ids": ids, "dx": 4, "dy": 3}])
    t1, l1 = serialize(s.document), layout_dump(s.document)
    s.apply([{"type": "align", "ids": ids, "edge": "left"}])
    t2 = serialize(s.document)
    s.undo()
    assert serialize(s.document) == t1 and layout_dump(s.document) == l1
    u = s.undo()
    assert serialize(s.document) == t0 and layout_dump(s.document) == l0
    assert u.revision == 4 and set(u.changed_ids) == set(ids)
    with pytest.raises(SessionError, match="nothing to undo"):
        s.undo()
    s.redo()
    s.redo()
    assert serialize(s.document) == t2
    s.undo()
    s.apply([{"type": "move", "ids": ids[:1], "dx": -1}])
    assert not s.can_redo
    with pytest.raises(SessionError, match="nothing to redo"):
        s.redo()


def test_undo_checks_expected_revision():
    s = Session(poster())
    s.apply([MOVE])
    with pytest.raises(SessionError, match="stale"):
        s.undo(expected_revision=0)
    s.undo(expected_revision=1)
    assert s.revision == 2


def test_history_is_deterministic():
    def run() -> list:
        s = Session(poster())
        s.apply([MOVE, ALIGN])
        s.apply([{"type": "resize", "id": "box", "scale": 0.8}])
        s.undo()
        s.redo()
        return [h.model_dump() for h in s.history]

    h1, h2 = run(), run()
    assert h1 == h2
    assert [(h["revision"], h["kind"]) for h in h1] == [(1, "edit"), (2, "edit"), (3, "undo"), (4, "redo")]
    assert h1[0]["actions"][0] == {"type": "move", "ids": ["title"], "dx": 10.0, "dy": 5.0}
    assert h1[1]["changed_ids"] == ["box"]


def test_edit_result_is_json_serialisable():
    s = Session(poster())
    r = s.apply([MOVE])
    data = r.model_dump(mode="json")
    assert data["edits"][0]["after"]["title"]["x"] == pytest.approx(s.document.layout.get("title").box.x)
    assert data["metrics_before"] is None
