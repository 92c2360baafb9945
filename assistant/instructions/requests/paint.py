"""Paint requests: the colour of shapes and artwork, outlines and the thickness of lines, opacity.

Read as more parameters of a style clause (:func:`paint_params`):

* outline width: "half as thick", "halve its thickness", "a bit thinner", "twice as thick", "make the rule 2mm
  thick", "thicker, 1.5mm", "1mm thicker", "border width 3px", "a 2px border", "hairline" (``stroke_width``:
  ``factor``, ``abs`` or ``delta``);
* outline colour: "a red outline", "border in navy", "outline colour #333" (``stroke``);
* no outline: "remove the border", "no outline" (``no_stroke``);
* opacity: "50% opacity", "opacity to 0.3", "30% transparent", "semi-transparent", "fade it back", "fully
  opaque" (``opacity``: ``abs`` or ``factor``);
* shade: "darker", "lighter", "brighter" said of a shape (``shade``: -1 darker, +1 lighter).

:func:`plan_paint` turns them, with a colour said (``fill``), into ``set_paint`` on what is not text: a shape, a
logo or other artwork (all its parts), a picture (opacity only). A button or badge said to be a colour is its
backdrop that takes it, its label stays. A line drawn by its outline takes a colour as its outline colour; a bar
drawn as a filled shape is made thinner across its short side. Text keeps its style path (weight, colour, size);
"thinner" said of text is a lighter weight there.
"""

from __future__ import annotations

import re
from typing import Any

from assistant.document import Element, Layout
from assistant.instructions.requests import amounts as am
from assistant.instructions.requests.plan import Actions, Step, text_ids, world_length
from assistant.svg.css import parse_color

_OUTLINE = r"(?:border|outline|stroke|keyline|frame line)"
_THICKNESS = rf"(?:thickness|line weight|line width|stroke weight|{_OUTLINE}(?: (?:width|weight|thickness))?)"
#: "thinner" and its kin, with how much each degree changes a width.
_THIN = re.compile(r"\b(?:thinner|finer|less thick|less heavy)\b(?! than)|\btoo (?:thick|heavy)\b")
_THICK = re.compile(r"\b(?:thicker|heavier|bolder|more weight)\b(?! than)|\btoo (?:thin|fine)\b")
_WIDTH_FACTOR = {"small": 1.25, "medium": 1.5, "large": 2.0}

_OPAQUE = re.compile(r"\b(?:fully opaque|more opaque|opaque|less transparent|less see through|no transparency|"
                     r"not transparent|100 % opacity|100 % opaque|solid)\b")
_HALF = re.compile(r"\b(?:semi ?transparent|half transparent|translucent|see through|semi opaque|half opaque)\b")
_FADE = re.compile(r"\b(?:fade|faded|fade out|fainter|more transparent|ghost|ghosted|knock back)\b")


def _stroke_width(skel: str) -> dict[str, Any] | None:
    """How thick an outline or line should be, or None when the clause does not say."""
    thick_word = re.search(rf"\b(?:thick|thin|{_THICKNESS}|hairline)\b", skel)
    if re.search(r"\bhairline\b", skel):
        return {"abs": am.Length(0.5, "pt")}
    length = am.first_length(skel)
    if length is not None and length.unit != "%" and (
            re.search(rf"\b\d+(?:\.\d+)? ?\w* (?:thick|(?:\w+ ){{0,2}}{_OUTLINE})\b", skel)
            or re.search(rf"\b{_THICKNESS} (?:to |of |at |= |is |should be )?(?:about |around |~ )?\d", skel)):
        return {"abs": length}
    pct = am.percent(skel)
    thin, thick = _THIN.search(skel), _THICK.search(skel)
    if (thin or thick) and length is not None and length.unit != "%":
        if re.search(r"\b\d+(?:\.\d+)? ?[a-z]* (?:thicker|thinner|heavier|bolder|finer|more|less)\b|\bby \d", skel):
            return {"delta": length, "sign": -1 if thin else 1}  # "1mm thicker": that much more
        return {"abs": length}  # "thicker, 1.5mm": the width to reach
    if pct is not None and (thin or thick or thick_word):
        value, absolute = pct
        return {"factor": value / 100 if absolute else 1 + value / 100 * (-1 if thin else 1)}
    f = am.factor(skel) if thick_word else None
    if f is not None:
        return {"factor": f}
    if thin or thick:
        step = _WIDTH_FACTOR[am.degree(skel)]
        return {"factor": 1 / step if thin else step}
    return None


