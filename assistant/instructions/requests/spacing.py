"""Builders of the spacing intents: even spacing, one gap made larger, smaller or exact, and relative places.

* ``distribute`` spaces three or more elements evenly along the axis they are arranged on;
* ``gap`` changes the space between two elements: "more space under X" moves the element below X (or X up when
  that one cannot move), "X and Y are too far apart" moves whichever comes later in reading order, "closer to Y"
  moves the element named; a change that would run the mover into another element comes last;
* ``place`` puts X under, above or beside Y: a swap when they are neighbours in the wrong order, else a move
  with the layout's usual gap.
"""

from __future__ import annotations

import re
import statistics
from typing import Any

from assistant.document import Layout
from assistant.geometry import Box, apart_axis
from assistant.instructions.requests import amounts as am
from assistant.instructions.requests import fixes
from assistant.instructions.requests.plan import (
    Actions,
    CannotPlan,
    Step,
    arrangement,
    content,
    gap_between,
    need,
    neighbour_below,
    typical_gap,
    widest_split,
    world_length,
)
from assistant.instructions.requests.scope import copies


def distribute(step: Step, layout: Layout) -> list[Actions]:
    """Actions for a ``distribute`` step (see :mod:`~assistant.instructions.requests.spacing`)."""
    ids = step.patients
    side = step.intent.params.get("side")
    if len(ids) == 2 and side in ("above", "below"):
        # "more room above C than above B": the gaps above both, so the one above the upper of them too
        ends = sorted((layout.get(i) for i in ids), key=lambda e: e.box.y)
        extra = neighbour_below(layout, ends[0] if side == "above" else ends[-1], above=side == "above")
        ids = [*ids, extra.id] if extra is not None and extra.id not in ids else ids
    if len(ids) < 3:
        raise CannotPlan("spacing evenly needs at least three elements; to set one gap, say e.g. "
                         "'20px between the title and the subtitle'")
    axis = step.intent.params.get("axis") or arrangement(layout, ids)
    return [[{"type": "distribute", "ids": ids, "axis": axis}],
            [{"type": "distribute", "ids": ids, "axis": axis, "mode": "centers"}]]


def gap(step: Step, layout: Layout) -> list[Actions]:
    """Actions for a ``gap`` step (see :mod:`~assistant.instructions.requests.spacing`)."""
    # "give it 20px of space" where they are closer: 20px between them; "add 3mm between them": 3mm more than now
    p = {**step.intent.params, "added": step.intent.params.get("added") or bool(re.search(
        r"\b(?:add|adding|more|extra|another|additional)\b", step.text)),
         # ("give it 4mm more space": that much more, however little there is now)
         "more_said": bool(re.search(r"\d ?[a-z%]+ (?:more|extra)\b|\b(?:another|an extra) [\d.]+ ?[a-z%]+\b",
                                     step.text))}
    rel = p.get("rel")
    if len(step.patients) >= 3 and not step.refs and rel in (None, "between") and not p.get("many") and (
            blocks := _two_blocks(step.patients, layout)):
        # "the body text is crashing into the fb / www links at the bottom, leave 2mm between them": the text and
        # the row of links under it, each a block
        upper, lower = blocks
        return _ranked([a for a in (_block_gap(lower, upper, layout, p), _block_gap(upper, lower, layout, p)) if a])
    if (p.get("many") or len(step.patients) >= 3) and not step.refs and rel in (None, "between"):
        return _stack_gaps(step, layout)
    if rel in (None, "between", "around") and len(step.patients) > 1 and len(step.intent.patients) == 1 and len(
            refs := [r for r in step.refs if r not in step.patients]) == 1:
        return [_block_gap(step.patients, refs[0], layout, p)]
    if rel == "around" and step.patients:
        return _room_around(step, layout, p)
    if rel in ("under", "below", "beneath", "underneath", "after", "above", "over", "before") and step.patients:
        anchor = layout.get(step.patients[0])
        above = rel in ("above", "over", "before")
        # "move the affiliations down so there is a 20px gap under the authors": the clause names the other
        other = layout.get(step.refs[0]) if step.refs else neighbour_below(layout, anchor, above=above)
        if other is None:
            raise CannotPlan(f"nothing sits {'above' if above else 'below'} {anchor.id!r} to make room against")
        pairs = [(anchor.id, other.id), (other.id, anchor.id)] if above else [(other.id, anchor.id),
                                                                             (anchor.id, other.id)]
        return _ranked([alt for mover, target in pairs for alt in _gap_change(layout, mover, target, p)])
    ids = step.patients + [r for r in step.refs if r not in step.patients]
    if len(ids) < 2:
        raise CannotPlan("between which two elements? Name both, e.g. 'between the title and the photo'")
    a, b = ids[0], ids[1]
    if step.refs and len(step.patients) == 1 and not p.get("symmetric") and not _BETWEEN_ONLY.match(step.text):
        mover, target = a, b
    else:
        first = layout.get(a).box
        second = layout.get(b).box
        later = b if (second.cy, second.cx) > (first.cy, first.cx) else a
        mover, target = later, (a if later == b else b)
        if layout.get(mover).pinned and not layout.get(target).pinned:
            # "a 30px gap between the heading and the white card below": the heading moves, not the panel
            # everything else sits on
            mover, target = target, mover
    return _ranked(_gap_change(layout, mover, target, p) + _gap_change(layout, target, mover, p))


