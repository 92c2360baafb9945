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
comprehension without a lookup per box.

A query may be given ``limit``: it stops after that many answers. Callers
that take the answer with the highest index (the nearest in paint order)
use it to bound the work on degenerate files (thousands of boxes stacked at
one spot); the answer is then the best among those seen.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from assistant.geometry import Box

Edges = tuple[float, float, float, float]

#: Sides below this (world units) count as this, so that points and hairlines share a level.
_MIN_SIDE = 1e-9
#: Cell size of a level, in units of the longest side of its boxes (fewer cells to visit per query).
CELL = 1.0


def edges(box: Box) -> Edges:
    """``(x1, y1, x2, y2)`` of a box."""
    return (box.x, box.y, box.x + box.width, box.y + box.height)


class BoxIndex:
    """Boxes by integer key (their index in some list), queried by the boxes they meet."""

    def __init__(self, boxes: Iterable[tuple[int, Box]] = ()) -> None:
        self._cells: dict[tuple[int, int, int], list[tuple[int, float, float, float, float]]] = {}
        self._levels: dict[int, list[tuple[int, int]]] = {}
        self._edges: dict[int, Edges] = {}
        self._removed: set[int] = set()
        for key, box in boxes:
            self.add(key, box)

    def __len__(self) -> int:
        return len(self._edges) - len(self._removed)

    def add(self, key: int, box: Box) -> None:
        """File ``box`` under ``key`` (a key is filed once)."""
        e = edges(box)
        side = max(e[2] - e[0], e[3] - e[1], _MIN_SIDE)
        level = math.ceil(math.log2(side))
        size = CELL * 2.0 ** level
        cell = (level, math.floor(e[0] / size), math.floor(e[1] / size))
        bucket = self._cells.get(cell)
        if bucket is None:
            bucket = self._cells[cell] = []
            self._levels.setdefault(level, []).append(cell[1:])
        bucket.append((key, *e))
        self._edges[key] = e

    def remove(self, key: int) -> None:
        """Leave ``key`` out of later answers."""
        self._removed.add(key)

    def box(self, key: int) -> Edges:
        """The edges filed under ``key``."""
        return self._edges[key]

    def query(self, box: Box | Edges, *, limit: int | None = None) -> list[int]:
        """Keys of the boxes that meet ``box`` (touching counts), at most ``limit`` of them."""
        qx1, qy1, qx2, qy2 = box if isinstance(box, tuple) else edges(box)
        found: list[int] = []
        removed = self._removed
        get = self._cells.get
        for level, cells in self._levels.items():
            span = 2.0 ** level
            size = CELL * span
            # a box of this level starts in its cell and is at most `span` long
            ix0, ix1 = math.floor((qx1 - span) / size), math.floor(qx2 / size)
            iy0, iy1 = math.floor((qy1 - span) / size), math.floor(qy2 / size)
            if (ix1 - ix0 + 1) * (iy1 - iy0 + 1) > len(cells):
                keys: Iterable[tuple[int, int]] = [c for c in cells if ix0 <= c[0] <= ix1 and iy0 <= c[1] <= iy1]
            else:
                keys = [(ix, iy) for ix in range(ix0, ix1 + 1) for iy in range(iy0, iy1 + 1)]
            for ix, iy in keys:
                bucket = get((level, ix, iy))
                if not bucket:
                    continue
                found += [k for k, x1, y1, x2, y2 in bucket
                          if x1 <= qx2 and qx1 <= x2 and y1 <= qy2 and qy1 <= y2 and k not in removed]
                if limit is not None and len(found) >= limit:
                    return found[:limit]
        return found


__all__ = ["BoxIndex", "edges"]
