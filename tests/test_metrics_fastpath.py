"""The metrics' cheap paths agree with the plain definitions they replace.

- ``finding`` / ``metric_result`` / ``metric_report`` build the same pydantic
  objects as validation would, holding plain Python values only;
- the reading-order all-pairs path (plain Python, few elements) equals the
  sorted-count path just below and above its threshold;
- ``cluster_lines`` clusters every row as the one-row definition does.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.document import Canvas, Element, Layout
from assistant.geometry import Box
from assistant.metrics import Finding, MetricReport, MetricResult, evaluate
from assistant.metrics.context import LayoutArrays
from assistant.metrics.grid import cluster_lines
from assistant.metrics.report import finding, metric_report, metric_result


def page(n: int, seed: int) -> Layout:
    """A seeded page of ``n`` elements of every kind, with ties in position (shared tops and lefts)."""
    rng = np.random.default_rng(seed)
    roles = ["title", "subtitle", "body", "body", "caption", "cta", "image", "decoration"]
    els = []
    for i in range(n):
        role = roles[int(rng.integers(len(roles)))]
        kind = "image" if role == "image" else "shape" if role == "decoration" else "text"
        x, y = float(rng.integers(0, 10) * 90), float(rng.integers(0, 12) * 80)
        els.append(Element(
            id=f"e{i}", kind=kind, role=role, box=Box(x=x, y=y, width=float(rng.uniform(20, 300)),
                                                      height=float(rng.uniform(10, 120))),
            text=f"{role} {i}" if kind == "text" else None,
            font_size=float(rng.uniform(6, 60)) if kind == "text" else None,
            fill=f"#{int(rng.integers(0, 1 << 24)):06x}" if kind != "image" else None,
            group=f"g{i % 4}" if rng.random() < 0.3 else None))
    return Layout(canvas=Canvas.with_default_margins(width=1000, height=1100), elements=els)


def _plain(value: object) -> None:
    """Every leaf of a dumped report is a plain JSON-able Python value (no numpy scalars)."""
    if isinstance(value, dict):
        for v in value.values():
            _plain(v)
    elif isinstance(value, list):
        for v in value:
            _plain(v)
    else:
        assert value is None or type(value) in (str, int, float, bool), type(value)


def test_trusted_constructors_equal_validated_models() -> None:
    sugg = {"type": "move", "ids": ["a"], "dx": 1.5, "dy": 0.0}
    f = finding(metric="overlap", element_ids=["a", "b"], message="m", severity="high", suggestion=sugg, impact=0.25)
    want = Finding(metric="overlap", element_ids=["a", "b"], message="m", severity="high", suggestion=sugg,
                   impact=0.25)
    assert f == want and f.model_dump() == want.model_dump() and repr(f) == repr(want)
    assert Finding.model_validate_json(f.model_dump_json()) == f
    r = metric_result(name="overlap", score=0.5, findings=[f])
    assert r == MetricResult(name="overlap", score=0.5, findings=[want])
    assert metric_result(name="x", score=1.0, applicable=False) == MetricResult(name="x", score=1.0, applicable=False)
    rep = metric_report(0.5, {"overlap": r}, {"overlap": 1.0})
    assert rep == MetricReport(composite=0.5, metrics={"overlap": r}, weights={"overlap": 1.0})
    assert MetricReport.model_validate(rep.model_dump()) == rep
    assert rep.model_copy(deep=True) == rep


@pytest.mark.parametrize("n,seed", [(20, 0), (60, 1), (150, 2)])
def test_reports_hold_plain_values_and_survive_validation(n: int, seed: int) -> None:
    rep = evaluate(page(n, seed))
    dumped = rep.model_dump()
    _plain(dumped)
    assert MetricReport.model_validate(dumped) == rep
    assert json.loads(rep.model_dump_json()) == json.loads(json.dumps(dumped))


@pytest.mark.parametrize("n", [40, 47, 48, 49, 56, 80, 100])
def test_reading_order_all_pairs_path_equals_sorted_counts_around_the_threshold(
        n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.metrics import reading_order as ro

    layout = page(n, n)
    la = LayoutArrays(layout)
    ranked = int((la.role <= 2).sum())  # title, subtitle, body (no cta on these pages)
    # the numpy definition itself (a report would take the compiled kernel on pages this small), every offender
    monkeypatch.setattr(ro, "DIRECT", 10_000)
    direct = ro.scan_offences(la, limit=la.n)
    monkeypatch.setattr(ro, "DIRECT", 0)
    counted = ro.scan_offences(la, limit=la.n)
    assert ranked > 1 and direct is not None and direct[1]
    assert direct == counted
    assert ro.reading_order(LayoutArrays(layout)).score == direct[0]


def test_cluster_lines_clusters_each_row_like_one_row() -> None:
    rng = np.random.default_rng(5)
    x = np.round(rng.uniform(0, 100, (3, 40)), 0)
    got = cluster_lines(x, 1.5)
    for row, centres in zip(x, got):
        s = np.sort(row)
        cid = np.concatenate([[0], ((s[1:] - s[:-1]) > 1.5).cumsum()])
        cnt = np.bincount(cid)
        want = (np.bincount(cid, weights=s) / cnt)[cnt >= 2]
        assert centres.tolist() == want.tolist()