def _opacity(skel: str) -> dict[str, float] | None:
    m = re.search(r"\b(\d+(?:\.\d+)?) % (?:opacity|opaque|alpha)\b|\b(?:opacity|alpha) (?:to |of |at |= )?(?:about |"
                  r"around )?(\d+(?:\.\d+)?)(?: %)?", skel)
    if m:
        value = float(m.group(1) or m.group(2))
        value = value / 100 if value > 1 or m.group(1) or "%" in m.group(0) else value
        return {"abs": min(max(value, 0.01), 1.0)}
    m = re.search(r"\b(\d+(?:\.\d+)?) % (?:transparent|transparency|see through)\b|\btransparency (?:to |of |at )?"
                  r"(\d+(?:\.\d+)?) %", skel)
    if m:
        return {"abs": min(max(1 - float(m.group(1) or m.group(2)) / 100, 0.01), 1.0)}
    if _OPAQUE.search(skel):
        return {"abs": 1.0}
    if _HALF.search(skel):
        return {"abs": 0.5}
    if _FADE.search(skel) or re.search(r"\btransparent\b", skel):
        return {"factor": {"small": 0.75, "medium": 0.5, "large": 0.3}[am.degree(skel)]}
    return None


def _outline_colour(skel: str) -> str | None:
    colour = r"(#[0-9a-f]{6}|#[0-9a-f]{3}|[a-z]+)"
    m = re.search(rf"\b{colour} {_OUTLINE}\b", skel) or re.search(
        rf"\b{_OUTLINE} (?:colou?r )?(?:to |in |of |= )?(?:a )?(?:dark |light )?{colour}\b", skel)
    if not m:
        return None
    word = m.group(1)
    dark = re.search(rf"\b(dark|light) {re.escape(word)}\b", skel)
    return colour_named(f"{dark.group(1)}{word}" if dark and parse_color(f"{dark.group(1)}{word}") else word)


#: Names whose CSS colour is not what the words say: CSS's "darkgray" (#a9a9a9) is lighter than its "gray".
_SAID_AS_MEANT = {"darkgray": "#404040", "darkgrey": "#404040"}


def colour_named(name: str) -> str | None:
    """The ``#rrggbb`` a colour name means as people say it (CSS's, but "dark grey" darker than grey)."""
    return _SAID_AS_MEANT.get(name) or parse_color(name)


def paint_params(skel: str) -> dict[str, Any]:
    """The paint parameters a clause skeleton asks for (empty when none)."""
    out: dict[str, Any] = {}
    if re.search(rf"\b(?:remove|drop|lose|delete|kill|get rid of|no|without|take off|take away) (?:the |its |their |"
                 rf"E\d+ )?(?:\w+ )?{_OUTLINE}s?\b", skel):
        out["no_stroke"] = True
    else:
        width = _stroke_width(skel)
        if width is not None:
            out["stroke_width"] = width
        colour = _outline_colour(skel)
        if colour is not None:
            out["stroke"] = colour
    opacity = _opacity(skel)
    if opacity is not None:
        out["opacity"] = opacity
    if re.search(r"\b(?:darker|deeper)\b", skel):
        out["shade"] = -1
    elif re.search(r"\b(?:lighter|brighter|paler)\b", skel) and not re.search(r"\blighter weight\b", skel):
        out["shade"] = 1
    return out


#: What a shade step mixes in of black (darker) or white (lighter), per degree.
_SHADE = {"small": 0.15, "medium": 0.3, "large": 0.5}


def _shaded(colour: str, towards: int, amount: float) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    end = 255 if towards > 0 else 0
    return "#" + "".join(f"{round(c + (end - c) * amount):02x}" for c in rgb)


#: Roles of groups that are artwork: a colour said of them is every part's, words included.
_ART = frozenset({"logo", "image", "badge", "decoration", "background"})


def _backdrop(layout: Layout, el: Element) -> Element | None:
    """The shape behind a button's or badge's label, which takes the colour said of the button."""
    if el.kind != "group" or not text_ids(layout, el):
        return None
    for c in el.children:
        kid = layout.get(c)
        if kid.kind == "shape" and kid.box.area >= 0.8 * el.box.area:
            return kid
    return None


def _across(layout: Layout, el: Element, width: dict[str, Any]) -> dict[str, Any] | None:
    """A filled bar or rule made thinner or thicker: a stretch of its short side about its centre line."""
    if el.kind != "shape":
        return None
    b = el.box
    dim = "width" if b.width < b.height else "height"
    now = min(b.width, b.height)
    if "abs" in width:
        size = world_length(layout, width["abs"], "y")
    elif "delta" in width:
        size = now + width["sign"] * world_length(layout, width["delta"], "y")
    else:
        size = now * width["factor"]
    if size <= 0 or abs(size - now) < 1e-9:
        return None
    return {"type": "resize", "id": el.id, dim: round(size, 4), "anchor": "center", "keep_aspect": False}


