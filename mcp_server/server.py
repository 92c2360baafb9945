"""The Layout Assistant MCP server: thin, typed ``verb_noun`` tools over the core.

``build_server(workspace)`` returns a FastMCP app whose tools open SVG files
from the workspace (or SVG text), read outlines and metrics, apply typed edits
as undoable steps, ask planners for suggestions, render previews and export.
The client's model is the planner; every tool's one-line docstring is written
for it. Every failure is a ``ToolError`` whose message says what to do next
(an operating-system error too: a path the system refuses, a full disk).

Imports, previews and metric reports run in a worker thread under a time
limit and stop when the client cancels the call or goes away
(``mcp_server.bounded``). A call waits at most ``limits.MCP_LOCK_WAIT_SECONDS``
for another call on the same document; then it is told the document is busy.

Run it with ``layout-assistant serve`` (stdio) or ``serve --http``.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.tools.base import ToolResult
from fastmcp.utilities.types import Image
from mcp_types import ToolAnnotations
from pydantic import Field, WithJsonSchema

from assistant import __version__
from assistant.actions import action_json_schema
from assistant.app.formats import export, format_for_path, supported_formats
from assistant.app.outputs import write_output
from assistant.app.session import Session
from assistant.document import Kind, Role
from assistant.errors import LayoutError, printable
from assistant.geometry import Box
from assistant.importer import import_svg_text
from assistant.limits import MCP_LOCK_WAIT_SECONDS
from mcp_server import editing, prompts, views
from mcp_server.bounded import run_bounded
from mcp_server.rendering import preview_png
from mcp_server.results import (
    ClosedDocument,
    DocumentInfo,
    DocumentList,
    EditOutcome,
    ElementDetails,
    ElementMatches,
    ExportedFile,
    History,
    HistoryStep,
    Improvement,
    InstructionEcho,
    LayoutMetrics,
    OpenedDocument,
    OutlinePage,
    Suggestions,
)
from mcp_server.store import DocumentStore, OpenDocument
from mcp_server.workspace import Workspace

#: Largest ``max_size`` of a preview (Claude's recommended image edge).
MAX_PREVIEW = 1568

DocId = Annotated[str, Field(description="Id returned by open_document.")]
Revision = Annotated[int | None, Field(
    description="Revision you last saw; the edit is refused if the document moved on.")]
Ids = Annotated[list[str], Field(min_length=1, max_length=1000, description="Element ids.")]
Edits = Annotated[
    list[dict[str, Any]],
    WithJsonSchema({"type": "array", "minItems": 1, "maxItems": editing.MAX_EDITS, "items": action_json_schema(),
                    "description": "Edit actions, applied in order, all or nothing."}),
]
Overlay = Literal["boxes", "grid", "margins", "findings"]
#: What the model does to replace an existing file.
OVERWRITE_HINT = "pass overwrite=true to replace it or choose another file name"


def _hints(title: str, *, read_only: bool = False, destructive: bool = False,
           idempotent: bool = False) -> dict[str, Any]:
    return {"title": title, "annotations": ToolAnnotations(
        title=title, read_only_hint=read_only, destructive_hint=destructive,
        idempotent_hint=idempotent, open_world_hint=False)}


READ = {"read_only": True, "idempotent": True}


@contextmanager
def tool_errors() -> Iterator[None]:
    """Turn the project's errors, and operating-system errors, into ``ToolError`` results the model can act on."""
    try:
        yield
    except LayoutError as exc:
        raise ToolError(str(exc)) from exc
    except OSError as exc:  # a path the system refuses, a permission, a full disk: the client's to fix
        what = printable(str(exc.filename), one_line=True)[:200] if exc.filename else "a file"
        raise ToolError(f"{what}: {exc.strerror or type(exc).__name__}") from None


