"""Which elements a mention names: scores, the best candidates, and narrowing by order, place and relation.

:func:`score_mention` ranks the elements a mention may name (strengths in
:data:`~assistant.instructions.requests.index.STRENGTH`): all its words count,
the last class word is the head ("email address" is an address), an element
whose own name claims another class ("QRcode" for "the logo") loses a little,
and of a group and its member tied, the group wins. :func:`narrow` then applies
ordinals and place adjectives ("the second bullet", "the left one");
:func:`~assistant.instructions.requests.nearby.related_to` picks the element on one
side of another ("the text above the picture", nearest first, in the same column
when there is one).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from assistant.document import Element, Layout, hex_rgb
from assistant.geometry import Box
from assistant.instructions.requests.colours import (
    element_families,
    element_family,
    near_families,
    of_shade,
    shade_said,
    word_family,
)
from assistant.instructions.requests.index import (
    STRENGTH,
    ElementIndex,
    glyph_only,
    section_heading,
    sign_said,
    symbol_texts,
)
from assistant.instructions.requests.language import LANGUAGES, language_of
from assistant.instructions.requests.refs import WEIGHT_WORDS, Mention, find_mentions
from assistant.instructions.requests.seen import by_look, seen_families, seen_shade
from assistant.instructions.requests.vocab import (
    CLASS_WORDS,
    EDGE_WORDS,
    FUNCTION_WORDS,
    LANGUAGE_SCRIPTS,
    MEASURE_WORDS,
    PAGE_WORDS,
    SAID_NOUNS,
)
from assistant.instructions.requests.words import Token, fold, squash

#: The classes a name's own class also answers to (a title is text too).
BROADER: dict[str, set[str]] = {
    "title": {"title", "heading", "text"}, "subtitle": {"subtitle", "heading", "text"}, "heading": {"heading", "text"},
    "body": {"body", "text"}, "caption": {"caption", "text"}, "date": {"date", "text"}, "url": {"url", "link", "text"},
    "email": {"email", "text"}, "phone": {"phone", "text"}, "price": {"price", "badge", "text"},
    "link": {"link", "cta", "url", "text"}, "cta": {"cta", "link"}, "logo": {"logo"}, "image": {"image"},
    "qr": {"qr"}, "shape": {"shape"}, "text": {"text", "line"}, "badge": {"badge"}, "rule": {"rule", "line", "shape"},
    "line": {"line", "text"},
}

for _k in ("title", "subtitle", "heading", "body", "caption", "date", "url", "email", "phone", "link"):
    BROADER[_k] = BROADER[_k] | {"line"}
BROADER["time"] = {"time", "date", "text", "line"}
BROADER["contact"] = {"contact", "email", "phone", "url", "text", "line"}
BROADER["name"] = {"name", "text", "line"}
BROADER["credit"] = {"credit", "caption", "text", "line"}
BROADER["footnote"] = {"footnote", "caption", "text", "line"}

#: Groups the importer makes of a heading and the text under it, and the words that name them as a whole.
_SECTION = "la-section-"
_SECTION_WORDS = frozenset({"section", "sections", "block", "blocks", "part", "column", "group", "paragraph",
                            "list"})
#: Nouns for the items of a list under a heading ("the Features bullets").
_ITEM_NOUNS = frozenset({"bullet", "item", "point", "entry"})
#: The class a request's noun falls back to when the layout (or the page) has nothing of its own class.
_FALLBACK = {"title": "heading", "subtitle": "text", "caption": "text", "body": "text", "heading": "text",
             "credit": "caption", "logo": "image", "text": "logo", "header": "title"}
#: Nouns for what a text says (``index.content_classes``): "the address lines", "the degree text", "the list".
_CONTENT_NOUNS = {"address": "address", "addresses": "address", "list": "list", "bullet": "list", "bullets": "list",
                  "degree": "degree", "qualification": "degree", "diploma": "degree"}
#: Words that say a mention's colour without naming one.
_COLOUR_ADJECTIVES = frozenset({"coloured", "colored", "colourful", "colorful"})


def score_mention(m: Mention, index: ElementIndex) -> dict[str, float]:
    """Each element's score for mention ``m`` (only elements with a positive score)."""
    scores: dict[str, float] = {}
    m = _id_as_class(m, index)
    if _SECTION_HEADS.search(m.text) and not m.quote and (heads := [h for s in index.entries if s.startswith(
            _SECTION) and (h := section_heading(index.layout, s)) is not None and h in index.entries]):
        # "the green section headings": the headings of the sections (not the sections, nor the page's title)
        inner = score_mention(replace(m, names=[], words=[w for w in m.words if w != "section"],
                                      text=re.sub(r"\bsections? ", "", m.text)), index)
        return {h: inner[h] + 1.0 for h in heads if inner.get(h, 0.0) > 0} or dict.fromkeys(heads, STRENGTH["class"])
    if len(m.words) >= 2 and m.words[-1] in _HOLDERS and CLASS_WORDS.get(m.words[-2]) in _HELD and not (
            m.names or m.quote) and (inner := score_mention(replace(m, words=m.words[:-1]), index)):
        # "the QR box", "the logo block": the picture, with the frame drawn round it where there is one ("the code
        # window": the frame the code is set in)
        top = max(inner.values())
        return {_frame_of(i, index): s for i, s in inner.items() if s >= top - 0.5}
    if {"card", "banner"} & set(m.words) and any(word_family(w) is not None for w in m.words):
        # "the white card below", "the green banner": a panel of that colour on the page, not the page itself
        m = replace(m, words=["panel" if w in ("card", "banner") else w for w in m.words])
    sign = sign_said(m.words) if not m.quote and not m.names else None
    if sign is not None:
        found = [eid for eid in symbol_texts(sign, index) if index.on_page(index.layout.get(eid))]
        # a sign and its copy (a shadow) the importer made one unit: the unit
        return {next((a for a in index.ancestors(eid) if a.startswith("la-unit") and all(
            d.id in found for d in index.layout.descendants_of(a) if d.kind == "text")), eid): STRENGTH["class"]
            for eid in found}
    # the last class word is the head ("email address" is an address); earlier ones narrow it down
    heads = [CLASS_WORDS[w] for w in m.words if w in CLASS_WORDS]
    # "the phone number", "the website address": a phone, a url (the noun after it says nothing more)
    said = next((c for c in reversed(heads) if c in _SAID_BY_CONTENT), None)
    classes: dict[str, float] = {}
    for k, c in enumerate(heads):
        classes[c] = max(classes.get(c, 0.0), 1.0 if k == len(heads) - 1 else 0.6)
    if said is not None and heads[-1] in _GENERIC_HEADS | {said} and not m.names and not m.quote and not any(
            index.entry(i).classes.get(said, 0.0) > 0 or said in index.entry(i).name_classes
            for i in index.content_ids()):
        return {}  # "the phone number" where no text is one: there is none, whatever other number there is
    unknown = unknown_head(m)
    if {"qr", "qrcode", "barcode"} & set(m.words[:-1]) and heads[-1] != "qr" and not m.names and not m.quote and not (
            any(_fits(i, "qr", index) or "qr" in index.entry(i).name_classes for i in index.content_ids())):
        return {}  # "the barcode sticker" on a page with no barcode: there is none, whatever stickers there are
    if "qr" in classes and "code" in m.words and not {"qr", "qrcode", "barcode"} & set(m.words) and not any(
            _fits(i, "qr", index) or "qr" in index.entry(i).name_classes for i in index.content_ids()):
        classes.pop("qr")  # "the code in violet" on a page with no QR code: code set as text
        heads = [h for h in heads if h != "qr"]
        unknown = "code"
        if any(index.entry(i).classes.get("code", 0.0) > 0 for i in index.content_ids()):
            classes["code"], heads = 1.0, [*heads, "code"]  # ("the pseudo-code": the text that reads as code)
    labels = _labels(m, classes, unknown, index)
    head = max(classes, key=lambda c: classes[c]) if classes else None
    # words of a text said with a noun for another kind name that text's neighbour (a label) or nothing
    names = [n for n in m.names
             if n[0] not in labels and not (n[1] in ("part", "token") and head and not _fits_head(n[0], head, index))]
    if not _says_section(m):  # "get a head start": the heading, not the section it heads
        names = [n for n in names if not (n[1] in ("part", "text") and n[0].startswith(_SECTION))] or names
    if head in _TEXT_KINDS and not _says_section(m):
        # "the Research data management title": the text, not the button group round it (but "the … block" is it)
        named = {n[0] for n in names}
        names = [n for n in names if not (index.layout.get(n[0]).kind == "group"
                                          and named.intersection(_members(n[0], index)))] or names
    bodies: set[str] = set()
    for eid, _kind, strength in names:
        scores[eid] = max(scores.get(eid, 0.0), strength)
        section = eid if eid.startswith(_SECTION) else next(
            (a for a in index.ancestors(eid) if a.startswith(_SECTION)), None)
        if m.plural and section is not None and (items := index.section_items(section)) and (
                _ITEM_NOUNS.intersection(m.words[-1:]) or m.count == len(items) > 1):
            # (or as many as it holds: "the three tips" under "Praktické tipy")
            for item in items:  # "the Features bullets": the items under the heading "Features"
                scores[item] = max(scores.get(item, 0.0), strength + 0.2)
            bodies.update(items)
        elif _says_section(m):  # "the Analyze information section": the heading with its text
            for a in index.ancestors(eid):
                if a.startswith(_SECTION):
                    scores[a] = max(scores.get(a, 0.0), strength + 0.1)
                    break
    for eid in [e for e in scores if index.entry(e).drawn]:
        # a reader's word and a said one a letter apart ("FH" for "FHP", "GitHub" for "GitHu") tell two pictures apart
        scores[eid] += sum(1.0 for w in m.words if w not in CLASS_WORDS and len(w) >= 2 and any(
            d != w and abs(len(d) - len(w)) == 1 and (d.startswith(w) or w.startswith(d))
            for d in index.entry(eid).words))
    if m.quote:
        q = fold(m.quote)
        # "section" may also have been read as part of the groups' ids (la-section-N)
        whole_section = _says_section(m) or any(e.startswith(_SECTION) for e, *_ in m.names)
        for eid, entry in index.entries.items():
            if eid.startswith(_SECTION) and not whole_section:
                continue  # a section's text is its heading's: the quote names the heading (or, as a member, below)
            if entry.texts and (q == entry.texts[0] or q in entry.texts[1:]):
                # (its signs too, where folding leaves several alike: "C++" is not "C" nor "C#")
                exact = (entry.element.text or "").strip().lower() == m.quote.strip().lower()
                s = STRENGTH["quote"] + 2 + (1.0 if exact else 0.0)
            elif entry.texts and q and (q in entry.texts[0] if len(q) > 2 else q in entry.texts[0].split()):
                s = STRENGTH["quote"]  # (a sign that folds to a letter or two, "C++", is a word of the text)
            else:
                continue
            for target in [eid, *index.ancestors(eid)]:
                if target != eid and target.startswith(_SECTION) and not whole_section:
                    continue  # "the 'Overview' heading" is the heading; "the 'Overview' section" is all of it
                scores[target] = max(scores.get(target, 0.0), s)
        if not scores:
            # "centre 'Bronze Sponsor' under the lettering": words drawn as outlines, which the file names ("the
            # made with ♡ line": a sign no word spells, in the text that has it)
            said = [squash(w) for w in q.split() if len(w) >= 3 and w not in FUNCTION_WORDS]
            for eid, entry in index.entries.items():
                if entry.content and (any(w in entry.keys for w in said) or not q and entry.element.kind == "text"
                                      and m.quote.strip() and m.quote.strip() in (entry.element.text or "")):
                    scores[eid] = STRENGTH["token"] if q else STRENGTH["quote"]
    if classes and not names and not m.quote and not any(
            index.entry(i).classes.get(c, 0.0) > 0 for i in index.content_ids() + (
                index.panel_ids() if "header" in classes else []) for c in classes):
        # "page 3: the title" where the page has only subtitles: the nearest kind that is there
        for _ in range(3):  # title → heading → text, until something on the page is of it
            for c in list(classes):
                if c in _FALLBACK:
                    classes[_FALLBACK[c]] = classes.pop(c)
            if any(index.entry(i).classes.get(c, 0.0) > 0 for i in index.content_ids() for c in classes):
                break
        if "title" in heads and "text" in classes:  # the title, where nothing is one: the largest text
            sizes = {i: index.layout.get(i).font_size or 0.0 for i in index.content_ids()
                     if not glyph_only(index.layout.get(i).text)}
            top = max(sizes.values(), default=0.0)
            for i, s in sizes.items():
                if top > 0 and s == top:
                    scores[i] = scores.get(i, 0.0) + 1.0
    for c, weight_said in classes.items():
        # a panel behind content ("the blue box", "the green band") is a shape one may name, not the page's ground;
        # a picture behind content ("the screenshot" filling a slide) is a picture one may name, below any other
        behind = index.panel_ids() if c in ("shape", "header") else [
            i for i, en in index.entries.items() if not en.content and en.element.kind == "image"
            and index.on_page(en.element)] if c == "image" else []
        for eid in (index.content_ids() + behind if c != "background" else list(index.entries)):
            entry = index.entry(eid)
            weight = entry.classes.get(c, 0.0) if c != "heading" else max(entry.classes.get("heading", 0.0), 0.0)
            weight *= 0.5 if c == "image" and eid in behind else 1.0
            if weight <= 0:
                continue
            bonus = STRENGTH["class"] * weight * weight_said
            if entry.name_classes and not any(c in BROADER.get(n, {n}) for n in entry.name_classes) and not (
                    names or m.quote):
                bonus -= 1.5
            scores[eid] = scores.get(eid, 0.0) + bonus
    if m.quote and (head in _TEXT_KINDS or head is None) and not _says_section(m):
        # "header title 'Research data management'": the text quoted, not the group round it (the header band); a
        # quote alone names the text too where the group round it is pinned (a band), not where it is a button
        quoted = {e: s for e, s in scores.items() if index.layout.get(e).kind == "text" and s >= STRENGTH["quote"]}
        for eid in [e for e in scores if index.layout.get(e).kind == "group" and (
                head is not None or index.layout.get(e).pinned)]:
            if (inner := [quoted[d.id] for d in index.layout.descendants_of(eid) if d.id in quoted]):
                scores[eid] = min(scores[eid], max(inner) - 1.0)
    if "body" in classes and not names and not m.quote and len(scores) > 1:
        # "the description": a paragraph that says something, not a credit line (a name, a web address, a licence)
        for eid in scores:
            if index.entry(eid).classes.get("credit", 0.0) >= 1.0 and len(index.layout.get(eid).text or "") <= 160:
                scores[eid] -= 1.0
    said = next((_CONTENT_NOUNS[w] for w in m.words if w in _CONTENT_NOUNS), None)
    if said == "address" and {"url", "email"} & set(heads):
        said = None  # "the web address": a url, not a street
    if said is not None and len(scores) > 1:
        # "the address lines": of the texts, those that say where ("Building 52, 1st floor"); "the degree text":
        # the one that gives a degree ("MS Software Engineering"); "the list text": the one set as a list ("- …")
        holding = [eid for eid in scores if index.entry(eid).classes.get(said, 0.0)]
        if said == "address" and not holding:  # "the address line" where no text gives a street: where to write
            holding = [eid for eid in scores if {"email", "phone"} & index.entry(eid).classes.keys()]
            said = "contact" if holding else said
        for eid in scores:
            if not any(eid in index.ancestors(i) for i in holding):
                scores[eid] += 1.5 * index.entry(eid).classes.get(said, 0.0)
            else:
                scores[eid] -= 1.5  # (not a section round it)
    if "bullet" in m.words and len(scores) > 1 and not names and not m.quote:
        # "the bullets": the lines set with a bullet (a list item the importer made, or a text whose lines start
        # with one), more than plain paragraphs
        for eid in scores:
            if eid.startswith("la-item-") or _BULLETED.match(index.layout.get(eid).text or ""):
                scores[eid] += 1.0
    weight = next((w for w in m.words if w in WEIGHT_WORDS), None)
    if weight is not None and len(scores) > 1:  # "the bold intro paragraph": of those, the bold one
        for eid in scores:
            e = index.layout.get(eid)
            w = e.font_weight or 400
            if e.kind == "text" and (w >= 600 if weight in ("bold", "bolded", "heavy") else w <= 300 if weight in (
                    "light", "thin") else 400 <= w < 600):
                scores[eid] += 1.0
    if head == "background" and not names and not m.quote and len(scores) > 1:
        # "the yellow background": of two yellow shapes behind the rest, the one everything sits on (the largest,
        # when it is clearly the largest: two alike are both meant)
        area = {e: index.layout.get(e).box.area for e in scores}
        ranked = sorted(scores, key=lambda e: (scores[e], area[e]), reverse=True)
        if area[ranked[0]] >= 1.2 * area[ranked[1]]:
            scores[ranked[0]] += 0.75
    for eid, *_ in names:
        if index.entry(eid).drawn and head in _DRAWN_HEADS and index.entry(eid).classes.get(head, 0.0) <= 0:
            scores[eid] = scores.get(eid, 0.0) + STRENGTH["class"]  # its words say it is what the noun calls it
    if _says_section(m):  # "the Software Foundation block": the section over its text's class
        for eid, _kind, _s in names:
            for a in index.ancestors(eid):
                if a.startswith(_SECTION) and a in scores and eid in scores:
                    scores[a] = max(scores[a], scores[eid] + 0.1)
                    break
        for eid in [e for e in scores if not names and not m.quote]:
            # "the contact block": the lines with the icons the importer set beside them
            item = next((a for a in index.ancestors(eid)[:1] if a.startswith("la-item-")), None)
            if item is not None:
                scores[item] = max(scores.get(item, 0.0), scores[eid] + 0.1)
    if not scores and not names and not m.quote and {"logo", "image"} & classes.keys():
        # "the red logo", "the hydra logo": an emblem drawn as one shape the importer pinned as ornament, when
        # the words say what it looks like (a plain "the logo" on a page with none is answered as missing)
        wanted = _colours_said(m)
        art = pinned_art(index)
        said = _said(m, shortest=3)
        c = index.layout.canvas.box
        # (or the one large emblem on a page with no other: the red circle with a hydra a banner is built round)
        lone = len(art) == 1 and "logo" in heads and index.layout.get(art[0]).box.area >= 0.05 * c.area and not any(
            index.entry(i).classes.get("logo", 0.0) > 0 or index.entry(i).classes.get("image", 0.0) > 0
            for i in index.content_ids() if index.on_page(index.layout.get(i)) and i != art[0])
        art = [i for i in art if _colour_of(i, index) in wanted] if wanted else art if said or lone else []
        for eid in art:
            scores[eid] = STRENGTH["class"]
    if (names or m.quote) and classes:
        named = {e for e, *_ in names} | bodies
        for eid in list(scores):
            if eid not in named and not (m.quote and scores[eid] >= STRENGTH["quote"]):
                scores.pop(eid)
    symbols = symbol_texts(unknown, index) if not m.quote else []
    if labels:
        # "the Thrust 1 picture", "the Feynman quote": the words are another element's, the nearest one is meant
        pool = list(scores) if classes else symbols or _unknown_pool(unknown, index)
        for eid, bonus in _near(pool, labels, index, said=not classes and unknown in SAID_NOUNS).items():
            scores[eid] = scores.get(eid, 0.0) + bonus
    elif unknown and not scores and not m.quote:
        # "the road sign", "the mascot": a thing drawn in a picture, which no name or text says; "the quote": a text;
        # "the asterisk": a text that is that sign
        for eid in symbols or _unknown_pool(unknown, index, _colours_said(m)):
            scores[eid] = STRENGTH["class"]
    scores = _by_script(m, _by_colour(m, {k: v for k, v in scores.items() if v > 0}, index,
                                      said_by=labels | {e for e, *_ in m.names if not index.entry(e).drawn
                                                        or e in {n[0] for n in names}}), index)
    if not scores and names and all(index.entry(e).drawn for e, *_ in names):
        scores = _tile_under(names, m, index)
    scores = _by_shape(m, scores, unknown, index)
    if "caption" in heads and "credit" not in heads and not names and not m.quote:
        # "the caption" says what is shown; a credit or licence line is "the credit"
        # ("the two little captions" where one of two is a credit: both)
        kept = {k: v for k, v in scores.items() if "credit" not in index.entry(k).classes}
        scores = kept if kept and len(kept) >= (m.count or 1) else scores
    if any(index.layout.get(k).page >= 0 for k in scores):
        # a copy left beside the page (Inkscape's scratch area) is not what anyone looking at the page means
        scores = {k: v for k, v in scores.items() if index.on_page(index.layout.get(k))}
    if "logo" in heads and not names and not m.quote and _said(m):
        scores = _brand_logo(scores, index)
    if heads and heads[-1] == "subtitle" and not names and not m.quote and len(scores) > 1:
        # "the subtitle", "the strapline", among many lines the importer calls subtitles: the one under the title
        under = _under_title(list(scores), index)
        if under is not None:
            scores[under] += 1.0
    if head in _PICTURE_HEADS and names and len(scores) > 1 and any(
            index.layout.get(k).kind != "text" and _fits_head(k, head, index) for k in scores):
        # "the gdal globe image" where the title says GDAL and the globe is drawn with the word: the picture
        scores = {k: v - (1.0 if index.layout.get(k).kind == "text" and not _fits_head(k, head, index) else 0.0)
                  for k, v in scores.items()}
    if "label" in m.words:  # "the diagram label": the word with the box it is set on (a tag)
        for eid, s in list(scores.items()):
            if (tag := _tag_of(eid, index)) is not None:
                scores[tag] = max(scores.get(tag, 0.0), s + 0.1)
    return by_look(m, scores, best_candidates(scores, index), index)