def _opacity_to(said: dict[str, float], el: Element) -> float:
    """The opacity ``el`` should have: the one said, or its own changed by the factor said ("fade it a bit")."""
    return round(said["abs"] if "abs" in said else max(min(el.opacity * said["factor"], 1.0), 0.01), 3)


def plan_paint(step: Step, layout: Layout) -> list[Actions] | None:
    """``set_paint`` alternatives for a style clause that paints what is not text; None when it is all text's."""
    p = step.intent.params
    paints = {"stroke_width", "stroke", "no_stroke", "opacity", "shade"} & set(p)
    els = [layout.get(i) for i in step.patients]
    # (a logo or a picture with words in it is art, painted whole; a section of text is its texts)
    texts = [e for e in els if text_ids(layout, e) and _backdrop(layout, e) is None and (
        e.kind == "text" or e.role not in _ART)]
    others = [e for e in els if e not in texts]
    # ("lighter" text: a lighter weight, or a lighter colour where it is regular already)
    weight = p.get("font_weight")
    shade = p.get("shade") if not isinstance(weight, int) or all(
        (layout.get(t).font_weight or 400) <= weight for e in els for t in text_ids(layout, e)) else None
    if not others and not ({"opacity", "stroke", "no_stroke"} & set(p)) and shade is None:
        return None  # text: weight, colour and size as text is styled ("thinner" text is a lighter weight)
    if not paints and "fill" not in p:
        return None
    first: Actions = []
    second: Actions = []  # the colour said as the outline's (a line drawn by its outline)
    third: Actions = []  # and a bar drawn filled made thinner across
    for el in others:
        target = _backdrop(layout, el) or el
        fields: dict[str, Any] = {}
        fill = p.get("fill")
        if fill is None and "shade" in p and target.fill:
            fill = _shaded(target.fill, p["shade"], _SHADE[am.degree(step.text.lower())])
        if fill is not None:
            fields["fill"] = fill
        if "stroke" in p:
            fields["stroke"] = p["stroke"]
        width = p.get("stroke_width")
        if p.get("no_stroke"):
            fields["stroke_width"] = 0.0
        elif width is not None and "delta" in width:
            # a line's thickness is its box's short side; an outline round a box is not known: as "thicker" says
            b = target.box
            now = min(b.width, b.height) if min(b.width, b.height) < 0.1 * max(b.width, b.height) else None
            change = world_length(layout, width["delta"], "y") * width["sign"]
            if now is not None and now + change > 0:
                fields["stroke_width"] = round(now + change, 4)
            else:
                fields["stroke_scale"] = _WIDTH_FACTOR["medium"] ** width["sign"]
        elif width is not None and "abs" in width:
            fields["stroke_width"] = round(world_length(layout, width["abs"], "y"), 4)
        elif width is not None:
            fields["stroke_scale"] = round(width["factor"], 4)
        if "opacity" in p:
            fields["opacity"] = _opacity_to(p["opacity"], target)
        if not fields:
            continue
        first.append({"type": "set_paint", "ids": [target.id], **fields})
        other = dict(fields)
        if "fill" in other and "stroke" not in other:
            other["stroke"] = other.pop("fill")
        second.append({"type": "set_paint", "ids": [target.id], **other})
        across = _across(layout, target, width) if width is not None else None
        if across is not None:
            third.append(across)
            rest = {k: v for k, v in other.items() if k not in ("stroke_width", "stroke_scale")}
            third += [{"type": "set_paint", "ids": [target.id], **rest}] if rest else []
        else:
            third.append({"type": "set_paint", "ids": [target.id], **other})
    words: Actions = []  # what the texts take, the same in every alternative
    for el in texts:
        fields = {}
        if "opacity" in p:
            fields["opacity"] = _opacity_to(p["opacity"], el)
        if "stroke" in p:
            fields["stroke"] = p["stroke"]
        if fields:
            words.append({"type": "set_paint", "ids": [el.id], **fields})
        for t in text_ids(layout, layout.get(el.id)):
            colour = p.get("fill") or (_shaded(layout.get(t).fill or "#000000", shade, _SHADE[am.degree(
                step.text.lower())]) if shade is not None else None)
            if colour is not None:
                words.append({"type": "set_text_style", "ids": [t], "fill": colour})
    out: list[Actions] = []
    for alternative in (first, second, third):
        if (alternative or words) and alternative + words not in out:
            out.append(alternative + words)
    return out or None


__all__ = ["colour_named", "paint_params", "plan_paint"]
