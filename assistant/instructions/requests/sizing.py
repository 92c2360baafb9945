"""Patterns of the intents that change sizes, and of "fix that".

Emphasis and resize change sizes; "fix that" acts on a problem a clause before named.
"""

from __future__ import annotations

import re
from typing import Any

from assistant.instructions.requests import amounts as am
from assistant.instructions.requests.frame import E, Intent, slots

BIGGER = (r"\b(?:bigger|larger|biger|enlarge|enlarged|grow|increase(?: the)? size|bump (?:" + E + r" )?(?:size )?up|"
          r"bump up|size up|scale (?:" + E + r" ){0,2}up|blow (?:" + E + r" )?up|upsize|expand|too small|too tiny|"
          r"too little|undersized|unreadable|illegible|(?:hard|impossible|difficult) to read|"
          r"up (?:by )?(?:about |around |roughly )?\d+(?:\.\d+)? (?:%|percent) in size|"
          r"boost (?:the )?size|more big|embiggen|increase|maximize|bump|"
          r"(?:take|bring|step|go) (?:" + E + r" )?up (?:a|one) (?:size|notch|step)|(?:a|one) (?:size|notch) "
          r"(?:bigger|up))\b")
SMALLER = (r"\b(?:smaller|shrink|shrunk|reduce|decrease|scale (?:" + E + r" ){0,2}down|size down|downsize|"
           r"too big|too large|too huge|oversized|down (?:by )?(?:about |around |roughly )?\d+(?:\.\d+)? (?:%|percent) "
           r"in size|too much space|knock (?:" + E + r" )?(?:down|back) (?=by|\d|about|around|"
           r"roughly|a (?:fifth|quarter|third|half|tenth|bit|little|touch|tad|notch|size)|one|to)|minimize|less big|"
           r"more small|make (?:" + E + r" )?small|tinier|(?:bigger|larger) than (?:" + E + r" )?(?:needs?|has|have|"
           r"ought) to be|(?:could |should |can |might )?lose (?:about |around |"
           r"roughly |~)?\d+(?:\.\d+)?(?= ?(?:%|percent))|shave (?:off )?(?:about |around |roughly |~)?\d+(?:\.\d+)?"
           r"(?= ?(?:%|percent))|(?:take|knock|shave|trim|chop|cut) (?:about |around |roughly |~)?\d+(?:\.\d+)?"
           r"(?= ?(?:%|percent) off\b)|"  # ("take 25% off it")
           r"lessen|cut (?:" + E + r" )?down|(?:take|bring|knock|drop|step) (?:" + E + r" )?down (?:a|one) "
           r"(?:size|notch|step)|(?:a|one) (?:size|notch) (?:smaller|down))\b")

_SMALL_WORDS = r"tiny|small|puny|minuscule|little|undersized|timid|weak|thin|lost|dwarfed"
#: (not "bigger than": a comparison says which of two is off no more than it says how to mend it)
_BIG_WORDS = r"huge|big|large|massive|giant|oversized|heavy|bulky|enormous|shouty|loud|overpowering|overbearing"
_SIZE_AGAINST = re.compile(
    r"(?:(?:i think|imo|honestly|hmm|also|and|but|so|now|still|sorry|ok|okay) )*(?P<p>(?:E\d+ )*E\d+) "
    r"(?:is|are|looks?|seems?|feels?|reads?|comes? across as)(?: (?:a bit|a little|a tad|"
    r"quite|very|so|way|really|rather|far|too|pretty|kind of|kinda|bit|much))* (?:(?P<small>" + _SMALL_WORDS + r")|"
    r"(?P<big>" + _BIG_WORDS + r"))(?: (?:next to|beside|against|compared to|compared with|alongside|by|relative to|"
    r"beneath|under|above|over|for)(?: the size of)? (?P<r>E\d+))?\b")


