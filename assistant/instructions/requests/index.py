"""What each element of a layout can be called: its names, its classes, what its text says.

An :class:`ElementIndex` is built once per layout. For every element it keeps

* *name keys* (squashed, see :func:`~assistant.instructions.requests.words.squash`):
  the id and the ``data-name`` / label, with their strength; the id without its
  trailing number as a *family* key (``coverline-1`` … ``coverline-4`` are the
  family ``coverline``, so "the cover lines" are all four and "the first cover
  line" is one of them); single meaningful words of the id as weak keys
  (``garden-photo`` answers to "garden"). Ids a tool generated (``path123``,
  ``la-text-4``, ``g4537``) name nothing but themselves;
* its *text*, folded, whole and line by line, for quoted and unquoted mentions,
  and its words, for a few of them said without quotes ("the Thrust 1 picture");
* its *classes*: role words (``title``, ``cta`` …), kind words (``text``,
  ``image`` …) and what its text looks like (``date``, ``url``, ``email``,
  ``phone``, ``price``), the vocabulary of :data:`~assistant.instructions.requests.vocab.CLASS_WORDS`.

Reading order (:meth:`ElementIndex.reading_order`) sorts boxes in rows from top
to bottom, left to right within a row: "the second paragraph" is the second in
that order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from assistant.document import Element, Layout
from assistant.instructions.requests.vocab import CLASS_WORDS, FUNCTION_WORDS
from assistant.instructions.requests.words import fold, squash
from assistant.instructions.select import is_full_bleed
from assistant.render.looks import Look

#: Strength of each kind of match between a mention and an element.
STRENGTH = {"id": 10.0, "name": 10.0, "quote": 12.0, "text": 9.0, "family": 8.0, "part": 6.0, "token": 4.0,
            "class": 3.0}

_GENERATED_ID = re.compile(
    r"^(?:la[-_])?(?:path|rect|text|tspan|g|group|flowroot|flowpara|image|img|circle|ellipse|polygon|polyline|"
    r"line|use|layer|svg|cluster|paragraph|shape|object|defs|clippath|mask|a|stop|lineargradient|"
    r"radialgradient)[-_]?\d+(?:[-_]\d+)*$", re.I)
#: What a Creative Commons badge says in letters (its "cc" is two circled c's a reader does not read).
_LICENCE_TERMS = frozenset({"cc", "by", "sa", "nc", "nd", "zero", "pd", "bysa", "bync", "bynd"})
_ROLE_CLASSES = {
    "title": {"title", "heading"}, "subtitle": {"subtitle", "heading"}, "body": {"body", "text"},
    "caption": {"caption", "text"}, "cta": {"cta", "link"}, "logo": {"logo"}, "image": {"image"},
    "badge": {"badge"}, "background": {"background", "shape"}, "decoration": {"shape"},
}
_KIND_CLASSES = {"text": {"text"}, "image": {"image"}, "shape": {"shape"}, "group": {"group"}}
_WEEKDAYS = (r"mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|"
             r"mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo|montag|"
             r"dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|pondělí|úterý|středa|čtvrtek|pátek|neděle|"
             r"segunda|terça|quarta|quinta|sexta|mandag|tirsdag|onsdag|torsdag|fredag|lørdag|søndag")
_MONTHS = (r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|"
           r"august|september|october|november|december|"
           # the languages of the corpus: French, Spanish, Portuguese, German, Czech, Polish, Norwegian
           r"janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|"
           r"decembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|"
           r"janeiro|fevereiro|março|marco|maio|junho|julho|setembro|outubro|novembro|dezembro|januar|februar|märz|"
           r"juni|juli|oktober|dezember|ledna|února|března|dubna|května|června|července|srpna|září|října|listopadu|"
           r"prosince|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|"
           r"grudnia|desember")
_DATE_RE = re.compile(rf"\b(?:{_WEEKDAYS})s?\b|\b(?:{_MONTHS})\b|"
                      r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b")
_TIME_RE = re.compile(r"\b\d{1,2}[:.h]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b")
#: A person's name: two to four capitalised words, no digits ("Cameron Hudson", "Jménoslav Příjmenodlouhý").
_PERSON_RE = re.compile(r"^(?:(?=[^\W\d_])[\w'’-]+[\s\u00a0]+){1,3}(?=[^\W\d_])[\w'’-]+$")


def _person(text: str) -> bool:
    """Whether ``text`` reads as a person's name: two to four words, each capitalised ("Jménoslav Příjmenodlouhý")."""
    return bool(_PERSON_RE.match(text)) and all(w[:1].isupper() for w in text.split())