#: "too much gap between the terminal and the line under it": neither is said to move (the later one does).
_BETWEEN_ONLY = re.compile(r"(?:there is |there are |theres )?(?:way |far |a bit |slightly )?too much (?:\w+ )?"
                           r"(?:gap|space|room|air|distance|whitespace) between ")


def _two_blocks(ids: list[str], layout: Layout) -> tuple[list[str], list[str]] | None:
    """``ids`` split into those above and those below the widest gap down the page, when one of them is a row.

    Then the set is no stack to space evenly (side by side, the row's parts keep their places); else None.

    The two may run into each other a little ("the body text is crashing into the links"), by less than half the
    height of the lower.
    """
    split = widest_split(layout, ids, "y")
    if split is None or split[0] <= -0.5 * min(layout.get(i).box.height for i in split[2]):
        return None
    _gap, upper, lower = split
    side_by_side = any(len(part) > 1 and apart_axis(layout.get(part[0]).box, layout.get(part[1]).box) == "horizontal"
                       for part in (upper, lower))
    return (upper, lower) if side_by_side else None


def _block_gap(ids: list[str], target: str | list[str], layout: Layout, p: dict[str, Any]) -> Actions:
    """Several elements moved together so the gap from them all to ``target`` (one element or a block) is as asked.

    "The right column is jammed against the blue line, give it 4mm": the column moves away from the line as one.
    """
    targets = [target] if isinstance(target, str) else target
    mb, tb = Box.union_all([layout.get(i).box for i in ids]), Box.union_all([layout.get(t).box for t in targets])
    axis = apart_axis(mb, tb)
    gap = gap_between(mb, tb, axis)
    shift = _new_gap(layout, gap, axis, p) - gap
    if abs(shift) < 1e-6:
        return []
    sign = 1.0 if (mb.cy >= tb.cy if axis == "vertical" else mb.cx >= tb.cx) else -1.0
    dx, dy = (0.0, sign * shift) if axis == "vertical" else (sign * shift, 0.0)
    return [{"type": "move", "ids": list(ids), "dx": round(dx, 3), "dy": round(dy, 3)}]