def size_against(s: str) -> Intent | None:
    """"The footer logo is tiny next to the text", "the penguin looks huge": a size said wrong, a problem to mend."""
    m = _SIZE_AGAINST.match(s)  # what is said of the elements that open the clause, not of "the gap between" them
    if m is None:
        return None
    grow = bool(m.group("small"))
    pct, factor = am.percent(s), am.factor(s)
    if pct is not None or factor is not None:  # "KIT logo is tiny, 150% please": the problem and its amount
        if pct is not None and pct[0] > 100:
            pct = (pct[0], True)  # (a share over the whole is of the present size; "20%" is by how much)
        return Intent("resize", slots(m.group("p")), params={
            "degree": "medium", "factor": factor, "fraction": None, "percent": pct, "grow": grow, "shrink": not grow})
    # (what it is said against is resolved, so that "the text" later in the request is the same one)
    return Intent("resize", slots(m.group("p")), slots(m.group("r") or ""), params={
        "degree": "medium", "factor": None, "fraction": None, "percent": None, "grow": grow, "shrink": not grow},
        state=True)


def emphasis(s: str) -> Intent | None:
    """Emphasis: "stand out", "more prominent"; or less: "tone down", "not so shouty"."""
    if re.search(r"\b(?:stand out|standout|pop|more prominent|prominent|emphasize|emphasis|highlight|eye catching|"
                 r"grab attention|more noticeable|noticeable|louder|dominant|dominate|the focus|focal point|"
                 r"more important|draw the eye|catch the eye|more visible|hero|gets? lost|getting lost|"
                 r"hard to (?:see|spot|notice|find)|easy to miss|blends? in|blending in)\b", s) and not re.search(
                 r"\bless (?:prominent|noticeable|dominant|visible)\b|\btoo (?:prominent|dominant)\b|"
                 r"\bpop (?:E\d+ )+(?:in|into|inside|on|onto|under|above|next to|beside|at)\b", s):
        # ("pop the label inside the panel" puts it there); "gets lost in the body copy": among the body, not it
        among = re.search(r"\b(?:lost|blends?|blending) (?:in|into|among|against|amongst)(?: " + E + r")+", s)
        return Intent("emphasis", slots(s[:among.start()]) if among else slots(s)[:1],
                      params={"more": True, "degree": am.degree(s)})
    if re.search(r"\b(?:less prominent|tone down|toned down|quieter|shouty|shouting|too loud|calmer|calm down|"
                 r"de emphasize|deemphasize|subtler|more subtle|recede|too dominant|less dominant|too prominent|"
                 r"competing|compete|overpowering|overpowers|too strong|too heavy|less noticeable)\b", s):
        return Intent("emphasis", slots(s)[:1], params={"more": False, "degree": am.degree(s)})
    return None


_SIDE = r"(?P<{0}>top|bottom|left|right)(?: (?:edge|side|end))?"
_SPAN = re.compile(r"(?P<p>E\d+)(?: so(?: that)?(?: E\d+)?)? (?:runs?|spans?|reaches|reach|goes|go|stretches|stretch|"
                   r"extends?|covers?|fills?)(?: exactly| all the way| right)? from the " + _SIDE.format("a") +
                   r" of (?P<r1>E\d+)(?: (?:down|up|across|over|right|all the way))? to the " + _SIDE.format("b") +
                   r" of (?P<r2>E\d+)\b")


def span(s: str) -> Intent | None:
    """"Scale the compass so it runs from the top of the OSGeo letters to the bottom of the Bronze Sponsor line".

    The element is sized (its proportions kept) and placed to reach from one side of an element to a side of
    another, along that axis.
    """
    m = _SPAN.search(s)
    if m is None or {m.group("a"), m.group("b")} not in ({"top", "bottom"}, {"top"}, {"bottom"}, {"left", "right"},
                                                          {"left"}, {"right"}):
        return None
    return Intent("resize", slots(m.group("p")), slots(m.group("r1")) + slots(m.group("r2")), params={
        "degree": "medium", "factor": None, "fraction": None, "percent": None, "grow": False, "shrink": False,
        "span": (m.group("a"), m.group("b"))})


