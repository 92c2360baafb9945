"""A request corpus of broad variety for the applicator, in two voices, with a geometric check for each request.

``models.requests`` says each edit one way; people do not. Here a request is drawn as an edit (the *target*
action, exact by construction) and then said the way a person types it: synonyms, casual and terse phrasing,
a reason clause before or after ("it's too low, move the title up twenty pixels"), typos, numbers in words,
lengths in px, pt, mm or % of the page, and references by role, quoted text, id, position among alike
elements ("the leftmost photo") or relation to another ("the text under the logo").

Two voices share no templates and little vocabulary: :data:`TRAIN_VOICE` writes the training and validation
requests, :data:`HELDOUT_VOICE` the held-out split, so a model measured on the held-out split meets phrasings
it never saw. Held-out layouts come from another seed range too (``models.data.SEED_RANGES``).

The check of a request is :func:`request_met`: the answer, applied to the layout, must leave every element
where the target action leaves it (within a tolerance; vaguer words such as "bigger" allow a band of
factors) with the same paint order and text style. It is the verifier GRPO rewards with
(``models.request_grpo``) and what the held-out report counts.

Command::

    python -m models.request_corpus --out runs/requests/data --train-layouts 400 --heldout-layouts 60
"""

from __future__ import annotations

import argparse
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.document import Element, Layout

#: Lengths a request may be typed in, with CSS px per unit (as ``assistant.instructions.requests.amounts``).
UNIT_PX: dict[str, float] = {"px": 1.0, "pt": 96 / 72, "mm": 96 / 25.4}
#: The edits drawn, and how often.
KIND_WEIGHTS: dict[str, float] = {"move": 5, "anchor": 3, "grow": 3, "shrink": 2, "align": 3, "distribute": 1,
                                  "reorder": 1, "bold": 1, "colour": 1, "font_size": 1, "match": 1, "gap": 1,
                                  "swap": 1, "lock": 1}
#: Degree words of growing and shrinking: the factor they mean and the band a check accepts.
DEGREES: dict[str, tuple[float, tuple[float, float]]] = {
    "little": (1.1, (1.03, 1.2)), "plain": (1.25, (1.1, 1.6)), "much": (1.5, (1.3, 2.1)), "double": (2.0, (1.9, 2.1))}
ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
REGIONS = ("top_left", "top_right", "bottom_left", "bottom_right", "top", "bottom", "left", "right", "center")


def spoken(n: int) -> str:
    """``n`` (0–199) in words: 25 → "twenty-five"."""
    if n >= 100:
        rest = n - 100
        return "a hundred" + (f" and {spoken(rest)}" if rest else "")
    if n < 20:
        return ONES[n]
    tens, ones = divmod(n, 10)
    return TENS[tens] + (f"-{ONES[ones]}" if ones else "")


@dataclass(frozen=True)
class Voice:
    """The words one writer uses (see the module docstring)."""

    name: str
    roles: dict[str, tuple[str, ...]]
    regions: dict[str, tuple[str, ...]]
    moves: tuple[str, ...]            # "{v} {e} {amount} {dir}" verbs
    move_forms: tuple[str, ...]       # with {v} {e} {amount} {dir}
    directions: dict[str, tuple[str, ...]]
    anchor_forms: tuple[str, ...]     # {e} {where}
    degrees: dict[str, tuple[str, ...]]       # degree -> forms with {e}, growing
    shrink_degrees: dict[str, tuple[str, ...]]
    align_forms: dict[str, tuple[str, ...]]   # "element" / "canvas" / "each_other" with {e} {t} {edge}
    edges: dict[str, tuple[str, ...]]
    distribute_forms: tuple[str, ...]         # {e} {axis}
    axes: dict[str, tuple[str, ...]]
    reorder_forms: dict[str, tuple[str, ...]]
    bold_forms: tuple[str, ...]
    regular_forms: tuple[str, ...]
    colour_forms: tuple[str, ...]             # {e} {c}
    colours: dict[str, tuple[str, ...]]
    size_forms: tuple[str, ...]               # {e} {n}
    match_forms: dict[str, tuple[str, ...]]   # width/height with {e} {t}
    gap_forms: tuple[str, ...]                # {e} {t} {amount}
    swap_forms: tuple[str, ...]               # {e} {t}
    lock_forms: tuple[str, ...]
    quoted: tuple[str, ...]                   # forms of a reference by text, with {q}
    by_id: tuple[str, ...]                    # with {i}
    extremes: dict[str, tuple[str, ...]]      # left/right/top/bottom with {r}
    relations: dict[str, tuple[str, ...]]     # below/above/left_of/right_of with {r} {a}
    openers: tuple[str, ...]          # before a request that starts with a verb
    noun_openers: tuple[str, ...]     # before one that starts with the element
    closers: tuple[str, ...]
    reasons: dict[str, tuple[str, ...]]
    words_share: float                        # numbers typed in words
    typo_share: float


