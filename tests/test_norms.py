"""Judging metrics against the norms of published designs (``assistant.metrics.norms``)."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import numpy as np
import pytest

from assistant.env.tasks import make_task, task_names
from assistant.importer import import_svg
from assistant.metrics import evaluate
from assistant.metrics.norms import DEFECT_COST, NORMS, judge
from assistant.metrics.report import finding, metric_result
from assistant.planners import get_planner
from assistant.planners.loop import run_planner

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _files() -> list[Path]:
    return sorted((CORPUS / "real").glob("*.svg")) + sorted((CORPUS / "osgeo").glob("*.svg"))


def test_inside_the_norm_a_metric_scores_one_and_keeps_only_defects() -> None:
    advice = finding("overlap", ["a", "b"], "elements overlap", impact=0.2)
    defect = finding("overlap", ["c", "d"], "text over text", impact=0.5, defect=True)
    inside = judge(metric_result("overlap", NORMS["overlap"] + 0.01, [advice]))
    assert inside.score == 1.0 and inside.findings == [] and inside.raw == NORMS["overlap"] + 0.01
    with_defect = judge(metric_result("overlap", 0.95, [advice, defect]))
    assert with_defect.findings == [defect] and with_defect.score == pytest.approx(math.exp(-DEFECT_COST * 0.5))


def test_below_the_norm_the_score_falls_and_every_finding_is_reported() -> None:
    raw = NORMS["alignment"] / 2
    advice = finding("alignment", ["a"], "almost aligned", impact=0.1)
    below = judge(metric_result("alignment", raw, [advice]))
    assert below.score == pytest.approx(0.5) and below.findings == [advice]


def test_instruction_fit_is_the_users_own_measure() -> None:
    fit = metric_result("instruction_fit", 0.3)
    assert judge(fit) is fit


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_published_designs_score_high() -> None:
    composites = [evaluate(import_svg(f).layout).composite for f in _files()]
    assert statistics.median(composites) >= 0.85


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_the_norms_are_the_corpus_percentile() -> None:
    """NORMS is what ``python -m benchmarks.norms`` computes (regenerate it when a metric changes)."""
    from benchmarks.norms import PERCENTILE, raw_scores

    raw = raw_scores([import_svg(f).layout for f in _files()])
    for name, norm in NORMS.items():
        assert norm == pytest.approx(float(np.percentile(raw[name], PERCENTILE)), abs=0.02), name


@pytest.mark.parametrize("task", task_names())
def test_broken_tasks_score_lower_and_improve_when_fixed(task: str) -> None:
    for seed in (100, 101):
        t = make_task(task, seed)

        def judged(layout, t=t):
            return evaluate(layout, constraints=t.constraints, weights=t.weights).composite

        broken, clean = judged(t.broken.layout), judged(t.clean.layout)
        assert broken < clean - 0.02
        doc = t.broken.copy()
        run = run_planner(doc, get_planner("heuristic"), constraints=t.constraints, weights=t.weights,
                          instruction=t.instruction, max_steps=8)
        assert run.end.composite > broken + 0.02 and not run.damage or run.damage.ok


def _two_lines(gap_y: float, second: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 400"><text id="title" x="40" y="100" '
            f'font-family="DejaVu Sans" font-size="60">El titulo</text><text id="date" x="200" y="{gap_y}" '
            f'font-family="DejaVu Sans" font-size="36">{second}</text></svg>')


def _text_defects(svg: str) -> list[str]:
    from assistant.importer import import_svg_text

    report = evaluate(import_svg_text(svg).layout)
    return [f.message for f in report.findings() if f.defect and f.metric == "overlap"]


def test_text_set_tight_under_a_title_is_no_defect_letters_on_letters_are() -> None:
    """Line boxes of a date set tight under its title overlap; its letters do not touch the title's."""
    assert _text_defects(_two_lines(128, "fecha")) == []  # line boxes overlap by a third, letters do not meet
    assert _text_defects(_two_lines(122, "fecha"))  # the date's ascenders reach into the title's letters
    assert _text_defects(_two_lines(112, "fecha"))


def test_a_copy_of_the_same_words_under_a_title_is_its_shadow_not_a_collision() -> None:
    def page(second: str) -> str:
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 400">'
                '<text x="44" y="104" font-size="60" fill="#cc0">Partagez notre rêve</text>'
                f'<text x="40" y="100" font-size="60" fill="#fff">{second}</text></svg>')

    assert _text_defects(page("Partagez notre rêve")) == []
    assert _text_defects(page("Another title here"))
