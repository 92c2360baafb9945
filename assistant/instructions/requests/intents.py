"""What a clause asks for: its skeleton matched against the patterns of each intent, in a fixed order.

A clause skeleton names its element mentions ``E0``, ``E1`` …
(:func:`~assistant.instructions.requests.refs.find_mentions`). :func:`detect`
tries the intents in this order and returns the first that matches, with the
mentions it acts on (*patients*) and those it is measured against (*refs*):

=============  ================================================================
size problem   "the logo is tiny next to the text", "the penguin looks huge" (mended by the edit after it)
lock           "lock", "keep X where it is", "don't move X", "unlock"
zorder         "bring to the front", "send back", "behind", "forward one"
swap           "swap X and Y", "switch the order", "X and Y are in the wrong order"
separate       "X overlaps Y", "fix the overlap", "so it does not cover Y", "move X off Y"
inside         "X is falling off the edge", "bring it back in", "pull it in"
distribute     "space evenly", "even out the gaps", "distribute"
gap            "more space under X", "20px between X and Y", "closer to", "too far apart"
match          "as wide as Y", "the same width as Y", "fill the width", "full bleed"
align          "align", "line up", "flush", "level with", "the same left edge as", "centre"
place          "put X under / above / next to / left of Y", "X goes under Y"
region         corners, "bottom centre", thirds, "to the top", "to the left side"
nudge          "up", "down", "left", "right", "higher", "lower", with or without an amount
style          bold / regular weight, colours, font size, font family
emphasis       "stand out", "more prominent", "tone down", "not so shouty"
resize         "bigger", "smaller", "shrink", "twice as big", "20 % smaller", "300px wide"
confirm        "fix that", "sort it out" (acts on the problem a clause before described)
=============  ================================================================

A clause that matches none is a *remark*: reported, never acted on. The patterns live in
:mod:`~assistant.instructions.requests.placement`, :mod:`~assistant.instructions.requests.edges` (distances in
from a page edge) and :mod:`~assistant.instructions.requests.sizing`.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.instructions.requests import edges, placement, sizing
from assistant.instructions.requests.frame import Intent, slots

RULES: list[Callable[[str], Intent | None]] = [
    sizing.confirm, sizing.shrink_clear, sizing.edge_in, sizing.span, sizing.end_at, sizing.size_against,
    placement.bound, placement.lock, placement.zorder,
    placement.swap, placement.separate, placement.inside,
    placement.distribute, edges.mirrored, edges.further_in, placement.gap, placement.match, placement.align,
    placement.place,
    placement.region,
    sizing.to_percent, edges.inset, placement.nudge,
]


def detect(skel: str, style: Callable[[str], Intent | None] | None = None) -> Intent | None:
    """The intent of a clause skeleton, or None (a remark).

    ``style`` reads text-style requests (tried after placement and before size).
    """
    for rule in RULES:
        found = rule(skel)
        if found is not None:
            return found
    for rule in ([style] if style else []) + [sizing.emphasis, sizing.resize]:
        found = rule(skel)
        if found is not None:
            return found
    return None


__all__ = ["Intent", "detect", "slots", "RULES"]
