"""What a designer would select and what they would leave alone: the scene pass of the import.

After the painted leaves are grouped into elements (:mod:`assistant.importer.structure`) and
given roles (:mod:`assistant.importer.roles`), this pass looks at the page as a whole:

1. **Backdrops are pinned.** A shape or picture that covers most of the page, a band
   running (nearly) across the page, a large panel painted behind other content, a
   shape bleeding off the page's edge, a faint watermark, and every other decoration
   is background or decoration and ``pinned``: planners never move it unless a
   request names it. Rotated text and art are deliberate: pinned too.
2. **Stacked pieces are one unit.** Small elements piled on each other — a label on a
   shape on its drop shadow, two copies of a badge — become one group, so an edit
   moves them together.
3. **A bullet belongs to its line.** A marker (a dot, a dash, a small icon) just left of
   a text line, centred on it, becomes one group with the text: moving the line moves
   the bullet.
4. **A logo lock-up is one piece.** A logo and the short lines set tight against it — touching
   it, or within ``LOCKUP_GAP`` line heights of it (or of the line before), within its width —
   become one group: "zeste de savoir" with its "association à but non lucratif" underneath.
5. **A heading belongs to its section.** A heading (a one- or two-line text set larger or
   bolder than the text under it) and the text and list items set right under it in its
   column — same left edge (or centre, for centred text), each within ``SECTION_GAP``
   line heights of the one above, up to the next heading — become one group.

Groups made here have no XML node of their own (``nodes`` empty); their members keep
theirs. Their ids are ``la-unit-N`` and ``la-item-N``, numbered in paint order.

Every rule asks only about elements near the one it looks at, through a spatial index
(:class:`assistant.importer.spatial.BoxIndex`), so the pass grows like n log n in the
number of elements, as the rest of the import does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from assistant.document import Element, Layout
from assistant.geometry import Box
from assistant.importer.spatial import BoxIndex, Edges, edges
from assistant.limits import checkpoint

#: A band runs across at least this share of the page's width (or height).
BAND_SPAN = 0.9
#: A band at least this thick (share of the page's other side) is background; thinner is a rule.
BAND_THICK = 0.02
#: A panel behind content covers at least this share of the page.
PANEL_AREA = 0.10
#: A panel holds at least this many elements, each this much inside it.
PANEL_MEMBERS, PANEL_INSIDE = 2, 0.8
#: A watermark is at most this opaque and at least this large (share of the page).
WATERMARK_OPACITY, WATERMARK_AREA = 0.35, 0.05
#: Pieces of a stack are each at most this share of the page, and overlap this much.
STACK_AREA, STACK_OVERLAP = 0.12, 0.6
#: An element meeting more than this many others lies in a dense mass (a pattern, a chart's
#: marks), not in a designer's stack: it joins none (this also bounds the work on such files).
STACK_NEIGHBOURS = 48
#: A bullet marker is at most this many font sizes wide and high, and this far from its line.
MARKER_EM, MARKER_GAP_EM = 1.6, 2.0
#: A drawn marker is at least this many font sizes wide or high: a speck beside a display line is dust or a
#: star of the background, not its bullet.
MARKER_MIN_EM = 0.12
#: One-character texts that mark a list item.
MARKER_GLYPHS = frozenset("•·‣◦▪▫■□●○◆◇►▸▶▹→–—-*✓✔✗✘+")

_PINNED_ROLES = ("background", "decoration")


def analyse_scene(layout: Layout, explicit: Iterable[str] = (), pages: dict[str, int] | None = None) -> None:
    """Pin the backdrops and group stacks and list items of ``layout`` in place (see the module docstring).

    ``explicit``: ids of elements whose role the file sets (``data-role``); they are never re-roled.
    ``pages``: each element's page when pages lie on each other (slides as layers), not found by place.
    """
    explicit = frozenset(explicit)
    if pages is None:
        _place_on_pages(layout)
    else:
        for e in layout.elements:
            e.page = pages.get(e.id, 0)
    _pin_backdrops(layout, explicit)
    for find, prefix in ((_stacks, "unit"), (_lockups, "lockup"), (_list_items, "item"), (_sections, "section")):
        # a file that names its elements' roles has said what its parts are: its structure is its own
        _group(layout, [s for s in find(layout) if not explicit.intersection(s)], prefix)
    # paint order is the list's order; z follows it once, after the last group is made (in place:
    # the elements are this import's own, not yet seen by anyone)
    for z, e in enumerate(layout.elements):
        e.z = z


# -- 0. pages ---------------------------------------------------------------------

def _place_on_pages(layout: Layout) -> None:
    """Set ``page`` on every element: the page it covers most, -1 for none (Inkscape's scratch area)."""
    pages = [edges(p) for p in layout.canvas.page_boxes()]
    for e in layout.elements:
        best, best_area = -1, 0.0
        b = edges(e.box)
        for i, p in enumerate(pages):
            area = _overlap_area(b, p)
            if area is not None and (area > best_area or best < 0):
                best, best_area = i, area
        e.page = best  # in place: the elements are this import's own


def _overlap_area(a: Edges, b: Edges) -> float | None:
    """The area of the overlap of two boxes (as ``Box.intersection`` has it); None when they do not overlap."""
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    if x2 <= x1 or y2 <= y1:
        return None
    return (x2 - x1) * (y2 - y1)


# -- 1. backdrops ------------------------------------------------------------------

def _pin_backdrops(layout: Layout, explicit: frozenset[str]) -> None:
    pages = layout.canvas.page_boxes()
    top = [e for e in layout.elements if e.group is None]
    last_on_page: dict[int, int] = {e.page: i for i, e in enumerate(top)}

    @cache
    def index() -> BoxIndex:
        """``top`` by position, filed when a large shape first asks what is painted over it."""
        return BoxIndex((i, e.box) for i, e in enumerate(top))

    for i, e in enumerate(top):
        checkpoint()
        if e.page < 0:  # on no page: nothing anyone sees
            _pin_tree(layout, e)
            continue
        page = pages[e.page]

        def above(i: int = i, e: Element = e) -> list[Element]:
            """The elements painted after ``e`` on its page that meet it."""
            return [top[k] for k in sorted(index().query(e.box)) if k > i and top[k].page == e.page]

        role = _backdrop_role(e, page, last_on_page[e.page] > i, above)
        if role is not None and e.id not in explicit:
            e.role = role
            _pin_tree(layout, e)
        elif e.role in _PINNED_ROLES or abs(e.rotation) > 0.5:
            _pin_tree(layout, e)


def _backdrop_role(e: Element, page: Box, covered: bool, above: Callable[[], list[Element]]) -> str | None:
    """``background`` / ``decoration`` when ``e`` is a backdrop of the page, else None.

    ``covered``: something is painted after ``e`` on its page; ``above()``: what
    is painted after it and meets it.
    """
    if e.kind == "text":
        if e.opacity <= WATERMARK_OPACITY and e.box.area >= WATERMARK_AREA * page.area:
            return "decoration"
        return None
    b = e.box
    inter = b.intersection(page)
    if inter is None:
        return "decoration"  # off the page entirely
    share = inter.area / page.area
    if share >= 0.9:  # the page's ground, or a veil painted over the content
        return "background" if covered or e.role == "background" else "decoration"
    if e.opacity <= WATERMARK_OPACITY and share >= WATERMARK_AREA:
        return "decoration"
    across = inter.width >= BAND_SPAN * page.width or inter.height >= BAND_SPAN * page.height
    if across:
        thick = (inter.height / page.height) if inter.width >= BAND_SPAN * page.width else (inter.width / page.width)
        return "background" if thick >= BAND_THICK else "decoration"
    if share >= PANEL_AREA and e.kind == "shape":
        inside = [o for o in above() if o.box.area > 0 and _inside_share(o.box, b) >= PANEL_INSIDE]
        if len(inside) >= PANEL_MEMBERS:
            return "background"
    if not page.contains(b, 1e-6) and e.role in ("decoration", "background", "image", "logo") \
            and inter.area < 0.9 * b.area and e.kind == "shape":
        return "decoration"  # an ornament bleeding off the edge
    return None


def _inside_share(a: Box, outer: Box) -> float:
    inter = a.intersection(outer)
    return inter.area / a.area if inter is not None and a.area > 0 else 0.0


def _pin_tree(layout: Layout, e: Element) -> None:
    """Pin ``e`` and its members, in place (the elements are this import's own, not yet seen by anyone)."""
    e.pinned = True
    if e.children:
        for d in layout.descendants_of(e.id):
            d.pinned = True


# -- 2. stacks ----------------------------------------------------------------------

def _stacks(layout: Layout) -> list[list[str]]:
    """Sets of top-level content elements piled on each other (see the module docstring)."""
    pages = layout.canvas.page_boxes()
    # a text and its copy (a shadow, an outline) pile up at any size, and may reach past the page's edge
    said: dict[tuple[int, str], list[Element]] = {}
    for e in layout.elements:
        if e.kind == "text" and e.group is None and (e.text or "").strip():
            said.setdefault((e.page, e.text or ""), []).append(e)
    cand: list[Element] = []
    twins: list[Element] = []  # admitted for their copies alone: they pile only with those
    for e in layout.elements:
        if e.group is None and e.role != "background" and abs(e.rotation) <= 0.5 and e.page >= 0 and e.box.area > 0:
            if e.box.area <= STACK_AREA * pages[e.page].area and pages[e.page].contains(e.box, 1e-6):
                cand.append(e)
            elif e.kind == "text" and len(said.get((e.page, e.text or ""), ())) > 1:
                cand.append(e)
                twins.append(e)
    parent = {e.id: e.id for e in cand}
    twin_ids = {e.id for e in twins}

    def find(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra

    for page in sorted({e.page for e in cand}):  # pages may lie on each other (slides as layers)
        on = [e for e in cand if e.page == page]
        index = BoxIndex((k, e.box) for k, e in enumerate(on))
        boxes = [index.box(k) for k in range(len(on))]
        areas = [e.box.area for e in on]
        twin = [e.id in twin_ids for e in on]
        for k, a in enumerate(on):
            if k & 63 == 0:
                checkpoint()
            if twin[k]:
                continue
            own, own_area = boxes[k], areas[k]
            near = index.query(own, limit=STACK_NEIGHBOURS + 2)  # itself and one too many
            if len(near) > STACK_NEIGHBOURS + 1:
                continue
            for j in near:
                if j > k and not twin[j] and _piled(own, own_area, boxes[j], areas[j]) \
                        and _text_on_ornament(a, on[j]):
                    join(a.id, on[j].id)
    for t in twins:  # (a few large texts, each against the texts that say the same)
        for b in said[t.page, t.text or ""]:
            if b.id != t.id and b.id in parent and _piled(edges(t.box), t.box.area, edges(b.box), b.box.area):
                join(t.id, b.id)
    sets: dict[str, list[str]] = {}
    for e in cand:
        sets.setdefault(find(e.id), []).append(e.id)
    by_id = {e.id: e for e in cand}
    # a pile of ornaments alone stays pinned; one with content in it is content (a shadow under a badge)
    return [s for s in sets.values() if len(s) > 1 and any(not by_id[i].pinned for i in s)]


def _text_on_ornament(a: Element, b: Element) -> bool:
    """Whether a text and a pinned shape it overlaps may pile: only where the shape holds the text whole.

    A label on its badge piles with it; a line of type laid across one facet of a low-poly ground does not
    take that facet along.
    """
    for text, shape in ((a, b), (b, a)):
        if text.kind == "text" and shape.kind != "text" and shape.pinned:
            return shape.box.contains(text.box, 0.02 * max(text.box.width, text.box.height))
    return True


def _piled(a: Edges, a_area: float, b: Edges, b_area: float) -> bool:
    """Whether boxes ``a`` and ``b`` (edges, and their areas) overlap enough, and are alike enough in size, to stack."""
    inter = _overlap_area(a, b)
    if inter is None:
        return False
    small = min(a_area, b_area)
    return inter >= STACK_OVERLAP * small and small >= 0.5 * max(a_area, b_area)


# -- lock-ups --------------------------------------------------------------------------

#: A lock-up's line is at most this many of its line heights from the logo (or the line before).
LOCKUP_GAP = 0.6
#: A logo that takes lines into a lock-up covers at most this share of its page: what logos take on the
#: corpus's pages (up to 5 %), with room for the logo made 20–30 % bigger (the file an edit writes is read
#: again, and its lock-up must still be one piece); larger graphics called logos are diagrams and artwork.
LOCKUP_AREA = 0.08


def _lockups(layout: Layout) -> list[list[str]]:
    """``[logo, line, …]`` for every logo graphic with short lines set tight against it."""
    top = [e for e in layout.elements if e.group is None and not e.pinned and e.page >= 0]
    texts = [e for e in top if e.kind == "text" and (e.lines or 1) <= 2 and len(e.text or "") <= 60]
    taken: set[str] = set()
    out: list[list[str]] = []
    pages = layout.canvas.page_boxes()
    index = BoxIndex((k, t.box) for k, t in enumerate(texts))
    for logo in [e for e in top if e.role == "logo" and e.kind != "text"
                 and e.box.area <= LOCKUP_AREA * pages[e.page].area]:
        checkpoint()
        lb = logo.box
        members: list[Element] = []
        reach = lb
        page = pages[logo.page]
        column = (lb.x - 0.1 * lb.width, min(page.y, lb.y), lb.x2 + 0.1 * lb.width, max(page.y2, lb.y2))
        near = [texts[k] for k in sorted(index.query(column))]  # a text whose centre is in the column meets it
        for t in sorted(near, key=lambda e: abs(e.box.cy - lb.cy)):
            if t.id in taken or t.page != logo.page:
                continue
            b = t.box
            line = t.line_height or 1.2 * (t.font_size or b.height)
            if not (lb.x - 0.1 * lb.width <= b.cx <= lb.x2 + 0.1 * lb.width):
                continue
            if b.width > 1.5 * lb.width or b.height > 0.8 * lb.height:
                continue
            gap = max(b.y - reach.y2, reach.y - b.y2, 0.0)
            if gap <= LOCKUP_GAP * line:
                members.append(t)
                reach = Box.union_all([reach, b])
        if members:
            taken.update(m.id for m in members)
            out.append([logo.id, *(m.id for m in members)])
    return out


# -- 3. list items -------------------------------------------------------------------

def _list_items(layout: Layout) -> list[list[str]]:
    """``[text, marker, …]`` for every text with bullet markers just left of its lines."""
    top = [e for e in layout.elements if e.group is None]
    texts = [e for e in top if e.kind == "text" and e.font_size and not _is_marker_text(e) and e.role != "decoration"]
    # a marker larger than MARKER_EM of the largest text's font size is too large for every line
    largest = MARKER_EM * max((t.font_size or 0.0 for t in texts), default=0.0)
    markers = [e for e in top if _marker_like(e) and e.box.width <= largest and e.box.height <= largest]
    index = BoxIndex((k, m.box) for k, m in enumerate(markers))
    taken: set[str] = set()
    out: list[list[str]] = []
    for t in sorted(texts, key=lambda e: (e.box.y, e.box.x)):
        checkpoint()
        em = t.font_size or 0.0
        line = t.line_height or 1.2 * em
        b = t.box
        found = []
        # a marker ends at most MARKER_GAP_EM before the line and its centre is within the line's height
        reach = (b.x - MARKER_GAP_EM * em, b.y - 0.2 * line, b.x + 0.1 * em, b.y2 + 0.2 * line)
        for m in (markers[k] for k in sorted(index.query(reach))):
            if m.id in taken or m.id == t.id or m.page != t.page:
                continue
            mb = m.box
            if mb.width > MARKER_EM * em or mb.height > MARKER_EM * em:
                continue
            if not _is_marker_text(m) and max(mb.width, mb.height) < MARKER_MIN_EM * em:
                continue
            gap = b.x - mb.x2
            if not -0.1 * em <= gap <= MARKER_GAP_EM * em:
                continue
            if not b.y - 0.2 * line <= mb.cy <= b.y2 + 0.2 * line:
                continue
            found.append(m.id)
        if found and len(found) <= (t.lines or 1):  # more markers than lines: specks of a pattern, not bullets
            taken.update(found)
            out.append([t.id, *found])
    return out


def _is_marker_text(e: Element) -> bool:
    return e.kind == "text" and len((e.text or "").strip()) == 1 and (e.text or "").strip() in MARKER_GLYPHS


def _marker_like(e: Element) -> bool:
    if e.kind == "group":
        return False
    if _is_marker_text(e):
        return True
    return e.kind in ("shape", "image") and e.role in ("decoration", "logo", "image")


# -- 4. sections ---------------------------------------------------------------------

#: A section's next member starts at most this many of the heading's font sizes below the one above.
SECTION_GAP = 2.2
#: A section member's alignment edge lies within this many of the heading's font sizes of the heading's.
SECTION_EDGE = 1.0


def _size(e: Element) -> float:
    return e.font_size or 0.0


def _is_heading(e: Element, below: Element) -> bool:
    if e.kind != "text" or not e.text or (e.lines or 1) > 2 or len(e.text) > 80:
        return False
    head, body = _size(e), _size(below)
    if not head or not body:
        return False
    bolder = (e.font_weight or 400) >= 600 and (below.font_weight or 400) < 600
    return head >= 1.15 * body or (bolder and head >= 0.95 * body)


def _is_list_item(e: Element, by_id: dict[str, Element]) -> bool:
    """A group of one text and the small markers beside it (a list item made by this pass); ``by_id``: the elements."""
    if e.kind != "group":
        return False
    parts = [by_id[c] for c in e.children]
    texts = [p for p in parts if p.kind == "text"]
    return len(texts) == 1 and all(p.kind == "text" or _marker_like(p) or _is_marker_text(p) for p in parts)


def _lead(e: Element, layout: Layout) -> Element:
    """The text that speaks for a unit: itself, or a list item's text."""
    if e.kind == "group":
        texts = [c for c in layout.descendants_of(e.id) if c.kind == "text"]
        if texts:
            return max(texts, key=lambda t: t.box.area)
    return e


def _edge(e: Element, anchor: str) -> float:
    b = e.box
    return b.cx if anchor == "middle" else (b.x2 if anchor == "end" else b.x)


def _above_gap(e: Element, units: list[Element], index: BoxIndex, within: float) -> float:
    """The gap between ``e`` and the nearest unit above it in its column, looked for ``within`` above it.

    Infinite when there is none that near. ``index`` files ``units`` by position.
    """
    b = e.box
    strip = (b.x, b.y - max(within, 0.0), b.x2, b.y + 1e-9)
    gaps = [b.y - o.box.y2 for o in (units[k] for k in index.query(strip)) if o is not e and o.page == e.page
            and o.box.y2 <= b.y + 1e-9 and o.box.x < b.x2 and b.x < o.box.x2]
    return min(gaps, default=float("inf"))


def _sections(layout: Layout) -> list[list[str]]:
    """``[heading, member, …]`` for every heading with the text set right under it (see the module docstring)."""
    by_id = {e.id: e for e in layout.elements}
    top = [e for e in layout.elements if e.group is None and not e.pinned and e.page >= 0
           and (e.kind == "text" or _is_list_item(e, by_id))]
    top.sort(key=lambda e: (e.page, e.box.y, e.box.x))
    index = BoxIndex((k, e.box) for k, e in enumerate(top))
    used: set[str] = set()
    out: list[list[str]] = []
    for i, head in enumerate(top):
        if head.id in used or head.kind != "text" or head.role == "title":
            continue
        checkpoint()
        anchor = head.text_anchor or "start"
        em = _size(head)
        members: list[Element] = []
        last, at = head, i
        while True:
            # the next unit in reading order that starts under `last` (not beside it), near enough, in the column
            cand = _next_under(top, index, head, last, at, anchor, em, used)
            if cand is None:
                break
            lead = _lead(top[cand], layout)
            gap = top[cand].box.y - head.box.y2
            if not members and (not _is_heading(head, lead) or _above_gap(head, top, index, gap) < gap):
                break  # not a heading, or one that sits closer to what is above it (a title's subtitle)
            if members and lead.kind == "text" and _is_heading(lead, _lead(members[-1], layout)):
                break  # the next heading
            members.append(top[cand])
            last, at = top[cand], cand
        if members:
            used.update([head.id, *(m.id for m in members)])
            out.append([head.id, *(m.id for m in members)])
    return out


def _next_under(top: list[Element], index: BoxIndex, head: Element, last: Element, at: int, anchor: str,
                em: float, used: set[str]) -> int | None:
    """The position in ``top`` (reading order) of the section's next member candidate, or None.

    That is the first unit after position ``at`` on ``head``'s page, not used yet,
    that starts at most ``SECTION_GAP`` of ``em`` under ``last`` (and not more than
    0.3 of it above its bottom: beside it) and sits in ``head``'s column (the edge
    of ``anchor`` within ``SECTION_EDGE`` of ``em``, or, for a list item, its left edge).
    """
    lo, hi = last.box.y2 - 0.3 * em, last.box.y2 + SECTION_GAP * em
    edge, left, reach = _edge(head, anchor), head.box.x, SECTION_EDGE * em
    strips = {(edge - reach, edge + reach), (left - reach, left + reach)}
    found: set[int] = set()
    for x1, x2 in strips:
        found.update(index.query((x1, lo, x2, hi)))
    for k in sorted(found):
        c = top[k]
        if k <= at or c.page != head.page or c.id in used or not lo <= c.box.y <= hi:
            continue
        if abs(_edge(c, anchor) - edge) <= reach or (c.kind == "group" and abs(c.box.x - left) <= reach):
            return k
    return None


# -- grouping --------------------------------------------------------------------------

def _group(layout: Layout, sets: Iterable[list[str]], prefix: str) -> None:
    """Wrap each set of top-level elements in a new group element (paint order kept).

    A new group is listed just before its first member and takes that member's ``z``;
    ``analyse_scene`` renumbers ``z`` once all groups are made. The group takes its role
    from a lead member: the first of the set for list items and sections (their text,
    their heading), the most important one for stacks.
    """
    sets = [s for s in sets if len(s) > 1]
    if not sets:
        return
    used = {e.id for e in layout.elements}
    by_id = {e.id: e for e in layout.elements}
    first_member: dict[str, str] = {}
    groups: dict[str, Element] = {}
    n = 0
    for members in sorted(sets, key=lambda s: min(by_id[i].z for i in s)):
        n += 1
        gid = f"la-{prefix}-{n}"
        while gid in used:
            n += 1
            gid = f"la-{prefix}-{n}"
        used.add(gid)
        els = sorted((by_id[i] for i in members), key=lambda e: e.z)
        lead = by_id[members[0]] if prefix in ("item", "section") else max(els, key=lambda e: (e.importance,
                                                                                                 e.box.area))
        group = Element(
            id=gid, kind="group", role=lead.role, box=Box.union_all(e.box for e in els), z=els[0].z,
            opacity=max(e.opacity for e in els), locked=all(e.locked for e in els), importance=lead.importance,
            children=[e.id for e in els], text=lead.text if lead.kind == "text" else None,
            pinned=all(e.pinned for e in els), page=lead.page,
        )
        groups[gid] = group
        first_member[els[0].id] = gid
        for e in els:
            by_id[e.id] = e.model_copy(update={"group": gid, "pinned": group.pinned})
    ordered: list[Element] = []
    for e in layout.elements:
        gid = first_member.get(e.id)
        if gid is not None:
            ordered.append(groups[gid])
        ordered.append(by_id[e.id])
    layout.elements[:] = ordered
    layout._index = None


__all__ = ["analyse_scene"]
