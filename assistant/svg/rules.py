"""SVG rendering rules the walk applies, as small pure functions.

* conditional processing (SVG 1.1 §5.8.1): ``requiredExtensions`` never
  passes (no extension is supported), ``systemLanguage`` matches English;
* the size of a drawing with every ``<use>`` expanded, computed before
  walking so that a reference bomb is refused at once;
* property values: numbers and percentages (``opacity``), keywords,
  ``overflow``; box intersection for clipping.
"""

from __future__ import annotations

from typing import Any

from assistant.geometry import Box, Matrix
from assistant.svg.tree import href, local_name, ref_id, transform_matrix


def conditions_pass(node: Any) -> bool:
    """SVG 1.1 §5.8.1 conditional processing (no extensions supported, language ``en``)."""
    ext = node.get("requiredExtensions")
    if ext is not None:
        return False
    lang = node.get("systemLanguage")
    if lang is not None:
        langs = [s.strip().lower() for s in lang.split(",") if s.strip()]
        return any(s == "en" or s.startswith("en-") for s in langs)
    return True


def expanded_size(root: Any, ids: dict[str, Any], cap: int) -> int:
    """Number of elements drawn with every ``<use>`` expanded (capped at ``cap + 1``).

    Iterative post-order over the tree where a ``use`` also depends on its
    target; references in a cycle count as nothing (they draw nothing).
    """
    memo: dict[Any, int] = {}
    active: set[Any] = set()

    def deps(node: Any) -> list[Any]:
        out = [c for c in node if isinstance(c.tag, str)]
        if local_name(node) == "use":
            t = ids.get(ref_id(href(node)) or "")
            if t is not None:
                out.append(t)
        return out

    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            active.discard(node)
            memo[node] = min(1 + sum(memo.get(k, 0) for k in deps(node)), cap + 1)
            continue
        if node in memo or node in active:
            continue
        active.add(node)
        stack.append((node, True))
        for k in deps(node):
            if k not in memo and k not in active:
                stack.append((k, False))
    return memo.get(root, 1)


def local_matrix_no_parent(node: Any) -> Matrix:
    """The ``transform`` of ``node`` alone (clip path content, ``<symbol>`` in SVG 2)."""
    return transform_matrix(node)


def num(text: str | None, default: float) -> float:
    if text is None:
        return default
    t = text.strip()
    try:
        if t.endswith("%"):
            return float(t[:-1]) / 100.0
        return float(t)
    except ValueError:
        return default


def clamp01(v: float) -> float:
    return 0.0 if v != v else min(max(v, 0.0), 1.0)


def is_keyword(value: str | None, *words: str) -> bool:
    return value is not None and value.strip().lower() in words


def overflow_visible(value: str | None) -> bool:
    return is_keyword(value, "visible", "auto")


def intersect(a: Box | None, b: Box | None) -> Box | None:
    if a is None:
        return b
    if b is None:
        return a
    return a.intersection(b) or Box(x=0, y=0, width=0, height=0)
