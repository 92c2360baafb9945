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


def margins(la: LayoutArrays) -> MetricResult:
    """Safe-area intrusion score (see module docstring)."""
    c = la.canvas
    safe = effective_safe_box(la)
    ml, mt = max(safe.x - c.x, 1e-9), max(safe.y - c.y, 1e-9)
    mr, mb = max(c.x + c.width - safe.x2, 1e-9), max(c.y + c.height - safe.y2, 1e-9)
    tol = 0.002 * la.short
    bleeds = ~la.is_text & ((la.x1 <= c.x + tol) | (la.y1 <= c.y + tol)
                            | (la.x2 >= c.x + c.width - tol) | (la.y2 >= c.y + c.height - tol))
    idx = (la.units & ~bleeds).nonzero()[0]
    if idx.size == 0:
        return metric_result(name=NAME, score=1.0)
    depth = np.maximum(np.maximum(np.maximum((safe.x - la.x1[idx]) / ml, (safe.y - la.y1[idx]) / mt),
                                  np.maximum((la.x2[idx] - safe.x2) / mr, (la.y2[idx] - safe.y2) / mb)), 0.0)
    pen = np.where(depth > 0.001, depth, 0.0)
    score = float(1.0 / (1.0 + SCALE * pen.sum()))
    findings: list[Finding] = []
    bad = pen.nonzero()[0]
    if bad.size == 0:
        return metric_result(name=NAME, score=score, findings=findings)
    ids = la.ids
    for k in bad[np.argsort(-pen[bad], kind="stable")][:MAX_FINDINGS].tolist():
        i = int(idx[k])
        x1, y1, x2, y2 = float(la.x1[i]), float(la.y1[i]), float(la.x2[i]), float(la.y2[i])
        dx = dy = 0.0
        if la.w[i] <= safe.width:
            dx = max(safe.x - x1, 0.0) + min(safe.x2 - x2, 0.0)
        if la.h[i] <= safe.height:
            dy = max(safe.y - y1, 0.0) + min(safe.y2 - y2, 0.0)
        pk, dk = float(pen[k]), float(depth[k])
        sugg = None if la.locked[i] or (dx == 0 and dy == 0) else {
            "type": "move", "ids": [ids[i]], "dx": round(dx, 3), "dy": round(dy, 3)}
        findings.append(finding(
            metric=NAME, element_ids=[ids[i]],
            message=(f"{la.name(i)} reaches {dk:.0%} of a margin past the safe area"
                     + (" and off the canvas" if dk > 1 else "")),
            severity=severity_for(pk, medium=0.3, high=0.9), suggestion=sugg, impact=pk))
    return metric_result(name=NAME, score=score, findings=findings)