def _tile_under(names: list[tuple[str, str, float]], m: Mention, index: ElementIndex) -> dict[str, float]:
    """"The pink DATA LOVE square": the shape of the colour said that the picture saying those words sits on."""
    wanted = _colours_said(m)
    if not wanted:
        return {}
    out: dict[str, float] = {}
    panels = set(index.panel_ids())
    for eid, *_ in names:
        b = index.layout.get(eid).box
        for sid, entry in index.entries.items():
            e = entry.element
            if e.kind == "shape" and sid != eid and (entry.content or sid in panels) and e.box.contains(b, 1e-6) and (
                    _colour_of(sid, index) in wanted or _colours_near(sid, index) & wanted):
                out[sid] = STRENGTH["class"]
    return out


def _says_section(m: Mention) -> bool:
    """Whether the mention says a section ("the Software section"; the last word may also be read as an id's)."""
    last = m.text.lower().split()[-1:] if m.text else []
    if m.words and m.words[-1] not in _SECTION_WORDS and CLASS_WORDS.get(m.words[-1]) in ("heading", "title"):
        return False  # "the section headings": the headings
    return bool(_SECTION_WORDS.intersection(m.words) or _SECTION_WORDS.intersection(last))


#: "The section headings": the headings of the sections.
_SECTION_HEADS = re.compile(r"\bsections? (?:headings?|titles?|headers?|headlines?|heads?)\b")
#: Nouns for what holds a picture ("the QR box"), and the kinds of picture said before them.
_HOLDERS = frozenset({"box", "block", "frame", "panel", "area", "window"})
_HELD = frozenset({"qr", "image", "logo", "badge"})


