"""The design's own columns (``assistant.metrics.lines``): a unit knocked off them is a defect; a header is not."""

from __future__ import annotations

from assistant.importer import import_svg_text
from assistant.metrics import evaluate


def _page(*, band: bool, logo_x: float = 40.0, knocked: float = 0.0) -> str:
    """A 1000 × 1400 page: a logo at the top, five pictures on the body's left edge (x = 80).

    A note stands beside each picture; ``knocked`` moves the third picture off the edge.
    """
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1400">',
             '<rect width="1000" height="1400" fill="#ffffff"/>']
    if band:
        parts.append('<rect x="0" y="0" width="1000" height="260" fill="#1d3557"/>')
    parts.append(f'<rect id="logo" data-role="logo" x="{logo_x}" y="60" width="220" height="140" fill="#e63946"/>')
    for i in range(5):
        x = 80 + (knocked if i == 2 else 0.0)
        parts.append(f'<rect id="card{i}" data-role="image" x="{x}" y="{320 + i * 200}" width="300" height="150" '
                     'fill="#a8dadc"/>')
        parts.append(f'<text id="note{i}" x="480" y="{380 + i * 200}" font-size="28">Note {i} on the card</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _alignment_defects(svg: str) -> list[str]:
    report = evaluate(import_svg_text(svg).layout)
    return [f.message for f in report.findings() if f.metric == "alignment" and f.defect]


def test_a_logo_off_the_body_column_is_a_defect_on_the_page_itself() -> None:
    found = _alignment_defects(_page(band=False))
    assert any(m.startswith("logo ") for m in found), found


def test_a_logo_on_a_header_band_keeps_the_bands_own_lines() -> None:
    # the header band is a ground of its own: the body's columns say nothing about the logo on it
    assert _alignment_defects(_page(band=True)) == []


def test_a_card_knocked_off_the_body_column_is_found_under_a_header_band() -> None:
    found = _alignment_defects(_page(band=True, knocked=25.0))
    assert any(m.startswith("card2 ") for m in found), found
    assert not any(m.startswith("logo ") for m in found), found


def _stack(edges: tuple[float, ...]) -> str:
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 612 792">',
             '<text id="head" x="40" y="100" font-size="40" font-weight="700">FIELD NOTES</text>']
    for i, x in enumerate(edges):
        parts.append(f'<text id="line{i}" x="{x}" y="{300 + 70 * i}" font-size="15">Cover line number {i}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def test_like_lines_zigzagging_off_one_edge_are_put_back_on_it_together() -> None:
    report = evaluate(import_svg_text(_stack((58.0, 33.0, 47.0))).layout)
    ragged = [f for f in report.findings() if f.metric == "alignment" and f.defect]
    assert sorted(f.element_ids[0] for f in ragged) == ["line0", "line1", "line2"]
    # one edit for the whole list, onto the heading's edge that lies within reach
    assert all(f.suggestion == {"type": "align", "ids": ["line0", "line1", "line2"], "edge": "left",
                                "to": "element", "target_id": "head"} for f in ragged)


def test_a_steady_cascade_of_indents_is_deliberate() -> None:
    assert _alignment_defects(_stack((33.0, 47.0, 58.0))) == []


def test_fix_sets_the_editorial_examples_cover_lines_on_one_edge() -> None:
    from pathlib import Path

    from assistant.app.batch import FixOptions, improve
    from assistant.importer import import_svg

    doc = import_svg(Path(__file__).resolve().parents[1] / "examples" / "editorial_cover.svg")
    improve(doc, FixOptions())
    edges = {round(doc.layout.get(f"coverline-{i}").box.x, 1) for i in (1, 2, 3, 4)}
    assert edges == {round(doc.layout.get("masthead").box.x, 1)}

