"""The design's own columns: finding an element knocked off the lines the rest of the page keeps.

A designer sets content on a few vertical lines: the left edges of a column, its centre,
the page's centre. An element nudged a little way off such a line, in a page where almost
everything else sits on one, is a defect; the same near-miss in a loosely set page is the
designer's choice. This check, on the top-level units (what a designer selects; not
backgrounds or ornaments):

1. a unit's *horizontal values* are its left edge, centre and right edge (a text: only its
   anchor, since the ragged side aligns with nothing on purpose);
2. its *partners* are the other units, and the pinned rules, frames and panels (which stay put, but
   content is set on their edges), that share part of its column (their horizontal extents
   overlap, widened by the largest shift looked for) and its ground, plus the page's centre line.
   A unit's ground is the band it sits on (a pinned backdrop running across the page, such as a
   header or footer band), else the page: a header is set on its own lines, not on the columns
   of the body under it;
3. the page is *regular* when at least ``REGULAR`` of its units that have partners sit on a
   partner's line (within ``TOLERANCE`` of the page width; a one-line text by either end, as a name
   set flush right on a margin);
4. in a regular page, a unit on no line, which a shift of ``MIN_SHIFT`` … ``MAX_SHIFT`` of the page
   width would put on the lines of at least ``SUPPORT`` partners, is reported as a defect
   (``Finding.defect``) of the alignment metric, with the smallest such shift as its suggested move
   (when a shift under ``MIN_SHIFT`` already does it, the unit is near enough: no defect).

Measured on the real designs of ``../shared/corpus`` (``python -m benchmarks.run --only restore``),
the check fires on about 1 % of the units of untouched designs. Layouts of more than ``MAX_UNITS``
units are not checked (the check compares every pair of units that share a column).
"""

from __future__ import annotations

from assistant.document import Element, Layout
from assistant.geometry import Box
from assistant.importer.scene import BAND_SPAN
from assistant.metrics.report import Finding, finding

TOLERANCE = 0.0015
MIN_SHIFT, MAX_SHIFT = 0.006, 0.06
REGULAR = 0.7
SUPPORT = 3
MAX_UNITS = 200
#: A stack of at least this many like texts …
SIBLINGS = 3
#: … each within this many line heights of another (a list, not labels scattered over a chart) …
SIBLING_GAP = 4.0
#: … whose edges all lie within this share of the page width, is meant to share one edge;
SIBLING_SPREAD = 0.025
#: … and so is one whose edges lie within this wider share when they zigzag down the stack (a cascade
#: stepping steadily one way is a deliberate indent).
SIBLING_ZIGZAG = 0.05
_ANCHOR_TYPE = {"start": 0, "middle": 1, "end": 2}
_TYPE_WORDS = ("left edge", "centre", "right edge")


def _values(e: Element) -> list[tuple[int, float]]:
    b = e.box
    if e.kind == "text" and e.text_anchor in _ANCHOR_TYPE:
        t = _ANCHOR_TYPE[e.text_anchor]
        return [(t, (b.x, b.cx, b.x2)[t])]
    return [(0, b.x), (1, b.cx), (2, b.x2)]


def _units(layout: Layout) -> list[Element]:
    """What is placed on the page's lines: top-level units, with a section's lines and items taken one by one."""
    page = layout.canvas.box
    out = []
    for e in layout.elements:
        parent = layout.get(e.group) if e.group is not None and e.group in layout else None
        placed = parent is None or (parent.group is None and parent.id.startswith("la-section-"))
        if (placed and not (e.kind == "group" and e.id.startswith("la-section-")) and not e.pinned and e.page >= 0
                and e.opacity > 0.01 and e.role not in ("background", "decoration") and e.box.width > 0
                and page.contains(e.box, 1e-6)):
            out.append(e)
    return out


def _grounds(layout: Layout, units: list[Element]) -> dict[str, str | None]:
    """Each unit's band (the last one painted under its centre), or None for the page itself.

    A band is a pinned backdrop at least ``BAND_SPAN`` of the page wide, the importer's measure of one.
    """
    page = layout.canvas.box
    bands = [e for e in layout.elements if e.pinned and e.kind != "text" and e.group is None
             and e.role in ("background", "decoration") and e.box.width >= BAND_SPAN * page.width
             and e.box.height < 0.9 * page.height]
    out: dict[str, str | None] = {}
    for u in units:
        under = [b for b in bands if b.z < u.z and b.box.x <= u.box.cx <= b.box.x2 and b.box.y <= u.box.cy <= b.box.y2]
        out[u.id] = max(under, key=lambda b: b.z).id if under else None
    return out


