"""How elements sit together: margins, breathing room, alignment, contrast.

Definitions in each class docstring; the shared contract is in
:mod:`assistant.instructions.constraints`.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field, model_validator

from assistant.document import Layout
from assistant.geometry import Box
from assistant.instructions import select as sel
from assistant.instructions.base import ConstraintBase, Evaluation, TargetedConstraint, make_finding, with_notes
from assistant.instructions.contrast import contrast_findings


class MarginsConstraint(ConstraintBase):
    """Every content element keeps at least ``min_px`` from each canvas edge.

    Per element ``s = 1 - min(1, shortfall / min_px)``; the score is the mean
    of the average and the worst ``s`` so that one crowded element counts.
    """

    type: Literal["margins"] = "margins"
    min_px: float | None = Field(None, gt=0.0, le=10000.0, allow_inf_nan=False)
    #: Alternative to ``min_px``: the margin as a share of the canvas's shorter side.
    min_share: float | None = Field(None, gt=0.0, lt=0.5, allow_inf_nan=False)

    @model_validator(mode="after")
    def _one_size(self) -> MarginsConstraint:
        if (self.min_px is None) == (self.min_share is None):
            raise ValueError("a margins constraint needs exactly one of min_px and min_share")
        return self

    def margin(self, layout: Layout) -> float:
        """The minimum margin in world units."""
        if self.min_px is not None:
            return sel.world(layout, self.min_px)
        return (self.min_share or 0.0) * min(layout.canvas.width, layout.canvas.height)

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score the content elements' margins; each one inside the margin gets a finding whose ``move`` clears it."""
        items = sel.content_elements(layout)
        if not items:
            return Evaluation(None, [make_finding([], "margins constraint: no content elements", "info")])
        c, m = layout.canvas, self.margin(layout)
        scores, findings = [], []
        for e in items:
            b = e.box
            left, top, right, bottom = b.x - c.x, b.y - c.y, c.x + c.width - b.x2, c.y + c.height - b.y2
            short = max(0.0, m - min(left, top, right, bottom))
            scores.append(1.0 - min(1.0, short / m))
            if short > 1e-6:
                dx = max(0.0, m - left) - max(0.0, m - right)
                dy = max(0.0, m - top) - max(0.0, m - bottom)
                findings.append(make_finding(
                    [e.id], f"{sel.label(e)} is {sel.px(layout, short):.0f} px inside the "
                    f"{sel.px(layout, m):.0f} px margin", "warning",
                    {"type": "move", "ids": [e.id], "dx": round(dx, 2), "dy": round(dy, 2)}))
        return Evaluation(float((np.mean(scores) + min(scores)) / 2), findings)


