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

**Margins.** Product shots and logos are often pictures with a plain margin
around the subject — white around a phone, transparent around a logo. What a
reader sees is the subject, so :func:`picture_ink` finds the part of the
drawn rectangle that differs from a margin of one colour (or transparency),
from a small decoded copy of an embedded picture; the importer uses it when
the margin's colour is the colour behind the picture (``Element.ink``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from assistant.geometry import Box
from assistant.limits import MAX_DATA_URI_BYTES, MAX_IMAGE_PIXELS
from assistant.svg.tree import SvgNode, href
from assistant.svg.units import parse_length, parse_preserve_aspect_ratio, viewbox_offset, viewbox_scale

#: The name given to a picture that :func:`looks_like_code` (when the file names it nothing else).
CODE_NAME = "QR code"

_HEAD_CHARS = 65536  # base64 characters decoded to find the picture's header


def intrinsic_size(ref: str | None) -> tuple[float, float] | None:
    """Pixel size of a picture embedded as a base64 ``data:`` URI, or None."""
    data = _payload(ref, _HEAD_CHARS)
    if data is None:
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


def image_rect(node: SvgNode, viewport: tuple[float, float]) -> Box | None:
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


#: Longest side of the decoded copy :func:`picture_ink` examines (pixels).
INK_SAMPLE = 256
#: A picture larger than this (pixels) is not decoded for its margins (``limits.MAX_IMAGE_PIXELS``).
INK_MAX_PIXELS = MAX_IMAGE_PIXELS
#: Channel difference (0–255) within which a pixel has the margin's colour.
INK_TOLERANCE = 24


@dataclass(frozen=True)
class PictureInk:
    """Where an embedded picture's subject is, inside the rectangle it is drawn in.

    ``box`` is in the same user space as that rectangle; ``margin`` is the
    margin's colour as ``#rrggbb``, or None for a transparent margin.
    """

    box: Box
    margin: str | None


def picture_ink(node: SvgNode, rect: Box) -> PictureInk | None:
    """The subject of an ``<image>`` drawn in ``rect`` (see :func:`image_rect`), when it has a plain margin.

    None when the picture is not embedded, cannot be decoded, is cut to its
    viewport (``slice``), or has no margin of one colour or transparency all
    round (a photograph's edges are never one colour).
    """
    align, mode = parse_preserve_aspect_ratio(node.get("preserveAspectRatio"))
    if mode == "slice" and align != "none":
        return None
    pixels = _sample(href(node))
    if pixels is None:
        return None
    import numpy as np

    alpha = pixels[..., 3]
    rgb = pixels[..., :3].astype(np.int16)
    edge = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    if (edge[:, 3] < 16).all():
        margin, ink = None, alpha >= 16
    elif (edge[:, 3] > 240).all():
        colour = np.median(edge[:, :3], axis=0)
        if np.abs(edge[:, :3] - colour).max() > INK_TOLERANCE // 2:
            return None  # the edges are not one colour: no margin
        margin = "#" + "".join(f"{int(round(v)):02x}" for v in colour)
        ink = (np.abs(rgb - colour).max(axis=-1) > INK_TOLERANCE) & (alpha >= 16)
    else:
        return None
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return None  # nothing but margin: leave the whole rectangle
    h, w = ink.shape
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    if (top, bottom, left, right) == (0, h, 0, w):
        return None
    box = Box(x=rect.x + rect.width * left / w, y=rect.y + rect.height * top / h,
              width=rect.width * (right - left) / w, height=rect.height * (bottom - top) / h)
    return PictureInk(box=box, margin=margin)


def looks_like_code(node: SvgNode) -> bool:
    """Whether an embedded ``<image>`` is a QR code (or a like 2-D code): square, black and white, finely chequered.

    A photograph or a logo is neither almost only black and white nor changes
    colour every few pixels along each row; a code is both.
    """
    pixels = _sample(href(node))
    if pixels is None:
        return False
    import numpy as np

    h, w = pixels.shape[:2]
    if min(h, w) < 21 or not 0.9 <= w / h <= 1.1:
        return False
    alpha = pixels[..., 3] >= 128
    if alpha.mean() < 0.9:
        return False
    grey = pixels[..., :3].astype(np.int16).mean(axis=-1)
    dark, light = grey < 90, grey > 170
    if (dark | light).mean() < 0.8 or not 0.2 <= dark.mean() <= 0.7:
        return False
    changes = np.abs(np.diff(dark.astype(np.int8), axis=1)).sum(axis=1)  # dark/light changes along each row
    return float(np.median(changes)) >= 8


#: Decoded samples by the digest of their ``data:`` URI: a picture repeated in a file, or a file opened again,
#: is decoded once (decoding a large PNG takes 0.1 s or more).
_SAMPLES: OrderedDict[bytes, Any] = OrderedDict()
_SAMPLES_KEPT = 32


def _sample(ref: str | None) -> Any:
    """A small RGBA copy (numpy ``uint8``, longest side at most ``INK_SAMPLE``) of an embedded picture, or None."""
    if not ref or not ref.lstrip().lower().startswith("data:"):
        return None
    key = hashlib.blake2b(ref.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    if key in _SAMPLES:
        _SAMPLES.move_to_end(key)
        return _SAMPLES[key]
    pixels = _decode_sample(ref)
    _SAMPLES[key] = pixels
    if len(_SAMPLES) > _SAMPLES_KEPT:
        _SAMPLES.popitem(last=False)
    return pixels


def forget_decoded() -> None:
    """Drop the decoded pictures kept for :func:`picture_ink` (the next import decodes them again)."""
    _SAMPLES.clear()


def _decode_sample(ref: str) -> Any:
    data = _payload(ref)
    if data is None:
        return None
    import numpy as np
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                w, h = im.size
                if w <= 0 or h <= 0 or w * h > INK_MAX_PIXELS:
                    return None
                if im.format == "JPEG":  # decode at a reduced scale directly
                    im.draft("RGB", (max(1, w * INK_SAMPLE // max(w, h)), max(1, h * INK_SAMPLE // max(w, h))))
                im.thumbnail((INK_SAMPLE, INK_SAMPLE), reducing_gap=2.0)
                pixels = np.asarray(im.convert("RGBA"))
                pixels.setflags(write=False)  # shared by every picture with the same data
                return pixels
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError, SyntaxError):
        return None


def _payload(ref: str | None, max_chars: int | None = None) -> bytes | None:
    """The bytes of a base64 ``data:`` URI (of its first ``max_chars`` characters when given), or None.

    Files and URLs are never read.
    """
    if not ref or not ref.lstrip().lower().startswith("data:"):
        return None
    head, _, payload = ref.partition(",")
    if ";base64" not in head.lower() or len(payload) * 3 // 4 > MAX_DATA_URI_BYTES:
        return None
    text = "".join((payload if max_chars is None else payload[:max_chars]).split())
    text = text[: len(text) - len(text) % 4] if max_chars is not None else text + "=" * (-len(text) % 4)
    try:
        return base64.b64decode(text, validate=False)
    except (binascii.Error, ValueError):
        return None
