"""One builder per intent: resolved element ids + the current layout → action alternatives.

:func:`plan_step` dispatches on the intent's kind (a registry,
:data:`BUILDERS`); each builder follows the conventions of
:mod:`~assistant.instructions.requests.plan` and raises
:class:`~assistant.instructions.requests.plan.CannotPlan` with a reason a
person can act on. Lengths are converted with the layout's canvas (px,
pt, mm … to world units; a percentage of the page along the axis moved).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from assistant.document import Element, Layout
from assistant.geometry import Box, apart_axis
from assistant.instructions.requests import amounts as am
from assistant.instructions.requests import fixes, narrowing, paint, spacing
from assistant.instructions.requests.frame import Intent
from assistant.instructions.requests.index import section_heading
from assistant.instructions.requests.plan import (
    GROWING_STRETCHES,
    MOVES,
    Actions,
    CannotPlan,
    Step,
    arrangement,
    content,
    need,
    resize_anchors,
    scale_alternatives,
    scale_factor,
    step_amount,
    stretchable,
    text_ids,
    typical_gap,
    widest_split,
    with_icons,
    world_length,
)
from assistant.instructions.requests.scope import copies
from assistant.instructions.requests.sizing import CLEAR_SAID


def _lock(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    return [[{"type": "set_locked", "ids": step.patients, "locked": bool(step.intent.params.get("locked", True))}]]


def _zorder(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    to = step.intent.params["to"]
    refs = [r for r in step.refs if r not in step.patients]
    if refs and to in ("front", "back") and not step.refs_are_others:
        # "behind the boy": just behind the one named; "behind all the text": behind the lowest of them
        z = {e.id: e.z for e in layout.elements}
        ref = (min if to == "back" else max)(refs, key=z.__getitem__)
        return [[{"type": "reorder", "id": i, "to": to, "target_id": ref} for i in step.patients]]
    return [[{"type": "reorder", "id": i, "to": to} for i in step.patients]]


def _swap_sides(ids: list[str], layout: Layout) -> Actions:
    """Two sets of elements that change sides ("the logo on the right, the words on the left"), or [] if not two.

    The elements split where the widest clear gap between them lies, across or down the page; each set moves as
    one block, so the pair keeps its outer edges: the first set ends where the second ended, the second starts where
    the first started.
    """
    splits = [(split, axis) for axis in ("x", "y") if (split := widest_split(layout, ids, axis)) and split[0] > 0]
    if not splits:
        return []
    (_gap, first, second), axis = max(splits, key=lambda s: s[0][0])
    u1, u2 = (Box.union_all([layout.get(i).box for i in part]) for part in (first, second))
    d1, d2 = (u2.x2 - u1.x2, u1.x - u2.x) if axis == "x" else (u2.y2 - u1.y2, u1.y - u2.y)
    return [{"type": "move", "ids": part, "dx": round(d, 3) if axis == "x" else 0.0,
             "dy": round(d, 3) if axis == "y" else 0.0} for part, d in ((first, d1), (second, d2))]


def _swap(step: Step, layout: Layout) -> list[Actions]:
    ids = step.patients + [r for r in step.refs if r not in step.patients]
    if len(ids) > 2 and len(step.intent.patients) + len(step.intent.refs) == 2 and (moves := _swap_sides(ids, layout)):
        return [moves]  # "swap it round: logo on the right, words on the left" (the words being two texts)
    if len(ids) != 2:
        raise CannotPlan(f"a swap needs exactly two elements, and I found {len(ids)}")
    a, b = (layout.get(i) for i in ids)
    for one, other in ((a, b), (b, a)):
        up = layout.get(other.group) if other.group else None
        if one.kind == "group" and other.kind != "group" and up is not None and up.role == one.role \
                and other.id not in {d.id for d in layout.descendants_of(one.id)}:
            # "swap the Items and Figure and Text tab labels": one named as its tab, the other as its label;
            # like for like, each tab with its label
            ids = [one.id, up.id] if one is a else [up.id, one.id]
    a, b = (layout.get(i) for i in ids)
    texts = [text_ids(layout, a), text_ids(layout, b)]
    if (a.box.intersection(b.box) is not None and all(i.startswith("la-") for i in ids)
            and texts[0] and len(texts[0]) == len(texts[1]) and all(copies(t, layout) for t in texts)):
        # two units the importer made whose boxes reach into each other ("DConf" and "2018", each with the
        # ornament drawn beside it; "Golisano 2620" and "4pm - 6pm", each with its shadow): exchanging the boxes
        # runs the words into each other; exchange the words, each copy with its like
        pairs = zip(*(sorted(t, key=lambda i: layout.get(i).z) for t in texts))
        return [[{"type": "swap", "ids": [p, q]} for p, q in pairs], [{"type": "swap", "ids": ids}]]
    heads = [_headed(layout, e) for e in (a, b)]
    if all(heads) and heads[0] != heads[1]:
        # "swap python and ruby": the headings name their sections; the code under each goes with it
        return [[{"type": "swap", "ids": heads}], [{"type": "swap", "ids": ids}]]
    return [[{"type": "swap", "ids": ids}]]


def _headed(layout: Layout, e: Element) -> str | None:
    """The section (a heading and what is under it, grouped by the importer) that ``e`` heads, if it does."""
    if e.group is None or not e.group.startswith("la-section-"):
        return None
    return e.group if section_heading(layout, e.group) == e.id else None


def _separate(step: Step, layout: Layout) -> list[Actions]:
    p = step.intent.params
    if p.get("any") or (not step.refs and not p.get("pending")):
        pairs = [(a.id, b.id) for i, a in enumerate(content(layout)) for b in content(layout)[i + 1:]
                 if fixes.overlaps(a.box, b.box)]
        if step.patients:
            pairs = [pr for pr in pairs if set(pr) & set(step.patients)]
        if not pairs:
            return [[]]
        a, b = pairs[0]
        return fixes.separate(layout, _movers(layout, [a], [b], False), [a, b]) or _no_room()
    need(step)
    obstacles = step.refs
    if not obstacles:
        raise CannotPlan("what should it be moved off? Name the element it overlaps")
    if p.get("bound"):  # "make the name bold, but don't let it run into the logo": what the edit made it run into
        if not any(fixes.overlaps(layout.get(m).box, layout.get(o).box, 0.0) for m in step.patients
                   for o in obstacles):
            return [[]]
        return fixes.separate(layout, step.patients, obstacles) or _no_room()
    if not any(fixes.overlaps(layout.get(m).box, layout.get(o).box, 0.0) for m in step.patients for o in obstacles):
        if p.get("or_gap"):
            wider = Step(Intent("gap", params={"op": "more", "degree": "medium"}), step.patients, obstacles)
            return spacing.gap(wider, layout)
        return [[]]
    movers = _movers(layout, step.patients, obstacles, bool(p.get("mover")))
    found = []
    for m in movers:
        found += fixes.separate(layout, [m], [o for o in obstacles if o != m] or step.patients)
    return found or _no_room()


def _no_room() -> list[Actions]:
    raise CannotPlan("there is no room to move it clear without leaving the page")


def _movers(layout: Layout, patients: list[str], refs: list[str], explicit: bool) -> list[str]:
    """Who moves to clear an overlap: the one named as moving, else the less important / smaller one first."""
    if explicit:
        return patients
    both = patients + refs
    return sorted(both, key=lambda i: (layout.get(i).importance, layout.get(i).kind != "text",
                                       layout.get(i).box.area))


def _inside(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    p = step.intent.params
    # "… 15% bigger, still inside the blue strip": in what was named, not only on the page ("within the box's
    # width": between its sides)
    within = [fixes.on_axis(layout.get(r).box, p.get("axis"), layout.canvas.box) for r in step.refs
              if r not in step.patients and p.get("bound")]
    return [fixes.inside(layout, step.patients, Box.union_all(within) if within else None,
                         shrink=not p.get("keep_size"))]


def _match(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    if not step.refs:
        raise CannotPlan("as big as which element? Name it, e.g. 'as wide as the photo'")
    target = step.refs[0]
    dim = step.intent.params.get("dimension", "both")
    if step.patients == [target] and step.intent.params.get("factor"):  # "…: 80% of its size": a share of itself
        return _resize(Step(Intent("resize", [0], params={"percent": (100 * step.intent.params["factor"], True)}),
                            step.patients, [], step.text), layout)
    if dim in ("width", "height") and len(step.refs) > 1 and len(step.patients) == 1:
        # "make it as wide as DConf + 2018 together": as wide as they reach together
        el, span = layout.get(step.patients[0]), Box.union_all([layout.get(r).box for r in step.refs])
        return [[{"type": "resize", "id": el.id, dim: round(getattr(span, dim), 3), "anchor": a,
                  "keep_aspect": not stretchable(el)}] for a in resize_anchors(layout, el)]
    words = [layout.get(i) for i in step.patients if i != target]
    model = layout.get(target)
    share = step.intent.params.get("factor") or 1.0
    if dim == "both" and model.kind == "text" and model.font_size and words and all(
            e.kind == "text" and e.font_size for e in words):
        # "make wi-fi match mesh": a text matches another's size of type (its words make it wider or narrower)
        return [[{"type": "set_text_style", "ids": [e.id], "font_size": round(model.font_size * share, 3)}
                 for e in words]]
    if share != 1.0 and words:  # "half the width of the photo": that share of the other's size
        side = "height" if dim == "height" else "width"
        size = round((model.box.height if side == "height" else model.box.width) * share, 3)
        return [[{"type": "resize", "id": e.id, side: size, "anchor": a, "keep_aspect": True} for e in words]
                for a in resize_anchors(layout, words[0])]
    holder = (words[0] if words[0].kind == "group" else layout.get(words[0].group) if words[0].group else None) \
        if len(words) == 1 else None
    if dim in ("width", "height") and holder is not None and (back := _backdrop(layout, holder)) is not None and \
            back.id in (words[0].id, *words[0].children) and stretchable(back) and any(
                layout.get(c).kind == "text" for c in holder.children):
        # "make the edit box as wide as the build box": its backdrop as wide as the other's, about its centre; the
        # label keeps its size, centred on it
        ref = (_backdrop(layout, model) if model.kind == "group" else None) or model
        labels = [{"type": "align", "ids": [c], "edge": "center_x" if dim == "width" else "center_y", "to": "element",
                   "target_id": back.id} for c in holder.children if layout.get(c).kind == "text"]
        return [[{"type": "resize", "id": back.id, dim: round(getattr(ref.box, dim), 3), "anchor": a,
                  "keep_aspect": False}, *(labels if a != "center" else [])]
                for a in step.intent.params.get("anchor") and [step.intent.params["anchor"]] or _shared_side(
                    back.box, ref.box, dim, layout) or ["center", *resize_anchors(layout, holder)]]
    out = []
    held = step.intent.params.get("anchor")  # ("…, keep it on the same centre line")
    for i in [p for p in step.patients if p != target][:1] or []:
        el = layout.get(i)
        keep = not stretchable(el) or dim == "both"
        for a in [held] if held else _shared_side(el.box, model.box, dim, layout) or resize_anchors(layout, el):
            out.append([{"type": "match_size", "dimension": dim, "anchor": a, "keep_aspect": keep,
                         "ids": [p for p in step.patients if p != target], "target_id": target}])
    return out


def _shared_side(box: Box, model: Box, dim: str, layout: Layout) -> list[str]:
    """The side ``box`` shares with ``model`` across the dimension matched, as the anchor to grow from.

    "Make the Conclusions box as wide as the Code box above": they start at one left edge, so it grows rightwards.
    """
    tol = 0.004 * min(layout.canvas.width, layout.canvas.height)
    if dim == "width":
        return ["left"] if abs(box.x - model.x) <= tol else ["right"] if abs(box.x2 - model.x2) <= tol else []
    if dim == "height":
        return ["top"] if abs(box.y - model.y) <= tol else ["bottom"] if abs(box.y2 - model.y2) <= tol else []
    return []


def _fill(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    dim = step.intent.params.get("dimension", "width")
    area = layout.canvas.box if step.intent.params.get("bleed") else layout.canvas.safe_box
    to = "canvas" if step.intent.params.get("bleed") else "margins"
    inset = step.intent.params.get("margin")
    out: Actions = []
    for i in step.patients:
        el = layout.get(i)
        edge = "left" if dim == "width" else "top"
        keep = not stretchable(el)
        if inset is not None:  # the margin said: that far inside the page's edges
            page = layout.canvas.page_box(el.page)
            d = am.to_world(inset, layout.canvas, "x" if dim == "width" else "y")
            if 2 * d >= (page.width if dim == "width" else page.height):
                raise CannotPlan(f"a margin of {inset.value:g} {inset.unit} on each side leaves no room on the page")
            span = (page.width if dim == "width" else page.height) - 2 * d
            shift = round(page.x + d - el.box.x if dim == "width" else page.y + d - el.box.y, 3)
            size = {"width": round(span, 3)} if dim == "width" else {"height": round(span, 3)}
            if shift:
                out.append({"type": "move", "ids": [i], "dx" if dim == "width" else "dy": shift})
            out.append({"type": "resize", "id": i, **size, "anchor": "top_left", "keep_aspect": keep})
            continue
        if dim == "both":  # "so it covers the whole page": its width and its height
            box = el.box
            size = ({"width": round(area.width, 3), "height": round(area.height, 3)} if not keep else
                    {"scale": round(max(area.width / box.width, area.height / box.height), 4)})
            out += [{"type": "resize", "id": i, **size, "anchor": "top_left", "keep_aspect": keep},
                    {"type": "align", "ids": [i], "edge": "left", "to": to},
                    {"type": "align", "ids": [i], "edge": "top", "to": to}]
            continue
        size = {"width": round(area.width, 3)} if dim == "width" else {"height": round(area.height, 3)}
        out += [{"type": "align", "ids": [i], "edge": edge, "to": to},
                {"type": "resize", "id": i, **size, "anchor": "top_left", "keep_aspect": keep}]
    return [out]


def _center(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    axis = step.intent.params.get("axis")
    if step.intent.params.get("between") and len(step.refs) >= 2:
        return [_midway(step, layout, axis)]
    if step.intent.params.get("compared") and len(step.refs) > 1:
        return [_on_shared_centre(step, layout, axis)]
    if len(step.refs) > 1 and not set(step.refs) & set(step.patients):
        # "centre the logo vertically on the title + subtitle together": on the middle of what they take together
        whole = Box.union_all([layout.get(i).box for i in step.patients])
        target = Box.union_all([layout.get(r).box for r in step.refs])
        if axis is None:
            axis = "x" if apart_axis(whole, target) == "vertical" else "y"
        ends = [layout.get(r).box for r in step.refs]
        mid = (lambda b: b.cy) if axis == "y" else (lambda b: b.cx)
        if axis in ("x", "y") and min(map(mid, ends)) < mid(whole) < max(map(mid, ends)) and all(
                _share(e, whole, axis == "x") for e in ends):
            return [_midway(step, layout, axis)]  # (one on each side of it, in its line: in the gap they leave)
        dx = target.cx - whole.cx if axis in ("x", "both") else 0.0
        dy = target.cy - whole.cy if axis in ("y", "both") else 0.0
        return [[{"type": "move", "ids": list(step.patients), "dx": round(dx, 3), "dy": round(dy, 3)}]]
    if step.refs:
        ref = step.refs[0]
        if axis is None:
            axis = "x" if apart_axis(layout.get(step.patients[0]).box, layout.get(ref).box) == "vertical" else "y"
        edges = ["center_x", "center_y"] if axis == "both" else ["center_x" if axis == "x" else "center_y"]
        els = [layout.get(i) for i in step.patients if i != ref]
        if len(els) > 1 and any(_share(a.box, b.box, "center_x" in edges) for k, a in enumerate(els)
                                for b in els[k + 1:]):
            # "centre the title and the tagline vertically on the circle": stacked, they move as one block (centred
            # one by one they would pile up on each other)
            whole, target = Box.union_all([e.box for e in els]), layout.get(ref).box
            return [[{"type": "move", "ids": [e.id for e in els], "dx": round(target.cx - whole.cx, 3) if "center_x" in
                      edges else 0.0, "dy": round(target.cy - whole.cy, 3) if "center_y" in edges else 0.0}]]
        return [[{"type": "align", "ids": step.patients, "edge": e, "to": "element", "target_id": ref}
                 for e in edges]]
    els = [layout.get(i) for i in step.patients]
    if step.intent.params.get("mutual") and len(els) > 1:
        # "centre the logo and the url on each other": the smaller ones on the largest
        ref = max(els, key=lambda e: e.box.area)
        return _center(Step(step.intent, [e.id for e in els if e is not ref], [ref.id], step.text), layout)
    if axis == "both" and SMALL_MOVE.search(step.text):
        # "… isn't quite centred, nudge it to the middle": where it is nearly centred already, not across the page
        page = layout.canvas.page_box(els[0].page)
        # (of two axes both nearly so, the one it is closer on: a heading a little above the middle of a poster
        # and a few pixels off its centre line is not "quite centred" across)
        near = sorted((off / size, a) for a, off, size in (
            ("x", max(abs(e.box.cx - page.cx) for e in els), page.width),
            ("y", max(abs(e.box.cy - page.cy) for e in els), page.height)) if off <= NEARLY_CENTRED * size)
        axis = near[0][1] if len(near) == 1 or (near and near[0][0] < 0.5 * near[1][0]) else axis
    edges = ["center_x", "center_y"] if axis == "both" else ["center_y" if axis == "y" else "center_x"]
    if len(els) > 1 and step.intent.params.get("block") and any(
            _share(a.box, b.box, "center_x" in edges) for k, a in enumerate(els) for b in els[k + 1:]):
        # "centre everything horizontally": side by side they move as one block (centred one by one they would
        # pile up on each other)
        page = layout.canvas.page_box(els[0].page)
        whole = Box.union_all([e.box for e in els])
        dx = page.cx - whole.cx if "center_x" in edges else 0.0
        dy = page.cy - whole.cy if "center_y" in edges else 0.0
        return [[{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]]
    return [[{"type": "align", "ids": step.patients, "edge": e, "to": "canvas"} for e in edges]]


#: Words that say an edit is small ("nudge it", "isn't quite centred").
SMALL_MOVE = re.compile(r"\b(?:nudge|nudged|scoot|tweak|quite|slightly|a (?:bit|touch|hair|tad))\b")
#: How far off the page's centre (a share of its size) an element still counts as nearly centred.
NEARLY_CENTRED = 0.1


def _midway(step: Step, layout: Layout, axis: str | None) -> Actions:
    """``step``'s elements centred in the gap between the first and last of its references, on that gap's axis.

    "Centre the copyright line between the two divider lines": half way from the one's edge to the other's.
    """
    boxes = [layout.get(r).box for r in step.refs]
    block = Box.union_all([layout.get(i).box for i in step.patients])
    splits = [(split, a) for a in ("x", "y") if axis in (None, a) and len(step.refs) > 2 and (
        split := widest_split(layout, step.refs, a)) and split[0] > 0]
    if splits:  # "halfway between the name and the icons": between the two sets the references make
        (_gap, before, after), axis = max(splits, key=lambda s: s[0][0])
        boxes = [Box.union_all([layout.get(i).box for i in part]) for part in (before, after)]
    if axis not in ("x", "y"):
        axis = "y" if apart_axis(boxes[0], boxes[-1]) == "vertical" else "x"
    if axis == "y":
        first, last = sorted(boxes, key=lambda b: b.cy)[0], sorted(boxes, key=lambda b: b.cy)[-1]
        dx, dy = 0.0, (first.y2 + last.y) / 2 - block.cy
    else:
        first, last = sorted(boxes, key=lambda b: b.cx)[0], sorted(boxes, key=lambda b: b.cx)[-1]
        dx, dy = (first.x2 + last.x) / 2 - block.cx, 0.0
    return [{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]


def _share(a: Box, b: Box, row: bool) -> bool:
    """Whether two boxes share a row (``row``: their heights overlap) or a column (their widths overlap)."""
    return (min(a.y2, b.y2) > max(a.y, b.y)) if row else (min(a.x2, b.x2) > max(a.x, b.x))


def _column(layout: Layout, ids: list[str], edge: str, skip: list[str]) -> str | None:
    """The element whose ``edge`` the most of ``ids`` share (the key one of that cluster), or None."""
    key = _EDGE_KEY[edge]
    tol = 0.006 * min(layout.canvas.width, layout.canvas.height)
    cands = [i for i in ids if i not in skip]
    best: tuple[int, float, str] | None = None
    for i in cands:
        v = key(layout.get(i).box)
        n = sum(1 for j in cands if abs(key(layout.get(j).box) - v) <= tol)
        el = layout.get(i)
        score = (n, el.importance)
        if best is None or score > best[:2]:
            best = (n, el.importance, i)
    return best[2] if best else None


def _nearest_line(layout: Layout, ids: list[str], edge: str, patient: str) -> str | None:
    """Of the lines ``ids`` share on ``edge`` (two or more on one), the one nearest ``patient``'s; its key element.

    "Finitions sits higher than the other captions, drop it to line up with them": the row of captions it is off,
    not the longest row of the page. Without a shared line, the most shared edge (``_column``).
    """
    key = _EDGE_KEY[edge]
    tol = 0.006 * min(layout.canvas.width, layout.canvas.height)
    own = key(layout.get(patient).box)
    cands = [i for i in ids if i != patient]
    best: tuple[float, float, str] | None = None
    for i in cands:
        v = key(layout.get(i).box)
        if sum(1 for j in cands if abs(key(layout.get(j).box) - v) <= tol) < 2:
            continue
        score = (abs(v - own), -layout.get(i).importance)
        if best is None or score < best[:2]:
            best = (*score, i)
    return best[2] if best else _column(layout, ids, edge, [patient])


def _shared_count(layout: Layout, ids: list[str], edge: str, element_id: str) -> int:
    """How many of ``ids`` share ``element_id``'s ``edge`` line."""
    key = _EDGE_KEY[edge]
    tol = 0.006 * min(layout.canvas.width, layout.canvas.height)
    v = key(layout.get(element_id).box)
    return sum(1 for i in ids if abs(key(layout.get(i).box) - v) <= tol)


