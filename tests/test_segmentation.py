"""The structure of real files, against segmentations written by hand (``tests/data/segmentation.json``).

Each entry names, by the ids in the file, which pieces a designer would select as one unit,
which are different units, which are backdrop or ornament (pinned) and which are content.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.document import Layout
from assistant.importer import import_svg
from assistant.planners.candidates import unit_of

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parents[1] / "shared" / "corpus"
EXPECTED = {k: v for k, v in json.loads((HERE / "data" / "segmentation.json").read_text()).items()
            if not k.startswith("_")}


def _unit(layout: Layout, element_id: str) -> str:
    assert element_id in layout, f"no element {element_id!r}"
    return unit_of(layout, element_id).id


def test_at_least_twelve_files_are_written_down() -> None:
    assert len(EXPECTED) >= 12


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_import_segments_the_file_as_a_designer_would(name: str) -> None:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    want = EXPECTED[name]
    layout = import_svg(path).layout
    for ids in want.get("together", []):
        units = {i: _unit(layout, i) for i in ids}
        assert len(set(units.values())) == 1, f"{name}: should be one unit: {units}"
    for a, b in want.get("apart", []):
        assert _unit(layout, a) != _unit(layout, b), f"{name}: {a} and {b} should be different units"
    for i in want.get("pinned", []):
        assert layout.get(i).pinned, f"{name}: {i} ({layout.get(i).role}) should be pinned"
    for i in want.get("free", []):
        assert not layout.get(i).pinned and not layout.get(_unit(layout, i)).pinned, f"{name}: {i} should be free"
    for i in want.get("off_page", []):
        assert layout.get(i).page == -1, f"{name}: {i} lies on no page"
    if "pages" in want:
        assert len(layout.canvas.page_boxes()) == want["pages"]
    for i, page in want.get("on_page", {}).items():  # pages counted from 1, as people say them
        assert layout.get(i).page + 1 == page, f"{name}: {i} is on page {layout.get(i).page + 1}, not {page}"
