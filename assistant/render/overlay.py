"""The render with the layout drawn on top: element boxes, ids, roles, grid, margins, findings.

The page (or a world-space ``region`` of it) is rendered once with
``assistant.render.raster.render_image`` at the output size, and the overlays are
drawn straight onto those pixels with Pillow's ``ImageDraw`` (blending each
shape in paint order, as an SVG overlay composited on top would), labels
set in DejaVu Sans Bold. Overlays:

``boxes``     every element's box in its role's colour (groups dashed), with an
              ``id · role`` label on a white tab (labels measured with the
              label font's own advances, kept inside the picture); backgrounds
              are not drawn and decorations not labelled unless ``ids`` names
              them;
``grid``      a 12-column grid over the safe area (``columns`` to change it);
``margins``   the safe area's edge, the margin band shaded;
``findings``  the elements named by metric findings outlined in red, each with
              a numbered badge and its message.

The longest side is at most ``max_size`` px and the PNG is palette-quantized
when it would exceed ``max_bytes``, so it stays small enough to show to a
language model. ``render_base`` and ``draw_overlays`` are the two halves of
``render_overlay_png``, for callers that keep the page render of an unchanged
document and redraw only the overlays.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from assistant.document import Document, Layout
from assistant.errors import ExportError
from assistant.geometry import Box
from assistant.render.raster import render_image
from assistant.text.fonts import find_face

#: Box colour per role (colour-blind-friendly hues, Okabe–Ito where possible).
ROLE_COLOURS: dict[str, str] = {
    "title": "#d55e00", "subtitle": "#e69f00", "body": "#0072b2", "caption": "#56b4e9",
    "cta": "#cc0066", "logo": "#009e73", "image": "#7a5195", "badge": "#b8860b",
    "background": "#7f7f7f", "decoration": "#a0a0a0",
}
OVERLAYS = ("boxes", "grid", "margins", "findings")
LABEL_PX = 11.0
LABEL_FONT = "DejaVu Sans, sans-serif"
#: PNG zlib level: 3 encodes about a third faster than the default 6 for ~5-10 % more bytes; ``optimize`` costs ~4x.
PNG_COMPRESS_LEVEL = 3
_DASH_PX = (6.0, 4.0)
_FONT_LOCK = threading.Lock()


def finding_fields(f: Any) -> tuple[list[str], str, str]:
    """``(element_ids, message, severity)`` of a ``Finding`` or of its JSON form."""
    get = f.get if isinstance(f, dict) else (lambda k, d=None: getattr(f, k, d))
    return list(get("element_ids") or []), str(get("message", "") or ""), str(get("severity", "") or "")


@lru_cache(maxsize=32)
def label_font(size_px: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The bold label face at ``size_px`` (DejaVu Sans Bold where installed; Pillow's own font otherwise)."""
    face = find_face(LABEL_FONT, 700)
    if face is not None:
        try:
            return ImageFont.truetype(face.path, size_px, index=face.index)
        except OSError:
            pass
    return ImageFont.load_default(size_px)


@lru_cache(maxsize=4096)
def _glyphs(text: str, size_px: float) -> tuple[float, Image.Image, int, int]:
    """A label's advance width (px) and its rendered coverage mask with the mask's offset from the baseline origin.

    Cached: the same ids and roles are labelled on every preview of a document.
    """
    with _FONT_LOCK:  # a FreeType face must not be used by two threads at once
        font = label_font(size_px)
        left, top, right, bottom = font.getbbox(text, anchor="ls") if text else (0, 0, 0, 0)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        if text:
            ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor="ls")
        return font.getlength(text), mask, left, top


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two (x1, y1, x2, y2) boxes share a positive area (as ``Box.intersection``)."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _rgba(colour: str, opacity: float = 1.0) -> tuple[int, int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), max(0, min(255, round(255 * opacity)))