_EDGE_KEY = {"left": lambda b: b.x, "right": lambda b: b.x2, "top": lambda b: b.y, "bottom": lambda b: b.y2,
             "center_x": lambda b: b.cx, "center_y": lambda b: b.cy}


def _shared_column(layout: Layout, ids: list[str], edge: str) -> str | None:
    """Of the selection, the element on the edge line the rest of the layout already uses (a margin, a column).

    Lining up on it moves the fewest elements off the page's grid; None when no line within the selection's span
    is shared by another content element.
    """
    if edge not in ("left", "right", "top", "bottom", "center_x", "center_y"):
        return None
    key = _EDGE_KEY[edge]
    tol = 0.006 * min(layout.canvas.width, layout.canvas.height)
    others = [e for e in content(layout, set(ids))]
    best: tuple[int, float, str] | None = None
    for i in ids:
        v = key(layout.get(i).box)
        shared = sum(1 for e in others if abs(key(e.box) - v) <= tol)
        if shared and (best is None or (shared, layout.get(i).importance) > best[:2]):
            best = (shared, layout.get(i).importance, i)
    return best[2] if best else None


#: "line it up", "so the headings line up": the "up" of lining up, which says no way to move.
_LINE_UP = re.compile(r"\b(?:line|lines|lined|lining|match|matches|matched)\b(?: [\w']+){0,4}? up\b")


