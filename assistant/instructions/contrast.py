"""WCAG 2.x contrast of text against the flat shape painted under it.

Definitions (WCAG 2.1, "relative luminance" and "contrast ratio"): for an
sRGB channel ``c`` in [0, 1], ``lin(c) = c / 12.92`` when ``c <= 0.04045``,
else ``((c + 0.055) / 1.055) ** 2.4``; ``L = 0.2126 R + 0.7152 G + 0.0722 B``
of the linearised channels; ratio ``(L1 + 0.05) / (L2 + 0.05)`` with
``L1 >= L2``, from 1 to 21.

The backdrop of a text is the topmost element painted before it (lower
``z``) whose box contains the text box's centre and that has a flat fill and
is not an image; a white page when there is none. Images give no flat colour:
their texts are skipped here (the contrast metric renders them).
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.document import Element, Layout
from assistant.metrics.report import Finding


def _lin(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    return 0.2126 * _lin(r) + 0.7152 * _lin(g) + 0.0722 * _lin(b)


def contrast_ratio(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 … 21)."""
    a, b = relative_luminance(fg), relative_luminance(bg)
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


def backdrop(layout: Layout, text: Element) -> tuple[str | None, Element | None]:
    """Colour under ``text`` (``None`` when it is an image) and the element giving it."""
    cx, cy = text.box.cx, text.box.cy
    under = None
    for e in layout.elements:
        if e.id == text.id or e.z >= text.z or e.kind in ("text", "group"):
            continue
        b = e.box
        if b.x <= cx <= b.x2 and b.y <= cy <= b.y2 and (e.kind == "image" or (e.fill and e.opacity >= 0.5)):
            if under is None or e.z >= under.z:
                under = e
    if under is None:
        return "#ffffff", None
    if under.kind == "image":
        return None, under
    return under.fill, under


def contrast_findings(layout: Layout, texts: list[Element], min_ratio: float,
                      make_finding: Callable[..., Finding]) -> tuple[list[float], list[Finding]]:
    """Per-text scores ``clip((ratio - 1) / (min_ratio - 1), 0, 1)`` and findings."""
    scores: list[float] = []
    findings: list[Finding] = []
    for t in texts:
        bg, under = backdrop(layout, t)
        if bg is None or t.fill is None:
            continue
        ratio = contrast_ratio(t.fill, bg)
        s = 1.0 if min_ratio <= 1.0 else min(1.0, max(0.0, (ratio - 1.0) / (min_ratio - 1.0)))
        scores.append(s)
        if ratio < min_ratio:
            better = "#000000" if contrast_ratio("#000000", bg) >= contrast_ratio("#ffffff", bg) else "#ffffff"
            on = f"'{under.id}'" if under is not None else "the page"
            findings.append(make_finding(
                [t.id] + ([under.id] if under is not None else []),
                f"'{t.id}' ({t.fill}) on {on} ({bg}) has contrast {ratio:.1f}:1, want {min_ratio:.1f}:1",
                "error" if ratio < 3.0 else "warning",
                {"type": "set_text_style", "ids": [t.id], "font_size": None, "font_weight": None,
                 "fill": better, "font_family": None}))
    if not scores:
        scores = [1.0]
    return scores, findings


__all__ = ["relative_luminance", "contrast_ratio", "backdrop", "contrast_findings"]
