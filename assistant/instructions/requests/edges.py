"""Patterns of the intents that set an element a distance in from a page edge.

"7px from the right edge", "10 mm in from the left", "tuck it into the top left corner, 15mm from both edges",
"2mm further in from the left": an ``edge`` intent with an ``inset`` (see
:mod:`~assistant.instructions.requests.intents` for the order the patterns are tried in).
"""

from __future__ import annotations

import re

from assistant.instructions.requests import amounts as am
from assistant.instructions.requests.frame import Intent, slots
from assistant.instructions.requests.placement import DIR_RE, FROM_CORNER

#: "7px from the right edge", "10 mm in from the left": how far from a page edge an element should end.
_INSET = re.compile(r"(?P<num>\d+(?:\.\d+)?) ?(?P<unit>[a-z%]+) (?:in |down |up |over |across )?"
                    r"(?:from|off|inside|within) "
                    r"(?:the )?(?:very )?"
                    r"(?:(?P<e>left|right|top|bottom)(?: (?:edge|side|border|margin))?|edge|border)(?: of the (?:page|"
                    r"canvas|slide|card|poster|flyer|banner|badge))?\b")


#: "… so the last line sits 10 mm above the bottom of the page": that far in from the bottom (or top) edge.
_ABOVE_EDGE = re.compile(r"(?P<num>\d+(?:\.\d+)?) ?(?P<unit>mm|cm|px|pt|in|%) (?:(?P<up>above) the (?:very )?bottom|"
                         r"(?P<down>below) the (?:very )?top)(?: (?:edge|border|margin))?"
                         r"(?: of the (?:page|canvas|slide|"
                         r"card|poster|flyer|banner))?(?=$| [,.;]| and\b| so\b| please\b| pls\b)")


#: "60px between it and the right side of the banner": a distance from a page edge said as a gap.
_GAP_TO_EDGE = re.compile(r"(?P<num>\d+(?:\.\d+)?) ?(?P<unit>[a-z%]+) (?:of (?:space|room|gap) )?between "
                          r"(?P<who>E\d+) and the (?:very )?(?P<e>left|right|top|bottom)(?: hand)? (?:edge|side|border)"
                          r"(?: of the (?:page|canvas|slide|card|poster|flyer|banner|badge))?\b")


#: "… is kissing the right edge, pull it in so there's about 20px to spare": that far from the nearest edge.
_TO_SPARE = re.compile(r"(?:pull|bring|move|push|nudge|tuck|shift|slide|draw|ease) (?P<who>(?:E\d+ )+)(?:back )?"
                       r"in(?:wards?)? (?:a bit |a little |slightly )?so (?:that )?(?:there is|theres|there are|"
                       r"it has|E\d+ has|we have|we get|you get) (?:about |around |roughly |approx |approximately |"
                       r"some |at least )?(?P<num>\d+(?:\.\d+)?) ?(?P<unit>[a-z%]+) (?:to spare|spare|of room|"
                       r"of space|clear|of clearance|of breathing room|breathing room|of margin|margin|free)\b")


#: "… in so they all start at 7 mm": a left edge that far from the page's.
_START_AT = re.compile(r"(?:\bso (?:that )?(?:E\d+ )?(?:all |both |each )?)?\b(?:starts?|begins?|sits?) (?:at|from) "
                       r"(?:about |around |roughly |~)?(?P<num>\d+(?:\.\d+)?) ?(?P<unit>mm|cm|px|pt|in|units?)\b"
                       r"(?! (?:from|in from|off|to the|right|left|down|up|below|above))")


#: "… over to the right so it has the same 50px margin the circle has on the left": that far from that side.
_SIDE_MARGIN = re.compile(r"\bto the (?P<e>left|right|top|bottom)(?: edge| side)? so (?:that )?(?:E\d+ )?"
                          r"(?:has|gets|keeps|sits with|ends up with) (?:the same |a |an |about |around |roughly |~)*"
                          r"(?P<num>\d+(?:\.\d+)?) ?(?P<unit>mm|cm|px|pt|in|units?) (?:margin|gap|inset|of space|"
                          r"clearance)\b")


