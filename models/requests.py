"""Plain-language edit requests for applicator training, generated from target actions.

An applicator example pairs a request a person might type ("push the logo into
the top-right corner", "make the price stand out", "nudge the title 10px left",
"align the body with the headline") with the exact action it means. Requests
are made *from* actions with templates and synonyms, so the pair is correct by
construction; the action is normalised first (:func:`normalise_for_request`) so
that everything it says is recoverable from the words (numbers rounded as
spoken, promote factors snapped to the handful of degrees the words express).

Elements are referred to the way people do: by role when the role is unique
("the logo", "the headline"; with probability ``role_words``), else by the first
words of their text ("the 'Spring sale' text"), else by id ("#badge-2"). Pure
functions of the layout, the action and a ``random.Random``; deterministic for a
seed.

:data:`KIND_WEIGHTS` and :data:`ROLE_WORDS_SHARE` are the mix of requests the
evaluation asks (``models.eval.applicator.evaluate_applicator``); training data may ask
more often for what a model finds hard (``models.data.DataConfig.kind_weights``
and ``role_words``: three-element ``distribute``, two-element ``align``, texts
named by their words) without changing the held-out requests.
"""

from __future__ import annotations

import random
from typing import Any

from assistant.document import Element, Layout

ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "title": ("title", "headline", "heading", "main title"),
    "subtitle": ("subtitle", "subheading", "tagline", "subhead"),
    "body": ("body text", "body copy", "paragraph", "text block", "body"),
    "caption": ("caption", "small print", "fine print"),
    "cta": ("button", "call to action", "CTA", "call-to-action button"),
    "logo": ("logo", "brand mark", "logotype"),
    "image": ("image", "photo", "picture", "hero image"),
    "badge": ("badge", "sticker", "label"),
    "background": ("background",),
    "decoration": ("decoration", "ornament", "shape"),
}
REGION_WORDS: dict[str, tuple[str, ...]] = {
    "top_left": ("top-left corner", "top left", "upper left corner"),
    "top_right": ("top-right corner", "top right", "upper right corner"),
    "bottom_left": ("bottom-left corner", "bottom left", "lower left corner"),
    "bottom_right": ("bottom-right corner", "bottom right", "lower right corner"),
    "top": ("top", "top edge", "top centre"),
    "bottom": ("bottom", "bottom edge", "bottom centre"),
    "left": ("left side", "left edge", "left"),
    "right": ("right side", "right edge", "right"),
    "center": ("centre", "middle", "center of the page"),
    "top_band": ("top band", "top strip", "band along the top"),
    "hero": ("hero area", "hero spot", "hero position"),
    "footer": ("footer", "footer area", "foot of the page"),
}
#: Promote/demote factors the words can express, and the words.
PROMOTE_WORDS: dict[float, tuple[str, ...]] = {
    1.1: ("make {e} a little bigger", "slightly enlarge {e}", "give {e} a touch more weight"),
    1.25: ("make {e} stand out", "make {e} more prominent", "emphasise {e}", "make {e} bigger",
           "give {e} more presence"),
    1.5: ("make {e} much bigger", "really make {e} pop", "make {e} a lot more prominent"),
    2.0: ("make {e} twice as big", "double the size of {e}"),
}
DEMOTE_WORDS: dict[float, tuple[str, ...]] = {
    1.1: ("make {e} a little smaller", "slightly tone down {e}"),
    1.25: ("make {e} less prominent", "tone down {e}", "make {e} smaller", "de-emphasise {e}"),
    1.5: ("make {e} much smaller", "make {e} a lot less prominent"),
    2.0: ("make {e} half the size", "halve the size of {e}"),
}
EDGE_WORDS: dict[str, tuple[str, ...]] = {
    "left": ("left edges", "left sides"), "right": ("right edges", "right sides"),
    "top": ("tops", "top edges"), "bottom": ("bottoms", "bottom edges"),
    "center_x": ("horizontal centres", "centres horizontally"), "center_y": ("vertical centres", "centres vertically"),
    "baseline": ("baselines", "text baselines"),
}
#: How often :func:`synth_action` draws each kind of edit, by default (the evaluation's mix).
KIND_WEIGHTS: dict[str, float] = {"move": 5, "anchor": 4, "promote": 3, "demote": 2, "align": 3, "reorder": 1,
                                  "style": 2, "resize": 1, "distribute": 1, "reflow": 1}
