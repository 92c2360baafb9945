"""Sets a request names by what they have in common, and what goes with a picture or a group.

"All five step boxes" (five of a kind in one row), "the feature bullets" (the items under the "Features"
heading), "the logo box" (the frame round a picture), "swap 'association à but non lucratif' and
'zestedesavoir.com'" (two lines of one lock-up).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from assistant.document import Layout
from assistant.instructions.requests.asks import Ask
from assistant.instructions.requests.choose import broad_candidates, drawn_on, score_mention, unknown_head
from assistant.instructions.requests.index import ElementIndex, section_heading
from assistant.instructions.requests.nearby import related_to
from assistant.instructions.requests.refs import Mention
from assistant.instructions.requests.scope import stacked
from assistant.instructions.requests.vocab import CLASS_WORDS
from assistant.instructions.requests.words import fold

#: Groups the importer makes of a heading and the text under it.
_SECTION = "la-section-"


def under_heading(cands: list[str], said: list[str], index: ElementIndex) -> list[str]:
    """Of ``cands``, those in a section whose heading says the words ``said``; ``cands`` when none or all are.

    "The feature bullets": the items under "Features".
    """
    kept = []
    for i in cands:
        section = next((a for a in index.ancestors(i) if a.startswith(_SECTION)), None)
        if section is None:
            continue
        head = min(index.layout.get(section).children, key=lambda c: index.layout.get(c).box.y)
        words = set(fold(" ".join(index.entry(head).texts[:1])).split()) if head in index.entries else set()
        if head != i and all(w in words or w + "s" in words for w in said):
            kept.append(i)
    return kept if 0 < len(kept) < len(cands) else cands


def alike(ranked: list[str], count: int, layout: Layout) -> list[str]:
    """Of ``ranked`` (best first), the ``count`` that make one set of like things, or [] when no one set does.

    "All five step boxes": five of a kind (one kind of element, about one height) in one row or one column, or
    of one size wherever they are ("all four screenshots" in a grid of two by two), the only such set of that
    many, though panels and logos are boxes too.
    """
    els = [layout.get(i) for i in ranked]
    sets = []
    for axis in ("row", "column", "size"):
        for e in els:
            mates = [o for o in els if o.kind == e.kind and abs(o.box.height - e.box.height) <= 0.25 * e.box.height
                     and (abs(o.box.cy - e.box.cy) <= 0.5 * e.box.height if axis == "row"
                          else abs(o.box.cx - e.box.cx) <= 0.5 * e.box.width if axis == "column"
                          else abs(o.box.width - e.box.width) <= 0.1 * e.box.width
                          and abs(o.box.height - e.box.height) <= 0.1 * e.box.height)]
            ids = sorted(o.id for o in mates)
            if len(ids) == count and ids not in sets:
                sets.append(ids)
    return sets[0] if len(sets) == 1 else []


def member_quoted(index: ElementIndex, group_id: str, m: Mention) -> str | None:
    """The member of ``group_id`` whose text is what ``m`` quotes, if one is."""
    if not m.quote:
        return None
    said = fold(m.quote)
    return next((d.id for d in index.layout.descendants_of(group_id) if d.kind == "text"
                 and index.entry(d.id).texts[:1] == [said]), None)


def wordless_picture(layout: Layout, eid: str) -> bool:
    """Whether the element is a picture or a logo (embedded or drawn) with no words of its own."""
    e = layout.get(eid)
    return e.role in ("image", "logo") and not any(d.kind == "text" for d in [e, *layout.descendants_of(eid)])


def framed(layout: Layout, eid: str, m: Mention) -> str:
    """The unit of a picture and its frame, for "the logo box": the frame said with the picture's noun."""
    e = layout.get(eid)
    if e.kind != "shape" or e.group is None or not e.group.startswith("la-") or len(m.words) < 2:
        return eid
    said = {CLASS_WORDS.get(w) for w in m.words[:-1]} & {"logo", "image"}
    unit = layout.get(e.group)
    inside = [layout.get(c) for c in unit.children if c != eid]
    if said and CLASS_WORDS.get(m.words[-1]) == "shape" and any(c.kind == "image" or c.role in said for c in inside):
        return unit.id
    return eid


