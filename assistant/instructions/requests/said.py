"""What a clause of a request says, as patterns over its skeleton (mentions written ``E0``, ``E1`` …).

``understand`` reads each clause against these: a problem said ("… runs off the right"), a side held while
resizing ("keep the left edge put"), a gap or a corner said alone after the clause it finishes, a reason
after a move ("…, closer to the map").
"""

from __future__ import annotations

import re
from typing import Any

from assistant.geometry import Box
from assistant.instructions.requests.amounts import first_length
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.intents import Intent

RELATION_AFTER = re.compile(r"E(\d+) (?:that is |which is |right |just |directly |sitting )?(above|below|under|"
                            r"underneath|beneath|over|next to|beside|near|left of|right of|to the left of|"
                            r"to the right of|in|inside|within|on) E(\d+)")
#: Words that say which part of the page an element is in ("the footer links").
END_WORDS = {"footer": "bottom", "header": "top"}
#: Words that name the first of several texts in reading order.
FIRST_WORDS = frozenset({"intro", "introduction", "lede", "lead", "opening", "introductory"})
#: Kinds of edit that mend the same kind of problem: a problem said, then an edit of its family, is that edit.
FAMILY = {"emphasis": "size", "resize": "size", "style": "size", "match": "size", "fill": "size",
          "nudge": "place", "region": "place", "edge": "place", "place": "place", "center": "place",
          "align": "place", "inside": "place", "gap": "space", "separate": "space", "distribute": "space"}
#: Saying something runs past an edge ("goes out of the page", "falls off the right side").
OVERFLOWS = (r"(?:(?:goes|go|going|falls?|falling|runs?|running|hangs?|hanging|sticks?|sticking|spills?|spilling|"
             r"extends?|bleeds?|pokes?|poking) (?:out|off|past|beyond|outside)\b|(?:gets?|is|are|getting) (?:chopped|"
             r"cut|cut off|clipped|cropped|truncated)\b)")
#: A clause that describes its subject ("the penguin is overpowering the text", "they look a little off").
DESCRIBES = re.compile(r"(?:(?!(?:make|move|put|set|let|get|have|keep|bring|take|give|could|can|would|will|"
                       r"please|pls|should|shall|may|might|must|need|want|i|we|you|just|then|and|so|also) )\w+ ){0,4}"
                       r"(?:E\d+ (?:, )?(?:and )?)+(?:(?:next to|under|above|below|beside|near|by|in|on|of) E\d+ )?"
                       r"(?:(?:in the |at the |on the )?(?:top|bottom|left|right|middle|center|"
                       r"corner) )*(?:also |still |just |really |kinda |kind of |sort of )?"
                       r"(?:(?:almost |nearly |practically |just )?(?:kiss(?:es)? |"
                       r"touch(?:es)? |hugs? |graze?s? |brush(?:es)? |butts? (?:up )?against )|s |is |are |looks? |"
                       r"feels? |seems? |sits? |should read |reads |appears? |gets? |still |"
                       # "…, KIT should come first": the order a swap gives ("X should go right under Y" asks)
                       r"should (?:come|go) (?=(?:straight |right |just )?(?:first|second|third|last|before|after|"
                       r"next|on the (?:left|right)|on top|at the (?:top|bottom))\b)|"
                       # "'Our Research' starts 25px left of the headings under it": where it is, and wrong
                       r"(?:starts?|begins?|ends?|finishes|stops?) (?=(?:about |around |roughly |~)?\d|(?:a (?:bit|"
                       r"little|touch) |way |much |slightly )?(?:left|right|lower|higher|further|before|after|above|"
                       r"below|short|past|beyond|too)\b)|"
                       # "the three paragraphs under X have uneven spacing": what they have is wrong
                       r"(?:has|have|got) (?:an? |some |too much |too little |way too much |very |really |quite )?"
                       r"(?:uneven|inconsistent|irregular|unequal|different|odd|weird|random|bad|wonky|messy|"
                       r"mismatched|varying|unbalanced|funny|strange|awkward|huge|tiny)\b|"
                       r"(?:do|does|did) not (?:quite |really |exactly )?(?:match|line up|align|agree|fit|sit|start|"
                       r"begin|end|finish|share)\b|"
                       r"(?:runs?|running|bumps?|bumping|crash(?:es)?|crashing) (?:right |straight )?(?:in|into|up "
                       r"against) |"
                       r"(?:hangs?|hanging|dips?|dipping|sinks?|sinking|pokes?|poking|reaches?|bleeds?|spills?) "
                       r"(?:down |up |over |out )?(?:into|onto|over) |"
                       # "headline's shouting" (the "'s" is not kept): a state said with its participle alone
                       r"(?:shouting|screaming|yelling|floating|drifting|sagging|crowding|hugging|crashing|poking|"
                       r"sticking|hanging|falling|overlapping|leaning|wobbling|jammed|crammed|squashed|squished)"
                       r"(?: |$)|"
                       r"(?:both |all )?(?:leans?|drifts?|floats?|sags?|lean|drift|float|sag) |"
                       r"sticks? (?:up|out|down) |"
                       + OVERFLOWS + ")")
#: A clause that says something runs past an edge, its subject said or not ("… line, also goes out of page").
OVERFLOW = re.compile(r"^(?:E\d+ (?:and )?)*(?:(?!make |let |have |get )\w+ ){0,3}(?:also |still )?" + OVERFLOWS)
#: What a swap ends with, said after it: "(the GeoNode one) up top right", "OSGeo one down bottom left".
AFTER_SWAP = re.compile(r"(?=.*\b(?:up|down|over|across|top|bottom|left|right|middle|center)\b)(?:E\d+ )?"
                        r"(?:1 |one |ones )?(?:(?:goes|go|ends up|moves|on|at|in|to) )*(?:the )?"
                        r"(?:(?:up|down|over|across)(?: |$))?(?:(?:top|bottom|left|right|middle|center)"
                        r"(?: (?:left|right|corner|side|one|hand))*)?(?: please| pls)?")
#: Which of two swapped ends where, said after the swap: "swap them round: 'Open Source Club' underneath 'Winter Bash'".
SWAP_ORDER = re.compile(r"(?:so |so that |with |i\.?e\.? )?E\d+ (?:ends? up |goes |sits |is |comes )?"
                        r"(?:underneath|under|below|beneath|above|over|on top of|left of|right of|to the left of|"
                        r"to the right of|after|before|first|second)(?: E\d+)?(?: please| pls)?")
