"""Patterns of the intents that place elements.

Lock, paint order, swap, overlap, the page, spacing, size matching, alignment, relative places, regions and
nudges, each a function of a clause skeleton (see :mod:`~assistant.instructions.requests.intents` for the order
they are tried in).
"""

from __future__ import annotations

import re

from assistant.instructions.requests import amounts as am
from assistant.instructions.requests.frame import E, Intent, slots, split_at
from assistant.instructions.requests.style import BARE_FROM_TO, FROM_TO, SIZE_TO

_DIRS = {"up": (0, -1), "upward": (0, -1), "upwards": (0, -1), "higher": (0, -1), "raise": (0, -1),
         "lift": (0, -1), "down": (0, 1), "downward": (0, 1), "downwards": (0, 1), "lower": (0, 1),
         "drop": (0, 1), "left": (-1, 0), "leftward": (-1, 0), "leftwards": (-1, 0), "right": (1, 0),
         "rightward": (1, 0), "rightwards": (1, 0)}
DIR_RE = re.compile(r"\b(?P<d>up|upwards?|higher|down|downwards?|lower|left|leftwards?|right|rightwards?)\b")
EDGE_RE = re.compile(r"\b(?P<e>left|right|top|bottom|center|middle|baseline)s?\b")


def _edge_word(skel: str) -> str | None:
    # "postgis.net at the bottom should start at the same left edge as …": where it is, not the edge to align
    placed = re.sub(r"(E\d+) (?:at|on|in|along) the (?:very )?(?:top|bottom|left|right)\b(?! (?:edges?|sides?|of)\b)",
                    r"\1", skel)
    if placed != skel and (edge := _edge_word(placed)) is not None:
        return edge
    # "move for Blinky left till its end lines up with the right side of the title": the edge named as one, not
    # the way it moves
    said = re.search(r"\b(left|right|top|bottom) (?:edges?|sides?)\b", skel)
    if said and re.search(r"\b(?:move|shift|push|pull|slide|nudge|drag|bring|take) (?:E\d+ )+(?:left|right|up|down)\b",
                          skel[:said.start()]):
        return said.group(1)
    m = re.search(r"\b(left|right|top|bottom)(?: edges?| sides?| aligned| align| alignment|s)?\b|"
                  r"\b(baselines?)\b|\b(centers?|centered|middles?)\b", skel)
    if not m:
        return None
    if m.group(1):
        return m.group(1)
    return "baseline" if m.group(2) else "center"


# -- rules ------------------------------------------------------------------------------
#: "lock", "pin", "freeze" said as a verb ("the pin icon", "a lock symbol": a noun, after an article, is none).
_LOCK_VERB = r"(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bthat )(?<!\bthis )(?<!\bmap )\b(?:lock|pin|freeze)\b"


def lock(s: str) -> Intent | None:
    """Lock or unlock: "lock the logo", "keep X where it is", "don't move X", "unlock"."""
    if re.search(r"\b(?:unlock|unpin|unfreeze|free up)\b", s):
        return Intent("lock", slots(s), params={"locked": False})
    if re.search(_LOCK_VERB + r"|"
                 r"\bkeep (?:" + E + r" )+(?:where|in place|as (?:it|they) (?:is|are)|fixed|"
                 r"still|put|unchanged|untouched|locked|exactly)|\b(?:do not|never|not) (?:move|touch|change|shift|"
                 r"edit|mess with)\b|\bleave (?:" + E + r" )+(?:alone|where|as|in place|untouched|unchanged)|" + E +
                 r" (?:should|must|has to|needs to|have to|need to) (?:stay|remain)\b|" + E +
                 r" stays? (?:put|where|in place|fixed)", s):
        keep = not re.search(_LOCK_VERB, s)  # "keep X where it is" holds for the whole request
        return Intent("lock", slots(s), params={"locked": True, "keep": keep})
    return None


#: Words that make "on top of X" a matter of paint order, not of place ("bring the logo on top of the photo").
_STACKING = re.compile(r"\b(?:bring|layer|stack|paint|draw|render|front|forward)\b")


def zorder(s: str) -> Intent | None:
    """Paint order: "bring to the front", "send back", "behind X", "forward one level"."""
    # "send the devil behind the penguin", "bring it in front of the text beside it": just behind or in front of
    # the one named after, not the back or the front of the whole page
    if re.search(r"\b" + _HIDDEN + r"\b", s):
        return None  # "the line is hidden behind the screenshot": a problem of overlap (``separate``)
    if re.search(r"\b(?:not|never|nor)\s+(?:\w+\s+)?(?:behind|in front of|to the back|to the front)\b", s):
        return None  # "…, just not behind the white card": a limit the edit before keeps, not an edit
    beside = re.search(r"\b(?:behind|in front of|on top of)\s+(" + E + r")", s)
    if beside and not re.search(r"\bback (?:in|inside|on)\b", s):
        before = slots(s[:beside.start()])
        if before and not (beside.group(0).startswith("on top") and not _STACKING.search(s)):
            to = "back" if beside.group(0).startswith("behind") else "front"
            return Intent("zorder", before[:1], [int(beside.group(1)[1:])], params={"to": to})
    if re.search(r"\bbehind\b|\bto the (?:very )?back(?:ground)?\b(?! in)|\bto back\b|\bbottom of the stack\b|"
                 r"\bbottom layer\b|\bbackmost\b", s) and not re.search(r"\bback (?:in|inside|on)\b", s):
        return Intent("zorder", slots(s)[:1], params={"to": "back"})
    if re.search(r"\bin front of\b|\bto the (?:very )?front\b|\bto front\b|\bfrontmost\b|\btop of the stack\b|"
                 r"\btop layer\b|\b(?:bring|put|place|move) " + E +
                 r" (?:on top|in front|to the fore)\b(?! of)|\b(?:bring|put|place) " + E +
                 r" on top of\b|\babove everything\b|\bover everything\b", s):
        return Intent("zorder", slots(s)[:1], params={"to": "front"})
    if re.search(r"\b(?:bring|move) " + E + r" forwards?\b|\b(?:up|forward) one (?:level|layer|step)\b", s):
        return Intent("zorder", slots(s)[:1], params={"to": "forward"})
    if re.search(r"\b(?:send|move|push) " + E + r" backwards?\b|\b(?:back|down) one (?:level|layer|step)\b", s):
        return Intent("zorder", slots(s)[:1], params={"to": "backward"})
    return None


def swap(s: str) -> Intent | None:
    """Swap two elements, or the problem that they are in the wrong order."""
    if re.search(r"\b(?:swap|swapped|switch|switched|exchange|interchange|trade places|reverse|flip|transpose|"
                 r"invert|change (?:the )?places?(?: of)?|switch places|swap places)\b", s):
        return Intent("swap", slots(s))
    if re.search(r"\b(?:wrong|reverse|reversed|incorrect|opposite|mixed up) (?:order|way round|way around)\b|"
                 r"\bthe wrong way (?:round|around)\b|\bin the wrong order\b|\bout of order\b", s):
        return Intent("swap", slots(s), state=True)
    return None


#: "is (half) hidden behind", "tucked under": a problem of overlap said from the side of the one covered.
_HIDDEN = (r"(?:half |partly |partially |mostly |a bit |slightly |kind of )?(?:hidden|tucked|buried|lost|stuck|"
           r"trapped)(?: away)? (?:behind|under|underneath|beneath)")
_OVERLAP_VERB = (r"(?:" + _HIDDEN + r"|overlaps?|overlapping|covers?|covering|is on top of|sits on top of|"
                 r"sitting on top of|on top of|sits (?:right |just |directly )?on|"
                 r"sitting (?:right |just |directly )?on|is over|runs (?:straight |right )?into|"
                 r"running (?:straight |right )?into|crashes into|crashing into|bumping into|is bumping|bumping|"
                 r"butting into|bump into|run into|crash into|butt into|collide with|clash with|cut into|"
                 r"collides with|colliding with|clashes with|clashing with|fighting with|fights with|fighting|"
                 r"competing with|competes with|touches|touching|touch|bumps into|hits|hit|"
                 r"hitting|overlap|cover|collide with|"
                 r"crowds|crowding|intrudes on|cuts into|is inside|sits over|is sitting on|is covering|"
                 r"is overlapping|is touching|hides|hiding|obscures|obscuring|blocks|blocking|runs over|"
                 r"bleeds into|overlays|(?:is |are )?(?:dips|dipping|sinks|sinking|creeps|creeping|pokes|poking|"
                 r"reaches|reaching|spills|spilling) (?:down |up )?into)")


def bound(s: str) -> Intent | None:
    """A limit on the edit said before it: "(but) don't let it run into X", "keep it inside X".

    Also "without touching X", "not on top of X", "still inside X", "clear of X".
    The step it makes comes after that edit and puts right only what the edit broke (nothing where the limit
    holds); with no element of its own it is about what the edit before it changed.
    """
    m = re.match(r"(?:do not|does not|not|never|without|no) (?:let(?:ting)?|allow(?:ing)?|have|having) (" + E +
                 r") (?:to )?(?:\w+ )?" + _OVERLAP_VERB + r"(?: with| over)? (?:the (?:left|right|top|bottom|side|"
                 r"edge|end|corner) of )?(" + E + r")$", s)
    if m:
        return Intent("separate", [int(m.group(1)[1:])], [int(m.group(2)[1:])],
                      params={"mover": True, "bound": True})
    m = re.match(r"(?:(?:without|not|never) (?:\w+ )?(?:" + _OVERLAP_VERB + r"|(?:getting|going|moving) (?:over|into|"
                 r"onto))|so (?:" + E + r" )?(?:does|do|will|is|are) not (?:\w+ )?(?:" + _OVERLAP_VERB + r"|touch|"
                 r"(?:get|go|move|run|slip|sit|tuck) (?:over|into|onto|under|underneath|beneath|behind))|"
                 # ("… so it doesnt run under the CC logo", its "so" read as the purpose)
                 r"(?:" + E + r" )?(?:does|do|will|should) not (?:run|slip|sit|go|get|tuck) (?:under|underneath|"
                 r"beneath|behind|into|over))(?: with)? (" + E + r")$", s)
    if m:
        return Intent("separate", [], [int(m.group(1)[1:])], params={"mover": True, "bound": True})
    keep = r"(?:keep(?:ing)?|stays?|staying|still|remains?|remaining|leave|leaving) (?:(" + E + r") )?(?:(?:is|are|" \
        r"sits?|sitting|stays?|staying|remains?) )?(?:fully |wholly |completely |entirely |well |safely |all )?"
    m = re.match(keep + r"(?:on the (?:" + _SHEETS + r") and )?(?:clear of|away from|off) (" + E + r")$", s) or \
        re.match(r"(?:(" + E + r") )?(?:still|also|yet|always) (?:clears|misses) (" + E + r")$", s)
    if m:  # ("… and it still clears the gvSIG Mobile heading")
        return Intent("separate", [int(m.group(1)[1:])] if m.group(1) else [], [int(m.group(2)[1:])],
                      params={"mover": True, "bound": True})
    m = re.match(keep + r"(?:inside|within|in) (" + E + r")(?:'s)?(?: (width|height|edges|sides|bounds|outline))?$",
                 s)
    if m:
        axis = {"width": "x", "height": "y"}.get(m.group(3) or "")  # "within the box's width": across only
        return Intent("inside", [int(m.group(1)[1:])] if m.group(1) else [], [int(m.group(2)[1:])],
                      params={"bound": True, **({"axis": axis} if axis else {})})
    return None


