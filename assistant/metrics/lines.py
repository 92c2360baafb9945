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
4. in a regular page, a unit on no line, which a shift of ``MIN_SHIFT`` of the page width …
   ``MAX_SHIFT`` of its longer side would put on the lines of at least ``SUPPORT`` partners, is
   reported as a defect (``Finding.defect``) of the alignment metric, with the smallest such shift
   as its suggested move (when a shift under ``MIN_SHIFT`` already does it, the unit is near
   enough: no defect). A stack of like texts set ragged (:func:`ragged_siblings`) is reported
   as well, each text once.

A section (a heading with its body, grouped by the importer) moves as one: it is also checked as
a whole, on its members' values, against the lines of everything outside it, since its members
keep each other's lines wherever the section stands.

Rows and rhythm are the vertical lines (:func:`vertical_misses`), on what a designer places:
top-level units, a section as one. A unit's column is the units that share at least
``COLUMN_SHARE`` of the narrower one's width with it; its neighbours are the nearest of them
above and below. The *rhythm* is the gaps kept between neighbours across the page. A unit is on
the vertical lines when both its gaps (to the unit above and below) are gaps the page keeps
elsewhere, or when its top, centre or bottom is on a line that ``ROW_SUPPORT`` units beside it
share (a row). The smallest shift, of ``MIN_SHIFT`` … ``MAX_SHIFT`` of the page, that puts it
back on them mends it; a unit that ends its column has one gap, which must then be kept by
``ONE_SIDED`` other pairs. That is not a defect on its own: real designs space their columns
too freely (measured on the corpus, such a rule fires on as many untouched units as on
displaced ones). A unit found off its column as well, though, was knocked out of place, and its
edit puts it back on both.

Measured on the real designs of ``../shared/corpus`` (``python -m benchmarks.run --only restore``),
the check fires on about 1 % of the units of untouched designs. Layouts of more than ``MAX_UNITS``
units are not checked (the checks compare every pair of units that share a column).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from assistant.document import Element, Layout
from assistant.geometry import Box
from assistant.importer.scene import BAND_SPAN
from assistant.metrics.report import Finding, finding

TOLERANCE = 0.0015
MIN_SHIFT, MAX_SHIFT = 0.006, 0.06
REGULAR = 0.7
SUPPORT = 3
#: Units beside one that a vertical shift must put it in line with.
ROW_SUPPORT = 2
#: Units stand in one column when they share this much of the narrower one's width.
COLUMN_SHARE = 0.5
#: The gap to its one neighbour, for a unit that ends its column, must be kept by this many other pairs.
ONE_SIDED = 2
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
    return _kept(_values(u), lines, shift, tol)


def _kept(values: list[tuple[int, float]], lines: list[tuple[int, float, str]], shift: float, tol: float) -> set[str]:
    """Who keeps a line that ``values`` moved by ``shift`` would sit on."""
    return {who for t, v in values for lt, lv, who in lines if lt == t and abs(v + shift - lv) <= tol}


def _smallest_shift(values: list[tuple[int, float]], lines: list[tuple[int, float, str]], tol: float,
                    hi: float, support: int) -> tuple[float, set[str]]:
    """The smallest shift (at most ``hi``) that puts ``values`` on the lines of ``support`` keepers, and they."""
    candidates = {lv - v for t, v in values for lt, lv, _ in lines if lt == t and abs(lv - v) <= hi}
    for shift in sorted(candidates, key=abs):
        found = _kept(values, lines, shift, tol)
        if len(found) >= support:
            return shift, found
    return 0.0, set()


def _sections(layout: Layout, units: list[Element]) -> dict[str, list[Element]]:
    """The importer's top-level sections with two or more of ``units`` in them: id → those members."""
    out: dict[str, list[Element]] = {}
    for u in units:
        parent = layout.get(u.group) if u.group is not None and u.group in layout else None
        if parent is not None and parent.group is None and parent.id.startswith("la-section-"):
            out.setdefault(parent.id, []).append(u)
    return {s: members for s, members in out.items() if len(members) >= 2
            and not layout.get(s).locked and not layout.get(s).pinned}


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


