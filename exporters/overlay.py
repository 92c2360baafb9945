"""The render with the layout drawn on top: element boxes, ids, roles, grid, margins, findings.

The page (or a world-space ``region`` of it) is rendered with
``exporters.raster``; an overlay SVG in the same world coordinates is made
with svgwrite, rendered transparent by cairosvg and alpha-composited on the
page with Pillow. Overlays:

``boxes``     every element's box in its role's colour (groups dashed), with an
              ``id · role`` label on a white tab (labels measured with real font
              metrics, kept inside the picture); backgrounds are not drawn and
              decorations not labelled unless ``ids`` names them;
``grid``      a 12-column grid over the safe area (``columns`` to change it);
``margins``   the safe area's edge, the margin band shaded;
``findings``  the elements named by metric findings outlined in red, each with
              a numbered badge and its message.

The longest side is at most ``max_size`` px and the PNG is palette-quantized
when it would exceed ``max_bytes``, so it stays small enough to show to a
language model.
"""

from __future__ import annotations

import io
from typing import Any, Iterable, Sequence

import svgwrite
from cairosvg.surface import PNGSurface
from PIL import Image

from assistant.errors import ExportError
from assistant.fonts import text_advance
from assistant.geometry import Box
from exporters.raster import data_only_fetcher, render_png

#: Box colour per role (colour-blind-friendly hues, Okabe–Ito where possible).
ROLE_COLOURS: dict[str, str] = {
    "title": "#d55e00", "subtitle": "#e69f00", "body": "#0072b2", "caption": "#56b4e9",
    "cta": "#cc0066", "logo": "#009e73", "image": "#7a5195", "badge": "#b8860b",
    "background": "#7f7f7f", "decoration": "#a0a0a0",
}
OVERLAYS = ("boxes", "grid", "margins", "findings")
LABEL_PX = 11.0
LABEL_FONT = "DejaVu Sans, sans-serif"


def _finding_fields(f: Any) -> tuple[list[str], str, str]:
    if isinstance(f, dict):
        return list(f.get("element_ids") or []), str(f.get("message", "")), str(f.get("severity", ""))
    return list(getattr(f, "element_ids", []) or []), str(getattr(f, "message", "")), str(getattr(f, "severity", ""))


class _Painter:
    """Draws overlay shapes in world units with sizes given in output pixels."""

    def __init__(self, view: Box, width: int, height: int) -> None:
        self.view = view
        #: Label size in px: 11 px at 1024 px and more, down to 8 px on small outputs.
        self.label_px = min(LABEL_PX, max(8.0, LABEL_PX * max(width, height) / 1024))
        self.k = width / view.width  # px per world unit
        self.dwg = svgwrite.Drawing(size=(f"{width}px", f"{height}px"), profile="full", debug=False)
        self.dwg.viewbox(view.x, view.y, view.width, view.height)
        self.dwg.attribs["preserveAspectRatio"] = "none"
        self.tabs: list[Box] = []

    def px(self, v: float) -> float:
        return v / self.k

    def rect(self, box: Box, colour: str, width_px: float = 2.0, dash: bool = False,
             fill: str = "none", fill_opacity: float = 0.0) -> None:
        r = self.dwg.rect(insert=(box.x, box.y), size=(max(box.width, 0.0), max(box.height, 0.0)),
                          fill=fill, stroke=colour, stroke_width=self.px(width_px))
        if fill != "none":
            r["fill-opacity"] = fill_opacity
        if dash:
            r["stroke-dasharray"] = f"{self.px(6)},{self.px(4)}"
        self.dwg.add(r)

    def label(self, text: str, x: float, y: float, colour: str, size_px: float | None = None,
              max_px: float = 360.0, alternatives: Sequence[tuple[float, float]] = ()) -> None:
        """A text tab at world ``(x, y)`` (top-left), kept inside the view.

        ``alternatives`` are further top-left corners to try, in order, when
        the tab would cover a tab already placed; the first free one wins.
        """
        size_px = size_px or self.label_px
        while text and text_advance(text, LABEL_FONT, size_px) > max_px:
            text = text[:-2] + "…" if len(text) > 2 else ""
        w = self.px(text_advance(text, LABEL_FONT, size_px) + 6)
        h = self.px(size_px + 5)
        spots = []
        for cx, cy in [(x, y), *alternatives]:
            cx = min(max(cx, self.view.x), self.view.x + self.view.width - w)
            cy = min(max(cy, self.view.y), self.view.y + self.view.height - h)
            spots.append(Box(x=cx, y=cy, width=w, height=h))
        tab = next((b for b in spots if not any(b.intersection(o) for o in self.tabs)), spots[0])
        self.tabs.append(tab)
        x, y = tab.x, tab.y
        self.dwg.add(self.dwg.rect(insert=(x, y), size=(w, h), fill="#ffffff", fill_opacity=0.85,
                                   stroke=colour, stroke_width=self.px(1)))
        t = self.dwg.text(text, insert=(x + self.px(3), y + self.px(size_px + 1)), fill=colour,
                          font_size=self.px(size_px), font_family=LABEL_FONT)
        t["font-weight"] = "bold"
        self.dwg.add(t)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str, width_px: float = 1.0,
             opacity: float = 1.0) -> None:
        self.dwg.add(self.dwg.line((x1, y1), (x2, y2), stroke=colour, stroke_width=self.px(width_px),
                                   stroke_opacity=opacity))

    def png(self, width: int, height: int) -> Image.Image:
        data = PNGSurface.convert(bytestring=self.dwg.tostring().encode(), url_fetcher=data_only_fetcher,
                                  unsafe=False, output_width=width, output_height=height)
        return Image.open(io.BytesIO(data)).convert("RGBA")


