"""Apply actions to a document: one at a time, or as an atomic batch.

:func:`apply_action` validates the action against the document, then changes
the layout and the XML tree together and returns a :class:`Diff`. If the
action is refused, or anything fails part-way, the document is left exactly
as it was. :func:`apply_actions` does the same for a list: all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from assistant.actions import (
    geometry_ops,
    hierarchy,
    locking,
    paint_ops,
    relations,
    templates,
    text_ops,
    text_reflow,
    zorder,
)
from assistant.actions.diff import Diff, undo_diff
from assistant.actions.engine import EditContext
from assistant.actions.schema import Action
from assistant.actions.validate import parse_action, parse_actions
from assistant.document import Document
from assistant.errors import InvalidAction

Handler = Callable[[EditContext, Any], None]

#: Registry: action ``type`` → handler(ctx, action).
HANDLERS: dict[str, Handler] = {
    "move": geometry_ops.apply_move,
    "resize": geometry_ops.apply_resize,
    "align": geometry_ops.apply_align,
    "distribute": geometry_ops.apply_distribute,
    "snap_to_grid": geometry_ops.apply_snap_to_grid,
    "reflow_group": geometry_ops.apply_reflow_group,
    "anchor_to_region": geometry_ops.apply_anchor_to_region,
    "reflow_text": text_reflow.apply_reflow_text,
    "set_text_style": text_ops.apply_set_text_style,
    "set_paint": paint_ops.apply_set_paint,
    "promote": hierarchy.apply_promote,
    "demote": hierarchy.apply_demote,
    "reorder": zorder.apply_reorder,
    "apply_template": templates.apply_template,
    "match_size": relations.apply_match_size,
    "set_gap": relations.apply_set_gap,
    "swap": relations.apply_swap,
    "set_locked": locking.apply_set_locked,
    "finalize": lambda ctx, a: None,
}


def apply_action(doc: Document, action: Action | dict[str, Any] | str) -> Diff:
    """Validate and apply one action to ``doc`` (layout and XML); return what changed.

    Raises ``InvalidAction`` with the document unchanged when the action does
    not fit the document.
    """
    action = parse_action(action)
    ctx = EditContext(doc)
    try:
        HANDLERS[action.type](ctx, action)
        ctx.refresh_groups()
    except BaseException:
        ctx.rollback()
        raise
    return ctx.finish(action.to_json())


def apply_actions(doc: Document, actions: Iterable[Action | dict[str, Any] | str] | str) -> list[Diff]:
    """Apply a list of actions atomically: all of them, or (on any error) none.

    The ``InvalidAction`` raised names the index and type of the failing
    action; every action applied before it has been undone.
    """
    single = isinstance(actions, (str, bytes, dict, BaseModel))
    parsed = parse_actions(actions if single else list(actions))
    diffs: list[Diff] = []
    for i, action in enumerate(parsed):
        try:
            diffs.append(apply_action(doc, action))
        except BaseException as exc:
            for d in reversed(diffs):
                undo_diff(doc, d)
            if isinstance(exc, InvalidAction):
                raise InvalidAction(f"action {i} ({action.type}) failed, nothing was applied: {exc}",
                                    exc.element_id) from None
            raise
    return diffs


def undo_diffs(doc: Document, diffs: list[Diff]) -> None:
    """Undo a batch (last first)."""
    for d in reversed(diffs):
        undo_diff(doc, d)
