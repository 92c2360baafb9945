"""Text-style requests: weight, colour, font size and font family.

* weight: "bold", "bolder", "heavier" → 700 ("bolder" steps up by 200);
  "regular", "not bold", "normal weight", "lighter weight" → 400; "light" → 300;
  "semibold" → 600;
* colour: a CSS colour name (``red``, ``navy``, ``light blue`` → ``lightblue``; "dark grey" is #404040, darker than
  grey, where CSS's ``darkgray`` is lighter) or
  ``#rrggbb`` / ``#rgb``, when the clause asks for a colour (a colour verb
  such as *make*, *turn*, *colour*, *paint*, "in red", or a terse "title red");
* font size: with a font word ("font", "text size", "type size", "point size")
  or a *make/set* with a length in pt or px: "to 24 pt" / "24px" sets it,
  "2pt larger" adds to it, "bigger font" scales it (by the degree words);
* font family: "font to Georgia", "set in Helvetica Neue", "use Inter font".
"""

from __future__ import annotations

import re
from typing import Any

from PIL import ImageColor

from assistant.instructions.requests import amounts as am
from assistant.instructions.requests.frame import Intent, slots
from assistant.instructions.requests.paint import colour_named, paint_params
from assistant.instructions.requests.sizing import BIGGER, SMALLER
from assistant.svg.css import parse_color

_COLOR_NAMES = set(ImageColor.colormap)
_NOT_COLORS = {"tan", "linen", "snow", "bisque", "moccasin", "chocolate", "peru", "wheat", "thistle", "orchid"}
_FONT_WORD = (r"\b(?:font|fonts|font size|text size|type size|point size|type|lettering|letters|letter size|"
              r"size of the text)\b")
_COLOR_VERB = r"\b(?:make|turn|color|colour|paint|tint|recolor|recolour|fill|change|set|in|to|use|switch)\b"


def _color(skel: str, raw: str) -> str | None:
    hexm = re.search(r"#[0-9a-f]{6}\b|#[0-9a-f]{3}\b", skel)
    if hexm:
        return parse_color(hexm.group(0))
    words = skel.split()
    for i, w in enumerate(words):
        if w in _COLOR_NAMES and w not in _NOT_COLORS:
            mod = words[i - 1] if i else ""
            name = f"{mod}{w}" if mod in ("dark", "light", "pale", "deep") and f"{mod}{w}" in _COLOR_NAMES else w
            if mod == "deep" and f"dark{w}" in _COLOR_NAMES:
                name = f"dark{w}"
            return colour_named(name)
    return None


def _family(raw: str) -> str | None:
    m = re.search(r"(?:font|typeface|font family|family)\s+(?:to|as|into|with|of)\s+['\"]?([A-Za-z][\w\- ]{1,40}?)"
                  r"['\"]?\s*(?:$|[,.;]|\bfor\b|\bon\b|\bplease\b|\bpls\b)", raw)
    if not m:
        m = re.search(r"\b(?:set|put|typeset)\s+.+?\s+in\s+([A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)*)", raw)
    if not m:
        m = re.search(r"\buse\s+([A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)*)\s+(?:font|typeface)?", raw)
    if not m:
        return None
    family = m.group(1).strip()
    return None if family.lower() in ("the", "a", "it", "bold", "regular") else family


#: "drop it to ~12px", "take the tagline down to 20pt": a size of type to reach, not a move.
SIZE_TO = re.compile(r"(?:drop|take|bring|knock|dial|tone|turn|cut|reduce|shrink|size|go|bump|increase|enlarge|grow|"
                     r"boost|decrease)(?: E\d+(?: and E\d+)*)*"
                     r"(?: (?:down|up|back))? "
                     r"to (?:about |around |roughly |approximately |~)?\d+(?:\.\d+)?(?: (?:pt|px|points?|pixels?)|"
                     r"(?= please| pls| like\b| as\b|$)| ?ish\b)(?: please| pls)?"
                     # "gdal.org up to 18", "section heads Overview / Software up to 16 please": no verb, a size of type
                     r"|(?:E\d+ (?:and )?)+(?:up|down) to (?:about |around |roughly |~)?\d+(?:\.\d+)?"
                     r"(?: (?:pt|px|points?|pixels?))?(?: please| pls)?")


