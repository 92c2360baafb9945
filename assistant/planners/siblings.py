"""Like texts set as a list — cover lines, agenda items, a column of names — move together or not at all.

A designer who sets three cover lines in one style, one under the other, made a
list. A planner that moves one of them on its own initiative (clear of a photo
it straddles, say) pulls it away from the others and breaks the list, even when
each edit alone looks like a fix; the render check may well keep the others
where they are. So, for edits a planner makes without a brief:

:func:`sibling_sets` finds the lists: top-level texts on one page with the same
role, weight, fill and anchor and font sizes within :data:`SIZE_TOLERANCE` of
each other, chained one under the next (their columns overlap, the gap between
them at most :data:`GAP_LINES` line heights), at least :data:`MIN_SET` of them.
:func:`detached_siblings` says which members an edit pulled away: moved while
other members stayed, and now further from the nearest of those than before by
more than a line. An edit that moves every member, or moves a member back
towards the others (a ragged line put back on the list's edge), is fine.

When the user asks for something (a brief), these edits are theirs to make and
nothing here applies.
"""

from __future__ import annotations

from assistant.document import Element, Layout
from assistant.geometry import Box

#: Font sizes of one list differ by at most this share.
SIZE_TOLERANCE = 0.03
#: Members of a list follow each other within this many line heights.
GAP_LINES = 4.0
#: A list has at least this many members.
MIN_SET = 3
#: Texts of one style beyond this many on a page are a table or a pattern, not a list (bounds the work).
MAX_STYLE = 200
#: A box counts as moved when a side moved by more than this (world units).
_TOL = 0.01


def _line(e: Element) -> float:
    return e.line_height or 1.2 * (e.font_size or e.box.height)


def sibling_sets(layout: Layout) -> list[list[str]]:
    """The lists of like texts of ``layout`` (ids, top to bottom; see the module docstring)."""
    styles: dict[tuple[object, ...], list[Element]] = {}
    for e in layout.top_level():
        if e.kind == "text" and not e.pinned and e.font_size and (e.text or "").strip():
            key = (e.page, e.role, e.font_weight or 400, (e.fill or "").lower(), e.text_anchor or "start")
            styles.setdefault(key, []).append(e)
    out: list[list[str]] = []
    for members in styles.values():
        if not MIN_SET <= len(members) <= MAX_STYLE:
            continue
        members.sort(key=lambda e: (e.box.y, e.box.x))
        parent = list(range(len(members)))

        def find(i: int, parent: list[int] = parent) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i, a in enumerate(members):
            for j in range(i + 1, len(members)):
                b = members[j]
                if b.box.y - a.box.y2 > GAP_LINES * max(_line(a), _line(b)):
                    break  # sorted by top: every later one starts further down
                same_size = abs(a.font_size - b.font_size) <= SIZE_TOLERANCE * max(a.font_size, b.font_size)
                one_column = a.box.x < b.box.x2 and b.box.x < a.box.x2
                under = b.box.y >= a.box.y2 - 0.5 * _line(a)
                if same_size and one_column and under:
                    parent[find(j)] = find(i)
        sets: dict[int, list[str]] = {}
        for i, e in enumerate(members):
            sets.setdefault(find(i), []).append(e.id)
        out.extend(s for s in sets.values() if len(s) >= MIN_SET)
    return out


def snapshot(layout: Layout, sets: list[list[str]]) -> dict[str, tuple[Box, float]]:
    """What :func:`detached_siblings` compares: the box and line height of every member."""
    return {i: (layout.get(i).box, _line(layout.get(i))) for s in sets for i in s if i in layout}


def _moved(a: Box, b: Box) -> bool:
    return max(abs(a.x - b.x), abs(a.y - b.y), abs(a.x2 - b.x2), abs(a.y2 - b.y2)) > _TOL


def detached_siblings(before: dict[str, tuple[Box, float]], layout: Layout, sets: list[list[str]]) -> list[str]:
    """Members of ``sets`` that an edit pulled away from the members it left in place (see the module docstring)."""
    out: list[str] = []
    for members in sets:
        now = {i: layout.get(i).box for i in members if i in layout and i in before}
        moved = [i for i in now if _moved(before[i][0], now[i])]
        stayed = [i for i in now if i not in moved]
        if not moved or not stayed:
            continue
        for m in moved:
            was = min(before[m][0].distance(before[o][0]) for o in stayed)
            is_ = min(now[m].distance(before[o][0]) for o in stayed)
            if is_ > was + before[m][1]:
                out.append(m)
    return out


__all__ = ["GAP_LINES", "MIN_SET", "SIZE_TOLERANCE", "detached_siblings", "sibling_sets", "snapshot"]
