"""Splitting a request into clauses, and what each clause asks for.

A request splits on punctuation and on *then*, *also*, *but*; on *and* where both sides ask for something
("make the title bigger and move it up"), not where *and* lists the elements one intent relates ("align the
title and the subtitle on the left"). Comma parts that continue a list of elements or only carry an amount
("smaller, by about a fifth") stay with the clause before.
"""

from __future__ import annotations

import re

from assistant.instructions.requests.choose import best_candidates, score_mention
from assistant.instructions.requests.colours import COLOUR_WORDS
from assistant.instructions.requests.frame import Intent
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.intents import detect
from assistant.instructions.requests.refs import find_mentions
from assistant.instructions.requests.style import detect_style
from assistant.instructions.requests.vocab import (
    CLASS_WORDS,
    COMMON_WORDS,
    EDGE_WORDS,
    FUNCTION_WORDS,
    INTENT_WORDS,
    MEASURE_WORDS,
    NOT_NOUNS,
    PAGE_WORDS,
    POSITION_ADJECTIVES,
)
from assistant.instructions.requests.words import TENS, UNITS, Token

_SPLIT_WORDS = {"then", "also", "plus", "but", "afterwards", "additionally", "finally"}
_AMOUNT_ONLY = re.compile(r"(?:(?:please|pls|say|maybe|roughly|about|around|approximately|just|only|by|to|of|"
                          r"a|an|one|or|so|\d+(?:\.\d+)?|%|percent|px|pt|mm|cm|in|pixels?|points?|bit|little|lot|"
                          r"touch|tad|half|third|quarter|fifth|tenth|times|x) ?)+")
_SIZE_OF_NOW = re.compile(r"(?:about |around |roughly |say |maybe |to )?"
                          r"(?:three quarters|3 quarters|two thirds|2 thirds|half|\d+(?:\.\d+)? ?%) (?:of )?"
                          r"(?:what E\d+ (?:is|are)(?: now)?|the size|its size|their size|its current size|"
                          r"E\d+ (?:current )?size)")
#: Numbers in words ("three quarters" is not "there quarters").
_NUMBER_WORDS = set(UNITS) | set(TENS) | {"hundred", "quarters", "thirds", "halves", "fifths", "tenths"}
#: A clause that only names an element by where it is: "the zeste de savoir logo at the bottom".
_PLACE_NAMED = re.compile(r"E\d+ (?:(?:at|on|in) the )?(?:very |far )?(?:top|bottom|left|right|middle|center)"
                          r"(?: (?:left|right))?(?: corner)?")
#: A clause that only names an element by what it is next to: "the CERN logo next to P1 ATLAS".
_REL_NAMED = re.compile(r"E0 (?:(?:that is|that's|which is|sitting|sat|right|just|directly) )?"
                        r"(?P<rel>next to|beside|by|under|below|beneath|underneath|above|over|on top of|near|"
                        r"(?:to the )?(?:left|right) of) E1")
#: "…, with 5 mm of space between them": the gap of the clause before.
_WITH_GAP = re.compile(r"(?:and )?(?:with|leaving) (?:a |an |about |around |roughly )*\d+(?:\.\d+)? \w+ (?:of )?"
                       r"(?:space|gap|room|air)(?: between E\d+| in between)?(?: please)?|"
                       # "space the three logos evenly, 6mm gaps"
                       r"(?:a |an |about |around |roughly )*\d+(?:\.\d+)? \w+ (?:gaps?|apart|spacing)"
                       r"(?: between (?:E\d+|each))?(?: please)?")
#: "… is shouting. 80px -> 64px": a size from one number to another, an edit of its own (not an amount).
_FROM_TO_ONLY = re.compile(r"(?:from )?\d+(?:\.\d+)? ?(?:pt|px|points?|pixels?)? (?:(?:down|up|back) )?to "
                           r"(?:about |around |roughly |~)?\d+(?:\.\d+)?(?: (?:pt|px|points?|pixels?))?"
                           r"(?: please| pls)?")
#: "…: title up 3, name down 3": a move by an amount, an edit of its own (not the end of the list before).
_OWN_MOVE = re.compile(r"E\d+ (?:up|down|left|right|higher|lower) (?:by )?\d")
_RELATING = {"align", "distribute", "swap", "match", "gap", "separate", "center"}


def vocabulary() -> set[str]:
    """The words of requests themselves, whatever the layout: kinds, places, amounts, verbs, colours."""
    return (set(CLASS_WORDS) | PAGE_WORDS | EDGE_WORDS | MEASURE_WORDS | FUNCTION_WORDS | INTENT_WORDS
            | set(POSITION_ADJECTIVES) | _EXTRA_KNOWN | COMMON_WORDS | NOT_NOUNS | _NUMBER_WORDS | COLOUR_WORDS)