TRAIN_VOICE = Voice(
    name="train",
    roles={"title": ("title", "headline", "heading", "main title"), "subtitle": ("subtitle", "subheading", "tagline"),
           "body": ("body text", "paragraph", "text block", "copy"), "caption": ("caption", "small print"),
           "cta": ("button", "call to action", "CTA"), "logo": ("logo", "brand mark"),
           "image": ("image", "photo", "picture"), "badge": ("badge", "sticker")},
    regions={"top_left": ("top-left corner", "top left"), "top_right": ("top-right corner", "top right"),
             "bottom_left": ("bottom-left corner", "bottom left"),
             "bottom_right": ("bottom-right corner", "bottom right"), "top": ("top", "top edge"),
             "bottom": ("bottom", "bottom edge"), "left": ("left side", "left edge"),
             "right": ("right side", "right edge"), "center": ("centre", "middle", "center")},
    moves=("move", "shift", "nudge", "push", "bump"),
    move_forms=("{v} {e} {amount} {dir}", "{v} {e} {dir} by {amount}", "{e} {amount} {dir}"),
    directions={"left": ("left", "to the left"), "right": ("right", "to the right"), "up": ("up", "upwards"),
                "down": ("down", "downwards")},
    anchor_forms=("move {e} to the {where}", "put {e} in the {where}", "{e} to the {where}",
                  "place {e} at the {where}", "stick {e} in the {where}"),
    degrees={"little": ("make {e} a little bigger", "make {e} slightly bigger", "{e} a bit bigger"),
             "plain": ("make {e} bigger", "enlarge {e}", "make {e} stand out more", "{e} bigger"),
             "much": ("make {e} much bigger", "make {e} a lot bigger", "really blow up {e}"),
             "double": ("make {e} twice as big", "double {e}", "double the size of {e}")},
    shrink_degrees={"little": ("make {e} a little smaller", "make {e} slightly smaller", "{e} a bit smaller"),
                    "plain": ("make {e} smaller", "shrink {e}", "tone down {e}", "{e} smaller"),
                    "much": ("make {e} much smaller", "make {e} a lot smaller"),
                    "double": ("make {e} half the size", "halve {e}", "halve the size of {e}")},
    align_forms={"element": ("align {e} with {t}", "line up the {edge} of {e} with {t}",
                             "match the {edge} of {e} to {t}"),
                 "canvas": ("align the {edge} of {e} to the page", "line {e} up with the page, {edge}"),
                 "each_other": ("align the {edge} of {e}", "line up {e} by their {edge}")},
    edges={"left": ("left edges", "left sides"), "right": ("right edges", "right sides"), "top": ("tops", "top edges"),
           "center_x": ("centres", "horizontal centres"), "center_y": ("middles", "vertical centres")},
    distribute_forms=("space {e} evenly {axis}", "distribute {e} {axis}", "even out the gaps between {e} {axis}"),
    axes={"horizontal": ("horizontally", "across"), "vertical": ("vertically", "down the page")},
    reorder_forms={"front": ("bring {e} to the front", "put {e} on top"),
                   "back": ("send {e} to the back", "put {e} behind everything")},
    bold_forms=("make {e} bold", "bold {e}", "{e} in bold"),
    regular_forms=("make {e} regular weight", "unbold {e}", "{e} not bold"),
    colour_forms=("make {e} {c}", "colour {e} {c}", "change {e} to {c}"),
    colours={"#000000": ("black",), "#ffffff": ("white",), "#ff0000": ("red",), "#0000ff": ("blue",),
             "#008000": ("green",), "#ffa500": ("orange",), "#800080": ("purple",)},
    size_forms=("set the font size of {e} to {n}", "make {e} size {n}", "{e} at {n} point type"),
    match_forms={"width": ("make {e} as wide as {t}", "give {e} the same width as {t}"),
                 "height": ("make {e} as tall as {t}", "give {e} the same height as {t}")},
    gap_forms=("put {amount} between {e} and {t}", "set the gap between {e} and {t} to {amount}",
               "space {e} {amount} from {t}"),
    swap_forms=("swap {e} and {t}", "switch {e} with {t}", "trade places: {e} and {t}"),
    lock_forms=("lock {e}", "keep {e} where it is", "freeze {e}"),
    quoted=("the '{q}' text", "the text '{q}'", "'{q}'"),
    by_id=("#{i}", "element {i}", "the {i} element"),
    extremes={"left": ("the leftmost {r}", "the left {r}"), "right": ("the rightmost {r}", "the right {r}"),
              "top": ("the top {r}", "the upper {r}"), "bottom": ("the bottom {r}", "the lower {r}")},
    relations={"below": ("the {r} below {a}", "the {r} under {a}"), "above": ("the {r} above {a}",),
               "left_of": ("the {r} left of {a}",), "right_of": ("the {r} right of {a}",)},
    openers=("please ", "can you ", "could you ", "I want to ", "let's ", ""),
    noun_openers=("ok, ", "so ", "I want ", ""),
    closers=(" please", " thanks", "", "."),
    reasons={"up": ("it's too low", "it sits too low"), "down": ("it's too high", "it's cramped at the top"),
             "left": ("it's too far right",), "right": ("it's too far left",),
             "grow": ("it's too small", "it gets lost"), "shrink": ("it's too big", "it's too loud"),
             "align": ("they don't line up", "it looks off"), "anchor": ("it's in the wrong place",),
             "front": ("it's hidden",), "distribute": ("the spacing is uneven",),
             "style": ("it needs to stand out",), "other": ("it looks wrong",)},
    words_share=0.25, typo_share=0.15,
)