#: Why a move was asked, said after it: "…, closer to the map", "so it sits nearer the mascots".
CLOSER_ONLY = re.compile(r"(?:and |so |so that )?(?:(?:E\d+ )?(?:s |is |are |sits? |gets? |comes? |ends? up )?)?"
                         r"(?:a bit |a little |slightly )?(?:closer|nearer|further|farther)(?: (?:to|from|away from)"
                         r")? E\d+(?: please| pls)?")


#: Where an element that runs into another one way goes to be out of it again.
_OUT_OF = {"down": "above", "lower": "above", "up": "below", "higher": "below", "left": "right", "right": "left"}


def as_mend(problem: Intent) -> Intent:
    """What mends a problem said with nothing after it, as an intent.

    "Thrust 4 sits 5px higher than Thrust 1", said alone, asks for them level: its top on the other's (a side
    for left or right). Any other problem is already read as its mend ("too big" as smaller).
    """
    moves = problem.params.get("moves", [])
    if problem.kind != "nudge" or not problem.refs or not moves:
        return problem
    if problem.params.get("into") and moves[0][0] in _OUT_OF:
        # "for Blinky hangs down into the black strip": back out of it, on the side it came from
        return Intent("place", problem.patients, problem.refs, params={"rel": _OUT_OF[moves[0][0]], "tight": False,
                                                                        "gap": None})
    return Intent("align", problem.patients, problem.refs, params={"edge": "top" if vertical(problem) else "left",
                                                                    "page": False})


def vertical(intent: Intent) -> bool:
    """Whether a move says a way up or down ("bring the QR down …"), not across."""
    return any(way in ("up", "down", "higher", "lower") for way, _amount in intent.params.get("moves", []))


def moved_by(intent: Intent | None) -> bool:
    """Whether ``intent`` is a move by an amount said ("up 20px"): a move complete in itself."""
    return intent is not None and intent.kind == "nudge" and any(
        amount is not None for _way, amount in intent.params.get("moves", []))


#: Verbs that take a size down or up as readily as a place ("take it down 10%" after "it feels oversized").
SIZE_VERB = re.compile(r"(?:(?:please|pls|just|then|and|so) )*(?:take|bring|knock|dial|tone|turn|step|scale|"
                       r"tune|bump)\b")
#: "…, but keep it above More Functionality", "still below the title": where it must stay, not where to put it.
KEEP_PLACED = re.compile(r"(?:but |and |while |just )*(?:keep|keeping|still|stays?|staying|leave|leaving) (?:E\d+ )+"
                         r"(?:still )?(?:(?:is|are|sits?|sitting|stays?|staying) )?(?:(?:right|just|directly|close|"
                         r"tight|snug) )?(?:above|below|under|"
                         r"underneath|over|beneath|left of|right of|to the left of|to the right of|next to|beside|"
                         r"alongside|by)\b")


#: "love the grey wedges at the bottom", "nice job on the title": what the designer likes, not an edit.
PRAISE = re.compile(r"(?:(?:i|we) (?:really |just |do |so )?|really |just |so )?(?:love|adore|loving|like|liking|dig)"
                    r" (?:the|that|those|these|how|E\d+)\b|(?:nice|great|lovely|beautiful|gorgeous|cool|good|neat) "
                    r"(?:job|work|touch)\b")


def problem_axis(said: str) -> str | None:
    """The one axis a problem said is along ("shoved over to the right": x; "sits too low": y), or None."""
    across = re.search(r"\b(?:left|right|sideways|leftwards|rightwards|horizontally|across)\b", said)
    down = re.search(r"\b(?:high|higher|low|lower|up|down|vertically|top|bottom|above|below)\b", said)
    return "x" if across and not down else "y" if down and not across else None


def only_talk(request: str, remarks: list[str]) -> bool:
    """Whether a request none of whose clauses asks for an edit only talks about the design.

    A question ("what typeface is the title set in?") or praise ("love the grey wedges") gets no edit, not a guess.
    """
    asked = request.rstrip().endswith("?") and re.search(
        r"(?:^|[.!;]\s+)(?!how about|what about|why not|how do i|how can)(?:what|which|who|why|how|where|when|is|are|"
        r"does|do|did|whose)\b", request, re.I)
    return bool(asked) or bool(remarks) and all(PRAISE.match(r) for r in remarks)


def holds(a: Box, b: Box, rel: str | None) -> bool:
    """Whether box ``a`` is already ``rel`` (above, below, left, right) of box ``b``."""
    slack = 0.5
    if rel == "beside":  # next to it: no further from it than the taller of the two is high
        return a.distance(b) <= max(a.height, b.height)
    return {"above": a.y2 <= b.y + slack, "below": a.y >= b.y2 - slack, "left": a.x2 <= b.x + slack,
            "right": a.x >= b.x2 - slack}.get(rel or "", False)


#: "bring both down 15px, same gap between them": what moving them together keeps, not an edit of its own.
SAME_SPACING = re.compile(r"(?:(?:but|and|while|just) )*(?:E\d+ )?together(?: please| pls)?"
                          r"|(?:(?:but|and|while|just|with) )*(?:(?:keep|keeping|leave|leaving) )?(?:the )?"
                          r"(?:same|current|existing) (?:gap|gaps|spacing|space|distance)"
                          r"(?: (?:in )?between(?: E\d+)+)?(?: please| pls)?"
                          r"|(?:(?:but|and|while|just) )*(?:keep|keeping|leave|leaving) (?:the )?"
                          r"(?:gap|gaps|spacing|space|distance)(?: (?:in )?between(?: E\d+)+)?(?: (?:as it is|as is|"
                          r"the same|unchanged|intact))?(?: please| pls)?|(?:the )?(?:gap|spacing|distance)(?: (?:in )?"
                          r"between(?: E\d+)+)? (?:stays|staying|unchanged)(?: the same)?")