def known_words(index: ElementIndex) -> set[str]:
    """Words typos are corrected to: the vocabulary and the layout's own names."""
    return vocabulary() | index.known_words


_EXTRA_KNOWN = {
    "please", "bigger", "larger", "smaller", "center", "centered", "middle", "vertically", "horizontally", "evenly",
    "aligned", "align", "alignment", "overlap", "overlaps", "corner", "percent", "pixels", "pixel", "points",
    "wider", "narrower", "taller", "shorter", "bolder", "regular", "lighter", "front", "back", "behind", "forward",
    "backward", "swap", "order", "wrong", "twice", "double", "half", "quarter", "third", "inside", "edge",
    "margin", "spacing", "closer", "further", "apart", "together", "prominent", "width", "height", "size",
    "distribute", "nudge", "shift", "stretch", "shrink", "enlarge", "little", "slightly", "touch", "lock",
    "unlock", "level", "flush", "gaps", "space", "room", "upper", "lower", "higher", "above", "below", "under",
    "beneath", "underneath", "beside", "next", "across", "falling", "hanging", "edges", "shouty", "standout",
    "read", "reads", "bold", "hold", "led",
}


class Sentence(list):
    """The tokens of a clause that opens a sentence (after a full stop, "!" or "?"): never a list's tail."""


class Topic(list):
    """The tokens of a clause said before a colon: what follows is about it.

    "the logo next to the title: make it smaller" names the logo by where it is; it does not move it.
    """


def _still_clear(tokens: list[Token]) -> bool:
    """Whether the words say that what an edit moves still keeps clear of something ("it still clears …")."""
    words = [t.text for t in tokens]
    if words[:1] and words[0] in ("it", "they", "that", "this"):
        words = words[1:]
    return len(words) >= 2 and words[0] in ("still", "also") and words[1] in ("clears", "clear", "misses")


def clauses(tokens: list[Token]) -> list[list[Token]]:
    """The request split on punctuation and on *then*, *also*, *but* and the like."""
    parts: list[list[Token]] = [[]]
    for k, t in enumerate(tokens):
        listed = (t.text == "," and 0 < k < len(tokens) - 1 and tokens[k - 1].kind == "number"
                  and tokens[k + 1].kind == "number")
        if listed:  # "coverline 2, 3 and 4"
            parts[-1].append(Token("and", ","))
        elif t.kind == "punct" and t.text in ",;:.!?":
            if t.text == ":" and parts[-1]:
                parts[-1] = Topic(parts[-1]) if not isinstance(parts[-1], Sentence) else parts[-1]
            parts.append(Sentence() if t.text in ".!?" else [])
        elif t.kind == "word" and t.text in _SPLIT_WORDS:
            parts.append([])
        elif t.text == "without" and parts[-1] and k + 1 < len(tokens) and tokens[k + 1].text.endswith("ing"):
            parts.append([t])  # "make the tagline bigger without touching the name": a limit of its own
        elif t.text == "and" and parts[-1] and _still_clear(tokens[k + 1:k + 4]):
            parts.append([])  # "… so that line shows and it still clears the heading": a limit of its own
        else:
            parts[-1].append(t)
    return [p for p in parts if p]


def described(tokens: list[Token], skel: str) -> bool:
    """Whether a clause said as the topic of what follows only says which element by where it is.

    "the CERN logo next to P1 ATLAS: make it 50px square" (and "the photo under the title, smaller", where the photo
    is under it): the logo, not a move.
    """
    return isinstance(tokens, Topic) and bool(_REL_NAMED.fullmatch(skel))


def _holds(skel: str, mentions: list, index: ElementIndex) -> bool:
    """Whether the element a clause names stands where the clause says, so that the words describe it.

    "the logo under the title, smaller" names the logo that is under the title (not a move), when there is one.
    """
    rel = _REL_NAMED.fullmatch(skel).group("rel")
    found = [best_candidates(score_mention(m, index), index) for m in mentions[:2]]
    if len(found) < 2 or len(found[0]) != 1 or not found[1]:
        return False
    a = index.layout.get(found[0][0]).box
    page = index.layout.canvas
    near = 0.12 * max(page.width, page.height)
    for b in (index.layout.get(i).box for i in found[1]):
        across = min(a.x2, b.x2) - max(a.x, b.x) > -near / 2  # (nearly) over one another
        level = min(a.y2, b.y2) - max(a.y, b.y) > -near / 2  # (nearly) side by side
        if rel in ("next to", "beside", "by", "near"):
            ok = a.distance(b) <= near
        elif rel in ("under", "below", "beneath", "underneath"):
            ok = a.cy > b.y2 - 0.25 * b.height and across and a.y - b.y2 <= near
        elif rel in ("above", "over", "on top of"):
            ok = a.cy < b.y + 0.25 * b.height and across and b.y - a.y2 <= near
        else:  # left of / right of
            ok = level and (a.cx < b.x if "left" in rel else a.cx > b.x2) and a.distance(b) <= near
        if ok:
            return True
    return False


