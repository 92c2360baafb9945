"""What a clause's mentions say of each other once each is scored: carried along, overlapped, held, nearest.

:func:`carried` adds to a move of a panel what lies on it; :func:`narrow_by_relation` keeps, of a mention's
candidates, those an overlap or an edge of the page says ("the text the photo covers", "the line cut off on the
right"); :func:`holding` finds what holds the elements a bound keeps inside; :func:`nearest_refs` picks, of a
reference's candidates, the one nearest what moves.
"""

from __future__ import annotations

import re

from assistant.document import Layout
from assistant.geometry import Box
from assistant.instructions.requests import fixes
from assistant.instructions.requests.asks import SINGULAR
from assistant.instructions.requests.choose import best_candidates, score_mention
from assistant.instructions.requests.colours import element_family, word_family
from assistant.instructions.requests.frame import Intent
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.plan import Step
from assistant.instructions.requests.refs import Mention, find_mentions
from assistant.instructions.requests.words import Token


def carried(step: Step, layout: Layout, index: ElementIndex, shapes_only: bool = False) -> list[str]:
    """Add to a move of a panel what lies on it ("the grey box up by 10mm, text and all"); the ids added.

    ``shapes_only`` carries only what lies on shapes (a text named is moved alone).
    """
    added: list[str] = []
    for p in list(step.patients):
        e = layout.get(p)
        if shapes_only and e.kind != "shape":
            continue
        unit = layout.get(e.group) if e.group and e.group.startswith("la-") else None
        if unit is not None and all(e.box.contains(layout.get(c).box, 0.01 * max(e.box.width, e.box.height))
                                    for c in unit.children):
            # the box and its words are one unit the importer made (a label on its button): move the unit
            step.patients = [unit.id if i == p else i for i in step.patients]
            added.append(unit.id)
            continue
        box = e.box
        on = [i for i in index.content_ids() if i not in step.patients and (e := layout.get(i)).group
              is None and e.box.area < box.area and box.contains(e.box, 0.01 * max(box.width, box.height))]
        step.patients += on
        added += on
    return added


def narrow_by_relation(layout: Layout, intent: Intent, mentions: list[Mention], resolved: dict[int, list[str]],
                       patients: list[str], refs: list[str]) -> tuple[list[str], list[str]]:
    """An overlap names "the text" the photo overlaps: keep only the candidates that overlap the other side.

    Likewise "the line is cut off on the right" names the line that runs off the page.
    """
    if intent.kind == "inside" and len(patients) > 1 and len(intent.patients) == 1 and not (
            mentions[intent.patients[0]].plural or mentions[intent.patients[0]].every):
        off = [i for i in patients
               if not layout.canvas.page_box((e := layout.get(i)).page).contains(e.box, 1e-6)]
        if len(off) == 1:
            resolved[intent.patients[0]] = off
            return off, refs
    if intent.kind != "separate":
        return patients, refs
    sides = [(intent.patients, patients), (intent.refs, refs)]
    out = []
    for k, (slot_ids, ids) in enumerate(sides):
        other = sides[1 - k][1]
        if len(ids) > 1 and len(slot_ids) == 1 and not mentions[slot_ids[0]].plural and other:
            hit = [i for i in ids if any(fixes.overlaps(layout.get(i).box, layout.get(o).box)
                                         for o in other if o != i)]
            ids = hit if len(hit) == 1 else ids
            if len(hit) == 1:
                resolved[slot_ids[0]] = hit
        out.append(ids)
    return out[0], out[1]



def holding(index: ElementIndex, m: Mention, refs: list[str], patients: list[str],
            axis: str | None = None) -> str | None:
    """What holds ``patients`` now, of what mention ``m`` could mean ("…, but keep it inside the yellow"): the smallest.

    A band or panel the importer counts as decoration is one too ("the yellow" is the yellow square). None when
    nothing it could mean holds them. ``axis`` "x" ("within the box's width") or "y": on that axis only.
    """
    layout = index.layout
    said = {f for w in m.words if (f := word_family(w))}
    box = {e.id: fixes.on_axis(e.box, axis, layout.canvas.box) for e in layout.elements}
    found = [r for r in dict.fromkeys(refs + list(score_mention(m, index)) + [
        e.id for e in layout.elements if said and element_family(e) in said])
        if r not in patients and all(box[r].contains(box[p], 0.5) for p in patients)]
    if not found and len(refs) == 1 and refs[0] not in patients and all(
            box[refs[0]].intersection(box[p]) is not None for p in patients):
        return refs[0]  # "the intro text is wider than the beige box, keep it within the box's width": it pokes out
    return min(found, key=lambda r: box[r].area) if found else None


