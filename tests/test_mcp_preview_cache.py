"""Preview renders are kept per document state: a repeat is free, an edit, undo or redo is always shown."""

from __future__ import annotations

from assistant.app.session import Session
from assistant.importer import import_svg_text
from assistant.render.overlay import render_overlay_png
from mcp_server import editing
from mcp_server.rendering import MAX_PREVIEW_BYTES, preview_png
from mcp_server.store import DocumentStore

SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
<rect id="bg" data-role="background" width="400" height="300" fill="#ffffff"/>
<text id="title" x="40" y="60" font-family="DejaVu Sans" font-size="32" fill="#111111">Preview</text>
<rect id="photo" data-role="image" x="40" y="100" width="200" height="120" fill="#3366cc"/>
</svg>"""


def _entry():
    store = DocumentStore()
    return store.add(Session(import_svg_text(SVG, source="cache.svg")), path=None, label="cache.svg")


def _preview(entry, **kw):
    return preview_png(entry, ids=kw.get("ids"), region=None, max_size=kw.get("max_size", 300),
                       overlays=kw.get("overlays", ["boxes"]))[0]


def test_repeat_preview_reuses_the_page_render_and_matches_an_uncached_render() -> None:
    entry = _entry()
    first = _preview(entry)
    assert len(entry.render_cache) == 1
    cached = next(iter(entry.render_cache.values()))
    assert _preview(entry) == first
    assert next(iter(entry.render_cache.values())) is cached  # not rendered again
    assert first == render_overlay_png(entry.document, max_size=300, max_bytes=MAX_PREVIEW_BYTES)
    # other overlays on the same state reuse the page too, and are drawn afresh
    grid = _preview(entry, overlays=["boxes", "grid"])
    assert grid != first and len(entry.render_cache) == 1


def test_edit_undo_and_redo_are_always_shown() -> None:
    entry = _entry()
    before = _preview(entry)
    editing.apply_edits(entry, [{"type": "move", "ids": ["photo"], "dx": 120.0, "dy": 0.0}],
                        expected_revision=entry.session.revision)
    moved = _preview(entry)
    assert moved != before
    assert moved == render_overlay_png(entry.document, max_size=300, max_bytes=MAX_PREVIEW_BYTES)
    editing.step_history(entry, "undo")
    assert _preview(entry) == before
    editing.step_history(entry, "redo")
    assert _preview(entry) == moved


def test_cache_keeps_only_a_few_renders() -> None:
    entry = _entry()
    for size in (120, 160, 200, 240):
        _preview(entry, max_size=size)
    assert 1 <= len(entry.render_cache) <= 2
