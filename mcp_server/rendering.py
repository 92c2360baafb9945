"""Previews and exports for the MCP tools.

A preview must reach the model intact: Claude refuses tool results over
1 MB, so ``preview_png`` shrinks the image (by ×0.8 steps) until the PNG is
under ``MAX_PREVIEW_BYTES``. Crops (``ids`` or ``region``) are in world units;
the caption tells the model how image pixels map back to world units.
"""

from __future__ import annotations

import struct

from PIL import Image

from assistant.document import Layout
from assistant.errors import ExportError
from assistant.geometry import Box
from assistant.render.overlay import draw_overlays, encode_png, render_base
from mcp_server.editing import current_report
from mcp_server.store import OpenDocument

#: Largest preview PNG returned to the client (bytes), under Claude's 1 MB limit.
MAX_PREVIEW_BYTES = 900_000
#: Page renders kept per open document for previews (each at most 1568² RGB pixels, ~7 MB).
RENDER_CACHE_SIZE = 2


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 24:
        raise ExportError("renderer did not return a PNG")
    return struct.unpack(">II", png[16:24])


def crop_box(layout: Layout, ids: list[str]) -> Box:
    """The union of the elements' boxes plus a margin of 4 % of the canvas's shorter side, kept on the canvas."""
    union = Box.union_all(layout.get(i).box for i in ids)
    canvas = layout.canvas.box
    pad = 0.04 * min(canvas.width, canvas.height)
    padded = Box.from_edges(union.x - pad, union.y - pad, union.x2 + pad, union.y2 + pad)
    return padded.intersection(canvas) or padded


def base_image(entry: OpenDocument, region: Box | None, max_size: int) -> Image.Image:
    """The page render (no overlays) of the document as it is now, kept per (version, view, size).

    ``OpenDocument.touch`` empties the cache on every change, so a hit is
    always the current state; only the last ``RENDER_CACHE_SIZE`` renders are kept.
    """
    document = entry.document
    view = region if region is not None else document.layout.canvas.box
    key = (entry.version, entry.session.revision, id(document), view.x, view.y, view.width, view.height, max_size)
    cache = entry.render_cache
    image = cache.get(key)
    if image is None:
        image = render_base(document, region=region, max_size=max_size)
        while len(cache) >= RENDER_CACHE_SIZE:
            cache.pop(next(iter(cache)))
        cache[key] = image
    return image.copy()


def preview_png(entry: OpenDocument, *, ids: list[str] | None, region: Box | None, max_size: int,
                overlays: list[str]) -> tuple[bytes, str]:
    """A PNG of the document (cropped, with overlays) under ``MAX_PREVIEW_BYTES``, and its caption."""
    document = entry.document
    layout = document.layout
    if ids and region is None:
        region = crop_box(layout, ids)
    findings = current_report(entry).findings() if "findings" in overlays else None
    size = max_size
    while True:
        image = draw_overlays(base_image(entry, region, size), document, overlays=tuple(overlays),
                              ids=ids or None, region=region, findings=findings)
        png = encode_png(image, MAX_PREVIEW_BYTES)
        if len(png) <= MAX_PREVIEW_BYTES or size <= 64:
            break
        size = max(64, int(size * 0.8))
    w, h = png_size(png)
    view = region if region is not None else layout.canvas.box
    scale = view.width / w if w else 1.0
    caption = (
        f"{entry.doc_id} at revision {entry.session.revision}: {w}×{h} px showing world box "
        f"x={view.x:.1f} y={view.y:.1f} w={view.width:.1f} h={view.height:.1f} "
        f"(≈{scale:.3f} world units per px). Overlays: {', '.join(overlays) or 'none'}."
    )
    return png, caption