def _frame_of(picture: str, index: ElementIndex) -> str:
    """The group of ``picture`` and a frame drawn round it, or the shape drawn round it; else ``picture`` itself."""
    if (up := index.ancestors(picture)[:1]) and _frames(up[0], picture, index):
        return up[0]
    b = index.layout.get(picture).box
    own = {d.id for d in index.layout.descendants_of(picture)} | {picture}
    around = [e for e in index.layout.elements if e.kind == "shape" and e.id not in own and b.area > 0 and (
        b.area <= e.box.area <= FRAMED * b.area) and (over := e.box.intersection(b)) is not None and (
        over.area >= FRAME_HOLDS * b.area) and index.on_page(e)]
    return max(around, key=lambda e: e.box.area).id if around else picture


#: Least share of a picture's box a shape drawn round it covers (the code may poke out of its window a little).
FRAME_HOLDS = 0.8


def _frames(group: str, picture: str, index: ElementIndex) -> bool:
    """Whether ``group`` is ``picture`` with a frame drawn round it: no text in it, and not much larger."""
    g = index.layout.get(group)
    return g.kind == "group" and not any(d.kind == "text" for d in index.layout.descendants_of(group)) and (
        g.box.area <= FRAMED * max(index.layout.get(picture).box.area, 1e-9))


