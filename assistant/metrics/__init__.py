"""Layout metrics: each in [0, 1] (1 = best) with findings, and a weighted composite.

``evaluate(layout)`` returns a ``MetricReport``; each metric module's
docstring gives the definition it uses and cites its source. What each one
looks at ("leaves" are the non-group elements; "units" are the visible leaves
that are not backgrounds — role ``background`` or a non-text element covering
≥ 80 % of the canvas):

================  ==============================================================
metric            elements
================  ==============================================================
overlap           unit pairs (groups never: children inside their group are fine)
alignment         units; texts align by their anchor edge
spacing           units except decorations; neighbour links within 8 % of the page
margins           units except images/shapes/decorations that bleed off the canvas
balance           units, weighted by area, darkness and importance
hierarchy         visible texts with a font size (title/subtitle/body/caption)
grouping          units except decorations that have a related element
reading_order     visible leaves with role title, subtitle, body or cta
text_fit          visible texts (size, canvas overflow, container overflow)
grid              units except decorations narrower than 90 % of the canvas
whitespace        units (area of their union)
contrast          visible texts against what lies under them (or a ``Backdrop``)
instruction_fit   the constraints given (not applicable without any)
================  ==============================================================

A metric with nothing to judge is marked ``applicable=False``, scores 1.0 and
is left out of the composite.
"""

from assistant.metrics.contrast import Backdrop, make_backdrop
from assistant.metrics.evaluate import DEFAULT_WEIGHTS, METRIC_NAMES, METRICS, evaluate, resolve_weights
from assistant.metrics.instruction_fit import ScoredConstraint
from assistant.metrics.report import Finding, MetricReport, MetricResult, Severity

__all__ = [
    "Backdrop", "DEFAULT_WEIGHTS", "Finding", "METRICS", "METRIC_NAMES", "MetricReport", "MetricResult",
    "ScoredConstraint", "Severity", "evaluate", "make_backdrop", "resolve_weights",
]