class LayoutServer:
    """State shared by the tools of one server: the workspace and the open documents."""

    def __init__(self, workspace: str | Path) -> None:
        self.workspace = Workspace(workspace)
        self.store = DocumentStore()

    @contextmanager
    def doc(self, doc_id: str) -> Iterator[OpenDocument]:
        """The open document, locked for this call, with errors turned into ToolErrors.

        A call waits at most ``MCP_LOCK_WAIT_SECONDS`` for the lock, so no call can
        wait for good behind another.
        """
        with tool_errors():
            entry = self.store.get(doc_id)
            if not entry.lock.acquire(timeout=MCP_LOCK_WAIT_SECONDS):
                raise ToolError(f"{doc_id} is busy with another call that has run for over "
                                f"{MCP_LOCK_WAIT_SECONDS:g} s; try again when it has finished")
            try:
                yield entry
            finally:
                entry.lock.release()

    def info(self, entry: OpenDocument) -> DocumentInfo:
        """The identity and state of an open document."""
        layout = entry.document.layout
        return DocumentInfo(
            doc_id=entry.doc_id, source=entry.label, revision=entry.session.revision,
            element_count=len(layout), canvas=views.canvas_info(layout), instruction=entry.instruction,
        )

    def open(self, path: str | None, svg: str | None) -> OpenDocument:
        """Open a workspace file (``path``) or SVG text (``svg``) as a new document; ``ToolError`` on failure."""
        if (path is None) == (svg is None):
            raise ToolError("pass exactly one of path (a workspace file) or svg (SVG text)")
        with tool_errors():
            if path is not None:
                real, data = self.workspace.read_file(path)
                label = self.workspace.relative(real)
                document = import_svg_text(data, source=label)
                return self.store.add(Session(document), path=real, label=label)
            document = import_svg_text(svg or "", source="<text>")
            return self.store.add(Session(document), path=None, label="<text>")


def build_server(workspace: str | Path = ".", *, auth: Any = None) -> FastMCP:
    """The MCP app serving ``workspace`` (its only readable and writable folder)."""
    state = LayoutServer(workspace)
    mcp = FastMCP("layout-assistant", instructions=prompts.SERVER_INSTRUCTIONS, version=__version__, auth=auth)
    _document_tools(mcp, state)
    _edit_tools(mcp, state)
    _planning_tools(mcp, state)
    _output_tools(mcp, state)
    _resources(mcp, state)
    _prompts(mcp)
    return mcp


def _document_tools(mcp: FastMCP, state: LayoutServer) -> None:
    @mcp.tool(**_hints("Open document"))
    async def open_document(
        path: Annotated[str | None, Field(description="SVG file, relative to the workspace.")] = None,
        svg: Annotated[str | None, Field(description="SVG markup, instead of a path.")] = None,
        outline_limit: Annotated[int, Field(ge=0, le=200)] = 20,
    ) -> OpenedDocument:
        """Open an SVG layout (workspace path or SVG text); returns doc_id, revision, canvas and a short outline."""
        entry = await run_bounded(state.open, path, svg, what="opening the document")
        items = views.outline(entry.document.layout, depth=0)
        return OpenedDocument(**state.info(entry).model_dump(), outline=items[:outline_limit],
                              outline_truncated=len(items) > outline_limit)

    @mcp.tool(**_hints("List documents", **READ))
    def list_documents() -> DocumentList:
        """List open documents and the SVG files in the workspace."""
        return DocumentList(documents=[state.info(e) for e in state.store.all()],
                            workspace_svgs=state.workspace.list_files(".svg"))

    @mcp.tool(**_hints("Close document", destructive=True, idempotent=True))
    def close_document(doc_id: DocId) -> ClosedDocument:
        """Close a document, dropping unsaved edits."""
        with tool_errors():
            state.store.close(doc_id)
        return ClosedDocument(closed=doc_id, still_open=[e.doc_id for e in state.store.all()])

    @mcp.tool(**_hints("Get outline", **READ))
    def get_outline(
        doc_id: DocId,
        depth: Annotated[int, Field(ge=0, le=32, description="0: top-level only; 1: and their children; …")] = 0,
        parent_id: Annotated[str | None, Field(description="Only the descendants of this group.")] = None,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        cursor: Annotated[str | None, Field(description="next_cursor of the previous page.")] = None,
    ) -> OutlinePage:
        """Page through the elements (id, kind, role, box, clipped text) in paint order."""
        with state.doc(doc_id) as entry:
            revision = entry.session.revision
            items = views.outline(entry.document.layout, depth=depth, parent_id=parent_id)
            page, nxt = views.paginate(items, revision=revision, limit=limit, cursor=cursor)
            return OutlinePage(doc_id=doc_id, revision=revision, items=page, total=len(items), next_cursor=nxt)

    @mcp.tool(**_hints("Find elements", **READ))
    def find_elements(
        doc_id: DocId,
        role: Role | None = None,
        kind: Kind | None = None,
        text_contains: Annotated[str | None, Field(description="Case-insensitive text search.")] = None,
        region: Annotated[Box | None, Field(description="World box the elements must lie inside.")] = None,
        overlapping: Annotated[bool, Field(description="With region: touching it is enough.")] = False,
        movable_only: Annotated[bool, Field(description="Skip locked elements and backgrounds.")] = False,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
    ) -> ElementMatches:
        """Find elements by role, kind, text or region."""
        with state.doc(doc_id) as entry:
            layout = entry.document.layout
            found = views.find(layout, role=role, kind=kind, text_contains=text_contains, region=region,
                               overlapping=overlapping, movable_only=movable_only)
            return ElementMatches(doc_id=doc_id, revision=entry.session.revision,
                                  elements=[views.outline_item(layout, e) for e in found[:limit]], total=len(found))

    @mcp.tool(**_hints("Inspect elements", **READ))
    def inspect_elements(doc_id: DocId, ids: Ids) -> ElementDetails:
        """Full properties of elements: box, role, text, font, fill, z, group, children, locked."""
        with state.doc(doc_id) as entry:
            layout = entry.document.layout
            return ElementDetails(doc_id=doc_id, revision=entry.session.revision,
                                  elements=[layout.get(i) for i in ids])

    @mcp.tool(**_hints("Get layout metrics", **READ))
    async def get_layout_metrics(
        doc_id: DocId,
        scope: Annotated[list[str] | None, Field(description="Only findings touching these element ids.")] = None,
        checks: Annotated[list[str] | None, Field(description="Metric names to compute (default: all).")] = None,
        max_findings: Annotated[int, Field(ge=0, le=200)] = 20,
    ) -> LayoutMetrics:
        """Design-quality scores in [0, 1] (composite and each metric) and findings with a suggested edit each."""
        def measure() -> LayoutMetrics:
            with state.doc(doc_id) as entry:
                if scope:
                    for i in scope:
                        entry.document.layout.get(i)
                report = (editing.evaluate_layout(entry, entry.document.layout, checks) if checks
                          else editing.current_report(entry))
                found = views.findings_for(report, scope)
                return LayoutMetrics(doc_id=doc_id, revision=entry.session.revision,
                                     composite=round(report.composite, 4), metrics=views.scores(report),
                                     findings=found[:max_findings], findings_total=len(found))

        return await run_bounded(measure, what="measuring the layout")


