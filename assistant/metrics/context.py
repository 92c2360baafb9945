"""Layout arrays shared by all metrics, extracted once per evaluation.

``LayoutArrays`` holds the *leaf* elements of a layout (text, images, shapes;
groups are unions of their children and would double count) in paint order as
numpy arrays, plus masks every metric uses:

- ``background``: role ``background``, a pinned non-text element (a band, a panel
  behind content, an ornament: part of the backdrop, see ``Element.pinned``), or a
  non-text element covering at least 80 % of the canvas (a full-bleed image or panel).
- ``visible``: opacity above 1 % and a non-degenerate box.
- ``units``: visible, not background: what the geometric metrics
  (overlap, alignment, spacing, grouping, grid, balance, whitespace) look at.

An element's importance is its ``importance`` field, or its role's default
(``ROLE_IMPORTANCE``) when the field was left at the model default 0.5.

Pairwise work uses ``overlap_pairs`` (a sort-and-sweep over x or y, see
``candidate_pairs``), computed once and shared. So are, lazily and once per
evaluation, the index sets several metrics select (``unit_idx``,
``text_idx``, …), the alignment coordinates (``edges6``, one block, built
with the arrays) and the fill colours (``palette`` of the distinct fills,
``fill_code`` per leaf). A full report is a few hundred small numpy calls,
so the cost at a few dozen elements is the number of calls, not their size:
that is why layouts of up to ``native_core.MAX_ELEMENTS`` leaves are measured
by the compiled kernels (``native``, set per layout), which build these
arrays too and compute the same values.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from assistant.document import ROLE_IMPORTANCE, Element, Layout, hex_rgb
from assistant.geometry import Box
from assistant.metrics.native_core import kernels

ROLE_CODES: dict[str, int] = {r: i for i, r in enumerate(
    ("title", "subtitle", "body", "caption", "cta", "logo", "image", "badge", "background", "decoration"))}

FULL_BLEED_FRACTION = 0.8
#: up to this many boxes ``overlap_pairs`` tests every pair instead of sweeping
ALL_PAIRS = 64
#: margins assumed when the canvas declares none, as a share of its short side (see ``margins``)
DEFAULT_MARGIN_FRACTION = 0.05
_ANCHOR_CODES = {"start": 0, "middle": 1, "end": 2}
_KIND_CODES = {"text": 0, "image": 1, "shape": 2, "group": 3}
_KIND_RANGE = np.arange(3)[:, None]
_ANCHOR_RANGE = np.arange(3)[:, None]




#: Candidate pairs ``candidate_pairs`` builds at once when it filters them (bounds its memory on dense pages).
PAIR_CHUNK = 1 << 20

PairFilter = Callable[[np.ndarray, np.ndarray], np.ndarray]


def candidate_pairs(lo: np.ndarray, hi: np.ndarray, *, where: PairFilter | None = None,
                    chunk: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs ``(i, j)``, ``i != j``, whose intervals ``[lo, hi]`` overlap (sort and sweep).

    Sorting by ``lo``, each interval's partners start after it and before the
    first ``lo`` beyond its ``hi`` (``searchsorted``); pairs are generated with
    ``np.repeat`` without a Python loop. Cost O(n log n + k) for k pairs.

    With ``where`` (pairs → a mask of those to keep), the candidates are built
    ``chunk`` at a time and filtered as they are made (:func:`candidate_pair_blocks`),
    so memory follows the pairs kept, not the candidates: on a dense page the
    pairs that overlap on one axis grow with the square of the element count,
    those that also meet on the other do not.
    """
    e = np.empty(0, dtype=np.intp)
    whole = where is None and chunk is None  # nothing filtered: building the pairs in blocks saves nothing
    blocks = list(candidate_pair_blocks(lo, hi, where=where, chunk=sys.maxsize if whole else chunk))
    if not blocks:
        return e, e
    if len(blocks) == 1:
        return blocks[0]
    return np.concatenate([a for a, _ in blocks]), np.concatenate([b for _, b in blocks])