#: The distances most move requests name, in whole units (``move_amounts(rng, "common")``).
MOVE_STEPS: tuple[int, ...] = (2, 4, 5, 8, 10, 12, 15, 20, 24, 30, 40, 50)
#: How :func:`move_amounts` draws distances: only :data:`MOVE_STEPS`, any whole number, or each half the time.
MOVE_AMOUNTS: tuple[str, ...] = ("common", "any", "mixed")
#: Chance that an element whose role is unique is named by a role word rather than its text or id.
ROLE_WORDS_SHARE = 0.85
COLOUR_NAMES: dict[str, str] = {
    "#000000": "black", "#ffffff": "white", "#ff0000": "red", "#0000ff": "blue", "#008000": "green",
    "#ffa500": "orange", "#808080": "grey", "#ffff00": "yellow", "#800080": "purple",
}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def kind_weights(overrides: dict[str, float] | None = None) -> dict[str, float]:
    """:data:`KIND_WEIGHTS` with ``overrides``; an unknown kind or a negative weight is a ``ValueError``."""
    weights = dict(KIND_WEIGHTS)
    for kind, weight in (overrides or {}).items():
        if kind not in KIND_WEIGHTS:
            raise ValueError(f"unknown request kind {kind!r} (known: {', '.join(KIND_WEIGHTS)})")
        if not weight >= 0:
            raise ValueError(f"request kind {kind!r} has weight {weight}; weights are 0 or more")
        weights[kind] = float(weight)
    if not sum(weights.values()) > 0:
        raise ValueError("every request kind has weight 0")
    return weights


def refer(el: Element, layout: Layout, rng: random.Random, role_words: float = ROLE_WORDS_SHARE) -> str:
    """A phrase naming ``el`` unambiguously in ``layout`` (by a role word with probability ``role_words``)."""
    same_role = [e for e in layout.elements if e.role == el.role]
    if len(same_role) == 1 and el.role in ROLE_WORDS and rng.random() < role_words:
        return "the " + rng.choice(ROLE_WORDS[el.role])
    if el.text:
        words = el.text.split()[:3]
        snippet = " ".join(words).strip(".,:;!?\"'")
        matches = [e for e in layout.elements if e.text and " ".join(e.text.split()[:3]).strip(".,:;!?\"'") == snippet]
        if snippet and len(matches) == 1:
            return f"the '{snippet}' text"
    return rng.choice((f"#{el.id}", f"element {el.id}", f"the {el.id} element"))


