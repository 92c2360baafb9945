"""Which elements a mention names: scores, the best candidates, and narrowing by order, place and relation.

:func:`score_mention` ranks the elements a mention may name (strengths in
:data:`~assistant.instructions.requests.index.STRENGTH`): all its words count,
the last class word is the head ("email address" is an address), an element
whose own name claims another class ("QRcode" for "the logo") loses a little,
and of a group and its member tied, the group wins. :func:`narrow` then applies
ordinals and place adjectives ("the second bullet", "the left one");
:func:`related_to` picks the element on one side of another ("the text above
the picture", nearest first, in the same column when there is one).
"""

from __future__ import annotations

from assistant.document import Layout
from assistant.instructions.requests.index import STRENGTH, ElementIndex
from assistant.instructions.requests.refs import Mention
from assistant.instructions.requests.vocab import CLASS_WORDS
from assistant.instructions.requests.words import fold

#: The classes a name's own class also answers to (a title is text too).
BROADER: dict[str, set[str]] = {
    "title": {"title", "heading", "text"}, "subtitle": {"subtitle", "heading", "text"}, "heading": {"heading", "text"},
    "body": {"body", "text"}, "caption": {"caption", "text"}, "date": {"date", "text"}, "url": {"url", "link", "text"},
    "email": {"email", "text"}, "phone": {"phone", "text"}, "price": {"price", "badge", "text"},
    "link": {"link", "cta", "url", "text"}, "cta": {"cta", "link"}, "logo": {"logo"}, "image": {"image"},
    "qr": {"qr"}, "shape": {"shape"}, "text": {"text"}, "badge": {"badge"},
}

#: Groups the importer makes of a heading and the text under it, and the words that name them as a whole.
_SECTION = "la-section-"
_SECTION_WORDS = frozenset({"section", "sections", "block", "blocks", "part", "column", "group", "paragraph"})


def score_mention(m: Mention, index: ElementIndex) -> dict[str, float]:
    """Each element's score for mention ``m`` (only elements with a positive score)."""
    scores: dict[str, float] = {}
    # the last class word is the head ("email address" is an address); earlier ones narrow it down
    heads = [CLASS_WORDS[w] for w in m.words if w in CLASS_WORDS]
    classes: dict[str, float] = {}
    for k, c in enumerate(heads):
        classes[c] = max(classes.get(c, 0.0), 1.0 if k == len(heads) - 1 else 0.6)
    for eid, _kind, strength in m.names:
        scores[eid] = max(scores.get(eid, 0.0), strength)
    if m.quote:
        q = fold(m.quote)
        # "section" may also have been read as part of the groups' ids (la-section-N)
        whole_section = bool(_SECTION_WORDS.intersection(m.words)) or any(e.startswith(_SECTION) for e, *_ in m.names)
        for eid, entry in index.entries.items():
            if eid.startswith(_SECTION) and not whole_section:
                continue  # a section's text is its heading's: the quote names the heading (or, as a member, below)
            if entry.texts and (q == entry.texts[0] or q in entry.texts[1:]):
                s = STRENGTH["quote"] + 2
            elif entry.texts and q and q in entry.texts[0]:
                s = STRENGTH["quote"]
            else:
                continue
            for target in [eid, *index.ancestors(eid)]:
                if target != eid and target.startswith(_SECTION) and not whole_section:
                    continue  # "the 'Overview' heading" is the heading; "the 'Overview' section" is all of it
                scores[target] = max(scores.get(target, 0.0), s)
    for c, head in classes.items():
        for eid in index.content_ids() if c != "background" else list(index.entries):
            entry = index.entry(eid)
            weight = entry.classes.get(c, 0.0) if c != "heading" else max(entry.classes.get("heading", 0.0), 0.0)
            if weight <= 0:
                continue
            bonus = STRENGTH["class"] * weight * head
            if entry.name_classes and not any(c in BROADER.get(n, {n}) for n in entry.name_classes) and not (
                    m.names or m.quote):
                bonus -= 1.5
            scores[eid] = scores.get(eid, 0.0) + bonus
    if (m.names or m.quote) and classes:
        named = {e for e, *_ in m.names}
        for eid in list(scores):
            if eid not in named and not (m.quote and scores[eid] >= STRENGTH["quote"]):
                scores.pop(eid)
    return {k: v for k, v in scores.items() if v > 0}


