"""Text partly off the canvas is brought back onto the margin the design keeps (``assistant.metrics.text_fit``)."""

from __future__ import annotations

from pathlib import Path

from assistant.app.batch import FixOptions, improve
from assistant.importer import import_svg, import_svg_text
from assistant.metrics import evaluate


def test_text_brought_back_onto_the_page_goes_to_the_margin_its_side_keeps() -> None:
    doc = import_svg(Path(__file__).resolve().parents[1] / "examples" / "social_card.svg")
    improve(doc, FixOptions())
    # the logo ran off the right edge; it now ends on the right edge of the product picture above it
    assert abs(doc.layout.get("brand").box.x2 - doc.layout.get("product").box.x2) < 0.01


def test_with_no_content_near_that_side_text_goes_to_the_safe_margin() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 600">'
           '<text id="t" x="-150" y="300" font-size="40">Spilling off the left</text>'
           '<rect data-role="image" x="500" y="100" width="300" height="300" fill="#888"/></svg>')
    report = evaluate(import_svg_text(svg).layout)
    (off,) = [f for f in report.findings() if f.metric == "text_fit" and "off the canvas" in f.message]
    # the safe margin of a canvas that declares none: 5 % of its short side
    assert off.suggestion == {"type": "move", "ids": ["t"], "dx": 180.0, "dy": 0.0}