def inset(s: str) -> Intent | None:
    """A place by its distance from a page edge: "put the logo 7px from the right edge".

    In "… so the wordmark ends 1cm from the right" the element said after "so" is the one measured; those said
    before it move together.
    """
    m = FROM_CORNER.search(s)
    if m and (slots(s[:m.start()]) or not slots(s)):
        # "give it 15px from both the top and the left edge": from each ("…, 10mm in from the right and bottom
        # edges": of what the clause before placed)
        length = am.first_length(f"{m.group('num')} {m.group('unit')}")
        if length is not None:
            v, h = m.group("v") or m.group("v2"), m.group("h") or m.group("h2")
            return Intent("edge", slots(s[:m.start()]), params={"edge": f"{v}_{h}", "inset": length, "measured": None})
    m = _START_AT.search(s)
    if m and slots(s[:m.start()]):  # "move the intro and the list in so they all start at 7 mm": from the left
        length = am.first_length(f"{m.group('num')} {m.group('unit')}")
        if length is not None:
            return Intent("edge", slots(s[:m.start()]), params={"edge": "left", "inset": length, "measured": None})
    m = _TO_SPARE.search(s)
    if m:
        length = am.first_length(f"{m.group('num')} {m.group('unit')}")
        if length is not None:
            return Intent("edge", slots(m.group("who")), params={"edge": None, "inset": length, "measured": None})
    m = _GAP_TO_EDGE.search(s)
    if m:  # "so there's 60px between it and the right side of the banner": that far from that edge
        length = am.first_length(f"{m.group('num')} {m.group('unit')}")
        if length is not None:
            return Intent("edge", slots(s[:m.start()]) or [int(m.group("who")[1:])],
                          params={"edge": m.group("e"), "inset": length, "measured": None})
    m = _SIDE_MARGIN.search(s)
    if m and slots(s[:m.start()]):  # "push the block over to the right so it has the same 50px margin …"
        length = am.first_length(f"{m.group('num')} {m.group('unit')}")
        if length is not None:
            return Intent("edge", slots(s[:m.start()]),
                          params={"edge": m.group("e"), "inset": length, "measured": None})
    m = _ABOVE_EDGE.search(s)
    if m and slots(s[:m.start()]):  # "drop the footer links so the last line sits 10 mm above the bottom of the page"
        length = am.first_length(f"{m.group('num')} {m.group('unit')}")
        if length is not None:
            return Intent("edge", slots(s[:m.start()]), params={"edge": "bottom" if m.group("up") else "top",
                                                                 "inset": length, "measured": None})
    m = _INSET.search(s)
    if not m or not slots(s[:m.start()]) or re.search(r"\baway from\b", s):
        return None
    unit = m.group("unit")
    length = am.first_length(f"{m.group('num')} {unit}")
    if length is None:
        return None
    held = re.match(r" of (E\d+)", s[m.end():])
    if held:  # "… so it sits 20px from the edge of the yellow square": inside that element, from its edge
        way = DIR_RE.search(s[:m.start()])
        edge = m.group("e") or ({"up": "top", "higher": "top", "down": "bottom", "lower": "bottom"}.get(
            way.group("d"), way.group("d").rstrip("wards")) if way else None)
        return Intent("edge", slots(s[:m.start()]), [int(held.group(1)[1:])],
                      params={"edge": edge, "inset": length, "measured": None, "within": True})
    measured = re.search(r"(E\d+) (?:ends?|is|are|sits?|lies|stops?|finishes)\b[^E]*$|\bso (?:that )?(?:E\d+ )*?"
                         r"(E\d+) $", s[:m.start()])
    movers = slots(s[:measured.start()] if measured else s[:m.start()])
    params = {"edge": m.group("e"), "inset": length,
              "measured": int((measured.group(1) or measured.group(2))[1:]) if measured else None}
    return Intent("edge", movers or slots(s[:m.start()]), [params["measured"]] if measured else [], params=params)


_FURTHER_IN = re.compile(r"(?P<num>\d+(?:\.\d+)?) ?(?P<unit>[a-z%]+) (?:further|farther|more) (?:in|inwards?) from "
                         r"the (?P<side>left|right|top|bottom)\b")


def further_in(s: str) -> Intent | None:
    """"… should sit 2mm further in from the left": a move away from that side by that much."""
    m = _FURTHER_IN.search(s)
    length = am.first_length(f"{m.group('num')} {m.group('unit')}") if m else None
    if m is None or length is None or not slots(s[:m.start()]):
        return None
    way = {"left": "right", "right": "left", "top": "down", "bottom": "up"}[m.group("side")]
    lead = re.match(r"(?:(?:move|shift|push|nudge|put|set) )?(?:E\d+ (?:and |& )?)+", s)  # (not "… in the bar")
    return Intent("nudge", slots(lead.group(0)) if lead else slots(s[:m.start()]),
                  params={"moves": [(way, length)], "degree": "medium"})


_MIRRORED = re.compile(r"^(?P<who>(?:E\d+ (?:and )?)+)(?:should |must |needs? to |has to |to )?(?:sit |be |end |start |"
                       r"stop )?(?:the )?same (?:distance|gap|space|margin|amount of space|way) (?:in )?from the "
                       r"(?P<side>left|right|top|bottom)(?: edge| side)?(?: of the (?:page|canvas))? as (?P<ref>E\d+) "
                       r"(?:is|sits|starts|ends|does) (?:in )?from the (?P<other>left|right|top|bottom)(?: edge| side)?"
                       r"(?: of the (?:page|canvas))?(?: please| pls)?$")


def mirrored(s: str) -> Intent | None:
    """A side's margin as another element's on the other side of the page.

    "The url should sit the same distance from the right edge as the title is from the left".
    """
    m = _MIRRORED.search(s)
    if not m:
        return None
    return Intent("edge", slots(m.group("who")), [int(m.group("ref")[1:])],
                  params={"edge": m.group("side"), "mirror": m.group("other")})


__all__ = ["inset", "further_in", "mirrored"]
