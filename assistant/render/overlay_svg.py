"""The layout with its overlays as an SVG a designer can open in Inkscape and toggle.

``render_overlay_svg`` writes a standalone SVG with svgwrite. Its root has the
document's viewBox (world space, ``doc.layout.canvas``) and the page's size in
the page's own unit (the viewBox size times ``px_per_unit``, written in
``canvas.units``; CSS px when that unit is relative). Inside, one Inkscape
layer per part (``<g inkscape:groupmode="layer" inkscape:label=…>``, the way
Inkscape marks layers, so its Layers panel lists them and each can be hidden):

``layout``    the document itself, locked (``sodipodi:insensitive``): an
              ``<image>`` whose href is a ``data:image/svg+xml;base64,`` URI of
              the SVG that ``assistant.render.raster`` renders (the kept tree with
              flowed and SVG 2 wrapped text turned into positioned ``<text>`` by
              ``assistant.render.textconvert.flatten_wrapped_text``, so the text shows
              in every viewer), its viewBox set to the canvas so world units
              line up exactly;
``margins``   the margin bands shaded and the safe area's edge dashed;
``grid``      ``columns`` (12) columns over the safe area, every other one shaded;
``boxes``     each element's box (``<rect>`` carrying ``data-element-id`` and
              ``data-role``) in its role's colour from
              ``assistant.render.overlay.ROLE_COLOURS`` (groups dashed), then an
              ``id · role`` label (``<text>`` on a white tab) per element;
              backgrounds are left out and decorations unlabelled unless
              ``ids`` names them — the same choices as the PNG overlay;
``findings``  one ``<g>`` per metric finding whose elements exist: their boxes
              outlined in red (orange for ``info``), the finding's message in
              the group's ``<title>`` (a tooltip) and a numbered label.

Sizes of strokes and labels are given in "overlay px": 1/1024 of the page's
longest side, so the SVG looks like the 1024 px PNG overlay at any zoom-out.
Output is deterministic (numbers rounded to 3 decimals, no generated ids).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterable, Sequence
from typing import Any

import svgwrite
from svgwrite.extensions import Inkscape

from assistant.document import Canvas, Document, Layout
from assistant.errors import ExportError
from assistant.geometry import Box
from assistant.render.overlay import LABEL_FONT, LABEL_PX, OVERLAYS, ROLE_COLOURS, finding_fields
from assistant.render.raster import render_svg_bytes
from assistant.svg.units import UNIT_PX
from assistant.text.fonts import font_extents, text_advance

#: Page side, in overlay px, that the longest side of the canvas stands for.
REFERENCE_PX = 1024.0
GRID_COLOUR = "#00a0ff"
MARGIN_COLOUR = "#ff00aa"
FINDING_COLOURS = {"info": "#ff8c00", "default": "#e00000"}
_LAYER_LABELS = {"boxes": "Element boxes", "grid": "Grid", "margins": "Margins", "findings": "Findings"}


def _n(v: float) -> float | int:
    r = round(float(v), 3)
    return int(r) if r == int(r) else r


class _Sheet:
    """svgwrite drawing helpers in world units, with sizes given in overlay px."""

    def __init__(self, dwg: svgwrite.Drawing, canvas: Box) -> None:
        self.dwg = dwg
        self.view = canvas
        self.unit = max(canvas.width, canvas.height) / REFERENCE_PX  # world units per overlay px
        self.label_size = LABEL_PX * self.unit
        ascent, descent = font_extents(LABEL_FONT, self.label_size, 700)
        self.ascent, self.descent = ascent, descent
        self.tabs: list[Box] = []  # placed label tabs, to keep later ones off them

    def px(self, v: float) -> float:
        return v * self.unit

    def rect(self, box: Box, colour: str, width_px: float, *, dash: bool = False, fill: str = "none",
             fill_opacity: float = 0.0) -> Any:
        r = self.dwg.rect(insert=(_n(box.x), _n(box.y)), size=(_n(max(box.width, 0.0)), _n(max(box.height, 0.0))))
        r["fill"] = fill
        if fill != "none":
            r["fill-opacity"] = _n(fill_opacity)
        if colour != "none" and width_px > 0:
            r["stroke"] = colour
            r["stroke-width"] = _n(self.px(width_px))
            if dash:
                r["stroke-dasharray"] = f"{_n(self.px(6))} {_n(self.px(4))}"
        else:
            r["stroke"] = "none"
        return r

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str, width_px: float,
             opacity: float = 1.0) -> Any:
        ln = self.dwg.line(start=(_n(x1), _n(y1)), end=(_n(x2), _n(y2)))
        ln["stroke"] = colour
        ln["stroke-width"] = _n(self.px(width_px))
        if opacity < 1.0:
            ln["stroke-opacity"] = _n(opacity)
        return ln

    def label(self, text: str, x: float, y: float, colour: str, *, max_px: float = 360.0,
              alternatives: Sequence[tuple[float, float]] = ()) -> Any:
        """A ``<g>`` with a white tab and ``text`` at world ``(x, y)`` (tab's top-left), kept on the page.

        The tab is sized from the label face's own advances; ``alternatives``
        are further corners tried in order when the tab would cover one
        already placed (the first free one wins).
        """
        size = self.label_size
        while text and text_advance(text, LABEL_FONT, size, 700) > self.px(max_px):
            text = text[:-2] + "…" if len(text) > 2 else ""
        pad = self.px(3)
        w = text_advance(text, LABEL_FONT, size, 700) + 2 * pad
        h = self.ascent + self.descent + 2 * self.px(2)
        spots = []
        for cx, cy in [(x, y), *alternatives]:
            cx = min(max(cx, self.view.x), self.view.x2 - w)
            cy = min(max(cy, self.view.y), self.view.y2 - h)
            spots.append(Box(x=cx, y=cy, width=w, height=h))
        tab = next((b for b in spots if not any(b.intersection(o) is not None for o in self.tabs)), spots[0])
        self.tabs.append(tab)
        g = self.dwg.g()
        bg = self.rect(tab, colour, 1.0, fill="#ffffff", fill_opacity=0.85)
        g.add(bg)
        t = self.dwg.text(text, insert=(_n(tab.x + pad), _n(tab.y + self.px(2) + self.ascent)))
        t["font-family"] = LABEL_FONT
        t["font-size"] = _n(size)
        t["font-weight"] = "bold"
        t["fill"] = colour
        g.add(t)
        return g


def _boxes_layer(sheet: _Sheet, layer: Any, layout: Layout, ids: set[str] | None) -> None:
    rects = sheet.dwg.g()
    rects["class"] = "element-boxes"
    labels = sheet.dwg.g()
    labels["class"] = "element-labels"
    for e in layout.elements:
        if ids is not None and e.id not in ids or ids is None and e.role == "background":
            continue
        colour = ROLE_COLOURS.get(e.role, "#333333")
        r = sheet.rect(e.box, colour, 1.5 if e.kind == "group" else 2.0, dash=e.kind == "group")
        r["data-element-id"] = e.id
        r["data-role"] = e.role
        rects.add(r)
    for e in layout.elements:
        if ids is not None and e.id not in ids or ids is None and e.role in ("background", "decoration"):
            continue  # unlabelled unless asked for: they would bury the labels that matter
        colour = ROLE_COLOURS.get(e.role, "#333333")
        tab_h = sheet.ascent + sheet.descent + sheet.px(5)
        above = e.box.y - tab_h
        y = above if above >= sheet.view.y else e.box.y
        g = sheet.label(f"{e.id} · {e.role}", e.box.x, y, colour,
                        alternatives=[(e.box.x, e.box.y), (e.box.x2 - sheet.px(120), above),
                                      (e.box.x, e.box.y2 + sheet.px(1)),
                                      (e.box.x2 - sheet.px(120), e.box.y2 - tab_h)])
        g["data-element-id"] = e.id
        labels.add(g)
    layer.add(rects)
    layer.add(labels)


def _grid_layer(sheet: _Sheet, layer: Any, safe: Box, columns: int) -> None:
    if safe.width <= 0 or safe.height <= 0:
        return
    step = safe.width / columns
    if columns > 1:
        for i in range(0, columns, 2):
            layer.add(sheet.rect(Box(x=safe.x + i * step, y=safe.y, width=step, height=safe.height), "none", 0.0,
                                 fill=GRID_COLOUR, fill_opacity=0.06))
    for i in range(columns + 1):
        x = safe.x + i * step
        layer.add(sheet.line(x, safe.y, x, safe.y2, GRID_COLOUR, 1.0, 0.6))


def _margins_layer(sheet: _Sheet, layer: Any, page: Box, safe: Box) -> None:
    bands = [Box.from_edges(page.x, page.y, page.x2, safe.y), Box.from_edges(page.x, safe.y2, page.x2, page.y2),
             Box.from_edges(page.x, safe.y, safe.x, safe.y2), Box.from_edges(safe.x2, safe.y, page.x2, safe.y2)]
    for b in bands:
        if b.width > 0 and b.height > 0:
            layer.add(sheet.rect(b, "none", 0.0, fill=MARGIN_COLOUR, fill_opacity=0.10))
    layer.add(sheet.rect(safe, MARGIN_COLOUR, 1.5, dash=True))


def _findings_layer(sheet: _Sheet, layer: Any, layout: Layout, findings: Sequence[Any]) -> None:
    for n, f in enumerate(findings, start=1):
        ids, message, severity = finding_fields(f)
        named = [i for i in ids if i in layout]
        if not named:
            continue
        colour = FINDING_COLOURS.get(severity, FINDING_COLOURS["default"])
        g = sheet.dwg.g()
        g["class"] = "finding"
        g["data-element-ids"] = " ".join(named)
        g.set_desc(title=f"{n}. {message}")
        for i in named:
            r = sheet.rect(layout.get(i).box, colour, 3.0)
            r["data-element-id"] = i
            g.add(r)
        first = layout.get(named[0]).box
        g.add(sheet.label(f"{n}. {message}", first.x, first.y2 + sheet.px(2), colour, max_px=420.0))
        layer.add(g)


def _page_size(canvas: Canvas) -> tuple[str, str]:
    """The page's width and height as SVG lengths in the canvas's unit (CSS px for a relative one)."""
    unit = canvas.units if canvas.units in UNIT_PX and canvas.units else "px"
    k = canvas.px_per_unit / UNIT_PX[unit]
    return f"{_n(canvas.width * k)}{unit}", f"{_n(canvas.height * k)}{unit}"


def base_image_href(doc: Document) -> str:
    """The ``data:image/svg+xml;base64,`` URI of the document as it is rendered, viewBox = the canvas."""
    page = doc.layout.canvas.box
    c = doc.layout.canvas
    size = (max(1, round(page.width * c.px_per_unit)), max(1, round(page.height * c.px_per_unit)))
    data = render_svg_bytes(doc, region=page, size=size)
    return "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")


def render_overlay_svg(doc: Document, *, overlays: Sequence[str] = ("boxes",), ids: Iterable[str] | None = None,
                       findings: Iterable[Any] | None = None, columns: int = 12) -> bytes:
    """A standalone SVG of ``doc`` with the chosen overlays as Inkscape layers (see the module docstring).

    Unknown overlay names raise ``ExportError``; unknown ``ids`` raise
    ``InvalidAction`` naming the id (both before anything is drawn).
    """
    unknown = [o for o in overlays if o not in OVERLAYS]
    if unknown:
        raise ExportError(f"unknown overlay {unknown[0]!r}; choose from {', '.join(OVERLAYS)}")
    layout = doc.layout
    id_set = None
    if ids is not None:
        id_set = set(ids)
        for i in sorted(id_set):
            layout.get(i)  # unknown ids: InvalidAction naming the id
    if int(columns) < 1:
        raise ExportError(f"the grid needs at least one column, not {columns}")
    canvas = layout.canvas
    page = canvas.box
    width, height = _page_size(canvas)
    dwg = svgwrite.Drawing(size=(width, height), profile="full", debug=False)
    dwg.viewbox(_n(page.x), _n(page.y), _n(page.width), _n(page.height))
    inkscape = Inkscape(dwg)
    sheet = _Sheet(dwg, page)

    base = inkscape.layer(label="Layout", locked=True)
    image = dwg.image(href=base_image_href(doc), insert=(_n(page.x), _n(page.y)),
                      size=(_n(page.width), _n(page.height)))
    image.stretch()  # preserveAspectRatio="none": the embedded viewBox is exactly this box
    base.add(image)
    dwg.add(base)
    order = [o for o in ("margins", "grid", "boxes", "findings") if o in overlays]
    for kind in order:
        layer = inkscape.layer(label=_LAYER_LABELS[kind])
        layer["class"] = f"overlay-{kind}"
        if kind == "margins":
            _margins_layer(sheet, layer, page, canvas.safe_box)
        elif kind == "grid":
            _grid_layer(sheet, layer, canvas.safe_box, int(columns))
        elif kind == "boxes":
            _boxes_layer(sheet, layer, layout, id_set)
        elif findings:
            _findings_layer(sheet, layer, layout, list(findings))
        dwg.add(layer)
    buf = io.StringIO()
    dwg.write(buf, pretty=False)
    return buf.getvalue().encode("utf-8")
