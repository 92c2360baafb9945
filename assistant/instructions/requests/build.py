"""One builder per intent: resolved element ids + the current layout → action alternatives.

:func:`plan_step` dispatches on the intent's kind (a registry,
:data:`BUILDERS`); each builder follows the conventions of
:mod:`~assistant.instructions.requests.plan` and raises
:class:`~assistant.instructions.requests.plan.CannotPlan` with a reason a
person can act on. Lengths are converted with the layout's canvas (px,
pt, mm … to world units; a percentage of the page along the axis moved).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.document import Element, Layout
from assistant.geometry import apart_axis
from assistant.instructions.requests import amounts as am
from assistant.instructions.requests import fixes
from assistant.instructions.requests.intents import Intent
from assistant.instructions.requests.plan import (
    Actions,
    CannotPlan,
    arrangement,
    content,
    gap_between,
    neighbour_below,
    resize_anchors,
    scale_alternatives,
    scale_factor,
    step_amount,
    text_ids,
    typical_gap,
)


@dataclass
class Step:
    """A clause ready to plan: its intent and the element ids its mentions resolved to."""

    intent: Intent
    patients: list[str]
    refs: list[str] = field(default_factory=list)
    text: str = ""
    #: The element the ``refs`` stand for when they are "everything else" (a column to line up with).
    refs_are_others: bool = False

    @property
    def kind(self) -> str:
        """The intent's kind."""
        return self.intent.kind


def stretchable(el: Element) -> bool:
    """Whether a size change may stretch ``el`` on one axis.

    Plain shapes and a button's or badge's backdrop may; a picture, a logo or text never.
    """
    if el.kind == "group":
        return el.role in ("cta", "badge")
    return el.kind == "shape" and el.role not in ("image", "logo")


def _need(step: Step, n: int = 1, what: str = "element") -> None:
    if len(step.patients) < n:
        raise CannotPlan(f"which {what}{'s' if n > 1 else ''} should I change? Name {'them' if n > 1 else 'it'}, "
                         f"e.g. 'the title'")


def _world(layout: Layout, length: am.Length, axis: str) -> float:
    return am.to_world(length, layout.canvas, axis)


