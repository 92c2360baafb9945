"""Font resolution and metrics against the fonts installed on this machine (fontTools)."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from assistant.text import fonts
from assistant.text.fonts import (
    char_advances,
    find_face,
    font_extents,
    guess_generic,
    installed_faces,
    resolve_family,
    split_families,
    text_advance,
)

pytestmark = pytest.mark.skipif(not installed_faces(), reason="no font files on this machine")


def _hmtx_width(path: str, text: str, size: float) -> float:
    """Independent reference: glyph advances read directly with fontTools."""
    font = TTFont(path)
    cmap = font.getBestCmap()
    upm = font["head"].unitsPerEm
    return sum(font["hmtx"][cmap[ord(c)]][0] for c in text) * size / upm


def test_split_families() -> None:
    assert split_families("MiriamLibre-Bold, 'Miriam Libre'") == ["MiriamLibre-Bold", "Miriam Libre"]
    assert split_families("'Sintony-Bold, Sintony'") == ["Sintony-Bold", "Sintony"]
    assert split_families("") == []


def test_advance_matches_hmtx_of_the_chosen_file() -> None:
    face = find_face("sans-serif", 400, "normal")
    assert face is not None
    text = "Open Source Geospatial"
    assert text_advance(text, "sans-serif", 12.0) == pytest.approx(_hmtx_width(face.path, text, 12.0))


def test_real_widths_differ_by_glyph_not_by_count() -> None:
    narrow = text_advance("iiiiiiiiii", "sans-serif", 10)
    wide = text_advance("WWWWWWWWWW", "sans-serif", 10)
    assert wide > 2.5 * narrow


def test_weight_style_and_generic_mapping() -> None:
    regular = find_face("Arial", 400, "normal")
    bold = find_face("Helvetica", 700, "normal")
    italic = find_face("OpenSans", 400, "italic")
    assert regular and bold and italic
    assert bold.weight >= 600 and regular.weight < 600
    assert italic.italic and not regular.italic
    assert text_advance("Layout", "Arial", 20, 700) > text_advance("Layout", "Arial", 20, 400)
    mono = find_face("monospace")
    assert mono is not None
    widths = char_advances("iW.", "monospace", 10)
    assert max(widths) == pytest.approx(min(widths))
    assert guess_generic("EB Garamond") == "serif"
    assert guess_generic("Courier New") == "monospace"
    assert guess_generic("MiriamLibre-Bold") == "sans-serif"


def test_unknown_family_maps_like_the_renderer() -> None:
    # Not installed anywhere: falls back to the installed sans-serif family, weight from the caller.
    r = resolve_family("MiriamLibre-Bold, Miriam Libre")
    assert r.family == resolve_family("sans-serif").family
    assert find_face("MiriamLibre-Bold, Miriam Libre", 700).weight >= 600
    assert find_face("Sintony-Bold, Sintony", 400).weight < 600


def test_letter_and_word_spacing() -> None:
    base = text_advance("a b c", "serif", 10)
    assert text_advance("a b c", "serif", 10, letter_spacing=1.0) == pytest.approx(base + 5)
    assert text_advance("a b c", "serif", 10, word_spacing=2.0) == pytest.approx(base + 4)
    assert sum(char_advances("a b c", "serif", 10, letter_spacing=1.0)) == pytest.approx(base + 5)


def test_extents_scale_with_size() -> None:
    a, d = font_extents("sans-serif", 10)
    a2, d2 = font_extents("sans-serif", 20)
    assert 5 < a < 12 and 0.5 < d < 5
    assert a2 == pytest.approx(2 * a) and d2 == pytest.approx(2 * d)


def test_fallback_without_font_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no font files at all, the documented average-advance fallback applies."""
    for fn in (fonts.installed_faces, fonts._families, fonts.generic_family, fonts.resolve_family,
               fonts.find_face):
        fn.cache_clear()
    monkeypatch.setattr(fonts, "_faces_from_fontconfig", lambda: [])
    monkeypatch.setattr(fonts, "_faces_from_scan", lambda: [])
    try:
        assert fonts.find_face("serif") is None
        assert fonts.text_advance("abcd", "serif", 10) == pytest.approx(4 * 0.5 * 10)
        assert fonts.text_advance("ab cd", "monospace", 10) == pytest.approx((4 * 0.6 + 0.3) * 10)
        assert fonts.font_extents("serif", 10) == pytest.approx((9.0, 2.5))
    finally:
        monkeypatch.undo()
        for fn in (fonts.installed_faces, fonts._families, fonts.generic_family, fonts.resolve_family,
                   fonts.find_face):
            fn.cache_clear()