#: "drop it from 17.5 to 15": from the size it has to the one it should have.
FROM_TO = re.compile(r"(?:drop|take|bring|knock|reduce|shrink|cut|change|set|make|go|size|scale|bump|raise|increase|"
                     r"decrease|push|turn)(?: E\d+)*(?: (?:down|up|back))? from (?P<a>\d+(?:\.\d+)?) ?"
                     r"(?:pt|px|points?|pixels?)? (?:(?:down|up|back) )?to (?P<b>\d+(?:\.\d+)?)"
                     r"(?: (?:pt|px|points?|pixels?))?\b")


#: "headline 60 -> 50" (the arrow read as "to"): from the size it has to the one it should have, no verb.
BARE_FROM_TO = re.compile(r"(?:E\d+ )*(?:from )?(?P<a>\d+(?:\.\d+)?) ?(?:pt|px|points?|pixels?)? (?:(?:down|up|back) )?"
                          r"to (?:about |around |roughly |approximately |~)?"
                          r"(?P<b>\d+(?:\.\d+)?)(?: (?:pt|px|points?|pixels?))?(?: please| pls)?")


#: "56px instead of 64": the size it should have, then the one it has.
INSTEAD_OF = re.compile(r"(?:^|\b(?:make it|set it to|use|go for|try|to) )(?P<b>\d+(?:\.\d+)?) ?"
                        r"(?:pt|px|points?|pixels?)? instead of (?P<a>\d+(?:\.\d+)?)\b")


#: "the little bold subheads get lost": a weight said before the noun says which, it asks for nothing.
_ATTRIBUTIVE = re.compile(r"\b(?:the|a|an|those|these|this|that|its|their|all|both)(?: \w+)? (?:bold|bolded|heavy|"
                          r"strong|light|semi ?bold)(?= E\d+)")


def _weight(skel: str) -> int | str | None:
    skel = _ATTRIBUTIVE.sub("", skel)
    if re.search(r"\b(?:too|a bit|a little|rather|quite|very|so|kind of|bit|somewhat|slightly) (?:heavy|bold|thick|"
                 r"dark and heavy)\b", skel):
        return 400  # "the intro text is too heavy"
    if re.search(r"\b(?:not bold|unbold|un bold|no longer bold|less bold|non bold|remove the bold|regular|"
                 r"normal weight|normal|plain|lighter weight|thinner|lighter|book weight|un bolded)\b", skel):
        return 400
    if re.search(r"\bsemi ?bold\b|\bdemi ?bold\b|\bmedium weight\b", skel):
        return 600
    if re.search(r"\bbolder\b|\bheavier\b|\bthicker\b|\bmore bold\b", skel):
        return "bolder"
    if re.search(r"\bbold\b|\bbolded\b|\bheavy\b|\bstrong\b", skel):
        return 700
    if re.search(r"\blight weight\b|\blight\b(?! (?:blue|green|gray|grey|red|yellow|pink|cyan))", skel):
        return 300
    return None


#: "bigger, around 60pt": the size to reach, not an amount to add ("2pt bigger", "bigger by 2pt")
_SIZE_TARGET = (r"\b(?:to|around|about|roughly|approximately|like|at|say) (?:about |around |roughly )?\d+(?:\.\d+)? ?"
                r"(?:pt|px|points?|pixels?)\b(?! (?:bigger|larger|smaller|more|less|up|down))"
                # "could be bigger, 18px": said right after, a size of type (6 or more) is the size to reach
                r"|\b(?:bigger|larger|smaller|up|down) (?:about |around |roughly |~ )?(?:[6-9]|\d\d+)(?:\.\d+)? ?"
                r"(?:pt|px|points?|pixels?)\b(?! (?:bigger|larger|smaller|more|less|up|down))")


