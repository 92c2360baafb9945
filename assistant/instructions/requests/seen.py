"""Pictures told apart by how they look on a render: "the purple cable", "the colour ACM logo", "the round photo".

A raster picture, or a drawing grouped without a fill of its own, holds no colour to match a colour word to;
the full-colour version of a logo and its outline version have the same name; a photo cut round is an image
like the others. What tells them apart is what a person sees, so these ask the index to look
(``ElementIndex.looks``, renders measured by ``assistant.render.looks``), and only among a few candidates that
the words left alike: the rest of the understander never renders anything.
"""

from __future__ import annotations

import colorsys

from assistant.instructions.requests.colours import family, near_families, of_lightness
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.refs import Mention
from assistant.render.looks import MAX_LOOKED

#: Least share of a picture's ink a colour said of it must have ("the green map": a fifth of it is green).
LOOK_SHARE = 0.15
#: Least share of its box a shape with no fill of its own must ink to be called by a colour (a gradient band).
FILLED = 0.25
#: Words for a picture's full-colour version, and for its outline (line, one-colour) version.
IN_COLOUR = frozenset({"color", "colored", "colorful", "filled", "solid"})
OUTLINED = frozenset({"outline", "outlined", "outlines", "hollow", "mono", "monochrome", "wireframe"})
#: Words for a round picture ("the round aerial photo", "the circular badge").
ROUND = frozenset({"round", "circular", "circle", "disc", "disk", "oval", "roundel"})
#: Nouns for a round thing.
_ROUND_NOUNS = frozenset({"circle", "circles", "disc", "discs", "disk", "disks", "oval", "ovals", "roundel",
                          "roundels"})
#: How far below the best a candidate that does not look as said is put.
LOOK_APART = 1.0
#: Least difference in the share of clear colour between a full-colour picture and an outline one.
CHROMA_APART = 0.3


def seen_families(ids: list[str], index: ElementIndex) -> dict[str, tuple[set[str], set[str]]]:
    """For each of ``ids`` (pictures with no fill to read), the colour families its render shows: (exact, near).

    Nothing when there are more of them than are looked at for one request.
    """
    if not ids or len(ids) > MAX_LOOKED:
        return {}
    out: dict[str, tuple[set[str], set[str]]] = {}
    for eid, look in index.looks(ids).items():
        if index.layout.get(eid).kind == "shape" and look.coverage < FILLED:
            continue  # a shape drawn only as a thin stroke is no "white panel" (its fill is none)
        main = [rgb for rgb, share in look.colours if share >= LOOK_SHARE]
        out[eid] = ({family(rgb) for rgb in main}, {f for rgb in main for f in near_families(rgb)})
    return out


def seen_shade(ids: list[str], index: ElementIndex, shade: str) -> list[str]:
    """Of ``ids`` (a gradient, a picture: no flat fill to read), those whose render's main colour is of ``shade``.

    "the dark background" where the ground is a gradient from near black: its render is dark.
    """
    if not ids or len(ids) > MAX_LOOKED:
        return []
    out = []
    for eid, look in index.looks(ids).items():
        if look.colours and look.coverage >= FILLED:
            rgb = max(look.colours, key=lambda c: c[1])[0]
            if of_lightness(shade, colorsys.rgb_to_hls(*rgb)[1]):
                out.append(eid)
    return out


def by_look(m: Mention, scores: dict[str, float], best: list[str], index: ElementIndex) -> dict[str, float]:
    """``scores`` with the best candidates (``best``) that do not look as ``m`` says put below those that do.

    Looks said: round, in full colour, in outline. Only pictures (no text) are looked at, and only when the words
    leave two to :data:`MAX_LOOKED` of them alike; a look none of them has, or all of them have, changes nothing.
    """
    words = set(m.words[:-1] if m.has_head else m.words)  # said before the noun ("swap the two photos round": no)
    if m.has_head and m.words and m.words[-1] in _ROUND_NOUNS:
        words.add("round")  # the noun itself: "the circle", "the roundel" (not "swap the two photos round")
    if len(best) < 2 or len(best) > MAX_LOOKED or m.quote or not words & (IN_COLOUR | OUTLINED | ROUND):
        return scores
    if any(index.layout.get(k).kind == "text" for k in best):
        return scores
    seen = index.looks(best)
    if len(seen) < len(best):
        return scores
    kept = list(best)
    if words & ROUND:
        kept = [k for k in kept if seen[k].round] or kept
    colour, outline = bool(words & IN_COLOUR), bool(words & OUTLINED)
    if colour != outline and len(kept) >= 2:
        chroma = {k: seen[k].chroma for k in kept}
        top, low = max(chroma.values()), min(chroma.values())
        if top - low >= CHROMA_APART:
            # "the colour version" is mostly clear colour; "the outline one" mostly white or empty, thin lines
            kept = [k for k in kept if (chroma[k] >= top - CHROMA_APART / 2 if colour
                                        else chroma[k] <= low + CHROMA_APART / 2)]
    if len(kept) == len(best):
        return scores
    lead = max(scores[k] for k in best)
    # (and what they hold: the members of a badge not meant are not meant either)
    off = {d.id for k in best if k not in kept for d in [index.layout.get(k), *index.layout.descendants_of(k)]}
    return {k: (min(v, lead - LOOK_APART) if k in off else v) for k, v in scores.items()}


__all__ = ["by_look", "seen_families", "IN_COLOUR", "OUTLINED", "ROUND"]