#: "pull it in so it ends 3mm from the edge, same height": after a move, the level it keeps (not a size to match).
SAME_LEVEL = re.compile(r"(?:(?:but|and|while|just) )*(?:(?:keep|keeping|leave|leaving) (?:it |them )?)?(?:at )?"
                        r"(?:the )?same (?:height|level|vertical position|horizontal position|line|row|baseline)"
                        r"(?: (?:as (?:now|before|it is|they are)|please|pls))?"
                        # "centre them both horizontally, dont move them up or down": the axis the edit leaves alone
                        r"|(?:(?:but|and|while|just) )*(?:do not|never) (?:move|shift|nudge|change) (?:E\d+ )?"
                        r"(?:up or down|up and down|vertically|sideways|left or right|horizontally|side to side|"
                        r"across)(?: please| pls)?"
                        # "… vertically centred on the globe logo, dont change its horizontal position"
                        r"|(?:(?:but|and|while|just) )*(?:(?:do not|never) (?:change|touch|alter|move)|keep|keeping|"
                        r"leave|leaving) (?:E\d+ |the )?(?:horizontal|vertical|x|y|left right|up down) (?:position|"
                        r"placement|coordinate|offset)(?: (?:as it is|as is|the same|unchanged|alone|as now))?"
                        r"(?: please| pls)?"
                        r"|(?:(?:but|and|while|just) )*(?:E\d+ |the )?(?:horizontal|vertical|x|y) "
                        r"(?:position|placement) (?:stays|staying|unchanged|does not change)(?: the same)?"
                        r"(?: please| pls)?")

#: "… shrink it until it fits, about 30px clear of the edge", "… so it fits with ~15px to spare": the room it leaves.
ROOM_SAID = re.compile(r"(?:(?:so )?(?:it )?fits? )?(?:with )?(?:about |around |roughly |~)?"
                       r"(?P<len>\d+(?:\.\d+)? ?[a-z]+) (?:clear of the edge|from the edge|to spare|spare|clear)\b")

#: "shrink it so it sits inside the header": what it must end up inside (the holder, group 1).
SITS_IN = re.compile(r"\bso (?:that )?E\d+ (?:sits?|stays?|is|lies|ends up|fits?) (?:all |fully |completely |wholly |"
                     r"neatly )?(?:inside|within|in) (E\d+)\b")
_INSET_SAID = re.compile(r"\bwith (?:about |around |roughly |~)?(?P<len>\d+(?:\.\d+)? ?[a-z]+) (?:of (?:room|space|"
                         r"margin|clearance|air) )?(?:(?P<y>above and below|below and above|top and bottom|at the top "
                         r"and bottom)|(?P<x>left and right|(?:on )?either side|(?:on )?each side|(?:on )?both sides)|"
                         r"(?P<both>all (?:a)?round|around it|on all sides|all sides))\b")


def inset_said(skel: str) -> tuple[Any, str] | None:
    """The room said to be left round what fits inside another ("with 40px above and below"): (length, axis)."""
    m = _INSET_SAID.search(skel)
    if m is None or (length := first_length(m.group("len"))) is None or length.unit == "%":
        return None
    return length, "y" if m.group("y") else "x" if m.group("x") else "both"


#: "pull it in so there's 20px to spare. same size": after a move, the size it keeps (not a size to match).
SAME_SIZE = re.compile(r"(?:(?:but|and|while|just) )*(?:(?:keep|keeping|leave|leaving) (?:E\d+ )?)?(?:at )?(?:the )?"
                       r"same (?:size|scale|width|height|font size|dimensions)(?: (?:as (?:now|before|it is|they are)|"
                       r"please|pls))?|(?:(?:but|and|while|just) )*(?:(?:do not|never) (?:resize|scale|shrink|grow) "
                       r"(?:E\d+)?|(?:E\d+ )?(?:size|scale) (?:stays|unchanged|stays the same|as is))(?: please| pls)?")


#: Verbs that move an element about the page (a bare "up 15%" after a size problem is a size).
MOVE_VERB = re.compile(r"\b(?:move|shift|nudge|push|pull|slide|drop|raise|lift|lower|put|place|bump|scoot|send)\b")
#: "…, left edges", "by their tops": which edges an alignment said before lines up.
EDGES_ONLY = re.compile(r"(?:(?:on|by|along|at|using) )?(?:the |their |its )?(?P<edge>left|right|top|bottom)s?"
                        r"(?: hand)?(?: (?:edges?|sides?))?")
#: "… drop it onto the same line", "… so it's level with them": a move that ends on the others' line, no amount said.
ONTO_LINE = re.compile(r"\b(?:(?:on|onto|to|in) the same (?:line|level|row|height|baseline)|in line|level with|"
                       r"lines? up)\b")
#: "… jammed against the left edge": the side of the page a problem is at.
AT_SIDE = re.compile(r"\b(?:against|to|on|at|off|from|of|by|into) the (?:very )?(?P<side>left|right|top|bottom)"
                     r"(?: hand)? (?:edge|side|border)\b")
#: "…, equal space either side": what filling the width between the margins, or centring, does anyway.
EVEN_SIDES = re.compile(r"(?:(?:and|with|but|keep|keeping|leave|leaving) )*(?:an? )?(?:equal|same|even|matching) "
                        r"(?:space|spacing|gaps?|margins?|room|padding|distance)(?: on)?(?: (?:either|each|both) sides?"
                        r"| left and right| on the left and right)?(?: please| pls)?")
#: "scale it down so the margins are the same both sides": as far in from one side as from the other.
EVEN_SO = (r"\bso (?:that )?(?:the |its |their )?(?:margins?|space|gaps?) (?:are|is|on (?:both|either|each) sides? "
           r"(?:are|is)) (?:the same|equal|even|matching)\b")
#: "give it 20px", "give it about 5 mm of room": room said with no element to keep it from (an edge said before).
GIVE_ROOM = re.compile(r"(?:(?:please|pls|just|and|then) )*give (?:it|them) (?:a |about |around |roughly |~|another |"
                       r"an extra |extra |a further )*"
                       r"(?P<len>\d+(?:\.\d+)? ?[a-z]+)(?: (?:of )?(?:room|space|margin|clearance|air|breathing room))?"
                       r"(?: more)?(?: or so| ish)?(?: please| pls)?")
#: ", like 25%", "say 20 %", "maybe 30 percent or so": an amount said on its own after the edit it is for.
AMOUNT_ONLY = re.compile(r"(?:(?:like|say|maybe|about|around|roughly|approximately|approx|~|something like|by|"
                         r"perhaps|or|so) )*(?P<pct>\d+(?:\.\d+)?) ?(?:%|percent)(?: (?:or so|ish|maybe|max|tops))?"
                         r"(?: please| pls)?")