def separate(s: str) -> Intent | None:
    """Overlaps: "X overlaps Y", "fix the overlap", "so it does not cover Y", "move X off Y"."""
    m = re.search(r"\b(?:do not|no longer|does not|not|never|stops?|without|nor)\s+(?:\w+ )?" + _OVERLAP_VERB +
                  r"(?: with)?\b", s)
    if m:
        before, after = split_at(s, m)
        return Intent("separate", before[-1:] or slots(s)[:1], after, params={"mover": bool(before)})
    m = re.search(r"\b(?:move|get|take|pull|shift|push|bring) (" + E + r") (?:off|out from under|out of|"
                  r"clear of|away from|off of) (" + E + r")", s)
    if m:
        return Intent("separate", [int(m.group(1)[1:])], [int(m.group(2)[1:])],
                      params={"mover": True, "or_gap": "away from" in m.group(0)})
    m = re.search(r"(" + E + r")(?: (?:and|&|of) (" + E + r"))? (?:is |are |still |kind of |a bit |slightly |drawn |"
                  r"painted )*" +
                  _OVERLAP_VERB + r"(?: with| each other| one another)?(?: (?:the )?(?:(?:(?:left|right|top|bottom) )?"
                  r"(?:side|edge|end|corner)|bottom|top) of)?(?: (" + E + r"))?", s)
    if m and (m.group(2) or m.group(3)):
        first, other = int(m.group(1)[1:]), int((m.group(3) or m.group(2))[1:])
        return Intent("separate", [first], [other], state=True)
    m = re.search(r"\b(?:fix|remove|resolve|get rid of|sort out|stop|undo|clear|no|avoid|eliminate)\b.*\b(?:overlaps?|"
                  r"overlapping|collisions?|clash(?:es)?|clutter)\b|\boverlaps?\b|\boverlapping\b", s)
    if m:
        found = slots(s)
        return Intent("separate", found[:1], found[1:], params={"any": not found})
    m = re.search(r"\b(?:move|get|take|pull|shift|push) (" + E + r") (?:off|away|clear|out of the way)\b", s)
    if m:
        return Intent("separate", [int(m.group(1)[1:])], [], params={"mover": True, "pending": True})
    return None


#: Words for the sheet a design is on.
_SHEETS = "page|canvas|card|slide|poster|flyer|bookmark|banner|sheet|artboard|postcard|ticket|a[0-6]"


def inside(s: str) -> Intent | None:
    """Off the page: "X is falling off the edge", "bring it back in", "pull it in"."""
    past = re.search(r"(E\d+) (?:\w+ )?(?:sticks?|sticking|pokes?|poking|hangs?|hanging|runs?|running|spills?|"
                     r"spilling|juts?|jutting|goes|going|extends?|extending) (?:out )?(?:past|beyond) (E\d+)"
                     r"(?: on the (?P<side>left|right|top|bottom)(?: hand)?(?: side| edge)?)?$", s)
    if past:  # "the paragraph sticks out past the beige panel on the right": to be kept within it, on that axis
        side = past.group("side")
        return Intent("inside", [int(past.group(1)[1:])], [int(past.group(2)[1:])], state=True, params={
            "bound": True, "axis": None if side is None else "x" if side in ("left", "right") else "y"})
    told = re.match(r"(?:(?:please|pls|just|and|then|so) )*(?:make|get) (E\d+) (?:to )?fit (?:back )?(?:in|inside|"
                    r"within|into) (E\d+)(?: please| pls)?$", s)
    if told:  # "make the paragraph fit inside the beige panel": smaller, until it does
        return Intent("resize", [int(told.group(1)[1:])], [int(told.group(2)[1:])], params={"shrink": True,
                                                                                       "fit": True})
    if re.search(r"\b(?:falling|falls|hanging|hangs|sticking|sticks|poking|pokes|going|goes|spilling|spills|"
                 r"bleeding|bleeds|running|runs|hangs|sits|sitting|cut|cropped|clipped|off|outside|over|past|"
                 r"beyond)\b.*\b(?:off|out|outside|over|past|beyond)\b.*\b(?:edge|page|canvas|margins?|side|border|"
                 r"frame|" + _SHEETS + r")\b|\b(?:is|are|gets?|getting) (?:cut off|clipped|cropped|"
                 r"off the (?:page|edge|canvas)|"
                 r"off page|outside|(?:cut|clipped|cropped)(?: off)? (?:at|on) (?:the )?(?:right|left|top|bottom))\b|"
                 r"\b(?:falling|hanging|sticking|poking) (?:off|out)\b|"
                 r"\btoo close to the (?:(?:left|right|top|bottom) )?(?:edge|border|side)s?\b|"
                 r"\b(?:jammed|pushed|squashed|squeezed|crammed|butting|butted|runs?|"
                 r"running|bumps?|bumping) (?:right )?(?:up )?(?:against|into) the (?:(?:left|right|top|bottom) )?"
                 r"(?:edge|border|side)s?\b|"
                 r"\bout of (?:the )?(?:page|bounds|canvas|frame)\b", s):
        return Intent("inside", slots(s)[:1], state=True)
    if re.search(r"\b(?:bring|pull|move|push|put|get|tuck|nudge|shift|keep) (?:" + E + r" )?"
                 r"(?:back |fully |full |all the way |completely |entirely |wholly )?(?:(?:in|"
                 r"inside|back|back on)(?: (?:again|please|pls|a bit|a little))?$|(?:in|into|onto|on|within|inside) "
                 r"the (?:margins|safe area|frame|" + _SHEETS + r")\b)", s):
        return Intent("inside", slots(s)[:1])
    fit = re.match(r"(?:(?:make|get) (?:" + E + r" )?)?(?:fit|squeeze) (?:" + E + r" )?(?:back )?(?:in|inside)?"
                   r" ?(?P<rest>.*)$", s)
    if fit and (not fit.group("rest") or MARGIN_SAID.fullmatch(fit.group("rest"))):
        # "… runs off the edge — fit it in with ~5mm either side": smaller, as far in from each side as said
        return Intent("resize", slots(s)[:1], params={"shrink": True, "fit": True,
                                                     "margin": margin_said(fit.group("rest"))})
    if re.match(r"(?:make (?:" + E + r" )?)?fit (?:" + E + r" |the whole (?:line|thing|text|word|title) |all of "
                r"(?:" + E + r" |it ))?(?:on|onto|in|into|within|inside) (?:the )?(?:" + _SHEETS + r")\b", s):
        return Intent("inside", slots(s)[:1], params={"fit": True})  # "fit the whole line on the page"
    if re.match(r"(?:" + E + r" )+(?:(?:has|have|needs?) to |should |must |ought to )?(?:is|are|be|fits?|sits?|"
                r"stays?) (?:all |fully |wholly |completely |entirely )?(?:in|on|within|inside) the (?:(?:" + _SHEETS +
                r") )?(?:margins|safe area|" + _SHEETS + r")$", s):
        return Intent("inside", slots(s)[:1])  # "… so the whole word is on the page": a goal
    return None


def distribute(s: str) -> Intent | None:
    """Even spacing: "space evenly", "even out the gaps", "distribute"."""
    gaps = re.fullmatch(r"(?:(?:with|leaving|and|give (?:E\d+ )?) )?(?:about |around |roughly |~)?\d+(?:\.\d+)? ?"
                        r"[a-z%]+ (?:gaps|spaces) between (?:(" + E + r") (?:and |, )?)+(?:please|pls)?", s.strip())
    if gaps and (length := am.first_length(s)) is not None and length.unit != "%":
        # "… are crammed together in the corner - 15px gaps between them": each gap that wide
        return Intent("gap", slots(s), params={"op": "set", "length": length, "many": True})
    if re.search(r"\b(?:distribute|distributed|evenly|equally|uniformly|even out|even up|equalize|equal (?:gaps|"
                 r"spacing|space|distances)|same (?:gap|spacing|space|distance)s? between|consistent (?:gaps|spacing)|"
                 r"regular (?:gaps|spacing)|even (?:gaps|spacing))\b|\b(?:gaps|spacing|spaces|distances) between\b.*"
                 r"\b(?:(?:are|is|look|looks|seem|seems) (?:not|n't) (?:even|equal|the same|consistent|regular)|"
                 r"(?:are|is|look|looks|seem|seems) (?:uneven|unequal|inconsistent|irregular|all over the place|"
                 r"off))\b|"
                 # "… more room above A than above B. make the two gaps match"
                 r"\b(?:the )?(?:two |2 |both |those |these |all (?:the )?)?(?:gaps|spaces|distances) "
                 r"(?:match|equal|the same|even)\b|"
                 # "the questions under Thrust 4 are unevenly spaced", "make the gaps between them equal"
                 r"\b(?:unevenly|irregularly|inconsistently|randomly|oddly) spaced\b|"
                 r"\b(?:gaps|spaces|spacing|distances) between E\d+ (?:equal|even|the same|consistent|regular)\b",
                 s) and not re.search(
                 r"\b(?:width|height|size|wide|tall)\b", s):
        axis = ("horizontal" if re.search(r"\bhorizontal(?:ly)?\b|\bacross\b|\bside by side\b|\bin a row\b", s)
                else "vertical" if re.search(r"\bvertical(?:ly)?\b|\bdown the page\b|\bin a column\b", s) else None)
        length = am.first_length(s)
        if length is not None and length.unit != "%" and re.search(r"\b(?:gaps?|apart|spacing|space|between)\b", s):
            # "space the three partner logos evenly, 6mm gaps": even, and that wide
            return Intent("gap", slots(s), params={"op": "set", "length": length, "many": True})
        return Intent("distribute", slots(s), params={"axis": axis})
    return None