#: The most a frame's box may be, as a multiple of the area of the picture in it.
FRAMED = 2.5


def _id_as_class(m: Mention, index: ElementIndex) -> Mention:
    """"The big green title" where a subheading's id is ``title`` and the page has a title: the word is the class.

    An id that is a word for a kind of element names that element only when it is of that kind, or when
    nothing on the page is.
    """
    drop = []
    for eid, kind, _s in m.names:
        cls = CLASS_WORDS.get(squash(eid)) if kind == "id" else None
        said = fold(index.layout.get(eid).text or "").replace(":", " ").split()
        if cls and squash(eid) in said:
            continue  # "name: click to change": a placeholder that says what it is
        if cls and not _fits(eid, cls, index) and any(_fits(i, cls, index) for i in index.content_ids()
                                                      if index.layout.get(i).kind != "group"):
            drop.append((eid, cls))
    if not drop or len(drop) != len(m.names):
        return m
    return replace(m, names=[], words=[*m.words, squash(drop[0][0])])


#: A picture of about a logo's size (its area within this ratio of the logo's, either way) may be a logo too.
LOGO_ALIKE = 2.5


def _said(m: Mention, shortest: int = 2) -> list[str]:
    """The mention's words of ``shortest`` letters or more that no vocabulary knows ("DFG" in "the DFG logo").

    Not words for kinds, colours, places or measures.
    """
    return [w for w in m.words if w not in CLASS_WORDS and w not in FUNCTION_WORDS and word_family(w) is None
            and w not in PAGE_WORDS and w not in EDGE_WORDS and w not in MEASURE_WORDS and len(w) >= shortest]