#: "narrow it so it stops 5mm short of the edge": a resize as small as leaves that much to the page's edge.
SHORT_OF_EDGE = re.compile(r"\bso (?:that )?E\d+ (?:stops|ends|finishes|sits) (?:about |around |roughly |~)?"
                           r"(?P<len>\d+(?:\.\d+)? ?[a-z]+) (?:short of|from|before|clear of|in from) the "
                           r"(?:right |left |page )?edge\b")
#: "a 20px margin from the left edge", "clear of the top": a length from a side of the page.
EDGE_SAID = re.compile(r"\b(?:from|to|off|of) the (?P<side>left|right|top|bottom)(?: hand)?(?: edge| side| border)?"
                       r"(?: of the (?:page|canvas|sheet|card|slide|poster|flyer|banner))?\b")
#: "…, keep the left edge put", "keep his feet where they are": the side a resize holds still.
HELD_EDGE = re.compile(r"(?:but |and |while |just )*(?:keep|keeping|leave|leaving|hold|holding|pin)"
                       r"(?: the| its| his| her| their)? (?P<side>left|right|top|bottom|feet|base|baseline)"
                       r"(?: hand)?(?: edges?| sides?| ends?)?"
                       # "keep its right edge and its vertical centre": that side, half way up
                       r"(?: and (?:its |the )?vertical (?:centre|center))?"
                       r"(?: (?:put|where (?:it|they|he|she) (?:is|are|was|were|sits?)|in place|fixed|still|as is|"
                       r"pinned|unchanged|the same|in the same place))?"
                       # "… but keep its left edge lined up with the O": where it is, which is there
                       # ("keep its left end under the start of the line": where it is, under that)
                       r"(?: (?:(?:lined up|aligned|flush|level|in line) with|under|over|above|below|at) "
                       r"(?:the |its |their )?[\w'-]+(?: [\w'-]+){0,4})?"
                       r"(?: please| pls)?"
                       # "…, pin the top left corner", "keep it anchored top left": that corner holds
                       r"|(?:but |and |while |just |with )*(?:keep(?:ing)? it |keep(?:ing)? )?(?:pin|pinned|pinning|"
                       r"anchor|anchored|anchoring)(?: it)?(?: at| to| by| on)?(?: the| its)? "
                       r"(?P<corner3>(?:top|bottom)[ -](?:left|right))(?: corner| point)?(?: please| pls)?"
                       # "…, keep its top left corner"
                       r"|(?:but |and |while |just |with )*(?:keep|keeping|hold|holding)(?: the| its)? "
                       r"(?P<corner4>(?:top|bottom)[ -](?:left|right)) (?:corner|point)(?: please| pls)?$"
                       # "…, still tucked in the bottom right corner": that corner holds
                       r"|(?:and |but )?(?:(?:it |they )?(?:should |must |has to |needs to )?still |keep it |"
                       r"keeping it |(?:it |they )?(?:should |must |has to |needs to )?(?:still )?(?:stay|stays|"
                       r"remain|remains) )"
                       r"(?:tucked |sitting |snug |pinned |hugging |hug |hugs |sit |sits |be )?(?:in |into )?"
                       r"(?:the )?(?P<corner>(?:top|bottom) (?:left|right))(?: corner)?"
                       r"(?: where (?:it|they) (?:is|are|was|were)(?: now)?)?(?: please| pls)?"
                       # "…, keep its top right corner where it is", "bottom-left corner stays put", "left edges stay"
                       r"|(?:but |and |while |just |with )*(?:(?:keep|keeping|leave|leaving|hold|holding|pin) )?"
                       r"(?:the |its |his |her |their |both |both the |both their )?"
                       r"(?:(?P<corner2>(?:top|bottom) (?:left|right)) (?:corner|point)"
                       r"|(?P<side2>left|right|top|bottom)(?: hand)? (?:edges?|sides?|ends?))"
                       r" (?:stays?|staying|remains?|is|are|where (?:it|they) (?:is|are)|in place|fixed|pinned|put|"
                       r"unchanged|untouched|the same|as is)"
                       r"(?: put| still| fixed| in place| where (?:it|they) (?:is|are|was|were)|"
                       # "…, left edge stays lined up with the code": where it is, which is there
                       r" (?:lined up|line up|lines up|aligned|align|level|flush|in line) with (?:the |its |their )?"
                       r"[\w'-]+(?: [\w'-]+){0,3})?"
                       r"(?: please| pls)?"
                       # "…, same centre", "keep it centred where it is", "centre stays put"
                       r"|(?:but |and |while |just |with )*(?P<centre>(?:(?:keep|keeping) )?(?:the |its )?same "
                       r"(?:centre|center)(?: point)?|(?:keep|keeping) (?:it |them |him |her |its |the )?"
                       r"(?:dead |right |exactly )?(?:centred|centered|centre|center)(?: point)?"
                       r"(?: vertically| horizontally| across| up and down)?"  # ("… centred vertically where it is")
                       r"(?: (?:where (?:it|they|he|she) (?:is|are|was|were)(?: now)?|in place|put|fixed|"
                       r"(?:on|at|in|over) (?:the same|its|its current|the current) (?:spot|place|point|position)))?"
                       r"|(?:its |the )?(?:centre|center)(?: point)? (?:stays?|remains?)(?: put| where it is| fixed)?"
                       # "… 20% bigger from its centre", "around the same centre", "stay centred", "centred on where
                       # it is now"
                       r"|(?:(?:keep|keeping) (?:it|them) )?(?:(?:from|about|around|round) (?:its|the same|its own)|"
                       r"on the same) (?:centre|center)(?: point| line)?"
                       r"|(?:stay|stays|staying|remain|remains|still|(?:it |they )?(?:should |must )?still be) "
                       r"(?:centred|centered)(?: where (?:it|they) (?:is|are)(?: now)?)?"
                       r"(?: (?:in|on|within) (?:the |its |their )?\w+)?"
                       r"|(?:centred|centered) (?:(?:on|at|around) )?where (?:it|they) (?:is|are)(?: now)?"
                       r"|(?:each |both |all )?(?:keeps?|keeping) (?:its|their) (?:own )?(?:centre|center)s?)"
                       # "…, keep its right edge and its vertical centre" (split at "and"): what that side keeps too
                       r"|(?P<axis_centre>(?:and |with )?(?:keep |keeping )?(?:its |the )?(?:vertical|horizontal) "
                       r"(?:centre|center)(?: where it is| in place| fixed)?)"
                       r"(?: please| pls)?"
                       # "… drop it to 65-ish and keep it flush right": against that side, as it is
                       r"|(?:but |and |while |just )*(?:keep|keeping|leave|leaving) (?:it|them) (?:flush|aligned) "
                       r"(?P<side3>left|right)(?: please| pls)?"
                       # "…, keep it top aligned where it is": that side holds
                       r"|(?:but |and |while |just )*(?:(?:keep|keeping) (?:it|them)|(?:it |they )?(?:should |must )?"
                       r"(?:still|stay|stays|remain|remains|still be)) (?P<side5>top|bottom|left|right)"
                       r"[ -]?aligned(?: (?:where (?:it|they) (?:is|are)|in place|as is))?(?: please| pls)?"
                       # "… take it down to 75% and keep it on the left margin": that side holds
                       r"|(?:but |and |while |just )*(?:keep|keeping) (?:it|them) "
                       r"(?:(?:stuck|pinned|glued|flush|tight) )?(?:on|at|against|along|by|to) the "
                       r"(?P<side7>left|right|top|bottom)(?: hand)? (?:margin|edge|side)(?: please| pls)?"
                       # "… 20 percent bigger without moving its top-left corner": that corner holds
                       r"|(?:but |and |while |just )*(?:without (?:moving|shifting|changing|touching)|(?:do not|don't|"
                       r"dont|never) (?:move|shift|change|touch)) (?:the |its |his |"
                       r"her |their )?(?:(?P<corner5>(?:top|bottom)[ -](?:left|right)) (?:corner|point)|"
                       r"(?P<side6>left|right|top|bottom)(?: hand)? (?:edges?|sides?|ends?))(?: please| pls)?"
                       # "OSGeo lettering -> 300px wide, same left edge"
                       r"|(?:but |and |with )*(?:(?:keep|keeping) )?(?:the |its )?same (?P<side4>left|right|top|bottom)"
                       r"(?: hand)? (?:edge|side|end)(?: please| pls)?"
                       # "title 64 -> 54, keep it where it starts": its start (a line of type starts on its left)
                       r"|(?:but |and |while |just )*(?:keep|keeping|leave|leaving) (?:it|them) where (?:it|they) "
                       r"(?P<start>starts?|begins?|ends?)(?: now)?(?: please| pls)?"
                       # "…, grow it from the left edge", "… bigger from the top left corner", "anchored left": the
                       # side it grows from holds
                       r"|(?:but |and |while |just |with )*(?:(?:grow|grows|growing|scale|scaled|scaling|expand|"
                       r"expanding|shrink|shrinking|resize|resized|resizing|size|sized)(?: it| them)?"
                       r"(?: up| down| out)? )?"
                       r"(?:from|off) (?:the |its |their )?(?:(?P<corner6>(?:top|bottom)[ -](?:left|right))"
                       r"(?: corner| point)?"
                       r"|(?P<side8>left|right|top|bottom)(?: hand)? (?:edges?|sides?|ends?))(?: please| pls)?"
                       # "…, keep its left edge and bottom": the corner of the two
                       r"|(?:but |and |while |just |with )*(?:keep|keeping|hold|holding|pin)(?: the| its)? "
                       r"(?P<pa>left|right|top|bottom)(?: edges?| sides?)? (?:and|&) (?:the |its )?"
                       r"(?P<pb>left|right|top|bottom)(?: edges?| sides?)?(?: (?:put|where (?:it|they) (?:is|are)|"
                       r"in place|fixed|still))?(?: please| pls)?"
                       r"|(?:but |and |while |just |with )*(?:keep(?:ing)? it |keep(?:ing)? )?(?:anchor|anchored|"
                       r"anchoring)(?: it)?(?: at| to| by| on)?(?: the| its)? (?P<side9>left|right|top|bottom)"
                       r"(?: hand)?(?: edges?| sides?)?(?: please| pls)?"
                       # "… 25% bigger (bottom stays)": a side said alone, with what it does
                       r"|(?:but |and |while |just |with )*(?:the |its |his |her |their )?(?:(?P<side10>left|right|top|"
                       r"bottom)|(?P<corner7>(?:top|bottom)[ -](?:left|right))) (?:stays?|staying|remains?|fixed|"
                       r"pinned|put|in place|unchanged|untouched|"
                       r"where (?:it|they) (?:is|are|was|were))(?: put| still| fixed| in place| where (?:it|they) "
                       r"(?:is|are|was|were))?(?: please| pls)?"
                       # "…, keep him standing where he is": a figure stands on its feet
                       r"|(?:but |and |while |just )*(?:keep|keeping|leave|leaving) (?P<feet>him|her|it|them) "
                       r"(?:standing|"
                       r"stood|planted) (?:where|on the spot where) (?:he|she|it|they) (?:is|are|was|were|stands?)"
                       r"(?: now)?(?: please| pls)?")
