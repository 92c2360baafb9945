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
from functools import cached_property, lru_cache

import numpy as np

from assistant.document import ROLE_IMPORTANCE, Element, Layout
from assistant.geometry import Box

ROLE_CODES: dict[str, int] = {r: i for i, r in enumerate(
    ("title", "subtitle", "body", "caption", "cta", "logo", "image", "badge", "background", "decoration"))}

FULL_BLEED_FRACTION = 0.8
#: up to this many boxes ``overlap_pairs`` tests every pair instead of sweeping
ALL_PAIRS = 64
#: margins assumed when the canvas declares none, as a share of its short side (see ``margins``)
DEFAULT_MARGIN_FRACTION = 0.05
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


@lru_cache(maxsize=128)
def upper_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """All index pairs ``(a, b)``, ``a < b < n``, in row-major order (read-only arrays, cached per ``n``)."""
    a, b = np.triu_indices(n, 1)
    a.flags.writeable = False
    b.flags.writeable = False
    return a, b


def pair_count(lo: np.ndarray, hi: np.ndarray) -> int:
    """How many pairs ``candidate_pairs(lo, hi)`` would return, without building them (O(n log n))."""
    n = lo.shape[0]
    if n < 2:
        return 0
    slo = np.sort(lo)
    shi = hi[np.argsort(lo, kind="stable")]
    return int(np.maximum(np.searchsorted(slo, shi, side="right") - np.arange(1, n + 1), 0).sum())


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
        a = np.ascontiguousarray(np.array(rows, dtype=float).reshape(n, 13).T)  # one contiguous row per field
        self.x1, self.y1, self.w, self.h = a[0], a[1], a[2], a[3]
        self.x2, self.y2 = self.x1 + self.w, self.y1 + self.h
        self.cx, self.cy = self.x1 + self.w / 2, self.y1 + self.h / 2
        self.area = self.w * self.h
        self.roles = roles
        self.opacity, self.importance, self.font = a[4], a[5], a[6]
        self.group = a[7].astype(int)
        self.role = a[8].astype(int)
        kind = a[9]
        self.is_text, self.is_image, self.is_shape = kind == 0, kind == 1, kind == 2
        self.locked, self.bold = a[10] > 0, a[11] > 0
        #: text anchor as the alignment type it aligns by: 0 left (start), 1 centre, 2 right (end)
        self.anchor = a[12].astype(int)
        canvas_area = self.W * self.H
        self.is_deco = self.role == ROLE_CODES["decoration"]
        self.background = (self.role == ROLE_CODES["background"]) | (
            ~self.is_text & (self.area >= FULL_BLEED_FRACTION * canvas_area))
        self.visible = (self.opacity > 0.01) & ((self.w > 0) | (self.h > 0))
        self.units = self.visible & ~self.background

    # -- shared, lazily computed ------------------------------------------
    @cached_property
    def safe_box(self) -> Box:
        """``canvas.safe_box``, or 5 %-of-short-side margins when the canvas declares none."""
        c = self.canvas
        m = c.margins
        if max(m.top, m.right, m.bottom, m.left) > 0:
            return c.safe_box
        d = DEFAULT_MARGIN_FRACTION * self.short
        return Box(x=c.x + d, y=c.y + d, width=max(c.width - 2 * d, 0.0), height=max(c.height - 2 * d, 0.0))

    @cached_property
    def edges6(self) -> np.ndarray:
        """The six alignment coordinates as rows: left, centre-x, right, top, centre-y, bottom."""
        return np.array((self.x1, self.cx, self.x2, self.y1, self.cy, self.y2))

    @cached_property
    def edge_scale(self) -> np.ndarray:
        """Per row of ``edges6``: the canvas extent it is normalised by (width, width, width, height, …)."""
        return np.array((self.W, self.W, self.W, self.H, self.H, self.H))[:, None]

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

        Up to ``ALL_PAIRS`` boxes every pair is tested; beyond that, sweeps along
        the axis with fewer candidate pairs (counted first, without building
        them), then keeps pairs that also overlap on the other axis. The result
        is sorted, so it does not depend on the method or the axis swept.
        """
        idx = (self.visible & (self.area > 0)).nonzero()[0]
        if idx.size < 2:
            e = np.empty(0, dtype=np.intp)
            return e, e, np.empty(0)
        x1, x2, y1, y2 = self.x1[idx], self.x2[idx], self.y1[idx], self.y2[idx]
        if idx.size <= ALL_PAIRS:
            # every pair, already in (i, j) order: fewer numpy calls than a sweep on a small page
            a, b = upper_pairs(idx.size)
            ix = np.minimum(x2[a], x2[b]) - np.maximum(x1[a], x1[b])
            iy = np.minimum(y2[a], y2[b]) - np.maximum(y1[a], y1[b])
            keep = (ix > 0) & (iy > 0)
            return idx[a[keep]], idx[b[keep]], (ix * iy)[keep]
        if pair_count(x1, x2) <= pair_count(y1, y2):
            a, b = candidate_pairs(x1, x2)
        else:
            a, b = candidate_pairs(y1, y2)
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