def end_at(s: str) -> Intent | None:
    """"Make it end where the panel ends": as wide as reaches the other's right edge, its left edge kept."""
    m = re.search(r"(E\d+) (?:end|ends|stop|stops|finish|finishes) (?:where|at|with) "
                  r"(?:the (?:right )?(?:edge|end) of )?(E\d+)(?: (?:ends|does|stops|finishes))?\b", s)
    if not m or m.group(1) == m.group(2):
        return None
    return Intent("resize", [int(m.group(1)[1:])], [int(m.group(2)[1:])], params={
        "degree": "medium", "factor": None, "fraction": None, "percent": None, "grow": False, "shrink": False,
        "end_at": True})


#: "… so there's a 20px gutter between the columns": the room a resize leaves to what the clause before named
#: ("… until there's 2mm before the divider", "… so there's 15px between them", "… so it clears the icon by 2mm").
CLEAR_SAID = re.compile(r"\b(?:so|until|till) (?:that )?(?:there (?:is|are|will be) |it has |we have |you get )"
                        r"(?:a |an )?(?:about |around |roughly |approximately |at least |~)?"
                        r"(?P<len>\d+(?:\.\d+)? ?[a-z]+) "
                        r"(?:(?:of )?(?:gap|gutter|space|margin|room|clearance|air)s?\b|between\b|before\b|clear\b|"
                        r"to spare\b)|\b(?:so|until|till) (?:that )?(?:it|they|E\d+) clears? (?:[\w'-]+ ){0,4}?by "
                        r"(?:about |around |roughly |~)?(?P<len2>\d+(?:\.\d+)? ?[a-z]+)\b"
                        # "narrow it so it stops before the right column": a gutter's width short of it, or as said
                        r"|\b(?:so|until|till) (?:that )?(?:it|they|E\d+) (?:stops?|ends?|finishes) (?:(?:at least |"
                        r"about |around |~)?(?P<len3>\d+(?:\.\d+)? ?[a-z]+) )?(?:just |well )?(?:before|short of|clear "
                        r"of|ahead of)\b(?! (?:the )?(?:(?:left|right|top|bottom) )?(?:edge|page|side|border|"
                        r"margin)s?\b)")
#: "make it smaller so there's 15px between them", "shrink it until it clears the icon by 2mm": smaller by what
#: leaves that room, not a move.
_SHRINK_CLEAR = re.compile(r"^(?:(?:please|pls|just|then|and|but|so) )*(?:make (?P<who>(?:E\d+ )+)(?:a (?:bit|touch|"
                           r"little) |slightly |a little bit )?(?:smaller|narrower|shorter|less wide)|(?:shrink|narrow|"
                           r"reduce|scale|size) (?P<who2>(?:E\d+ )+)(?:down )?(?:a (?:bit|touch|little) |slightly )?)"
                           r"(?: (?:a (?:bit|touch|little)|slightly))? ?(?=so\b|until\b|till\b)")


#: "pull its right edge in": narrower from that side, clear of what it runs into.
_EDGE_IN = re.compile(r"(?:(?:please|pls|just|then|and|so) )*(?:pull|bring|draw|tuck|take|move|push|nudge) "
                      r"(?P<who>(?:E\d+ )*)(?:the |its |their )?(?P<e>left|right|top|bottom) (?:edges?|sides?|ends?) "
                      r"(?:back )?(?:in|inwards?|back)\b")


def edge_in(s: str) -> Intent | None:
    """An edge pulled in: "… crashes into the right column - pull its right edge in" (the other side stays)."""
    m = _EDGE_IN.match(s)
    if m is None:
        return None
    e = m.group("e")
    return Intent("resize", slots(m.group("who")), params={
        "degree": "medium", "factor": None, "fraction": None, "percent": None, "grow": False, "shrink": True,
        "stretch": "narrower" if e in ("left", "right") else "shorter", "clear": True,
        "anchor": {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}[e]})