def _brand_logo(scores: dict[str, float], index: ElementIndex) -> dict[str, float]:
    """All the candidates for "the DFG logo" where no word of the file says DFG.

    The one element called a logo is a guess among the pictures of a logo's size beside it, so they are all
    candidates (a question follows) rather than that one alone.
    """
    logos = [i for i in scores if "logo" in index.entry(i).classes]
    if len(logos) != 1:
        return scores
    area = index.layout.get(logos[0]).box.area
    alike = [i for i in index.content_ids() if i != logos[0] and (e := index.layout.get(i)).group is None
             and e.kind == "image" and index.on_page(e) and not index.entry(i).name_classes
             and area / LOGO_ALIKE <= e.box.area <= area * LOGO_ALIKE]
    return {**scores, **dict.fromkeys(alike, scores[logos[0]])} if alike else scores


def unknown_head(m: Mention) -> str | None:
    """The mention's last noun when it is none of the words for kinds of element ("quote", "mascot", "sign")."""
    heads = [w for w in m.words if w != "one" and word_family(w) is None and w not in _COLOUR_ADJECTIVES
             and w not in LANGUAGE_SCRIPTS]
    if not heads:
        colours = [w for w in m.words if word_family(w) is not None]
        # "move the orange left": a colour said as a noun names the thing of that colour
        return colours[-1] if colours and not m.names and not m.quote else None
    w = heads[-1]
    if w in CLASS_WORDS or w in PAGE_WORDS or w in EDGE_WORDS or w in MEASURE_WORDS or w in _SECTION_WORDS:
        return None
    return w


def _labels(m: Mention, classes: dict[str, float], unknown: str | None, index: ElementIndex) -> set[str]:
    """Elements whose words the mention quotes to say which *other* element it means.

    Words of a text, said with a noun for another kind of element ("the Thrust 1 picture": a text's
    words and a picture) or a noun for no kind at all ("the Feynman quote"), name what is beside that text.
    """
    said = [eid for eid, kind, _s in m.names if kind in ("part", "text") and not index.entry(eid).drawn
            and not {"url", "email"}.intersection(index.entry(eid).classes)]  # "eduroam logo": not by its web address
    if not said or len(said) != len(m.names) or unknown == "word":
        return set()  # (none; "the Guidelines word" is the text that says it)
    if unknown:  # ("the Start w każdą... line": the words a text opens with, not a thing beside it)
        return set() if any(index.entry(e).words[:len(m.words)] == m.words for e in said) else set(said)
    if not classes:
        return set()
    head = max(classes, key=lambda c: classes[c])
    if head in _TEXT_KINDS and any(kind == "text" for _e, kind, _s in m.names):
        return set()  # "the Research data management title": a text said whole is that text, whatever its role
    other = {e for e in said if not _fits_head(e, head, index)}
    return other if other == set(said) else set()


#: A text set as a list: its first line opens with a bullet or a dash.
_BULLETED = re.compile(r"\s*[\u2022\u25aa\u25e6\u2023\u25cf\u25a0\u2013*\-]\s")
#: Classes of the lines that head a page or a part of it; people call any of them a title or a heading.
_HEADINGS = frozenset({"title", "subtitle", "heading"})
#: Classes of a picture: a text is never what one of them names.
_PICTURE_HEADS = frozenset({"image", "logo", "qr", "icon"})
#: What a picture whose words are drawn in it may be called.
_DRAWN_HEADS = frozenset({"logo", "image", "badge", "qr", "text", "line", "shape"})
#: Classes only what a text says gives ("the phone number" is one; a text with a number in it is not).
_SAID_BY_CONTENT = frozenset({"phone", "email", "url", "price", "handle", "hashtag"})
#: Nouns a content class is said with ("phone number", "web address", "email line"): where no text is of that
#: class, the mention names nothing.
_GENERIC_HEADS = frozenset({"number", "text", "line", "body", "link", "contact"})
#: Classes any text may be called by: its whole words said with one of them name that text.
_TEXT_KINDS = frozenset({"title", "heading", "subtitle", "text", "line", "body", "caption"})


def _fits(eid: str, cls: str, index: ElementIndex) -> bool:
    """Whether the element, or one of its members, is of class ``cls``."""
    return index.entry(eid).classes.get(cls, 0.0) > 0 or any(
        index.entry(d).classes.get(cls, 0.0) > 0 for d in _members(eid, index))


def _under_title(ids: list[str], index: ElementIndex) -> str | None:
    """Of ``ids``, the one set right under the page's one title (within its height, overlapping it across)."""
    titles = [i for i in index.content_ids() if index.layout.get(i).role == "title" and index.layout.get(i).kind
              == "text"]
    if len(titles) != 1:
        return None
    t = index.layout.get(titles[0]).box
    below = [(b.y - t.y2, i) for i in ids if i != titles[0] and (b := index.layout.get(i).box).y >= t.y2 - 0.25 *
             t.height and b.y - t.y2 <= 1.5 * t.height and min(b.x2, t.x2) > max(b.x, t.x)]
    return min(below)[1] if below else None


def _tag_of(eid: str, index: ElementIndex) -> str | None:
    """The group a text is the only words of, on shapes (a tag or a button), or None."""
    e = index.layout.get(eid)
    if e.kind != "text" or e.group is None:
        return None
    parts = [d for d in index.layout.descendants_of(e.group) if d.id != eid]
    return e.group if parts and all(d.kind == "shape" for d in parts) else None


def _fits_head(eid: str, head: str, index: ElementIndex) -> bool:
    """Whether the element is what a mention's head noun calls it.

    A credit line need not say "photo:" or "©": "the LISP diagram credit" is the caption "diagram from … LISP …";
    a picture whose name says "logo" is one ("engeto-logo-dark.png").
    """
    if head in _HEADINGS and any(_fits(eid, h, index) for h in _HEADINGS):
        return True  # the heading of a slide is its title to whoever looks at it, whatever its size
    if head in _DRAWN_HEADS and index.entry(eid).drawn:
        return True  # "the DFG logo", "the cc-by badge", "the OSGeo lettering": a picture that says so
    return _fits(eid, head, index) or head in index.entry(eid).name_classes or head == "credit" and _fits(
        eid, "caption", index)


