"""What a picture looks like: its main colours, how much of its box it inks, whether it is round.

A designer tells pictures apart by how they look: "the purple cable", "the green map", "the colour ACM logo"
beside "the outline one", "the round aerial photo". A raster picture holds no fill to read a colour from, and
a drawing's fills say nothing of whether it is outlined or solid; its render does. :func:`looks` renders each
element asked for alone (everything else cut from a copy of the tree, as ``assistant.render.drawn`` does for
reading words), small, on a transparent ground, and measures it:

- ``colours``: the colours that ink at least :data:`MIN_SHARE` of its ink, most first, each with its share;
- ``coverage``: the share of its box that its ink covers (a ring or line art covers little, a photo all of it);
- ``chroma``: the share of its ink in a clear colour (not white, grey or black): a full-colour logo is mostly
  colour, its outline version mostly white or empty with thin coloured lines;
- ``round``: its ink is a disc, a ring or an oval: the corners of its box are empty and the ink runs all the
  way round the oval inscribed in the box.

Results are kept in the process by what the element draws (its markup and size), like the words read.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from lxml import etree

from assistant.document import Document, Element
from assistant.errors import ExportError
from assistant.render.drawn import alone, nodes_of
from assistant.render.raster import render_image

log = logging.getLogger(__name__)

#: Longest side of the render (px): enough for colours and a silhouette.
SIDE = 64
#: Least share of the ink a colour needs to be one of the picture's colours.
MIN_SHARE = 0.08
#: Most elements looked at for one request.
MAX_LOOKED = 12
#: Alpha (0–255) from which a pixel is ink.
INK_ALPHA = 128
#: Most of a corner's area that ink may cover in a round picture (the corners outside an inscribed oval).
ROUND_CORNER_INK = 0.06
#: Points looked at round the oval, and the share of them that must be inked.
ROUND_SAMPLES, ROUND_ALL_ROUND = 32, 0.9
#: Spread between a pixel's strongest and weakest channel (0–255) from which it is a clear colour.
CLEAR_COLOUR = 60
_KEPT = 256


@dataclass(frozen=True)
class Look:
    """How an element looks (see the module docstring); colours are sRGB components in [0, 1]."""

    colours: tuple[tuple[tuple[float, float, float], float], ...]
    coverage: float
    chroma: float
    round: bool


_cache: OrderedDict[str, Look | None] = OrderedDict()
_lock = threading.Lock()


def _key(doc: Document, element: Element, by_id: dict) -> str:
    h = hashlib.sha1(f"look side={SIDE} share={MIN_SHARE} v2".encode())
    for xml_id in nodes_of(doc, element):
        node = by_id.get(xml_id)
        if node is not None:
            h.update(etree.tostring(node))
    b = element.box
    h.update(f"{b.width:.3g}x{b.height:.3g}".encode())
    return h.hexdigest()


def measure(rgba: np.ndarray) -> Look | None:
    """The look of a render (``(H, W, 4)`` uint8, straight alpha, the element filling it); None when it has no ink."""
    ink = rgba[..., 3] >= INK_ALPHA
    total = int(ink.sum())
    if total == 0:
        return None
    rgb = rgba[..., :3][ink].astype(np.int32)
    bins = (rgb[:, 0] >> 5) * 64 + (rgb[:, 1] >> 5) * 8 + (rgb[:, 2] >> 5)  # 8 levels a channel
    counts = np.bincount(bins, minlength=512)
    colours = []
    for b in np.argsort(-counts):
        share = counts[b] / total
        if share < MIN_SHARE:
            break
        mean = rgb[bins == b].mean(axis=0) / 255.0
        colours.append(((float(mean[0]), float(mean[1]), float(mean[2])), float(share)))
    chroma = (rgb.max(axis=1) - rgb.min(axis=1)) >= CLEAR_COLOUR
    return Look(colours=tuple(colours), coverage=total / ink.size, chroma=float(chroma.mean()), round=_round(ink))


def _round(ink: np.ndarray) -> bool:
    """Whether ``ink`` (a mask filling its box) is a disc, a ring or an oval."""
    h, w = ink.shape
    if not 0.6 <= w / h <= 1.67 or min(h, w) < 8:
        return False
    ys, xs = np.mgrid[0:h, 0:w]
    # outside the oval inscribed in the box: the four corners
    outside = ((xs + 0.5 - w / 2) / (w / 2)) ** 2 + ((ys + 0.5 - h / 2) / (h / 2)) ** 2 > 1.15
    if ink[outside].mean() > ROUND_CORNER_INK:
        return False
    # the ink runs all the way round, just inside the oval (a figure with empty corners does not)
    angles = np.linspace(0.0, 2 * np.pi, ROUND_SAMPLES, endpoint=False)
    cx, cy = np.cos(angles) * 0.9 * w / 2 + w / 2, np.sin(angles) * 0.9 * h / 2 + h / 2
    near = 0
    for x, y in zip(cx.astype(int), cy.astype(int)):
        if ink[max(0, y - 2):y + 3, max(0, x - 2):x + 3].any():
            near += 1
    return near >= ROUND_ALL_ROUND * ROUND_SAMPLES


def _size(element: Element) -> tuple[int, int]:
    b = element.box
    scale = SIDE / max(b.width, b.height)
    return max(int(round(b.width * scale)), 4), max(int(round(b.height * scale)), 4)


def _look(doc: Document, element: Element) -> Look | None:
    width, height = _size(element)
    try:
        image = render_image(alone(doc, element), region=element.box, width=width, height=height)
    except ExportError as exc:  # a picture that cannot be rendered looks like nothing
        log.debug("%s: %s not looked at: %s", doc.source, element.id, exc)
        return None
    return measure(np.asarray(image.convert("RGBA")))


def looks(doc: Document, ids: list[str]) -> dict[str, Look]:
    """The look of each of ``ids`` (elements of ``doc``) that draws anything (at most :data:`MAX_LOOKED`)."""
    by_id = {n.get("id"): n for n in doc.root.iter() if isinstance(n.tag, str) and n.get("id")}
    out: dict[str, Look] = {}
    for eid in ids[:MAX_LOOKED]:
        if eid not in doc.layout:
            continue
        element = doc.layout.get(eid)
        if element.box.width <= 0 or element.box.height <= 0:
            continue
        key = _key(doc, element, by_id)
        with _lock:
            known = key in _cache
            look = _cache.get(key)
        if not known:
            look = _look(doc, element)
            with _lock:
                _cache[key] = look
                if len(_cache) > _KEPT:
                    _cache.popitem(last=False)
        if look is not None:
            out[eid] = look
    return out


__all__ = ["Look", "looks", "measure", "MAX_LOOKED", "MIN_SHARE"]