_URL_STRONG_RE = re.compile(r"https?://|\bwww\.", re.I)
_URL_WEAK_RE = re.compile(r"\b[\w-]+(?:\.[\w-]+)*\.(?:org|com|net|io|de|cz|fr|uk|eu|edu|gov|info|example|be|"
                          r"nl|it|es|ch|at|pl|dev|app|co)\b", re.I)
#: A text that is only a domain ("blug.linux.no", "cbmm.mit.edu/news"): a web address, whatever its country.
_DOMAIN_ONLY_RE = re.compile(r"\s*[a-z0-9][\w-]*(?:\.[\w-]+)*\.[a-z]{2,6}(?:/\S*)?\s*", re.I)
_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_HANDLE_RE = re.compile(r"(?<![\w@])@\w{2,}")
_HASHTAG_RE = re.compile(r"(?<![\w#&])#[^\W\d]\w+")
#: An academic degree: "MS Software Engineering", "BSc", "Ph.D.", "Master of Arts", "Dipl.-Ing."
_DEGREE_RE = re.compile(r"\b(?:B\.?S[cC]?|M\.?S[cC]?|B\.?A|M\.?A|MBA|Ph\.?D|M\.?Eng|B\.?Eng|LL\.?M|Dipl\.-Ing)\b\.?|"
                        r"\b(?:[Bb]achelor|[Mm]aster|[Dd]octor(?:ate)?) (?:of|in|'s)\b")
#: A line that starts a list's item: a bullet, a dash or a number and a stop.
_LIST_ITEM_RE = re.compile(r"^[ \t]*(?:[-\u2013\u2022\u00b7\u25aa\u25cf\u25e6*\u2023\u2043]|\d{1,2}[.)])[ \t]+\S",
                           re.MULTILINE)
#: Words of a street address: a building, floor, room, street or a postcode before a town.
_STREET_RE = re.compile(r"\b(?:building|bldg|room|suite|office|str\.|ul\.)\.? ?\d|"
                        r"\b\d+(?:st|nd|rd|th)? (?:floor|street|st\.|road|rd\.|avenue|ave\.|lane)\b|"
                        r"\b[A-ZÀ-Ž][a-zà-ž]+(?:strasse|straße|gasse|weg|platz) \d|\b\d{2}-\d{3} [A-ZÀ-Ž]|"
                        r"\b\d{5} [A-ZÀ-Ž][a-zà-ž]+|"
                        # (the word for an address, in the languages of the files: "Dirección 666", "Adresse :")
                        r"\b(?i:address|direcci[oó]n|adresse|adresa|adres|endere[cç]o|indirizzo|anschrift)\b")
_PHONE_RE = re.compile(r"(?:\+\d[\d\s-]{6,}|\b\d{3}[\s.-]\d{3}[\s.-]\d{3,4}\b)")
#: Who made or owns it, and on what terms: a credit or licence line ("Photo: …", "© 2019 …", "CC BY-SA").
_CREDIT_RE = re.compile(r"©|\(c\)\s*\d|\bcopyright\b|\blicen[cs]ed?\b|creative\s+commons|\bcc[\s-]by\b|"
                        r"all rights reserved|\bphoto(?:graph)?s?\s*(?:by\b|:)|\bcourtesy of\b|\bcredits?\b", re.I)
