"""Layout arrays shared by all metrics, extracted once per evaluation.

``LayoutArrays`` holds the *leaf* elements of a layout (text, images, shapes;
groups are unions of their children and would double count) in paint order as
numpy arrays, plus masks every metric uses:

- ``background``: role ``background``, or a non-text element covering at least
  80 % of the canvas (a full-bleed image or panel).
- ``visible``: opacity above 1 % and a non-degenerate box.
- ``units``: visible, not background: what the geometric metrics
  (overlap, alignment, spacing, grouping, grid, balance, whitespace) look at.

An element's importance is its ``importance`` field, or its role's default
(``ROLE_IMPORTANCE``) when the field was left at the model default 0.5.

Pairwise work uses ``overlap_pairs`` (a sort-and-sweep over x or y, see
``candidate_pairs``), computed once and shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from assistant.document import ROLE_IMPORTANCE, Element, Layout

ROLE_CODES: dict[str, int] = {r: i for i, r in enumerate(
    ("title", "subtitle", "body", "caption", "cta", "logo", "image", "badge", "background", "decoration"))}

FULL_BLEED_FRACTION = 0.8
_ANCHOR_CODES = {"start": 0, "middle": 1, "end": 2}
_KIND_CODES = {"text": 0, "image": 1, "shape": 2, "group": 3}


def hex_rgb(fill: str | None) -> tuple[float, float, float] | None:
    """``#rrggbb`` (or ``#rgb``) as sRGB components in [0, 1]; ``None`` when unknown."""
    if not fill or not fill.startswith("#"):
        return None
    h = fill[1:]
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        return None
    try:
        v = int(h, 16)
    except ValueError:
        return None
    return ((v >> 16 & 255) / 255.0, (v >> 8 & 255) / 255.0, (v & 255) / 255.0)


