"""Colour words a person uses for what they see ("the green band", "the orange mascot"), matched to fills.

A colour is sorted into one of a dozen families a person names: black,
white, grey, red, orange, yellow, green, cyan, blue, purple, pink, brown. A
colour word is sorted the same way through its CSS value ("navy" is blue,
"teal" cyan, "gold" yellow), so that a word and a fill match when their
families do, however the designer mixed the colour.
"""

from __future__ import annotations

import colorsys
import re

from PIL import ImageColor

from assistant.document import Element, hex_rgb

#: Words that name a family outright (spellings and words CSS has no value for).
_WORDS = {"grey": "grey", "gray": "grey", "colored": "", "coloured": "", "brown": "brown", "pink": "pink",
          "purple": "purple", "violet": "purple", "magenta": "pink", "cyan": "cyan", "turquoise": "cyan",
          "blueish": "blue", "bluish": "blue", "reddish": "red", "greenish": "green", "yellowish": "yellow",
          "pinkish": "pink", "greyish": "grey", "grayish": "grey", "purplish": "purple", "orangey": "orange"}
#: Colour words that are also ordinary words of requests ("a tan line" is rare; "the light one" is not a colour).
_NOT_COLOURS = {"tan", "linen", "snow", "bisque", "moccasin", "chocolate", "peru", "wheat", "thistle", "orchid",
                "light", "dark"}


#: Colour words typos are never corrected away from ("pink" is not "pin").
#: Only the common ones: a rarer name ("lime", "rose") would pull typos of request words to itself.
COLOUR_WORDS = frozenset({*_WORDS, "black", "white", "red", "orange", "yellow", "green", "blue", "navy", "teal",
                          "gold", "silver", "beige"} - {"colored", "coloured"})


def family(rgb: tuple[float, float, float]) -> str:
    """The family of an sRGB colour (components in [0, 1])."""
    h, lightness, s = colorsys.rgb_to_hls(*rgb)
    chroma = max(rgb) - min(rgb)
    if lightness < 0.15:
        return "black"
    if lightness > 0.93 and chroma < 0.2:
        return "white"
    if chroma < 0.05 or s < 0.15:  # a pale colour keeps its hue: #dae4ef is a light blue
        return "grey"
    deg = h * 360.0
    if deg < 15 or deg >= 335:
        return "brown" if lightness < 0.3 else "red"
    if deg < 42:
        return "brown" if lightness < 0.35 else "orange"
    if deg < 68:
        return "yellow"
    if deg < 165:
        return "green"
    if deg < 195:
        return "cyan"
    if deg < 260:
        return "blue"
    if deg < 300:
        return "purple"
    return "pink"


def word_family(word: str) -> str | None:
    """The family a colour word names; ``None`` for a word that is not a colour."""
    if word in _WORDS:
        return _WORDS[word] or None
    if word in _NOT_COLOURS or word not in ImageColor.colormap:
        return None
    r, g, b = ImageColor.getrgb(word)[:3]
    return family((r / 255.0, g / 255.0, b / 255.0))


def element_family(e: Element) -> str | None:
    """The family of an element's main fill; ``None`` when it has none (a photo, a gradient)."""
    rgb = hex_rgb(e.fill)
    return family(rgb) if rgb is not None else None


def near_families(rgb: tuple[float, float, float], spread: float = 15.0) -> set[str]:
    """The family of a colour and those a person may also call it.

    A hue within ``spread`` degrees of the border between two families is either (#402c8c is blue to one
    person and violet to another).
    """
    h, lightness, s = colorsys.rgb_to_hls(*rgb)
    out = {family(rgb)}
    for d in (-spread, spread):
        out.add(family(colorsys.hls_to_rgb((h + d / 360.0) % 1.0, lightness, s)))
    if out & {"brown"} and s >= 0.15:  # a dark red is red to most people, a dark orange orange
        out.add(family(colorsys.hls_to_rgb(h, max(lightness, 0.45), s)))
    if max(rgb) - min(rgb) < 0.05 and (lightness < 0.2 or 0.85 < lightness < 0.98):
        out.add("grey")  # #eeeeee on a white page is light grey, #222222 dark grey
    return out


def element_families(e: Element) -> set[str]:
    """:func:`near_families` of an element's main fill (empty when it has none)."""
    rgb = hex_rgb(e.fill)
    return near_families(rgb) if rgb is not None else set()


#: "pale blue", "dark green": the shade said before a colour word.
_SHADE = re.compile(r"\b(?P<s>pale|light|pastel|soft|dark|deep)[ -]+[a-z]+")


def shade_said(text: str) -> str | None:
    """"light" or "dark": the shade ``text`` says before a colour ("the pale blue box"), or None."""
    said = _SHADE.search(text)
    return None if said is None else "light" if said.group("s") in ("pale", "light", "pastel", "soft") else "dark"


def of_shade(shade: str, e: Element) -> bool:
    """Whether ``e``'s fill is as light (or as dark) as ``shade`` (see :func:`shade_said`)."""
    rgb = hex_rgb(e.fill)
    if rgb is None:
        return False
    return of_lightness(shade, colorsys.rgb_to_hls(*rgb)[1])


def of_lightness(shade: str, lightness: float) -> bool:
    """Whether a colour of ``lightness`` (HLS, 0–1) is as light (or as dark) as ``shade``."""
    return lightness >= 0.75 if shade == "light" else lightness <= 0.35


__all__ = ["family", "word_family", "element_family", "near_families", "element_families", "shade_said", "of_shade",
           "of_lightness"]
