"""Typed layout edits: the action vocabulary, validation, application and exact undo.

Public API::

    Action, parse_action(obj_or_json), parse_actions(list_or_json), action_json_schema()
    apply_action(doc, action) -> Diff          # layout + XML, validated first
    apply_actions(doc, actions) -> list[Diff]  # atomic batch
    undo_diff(doc, diff), redo_diff(doc, diff)
"""

from assistant.actions.apply import HANDLERS, apply_action, apply_actions, undo_diffs
from assistant.actions.diff import Diff, redo_diff, undo_diff
from assistant.actions.schema import (
    ACTION_MODELS,
    ACTION_TYPES,
    REGION_NAMES,
    TEMPLATE_NAMES,
    Action,
    Align,
    AnchorToRegion,
    ApplyTemplate,
    Demote,
    Distribute,
    Finalize,
    MatchSize,
    Move,
    Promote,
    ReflowGroup,
    ReflowText,
    Reorder,
    Resize,
    SetGap,
    SetLocked,
    SetPaint,
    SetTextStyle,
    SnapToGrid,
    Swap,
    action_json_schema,
)
from assistant.actions.validate import parse_action, parse_actions

__all__ = [
    "ACTION_MODELS", "ACTION_TYPES", "REGION_NAMES", "TEMPLATE_NAMES", "HANDLERS",
    "Action", "Align", "AnchorToRegion", "ApplyTemplate", "Demote", "Diff", "Distribute", "Finalize",
    "MatchSize", "Move", "Promote", "ReflowGroup", "ReflowText", "Reorder", "Resize", "SetGap", "SetLocked",
    "SetPaint", "SetTextStyle", "SnapToGrid", "Swap",
    "action_json_schema", "apply_action", "apply_actions", "parse_action", "parse_actions",
    "redo_diff", "undo_diff", "undo_diffs",
]