def candidate_pairs(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs ``(i, j)``, ``i != j``, whose intervals ``[lo, hi]`` overlap (sort and sweep).

    Sorting by ``lo``, each interval's partners start after it and before the
    first ``lo`` beyond its ``hi`` (``searchsorted``); pairs are generated with
    ``np.repeat`` without a Python loop. Cost O(n log n + k) for k pairs.
    """
    n = lo.shape[0]
    if n < 2:
        e = np.empty(0, dtype=np.intp)
        return e, e
    order = np.argsort(lo, kind="stable")
    slo, shi = lo[order], hi[order]
    end = np.searchsorted(slo, shi, side="right")
    start = np.arange(1, n + 1)
    counts = np.maximum(end - start, 0)
    total = int(counts.sum())
    if total == 0:
        e = np.empty(0, dtype=np.intp)
        return e, e
    a = np.repeat(np.arange(n), counts)
    offs = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    b = a + 1 + offs
    return order[a], order[b]


@dataclass
class LayoutArrays:
    """Leaf elements of a layout as arrays (see the module docstring)."""

    layout: Layout
    elements: list[Element] = field(init=False)
    ids: list[str] = field(init=False)

    def __post_init__(self) -> None:
        lay = self.layout
        c = lay.canvas
        self.canvas = c
        self.W, self.H = float(c.width), float(c.height)
        self.short = min(self.W, self.H)
        self.ppu = float(c.px_per_unit) if c.px_per_unit > 0 else 1.0
        els = [e for e in lay.elements if e.kind != "group"]
        self.elements = els
        self.ids = [e.id for e in els]
        n = self.n = len(els)
        rows = []
        roles: list[str] = []
        gmap: dict[str, int] = {}
        codes = ROLE_CODES
        for e in els:
            b = e.box
            roles.append(e.role)
            imp = e.importance
            rows.append((
                b.x, b.y, b.width, b.height, e.opacity,
                ROLE_IMPORTANCE.get(e.role, 0.5) if imp == 0.5 else imp,
                e.font_size if e.font_size else np.nan,
                -1 if e.group is None else gmap.setdefault(e.group, len(gmap)),
                codes[e.role], _KIND_CODES[e.kind], e.locked, (e.font_weight or 400) >= 600,
                _ANCHOR_CODES.get(e.text_anchor, 0),
            ))
        a = np.array(rows, dtype=float).reshape(n, 13)
        self.x1, self.y1, self.w, self.h = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
        self.x2, self.y2 = self.x1 + self.w, self.y1 + self.h
        self.cx, self.cy = self.x1 + self.w / 2, self.y1 + self.h / 2
        self.area = self.w * self.h
        self.roles = roles
        self.opacity, self.importance, self.font = a[:, 4], a[:, 5], a[:, 6]
        self.group = a[:, 7].astype(int)
        self.role = a[:, 8].astype(int)
        kind = a[:, 9]
        self.is_text, self.is_image, self.is_shape = kind == 0, kind == 1, kind == 2
        self.locked, self.bold = a[:, 10] > 0, a[:, 11] > 0
        #: text anchor as the alignment type it aligns by: 0 left (start), 1 centre, 2 right (end)
        self.anchor = a[:, 12].astype(int)
        canvas_area = self.W * self.H
        self.is_deco = self.role == ROLE_CODES["decoration"]
        self.background = (self.role == ROLE_CODES["background"]) | (
            ~self.is_text & (self.area >= FULL_BLEED_FRACTION * canvas_area))
        self.visible = (self.opacity > 0.01) & ((self.w > 0) | (self.h > 0))
        self.units = self.visible & ~self.background

    # -- shared, lazily computed ------------------------------------------
    @cached_property
    def rgb(self) -> np.ndarray:
        """Fill colours as sRGB rows in [0, 1]; NaN rows where the fill is unknown or none."""
        cache: dict[str | None, tuple[float, float, float]] = {}
        nan3 = (np.nan, np.nan, np.nan)
        out = []
        for e in self.elements:
            f = e.fill
            v = cache.get(f)
            if v is None:
                v = cache[f] = hex_rgb(f) or nan3
            out.append(v)
        return np.array(out, dtype=float).reshape(self.n, 3)

    @cached_property
    def overlap_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pairs ``(i, j)`` (``i < j`` in paint order) of visible leaves whose boxes intersect, and the area.

        Sweeps along the axis where boxes are thinner relative to the canvas
        (fewer candidates), then keeps pairs that also overlap on the other axis.
        """
        idx = np.nonzero(self.visible & (self.area > 0))[0]
        if idx.size < 2:
            e = np.empty(0, dtype=np.intp)
            return e, e, np.empty(0)
        sweep_x = self.w[idx].sum() / self.W <= self.h[idx].sum() / self.H
        if sweep_x:
            a, b = candidate_pairs(self.x1[idx], self.x2[idx])
        else:
            a, b = candidate_pairs(self.y1[idx], self.y2[idx])
        i, j = idx[a], idx[b]
        ix = np.minimum(self.x2[i], self.x2[j]) - np.maximum(self.x1[i], self.x1[j])
        iy = np.minimum(self.y2[i], self.y2[j]) - np.maximum(self.y1[i], self.y1[j])
        keep = (ix > 0) & (iy > 0)
        i, j, inter = i[keep], j[keep], (ix * iy)[keep]
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        order = np.lexsort((hi, lo))
        return lo[order], hi[order], inter[order]

    def contains(self, outer: np.ndarray, inner: np.ndarray, tol_frac: float = 0.01) -> np.ndarray:
        """Whether box ``outer[k]`` contains box ``inner[k]`` (tolerance: 1 % of the canvas short side)."""
        t = tol_frac * self.short
        return ((self.x1[inner] >= self.x1[outer] - t) & (self.y1[inner] >= self.y1[outer] - t)
                & (self.x2[inner] <= self.x2[outer] + t) & (self.y2[inner] <= self.y2[outer] + t))

    def px(self, world: float | np.ndarray) -> float | np.ndarray:
        """World units → CSS px."""
        return world * self.ppu

    def name(self, i: int) -> str:
        """A short human label of leaf ``i`` for messages: role and id, plus a text excerpt."""
        e = self.elements[i]
        if e.text:
            t = " ".join(e.text.split())
            t = t if len(t) <= 24 else t[:23] + "…"
            return f"{e.role} '{e.id}' (\"{t}\")"
        return f"{e.role} '{e.id}'"