def _draw_boxes(p: _Painter, layout: Any, ids: set[str] | None) -> None:
    for e in layout.elements:
        if ids is not None and e.id not in ids:
            continue
        if ids is None and e.role == "background":
            continue
        colour = ROLE_COLOURS.get(e.role, "#333333")
        p.rect(e.box, colour, 1.5 if e.kind == "group" else 2.0, dash=e.kind == "group")
    for e in layout.elements:
        if ids is not None and e.id not in ids or ids is None and e.role in ("background", "decoration"):
            continue  # unlabelled unless asked for: they would bury the labels that matter
        colour = ROLE_COLOURS.get(e.role, "#333333")
        tab_h = p.px(p.label_px + 6)
        above = e.box.y - tab_h
        y = above if above >= p.view.y else e.box.y
        p.label(f"{e.id} · {e.role}", e.box.x, y, colour,
                alternatives=[(e.box.x, e.box.y), (e.box.x2 - p.px(120), above), (e.box.x, e.box.y2 + p.px(1)),
                              (e.box.x2 - p.px(120), e.box.y2 - tab_h)])


def _draw_grid(p: _Painter, layout: Any, columns: int) -> None:
    safe = layout.canvas.safe_box
    if safe.width <= 0:
        return
    step = safe.width / columns
    for i in range(columns + 1):
        x = safe.x + i * step
        p.line(x, safe.y, x, safe.y2, "#00a0ff", 1.0, 0.6)
    if columns > 1:
        shade = [Box(x=safe.x + i * step, y=safe.y, width=step, height=safe.height) for i in range(0, columns, 2)]
        for b in shade:
            p.rect(b, "none", 0.0, fill="#00a0ff", fill_opacity=0.06)


def _draw_margins(p: _Painter, layout: Any) -> None:
    c, s = layout.canvas.box, layout.canvas.safe_box
    bands = [Box.from_edges(c.x, c.y, c.x2, s.y), Box.from_edges(c.x, s.y2, c.x2, c.y2),
             Box.from_edges(c.x, s.y, s.x, s.y2), Box.from_edges(s.x2, s.y, c.x2, s.y2)]
    for b in bands:
        if b.width > 0 and b.height > 0:
            p.rect(b, "none", 0.0, fill="#ff00aa", fill_opacity=0.10)
    p.rect(s, "#ff00aa", 1.5, dash=True)


def _draw_findings(p: _Painter, layout: Any, findings: Iterable[Any]) -> None:
    for n, f in enumerate(findings, start=1):
        ids, message, severity = _finding_fields(f)
        boxes = [layout.get(i).box for i in ids if i in layout]
        if not boxes:
            continue
        colour = "#e00000" if severity != "info" else "#ff8c00"
        for b in boxes:
            p.rect(b, colour, 3.0)
        first = boxes[0]
        p.label(f"{n}. {message}", first.x, first.y2 + p.px(2), colour, max_px=420.0)


def _fit(view: Box, max_size: int) -> tuple[int, int]:
    k = max_size / max(view.width, view.height)
    return max(1, round(view.width * k)), max(1, round(view.height * k))


def encode_png(image: Image.Image, max_bytes: int = 900_000) -> bytes:
    """PNG bytes of ``image``; palette-quantized when the full-colour file is larger than ``max_bytes``."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    if buf.tell() <= max_bytes:
        return buf.getvalue()
    buf = io.BytesIO()
    image.convert("RGBA").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(buf, format="PNG",
                                                                                       optimize=True)
    return buf.getvalue()


def render_overlay_png(doc: Any, *, overlays: Sequence[str] = ("boxes",), ids: Iterable[str] | None = None,
                       region: Box | None = None, max_size: int = 1024, findings: Iterable[Any] | None = None,
                       columns: int = 12, max_bytes: int = 900_000) -> bytes:
    """PNG of ``doc`` with the chosen overlays drawn on top (see the module docstring)."""
    unknown = [o for o in overlays if o not in OVERLAYS]
    if unknown:
        raise ExportError(f"unknown overlay {unknown[0]!r}; choose from {', '.join(OVERLAYS)}")
    if not 16 <= int(max_size) <= 8192:
        raise ExportError(f"max_size must be between 16 and 8192 px, not {max_size}")
    layout = doc.layout
    view = region if region is not None else layout.canvas.box
    if view.width <= 0 or view.height <= 0:
        raise ExportError(f"{doc.source}: the region to show is empty ({view!r})")
    width, height = _fit(view, int(max_size))
    base = Image.open(io.BytesIO(render_png(doc, region=view, width=width, height=height,
                                            background="white"))).convert("RGBA")
    width, height = base.size
    painter = _Painter(view, width, height)
    id_set = set(ids) if ids is not None else None
    if id_set is not None:
        for i in id_set:
            layout.get(i)  # unknown ids: InvalidAction naming the id
    if "margins" in overlays:
        _draw_margins(painter, layout)
    if "grid" in overlays:
        _draw_grid(painter, layout, max(1, int(columns)))
    if "boxes" in overlays:
        _draw_boxes(painter, layout, id_set)
    if "findings" in overlays and findings:
        _draw_findings(painter, layout, list(findings))
    out = Image.alpha_composite(base, painter.png(width, height))
    return encode_png(out.convert("RGB"), max_bytes)
