"""Where elements go and how big they are: region, dominant, size, keep.

Definitions in each class docstring; the shared contract is in
:mod:`assistant.instructions.constraints`.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field, model_validator

from assistant.document import Layout, Role
from assistant.geometry import Box
from assistant.instructions import select as sel
from assistant.instructions.base import ConstraintBase, Evaluation, TargetedConstraint, make_finding, with_notes
from assistant.instructions.regions import RegionName, region_box, region_fit


class RegionConstraint(TargetedConstraint):
    """The target sits in a named region (its box centre in the zone; see ``regions``)."""

    type: Literal["region"] = "region"
    region: RegionName

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score how well the targets sit in the region (the mean); each one outside gets a finding."""
        targets, notes = self._targets(layout)
        if not targets:
            return notes  # type: ignore[return-value]
        fits, findings = [], []
        for e in targets:
            f = region_fit(layout.canvas, self.region, e.box)
            fits.append(f)
            if f < 0.999:
                zone = region_box(layout.canvas, self.region)
                findings.append(make_finding(
                    [e.id], f"{sel.label(e)} should be in the {self.region.replace('_', ' ')} region "
                    f"(centre {e.box.cx:.0f},{e.box.cy:.0f}; zone {zone.x:.0f},{zone.y:.0f} "
                    f"{zone.width:.0f}x{zone.height:.0f})",
                    "error" if f < 0.5 else "warning",
                    {"type": "anchor_to_region", "ids": [e.id], "region": self.region}))
        return with_notes(float(np.mean(fits)), findings, notes)


class DominantConstraint(TargetedConstraint):
    """The target is the most prominent element by at least ``ratio``.

    Text targets compete with every other text element by font size (text
    that is part of a logo or image, such as a wordmark, does not compete);
    other targets with every content element by sqrt(area). Score
    ``clip((r - 1) / (ratio - 1), 0, 1)`` where ``r`` is the target's
    prominence over the strongest competitor's.
    """

    type: Literal["dominant"] = "dominant"
    ratio: float = Field(1.5, gt=1.0, le=10.0, allow_inf_nan=False)

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score the target's prominence over its strongest rival; short of ``ratio`` it gets a ``promote`` finding."""
        targets, notes = self._targets(layout)
        if not targets:
            return notes  # type: ignore[return-value]
        best = max(targets, key=lambda e: sel.prominence(layout, e))
        p = sel.prominence(layout, best)
        mine = {e.id for t in targets for e in [t, *layout.descendants_of(t.id)]}
        mine |= {a.id for t in targets for a in sel.ancestors(layout, t)}
        if sel.is_texty(layout, best):
            rivals = [(sel.prominence(layout, e), e) for e in layout.elements
                      if e.kind == "text" and e.id not in mine and e.font_size and e.role not in ("image", "logo")
                      and not any(a.role in ("image", "logo") for a in sel.ancestors(layout, e))]
        else:
            rivals = [(sel.prominence(layout, e), e) for e in sel.content_elements(layout) if e.id not in mine]
        if not rivals:
            return with_notes(1.0, [], notes)
        q, rival = max(rivals, key=lambda pe: pe[0])
        r = p / q if q > 0 else self.ratio
        score = (r - 1.0) / (self.ratio - 1.0)
        findings = []
        if score < 0.999:
            factor = round(min(3.0, max(1.05, self.ratio / max(r, 1e-6) * 1.02)), 2)
            findings.append(make_finding(
                [best.id, rival.id], f"{sel.label(best)} should dominate: it is {r:.2f}x {sel.label(rival)}, "
                f"wanted {self.ratio:.2f}x", "error" if score < 0.5 else "warning",
                {"type": "promote", "id": best.id, "factor": factor}))
        return with_notes(score, findings, notes)