_SPACE = (r"(?:space|spacing|room|air|breathing room|breathing space|gap|gaps|distance|padding|whitespace|hole|"
          r"white space|margin|gutter)")


#: "The gap between A and B is a bit tight": what is wrong with a gap, and so which way to mend it.
_GAP_JUDGED = re.compile(r"\b" + _SPACE + r" between (E\d+) and (E\d+) (?:is|are|looks?|seems?|feels?) (?:a (?:bit|"
                         r"little|touch|tad) |too |quite |rather |very |really |way |kind of |somewhat |a bit too )*"
                         r"(?P<w>tight|small|narrow|cramped|close|short|little|big|large|wide|loose|much|huge|"
                         r"generous)\b")


#: "The gap above the Standards section is way bigger than …": what is wrong with the room on one side of one element.
_GAP_SIDE_JUDGED = re.compile(r"\b" + _SPACE + r" (?P<rel>above|below|under|beneath|underneath|before|after|over|"
                              r"around) (E\d+) (?:is|are|looks?|seems?|feels?) (?:a (?:bit|little|touch|tad) |too |"
                              r"quite |rather |very |really |way |kind of |somewhat |a bit too |much )*"
                              r"(?P<w>tight|small|smaller|narrow|cramped|close|short|little|big|bigger|large|larger|"
                              r"wide|wider|loose|much|huge|generous|double|twice)\b")


#: "between the bottom of the logo and …": the side of an element a gap is measured from.
_SIDE_OF = r"(?:the (?:bottom|top|left|right|base|foot)(?: edge| side)? of )?"


#: Verbs that scale a gap ("halve the gap between …").
_TIMES = {"halve": 0.5, "double": 2.0, "triple": 3.0}


#: "X starts further right than Y does": their starts (or ends) are not level, which is no matter of room.
_STARTS_OFF = re.compile(r"(E\d+) (?:starts?|begins?|ends?|stops?|finishes|sits?|is|are|"
                         r"(?P<reach>(?:pokes?|sticks?|juts?|hangs?) out|extends?|reaches|goes|runs)) "
                         r"(?:a bit |slightly |a little |way |much |quite a bit )?(?:further|farther|more) "
                         r"(?P<d>left|right|up|down) than (?P<ref>E\d+)"
                         r"(?: (?:does|do|is|are|starts?|begins?|ends?))?")


#: "make the gap 30px", "set the space under the title to 30px", "30px gap under X", "the gap under X should be 30px".
_GAP_TOLD = re.compile(r"^(?:(?:make|set|change|keep|have|want|need|would like|like|please|pls) )*"
                       r"(?:the |that |this |a |an )?(?:about |around |roughly |~|exactly |just )?"
                       r"(?:\d+(?:\.\d+)? ?[a-z%]+ )?(?:gap|space|"
                       r"spacing|room|distance|whitespace|padding|air)(?: (?P<rel>under|below|beneath|underneath|above|"
                       r"over|after|before) (?P<e>E\d+))?(?: (?:to|at|of|=|should be|is|must be|needs to be|of about|"
                       r"to about|to around))?(?: (?:about|around|roughly|~|exactly|just))?(?: \d+(?:\.\d+)? ?[a-z%]+)?"
                       r"(?: please| pls| instead| max| tops| or so| ish)*$")


