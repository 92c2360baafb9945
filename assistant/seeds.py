"""Seed lists as people type them: ``0-9``, ``1,3,5``, ``0-4,10,20-22``.

Used by ``layout-assistant tasks export --seeds`` and ``eval-planner --seeds``.
"""

from __future__ import annotations

import re

from assistant.errors import EnvError

_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")
#: Most seeds one spec may expand to (guards against typos like ``0-99999999``).
MAX_SEEDS = 100_000


def parse_seeds(spec: str) -> list[int]:
    """Expand ``spec`` to a sorted list of distinct non-negative seeds.

    Ranges are inclusive (``100-109`` is ten seeds). Raises ``EnvError``
    naming the bad part for anything else (negative numbers, ``5-2``, words).
    """
    seeds: set[int] = set()
    if not spec or not spec.strip():
        raise EnvError("no seeds given; write them like 0-9 or 1,3,5")
    for part in spec.split(","):
        m = _PART.match(part)
        if not m:
            raise EnvError(f"bad seed {part.strip()!r} in {spec!r}; write seeds like 0-9 or 1,3,5")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise EnvError(f"bad seed range {part.strip()!r}: the end is below the start")
        if hi - lo + 1 + len(seeds) > MAX_SEEDS:
            raise EnvError(f"seed spec {spec!r} names more than {MAX_SEEDS} seeds")
        seeds.update(range(lo, hi + 1))
    return sorted(seeds)


__all__ = ["parse_seeds", "MAX_SEEDS"]