_GROWS = {"bigger", "larger", "smaller", "wider", "narrower", "taller", "shorter", "grow", "shrink", "scale", "enlarge",
          "resize", "size", "bump", "increase", "reduce", "decrease"}
HELD_ANCHOR = {"left": "left", "right": "right", "top": "top", "bottom": "bottom", "feet": "bottom", "base": "bottom",
               "baseline": "bottom"}


def held_tail(words: list[str]) -> int | None:
    """Where a clause's last words say what a resize holds ("20% bigger from its centre"), or None."""
    if HELD_EDGE.fullmatch(" ".join(words)):
        return None
    return next((k for k in range(2, len(words) - 1) if HELD_EDGE.fullmatch(" ".join(words[k:])) and (
        # "20% bigger from the left edge" holds that side; "move it 20px from the left edge" says where it goes
        words[k] not in ("from", "off") or _GROWS.intersection(words[:k])) and words[k - 1] not in (
        "a", "an", "one", "same", "common", "share")), None)  # ("… should share a vertical centre": no held edge)


def held_anchor(m: re.Match[str], current: str | None = None) -> str:
    """The anchor a ``HELD_EDGE`` match holds still: a side, a corner or the centre.

    The middle of one axis ("and its vertical centre") keeps the side already held (``current``), which holds
    that middle; alone, it is the centre.
    """
    if m.group("axis_centre"):
        return current or "center"
    if m.group("centre"):
        return "center"
    if m.group("start"):
        return "right" if m.group("start").startswith("end") else "left"
    if m.group("feet"):
        return "bottom"  # "keep him standing where he is": on his feet
    if m.group("pa"):
        sides = {m.group("pa"), m.group("pb")}
        v, h = sides & {"top", "bottom"}, sides & {"left", "right"}
        return f"{v.pop()}_{h.pop()}" if v and h else m.group("pa")
    corner = m.group("corner") or m.group("corner2") or m.group("corner3") or m.group("corner4") or m.group(
        "corner5") or m.group("corner6") or m.group("corner7")
    if corner:
        return corner.replace(" ", "_").replace("-", "_")
    return HELD_ANCHOR[m.group("side") or m.group("side2") or m.group("side3") or m.group("side4") or m.group("side5")
                       or m.group("side6") or m.group("side7") or m.group("side8") or m.group("side9")
                       or m.group("side10")]
