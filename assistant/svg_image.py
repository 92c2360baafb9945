"""Where an ``<image>`` is drawn: its viewport, narrowed to the picture when known.

SVG 1.1 §5.7 / SVG 2 §5.7: the image is placed in the viewport
``x, y, width, height`` with its own ``preserveAspectRatio`` (default
``xMidYMid meet``). With ``meet`` the picture is scaled to fit and aligned,
leaving empty bands, so the drawn rectangle is smaller than the viewport;
with ``slice`` or ``none`` the drawn area is the whole viewport. SVG 2 lets
``width``/``height`` be omitted (``auto``): the picture's own size is used.

The picture's size is read only from an embedded ``data:`` URI (Pillow reads
the header of the first 64 KiB); files and URLs are never opened, so an
external picture leaves the viewport as the box, and an external picture
without a size draws nothing measurable.
"""

from __future__ import annotations

import base64
import binascii
import io
import warnings
from typing import Any

from assistant.geometry import Box
from assistant.svg_tree import href
from assistant.units import parse_length, parse_preserve_aspect_ratio, viewbox_offset, viewbox_scale

_HEAD_CHARS = 65536  # base64 characters decoded to find the picture's header


def intrinsic_size(ref: str | None) -> tuple[float, float] | None:
    """Pixel size of a picture embedded as a base64 ``data:`` URI, or None."""
    if not ref or not ref.lstrip().lower().startswith("data:"):
        return None
    head, _, payload = ref.partition(",")
    if ";base64" not in head.lower():
        return None
    chunk = "".join(payload[:_HEAD_CHARS].split())
    chunk = chunk[: len(chunk) - len(chunk) % 4]
    try:
        data = base64.b64decode(chunk, validate=False)
    except (binascii.Error, ValueError):
        return None
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:  # reads the header only
                w, h = im.size
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError, SyntaxError):
        return None
    return (float(w), float(h)) if w > 0 and h > 0 else None


def image_rect(node: Any, viewport: tuple[float, float]) -> Box | None:
    """The rectangle (in the node's user space) an ``<image>`` paints, or None if nothing."""
    vw, vh = viewport
    size = None
    w = parse_length(node.get("width"), percent_of=vw)
    h = parse_length(node.get("height"), percent_of=vh)
    if w is None or h is None:
        size = intrinsic_size(href(node))
        if size is None:
            return None
        if w is None and h is None:
            w, h = size
        elif w is None:
            w = h * size[0] / size[1]  # type: ignore[operator]
        else:
            h = w * size[1] / size[0]
    if w <= 0 or h <= 0:  # type: ignore[operator]
        return None
    x = parse_length(node.get("x"), percent_of=vw, default=0.0) or 0.0
    y = parse_length(node.get("y"), percent_of=vh, default=0.0) or 0.0
    align, mode = parse_preserve_aspect_ratio(node.get("preserveAspectRatio"))
    if align == "none" or mode == "slice":
        return Box(x=x, y=y, width=w, height=h)
    size = size or intrinsic_size(href(node))
    if size is None:
        return Box(x=x, y=y, width=w, height=h)
    sx, sy = viewbox_scale(size[0], size[1], w, h, align, mode)  # type: ignore[arg-type]
    tx, ty = viewbox_offset(size[0], size[1], w, h, sx, sy, align)  # type: ignore[arg-type]
    return Box(x=x + tx, y=y + ty, width=size[0] * sx, height=size[1] * sy)