def shrink_clear(s: str) -> Intent | None:
    """A size made smaller until it leaves room to another: "make it smaller so there's ~15px between them"."""
    m = _SHRINK_CLEAR.match(s)
    clear = CLEAR_SAID.search(s, m.end()) if m else None
    said = (clear.group("len") or clear.group("len2") or clear.group("len3")) if clear else None
    length = am.first_length(said) if said else None
    stop = _STOP_SHORT.match(s)  # "… but stop it at least 10px before the right column"
    if stop is not None:
        m, length = stop, am.first_length(stop.group("len")) if stop.group("len") else None
        who = slots(stop.group("who"))
    elif m is None or clear is None or (length is None and said is not None):
        return None
    else:
        who = slots(m.group("who") or m.group("who2"))
    return Intent("resize", who, [n for n in slots(s[m.end():]) if n not in who], params={
        "degree": "medium", "factor": None, "fraction": None, "percent": None, "grow": False, "shrink": True,
        **({"clear_room": length} if length is not None else {"clear": True})})


#: "stop it at least 10 px before the right column": narrower, as far short of that as said (or a gutter's width).
_STOP_SHORT = re.compile(r"^(?:(?:please|pls|just|then|and|but|so) )*(?:stop|end|finish) (?P<who>(?:E\d+ )+)"
                         r"(?:(?:at least |about |around |~)?(?P<len>\d+(?:\.\d+)? ?[a-z]+) )?(?:just |well )?"
                         r"(?=before\b|short of\b|clear of\b)")


_TOUCHES_EDGES = re.compile(r"(?:E\d+ (?:and )?)+(?:is |are )?(?:nearly |almost |practically |just about |basically |"
                            r"now )?(?:touch(?:es)?|hits?|kiss(?:es)?|reach(?:es)?|runs? (?:right )?(?:up )?to) "
                            r"(?:the |both )?(?:page )?(?:edges|sides)"
                            r"(?: of (?:the )?(?:page|poster|card|slide|sheet|flyer))?")