def _rules(layout: Layout) -> list[Element]:
    """Pinned rules, frames and panels on the page: they stay put, and content is set on their edges."""
    page = layout.canvas.box
    return [e for e in layout.elements if e.pinned and e.kind != "text" and e.group is None and e.page >= 0
            and e.box.area < 0.9 * page.area and page.contains(e.box, 1e-6) and (e.box.width > 0 or e.box.height > 0)]


def _partner_lines(u: Element, units: list[Element], page: Box, reach: float,
                   grounds: dict[str, str | None]) -> list[tuple[int, float, str]]:
    lines = [(1, page.cx, "the page's centre")]
    ub = u.box
    for o in units:
        if o.id == u.id or grounds[o.id] != grounds[u.id]:
            continue
        ob = o.box
        if ob.x < ub.x2 + reach and ub.x < ob.x2 + reach:
            lines.extend((t, v, o.id) for t, v in _values(o))
    return lines


def _single_line_on_a_line(u: Element, lines: list[tuple[int, float, str]], tol: float) -> bool:
    """Whether ``u``, a one-line text, ends on a line with either edge (a name set flush right on a margin)."""
    if u.kind != "text" or (u.lines or 1) > 1:
        return False
    b = u.box
    return any(abs(v - lv) <= tol for t, v in ((0, b.x), (2, b.x2)) for lt, lv, _ in lines if lt == t)


def _support(u: Element, lines: list[tuple[int, float, str]], shift: float, tol: float) -> set[str]:
    return {who for t, v in _values(u) for lt, lv, who in lines if lt == t and abs(v + shift - lv) <= tol}


def _stacked(a: Element, b: Element) -> bool:
    """Whether like texts ``a`` and ``b`` stand in one column, one within ``SIBLING_GAP`` lines of the other."""
    line = max(a.line_height or 1.2 * (a.font_size or 0.0), b.line_height or 1.2 * (b.font_size or 0.0))
    gap = max(a.box.y - b.box.y2, b.box.y - a.box.y2, 0.0)
    return a.box.x < b.box.x2 and b.box.x < a.box.x2 and gap <= SIBLING_GAP * line