HELDOUT_VOICE = Voice(
    name="heldout",
    roles={"title": ("header", "big heading", "main line"), "subtitle": ("strapline", "sub-head", "second line"),
           "body": ("main text", "running text", "blurb"), "caption": ("fine print", "footnote"),
           "cta": ("sign-up button", "action button", "pill"), "logo": ("brand logo", "wordmark"),
           "image": ("pic", "illustration", "hero shot"), "badge": ("tag", "roundel")},
    regions={"top_left": ("upper left", "NW corner"), "top_right": ("upper right", "NE corner"),
             "bottom_left": ("lower left", "SW corner"), "bottom_right": ("lower right", "SE corner"),
             "top": ("very top", "head of the page"), "bottom": ("very bottom", "foot of the page"),
             "left": ("left-hand side",), "right": ("right-hand side",),
             "center": ("dead centre", "centre of the page")},
    moves=("drag", "slide", "scoot", "take"),
    move_forms=("{v} {e} {dir} {amount}", "{e}: {amount} {dir}", "{e} needs to go {amount} {dir}"),
    directions={"left": ("leftwards", "towards the left"), "right": ("rightwards", "towards the right"),
                "up": ("higher", "up the page"), "down": ("lower", "down the page")},
    anchor_forms=("{e} belongs in the {where}", "I'd like {e} in the {where}", "could {e} sit in the {where}",
                  "{e} -> {where}"),
    degrees={"little": ("{e} a touch larger", "just a tad larger for {e}"),
             "plain": ("{e} should be larger", "scale up {e}", "give {e} more size"),
             "much": ("{e} way larger", "{e} needs to be much larger"),
             "double": ("{e} at double size", "{e} two times larger")},
    shrink_degrees={"little": ("{e} a touch smaller", "just a tad smaller for {e}"),
                    "plain": ("{e} should be smaller", "scale down {e}", "reduce {e}"),
                    "much": ("{e} way smaller", "{e} needs to be much smaller"),
                    "double": ("{e} at half size", "cut {e} in half")},
    align_forms={"element": ("{e} flush with {t} on the {edge}", "get {e} level with {t} ({edge})"),
                 "canvas": ("{e} flush with the page {edge}",),
                 "each_other": ("{e} flush on the {edge}", "even up the {edge} of {e}")},
    edges={"left": ("left",), "right": ("right",), "top": ("top",), "center_x": ("centre line",),
           "center_y": ("middle line",)},
    distribute_forms=("equal spacing for {e} {axis}", "spread {e} out evenly {axis}"),
    axes={"horizontal": ("side to side", "left to right"), "vertical": ("top to bottom", "in the column")},
    reorder_forms={"front": ("{e} on top of everything", "raise {e} above the rest"),
                   "back": ("{e} behind the rest", "drop {e} to the bottom layer")},
    bold_forms=("heavier weight for {e}", "{e} in a bold weight"),
    regular_forms=("{e} back to normal weight", "lighter weight for {e}"),
    colour_forms=("{e} in {c}", "recolour {e} {c}", "{e} should be {c}"),
    colours={"#000000": ("jet black",), "#ffffff": ("pure white",), "#ff0000": ("bright red",),
             "#0000ff": ("royal blue",), "#008000": ("leaf green",), "#ffa500": ("amber",), "#800080": ("violet",)},
    size_forms=("{e} type at {n}", "type size {n} for {e}"),
    match_forms={"width": ("{e} the same width as {t}", "{e} matching {t} in width"),
                 "height": ("{e} the same height as {t}", "{e} matching {t} in height")},
    gap_forms=("leave {amount} of space between {e} and {t}", "{amount} gap from {t} to {e}"),
    swap_forms=("{e} and {t} should change places", "exchange {e} with {t}"),
    lock_forms=("{e} stays put", "pin {e} in place"),
    quoted=("the line that says \"{q}\"", "\u201c{q}\u201d", "the bit reading {q}"),
    by_id=("{i}", "the one called {i}"),
    extremes={"left": ("the {r} on the far left",), "right": ("the {r} on the far right",),
              "top": ("the highest {r}",), "bottom": ("the lowest {r}",)},
    relations={"below": ("the {r} underneath {a}", "the {r} beneath {a}"), "above": ("the {r} over {a}",),
               "left_of": ("the {r} to the left of {a}",), "right_of": ("the {r} to the right of {a}",)},
    openers=("hey, ", "would you mind: ", "pls ", "quick one: ", ""),
    noun_openers=("hey, ", "need ", "quick one: ", "right, ", ""),
    closers=(" asap", ", cheers", " if you can", "!", ""),
    reasons={"up": ("sits too far down", "feels sunk"), "down": ("too close to the top",),
             "left": ("too far over",), "right": ("hugging the left",),
             "grow": ("hard to read", "looks tiny"), "shrink": ("overpowering", "way too dominant"),
             "align": ("the edges are ragged",), "anchor": ("feels misplaced",), "front": ("can't see it",),
             "distribute": ("gaps are all over the place",), "style": ("too quiet",), "other": ("bugging me",)},
    words_share=0.5, typo_share=0.25,
)
VOICES: dict[str, Voice] = {v.name: v for v in (TRAIN_VOICE, HELDOUT_VOICE)}