class BreathingRoomConstraint(ConstraintBase):
    """Neighbouring content elements keep at least ``min_gap_px`` apart.

    Optionally, content also covers at most ``max_density`` of the safe area.
    The separation of two boxes is the larger of their horizontal and
    vertical gaps (negative when they overlap); one box containing another is
    an intended overlay and is skipped. Each pair closer than the minimum
    costs ``clip((min - sep) / min, 0, 1)``; the gap score is
    ``1 - total cost / (n - 1)`` for ``n`` content elements. Default minimum:
    2.5 % of the canvas's shorter side.
    """

    type: Literal["breathing_room"] = "breathing_room"
    min_gap_px: float | None = Field(None, ge=0.0, le=10000.0, allow_inf_nan=False)
    max_density: float | None = Field(None, gt=0.0, le=1.0, allow_inf_nan=False)

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score the gaps (and density) of the content elements.

        Each pair too close gets a finding whose ``move`` parts them.
        """
        items = sel.content_elements(layout)
        if len(items) < 2:
            return Evaluation(None, [make_finding([], "breathing room: fewer than two content elements", "info")])
        c = layout.canvas
        gap = (sel.world(layout, self.min_gap_px) if self.min_gap_px is not None
               else 0.025 * min(c.width, c.height))
        b = np.array([[e.box.x, e.box.y, e.box.x2, e.box.y2] for e in items])
        x1, y1, x2, y2 = (b[:, k] for k in range(4))
        xgap = np.maximum(x1[None, :] - x2[:, None], x1[:, None] - x2[None, :])
        ygap = np.maximum(y1[None, :] - y2[:, None], y1[:, None] - y2[None, :])
        sep = np.maximum(xgap, ygap)
        contains = ((x1[:, None] <= x1[None, :]) & (y1[:, None] <= y1[None, :])
                    & (x2[:, None] >= x2[None, :]) & (y2[:, None] >= y2[None, :]))
        skip = contains | contains.T | np.eye(len(items), dtype=bool)
        if gap > 0:
            cost = np.clip((gap - sep) / gap, 0.0, 1.0)
        else:
            cost = (sep < 0).astype(float)
        cost = np.triu(np.where(skip, 0.0, cost), 1)
        score = 1.0 - min(1.0, float(cost.sum()) / (len(items) - 1))
        findings = []
        for i, j in zip(*np.nonzero(cost > 0)):
            a, o = items[int(i)], items[int(j)]
            s = float(sep[i, j])
            what = (f"overlap by {sel.px(layout, -s):.0f} px" if s < 0
                    else f"are {sel.px(layout, s):.0f} px apart")
            vertical = ygap[i, j] >= xgap[i, j]
            a_pos, o_pos = (a.box.y, o.box.y) if vertical else (a.box.x, o.box.x)
            second = o if a_pos <= o_pos else a
            push = gap - s
            findings.append(make_finding(
                [a.id, o.id], f"{sel.label(a)} and {sel.label(o)} {what}; want "
                f"{sel.px(layout, gap):.0f} px of breathing room", "error" if s < 0 else "warning",
                {"type": "move", "ids": [second.id], "dx": 0.0 if vertical else round(push, 2),
                 "dy": round(push, 2) if vertical else 0.0}))
        if self.max_density is not None:
            safe = c.safe_box.area or c.width * c.height
            density = min(1.0, float(np.sum((x2 - x1) * (y2 - y1))) / safe)
            if density > self.max_density:
                score *= self.max_density / density
                findings.append(make_finding([e.id for e in items], f"content covers {density:.0%} of the "
                                             f"safe area, want at most {self.max_density:.0%}", "warning"))
        return Evaluation(score, findings)


class AlignConstraint(TargetedConstraint):
    """The targets share an edge, or sit on the canvas's matching line.

    With ``to="each_other"`` they share an edge; with ``to="canvas"`` they sit
    on the safe box's left/right edge or the canvas centre.

    Each other: the score is ``(k - 1) / (n - 1)`` where ``k`` is the largest
    set of targets whose edge lies within the tolerance (``max(2 px, 0.5 %``
    of the canvas width)). Canvas: per target, 1 within tolerance, falling to
    0 at a tenth of the canvas width; the mean.
    """

    type: Literal["align"] = "align"
    edge: Literal["left", "center", "right"] = "left"
    to: Literal["each_other", "canvas"] = "each_other"

    def _edge(self, b: Box) -> float:
        return b.x if self.edge == "left" else b.x2 if self.edge == "right" else b.cx

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score the targets' alignment; those off the line get a finding whose ``align`` puts them on it."""
        targets, notes = self._targets(layout)
        if not targets:
            return notes  # type: ignore[return-value]
        c = layout.canvas
        tol = max(sel.world(layout, 2.0), 0.005 * c.width)
        action_edge = {"left": "left", "right": "right", "center": "center_x"}[self.edge]
        vals = np.array([self._edge(e.box) for e in targets])
        findings = []
        if self.to == "canvas":
            line = {"left": c.safe_box.x, "right": c.safe_box.x2, "center": c.x + c.width / 2}[self.edge]
            off = np.abs(vals - line)
            per = np.clip(1.0 - (off - tol) / (0.1 * c.width), 0.0, 1.0)
            per[off <= tol] = 1.0
            for e, d in zip(targets, off):
                if d > tol:
                    findings.append(make_finding(
                        [e.id], f"{sel.label(e)} is {sel.px(layout, float(d)):.0f} px off the canvas "
                        f"{self.edge} line", "warning",
                        {"type": "align", "ids": [e.id], "edge": action_edge,
                         "to": "canvas" if self.edge == "center" else "margins", "target_id": None}))
            return with_notes(float(per.mean()), findings, notes)
        if len(targets) < 2:
            return with_notes(1.0, [], notes)
        order = np.argsort(vals, kind="stable")
        sv = vals[order]
        best_k, best_i = 1, 0
        j = 0
        for i in range(len(sv)):  # sliding window over sorted edges
            while sv[i] - sv[j] > 2 * tol:
                j += 1
            if i - j + 1 > best_k:
                best_k, best_i = i - j + 1, j
        members = {int(order[k]) for k in range(best_i, best_i + best_k)}
        anchor = targets[min(members, key=lambda k: (targets[k].box.y, targets[k].box.x))]
        out = [targets[k] for k in range(len(targets)) if k not in members]
        if out:
            findings.append(make_finding(
                [e.id for e in out] + [anchor.id],
                f"{', '.join(sel.label(e) for e in out)} not {self.edge}-aligned with {sel.label(anchor)}",
                "warning", {"type": "align", "ids": [e.id for e in out], "edge": action_edge,
                            "to": "element", "target_id": anchor.id}))
        return with_notes((best_k - 1) / (len(targets) - 1), findings, notes)


class ContrastConstraint(TargetedConstraint):
    """Text in the target reaches a WCAG 2.x contrast ratio of ``min_ratio``.

    The ratio is taken against the shape painted under the text's centre
    (white canvas when none); per text ``clip((ratio - 1) / (min_ratio - 1), 0, 1)``, averaged.
    """

    type: Literal["contrast"] = "contrast"
    min_ratio: float = Field(4.5, ge=1.0, le=21.0, allow_inf_nan=False)

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score the contrast of the target's coloured text.

        Each text short of ``min_ratio`` gets a finding with a fill that reaches it.
        """
        if self.ids or self.role:
            targets, notes = self._targets(layout)
            if not targets:
                return notes  # type: ignore[return-value]
        else:
            targets, notes = [e for e in layout.elements if e.kind == "text"], None
        texts = {t.id: t for e in targets for t in sel.text_leaves(layout, e) if t.fill}
        if not texts:
            return Evaluation(None, [make_finding([], "contrast constraint: no coloured text in the target",
                                                  "info")])
        scores, findings = contrast_findings(layout, list(texts.values()), self.min_ratio, make_finding)
        return with_notes(float(np.mean(scores)), findings, notes)


__all__ = ["MarginsConstraint", "BreathingRoomConstraint", "AlignConstraint", "ContrastConstraint"]