def _new_gap(layout: Layout, gap: float, axis: str, p: dict[str, Any]) -> float:
    """The gap ``p`` asks for (op more / less / set, length, degree) where it is ``gap`` now (never below 0)."""
    c = layout.canvas
    length = p.get("length")
    op = p.get("op")
    deg = p.get("degree", "medium")
    if p.get("times") is not None:  # "halve the gap between them"
        new = max(gap, 0.0) * p["times"]
    elif op == "set":
        new = world_length(layout, length, "y" if axis == "vertical" else "x")
    elif length is not None:
        d = world_length(layout, length, "y" if axis == "vertical" else "x")
        # ("… is cramped under the logos, give it about 4mm": that much between them, where it is less now; "give it
        # 1mm more room": that much more)
        # ("no breathing room …, add ~4px" where there is next to none: about that much)
        added = p.get("added") and (p.get("more_said") or not 0 <= gap <= 0.5 * d)
        new = (gap + d if added or gap >= d else d) if op == "more" else gap - d
        if op == "less" and p.get("moved"):
            return new  # "move the text 40px closer to the logo": by that much, as asked
    elif op == "more":
        new = max(gap, 0.0) + max(am.GAP_STEP[deg] * min(c.width, c.height),
                                  {"small": 0.15, "medium": 0.25, "large": 0.5}[deg] * max(gap, 0.0))
    else:
        new = max(gap, 0.0) * {"small": 0.75, "medium": 0.5, "large": 0.25}[deg]
    return max(new, 0.0)


def _room_around(step: Step, layout: Layout, p: dict[str, Any]) -> list[Actions]:
    """"Give the button some room": move it away from its nearest neighbour (or that neighbour away from it)."""
    el = layout.get(step.patients[0])
    others = [e for e in content(layout, {el.id}) if not fixes._related(layout, e.id, el.id)]
    if not others:
        raise CannotPlan(f"nothing is near {el.id!r} to make room against")
    nearest = layout.get(step.refs[0]) if step.refs else min(others, key=lambda e: e.box.distance(el.box))
    return _ranked(_gap_change(layout, el.id, nearest.id, p) + _gap_change(layout, nearest.id, el.id, p))


def _stack_gaps(step: Step, layout: Layout) -> list[Actions]:
    """"The bullets are too cramped", "20px between the points": one gap for the whole stack, kept in place."""
    ids = step.patients
    if len(ids) < 2:
        raise CannotPlan("which elements should be spaced? Name them, e.g. 'the bullet points'")
    axis = arrangement(layout, ids)
    boxes = sorted((layout.get(i).box for i in ids), key=lambda b: b.y if axis == "vertical" else b.x)
    gaps = [gap_between(a, b, axis) for a, b in zip(boxes, boxes[1:])]
    now = statistics.median(gaps)
    p = step.intent.params
    c = layout.canvas
    deg = p.get("degree", "medium")
    length = p.get("length")
    if p.get("op") == "set" and length is not None:
        new = world_length(layout, length, "y" if axis == "vertical" else "x")
    elif length is not None:
        d = world_length(layout, length, "y" if axis == "vertical" else "x")
        new = now + d if p.get("op") == "more" else now - d
    elif p.get("op") == "more":
        new = max(now, 0.0) + max(am.GAP_STEP[deg] * min(c.width, c.height),
                                  {"small": 0.15, "medium": 0.25, "large": 0.5}[deg] * max(now, 0.0))
    else:
        new = max(now, 0.0) * {"small": 0.75, "medium": 0.5, "large": 0.25}[deg]
    return [[{"type": "distribute", "ids": ids, "axis": axis, "gap": round(max(new, 0.0), 3)}]]


def _ranked(alternatives: list[Actions]) -> list[Actions]:
    """Alternatives that run an element into another one last (their marker removed)."""
    good = [a for a in alternatives if not any(x.get("_last_resort") for x in a)]
    bad = [[{k: v for k, v in x.items() if k != "_last_resort"} for x in a] for a in alternatives if a not in good]
    return good + bad