def gap(s: str) -> Intent | None:
    """Spacing between two elements: more or less room, a set gap, closer, further, too far apart."""
    if _STARTS_OFF.search(s):
        return None
    length = am.first_length(s)
    told = _GAP_TOLD.search(s)
    if told and length is not None and length.unit != "%":
        # "make the gap 30px" (after a problem that names the two), "set the gap under the title to 30px"
        rel = told.group("rel")
        patients = [int(told.group("e")[1:])] if told.group("e") else []
        return Intent("gap", patients, params={"op": "set", "length": length,
                                                **({"rel": rel} if rel else {"rel": "between"})})
    bare = re.search(r"\b(?:there is|there are|theres|there s|we have|we get|leaving|leave|to have|have|with|for) "
                     r"(?:just |only |exactly |about |around |roughly |approximately |like |say |maybe |~)?"
                     r"\d+(?:\.\d+)? ?[a-z%]+ (?:of " + _SPACE + r" )?between (" + E + r") and (" + E + r")$", s)
    # ("… pull the name up so there's like 20px between them": those two, said as one)
    # ("… - 20px gap between them please": the room said, no verb)
    bare = bare or re.fullmatch(r"(?:a |an )?(?:about |around |roughly |~)?\d+(?:\.\d+)? ?[a-z%]+ (?:of )?(?:gap|space|"
                                r"room|air|spacing) between (" + E + r")(?: and (" + E + r"))?(?: please| pls)?", s)
    bare = bare or re.fullmatch(r"(?:there is|there are|theres|there s|(?:i )?(?:want|need|would like|like|prefer)) "
                                r"(?:just |only |exactly |about |around |roughly "
                                r"|approximately |like |say |maybe |~)?\d+(?:\.\d+)? ?[a-z%]+ (?:of " + _SPACE +
                                r" )?between(?: (" + E + r"))?", s)
    times = re.search(r"\b(?P<v>halve|double|triple|cut|shrink|reduce) (?:the |that |this )?" + _SPACE +
                      r" between (" + E + r") and (" + E + r")(?: in half| by half)?(?: please| pls)?$", s)
    if times and (times.group("v") in _TIMES or re.search(r"\b(?:in|by) half\b", s)):
        # "halve the gap between the title and the name": that share of it
        return Intent("gap", [int(times.group(2)[1:]), int(times.group(3)[1:])], params={
            "op": "set", "rel": "between", "length": None, "times": _TIMES.get(times.group("v"), 0.5)})
    if bare and length is not None:  # "… up so there's just 15px between the last feature and that heading"
        return Intent("gap", [int(g[1:]) for g in bare.groups() if g], params={
            "op": "set", "rel": "between", "length": length})
    pressed = re.search(r"(" + E + r") (?:is |are |feels? |looks? |seems? |sits? )?(?:\w+ )?(?:jammed|crammed|squashed|"
                        r"squeezed|pressed|butted|glued|stuck|mashed|tight)(?: right| hard)?(?: up)? (?:against|to|"
                        r"into|onto|on|next to|under|below|beneath|underneath|above|over) (" + E + r")$", s)
    if pressed:  # "2018 is jammed right up against DConf": a gap too small, which a later clause may set
        return Intent("gap", [int(pressed.group(1)[1:])], [int(pressed.group(2)[1:])], state=True, params={
            "op": "more", "rel": "between", "length": None, "degree": am.degree(s)})
    scant = re.search(r"\b(?:barely|hardly|scarcely|not much|not enough|almost no|very little|little|no) (?:any )?"
                      r"(?:room|space|gap|air|breathing room) (?:left )?between (" + E + r") and (" + E + r")$", s)
    if scant:  # "there's barely any room between MultiROM and the tagline": a gap too small, which may be set next
        return Intent("gap", [int(scant.group(1)[1:]), int(scant.group(2)[1:])], state=True, params={
            "op": "more", "rel": "between", "length": None, "degree": am.degree(s)})
    judged = re.match(r"(?:there is |there are |theres |there s )?(?:a |an |way too |too )?(?:really |very )?"
                      r"(?P<w>big|huge|massive|large|giant|wide|enormous|awkward|tiny|small|narrow) " + _SPACE +
                      r" between (" + E + r") and (" + E + r")$", s)
    if judged:  # "big hole between Overview and Core Features": a gap too big (or too small), which may be set next
        return Intent("gap", [int(judged.group(2)[1:]), int(judged.group(3)[1:])], state=True, params={
            "op": "more" if judged.group("w") in ("tiny", "small", "narrow") else "less", "rel": "between",
            "length": None, "degree": am.degree(s)})
    unequal = re.search(r"\b(?:more|less|bigger|smaller|wider|less|extra) " + _SPACE + r" (?P<rel>above|below|under|"
                        r"over|after|before) (" + E + r") than (?:above |below |under |over |after |before )?(" + E +
                        r")$", s)
    if unequal:  # "there's more room above Software Foundation than above Open Geospatial": gaps to even out
        rel = unequal.group("rel")
        return Intent("distribute", [int(unequal.group(2)[1:]), int(unequal.group(3)[1:])], state=True,
                      params={"axis": "vertical" if rel in ("above", "below", "under", "over") else "horizontal",
                              "side": {"over": "above", "under": "below"}.get(rel, rel)})
    side_judged = _GAP_SIDE_JUDGED.search(s)
    if side_judged:  # a problem, which the clause before or after may mend ("… up 10px, the gap above it is too big")
        op = "more" if side_judged.group("w") in ("tight", "small", "smaller", "narrow", "cramped", "close", "short",
                                                   "little") else "less"
        return Intent("gap", [int(side_judged.group(2)[1:])], state=length is None, params={
            "op": "set" if length is not None else op, "rel": side_judged.group("rel"), "length": length,
            "degree": am.degree(s)})
    judged = _GAP_JUDGED.search(s)
    if judged:  # a problem, which the next clause may mend ("…, make it 30px")
        op = "more" if judged.group("w") in ("tight", "small", "narrow", "cramped", "close", "short", "little") \
            else "less"
        return Intent("gap", [int(judged.group(1)[1:]), int(judged.group(2)[1:])], state=length is None, params={
            "op": "set" if length is not None else op, "rel": "between", "length": length, "degree": am.degree(s)})
    m = re.search(r"\b(?:more|extra|bigger|larger|increase|add|widen|open up|loosen|some|a little|a bit of|"
                  r"a touch of)\b.*\b" + _SPACE +
                  r"\b.*?\b(?P<rel>under|below|beneath|underneath|after|above|over|before|between|around)\b|"
                  r"\b" + _SPACE + r"\b.*\b(?:bigger|larger|wider)\b", s)
    less = re.search(r"\b(?:less|reduce|smaller|tighten|tighter|close|closer|shrink|decrease|narrow|remove|cut|"
                     r"minimize)\b.*\b" + _SPACE + r"\b.*?\b(?P<rel>under|below|beneath|underneath|after|above|over|"
                     r"before|between|around)\b|\btighten\b(?!(?: E\d+)? (?:up )?(?:to )?(?:about |around |~)?"
                     r"\d+(?:\.\d+)? ?[a-z]* (?:wide|tall|high|across)\b)|\b" + _SPACE +
                     r"\b.*\b(?:smaller|tighter|narrower)\b", s)
    rel_m = m or less
    given = re.search(r"\b(?:give|leave|add)\s+(" + E + r") (?:a |an )?(?:(?:little|bit|touch|tad) )?(?:more |some |"
                      r"extra |"
                      r"bit of |bit more |little more |touch more |touch of )?(?:(?:about |around |at least |~)?"
                      r"\d+(?:\.\d+)? ?[a-z]+ (?:of )?(?:more |extra )?)?(?:room|breathing room|breathing space|air|"
                      r"space|clearance|gap) (?:away )?(?:from|to|off) (" + E + r")(?: please| pls)?$", s)
    if given:  # "give the name some breathing room from the blue line": more room between those two, the first moves
        return Intent("gap", [int(given.group(1)[1:]), int(given.group(2)[1:])], params={
            "op": "set" if length is not None else "more", "rel": "between", "length": length,
            "degree": am.degree(s)})
    alone = re.search(r"\b(?:give|leave|add|need|needs|want)\b.*\b(?:more |some |a (?:little |bit (?:of )?)?)?"
                      r"(?:room|breathing room|breathing space|air|space)\b", s)
    if alone and not rel_m and len(slots(s)) == 1:  # "give the button a little breathing room"
        return Intent("gap", slots(s), params={"op": "more", "rel": "around", "length": length,
                                                "degree": am.degree(s)})
    many = re.match(r"^(?:\w+ )?(E\d+)(?: (?:are|is|look|looks|seem|seems))? ", s + " ")
    if length is not None and re.search(r"\b" + _SPACE + r"\b|\bapart\b", s) and len(slots(s)) == 1 and many and \
            not FROM_CORNER.search(s):  # ("give it 8px of margin on the right and bottom": from the corner)
        return Intent("gap", slots(s), params={"op": "set", "length": length, "many": True})
    side = re.search(r"\b(?:there is|there are|leaving|leave|with|to have|have)\b[^E]*\b(?:" + _SPACE +
                     r" )?(?P<rel>under|below|beneath|underneath|above|over|after|before) (" + E + r")", s)
    if side and length is not None and not rel_m:  # "… so there is a 20px gap under the authors"
        return Intent("gap", [int(side.group(2)[1:])], params={"op": "set", "rel": side.group("rel"),
                                                               "length": length})
    if rel_m and slots(s):
        rel = rel_m.groupdict().get("rel") if rel_m.groupdict().get("rel") else "between"
        found = slots(s)
        if rel in ("under", "below", "beneath", "underneath", "above", "over") and len(found) == 2 and re.search(
                r"\b(?:" + rel + r") E" + str(found[1]) + r"\b", s):
            # "give the top title more air under the logos": the room between the two, the one given it moves
            op = "more" if m and not less else "less"
            return Intent("gap", found[:1], found[1:], params={"op": op, "rel": "between", "length": length,
                                                             "degree": am.degree(s), "movers": found[:1],
                                                             "side": rel})
        op = "more" if m and not less else "less"
        if length is not None and re.search(r"\d+(?:\.\d+)? [a-z%]+(?: please| pls)?$", s) and not re.search(
                r"\b(?:by|add|another|extra|additional)\b|\d+(?:\.\d+)? [a-z%]+ (?:more|less|extra)\b", s):
            op = "set"  # "more space between A and B, 4mm": the gap it should be (not "4mm more")
        return Intent("gap", found[:1] if rel != "between" else found, params={
            "op": op, "rel": rel, "length": length, "degree": am.degree(s)})
    m = re.search(r"\b(?:set|make|change)? ?(?:the )?" + _SPACE + r" between (" + E + r") and (" + E + r")"
                  r"(?: (?:to|of|at|be))? ?(?P<num>\d+(?:\.\d+)? \w+)?", s)
    if m and length is not None:
        return Intent("gap", [int(m.group(1)[1:]), int(m.group(2)[1:])], params={"op": "set", "length": length})
    m = re.search(r"\b(?:space|put|place|keep|set)\b.*\b(" + E + r") and (" + E + r")\b.*\bapart\b|"
                  r"\b(?:put|leave|make|set|keep|add|want|need|give|allow)\b[^E]*\bbetween " + _SIDE_OF + r"(" + E +
                  r") and " + _SIDE_OF + r"(" + E + r")\b", s)
    if m and length is None and re.search(r"\b(?:want|need|put|leave|allow)\b \d+(?:\.\d+)? between\b", s):
        length = am.first_length(s, bare=True)  # "I want 25 between the bottom of the logo and Feedback"
    if m and length is not None:
        a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        more = re.match(r"(?:(?:please|pls|just|and|then) )*add\b", s)  # "add 2 mm between A and B": that much more
        return Intent("gap", [int(a[1:]), int(b[1:])], params={"op": "more" if more else "set", "length": length,
                                                               "rel": "between"})
    m = re.match(r"(?:(?:exactly|just|about|around|roughly|only|a|an) )*\d+(?:\.\d+)? [a-z%]+ (?:of )?(?:(?:space|gap|"
                 r"room|air) )?between (" + E + r") and (" + E + r")(?: please| pls)?$", s)
    if m and length is not None:  # "twenty px between the rocket and DConf": that gap
        return Intent("gap", [int(m.group(1)[1:]), int(m.group(2)[1:])], params={"op": "set", "length": length})
    m = re.search(r"\b(?P<v>put|leave|make|set|keep|add|want|need|give|allow)\b[^E]*\bbetween (" + E + r")$", s)
    if m and length is not None:  # "… jammed together; leave about 3 mm between them" ("add 4mm": that much more)
        return Intent("gap", [int(m.group(2)[1:])], params={"op": "more" if m.group("v") == "add" else "set",
                                                            "length": length})
    # "X and Y are too far apart": a problem, which a later clause may say how to mend ("…; leave 3 mm between them")
    said = bool(re.match(r"(?:E\d+ (?:and )?)*(?:is|are|look|looks|seem|seems|feel|feels|sit|sits|floats?|hangs?|"
                         r"hovers?|drifts?|lies|lie|stands?|ends? up|too)\b", s))  # ("…, is too close to X": why)
    # "move the logo and the text up together by 1cm": as one, not closer
    as_one = re.search(r"\b(?:up|down|left|right|higher|lower|across|over)(?: by)?(?: (?:about|around|roughly|~))?"
                       r"(?: [\d.]+ ?[a-z%]+)? together\b|\btogether (?:by|up|down|left|right|with)\b|"
                       # ("centred on the title + subtitle together": taken as one)
                       r"\b(?:on|with|to|under|over|between|as (?:wide|tall|high|long|big) as) (?:E\d+ (?:and )?)+"
                       r"together\b|"
                       # ("title + tagline together should be vertically centred on the circle": the two as one)
                       r"^(?:E\d+ (?:and )?)+together (?:should|must|need|needs|have to|has to|ought to|as one)\b", s)
    if re.search(r"\btoo (?:far|distant)(?: apart| away| from)?\b|\btoo much " + _SPACE + r"\b|\bcloser\b|\bnearer\b|"
                 r"\btogether\b|\btowards?\b", s) and slots(s) and not (said and re.search(r"\btogether\b", s)) and \
            not as_one:
        # ("move the text 40px closer to the logo": that far, as said, even where less room is left)
        moved = length is not None and bool(re.search(r"\b(?:move|shift|nudge|bring|slide|push|pull|scoot|drag)\b", s))
        # ("… too far apart, 15px gaps between them": that gap)
        return Intent("gap", *_pair(s), params={"op": _op_said(s, length, "less"), "length": length,
                                                "degree": am.degree(s), **({"moved": True} if moved else {})},
                      state=said)
    if said and re.search(r"\b(?:jammed|squashed|squished|crammed|stuck|packed|bunched|squeezed) (?:up )?together\b",
                          s):
        return Intent("gap", *_pair(s), params={"op": _op_said(s, length, "more"), "length": length,
                                                "degree": am.degree(s)}, state=True)
    if re.search(r"\btoo close\b|\b(?:a bit|a little|a tad|rather|quite|very|kind of|kinda|really|pretty|awfully|so|"
                 r"uncomfortably) close (?:to|under|above|below|against|beside)\b|\bfurther\b|\bfarther\b|"
                 r"\bmore distance\b|\bapart\b|\baway from\b|\btoo tight\b|"
                 r"\bcramped\b|\bcrowded\b|\bsquashed\b|\bsquished\b", s) and slots(s) and not re.search(
                 r"\btoo close to the (?:edge|border|side)s?\b|\baway from the (?:left|right|top|bottom)", s):
        # ("… are cramped together - 20px gaps between them": that gap)
        return Intent("gap", *_pair(s), params={"op": _op_said(s, length, "more"), "length": length,
                                                "degree": am.degree(s)}, state=said)
    return None


