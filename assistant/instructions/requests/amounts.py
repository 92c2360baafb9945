"""How far and how much: lengths with units, percentages, factors and words of degree.

All functions read a clause *skeleton* (:func:`~assistant.instructions.requests.refs.find_mentions`),
so a count inside a mention ("the three points") is never read as a length.

Lengths convert to CSS px as CSS Values 3 §6.2 defines the units (1in = 96px =
2.54cm = 25.4mm = 72pt = 6pc); a bare number is px. :func:`to_world` turns px
into the document's world units, and a percentage into a share of the page
along the axis in question.

Degrees ("a bit", "a lot") are the steps a designer nudges by: :data:`STEP`
gives a move as a share of the page's shorter side, :data:`SCALE` a resize
factor, :data:`GAP_STEP` a change of spacing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.document import Canvas

UNIT_PX: dict[str, float] = {
    "px": 1.0, "pixel": 1.0, "pixels": 1.0, "pt": 96 / 72, "point": 96 / 72, "points": 96 / 72, "pc": 16.0,
    "mm": 96 / 25.4, "millimeter": 96 / 25.4, "millimeters": 96 / 25.4, "cm": 96 / 2.54, "centimeter": 96 / 2.54,
    "centimeters": 96 / 2.54, "in": 96.0, "inch": 96.0, "inches": 96.0,
}
#: "lift it about 12 units": the document's own units (what ``inspect`` lists boxes in).
WORLD_UNITS = ("units", "unit")
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in (*UNIT_PX, *WORLD_UNITS)), key=len, reverse=True))
LENGTH_RE = re.compile(rf"(?<![\w.])(?P<num>\d+(?:\.\d+)?) (?P<unit>{_UNIT_ALT}|%|percent)(?![\w])")
BARE_NUMBER_RE = re.compile(r"(?<![\w.E])(?P<num>\d+(?:\.\d+)?)(?! ?(?:x|times|st|nd|rd|th)\b)(?![\w.])")

SMALL_RE = re.compile(
    r"\b(?:a (?:little )?bit|a little|little|slightly|a touch|a tad|a smidge|a hair|somewhat|a notch|"
    r"marginally|a fraction|fractionally|a wee bit|a little more|a tiny bit|tiny bit|a bit|just a bit|"
    r"ever so slightly|gently|subtly|mildly|a skosh|bit)\b")
LARGE_RE = re.compile(
    r"\b(?:a lot|lots|much|way|significantly|considerably|loads|dramatically|a great deal|heaps|"
    r"massively|substantially|hugely|greatly|a ton|tons|really|way more|a good deal|drastically|noticeably|"
    r"visibly|properly|clearly)\b")

#: Move distance per degree, as a share of the page's shorter side.
STEP = {"small": 0.02, "medium": 0.05, "large": 0.12}
#: Resize factor per degree (grow; shrinking uses the inverse).
SCALE = {"small": 1.1, "medium": 1.2, "large": 1.5}
#: Spacing change per degree, as a share of the page's shorter side (at least), or of the gap.
GAP_STEP = {"small": 0.015, "medium": 0.03, "large": 0.06}

_FRACTIONS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "fourth": 0.25, "fifth": 0.2, "tenth": 0.1,
              "sixth": 1 / 6, "eighth": 0.125}
_FRACTION_RE = re.compile(r"\b(?:by |about |roughly |around )*(?:a|one|an) (?P<f>half|third|quarter|fourth|fifth|"
                          r"tenth|sixth|eighth)\b|\bby half\b|\b(?P<n>\d) (?P<f2>thirds|quarters|fifths|tenths)\b")


@dataclass(frozen=True)
class Length:
    """A length as typed: ``value`` in ``unit`` (``px`` … or ``%``)."""

    value: float
    unit: str

    def px(self) -> float | None:
        """The length in CSS px (None for a percentage)."""
        return None if self.unit == "%" else self.value * UNIT_PX.get(self.unit, 1.0)


def degree(skel: str) -> str:
    """``small``, ``large`` or ``medium`` (no degree word)."""
    if SMALL_RE.search(skel):
        return "small"
    if LARGE_RE.search(skel):
        return "large"
    return "medium"


def has_degree(skel: str) -> bool:
    """Whether the clause says how much in words ("a bit", "a lot")."""
    return bool(SMALL_RE.search(skel) or LARGE_RE.search(skel))


def lengths(skel: str, *, bare: bool = False) -> list[Length]:
    """Every length in the clause (``bare``: numbers without a unit count as px)."""
    out = []
    for m in LENGTH_RE.finditer(skel):
        unit = "%" if m.group("unit") in ("%", "percent") else m.group("unit")
        out.append(Length(float(m.group("num")), unit))
    if bare and not out:
        out += [Length(float(m.group("num")), "px") for m in BARE_NUMBER_RE.finditer(skel)]
    return out


def first_length(skel: str, *, bare: bool = False) -> Length | None:
    """The first length of the clause, or None."""
    found = lengths(skel, bare=bare)
    return found[0] if found else None


def to_world(length: Length, canvas: Canvas, axis: str = "x") -> float:
    """``length`` in world units; a percentage is a share of the canvas width (``x``) or height (``y``)."""
    if length.unit == "%":
        return length.value / 100.0 * (canvas.width if axis == "x" else canvas.height)
    if length.unit in WORLD_UNITS or length.unit == "pt" and points_page(canvas):
        return length.value
    px = length.px() or 0.0
    return px / canvas.px_per_unit if canvas.px_per_unit else px


#: Paper sizes in points (A3, A4, A5, US letter): a page drawn at these sizes is measured in points.
_POINT_PAGES = ((842, 1191), (595, 842), (420, 595), (612, 792))


def points_page(canvas: Canvas) -> bool:
    """Whether the page is a paper size drawn in points, one unit a point, whatever unit the file says.

    An A4 page 595 × 842 units wide (an export from a tool that measures in points) shows its type as "14" where
    14pt is meant, and its gaps likewise: a length said in points is that many units.
    """
    w, h = sorted((canvas.width, canvas.height))
    return canvas.px_per_unit == 1 and any(abs(w - a) <= 1.5 and abs(h - b) <= 1.5 for a, b in _POINT_PAGES)


def fraction(skel: str) -> float | None:
    """A fraction named in words ("by a quarter", "a third", "by half", "two thirds"), or None."""
    m = _FRACTION_RE.search(skel)
    if not m:
        return None
    if m.group("f"):
        return _FRACTIONS[m.group("f")]
    if m.group("f2"):
        return int(m.group("n")) * _FRACTIONS[m.group("f2")[:-1]]
    return 0.5


#: "90 x 90", "300px by 200px": a width and a height.
DIMENSIONS = re.compile(r"\b(?P<w>\d+(?:\.\d+)?) ?(?P<unit>px|pt|mm|cm|units?)? (?:x|by) (?P<h>\d+(?:\.\d+)?)"
                        r"(?: ?(?P<unit2>px|pt|mm|cm|units?))?\b")


def factor(skel: str) -> float | None:
    """A multiplying factor: "twice", "double", "three times", "2x", "x 1.5", "half the size", or None."""
    if re.search(r"\b(?:twice|double|doubled|2 x|x 2)\b", skel):
        return 2.0
    if re.search(r"\b(?:triple|tripled|thrice)\b", skel):
        return 3.0
    if DIMENSIONS.search(skel):
        return None  # "make it 90 x 90": a size, not "times 90"
    m = re.search(r"\b(\d+(?:\.\d+)?) (?:times|x)\b|\bx (\d+(?:\.\d+)?)\b", skel)
    if m:
        return float(m.group(1) or m.group(2))
    if re.search(r"\bhalf again as (?:big|large|wide|tall|high)\b|\bhalf as (?:big|large|wide|tall) again\b|"
                 r"\bone and a half times\b", skel):
        return 1.5
    m = re.search(r"\b(?P<f>three quarters|two thirds|3 quarters|2 thirds) (?:of )?"
                  r"(?:the|its|their|E\d+ size|what (?:it|they|E\d+) (?:is|are))\b", skel)
    if m:
        return {"three": 0.75, "3": 0.75, "two": 2 / 3, "2": 2 / 3}[m.group("f").split()[0]]
    if re.search(r"\bhalve\b|\bhalf (?:the|its|their|E\d+) (?:size|width|height|thickness)\b|\bhalf as (?:big|large|"
                 r"wide|tall|high|thick)\b|\bhalf size\b", skel):
        return 0.5
    if re.search(r"\b(?:a|one) quarter (?:the|of the|of its|of E\d+) size\b|\bquarter size\b", skel):
        return 0.25
    return None


def percent(skel: str) -> tuple[float, bool] | None:
    """A percentage and whether it is absolute ("to 80 %") rather than a change ("by 20 %")."""
    m = re.search(r"(?:\b(?P<to>to|at) )?(?:about |around |roughly |approximately )?(?P<num>\d+(?:\.\d+)?) "
                  r"(?:%|percent)", skel)
    if not m:
        return None
    value = float(m.group("num"))
    # "smaller, 80 %": the size it should have (a shrink by more than half is not said that way)
    # ("the title is huge, 85% please": said too big, then the share it should come to)
    after_shrink = bool(re.search(r"\b(?:smaller|shrink|shrunk|reduce|reduced|down|huge|enormous|massive|giant|"
                                  r"gigantic|oversized|too (?:big|large|wide|tall))\b[^%]*$", skel[:m.start()])) and \
        not re.search(r"\bby\b", skel[:m.start()]) and 50 <= value < 100
    # "90 % of its size", "80 % the width": a share of what it is now
    share = bool(re.match(r" (?:of )?(?:its|their|the|it'?s|E\d+)(?: (?:current|present|original|old))? (?:size|"
                          r"width|height|scale)\b| of (?:what|how big) (?:E\d+|it|they) (?:is|are)\b", skel[m.end():]))
    # "bigger - 120% -": the size it should have (a growth by more than the whole is not said that way)
    after_grow = bool(re.search(r"\b(?:bigger|larger|grow|enlarge|enlarged|up|tiny|undersized|too (?:small|narrow|"
                                r"short))\b[^%]*$", skel[:m.start()])) and \
        not re.search(r"\bby\b", skel[:m.start()]) and 100 < value <= 300
    return value, bool(m.group("to")) or after_shrink or share or after_grow


__all__ = ["Length", "degree", "has_degree", "lengths", "first_length", "to_world", "fraction", "factor",
           "percent", "STEP", "SCALE", "GAP_STEP", "UNIT_PX"]