def _gap_change(layout: Layout, mover: str, target: str, p: dict[str, Any]) -> list[Actions]:
    """``mover`` moved so the gap to ``target`` changes as ``p`` asks (op more / less / set, length, degree).

    A section's heading moved away from or towards what lies outside its section takes its section along ("the
    gap before Implemented Standards": the heading with its list).
    """
    group = layout.get(mover).group
    if group is not None and group.startswith("la-section") and min(
            layout.get(group).children, key=lambda c: layout.get(c).box.y) == mover and \
            target not in {d.id for d in layout.descendants_of(group)}:
        mover = group
    mb, tb = layout.get(mover).box, layout.get(target).box
    axis = apart_axis(mb, tb)
    gap = gap_between(mb, tb, axis)
    new = _new_gap(layout, gap, axis, p)
    if abs(new - gap) < 1e-6:
        return [[]]
    action = {"type": "set_gap", "gap": round(new, 3), "axis": axis, "id": mover, "target_id": target}
    shift = new - gap
    sign = 1.0 if (mb.cy >= tb.cy if axis == "vertical" else mb.cx >= tb.cx) else -1.0
    moved = mb.translated(0.0, sign * shift) if axis == "vertical" else mb.translated(sign * shift, 0.0)
    others = [e.box for e in content(layout, {mover, target})]
    runs_into = any(fixes.overlaps(moved, o) and not fixes.overlaps(mb, o) for o in others)
    return [[{**action, "_last_resort": True}] if runs_into else [action]]


def place(step: Step, layout: Layout) -> list[Actions]:
    """Actions for a ``place`` step (see :mod:`~assistant.instructions.requests.spacing`)."""
    need(step)
    if not step.refs:
        raise CannotPlan("relative to which element? Name it, e.g. 'under the photo'")
    rel = step.intent.params["rel"]
    pid, rid = step.patients[0], step.refs[0]
    p, r = layout.get(pid).box, layout.get(rid).box
    # ("start the right column 3mm right of the blue line": all of it, as one block)
    block = [i for i in step.patients if i != rid] if rel not in ("in", "after", "before") else [pid]
    if len(block) > 1 and not copies(block, layout):
        p = Box.union_all(layout.get(i).box for i in block)
    if rel == "in":
        return _place_in(step, layout, p, r)
    if rel in ("after", "before"):
        # "… should follow the quote": on its line, after it, where the two share a line; else under it
        row = min(p.y2, r.y2) - max(p.y, r.y) > 0.3 * min(p.height, r.height)
        rel = ("right" if rel == "after" else "left") if row else ("below" if rel == "after" else "above")
    vertical = rel in ("below", "above")
    gap = typical_gap(layout, "vertical" if vertical else "horizontal")
    if step.intent.params.get("tight"):
        gap = min(gap, fixes.gap_for(layout))
        sizes = [e.font_size for e in (layout.get(pid), layout.get(rid)) if e.font_size]
        if len(sizes) == 2:
            # "tuck it right after the quote": as a line goes on, not a column; "right under the quote": as the
            # next line would
            gap = min(gap, 0.5 * max(sizes))
    said = step.intent.params.get("gap")
    if said is not None:
        gap = am.to_world(said, layout.canvas, "y" if vertical else "x")
    if rel == "beside":
        room_right = layout.canvas.safe_box.x2 - r.x2
        rel = "right" if room_right >= p.width + gap else "left"
    satisfied = {"below": p.y >= r.y2 - 0.5, "above": p.y2 <= r.y + 0.5, "right": p.x >= r.x2 - 0.5,
                 "left": p.x2 <= r.x + 0.5}[rel]
    now = gap_between(p, r, "vertical" if vertical else "horizontal")
    loose = 1.5 if step.intent.params.get("tight") else 3.0  # ("tuck it right after the quote": close)
    centred = step.intent.params.get("centred")  # ("…, same vertical centre": its middle level with the other's)
    if centred:
        satisfied = satisfied and abs(p.cx - r.cx if vertical else p.cy - r.cy) <= 0.5
    # (a gap said is met within a tenth of it: "10px under the title" where 6 px are is not there yet)
    if satisfied and (now <= loose * gap if said is None else abs(now - gap) <= min(
            0.005 * max(layout.canvas.width, layout.canvas.height), 0.1 * gap + 0.005 * layout.canvas.height)):
        return [[]]
    wrong_side = {"below": p.cy < r.cy, "above": p.cy > r.cy, "right": p.cx < r.cx, "left": p.cx > r.cx}[rel]
    out: list[Actions] = []
    if wrong_side and _neighbours(layout, pid, rid, vertical) and _in_one_stack(layout, pid, rid, vertical):
        out.append([{"type": "swap", "ids": [pid, rid]}])
    if vertical:
        dy = (r.y2 + gap - p.y) if rel == "below" else (r.y - gap - p.y2)
        dx = r.cx - p.cx if centred else 0.0 if min(p.x2, r.x2) - max(p.x, r.x) > 0 else r.x - p.x
    else:
        dx = (r.x2 + gap - p.x) if rel == "right" else (r.x - gap - p.x2)
        # (on its line already: it stays on it)
        dy = r.cy - p.cy if centred else 0.0 if min(p.y2, r.y2) - max(p.y, r.y) > 0 else r.y - p.y
    along = [i for i in [*block, *step.intent.params.get("with", [])] if i != pid and i != rid]
    out.append([{"type": "move", "ids": list(dict.fromkeys([pid, *along])), "dx": round(dx, 3), "dy": round(dy, 3)}])
    return out


