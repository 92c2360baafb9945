"""What a clause says after "so": the goal an edit is for ("move the photo *so it does not cover the text*").

:func:`purposed` reads a clause split at its "so" into the main request and its goal, and returns the intent
that carries out both: the goal where it says where things end up (it wins over a vague main clause), with
what the main clause moves.
"""

from __future__ import annotations

import re

from assistant.instructions.requests.clauses import detect_intent
from assistant.instructions.requests.intents import Intent, slots
from assistant.instructions.requests.refs import Mention
from assistant.instructions.requests.said import GOALS, MOVE_VERB, moved_by, vertical
from assistant.instructions.requests.sizing import shrink_clear
from assistant.instructions.requests.words import Token

#: A goal that is only to be clear of what an element runs into ("so there's a small gap", "so it clears").
_JUST_CLEAR = re.compile(r"(?:that )?(?:there is|there are) (?:a |some )?(?:small |little |tiny |bit of a |proper |"
                     r"decent |visible )?(?:gap|space|room|breathing room|air)$|(?:that )?(?:E\d+|it|they) "
                     r"(?:no longer (?:overlaps?|touch(?:es)?)|(?:does not|do not|doesnt|dont) "
                     r"(?:overlap|touch|collide)|clears?\b)")


def purposed(skel: str, purpose: re.Match[str], tokens: list[Token], mentions: list[Mention],
             original: str) -> Intent | None:
    """The intent of a clause skeleton with a purpose (``purpose`` matched its "so"), or None."""
    if (shrunk := shrink_clear(skel)) is not None:
        return shrunk  # "make it smaller so there's ~15px between them": smaller by what leaves that room
    goal = detect_intent(skel[purpose.end():], tokens, original)
    main = detect_intent(skel[:purpose.start()], tokens, original)
    if goal is None and main is not None and main.kind == "nudge" and _JUST_CLEAR.match(skel[purpose.end():]):
        main.params["clears"] = True  # "shove 2018 right a bit so there's a small gap": as far as it takes
    if goal is None or goal.kind not in GOALS:
        # "pull it in so there's about 20px to spare", "push it right so it has the same 50px margin …": the whole
        # clause says where
        whole = detect_intent(skel, tokens, original)
        if whole is not None and whole.kind == "edge" and whole.params.get("inset") is not None:
            return whole
    if goal is not None and goal.kind == "resize" and goal.params.get("end_at") and main is not None and \
            main.kind == "nudge":
        # "pull it left so it ends where the date line ends": moved until its right edge is there, not stretched
        return Intent("align", main.patients or goal.patients[:1], goal.refs, params={"edge": "right", "page": False})
    intent = goal if goal is not None and (goal.kind in GOALS or main is None) else main
    if main is not None and main.kind == "swap" and (len(main.patients) == 2 or len(main.patients) == 1 and (
            main.patients[0] < len(mentions) and (mentions[main.patients[0]].count == 2 or
                                                  mentions[main.patients[0]].plural))):
        # "flip Open Source Club and Winter Bash so the big title is on top", "swap the two links at the bottom so
        # the www one is on the left": the swap is how
        intent = main
    if intent is goal and goal is not None and goal.kind in ("gap", "separate") and moved_by(main):
        # "bring it up 20px so it sits closer to the mascots", "slide the divider 1 mm to the right so it stops
        # colliding with the name": the amount says how far
        intent = main
    if intent is goal and goal is not None and main is None and not goal.patients:
        goal.patients = slots(skel[:purpose.start()])  # "space them out so there's ~10px between": them
    if intent is goal and goal is not None and goal.kind == "inside" and main is not None and main.kind == "resize" \
            and (main.params.get("percent") or main.params.get("factor") or main.params.get("fraction")):
        intent = main  # "… to about 85% size so it fits on the page": that size, which is how it fits
    if intent is goal and goal is not None and goal.kind in ("gap", "separate") and main is not None and \
            main.kind == "resize" and goal.params.get("length") is None:
        # "list text a bit smaller (10%) so it isn't crammed against the line underneath": the resize is the
        # edit, the room it leaves is why
        intent = main
    if intent is goal and goal is not None and goal.kind == "edge" and goal.params.get("inset") is not None \
            and (main is not None and main.patients or MOVE_VERB.match(skel)):
        # "push the wordmark and Bronze Sponsor right so the wordmark ends 7px from the edge": those move,
        # the one said after "so" is measured
        goal.refs = [n for n in goal.patients[:1] if n < len(mentions) and not mentions[n].pronoun] + (
            goal.refs if goal.params.get("within") else [])  # (the element it is measured in stays said)
        way = [d for d, _a in main.params.get("moves", [])] if main is not None else []
        if goal.params.get("edge") is None and goal.params.get("within") and len(way) == 1 and way[0] in (
                "left", "right", "up", "down"):
            goal.params["edge"] = {"up": "top", "down": "bottom"}.get(way[0], way[0])  # "push it right so …"
        goal.patients = slots(skel[:purpose.start()])  # ("move A, B and C in so they all start at 7 mm")
    elif intent is goal and goal is not None and main is not None and (
            not goal.patients or goal.kind == "inside" and main.patients):
        goal.patients = main.patients  # "bring it down so the whole word is on the page": what is moved
    elif intent is goal and goal is not None and main is not None and goal.kind == "align" and \
            main.kind == "nudge" and main.patients and goal.patients and all(
            mentions[n].possessive for n in goal.patients if n < len(mentions)):
        # "could the Software section move up so that its heading lines up with 'Overview'": the section
        # moves, along the axis the verb says, until its edge (its heading's) is on the other's
        goal.patients = main.patients
        goal.params["edge"] = goal.params.get("edge") or ("top" if vertical(main) else "left")
    elif intent is goal and goal is not None and main is not None and goal.kind == "align" and \
            main.kind == "nudge" and main.patients and goal.patients and goal.refs:
        # "move that section up so the Software heading lines up with Overview": what holds the heading moves
        goal.params["movers"] = list(main.patients)
        goal.params["edge"] = goal.params.get("edge") or ("top" if vertical(main) else "left")
    elif intent is goal and goal is not None and main is not None and goal.kind == "align" and \
            main.kind == "nudge" and main.patients and not goal.refs and all(
                mentions[n].plural and not mentions[n].pronoun for n in goal.patients if n < len(mentions)):
        # "shift them left so the headings line up": those shifted line up, not every heading
        goal.patients = main.patients
    elif intent is goal and goal is not None and main is not None and goal.kind == "align" and \
            main.kind == "nudge" and main.patients and not goal.refs and goal.patients and all(
                n < len(mentions) and mentions[n].pronoun and mentions[n].plural for n in goal.patients):
        # "push it left so they share a left edge": what is pushed lines up with the other one "they" are
        goal.refs, goal.patients = list(goal.patients), list(main.patients)
    elif intent is goal and goal is not None and main is not None and goal.kind == "center" and \
            goal.params.get("axis") is None and main.kind == "nudge" and main.params.get("moves"):
        # "bring the QR down so its middle lines up with the elephant's": centred along the axis it moves on
        goal.params["axis"] = "y" if vertical(main) else "x"
    elif intent is goal and goal is not None and main is not None and goal.kind == "place" and \
            main.kind == "nudge" and main.patients and goal.patients and not set(goal.patients) & set(main.patients):
        goal.params["along"] = list(main.patients)  # "pull both up so the first starts 20px below it": both move
    elif intent is goal and goal is not None and main is not None and goal.kind == "gap" and \
            main.patients and len(goal.patients) == 2 and not goal.refs:
        goal.params["movers"] = list(main.patients)  # "pull X up so there's 15px between Y and X": X moves
    elif intent is goal and goal is not None and main is not None and goal.kind == "gap" and goal.params.get(
            "rel") and not goal.refs:
        goal.refs = [p for p in main.patients if p not in goal.patients]  # what the main clause moves
    return intent


__all__ = ["purposed"]