def _refer_many(ids: list[str], layout: Layout, rng: random.Random, role_words: float) -> str:
    names = [refer(layout.get(i), layout, rng, role_words) for i in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _unit(layout: Layout) -> str:
    return "px" if abs(layout.canvas.px_per_unit - 1.0) < 1e-9 else " units"


def _snap(value: float, choices: list[float]) -> float:
    return min(choices, key=lambda c: abs(c - value))


def normalise_for_request(action: dict[str, Any]) -> dict[str, Any]:
    """The action with what words can carry: whole numbers, snapped factors, no optional extras."""
    a = {k: v for k, v in action.items() if v is not None}
    t = a["type"]
    for key in ("dx", "dy", "width", "height", "gap", "size", "font_size", "min_size", "max_size"):
        if key in a:
            a[key] = int(round(float(a[key])))
    if t in ("promote", "demote"):
        a["factor"] = _snap(float(a.get("factor", 1.25)), list(PROMOTE_WORDS))
    if t == "resize" and "scale" in a:
        a["scale"] = round(float(a["scale"]) * 4) / 4 or 0.25
    if t == "move":
        a.setdefault("dx", 0)
        a.setdefault("dy", 0)
    return a


def _move_text(a: dict[str, Any], e: str, u: str, rng: random.Random) -> str:
    parts = []
    if a["dx"]:
        parts.append(f"{abs(a['dx'])}{u} {'right' if a['dx'] > 0 else 'left'}")
    if a["dy"]:
        parts.append(f"{abs(a['dy'])}{u} {'down' if a['dy'] > 0 else 'up'}")
    if not parts:
        return f"leave {e} where it is"
    verb = rng.choice(("nudge", "move", "shift", "push"))
    return f"{verb} {e} {' and '.join(parts)}"


def describe(action: dict[str, Any], layout: Layout, rng: random.Random,
             role_words: float = ROLE_WORDS_SHARE) -> str:
    """A plain-language request meaning exactly ``action`` (already normalised)."""
    t = action["type"]
    u = _unit(layout)
    if t == "finalize":
        return rng.choice(("that's all, finish", "done", "looks good, finalize", "we're finished", "finish up"))
    if t == "apply_template":
        name = action["template"]
        return rng.choice((f"use the {name} template", f"apply the {name} layout", f"switch to the {name} template"))
    ids = action.get("ids") or [action["id"]]
    e = _refer_many(ids, layout, rng, role_words)
    if t == "move":
        return _move_text(action, e, u, rng)
    if t == "anchor_to_region":
        where = rng.choice(REGION_WORDS[action["region"]])
        return rng.choice((f"push {e} into the {where}", f"put {e} in the {where}", f"move {e} to the {where}",
                           f"{e} to the {where}", f"place {e} at the {where}"))
    if t == "align":
        edge, to = action["edge"], action.get("to", "each_other")
        ew = rng.choice(EDGE_WORDS[edge])
        if to == "element":
            tgt = refer(layout.get(action["target_id"]), layout, rng, role_words)
            if edge == "left":
                return rng.choice((f"align {e} with {tgt}", f"line up the {ew} of {e} with {tgt}"))
            return f"line up the {ew} of {e} with {tgt}"
        if to == "canvas":
            return rng.choice((f"align the {ew} of {e} to the page", f"line up {e} by its {ew} with the canvas"))
        if to == "margins":
            return rng.choice((f"align the {ew} of {e} to the margins", f"line up {e} by its {ew} with the margin"))
        return rng.choice((f"align the {ew} of {e}", f"line up {e} by their {ew}"))
    if t == "distribute":
        axis = action["axis"]
        gap = f" with {action['gap']}{u} gaps" if "gap" in action else ""
        centres = " by their centres" if action.get("mode") == "centers" else ""
        return rng.choice((f"space {e} evenly {axis}ly{centres}{gap}", f"distribute {e} {axis}ly{centres}{gap}"))
    if t == "snap_to_grid":
        if "columns" in action:
            return f"snap {e} to a {action['columns']}-column grid"
        if "size" in action:
            return f"snap {e} to a {action['size']}{u} grid"
        return rng.choice((f"snap {e} to the grid", f"put {e} on the grid"))
    if t == "reflow_text":
        mode = action.get("mode", "auto")
        width = f" to {action['width']}{u} wide" if "width" in action else ""
        if mode == "wrap":
            return f"wrap {e}{width}"
        if mode == "font_size":
            return f"fit {e}{width} by changing its font size"
        return rng.choice((f"reflow {e}{width}", f"make {e} fit{width}"))
    if t == "reflow_group":
        gap = f" with a {action['gap']}{u} gap" if "gap" in action else ""
        align = action.get("align", "start")
        al = "" if align == "start" else f", {'centred' if align == 'center' else 'aligned to the end'}"
        return rng.choice((f"stack {e} {action.get('axis', 'vertical')}ly{gap}{al}",
                           f"tidy the spacing of {e} {action.get('axis', 'vertical')}ly{gap}{al}"))
    if t in ("promote", "demote"):
        table = PROMOTE_WORDS if t == "promote" else DEMOTE_WORDS
        return rng.choice(table[action["factor"]]).format(e=e)
    if t == "reorder":
        return {"front": f"bring {e} to the front", "back": f"send {e} to the back",
                "forward": f"bring {e} forward one layer", "backward": f"send {e} back one layer"}[action["to"]]
    if t == "resize":
        if "scale" in action:
            return rng.choice((f"scale {e} by {action['scale']:g}", f"resize {e} by a factor of {action['scale']:g}"))
        dims = [f"{action[k]}{u} {'wide' if k == 'width' else 'tall'}" for k in ("width", "height") if k in action]
        return f"resize {e} to {' and '.join(dims)}"
    if t == "set_text_style":
        bits = []
        if "font_size" in action:
            bits.append(f"set the font size of {e} to {action['font_size']}")
        if "font_weight" in action:
            w = action["font_weight"]
            bits.append({700: f"make {e} bold", 400: f"make {e} regular weight"}.get(w, f"set {e} to weight {w}"))
        if "fill" in action:
            name = COLOUR_NAMES.get(action["fill"].lower(), action["fill"])
            bits.append(f"colour {e} {name}")
        if "font_family" in action:
            bits.append(f"change the font of {e} to {action['font_family']}")
        return ", and ".join(bits)
    return f"{t.replace('_', ' ')} {e}"


def request_for(action: dict[str, Any], layout: Layout, rng: random.Random,
                role_words: float = ROLE_WORDS_SHARE) -> tuple[str, dict[str, Any]]:
    """``(request, normalised action)`` for a target action; randomly capitalised or casual."""
    norm = normalise_for_request(action)
    if norm["type"] == "set_text_style" and "fill" in norm and norm["fill"].lower() not in COLOUR_NAMES:
        norm["fill"] = norm["fill"].lower()
    text = describe(norm, layout, rng, role_words)
    style = rng.random()
    if style < 0.3:
        text = _cap(text)
    elif style < 0.45:
        text = "please " + text
    elif style < 0.55:
        text = _cap(text) + "."
    return text, norm


def candidate_elements(layout: Layout) -> list[Element]:
    """Elements a request may name: not locked, not the background, not inside a group."""
    return [e for e in layout.elements if not e.locked and e.role != "background" and e.group is None]


def move_amounts(rng: random.Random, amounts: str = "common") -> tuple[int, int]:
    """``(dx, dy)`` of a requested move, in whole units; ``amounts`` is one of :data:`MOVE_AMOUNTS`.

    ``common`` draws from :data:`MOVE_STEPS` (the held-out requests of every report since the applicator was
    first measured, drawn exactly as then); ``any`` draws every distance uniformly, 1–120 along one axis and
    1–60 for the second axis of a diagonal move, in any of the four diagonal directions; ``mixed`` draws each
    distance one way or the other with even odds, for training data (a model that saw only the common
    distances answers "move the logo 37px left" with one of them).
    """
    if amounts not in MOVE_AMOUNTS:
        raise ValueError(f"unknown move amounts {amounts!r} (known: {', '.join(MOVE_AMOUNTS)})")
    if amounts == "common":
        step = rng.choice(MOVE_STEPS)
        return rng.choice(((step, 0), (-step, 0), (0, step), (0, -step),
                           (step, rng.choice((5, 10, 20))), (-step, -rng.choice((5, 10)))))

    def amount(most: int, common: tuple[int, ...]) -> int:
        if amounts == "mixed" and rng.random() < 0.5:
            return rng.choice(common)
        return rng.randint(1, most)

    step, other = amount(120, MOVE_STEPS), amount(60, (5, 10, 20))
    return rng.choice(((step, 0), (-step, 0), (0, step), (0, -step),
                       (step, other), (-step, -other), (step, -other), (-step, other)))


def synth_action(layout: Layout, rng: random.Random, weights: dict[str, float] | None = None,
                 amounts: str = "common") -> dict[str, Any] | None:
    """A random plausible edit on ``layout`` (None when it has nothing editable).

    ``weights`` (every kind of :data:`KIND_WEIGHTS`, e.g. from :func:`kind_weights`) says how often each kind
    of edit is drawn; by default :data:`KIND_WEIGHTS`. ``amounts`` says how far moves go (:func:`move_amounts`).
    """
    els = candidate_elements(layout)
    if not els:
        return None
    el = rng.choice(els)
    texts = [e for e in els if e.is_text]
    mix = weights or KIND_WEIGHTS
    kind = rng.choices(tuple(KIND_WEIGHTS), weights=tuple(mix[k] for k in KIND_WEIGHTS))[0]
    if kind == "move":
        dx, dy = move_amounts(rng, amounts)
        return {"type": "move", "ids": [el.id], "dx": dx, "dy": dy}
    if kind == "anchor":
        return {"type": "anchor_to_region", "ids": [el.id], "region": rng.choice(list(REGION_WORDS))}
    if kind in ("promote", "demote"):
        return {"type": kind, "id": el.id, "factor": rng.choice(list(PROMOTE_WORDS))}
    if kind == "align" and len(els) >= 2:
        other = rng.choice([e for e in els if e.id != el.id])
        edge = rng.choice(("left", "left", "right", "top", "center_x", "center_y"))
        to = rng.choice(("element", "element", "canvas", "margins", "each_other"))
        if to == "element":
            return {"type": "align", "ids": [el.id], "edge": edge, "to": "element", "target_id": other.id}
        if to == "each_other":
            return {"type": "align", "ids": [el.id, other.id], "edge": edge, "to": "each_other"}
        return {"type": "align", "ids": [el.id], "edge": edge, "to": to}
    if kind == "reorder":
        return {"type": "reorder", "id": el.id, "to": rng.choice(("front", "back", "forward", "backward"))}
    if kind == "style" and texts:
        t = rng.choice(texts)
        choice = rng.random()
        if choice < 0.35:
            return {"type": "set_text_style", "ids": [t.id], "font_weight": rng.choice((400, 700))}
        if choice < 0.7:
            return {"type": "set_text_style", "ids": [t.id], "fill": rng.choice(list(COLOUR_NAMES))}
        size = max(6, int(round((t.font_size or 16) * rng.choice((0.8, 1.2, 1.5)))))
        return {"type": "set_text_style", "ids": [t.id], "font_size": size}
    if kind == "resize":
        return {"type": "resize", "id": el.id, "scale": rng.choice((0.5, 0.75, 1.25, 1.5, 2.0))}
    if kind == "distribute" and len(els) >= 3:
        group = rng.sample(els, 3)
        return {"type": "distribute", "ids": [g.id for g in group], "axis": rng.choice(("horizontal", "vertical"))}
    if kind == "reflow" and texts:
        t = rng.choice(texts)
        return {"type": "reflow_text", "id": t.id, "mode": rng.choice(("auto", "wrap", "font_size"))}
    return {"type": "anchor_to_region", "ids": [el.id], "region": rng.choice(list(REGION_WORDS))}