def _members(eid: str, index: ElementIndex) -> list[str]:
    return [d.id for d in index.layout.descendants_of(eid)] if index.layout.get(eid).children else []


def _near(pool: list[str], labels: set[str], index: ElementIndex, *, said: bool = False) -> dict[str, float]:
    """A bonus for each of ``pool`` by its distance to the nearest of ``labels`` (the nearest gets the most).

    Something ``said`` (a snippet, a quote) by a label that heads a section is the rest of that section: "the
    SQL snippet" is the code under the heading "SQL".
    """
    related = set(labels)
    for lab in labels:
        related.update(index.ancestors(lab))
        related.update(_members(lab, index))
    sections = {s for lab in labels for s in [lab, *index.ancestors(lab)] if s.startswith(_SECTION)}
    kin = [i for s in sorted(sections) for i in _members(s, index)
           if said and i not in labels and not _members(i, index)]
    pool = kin or [i for i in pool if i not in related and index.on_page(index.layout.get(i))]
    if not pool:
        return {}
    boxes = [index.layout.get(lab).box for lab in labels]
    c = index.layout.canvas
    eps = 0.01 * (c.width ** 2 + c.height ** 2) ** 0.5
    dist = {i: min(index.layout.get(i).box.distance(b) for b in boxes) for i in pool}
    nearest = min(dist.values())
    return {i: STRENGTH["part"] * (nearest + eps) / (d + eps) for i, d in dist.items()}


