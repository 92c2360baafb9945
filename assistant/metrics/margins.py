"""Margins / safe area: elements crossing the safe box.

Definition. O'Donovan et al. 2014 penalise elements that enter the page
margins. The safe box is ``canvas.safe_box``; when the canvas declares no
margins at all, 5 % of the canvas short side on every side (as
``Canvas.with_default_margins``). For each visible leaf the intrusion depth
``δ`` is how far its box reaches past the safe box (largest over the four
sides), measured in margin widths; the score is ``1 / (1 + Σ δ)`` (one
element reaching the canvas edge scores 0.5; moving further keeps lowering
it).

Exempt: backgrounds (role or ≥ 80 % of the canvas), and images, shapes and
decorations that touch or cross the canvas edge (an intentional bleed). Text
never bleeds intentionally. The suggestion moves the element back inside.
The numbers come from ``intrusions`` (numpy) or, for layouts of at most
``native_core.MAX_ELEMENTS`` leaves, the compiled kernel ``_native.margins``.
"""

from __future__ import annotations

import numpy as np

from assistant.geometry import Box
from assistant.metrics.context import DEFAULT_MARGIN_FRACTION, LayoutArrays
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "margins"
DEFAULT_FRACTION = DEFAULT_MARGIN_FRACTION
SCALE = 1.0
MAX_FINDINGS = 20


def effective_safe_box(la: LayoutArrays) -> Box:
    """``canvas.safe_box``, or 5 %-of-short-side margins when the canvas declares none (computed once per ``la``)."""
    return la.safe_box


#: an element past the safe area: ``(leaf, penalty, depth, dx, dy)``, ``dx``/``dy`` the move back inside
Intrusion = tuple[int, float, float, float, float]


def intrusions(la: LayoutArrays, safe: Box) -> tuple[float, list[Intrusion]]:
    """The numeric part of ``margins`` (numpy).

    Returns ``(score, intrusions)``: the score and the elements whose depth
    past ``safe`` exceeds 0.1 % of a margin, deepest first (ties in paint
    order); each with the move back inside (0 along an axis where the element
    is larger than the safe box). The compiled kernel ``_native.margins``
    returns the same.
    """
    c = la.canvas
    ml, mt = max(safe.x - c.x, 1e-9), max(safe.y - c.y, 1e-9)
    mr, mb = max(c.x + c.width - safe.x2, 1e-9), max(c.y + c.height - safe.y2, 1e-9)
    tol = 0.002 * la.short
    bleeds = ~la.is_text & ((la.x1 <= c.x + tol) | (la.y1 <= c.y + tol)
                            | (la.x2 >= c.x + c.width - tol) | (la.y2 >= c.y + c.height - tol))
    idx = (la.units & ~bleeds).nonzero()[0]
    if idx.size == 0:
        return 1.0, []
    depth = np.maximum(np.maximum(np.maximum((safe.x - la.x1[idx]) / ml, (safe.y - la.y1[idx]) / mt),
                                  np.maximum((la.x2[idx] - safe.x2) / mr, (la.y2[idx] - safe.y2) / mb)), 0.0)
    pen = np.where(depth > 0.001, depth, 0.0)
    score = float(1.0 / (1.0 + SCALE * pen.sum()))
    bad = pen.nonzero()[0]
    bad = bad[np.argsort(-pen[bad], kind="stable")]
    i = idx[bad]
    x1, y1, x2, y2 = la.x1[i], la.y1[i], la.x2[i], la.y2[i]
    dx = np.where(la.w[i] <= safe.width, np.maximum(safe.x - x1, 0.0) + np.minimum(safe.x2 - x2, 0.0), 0.0)
    dy = np.where(la.h[i] <= safe.height, np.maximum(safe.y - y1, 0.0) + np.minimum(safe.y2 - y2, 0.0), 0.0)
    return score, list(zip(i.tolist(), pen[bad].tolist(), depth[bad].tolist(), dx.tolist(), dy.tolist()))


def margins(la: LayoutArrays) -> MetricResult:
    """Safe-area intrusion score (see module docstring)."""
    safe = effective_safe_box(la)
    if la.native is not None:
        c = la.canvas
        score, bad = la.native.margins(la.units, la.is_text, la.edges6, la.w, la.h, c.x, c.y, c.width, c.height,
                                       la.short, safe.x, safe.y, safe.width, safe.height, SCALE)
    else:
        score, bad = intrusions(la, safe)
    findings: list[Finding] = []
    if not bad:
        return metric_result(name=NAME, score=score, findings=findings)
    ids, locked = la.ids, la.locked.tolist()
    for i, pk, dk, dx, dy in bad[:MAX_FINDINGS]:
        sugg = None if locked[i] or (dx == 0 and dy == 0) else {
            "type": "move", "ids": [ids[i]], "dx": round(dx, 3), "dy": round(dy, 3)}
        findings.append(finding(
            metric=NAME, element_ids=[ids[i]],
            message=(f"{la.name(i)} reaches {dk:.0%} of a margin past the safe area"
                     + (" and off the canvas" if dk > 1 else "")),
            severity=severity_for(pk, medium=0.3, high=0.9), suggestion=sugg, impact=pk))
    return metric_result(name=NAME, score=score, findings=findings)