DIRECTION = re.compile(r"\b(?:up|down|left|right|higher|lower|upwards?|downwards?)\b")


def predicates(skel: str, texts: list[str]) -> set[int]:
    """The mentions a clause says its subject is ("X is a skinny strip"): descriptions, not elements.

    ``texts`` are the words of the clause's mentions, in order (the article is a mention's first word).
    """
    said = re.findall(r"\bE\d+ (?:is|s|looks like|seems like) (?:just )?E(\d+)\b", skel)
    return {int(n) for n in said if int(n) < len(texts) and texts[int(n)].startswith(("a ", "an ", "such a "))}


def describes(skel: str) -> bool:
    """Whether a clause says how things are rather than asks for an edit."""
    return bool(DESCRIBES.match(skel) or OVERFLOW.match(skel) or NEITHER.match(skel) or LOOKS.match(skel))


#: "… and reads heavy next to the others", "looks cramped": how the subject said before looks, its subject left out.
LOOKS = re.compile(r"(?:also |still |just |kinda |really )?(?:(?:reads|looks|feels|seems|comes across) "
                   r"(?!like (?:E\d+ )?(?:it|they) (?:should|could|needs?)\b)|"
                   r"(?:is|are) (?!it\b|there\b|this\b|that\b|E\d))")


#: "neither is actually centred on the A4", "none of them are level": what is wrong, said of those named before.
NEITHER = re.compile(r"(?:neither|none)(?: of (?:E\d+|them|these|those))? (?:one |1 )?(?:is|are|sits?|looks?)\b")


#: Intents that a purpose clause ("so it …") may put in place of its main clause.
GOALS = {"align", "center", "separate", "inside", "place", "match", "region", "edge", "fill", "gap"}
#: How a thing is said to be where it is ("the logo is floating at the bottom"): the place says which one.
LIES = r"(?:is |are )?(?:floating |hanging |sitting |stuck )|floats |hangs "
PLACE_AFTER = re.compile(r"(E\d+) (?:that is |which is |sitting |placed |right |" + LIES + r")?"
                         r"(?:(?:down |up |over |out |way )?"
                         r"(?:at|on|in) the (?:very |far )?|"
                         r"(?=(?:top|bottom) (?:left|right)\b))(?:top|bottom|left|right|middle|center)"
                         r"(?: (?:left|right)(?: hand)?(?: corner)?| (?:row|line|part|area|strip|column))?"
                         r"(?: of the (?:page|slide|card|poster))?\b"
                         r"(?! (?:right|left|top|bottom|corner|hand|third|half|edge|side|center|middle)\b)")
#: A clause that says a panel moves with what is on it ("…, text and all").
CARRY = re.compile(r"(?:(?:the |its |their )?(?:text|texts|words|contents?|everything|lot) and all|"
                   r"(?:along )?with (?:its|the|their|all its) (?:text|texts|words|contents?)(?: on it)?|"
                   r"(?:and )?everything (?:on|in) it(?: too)?)(?: please| too)?")
#: "…, text follows", "the paragraph goes with it": what lies right under the element moved moves with it.
FOLLOWS = re.compile(r"(?:and |with )?(?:the |its )?(?:text|paragraph|para|body|copy|words|list|rest)(?: below| "
                     r"under it| underneath)? (?:follows|follow|goes with it|go with it|comes with it|moves with it|"
                     r"too|as well|along with it|along)(?: please| pls)?")
#: A clause that only says how big the gap the clause before changes should be ("…, gap about 60px").
GAP_SAID = re.compile(r"(?:(?:with|leaving|leave|and|so|so that|make|making) )?(?:a |the )?(?:gap|space|spacing|"
                      r"distance)\b(?: (?:of|is|about|around|roughly|approximately|to|at|should be|ends up|of about|"
                      r"of around|becomes|~))* [\d.]+ ?[a-z%]+(?: please| or so)?|(?:about |around |roughly |~)?"
                      r"[\d.]+ ?[a-z%]+ (?:gap|space|apart)(?: between (?:them|the two|both|those|these))?"
                      r"(?: please| pls)?"
                      # "…, leave about 2mm between": that gap between the two the problem named
                      r"|(?:(?:leave|leaving|put|keep|allow|with|give (?:them|both|those|these|the two))"
                      r" )?(?:about |around |roughly |~|just |only )?"
                      r"[\d.]+ ?[a-z%]+ (?:or so |ish |or thereabouts )?(?:of (?:gap|space|room|air) )?between"
                      r"(?: (?:them|the two|both|those|these))?"
                      r"(?: please| pls)?"
                      # "… more air under the logos - 12mm from the bottom of the ACM circle to the text"
                      r"|(?:about |around |roughly |~|just |only )?[\d.]+ ?[a-z%]+ "
                      r"(?:of (?:gap|space|room|air) |clear )?from (?:the )?(?:bottom|top|base|foot|edge|end|side) of "
                      r"(?:the |its |their )?[\w' ×-]+ (?:to|and) (?:the |its |their )?[\w' ×-]+")
#: "the values look a bit weedy next to the labels": a look judged against another, which is no element to change.
JUDGED_BESIDE = re.compile(r"\b(?:looks?|seems?|feels?|reads?|is|are)(?: \w+){0,3} (?:weedy|small|tiny|puny|big|huge|"
                           r"large|heavy|light|faint|thin|weak|loud|quiet|dull|lost|timid|shouty|overpowering|"
                           r"underwhelming) (?:next to|beside|against|compared (?:to|with)|than|by)\b")
