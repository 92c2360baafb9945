"""The vocabulary the instruction compiler recognises.

Words for element roles, named regions, lengths with units and the intents
(dominance, size, margins, breathing room, alignment, keeping, contrast).
All patterns run on normalised text: lower case, curly quotes straightened,
hyphens between words turned into spaces (see :func:`normalise`).

Length units convert to CSS px as CSS Values 3 §6.2 defines them
(1in = 96px = 2.54cm = 25.4mm = 72pt = 6pc).
"""

from __future__ import annotations

import re

#: Words naming a role (longest alternatives first when compiled).
ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "title": ("headline", "heading", "title", "main title", "header text", "head line"),
    "subtitle": ("subtitle", "sub title", "subheading", "sub heading", "subhead", "tagline", "strapline",
                 "standfirst", "deck", "kicker"),
    "body": ("body text", "body copy", "body", "copy", "text block", "paragraph", "description", "text",
             "blurb", "cover line", "bullet point", "bullet", "list item", "list"),
    "caption": ("caption", "credit", "credits", "footnote", "fine print", "small print", "date line", "dateline"),
    "cta": ("call to action", "cta", "button", "sign up button", "action button"),
    "logo": ("logo", "logotype", "brand mark", "brandmark", "brand", "wordmark", "mark", "emblem", "masthead",
             "nameplate"),
    "image": ("hero image", "hero photo", "photo", "photograph", "image", "picture", "illustration", "visual",
              "artwork", "pic", "chart", "graph", "diagram"),
    "badge": ("price tag", "price", "badge", "sticker", "discount", "offer tag", "tag"),
    "background": ("background",),
}

#: Phrases meaning "every content element".
ALL_WORDS = ("everything", "all elements", "every element", "all the elements", "all items", "all blocks",
             "all the text", "all text", "the whole layout", "the layout", "all")

_REGION_PATTERNS: list[tuple[str, str]] = [
    (r"(?:top|upper)\s*right(?:\s*hand)?(?:\s*corner)?|right(?:\s*hand)?\s*corner at the top", "top_right"),
    (r"(?:top|upper)\s*left(?:\s*hand)?(?:\s*corner)?", "top_left"),
    (r"(?:bottom|lower)\s*right(?:\s*hand)?(?:\s*corner)?", "bottom_right"),
    (r"(?:bottom|lower)\s*left(?:\s*hand)?(?:\s*corner)?", "bottom_left"),
    (r"(?:top|upper)\s*(?:center|centre|middle)", "top"),
    (r"(?:bottom|lower)\s*(?:center|centre|middle)", "bottom"),
    (r"in the footer|into the footer|to the footer|footer|(?:at|to) the (?:very )?bottom|bottom (?:band|strip|edge)",
     "footer"),
    (r"in the header|top band|top strip|(?:at|to) the (?:very )?top|along the top|top edge", "top_band"),
    (r"hero (?:area|region|spot|zone)|in the hero", "hero"),
    (r"in the (?:center|centre|middle)(?: of the (?:page|canvas|layout|poster))?|dead cent(?:er|re)", "center"),
    (r"(?:on|to|at) the left(?: side| edge)?|left side", "left"),
    (r"(?:on|to|at) the right(?: side| edge)?|right side", "right"),
]
REGION_RES: list[tuple[re.Pattern[str], str]] = [(re.compile(rf"\b(?:{p})\b"), r) for p, r in _REGION_PATTERNS]

#: CSS px per unit.
UNIT_PX: dict[str, float] = {
    "px": 1.0, "pixel": 1.0, "pixels": 1.0, "pt": 96 / 72, "point": 96 / 72, "points": 96 / 72,
    "pc": 16.0, "mm": 96 / 25.4, "millimetre": 96 / 25.4, "millimetres": 96 / 25.4, "millimeter": 96 / 25.4,
    "millimeters": 96 / 25.4, "cm": 96 / 2.54, "centimetre": 96 / 2.54, "centimetres": 96 / 2.54,
    "centimeter": 96 / 2.54, "centimeters": 96 / 2.54, "in": 96.0, "inch": 96.0, "inches": 96.0,
}
LENGTH_RE = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>%|percent|px|pixels?|pt|points?|pc|mm|millimet(?:re|er)s?|cm|"
    r"centimet(?:re|er)s?|inch(?:es)?|in)\b|(?P<num2>\d+(?:\.\d+)?)\s*%")

MARGIN_RE = re.compile(r"\bmargins?\b|\bsafe (?:area|zone)\b|\bfrom the (?:edges?|sides?|borders?)\b|"
                       r"\bpadding\b|\bbleed\b")
MORE_RE = re.compile(r"\b(?:more|bigger|larger|wider|generous|increase|extra|ample|roomier)\b")
BREATHING_RE = re.compile(
    r"breathing room|\bbreathe\b|room to breathe|white ?space|negative space|"
    r"less (?:crowded|cluttered|busy|dense|cramped|tight)|de ?clutter|too (?:crowded|cluttered|busy|tight|cramped)|"
    r"more (?:space|room|air|spacing)|space (?:\w+ )?out|spread (?:\w+ )?out|airier|airy|"
    r"(?:gaps?|space|spacing) between|between (?:the )?(?:elements|blocks|items|things|boxes)|\bapart\b|"
    r"uncrowd|\bcrowded\b|\bcramped\b")