class _Painter:
    """Draws overlay shapes given in world units, with sizes given in output pixels, onto an RGB image."""

    def __init__(self, view: Box, image: Image.Image) -> None:
        self.view = view
        width, height = image.size
        #: Label size in px: 11 px at 1024 px and more, down to 8 px on small outputs.
        self.label_px = min(LABEL_PX, max(8.0, LABEL_PX * max(width, height) / 1024))
        self.k = width / view.width  # px per world unit (horizontal)
        self.ky = height / view.height  # px per world unit (vertical; equal up to rounding)
        self.image = image
        self.draw = ImageDraw.Draw(image, "RGBA")
        self.tabs: list[tuple[float, float, float, float]] = []  # placed label tabs (x1, y1, x2, y2), world units

    def px(self, v: float) -> float:
        return v / self.k

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.view.x) * self.k, (y - self.view.y) * self.ky

    def _band(self, x0: float, y0: float, x1: float, y1: float, fill: tuple[int, int, int, int]) -> None:
        """A filled pixel rectangle from (x0, y0) up to, not including, (x1, y1); Pillow clips it to the picture."""
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        self.draw.rectangle((round(x0), round(y0), max(round(x0), round(x1) - 1), max(round(y0), round(y1) - 1)),
                            fill=fill)

    def _edge(self, a: tuple[float, float], b: tuple[float, float], w: float, ink: tuple[int, int, int, int],
              dash: bool) -> None:
        """A horizontal or vertical stroke of width ``w`` px centred on the segment a–b.

        Only the part inside the picture is drawn (dashes keep their phase),
        so a huge box around a small crop costs no more than a small one.
        """
        (x0, y0), (x1, y1) = a, b
        horizontal = abs(y1 - y0) < abs(x1 - x0)
        across, start = (y0, min(x0, x1)) if horizontal else (x0, min(y0, y1))
        if not -w <= across <= (self.image.height if horizontal else self.image.width) + w:
            return
        length = abs(x1 - x0) if horizontal else abs(y1 - y0)
        extent = self.image.width if horizontal else self.image.height
        length = min(length, max(extent + sum(_DASH_PX) - start, 0.0))
        on, off = _DASH_PX if dash else (length, 0.0)
        t = 0.0
        if start < 0:  # skip whole dash periods left of / above the picture
            period = on + off
            t = (-start // period) * period if period > 0 else 0.0
        while t < length:
            t2 = min(t + on, length)
            if horizontal:
                s = min(x0, x1)
                self._band(s + t, y0 - w / 2, s + t2, y0 + w / 2, ink)
            else:
                s = min(y0, y1)
                self._band(x0 - w / 2, s + t, x0 + w / 2, s + t2, ink)
            t = t2 + off

    def rect(self, box: Box, colour: str, width_px: float = 2.0, dash: bool = False,
             fill: str = "none", fill_opacity: float = 0.0) -> None:
        x0, y0 = self._xy(box.x, box.y)
        x1, y1 = self._xy(box.x + max(box.width, 0.0), box.y + max(box.height, 0.0))
        if fill != "none":
            self._band(x0, y0, x1, y1, _rgba(fill, fill_opacity))
        if colour == "none" or width_px <= 0:
            return
        ink, w = _rgba(colour), max(1.0, width_px)
        h = w / 2  # horizontal strokes span the corners so they close
        self._edge((x0 - h, y0), (x1 + h, y0), w, ink, dash)
        self._edge((x0 - h, y1), (x1 + h, y1), w, ink, dash)
        self._edge((x0, y0 + h), (x0, y1 - h), w, ink, dash)
        self._edge((x1, y0 + h), (x1, y1 - h), w, ink, dash)

    def label(self, text: str, x: float, y: float, colour: str, size_px: float | None = None,
              max_px: float = 360.0, alternatives: Sequence[tuple[float, float]] = ()) -> None:
        """A text tab at world ``(x, y)`` (top-left), kept inside the view.

        ``alternatives`` are further top-left corners to try, in order, when
        the tab would cover a tab already placed; the first free one wins.
        """
        size_px = size_px or self.label_px
        while text and _glyphs(text, size_px)[0] > max_px:
            text = text[:-2] + "…" if len(text) > 2 else ""
        advance, mask, left, top = _glyphs(text, size_px)
        w = self.px(advance + 6)
        h = self.px(size_px + 5)
        spots = []
        for cx, cy in [(x, y), *alternatives]:
            cx = min(max(cx, self.view.x), self.view.x + self.view.width - w)
            cy = min(max(cy, self.view.y), self.view.y + self.view.height - h)
            spots.append((cx, cy, cx + w, cy + h))
        tab = next((b for b in spots if not any(_overlap(b, o) for o in self.tabs)), spots[0])
        self.tabs.append(tab)
        px0, py0 = self._xy(tab[0], tab[1])
        px1, py1 = self._xy(tab[2], tab[3])
        self.draw.rectangle((round(px0), round(py0), round(px1) - 1, round(py1) - 1), fill=(255, 255, 255, 217),
                            outline=_rgba(colour), width=1)
        if text:
            ink = _rgba(colour) if self.image.mode == "RGBA" else _rgba(colour)[:3]
            self.image.paste(ink, (round(px0 + 3) + left, round(py0 + size_px + 1) + top), mask)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str, width_px: float = 1.0,
             opacity: float = 1.0) -> None:
        self._edge(self._xy(x1, y1), self._xy(x2, y2), max(1.0, width_px), _rgba(colour, opacity), False)