def _op_said(s: str, length: am.Length | None, otherwise: str) -> str:
    """"set" where the length said is the gap to have ("… 15px gaps between them"), else ``otherwise``."""
    return "set" if length is not None and re.search(r"\d ?[a-z%]+ (?:gaps?|spacing|of space)\b", s) else otherwise


def _pair(s: str) -> tuple[list[int], list[int]]:
    m = re.search(r"\b(?:to|from|towards?|and|with|of|near)\s+(" + E + r")", s)
    found = slots(s)
    if m and found and int(m.group(1)[1:]) != found[0]:
        ref = int(m.group(1)[1:])
        return [n for n in found if n != ref], [ref]
    return found[:1], found[1:]


#: "the two blocks don't start at the same height": where they start, their tops, not how tall they are.
_SAME_START = re.compile(r"\b(?:start|starts|begin|begins|starting|beginning|top out) (?:at|on) (?:the )?same "
                         r"(?:height|level|line)\b")


def match(s: str) -> Intent | None:
    """Sizes taken from another element ("as wide as Y", "the same height as Y") or the page ("fill the width")."""
    if _SAME_START.search(s):
        return Intent("align", slots(s), params={"edge": "top", "page": False})
    m = re.search(r"\b(?:(?P<n>\d+(?:\.\d+)?) (?:%|percent) (?:of )?|(?P<w>half|twice|double|a third of|a quarter of|"
                  r"three quarters of) )the (?P<d>size|width|height) of (?P<e>" + E + r")", s)
    if m and [n for n in slots(s[:m.start()]) if n != int(m.group("e")[1:])]:
        # "make the second one about 80 % the size of the top one": a share of the other's size ("double the size
        # of the heading" names no other: it grows)
        share = float(m.group("n")) / 100 if m.group("n") else {
            "half": 0.5, "twice": 2.0, "double": 2.0, "a third of": 1 / 3, "a quarter of": 0.25,
            "three quarters of": 0.75}[m.group("w")]
        ref = int(m.group("e")[1:])
        return Intent("match", [n for n in slots(s) if n != ref], [ref], params={
            "dimension": {"width": "width", "height": "height"}.get(m.group("d"), "both"), "factor": share})
    m = re.fullmatch(r"(?:(?:and|so|say|maybe|like|about|around|roughly|approx|~) )*(?P<n>\d+(?:\.\d+)?) (?:%|percent) "
                     r"of (?P<e>E\d+)(?:'s)? (?P<d>width|height|size)(?: please| pls)?", s)
    if m:  # "CERTIFICATE should be much bigger, about 60% of the band's width": that share of the other's width
        return Intent("match", [], [int(m.group("e")[1:])], params={
            "dimension": {"width": "width", "height": "height"}.get(m.group("d"), "both"),
            "factor": float(m.group("n")) / 100})
    m = re.search(r"\b(?:be|is|are|exactly|just|precisely|make(?: " + E + r")?|to) the (?P<d>size|width|height) of "
                  r"(?P<e>" + E + r")", s)
    if m and [n for n in slots(s[:m.end("d")]) if n != int(m.group("e")[1:])]:  # "X should be exactly the size of Y"
        ref = int(m.group("e")[1:])
        return Intent("match", [n for n in slots(s[:m.end("d")]) if n != ref], [ref],
                      params={"dimension": {"width": "width", "height": "height"}.get(m.group("d"), "both")})
    m = re.search(r"\bas (?P<w>wide|tall|big|large|high|long|narrow|short|small|tiny|huge) as (?P<e>" + E + r")", s)
    if m:
        dim = {"wide": "width", "narrow": "width", "long": "width", "tall": "height", "high": "height",
               "short": "height"}.get(m.group("w"), "both")
        together = re.match(r"(?: (?:and|,) E\d+)+ together\b", s[m.end():])  # "as wide as DConf + 2018 together"
        return Intent("match", slots(s[:m.start()]), [int(m.group("e")[1:])] + (
            slots(together.group(0)) if together and dim != "both" else []), params={"dimension": dim})
    m = re.search(r"\b(?:start|starts|begin|begins|sit|sits|be|is|are|placed|put)? ?at the same (?:height|level|"
                  r"vertical position|y) as (?P<e>" + E + r")|\b(?:drop|raise|lift|lower|move|bring|put|set|shift|"
                  r"push|pull|nudge|take)\b(?: " + E + r")+ (?:up |down )?to the same (?:height|level|vertical "
                  r"position|y) as (?P<e2>" + E + r")", s)
    if m:  # "start at the same height as Y" is a place, not a size: the tops level
        # ("drop it to the same height as 'Neznámkujeme'": a move to that height too)
        ref = int((m.group("e") or m.group("e2"))[1:])
        return Intent("align", [n for n in slots(s) if n != ref], [ref], params={"edge": "top", "page": False})
    m = re.search(r"\bsame (?:(?P<type>font|text|type|point|letter) )?(?P<w>width|height|size|length)\b"
                  r"(?: as (?P<e>" + E + r"))?", s)  # ("the same text size as the credit": its type's, as a text's)
    if m:
        dim = {"width": "width", "length": "width", "height": "height"}.get(m.group("w"), "both")
        if m.group("e"):
            ref = int(m.group("e")[1:])
            return Intent("match", [n for n in slots(s) if n != ref], [ref], params={"dimension": dim})
        found = slots(s)  # "X and Y the same width"; "the two photos should be the same width": one of them
        return Intent("match", found[:-1] or found, found[-1:] if len(found) > 1 else [], params={"dimension": dim})
    m = re.search(r"\bmatch (?:the )?(?P<w>width|height|size)(?: of)? (?P<a>" + E + r") (?:to|with) (?P<b>" + E + r")|"
                  r"\bmatch (?P<a2>" + E + r")(?:'s| to| with)? (?:the )?(?P<w2>width|height|size)? ?(?:of |to |with )?"
                  r"(?P<b2>" + E + r")", s)
    if m:
        dim = {"width": "width", "height": "height"}.get(m.group("w") or m.group("w2") or "", "both")
        a, b = (m.group("a") or m.group("a2")), (m.group("b") or m.group("b2"))
        return Intent("match", [int(a[1:])], [int(b[1:])], params={"dimension": dim})
    m = re.search(r"(?P<a>" + E + r") (?:should |to )?(?:match|matches) (?:the )?(?:(?P<w>width|height|size) of )?"
                  r"(?P<b>" + E + r")(?:'s)?(?: (?P<w2>width|height|size))?", s)
    if m:  # "make wi-fi match mesh", "the photo should match the map's width"
        dim = {"width": "width", "height": "height"}.get(m.group("w") or m.group("w2") or "", "both")
        return Intent("match", [int(m.group("a")[1:])], [int(m.group("b")[1:])], params={"dimension": dim})
    m = re.search(r"\b(?:fill|fills|span|spans|stretch(?:es)? (?:across|over)?|take up|cover|across|run across)"
                  r" (?:the )?(?:whole |full |entire )?(?P<w>width|height)\b|\bfull (?P<w2>width|height)\b|"
                  r"\b(?P<bleed>full bleed|edge to edge|to the (?:page |canvas )?edges|from edge to edge)\b|"
                  r"\b(?:fill|fills) (?:the )?(?:whole |entire )?(?:page|canvas|slide|card)\b|"
                  r"\b(?P<cover>covers?|covering) (?:the )?(?:whole |entire |full )(?:page|canvas|slide|card|"
                  r"background)\b", s)
    if m and re.search(r"\bcenter(?:ed|ing)?\b", s) and not m.group("bleed"):
        return None  # "centre the logo across the width of the bookmark": centred on that axis, not stretched
    if m and re.match(r"(?:E\d+ )+(?:[a-z]+ )?(?:goes|go|runs|run|spans|span|stretches|reaches|extends|is|are|sits|"
                      r"already)\b",
                      s) and not re.search(r"\b(?:should|must|make|needs? to|has to|have to|so)\b", s):
        return None  # "the title goes edge to edge": how it is now, said before what to do about it
    if m:
        dim = m.group("w") or m.group("w2") or ("both" if m.group("cover") else "width")
        params = {"dimension": dim, "bleed": bool(m.group("bleed") or m.group("cover"))}
        inset = margin_said(s)
        if inset is not None:  # "… the full width of the bookmark inside 2mm margins": that far from each edge
            params["margin"] = inset
        return Intent("fill", slots(s)[:1], params=params)
    m = re.search(r"\b(?:stretch|extend|run|runs|reach|reaches|goes|go)\b.*\bfrom (?:the )?(?:very )?(?P<a>top|left)"
                  r"(?: edge)?(?: of (?:the )?(?:page|canvas|slide|card|poster|flyer))? (?:all the way )?to (?:the )?"
                  r"(?:very )?(?P<b>bottom|right)\b", s)
    if m and (m.group("a"), m.group("b")) in (("top", "bottom"), ("left", "right")):
        # "stretch the line so it goes from the top of the card to the bottom": the page's whole height
        return Intent("fill", slots(s)[:1], params={"dimension": "height" if m.group("a") == "top" else "width",
                                                    "bleed": True})
    return None


#: "The margins on the left and right match", "equal top and bottom margins": the content centred between them.
_MARGINS_EVEN = re.compile(r"\bmargins? (?:on |at )?(?:the )?(?:(?P<h>left and (?:the )?right|right and (?:the )?left)|"
                           r"top and (?:the )?bottom|bottom and (?:the )?top)\b.*\b(?:match|matches|equal|the same|"
                           r"even|balanced)\b|\b(?:equal|same|matching|even|balanced) (?:(?P<h2>left and right|right "
                           r"and left|side)|top and bottom) margins\b")