class SizeConstraint(TargetedConstraint):
    """The target is bigger (or smaller) than a reference by ``factor``.

    The reference is another element (``reference_id``) or the target's own
    prominence when the instruction was compiled (``reference``, world units).
    Against its own past size the score is the share of the asked change made;
    against another element it is ``clip(r / factor, 0, 1)²`` for bigger
    (``r`` the prominence ratio), mirrored for smaller.
    """

    type: Literal["size"] = "size"
    relation: Literal["bigger", "smaller"] = "bigger"
    factor: float = Field(1.25, gt=1.0, le=10.0, allow_inf_nan=False)
    reference: float | None = Field(None, gt=0.0, allow_inf_nan=False)
    reference_id: str | None = None
    reference_role: Role | None = None

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score the target's size against its reference; short of ``factor`` it gets a finding."""
        targets, notes = self._targets(layout)
        if not targets:
            return notes  # type: ignore[return-value]
        best = max(targets, key=lambda e: sel.prominence(layout, e))
        p = sel.prominence(layout, best)
        bigger = self.relation == "bigger"
        if self.reference_id is not None or self.reference_role is not None:
            refs, missing = sel.resolve_target(layout, [self.reference_id] if self.reference_id else [],
                                               self.reference_role)
            refs = [r for r in refs if r.id != best.id]
            if not refs:
                name = self.reference_id or f"role '{self.reference_role}'"
                return Evaluation(None, [make_finding(missing, f"size constraint: no reference element {name}",
                                                      "info")])
            ref = max(sel.prominence(layout, r) for r in refs)
            r = (p / ref if bigger else ref / p) if min(p, ref) > 0 else 0.0
            score = min(r / self.factor, 1.0) ** 2
            what = f"than {self.reference_id or self.reference_role}"
        elif self.reference is not None:
            goal = self.reference * (self.factor if bigger else 1.0 / self.factor)
            score = (p - self.reference) / (goal - self.reference)
            what = "than before"
        else:
            return Evaluation(None, [make_finding([best.id], "size constraint has no reference size", "info")])
        findings = []
        if score < 0.999:
            kind = "promote" if bigger else "demote"
            findings.append(make_finding(
                [best.id], f"{sel.label(best)} should be {self.factor:.2f}x {self.relation} {what}",
                "warning", {"type": kind, "id": best.id, "factor": round(self.factor, 2)}))
        return with_notes(score, findings, notes)


class KeepConstraint(ConstraintBase):
    """Element ``id`` stays where it was: its box equals ``box`` within ``tolerance_px``.

    The score falls linearly to 0 at a displacement of a tenth of the canvas's
    shorter side beyond the tolerance.

    Compiled without a layout, a keep names a ``role`` and no box;
    :func:`assistant.instructions.resolve_constraints` turns it into one keep
    per element of that role with the element's starting box.
    """

    type: Literal["keep"] = "keep"
    id: str | None = None
    role: Role | None = None
    box: Box | None = None
    tolerance_px: float = Field(2.0, ge=0.0, le=10000.0, allow_inf_nan=False)

    @model_validator(mode="after")
    def _named(self) -> KeepConstraint:
        if self.id is None and self.role is None:
            raise ValueError("a keep constraint needs an element id or a role")
        return self

    def evaluate(self, layout: Layout) -> Evaluation:
        """Score how far element ``id`` moved from ``box``; beyond the tolerance it gets a finding."""
        if self.id is None or self.box is None:
            what = f"'{self.id}'" if self.id else f"role '{self.role}'"
            return Evaluation(None, [make_finding([self.id] if self.id else [], f"keep constraint for {what} has "
                                                  "no original box (resolve it against the starting layout)",
                                                  "info")])
        if self.id not in layout:
            return Evaluation(None, [make_finding([self.id], f"keep constraint names unknown element '{self.id}'",
                                                  "info")])
        b, o = layout.get(self.id).box, self.box
        disp = sel.px(layout, max(abs(b.x - o.x), abs(b.y - o.y), abs(b.x2 - o.x2), abs(b.y2 - o.y2)))
        tol = self.tolerance_px
        span = sel.px(layout, 0.1 * min(layout.canvas.width, layout.canvas.height))
        score = 1.0 if disp <= tol else max(0.0, 1.0 - (disp - tol) / span)
        findings = []
        if disp > tol:
            findings.append(make_finding(
                [self.id], f"'{self.id}' was asked to stay in place but moved {disp:.0f} px", "error",
                {"type": "move", "ids": [self.id], "dx": round(o.x - b.x, 2), "dy": round(o.y - b.y, 2)}))
        return Evaluation(score, findings)


__all__ = ["RegionConstraint", "DominantConstraint", "SizeConstraint", "KeepConstraint"]
