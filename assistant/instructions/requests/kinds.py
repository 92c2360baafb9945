"""Which kinds of edit a request's words can ask for, so that a model's answer of another kind is never applied.

A request that says "gap" or "between" asks for spacing, never for re-wrapping a
text; one that says "bigger" asks for a size. :func:`plausible_actions` maps the
request's words to the action types that can carry them out; a request with
none of these words allows every type (the model is then judged only by what it
changes).
"""

from __future__ import annotations

import re

from PIL import ImageColor

_MOVES = {"move", "anchor_to_region", "align", "set_gap", "swap", "distribute", "snap_to_grid"}
_SIZES = {"resize", "match_size", "set_text_style", "promote", "demote", "reflow_text"}
#: word → action types that can do what it says.
_CUES: list[tuple[str, set[str]]] = [
    (r"bigger|larger|smaller|size|sized|shrink|enlarge|grow|scale|wider|narrower|taller|shorter|width|height|twice|"
     r"half|double|triple|huge|tiny|big|small|large|wide|tall|fill|stretch|squash|reduce|increase|decrease", _SIZES),
    (r"move|put|place|position|nudge|shift|push|pull|drop|raise|lift|lower|up|down|left|right|top|bottom|corner|"
     r"centre|center|centred|centered|middle|above|below|under|over|next|beside|higher|side|edge|margin", _MOVES),
    (r"gap|gaps|space|spacing|spaced|apart|closer|together|between|distance|room|breathing|tight|cramped",
     {"set_gap", "move", "distribute", "anchor_to_region"}),
    (r"align|aligned|line|lines|flush|level|straight|even|evenly|column|grid", _MOVES | {"snap_to_grid"}),
    (r"bold|bolder|weight|colour|color|font|italic|regular|lighter|heavier|typeface|recolour|recolor|colours|"
     r"colors|coloured|colored|tint|paint", {"set_text_style"}),
    (r"wrap|reflow|fit|fits|overflow|overflows|spill|spills|cut|clipped|lines", {"reflow_text", "reflow_group",
                                                                              "resize", "set_text_style", "move"}),
    (r"front|back|behind|forward|forwards|backward|order|layer|layers|underneath|overlap|overlaps|covers|covering",
     {"reorder", "move"}),
    (r"swap|switch|exchange", {"swap"}),
    (r"lock|locked|unlock|pin|pinned|keep|freeze", {"set_locked"}),
    (r"emphasis|emphasise|emphasize|prominent|important|stand|pop|hierarchy|shouty|loud|subtle|quieter",
     {"promote", "demote", "set_text_style", "resize"}),
    (r"template|layout|rearrange|reorganise|reorganize", {"apply_template", "snap_to_grid"}),
]
_COLOURS = set(ImageColor.colormap)


def plausible_actions(request: str) -> set[str] | None:
    """The action types ``request``'s words can ask for; ``None`` when no word says (any type may do)."""
    words = set(re.findall(r"[a-z]+", request.lower()))
    if re.match(r"\s*(?:please |pls |can you |could you )?(?:re-?colou?r|colou?r|paint|tint)\b", request.lower()):
        return {"set_text_style"}  # "recolour the logo in the corner to match …": a colour, whatever else it says
    found: set[str] = set()
    for pattern, types in _CUES:
        if words & set(pattern.split("|")):
            found |= types
    if words & _COLOURS:
        found.add("set_text_style")
    return found or None


__all__ = ["plausible_actions"]