def resize(s: str) -> Intent | None:
    """Size changes: "bigger", "shrink", "twice as big", "20 % smaller", "300px wide", "wider"."""
    if re.match(r"(?:some|the|these|those|a few|two|both|all)? ?(?:of the )?(?:gaps|spaces|spacing|space|distances|"
                r"margins|gutters)\b", s):
        return None  # "… unevenly spaced, some gaps are way bigger": what is wrong with the spacing, no size of any
    if _TOUCHES_EDGES.fullmatch(s):  # "Bergen Linux User Group nearly touches the edges": too big, by what follows
        return Intent("resize", slots(s)[:1], params={"degree": "medium", "factor": None, "fraction": None,
                                                       "percent": None, "grow": False, "shrink": True}, state=True)
    factor = am.factor(s)
    frac = am.fraction(s)
    pct = am.percent(s)
    grow = re.search(BIGGER, s)
    shrink = re.search(SMALLER, s)
    wider = re.search(r"\b(?P<w>wider|narrower|taller|shorter|longer|thinner|fatter|skinnier)\b", s)
    if not wider and (verb := re.search(r"\b(?P<v>narrow|widen|lengthen|shorten)(?: (?:down|up|out))? E\d+", s)):
        # "narrow it so there's a 20px gutter": narrower
        wider = re.search("(?P<w>.+)", {"narrow": "narrower", "widen": "wider", "lengthen": "longer",
                                         "shorten": "shorter"}[verb.group("v")])
    halved = re.search(r"\b(?:halve|double|triple)(?: E\d+| the)? (?P<d>height|width)\b|\b(?:half|twice|double|three "
                       r"times) as (?P<a>tall|wide|high)\b", s)
    if halved and not wider and am.factor(s) is not None:
        # "halve its height", "half as wide": that one side, by that factor (a shape stretches; type scales)
        grows = am.factor(s) > 1
        side = halved.group("d") or {"tall": "height", "high": "height", "wide": "width"}[halved.group("a")]
        wider = re.search("(?P<w>.+)", ("taller" if grows else "shorter") if side == "height" else (
            "wider" if grows else "narrower"))
    too = re.search(r"\btoo (?P<w>tall|wide|short|narrow|long|thin|high)\b", s)
    if too and not wider:  # "the photo is too tall" asks for it shorter
        opposite = {"tall": "shorter", "high": "shorter", "wide": "narrower", "long": "shorter",
                    "short": "taller", "narrow": "wider", "thin": "wider"}[too.group("w")]
        wider = re.search(rf"(?P<w>{opposite})", opposite)
    size_to = re.search(r"\b(?P<num>\d+(?:\.\d+)?) (?P<unit>[a-z%]+ )?(?P<dim>wide|tall|high|across|in width|"
                        r"in height|square)\b|\b(?P<dim2>width|height) (?:of |to |at )(?P<num2>\d+(?:\.\d+)?)", s)
    scale_word = re.search(r"\b(?:scale|size|resize|zoom)\b", s)
    # "scale the CERN logo up to 100 px": its longer side that long
    side_to = None if size_to else re.search(
        r"\b(?:scale|size|resize|zoom|make|bring|take|set|blow|grow|shrink)\b(?: E\d+)*(?: (?:up|down))? to (?:about |"
        r"around |roughly |approximately |~)?(?P<num>\d+(?:\.\d+)?) (?P<unit>px|pt|mm|cm|in|pixels?|points?)\b"
        r"(?! (?:from|of|between|away|apart|gap|margin|space))", s)
    if re.match(r"(?:the |a )?(?:gap|gaps|space|spacing|distance)\b", s):
        return None  # "the gap before X is double the others": a gap, not a size
    dims = am.DIMENSIONS.search(s) if re.search(r"\b(?:make|set|resize|scale|size)\b", s) else None
    # "speaker line to 80% please": the size it should have, with no verb
    bare_to = pct is not None and re.match(r"(?:E\d+ )+(?:down |up )?(?:to|at) (?:about |around |roughly |~)?"
                                           r"\d+(?:\.\d+)? (?:%|percent)(?: (?:please|pls|of (?:its|the) size))?$", s)
    if not (grow or shrink or factor or wider or size_to or side_to or dims or (scale_word and (pct or frac))
            or bare_to):
        return None
    params: dict[str, Any] = {"degree": am.degree(s), "factor": factor, "fraction": frac, "percent": pct}
    if size_to:
        dim = size_to.group("dim") or size_to.group("dim2")
        num = size_to.group("num") or size_to.group("num2")
        unit = (size_to.group("unit") or "px ").strip()
        params["size"] = ("height" if dim in ("tall", "high", "in height", "height") else "width",
                          am.Length(float(num), unit if unit in am.UNIT_PX or unit == "%" else "px"))
        if dim == "across":
            params["keep_aspect"] = True  # "the red circle, 320px across": its whole size, not its width alone
        if dim == "square" or re.search(r"\bwide both ways\b", s):
            params["square"] = True  # "make it 70mm square": that wide and that tall
    if side_to:
        unit = {"pixel": "px", "pixels": "px", "point": "pt", "points": "pt"}.get(side_to.group("unit"),
                                                                                side_to.group("unit"))
        params["size"] = ("side", am.Length(float(side_to.group("num")), unit))
    if dims and not size_to:  # "make it 90 x 90": that width, the height following (its proportions kept)
        unit = dims.group("unit") or dims.group("unit2") or "px"
        params["size"] = ("width", am.Length(float(dims.group("w")), unit))
    if wider:
        params["stretch"] = wider.group("w")
    params["grow"] = bool(grow) and not (shrink and shrink.start() >= grow.start())  # ("bigger than it needs to be")
    params["shrink"] = bool(shrink) and not params["grow"]
    # "the logo is too big" describes a problem: a later "shrink it by 25 %" says by how much
    # ("… the same height as the title, its taller atm": how it is now, which the edit before mends)
    asked = re.match(r"(?:make|shrink|enlarge|scale|resize|reduce|grow|increase|decrease)\b", s)
    state = not asked and bool(re.search(r"\btoo (?:big|large|huge|small|tiny|little)\b|\bthan E\d+ (?:needs?|has|"
                                         r"have|ought) to be|\b(?:atm|at the moment|currently|right now|at present|"
                                         r"as it stands)$", s))
    compared = re.search(r"\b(?:is|are|looks?|seems?)(?: (?:a bit|a little|much|way|slightly|a lot|far))? (?:bigger|"
                         r"larger|smaller|wider|narrower|taller|shorter) than (E\d+)"
                         r"(?! (?:needs?|has|have|ought) to be)", s)
    if compared and not re.match(r"(?:make|shrink|enlarge|scale|resize|reduce|grow|increase|decrease)\b", s):
        # "wi-fi is bigger than mesh" compares; it does not say which way to mend it ("make it match", "smaller");
        # what it is compared with is what "the same width" after it means
        params.update(grow=False, shrink=False, compare=True)
        return Intent("resize", [n for n in slots(s)[:1] if n != int(compared.group(1)[1:])],
                      [int(compared.group(1)[1:])], params=params, state=True)
    subject = re.match(r"(?:E\d+ and )+E\d+ (?=(?:is|are|look|looks|seem|seems|feel|feels|both|all)\b)", s)
    if subject:  # "email and website are unreadable": both
        return Intent("resize", slots(subject.group(0)), params=params, state=state)
    return Intent("resize", slots(s)[:1] if not re.search(r"\b(?:all|both|each)\b", s) else slots(s),
                  params=params, state=state)