# --------------------------------------------------------------------------- references
def _editable(layout: Layout) -> list[Element]:
    return [e for e in layout.elements if not e.locked and e.role != "background" and e.group is None
            and e.box.width > 0 and e.box.height > 0]


def _snippet(el: Element) -> str:
    return " ".join((el.text or "").split()[:3]).strip(".,:;!?\"'")


def _kind_word(el: Element) -> str:
    return {"text": "text", "image": "picture", "group": "group"}.get(el.kind, "shape")


def refer(el: Element, layout: Layout, rng: random.Random, voice: Voice) -> str:
    """An unambiguous phrase for ``el``: a role word, its words, its place among alike elements, a relation, its id."""
    els = _editable(layout)
    same = [e for e in els if e.role == el.role]
    ways: list[str] = []
    if len(same) == 1 and el.role in voice.roles:
        ways += ["role"] * 3
    snip = _snippet(el)
    if snip and sum(1 for e in els if _snippet(e) == snip) == 1:
        ways += ["quoted"] * 2
    word = voice.roles.get(el.role, (_kind_word(el),))[0]
    if len(same) >= 2 and el.role in voice.roles:  # "the leftmost photo": among the elements of its role
        for side in _extreme_sides(el, same):
            ways.append("extreme:" + side)
    rel = _relation(el, els, voice)
    if rel:
        ways.append("relation")
    ways.append("id")
    way = rng.choice(ways)
    if way == "role":
        return "the " + rng.choice(voice.roles[el.role])
    if way == "quoted":
        return rng.choice(voice.quoted).format(q=snip)
    if way.startswith("extreme:"):
        return rng.choice(voice.extremes[way.split(":", 1)[1]]).format(r=word)
    if way == "relation" and rel:
        kind, anchor = rel
        return rng.choice(voice.relations[kind]).format(r=_kind_word(el) if el.role not in voice.roles else word,
                                                        a="the " + rng.choice(voice.roles[anchor.role]))
    return rng.choice(voice.by_id).format(i=el.id)