#: A line of source code: a preprocessor line, a comment, a brace, a statement's end, a call or an assignment.
_CODE_RE = re.compile(r"^\s*(?:#\s*(?:include|define|if|ifdef|ifndef|else|endif|import|pragma)\b|//|/\*|\*/|\*\s)|"
                      r"[;{}]\s*$|^\s*[{}]|:=|==|->|\b[a-z_]\w*\([^)]*\)")
#: The share of a text's lines that must read as code for the text to be code.
CODE_SHARE = 0.5
_PRICE_RE = re.compile(r"[$€£¥]\s?\d|\d\s?(?:€|eur|usd|gbp)\b", re.I)


def _id_words(text: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return [w for w in re.split(r"[\W_]+", fold(spaced)) if w]


def content_classes(text: str | None) -> dict[str, float]:
    """Classes a text's content gives its element (``url`` strong or weak), with their strength factor."""
    if not text:
        return {}
    out: dict[str, float] = {}
    if _EMAIL_RE.search(text):
        out["email"] = 1.0
    if _URL_STRONG_RE.search(text) or (_DOMAIN_ONLY_RE.fullmatch(text) and "@" not in text):
        out["url"] = 1.0
    elif _URL_WEAK_RE.search(_EMAIL_RE.sub(" ", text)):
        out["url"] = 0.6
    words = max(len(text.split()), 1)
    dates, times = _DATE_RE.findall(text.lower()), _TIME_RE.findall(text.lower())
    if dates:
        out["date"] = 0.5 + 0.5 * min(1.0, 3 * len(dates) / words)
    if times:
        out["time"] = 0.5 + 0.5 * min(1.0, 3 * len(times) / words)
        out.setdefault("date", 0.5)  # "the date" may be the day and hour of an event
    # (an attribution under a quote is set after a dash: "- Richard Feynman", "— Ana Lee")
    said = re.sub(r"^\s*[-\u2013\u2014\u2015~]+\s*", "", text.strip())
    people = [p for p in re.split(r"\s*(?:,|&|\band\b)\s*", said) if p]
    if not re.search(r"\d", text) and people and all(_person(p) for p in people) and len(text) <= 80:
        # "Cameron Hudson", "Foo Duck and Bar Bunny": who wrote or speaks (a name given for a quote less so)
        out["name"] = 1.0 if said == text.strip() else 0.6
    elif people and _person(people[0]) and not re.search(r"\d", people[0]) and "," in text:
        out["name"] = 0.6  # "Petr Viktorin, PyCon CZ 2019": a name, then where or when
    if _PHONE_RE.search(text):
        out["phone"] = 1.0
    if {"email", "phone"} & out.keys() or "url" in out:
        out["contact"] = 1.0  # "the contact details": where to write, call or look
    if _STREET_RE.search(text):
        out["address"] = 1.0  # "Building 52, 1st floor": where to find it
    if _DEGREE_RE.search(text):
        out["degree"] = 1.0  # "MS Software Engineering", "PhD in Physics": a qualification
    if len(_LIST_ITEM_RE.findall(text)) >= 2:
        out["list"] = 1.0  # "- budowę dróg …", "- obniżenia krawężnika …": items set as a list
        out["body"] = 0.9  # (running text, however small its type)
    if _PRICE_RE.search(text):
        out["price"] = 1.0
    if _HANDLE_RE.search(_EMAIL_RE.sub(" ", text)):
        out["handle"] = 1.0  # "@rdmorganiser"
    if _HASHTAG_RE.search(text):
        out["hashtag"] = 1.0
    if _CREDIT_RE.search(text):
        out["credit"] = 1.0
    if re.match(r"\s*(?:\*+\)?|[†‡§¹²³]|\(\d\)|\d\))\s*[^\W\d_]", text):
        out["footnote"] = 1.0  # "*) a human being is currently required …"
    if re.search(r"\d", text):
        out["number"] = 0.6
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if len(lines) >= 2 and sum(bool(_CODE_RE.search(ln)) for ln in lines) >= CODE_SHARE * len(lines):
        out["code"] = 1.0  # "#include <XBee.h>", "horloge := 0", "// comment": source code set as text
    if "?" in text or re.match(r"\s*(?:how|what|why|when|where|who|which|can|could|does|do|is|are|will)\b", text, re.I):
        out["question"] = 1.0  # "the five questions under Thrust 4" (set with or without their marks)
    return out


_GLUE = frozenset({"of", "for", "fur", "für", "und", "and", "de", "du", "des", "la", "le", "der", "die", "the"})


def _initials(text: str) -> list[str]:
    """Acronyms a logo's words make ("Karlsruher Institut für Technologie" is KIT), folded."""
    out: list[str] = []
    run: list[str] = []
    for w in [*re.findall(r"[\w'-]+", text), ""]:
        if w[:1].isupper():
            run.append(w)
        elif w.lower() in _GLUE and run:
            continue
        else:
            if 2 <= len(run) <= 5:
                out.append(fold("".join(x[0] for x in run)))
            run = []
    return out


def glyph_only(text: str | None) -> bool:
    """Whether a text is a lone glyph or two (a drop cap, an ornament set as a letter), not words."""
    return sum(ch.isalnum() for ch in text or "") <= 2


@dataclass
class Entry:
    """What one element answers to."""

    element: Element
    keys: dict[str, tuple[str, float]] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    #: The words of its whole text, folded, without "and" (``&`` is typed "and"), for words quoted from it.
    words: list[str] = field(default_factory=list)
    classes: dict[str, float] = field(default_factory=dict)
    #: Classes its own id or name claims (a "QRcode" is a qr code, whatever its role).
    name_classes: set[str] = field(default_factory=set)
    content: bool = True
    #: Its words are drawn in it (a logo's name read from its render), not set as text.
    drawn: bool = False


#: How many times the words of each other text the page's main text holds ("the body text").
MAIN_TEXT = 4


class ElementIndex:
    """Names, texts and classes of every element of ``layout`` (see the module docstring)."""

    def __init__(self, layout: Layout, page: int | None = None, drawn: Mapping[str, str] | None = None,
                 see: Callable[[list[str]], Mapping[str, Look]] | None = None) -> None:
        self.layout = layout
        #: ids → how those elements look on a render (``assistant.render.looks``); None where nothing renders.
        self.see = see
        self._looks: dict[str, Look | None] = {}
        #: Words read from the renders of pictures (``assistant.render.drawn``), by id.
        self.drawn = dict(drawn or {})
        #: The page the request named (None: every page).
        self.page = page
        self.entries: dict[str, Entry] = {}
        families: dict[str, list[str]] = {}
        pages = layout.canvas.page_boxes()
        #: How many pages the layout has.
        self.pages = len(pages)
        #: The whole drawing lies beside the page (a page set wrong, not a scratch area): it is all meant.
        self.beside = not any(e.role != "background" and any(e.box.intersection(p) is not None for p in pages)
                              for e in layout.elements)
        for e in layout.elements:
            if page is not None and e.page != page:
                continue  # "on page 2": only what is on it
            entry = Entry(element=e)
            self.entries[e.id] = entry
            # what lies wholly beside every page (Inkscape's scratch area) is not what anyone looking at it means
            on_a_page = any(e.box.intersection(p) is not None for p in pages)
            # (a shape as big as the page beside it is a sticker's backdrop, not the page's)
            entry.content = e.role != "background" and not (is_full_bleed(layout, e) and on_a_page) and (
                self.beside or on_a_page)
            entry.keys[squash(e.id)] = ("id", STRENGTH["id"])
            if e.name:
                entry.keys.setdefault(squash(e.name), ("name", STRENGTH["name"]))
            generated = bool(_GENERATED_ID.match(e.id))
            said = set(fold(e.text or "").split())
            for source in ([] if generated else [e.id]) + ([e.name] if e.name else []):
                words = _id_words(source)
                for w in words:
                    if len(w) >= 3 and w not in FUNCTION_WORDS and not w.isdigit():
                        entry.keys.setdefault(w, ("token", STRENGTH["token"]))
                        if w in CLASS_WORDS and w not in said:  # ("Analyze-information": its words, not its kind)
                            entry.name_classes.add(CLASS_WORDS[w])
                stem = re.sub(r"[-_\s]*\d+$", "", source)
                if stem != source and len(squash(stem)) >= 3:
                    families.setdefault(squash(stem), []).append(e.id)
            entry.classes = self._classes(e)
            if "qr" in entry.name_classes and e.kind != "text":
                entry.classes.setdefault("qr", 1.0)  # a picture named "QR code" is one ("the code")
            text = self._text(e)
            if not text and self.drawn.get(e.id):
                text, entry.drawn = self.drawn[e.id], True  # "the DFG logo": the picture that says DFG
            if text:
                folded = fold(text)
                entry.texts = [folded] + [fold(ln) for ln in text.splitlines() if ln.strip()]
                # "4pm - 6pm" is typed and read as "4 pm 6 pm": a number apart from its unit, a lone dash no word
                entry.words = [w for w in re.split(r"[\s:/.]+|(?<=\d)(?=[a-z])", folded)
                               if w and w != "and" and w.strip("-\u2013\u2014")]
                if entry.drawn:  # a reader runs words together ("FachhochschulePotsdam"): their parts too
                    entry.words += [fold(w) for w in re.findall(r"[A-Z]?[a-z]{2,}", text) if fold(w) not in entry.words]
                    entry.words += [a for a in _initials(text) if a not in entry.words]
                    if entry.words and set(entry.words) <= _LICENCE_TERMS:  # a Creative Commons badge reads "BY SA"
                        entry.words += [w for w in ("cc", "creative", "commons", "licence", "license")
                                        if w not in entry.words]
                        entry.texts += ["cc", "creative commons"]
        for stem, ids in families.items():
            for i in ids:
                if self.entries[i].keys.get(stem, ("token", 0.0))[0] == "token":
                    self.entries[i].keys[stem] = ("family", STRENGTH["family"])
        self.known_words = self._known_words()

    def _text(self, e: Element) -> str | None:
        if e.text:
            return e.text
        if e.kind == "group":
            parts = [d.text for d in self.layout.descendants_of(e.id) if d.text]
            return "\n".join(parts) if parts else None
        return None

    def _classes(self, e: Element) -> dict[str, float]:
        out = dict.fromkeys(_ROLE_CLASSES.get(e.role, set()), 1.0)
        if e.role == "subtitle":
            out["heading"] = 0.6  # "the heading" is the main one; a subtitle is a subheading
        if e.role == "cta" and e.kind == "group" and 0 < len((self._text(e) or "").split("\n")[0].strip()) <= 5:
            out["badge"] = 0.8  # a short word on a shape of its own: "the OSC badge" as much as a button …
        if e.role in ("cta", "badge") and e.kind == "group":
            out.setdefault("shape", 0.8)  # … and "the step boxes"
        if e.kind == "text" and glyph_only(e.text):
            for c in ("title", "subtitle", "heading"):  # a drop cap or a lone glyph heads nothing
                out.pop(c, None)
        for c in _KIND_CLASSES.get(e.kind, set()):
            out.setdefault(c, 0.8)
        if e.role == "logo" and e.kind == "text":
            out.pop("text", None)
        if e.kind == "group" and any(d.kind == "text" for d in self.layout.descendants_of(e.id)):
            out.setdefault("text", 0.5)
        for c, s in content_classes(self._text(e)).items():
            # a group's words are its first member's: "the name" is that text more than the section it heads
            out.setdefault(c, s * (0.8 if e.kind == "group" else 1.0))
        if "url" in out:
            out.setdefault("link", out["url"])  # "the links": web addresses are links too
        if "text" in out:
            out["line"] = 1.0 if e.kind == "text" else out["text"]  # "the second line": a line of text …
        if e.role == "decoration" and e.pinned and e.kind == "shape" and (
                e.box.area >= 0.2 * self.layout.canvas.box.area):
            out.setdefault("background", 0.9)  # a large shape everything else sits on is "the yellow background"
        page = self.layout.canvas.page_box(e.page)
        if e.kind in ("shape", "group") and e.box.width >= 0.6 * page.width and e.box.height <= 0.35 * page.height \
                and e.box.y <= page.y + 0.2 * page.height and e.box.height >= 0.04 * page.height:
            out["header"] = 1.0  # a band across the top of the page: "the grey header"
        if e.kind == "shape" and self._thin(e):
            out["rule"] = 1.0
            out["line"] = 0.95  # … or a rule drawn across ("the line under the name")
        out["any"] = 0.3
        return out

    def _thin(self, e: Element) -> bool:
        """Whether a shape is a rule: a stroke far longer than thick, and thin on the page."""
        b, c = e.box, self.layout.canvas
        short, long = sorted((b.width, b.height))
        return long > 0 and short <= 0.15 * long and short <= 0.02 * min(c.width, c.height)

    def _known_words(self) -> set[str]:
        words: set[str] = set()
        for entry in self.entries.values():
            for key, (kind, _s) in entry.keys.items():
                if kind in ("token", "family", "name") and key.isalpha():
                    words.add(key)
            for t in entry.texts[:1]:
                if len(t) <= 40:
                    words.update(w for w in t.split() if w.isalpha())
        return words

    # -- queries ---------------------------------------------------------------
    @cached_property
    def _said(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Elements by each of their texts and lines, and by their whole text squashed (made when first asked).

        Words read from pictures are left aside: a typed-out line names a text.
        """
        spelled: dict[str, list[str]] = {}
        squashed: dict[str, list[str]] = {}
        for eid, entry in self.entries.items():
            if not entry.drawn:
                for t in dict.fromkeys(entry.texts):
                    spelled.setdefault(t, []).append(eid)
                if entry.texts:
                    squashed.setdefault(squash(entry.texts[0]), []).append(eid)
        return spelled, squashed

    def spelled(self, folded: str) -> list[str]:
        """Elements whose whole text, or one of whose lines, is ``folded`` (words read from pictures aside)."""
        return self._said[0].get(folded, [])

    def squashed(self, key: str) -> list[str]:
        """Elements whose whole text, spaces and stops taken out, is ``key`` ("ww w . o sg e o . o r g", "wi-fi")."""
        return self._said[1].get(key, []) if len(key) >= 4 else []

    def entry(self, element_id: str) -> Entry:
        """The entry of one element."""
        return self.entries[element_id]

    def looks(self, ids: list[str]) -> dict[str, Look]:
        """How each of ``ids`` looks on its render, where the index can see (each rendered once)."""
        if self.see is None:
            return {}
        todo = [i for i in ids if i not in self._looks]
        if todo:
            seen = self.see(todo)
            self._looks.update({i: seen.get(i) for i in todo})
        return {i: look for i in ids if (look := self._looks.get(i)) is not None}

    def panel_ids(self) -> list[str]:
        """Ids of the backgrounds that are not the whole page: bands and panels behind content."""
        return [i for i, en in self.entries.items() if not en.content and en.element.role == "background"
                and not is_full_bleed(self.layout, en.element)]

    def on_page(self, e: Element) -> bool:
        """Whether ``e`` is on a page, or the whole drawing lies beside it (then everything counts)."""
        return e.page >= 0 or self.beside

    def content_ids(self) -> list[str]:
        """Ids of the elements a description may name: not backgrounds, not full-bleed, top level first."""
        return [i for i, en in self.entries.items() if en.content]

    def everything(self) -> list[str]:
        """What "everything" names: the top-level content.

        Where all of it lies wholly off the page (a sticker drawn beside its sheet), the pinned shapes beside
        the page come with it ("bring everything onto the page").
        """
        ids = [i for i in self.content_ids() if self.layout.get(i).group is None]
        page = self.layout.canvas.box
        if not ids or any(self.layout.get(i).box.intersection(page) is not None for i in ids):
            return ids
        return ids + [e.id for e in self.layout.top_level()
                      if e.pinned and e.id not in ids and e.box.intersection(page) is None]

    def ancestors(self, element_id: str) -> list[str]:
        """Ids of the groups around an element, nearest first."""
        out: list[str] = []
        g = self.layout.get(element_id).group
        while g is not None and g in self.entries and g not in out:
            out.append(g)
            g = self.layout.get(g).group
        return out

    def section_items(self, section: str) -> list[str]:
        """The items of a list under a section's heading; [] when there are none.

        They are its members below the heading that are groups (a bullet with its line).
        """
        heading = section_heading(self.layout, section)
        return [c for c in self.layout.get(section).children if c in self.entries and c != heading and
                self.layout.get(c).kind == "group"] if heading is not None else []

    def main_text(self, ids: list[str]) -> str | None:
        """Of texts ``ids``, the one that holds far more words than each other (the page's copy), or None.

        "The body text" where one paragraph is the poster's copy and the other three lines by its QR code: the copy.
        """
        sizes = {i: len((self.layout.get(i).text or "").split()) for i in ids}
        if len(sizes) < 2 or any(self.layout.get(i).kind != "text" for i in ids):
            return None
        first, *rest = sorted(ids, key=lambda i: -sizes[i])
        return first if all(sizes[first] >= MAIN_TEXT * max(sizes[i], 1) for i in rest) else None

    def reading_order(self, ids: list[str]) -> list[str]:
        """``ids`` in reading order.

        Rows run top to bottom (boxes overlapping vertically by half their height share a row), left to right
        within a row.
        """
        boxes = {i: self.layout.get(i).box for i in ids}
        order = sorted(ids, key=lambda i: (boxes[i].cy, boxes[i].x))
        rows: list[list[str]] = []
        for i in order:
            b = boxes[i]
            if rows:
                r = boxes[rows[-1][0]]
                overlap = min(b.y2, r.y2) - max(b.y, r.y)
                if overlap > 0.5 * min(b.height, r.height):
                    rows[-1].append(i)
                    continue
            rows.append([i])
        return [i for row in rows for i in sorted(row, key=lambda k: boxes[k].x)]


def section_heading(layout: Layout, section: str) -> str | None:
    """The heading of a section the importer grouped: its member on top, whatever the order of the file."""
    kids = layout.get(section).children
    return min(kids, key=lambda c: (layout.get(c).box.y, kids.index(c)), default=None)


#: Names of signs set as text: "the asterisk" is a text that is one (or two glyphs with one).
SYMBOL_NAMES = {"asterisk": "*\u2217\u2731", "star": "*\u2605\u2606\u2736", "ampersand": "&",
                "dagger": "\u2020\u2021", "bullet": "\u2022\u25cf", "heart": "\u2665\u2661\u2764",
                "arrow": "\u2190\u2191\u2192\u2193\u2794\u27a1", "tick": "\u2713\u2714",
                "cross": "\u00d7\u2715\u2717\u2718", "question": "?\u00bf\u2753", "exclamation": "!\u00a1\u2757",
                "hash": "#", "dollar": "$", "euro": "\u20ac", "copyright": "\u00a9"}


def sign_said(words: list[str]) -> str | None:
    """The sign a mention's words name, if they name one.

    "The big question mark" (not a brand mark), "the hash sign".
    """
    if len(words) >= 2 and words[-1] in ("mark", "marks", "sign", "signs", "symbol") and words[-2] in SYMBOL_NAMES:
        return words[-2]
    return None


def symbol_texts(noun: str | None, index: ElementIndex) -> list[str]:
    """The texts that are the sign ``noun`` names ("the asterisk next to edit"), when it names one."""
    signs = SYMBOL_NAMES.get(noun or "")
    if not signs:
        return []
    return [i for i in index.content_ids() if (e := index.layout.get(i)).kind == "text"
            and glyph_only(e.text) and any(g in (e.text or "") for g in signs)]


__all__ = ["ElementIndex", "Entry", "STRENGTH", "SYMBOL_NAMES", "content_classes", "section_heading", "sign_said",
           "symbol_texts"]