#: "…, 20px between each item": the gap between each two of a set the clause before named.
EACH_GAP = re.compile(r"(?:(?:with|leaving|leave|and|so|about|around|roughly|approximately|like|~) )*[\d.]+ ?[a-z%]+ "
                      r"(?:of (?:space|gap|room|air) )?between (?:each|every|all|them)(?: (?:one|item|line|bullet|"
                      r"point|entry|row|pair|of them)s?)?(?: please| pls)?")
#: "…, left aligned with it, roughly 10px gap": a gap said at the end of the clause after a relative place.
PLACE_GAP_TAIL = re.compile(r" (?:with )?(?:a |an )?(?:about |around |roughly |approximately |~)?"
                            r"(?P<len>\d+(?:\.\d+)? ?[a-z]+) (?:of )?(?:gap|space|room)(?: please| pls)?$")
#: "Make it 30px": a length said for what the clause before spoke of.
SET_IT = re.compile(r"(?:(?:please |pls )?give (?:it|them|E\d+) (?:a |an |about |around |roughly |~)*[\d.]+ ?[a-z%]+ "
                    r"(?:of )?(?:gap|space|room|air|breathing room|spacing)(?: please| pls)?)|"
                    r"(?:(?:please |pls )?(?:make|set|change|increase|reduce|widen|open|narrow|close|tighten|loosen|"
                    r"cut|bring|take|open up|close up) (?:it|that|"
                    r"this|(?:the|that|this) (?:gap|space|spacing|distance)) (?:to |about |around |roughly |"
                    r"approximately |~)*|(?:please |pls )?add (?:about |around |roughly |approximately |~)*)?"
                    r"(?:at least |minimum |min |no less than )?[\d.]+ ?[a-z%]+"
                    r"(?: please| pls| instead| minimum| min)?")
#: A corner said alone, finishing "put X inside Y": "bottom-right corner", "in its top left corner".
CORNER_SAID = re.compile(r"(?:(?:in|at|to|into) (?:the |its )?)?(?:very )?(?:top|bottom|upper|lower) ?-? ?"
                         r"(?:left|right)(?: hand)?(?: corner)?(?: please)?")
#: "…, together with the wedges either side": more that moves with what the clause before moves.
ALONG = re.compile(r"(?:and )?(?:together|along) with (?:E\d+ ?(?:and )?)+(?:too|as well|please)?"
                   # ("…, together with acm, osc and its title": a part no words find is the one that moves)
                   r"|(?:and )?together with (?:(?:E\d+|[a-z]+) (?:and )?)*E\d+"
                   # "…, paragraph comes with it": those said first go with it
                   r"|(?:and )?(?:E\d+ (?:line |lines |text |block |one |ones )?(?:and )?)+(?:comes?|goes?|moves?|"
                   r"travels?|follows?)(?: along| too)?"
                   r"(?: with E\d+)?(?: too| as well| please)?")
#: Moves that may carry what is on a panel.
CARRIES = {"nudge", "region", "place", "edge", "align", "center", "inside"}


def reread(intent: Intent, text: str, *, size: bool = False) -> str:
    """The kind of a clause's intent once what its words say of it is weighed; ``intent`` is changed in place.

    A move up or down by a share with no verb that moves ("KIT logo up 20%"), or any move up or down when
    ``size`` (a size said wrong before it: "… is a tad oversized. 15% down"), is a size up or down; a gap set
    from a side of the page ("give the compass a 20px margin from the left edge") is that far from the edge.
    """
    p = intent.params
    moves = p.get("moves", [])
    wide = re.search(r"\b(?:up|down) to (?:about |around |roughly |approximately |~)?\d+(?:\.\d+)? ?[a-z]+ "
                     r"(?P<dim>wide|across|tall|high)\b", text)
    if intent.kind == "nudge" and len(moves) == 1 and moves[0][1] is not None and wide:
        # "bring it down to about 280px wide": a size, said with the way it changes
        intent.params = {"size": ("width" if wide.group("dim") in ("wide", "across") else "height", moves[0][1])}
        return "resize"
    if intent.kind == "nudge" and share_of_size(text, moves, bare=size):
        direction, amount = moves[0]
        grow = direction == "up"
        # ("down to 90%": the size to reach; "down 10%": by how much)
        to = amount is not None and bool(re.search(rf"\b{direction} to\b", text))
        intent.params = {"degree": p.get("degree", "medium"), "factor": None, "fraction": None,
                         "percent": (amount.value, to) if amount is not None else None, "grow": grow and not to,
                         "shrink": not grow and not to}
        return "resize"
    if intent.kind == "gap" and p.get("length") is not None and p.get("op") == "set" and not intent.refs and (
            side := EDGE_SAID.search(text)):
        intent.params = {"edge": side.group("side"), "inset": p["length"]}
        return "edge"
    return intent.kind


def reason_after(step: Any, steps: list[Any]) -> bool:
    """Whether a gap wanted, no length said, is why a move of the same elements made before it was asked for."""
    p = step.intent.params
    if p.get("length") is None and p.get("op") == "more" and steps and steps[-1].kind == "nudge" and moved_by(
            steps[-1].intent) and not set(steps[-1].patients) & set(step.patients):
        return True  # "move date + room + time down 15px, give the headline some air": away from it, why
    return p.get("length") is None and p.get("op") in ("more", "less") and any(
        s.kind == "nudge" and moved_by(s.intent) and set(s.patients) == set(step.patients) for s in steps)


def share_of_size(text: str, moves: list, *, bare: bool = False) -> bool:
    """Whether a move up or down by a share ("KIT logo up 20%", "take it down 10%") says a size.

    A share said with no verb that moves, or with one that sizes, is of the element's size; "move it up 10%" keeps
    its verb. ``bare`` (a size said wrong before): a move by no amount at all counts too ("… feels oversized, take it
    down"), and a share with any verb ("… is a bit heavy, drop it by 10%").
    """
    amount = moves[0][1] if len(moves) == 1 else None
    return (len(moves) == 1 and moves[0][0] in ("up", "down") and (amount.unit == "%" if amount is not None else bare)
            and bool(SIZE_VERB.match(text) or not MOVE_VERB.search(text) or (bare and amount is not None)))


