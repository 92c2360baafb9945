"""Paired comparisons of two policies: the mean difference of final composites with a 95 % bootstrap interval.

Episodes pair by task and seed (the same broken layout), so the layouts' own difficulty cancels; "beats" is met
only when the whole interval lies above zero (:func:`comparison_verdict`).
"""

from __future__ import annotations

from models.eval.episodes import PolicyRow


def paired_difference(a: PolicyRow, b: PolicyRow, *, resamples: int = 10_000,
                      seed: int = 0) -> tuple[float, float, float, int] | None:
    """Mean final-composite difference ``a − b`` over the episodes both rows ran, with a 95 % bootstrap interval.

    Episodes are paired by (task, seed): both policies started from the same
    broken layout, so the layout's own difficulty cancels. The interval is
    the 2.5th and 97.5th percentiles of the mean over ``resamples`` resamples
    of the pairs (seeded, so a report is reproducible). ``None`` when the rows
    share no episode. Returns ``(mean, low, high, pairs)``.
    """
    import numpy as np

    theirs = {(e.task, e.seed): e.composite for e in b.details}
    pairs = [e.composite - theirs[(e.task, e.seed)] for e in a.details if (e.task, e.seed) in theirs]
    if not pairs:
        return None
    d = np.asarray(pairs, dtype=float)
    means = d[np.random.default_rng(seed).integers(0, len(d), size=(resamples, len(d)))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(d.mean()), float(lo), float(hi), len(d)


def comparison_verdict(mean: float, lo: float, hi: float, *, strict: bool) -> str:
    """``yes`` / ``no`` / ``within noise`` for "a beats b" (``strict``) or "a reaches b" from a paired difference.

    "Beats" is met when the whole 95 % interval lies above zero, and not met
    when the mean difference is not positive; a positive mean whose interval
    holds zero is ``within noise``. "Reaches" is met when the mean difference
    is not negative, not met when the whole interval lies below zero, and
    ``within noise`` in between.
    """
    if strict:
        return "yes" if lo > 0 else "no" if mean <= 0 else "within noise"
    return "yes" if mean >= 0 else "no" if hi < 0 else "within noise"
