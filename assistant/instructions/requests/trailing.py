"""What a place said after a noun picks, where the noun alone leaves a choice ("the logo at the bottom")."""

from __future__ import annotations

import re

from assistant.document import Layout
from assistant.instructions.requests.asks import Ask
from assistant.instructions.requests.choose import describe, extreme, in_part, pinned_art
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.nearby import toward
from assistant.instructions.requests.refs import Mention
from assistant.instructions.requests.said import LIES
from assistant.instructions.requests.sets import wordless_picture
from assistant.instructions.requests.vocab import CLASS_WORDS


def trailing_place(layout: Layout, index: ElementIndex, mentions: list[Mention], resolved: dict[int, list[str]],
                   skel: str, pools: dict[int, list[str]], says_which: bool | str) -> None:
    """A place after an ambiguous noun, or one the clause does not move to, picks the element there.

    A place the one element a noun found is not at picks the element of its kind that is there: "the gvSIG
    logo at the bottom", where the only element called a logo is at the top and a picture of the logo is at
    the bottom.
    """
    for n, m in enumerate(mentions):
        found = resolved.get(n, [])
        elsewhere = bool(says_which) and len(found) == 1 and not m.quote and found[0] not in {
            e for e, *_ in m.names} and not (m.plural or m.every or m.pronoun) and wordless_picture(
            layout, found[0])
        if not elsewhere and (len(pools.get(n, [])) < 2 or (len(found) < 2 and not says_which)):
            continue
        # ("on top of X" is a relation, no place; "the × between the logos in the top row": the place says which ×)
        corner_end = r"\b" if says_which else " "  # ("… the logo bottom left" ends the clause: a place, said which)
        # ("swap the ACM logo and the OSC badge in the top row": a row both are in says which of both)
        both = r"and E\d+ (?=in the (?:top|bottom|middle|left|right) (?:row|column|line)\b)"
        after = re.search(rf"\bE{n} (?:{both})?(?:that is |which is |that are |which are |sitting |placed |{LIES})?"
                          r"(?:(?:between|next to|beside|by|near|under|above|below|over|of|from) E\d+ "
                          r"(?:and E\d+ )?)?"
                          r"(?:(?:at|on|in) (?:the )?(?:very |far )?|(?=(?:top|bottom) (?:left|right)"
                          + corner_end + r"))(top|bottom|left|right|middle|center)(?: (left|right)(?: hand)?"
                          r"(?: corner)?)?\b(?! of\b)", skel)
        if not after:
            continue
        place = {"center": "middle"}.get(after.group(1), after.group(1))
        if after.group(2) and place in ("top", "bottom"):  # "the logo in the bottom left corner"
            place = f"{place}_{after.group(2)}"
        if says_which and found and len(in_part(found, place, layout)) == len(found) and (
                says_which == "refs" or len(found) == 1 and not m.plural):
            continue  # the one found is there already ("email address bottom left": the address, there)
        taken = {x for k, ids in resolved.items() if k != n for x in ids}  # what the clause's other nouns mean
        if elsewhere and not in_part(found, place, layout):
            kind = layout.get(found[0]).kind
            near = in_part([i for i in index.content_ids() if layout.get(i).group is None
                            and wordless_picture(layout, i)], place, layout)
            # a picture of its kind, or else any picture (a logo may be drawn or embedded)
            there = [i for i in near if layout.get(i).kind == kind] or near
            if says_which == "refs":  # what the place picks is not what is edited
                there = [i for i in there if i not in taken]
            if there:
                resolved[n] = extreme(there, place, index)
            elif says_which is True and not in_part(found, place.split("_")[0], layout):
                # "the company logo in the top right corner - a bit smaller" where nothing is there
                raise Ask("missing", f"there is no {m.text!r} at the {place.replace('_', ' ')}: "
                                      f"{describe(layout, found[0])} is elsewhere")
            continue
        if len(pools.get(n, [])) < 2 or (len(found) < 2 and not says_which):
            continue
        if m.plural or m.every:  # "the links at the bottom": those in that part of the page
            column = place == "middle" and re.match(r" column\b", skel[after.end():])
            counted = in_part(pools.get(n, []), "column" if column else place, layout) if m.count else []
            if m.count and len(counted) > m.count:
                # "the four boxes in the left column", where a logo's frame is there too: those as wide as each other
                counted = _matched(layout, counted, m.count, place in ("left", "right", "middle")) or counted
            if m.count and len(counted) == m.count:  # "the three headings in the middle column"
                resolved[n] = index.reading_order(counted)
                continue
            there = in_part(resolved[n], place, layout) or extreme(resolved[n], place, index)
            if m.count and len(there) < m.count <= len(resolved[n]):
                # "the two pictures on the right": the two furthest that way
                there = sorted(resolved[n], key=lambda i: toward(layout.get(i).box, place))[:m.count]
            resolved[n] = there
            continue
        pool = pools[n]
        if {CLASS_WORDS.get(w) for w in m.words} & {"logo", "image"}:
            # "the uulm logo bottom left": a logo the importer pinned as ornament is one a place may pick
            pool = list(dict.fromkeys(pool + pinned_art(index)))
        there = extreme(pool, place, index)
        if says_which == "refs" and set(there) & taken:
            continue  # what the place picks is what is edited: the place did not say which
        resolved[n] = there


def _matched(layout: Layout, ids: list[str], count: int, column: bool) -> list[str]:
    """The ``count`` of ``ids`` as wide (in a column, else as tall) as each other, where just that many are."""
    side = "width" if column else "height"
    sizes = {i: getattr(layout.get(i).box, side) for i in ids}
    sets = {tuple(sorted(j for j in ids if abs(sizes[j] - sizes[i]) <= 0.1 * sizes[i])) for i in ids}
    found = [s for s in sets if len(s) == count]
    return list(found[0]) if len(found) == 1 else []


__all__ = ["trailing_place"]