def _edit_tools(mcp: FastMCP, state: LayoutServer) -> None:
    def edit(doc_id: str, edits: list[dict[str, Any]], expected_revision: int | None, dry_run: bool = False):
        with state.doc(doc_id) as entry:
            return editing.apply_edits(entry, edits, expected_revision=expected_revision, dry_run=dry_run)

    @mcp.tool(**_hints("Apply edits"))
    def apply_edits(
        doc_id: DocId, edits: Edits, expected_revision: Revision = None,
        dry_run: Annotated[bool, Field(description="Report the effect without changing anything.")] = False,
    ) -> EditOutcome:
        """Apply a batch of typed edits atomically as one undo step; returns changed boxes and the metric delta."""
        return edit(doc_id, edits, expected_revision, dry_run)

    @mcp.tool(**_hints("Move elements"))
    def move_elements(
        doc_id: DocId, ids: Ids,
        dx: Annotated[float, Field(description="World units, + is right.")] = 0.0,
        dy: Annotated[float, Field(description="World units, + is down.")] = 0.0,
        expected_revision: Revision = None,
    ) -> EditOutcome:
        """Move elements by (dx, dy) world units."""
        return edit(doc_id, [{"type": "move", "ids": ids, "dx": float(dx), "dy": float(dy)}], expected_revision)

    @mcp.tool(**_hints("Align elements"))
    def align_elements(
        doc_id: DocId, ids: Ids,
        edge: Literal["left", "right", "top", "bottom", "center_x", "center_y", "baseline"],
        to: Literal["each_other", "canvas", "margins", "element"] = "each_other",
        target_id: Annotated[str | None, Field(description="Element to align to when to='element'.")] = None,
        expected_revision: Revision = None,
    ) -> EditOutcome:
        """Align edges, centres or baselines to each other, the canvas, the margins or one element."""
        action: dict[str, Any] = {"type": "align", "ids": ids, "edge": edge, "to": to}
        if target_id is not None:
            action["target_id"] = target_id
        return edit(doc_id, [action], expected_revision)

    @mcp.tool(**_hints("Distribute elements"))
    def distribute_elements(
        doc_id: DocId,
        ids: Annotated[list[str], Field(min_length=2, max_length=1000, description="Element ids (at least 2).")],
        axis: Literal["horizontal", "vertical"],
        mode: Literal["gaps", "centers"] = "gaps",
        gap: Annotated[float | None, Field(ge=0, description="Fixed gap in world units.")] = None,
        expected_revision: Revision = None,
    ) -> EditOutcome:
        """Space elements evenly along an axis (equal gaps or equal centre spacing)."""
        action: dict[str, Any] = {"type": "distribute", "ids": ids, "axis": axis, "mode": mode}
        if gap is not None:
            action["gap"] = float(gap)
        return edit(doc_id, [action], expected_revision)

    @mcp.tool(**_hints("Undo"))
    def undo(doc_id: DocId) -> HistoryStep:
        """Undo the last edit call (all edits of one apply_edits together)."""
        with state.doc(doc_id) as entry:
            return editing.step_history(entry, "undo")

    @mcp.tool(**_hints("Redo"))
    def redo(doc_id: DocId) -> HistoryStep:
        """Redo the last undone edit call."""
        with state.doc(doc_id) as entry:
            return editing.step_history(entry, "redo")

    @mcp.tool(**_hints("Get history", **READ))
    def get_history(doc_id: DocId) -> History:
        """Every edit call, undo and redo of a document, oldest first, with the undo and redo depths."""
        with state.doc(doc_id) as entry:
            return editing.history(entry)


