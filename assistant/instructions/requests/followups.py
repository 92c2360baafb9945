"""Clauses that only say more about the edit said before them.

"Put X closer to the title, gap about 60px" (how big the gap), "give the Features bullets a bit more air, 20px
between each item" (the gap between each two), "logo block could be bigger, like 25%" (how much), "pop the label
inside the beige panel, bottom-right corner" (which corner), "… run the full width, inside the 2mm margins", "shrink
it till it fits, same margin both sides", "…, about 30px clear of the edge".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.document import Layout
from assistant.instructions.requests.amounts import first_length
from assistant.instructions.requests.frame import Intent
from assistant.instructions.requests.mends import amount_after
from assistant.instructions.requests.placement import MARGIN_SAID, corner_said, margin_said
from assistant.instructions.requests.plan import Step, neighbour_below
from assistant.instructions.requests.said import (
    CORNER_SAID,
    EACH_GAP,
    EVEN_SIDES,
    FOLLOWS,
    GAP_SAID,
    GIVE_ROOM,
    ROOM_SAID,
    SET_IT,
    moved_by,
)

#: "…, it's 39 now", "(currently 14)": the size a text has now, as the person reads it.
_SIZE_NOW = re.compile(r"(?:(?:it is|its|it s|currently|now|which is|was)\s+)+(?:at\s+)?(?P<n>\d+(?:\.\d+)?)\s?"
                       r"(?:pt|px|points?|mm)?(?:\s+(?:now|currently|at the moment|right now))?")


#: "…, 1600px wide", "… about 300 px tall": a size alone, said after a resize that said no amount.
_SIZE_ONLY = re.compile(r"(?:(?:and|so|just|please|pls|say|maybe|to|about|around|roughly|like|~) )*\d+(?:\.\d+)? ?"
                        r"[a-z]+ (?P<d>wide|tall|high)(?: please| pls| max| or so| ish)?")


#: "… should live under the panel, not in it. 12px below": how far on the side said.
_GAP_ON_SIDE = re.compile(r"(?:(?:and|so|just|please|pls|about|around|roughly|~) )*[\d.]+ ?[a-z%]+ (?:below|under|"
                          r"underneath|beneath|above|over|to the (?:left|right)|left|right|away|clear)"
                          r"(?: (?:it|them|that))?(?: please| pls| or so)?")


#: "…, keep it on the right": the side of the page it is on, which a move up or down keeps.
_KEEP_SIDE = re.compile(r"(?:(?:and|but|just|please|pls) )*(?:keep|keeping|leave|leaving) (?:it|them) (?:over )?"
                        r"(?:on|at) the (?:left|right|top|bottom)(?: hand)?(?: side| edge)?"
                        r"(?: please| pls| where (?:it|they) (?:is|are))?")


#: "…, same gap on the left as at the top": the insets from a corner's two sides alike.
_SAME_INSET = re.compile(r"(?:(?:and|with|but|please|keep|keeping) )*(?:the |a )?same (?:gap|space|margin|distance|"
                         r"room|inset|padding)(?: (?:on|from|at) the (?:left|right|top|bottom)(?: edge| side)?)? as "
                         r"(?:at|on|from) the (?P<model>left|right|top|bottom)(?: edge| side)?(?: please| pls)?|"
                         r"(?:(?:and|with) )?(?:the )?same (?:gap|space|margin|distance) (?:on )?both (?:sides|edges|"
                         r"ways)(?P<model2>)")


def amend_last(steps: list[Step], pending: Step | None, said: str, remarks: list[str]) -> bool:
    """Put what the clause ``said`` into the step before it (or the problem ``pending``); whether it did.

    ``said`` is the clause's words, lower case; a clause said only as a remark goes into ``remarks``.
    """
    last = steps[-1] if steps else None
    if last is not None and last.kind == "style" and "abs" in (last.intent.params.get("font_size") or {}) and (
            now := _SIZE_NOW.fullmatch(said)):
        # "title: drop it to ~32pt, it's 39 now": the size said in the units its size now was said in
        last.intent.params["size_now"] = float(now.group("n"))
        return True
    if last is not None and last.kind == "place" and last.intent.params.get("rel") in ("above", "below", "left",
                                                                            "right") and (GAP_SAID.fullmatch(
            said) or _GAP_ON_SIDE.fullmatch(said)) and (
            length := first_length(said)) is not None:
        last.intent.params.update(gap=length, tight=False)  # "put Downstairs just above the logo, 15 px or so between"
        return True
    if last is not None and last.kind == "resize" and not any(last.intent.params.get(k) for k in (
            "factor", "fraction", "percent", "size")) and (size := _SIZE_ONLY.fullmatch(said)):
        # "intro paragraph narrower please, 1600px wide": how wide it should be
        length = first_length(said)
        if length is not None and length.unit != "%":
            last.intent.params["size"] = ("width" if size.group("d") == "wide" else "height", length)
            return True
    if last is not None and last.kind == "place" and last.refs and re.fullmatch(
            r"(?:(?:and|with|at|on|but|keep|keeping|please|pls) )*(?:the |a |its |their )?same "
            r"(?:vertical |horizontal )?(?:centre|center|middle)(?: line)?(?: as (?:it|them))?(?: please| pls)?", said):
        last.intent.params["centred"] = True  # "tuck it right after the quote, ~20px gap, same vertical centre"
        return True
    if last is not None and last.kind == "nudge" and last.intent.params.get("moves") and re.fullmatch(
            r"(?:(?:and|so|just|i e|ie|ie\.|i\.e\.) )*(?:towards?|in towards|closer to|nearer to|away from|out from) "
            r"(?!\d)[^\d]+", said):
        remarks.append(said)  # "nudge the mascot 5mm to the right, towards the text": which way it goes, said again
        return True
    if last is not None and last.kind == "region" and "_" in str(last.intent.params.get("region")) and (
            same := _SAME_INSET.fullmatch(said)):
        # "shove the shield into the top left corner, same gap on the left as at the top": the corner's two sides
        # that far in, the margin of the side said as the model
        last.intent = Intent("edge", last.intent.patients, last.intent.refs, params={
            "edge": last.intent.params["region"], "inset": None, "even_inset": same.group("model")})
        return True
    if last is not None and last.kind == "edge" and len(last.patients) > 1 and re.search(
            r"\b(?:relative to each other|relative to one another|as (?:a|one) (?:block|unit|group)|as one|together)\b",
            said) and re.match(r"(?:(?:and|but|just|please|pls) )*(?:keep|keeping|move|moving|leave|leaving)\b", said):
        last.intent.params["block"] = True  # "slide the text over so it ends at the right margin, keep title and
        return True  # tagline where they are relative to each other": the two moved as one
    if last is not None and last.kind in ("nudge", "align", "place", "gap") and _KEEP_SIDE.fullmatch(said):
        remarks.append(said)  # "drop it so the tops match. keep it on the right": where it is, it stays
        return True
    if last is not None and last.kind == "center" and re.fullmatch(
            r"(?:(?:and|please|pls|so|just) )*(?:both ways|both axes|in both directions|horizontally and vertically|"
            r"vertically and horizontally|both directions)(?: please| pls| too)?", said):
        last.intent.params["axis"] = "both"  # "… centre it in the band, both ways": across and down
        return True
    if last is not None and _NOT_SO.match(said) and not re.search(r"\b(?:it|them|this|that|those|these)\b", said):
        remarks.append(said)  # "… should be centred under the map, not hanging left": how it is now, said again
        return True
    gap_held = pending if pending is not None and pending.kind == "gap" else (
        last if last is not None and last.kind == "gap" else None)
    if gap_held is not None and (SET_IT.fullmatch(said) or GIVE_ROOM.fullmatch(said) or (
            (gap_held is last or re.search(r"\bbetween\b", said)) and GAP_SAID.fullmatch(said))) and (
            length := first_length(said)) is not None:
        # "the gap between the compass and the text is a bit tight, make it 30px"; "put X closer to the title,
        # gap about 60px"; "James Shaw is glued to the email address. about 3mm gap between them": the gap it should be
        # ("…, add ~4px", "give it another 10px": that much more)
        added = re.match(r"(?:(?:please|pls|and|then|just) )*add\b", said) or re.search(
            r"\b(?:another|extra|further)\b|\bmore$|\bmore (?:space|room|air|gap|spacing|breathing room)\b", said)
        gap_held.intent.params.update(op="more" if added else "set", length=length, added=bool(added))
        gap_held.intent.state = False
        return True
    if last is not None and last.kind == "gap" and len(last.patients) > 2 and EACH_GAP.fullmatch(said) and (
            length := first_length(said)) is not None:
        # "give the Features bullets a bit more air, 20px between each item": that gap between each two
        last.intent.params = {"op": "set", "length": length, "many": True}
        return True
    resized = pending if pending is not None and pending.kind == "resize" else last
    if amount_after(resized, said):
        return True  # "logo block top left could be bigger, like 25%"
    if resized is not None and resized.kind == "resize" and IN_ITS_CORNER.fullmatch(said):
        remarks.append(said)  # "… 75% and keep it in the corner": a resize holds the corner an element is in
        return True
    if last is None:
        return False
    side = last.intent.params.get("region") if last.kind == "region" else last.intent.params.get("edge")
    if last.kind in ("region", "edge") and side in _INSET_SIDES and (inset := _INSET_SAID.fullmatch(said)) and (
            length := first_length(inset.group("len"))) is not None:
        # "ACM logo to the top left corner, 15mm in from both edges"; "… down to the bottom, twenty mm above the
        # bottom edge": that far in from the sides it went to
        last.intent = Intent("edge", last.intent.patients, last.intent.refs, params={"edge": side, "inset": length})
        return True
    if last.kind == "align" and last.intent.params.get("edge") in (None, "level", "center") and re.fullmatch(
            r"(?:(?:and|so|just|please) )*(?:centers?|middles?) (?:to|on|with) (?:centers?|middles?)(?: please| pls)?",
            said):
        last.intent.params["edge"] = "center"  # "X should sit level with Y – centre to centre": their middles
        return True
    if last.kind == "place" and last.intent.params.get("rel") == "in" and CORNER_SAID.fullmatch(said):
        # "pop the label inside the beige panel, bottom-right corner": that corner of the panel
        last.intent.params["corner"] = corner_said(said)
        return True
    fits = last.intent.params.get("fit")
    if (last.kind == "fill" or fits) and MARGIN_SAID.fullmatch(said) and (inset := margin_said(said)) is not None:
        # "… run the full width of the bookmark, inside the 2mm margins": that far from each edge; "… scale it
        # down so the whole of it shows, roughly 4mm clear on both sides"
        last.intent.params["margin"] = inset
        return True
    if fits and EVEN_SIDES.fullmatch(said):
        last.intent.params["even"] = True  # "shrink it till it fits, same margin both sides"
        return True
    if last.kind in ("fill", "center") and EVEN_SIDES.fullmatch(said):
        remarks.append(said)  # "make it span the width, equal space either side": as it does
        return True
    if fits and _END_NEAR.fullmatch(said):
        remarks.append(said)  # "shrink it till the whole word fits on the page, right end near the margin": as fits
        return True
    if fits and (room := ROOM_SAID.fullmatch(said)):
        last.intent.params["room"] = first_length(room.group("len"))  # "…, about 30px clear of the edge"
        return True
    return False


def text_follows(layout: Layout, held: Step | None, said: str) -> bool:
    """Whether ``said`` says the text under the element moved moves with it; if so, it does.

    "… is tight under the map screenshot - give it another 10px or so, text follows": its section, and the text under
    it (its paragraphs, to the next gap wider than a line and a half), move with it.
    """
    if not (FOLLOWS.fullmatch(said) and held is not None and held.kind in ("gap", "nudge") and held.patients):
        return False
    whole = [g if (g := layout.get(i).group) and g.startswith("la-section") else i for i in held.patients]
    last = first = layout.get(whole[-1])
    first = None if whole != held.patients else first  # (a section holds its text: only what is close)
    held.patients = whole
    while (below := neighbour_below(layout, last)) is not None and below.id not in held.patients + held.refs and (
            last is first or below.box.y - last.box.y2 <= 1.5 * (last.font_size or 0.0)):
        held.patients.append(below.id)
        last = below
    return True


#: "…, right end near the margin": where a text made to fit ends, which fitting does.
_END_NEAR = re.compile(r"(?:(?:with|and|so) )?(?:its |the )?(?:right|left|bottom|top) (?:end|edge|side) (?:is |sits )?"
                       r"(?:near|at|by|close to|on|against|just inside|inside|up to|right at) (?:the )?(?:page )?"
                       r"(?:margin|edge)s?(?: please| pls)?")
#: Sides and corners a clause may say how far in from ("…, 15mm in from both edges").
_INSET_SIDES = frozenset({"top_left", "top_right", "bottom_left", "bottom_right", "left", "right", "top", "bottom"})
_INSET_SAID = re.compile(r"(?:(?:and|but|with|just|about|roughly|around|approx|approximately|some|say|~|leaving|"
                         r"keeping|ending|finishing|stopping|sitting|ends|finishes|stops|sits) )*"
                         r"(?P<len>[\d.]+ ?[a-z%]+) (?:in |inset |clear |of space |of room )?(?:from|off|"
                         r"above|below|away from|inside|clear of) (?:the |both |each |either |all |its )?"
                         r"(?:(?:top|bottom|left|right|page|canvas|paper|poster) )?(?:edges?|sides?|corners?|margins?|"
                         r"top|bottom|left|right)(?: (?:edges?|sides?))?(?: please| pls)?")


#: "…, not hanging left", "rather than at the top": what the edit before leaves behind, no edit of its own.
_NOT_SO = re.compile(r"(?:and |but )?(?:not|rather than|instead of) (?!(?:too|so|as|that|more|less|any|bigger|smaller|"
                     r"higher|lower|wider|narrower|taller|shorter)\b)")

#: "… - 18px please": a size of type alone, for the text said before.
_TYPE_SIZE_ONLY = re.compile(r"(?:(?:make it|set it|set it to|to|at|about|around|roughly|~) )*\d+(?:\.\d+)? "
                             r"(?:px|pt|points?|pixels?)(?: (?:please|pls|instead))?")


def move_is_how(last: Step | None, step: Step, ancestors: Callable[[str], list[str]]) -> bool:
    """Whether the move ``step`` is how the room the step before (``last``) asked for is made.

    "A bit more room above the road sign, drop it 3mm"; "give the right column a bit of air, move A and B 10px to the
    right" (some of it, by that much); "give the headline stack a little air below the black bar – move A and B down
    1 mm" (away from it); "more room between the terminal and 'Get a head start.' please: move that line and the date
    block down 5 mm together".
    """
    if step.kind != "nudge" or last is None or last.kind != "gap" or last.intent.params.get("length") is not None or \
            not moved_by(step.intent):
        return False
    rel = last.intent.params.get("rel")
    if rel is not None and (all(i in last.patients or set(ancestors(i)) & set(last.patients) for i in step.patients)
                            if rel != "between" else
                            set(last.patients) & set(step.patients) or set(last.refs) & set(step.patients)):
        return True
    way = {d for d, _a in step.intent.params.get("moves", [])}
    rel = last.intent.params.get("side") or rel  # ("give the stack a little air below the bar": below it)
    if len(way) == 1 and last.intent.params.get("op") == "less":  # "close up the gap under Overview - move the
        way = {{"up": "down", "down": "up"}.get(way.pop(), "")}  # block up 20px": what is under it comes up
    return len(way) == 1 and (rel, way.pop()) in (
        ("below", "down"), ("under", "down"), ("beneath", "down"), ("underneath", "down"), ("after", "down"),
        ("above", "up"), ("over", "up"), ("before", "up"))


def size_of_subject(layout: Layout, subject: list[str], said: str) -> Step | None:
    """The size of type a clause says alone for the texts a clause before named ("url in the footer - 18px")."""
    if not subject or not _TYPE_SIZE_ONLY.fullmatch(said) or not all(layout.get(i).kind == "text" for i in subject):
        return None
    return Step(Intent("style", list(range(len(subject))), params={"font_size": {"abs": first_length(said)}}),
                patients=list(subject), text=said)


#: "…, keep it in the corner": where it is (a resize holds the corner an element sits in).
IN_ITS_CORNER = re.compile(r"(?:and |but |while )?(?:keep|keeping|leave|leaving) (?:it|them) (?:tucked |snug |pinned |"
                           r"sitting )?(?:in|into|at) (?:the|its|their) corners?(?: please| pls)?")

__all__ = ["amend_last", "move_is_how", "text_follows", "size_of_subject"]
