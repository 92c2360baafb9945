"""Typed layout constraints: what an instruction compiles to, and how each is scored.

Every constraint is a pydantic model discriminated by ``type`` (so a list of
them loads from JSON, see :func:`assistant.instructions.parse_constraints`)
and has ``score(layout) -> (score in [0, 1], findings)``. A constraint whose
target is absent from the layout (no element with that role) is *not
applicable*: :meth:`evaluate` returns ``score=None`` and an ``info`` finding,
and :func:`score_constraints` leaves it out of the mean instead of rewarding or
punishing it.

Targets: ``ids`` (element ids) win over ``role``; with neither, the target is
every content element (see :mod:`assistant.instructions.select`). Lengths a
user gives are in CSS px (``*_px`` fields) and are converted with the canvas's
``px_per_unit``.

Findings carry a ``suggestion``: one action in the agreed JSON form that would
move the layout towards satisfying the constraint.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from assistant.instructions.arrangement import (
    AlignConstraint,
    BreathingRoomConstraint,
    ContrastConstraint,
    MarginsConstraint,
)
from assistant.instructions.base import METRIC, ConstraintBase, Evaluation, make_finding
from assistant.instructions.placement import DominantConstraint, KeepConstraint, RegionConstraint, SizeConstraint

Constraint = Annotated[
    RegionConstraint | DominantConstraint | SizeConstraint | MarginsConstraint | BreathingRoomConstraint
    | KeepConstraint | AlignConstraint | ContrastConstraint,
    Field(discriminator="type"),
]

CONSTRAINT_TYPES: dict[str, type[ConstraintBase]] = {
    "region": RegionConstraint, "dominant": DominantConstraint, "size": SizeConstraint,
    "margins": MarginsConstraint, "breathing_room": BreathingRoomConstraint, "keep": KeepConstraint,
    "align": AlignConstraint, "contrast": ContrastConstraint,
}

__all__ = [
    "Constraint", "CONSTRAINT_TYPES", "Evaluation", "RegionConstraint", "DominantConstraint",
    "SizeConstraint", "MarginsConstraint", "BreathingRoomConstraint", "KeepConstraint",
    "AlignConstraint", "ContrastConstraint", "make_finding", "METRIC", "ConstraintBase",
]