def _planning_tools(mcp: FastMCP, state: LayoutServer) -> None:
    @mcp.tool(**_hints("Set instruction", idempotent=True))
    def set_instruction(
        doc_id: DocId,
        brief: Annotated[str, Field(max_length=2000, description="Plain-language brief; empty clears it.")],
    ) -> InstructionEcho:
        """Turn a plain-language brief into constraints scored as instruction_fit; echoes what was understood."""
        with state.doc(doc_id) as entry:
            return editing.set_instruction(entry, brief)

    @mcp.tool(**_hints("Suggest edits", **READ))
    def suggest_edits(
        doc_id: DocId,
        goal: Annotated[str | None, Field(max_length=2000, description="Optional brief for this ranking.")] = None,
        engine: Literal["heuristic", "local"] = "heuristic",
        max_suggestions: Annotated[int, Field(ge=1, le=20)] = 5,
    ) -> Suggestions:
        """Rank candidate edits by predicted composite gain without applying them."""
        with state.doc(doc_id) as entry:
            found = editing.suggest(entry, goal=goal, engine=engine, max_suggestions=max_suggestions)
            return Suggestions(doc_id=doc_id, revision=entry.session.revision, engine=engine,
                               composite=round(editing.current_report(entry).composite, 4), suggestions=found)

    @mcp.tool(**_hints("Improve layout"))
    async def improve_layout(
        doc_id: DocId, ctx: Context,
        planner: Annotated[str, Field(description="Registered planner: heuristic, local, …")] = "heuristic",
        max_steps: Annotated[int, Field(ge=1, le=100)] = 10,
        time_budget_s: Annotated[float, Field(gt=0, le=300)] = 30.0,
        expected_revision: Revision = None,
    ) -> Improvement:
        """Run a planner for up to max_steps edits (one undo step); returns before/after metrics and the edits."""
        with tool_errors():
            entry = state.store.get(doc_id)
        run = editing.PlannerRun(entry, planner=planner, max_steps=max_steps, time_budget=time_budget_s,
                                 expected_revision=expected_revision)
        reported = 0
        with tool_errors():
            await asyncio.to_thread(run.start)
            while not run.done:
                await asyncio.to_thread(run.step)
                if len(run.steps) > reported:  # progress must strictly increase
                    reported = len(run.steps)
                    await ctx.report_progress(progress=reported, total=max_steps,
                                              message=f"edit {reported}: composite {run.composite:.3f}")
            if reported < max_steps:
                await ctx.report_progress(progress=max_steps, total=max_steps, message=f"stopped: {run.stopped}")
            return await asyncio.to_thread(run.finish)