def _off_line(layout: Layout, u: Element, shift: float, partners: set[str]) -> Finding:
    names = ", ".join(sorted(partners)[:3])
    return finding(
        metric="alignment", element_ids=[u.id, *sorted(p for p in partners if p in layout)][:4],
        message=(f"{u.id} sits {abs(shift) * layout.canvas.px_per_unit:.1f} px off the line it would share with "
                 f"{names} ({len(partners)} in all); the rest of the page keeps its columns"),
        severity="high", impact=0.3 + 0.4 * u.importance, defect=True,
        suggestion={"type": "move", "ids": [u.id], "dx": round(shift, 3), "dy": 0.0})


def _off_column(layout: Layout, units: list[Element], sections: dict[str, list[Element]]) -> list[Finding]:
    page = layout.canvas.box
    tol, lo, hi = TOLERANCE * page.width, MIN_SHIFT * page.width, MAX_SHIFT * max(page.width, page.height)
    rules = _rules(layout)
    boxes = [layout.get(s) for s in sections]
    grounds = _grounds(layout, units + rules + boxes)
    lines = {u.id: _partner_lines(u, units + rules, page, hi, grounds) for u in units + boxes}
    aligned = {u.id for u in units if _support(u, lines[u.id], 0.0, tol) or _single_line_on_a_line(u, lines[u.id], tol)}
    # a unit alone in its column (a logo in a corner) has no line to keep: it does not count either way
    placed = [u for u in units if len(lines[u.id]) > 1]
    if len(aligned) < REGULAR * len(placed):
        return []
    out: list[Finding] = []
    done: set[str] = set()
    # a section is placed as one: its members keep each other's lines wherever it stands
    for sid, members in sections.items():
        mine = {m.id for m in members}
        values = [tv for m in members for tv in _values(m)]
        outside = [ln for ln in lines[sid] if ln[2] not in mine]
        if _kept(values, outside, 0.0, tol):
            continue
        best, partners = _smallest_shift(values, outside, tol, hi, SUPPORT)
        if partners and abs(best) > lo:
            out.append(_off_line(layout, layout.get(sid), best, partners))
            done |= mine
    for u in units:
        if u.id in aligned or u.locked or u.id in done:
            continue
        # the smallest shift that puts it on the lines of enough partners: the smallest edit that mends it
        best, partners = _smallest_shift(_values(u), lines[u.id], tol, hi, SUPPORT)
        if not partners or abs(best) <= lo:
            continue  # on no line, or near enough to one that the design keeps it so
        out.append(_off_line(layout, u, best, partners))
    return out


def _y_values(e: Element) -> list[tuple[int, float]]:
    b = e.box
    return [(0, b.y), (1, b.cy), (2, b.y2)]


def _beside(a: Box, b: Box) -> bool:
    return a.x2 <= b.x or b.x2 <= a.x


def _same_column(a: Box, b: Box) -> bool:
    """Whether ``a`` and ``b`` share at least ``COLUMN_SHARE`` of the narrower one's width."""
    return min(a.x2, b.x2) - max(a.x, b.x) >= COLUMN_SHARE * min(a.width, b.width)


def _columns(placed: list[Element], grounds: dict[str, str | None]) -> dict[str, tuple[Element | None, Element | None]]:
    """Each unit's neighbours in its column (units on its ground that share its column), above and below.

    The one above starts above it and ends lowest of those; the one below ends below it and starts highest.
    """
    out: dict[str, tuple[Element | None, Element | None]] = {}
    for u in placed:
        above: Element | None = None
        below: Element | None = None
        for o in placed:
            if o is u or grounds[o.id] != grounds[u.id] or not _same_column(o.box, u.box):
                continue
            if o.box.y < u.box.y and o.box.cy < u.box.cy and (above is None or o.box.y2 > above.box.y2):
                above = o
            elif o.box.y2 > u.box.y2 and o.box.cy > u.box.cy and (below is None or o.box.y < below.box.y):
                below = o
        out[u.id] = (above, below)
    return out


@dataclass(frozen=True)
class _Vertical:
    """Where a unit would sit back on the design's rows or rhythm: the shift, who keeps it, and why."""

    shift: float
    keepers: tuple[str, ...]
    why: str


