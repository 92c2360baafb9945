"""QR codes drawn as vector squares are recognised, on real files and on drawings that only look busy."""

from __future__ import annotations

import pytest
from lxml import etree

from assistant.importer import import_svg
from assistant.svg.codes import drawn_like_code
from assistant.svg.image import CODE_NAME
from tests.conftest import CORPUS

SVG = "http://www.w3.org/2000/svg"


def _node(markup: str) -> etree._Element:
    return etree.fromstring(f'<svg xmlns="{SVG}">{markup}</svg>')[0]


def _code_rects(n: int = 25, module: float = 4.0) -> str:
    """A code-like chequer of ``n`` × ``n`` modules, one rect each, on a white square."""
    cells = [f'<rect x="{x * module}" y="{y * module}" width="{module}" height="{module}"/>'
             for x in range(n) for y in range(n) if (x * 7 + y * 3 + x * y) % 5 < 2]
    return f'<g><rect width="{n * module}" height="{n * module}" fill="#fff"/>{"".join(cells)}</g>'


def test_modules_drawn_as_rects_are_a_code() -> None:
    assert drawn_like_code(_node(_code_rects()))


def test_modules_as_square_subpaths_with_merged_runs_are_a_code() -> None:
    parts = []
    for y in range(21):
        for x in range(0, 21, 3):
            run = 1 + (x + y) % 2  # one module, or two merged along the row
            parts.append(f"M{x * 7},{y * 7} h{7 * run} v7 h{-7 * run} z")
    assert drawn_like_code(_node(f'<path d="{" ".join(parts)}"/>'))


@pytest.mark.parametrize("markup", [
    # pieces of many sizes: an icon set, lettering
    "<g>" + "".join(f'<rect x="{i * 13 % 200}" y="{i * 29 % 200}" width="{3 + i % 17}" height="{5 + i % 11}"/>'
                    for i in range(120)) + "</g>",
    # a row of equal squares is a border or a dotted rule, not a square code
    "<g>" + "".join(f'<rect x="{i * 8}" y="0" width="4" height="4"/>' for i in range(80)) + "</g>",
    # too few modules
    _code_rects(n=6),
    # squares with text in them: a grid of buttons or a calendar
    _code_rects().replace("</g>", "<text>1</text></g>"),
])
def test_drawings_that_are_not_codes(markup: str) -> None:
    assert not drawn_like_code(_node(markup))


@pytest.mark.parametrize("name, element", [
    ("real/multirom_poster-cs.svg", "g8552"),  # one path of square subpaths on a white square
    ("real/linuxdays_eduguest-card.svg", "QRcode"),  # hundreds of rects (its id says so too)
])
def test_real_drawn_codes_are_named_so(name: str, element: str) -> None:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    layout = import_svg(path).layout
    codes = [e.id for e in layout.elements if e.name == CODE_NAME]
    assert element in codes
    assert all(layout.get(i).kind != "text" for i in codes)


def test_no_other_real_drawing_is_called_a_code() -> None:
    files = sorted((CORPUS / "real").glob("*.svg")) + sorted((CORPUS / "osgeo").glob("*.svg"))
    if not files:
        pytest.skip("corpus not found")
    drawn = {(f.name, e.id) for f in files for e in import_svg(f).layout.elements
             if e.name == CODE_NAME and e.kind != "image"}  # pictures of codes are found by their pixels
    assert drawn == {("multirom_poster-cs.svg", "g8552"), ("linuxdays_eduguest-card.svg", "QRcode")}
