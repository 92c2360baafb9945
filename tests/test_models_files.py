"""``models.files``: real SVG files as episodes, as they are and perturbed by seeded damaging edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.files import MIN_DAMAGE, file_env, file_variant, load_files

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _composite(doc) -> float:  # noqa: ANN001
    return file_env(doc, max_steps=1)[1]["composite"]


def test_seed_zero_is_the_file_as_it_is_and_later_seeds_damage_it() -> None:
    ((name, doc),) = load_files([EXAMPLES / "poster.svg"])
    before = doc.layout.model_dump()
    same, edits = file_variant(doc, name, 0, 3)
    assert edits == [] and same is not doc and same.layout.model_dump() == before
    start = _composite(doc)
    counts = []
    for seed in range(1, 7):
        variant, edits = file_variant(doc, name, seed, 3)
        counts.append(len(edits))
        assert 1 <= len(edits) <= 3
        # every kept edit lowered the composite by MIN_DAMAGE or more, so the copy is worse than the file
        assert _composite(variant) <= start - MIN_DAMAGE * len(edits) + 1e-9
        assert variant.layout.model_dump() != before
    assert doc.layout.model_dump() == before  # the imported file is never touched
    assert len(set(counts)) > 1  # 1 … perturb edits, drawn per seed


def test_variants_are_reproducible_and_differ_by_seed() -> None:
    ((name, doc),) = load_files([EXAMPLES / "slide.svg"])
    a, ea = file_variant(doc, name, 5, 3)
    b, eb = file_variant(doc, name, 5, 3)
    assert ea == eb and a.layout.model_dump() == b.layout.model_dump()
    _, ec = file_variant(doc, name, 6, 3)
    assert ec != ea
    # the draw depends on the file's name, so two files at one seed are knocked about differently
    _, ed = file_variant(doc, "other.svg", 5, 3)
    assert ed != ea


def test_perturbed_copies_of_a_real_corpus_file(osgeo_dir: Path) -> None:
    ((name, doc),) = load_files([osgeo_dir / "gdal_a4.svg"])
    variant, edits = file_variant(doc, name, 2, 2)
    assert 1 <= len(edits) <= 2 and _composite(variant) < _composite(doc)
    ids = {e.id for e in doc.layout.elements}
    touched = {i for e in edits for i in (e.get("ids") or [e.get("id")])}
    assert touched <= ids  # edits of the file's own elements


def test_bad_input_is_refused_with_the_file_named(tmp_path: Path) -> None:
    from assistant.errors import LayoutError

    with pytest.raises(ValueError, match="file names must differ"):
        load_files([EXAMPLES / "poster.svg", tmp_path / "poster.svg"])
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg><rect")
    with pytest.raises(LayoutError, match="broken.svg"):
        load_files([EXAMPLES / "slide.svg", broken])
    ((name, doc),) = load_files([EXAMPLES / "slide.svg"])
    with pytest.raises(ValueError, match="at least 0"):
        file_variant(doc, name, -1, 3)