def vertical_misses(layout: Layout, units: list[Element], sections: dict[str, list[Element]],
                    among: set[str]) -> dict[str, _Vertical]:
    """Units of ``among`` on none of the design's rows and rhythm, which one shift would put back on them.

    See the module docstring; ``units`` and ``sections`` are the page's, all of them partners.
    """
    page = layout.canvas.box
    tol, lo, hi = TOLERANCE * page.height, MIN_SHIFT * page.height, MAX_SHIFT * max(page.width, page.height)
    members = {m.id for ms in sections.values() for m in ms}
    placed = [u for u in units if u.id not in members] + [layout.get(s) for s in sections]
    grounds = _grounds(layout, placed)
    column = _columns(placed, grounds)
    pairs = [(u.id, below.id, below.box.y - u.box.y2) for u in placed
             for below in (column[u.id][1],) if below is not None and below.box.y - u.box.y2 > tol]
    out: dict[str, _Vertical] = {}
    for u in placed:
        if u.id not in among or u.locked or u.pinned:
            continue
        gaps = sorted(g for a, b, g in pairs if u.id not in (a, b))

        def kept(g: float | None, gaps: list[float] = gaps) -> int:
            return 0 if g is None else bisect_right(gaps, g + tol) - bisect_left(gaps, g - tol)

        above, below = column[u.id]
        ga = None if above is None else u.box.y - above.box.y2
        gb = None if below is None else below.box.y - u.box.y2
        row = [(t, v, o.id) for o in placed if o is not u and grounds[o.id] == grounds[u.id]
               and _beside(o.box, u.box) and o.box.y < u.box.y2 + hi and u.box.y < o.box.y2 + hi
               for t, v in _y_values(o)]
        values = _y_values(u)
        # the lines of a row: kept by at least ROW_SUPPORT units beside it
        shared = [(lt, lv, who) for lt, lv, who in row
                  if sum(lt2 == lt and abs(lv - w) <= tol for lt2, w, _ in row) >= ROW_SUPPORT]
        shifts = {0.0} | {lv - v for t, v in values for lt, lv, _ in shared if lt == t}
        shifts |= {g - ga for g in gaps} if ga is not None else set()
        shifts |= {gb - g for g in gaps} if gb is not None else set()
        for shift in sorted((s for s in shifts if abs(s) <= hi), key=abs):
            beside = _kept(values, shared, shift, tol)
            if ga is not None and gb is not None:
                n = min(kept(ga + shift), kept(gb - shift))
            else:  # the end of its column: a gap the page repeats
                n = max(kept(None if ga is None else ga + shift), kept(None if gb is None else gb - shift))
                n = n if n >= ONE_SIDED else 0
            if not n and not beside:
                continue
            if abs(shift) > lo and n:
                keepers = tuple(o.id for o in (above, below) if o is not None)
                where = (f"between {above.id} and {below.id}" if above is not None and below is not None
                         else f"under {above.id}" if above is not None else f"above {keepers[0]}")
                out[u.id] = _Vertical(shift, keepers, f"off its column's spacing ({where})")
            elif abs(shift) > lo:
                out[u.id] = _Vertical(shift, tuple(sorted(beside)),
                                      f"off the row of {', '.join(sorted(beside)[:3])}")
            break
    return out


def off_column(layout: Layout) -> list[Finding]:
    """Alignment defects: units knocked off the design's own columns, rows and rhythm (module docstring).

    A unit off its column and off its rows gets one edit that puts it back on both.
    """
    units = _units(layout)
    if len(units) < 3 or len(units) > MAX_UNITS:
        return []
    sections = _sections(layout, units)
    ragged = ragged_siblings(layout, units)
    named = {f.element_ids[0] for f in ragged}
    across = ragged + [f for f in _off_column(layout, units, sections) if f.element_ids[0] not in named]
    moves = {f.element_ids[0] for f in across if f.suggestion and f.suggestion.get("type") == "move"}
    vertical = vertical_misses(layout, units, sections, moves) if moves else {}
    out = []
    for f in across:
        v = vertical.get(f.element_ids[0])
        if v is not None and f.suggestion and f.suggestion.get("type") == "move":
            px = abs(v.shift) * layout.canvas.px_per_unit
            f = f.model_copy(update={"message": f"{f.message}; and {px:.1f} px {v.why}",
                                     "suggestion": {**f.suggestion, "dy": round(v.shift, 3)}})
        out.append(f)
    return out


__all__ = ["off_column", "vertical_misses", "MAX_UNITS"]