def _font_size(skel: str) -> dict[str, Any] | None:
    fontish = re.search(_FONT_WORD, skel) or re.search(r"\bsize (?:to |of |at |=)?\d|^(?:E\d+ )+\d+(?:\.\d+)? "
                                                       r"(?:pt|px|points?|pixels?)(?: please| pls)?$|"
                                                       r"^(?:E\d+ )+(?:to|at|=) "
                                                       # "subtitle → 16px please" (the arrow read as "to")
                                                       r"(?:about |around |~)?\d+(?:\.\d+)? (?:pt|points?|px|pixels?)"
                                                       r"(?: please| pls)?$", skel)
    # ("bump them up to 36 like the text in the left column": what it is like said after the size)
    fontish = fontish or SIZE_TO.fullmatch(re.sub(r" (?:like|as in) .+$", "", skel))
    sizes = FROM_TO.search(skel) or INSTEAD_OF.search(skel) or BARE_FROM_TO.fullmatch(skel)
    if sizes and float(sizes.group("a")) > 0:  # "drop it from 17.5 to 15": in whatever unit the sizes were read
        return {"factor": float(sizes.group("b")) / float(sizes.group("a"))}
    length = am.first_length(skel)
    if not fontish and re.search(r"\b(?:gap|gaps|space|spacing|margin|margins|padding|room|distance|gutter|air|"
                                 r"whitespace)\b", skel):
        return None  # "make the gap 30px": the room between, not a size of type
    grow, shrink = re.search(BIGGER, skel), re.search(SMALLER, skel)
    if not fontish and not (length and re.search(r"\b(?:make|set|bump|increase|decrease|enlarge|boost|be)\b|"
                                                 r"\b(?:is|are|s|looks?|seems?|reads?) (?:\w+ )?(?:tiny|small|little|"
                                                 r"big|huge|large|massive|minuscule|miniscule)\b", skel) and
                            length.unit in ("pt", "px", "point", "points", "pixels")
                            and not re.search(r"\b(?:up|down|left|right|wide|tall|high)\b", skel)):
        return None
    if length is None and fontish and (re.search(r"\bsize (?:to |of |at |=)?\d|\b(?:up|down) to ", skel) or
                                       SIZE_TO.fullmatch(skel)):
        length = am.first_length(skel, bare=True)
        if length is not None and am.first_length(skel) is None:
            # "drop it to 6.5": a size without a unit is in the document's own units, as sizes are listed
            length = am.Length(length.value, "units")
    if length is not None and length.unit != "%":
        if (grow or shrink) and not re.search(_SIZE_TARGET, skel) and not SIZE_TO.search(skel):
            return {"delta": length, "sign": 1 if grow else -1}
        return {"abs": length}
    pct = am.percent(skel)
    if pct is not None:
        value, absolute = pct
        return {"factor": value / 100 if absolute else 1 + (value / 100) * (1 if grow or not shrink else -1)}
    if grow or shrink:
        deg = am.degree(skel)
        f = am.SCALE[deg]
        return {"factor": f if grow else 1 / f}
    return None


def detect_style(skel: str, raw: str = "") -> Intent | None:
    """The text-style intent of a clause skeleton (``raw``: the clause as typed, for font names), or None."""
    params: dict[str, Any] = {}
    weight = _weight(skel)
    if weight is not None:
        params["font_weight"] = weight
    color = _color(skel, raw)
    if color is not None and (re.search(_COLOR_VERB, skel) or re.fullmatch(r"(?:E\d+ )+\S+", skel)):
        params["fill"] = color
    size = _font_size(skel)
    if size is not None:
        params["font_size"] = size
    family = _family(raw) if re.search(r"\b(?:font|typeface|family|set in|typeset|use)\b", raw.lower()) else None
    if family:
        params["font_family"] = family
    params.update(paint_params(skel))
    if not params:
        return None
    # "bold like the other extension names", "red, as the button is": the style is said, the comparison only
    # explains it
    compared = {int(n) for n in re.findall(r"\b(?:like|as) (?:(?:all |both )?(?:the )?)?E(\d+)", skel)}
    patients = slots(skel)
    return Intent("style", [n for n in patients if n not in compared] or patients, params=params)


__all__ = ["detect_style", "SIZE_TO", "FROM_TO", "INSTEAD_OF", "BARE_FROM_TO"]