def _said_state(skel: str, tokens: list[Token]) -> bool:
    """Whether a clause says what is wrong ("the logo is sitting right on top of the heading"), asking no edit.

    One gap said after it ("… - 20px gap between them") is the edit that mends it, not an amount of it.
    """
    found = detect_intent(skel, tokens)
    return found is not None and found.state


def lists_joined(parts: list[list[Token]], index: ElementIndex) -> list[list[Token]]:
    """Comma parts that continue a list of elements ("align the title, the subtitle and the body") joined again."""
    out: list[list[Token]] = []
    prev_skel = ""
    prev_m: list = []
    for part in parts:
        _m, skel = find_mentions(part, index)
        if out and not isinstance(part, Sentence) and (
                not _m and _AMOUNT_ONLY.fullmatch(skel) and not _FROM_TO_ONLY.fullmatch(skel)
                    or _SIZE_OF_NOW.fullmatch(skel)
                    or _WITH_GAP.fullmatch(skel) and not (
                        re.search(r"\bgap\b", skel) and _said_state(prev_skel, out[-1]))):
            # "smaller, by about a fifth", "smaller, about three quarters of what it is now"
            out[-1] = out[-1] + part
            prev_m, prev_skel = find_mentions(out[-1], index)
            continue
        if out and not isinstance(out[-1], Topic) and re.search(r"E\d+$", prev_skel) and re.match(
                r"E\d+(?: (?:and|or|&) E\d+)*(?: |$)", skel) and not \
                re.fullmatch(r"(?:the |its |their )?(?:text|texts|words|contents?|everything|lot) and all",
                             " ".join(t.text for t in part)) and not (
                    # "swap the two lines, credit on the left and the join line on the right": where each ends up
                    re.match(r"(?:swap|switch|flip|exchange|reverse)\b", prev_skel) and re.match(
                        r"E\d+ (?:goes |go |ends up |sits )?(?:on|to|at|in) the (?:left|right|top|bottom)\b",
                        skel)) and \
                not re.match(r"E\d+ (?:is|are|was|should|must|has|looks|seems|goes|go|moves|comes|sits|ends|stays|"
                             r"does|do|did|can|will|needs|need|remains|remain|gets|keeps|stay)\b",
                             skel) and not _OWN_MOVE.match(skel) and not (
                    prev_m and prev_m[-1].count):  # "swap the two logos - GeoNode one up top": the two are said
            out[-1] = out[-1] + [Token("and", "and")] + part
            prev_m, prev_skel = find_mentions(out[-1], index)
            continue
        back = bool(_m) and all(x.pronoun in ("it", "them", "this", "that") and not x.words for x in _m)
        if out and (not _m or back) and _REL_NAMED.fullmatch(prev_skel) and not isinstance(out[-1], Topic) and \
                _holds(prev_skel, prev_m, index) and detect_intent(skel, part) is not None:
            # "the photo under the title, a bit smaller": the photo that is under the title (as before a colon)
            out[-1] = Topic(out[-1])
        if out and (not _m or back) and _PLACE_NAMED.fullmatch(prev_skel) and (own := detect_intent(skel, part)):
            # "the logo at the bottom, a little smaller please": the place says which logo; the rest what to do
            # ("the rocket on the left: make it smaller" alike, the pronoun being the element named)
            # the pronoun stands for the element with its place ("center [the rocket on the left] vertically")
            joined = [s for t in part for s in (out[-1] if t.text in ("it", "them", "this", "that") else [t])] \
                if back else out[-1] + part
            _m, joined_skel = find_mentions(joined, index)
            # (the place that says which must not become where to: "java at the bottom left - I want 4mm between
            # it and the bottom edge" is no move left)
            if (found := detect_intent(joined_skel, joined)) is not None and found.kind == own.kind:
                out[-1], prev_skel, prev_m = joined, joined_skel, _m
                continue
        out.append(part)
        prev_skel, prev_m = skel, _m
    return out