#: "…, keep proportions", "proportionally": a size change that keeps the width to height ratio.
PROPORTIONS = re.compile(r"\b(?:keep(?:ing)?|with|maintain(?:ing)?|preserv\w*|lock(?:ed|ing)?|same) (?:the |its |"
                         r"their |original )?(?:proportions?|aspect(?: ratio)?|ratio)\b|\bproportional(?:ly)?\b|"
                         r"\bin proportion\b|\bdon'?t (?:stretch|squash|distort)\b")
_AMOUNTS = ("size", "factor", "percent", "fraction")


def sizes_said_once(steps: list[Any], remarks: list[str]) -> list[Any]:
    """The steps with one size (or one order) said twice said once, and proportions said kept where they are.

    "top OSC badge bigger, 60mm wide": "bigger" then how much, one resize (the one that says how much); "…,
    keep proportions" (a clause of its own) keeps the ratio of every resize the request makes.
    """
    out = []
    for k, s in enumerate(steps):
        nxt = steps[k + 1] if k + 1 < len(steps) else None
        if s.kind == "place" and nxt is not None and nxt.kind == "swap" and set(s.patients + s.refs) == set(
                nxt.patients):
            continue  # "X should sit above the name, not below it - swap them": the swap puts it there
        vague = (s.kind == "resize" and not any(s.intent.params.get(x) for x in (*_AMOUNTS, "stretch", "span"))) or (
            s.kind == "style" and list(s.intent.params) == ["font_size"] and not re.search(r"\d", s.text)) or (
            s.kind == "emphasis" and s.intent.params.get("more"))  # ("Blinky could be louder, 15% bigger")
        if s.kind == "nudge" and nxt is not None and nxt.kind == "nudge" and nxt.patients == s.patients and \
                not moved_by(s.intent) and moved_by(nxt.intent) and vertical(s.intent) == vertical(nxt.intent):
            continue  # "drop the name line a little, 3 mm lower": how far
        if vague and nxt is not None and nxt.kind == "inside" and len(s.patients) > 1 and set(
                nxt.patients) == set(s.patients):
            continue  # "shrink everything down and bring it onto the page": the drawing scaled as one, to fit
        if vague and nxt is not None and nxt.patients == s.patients and (
                nxt.kind == "resize" and any(nxt.intent.params.get(x) for x in _AMOUNTS)
                or nxt.kind == "style" and "font_size" in nxt.intent.params and re.search(r"\d", nxt.text)):
            continue  # ("OF ACHIEVEMENT a bit smaller - 10 instead of 12": how much smaller)
        prev = out[-1] if out else None
        if s.kind == "nudge" and prev is not None and prev.kind == "nudge" and not moved_by(s.intent) and moved_by(
                prev.intent) and [d for d, _a in s.intent.params.get("moves", [])] == [
                d for d, _a in prev.intent.params.get("moves", [])] and re.search(
                r"\bwith (?:it|them|him|her)\b|\btoo\b|\bas well\b|\balong\b", s.text):
            # "bring it down ~20px and move the subtitle down with it": as far as it
            s.intent.params["moves"] = list(prev.intent.params["moves"])
        if s.kind == "emphasis" and prev is not None and prev.patients == s.patients and re.search(
                r"\d", prev.text) and (prev.kind == "style" and "font_size" in prev.intent.params
                or prev.kind == "resize" and any(prev.intent.params.get(x) for x in _AMOUNTS)):
            continue  # "… to about 9px type, it's competing with the name": why, said after how much
        if vague and s.kind == "resize" and s.intent.params.get("anchor") and prev is not None and \
                prev.kind == "resize" and prev.patients == s.patients and not prev.intent.params.get("anchor"):
            prev.intent.params["anchor"] = s.intent.params["anchor"]  # "25% bigger, grow it from its own centre"
            continue
        out.append(s)
    if any(PROPORTIONS.search(r) for r in remarks) or any(PROPORTIONS.search(s.text) for s in out):
        for s in out:
            if s.kind == "resize":
                s.intent.params["keep_aspect"] = True
    return out


def held_apart(steps: list[Any], index: ElementIndex) -> list[Any]:
    """The steps with what "keep X where it is" holds taken out of the edits that would move it, the holds first.

    "Move everything down but keep the title": everything but the title moves; "add 2 mm between A and B, A doesn't
    move": B moves; "put '- Richard Feynman' after it, don't touch the quote": what is moved is not held (nor a
    section round it: its other members are held instead); "even out the gaps between the five of them, top and
    bottom one stay put": spacing evenly keeps the outer two where they are anyway, so nothing more is held.
    """
    kept = [s for s in steps if s.kind == "lock" and s.intent.params.get("keep")]
    if not kept or len(kept) == len(steps):
        return steps
    held = {i for s in kept for i in s.patients}
    for s in steps:
        if s in kept or len(s.patients) <= 1:
            continue
        if s.kind == "gap" and not s.refs and len(s.patients) == 2 and len(set(s.patients) & held) == 1:
            s.refs = [i for i in s.patients if i in held]
        if s.kind == "distribute" and held <= set(index.reading_order(s.patients)[::len(s.patients) - 1]):
            return [k for k in steps if k not in kept]
        s.patients = [i for i in s.patients if i not in held]
    # (a style, a colour or an outline changes where nothing is: neither is held against it)
    sized = [s for s in steps if s not in kept and s.kind in ("resize", "match", "style")]
    # "bring it in front, don't move it though": restacking moves nothing, so it is not held against it
    restacked = {i for s in steps if s not in kept and s.kind == "zorder" for i in s.patients}
    for s in kept:  # "take it up to 24px, leave it where it is": it grows about where it is, and is not locked
        for e in sized:
            if set(e.patients) & set(s.patients):
                e.intent.params.setdefault("anchor", "center")
        s.patients = [i for i in s.patients if not any(i in e.patients for e in sized) and i not in restacked]
    edited = {i for s in steps if s not in kept for i in s.patients}
    layout = index.layout
    for s in kept:
        if len(s.patients) > 1:
            s.patients = [j for i in s.patients if i not in edited for j in (
                [c for c in layout.get(i).children if c not in edited] if any(
                    a == i for e in edited for a in index.ancestors(e)) else [i])]
    return [s for s in kept if s.patients] + [s for s in steps if s not in kept]