DENSITY_RE = re.compile(r"less dense|lower (?:the )?density|less busy|sparser")
NO_OVERLAP_RE = re.compile(
    r"no overlaps?|nothing (?:should )?overlaps?|(?:don't|do not|shouldn't|should not|never) overlap|"
    r"avoid overlaps?|without overlaps?|remove (?:the )?overlaps?|fix (?:the )?overlaps?|stop overlapping")
ALIGN_RE = re.compile(r"\balign(?:ed|ment|s)?\b|\bflush\b|\branged?\b|\bline (?:\w+ )?up\b|\bjustif")
EDGE_RE = re.compile(r"\b(?P<edge>left|right|cent(?:er|re)(?:ed|d)?|middle)\b")
CENTER_RE = re.compile(r"\bcent(?:er|re)(?:ed|d|s|ing)?\b")
TO_CANVAS_RE = re.compile(r"\b(?:on|to|with|of) the (?:page|canvas|poster|layout|artboard)\b|horizontally")
KEEP_RE = re.compile(
    r"\b(?:keep|leave|lock|pin|preserve|freeze)\b|(?:don't|do not|dont|never) (?:move|touch|change|shift)|"
    r"\bstays?\b")
KEEP_PLACE_RE = re.compile(r"where (?:it|they) (?:is|are)|in place|as (?:it is|they are|is)|unchanged|"
                           r"untouched|fixed|alone|put|where it was|in its place|still")
DOMINANT_RE = re.compile(r"\bdominant\b|\bdominate\b|most prominent|focal point|the focus|\bbiggest\b|"
                         r"\blargest\b|most important|main focus|the hero|hero element|the star")
STAND_OUT_RE = re.compile(r"stand out|\bpop\b|more prominent|\bprominent\b|emphasi[sz]e|highlight|"
                          r"eye catching|grab attention|noticeable|visible")
BIGGER_RE = re.compile(r"\b(?:bigger|larger|enlarge|increase|grow|scale up|blow up|huge|large|big|"
                       r"heavier|bolder)\b")
SMALLER_RE = re.compile(r"\b(?:smaller|shrink|reduce|decrease|scale down|tone down|less prominent|"
                        r"less dominant|tiny|small|lighter|downsize)\b")
SMALL_WORDS = ("small", "tiny", "little", "narrow", "thin", "weak")
TOO_RE = re.compile(r"\btoo (?P<what>small|tiny|little|narrow|thin|weak|big|large|huge|wide|heavy|loud|dominant)\b")
CONTRAST_RE = re.compile(r"\bcontrast\b|\breadab|\blegib")
NEGATION_RE = re.compile(r"\b(?:not|don't|dont|never|no|without|shouldn't|mustn't|avoid|nor)\b")
THAN_RE = re.compile(r"\bthan\b")
FILLER_RE = re.compile(
    r"^(?:(?:please|pls|kindly|also|then|and|but|so|now|just|ok|okay|finally|lastly|i want|i'd like|"
    r"i would like|we want|we need|i need|let's|lets|can you|could you|would you|make sure|ensure|try to|"
    r"to)\s+)+")


def normalise(text: str) -> str:
    """Lower case, straight quotes, word hyphens → spaces, single spaces."""
    t = text.lower().replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    t = re.sub(r"(?<=[a-z])[-_](?=[a-z])", " ", t)
    t = re.sub(r"[\"()\[\]!?]", " ", t)
    return re.sub(r"\s+", " ", t).strip(" .")


def role_pattern() -> re.Pattern[str]:
    """One regex finding role words (plural ``s`` allowed); group ``word``."""
    words = sorted({w for ws in ROLE_WORDS.values() for w in ws}, key=len, reverse=True)
    return re.compile(r"\b(?P<word>" + "|".join(re.escape(w) for w in words) + r")(?:e?s)?\b")


WORD_TO_ROLE: dict[str, str] = {w: r for r, ws in ROLE_WORDS.items() for w in ws}
ROLE_RE = role_pattern()
ALL_RE = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in ALL_WORDS) + r")\b")


def length_px(text: str) -> tuple[float | None, float | None]:
    """The first length in ``text`` as ``(css_px, share)``.

    A length with a unit gives px, a percentage gives a share of the canvas's shorter side.
    """
    m = LENGTH_RE.search(text)
    if not m:
        return None, None
    if m.group("num2") is not None:
        return None, float(m.group("num2")) / 100.0
    num, unit = float(m.group("num")), m.group("unit")
    if unit in ("%", "percent"):
        return None, num / 100.0
    return num * UNIT_PX[unit], None


def find_region(text: str) -> tuple[str | None, tuple[int, int] | None]:
    """The named region in ``text`` and its span.

    The more specific patterns (corners before bands before sides) win, so
    "to the top right" is the top-right corner, not the top band.
    """
    for rx, name in REGION_RES:
        m = rx.search(text)
        if m:
            return name, m.span()
    return None, None


__all__ = [
    "ROLE_WORDS", "WORD_TO_ROLE", "ROLE_RE", "ALL_RE", "UNIT_PX", "normalise", "length_px", "find_region",
]