# -- builders ------------------------------------------------------------------------------
def _lock(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    return [[{"type": "set_locked", "ids": step.patients, "locked": bool(step.intent.params.get("locked", True))}]]


def _zorder(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    return [[{"type": "reorder", "id": i, "to": step.intent.params["to"]} for i in step.patients]]


def _swap(step: Step, layout: Layout) -> list[Actions]:
    ids = step.patients + [r for r in step.refs if r not in step.patients]
    if len(ids) != 2:
        raise CannotPlan(f"a swap needs exactly two elements, and I found {len(ids)}")
    return [[{"type": "swap", "ids": ids}]]


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
    _need(step)
    obstacles = step.refs
    if not obstacles:
        raise CannotPlan("what should it be moved off? Name the element it overlaps")
    if not any(fixes.overlaps(layout.get(m).box, layout.get(o).box, 0.0) for m in step.patients for o in obstacles):
        if p.get("or_gap"):
            wider = Step(Intent("gap", params={"op": "more", "degree": "medium"}), step.patients, obstacles)
            return _gap(wider, layout)
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
    _need(step)
    return [fixes.inside(layout, step.patients)]


def _distribute(step: Step, layout: Layout) -> list[Actions]:
    ids = step.patients
    if len(ids) < 3:
        raise CannotPlan("spacing evenly needs at least three elements; to set one gap, say e.g. "
                         "'20px between the title and the subtitle'")
    axis = step.intent.params.get("axis") or arrangement(layout, ids)
    return [[{"type": "distribute", "ids": ids, "axis": axis}],
            [{"type": "distribute", "ids": ids, "axis": axis, "mode": "centers"}]]


def _gap(step: Step, layout: Layout) -> list[Actions]:
    p = step.intent.params
    rel = p.get("rel")
    if rel in ("under", "below", "beneath", "underneath", "after", "above", "over", "before") and step.patients:
        anchor = layout.get(step.patients[0])
        above = rel in ("above", "over", "before")
        other = neighbour_below(layout, anchor, above=above)
        if other is None:
            raise CannotPlan(f"nothing sits {'above' if above else 'below'} {anchor.id!r} to make room against")
        pairs = [(anchor.id, other.id), (other.id, anchor.id)] if above else [(other.id, anchor.id),
                                                                             (anchor.id, other.id)]
        return _ranked([alt for mover, target in pairs for alt in _gap_change(layout, mover, target, p)])
    ids = step.patients + [r for r in step.refs if r not in step.patients]
    if len(ids) < 2:
        raise CannotPlan("between which two elements? Name both, e.g. 'between the title and the photo'")
    a, b = ids[0], ids[1]
    if step.refs and len(step.patients) == 1 and not p.get("symmetric"):
        mover, target = a, b
    else:
        first = layout.get(a).box
        second = layout.get(b).box
        later = b if (second.cy, second.cx) > (first.cy, first.cx) else a
        mover, target = later, (a if later == b else b)
    return _ranked(_gap_change(layout, mover, target, p) + _gap_change(layout, target, mover, p))


def _ranked(alternatives: list[Actions]) -> list[Actions]:
    """Alternatives that run an element into another one last (their marker removed)."""
    good = [a for a in alternatives if not any(x.get("_last_resort") for x in a)]
    bad = [[{k: v for k, v in x.items() if k != "_last_resort"} for x in a] for a in alternatives if a not in good]
    return good + bad


def _gap_change(layout: Layout, mover: str, target: str, p: dict[str, Any]) -> list[Actions]:
    """``mover`` moved so the gap to ``target`` changes as ``p`` asks (op more / less / set, length, degree)."""
    mb, tb = layout.get(mover).box, layout.get(target).box
    axis = apart_axis(mb, tb)
    gap = gap_between(mb, tb, axis)
    c = layout.canvas
    length = p.get("length")
    op = p.get("op")
    deg = p.get("degree", "medium")
    if op == "set":
        new = _world(layout, length, "y" if axis == "vertical" else "x")
    elif length is not None:
        d = _world(layout, length, "y" if axis == "vertical" else "x")
        new = gap + d if op == "more" else gap - d
    elif op == "more":
        new = max(gap, 0.0) + max(am.GAP_STEP[deg] * min(c.width, c.height),
                                  {"small": 0.15, "medium": 0.25, "large": 0.5}[deg] * max(gap, 0.0))
    else:
        new = max(gap, 0.0) * {"small": 0.75, "medium": 0.5, "large": 0.25}[deg]
    new = max(new, 0.0)
    if abs(new - gap) < 1e-6:
        return [[]]
    action = {"type": "set_gap", "gap": round(new, 3), "axis": axis, "id": mover, "target_id": target}
    shift = new - gap
    sign = 1.0 if (mb.cy >= tb.cy if axis == "vertical" else mb.cx >= tb.cx) else -1.0
    moved = mb.translated(0.0, sign * shift) if axis == "vertical" else mb.translated(sign * shift, 0.0)
    others = [e.box for e in content(layout, {mover, target})]
    runs_into = any(fixes.overlaps(moved, o) and not fixes.overlaps(mb, o) for o in others)
    return [[{**action, "_last_resort": True}] if runs_into else [action]]


def _match(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    if not step.refs:
        raise CannotPlan("as big as which element? Name it, e.g. 'as wide as the photo'")
    target = step.refs[0]
    dim = step.intent.params.get("dimension", "both")
    out = []
    for i in [p for p in step.patients if p != target][:1] or []:
        el = layout.get(i)
        keep = not stretchable(el) or dim == "both"
        for a in resize_anchors(layout, el):
            out.append([{"type": "match_size", "dimension": dim, "anchor": a, "keep_aspect": keep,
                         "ids": [p for p in step.patients if p != target], "target_id": target}])
    return out


def _fill(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    dim = step.intent.params.get("dimension", "width")
    area = layout.canvas.box if step.intent.params.get("bleed") else layout.canvas.safe_box
    to = "canvas" if step.intent.params.get("bleed") else "margins"
    out: Actions = []
    for i in step.patients:
        el = layout.get(i)
        edge = "left" if dim == "width" else "top"
        keep = not stretchable(el)
        size = {"width": round(area.width, 3)} if dim == "width" else {"height": round(area.height, 3)}
        anchor = "top_left" if dim == "width" else "top_left"
        out += [{"type": "align", "ids": [i], "edge": edge, "to": to},
                {"type": "resize", "id": i, **size, "anchor": anchor, "keep_aspect": keep}]
    return [out]


def _center(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    axis = step.intent.params.get("axis")
    if step.refs:
        ref = step.refs[0]
        if axis is None:
            axis = "x" if apart_axis(layout.get(step.patients[0]).box, layout.get(ref).box) == "vertical" else "y"
        edges = ["center_x", "center_y"] if axis == "both" else ["center_x" if axis == "x" else "center_y"]
        return [[{"type": "align", "ids": step.patients, "edge": e, "to": "element", "target_id": ref}
                 for e in edges]]
    edges = ["center_x", "center_y"] if axis == "both" else ["center_y" if axis == "y" else "center_x"]
    return [[{"type": "align", "ids": step.patients, "edge": e, "to": "canvas"} for e in edges]]


def _column(layout: Layout, ids: list[str], edge: str, skip: list[str]) -> str | None:
    """The element whose ``edge`` the most of ``ids`` share (the key one of that cluster), or None."""
    key = {"left": lambda b: b.x, "right": lambda b: b.x2, "top": lambda b: b.y, "bottom": lambda b: b.y2,
           "center_x": lambda b: b.cx, "center_y": lambda b: b.cy}[edge]
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


def _shared_column(layout: Layout, ids: list[str], edge: str) -> str | None:
    """Of the selection, the element on the edge line the rest of the layout already uses (a margin, a column).

    Lining up on it moves the fewest elements off the page's grid; None when no line within the selection's span
    is shared by another content element.
    """
    if edge not in ("left", "right", "top", "bottom", "center_x", "center_y"):
        return None
    key = {"left": lambda b: b.x, "right": lambda b: b.x2, "top": lambda b: b.y, "bottom": lambda b: b.y2,
           "center_x": lambda b: b.cx, "center_y": lambda b: b.cy}[edge]
    tol = 0.006 * min(layout.canvas.width, layout.canvas.height)
    others = [e for e in content(layout, set(ids))]
    best: tuple[int, float, str] | None = None
    for i in ids:
        v = key(layout.get(i).box)
        shared = sum(1 for e in others if abs(key(e.box) - v) <= tol)
        if shared and (best is None or (shared, layout.get(i).importance) > best[:2]):
            best = (shared, layout.get(i).importance, i)
    return best[2] if best else None


def _align(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    p = step.intent.params
    edge = p.get("edge")
    patients = step.patients
    refs = [r for r in step.refs if r not in patients]
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
        else:
            edge = "left" if stacked else "top"
    if refs:
        target = refs[0] if len(refs) == 1 else _column(layout, refs, edge, patients)
        return [[{"type": "align", "ids": patients, "edge": edge, "to": "element", "target_id": target}]]
    if p.get("page"):
        return [[{"type": "align", "ids": patients, "edge": edge, "to": "margins"}]]
    if len(patients) > 1:
        column = _shared_column(layout, patients, edge)
        if column is not None:
            return [[{"type": "align", "ids": patients, "edge": edge, "to": "element", "target_id": column}],
                    [{"type": "align", "ids": patients, "edge": edge}]]
        return [[{"type": "align", "ids": patients, "edge": edge}]]
    others = [e.id for e in content(layout, set(patients))]
    target = _column(layout, others, edge, patients) if others else None
    if target is not None:
        return [[{"type": "align", "ids": patients, "edge": edge, "to": "element", "target_id": target}]]
    return [[{"type": "align", "ids": patients, "edge": edge, "to": "margins"}]]


def _place(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    if not step.refs:
        raise CannotPlan("relative to which element? Name it, e.g. 'under the photo'")
    rel = step.intent.params["rel"]
    pid, rid = step.patients[0], step.refs[0]
    p, r = layout.get(pid).box, layout.get(rid).box
    vertical = rel in ("below", "above")
    gap = typical_gap(layout, "vertical" if vertical else "horizontal")
    if step.intent.params.get("tight"):
        gap = min(gap, fixes.gap_for(layout))
    if rel == "beside":
        room_right = layout.canvas.safe_box.x2 - r.x2
        rel = "right" if room_right >= p.width + gap else "left"
    satisfied = {"below": p.y >= r.y2 - 0.5, "above": p.y2 <= r.y + 0.5, "right": p.x >= r.x2 - 0.5,
                 "left": p.x2 <= r.x + 0.5}[rel]
    if satisfied and gap_between(p, r, "vertical" if vertical else "horizontal") <= 3 * gap:
        return [[]]
    wrong_side = {"below": p.cy < r.cy, "above": p.cy > r.cy, "right": p.cx < r.cx, "left": p.cx > r.cx}[rel]
    out: list[Actions] = []
    if wrong_side and _neighbours(layout, pid, rid, vertical):
        out.append([{"type": "swap", "ids": [pid, rid]}])
    if vertical:
        dy = (r.y2 + gap - p.y) if rel == "below" else (r.y - gap - p.y2)
        dx = 0.0 if min(p.x2, r.x2) - max(p.x, r.x) > 0 else r.x - p.x
    else:
        dx = (r.x2 + gap - p.x) if rel == "right" else (r.x - gap - p.x2)
        dy = r.y - p.y
    out.append([{"type": "move", "ids": [pid], "dx": round(dx, 3), "dy": round(dy, 3)}])
    return out


def _neighbours(layout: Layout, a: str, b: str, vertical: bool) -> bool:
    """Whether nothing else stands between ``a`` and ``b`` along the axis."""
    ba, bb = layout.get(a).box, layout.get(b).box
    lo, hi = ((min(ba.y2, bb.y2), max(ba.y, bb.y)) if vertical else (min(ba.x2, bb.x2), max(ba.x, bb.x)))
    for e in content(layout, {a, b}):
        if fixes._related(layout, e.id, a) or fixes._related(layout, e.id, b):
            continue
        s, t = (e.box.y, e.box.y2) if vertical else (e.box.x, e.box.x2)
        cross = (min(e.box.x2, max(ba.x2, bb.x2)) - max(e.box.x, min(ba.x, bb.x)) if vertical
                 else min(e.box.y2, max(ba.y2, bb.y2)) - max(e.box.y, min(ba.y, bb.y)))
        if cross > 0 and s >= lo - 0.5 and t <= hi + 0.5:
            return False
    return True


def _region(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    return [[{"type": "anchor_to_region", "ids": step.patients, "region": step.intent.params["region"]}]]


def _third(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
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


def _edge(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    return [[{"type": "align", "ids": step.patients, "edge": step.intent.params["edge"], "to": "margins"}]]


_VECTORS = {"up": (0, -1), "upward": (0, -1), "higher": (0, -1), "down": (0, 1), "downward": (0, 1),
            "lower": (0, 1), "left": (-1, 0), "leftward": (-1, 0), "right": (1, 0), "rightward": (1, 0)}


def _nudge(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    p = step.intent.params
    dx = dy = 0.0
    for word, length in p["moves"]:
        vx, vy = _VECTORS.get(word, (0, 0))
        axis = "x" if vx else "y"
        d = _world(layout, length, axis) if length is not None else step_amount(layout, p.get("degree", "medium"))
        dx, dy = dx + vx * d, dy + vy * d
    if dx == 0 and dy == 0:
        raise CannotPlan("which way should it move: up, down, left or right?")
    return [[{"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)}]]


def _style(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    p = step.intent.params
    ids = [t for i in step.patients for t in text_ids(layout, layout.get(i))]
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
                size = _world(layout, fs["abs"], "y")
            elif "delta" in fs:
                size = el.font_size + fs["sign"] * _world(layout, fs["delta"], "y")
            else:
                size = el.font_size * fs["factor"]
            if size <= 0:
                raise CannotPlan(f"that would leave {i!r} with no font size")
            fields["font_size"] = round(size, 3)
        if fields:
            out.append({"type": "set_text_style", "ids": [i], **fields})
    return [out]


def _emphasis(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    more = step.intent.params.get("more", True)
    s = am.SCALE[step.intent.params.get("degree", "medium")] ** (1 if more else -0.8)
    alts = scale_alternatives(layout, step.patients, s)
    if more:
        bold = [{"type": "set_text_style", "ids": [i], "font_weight": 700} for i in step.patients
                if layout.get(i).kind == "text" and (layout.get(i).font_weight or 400) < 600]
        alts = [a + bold for a in alts[:1]] + alts
    return alts


def _resize(step: Step, layout: Layout) -> list[Actions]:
    _need(step)
    p = step.intent.params
    if p.get("size"):
        dim, length = p["size"]
        out = []
        for i in step.patients:
            el = layout.get(i)
            value = _world(layout, length, "x" if dim == "width" else "y")
            for a in resize_anchors(layout, el):
                out.append([{"type": "resize", "id": i, dim: round(value, 3), "anchor": a,
                             "keep_aspect": not stretchable(el)}])
        return out
    stretch = p.get("stretch")
    s = scale_factor(p) if not stretch or p.get("factor") or p.get("percent") or p.get("fraction") else \
        am.SCALE[p.get("degree", "medium")] ** (1 if stretch in ("wider", "taller", "longer", "fatter") else -1)
    if stretch:
        dim = "width" if stretch in ("wider", "narrower", "longer", "thinner", "fatter", "skinnier") else "height"
        out = []
        for i in step.patients:
            el = layout.get(i)
            if stretchable(el) and el.kind != "group":
                box = el.box
                size = box.width * s if dim == "width" else box.height * s
                out += [[{"type": "resize", "id": i, dim: round(size, 3), "anchor": a, "keep_aspect": False}]
                        for a in resize_anchors(layout, el)]
        if out:
            return out
    return scale_alternatives(layout, step.patients, s)


BUILDERS: dict[str, Callable[[Step, Layout], list[Actions]]] = {
    "lock": _lock, "zorder": _zorder, "swap": _swap, "separate": _separate, "inside": _inside,
    "distribute": _distribute, "gap": _gap, "match": _match, "fill": _fill, "center": _center, "align": _align,
    "place": _place, "region": _region, "third": _third, "edge": _edge, "nudge": _nudge, "style": _style,
    "emphasis": _emphasis, "resize": _resize,
}


def plan_step(step: Step, layout: Layout) -> list[Actions]:
    """Action alternatives for ``step`` on ``layout``, best first (``[[]]``: nothing to do)."""
    builder = BUILDERS.get(step.kind)
    if builder is None:
        raise CannotPlan(f"I understood '{step.text}' but cannot do that kind of edit")
    return builder(step, layout)


__all__ = ["Step", "plan_step", "BUILDERS", "CannotPlan"]
