"""PNG, PDF and pixel arrays through cairosvg, with no file or network access.

Rendering is sandboxed (``assistant.render.sandbox``): cairosvg gets a
``url_fetcher`` that serves ``data:`` URIs only (decoded there, never opened
as URLs) and answers every other reference — files, http(s), relative paths —
with an empty 1×1 SVG, so an external image simply does not show; embedded
pictures are checked by their header before they are decoded; reference
cycles are cut on the copy that is rendered; outputs over
``limits.MAX_RENDER_PIXELS`` are refused before they are allocated, with an
``ExportError`` that says so. ``unsafe`` stays False, so cairosvg also
refuses XML entities (``Surface.convert`` is called directly because
``svg2png`` does not pass ``url_fetcher`` on in cairosvg 2.8+). Flowed text (Inkscape ``flowRoot``) and SVG 2 wrapped
text are converted to positioned ``<text>`` on a copy of the tree first
(``assistant.render.textconvert``), so body text appears in the output.

Sizes: ``width``/``height`` in output pixels (one given: the other follows the
aspect ratio); ``scale`` multiplies the document's own size (CSS px at 96 dpi).

``render_image`` and ``render_array`` read cairo's pixel buffer directly
(premultiplied ARGB32 → straight RGBA), skipping the PNG encode and decode
that ``render_png`` needs.
"""

from __future__ import annotations

import io
import sys
from typing import Any
from xml.etree.ElementTree import ParseError

import numpy as np
from cairosvg.parser import Tree
from lxml import etree
from PIL import Image

from assistant.errors import ExportError, LimitExceeded
from assistant.geometry import Box
from assistant.limits import MAX_RENDER_SIDE
from assistant.render.sandbox import (
    CheckedPDFSurface,
    CheckedPNGSurface,
    SafeFetcher,
    break_reference_cycles,
    check_raster_size,
    neutralise_empty_uses,
)
from assistant.render.textconvert import flatten_wrapped_text
from assistant.svg.tree import SvgNode
from assistant.svg.write import Exportable, tree_of

#: Largest output side in pixels (``assistant.limits.MAX_RENDER_SIDE``).
MAX_SIDE = MAX_RENDER_SIDE


def data_only_fetcher(url: str, resource_type: str | None = None) -> bytes:
    """Cairosvg ``url_fetcher``: the bytes of a ``data:`` URI, checked as ``sandbox.SafeFetcher`` does.

    Anything else gets an empty SVG.
    """
    return SafeFetcher("<document>")(url, resource_type)


def render_svg_bytes(doc: Exportable, region: Box | None = None, size: tuple[int, int] | None = None) -> bytes:
    """The SVG that is rendered: a copy of ``doc``'s tree with wrapped text flattened.

    Elements and attributes with an undeclared namespace prefix (Illustrator's
    ``i:pgfRef``; the importer tolerates them, as browsers do) are dropped from
    the copy: they are never drawn and a strict XML parser would refuse them.
    With ``region`` (a world-space box) the copy's root shows just that box:
    its ``viewBox`` becomes the region and its size ``size`` px (world space is
    the root's user space, so this is exact).
    """
    tree = flatten_wrapped_text(tree_of(doc))
    root = tree.getroot()
    _drop_unbound_prefixes(root)
    neutralise_empty_uses(root)
    break_reference_cycles(root)
    if region is not None:
        w, h = size or (max(1, round(region.width)), max(1, round(region.height)))
        root.set("viewBox", f"{region.x!r} {region.y!r} {region.width!r} {region.height!r}")
        root.set("width", str(int(w)))
        root.set("height", str(int(h)))
        root.set("preserveAspectRatio", "none")
        for attr in ("x", "y"):
            root.attrib.pop(attr, None)
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8")


def _drop_unbound_prefixes(root: SvgNode) -> None:
    doomed = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if ":" in el.tag and not el.tag.startswith("{"):
            doomed.append(el)
            continue
        for name in [a for a in el.attrib if ":" in a and not a.startswith("{")]:
            del el.attrib[name]
    for el in doomed:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)


def _source(doc: Exportable) -> str:
    return str(getattr(doc, "source", "<document>"))


def _convert(doc: Exportable, fn: Any, region: Box | None = None, size: tuple[int, int] | None = None,
             **kwargs: Any) -> bytes:
    data = render_svg_bytes(doc, region, size)
    try:
        out = fn(bytestring=data, url_fetcher=SafeFetcher(_source(doc)), unsafe=False, **kwargs)
    except LimitExceeded as exc:
        raise ExportError(f"{_source(doc)}: {exc}") from None
    except RecursionError:
        raise ExportError(f"{_source(doc)}: the drawing nests too deeply to render "
                          "(groups or references inside each other, hundreds of levels)") from None
    except (ValueError, KeyError, IndexError, ZeroDivisionError, OverflowError, MemoryError, ParseError,
            etree.XMLSyntaxError) as exc:
        raise ExportError(f"{_source(doc)}: rendering failed ({type(exc).__name__}: {exc})") from exc
    except Exception as exc:  # cairo.Error and defusedxml errors have no common base here
        if type(exc).__module__.startswith(("cairo", "defusedxml")) or _raised_by_renderer(exc):
            raise ExportError(f"{_source(doc)}: rendering failed ({type(exc).__name__}: {exc})") from exc
        raise
    if not out:
        raise ExportError(f"{_source(doc)}: rendering produced no output")
    return out