def _align(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    p = step.intent.params
    edge = p.get("edge")
    patients = step.patients
    refs = [r for r in step.refs if r not in patients]
    if (reach := _reach(step, layout)) is not None:
        return [reach]
    ref_box = layout.get(refs[0]).box if len(refs) == 1 else None
    if edge in (None, "center", "level"):
        if ref_box is not None:
            stacked = apart_axis(layout.get(patients[0]).box, ref_box) == "vertical"
        elif len(patients) > 1:
            stacked = arrangement(layout, patients) == "vertical"
        else:
            stacked = True
        if edge == "level":
            edge = "center_y"
        elif edge == "center":
            edge = "center_x" if stacked else "center_y"
        elif re.search(r"\b(?:up|down|higher|lower|raise|lift|drop)\b", moved := _LINE_UP.sub("", step.text)):
            edge = "top"  # "drop it down to line up with them": onto their row
        elif re.search(r"\b(?:left|right|across)\b", moved):
            edge = "left"  # "nudge it right to line up with them": onto their column
        else:
            edge = "left" if stacked else "top"
    if p.get("pairs") and len(refs) == len(patients) > 1:  # each with its own ("… with their picture")
        return [[{"type": "align", "ids": [a], "edge": edge, "to": "element", "target_id": b}
                 for a, b in zip(patients, refs)]]
    if refs:
        target = refs[0] if len(refs) == 1 else _nearest_line(layout, refs, edge, patients[0]) \
            if len(patients) == 1 else _column(layout, refs, edge, patients)
        return [[{"type": "align", "ids": patients, "edge": edge, "to": "element", "target_id": target}]]
    if p.get("page"):
        return [[{"type": "align", "ids": patients, "edge": edge, "to": _page_or_margins(step.text)}]]
    if step.intent.refs and len(patients) == 1 and not step.refs_are_others and re.search(
            r"\b(?:with|to|where) (?:the|a|an) \w+", step.text):
        # "… lines up with the top of the girl's head", where that names only what moves: with what is not known
        raise CannotPlan(f"line {patients[0]!r} up with what? What the request names there is {patients[0]!r} itself")
    if len(patients) > 1:
        column = _shared_column(layout, patients, edge)
        if column is not None:
            return [[{"type": "align", "ids": patients, "edge": edge, "to": "element", "target_id": column}],
                    [{"type": "align", "ids": patients, "edge": edge}]]
        return [[{"type": "align", "ids": patients, "edge": edge}]]
    others = [e.id for e in content(layout, set(patients))]
    if p.get("siblings"):  # "point 2 is out of line": line it up with its own kind first, if they share an edge
        el = layout.get(patients[0])
        kin = [i for i in others if layout.get(i).role == el.role]
        found = _column(layout, kin, edge, patients) if len(kin) >= 2 else None
        if found is not None and _shared_count(layout, kin, edge, found) >= 2:
            others = kin
    target = _column(layout, others, edge, patients) if others else None
    if target is not None:
        return [[{"type": "align", "ids": patients, "edge": edge, "to": "element", "target_id": target}]]
    return [[{"type": "align", "ids": patients, "edge": edge, "to": "margins"}]]


def _region(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    return [[{"type": "anchor_to_region", "ids": step.patients, "region": step.intent.params["region"]}]]


def _third(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    w = step.intent.params["where"]
    s = layout.canvas.safe_box
    b = layout.get(step.patients[0]).box
    if w in ("left", "right", "first", "last") and w not in ("first", "last"):
        tx = s.x + (s.width / 6 if w == "left" else 5 * s.width / 6)
        return [[{"type": "move", "ids": step.patients, "dx": round(tx - b.cx, 3), "dy": 0.0}]]
    frac = {"top": 1 / 6, "upper": 1 / 6, "first": 1 / 6, "middle": 0.5, "center": 0.5, "bottom": 5 / 6,
            "lower": 5 / 6, "last": 5 / 6}[w]
    ty = s.y + frac * s.height
    return [[{"type": "move", "ids": step.patients, "dx": 0.0, "dy": round(ty - b.cy, 3)}]]


_OPPOSITE = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}
_SIDE_OF = {"left": "x", "right": "x2", "top": "y", "bottom": "y2"}


def _reach(step: Step, layout: Layout) -> Actions | None:
    """An edge taken to a line while the opposite edge holds: a resize.

    "Make it start level with Bash but keep the bottom where it is", "stretch it till its right edge hits the right
    margin, left edge stays put".

    The line is the same side of the one reference, else of the page's margins. None when the edge said is not the
    one opposite what holds (then it is a move after all).
    """
    p = step.intent.params
    held = p.get("held")
    if held not in _OPPOSITE or len(step.patients) != 1:
        return None
    moving = _OPPOSITE[held]
    if p.get("edge") in _OPPOSITE and p["edge"] != moving:
        return None
    el = layout.get(step.patients[0])
    refs = [r for r in step.refs if r != el.id]
    line_box = layout.get(refs[0]).box if len(refs) == 1 else layout.canvas.safe_box
    line, fixed = getattr(line_box, _SIDE_OF[moving]), getattr(el.box, _SIDE_OF[held])
    length = (line - fixed) if moving in ("right", "bottom") else (fixed - line)
    if length <= 0:
        raise CannotPlan(f"{el.id}'s {moving} edge cannot reach that line while its {held} edge stays: it is on the "
                         "other side")
    dim = "width" if moving in ("left", "right") else "height"
    return [{"type": "resize", "id": el.id, dim: round(length, 3), "anchor": held, "keep_aspect": not stretchable(el)}]


def _edge(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    p = step.intent.params
    if (reach := _reach(step, layout)) is not None:
        return [reach]
    if p.get("mirror") and step.refs:  # "… the same distance from the right edge as the title is from the left"
        ref = layout.get(step.refs[0])
        page, rb = layout.canvas.page_box(ref.page), ref.box
        inset = {"left": rb.x - page.x, "right": page.x2 - rb.x2, "top": rb.y - page.y, "bottom": page.y2 - rb.y2}
        b = Box.union_all([layout.get(i).box for i in step.patients])
        d = inset[p["mirror"]]
        dx = {"left": page.x + d - b.x, "right": page.x2 - d - b.x2}.get(p["edge"], 0.0)
        dy = {"top": page.y + d - b.y, "bottom": page.y2 - d - b.y2}.get(p["edge"], 0.0)
        return [[{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]]
    if p.get("even_inset") is not None:  # "… into the top left corner, same gap on the left as at the top"
        page, safe = layout.canvas.page_box(layout.get(step.patients[0]).page), layout.canvas.safe_box
        margins = {"left": safe.x - page.x, "right": page.x2 - safe.x2, "top": safe.y - page.y,
                   "bottom": page.y2 - safe.y2}
        sides = p["edge"].split("_")
        d = margins.get(p["even_inset"]) or min(margins[s] for s in sides)
        b = Box.union_all([layout.get(i).box for i in step.patients])
        dx = page.x + d - b.x if "left" in sides else page.x2 - d - b.x2 if "right" in sides else 0.0
        dy = page.y + d - b.y if "top" in sides else page.y2 - d - b.y2 if "bottom" in sides else 0.0
        return [[{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]]
    if p.get("inset") is not None:  # "… so the wordmark ends 7px from the right edge": measured, then all moved
        within = layout.get(step.refs[-1]).box if p.get("within") and step.refs else None
        refs = step.refs[:-1] if within is not None else step.refs
        els = [layout.get(i) for i in step.patients]
        if not refs and len(els) > 1 and p.get("edge") in ("left", "right", "top", "bottom") and re.search(
                r"\b(?:all|each|every|share|line (?:them|those|these) up)\b", step.text) and not any(
                _share(a.box, b.box, p["edge"] in ("left", "right")) for k, a in enumerate(els) for b in els[k + 1:]):
            # "… don't quite share a left edge - line them all up 12px in from the left": each that far in (one
            # above another; side by side they move as one)
            moves = [a for i in step.patients
                     for a in _edge(Step(step.intent, [i], list(step.refs), step.text), layout)[0]]
            return [moves]
        measured = layout.get(refs[0] if refs else step.patients[0])
        # (or from the edge of what holds it: "20px from the edge of the yellow square"; several moved as one block
        # are measured as one)
        page = within or layout.canvas.page_box(measured.page)
        b = measured.box if refs else Box.union_all([e.box for e in els])
        # "… so it ends 3mm from the edge": the page edge it is nearest (or runs past)
        side = p["edge"] or min((b.x - page.x, "left"), (page.x2 - b.x2, "right"), (b.y - page.y, "top"),
                                (page.y2 - b.y2, "bottom"))[1]
        dx = dy = 0.0
        for part in side.split("_"):  # "top_left": from both sides of the corner
            d = world_length(layout, p["inset"], "x" if part in ("left", "right") else "y")
            if part in ("left", "right"):
                dx = page.x + d - b.x if part == "left" else page.x2 - d - b.x2
            else:
                dy = page.y + d - b.y if part == "top" else page.y2 - d - b.y2
        if abs(dx) < 1e-6 and abs(dy) < 1e-6:
            return [[]]
        return [[{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]]
    if p.get("block") and len(step.patients) > 1 and p.get("edge") in ("left", "right", "top", "bottom"):
        # (several moved as one, where they are to each other: the block's side to the margin)
        b, safe = Box.union_all([layout.get(i).box for i in step.patients]), layout.canvas.safe_box
        dx = {"left": safe.x - b.x, "right": safe.x2 - b.x2}.get(p["edge"], 0.0)
        dy = {"top": safe.y - b.y, "bottom": safe.y2 - b.y2}.get(p["edge"], 0.0)
        return [[{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]]
    return [[{"type": "align", "ids": step.patients, "edge": p["edge"], "to": _page_or_margins(step.text)}]]


#: "flush against the right edge", "touching the top of the page": the page's very edge, not its margin.
_FLUSH = re.compile(r"\b(?:put|move|push|shove|place|set|slide|drag|bring|snap|butt|take|stick|jam|nudge)\b"
                    r"(?:(?! (?:is|are|was|looks|feels|seems) )[^,;])*?\b(?:against|touching|kissing|bleeding off|"
                    r"bleed off|flush (?:with|to|against|on)) (?:the )?"
                    r"(?:very )?(?:left|right|top|bottom)(?: hand)? (?:edge|side)\b")


def _page_or_margins(text: str) -> str:
    """Where a side said of the page puts an element: against the page's edge when the words say so, else its margin."""
    return "canvas" if _FLUSH.search(text) else "margins"


_VECTORS = {"up": (0, -1), "upward": (0, -1), "higher": (0, -1), "down": (0, 1), "downward": (0, 1),
            "lower": (0, 1), "left": (-1, 0), "leftward": (-1, 0), "right": (1, 0), "rightward": (1, 0)}


def _nudge(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    p = step.intent.params
    dx = dy = 0.0
    if p.get("fits"):
        return [_nudge_to_fit(step, layout)]
    for word, length in p["moves"]:
        vx, vy = _VECTORS.get(word, (0, 0))
        axis = "x" if vx else "y"
        d = world_length(layout, length, axis) if length is not None else step_amount(layout, p.get("degree", "medium"))
        dx, dy = dx + vx * d, dy + vy * d
    if dx == 0 and dy == 0:
        raise CannotPlan("which way should it move: up, down, left or right?")
    return [[{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]]


def _nudge_to_fit(step: Step, layout: Layout) -> Actions:
    """"Slide it left until it fits": along the way said, as far as it takes to be inside the margins (or the page)."""
    box = Box.union_all([layout.get(i).box for i in step.patients])
    page, safe = layout.canvas.box, layout.canvas.safe_box
    dx = dy = 0.0
    for word, _length in step.intent.params["moves"]:
        vx, vy = _VECTORS.get(word, (0, 0))
        if vx < 0:
            dx = min((safe.x2 if box.width <= safe.width else page.x2) - box.x2, 0.0)
        elif vx > 0:
            dx = max(safe.x - box.x, 0.0) if box.width <= safe.width else max(page.x - box.x, 0.0)
        elif vy < 0:
            dy = min(safe.y2 - box.y2, 0.0) if box.height <= safe.height else min(page.y2 - box.y2, 0.0)
        elif vy > 0:
            dy = max(safe.y - box.y, 0.0) if box.height <= safe.height else max(page.y - box.y, 0.0)
    if dx == 0 and dy == 0:
        raise CannotPlan(f"{', '.join(repr(i) for i in step.patients)} fits that way already")
    return [{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]


def _style(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    if (painted := paint.plan_paint(step, layout)) is not None:
        return painted
    p = step.intent.params
    ids = [t for i in step.patients for t in text_ids(layout, layout.get(i))]
    fs = p.get("font_size") or {}
    if not ids and "abs" in fs and set(p) <= {"font_size", "anchor"}:
        # "bump the logo to 200px": a picture has no type size; its longer side then ("shrink the circle to 360px,
        # same centre": about the point said)
        size = {"size": ("side", fs["abs"]), **({"anchor": p["anchor"]} if "anchor" in p else {})}
        return _resize(Step(Intent("resize", step.intent.patients, params=size), step.patients, step.refs,
                            step.text), layout)
    if not ids:
        raise CannotPlan(f"{', '.join(repr(i) for i in step.patients)} has no text to style")
    out: Actions = []
    for i in ids:
        el = layout.get(i)
        fields: dict[str, Any] = {}
        w = p.get("font_weight")
        if w == "bolder":
            fields["font_weight"] = min(900, max((el.font_weight or 400) + 200, 700))
        elif w is not None:
            fields["font_weight"] = int(w)
        if p.get("fill"):
            fields["fill"] = p["fill"]
        if p.get("font_family"):
            fields["font_family"] = p["font_family"]
        fs = p.get("font_size")
        if fs and el.font_size:
            if "abs" in fs:
                size = world_length(layout, fs["abs"], "y")
                now = p.get("size_now")
                if now is not None and abs(now - el.font_size) <= 0.03 * el.font_size:
                    size = fs["abs"].value  # ("… to 32pt, it's 39 now": 39 as listed, so 32 in those units too)
            elif "delta" in fs:
                size = el.font_size + fs["sign"] * world_length(layout, fs["delta"], "y")
            else:
                size = el.font_size * fs["factor"]
            if size <= 0:
                raise CannotPlan(f"that would leave {i!r} with no font size")
            fields["font_size"] = round(size, 3)
            if p.get("anchor") and list(fields) == ["font_size"]:
                # "take it from 17.5 down to 15, left edge stays": that much smaller, about the side held
                out.append({"type": "resize", "id": i, "scale": round(size / el.font_size, 4), "anchor": p["anchor"]})
                continue
        if fields:
            out.append({"type": "set_text_style", "ids": [i], **fields})
    if len(out) == 1 and list(out[0]) == ["type", "ids", "font_size"] and out[0]["font_size"] > (
            layout.get(out[0]["ids"][0]).font_size or 0):
        # a size of type that runs it off the page grown from its anchor: the same size grown from another side
        el = layout.get(out[0]["ids"][0])
        scale = round(out[0]["font_size"] / el.font_size, 4)
        return [out] + [[{"type": "resize", "id": el.id, "scale": scale, "anchor": a}]
                        for a in resize_anchors(layout, el)]
    return [out]


def _emphasis(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    more = step.intent.params.get("more", True)
    s = am.SCALE[step.intent.params.get("degree", "medium")] ** (1 if more else -0.8)
    alts = scale_alternatives(layout, step.patients, s)
    if more:
        bold = [{"type": "set_text_style", "ids": [i], "font_weight": 700} for i in step.patients
                if layout.get(i).kind == "text" and (layout.get(i).font_weight or 400) < 600]
        alts = [a + bold for a in alts[:1]] + alts
    return alts


def _span(step: Step, layout: Layout) -> list[Actions]:
    """Size and place the element to reach from a side of one reference to a side of the other.

    A picture keeps its proportions; a plain shape (a bar, a panel) stretches along that axis only.
    """
    (a, b), (r1, r2) = step.intent.params["span"], step.refs
    start, end = getattr(layout.get(r1).box, _SIDE_OF[a]), getattr(layout.get(r2).box, _SIDE_OF[b])
    lo, hi = min(start, end), max(start, end)
    el = layout.get(step.patients[0])
    if hi - lo <= 0:
        raise CannotPlan(f"{r1} and {r2} leave no length for {el.id} to span")
    vertical = a in ("top", "bottom")
    dim, anchor = ("height", "top") if vertical else ("width", "left")
    move = {"dx": 0.0, "dy": round(lo - el.box.y, 3)} if vertical else {"dx": round(lo - el.box.x, 3), "dy": 0.0}
    return [[{"type": "resize", "id": el.id, dim: round(hi - lo, 3), "anchor": anchor,
              "keep_aspect": not stretchable(el)}, {"type": "move", "ids": [el.id], **move}]]


def _resize(step: Step, layout: Layout) -> list[Actions]:
    need(step)
    p = step.intent.params
    if p.get("size") and p["size"][0] == "side":  # "scale it up to 100 px": its longer side (proportions kept)
        box = layout.get(step.patients[0]).box
        p = {**p, "size": ("width" if box.width >= box.height else "height", p["size"][1]), "keep_aspect": True}
    if p.get("size"):
        dim, length = p["size"]
        value = world_length(layout, length, "x" if dim == "width" else "y")
        # each its own ways to grow (a side said held), all of them in every alternative ("make them all 2.8mm tall")
        ways = {i: [p["anchor"]] if p.get("anchor") else resize_anchors(layout, layout.get(i)) for i in step.patients}
        keep = bool(p.get("keep_aspect"))  # ("…, keep proportions")
        square = [layout.get(i) for i in step.patients]
        if p.get("square") and all(stretchable(e) or abs(e.box.width - e.box.height) <= 0.05 * e.box.width
                                   for e in square):
            # "70mm square": both sides that long (a square stays one; a box becomes one; a picture keeps its shape)
            return [[{"type": "resize", "id": i, "width": round(value, 3), "height": round(world_length(
                layout, length, "y"), 3), "anchor": ways[i][min(k, len(ways[i]) - 1)], "keep_aspect": False}
                for i in step.patients] for k in range(max(len(w) for w in ways.values()))]
        return [[{"type": "resize", "id": i, dim: round(value, 3), "anchor": ways[i][min(k, len(ways[i]) - 1)],
                  "keep_aspect": keep or not stretchable(layout.get(i))} for i in step.patients]
                for k in range(max(len(w) for w in ways.values()))]
    if (clear := CLEAR_SAID.search(step.text)) and len(step.patients) == 1 and (
            (room := p.get("clear_room") or am.first_length(clear.group("len") or clear.group("len2") or clear.group(
                "len3") or "")) is not None and
            (out := narrowing.clear_of_said(layout, step, room))):
        return out
    if p.get("clear") and len(step.patients) == 1 and (
            out := narrowing.clear_of_said(layout, step, typical_gap(layout, "horizontal"))):
        return out  # "… runs into the column on the right, keep it inside its own": a gutter's width clear of it
    stretch = p.get("stretch")
    s = scale_factor(p) if not stretch or p.get("factor") or p.get("percent") or p.get("fraction") else \
        am.SCALE[p.get("degree", "medium")] ** (1 if stretch in GROWING_STRETCHES else -1)
    if stretch:
        dim = "width" if stretch in ("wider", "narrower", "longer", "thinner", "fatter", "skinnier") else "height"
        ways: list[list[Actions]] = []
        for i in step.patients:
            el = layout.get(i)
            backdrop = _backdrop(layout, el) if el.kind == "group" and stretchable(el) else None
            target = backdrop or (el if stretchable(el) and el.kind != "group" else None)
            if target is None:
                continue
            if stretch in _ACROSS_STRETCHES:  # "make the bar thinner": across it, whichever way it runs
                dim = "width" if target.box.width <= target.box.height else "height"
            size = target.box.width * s if dim == "width" else target.box.height * s
            # a button widens by its backdrop; its label stays the same size, centred on it
            labels = [{"type": "align", "ids": [c], "edge": "center_x" if dim == "width" else "center_y",
                       "to": "element", "target_id": target.id}
                      for c in el.children if backdrop is not None and layout.get(c).kind == "text"]
            ways.append([[{"type": "resize", "id": target.id, dim: round(size, 3), "anchor": a, "keep_aspect": False},
                          *labels] for a in ([p["anchor"]] if p.get("anchor") else resize_anchors(layout, el))])
        if ways:  # each alternative stretches every one of them ("widen both tabs"), each its k-th way
            return [[x for w in ways for x in w[min(k, len(w) - 1)]] for k in range(max(len(w) for w in ways))]
    if p.get("span") and len(step.refs) == 2 and len(step.patients) == 1:
        return _span(step, layout)
    if p.get("end_at") and step.refs:  # "keep its left edge but make it end where the panel ends"
        edge = layout.get(step.refs[0]).box.x2
        return [[{"type": "resize", "id": i, "width": round(edge - layout.get(i).box.x, 3), "anchor": "left",
                  "keep_aspect": not stretchable(layout.get(i))} for i in step.patients
                 if edge > layout.get(i).box.x]]
    if p.get("fit") and p.get("room") is not None and s < 1 and not step.refs:
        # "… runs off the right, shrink it until it fits, about 30px clear of the edge": just that small
        s = min(_fit_scale(layout, layout.get(i), world_length(layout, p["room"], "x")) for i in step.patients)
    if p.get("fit") and (p.get("margin") is not None or p.get("even")) and p.get("anchor") in ("left", "right"):
        # "shrink it so it fits with the same margin on both sides, left edge stays": its other end as far in
        page = layout.canvas.page_box(layout.get(step.patients[0]).page)
        out: Actions = []
        for i in step.patients:
            w = layout.get(i).whole_box()
            inset = world_length(layout, p["margin"], "x") if p.get("margin") is not None else (
                w.x - page.x if p["anchor"] == "left" else page.x2 - w.x2)
            room = page.x2 - inset - w.x if p["anchor"] == "left" else w.x2 - page.x - inset
            if w.width > 0 and 0 < room < w.width:
                out.append({"type": "resize", "id": i, "scale": round(room / w.width, 4), "anchor": p["anchor"]})
        return [out]
    if p.get("anchor"):  # "… 10 % smaller, keep the left edge put": about that side
        # "keep it centred": about its centre, else (where that leaves the page) about the middle of its top or
        # bottom edge, which keeps it centred across
        # ("keep his feet where they are" beside the page's edge: the bottom held at a corner, where the middle of it
        # would push it off the page)
        anchors = [p["anchor"]] + (["top", "bottom"] if p["anchor"] == "center" else [
            f"{p['anchor']}_left", f"{p['anchor']}_right"] if p["anchor"] in ("top", "bottom") else [
            f"top_{p['anchor']}", f"bottom_{p['anchor']}"] if p["anchor"] in ("left", "right") else [])
        scales = [s] + ([t] if s > 1 and not (p.get("factor") or p.get("percent") or p.get("fraction")) and
                        1.02 < (t := min(_grow_room(layout, layout.get(i), p["anchor"]) for i in step.patients)) < s
                        else [])  # "make it bigger, left edge stays" beside the edge: as much bigger as fits
        return [[{"type": "resize", "id": i, "scale": round(k, 4), "anchor": a} for i in step.patients]
                for k in scales for a in anchors]
    if p.get("fit") and p.get("inset") and step.refs and step.refs[0] not in step.patients and len(step.patients) == 1:
        if (fitted := fixes.fit_inset(layout, step.patients[0], layout.get(step.refs[0]).box, p["inset"])) is None:
            raise CannotPlan(f"{step.patients[0]} cannot fit inside {step.refs[0]} with that much room round it")
        return [fitted]
    if p.get("fit") and s < 1 and step.intent.refs and step.refs and step.refs[0] not in step.patients:
        # "shrink it so it fits within the screenshot's width": as narrow as that, and set within it (and within the
        # page, where a bar runs off it)
        ref = layout.get(step.refs[0]).box
        ref = ref.intersection(layout.canvas.page_box(layout.get(step.refs[0]).page)) or ref
        starts = [layout.get(i).box.x for i in step.patients]
        said = any(p.get(k) for k in ("factor", "percent", "fraction", "size"))
        if all(ref.x - 0.005 * ref.width <= x < ref.x + 0.5 * ref.width for x in starts):
            # "… runs off the right, shrink it so it fits in the band": its left edge stays, the same margin right
            # (as much smaller as that takes, where no amount is said)
            inset = max(max(x - ref.x for x in starts), 0.01 * ref.width)
            fits = min([(ref.x2 - inset - layout.get(i).box.x) / layout.get(i).box.width
                        for i in step.patients if layout.get(i).box.width > 0] or [s])
            s = min(s, fits) if said or fits >= 1 else fits
            return [scale_alternatives(layout, step.patients, max(s, 0.1))[0]]
        room = ref.width * 0.98
        s = min([s] + [room / layout.get(i).box.width for i in step.patients if layout.get(i).box.width > 0])
        return [scale_alternatives(layout, step.patients, s)[0] + [
            {"type": "align", "ids": [i], "edge": "center_x", "to": "element", "target_id": step.refs[0]}
            for i in step.patients]]
    if p.get("fit") and (p.get("margin") is not None or p.get("even")):
        # "… so it shows whole, 4mm clear on both sides": centred; "shrink it till it fits, same margin both
        # sides": as far in on the right as it is on the left
        page = layout.canvas.page_box(layout.get(step.patients[0]).page)
        # (what a text draws, the part a clip cuts off included: that must fit)
        inset = world_length(layout, p["margin"], "x") if p.get("margin") is not None else \
            max(0.0, min(layout.get(i).whole_box().x - page.x for i in step.patients))
        widths = [layout.get(i).whole_box().width for i in step.patients if layout.get(i).box.width > 0]
        if page.width - 2 * inset > 0 and widths:
            s = min(1.0, (page.width - 2 * inset) / max(widths))
            out: Actions = []
            for i in step.patients:  # from its left edge, then that far in from the page's
                b, w = layout.get(i).box, layout.get(i).whole_box()
                left = b.x + (w.x - b.x) * s  # where its drawing starts once it is smaller
                out += [{"type": "resize", "id": i, "scale": round(s, 4), "anchor": "left"},
                        {"type": "move", "ids": [i], "dy": 0.0,
                         "dx": round(page.x + inset + (max(widths) - w.width) * s / 2 - left, 3)}]
            return [out]
    if p.get("fit") and s < 1:  # "… runs off the page, make it smaller so it fits": at least as small as fits
        s = min([s] + [_fit_scale(layout, layout.get(i)) for i in step.patients])
        el = layout.get(step.patients[0])
        if len(step.patients) == 1 and not p.get("factor") and not p.get("percent") and \
                narrowing.rewraps(layout, el, width := s * el.box.width):  # a paragraph set again in the room it has
            return [[{"type": "reflow_text", "id": el.id, "mode": "wrap", "width": round(width, 3)}],
                    *scale_alternatives(layout, step.patients, s)]
        groups = [i for i in step.patients if layout.get(i).kind == "group"]
        if groups:  # a group shrinks towards the side that is on the page, so that it ends inside it
            return [[{"type": "resize", "id": i, "scale": round(s, 4), "anchor": _inner_anchor(layout, layout.get(i))}
                     for i in groups] + scale_alternatives(
                         layout, [i for i in step.patients if i not in groups], s)[0]]
    return scale_alternatives(layout, step.patients, s)


#: Stretches across a shape's short side: its thickness ("thinner", "fatter").
_ACROSS_STRETCHES = frozenset({"thinner", "fatter", "skinnier"})


def _grow_room(layout: Layout, el: Element, anchor: str) -> float:
    """The largest scale about ``anchor`` at which ``el`` stays inside its page, a small margin in (at least 1)."""
    full, b = layout.canvas.page_box(el.page), el.box
    margin = 0.02 * min(full.width, full.height)
    page = Box(x=full.x + margin, y=full.y + margin, width=full.width - 2 * margin, height=full.height - 2 * margin)
    fx = 0.0 if "left" in anchor else 1.0 if "right" in anchor else 0.5
    fy = 0.0 if "top" in anchor else 1.0 if "bottom" in anchor else 0.5
    ax, ay = b.x + fx * b.width, b.y + fy * b.height
    room = [(page.x2 - ax) / ((1 - fx) * b.width) if fx < 1 and b.width else 9.0,
            (ax - page.x) / (fx * b.width) if fx > 0 and b.width else 9.0,
            (page.y2 - ay) / ((1 - fy) * b.height) if fy < 1 and b.height else 9.0,
            (ay - page.y) / (fy * b.height) if fy > 0 and b.height else 9.0]
    return max(min(room), 1.0)


def _inner_anchor(layout: Layout, el: Element) -> str:
    """The anchor opposite the page edges ``el`` runs past: what stays put as it shrinks back inside."""
    page, b = layout.canvas.page_box(el.page), el.box
    h = "left" if b.x2 > page.x2 else "right" if b.x < page.x else ""
    v = "top" if b.y2 > page.y2 else "bottom" if b.y < page.y else ""
    return f"{v}_{h}" if v and h else v or h or "center"


def _on_shared_centre(step: Step, layout: Layout, axis: str | None) -> Actions:
    """"X is off-centre compared to the other icons": X onto the centre line most of them share (the nearest).

    Along the axis said, else the one on which more of them share a line (a column: across).
    """
    page = layout.canvas.page_box(layout.get(step.patients[0]).page)
    whole = Box.union_all([layout.get(i).box for i in step.patients])
    best: dict[str, tuple[int, float, float]] = {}
    for a in ("x", "y") if axis not in ("x", "y") else (axis,):
        mid = (lambda b: b.cx) if a == "x" else (lambda b: b.cy)
        tol = 0.01 * (page.width if a == "x" else page.height)
        lines = [mid(layout.get(r).box) for r in step.refs]
        best[a] = max((sum(abs(v - w) <= tol for w in lines), -abs(v - mid(whole)), v) for v in lines)
    a = max(best, key=lambda k: best[k][:1])
    shift = best[a][2] - (whole.cx if a == "x" else whole.cy)
    if abs(shift) > 0.5 * (whole.width if a == "x" else whole.height):  # off-centre is off by a little: not across
        raise CannotPlan("which of them should it be centred with? Name one, e.g. 'centre it under the first icon'")
    return [{"type": "move", "ids": list(step.patients), "dx": round(shift, 3) if a == "x" else 0.0,
             "dy": round(shift, 3) if a == "y" else 0.0}]


def _fit_scale(layout: Layout, el: Element, room: float | None = None) -> float:
    """The scale at which ``el``, kept where it starts, ends inside its page (with a small margin, or ``room``)."""
    page = layout.canvas.page_box(el.page)
    b, margin = el.whole_box(), 0.02 * min(page.width, page.height) if room is None else room
    s = 1.0
    if b.x2 > page.x2 and b.width > 0:
        s = min(s, (page.x2 - margin - max(b.x, page.x)) / b.width)
    if b.y2 > page.y2 and b.height > 0:
        s = min(s, (page.y2 - margin - max(b.y, page.y)) / b.height)
    return max(s, 0.1)


def _backdrop(layout: Layout, group: Element) -> Element | None:
    """The shape behind a group's other members (a button's background), when it has one."""
    for c in group.children:
        el = layout.get(c)
        if el.kind == "shape" and el.box.area >= 0.8 * group.box.area:
            return el
    return None


BUILDERS: dict[str, Callable[[Step, Layout], list[Actions]]] = {
    "lock": _lock, "zorder": _zorder, "swap": _swap, "separate": _separate, "inside": _inside,
    "distribute": spacing.distribute, "gap": spacing.gap, "match": _match, "fill": _fill, "center": _center,
    "align": _align,
    "place": spacing.place, "region": _region, "third": _third, "edge": _edge, "nudge": _nudge, "style": _style,
    "emphasis": _emphasis, "resize": _resize,
}


def plan_step(step: Step, layout: Layout) -> list[Actions]:
    """Action alternatives for ``step`` on ``layout``, best first (``[[]]``: nothing to do)."""
    builder = BUILDERS.get(step.kind)
    if builder is None:
        raise CannotPlan(f"I understood '{step.text}' but cannot do that kind of edit")
    if step.kind in MOVES and (items := with_icons(layout, step.patients)) != step.patients:
        # "move the contact details 2mm right": the lines with the icons set beside them, as a bullet with its line
        step = Step(step.intent, items, [r for r in step.refs if r not in items], step.text, step.refs_are_others)
    return builder(step, layout)


__all__ = ["plan_step", "BUILDERS", "CannotPlan"]
