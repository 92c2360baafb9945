"""Which pictures a request may name by the words drawn in them, so that only those are read.

"The DFG logo", "the Travis CI logo", "the cc-by badge": a designer names a picture by what it says, though the
file holds no text for it. Reading a picture (``assistant.render.drawn``) costs a render and a pass of a
character reader, so :func:`pictures_to_read` asks for it only when the request says a word that nothing in the
layout's texts, ids and labels holds, and the vocabulary of requests does not either; then it names the pictures
a word could be drawn in: logos, images, badges and artwork that hold no text of their own, the selection units
first (the top level), and the pictures of a logo wall one by one.
"""

from __future__ import annotations

import re

from assistant.document import Element, Layout
from assistant.instructions.requests.clauses import known_words, vocabulary
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.vocab import CLASS_WORDS
from assistant.instructions.requests.words import Token, fold, tokenise

#: Classes of the nouns for pictures ("logo", "icon", "badge", "picture").
_PICTURE_CLASSES = frozenset({"logo", "image", "badge", "qr"})
#: Words a name is said after ("the DFG logo", "swap AIP and KIT").
_BEFORE_NAMES = frozenset({"the", "a", "this", "that", "both", "and", "or", "with", "of", "to", "under", "above"})
#: Roles of the elements that may have words drawn in them, most likely first.
_ROLES = ("logo", "badge", "image", "decoration", "cta")
#: Smallest picture read, as a share of the page's area (a bullet dot says nothing).
_MIN_AREA = 0.0004
#: Most pictures read for one request.
MAX_PICTURES = 24


def _names_picture(after: list[Token]) -> bool:
    """Whether a picture noun follows, no article or preposition before it ("hat logo", "cc-by badge")."""
    for t in after:
        if CLASS_WORDS.get(t.text) in _PICTURE_CLASSES:
            return True
        if t.kind != "word" or t.text in _BEFORE_NAMES:
            return False
    return False


def _capitalised(text: str) -> set[str]:
    """The words ``text`` capitalises as names are: any capital but a sentence's first letter ("KIT", "OSGeo")."""
    out = set()
    for m in re.finditer(r"[^\W\d_]+", text):
        w = m.group()
        before = text[:m.start()].rstrip()
        first = not before or before[-1] in ".!?:;"
        if w != w.lower() and not (first and w[1:] == w[1:].lower()):
            out.add(fold(w))
    return out


def unknown_words(text: str, index: ElementIndex) -> list[str]:
    """Words of ``text`` that may name a picture by what it says.

    Those neither the request vocabulary nor the layout's texts, ids and labels hold ("the DFG logo"), and,
    where the request says a picture noun, any word the vocabulary does not hold ("the FH Potsdam logo" on a
    page whose address says Potsdam). A name is typed with a capital or said before a picture noun: "the
    actual info", "miles below" and "to spare" name nothing, and reading every picture for them would cost
    seconds on a large poster.
    """
    known = known_words(index)
    words = vocabulary()
    tokens = tokenise(text, known)
    pictured = any(CLASS_WORDS.get(t.text) in _PICTURE_CLASSES for t in tokens)
    capitalised = _capitalised(text)
    out = []
    for k, t in enumerate(tokens):
        raw = fold(t.raw)
        if not (k > 0 and tokens[k - 1].text in _BEFORE_NAMES or any(CLASS_WORDS.get(n.text)
                                                                      for n in tokens[k + 1:k + 4])):
            continue  # a name stands after "the" or before a noun ("the DFG logo"); "pokes out" names nothing
        if raw not in capitalised and not _names_picture(tokens[k + 1:k + 4]):
            continue  # a name is capitalised ("the KIT one") or said before a picture noun ("the red hat logo")
        if t.kind != "word" or not raw.isalpha() or len(raw) < 2 or raw in out or raw.endswith("s") and raw[:-1] in (
                words if pictured else known):
            continue  # "the logos": a plural of a word it knows
        if raw not in known or pictured and raw not in words:
            out.append(raw)
    return out


def _picture(e: Element, layout: Layout, index: ElementIndex) -> bool:
    if e.kind == "text" or e.role not in _ROLES or e.id not in index.entries or not index.entry(e.id).content:
        return False
    if any(d.kind == "text" for d in layout.descendants_of(e.id)):
        return False
    page = layout.canvas.box
    b = e.box
    # a rule or a hairline says nothing; a wordmark may be ten times as wide as it is tall
    return b.width * b.height >= _MIN_AREA * page.width * page.height and min(b.width, b.height) >= 0.04 * max(
        b.width, b.height)


def pictures_to_read(text: str, layout: Layout, index: ElementIndex | None = None) -> list[str]:
    """Ids of the pictures whose drawn words may say what ``text`` names (none when every word is known).

    ``index``: the layout's index, where the caller has one (built here otherwise).
    """
    index = index or ElementIndex(layout)
    if not unknown_words(text, index):
        return []
    return readable_pictures(layout, index)


def readable_pictures(layout: Layout, index: ElementIndex | None = None) -> list[str]:
    """Ids of the pictures of ``layout`` a word may be drawn in, most likely first (at most ``MAX_PICTURES``)."""
    index = index or ElementIndex(layout)
    found: list[Element] = []
    for e in layout.elements:
        if e.group is not None:
            continue
        members = [layout.get(c) for c in e.children]
        pictures = [m for m in members if _picture(m, layout, index) and m.kind in ("image", "group", "shape")
                    and m.box.width * m.box.height >= 0.05 * e.box.width * e.box.height]
        if not _picture(e, layout, index):
            if e.role == "logo" and len(pictures) == 1:
                found.extend(pictures)  # a lock-up's mark beside its own words ("the Zeste de Savoir logo")
            continue
        found.append(e)
        if e.kind == "group" and len(pictures) >= 2 and e.role != "logo":
            found.extend(pictures)  # a wall of logos: each one by its name
    found.sort(key=lambda e: (_ROLES.index(e.role), -e.box.width * e.box.height))
    return [e.id for e in found[:MAX_PICTURES]]


__all__ = ["MAX_PICTURES", "pictures_to_read", "readable_pictures", "unknown_words"]
