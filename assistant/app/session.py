"""A document with its edit history: revisions, undo/redo, dry runs, revision checks.

One ``Session.apply`` call is one *edit*: its actions apply atomically, the
revision goes up by one, and it becomes one undo step. ``undo`` and ``redo``
also move the revision forward (the document changed), so a client holding an
``expected_revision`` notices any change. A new edit clears the redo stack.
``history`` records every edit, undo and redo in order, without timestamps, so
the same calls always give the same history.

The CLI, the MCP server and the offline chat all drive documents through
this class.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from pydantic import BaseModel, Field

from assistant.actions import Action, Diff, apply_actions, parse_actions, redo_diff, undo_diff
from assistant.actions.trial import attempt
from assistant.document import Document
from assistant.errors import SessionError
from assistant.geometry import Box


class EditSummary(BaseModel):
    """What one action of an edit changed."""

    index: int
    type: str
    action: dict[str, Any]
    changed_ids: list[str]
    before: dict[str, Box]
    after: dict[str, Box]
    notes: list[str] = Field(default_factory=list)

    @classmethod
    def from_diff(cls, index: int, diff: Diff) -> EditSummary:
        """The summary of action ``index`` of an edit from its diff."""
        action = diff.action or {}
        return cls(index=index, type=str(action.get("type", "")), action=action, changed_ids=list(diff.changed_ids),
                   before=dict(diff.before), after=dict(diff.after), notes=list(diff.notes))


class EditResult(BaseModel):
    """The outcome of ``Session.apply`` (or of undo/redo)."""

    revision: int
    dry_run: bool = False
    edits: list[EditSummary] = Field(default_factory=list)
    #: Union of the changed ids of all edits, in first-seen order.
    changed_ids: list[str] = Field(default_factory=list)
    #: Optional metric snapshots (composite and per-metric scores) filled in by front ends.
    metrics_before: dict[str, Any] | None = None
    metrics_after: dict[str, Any] | None = None


class HistoryEntry(BaseModel):
    """One step of the session's history."""

    revision: int
    kind: Literal["edit", "undo", "redo"]
    actions: list[dict[str, Any]]
    changed_ids: list[str]


def _union_ids(diffs: Iterable[Diff]) -> list[str]:
    seen: dict[str, None] = {}
    for d in diffs:
        for i in d.changed_ids:
            seen.setdefault(i, None)
    return list(seen)


def _parse(actions: Iterable[Action | dict[str, Any] | str] | Action | dict[str, Any] | str) -> list[Action]:
    if isinstance(actions, (dict, str, bytes)) or isinstance(actions, BaseModel):
        actions = [actions]  # type: ignore[list-item]
    parsed = parse_actions(list(actions))  # type: ignore[arg-type]
    if not parsed:
        raise SessionError("an edit needs at least one action")
    return parsed


class Session:
    """A document plus revision number, undo/redo stacks and history."""

    def __init__(self, document: Document, *, revision: int = 0) -> None:
        self._doc = document
        self._revision = revision
        self._undo: list[list[Diff]] = []
        self._redo: list[list[Diff]] = []
        self._history: list[HistoryEntry] = []

    @property
    def document(self) -> Document:
        """The document being edited."""
        return self._doc

    @property
    def revision(self) -> int:
        """The revision number, one more for every edit, undo and redo."""
        return self._revision

    @property
    def history(self) -> list[HistoryEntry]:
        """Every edit, undo and redo so far, oldest first (a copy)."""
        return list(self._history)

    @property
    def can_undo(self) -> bool:
        """True when there is an edit to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """True when there is an undone edit to redo."""
        return bool(self._redo)

    def check_revision(self, expected: int | None) -> None:
        """Refuse to act on a state the caller has not seen: ``SessionError`` naming the current revision."""
        if expected is not None and expected != self._revision:
            raise SessionError(
                f"stale revision: expected {expected}, but the document is at revision {self._revision}; "
                f"read it again and retry with expected_revision={self._revision}")

    def apply(self, actions: Iterable[Action | dict[str, Any] | str] | Action | dict[str, Any] | str,
              expected_revision: int | None = None, dry_run: bool = False) -> EditResult:
        """Apply actions atomically as one edit (one undo step).

        With ``dry_run`` the session is left untouched (see :meth:`trial`); the
        result tells what would change. Raises ``SessionError`` for a stale
        ``expected_revision`` and ``InvalidAction`` (document unchanged) for an
        action that does not fit.
        """
        if dry_run:
            with self.trial(actions, expected_revision) as result:
                return result
        self.check_revision(expected_revision)
        parsed = _parse(actions)
        diffs = apply_actions(self._doc, parsed)
        summaries = [EditSummary.from_diff(i, d) for i, d in enumerate(diffs)]
        self._revision += 1
        self._undo.append(diffs)
        self._redo.clear()
        self._history.append(HistoryEntry(revision=self._revision, kind="edit",
                                          actions=[a.to_json() for a in parsed], changed_ids=_union_ids(diffs)))
        return EditResult(revision=self._revision, edits=summaries, changed_ids=_union_ids(diffs))

    @contextmanager
    def trial(self, actions: Iterable[Action | dict[str, Any] | str] | Action | dict[str, Any] | str,
              expected_revision: int | None = None) -> Iterator[EditResult]:
        """A dry run: the edit is applied while the ``with`` block runs, then undone exactly.

        Inside the block ``session.document`` shows the edited state (measure it,
        render it); the revision, history and undo stacks never change::

            with session.trial(actions) as result:
                after = evaluate(session.document.layout)
        """
        self.check_revision(expected_revision)
        with attempt(self._doc, _parse(actions)) as tried:
            summaries = [EditSummary.from_diff(i, d) for i, d in enumerate(tried.diffs)]
            yield EditResult(revision=self._revision, dry_run=True, edits=summaries,
                             changed_ids=_union_ids(tried.diffs))

    def undo(self, expected_revision: int | None = None) -> EditResult:
        """Take back the last edit exactly; ``SessionError`` when there is none."""
        self.check_revision(expected_revision)
        if not self._undo:
            raise SessionError("nothing to undo")
        diffs = self._undo.pop()
        for d in reversed(diffs):
            undo_diff(self._doc, d)
        self._redo.append(diffs)
        return self._step("undo", diffs)

    def redo(self, expected_revision: int | None = None) -> EditResult:
        """Apply the last undone edit again; ``SessionError`` when there is none."""
        self.check_revision(expected_revision)
        if not self._redo:
            raise SessionError("nothing to redo")
        diffs = self._redo.pop()
        for d in diffs:
            redo_diff(self._doc, d)
        self._undo.append(diffs)
        return self._step("redo", diffs)

    def _step(self, kind: Literal["undo", "redo"], diffs: list[Diff]) -> EditResult:
        self._revision += 1
        ids = _union_ids(diffs)
        self._history.append(HistoryEntry(revision=self._revision, kind=kind,
                                          actions=[d.action or {} for d in diffs], changed_ids=ids))
        summaries = [EditSummary.from_diff(i, d) for i, d in enumerate(diffs)]
        if kind == "undo":  # report boxes in the direction the document moved
            for s in summaries:
                s.before, s.after = s.after, s.before
        return EditResult(revision=self._revision, edits=summaries, changed_ids=ids)