#: A margin said with a length: "inside the 2mm margins", "with 10px either side", "leaving 5 mm at each side".
MARGIN_SAID = re.compile(r"(?:\b(?:inside|within|with|leaving|leave|keeping|keep|minus|less)(?: (?:the|a|an))? )?"
                         r"(?:(?:roughly|about|around|approximately|approx|some|~) )?"
                         r"\b(?P<len>[\d.]+ ?[a-z%]+) (?:clear |free |spare |of (?:space|room|clearance) )?"
                         r"(?:(?:side )?margins?|gutters?|inset|"
                         r"(?:on |at |to )?(?:each|either|both) sides?|(?:on )?(?:the )?sides)\b")


def margin_said(s: str) -> am.Length | None:
    """The margin a clause says with a length (see ``MARGIN_SAID``), or None."""
    m = MARGIN_SAID.search(s)
    return am.first_length(m.group("len")) if m else None


def align(s: str) -> Intent | None:
    """Alignment and centring: "align", "line up", "flush", "level with", "centre"."""
    m = re.search(r"(" + E + r") (?:should |must |needs? to |has to |ought to )?(?P<v>start|starts|begin|begins|end|"
                  r"ends|finish|finishes|stop|stops) (?:where|at the same (?:x|place|point) as) (" + E + r")(?: (?:"
                  r"starts|begins|ends|finishes|stops|does))?(?: (?:underneath|below|above|beneath|over|under) ?(?:it|"
                  r"them)?)?$", s)  # ("… at the same x as naucse.python.cz underneath": where that one is)
    if m:  # "'Petr Viktorin' should start where the Red Hat logo starts": their left edges level
        edge = "left" if m.group("v").startswith(("start", "begin")) else "right"
        return Intent("align", [int(m.group(1)[1:])], [int(m.group(3)[1:])], params={"edge": edge, "page": False},
                      state=True)
    m = re.search(r"((?:E\d+ (?:, )?(?:and )?)*" + E + r")(?: (?:up|down) (?:top|here|there|below|above)| (?:at|on|in) "
                  r"the (?:very )?(?:top|bottom|left|right|middle))? (?:should |must |needs? to |has to |"
                  r"ought to )?(?:share|shares|have|has) (?:E\d+ |a |the same |the |one )?(?P<e>left|right|top|"
                  r"bottom) edge (?:with|as|of) (" + E + r")", s)
    if m:  # "OSGeo logo up top should share its right edge with the laptop picture": that edge level with the other's
        return Intent("align", slots(m.group(1)), [int(m.group(3)[1:])], params={"edge": m.group("e"), "page": False})
    m = re.fullmatch(r"(E\d+) (?:sits?|is|are|looks?|seems?|feels?|hangs?) (?:a bit |a little |too |rather |quite |"
                     r"way |slightly |kind of |kinda )?(?P<w>high|low|left|right|to the left|to the right|"
                     r"off cent(?:er|re)|"
                     r"off center) (?:in|inside|within) (E\d+)", s)
    if m:  # "the placeholder text sits high in the dashed rectangle": off the middle of what holds it
        axis = "y" if m.group("w") in ("high", "low") else "x" if "cent" not in m.group("w") else None
        return Intent("center", [int(m.group(1)[1:])], [int(m.group(3)[1:])], params={"axis": axis}, state=True)
    m = re.fullmatch(r"(?:the |their |its )?(?P<e>tops|bottoms|top edges|bottom edges|left edges|right edges|lefts|"
                     r"rights|baselines) (?:match|line up|are level|align|are aligned|are even|are the same)"
                     r"(?: please| pls)?", s)
    if m:  # "drop it so the tops match": that edge level with what the problem named
        edge = {"tops": "top", "bottoms": "bottom", "lefts": "left", "rights": "right", "baselines": "baseline"}.get(
            m.group("e"), m.group("e").split()[0])
        return Intent("align", [], params={"edge": edge, "page": False})
    m = _STARTS_OFF.search(s)
    if m:  # "the multiboot text starts further right than MultiROM does": their left edges are not level
        ends = re.search(r"\b(?:ends?|stops?|finishes)\b", m.group(0))
        edge = {"up": "top", "down": "top"}.get(m.group("d"), "right" if ends else "left")
        if m.group("reach"):  # "the credit pokes out further right than everything else": its right edge is off
            edge = {"up": "top", "down": "bottom"}.get(m.group("d"), m.group("d"))
        return Intent("align", [int(m.group(1)[1:])], [int(m.group("ref")[1:])], params={"edge": edge, "page": False},
                      state=True)
    m = re.search(r"((?:E\d+ (?:, )?(?:and )?)*" + E + r") (?:should |must |need to |needs? to |have to |has to |"
                  r"ought to |all |both |then )?(?:share|have|sit on|start on|end on) (?:a |the same |one |a common )"
                  r"(?P<e>left|right|top|bottom) (?:edge|side|line)\b(?! (?:with|as|of)\b)", s)
    if m:  # "the tagline and MultiROM should share a left edge", "… so they share a left edge": level on it
        return Intent("align", slots(m.group(1)), params={"edge": m.group("e"), "page": False})
    m = re.search(r"^(?:the )?(?P<e>left|right|top|bottom) (?:edges?|sides?) of ((?:E\d+ (?:, )?(?:and )?)*" + E +
                  r") (?:should |must |needs? to |has to |ought to )?(?:match|matches|equal|equals|line up with|"
                  r"lines up with|be level with|sit level with) (?:the |E\d+ )?(?P=e) (?:edges?|sides?) of "
                  r"(" + E + r")", s)
    if m:  # "left edge of the subtitle should match the left edge of arduicioles": that edge on the other's
        return Intent("align", slots(m.group(2)), [int(m.group(3)[1:])], params={"edge": m.group("e"), "page": False})
    m = re.match(r"(?:the )?(?P<e>left|right|top|bottom) (?:edges?|sides?) of ((?:E\d+ (?:, )?(?:and |& )?)+)"
                 r"(?:should |must |need to |needs to |have to )?(?:match|line up|be level|be aligned|align|"
                 r"be the same|are not level|do not match|are off)\b", s)
    if m and len(slots(m.group(2))) >= 2:  # "right edges of MultiROM and the tagline should match": level
        return Intent("align", slots(m.group(2)), params={"edge": m.group("e"), "page": False})
    m = re.search(r"(" + E + r")(?: (?:at |in |on )?(?:the )?(?:top|bottom|left|right)(?: left| right)?)? and (" + E +
                  r") (?:should |must |needs? to |have to |ought to )?"
                  r"(?:share|have|sit on) (?:a |the same |one |a common )?(?P<axis>(?:vertical|horizontal) )?"
                  r"(?:center|middle)(?P<line> ?line)?\b", s)
    if m:  # "the cc badge and R2/Entrance E should share a centre line": the first centred on the second, across
        # the way they lie apart (side by side: one height); "… share a vertical centre": their middles level
        axis = {"vertical ": "y", "horizontal ": "x"}.get(m.group("axis") or "") if not m.group("line") else None
        return Intent("center", [int(m.group(1)[1:])], [int(m.group(2)[1:])], params={"axis": axis})
    m = _MARGINS_EVEN.search(s)
    if m:  # "shift everything so the margins on the left and right match": the whole set centred on the page
        axis = "x" if (m.group("h") or m.group("h2")) else "y"
        return Intent("center", slots(s), params={"axis": axis, "block": True})
    m = re.search(r"^(?:(?:please|pls|and|then|now|just) )*(?:center|centre) (?P<who>(?:E\d+ (?:and )?)+)"
                  r"(?:at|along|on|to) the (?P<very>very |far )?(?P<side>top|bottom)(?: edge)?"
                  r"(?: of (?:the (?:page|canvas|slide|card|poster|sheet)|E\d+))?(?P<instead> instead)?$", s)
    if m and (m.group("very") or m.group("instead")):
        # "centre it at the very bottom of the page": in the middle across, at that side ("centre the url at the
        # bottom": the url there, centred)
        return Intent("region", slots(m.group("who")), params={"region": m.group("side")})
    # "the big compass in the middle of the wheel is a bit much": where it is says which, and is no request
    described = re.match(r"E\d+ (?:that is |which is |sitting |placed )?(?:(?:right|dead|smack) )?(?:in|at) the "
                         r"(?:very |dead )?(?:center|middle)(?: of E\d+)? (?:is|are|looks?|seems?|feels?)\b", s)
    centred = re.search(r"\b(?:vertically|horizontally)? ?(?:center|centered|centering|centers|middle)\b|"
                        r"\b(?:halfway|midway|half way|mid way)(?= between\b)", s)
    if centred and not described and not re.search(
            r"\b(?:top|bottom|upper|lower|left|right) (?:center|middle)\b|\b(?:center|middle) (?:left|right|"
            r"top|bottom)\b|\b(?:center|middle) third\b|\bcenter (?:align|aligned|line)", s):
        # ("A and the B next to it are not centred on each other": "next to" says which B, not what it centres on)
        # ("… is off-centre vs the other icons", "compared to the three icons above it": what it is measured by)
        ref = re.search(r"\b(?:vs|versus|compared (?:to|with)|relative to) (" + E + r")", s) or re.search(
            r"\b(?<!next )(?<!close )(?:on|under|over|above|below|with|to|in|inside|within|across|of)"
            r"(?: the (?:middle|center) of)? (" + E + r")", s)
        axis = ("y" if re.search(r"\bvertical(?:ly)?\b|\bup and down\b|\btop to bottom\b", s) else
                "x" if re.search(r"\bhorizontal(?:ly)?\b|\bacross\b|\bleft to right\b|\bside to side\b", s) else None)
        both = bool(re.search(r"\b(?:in|into|to|at) the (?:very |dead )?(?:center|middle)\b(?! of " + E + r")|"
                              r"\bdead center\b|\bcenter of the (?:page|canvas|slide|card|poster)\b|\bright in the "
                              r"middle\b|\bboth ways\b|\bboth axes\b", s))
        refs = [int(ref.group(1)[1:])] if ref else []
        # ("… on the wordmark + Bronze Sponsor block": on the two, as one, where nothing follows them)
        together = (re.match(r"(?: (?:and|,) E\d+)+ together\b", s[ref.end():]) or len(slots(s[:ref.start()])) == 1 and
                    re.match(r"(?: (?:and|,) E\d+)+(?: please| pls)?$", s[ref.end():])) if ref else None
        refs += slots(together.group(0)) if together else []  # "… on the title + subtitle together": on both
        if not refs and (re.search(r"\b(?:on|with|to|against|relative to) (?:each other|one another)\b", s)
                         or re.search(r"\bmatch (?:E\d+ )?(?:(?:vertical|horizontal) )?(?:center|centre|middle)s\b|"
                                      r"\b(?:E\d+ )?(?:vertical |horizontal )?(?:center|centre|middle)s "
                                      r"(?:should |must |need to )?match\b", s)):
            # "centre them vertically on each other": the one on the other, not the pair on the page
            return Intent("center", slots(s), params={"axis": axis, "mutual": True})
        between = re.search(r"\bbetween (" + E + r")(?: and (" + E + r"))?", s)
        if between:  # "centre the copyright line between the two divider lines": on the middle of the gap they leave
            return Intent("center", [n for n in slots(s) if n < int(between.group(1)[1:])],
                          [int(g[1:]) for g in between.groups() if g], params={"axis": axis, "between": True})
        if ref and axis is None and re.match(r"\b(?:under|over|above|below)\b", ref.group(0)):
            axis = "x"  # "centre 'Date' under the short line": across, staying below it
        if ref and re.match(r"vs|versus|compared|relative", ref.group(0)):  # ("… is off-centre vs the other icons in
            # Čtyři části": it, on the line they share; where they are says which)
            return Intent("center", slots(s[:ref.start()])[:1], refs, params={"axis": axis, "compared": True})
        # "centre the word inside the band": on both axes of what it is in
        inside = bool(refs) and bool(re.search(r"\b(?:in|inside|within|into)(?: the (?:middle|center) of)? " + E, s))
        block = re.search(r"\btogether\b|\bas (?:one|1|a|a single) (?:block|unit|group|piece|whole)\b|"
                          r"\bas (?:one|1)\b", s)
        return Intent("center", [n for n in slots(s) if n not in refs], refs,
                      params={"axis": axis or ("both" if (both and not refs) or inside else None),
                              **({"block": True} if block else {})})
    if re.search(r"\bout of line\b|\bmisaligned\b|\bnot (?:aligned|lined up|in line|straight)\b|\bcrooked\b|"
                 r"\bwonky\b|\bstick(?:s|ing) out\b(?! (?:past|of|beyond|over|from))", s):
        return Intent("align", slots(s)[:1], params={"edge": None, "page": False, "siblings": True})
    m = re.search(r"\b(?:align|aligned|alignment|aligning|line (?:" + E + r" )*(?:(?:left |right |top |bottom )?"
                  r"(?:tops?|bottoms?|edges?|sides?|centers?|centres?|baselines?|middles?) )?up|lines up|lined up|"
                  r"lining up|line (?:the |its |their )?(?:(?:left|right|top|bottom) )?(?:tops?|bottoms?|edges?|sides?|"
                  r"centers?|baselines?|middles?) of (?:(?:and |& )?" + E + r" )+up|"
                  r"flush|level with|in line with|inline with|same (?:left|right|top|bottom) (?:edge|side)|"
                  r"justify|justified|line (?:" + E + r" )*with|lines? up)\b", s)
    if not m:
        return None
    edge = _edge_word(s)
    if edge is None and re.search(r"\b(?:finish|finishes|ends|stops)\b|\bthe end of\b", s):
        edge = "right"  # "so it finishes flush with the end of the grey rule": the right edges
    elif edge is None and re.search(r"\b(?:starts|begins)\b|\bthe (?:start|beginning) of\b", s):
        edge = "left"
    if re.search(r"\blevel with\b", s):
        # "fecha should finish level with the right side of the dashed box": that edge; else level on the row
        side = re.search(r"\blevel with the (left|right|top|bottom)(?: hand)?(?: (?:side|edge|end)s?)? of\b", s)
        # ("… so it bottoms out level with the end of the bullets": the bottoms; "tops out": the tops)
        out = re.search(r"\b(bottom|top)s? out level with\b", s)
        edge = side.group(1) if side else out.group(1) if out else "level"
    ref_m = re.search(r"\b(?:with|to|as|against|on)(?: the (?:\w+ )?(?:edge|side|top|bottom|left|right|center|"
                      r"middle|baseline|start|beginning|end)s?(?: of)?)? (" + E + r"(?: (?:and|&) " + E + r")*)", s)
    # ("… up with the user and pass labels": what it lines up with, all of it)
    refs = [int(x[1:]) for x in re.findall(r"E\d+", ref_m.group(1))] if ref_m else []
    page = bool(re.search(r"\b(?:to|with|on) the (?:page|canvas|margins?|slide|card|poster|edge)\b|"
                          r"\b(?:left|right|top|bottom) (?:margin|edge of the (?:page|canvas))\b", s))
    return Intent("align", [n for n in slots(s) if n not in refs], refs, params={"edge": edge, "page": page})