def _unknown_pool(noun: str | None, index: ElementIndex, colours: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """What a noun for no kind of element may name: a text for words said ("quote"), else a picture.

    A thing of a colour no picture has is a shape of that colour, ornament or not ("the yellow wedge").
    """
    tops = [i for i in index.content_ids() if index.layout.get(i).group is None]
    if noun in SAID_NOUNS or noun in ("value", "values"):  # ("the user / pass values": the texts beside the labels)
        return [i for i in tops if index.entry(i).classes.get("text", 0.0) > 0] or tops
    pool = _pictures(index) or tops
    if colours and not any(_colour_of(i, index) in colours or _colours_near(i, index) & colours for i in pool):
        shapes = [i for i in tops if index.layout.get(i).kind == "shape" and _colour_of(i, index) in colours]
        return shapes or pool
    return pool


def _pictures(index: ElementIndex) -> list[str]:
    """Top-level pictures and artwork on the page: what a thing named by what it shows can be.

    Not one the file names as something else (a QR code), nor a lock-up with words in it.
    """
    art = [i for i in index.content_ids() if (e := index.layout.get(i)).group is None and index.on_page(e)
           and (not e.pinned or index.beside) and e.kind != "text" and e.role not in ("background", "decoration")]
    art = [i for i in art if not index.entry(i).name_classes] or art
    art = [i for i in art if not any(d.kind == "text" for d in index.layout.descendants_of(i))] or art
    return art or pinned_art(index)


def describe(layout: Layout, element_id: str) -> str:
    """An element as a question lists it: ``'text12' (body "The open source software Map…")``."""
    el = layout.get(element_id)
    text = f' "{el.text[:28]}…"' if el.text and len(el.text) > 28 else (f' "{el.text}"' if el.text else "")
    return f"'{element_id}' ({el.role}{text})"


def panel_round(index: ElementIndex, ids: list[str]) -> list[str]:
    """The smallest panel (a background that is not the whole page) holding every one of ``ids``; [] if none."""
    boxes = [index.layout.get(i).box for i in ids]
    held = [p for p in index.panel_ids() if all(index.layout.get(p).box.contains(b) for b in boxes)]
    return [min(held, key=lambda p: index.layout.get(p).box.area)] if held else []


def pinned_art(index: ElementIndex) -> list[str]:
    """Drawn shapes the importer pinned as ornament that may still be what a person calls a picture or logo.

    Compact or a wordmark (neither a band across the page nor a rule), at least half a per cent of the page,
    with no words in them, not a frame or panel round other content (a placeholder's dashed box), and not cut by
    the page's edge (a block of colour bled off the side is a band's end, not a mark).
    """
    c = index.layout.canvas
    eps = 0.002 * max(c.width, c.height)
    top = [e for e in (index.layout.get(i) for i in index.content_ids()) if e.group is None]
    out = []
    for e in top:
        b = e.box
        if (e.kind != "text" and e.role == "decoration" and index.on_page(e)
                and min(b.width, b.height) >= 0.15 * max(b.width, b.height, 1e-9)
                and b.area >= 0.005 * c.width * c.height
                and not any(d.kind == "text" for d in index.layout.descendants_of(e.id))
                and not any(o is not e and b.contains(o.box) for o in top)
                and not (b.x <= c.x + eps or b.y <= c.y + eps or b.x2 >= c.x + c.width - eps
                         or b.y2 >= c.y + c.height - eps)):
            out.append(e.id)
    return out


def _colours_said(m: Mention, besides: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """The colour families the mention's words say (not counting the words ``besides``)."""
    return {f for w in m.words if w not in besides and (f := word_family(w))}


def _by_colour(m: Mention, scores: dict[str, float], index: ElementIndex,
               said_by: set[str] | frozenset[str] = frozenset()) -> dict[str, float]:
    """Only the candidates of the colour the mention says ("the green band"), when some are.

    When every candidate is painted one flat colour and none is near the one said ("the silver badge" where
    the only badge is teal), the mention names nothing here. A colour word that is one of the words of a text
    the mention quotes (``said_by``) is a name, not a colour: "the Red Hat logo" beside "Red Hat and …".
    """
    quoted = {w for e in said_by if e in index.entries for w in index.entry(e).words}
    wanted = _colours_said(m, quoted)
    if not wanted and scores and (shade := shade_said(m.text)) and re.search(r"\b(?:pale|dark) [a-z]", m.text):
        # "the dark background": of the grounds, those painted dark
        dark = [k for k in scores if any(of_shade(shade, d) for d in _painted(k, index))]
        dark += seen_shade([k for k in scores if _colour_of(k, index) is None], index, shade)
        kept = {k: v for k, v in scores.items() if k in dark} or scores
        ranked = sorted(kept, key=lambda e: (kept[e], index.layout.get(e).box.area), reverse=True)
        if "background" in m.words and len(ranked) > 1 and index.layout.get(ranked[0]).box.area >= 1.2 * (
                index.layout.get(ranked[1]).box.area):
            kept[ranked[0]] += 0.75  # (of those, the one everything sits on)
        return kept
    if not wanted or not scores:
        return scores
    kept = {k: v for k, v in scores.items() if _colour_of(k, index) in wanted}
    near = {k: v for k, v in scores.items() if _colours_near(k, index) & wanted}  # "violet" for a blue-violet
    if not kept and not near:
        # no fill is of or near that colour: a photo, or a drawing with no fill of its own, whose render shows it
        seen = seen_families([k for k in scores if _colour_of(k, index) is None], index)
        kept = {k: v for k, v in scores.items() if wanted & seen.get(k, _UNSEEN)[0]}
        near = {k: v for k, v in scores.items() if wanted & seen.get(k, _UNSEEN)[1]}
    if not kept and not near and not m.quote and all(
            _colour_of(k, index) is not None and index.layout.get(k).kind == "shape" for k in scores) and not any(
            wanted & near_families(rgb, spread=FAR_HUE) for k in scores for d in _painted(k, index)
            if (rgb := hex_rgb(d.fill)) is not None):
        return {}  # (a teal one may still be called blue or green: only a colour far from all of them says so)
    found = kept or near or scores
    shaded = {k: v for k, v in found.items() if any(of_shade(shade, d) for d in _painted(k, index))} if (
        shade := shade_said(m.text)) else {}
    return shaded or found  # ("the pale blue box": of the blue ones, the light one)


#: What a picture not looked at shows: no colour.
_UNSEEN: tuple[set[str], set[str]] = (set(), set())
#: Hue (degrees) within which a colour said may still name a flat shape of another family.
FAR_HUE = 40.0
#: Nouns for words drawn as lettering, and for a compact mark or picture beside them.
_LETTERING = frozenset({"wordmark", "lettering", "logotype", "letters"})
_MARKS = frozenset({"icon", "symbol", "emblem", "mark", "pictogram", "glyph"})
#: A box at least this many times as wide as it is tall is lettering; a compact one is within it either way.
LETTERING_ASPECT = 2.5


#: Nouns for a long, narrow shape across (or down) the page.
_BANDS = frozenset({"band", "strip", "stripe", "bar", "ribbon"})


def _by_shape(m: Mention, scores: dict[str, float], unknown: str | None, index: ElementIndex) -> dict[str, float]:
    """Among drawn candidates of both shapes, lettering for "the wordmark", the compact one for "the compass".

    A thing named by what it shows, or an icon, is drawn compact; a wordmark is a wide run of letters.
    """
    if len(scores) < 2 or any(not index.entry(e).drawn for e, *_ in m.names) or m.quote or any(
            index.layout.get(k).kind == "text" for k in scores):
        return scores

    def aspect(k: str) -> float:
        b = index.layout.get(k).box
        return b.width / b.height if b.height > 0 else float("inf")

    # lettering is drawn as outlines: a wide drawn shape, not a wide photo
    wide = {k: v for k, v in scores.items() if aspect(k) >= LETTERING_ASPECT and index.layout.get(k).kind == "shape"}
    rest = {k: v for k, v in scores.items() if k not in wide}
    top = max(scores.values())
    tops = [k for k, v in scores.items() if v >= top - 0.5]
    if _BANDS & set(m.words[-1:]) and _colours_said(m) and all(index.layout.get(k).kind == "shape" for k in tops):
        # "the purple band": of the shapes of that colour, one long and narrow (not a tall panel)
        long = [k for k in tops if max(aspect(k), 1 / max(aspect(k), 1e-9)) >= 3.0]
        return {k: v for k, v in scores.items() if k in long or k not in tops} if long else scores
    if _LETTERING & set(m.words):
        return wide or scores
    if (_MARKS & set(m.words)) or (unknown is not None and unknown not in SAID_NOUNS):
        return rest if rest and wide else scores
    return scores


def _script(text: str) -> str | None:
    """The script most of a text's letters are in."""
    counts: dict[str, int] = {}
    for ch in text:
        if not ch.isalpha():
            continue
        name = unicodedata.name(ch, "")
        script = ("cjk" if name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL")) else
                  "latin" if name.startswith("LATIN") else name.split(" ")[0].lower())
        counts[script] = counts.get(script, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


def _by_script(m: Mention, scores: dict[str, float], index: ElementIndex) -> dict[str, float]:
    """Only the texts in the language the mention says, when some are."""
    wanted = {LANGUAGE_SCRIPTS[w] for w in m.words if w in LANGUAGE_SCRIPTS}
    languages = {w for w in m.words if w in LANGUAGES}
    if not wanted or (len(scores) < 2 and not languages) or not scores:
        return scores
    kept = {k: v for k, v in scores.items() if _script(_first_text(index, k)) in wanted}
    if "latin" not in wanted or not languages:
        return kept or scores
    texts = [i for i in index.content_ids() if index.layout.get(i).kind == "text"]
    said = {i: language_of(_first_text(index, i)) for i in dict.fromkeys([*texts, *kept])}
    if all(_script(_first_text(index, i)) in ("latin", None) for i in texts) or any(
            said[i] not in languages | {None} for i in texts):
        # "the little Czech note" among Latin texts: the ones in Czech, else those whose words say no other language
        # ("the English line" beside a Chinese one, no other Latin language there, tells the scripts apart only)
        inside = {k: v for k, v in kept.items() if said[k] in languages}
        if inside:
            return inside
        # none is: the one text in that language, whatever the noun made of it ("the Czech note" set as body text)
        others = [i for i in texts if said[i] in languages]
        if 1 <= len(others) <= 2:
            top = max(scores.values())
            return {i: top for i in others}
        kept = {k: v for k, v in kept.items() if said[k] is None} or kept
    return kept or scores


def _first_text(index: ElementIndex, eid: str) -> str:
    texts = index.entry(eid).texts
    return texts[0] if texts else ""


def _painted(eid: str, index: ElementIndex) -> list[Element]:
    """What gives an element its colour: itself when it has a fill, else its members of the commonest colour."""
    e = index.layout.get(eid)
    if element_family(e) is not None or not e.children:
        return [e]
    fills = [d for d in index.layout.descendants_of(eid) if d.kind != "text" and element_family(d)]
    if not fills:
        return []
    families = [element_family(d) for d in fills]
    main = max(set(families), key=families.count)
    return [d for d, f in zip(fills, families) if f == main]


def _colour_of(eid: str, index: ElementIndex) -> str | None:
    painted = _painted(eid, index)
    return element_family(painted[0]) if painted else None


def _colours_near(eid: str, index: ElementIndex) -> set[str]:
    return {f for d in _painted(eid, index) for f in element_families(d)}


def plain_text(m: Mention, cands: list[str], index: ElementIndex, clause: str = "") -> list[str]:
    """Of several texts a plain noun for text fits, the one it means, else all of them.

    "The body text" beside three lines by the QR code: the page's copy (the text with by far the most words; "the
    code": the program); "the small print": the smallest type. Where the ``clause`` says where it is ("the small
    print at the very bottom"), that says which instead.
    """
    placed = r" (?:at|in|on|along|across|near|by|under|below|above|beside|next to) "
    if len(cands) < 2 or m.plural or m.every or m.count or m.names or m.quote or not m.words or re.search(
            re.escape(m.text.lower()) + placed, clause):
        return cands
    if set(m.words) <= _MAIN_WORDS and (main := index.main_text(cands)):
        return [main]
    if m.words == ["print"] and re.search(r"\b(?:small|fine|tiny)[ -]print\b", m.text):
        return [min(cands, key=lambda i: index.layout.get(i).font_size or float("inf"))]
    return cands


#: Words for a page's running text, said alone ("the body text", "the code").
_MAIN_WORDS = frozenset({"body", "text", "copy", "paragraph", "blurb", "main", "code", "pseudo", "listing"})


def best_candidates(scores: dict[str, float], index: ElementIndex) -> list[str]:
    """The top-scoring ids (within 0.5), a group preferred to its own members, in reading order."""
    if not scores:
        return []
    top = max(scores.values())
    best = [i for i, s in scores.items() if s >= top - 0.5]
    members = {i for i in best if any(a in best for a in index.ancestors(i))}
    best = [i for i in best if i not in members]
    return index.reading_order(best)


def names_single(tokens: list[Token], index: ElementIndex) -> bool:
    """Whether ``tokens`` (a part of a list in brackets) are a noun phrase that fits one element only.

    A plural ("the arrows") fits the elements it finds.
    """
    mentions, skel = find_mentions(tokens, index)
    if skel.split() != ["E0"] or not mentions[0].has_head:
        return False
    m = mentions[0]
    found = best_candidates(score_mention(m, index), index)
    return bool(found) if m.plural or m.every or (m.count or 0) > 1 else len(found) == 1


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
    w, h = index.layout.canvas.width or 1.0, index.layout.canvas.height or 1.0
    key = {"top_left": lambda b: b.cx / w + b.cy / h, "top_right": lambda b: b.cy / h - b.cx / w,
           "bottom_left": lambda b: b.cx / w - b.cy / h, "bottom_right": lambda b: -b.cx / w - b.cy / h,
           "left": lambda b: b.cx, "right": lambda b: -b.cx, "top": lambda b: b.cy, "bottom": lambda b: -b.cy,
           "big": lambda b: -b.area, "small": lambda b: b.area,
           "long": lambda b: -max(b.width, b.height), "short": lambda b: max(b.width, b.height),
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
    if m.place in ("left", "right", "top", "bottom", "big", "small", "middle", "long", "short") and len(ordered) > 1:
        return _extreme(ordered, m.place, index)
    return ordered


def in_part(ids: list[str], place: str, layout: Layout) -> list[str]:
    """Those of ``ids`` whose centre lies in the third of the page ``place`` names (top, bottom, left, right).

    A corner (``bottom_left``) is where its two thirds meet.
    """
    if "_" in place:
        first, second = place.split("_", 1)
        return [i for i in in_part(ids, first, layout) if i in in_part(ids, second, layout)]
    c = layout.canvas
    test = {"top": lambda b: b.cy < c.height / 3, "bottom": lambda b: b.cy > 2 * c.height / 3,
            "left": lambda b: b.cx < c.width / 3, "right": lambda b: b.cx > 2 * c.width / 3,
            "middle": lambda b: c.height / 3 <= b.cy <= 2 * c.height / 3,
            "column": lambda b: c.width / 3 <= b.cx <= 2 * c.width / 3}.get(place)  # the middle column
    return [i for i in ids if test is not None and test(layout.get(i).box)]


def extreme(ids: list[str], place: str, index: ElementIndex) -> list[str]:
    """The one of ``ids`` furthest towards ``place`` (left, right, top, bottom, big, small, middle); none of none."""
    return _extreme(ids, place, index) if ids else []


def lined_up(index: ElementIndex, ids: list[str], axis: str) -> list[str]:
    """"The row of step buttons": the largest row (or column) of ``ids``, with the like elements that share it.

    A row is the elements whose boxes overlap by half the lower one's height (a column: width). A like element
    is top level, of the same kind and about the same height (width) as the row's members: a button the
    importer called a badge is still one of the row.
    """
    layout = index.layout
    boxes = {i: layout.get(i).box for i in ids}
    span = (lambda b: (b.y, b.y2)) if axis == "row" else (lambda b: (b.x, b.x2))

    def shares(a: Box, b: Box) -> bool:
        (a0, a1), (b0, b1) = span(a), span(b)
        return min(a1, b1) - max(a0, b0) >= 0.5 * min(a1 - a0, b1 - b0) > 0

    best: list[str] = []
    for i in ids:
        line = [j for j in ids if shares(boxes[i], boxes[j])]
        best = line if len(line) > len(best) else best
    if len(best) < 2:
        return ids
    sizes = sorted(span(boxes[i])[1] - span(boxes[i])[0] for i in best)
    size = sizes[len(sizes) // 2]
    kinds = {layout.get(i).kind for i in best}
    like = [i for i in index.content_ids() if i not in best and (e := layout.get(i)).group is None
            and e.kind in kinds and shares(e.box, boxes[best[0]])
            and abs((span(e.box)[1] - span(e.box)[0]) - size) <= 0.1 * size]
    return index.reading_order(best + like)


def drawn_on(index: ElementIndex, targets: list[str]) -> list[str]:
    """Top-level things drawn over ``targets[0]`` and smaller than it, ornaments too ("the little light on …")."""
    if not targets:
        return []
    t = index.layout.get(targets[0]).box
    return [i for i in index.content_ids() if (e := index.layout.get(i)).group is None and i not in targets
            and e.kind not in ("text", "group") and e.role != "background" and index.on_page(e)
            and e.box.intersection(t) is not None and e.box.area < t.area]


__all__ = ["names_single", "plain_text", "score_mention", "unknown_head", "best_candidates", "broad_candidates",
           "narrow", "extreme", "in_part", "drawn_on", "lined_up", "pinned_art", "BROADER"]