def candidate_pair_blocks(lo: np.ndarray, hi: np.ndarray, *, where: PairFilter | None = None,
                          chunk: int | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The pairs of :func:`candidate_pairs` in blocks built from at most about ``chunk`` candidates each.

    ``chunk`` defaults to ``PAIR_CHUNK``; ``where`` filters each block as it is
    made. Blocks come in the order :func:`candidate_pairs` lists the pairs.
    """
    chunk = PAIR_CHUNK if chunk is None else max(1, int(chunk))
    n = lo.shape[0]
    if n < 2:
        return
    order = np.argsort(lo, kind="stable")
    slo, shi = lo[order], hi[order]
    end = np.searchsorted(slo, shi, side="right")
    counts = np.maximum(end - np.arange(1, n + 1), 0)
    ends = np.cumsum(counts)
    total = int(ends[-1])
    if total == 0:
        return
    # rows of the sorted order, cut into blocks of at most `chunk` pairs (a block holds at least one row)
    bounds = [0, n]
    if total > chunk:
        cuts = np.unique(np.searchsorted(ends, np.arange(chunk, total, chunk), side="left"))
        bounds = [0, *(int(c) + 1 for c in cuts if 0 <= c < n - 1), n]
    for r0, r1 in zip(bounds[:-1], bounds[1:]):
        if r1 <= r0:
            continue
        c = counts[r0:r1]
        size = int(c.sum())
        if size == 0:
            continue
        a = np.repeat(np.arange(r0, r1), c)
        b = a + 1 + (np.arange(size) - np.repeat(np.cumsum(c) - c, c))
        ia, ib = order[a], order[b]
        if where is not None:
            keep = where(ia, ib)
            ia, ib = ia[keep], ib[keep]
        if ia.size:
            yield ia, ib


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
        self._names: dict[int, str] = {}
        c = lay.canvas
        self.canvas = c
        self.W, self.H = float(c.width), float(c.height)
        self.short = min(self.W, self.H)
        self.ppu = float(c.px_per_unit) if c.px_per_unit > 0 else 1.0
        els = [e for e in lay.elements if e.kind != "group"]
        self.elements = els
        self.ids = [e.id for e in els]
        n = self.n = len(els)
        #: the compiled kernels when they apply to this layout (``native_core.kernels``), else ``None``
        self.native = kernels(n)
        flat: list[float] = []
        roles: list[str] = []
        gmap: dict[str, int] = {}
        fills: dict[str | None, int] = {}
        codes = ROLE_CODES
        for e in els:
            d = e.__dict__  # the validated field values (plain reads, no attribute machinery)
            b = d["box"].__dict__
            role = d["role"]
            roles.append(role)
            imp = d["importance"]
            group = d["group"]
            flat.extend((
                b["x"], b["y"], b["width"], b["height"], d["opacity"],
                ROLE_IMPORTANCE.get(role, 0.5) if imp == 0.5 else imp,
                d["font_size"] or np.nan,
                -1 if group is None else gmap.setdefault(group, len(gmap)),
                codes["background" if d["pinned"] and d["kind"] != "text" else role], _KIND_CODES[d["kind"]],
                d["locked"], (d["font_weight"] or 400) >= 600,
                _ANCHOR_CODES.get(d["text_anchor"], 0), fills.setdefault(d["fill"], len(fills)),
            ))
        self._fills = list(fills)
        #: leaves whose ink is only part of their box (``Element.ink``: text on a path)
        self.inky = [k for k, e in enumerate(els) if e.__dict__["ink"]]
        if self.native is not None:
            self._native_arrays(flat, n)
        else:
            self._numpy_arrays(flat, n)
        self.roles = roles

    def _numpy_arrays(self, flat: list[float], n: int) -> None:
        """The arrays from the 14 values per leaf read by the constructor (see ``__post_init__``)."""
        a = np.array(flat, dtype=float).reshape(n, 14).T
        # the six alignment coordinates in one block: (x, y) × (start, centre, end)
        g = np.empty((2, 3, n))
        xy, wh = a[0:2], a[2:4]
        g[:, 0] = xy
        np.add(xy, wh / 2, out=g[:, 1])
        np.add(xy, wh, out=g[:, 2])
        #: the six alignment coordinates as rows: left, centre-x, right, top, centre-y, bottom
        self.edges6 = g.reshape(6, n)
        self.x1, self.cx, self.x2, self.y1, self.cy, self.y2 = self.edges6
        num = np.ascontiguousarray(a[2:7])
        self.w, self.h, self.opacity, self.importance, self.font = num
        self.area = self.w * self.h
        codes_i = a[7:14].astype(int, order="C")
        self.group, self.role = codes_i[0], codes_i[1]
        self.is_text, self.is_image, self.is_shape = codes_i[2] == _KIND_RANGE
        self.locked, self.bold = codes_i[3:5] > 0
        #: text anchor as the alignment type it aligns by: 0 left (start), 1 centre, 2 right (end)
        self.anchor = codes_i[5]
        #: row of each leaf's fill in ``palette``
        self.fill_code = codes_i[6]
        self.is_deco = self.role == ROLE_CODES["decoration"]
        self.background = (self.role == ROLE_CODES["background"]) | (
            ~self.is_text & (self.area >= FULL_BLEED_FRACTION * (self.W * self.H)))
        self.visible = (self.opacity > 0.01) & ((self.w > 0) | (self.h > 0))
        self.units = self.visible & ~self.background

    def _native_arrays(self, flat: list[float], n: int) -> None:
        """``_numpy_arrays`` by the compiled kernel ``layout_arrays``: the same arrays, as rows of three blocks."""
        f, i, b = np.empty((12, n)), np.empty((4, n), dtype=np.int64), np.empty((9, n), dtype=bool)
        self.native.layout_arrays(np.array(flat, dtype=float), FULL_BLEED_FRACTION * (self.W * self.H),
                                  ROLE_CODES["background"], ROLE_CODES["decoration"], f, i, b)
        self.edges6 = f[:6]
        (self.x1, self.cx, self.x2, self.y1, self.cy, self.y2,
         self.w, self.h, self.opacity, self.importance, self.font, self.area) = f
        self.group, self.role, self.anchor, self.fill_code = i
        (self.is_text, self.is_image, self.is_shape, self.locked, self.bold,
         self.is_deco, self.background, self.visible, self.units) = b

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
    def is_picture(self) -> np.ndarray:
        """Pictures, and the shapes that stand for one (a placeholder frame given the ``image`` role)."""
        return self.is_image | (~self.is_text & (self.role == ROLE_CODES["image"]))

    @cached_property
    def opaque(self) -> np.ndarray:
        """Leaves that hide what is painted under them.

        These are the visible non-text leaves at ≥ 50 % opacity that are images or
        paint a fill (not ``none`` / ``transparent``).
        """
        painted = np.array([f not in (None, "none", "transparent") for f in self._fills], dtype=bool)
        return ~self.is_text & self.visible & (self.opacity >= 0.5) & (self.is_image | painted[self.fill_code])

    @cached_property
    def unit_idx(self) -> np.ndarray:
        """Indices of the ``units`` (visible, non-background leaves)."""
        return self.units.nonzero()[0]

    @cached_property
    def unit_area_idx(self) -> np.ndarray:
        """Indices of the units with a positive area (the balance and whitespace elements)."""
        return (self.units & (self.area > 0)).nonzero()[0]

    @cached_property
    def unit_nodeco_idx(self) -> np.ndarray:
        """Indices of the units that are not decorations (the spacing and grouping elements)."""
        return (self.units & ~self.is_deco).nonzero()[0]

    @cached_property
    def text_idx(self) -> np.ndarray:
        """Indices of the visible text leaves."""
        return (self.is_text & self.visible).nonzero()[0]

    @cached_property
    def align_values(self) -> np.ndarray:
        """``edges6`` divided by the canvas extent per row, NaN where a text does not align by that x type.

        A text aligns horizontally only by its anchor (see ``alignment``): its
        other two x types are masked out (NaN sorts last and matches nothing).
        """
        v = self.edges6 / self.edge_scale
        v[:3][(_ANCHOR_RANGE != self.anchor) & self.is_text] = np.nan
        return v

    @cached_property
    def edge_scale(self) -> np.ndarray:
        """Per row of ``edges6``: the canvas extent it is normalised by (width, width, width, height, …)."""
        return np.array((self.W, self.W, self.W, self.H, self.H, self.H))[:, None]

    @cached_property
    def palette(self) -> np.ndarray:
        """The distinct fills as sRGB rows in [0, 1] (NaN rows where unknown or none); see ``fill_code``."""
        nan3 = (np.nan, np.nan, np.nan)
        return np.array([hex_rgb(f) or nan3 for f in self._fills], dtype=float).reshape(-1, 3)

    @cached_property
    def rgb(self) -> np.ndarray:
        """Fill colours as sRGB rows in [0, 1]; NaN rows where the fill is unknown or none."""
        return self.palette[self.fill_code]

    @cached_property
    def overlap_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pairs ``(i, j)`` (``i < j`` in paint order) of visible leaves whose boxes intersect, and the area.

        Up to ``ALL_PAIRS`` boxes every pair is tested; beyond that, sweeps along
        the axis with fewer candidate pairs (counted first, without building
        them), then keeps pairs that also overlap on the other axis. The result
        is sorted, so it does not depend on the method or the axis swept. The
        compiled kernel (``overlap_pairs``, every pair) gives the same pairs.
        """
        if self.native is not None:
            i, j, inter = self.native.overlap_pairs(self.edges6, self.visible, self.area)
            return self._with_ink(np.frombuffer(i, dtype=np.intp), np.frombuffer(j, dtype=np.intp),
                                  np.frombuffer(inter))
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
            return self._with_ink(idx[a[keep]], idx[b[keep]], (ix * iy)[keep])

        def meet(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            return ((np.minimum(x2[a], x2[b]) > np.maximum(x1[a], x1[b]))
                    & (np.minimum(y2[a], y2[b]) > np.maximum(y1[a], y1[b])))

        if pair_count(x1, x2) <= pair_count(y1, y2):
            a, b = candidate_pairs(x1, x2, where=meet)
        else:
            a, b = candidate_pairs(y1, y2, where=meet)
        i, j = idx[a], idx[b]
        ix = np.minimum(self.x2[i], self.x2[j]) - np.maximum(self.x1[i], self.x1[j])
        iy = np.minimum(self.y2[i], self.y2[j]) - np.maximum(self.y1[i], self.y1[j])
        keep = (ix > 0) & (iy > 0)
        i, j, inter = i[keep], j[keep], (ix * iy)[keep]
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        order = np.lexsort((hi, lo))
        return self._with_ink(lo[order], hi[order], inter[order])

    def _with_ink(self, i: np.ndarray, j: np.ndarray, inter: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pairs unchanged without ``inky`` leaves; else measured by ink, dropping pairs whose ink does not meet."""
        if not self.inky or i.size == 0:
            return i, j, inter
        inter = self._ink_intersections(i, j, inter)
        keep = inter > 0
        return i[keep], j[keep], inter[keep]

    @cached_property
    def ink_area(self) -> np.ndarray:
        """``area``, or for the leaves in ``inky`` the area of their ink (the sum of its boxes, at most the box)."""
        if not self.inky:
            return self.area
        out = self.area.copy()
        for k in self.inky:
            e = self.ink_edges(k)
            out[k] = min(float(((e[:, 2] - e[:, 0]) * (e[:, 3] - e[:, 1])).sum()), float(self.area[k]))
        return out

    def ink_edges(self, k: int) -> np.ndarray:
        """The ink boxes of leaf ``k`` as rows ``x1, y1, x2, y2`` (its box when it has no ``ink``)."""
        cache = self.__dict__.setdefault("_ink_edges", {})
        if k not in cache:
            cache[k] = np.array([(b.x, b.y, b.x2, b.y2) for b in self.elements[k].ink_boxes()], dtype=float)
        return cache[k]

    def _ink_intersections(self, i: np.ndarray, j: np.ndarray, inter: np.ndarray) -> np.ndarray:
        """``inter`` with the pairs that involve an ``inky`` leaf measured against its ink boxes instead.

        The ink of a pair is the sum over its ink boxes of their intersection
        with the other's (boxes along a path meet end to end, so the sum
        counts little twice), at most the smaller ink area.
        """
        inky = np.zeros(self.n, dtype=bool)
        inky[self.inky] = True
        out = inter.copy()
        for k in (inky[i] | inky[j]).nonzero()[0].tolist():
            a, b = self.ink_edges(int(i[k])), self.ink_edges(int(j[k]))
            w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
            h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
            area = float((np.maximum(w, 0.0) * np.maximum(h, 0.0)).sum())
            out[k] = min(area, float(self.ink_area[i[k]]), float(self.ink_area[j[k]]))
        return out

    def contains(self, outer: np.ndarray, inner: np.ndarray, tol_frac: float = 0.01) -> np.ndarray:
        """Whether box ``outer[k]`` contains box ``inner[k]`` (tolerance: 1 % of the canvas short side)."""
        t = tol_frac * self.short
        return ((self.x1[inner] >= self.x1[outer] - t) & (self.y1[inner] >= self.y1[outer] - t)
                & (self.x2[inner] <= self.x2[outer] + t) & (self.y2[inner] <= self.y2[outer] + t))

    def px(self, world: float | np.ndarray) -> float | np.ndarray:
        """World units → CSS px."""
        return world * self.ppu

    def name(self, i: int) -> str:
        """A short human label of leaf ``i`` for messages: role and id, plus a text excerpt (made once per leaf)."""
        label = self._names.get(i)
        if label is None:
            e = self.elements[i]
            if e.text:
                t = " ".join(e.text.split())
                t = t if len(t) <= 24 else t[:23] + "…"
                label = f"{e.role} '{e.id}' (\"{t}\")"
            else:
                label = f"{e.role} '{e.id}'"
            self._names[i] = label
        return label
