"""A spatial index of boxes, so that import stays O(n log n) in the number of elements.

Grouping and role rules ask "which boxes meet this one?" for every element
(the shape under a button label, the colour behind a picture, the picture
above a caption, the text nearest a caption). Scanning every element for each
would make import quadratic: 8 000 elements took 37 s that way.

``BoxIndex`` files each box by its top-left corner in a grid of one level
per size class: a box whose longest side is at most 2^k (the power of two
just above it) goes to level k, whose cells are ``CELL`` times that side. A
query visits, on each level in use, only the cells a box of that level
meeting the query could start in, so it costs about O(levels + answers).
Boxes are kept as plain ``(x1, y1, x2, y2)`` tuples; each cell holds
``(key, x1, y1, x2, y2)`` rows, so that a cell is filtered in one
comprehension without a lookup per box. A cell also keeps the extremes of
its boxes' edges, so that a query passes over a cell none of whose boxes can
meet it, and takes a cell all of whose boxes meet it whole, without looking
at its boxes one by one.

A query may be given ``limit``: it stops after that many answers. Callers
that take the answer with the highest index (the nearest in paint order)
use it to bound the work on degenerate files (thousands of boxes stacked at
one spot); the answer is then the best among those seen.

``assistant/importer/native/spatial.c`` (the extension ``assistant.importer._spatial``,
built with the metric kernels) is the same index compiled, with the same answers in
the same order (``tests/test_spatial.py`` compares them); ``BoxIndex`` uses it when it
is built and ``LAYOUT_ASSISTANT_NATIVE`` is not ``0``, and ``PyBoxIndex``, the
definition below, otherwise. Keys are then list indices (below 2^30).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from itertools import product

from assistant.geometry import Box

try:
    from assistant.importer import _spatial
except ImportError:  # not compiled: the definition below
    _spatial = None

Edges = tuple[float, float, float, float]

#: Sides below this (world units) count as this, so that points and hairlines share a level.
_MIN_SIDE = 1e-9
#: Cell size of a level, in units of the longest side of its boxes (fewer cells to visit per query).
CELL = 1.0


def edges(box: Box) -> Edges:
    """``(x1, y1, x2, y2)`` of a box."""
    return (box.x, box.y, box.x + box.width, box.y + box.height)


class _Cell:
    """The boxes starting in one cell: their rows and keys, and how far their edges reach."""

    __slots__ = ("rows", "keys", "min_x1", "min_y1", "max_x1", "max_y1", "min_x2", "min_y2", "max_x2", "max_y2")

    def __init__(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.rows: list[tuple[int, float, float, float, float]] = []
        self.keys: list[int] = []
        self.min_x1, self.min_y1, self.max_x1, self.max_y1 = x1, y1, x1, y1
        self.min_x2, self.min_y2, self.max_x2, self.max_y2 = x2, y2, x2, y2

    def add(self, key: int, x1: float, y1: float, x2: float, y2: float) -> None:
        """File one box."""
        self.rows.append((key, x1, y1, x2, y2))
        self.keys.append(key)
        if x1 < self.min_x1:
            self.min_x1 = x1
        elif x1 > self.max_x1:
            self.max_x1 = x1
        if y1 < self.min_y1:
            self.min_y1 = y1
        elif y1 > self.max_y1:
            self.max_y1 = y1
        if x2 < self.min_x2:
            self.min_x2 = x2
        elif x2 > self.max_x2:
            self.max_x2 = x2
        if y2 < self.min_y2:
            self.min_y2 = y2
        elif y2 > self.max_y2:
            self.max_y2 = y2


class _Level:
    """The cells of one size class: ``grid[ix, iy]`` holds the boxes starting in cell ``(ix, iy)``."""

    __slots__ = ("span", "size", "cells", "grid")

    def __init__(self, level: int) -> None:
        self.span = 2.0 ** level
        self.size = CELL * self.span
        #: the occupied cells ``(ix, iy, cell)``, in the order they were first filled
        self.cells: list[tuple[int, int, _Cell]] = []
        self.grid: dict[tuple[int, int], _Cell] = {}


class PyBoxIndex:
    """Boxes by integer key (their index in some list), queried by the boxes they meet."""

    def __init__(self, boxes: Iterable[tuple[int, Box]] = ()) -> None:
        self._levels: dict[int, _Level] = {}
        self._edges: dict[int, Edges] = {}
        self._removed: set[int] = set()
        for key, box in boxes:
            self.add(key, box)

    def __len__(self) -> int:
        return len(self._edges) - len(self._removed)

    def add(self, key: int, box: Box) -> None:
        """File ``box`` under ``key`` (a key is filed once)."""
        # copies (``* 1.0`` is exact), so that the numbers a query compares lie together in memory
        x1, y1 = box.x * 1.0, box.y * 1.0
        x2, y2 = x1 + box.width, y1 + box.height
        level = math.ceil(math.log2(max(x2 - x1, y2 - y1, _MIN_SIDE)))
        lv = self._levels.get(level)
        if lv is None:
            lv = self._levels[level] = _Level(level)
        ix, iy = math.floor(x1 / lv.size), math.floor(y1 / lv.size)
        cell = lv.grid.get((ix, iy))
        if cell is None:
            cell = lv.grid[ix, iy] = _Cell(x1, y1, x2, y2)
            lv.cells.append((ix, iy, cell))
        cell.add(key, x1, y1, x2, y2)
        self._edges[key] = (x1, y1, x2, y2)

    def remove(self, key: int) -> None:
        """Leave ``key`` out of later answers."""
        self._removed.add(key)

    def box(self, key: int) -> Edges:
        """The edges filed under ``key``."""
        return self._edges[key]

    def query(self, box: Box | Edges, *, limit: int | None = None) -> list[int]:
        """Keys of the boxes that meet ``box`` (touching counts), at most ``limit`` of them.

        They come level by level and cell by cell, in the order they were filed within a cell.
        """
        qx1, qy1, qx2, qy2 = box if isinstance(box, tuple) else edges(box)
        found: list[int] = []
        removed = self._removed
        floor = math.floor
        for lv in self._levels.values():
            span, size = lv.span, lv.size
            # a box of this level starts in its cell and is at most `span` long
            ix0, ix1 = floor((qx1 - span) / size), floor(qx2 / size)
            iy0, iy1 = floor((qy1 - span) / size), floor(qy2 / size)
            if (ix1 - ix0 + 1) * (iy1 - iy0 + 1) > len(lv.cells):
                cells = [c for ix, iy, c in lv.cells if ix0 <= ix <= ix1 and iy0 <= iy <= iy1]
            else:
                spots = product(range(ix0, ix1 + 1), range(iy0, iy1 + 1))
                cells = [c for c in map(lv.grid.get, spots) if c is not None]
            for c in cells:
                if c.min_x1 > qx2 or c.max_x2 < qx1 or c.min_y1 > qy2 or c.max_y2 < qy1:
                    pass  # no box of the cell meets the query
                elif c.max_x1 <= qx2 and c.min_x2 >= qx1 and c.max_y1 <= qy2 and c.min_y2 >= qy1:
                    found += [k for k in c.keys if k not in removed] if removed else c.keys  # every box does
                elif removed:
                    found += [k for k, x1, y1, x2, y2 in c.rows
                              if x1 <= qx2 and qx1 <= x2 and y1 <= qy2 and qy1 <= y2 and k not in removed]
                else:
                    found += [k for k, x1, y1, x2, y2 in c.rows if x1 <= qx2 and qx1 <= x2 and y1 <= qy2 and qy1 <= y2]
                if limit is not None and len(found) >= limit:
                    return found[:limit]
        return found


class _CompiledBoxIndex:
    """``PyBoxIndex`` answered by the compiled index (same answers, in the same order)."""

    __slots__ = ("_index",)

    def __init__(self, boxes: Iterable[tuple[int, Box]] = ()) -> None:
        self._index = _spatial.BoxIndex()
        add = self._index.add
        for key, box in boxes:
            add(key, box.x, box.y, box.width, box.height)

    def __len__(self) -> int:
        return len(self._index)

    def add(self, key: int, box: Box) -> None:
        """File ``box`` under ``key`` (a key is filed once)."""
        self._index.add(key, box.x, box.y, box.width, box.height)

    def remove(self, key: int) -> None:
        """Leave ``key`` out of later answers."""
        self._index.remove(key)

    def box(self, key: int) -> Edges:
        """The edges filed under ``key``."""
        return self._index.box(key)

    def query(self, box: Box | Edges, *, limit: int | None = None) -> list[int]:
        """Keys of the boxes that meet ``box`` (touching counts), at most ``limit`` of them."""
        qx1, qy1, qx2, qy2 = box if isinstance(box, tuple) else edges(box)
        if limit is None:
            return self._index.query(qx1, qy1, qx2, qy2)
        return self._index.query(qx1, qy1, qx2, qy2, limit)


#: The index import uses: compiled when it is built and not switched off.
BoxIndex: type[PyBoxIndex] | type[_CompiledBoxIndex] = (
    _CompiledBoxIndex if _spatial is not None and os.environ.get("LAYOUT_ASSISTANT_NATIVE", "1") != "0"
    else PyBoxIndex)


__all__ = ["BoxIndex", "PyBoxIndex", "Edges", "edges"]
