"""What one applied action changed, and how to take it back exactly.

A :class:`Diff` holds the changed element ids, their boxes before and after,
the exact XML patch (every attribute, text and child change with its old
value) and snapshots of the changed layout elements. :func:`undo_diff`
restores the tree and the layout exactly; :func:`redo_diff` replays them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.actions.xml_patch import XmlPatch
from assistant.document import Document, Element
from assistant.geometry import Box


@dataclass
class Diff:
    """The effect of one action on a document."""

    #: The action as JSON (``None`` for a raw edit).
    action: dict[str, Any] | None
    #: Ids of the layout elements that changed, in paint order.
    changed_ids: list[str]
    before: dict[str, Box]
    after: dict[str, Box]
    patch: XmlPatch = field(default_factory=XmlPatch)
    elements_before: dict[str, Element] = field(default_factory=dict)
    elements_after: dict[str, Element] = field(default_factory=dict)
    #: Element ids in paint order before/after, when the order changed.
    order_before: list[str] | None = None
    order_after: list[str] | None = None
    #: Plain remarks about what the action did or skipped.
    notes: list[str] = field(default_factory=list)

    @property
    def is_noop(self) -> bool:
        """True when the action changed nothing."""
        return not self.changed_ids and not self.patch.ops

    def to_json(self, *, with_patch: bool = True) -> dict[str, Any]:
        """A JSON-friendly summary: changed ids, boxes before/after, the XML patch."""
        out: dict[str, Any] = {
            "action": self.action,
            "changed_ids": list(self.changed_ids),
            "before": {k: list(v.as_tuple()) for k, v in self.before.items()},
            "after": {k: list(v.as_tuple()) for k, v in self.after.items()},
        }
        if self.notes:
            out["notes"] = list(self.notes)
        if with_patch:
            out["xml_patch"] = self.patch.describe()
        return out


def _set_order(doc: Document, order: list[str]) -> None:
    by_id = {e.id: e for e in doc.layout.elements}
    doc.layout.elements[:] = [by_id[i] for i in order]
    doc.layout._index = None


def forget_nodes(doc: Document) -> None:
    """Drop the document's id → node cache (after nodes were rebuilt)."""
    doc._nodes = None


def undo_diff(doc: Document, diff: Diff) -> None:
    """Take back ``diff`` on the document it was applied to: tree and layout exactly as before."""
    diff.patch.undo()
    if diff.patch.structural:
        forget_nodes(doc)
    for el in diff.elements_before.values():
        doc.layout.replace(el)
    if diff.order_before is not None:
        _set_order(doc, diff.order_before)


def redo_diff(doc: Document, diff: Diff) -> None:
    """Apply ``diff`` again after :func:`undo_diff` (same tree, same layout as after the action)."""
    diff.patch.redo()
    if diff.patch.structural:
        forget_nodes(doc)
    for el in diff.elements_after.values():
        doc.layout.replace(el)
    if diff.order_after is not None:
        _set_order(doc, diff.order_after)
