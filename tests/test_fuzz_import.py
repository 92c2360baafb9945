"""Property-based fuzzing of the importer and the whole pipeline with mutated corpus files.

Mutated real designs either import into a valid layout or are refused with one
SvgImportError — never another exception, never a hang; and what imports goes
through metrics, one heuristic fix step, a small render and the SVG export
raising nothing but the project's own errors (``LayoutError``).

The mutators are ``tests.fuzz``'s (hypothesis draws their choices here): byte
flips, truncation, attribute values swapped for garbage (NaN, infinities,
1e308, 1e-300, units, broken references), tags duplicated or removed,
self-references (``<use>``, ``clip-path``, ``mask``, ``fill``), entity/DOCTYPE
injection, huge or tiny page sizes, gzip. The default run tries about 500
inputs through the importer and 150 through the whole pipeline; the ``slow``
variants several thousand. ``python -m tests.fuzz`` runs 100 000 in parallel
processes and reports the crashes by kind.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.errors import SvgImportError
from assistant.importer import ImportLimits, import_svg_text
from tests.conftest import osgeo_files, resvg_files
from tests.fuzz import MUTATORS, exercise, seed_files

#: Small seeds keep each example fast: the resvg cases plus the smaller OSGeo flyers.
SEEDS: list[bytes] = [p.read_bytes() for p in resvg_files()] + [
    p.read_bytes() for p in osgeo_files() if p.stat().st_size < 120_000
]
#: Real designs for the whole pipeline (real/ and osgeo/ files up to 120 KB), and some resvg cases.
DESIGNS: list[bytes] = [p.read_bytes() for p in seed_files(120) if "resvg" not in p.parts]
LIMITS = ImportLimits(max_elements=20_000, max_rendered=40_000)


class DrawChooser:
    """``tests.fuzz.Chooser`` over hypothesis draws (so failures shrink)."""

    def __init__(self, draw: st.DataObject) -> None:
        self.draw = draw

    def integer(self, lo: int, hi: int, label: str) -> int:
        return self.draw.draw(st.integers(lo, hi), label=label)

    def choice(self, items: Sequence[Any], label: str) -> Any:
        return self.draw.draw(st.sampled_from(list(items)), label=label)


def _check(data: bytes) -> None:
    try:
        doc = import_svg_text(data, source="fuzz.svg", limits=LIMITS)
    except SvgImportError as exc:
        assert exc.source == "fuzz.svg" and exc.problem
        return
    ids = [e.id for e in doc.layout]
    assert len(ids) == len(set(ids))
    for e in doc.layout:
        assert all(math.isfinite(v) for v in e.box.as_tuple())
        if e.font_size is not None:
            assert math.isfinite(e.font_size)


def _mutated(draw: st.DataObject, seeds: list[bytes] = SEEDS) -> bytes:
    data = draw.draw(st.sampled_from(seeds), label="seed")
    chooser = DrawChooser(draw)
    for _ in range(draw.draw(st.integers(1, 3), label="rounds")):
        data = chooser.choice(MUTATORS, "mutator")(data, chooser)
    return data


FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)


@pytest.mark.timeout(900)
@settings(FUZZ, max_examples=500)
@given(st.data())
def test_fuzzed_corpus_imports_or_is_refused(data: st.DataObject) -> None:
    _check(_mutated(data))


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(FUZZ, max_examples=4000, derandomize=False)
@given(st.data())
def test_fuzzed_corpus_imports_or_is_refused_many(data: st.DataObject) -> None:
    _check(_mutated(data))


@pytest.mark.timeout(900)
@settings(FUZZ, max_examples=150)
@given(st.data())
def test_fuzzed_designs_go_through_import_metrics_fix_and_render(data: st.DataObject) -> None:
    assert exercise(_mutated(data, DESIGNS + SEEDS[:200]), limits=LIMITS) in ("ok", "refused")


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(FUZZ, max_examples=2000, derandomize=False)
@given(st.data())
def test_fuzzed_designs_go_through_the_pipeline_many(data: st.DataObject) -> None:
    assert exercise(_mutated(data, DESIGNS + SEEDS), limits=LIMITS) in ("ok", "refused")


@pytest.mark.parametrize("seed_path", [p for p in osgeo_files() if p.stat().st_size < 120_000], ids=lambda p: p.name)
def test_seeds_themselves_import(seed_path: Path) -> None:
    assert len(import_svg_text(seed_path.read_bytes(), limits=LIMITS).layout) > 0