def _extreme_sides(el: Element, same: list[Element]) -> list[str]:
    """Sides on which ``el`` is clearly the outermost of ``same`` (its box apart from the others')."""
    sides = []
    b = el.box
    others = [e.box for e in same if e is not el]
    if all(b.x + b.width <= o.x for o in others):
        sides.append("left")
    if all(o.x + o.width <= b.x for o in others):
        sides.append("right")
    if all(b.y + b.height <= o.y for o in others):
        sides.append("top")
    if all(o.y + o.height <= b.y for o in others):
        sides.append("bottom")
    return sides


def _relation(el: Element, els: list[Element], voice: Voice) -> tuple[str, Element] | None:
    """``(relation, anchor)`` when ``el`` is the only element of its kind in that relation to a uniquely named one."""
    roles = [e.role for e in els]

    def alike(e: Element) -> bool:  # what the phrase's word for ``el`` also names: its role word, else its kind
        return e.role == el.role if el.role in voice.roles else _kind_word(e) == _kind_word(el)

    for anchor in els:
        if anchor is el or roles.count(anchor.role) != 1 or anchor.role not in voice.roles:
            continue
        for kind in ("below", "above", "left_of", "right_of"):
            if _stands(el, anchor, kind) and not any(
                    e is not el and e is not anchor and alike(e) and _stands(e, anchor, kind) for e in els):
                return kind, anchor
    return None


def _stands(e: Element, a: Element, kind: str) -> bool:
    b, o = e.box, a.box
    across_x = min(b.x + b.width, o.x + o.width) - max(b.x, o.x) > 0
    across_y = min(b.y + b.height, o.y + o.height) - max(b.y, o.y) > 0
    return {"below": across_x and b.y >= o.y + o.height, "above": across_x and b.y + b.height <= o.y,
            "left_of": across_y and b.x + b.width <= o.x, "right_of": across_y and b.x >= o.x + o.width}[kind]


def _many(els: list[Element], layout: Layout, rng: random.Random, voice: Voice) -> str:
    names = [refer(e, layout, rng, voice) for e in els]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --------------------------------------------------------------------------- amounts
def _number(n: int, rng: random.Random, voice: Voice) -> str:
    return spoken(n) if n < 200 and rng.random() < voice.words_share else str(n)


def amount(layout: Layout, axis: str, rng: random.Random, voice: Voice) -> tuple[str, float]:
    """A length as typed (``"twenty px"``, ``"5mm"``, ``"10% of the width"``) and what it is in world units."""
    c = layout.canvas
    unit = rng.choices(("px", "pt", "mm", "%"), weights=(6, 1, 1, 1))[0]
    if unit == "%":
        n = rng.choice((5, 10, 15, 20, 25))
        side = c.width if axis == "x" else c.height
        return f"{_number(n, rng, voice)}% of the {'width' if axis == 'x' else 'height'}", side * n / 100
    n = rng.choice((2, 4, 5, 8, 10, 12, 15, 20, 24, 30, 40, 50)) if rng.random() < 0.5 else rng.randint(1, 120)
    num = _number(n, rng, voice)
    words = {"px": ("px", " pixels"), "pt": ("pt", " points"), "mm": ("mm", " millimetres")}[unit]
    said = rng.choice(words) if num.isdigit() else words[1]
    return num + said, n * UNIT_PX[unit] / c.px_per_unit


