"""Property-based fuzzing of the importer: mutated corpus files either import into a
valid layout or are refused with one SvgImportError — never another exception, never
a hang.

Mutations (hypothesis draws them): byte flips, truncation, attribute values swapped
for garbage (NaN, infinities, huge or negative numbers, units, broken references),
tags duplicated or removed, and entity/DOCTYPE injection. The default run tries
about 500 inputs; the ``slow`` variant several thousand.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.errors import SvgImportError
from assistant.importer import ImportLimits, import_svg_text
from tests.conftest import osgeo_files, resvg_files

#: Small seeds keep each example fast: the resvg cases plus the smaller OSGeo flyers.
SEEDS: list[bytes] = [p.read_bytes() for p in resvg_files()] + [
    p.read_bytes() for p in osgeo_files() if p.stat().st_size < 120_000
]
LIMITS = ImportLimits(max_elements=20_000, max_rendered=40_000)

GARBAGE = [
    "NaN", "nan", "inf", "-inf", "Infinity", "1e999", "-1e999", "1e308", "-1e308", "0", "-0", "-1", "1e-320",
    "", " ", "abc", "10%", "-50%", "1e5in", "12em", "3.4.5", "1,2,3", "url(#nope)", "url(#", "#", "none",
    "translate(", "rotate(1e308)", "scale(0)", "matrix(0 0 0 0 0 0)", "M 0 0 L", "M 1e308 1e308 L -1e308 -1e308",
    "0 0 0 0", "0 0 -1 -1", "\u202e", "&amp;", "\x00".replace("\x00", "?"),
]
_ATTR = re.compile(rb'="[^"]*"')
_TAG = re.compile(rb"<[A-Za-z][^<>]*?/?>")


def _flip(data: bytes, draw: st.DataObject) -> bytes:
    if not data:
        return data
    buf = bytearray(data)
    for _ in range(draw.draw(st.integers(1, 8), label="flips")):
        i = draw.draw(st.integers(0, len(buf) - 1), label="pos")
        buf[i] = draw.draw(st.integers(0, 255), label="byte")
    return bytes(buf)


def _truncate(data: bytes, draw: st.DataObject) -> bytes:
    return data[: draw.draw(st.integers(0, len(data)), label="cut")]


def _swap_attribute(data: bytes, draw: st.DataObject) -> bytes:
    spans = [m.span() for m in _ATTR.finditer(data)]
    if not spans:
        return data
    out = data
    for _ in range(draw.draw(st.integers(1, 4), label="swaps")):
        spans = [m.span() for m in _ATTR.finditer(out)]
        if not spans:
            break
        a, b = spans[draw.draw(st.integers(0, len(spans) - 1), label="attr")]
        value = draw.draw(st.sampled_from(GARBAGE), label="value").replace('"', "")
        out = out[:a] + b'="' + value.encode("utf-8") + b'"' + out[b:]
    return out


def _tags(data: bytes, draw: st.DataObject) -> bytes:
    spans = [m.span() for m in _TAG.finditer(data)]
    if not spans:
        return data
    a, b = spans[draw.draw(st.integers(0, len(spans) - 1), label="tag")]
    if draw.draw(st.booleans(), label="duplicate"):
        times = draw.draw(st.integers(1, 50), label="times")
        return data[:b] + data[a:b] * times + data[b:]
    return data[:a] + data[b:]


def _inject(data: bytes, draw: st.DataObject) -> bytes:
    payload = draw.draw(st.sampled_from([
        b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>',
        b'<!DOCTYPE svg SYSTEM "file:///etc/passwd">',
        b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        b"<?xml-stylesheet href='http://example.org/x.css'?>",
    ]), label="payload")
    m = re.search(rb"<svg\b", data)
    at = m.start() if m else 0
    return data[:at] + payload + data[at:]


MUTATORS = [_flip, _truncate, _swap_attribute, _tags, _inject]


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


def _mutated(draw: st.DataObject) -> bytes:
    data = draw.draw(st.sampled_from(SEEDS), label="seed")
    for _ in range(draw.draw(st.integers(1, 3), label="rounds")):
        mutate = draw.draw(st.sampled_from(MUTATORS), label="mutator")
        data = mutate(data, draw)
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


@pytest.mark.parametrize("seed_path", [p for p in osgeo_files() if p.stat().st_size < 120_000], ids=lambda p: p.name)
def test_seeds_themselves_import(seed_path: Path) -> None:
    assert len(import_svg_text(seed_path.read_bytes(), limits=LIMITS).layout) > 0
