"""Bulleted lists drawn as a paragraph plus loose marker shapes, kept together by every planner.

Real flyers often set a list as one multi-line text and draw each bullet as its
own small shape (a triangle, a dot) just left of a line: seven of the ten OSGeo
flyers in the corpus do (four lists with 17 bullets on the Mapbender flyer).
The layout model sees a paragraph and some decorations; an edit that moves the
paragraph, or changes its size or line breaks, leaves the bullets where they
were, pointing at nothing.

:func:`list_markers` finds them: a *marker* of a text is a shape of role
``decoration`` (not a group), no larger than :data:`MARKER_EM` of the text's
font size in either direction, whose middle lies within the text's lines and
whose right edge lies left of the text within :data:`MARKER_GAP_EM` font
sizes. :func:`detached_lists` says which of those lists an edit pulled apart:
the text changed (moved, resized, restyled) and its markers did not move with
it by the same offset. ``run_planner`` refuses such edits for every planner and
the heuristic planner does not propose them.
"""

from __future__ import annotations

from typing import Any

from assistant.document import Layout

#: Largest marker, as a share of the text's font size (width and height).
MARKER_EM = 0.8
#: Largest gap between a marker's right edge and the text's left edge, in font sizes.
MARKER_GAP_EM = 2.0
#: Offsets that differ by less than this (world units) are the same.
_TOL = 0.01


def list_markers(layout: Layout) -> dict[str, list[str]]:
    """``{text id: [marker ids]}`` for every text with bullet shapes beside its lines (see the module docstring)."""
    shapes = [e for e in layout.elements if e.kind == "shape" and e.role == "decoration" and not e.children]
    out: dict[str, list[str]] = {}
    for t in layout.elements:
        if t.kind != "text" or not t.font_size:
            continue
        em, b = t.font_size, t.box
        found = [s.id for s in shapes
                 if s.box.width <= MARKER_EM * em and s.box.height <= MARKER_EM * em
                 and b.y <= s.box.y + s.box.height / 2 <= b.y + b.height
                 and 0.0 <= b.x - (s.box.x + s.box.width) <= MARKER_GAP_EM * em]
        if found:
            out[t.id] = found
    return out


def _state(layout: Layout, element_id: str) -> tuple[Any, ...] | None:
    if element_id not in layout:
        return None
    e = layout.get(element_id)
    return e.box.x, e.box.y, e.box.width, e.box.height, e.font_size, e.line_height, e.lines, e.text


def snapshot(layout: Layout, markers: dict[str, list[str]]) -> dict[str, tuple[Any, ...] | None]:
    """What :func:`detached_lists` compares: the box and text settings of every listed text and marker."""
    ids = {*markers, *(m for ms in markers.values() for m in ms)}
    return {i: _state(layout, i) for i in ids}


def detached_lists(before: dict[str, tuple[Any, ...] | None], layout: Layout,
                   markers: dict[str, list[str]]) -> list[str]:
    """Texts of ``markers`` whose markers no longer sit where they sat beside them in ``before``.

    A text left as it was is fine (an edit of its markers alone is the markers'
    business); a text moved with all its markers by the same offset is fine;
    any other change to a listed text — moved alone, resized, restyled, reflowed — detaches it.
    """
    out = []
    for text_id, ms in markers.items():
        was, now = before.get(text_id), _state(layout, text_id)
        if was is None or now is None or was == now:
            continue
        dx, dy = now[0] - was[0], now[1] - was[1]
        same_shape = abs(now[2] - was[2]) <= _TOL and abs(now[3] - was[3]) <= _TOL and was[4:] == now[4:]
        moved_along = all(
            (m_was := before.get(m)) is not None and (m_now := _state(layout, m)) is not None
            and abs(m_now[0] - m_was[0] - dx) <= _TOL and abs(m_now[1] - m_was[1] - dy) <= _TOL
            and abs(m_now[2] - m_was[2]) <= _TOL and abs(m_now[3] - m_was[3]) <= _TOL
            for m in ms)
        if not (same_shape and moved_along):
            out.append(text_id)
    return out


__all__ = ["list_markers", "snapshot", "detached_lists", "MARKER_EM", "MARKER_GAP_EM"]