_SIDES = frozenset({"left", "right", "top", "bottom"})
_WAYS = frozenset({"up", "down", "left", "right", "upwards", "downwards", "leftwards", "rightwards"})
#: A clause that only names the edges of elements ("the left edges of the title"): the start of a list, no edit.
_EDGES_OF = re.compile(r"(?:the )?(?:(?:left|right|top|bottom) )?(?:edges?|sides?|tops?|bottoms?|centers?|middles?|"
                       r"baselines?) of (?:E\d+ ?(?:, |and )?)+")


def split_and(tokens: list[Token], index: ElementIndex) -> list[list[Token]]:
    """A clause split on *and* where both sides ask for something ("make it bigger and move it up")."""
    for k, t in enumerate(tokens):
        if t.kind != "word" or t.text != "and" or k == 0 or k == len(tokens) - 1:
            continue
        after = tokens[k + 2] if tokens[k + 1].text == "the" and k + 2 < len(tokens) else tokens[k + 1]
        if tokens[k - 1].text in _SIDES and after.text in _SIDES:
            continue  # "the margins on the left and right", "20px from the top and the left": two sides, one phrase
        if tokens[k - 1].text in _WAYS and tokens[k + 1].text in _WAYS:
            continue  # "up and left by 20px each": one move both ways
        left, right = tokens[:k], tokens[k + 1:]
        lm, ls = find_mentions(left, index)
        rm, rs = find_mentions(right, index)
        li, ri = detect_intent(ls, left), detect_intent(rs, right)
        if _EDGES_OF.fullmatch(ls) or re.fullmatch(r"E\d+(?: (?:and )?E\d+)* together(?: please| pls)?", rs):
            # one list: "left edges of the title, due date and the address block should line up", "… centred on the
            # title + subtitle together"
            continue
        if li is None and not lm and _AMOUNT_ONLY.fullmatch(ls) and re.search(r"\d", ls):
            return [left] + split_and(right, index)  # "… way too big - 75% and keep it in the corner": how much
        if li is None or ri is None:
            continue
        if re.match(r"E\d+ (?:should |must |need to |needs to |have to |ought to )?(?:share|be level|line up|be "
                    r"aligned|match)\b", rs) and re.fullmatch(r"E\d+(?: (?:at |in |on )?(?:the )?(?:top|bottom|left|"
                                                             r"right|middle|center)(?: (?:left|right))?)?", ls):
            continue  # "gvSIG logo bottom left and www.gvsig.com should share a vertical centre": the two share it
        # "align the title and the subtitle on the left" is one request about two elements
        relating = li.kind in _RELATING and not li.refs and rs.startswith("E") and right[0].text not in INTENT_WORDS
        if re.fullmatch(r"\w+ E\d+", ls) and ri.kind == "nudge" and rs.startswith("E") and \
                right[0].text not in INTENT_WORDS:
            continue  # "bump the fb link and the www link down 1.5mm": one verb, both moved that way
        if not relating and (right[0].text in INTENT_WORDS or rm or not rs.startswith("E")):
            return [left] + split_and(right, index)
    return [tokens]


def detect_intent(skel: str, tokens: list[Token], original: str = "") -> Intent | None:
    """The intent of a clause skeleton; ``original`` (the request as typed) is where font names are read."""
    raw = original or " ".join(t.raw for t in tokens)
    # "20px between its bottom and the title": between the two, measured where they face each other
    skel = _EDGE_BETWEEN.sub(r"between \1 and", skel)
    found = detect(skel, style=lambda s: detect_style(s, raw))
    wish = re.match(r"(?:i|we) (?:would |do )?(?:like|want|need|prefer)(?: to(?: have| see| get)?)? (?=\S)", skel)
    if found is None and wish:  # "I'd like 1cm between the subtitle and the intro": the wish is the request
        found = detect(skel[wish.end():], style=lambda s: detect_style(s, raw))
    return found


def looks_english(tokens: list[Token]) -> bool:
    """Whether the words as typed (before any typo was corrected) are mostly the vocabulary's English."""
    words = [t.raw for t in tokens if t.kind == "word"]
    known = [w for w in words if w in FUNCTION_WORDS or w in INTENT_WORDS or w in CLASS_WORDS or w in COMMON_WORDS]
    return bool(words) and len(known) >= 0.5 * len(words)


#: An edge said of the first of two a gap is between ("between its bottom and …").
_EDGE_BETWEEN = re.compile(r"\bbetween (E\d+) (?:(?:left|right|top|bottom)(?: edge| side)?|edge|side) and\b")


__all__ = ["clauses", "described", "lists_joined", "split_and", "detect_intent", "known_words", "looks_english"]
