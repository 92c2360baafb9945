"""Parsing actions from JSON and checking them against a document.

Every problem becomes one :class:`~assistant.errors.InvalidAction` that names
the element (when there is one) and says what is wrong, so that a person, a
planner or a language model can correct the action.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ValidationError

from assistant.actions.schema import ACTION_ADAPTER, ACTION_TYPES, MODEL_BY_TYPE, Action
from assistant.document import Element, Layout
from assistant.errors import InvalidAction
from assistant.geometry import Box

#: A result box may not exceed this many canvas sizes in width or height.
MAX_SIZE_FACTOR = 100.0


def _describe(err: ValidationError, type_name: str | None) -> str:
    parts = []
    for e in err.errors(include_url=False):
        loc = [str(p) for p in e["loc"] if not (type_name and p == type_name)]
        where = ".".join(loc)
        msg = e["msg"]
        if e["type"] in ("finite_number",):
            msg = "must be a finite number (not NaN or infinity)"
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts)


def parse_action(obj: Any) -> Action:
    """Parse one action from a dict, a JSON string, or an Action (returned as is).

    Raises ``InvalidAction`` for malformed JSON, a missing or unknown ``type``
    (the message lists the valid types), unknown or mistyped fields, and
    non-finite numbers.
    """
    if isinstance(obj, BaseModel) and type(obj) in MODEL_BY_TYPE.values():
        return obj  # type: ignore[return-value]
    if isinstance(obj, (str, bytes, bytearray)):
        try:
            obj = json.loads(obj)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidAction(f"action is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise InvalidAction(f"an action must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    valid = ", ".join(ACTION_TYPES)
    if kind is None:
        raise InvalidAction(f"action has no 'type'; valid types: {valid}")
    if not isinstance(kind, str) or kind not in MODEL_BY_TYPE:
        raise InvalidAction(f"unknown action type {kind!r}; valid types: {valid}")
    try:
        return ACTION_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        raise InvalidAction(f"invalid {kind} action: {_describe(exc, kind)}") from None


def parse_actions(objs: Any) -> list[Action]:
    """Parse a list of actions (or a JSON array); errors name the failing index."""
    if isinstance(objs, (str, bytes, bytearray)):
        try:
            objs = json.loads(objs)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidAction(f"actions are not valid JSON: {exc}") from None
    if isinstance(objs, dict) or isinstance(objs, BaseModel):
        objs = [objs]
    if not isinstance(objs, (list, tuple)):
        raise InvalidAction(f"actions must be a list, got {type(objs).__name__}")
    out = []
    for i, o in enumerate(objs):
        try:
            out.append(parse_action(o))
        except InvalidAction as exc:
            raise InvalidAction(f"action {i}: {exc.problem}", exc.element_id) from None
    return out


# -- checks against the document ----------------------------------------------

def locked_reason(layout: Layout, element_id: str) -> str | None:
    """Why the element may not be edited: locked itself, inside a locked group, or holding a locked member."""
    el = layout.get(element_id)
    if el.locked:
        return "it is locked (unlock it first: a set_locked with locked false, or 'unlock …' in the chat)"
    g = el.group
    while g is not None:
        ge = layout.get(g)
        if ge.locked:
            return f"it is inside the locked group {g!r}"
        g = ge.group
    for d in layout.descendants_of(element_id):
        if d.locked:
            return f"its member {d.id!r} is locked"
    return None


def check_editable(layout: Layout, ids: Iterable[str]) -> list[Element]:
    """The elements for ``ids`` (unique, in order), refusing unknown and locked ones."""
    out: list[Element] = []
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise InvalidAction("id is listed twice", i)
        seen.add(i)
        el = layout.get(i)
        why = locked_reason(layout, i)
        if why:
            raise InvalidAction(f"cannot edit: {why}", i)
        out.append(el)
    return out


def check_no_nesting(layout: Layout, elements: list[Element]) -> None:
    """Refuse a list naming both a group and one of its members (it would move twice)."""
    ids = {e.id for e in elements}
    for e in elements:
        g = e.group
        while g is not None:
            if g in ids:
                raise InvalidAction(f"is a member of group {g!r}, which is also listed; list one or the other", e.id)
            g = layout.get(g).group


def check_text(el: Element) -> None:
    """Refuse an element that is not text (``InvalidAction``)."""
    if el.kind != "text":
        raise InvalidAction(f"is a {el.kind}, not text; this action needs a text element", el.id)


def check_box(layout: Layout, element_id: str, old: Box, new: Box, tol_rel: float = 1e-6) -> None:
    """Refuse a result box that is not finite, too small or too big, or that leaves the canvas.

    Leaving the canvas means sticking out past a canvas edge further than the
    element already did before the edit (full-bleed backgrounds may stay as
    they are); one wider than the canvas may stick out on both sides, on each
    no further than it did on either (a line running off the page, centred).
    An element drawn wholly beside the page (a sticker set next to its sheet)
    may move about there, within the drawing's extent. The message names the
    edge and the distance.
    """
    c = layout.canvas
    vals = (new.x, new.y, new.width, new.height)
    if not all(math.isfinite(v) for v in vals):
        raise InvalidAction("the edit would give it a non-finite box", element_id)
    if (new.width <= 0 and old.width > 0) or (new.height <= 0 and old.height > 0):
        raise InvalidAction(f"the edit would give it an empty size ({new.width:g} x {new.height:g})", element_id)
    if new.width > MAX_SIZE_FACTOR * c.width or new.height > MAX_SIZE_FACTOR * c.height:
        if new.width > old.width or new.height > old.height:
            raise InvalidAction(
                f"the edit would make it {new.width:g} x {new.height:g}, far larger than the canvas "
                f"({c.width:g} x {c.height:g})", element_id)
    tol = tol_rel * max(c.width, c.height)
    # on a document of several pages (Inkscape's), an element stays on the page it is on
    page = layout.get(element_id).page if element_id in layout else -1
    area, what = (c.pages[page], f"page {page + 1}") if c.pages and 0 <= page < len(c.pages) else (c.box, "canvas")
    if old.intersection(area) is None and new.intersection(area) is None and Box.union_all(
            [e.box for e in layout.elements] + [area]).contains(new, tol):
        return
    drawn = layout.get(element_id).whole if element_id in layout else None  # (all a clip cuts off included)
    wide_x = new.width * (drawn.width if drawn else 1.0) > area.width
    wide_y = new.height * (drawn.height if drawn else 1.0) > area.height
    for edge, before, after in (
        ("left", area.x - old.x, area.x - new.x),
        ("top", area.y - old.y, area.y - new.y),
        ("right", old.x2 - area.x2, new.x2 - area.x2),
        ("bottom", old.y2 - area.y2, new.y2 - area.y2),
    ):
        # wider than the page: it may stick out on both sides, no further than it did on either
        if wide_x if edge in ("left", "right") else wide_y:
            before = max(area.x - old.x, old.x2 - area.x2) if edge in ("left", "right") else max(
                area.y - old.y, old.y2 - area.y2)
        if after > max(before, 0.0) + tol:
            raise InvalidAction(
                f"the edit would put it {after:.4g} units past the {edge} edge of the {what} "
                f"({what} {area.x:g},{area.y:g} {area.width:g} x {area.height:g})", element_id)