#: "Put X inside Y", "pop the label in the bottom right corner of the panel": a verb of putting, then where in Y.
_INTO = re.compile(r"\b(?:put|place|move|pop|stick|drop|bring|get|set|tuck|park|plop|shift|slide|fit|nest)"
                   r"(?P<who>(?: " + E + r")+) (?:back |right |neatly |snugly )?(?:in|inside|into|within|onto)"
                   r" (?:the )?(?:(?:top|bottom|upper|lower) ?(?:left|right)(?: hand)?(?: corner)? of (?:the )?)?"
                   r"(?P<e>" + E + r")(?:'s)?\b")


def corner_said(s: str) -> str | None:
    """The corner a clause says ("bottom right", "upper-left corner") as ``bottom_right``, or None."""
    m = _CORNER.search(s)
    if not m:
        return None
    v = {"upper": "top", "lower": "bottom"}.get(m.group("v") or m.group("v2"), m.group("v") or m.group("v2"))
    return f"{v}_{m.group('h') or m.group('h2')}"


def place(s: str) -> Intent | None:
    """Relative places: "put X under / above / next to / left of Y", "pop X inside Y (bottom right)"."""
    m = _INTO.search(s)
    if m:
        corner = corner_said(m.group(0)) or corner_said(s[m.end():])  # "in the top left corner of Y" or "Y, top left"
        return Intent("place", slots(m.group("who")), [int(m.group("e")[1:])], params={"rel": "in", "corner": corner})
    m = re.search(r"\b(?P<adv>right |just |directly |immediately |straight )?(?P<rel>under|below|beneath|underneath|"
                  r"above|over|on top of|next to|beside|alongside|to the left of|to the right of|left of|right of|"
                  r"before|after|follows?|precedes?|in front of)\s+(?P<e>" + E + r")", s)
    if m and not slots(s[:m.start()]) and (alone := re.fullmatch(
            r"(?:(?:and|so|then|just|about|around|roughly|~) )*(?P<len>\d+(?:\.\d+)? ?[a-z%]+) (?:under|below|beneath|"
            r"underneath|above|over|to the left of|to the right of|left of|right of) E\d+(?: please| pls| or so)?", s)):
        # "tagline up a bit, 10px under the title": where what the request moves goes, that far from the other
        rel = m.group("rel")
        return Intent("place", [], [int(m.group("e")[1:])], params={
            "rel": "below" if rel in ("under", "below", "beneath", "underneath") else "above" if rel in (
                "above", "over") else "left" if "left" in rel else "right",
            "tight": False, "gap": am.first_length(alone.group("len"))})
    if not m or not slots(s[:m.start()]):
        return None
    if re.search(r"\b(?:is|are|looks?|seems?|feels?)\b.*\btoo (?:big|large|huge|small|tiny|little|heavy|light|wide|"
                 r"narrow|tall|short|long)\b", s[:m.start()]):
        return None  # "the icon looks too big next to its paragraph": a size, beside what it is judged by
    if re.match(r" (?:is|are|looks?|seems?|feels?)\b", s[m.end():]):
        return None  # "the asterisk next to edit is tiny": the place says which one; the clause says what is wrong
    if m.group("rel") in ("on top of", "over", "in front of") and re.search(
            r"\b(?:is|are)(?: \w+)? (?:drawn|painted|rendered|stacked|layered)$", s[:m.start()].rstrip()):
        return None  # "the credit text is drawn on top of the cc badge": an order of painting, said wrong
    rel = {"under": "below", "beneath": "below", "underneath": "below", "below": "below", "above": "above",
           "over": "above", "on top of": "above", "next to": "beside", "beside": "beside", "alongside": "beside",
           "to the left of": "left", "left of": "left", "to the right of": "right", "right of": "right",
           "before": "before", "after": "after", "follow": "after", "follows": "after", "precede": "before",
           "precedes": "before", "in front of": "above"}[m.group("rel")]
    # "… just under the date, with 5 mm of space": the gap is said
    said = re.search(r"\b(?:with|leaving|leave|and)\b.*\b(?:space|gap|room|margin|air)\b|\b(?:space|gap) of\b|"
                     r"\d \w+ (?:gap|space)$", s)
    gap = am.first_length(s) if said else None
    before = re.search(r"(?:^| )(\d+(?:\.\d+)? ?[a-z%]+) $", s[:m.start()])
    if gap is None and before and m.group("rel") in ("under", "below", "beneath", "underneath", "above", "over",
                                                      "to the left of", "to the right of", "left of", "right of"):
        gap = am.first_length(before.group(1))  # "put it 20px under Entrance": that far under it
    return Intent("place", slots(s[:m.start()]), [int(m.group("e")[1:])],
                  params={"rel": rel, "tight": bool(m.group("adv")), "gap": gap})


_CORNER = re.compile(r"\b(?P<v>top|upper|bottom|lower) (?:-)?(?P<h>right|left)\b|\b(?P<h2>right|left) (?:hand )?"
                     r"(?P<v2>top|bottom|upper|lower)\b")