# --------------------------------------------------------------------------- requests
def draw(layout: Layout, rng: random.Random, voice: Voice) -> dict[str, Any] | None:
    """One request: ``{"request", "target", "band", "kind"}`` (None when the drawn edit has no subject here)."""
    els = _editable(layout)
    if not els:
        return None
    kinds = tuple(KIND_WEIGHTS)
    kind = rng.choices(kinds, weights=tuple(KIND_WEIGHTS[k] for k in kinds))[0]
    el = rng.choice(els)
    e = refer(el, layout, rng, voice)
    texts = [t for t in els if t.is_text]
    forms_taken: list[str] = []

    def pick(forms: tuple[str, ...]) -> str:
        forms_taken.append(rng.choice(forms))
        return forms_taken[-1]

    band = None
    reason = "other"
    if kind == "move":
        direction = rng.choice(("left", "right", "up", "down"))
        text, world = amount(layout, "x" if direction in ("left", "right") else "y", rng, voice)
        sign = -1 if direction in ("left", "up") else 1
        d = round(sign * world, 1)
        target = {"type": "move", "ids": [el.id], "dx": d if direction in ("left", "right") else 0.0,
                  "dy": d if direction in ("up", "down") else 0.0}
        request = pick(voice.move_forms).format(v=rng.choice(voice.moves), e=e, amount=text,
                                                     dir=rng.choice(voice.directions[direction]))
        reason = direction
    elif kind == "anchor":
        region = rng.choice(REGIONS)
        target = {"type": "anchor_to_region", "ids": [el.id], "region": region}
        request = pick(voice.anchor_forms).format(e=e, where=rng.choice(voice.regions[region]))
        reason = "anchor"
    elif kind in ("grow", "shrink"):
        degree = rng.choice(tuple(DEGREES))
        factor, band = DEGREES[degree]
        target = {"type": "promote" if kind == "grow" else "demote", "id": el.id, "factor": factor}
        forms = voice.degrees if kind == "grow" else voice.shrink_degrees
        request = pick(forms[degree]).format(e=e)
        reason = kind
    elif kind == "align" and len(els) >= 2:
        other = rng.choice([o for o in els if o is not el])
        edge = rng.choice(tuple(voice.edges))
        to = rng.choice(("element", "element", "canvas", "each_other"))
        if to == "canvas" and edge in ("center_x", "center_y"):
            to = "element"
        t = refer(other, layout, rng, voice)
        if to == "element":
            target = {"type": "align", "ids": [el.id], "edge": edge, "to": "element", "target_id": other.id}
        elif to == "each_other":
            target = {"type": "align", "ids": [el.id, other.id], "edge": edge, "to": "each_other"}
            e = _many([el, other], layout, rng, voice)
        else:
            target = {"type": "align", "ids": [el.id], "edge": edge, "to": "canvas"}
        request = pick(voice.align_forms[to]).format(e=e, t=t, edge=rng.choice(voice.edges[edge]))
        reason = "align"
    elif kind == "distribute" and len(els) >= 3:
        group = rng.sample(els, 3)
        axis = rng.choice(("horizontal", "vertical"))
        target = {"type": "distribute", "ids": [g.id for g in group], "axis": axis}
        request = pick(voice.distribute_forms).format(e=_many(group, layout, rng, voice),
                                                            axis=rng.choice(voice.axes[axis]))
        reason = "distribute"
    elif kind == "reorder":
        to = rng.choice(("front", "back"))
        target = {"type": "reorder", "id": el.id, "to": to}
        request = pick(voice.reorder_forms[to]).format(e=e)
        reason = "front" if to == "front" else "other"
    elif kind in ("bold", "colour", "font_size") and texts:
        t = rng.choice(texts)
        e = refer(t, layout, rng, voice)
        reason = "style"
        if kind == "bold":
            weight = rng.choice((400, 700))
            target = {"type": "set_text_style", "ids": [t.id], "font_weight": weight}
            request = pick(voice.bold_forms if weight == 700 else voice.regular_forms).format(e=e)
        elif kind == "colour":
            fill = rng.choice(tuple(voice.colours))
            target = {"type": "set_text_style", "ids": [t.id], "fill": fill}
            request = pick(voice.colour_forms).format(e=e, c=rng.choice(voice.colours[fill]))
        else:
            size = max(6, int(round((t.font_size or 16) * rng.choice((0.75, 1.25, 1.5)))))
            target = {"type": "set_text_style", "ids": [t.id], "font_size": float(size)}
            request = pick(voice.size_forms).format(e=e, n=_number(size, rng, voice))
    elif kind == "match" and len(els) >= 2:
        other = rng.choice([o for o in els if o is not el])
        dim = rng.choice(("width", "height"))
        target = {"type": "match_size", "dimension": dim, "ids": [el.id], "target_id": other.id}
        request = pick(voice.match_forms[dim]).format(e=e, t=refer(other, layout, rng, voice))
    elif kind == "gap" and len(els) >= 2:
        other = rng.choice([o for o in els if o is not el])
        text, world = amount(layout, "y", rng, voice)
        target = {"type": "set_gap", "gap": round(world, 1), "id": el.id, "target_id": other.id}
        request = pick(voice.gap_forms).format(e=e, t=refer(other, layout, rng, voice), amount=text)
    elif kind == "swap" and len(els) >= 2:
        other = rng.choice([o for o in els if o is not el])
        target = {"type": "swap", "ids": [el.id, other.id]}
        request = pick(voice.swap_forms).format(e=e, t=refer(other, layout, rng, voice))
    elif kind == "lock":
        target = {"type": "set_locked", "ids": [el.id], "locked": True}
        request = pick(voice.lock_forms).format(e=e)
    else:
        return None
    noun_first = forms_taken[-1].startswith("{e}")
    keep = frozenset(e.id for e in layout.elements)
    request = say(request, reason, rng, voice, noun_first=noun_first, keep=keep)
    return {"request": request, "target": target, "band": band,
            "kind": kind}