def _raised_by_renderer(exc: BaseException) -> bool:
    """Whether ``exc`` was raised inside cairosvg or cairo, not in this project's code.

    Those are the renderer's own bugs on odd input (a ``TypeError`` on path
    data it cannot read); in this project's code it would be a bug to report.
    """
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_globals.get("__name__", "")
        tb = tb.tb_next
    return bool(last) and last.split(".")[0] in ("cairosvg", "cairocffi", "cssselect2", "tinycss2", "PIL")


def _size_options(doc: Exportable, width: int | None, height: int | None, scale: float | None) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for name, value in (("width", width), ("height", height)):
        if value is not None and not (1 <= int(value) <= MAX_SIDE):
            raise ExportError(f"{_source(doc)}: output {name} must be between 1 and {MAX_SIDE} px, not {value}")
    if width is not None:
        opts["output_width"] = int(width)
    if height is not None:
        opts["output_height"] = int(height)
    if scale is not None:
        if not (0 < float(scale) <= 64):
            raise ExportError(f"{_source(doc)}: scale must be in (0, 64], not {scale}")
        opts["scale"] = float(scale)
    return opts


def _render(doc: Exportable, fn: Any, width: int | None, height: int | None, scale: float | None,
            background: str | None, region: Box | None) -> Any:
    opts = _size_options(doc, width, height, scale)
    if background:
        opts["background_color"] = background
    if region is None:
        return _convert(doc, fn, **opts)
    if region.width <= 0 or region.height <= 0:
        raise ExportError(f"{_source(doc)}: the region to render is empty ({region!r})")
    opts.pop("output_width", None)
    opts.pop("output_height", None)
    k = opts.pop("scale", 1.0)
    if width is not None:
        k = width / region.width
    elif height is not None:
        k = height / region.height
    try:
        size = check_raster_size(width or max(1.0, region.width * k), height or max(1.0, region.height * k))
    except LimitExceeded as exc:
        raise ExportError(f"{_source(doc)}: {exc}") from None
    return _convert(doc, fn, region=region, size=size, **opts)


def render_png(doc: Exportable, *, width: int | None = None, height: int | None = None,
               scale: float | None = None, background: str | None = None, region: Box | None = None) -> bytes:
    """PNG bytes of ``doc`` (see the module docstring for sizes and sandboxing).

    ``region``: render only this world-space box; ``width``/``height`` (or
    ``scale``, px per world unit; default 1) then size that box.
    """
    return _render(doc, CheckedPNGSurface.convert, width, height, scale, background, region)


def _surface_image(bytestring: bytes, *, url_fetcher: Any, unsafe: bool, scale: float = 1,
                   output_width: int | None = None, output_height: int | None = None,
                   background_color: str | None = None) -> Image.Image:
    """``PNGSurface.convert`` without the PNG: cairo's ARGB32 buffer as a straight-alpha RGBA image."""
    if sys.byteorder != "little":  # ARGB32 is native-endian; the raw mode below is for little-endian
        png = CheckedPNGSurface.convert(bytestring=bytestring, url_fetcher=url_fetcher, unsafe=unsafe, scale=scale,
                                 output_width=output_width, output_height=output_height,
                                 background_color=background_color)
        with Image.open(io.BytesIO(png)) as im:
            return im.convert("RGBA")
    tree = Tree(bytestring=bytestring, url_fetcher=url_fetcher, unsafe=unsafe)
    surface = CheckedPNGSurface(tree, None, 96, None, None, None, scale, output_width, output_height,
                                background_color)
    cairo_surface = surface.cairo
    cairo_surface.flush()
    size = (cairo_surface.get_width(), cairo_surface.get_height())
    image = Image.frombuffer("RGBA", size, bytes(cairo_surface.get_data()), "raw", "BGRa",
                             cairo_surface.get_stride(), 1)
    surface.finish()
    return image


def render_image(doc: Exportable, *, width: int | None = None, height: int | None = None,
                 scale: float | None = None, background: str | None = None,
                 region: Box | None = None) -> Image.Image:
    """The rendering as a Pillow RGBA image (straight alpha); options as ``render_png``."""
    return _render(doc, _surface_image, width, height, scale, background, region)


def render_pdf(doc: Exportable) -> bytes:
    """PDF bytes of ``doc`` (vector output, document size)."""
    return _convert(doc, CheckedPDFSurface.convert)


def render_array(doc: Exportable, *, width: int | None = None, height: int | None = None,
                 scale: float | None = None, background: str | None = None,
                 region: Box | None = None) -> np.ndarray:
    """The rendering as an ``(H, W, 4)`` uint8 RGBA array (non-premultiplied); options as ``render_png``."""
    image = render_image(doc, width=width, height=height, scale=scale, background=background, region=region)
    return np.asarray(image).copy()