#: A unit wider than this share of the page spans the columns (a title, a band of logos): in none of them.
_SPANS_COLUMNS = 0.55


def page_column(index: ElementIndex, place: str) -> list[str]:
    """The top-level content in the column ``place`` names ("the left column", "the right hand column").

    Columns are the runs of units whose horizontal extents overlap (by more than a quarter of the narrower), once
    the units that span most of the page are set aside; [] where the page has fewer than two.
    """
    ids = index.everything()
    page = index.layout.canvas.box
    units = sorted(((index.layout.get(i).box, i) for i in ids
                    if index.layout.get(i).box.width < _SPANS_COLUMNS * page.width), key=lambda u: u[0].x)
    columns: list[list[str]] = []
    left = right = float("-inf")
    for box, i in units:
        # (a unit that runs a little into the next column — what the request may complain of — is not in it)
        if columns and right - box.x > 0.25 * min(box.width, right - left):
            columns[-1].append(i)
            right = max(right, box.x2)
        else:
            columns.append([i])
            left, right = box.x, box.x2
    columns = [c for c in columns if len(c) >= 2] if sum(len(c) >= 2 for c in columns) >= 2 else columns
    if len(columns) < 2:
        return []
    if place == "middle":
        return columns[len(columns) // 2] if len(columns) % 2 else []
    return columns[0] if place == "left" else columns[-1]


def section_body(index: ElementIndex, picked: str, words: list[str]) -> str | None:
    """The text under the heading ``picked`` when the noun said is one for body text ("the Welcome para").

    The heading's words name its section; a noun for running text names the section's one text below the heading.
    None where ``picked`` heads no section, is body text itself, or its section holds more than one such text.
    """
    if not any(CLASS_WORDS.get(w) == "body" for w in words) or any(
            CLASS_WORDS.get(w) in ("heading", "title", "subtitle") for w in words):
        return None
    layout = index.layout
    el = layout.get(picked)
    if picked.startswith(_SECTION) and not {"section", "block", "column"} & set(words):
        section = picked  # "the Welcome paragraph", where its words name the section: the text under its heading
        picked = section_heading(layout, section) or picked
    elif el.group is not None and el.group.startswith(_SECTION) and el.role != "body":
        section = el.group
    else:
        return None
    if section_heading(layout, section) != picked:
        return None
    rest = [c for c in layout.get(section).children if c != picked and layout.get(c).kind == "text"]
    if len(rest) > 1 and {"intro", "introduction", "lead", "lede", "opening"} & set(words):
        return min(rest, key=lambda c: layout.get(c).box.y)  # "the Welcome intro": the first text under the heading
    return rest[0] if len(rest) == 1 else None


def counted_members(index: ElementIndex, picked: str, count: int | None) -> list[str] | None:
    """The ``count`` members of the section ``picked`` a count names ("the three tips" of "Praktické tipy").

    Its members below its heading (not ornament), or those of them that share the most common role (the items, not
    the link under them), when they are exactly as many as said; else None.
    """
    if not picked.startswith(_SECTION) or (count or 0) < 2:
        return None
    heading = section_heading(index.layout, picked)
    members = [c for c in index.layout.get(picked).children if c != heading
               and index.layout.get(c).role not in ("decoration", "background")]
    if len(members) != count:
        roles = [index.layout.get(c).role for c in members]
        common = max(roles, key=roles.count) if roles else None  # (of two as common, the first: the same each run)
        members = [c for c in members if index.layout.get(c).role == common]
    return index.reading_order(members) if len(members) == count else None


def text_block(index: ElementIndex) -> list[str] | None:
    """The page's texts when there are only a few and they sit together as one block (a title with its tagline).

    "The words", "the text" on such a page name them all; None where the page has one text, more than four, or texts
    apart from each other.
    """
    texts = [i for i in index.content_ids() if (e := index.layout.get(i)).group is None and index.on_page(e)
             and not e.pinned and (e.kind == "text" or any(d.kind == "text" for d in index.layout.descendants_of(i)))]
    return index.reading_order(texts) if 2 <= len(texts) <= 4 and stacked(texts, index.layout) else None


def tab_panel(layout: Layout, picked: str, words: list[str]) -> str | None:
    """The panel whose top edge the tab ``picked`` sits across, when the noun said is one for a box ("the Code box").

    A poster's boxes are often big shapes with a small labelled tab across their top: the label's words name the tab,
    "box" or "panel" the shape under it. None where the noun is for the tab itself or no such shape is there.
    """
    if not words or words[-1] not in ("box", "panel", "frame"):
        return None
    tab = layout.get(picked).box
    tol = 0.25 * tab.height
    panels = [e for e in layout.elements if e.kind == "shape" and e.id != picked and e.box.area >= 4 * tab.area
              and (e.pinned or e.role in ("background", "decoration"))
              and e.box.x - tol <= tab.x and tab.x2 <= e.box.x2 + tol and tab.y + tol < e.box.y < tab.y2 - tol]
    return min(panels, key=lambda e: e.box.area).id if panels else None


__all__ = ["alike", "held_by", "counted_members", "text_block", "framed", "member_quoted", "page_column",
           "section_body",
           "tab_panel", "under_heading", "wordless_picture", "related_mention", "by_words_in_line",
           "carried_along"]


#: Relations that say only nearness, no side.
_BESIDE = ("next to", "beside", "near")


def held_by(layout: Layout, cands: list[str], named: list[str]) -> list[str]:
    """Of several shapes a noun fits, the smallest that holds what the request named before it ([] if none).

    "the placeholder text sits high in the dashed rectangle", "the dots on the window bar": the rectangle it is in,
    not another one of the page. Only a drawn shape that is not the ground of the page holds: a group round what
    was named is not where it sits, and a sheet that much of the page lies on (a backdrop holding three or more
    elements) holds it as it holds the rest ("centre X on the dashed box", where X is on the sheet but not in the
    box, asks which box); a strip holding a line or two is where that line is ("fit it in the black strip").
    """
    said = [layout.get(i).box for i in dict.fromkeys(named) if i not in cands]
    tops = [e.box for e in layout.top_level() if e.kind != "shape"]
    ground = {c for c in cands if layout.get(c).role == "background" and sum(
        layout.get(c).box.contains(b) for b in tops) >= 3}
    held = [c for c in cands if layout.get(c).kind == "shape" and c not in ground and any(
        (inside := b.intersection(layout.get(c).box)) is not None and inside.area >= 0.5 * b.area for b in said)]
    smallest = min(held, key=lambda c: layout.get(c).box.area) if held else None
    return [smallest] if smallest is not None and len(held) < len(cands) else []


def held_said(layout: Layout, resolved: dict[int, list[str]], pools: dict[int, list[str]], skel: str) -> None:
    """A shape said to hold what follows it picks, of those its noun fits, the one that does; ``resolved`` changes.

    "move the purple box with General Interest Meeting + the date in it down 5mm": of the purple boxes, the one
    those two texts are in (the smallest that holds them).
    """
    for m in re.finditer(r"\bE(\d+) with ((?:E\d+ (?:and |, )?)+)(?:in|inside|on|within) (?:it|them|E\d+)\b", skel):
        n = int(m.group(1))
        cands = list(dict.fromkeys(pools.get(n, []) + resolved.get(n, [])))
        named = [i for k in re.findall(r"E(\d+)", m.group(2)) for i in resolved.get(int(k), [])]
        if len(cands) > 1 and named and (held := held_by(layout, cands, named)):
            resolved[n] = held


def carried_along(layout: Layout, movers: list[str], mentions: list[Mention], skel: str,
                  resolve: Callable[[Mention], list[str]]) -> list[str]:
    """What "…, together with X and Y" adds to the elements ``movers`` that move: each beside them, the nearest.

    Beside: within a mover's own size of it. A part that already moves is no error ("the lockup (roundel, ×, OSC
    box …)"); one not found beside them is (moving without it is not what was asked).
    """
    boxes = [layout.get(i).box for i in movers]
    out: list[str] = []
    for m in mentions:
        if m.pronoun and not skel.startswith(("together", "along", "and together", "and along")):
            continue  # ("the paragraph comes with it": "it" is what moves)
        try:
            found = resolve(m)
        except Ask:
            found = []
        if set(found) & set(movers + out):
            continue
        found = sorted((i for i in found if any(layout.get(i).box.distance(b) <= max(b.width, b.height)
                                                for b in boxes)),
                       key=lambda i: min(layout.get(i).box.distance(b) for b in boxes))
        found = found[:1] if not (m.plural or m.every or (m.count or 0) > 1) else found
        if not found:  # moving it without them is not what was asked
            raise Ask("missing", f"I found no {m.text!r} beside what moves; name it another way")
        out += found
    return out


def related_mention(index: ElementIndex, mentions: list[Mention], n: int, k: int, rel: str, pool: list[str],
                    resolved: dict[int, list[str]]) -> list[str]:
    """What the ``n``-th mention names, of ``pool``, said to be ``rel`` of the ``k``-th ("the text above it")."""
    m, layout, targets = mentions[n], index.layout, resolved.get(k, [])
    if rel == "on" and unknown_head(m) and not m.names and not m.quote:  # "the little light on the word …": maybe
        pool = list(dict.fromkeys(pool + drawn_on(index, targets)))  # an ornament
    count = m.count or (0 if m.plural else 1)  # (0: all under a heading, or none)
    near = by_words_in_line(layout, index, m, related_to(layout, pool, targets, rel, count=count), targets, rel, count)
    if m.ordinal is not None and resolved.get(n) and set(resolved[n]) <= set(related_to(
            layout, pool, targets, rel, count=len(pool))):
        near = resolved[n]  # "the 4th photo placeholder in the strip": the fourth of those in it
    return near if near or count == 0 else resolved[n]


def by_words_in_line(layout: Layout, index: ElementIndex, m: Mention, near: list[str], targets: list[str],
                     rel: str, count: int) -> list[str]:
    """``near``, or what ``m``'s words alone find ``rel`` of ``targets`` where a name it matched lies elsewhere.

    "The bold intro under Welcome": the element whose id is "Intro" sits in another column, so not under the
    Welcome heading; the bold paragraph under that heading is what the words mean. "The Mapbender wordmark next to
    it", where the logo named Mapbender is across the page: the wordmark within its own size of it.
    """
    if not m.names or m.quote or not near or not targets or rel not in ("under", "below", "beneath", "underneath",
                                                                       "above", "over", *_BESIDE):
        return near
    t = layout.get(targets[0]).box

    def fits(i: str) -> bool:
        b = layout.get(i).box
        if rel in _BESIDE:
            return b.distance(t) <= max(t.width, t.height, b.width, b.height)
        return min(b.x2, t.x2) - max(b.x, t.x) > 0

    if all(fits(i) for i in near):
        return near
    words = [w for w in fold(m.text).split() if w not in ("the", "a", "an", "this", "that")]
    scores = score_mention(dataclasses.replace(m, names=[], words=words), index)
    pool = [i for i in broad_candidates(scores, index) if i not in targets]
    found = related_to(layout, pool, targets, rel, count=count)
    return found if found and all(fits(i) for i in found) else near