def say(core: str, reason: str, rng: random.Random, voice: Voice, *, noun_first: bool = False,
        keep: frozenset[str] = frozenset()) -> str:
    """``core`` as typed: an opener or closer, sometimes a reason clause, a typo or capitals.

    A typo never falls in a word of ``keep`` (the element ids).
    """
    text = core
    r = rng.random()
    if r < 0.25:
        why = rng.choice(voice.reasons.get(reason) or voice.reasons["other"])
        text = rng.choice((f"{why}, {text}", f"{text}, {why}", f"{text} - {why}"))
    else:
        text = rng.choice(voice.noun_openers if noun_first else voice.openers) + text + rng.choice(voice.closers)
    if rng.random() < voice.typo_share:
        text = typo(text, rng, keep)
    if rng.random() < 0.3:
        text = text[:1].upper() + text[1:]
    return " ".join(text.split())


_PROTECTED = re.compile(r"'[^']*'|\"[^\"]*\"|\u201c[^\u201d]*\u201d|#?[\w-]*\d[\w-]*")


def typo(text: str, rng: random.Random, keep: frozenset[str] = frozenset()) -> str:
    """One slip of the fingers in a longer plain word (quotes, numbers and the words of ``keep`` are left alone)."""
    spans = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]
    spans += [(m.start(), m.end()) for m in re.finditer(r"[\w-]+", text) if m.group() in keep]
    words = [m for m in re.finditer(r"[A-Za-z]{5,}", text) if not any(a <= m.start() < b for a, b in spans)]
    if not words:
        return text
    m = rng.choice(words)
    w = m.group()
    i = rng.randrange(1, len(w) - 1)
    op = rng.choice(("swap", "drop", "double"))
    new = (w[:i] + w[i + 1] + w[i] + w[i + 2:] if op == "swap" else
           w[:i] + w[i + 1:] if op == "drop" else w[:i] + w[i] + w[i:])
    return text[:m.start()] + new + text[m.end():]


# --------------------------------------------------------------------------- the check
def _state(layout: Layout) -> dict[str, tuple[Any, ...]]:
    order = {e.id: i for i, e in enumerate(layout.elements)}
    return {e.id: (e.box.x, e.box.y, e.box.width, e.box.height, order[e.id], e.font_size, e.font_weight,
                   (e.fill or "").lower(), e.locked) for e in layout.elements}


def _applied(document: Any, action: dict[str, Any]) -> Layout | None:
    from assistant.actions import apply_action, parse_action
    from assistant.errors import InvalidAction

    doc = document.copy()
    try:
        apply_action(doc, parse_action(action))
    except InvalidAction:
        return None
    return doc.layout


def applies(document: Any, action: dict[str, Any]) -> bool:
    """Whether ``action`` validates and applies to ``document`` (tried on a copy)."""
    return _applied(document, action) is not None