def _draw_boxes(p: _Painter, layout: Layout, ids: set[str] | None) -> None:
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


def _draw_grid(p: _Painter, layout: Layout, columns: int) -> None:
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


def _draw_margins(p: _Painter, layout: Layout) -> None:
    c, s = layout.canvas.box, layout.canvas.safe_box
    bands = [Box.from_edges(c.x, c.y, c.x2, s.y), Box.from_edges(c.x, s.y2, c.x2, c.y2),
             Box.from_edges(c.x, s.y, s.x, s.y2), Box.from_edges(s.x2, s.y, c.x2, s.y2)]
    for b in bands:
        if b.width > 0 and b.height > 0:
            p.rect(b, "none", 0.0, fill="#ff00aa", fill_opacity=0.10)
    p.rect(s, "#ff00aa", 1.5, dash=True)


def _draw_findings(p: _Painter, layout: Layout, findings: Iterable[Any]) -> None:
    for n, f in enumerate(findings, start=1):
        ids, message, severity = finding_fields(f)
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
    image.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    if buf.tell() <= max_bytes:
        return buf.getvalue()
    buf = io.BytesIO()
    image.convert("RGBA").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
        buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def _check_overlays(overlays: Sequence[str]) -> None:
    unknown = [o for o in overlays if o not in OVERLAYS]
    if unknown:
        raise ExportError(f"unknown overlay {unknown[0]!r}; choose from {', '.join(OVERLAYS)}")


def _check_size(max_size: int) -> None:
    if not 16 <= int(max_size) <= 8192:
        raise ExportError(f"max_size must be between 16 and 8192 px, not {max_size}")


def _view(doc: Document, region: Box | None) -> Box:
    view = region if region is not None else doc.layout.canvas.box
    if view.width <= 0 or view.height <= 0:
        raise ExportError(f"{doc.source}: the region to show is empty ({view!r})")
    return view


def render_base(doc: Document, *, region: Box | None = None, max_size: int = 1024) -> Image.Image:
    """The page (or ``region``, world units) on white, longest side ``max_size`` px, as an RGB image."""
    _check_size(max_size)
    view = _view(doc, region)
    width, height = _fit(view, int(max_size))
    return render_image(doc, region=view, width=width, height=height, background="white").convert("RGB")


def draw_overlays(image: Image.Image, doc: Document, *, overlays: Sequence[str] = ("boxes",),
                  ids: Iterable[str] | None = None, region: Box | None = None,
                  findings: Iterable[Any] | None = None, columns: int = 12) -> Image.Image:
    """Draw the overlays onto ``image`` (RGB or RGBA, showing ``region`` or the canvas) in place; return it."""
    _check_overlays(overlays)
    view = _view(doc, region)
    layout = doc.layout
    id_set = set(ids) if ids is not None else None
    if id_set is not None:
        for i in id_set:
            layout.get(i)  # unknown ids: InvalidAction naming the id
    painter = _Painter(view, image)
    if "margins" in overlays:
        _draw_margins(painter, layout)
    if "grid" in overlays:
        _draw_grid(painter, layout, max(1, int(columns)))
    if "boxes" in overlays:
        _draw_boxes(painter, layout, id_set)
    if "findings" in overlays and findings:
        _draw_findings(painter, layout, list(findings))
    return image


def render_overlay_png(doc: Document, *, overlays: Sequence[str] = ("boxes",), ids: Iterable[str] | None = None,
                       region: Box | None = None, max_size: int = 1024, findings: Iterable[Any] | None = None,
                       columns: int = 12, max_bytes: int = 900_000) -> bytes:
    """PNG of ``doc`` with the chosen overlays drawn on top (see the module docstring)."""
    _check_overlays(overlays)
    _check_size(max_size)
    _view(doc, region)
    if ids is not None:
        ids = list(ids)
        for i in ids:
            doc.layout.get(i)  # unknown ids fail before the render
    base = render_base(doc, region=region, max_size=max_size)
    image = draw_overlays(base, doc, overlays=overlays, ids=ids, region=region, findings=findings,
                          columns=columns)
    return encode_png(image, max_bytes)
