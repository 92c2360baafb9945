"""A problem said, then an edit: whether the edit is how to mend it, and what it takes from the problem.

"The tagline feels oversized, take it down 10%" (down a size, not down the page), "the Welcome para runs into the
right column, narrow it so there's a 20px gutter" (from the column), "Thrust 4 sits a hair higher than Thrust 1 -
line their tops up" (the one said to be off moves).
"""

from __future__ import annotations

import re

from assistant.instructions.requests.amounts import first_length
from assistant.instructions.requests.intents import Intent
from assistant.instructions.requests.plan import Step
from assistant.instructions.requests.refs import Mention
from assistant.instructions.requests.said import AMOUNT_ONLY, AT_SIDE, FAMILY, GIVE_ROOM, OVERFLOWS, as_mend, reread
from assistant.instructions.requests.sizing import CLEAR_SAID

#: "… keep it inside the left column", "keep it in its own column": clear of the column beside it.
_OWN_COLUMN = re.compile(r"\b(?:inside|within|in) (?:the |its |their )?(?:(?:left|right|own|first|second) )?"
                         r"(?:hand )?(?:column|lane)\b")

#: "… halve it", "cut it in half", "double it": a gap said before scaled so.
_GAP_TIMES = re.compile(r"(?:(?:just|please|pls|so|and|then) )*(?P<v>halve|double|triple|cut|take)(?: (?:it|that|this|"
                        r"them|the gap|that gap|the space))?(?: (?:in|by) half| down by half)?(?: please| pls)?")
_TIMES = {"halve": 0.5, "cut": 0.5, "take": 0.5, "double": 2.0, "triple": 3.0}
#: The way a move goes that puts one element on the side of another a problem said it should be on.
_CLEARS = {"above": "up", "below": "down", "left": "left", "right": "right"}


def mend(held: Step, step: Step, kind: str) -> tuple[str, bool]:
    """The kind of ``step`` once read after the problem ``held``, and whether it mends that problem.

    ``step`` takes what the problem says it lacks (its references, a fit, the one that moves).
    """
    side = re.search(r"\bon the (left|right|top|bottom)\b", step.text)
    if kind == "gap" and held.kind == "edge" and step.intent.params.get("length") is not None and side and \
            side.group(1) == held.intent.params.get("edge") and step.patients == held.patients:
        # "… almost kisses the right edge - give it 15mm breathing room on the right": that far from the edge
        step.intent = Intent("edge", step.intent.patients, params={"edge": side.group(1),
                                                                   "inset": step.intent.params["length"]})
        kind = "edge"
    if kind == "nudge" and FAMILY.get(held.kind) == "size":
        # "the tagline feels oversized, take it down 10%", "… is a tad oversized. 15% down", "… unreadable
        # from across the room. both up ~15%": down a size, not down the page
        kind = step.intent.kind = reread(step.intent, step.text, size=True)
    # "… goes out of the page, make it smaller"; "the light is over the text, put it behind the text": an
    # edit of what the problem named, said right after it, is how to mend it
    # "the English line runs off the right" is a problem of being inside, whatever way it was read
    overflow = held.kind == "inside" or (held.kind == "nudge" and re.search(OVERFLOWS, held.text))
    mends = FAMILY.get(kind, kind) == FAMILY.get(held.kind, held.kind) or (
        overflow and FAMILY.get(kind) in ("size", "place")) or (
        held.kind == "separate" and kind in ("zorder", "resize", "nudge", "region", "place", "edge")
        and bool(set(step.patients) & set(held.patients + held.refs))) or (
        # "the question mark is crammed against the top, bring it down ~20px"
        held.kind == "gap" and kind in ("nudge", "region", "place", "edge", "inside")
        and bool(set(step.patients) & set(held.patients))) or (
        # "validate should come after build — swap those two boxes"; "time should come straight after the
        # date - swap Golisano 2620 and 4pm - 6pm": an order said wrong, then the swap that rights it
        held.kind == "place" and kind == "swap") or (
        # "the intro text is wider than the beige box, keep it within the box's width"; "the orange subtitle is
        # wider than the page - scale it down so it sits inside the margins"
        (held.intent.params.get("compare") or held.kind == "resize" and held.intent.state) and kind == "inside") or (
        # "the subtitle is jammed right under the big PostGIS, add about 3mm between them"
        held.kind == "place" and (held.intent.params.get("tight") or held.intent.state) and kind in ("gap", "nudge")
        and bool(set(step.patients) & set(held.patients)))
    if mends and kind == "gap" and held.kind == "place" and not step.refs and set(step.patients) <= set(held.patients):
        # "X floats a bit far below the banner - pull it up so there's only 2mm between": between it and the banner
        step.refs = [r for r in held.refs if r not in step.patients]
    if overflow and kind == "resize":
        step.intent.params["fit"] = True
    if held.kind == "separate" and kind == "nudge" and held.refs and set(step.patients) <= set(held.patients) and \
            _OWN_COLUMN.search(step.text):
        # "the bold intro runs into 'OSGeo holds …' on the right. keep it inside the left column": narrower, clear
        # of what it runs into
        step.intent = Intent("resize", step.intent.patients, params={"clear": True})
        step.refs = [r for r in held.refs if r not in step.patients]
        kind, mends = "resize", True
    if mends and kind == "resize" and held.kind == "separate" and not step.refs and CLEAR_SAID.search(
            step.text):
        # "the Welcome para runs into the right column, narrow it so there's a 20px gutter": from that
        step.refs = [r for r in held.refs if r not in step.patients]
    if mends and kind == "match" and not step.refs and (held.intent.params.get("compare") or held.refs):
        # "Bronze Sponsor is narrower than the wordmark — stretch it to the same width": the wordmark's
        step.refs = [r for r in held.refs if r not in step.patients]
    if (out := back_out(held, step)) is not None:
        step.intent, step.refs, kind = out, out_of(held, step), "place"
    times = _GAP_TIMES.fullmatch(step.text) if held.kind == "gap" and kind == "resize" else None
    times = times if times and (times.group("v") not in ("cut", "take") or "half" in step.text) else None
    if times:  # "too much space between the title and the name, halve it": the gap, not the title
        step.intent = Intent("gap", held.intent.patients, held.intent.refs, params={
            **held.intent.params, "op": "set", "length": None, "times": _TIMES[times.group("v")]})
        step.patients, step.refs = list(held.patients), list(held.refs)
        kind, mends = "gap", True
    if mends and kind == "align" and not step.refs and held.kind in ("nudge", "place") and held.refs and set(
            step.patients) in (set(held.patients + held.refs), set(held.patients)):
        # "Thrust 4 sits a hair higher than Thrust 1 - line their tops up": the one said to be off moves
        step.patients, step.refs = list(held.patients), list(held.refs)
    return kind, mends


