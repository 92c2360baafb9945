"""SVG rendering rules the walk applies, as small pure functions.

* conditional processing (SVG 1.1 §5.8.1): ``requiredExtensions`` never
  passes (no extension is supported), ``systemLanguage`` matches English;
* the size of a drawing with every ``<use>`` expanded, computed before
  walking so that a reference bomb is refused at once;
* property values: numbers and percentages (``opacity``), keywords,
  ``overflow``; box intersection for clipping.
"""

from __future__ import annotations

from assistant.geometry import Box, Matrix
from assistant.svg.tree import SvgNode, href, local_name, ref_id, transform_matrix


def conditions_pass(node: SvgNode) -> bool:
    """SVG 1.1 §5.8.1 conditional processing (no extensions supported, language ``en``)."""
    ext = node.get("requiredExtensions")
    if ext is not None:
        return False
    lang = node.get("systemLanguage")
    if lang is not None:
        langs = [s.strip().lower() for s in lang.split(",") if s.strip()]
        return any(s == "en" or s.startswith("en-") for s in langs)
    return True


def expanded_size(root: SvgNode, ids: dict[str, SvgNode], cap: int) -> int:
    """Number of elements drawn with every ``<use>`` expanded (capped at ``cap + 1``).

    Iterative post-order over the tree where a ``use`` also depends on its
    target; references in a cycle count as nothing (they draw nothing).
    """
    memo: dict[SvgNode, int] = {}
    active: set[SvgNode] = set()

    def deps(node: SvgNode) -> list[SvgNode]:
        out = [c for c in node if isinstance(c.tag, str)]
        if local_name(node) == "use":
            t = ids.get(ref_id(href(node)) or "")
            if t is not None:
                out.append(t)
        return out

    stack: list[tuple[SvgNode, bool]] = [(root, False)]
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


def local_matrix_no_parent(node: SvgNode) -> Matrix:
    """The ``transform`` of ``node`` alone (clip path content, ``<symbol>`` in SVG 2)."""
    return transform_matrix(node)


def num(text: str | None, default: float) -> float:
    """``text`` as a number (a percentage as a fraction); ``default`` when it is missing or not a number."""
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
    """``v`` clamped to [0, 1]; NaN becomes 0."""
    return 0.0 if v != v else min(max(v, 0.0), 1.0)


def is_keyword(value: str | None, *words: str) -> bool:
    """True when ``value`` is one of ``words`` (case and surrounding spaces ignored)."""
    return value is not None and value.strip().lower() in words


def overflow_visible(value: str | None) -> bool:
    """True when an ``overflow`` value lets content show outside the viewport."""
    return is_keyword(value, "visible", "auto")


def intersect(a: Box | None, b: Box | None) -> Box | None:
    """The overlap of two clip boxes, None meaning no clip; an empty box when they do not overlap."""
    if a is None:
        return b
    if b is None:
        return a
    return a.intersection(b) or Box(x=0, y=0, width=0, height=0)
