"""``evaluate``: run the metrics on a layout, judge them against the norms of published designs, combine them.

Each metric's own measure is judged by :func:`assistant.metrics.norms.judge` (a design inside
the norms of real designs scores 1 and reports only defects); the alignment metric also reports
units knocked off the design's own columns (:mod:`assistant.metrics.lines`).

The composite is the weighted mean of the applicable metrics computed
(``checks`` selects a subset), with ``DEFAULT_WEIGHTS`` overridden by
``weights`` (per call or per task) and renormalised to sum to 1. A metric that
has nothing to judge (``applicable=False``: instruction fit without
constraints, contrast with no text, …) scores 1.0 and is left out of the
composite rather than inflating it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from assistant.document import Layout
from assistant.errors import MetricError
from assistant.metrics.alignment import alignment
from assistant.metrics.balance import balance
from assistant.metrics.context import LayoutArrays
from assistant.metrics.contrast import Backdrop, contrast
from assistant.metrics.grid import grid
from assistant.metrics.grouping import grouping
from assistant.metrics.hierarchy import hierarchy
from assistant.metrics.instruction_fit import ScoredConstraint, instruction_fit
from assistant.metrics.lines import off_column
from assistant.metrics.margins import margins
from assistant.metrics.norms import judge
from assistant.metrics.overlap import overlap
from assistant.metrics.reading_order import reading_order
from assistant.metrics.report import MetricReport, MetricResult, metric_report, metric_result
from assistant.metrics.spacing import spacing
from assistant.metrics.text_fit import text_fit
from assistant.metrics.whitespace import whitespace

#: Metric name → function of the layout arrays, in report order.
METRICS: dict[str, Callable[..., MetricResult]] = {
    "overlap": overlap,
    "alignment": alignment,
    "spacing": spacing,
    "margins": margins,
    "balance": balance,
    "hierarchy": hierarchy,
    "grouping": grouping,
    "reading_order": reading_order,
    "text_fit": text_fit,
    "grid": grid,
    "whitespace": whitespace,
    "contrast": contrast,
    "instruction_fit": instruction_fit,
}
METRIC_NAMES: tuple[str, ...] = tuple(METRICS)

#: Default composite weights (renormalised over the metrics actually used).
DEFAULT_WEIGHTS: dict[str, float] = {
    "overlap": 0.14,
    "alignment": 0.10,
    "spacing": 0.06,
    "margins": 0.08,
    "balance": 0.05,
    "hierarchy": 0.10,
    "grouping": 0.06,
    "reading_order": 0.06,
    "text_fit": 0.09,
    "grid": 0.04,
    "whitespace": 0.04,
    "contrast": 0.08,
    "instruction_fit": 0.20,
}


def _check_names(names: Iterable[str], what: str) -> None:
    unknown = sorted(set(names) - set(METRICS))
    if unknown:
        raise MetricError(f"unknown metric name(s) in {what}: {', '.join(unknown)}; "
                          f"known: {', '.join(METRIC_NAMES)}")


def resolve_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """``DEFAULT_WEIGHTS`` with ``weights`` overriding some entries (not yet normalised)."""
    out = dict(DEFAULT_WEIGHTS)
    if weights:
        _check_names(weights, "weights")
        for k, v in weights.items():
            v = float(v)
            if not v >= 0 or v == float("inf"):
                raise MetricError(f"weight of metric {k!r} must be a finite number ≥ 0, got {v!r}")
            out[k] = v
    return out


def page_layouts(layout: Layout) -> list[Layout]:
    """The layouts the metrics judge: one per page, each with the elements on it and its page as canvas.

    A one-page layout with every element on its page is returned as it is (the common, fast case);
    elements on no page (Inkscape's scratch area) are left out.
    """
    pages = layout.canvas.page_boxes()
    if len(pages) == 1 and all(e.page == 0 for e in layout.elements):
        return [layout]
    out = []
    for k, page in enumerate(pages):
        elements = [e for e in layout.elements if e.page == k]
        if not elements:
            continue
        canvas = layout.canvas if len(pages) == 1 else layout.canvas.model_copy(
            update={"x": page.x, "y": page.y, "width": page.width, "height": page.height, "pages": []})
        out.append(Layout.model_construct(canvas=canvas, elements=elements))
    return out


def evaluate(
    layout: Layout,
    *,
    constraints: Sequence[ScoredConstraint] | None = None,
    weights: Mapping[str, float] | None = None,
    checks: Iterable[str] | None = None,
    backdrop: Backdrop | None = None,
    judged: bool = True,
) -> MetricReport:
    """Score ``layout`` with every metric (or the ``checks`` subset) and their weighted composite.

    ``constraints`` feed the instruction-fit metric (``assistant.instructions``);
    ``backdrop`` (see ``make_backdrop``) lets the contrast metric read the
    rendered colours under each text. With ``judged=False`` every metric
    reports its own measure and all its findings, not judged against the
    norms of published designs (:mod:`assistant.metrics.norms`; for studying
    a metric's definition). Deterministic: the same layout and arguments give
    the same report.
    """
    if backdrop is not None and not isinstance(backdrop, Backdrop):
        raise MetricError(f"backdrop must be a Backdrop (see make_backdrop), got {type(backdrop).__name__}")
    names = list(METRIC_NAMES) if checks is None else list(dict.fromkeys(checks))
    _check_names(names, "checks")
    w_all = resolve_weights(weights)
    pages = page_layouts(layout)
    if len(pages) != 1:
        return _combine([_evaluate_page(p, names, w_all, constraints, backdrop, judged) for p in pages] or
                        [_evaluate_page(Layout.model_construct(canvas=layout.canvas, elements=[]), names, w_all,
                                        constraints, backdrop, judged)], [len(p.elements) for p in pages] or [1])
    return _evaluate_page(pages[0], names, w_all, constraints, backdrop, judged)


def _evaluate_page(layout: Layout, names: list[str], w_all: dict[str, float],
                   constraints: Sequence[ScoredConstraint] | None, backdrop: Backdrop | None,
                   judged: bool = True) -> MetricReport:
    """The report of one page (see :func:`evaluate`)."""
    la = LayoutArrays(layout)
    results: dict[str, MetricResult] = {}
    for name in names:
        fn = METRICS[name]
        if name == "contrast":
            res = fn(la, backdrop=backdrop)
        elif name == "instruction_fit":
            res = fn(la, constraints=constraints)
        else:
            res = fn(la)
        if name == "alignment" and res.applicable:
            extra = off_column(layout)
            if extra:
                res = metric_result(name=name, score=res.score, findings=extra + res.findings)
        results[name] = judge(res) if judged else res
    used = {n: w_all[n] for n in names if results[n].applicable}
    total = sum(used.values())
    if total > 0:
        norm = {n: v / total for n, v in used.items()}
        composite = sum(norm[n] * results[n].score for n in norm)
    else:
        norm = {n: 0.0 for n in used}
        composite = 1.0
    return metric_report(float(min(max(composite, 0.0), 1.0)), results, norm)


def _combine(reports: list[MetricReport], sizes: list[int]) -> MetricReport:
    """One report of several pages: each metric and the composite averaged, weighted by the pages' elements."""
    total = float(sum(sizes)) or 1.0
    metrics: dict[str, MetricResult] = {}
    for name in reports[0].metrics:
        parts = [(r.metrics[name], n) for r, n in zip(reports, sizes) if name in r.metrics]
        used = [(m, n) for m, n in parts if m.applicable]
        score = sum(m.score * n for m, n in used) / max(sum(n for _, n in used), 1) if used else 1.0
        findings = [f for m, _ in parts for f in m.findings]
        metrics[name] = metric_result(name=name, score=float(score), findings=findings, applicable=bool(used))
    composite = sum(r.composite * n for r, n in zip(reports, sizes)) / total
    weights = {k: sum(r.weights.get(k, 0.0) * n for r, n in zip(reports, sizes)) / total
               for k in reports[0].weights}
    return metric_report(float(min(max(composite, 0.0), 1.0)), metrics, weights)
