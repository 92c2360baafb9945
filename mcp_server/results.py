"""Typed results of the MCP tools (their output schemas).

Results are compact on purpose: a model pays for every token it reads. Boxes
are world-space ``Box`` objects (x, y, width, height in the root viewBox
units); text is clipped in outlines; findings carry the ids they concern and
one suggested edit in the action vocabulary of ``apply_edits``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from assistant.document import Element
from assistant.geometry import Box


class CanvasInfo(BaseModel):
    """The page in world units, with its safe margins."""

    width: float
    height: float
    units: str = Field(description="Unit of the file's width attribute (px, mm, …).")
    px_per_unit: float
    safe_box: Box = Field(description="The canvas minus its safe margins.")


class OutlineItem(BaseModel):
    """One element, compactly (box rounded to 0.01 world units)."""

    id: str
    kind: str
    role: str
    box: Box
    depth: int = Field(description="0 for top-level elements, 1 for their children, …")
    text: str | None = Field(None, description="Text content, clipped to 60 characters.")
    children: int = Field(0, description="Number of direct children (groups only).")
    locked: bool = False


class DocumentInfo(BaseModel):
    """An open document's identity and state."""

    doc_id: str
    source: str = Field(description="Workspace path it was opened from, or '<text>'.")
    revision: int = Field(description="Pass as expected_revision to edits.")
    element_count: int
    canvas: CanvasInfo
    instruction: str | None = None


class OpenedDocument(DocumentInfo):
    """``open_document``'s answer: the document plus its top-level outline."""

    outline: list[OutlineItem]
    outline_truncated: bool = Field(description="True when get_outline has more top-level items.")


class DocumentList(BaseModel):
    """``list_documents``' answer: the open documents and the SVG files that can be opened."""

    documents: list[DocumentInfo]
    workspace_svgs: list[str] = Field(description="SVG files in the workspace that open_document accepts.")


class ClosedDocument(BaseModel):
    """``close_document``' answer: the closed id and the ids still open."""

    closed: str
    still_open: list[str]


class OutlinePage(BaseModel):
    """``get_outline``' answer: one page of the outline."""

    doc_id: str
    revision: int
    items: list[OutlineItem]
    total: int = Field(description="Items at the requested depth in all pages.")
    next_cursor: str | None = Field(None, description="Pass as cursor for the next page; null on the last.")


class ElementMatches(BaseModel):
    """``find_elements``' answer: the matching elements, compactly."""

    doc_id: str
    revision: int
    elements: list[OutlineItem]
    total: int = Field(description="Matches before the limit was applied.")


class ElementDetails(BaseModel):
    """``inspect_elements``' answer: the elements in full."""

    doc_id: str
    revision: int
    elements: list[Element]


class FindingInfo(BaseModel):
    """One problem a metric found, with the edit that would address it."""

    metric: str
    element_ids: list[str]
    message: str
    severity: float | str | None = None
    suggestion: dict[str, Any] | None = Field(None, description="An edit for apply_edits, or null.")


class LayoutMetrics(BaseModel):
    """``get_layout_metrics``' answer: the scores and the worst findings."""

    doc_id: str
    revision: int
    composite: float = Field(description="Weighted score in [0, 1]; 1 is best.")
    metrics: dict[str, float] = Field(description="Each metric's score in [0, 1].")
    findings: list[FindingInfo]
    findings_total: int = Field(description="Findings before max_findings was applied.")


class EditEffect(BaseModel):
    """What one edit of a batch changed."""

    index: int
    type: str
    changed_ids: list[str]
    boxes: dict[str, Box] = Field(description="New world box of each changed element.")


class EditOutcome(BaseModel):
    """The result of one edit call (one undo step)."""

    doc_id: str
    revision: int = Field(description="The revision after the call (unchanged for dry runs).")
    applied: bool = Field(description="False for dry runs: nothing was changed.")
    edits: list[EditEffect]
    composite_before: float
    composite_after: float
    metric_delta: dict[str, float] = Field(description="Metrics that moved by more than 0.0005 (after − before).")


class HistoryStep(BaseModel):
    """What an undo or redo changed back."""

    doc_id: str
    revision: int
    changed_ids: list[str]
    boxes: dict[str, Box]
    can_undo: bool
    can_redo: bool


class HistoryEntry(BaseModel):
    """One edit call, undo or redo."""

    revision: int = Field(description="The revision this step produced.")
    kind: str = Field(description="edit, undo or redo.")
    edits: list[dict[str, Any]]
    changed_ids: list[str]


class History(BaseModel):
    """``get_history``' answer: the steps so far and how many can be undone and redone."""

    doc_id: str
    revision: int
    entries: list[HistoryEntry] = Field(description="Every edit call, undo and redo, oldest first.")
    undoable: int = Field(description="How many edit calls undo can take back.")
    redoable: int = Field(description="How many undone calls redo can restore.")


class InstructionEcho(BaseModel):
    """``set_instruction``' answer: how the brief was understood and how well the layout meets it."""

    doc_id: str
    instruction: str
    understood: list[str]
    not_understood: list[str]
    constraints: list[dict[str, Any]]
    instruction_fit: float | None = Field(None, description="How well the layout meets the brief now, [0, 1].")


class Suggestion(BaseModel):
    """One candidate edit, with the gain it would bring alone."""

    rank: int
    edit: dict[str, Any]
    reason: str
    metric: str
    predicted_gain: float = Field(description="Composite after − before if this edit alone were applied.")


class Suggestions(BaseModel):
    """``suggest_edits``' answer: candidate edits, best first (nothing applied)."""

    doc_id: str
    revision: int
    engine: str
    composite: float
    suggestions: list[Suggestion]


class PlannerStep(BaseModel):
    """One edit the planner applied."""

    edit: dict[str, Any]
    reason: str
    changed_ids: list[str]
    composite_after: float


class Improvement(BaseModel):
    """``improve_layout``' answer: the planner's edits and the scores before and after."""

    doc_id: str
    planner: str
    revision: int
    applied: bool = Field(description="False when no edit improved the layout.")
    stopped: str = Field(description="Why the planner stopped (finalize, max_steps, time_budget, no_improvement, …).")
    steps: list[PlannerStep]
    composite_before: float
    composite_after: float
    metrics_before: dict[str, float]
    metrics_after: dict[str, float]
    seconds: float


class ExportedFile(BaseModel):
    """``export_document``' and ``save_document``' answer: the file written."""

    doc_id: str
    path: str = Field(description="Workspace-relative path written.")
    format: str
    bytes: int
    sha256: str