_MID = re.compile(r"\b(?P<v>top|upper|bottom|lower) (?:center|middle)\b|\b(?:center|middle) (?P<v2>top|bottom)\b|"
                  r"\b(?P<h>left|right) (?:center|middle)\b|\b(?:center|middle) (?P<h2>left|right)\b|"
                  r"\b(?:at|to|in) the (?P<v3>top|bottom) in the middle\b")
_THIRD = re.compile(r"\b(?P<w>top|upper|bottom|lower|left|right|middle|center|first|last) third\b")


def region(s: str) -> Intent | None:
    """Places on the page: corners, "bottom centre", thirds, "to the top", "to the left side"."""
    if am.lengths(s) and DIR_RE.search(s):
        return None
    corner = corner_said(s)
    if corner:
        return Intent("region", slots(s)[:1] or [], params={"region": corner})
    m = _MID.search(s)
    if m:
        v = m.group("v") or m.group("v2") or m.group("v3")
        v = {"upper": "top", "lower": "bottom"}.get(v or "", v)
        return Intent("region", slots(s), params={"region": v or (m.group("h") or m.group("h2"))})
    m = _THIRD.search(s)
    if m:
        return Intent("third", slots(s), params={"where": m.group("w")})
    if re.search(r"\bin the (?:footer|bottom band|bottom strip)\b", s):
        return Intent("region", slots(s), params={"region": "footer"})
    if re.search(r"\bin the (?:header|top band|top strip)\b", s):
        return Intent("region", slots(s), params={"region": "top_band"})
    if am.has_degree(s) or am.lengths(s) or re.search(r"\b(?:share|shares|match|matches) (?:E\d+ |a |the |the same |"
                                                      r"one )?(?:top|bottom|left|right) (?:edge|side)", s):
        return None  # ("X at the bottom should share the left edge of Y": an alignment, said after where X is)
    m = re.search(r"\b(?:to|at|on|against|with) (?:the )?(?P<e>top|bottom|left|right) (?:edge|side)s? of (" + E +
                  r")$", s)
    if m and slots(s[:m.start()]):  # "snap 'your' to the left edge of 'network!'": that element's edge
        return Intent("align", slots(s[:m.start()]), [int(m.group(2)[1:])],
                      params={"edge": m.group("e"), "page": False})
    m = re.search(r"\b(?:to|at|on|against|with) (" + E + r") (?P<e>top|bottom|left|right) (?:edge|side)s?$", s)
    if m and slots(s[:m.start()]):  # "snap 'What is Publican?' to the paragraph's left edge": the same
        return Intent("align", slots(s[:m.start()]), [int(m.group(1)[1:])],
                      params={"edge": m.group("e"), "page": False})
    m = re.search(r"\b(?:to|at|on|against|along|toward|towards|onto|in|into) (?:the )?(?:very |far )?"
                  r"(?P<e>top|bottom|left|right)(?: (?:edge|side|margin|half|of the (?:page|canvas|slide|card|poster|"
                  r"cover|flyer)))?\b|^(?:" + E + r" )+(?:to )?(?P<e2>top|bottom)$|\b(?P<e3>top|bottom|left|right) "
                  r"(?:edge|side)\b", s)
    if m and slots(s) and not re.search(r"\bE\d+ (?:has|have|had|gets?|uses?)\b", s):
        # (not "… the same margin the compass has on the left": what another has, said to explain)
        return Intent("edge", slots(s), params={"edge": m.group("e") or m.group("e2") or m.group("e3")})
    return None


#: "15px from both the top and the left edge", "10mm in from the left and top": from the two sides of a corner;
#: "give it 8px of margin on the right and bottom" alike.
FROM_CORNER = re.compile(r"(?P<num>\d+(?:\.\d+)?) ?(?P<unit>[a-z%]+) (?:of (?:margin|space|room|clearance|air) )?"
                          r"(?:in )?(?:from|off|on|at) (?:both |E\d+ )?(?:the )?"
                          r"(?:(?P<v>top|bottom)(?: edge| side)? and (?:the )?(?P<h>left|right)|(?P<h2>left|right)"
                          r"(?: edge| side)? and (?:the )?(?P<v2>top|bottom))(?: edges?| sides?)?\b")


def nudge(s: str) -> Intent | None:
    """Moves by a direction and an amount: "up", "20px to the right", "a bit lower", "raise X"."""
    if re.search(r"\b(?:size|scale|font|type size|text size)\b.*\b(?:up|down)\b|\b(?:up|down) (?:a )?size\b|"
                 r"\b(?:bump|blow|scale|size|puff|beef|ramp|dial|crank|tone|turn|jack|knock|shrink) (?:" + E +
                 r" )?(?:up|down)\b",
                 s):
        return None
    if SIZE_TO.fullmatch(s) or FROM_TO.search(s) or BARE_FROM_TO.fullmatch(s) or re.search(
            r"\b(?:up|down)\b.*\bin size\b", s):
        return None  # "drop it to ~12px", "drop it from 17.5 to 15", "up 10 % in size": a size
    if re.match(r"(?:the )?same \w+ (?:as )?E\d+ (?:has|have|had|gets?|uses?)\b", s):
        return None  # "… the same margin the compass has on the left": said to explain, no move
    # "the left margin is tiny": a side named as a thing, no way to move; "away from the left edge": to the right
    found = [d for d in DIR_RE.finditer(s) if not re.match(r" (?:margins?|gutters?|one|ones)\b", s[d.end():])
             and not re.search(r"\baway from (?:the )?$", s[:d.start()])
             # "the right side of the QR frame": a side named, no way to move
             and not re.match(r" (?:hand )?(?:side|edge|end|corner|half|part) of\b", s[d.end():])
             # "sat right on the band", "right next to the logo": "right" says how close, not which way
             and not (d.group("d") == "right" and re.match(r" (?:on|onto|under|underneath|over|above|below|beneath|"
                                                          r"beside|against|up against|next to|in front of|behind|"
                                                          r"on top of|into|along|at the (?:edge|top|bottom))\b",
                                                          s[d.end():]))]
    verb = re.match(r"^(?:raise|lift|lower|drop)\b", s)
    if not found and not verb:
        if re.search(r"\baway from the (?P<e>left|right|top|bottom)", s):
            e = re.search(r"\baway from the (?P<e>left|right|top|bottom)", s).group("e")
            opposite = {"left": "right", "right": "left", "top": "down", "bottom": "up"}[e]
            return Intent("nudge", slots(s)[:1], params={"moves": [(opposite, am.first_length(s))],
                                                         "degree": am.degree(s)})
        return None
    moves: list[tuple[str, am.Length | None]] = []
    if verb:
        moves.append(({"raise": "up", "lift": "up", "lower": "down", "drop": "down"}[verb.group(0)], None))
    for d in found:
        word = d.group("d").rstrip("s") if d.group("d").endswith("wards") else d.group("d")
        if verb and (word in ("up", "down") or d.start() == 0):
            continue
        moves.append((word, None))
    lengths = list(am.LENGTH_RE.finditer(s)) or [m for m in am.BARE_NUMBER_RE.finditer(s)]
    if lengths and moves:
        # each length goes with the nearest direction word
        dirs = [(d.start(), i) for i, d in enumerate(found)]
        assigned: dict[int, am.Length] = {}
        for lm in lengths:
            unit = lm.groupdict().get("unit") or "px"
            length = am.Length(float(lm.group("num")), "%" if unit in ("%", "percent") else unit)
            if dirs:
                i = min(dirs, key=lambda p: abs(p[0] - lm.start()))[1] + (1 if verb and moves[0][0] else 0)
                i = min(i, len(moves) - 1)
            else:
                i = 0
            assigned.setdefault(i, length)
        if len(lengths) == 1 and len(found) == 2 and not verb and re.fullmatch(
                r" and (?:then )?(?:to the )?", s[found[0].end():found[1].start()]):
            assigned = dict.fromkeys(range(len(moves)), assigned[min(assigned)])  # "up and left by 20px (each)"
        moves = [(w, assigned.get(i)) for i, (w, _l) in enumerate(moves)]
    than = re.search(r"\bthan\b", s)
    # "'Finitions' sits higher than the other captions": what is compared with does not move
    patients = slots(s[:than.start()]) if than and slots(s[:than.start()]) else slots(s)
    within = re.search(r"\b(?:in|inside|within|on) (?:E\d+ )+(?=than\b)", s) if than else \
        re.search(r"\b(?:into|onto) (?:E\d+ ?)+|\b(?:in|at) the (?:\w+ ){1,2}of (?:E\d+ ?)+", s)
    # ("… hangs down into the black strip": where it goes; "… is stuck up in the corner of the green band": where it is)
    if within and [n for n in patients if n not in slots(within.group(0))]:
        # "publish sits higher in its box than build does": where it sits says nothing of what moves
        patients = [n for n in patients if n not in slots(within.group(0))]
    refs = [n for n in slots(s[than.start():]) if n not in patients] if than else []
    away = re.search(r"\d+(?:\.\d+)? ?[a-z%]+ (?:further |farther |more |away )?from (" + E + r")$", s)
    if away and len(patients) > 1:  # "push Due date: down 10px from the title": measured from it, which stays
        patients, refs = [n for n in patients if n != int(away.group(1)[1:])], [int(away.group(1)[1:])]
    params = {"moves": moves, "degree": am.degree(s)}
    if within and not than and len(moves) == 1:  # ("… hangs down into the black strip": what it runs into)
        refs, params["into"] = [n for n in slots(within.group(0)) if n not in patients], True
    if re.search(r"\b(?:until|till|til|so|so that|to where) (?:" + E + r" |it |they )?(?:all |fully |wholly )?"
                 r"(?:fits?|shows?|is (?:all )?(?:on|in)|are (?:all )?(?:on|in)|is inside|are inside)\b", s) and all(
            length is None for _w, length in moves):
        params["fits"] = True  # "slide it left until it fits": as far as it takes to be on the page
    return Intent("nudge", patients, refs, params=params)


__all__ = ["bound", "lock", "zorder", "swap", "separate", "inside", "distribute", "gap", "match", "align", "place",
           "region", "nudge"]