def to_percent(s: str) -> Intent | None:
    """"Take it down to about 80 %", "scale the logo to 120 %": a size given as a share of the present one."""
    if re.search(r"\b(?:opacity|transparency|transparent|opaque|alpha)\b", s):
        return None  # "set the divider opacity to 40%": how much it shows, no size
    if not re.search(r"\b(?:take|bring|scale|cut|knock|reduce|shrink|set|make|resize|size)\b.*\bto (?:about |around |"
                     r"roughly |approximately )?\d+(?:\.\d+)? (?:%|percent\b)(?! of the (?:page|width|height|canvas))",
                     s) and not re.search(r"\b(?:make|scale|resize|size)(?: E\d+)* (?:about |around |roughly )?"
                                         r"\d+(?:\.\d+)? (?:%|percent\b)(?: of (?:its|their|the) (?:current |"
                                         r"present )?size)?$", s) and not re.fullmatch(
            r"(?:E\d+ )+(?:(?:down|up) )?(?:to|at) (?:about |around |roughly |approximately |~)?\d+(?:\.\d+)? "
            r"(?:%|percent)(?: (?:of )?(?:(?:its|their|the) (?:current |present )?size|what E\d+ (?:is|are)"
            r"(?: now)?))?", s):
        return None  # "take it down to 80 %", "make it 80 %", "scale the logo 120 %", "the title to 90 %", "… at 85 %"
    pct = am.percent(s)
    return Intent("resize", slots(s)[:1], params={"degree": am.degree(s), "factor": None, "fraction": None,
                                                  "percent": pct, "grow": False, "shrink": False})


def confirm(s: str) -> Intent | None:
    """"fix that", "sort it out": act on the problem a clause before described."""
    if re.fullmatch(r"(?:(?:please|pls|can you|could you|just|now|so|then|and) )*(?:fix|sort|correct|resolve|solve|"
                    r"repair|handle|address|deal with|take care of|clean up|tidy|sort out)(?: (?:it|that|this|them|"
                    r"out|up|please|pls|E\d+))*", s):
        return Intent("confirm", slots(s))
    return None


__all__ = ["emphasis", "resize", "confirm", "end_at", "BIGGER", "SMALLER"]