def best_candidates(scores: dict[str, float], index: ElementIndex) -> list[str]:
    """The top-scoring ids (within 0.5), a group preferred to its own members, in reading order."""
    if not scores:
        return []
    top = max(scores.values())
    best = [i for i, s in scores.items() if s >= top - 0.5]
    members = {i for i in best if any(a in best for a in index.ancestors(i))}
    best = [i for i in best if i not in members]
    return index.reading_order(best)


def broad_candidates(scores: dict[str, float], index: ElementIndex, share: float = 0.5) -> list[str]:
    """Every id scoring at least ``share`` of the best, in reading order.

    A group is preferred to its members. This is what "all the headings" or "the heading on the right" choose from.
    """
    if not scores:
        return []
    top = max(scores.values())
    wide = [i for i, s in scores.items() if s >= share * top]
    return index.reading_order([i for i in wide if not any(a in wide for a in index.ancestors(i))])


def _extreme(ids: list[str], place: str, index: ElementIndex) -> list[str]:
    boxes = {i: index.layout.get(i).box for i in ids}
    key = {"left": lambda b: b.cx, "right": lambda b: -b.cx, "top": lambda b: b.cy, "bottom": lambda b: -b.cy,
           "big": lambda b: -b.area, "small": lambda b: b.area,
           "middle": lambda b: abs(b.cx - index.layout.canvas.box.cx) + abs(b.cy - index.layout.canvas.box.cy)}
    if place not in key:
        return ids
    return [min(ids, key=lambda i: key[place](boxes[i]))]


def narrow(m: Mention, ids: list[str], index: ElementIndex) -> list[str]:
    """``ids`` narrowed by the mention's ordinal, place adjective and trailing place."""
    if not ids:
        return ids
    ordered = index.reading_order(ids)
    if m.ordinal is not None:
        k = m.ordinal - 1 if m.ordinal > 0 else len(ordered) + m.ordinal
        return [ordered[k]] if 0 <= k < len(ordered) else []
    if m.place in ("left", "right", "top", "bottom", "big", "small", "middle") and len(ordered) > 1:
        return _extreme(ordered, m.place, index)
    return ordered


def extreme(ids: list[str], place: str, index: ElementIndex) -> list[str]:
    """The one of ``ids`` furthest towards ``place`` (left, right, top, bottom, big, small, middle)."""
    return _extreme(ids, place, index)



def related_to(layout: Layout, pool: list[str], targets: list[str], rel: str) -> list[str]:
    """The one of ``pool`` nearest to ``targets`` on the side ``rel`` names ("the text above it")."""
    if not targets or not pool:
        return []
    t = layout.get(targets[0]).box
    shares = [i for i in pool if i not in targets and (
        min(layout.get(i).box.x2, t.x2) - max(layout.get(i).box.x, t.x) > 0
        if rel in ("above", "over", "below", "under", "underneath", "beneath")
        else min(layout.get(i).box.y2, t.y2) - max(layout.get(i).box.y, t.y) > 0)]
    pool = shares or pool  # the text above a picture is in its column
    side = {"above": "above", "over": "above", "below": "below", "under": "below", "underneath": "below",
            "beneath": "below", "left of": "left", "to the left of": "left", "right of": "right",
            "to the right of": "right"}.get(rel)
    found = []
    for i in pool:
        if i in targets:
            continue
        b = layout.get(i).box
        if side == "above" and b.cy < t.cy:
            found.append((t.y - b.y2, i))
        elif side == "below" and b.cy > t.cy:
            found.append((b.y - t.y2, i))
        elif side == "left" and b.cx < t.cx:
            found.append((t.x - b.x2, i))
        elif side == "right" and b.cx > t.cx:
            found.append((b.x - t.x2, i))
        elif side is None:
            found.append((b.distance(t), i))
    return [min(found)[1]] if found else []


__all__ = ["score_mention", "best_candidates", "broad_candidates", "narrow", "extreme", "related_to",
           "BROADER"]
