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
