"""What keeps one render bounded: reference cycles cut, pictures checked before decoding, surfaces capped.

cairosvg trusts its input; a hostile or broken file can make it recurse
forever, decode a picture of billions of pixels, or allocate a surface of
gigabytes. Every render of ``assistant.render.raster`` goes through this
module first:

* :func:`break_reference_cycles` cuts every reference that makes drawing an
  element draw itself again (a ``<use>`` of itself or of an ancestor, two
  ``<use>`` that point at each other, a pattern filled with itself, a clip
  path, mask or marker that uses itself): the reference is dropped, so that
  element draws nothing through it, as browsers do;
* :class:`SafeFetcher`, the ``url_fetcher`` cairosvg gets, serves ``data:``
  URIs only (never files or URLs); it reads a raster picture's size from its
  header and refuses one over ``MAX_IMAGE_PIXELS`` before it is decoded,
  decompresses gzip with the ``.svgz`` limit, and hands embedded SVG
  pictures over parsed by the project's own safe parser and with their
  cycles cut (at most ``MAX_EMBEDDED_SVG`` per render);
* :class:`CheckedPNGSurface` and :class:`CheckedPDFSurface` refuse an output
  over ``MAX_RENDER_PIXELS`` (or ``MAX_RENDER_SIDE``, or a PDF page over
  ``MAX_PDF_SIDE_PT``) before cairo allocates it, and check the current
  ``limits.budget`` (time limit, cancellation) at every element drawn;
* cairo never returns from an arc whose radius is astronomically large on
  the page (it counts the segments of its approximation in a loop): a circle
  of ``r="1e308"`` in a pattern, or a small one under ``scale(1e300)``. The
  sandbox gives cairosvg a ``cairocffi.Context`` that refuses arcs over
  ``MAX_ARC_RADIUS`` device units (installed on import, for every surface
  cairosvg makes, patterns' and masks' included; a plain subclass, so other
  drawing is untouched).

Problems surface as ``LimitExceeded``; ``assistant.render.raster`` turns them
into an ``ExportError`` naming the document.
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import urllib.parse
import warnings
from typing import Any

import cairocffi
import cairosvg.surface
from cairosvg.surface import PDFSurface, PNGSurface
from lxml import etree

from assistant.errors import LayoutError, LimitExceeded
from assistant.limits import (
    DEFAULT_LIMITS,
    MAX_ARC_RADIUS,
    MAX_DATA_URI_BYTES,
    MAX_EMBEDDED_SVG,
    MAX_IMAGE_PIXELS,
    MAX_PDF_SIDE_PT,
    MAX_RENDER_PIXELS,
    MAX_RENDER_SIDE,
    checkpoint,
)
from assistant.svg.css import StyleResolver
from assistant.svg.parse import GZIP_MAGIC, gunzip, parse_svg_bytes
from assistant.svg.tree import href, ref_id

EMPTY_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
#: Properties whose ``url(#id)`` makes drawing an element draw another one.
_URL_PROPERTIES = ("fill", "stroke", "clip-path", "mask", "filter", "marker", "marker-start", "marker-mid",
                   "marker-end")
_HREF = ("href", "{http://www.w3.org/1999/xlink}href")


def _megapixels(n: float) -> str:
    return f"{n / 1e6:.0f} MP" if n >= 1e6 else f"{n:.0f} px"


# -- reference cycles -----------------------------------------------------------------------------------------


def break_reference_cycles(root: Any, *, imported: bool = True) -> int:
    """Drop every reference of ``root``'s tree that closes a cycle of drawing; returns how many were dropped.

    Drawing an element draws its children and what it references (``href``,
    and ``url(#id)`` in the painting properties, from attributes, ``style`` or
    style sheets). A reference lies on a cycle exactly when both its ends are
    in the same strongly connected component of that graph (Tarjan's
    algorithm, iterative, O(elements + references)); each such reference is
    removed (an ``href``) or its property set to ``none`` on the element.
    Children never make a cycle on their own, so what is left is acyclic.
    ``imported``: the tree's style sheets already passed the import limits
    (an embedded picture's have not, and are held to them here).
    """
    holders: dict[str, list[Any]] = {}
    for n in root.iter():
        if isinstance(n.tag, str) and n.get("id"):
            holders.setdefault(n.get("id"), []).append(n)
    if not holders:
        return 0
    limits = DEFAULT_LIMITS.model_copy(update={"max_css_rules": 10 ** 9, "max_css_tests": 10 ** 15}) \
        if imported else DEFAULT_LIMITS
    resolver = StyleResolver(root, limits=limits)

    def edges(node: Any) -> list[tuple[str | None, Any]]:
        out: list[tuple[str | None, Any]] = [(None, c) for c in node if isinstance(c.tag, str)]
        for attr in _HREF:
            out.extend((attr, t) for t in holders.get(ref_id(node.get(attr)) or "", ()))
        style = resolver.computed(node)
        for prop in _URL_PROPERTIES:
            value = style.get(prop)
            if value and "url(" in value:
                out.extend((prop, t) for t in holders.get(ref_id(value) or "", ()))
        return out

    # Tarjan's strongly connected components, without recursion.
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    component: dict[Any, int] = {}
    on_stack: list[Any] = []
    refs: list[tuple[Any, str, Any]] = []
    counter = 0
    work: list[tuple[Any, Any]] = [(root, None)]
    while work:
        node, it = work[-1]
        if it is None:
            index[node] = low[node] = counter
            counter += 1
            on_stack.append(node)
            it = iter(edges(node))
            work[-1] = (node, it)
        advanced = False
        for via, target in it:
            if via is not None:
                refs.append((node, via, target))
            if target not in index:
                work.append((target, None))
                advanced = True
                break
            if target not in component:  # still on the stack
                low[node] = min(low[node], index[target])
        if advanced:
            continue
        work.pop()
        if work:
            parent = work[-1][0]
            low[parent] = min(low[parent], low[node])
        if low[node] == index[node]:
            while True:
                member = on_stack.pop()
                component[member] = index[node]
                if member is node:
                    break
    cut = 0
    for node, via, target in refs:
        if component.get(node) is not None and component.get(node) == component.get(target):
            _drop_reference(node, via)
            cut += 1
    return cut


def _drop_reference(node: Any, via: str) -> None:
    if via in _HREF:
        node.attrib.pop(via, None)
        if _renderer_name(node) == "use":
            _empty_group(node)
        return
    node.set(via, "none")
    style = node.get("style")
    node.set("style", f"{style};{via}:none !important" if style else f"{via}:none !important")


def neutralise_empty_uses(root: Any) -> int:
    """Turn every ``<use>`` without a reference into an empty group; returns how many.

    cairosvg reads a ``<use>`` with no ``href`` (or an empty one) as a use of
    the whole document, which then draws itself without end; SVG says it
    draws nothing.
    """
    count = 0
    for node in root.iter():
        if _renderer_name(node) == "use" and not (href(node) or "").strip():
            _empty_group(node)
            count += 1
    return count


def _renderer_name(node: Any) -> str | None:
    """The element name as cairosvg reads it: the tag without any namespace.

    cairosvg draws a ``<use>`` in no namespace, or in another one, as SVG's.
    """
    return node.tag.rsplit("}", 1)[-1] if isinstance(node.tag, str) else None


def _empty_group(node: Any) -> None:
    """Make a ``<use>`` an empty ``<g>`` (it keeps its attributes, which a group ignores)."""
    for attr in _HREF:
        node.attrib.pop(attr, None)
    node.tag = node.tag[: -len("use")] + "g"
    for child in list(node):
        node.remove(child)


# -- pictures ---------------------------------------------------------------------------------------------------


class SafeFetcher:
    """cairosvg ``url_fetcher`` for one render (see the module docstring); ``source`` names the document."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.embedded_svgs = 0
        self._svg_cache: dict[str, bytes] = {}

    def __call__(self, url: str, resource_type: str | None = None) -> bytes:
        """The bytes cairosvg gets for ``url``: checked ``data:`` content, else an empty SVG."""
        if not url or not url.startswith("data:"):
            return EMPTY_SVG
        cached = self._svg_cache.get(url)
        if cached is not None:
            return self._count(cached)
        data = self._decode(url)
        if data is None:
            return EMPTY_SVG
        if data.startswith(GZIP_MAGIC):
            try:
                data = gunzip(data, self.source)
            except LayoutError:
                return EMPTY_SVG
        head = data[:512].lstrip()
        if head.startswith(b"<") or b"<svg" in data[:4096]:
            out = self._svg(data)
            if len(url) < 1 << 20:
                self._svg_cache[url] = out
            return self._count(out)
        if resource_type is not None and not resource_type.startswith("image"):
            return data  # a style sheet or font: cairosvg reads it as text
        return self._raster(data, picture=resource_type is not None)

    def _count(self, svg: bytes) -> bytes:
        if svg is EMPTY_SVG:
            return svg
        self.embedded_svgs += 1
        return svg if self.embedded_svgs <= MAX_EMBEDDED_SVG else EMPTY_SVG

    def _decode(self, url: str) -> bytes | None:
        header, _, payload = url[5:].partition(",")
        is_base64 = header.lower().endswith(";base64")
        if (len(payload) * 3 // 4 if is_base64 else len(payload)) > MAX_DATA_URI_BYTES:
            raise LimitExceeded(f"an embedded data: URI holds more than {MAX_DATA_URI_BYTES // (1 << 20)} MiB")
        try:
            if is_base64:
                return base64.b64decode("".join(payload.split()) + "=" * (-len(payload) % 4), validate=False)
            return urllib.parse.unquote_to_bytes(payload)
        except (ValueError, TypeError, binascii.Error):
            return None

    def _svg(self, data: bytes) -> bytes:
        try:
            tree = parse_svg_bytes(data, f"{self.source} (embedded picture)")
            neutralise_empty_uses(tree.getroot())
            break_reference_cycles(tree.getroot(), imported=False)
        except LayoutError:
            return EMPTY_SVG  # an embedded picture that is not safe SVG draws nothing
        return etree.tostring(tree, xml_declaration=True, encoding="UTF-8")

    def _raster(self, data: bytes, picture: bool) -> bytes:
        """``data`` when it is a picture small enough to decode (``LimitExceeded`` otherwise).

        Data that is no picture is an empty SVG when a picture was asked for
        (``picture``), else itself.
        """
        from PIL import Image, UnidentifiedImageError

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                with Image.open(io.BytesIO(data)) as im:  # reads the header only
                    w, h = im.size
        except Image.DecompressionBombError:  # Pillow's own limit, far above ours
            raise LimitExceeded(f"an embedded picture has more than {_megapixels(2 * Image.MAX_IMAGE_PIXELS)}; "
                                f"pictures of more than {_megapixels(MAX_IMAGE_PIXELS)} are not decoded") from None
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            return EMPTY_SVG if picture else data  # not a picture cairosvg or Pillow could decode: nothing is drawn
        if w * h > MAX_IMAGE_PIXELS:
            raise LimitExceeded(f"an embedded picture is {w} × {h} px ({_megapixels(w * h)}); pictures of more "
                                f"than {_megapixels(MAX_IMAGE_PIXELS)} are not decoded")
        return data


# -- arcs ---------------------------------------------------------------------------------------------------------

class GuardedContext(cairocffi.Context):
    """A cairo context that refuses arcs too large for cairo to approximate (see the module docstring)."""

    def _check_arc(self, radius: float, angle1: float, angle2: float) -> None:
        if not all(math.isfinite(v) for v in (radius, angle1, angle2)):
            raise LimitExceeded(f"an arc with radius {radius:g} and angles {angle1:g}, {angle2:g} cannot be drawn")
        on_page = max(math.hypot(*self.user_to_device_distance(radius, 0.0)),
                      math.hypot(*self.user_to_device_distance(0.0, radius)))
        if not on_page <= MAX_ARC_RADIUS:
            raise LimitExceeded(f"an arc of radius {radius:.4g} is {on_page:.4g} units on the page, too large to "
                                f"draw (the limit is {MAX_ARC_RADIUS:g})")

    def arc(self, xc: float, yc: float, radius: float, angle1: float, angle2: float) -> None:
        """Cairo's ``arc``, refused when cairo could not draw it."""
        self._check_arc(radius, angle1, angle2)
        super().arc(xc, yc, radius, angle1, angle2)

    def arc_negative(self, xc: float, yc: float, radius: float, angle1: float, angle2: float) -> None:
        """Cairo's ``arc_negative``, refused when cairo could not draw it."""
        self._check_arc(radius, angle1, angle2)
        super().arc_negative(xc, yc, radius, angle1, angle2)


# cairosvg makes its contexts as ``cairo.Context(surface)`` through its module's reference to cairocffi
if not isinstance(getattr(cairosvg.surface.cairo, "Context", None), type) or \
        not issubclass(cairosvg.surface.cairo.Context, GuardedContext):
    cairosvg.surface.cairo.Context = GuardedContext


# -- surfaces ---------------------------------------------------------------------------------------------------


def check_raster_size(width: float, height: float) -> tuple[int, int]:
    """``(width, height)`` rounded as cairo will; ``LimitExceeded`` over the render limits."""
    if not (math.isfinite(width) and math.isfinite(height)):
        raise LimitExceeded(f"the output size ({width} × {height} px) is not a finite number")
    w, h = int(round(width)), int(round(height))
    if max(w, h) > MAX_RENDER_SIDE or w * h > MAX_RENDER_PIXELS:
        raise LimitExceeded(
            f"the output would be {w} × {h} px ({_megapixels(w * h)}); renders are limited to "
            f"{_megapixels(MAX_RENDER_PIXELS)} and {MAX_RENDER_SIDE} px a side: ask for a smaller width")
    return w, h


class CheckedPNGSurface(PNGSurface):
    """cairosvg's PNG surface with the pixel limit checked before allocation and the budget at every element."""

    def _create_surface(self, width: float, height: float) -> Any:
        check_raster_size(width, height)
        return super()._create_surface(width, height)

    def draw(self, node: Any) -> None:
        """Draw ``node``, stopping when the time limit is spent or the caller has gone."""
        checkpoint()
        super().draw(node)


class CheckedPDFSurface(PDFSurface):
    """cairosvg's PDF surface with the page size checked and the budget at every element."""

    def _create_surface(self, width: float, height: float) -> Any:
        if not (math.isfinite(width) and math.isfinite(height)) or max(width, height) > MAX_PDF_SIDE_PT:
            raise LimitExceeded(f"the PDF page would be {width:.6g} × {height:.6g} pt; pages are limited to "
                                f"{MAX_PDF_SIDE_PT} pt a side")
        return super()._create_surface(width, height)

    def draw(self, node: Any) -> None:
        """Draw ``node``, stopping when the time limit is spent or the caller has gone."""
        checkpoint()
        super().draw(node)


__all__ = ["break_reference_cycles", "neutralise_empty_uses", "SafeFetcher", "CheckedPNGSurface",
           "CheckedPDFSurface", "check_raster_size", "EMPTY_SVG", "GuardedContext"]