def _chains(members: list[Element]) -> list[list[Element]]:
    """The columns of like texts among ``members``: chains of :func:`_stacked` pairs, each top to bottom."""
    members = sorted(members, key=lambda e: e.box.y)
    parent = list(range(len(members)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(members):
        for j in range(i + 1, len(members)):
            if _stacked(a, members[j]):
                parent[find(j)] = find(i)
    chains: dict[int, list[Element]] = {}
    for i, e in enumerate(members):
        chains.setdefault(find(i), []).append(e)
    return list(chains.values())


def ragged_siblings(layout: Layout, units: list[Element]) -> list[Finding]:
    """Alignment defects: a stack of like texts whose anchor edges nearly, but not quite, line up.

    Like texts share size and anchor and stand one above the other, each within ``SIBLING_GAP``
    line heights of another; when some of them share an
    edge, those within ``SIBLING_SPREAD`` of the page width of it are meant to share it too; when
    none do, their edges all lie within that spread, or within ``SIBLING_ZIGZAG`` and go back and
    forth down the stack. The line is the edge most of them share; when they share none, a line of
    the column's other units (a heading's edge, a page margin) within reach, else the leftmost (for
    left-set text; the rightmost for right-set). Each text off the line is reported; the suggested
    edit puts all of them on it at once (one ``align`` to the element whose edge it is; a ``move``
    when only one text is off), so that the list is not left half mended.
    """
    page = layout.canvas.box
    tol, spread, lo = TOLERANCE * page.width, SIBLING_SPREAD * page.width, MIN_SHIFT * page.width
    texts = [u for u in units if u.kind == "text" and u.font_size and u.text_anchor in _ANCHOR_TYPE]
    groups: dict[tuple[str, float], list[Element]] = {}
    for t in texts:
        groups.setdefault((t.text_anchor or "start", round(t.font_size or 0, 1)), []).append(t)
    out: list[Finding] = []
    for anchor, stack in ((a, s) for (a, _), members in groups.items() for s in _chains(members)):
        if len(stack) < SIBLINGS:
            continue
        t_type = _ANCHOR_TYPE[anchor]
        edges = [_values(m)[0][1] for m in stack]
        if max(edges) - min(edges) <= tol:
            continue
        shared = max(edges, key=lambda v: (sum(abs(v - w) <= tol for w in edges), -v if t_type == 0 else v))
        owner = stack[edges.index(shared)].id
        reach = spread
        if sum(abs(shared - w) <= tol for w in edges) < 2:
            steps = [b - a for a, b in zip(edges, edges[1:])]
            zigzag = any(s > tol for s in steps) and any(s < -tol for s in steps)
            reach = SIBLING_ZIGZAG * page.width if zigzag else spread
            if max(edges) - min(edges) > reach:
                continue
            others = [(lv, u.id) for u in units if u not in stack and u.box.x < max(m.box.x2 for m in stack)
                      and min(m.box.x for m in stack) < u.box.x2 for lt, lv in _values(u) if lt == t_type]
            near = [(v, who) for v, who in others if min(edges) - reach <= v <= max(edges) + reach]
            if near:
                shared, owner = min(near, key=lambda n: abs(n[0] - min(edges)))
            else:
                shared = (min(edges) if t_type == 0 else max(edges) if t_type == 2
                          else sorted(edges)[len(edges) // 2])
                owner = stack[edges.index(shared)].id
        off = [(m, v) for m, v in zip(stack, edges)
               if not (abs(v - shared) <= tol or abs(v - shared) < lo * 0.5 or abs(v - shared) > reach)]
        together = {"type": "align", "ids": [m.id for m, _ in off], "edge": ("left", "center_x", "right")[t_type],
                    "to": "element", "target_id": owner}
        for m, v in off:
            out.append(finding(
                metric="alignment", element_ids=[m.id, *(o.id for o in stack if o is not m)][:4],
                message=(f"{m.id} is {abs(shared - v) * layout.canvas.px_per_unit:.1f} px off the edge its like "
                         f"texts above and below keep"),
                severity="high", impact=0.3 + 0.4 * m.importance, defect=True,
                suggestion=(together if len(off) > 1 else
                            {"type": "move", "ids": [m.id], "dx": round(shared - v, 3), "dy": 0.0})))
    return out


def off_column(layout: Layout) -> list[Finding]:
    """Alignment defects: units knocked off the design's own columns (see the module docstring)."""
    units = _units(layout)
    if len(units) < 3 or len(units) > MAX_UNITS:
        return []
    ragged = ragged_siblings(layout, units)
    if ragged:
        return ragged
    page = layout.canvas.box
    tol, lo, hi = TOLERANCE * page.width, MIN_SHIFT * page.width, MAX_SHIFT * page.width
    rules = _rules(layout)
    grounds = _grounds(layout, units + rules)
    lines = {u.id: _partner_lines(u, units + rules, page, hi, grounds) for u in units}
    aligned = {u.id for u in units if _support(u, lines[u.id], 0.0, tol) or _single_line_on_a_line(u, lines[u.id], tol)}
    # a unit alone in its column (a logo in a corner) has no line to keep: it does not count either way
    placed = [u for u in units if len(lines[u.id]) > 1]
    if len(aligned) < REGULAR * len(placed):
        return []
    out: list[Finding] = []
    for u in units:
        if u.id in aligned or u.locked:
            continue
        candidates = {lv - v for t, v in _values(u) for lt, lv, _ in lines[u.id] if lt == t and abs(lv - v) <= hi}
        # the smallest shift that puts it on the lines of enough partners: the smallest edit that mends it
        best, partners = 0.0, set()
        for shift in sorted(candidates, key=abs):
            found = _support(u, lines[u.id], shift, tol)
            if len(found) >= SUPPORT:
                best, partners = shift, found
                break
        if not partners or abs(best) <= lo:
            continue  # on no line, or near enough to one that the design keeps it so
        names = ", ".join(sorted(partners)[:3])
        out.append(finding(
            metric="alignment", element_ids=[u.id, *sorted(p for p in partners if p in layout)][:4],
            message=(f"{u.id} sits {abs(best) * layout.canvas.px_per_unit:.1f} px off the line it would share with "
                     f"{names} ({len(partners)} in all); the rest of the page keeps its columns"),
            severity="high", impact=0.3 + 0.4 * u.importance, defect=True,
            suggestion={"type": "move", "ids": [u.id], "dx": round(best, 3), "dy": 0.0}))
    return out


__all__ = ["off_column", "MAX_UNITS"]