def _output_tools(mcp: FastMCP, state: LayoutServer) -> None:
    formats = tuple(supported_formats())  # the registry's formats when the server is built
    @mcp.tool(**_hints("Render preview", **READ))
    async def render_preview(
        doc_id: DocId,
        ids: Annotated[list[str] | None, Field(description="Crop to these elements.")] = None,
        region: Annotated[Box | None, Field(description="Crop to this world box.")] = None,
        max_size: Annotated[int, Field(ge=64, le=MAX_PREVIEW, description="Longest image edge in px.")] = 1024,
        overlays: Annotated[list[Overlay], Field(description="Drawn on top of the render.")] = ("boxes",),
    ) -> ToolResult:
        """A PNG preview the model can see (under 1 MB), optionally cropped and with overlays."""
        def render() -> tuple[bytes, str]:
            with state.doc(doc_id) as entry:
                return preview_png(entry, ids=ids, region=region, max_size=max_size, overlays=overlays)

        png, caption = await run_bounded(render, what="rendering the preview")
        return ToolResult(content=[caption, Image(data=png, format="png")])

    def export_document(
        doc_id: DocId,
        path: Annotated[str, Field(description="Output file, relative to the workspace.")],
        format: str | None = None,  # one of the registry's formats (annotated below)
        overwrite: Annotated[bool, Field(description="Replace an existing file.")] = False,
        width: Annotated[int | None, Field(ge=16, le=16384, description="PNG width in px.")] = None,
    ) -> ExportedFile:
        """Write the document as SVG, PNG or PDF to a workspace path (never overwrites unless overwrite=true)."""
        with state.doc(doc_id) as entry:
            fmt = format
            if fmt is None:
                try:
                    fmt = format_for_path(path)
                except LayoutError:
                    raise ToolError(f"cannot tell the format of {path!r}; pass format as one of "
                                    f"{', '.join(repr(f) for f in formats)}") from None
            target = state.workspace.target(path)
            data = export(entry.document, fmt, width=width)
            write_output(target, data, overwrite=overwrite, label=state.workspace.relative(target),
                         overwrite_hint=OVERWRITE_HINT)
            return ExportedFile(doc_id=doc_id, path=state.workspace.relative(target), format=fmt,
                                bytes=len(data), sha256=hashlib.sha256(data).hexdigest())

    export_document.__annotations__["format"] = Literal[formats] | None  # type: ignore[valid-type]
    mcp.tool(**_hints("Export document", destructive=True, idempotent=True))(export_document)

    @mcp.tool(**_hints("Save document", destructive=True, idempotent=True))
    def save_document(
        doc_id: DocId,
        path: Annotated[str | None, Field(description="Workspace path; default: the file it was opened from.")] = None,
        overwrite: Annotated[bool, Field(description="Replace an existing file (a .bak copy is kept).")] = False,
    ) -> ExportedFile:
        """Save the edited SVG to its own file or a new workspace path (keeps a .bak when replacing)."""
        with state.doc(doc_id) as entry:
            if path is None and entry.path is None:
                raise ToolError(f"{doc_id} was opened from SVG text; pass a path to save it to")
            name = path if path is not None else str(entry.path)
            target = state.workspace.target(name)
            data = export(entry.document, "svg")
            write_output(target, data, overwrite=overwrite, backup=True, label=state.workspace.relative(target),
                         overwrite_hint=OVERWRITE_HINT)
            return ExportedFile(doc_id=doc_id, path=state.workspace.relative(target), format="svg",
                                bytes=len(data), sha256=hashlib.sha256(data).hexdigest())


def _resources(mcp: FastMCP, state: LayoutServer) -> None:
    @mcp.resource("layout://documents", mime_type="application/json", title="Open documents")
    def documents_resource() -> str:
        """The open documents (id, source, revision, canvas)."""
        return DocumentList(documents=[state.info(e) for e in state.store.all()],
                            workspace_svgs=state.workspace.list_files(".svg")).model_dump_json()

    @mcp.resource("layout://{doc_id}/svg", mime_type="image/svg+xml", title="Document SVG")
    def svg_resource(doc_id: str) -> str:
        """The document's current SVG."""
        with state.doc(doc_id) as entry:
            return export(entry.document, "svg").decode("utf-8")

    @mcp.resource("layout://{doc_id}/metrics", mime_type="application/json", title="Document metrics")
    def metrics_resource(doc_id: str) -> str:
        """The document's current metric scores and findings."""
        with state.doc(doc_id) as entry:
            report = editing.current_report(entry)
            found = views.findings_for(report)
            return LayoutMetrics(doc_id=doc_id, revision=entry.session.revision,
                                 composite=round(report.composite, 4), metrics=views.scores(report),
                                 findings=found[:50], findings_total=len(found)).model_dump_json()

    @mcp.resource("layout://{doc_id}/preview.png", mime_type="image/png", title="Document preview")
    def preview_resource(doc_id: str) -> bytes:
        """A 1024 px PNG preview of the document."""
        with state.doc(doc_id) as entry:
            png, _ = preview_png(entry, ids=None, region=None, max_size=1024, overlays=[])
            return png


def _prompts(mcp: FastMCP) -> None:
    mcp.prompt(name="polish_layout", title="Polish a layout")(prompts.polish_layout)
    mcp.prompt(name="fix_hierarchy", title="Fix the visual hierarchy")(prompts.fix_hierarchy)
    mcp.prompt(name="prepare_for_print", title="Prepare for print")(prompts.prepare_for_print)


__all__ = ["build_server", "LayoutServer", "tool_errors", "MAX_PREVIEW"]