#: Inside a panel, an element keeps this share of the panel's shorter side from its edges.
INSET = 0.05


def _place_in(step: Step, layout: Layout, p: Box, r: Box) -> list[Actions]:
    """"Put X inside Y": into the corner said, else the least move that brings it inside (none if it is)."""
    inset = INSET * min(r.width, r.height)
    if p.width > r.width - 2 * inset or p.height > r.height - 2 * inset:
        raise CannotPlan(f"{step.patients[0]!r} is larger than {step.refs[0]!r}: it cannot go inside it")
    corner = step.intent.params.get("corner")
    if corner:
        v, h = corner.split("_")
        x = r.x + inset if h == "left" else r.x2 - inset - p.width
        y = r.y + inset if v == "top" else r.y2 - inset - p.height
    else:
        x = min(max(p.x, r.x + inset), r.x2 - inset - p.width)
        y = min(max(p.y, r.y + inset), r.y2 - inset - p.height)
    dx, dy = x - p.x, y - p.y
    out: Actions = []
    if abs(dx) >= 1e-6 or abs(dy) >= 1e-6:
        out.append({"type": "move", "ids": step.patients, "dx": round(dx, 3), "dy": round(dy, 3)})
    if _z(layout, step.patients[0]) < _z(layout, step.refs[0]):
        out.append({"type": "reorder", "id": step.patients[0], "to": "front"})  # painted under the panel: on it
    return [out]


def _z(layout: Layout, eid: str) -> int:
    """The highest paint order of an element and its members."""
    return max(e.z for e in [layout.get(eid), *layout.descendants_of(eid)])


def _in_one_stack(layout: Layout, a: str, b: str, vertical: bool) -> bool:
    """Whether two elements of one kind line up as a stack (a shared left, centre or right edge across it).

    Reordering such a pair is a swap; anything else is a move of the one named.
    """
    ea, eb = layout.get(a), layout.get(b)
    if (ea.kind == "text") != (eb.kind == "text"):
        return False
    pa, pb = ea.box, eb.box
    tol = 0.01 * min(layout.canvas.width, layout.canvas.height)
    if vertical:
        return min(abs(pa.x - pb.x), abs(pa.cx - pb.cx), abs(pa.x2 - pb.x2)) <= tol
    return min(abs(pa.y - pb.y), abs(pa.cy - pb.cy), abs(pa.y2 - pb.y2)) <= tol


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


__all__ = ["distribute", "gap", "place"]
