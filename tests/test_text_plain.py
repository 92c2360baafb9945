"""The short way of laying out a plain ``<text>`` gives exactly what the long way gives.

A ``<text>`` with no child elements, one ``x`` and one ``y`` and collapsed white space is laid out without a
record per character (``assistant.text.layout._measure_plain``); every field of its ``TextMetrics`` must equal
the general layout's, on hand-made cases and on every text of the real corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from assistant.limits import DEFAULT_LIMITS
from assistant.svg.css import StyleResolver
from assistant.svg.parse import parse_svg_bytes
from assistant.text import layout
from assistant.text.layout import measure_positioned

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"
NS = 'xmlns="http://www.w3.org/2000/svg"'


def _both(node, resolver) -> tuple:
    layout.SHORT_WAY = False
    try:
        long_way = measure_positioned(node, resolver)
    finally:
        layout.SHORT_WAY = True
    return measure_positioned(node, resolver), long_way


@pytest.mark.parametrize("text", [
    '<text x="10" y="20" font-size="12">Go 12</text>',
    '<text x="10" y="20" font-size="12" text-anchor="middle">  Photo   123  </text>',
    '<text x="300" y="20" style="font-size:30px;text-anchor:end;letter-spacing:-2px">Negative spacing</text>',
    '<text x="10 20 30" y="5" font-size="12">A</text>',
    '<text x="10 20 30" y="5" font-size="12">ABC</text>',
    '<text y="7" font-size="0">zero</text>',
    '<text x="1" y="2" font-size="10">   </text>',
    '<text x="1" y="2" font-size="10"></text>',
    '<text x="-0" y="-0" font-size="10" font-weight="bold" font-family="serif">tab\there\nnewline</text>',
    '<text x="5" y="9" font-size="10" xml:space="preserve">  kept  spaces </text>',
    '<text x="5" y="9" font-size="10" style="white-space:pre">  pre  </text>',
    '<text x="5" y="9" font-size="10" word-spacing="4">many words here</text>',
])
def test_hand_made_texts(text: str) -> None:
    root = etree.fromstring(f'<svg {NS} viewBox="0 0 400 100">{text}</svg>')
    node = root[0]
    short, long_way = _both(node, StyleResolver(root))
    assert short == long_way


def _corpus() -> list[Path]:
    return sorted(SHARED.glob("real/*.svg")) + sorted(SHARED.glob("osgeo/*.svg")) if SHARED.is_dir() else []


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared (its corpus) is not here")
@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_every_text_of_the_corpus(path: Path) -> None:
    root = parse_svg_bytes(path.read_bytes(), str(path), DEFAULT_LIMITS).getroot()
    resolver = StyleResolver(root)
    for node in root.iter("{http://www.w3.org/2000/svg}text"):
        short, long_way = _both(node, resolver)
        assert short == long_way, etree.tostring(node)[:200]