def _aligned_share(a: Box, b: Box) -> float:
    """How much two boxes one above (or beside) the other share a column (a row).

    The overlap, as a share of the narrower extent; 0 for boxes that overlap each other.
    """
    across = (min(a.x2, b.x2) - max(a.x, b.x)) / max(min(a.width, b.width), 1e-9)
    down = (min(a.y2, b.y2) - max(a.y, b.y)) / max(min(a.height, b.height), 1e-9)
    return 0.0 if across > 0 and down > 0 else max(across, down)


def nearest_refs(layout: Layout, intent: Intent, mentions: list[Mention], resolved: dict[int, list[str]],
                 patients: list[str], refs: list[str], said: str = "") -> list[str]:
    """A reference that fits several elements names the one nearest what is edited, when one clearly is.

    "Centre the title in the green band": the band the title is on ("centre the email and the website in the blue
    bar": the bar they are in, measured from all of them, where the clause ``said`` says in).
    """
    if not patients or len(set(patients)) > 1 and not (intent.kind in ("center", "inside") and re.search(
            r"\b(?:in|inside|within|into)\b", said)):
        return refs
    own = Box.union_all([layout.get(p).box for p in dict.fromkeys(patients)])
    for n in intent.refs:
        m = mentions[n] if n < len(mentions) else None
        ids = [i for i in resolved.get(n, []) if i not in patients]
        # (a gap is to one thing: "… is jammed right under the bullets, give it 20px": the list it is under)
        if m is None or (m.plural and intent.kind not in ("gap", "separate")) or m.every or m.pronoun or m.others \
                or m.everything or len(ids) < 2:
            continue
        if m.plural:  # (in its column or row: a box of the next column may reach into its own)
            near = [i for i in ids if _aligned_share(layout.get(i).box, own) >= 0.5] or ids
            refs, ids = [r for r in refs if r not in ids or r in near], near
            if len(near) == 1:
                resolved[n] = near
                continue
        # (of a frame and the panel inside it, "the window": the whole of it)
        named, ids = ids, [i for i in ids if not (layout.get(i).kind == "shape" and any(
            j != i and layout.get(j).kind == "shape" and layout.get(j).box.contains(
                layout.get(i).box, 0.01 * max(layout.get(j).box.width, layout.get(j).box.height)) for j in ids))] or ids
        if len(ids) == 1:
            resolved[n] = ids
            refs = [r for r in refs if r in ids or r not in named]
            continue
        dist = sorted((layout.get(i).box.distance(own), i) for i in ids)
        (d0, best), (d1, _second) = dist[0], dist[1]
        if d0 <= 0.5 * d1 and d1 > 0:
            resolved[n] = [best]
            refs = [best if r == best else r for r in refs if r == best or r not in named]
    return refs


def named_ahead(ahead: list[Token], index: ElementIndex, m: Mention, pair: bool = False) -> list[str]:
    """What the next clause (``ahead``) names plainly, when it names as many as ``m`` stands for.

    One for "it"; more for "them" or, in a swap (``pair``), "flip it round"; of two alike, the one not named yet.
    """
    found: list[str] = []
    for n in find_mentions(ahead, index)[0] if ahead else []:
        cands = [] if n.pronoun or n.everything or n.others else best_candidates(score_mention(n, index), index)
        cands = [c for c in cands if c not in found] or cands
        if len(cands) != 1:
            return []
        found += [c for c in cands if c not in found]
    return found if found and (len(found) == 1) == (m.pronoun in SINGULAR and not pair) else []


__all__ = ["carried", "narrow_by_relation", "holding", "nearest_refs", "named_ahead"]