def back_out(held: Step, step: Step) -> Intent | None:
    """"For Blinky hangs down into the black bar. pull it up so it's all on the beige": up until it is out of it.

    Also "… hangs over the black bar. move it up …". None unless ``held`` says its element runs into another (or
    belongs on one side of it) and ``step`` moves it that way, by no amount.
    """
    way = {w for w, length in step.intent.params.get("moves", []) if length is None} if step.kind == "nudge" and (
        step.intent.params.get("degree") != "small" or step.intent.params.get("clears")) else set()
    # ("… lift it up a bit": a bit; "… shove 2018 right a bit so there's a small gap": until it is clear)
    out = as_mend(held.intent) if held.kind == "nudge" and held.intent.params.get("into") else held.intent
    if held.refs and len(way) == 1 and held.kind in ("nudge", "place") and out.kind == "place" and \
            _CLEARS.get(out.params.get("rel", "")) in way:
        return Intent("place", step.intent.patients, out.refs, params=dict(out.params))
    others = [r for r in held.refs + held.patients if r not in step.patients]
    if held.kind == "separate" and len(way) == 1 and others and set(step.patients) <= set(held.patients + held.refs):
        # "'for Blinky' is dipping into the black footer bar, lift it so it clears the bar": up until it is out
        rel = {way_: rel_ for rel_, way_ in _CLEARS.items()}[next(iter(way))]
        # (just clear of it: what is pushed out of another goes no further than it takes)
        return Intent("place", step.intent.patients, [], params={"rel": rel, "tight": True, "gap": None})
    return None


def out_of(held: Step, step: Step) -> list[str]:
    """What the element :func:`back_out` moves comes out of: the others the problem ``held`` named."""
    return [r for r in held.refs + (held.patients if held.kind == "separate" else []) if r not in step.patients]


def room_from_edge(pending: Step | None, said: str) -> Step | None:
    """"The compass is jammed against the left edge. give it 20px": that far in from that edge, as a step.

    None unless ``pending`` is a problem at a side of the page and ``said`` gives room alone.
    """
    side = AT_SIDE.search(pending.text) if pending is not None and pending.kind in ("inside", "edge", "nudge") else None
    room = GIVE_ROOM.fullmatch(said) if side else None
    length = first_length(room.group("len")) if room else None
    if pending is None or side is None or length is None:
        return None
    return Step(Intent("edge", pending.intent.patients, params={"edge": side.group("side"), "inset": length}),
                pending.patients, [], f"{pending.text}, {said}")


def amount_after(step: Step | None, said: str) -> bool:
    """Whether ``said`` is only how much for the resize ``step`` that said none ("… could be bigger, like 25%").

    The amount goes into ``step``: a change by it ("bigger, like 25%"), or the share it comes to where that is how
    it reads ("smaller, like 90%").
    """
    amount = AMOUNT_ONLY.fullmatch(said)
    if not amount or step is None or step.kind != "resize" or any(
            step.intent.params.get(k) for k in ("factor", "fraction", "percent", "size")):
        return False
    value = float(amount.group("pct"))
    shrink, grow = step.intent.params.get("shrink"), step.intent.params.get("grow")
    step.intent.params["percent"] = (value, bool(shrink and 50 <= value < 100 or grow and value > 100))
    return True


__all__ = ["amount_after", "back_out", "mend", "room_from_edge"]


def purpose_pronoun(m: Mention, first: list[str], resolved: dict[int, list[str]], pending: Step | None,
                    subject_refs: list[str]) -> list[str]:
    """What a pronoun after "so" stands for, ``first`` (what the clause names first) unless a problem said otherwise.

    "X sits way below Y, pull the name up so there's 20px between them": X and Y; "the two questions float too
    far from the heading, pull both up so the first starts 20px below it": not one of both, the heading.
    """
    said = list(dict.fromkeys(pending.patients + pending.refs)) if pending is not None else []
    if m.pronoun in ("them", "they") and len(first) == 1 and first[0] in said and len(said) == 2:
        return said
    before = subject_refs or (pending.refs if pending is not None else [])
    if m.pronoun == "it" and len(first) > 1 and len(before) == 1 and not any(before[0] in ids
                                                                            for ids in resolved.values()):
        return list(before)
    return list(first)