def request_met(document: Any, target: dict[str, Any], answer: dict[str, Any] | None,
                band: tuple[float, float] | None = None) -> bool:
    """Whether ``answer`` does to ``document`` what ``target`` does (see the module docstring).

    Boxes agree within 1 % of the page's longer side (2 px at least); with ``band`` (a vague degree word) a
    grown or shrunk element may take any factor in the band, in the target's direction. Paint order, text
    style and locks must agree exactly (font sizes within half a unit).
    """
    if answer is None:
        return False
    want, got = _applied(document, target), _applied(document, answer)
    if want is None or got is None:
        return False
    before, a, b = _state(document.layout), _state(want), _state(got)
    c = document.layout.canvas
    tol = max(2.0 / c.px_per_unit, 0.01 * max(c.width, c.height))
    for key, w in a.items():
        g = b.get(key)
        if g is None:
            return False
        if band is not None and target.get("id") == key and target["type"] in ("promote", "demote"):
            ratio = (g[2] / before[key][2]) if before[key][2] else 1.0
            ratio = ratio if target["type"] == "promote" else (1 / ratio if ratio else 0.0)
            if not band[0] - 1e-6 <= ratio <= band[1] + 1e-6:
                return False
            continue
        if any(abs(p - q) > tol for p, q in zip(w[:4], g[:4])) or w[4] != g[4] or w[6:] != g[6:]:
            return False
        if (w[5] is None) != (g[5] is None) or (w[5] is not None and abs(w[5] - g[5]) > 0.5):
            return False
    return True


# --------------------------------------------------------------------------- records
def records_for(document: Any, n: int, rng: random.Random, voice: Voice, meta: dict[str, Any]) -> list[dict[str, Any]]:
    """``n`` applicator records on ``document`` in ``voice`` (drawn edits that do not apply are skipped)."""
    from assistant.planners.prompting import layout_text, make_record

    view = layout_text(document.layout)
    out: list[dict[str, Any]] = []
    tries = 0
    while len(out) < n and tries < 4 * n:
        tries += 1
        item = draw(document.layout, rng, voice)
        if item is None or not applies(document, item["target"]):
            continue
        record = make_record(view, item["request"], item["target"], kind="applicator",
                             meta={**meta, "voice": voice.name, "kind": item["kind"], "band": item["band"],
                                   "target": item["target"]})
        out.append(record)
    return out


def generate(out: str | Path, *, train_layouts: int, val_layouts: int, heldout_layouts: int, per_layout: int,
             seed: int = 0) -> dict[str, Any]:
    """Write ``train.jsonl`` and ``val.jsonl`` (training voice) and ``heldout.jsonl`` (held-out voice and seeds)."""
    from assistant.env.tasks import make_task, task_names
    from models.data import SEED_RANGES

    tasks = task_names()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plan = {"train": (train_layouts, SEED_RANGES["train"][0], TRAIN_VOICE),
            "val": (val_layouts, SEED_RANGES["val"][0], TRAIN_VOICE),
            "heldout": (heldout_layouts, SEED_RANGES["test"][0], HELDOUT_VOICE)}
    stats: dict[str, Any] = {}
    for split, (count, start, voice) in plan.items():
        rng = random.Random(f"{seed}:{split}")
        rows: list[dict[str, Any]] = []
        for i in range(count):
            task = tasks[i % len(tasks)]
            ids = "varied" if i % 2 else "plain"
            doc = make_task(task, start + i // len(tasks), ids=ids).broken
            rows += records_for(doc, per_layout, rng, voice,
                                {"task": task, "seed": start + i // len(tasks), "ids": ids})
        with (out / f"{split}.jsonl").open("w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        kinds: dict[str, int] = {}
        for r in rows:
            kinds[r["meta"]["kind"]] = kinds.get(r["meta"]["kind"], 0) + 1
        stats[split] = {"records": len(rows), "layouts": count, "voice": voice.name, "kinds": kinds}
    (out / "stats.json").write_text(json.dumps(stats, indent=2) + "\n")
    return stats


def main(argv: list[str] | None = None) -> None:
    """Command line: write the corpus (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--train-layouts", type=int, default=400)
    ap.add_argument("--val-layouts", type=int, default=12)
    ap.add_argument("--heldout-layouts", type=int, default=60)
    ap.add_argument("--per-layout", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    print(json.dumps(generate(a.out, train_layouts=a.train_layouts, val_layouts=a.val_layouts,
                              heldout_layouts=a.heldout_layouts, per_layout=a.per_layout, seed=a.seed), indent=2))


if __name__ == "__main__":
    main()
