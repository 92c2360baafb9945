"""The environment's reward, as small pure functions with explicit weights.

Potential-based shaping (Ng, Harada & Russell 1999) with discount 1:
``Φ(s) = (composite(s) + β · instruction_fit(s)) / (1 + β)`` and the shaped
step reward ``Φ(s') − Φ(s)``. Summed over an episode the shaping telescopes
to ``Φ(final) − Φ(initial)``, so the total reward of an episode is exactly
the quality it added minus the penalties it paid: a better final layout
always earns more when the penalties are equal. ``composite`` is the metrics'
weighted composite (which already counts instruction fit at its own weight);
``β`` gives the user's instruction extra say.

Penalties (each logged separately in ``info``):

- ``invalid``: an action that could not be parsed or applied (state unchanged);
- ``noop``: a valid action that changed nothing;
- ``premature``: finalizing while much of the available improvement remains —
  with a reference (the task's clean layout) when more than
  ``premature_gap_share`` of the gap ``Φ(clean) − Φ(initial)`` is still open;
  without one when ``Φ`` is below ``finalize_threshold``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class RewardConfig:
    """Weights of the reward terms (see module docstring)."""

    #: β: weight of the instruction fit in the potential, next to the composite.
    fit_weight: float = 0.5
    invalid_penalty: float = 0.05
    noop_penalty: float = 0.01
    premature_penalty: float = 0.1
    #: Finalizing with more than this share of the gap to the clean layout open is premature.
    premature_gap_share: float = 0.5
    #: Without a clean reference, finalizing below this potential is premature.
    finalize_threshold: float = 0.85

    def __post_init__(self) -> None:
        for name in ("fit_weight", "invalid_penalty", "noop_penalty", "premature_penalty",
                     "premature_gap_share", "finalize_threshold"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                raise ValueError(f"reward setting {name} must be a finite number >= 0, got {v!r}")


def potential(composite: float, instruction_fit: float, cfg: RewardConfig) -> float:
    """Φ = (composite + β · fit) / (1 + β), in [0, 1]."""
    return (composite + cfg.fit_weight * instruction_fit) / (1.0 + cfg.fit_weight)


def shaping(phi_before: float, phi_after: float) -> float:
    """The potential-based step reward Φ(s') − Φ(s)."""
    return phi_after - phi_before


def remaining_gap_share(phi_now: float, phi_initial: float, phi_reference: float) -> float:
    """Share of the gap from the initial to the reference potential still open (0 when there was none)."""
    gap = phi_reference - phi_initial
    if gap <= 1e-9:
        return 0.0
    return max(0.0, min(1.0, (phi_reference - phi_now) / gap))


def is_premature(phi_now: float, phi_initial: float, phi_reference: float | None, cfg: RewardConfig) -> bool:
    """Whether finalizing now is premature (see module docstring)."""
    if phi_reference is not None:
        return remaining_gap_share(phi_now, phi_initial, phi_reference) > cfg.premature_gap_share
    return phi_now < cfg.finalize_threshold


__all__ = ["RewardConfig", "potential", "shaping", "remaining_gap_share", "is_premature"]
