"""Compact views of a document for the model: outline pages, searches, metric summaries.

Pure functions of a ``Document`` / ``Layout`` / ``MetricReport``; the tools in
:mod:`mcp_server.server` call them and return the models of
:mod:`mcp_server.results`.

Outline order is paint order filtered to the requested depth, so pages are
stable for one revision. A cursor is the offset of the next item, written as
``"<revision>:<offset>"`` so a cursor from an older revision is refused
instead of silently skipping or repeating elements.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from assistant.document import Element, Layout
from assistant.errors import LayoutError
from assistant.geometry import Box
from assistant.metrics import Finding, MetricReport
from mcp_server.results import CanvasInfo, FindingInfo, OutlineItem

#: Longest text shown in an outline item.
TEXT_CLIP = 60


class ViewError(LayoutError):
    """A bad cursor, region or filter in a read-only request."""


def clip(text: str | None, limit: int = TEXT_CLIP) -> str | None:
    """``text`` with its white space collapsed, cut to ``limit`` characters with an ellipsis."""
    if text is None:
        return None
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def canvas_info(layout: Layout) -> CanvasInfo:
    """The canvas of ``layout`` as the tools report it."""
    c = layout.canvas
    return CanvasInfo(width=c.width, height=c.height, units=c.units, px_per_unit=c.px_per_unit,
                      safe_box=c.safe_box)


def depth_of(layout: Layout, element: Element) -> int:
    """How deep ``element`` is nested in groups (0 at the top level)."""
    depth, parent = 0, element.group
    while parent is not None and depth < 64:
        depth += 1
        parent = layout.get(parent).group if parent in layout else None
    return depth


def rounded(box: Box, digits: int = 2) -> Box:
    """``box`` with coordinates rounded (outlines need no more precision; inspect_elements is exact)."""
    return Box(x=round(box.x, digits), y=round(box.y, digits),
               width=round(box.width, digits), height=round(box.height, digits))


def outline_item(layout: Layout, element: Element, depth: int | None = None) -> OutlineItem:
    """``element`` as one compact outline line."""
    return OutlineItem(
        id=element.id, kind=element.kind, role=element.role, box=rounded(element.box),
        depth=depth_of(layout, element) if depth is None else depth,
        text=clip(element.text), children=len(element.children), locked=element.locked,
    )


def outline(layout: Layout, *, depth: int = 0, parent_id: str | None = None) -> list[OutlineItem]:
    """Elements down to ``depth`` (0 = top level) in paint order, optionally under ``parent_id``."""
    if parent_id is not None:
        base = depth_of(layout, layout.get(parent_id)) + 1
        allowed = {e.id for e in layout.descendants_of(parent_id)}
    else:
        base, allowed = 0, None
    out = []
    for e in layout.elements:
        if allowed is not None and e.id not in allowed:
            continue
        d = depth_of(layout, e)
        if d - base <= depth:
            out.append(outline_item(layout, e, d))
    return out


def paginate(items: list[Any], *, revision: int, limit: int, cursor: str | None) -> tuple[list[Any], str | None]:
    """One page of ``items`` and the cursor of the next page (None on the last)."""
    offset = 0
    if cursor:
        rev, _, off = cursor.partition(":")
        if not (rev.isdigit() and off.isdigit()):
            raise ViewError(f"cursor {cursor!r} is malformed; pass the next_cursor of a previous page")
        if int(rev) != revision:
            raise ViewError(
                f"cursor {cursor!r} belongs to revision {rev}, the document is at revision {revision}; "
                "start again without a cursor"
            )
        offset = int(off)
    page = items[offset: offset + limit]
    nxt = offset + limit
    return page, (f"{revision}:{nxt}" if nxt < len(items) else None)


def inside(box: Box, region: Box) -> bool:
    """True when ``box`` lies within ``region`` (edges included, 1e-6 tolerance)."""
    eps = 1e-6
    return (box.x >= region.x - eps and box.y >= region.y - eps
            and box.x2 <= region.x2 + eps and box.y2 <= region.y2 + eps)


def find(
    layout: Layout, *, role: str | None = None, kind: str | None = None, text_contains: str | None = None,
    region: Box | None = None, overlapping: bool = False, movable_only: bool = False,
) -> list[Element]:
    """Elements matching every given filter, in paint order.

    ``region`` keeps elements inside it (or touching it with ``overlapping``);
    ``text_contains`` is case-insensitive; ``movable_only`` drops locked
    elements and backgrounds.
    """
    needle = text_contains.casefold() if text_contains else None
    out = []
    for e in layout.elements:
        if role is not None and e.role != role:
            continue
        if kind is not None and e.kind != kind:
            continue
        if needle is not None and needle not in (e.text or "").casefold():
            continue
        if region is not None:
            hit = e.box.intersection(region) if overlapping else None
            if overlapping and (hit is None or hit.width * hit.height <= 0):
                continue
            if not overlapping and not inside(e.box, region):
                continue
        if movable_only and (e.locked or e.role == "background"):
            continue
        out.append(e)
    return out


def finding_info(f: Finding) -> FindingInfo:
    """A metric finding as the tools report it."""
    return FindingInfo(metric=f.metric, element_ids=list(f.element_ids), message=f.message,
                       severity=f.severity, suggestion=f.suggestion)


def findings_for(report: MetricReport, scope: Iterable[str] | None = None) -> list[FindingInfo]:
    """The report's findings, most severe first, optionally only those touching ``scope`` ids."""
    wanted = set(scope) if scope else None
    out = []
    for f in report.findings():
        if wanted is not None and not wanted.intersection(f.element_ids):
            continue
        out.append(finding_info(f))
    return out


def scores(report: MetricReport) -> dict[str, float]:
    """Each metric's score, rounded to 4 places."""
    return {name: round(float(m.score), 4) for name, m in report.metrics.items()}


def metric_delta(before: MetricReport, after: MetricReport, threshold: float = 5e-4) -> dict[str, float]:
    """``after − before`` for each metric that moved by more than ``threshold``."""
    out = {}
    for name, m in after.metrics.items():
        old = before.metrics.get(name)
        if old is None:
            continue
        d = float(m.score) - float(old.score)
        if abs(d) > threshold:
            out[name] = round(d, 4)
    return out
