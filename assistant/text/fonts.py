"""Font metrics from the installed font files (fontTools), with a documented fallback.

Finding a face
    ``font-family`` lists (``"MiriamLibre-Bold, Miriam Libre"``, ``'Open Sans',
    Arial, sans-serif``) are resolved against the installed fonts, listed with
    ``fc-list`` (fontconfig) or, when fontconfig is missing, by scanning the usual
    font directories and reading each file's ``name`` and ``OS/2`` tables. The
    first family that is installed wins; a generic family (``sans-serif``,
    ``serif``, ``monospace``, …) maps to fontconfig's choice for it. A family that
    is not installed maps to a generic family guessed from its name
    (``Garamond`` → serif, ``Courier``/``Mono`` → monospace) or from
    fontconfig's alias rules (``Georgia`` → serif), else sans-serif — the same
    substitution a renderer on this machine makes. Within the family the face
    closest in weight and style is chosen (CSS Fonts 4 §5.2, simplified); weight
    and style hints in a PostScript-like name (``Sintony-Bold``) count when the
    base family (``Sintony``) is installed; otherwise they are ignored, as
    fontconfig ignores them.

Metrics
    Advance widths come from ``hmtx`` through the best Unicode ``cmap``;
    a character the face lacks gets the ``.notdef`` advance (cairo's toy text API,
    used by cairosvg, does not substitute fonts either). ``letter-spacing`` is
    added after every character and ``word-spacing`` after every space
    (CSS Text 3 §8). Kerning is not applied (cairosvg does not apply it).
    Ascent and descent come from ``OS/2`` typo metrics when the font sets
    ``USE_TYPO_METRICS``, else from ``hhea``.

Fallback
    When no font file can be found at all, widths use fixed average advance
    ratios per generic family (sans-serif 0.55 em, serif 0.5 em, monospace
    0.6 em per character, spaces 0.3 em) and extents 0.9 em / 0.25 em. These
    are rough averages of Latin text in common fonts.

Everything is cached per process (font list, family resolution, loaded faces).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTCollection, TTFont

GENERIC_FAMILIES = ("sans-serif", "serif", "monospace", "cursive", "fantasy", "system-ui")

_SERIF_HINTS = ("serif", "garamond", "times", "georgia", "roman", "minion", "palatino", "baskerville",
                "caslon", "bodoni", "didot", "cambria", "book antiqua", "merriweather", "lora",
                "playfair", "crimson", "libre baskerville", "pt serif", "slab", "century", "charter",
                "bookman", "cochin", "constantia", "utopia", "noto serif", "source serif", "tinos")
_MONO_HINTS = ("mono", "courier", "consolas", "menlo", "monaco", "inconsolata", "code", "fixed",
               "typewriter", "lucida console", "cousine")
_WEIGHT_HINTS = (("extrabold", 800), ("ultrabold", 800), ("semibold", 600), ("demibold", 600),
                 ("extralight", 200), ("ultralight", 200), ("black", 900), ("heavy", 900),
                 ("bold", 700), ("medium", 500), ("light", 300), ("thin", 100))
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", "~/.local/share/fonts",
              "/Library/Fonts", "/System/Library/Fonts", "C:/Windows/Fonts")
_FALLBACK_ADVANCE = {"sans-serif": 0.55, "serif": 0.5, "monospace": 0.6}
_FALLBACK_EXTENTS = (0.9, 0.25)

# fontconfig weights → CSS weights (fontconfig.h FC_WEIGHT_*).
_FC_WEIGHTS = ((0, 100), (40, 200), (50, 300), (55, 350), (75, 380), (80, 400), (100, 500),
               (180, 600), (200, 700), (205, 800), (210, 900), (215, 950))


@dataclass(frozen=True)
class FaceInfo:
    """One installed face: file, collection index, family names, weight, italic, width (%)."""

    path: str
    index: int
    families: tuple[str, ...]
    weight: int
    italic: bool
    width: int = 100


@dataclass
class FaceMetrics:
    """Metrics of one loaded face in font units."""

    info: FaceInfo
    units_per_em: int
    ascent: int
    descent: int  # positive distance below the baseline
    advances: dict[int, int] = field(repr=False)  # code point → advance
    notdef: int = 0


def normalize_family(name: str) -> str:
    """Family name key: lower case, without quotes, spaces, hyphens and underscores."""
    return re.sub(r"[\s\-_'\"]+", "", name).lower()


def split_families(value: str | None) -> list[str]:
    """The names of a ``font-family`` list, quotes removed (commas inside quotes split too)."""
    if not value:
        return []
    return [p.strip().strip("'\"").strip() for p in re.split(r",", value) if p.strip().strip("'\"").strip()]


def _fc_weight_to_css(w: float) -> int:
    pts = _FC_WEIGHTS
    if w <= pts[0][0]:
        return pts[0][1]
    for (a, ca), (b, cb) in zip(pts, pts[1:]):
        if a <= w <= b:
            return int(round(ca + (cb - ca) * (w - a) / (b - a)))
    return pts[-1][1]


def _first_number(text: str, default: float) -> float:
    m = re.search(r"[-+]?\d+(?:\.\d+)?", text)
    return float(m.group(0)) if m else default


@lru_cache(maxsize=1)
def installed_faces() -> tuple[FaceInfo, ...]:
    """Every installed face (fontconfig's list, else a directory scan), sorted by path."""
    faces = _faces_from_fontconfig()
    if not faces:
        faces = _faces_from_scan()
    return tuple(sorted(faces, key=lambda f: (f.path, f.index)))


def _faces_from_fontconfig() -> list[FaceInfo]:
    exe = shutil.which("fc-list")
    if not exe:
        return []
    fmt = "%{file}\t%{family}\t%{weight}\t%{slant}\t%{width}\t%{index}\n"
    try:
        out = subprocess.run([exe, "--format", fmt], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    faces = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 6 or not parts[0].lower().endswith((".ttf", ".otf", ".ttc", ".otc")):
            continue
        path, fams, weight, slant, width, index = parts
        faces.append(FaceInfo(
            path=path, index=int(_first_number(index, 0)),
            families=tuple(f.strip() for f in fams.split(",") if f.strip()),
            weight=_fc_weight_to_css(_first_number(weight, 80)),
            italic=_first_number(slant, 0) > 0, width=int(_first_number(width, 100)),
        ))
    return faces


def _faces_from_scan() -> list[FaceInfo]:
    faces = []
    for d in _FONT_DIRS:
        root = Path(os.path.expanduser(d))
        if not root.is_dir():
            continue
        for p in sorted(root.rglob("*")):
            if p.suffix.lower() in (".ttf", ".otf"):
                try:
                    faces.append(_face_info_from_file(str(p), 0))
                except Exception:  # noqa: BLE001 - an unreadable font file is skipped
                    continue
    return faces


def _face_info_from_file(path: str, index: int) -> FaceInfo:
    font = TTFont(path, lazy=True, fontNumber=index)
    name = font["name"]
    fams = [str(n) for n in (name.getName(16, 3, 1), name.getName(1, 3, 1), name.getName(1, 1, 0)) if n]
    os2 = font["OS/2"] if "OS/2" in font else None
    weight = int(getattr(os2, "usWeightClass", 400) or 400)
    italic = bool(os2 and (os2.fsSelection & 1)) or "italic" in path.lower() or "oblique" in path.lower()
    width = {1: 50, 2: 62, 3: 75, 4: 87, 5: 100, 6: 112, 7: 125, 8: 150, 9: 200}.get(
        int(getattr(os2, "usWidthClass", 5) or 5), 100)
    font.close()
    return FaceInfo(path=path, index=index, families=tuple(dict.fromkeys(fams)), weight=weight,
                    italic=italic, width=width)


@cache
def _families() -> dict[str, list[FaceInfo]]:
    out: dict[str, list[FaceInfo]] = {}
    for face in installed_faces():
        for fam in face.families:
            out.setdefault(normalize_family(fam), []).append(face)
    return out


@cache
def _fc_match_family(pattern: str) -> str | None:
    exe = shutil.which("fc-match")
    if not exe:
        return None
    try:
        # fontconfig pattern syntax: "-" starts a size and ":"/"," separate fields; escape them.
        escaped = re.sub(r"([\\\-:,])", r"\\\1", pattern)
        out = subprocess.run([exe, "-f", "%{family}", escaped], capture_output=True, text=True,
                             timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    fam = out.split(",")[0].strip()
    return fam or None


_GENERIC_PREFERENCES = {
    "sans-serif": ("DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial", "Helvetica", "FreeSans"),
    "serif": ("DejaVu Serif", "Liberation Serif", "Noto Serif", "Times New Roman", "FreeSerif"),
    "monospace": ("DejaVu Sans Mono", "Liberation Mono", "Noto Sans Mono", "Courier New", "FreeMono"),
}


@cache
def generic_family(generic: str) -> str | None:
    """The installed family standing for a generic family (fontconfig's choice when available)."""
    generic = {"cursive": "sans-serif", "fantasy": "sans-serif", "system-ui": "sans-serif"}.get(generic, generic)
    fams = _families()
    chosen = _fc_match_family(generic)
    if chosen and normalize_family(chosen) in fams:
        return chosen
    for name in _GENERIC_PREFERENCES.get(generic, ()):
        if normalize_family(name) in fams:
            return name
    faces = installed_faces()
    return faces[0].families[0] if faces else None


def guess_generic(name: str) -> str:
    """Generic family a family name most likely belongs to (keywords, then fontconfig aliases)."""
    low = name.lower()
    if any(h in low for h in _MONO_HINTS):
        return "monospace"
    if "sans" not in low and any(h in low for h in _SERIF_HINTS):
        return "serif"
    matched = _fc_match_family(name)
    if matched:
        for generic in ("monospace", "serif"):
            g = generic_family(generic)
            if g and normalize_family(g) == normalize_family(matched) and g != generic_family("sans-serif"):
                return generic
    return "sans-serif"


def _name_hints(name: str) -> tuple[int | None, bool]:
    """Weight and italic hinted by a face-like family name (``Sintony-Bold``, ``Foo Light Italic``)."""
    low = name.lower().replace(" ", "").replace("-", "")
    weight = next((w for key, w in _WEIGHT_HINTS if low.endswith(key) or f"{key}italic" in low
                   or f"{key}oblique" in low), None)
    italic = low.endswith(("italic", "oblique", "it"))
    return weight, italic


@dataclass(frozen=True)
class ResolvedFont:
    """The outcome of family resolution: the installed family (None: no fonts) and the generic class."""

    family: str | None
    generic: str
    weight_hint: int | None = None
    italic_hint: bool = False


@lru_cache(maxsize=4096)
def resolve_family(value: str | None) -> ResolvedFont:
    """Resolve a ``font-family`` list to an installed family name (see the module docstring)."""
    names = split_families(value) or ["sans-serif"]
    fams = _families()
    for name in names:
        key = normalize_family(name)
        if name.lower() in GENERIC_FAMILIES:
            g = {"cursive": "sans-serif", "fantasy": "sans-serif", "system-ui": "sans-serif"}.get(name.lower(),
                                                                                                 name.lower())
            return ResolvedFont(generic_family(g), g)
        if key in fams:
            return ResolvedFont(fams[key][0].families[0], guess_generic(name))
        w, it = _name_hints(name)
        # "Foo-Bold" not installed: try "Foo" with the hinted weight.
        base = re.sub(r"(?i)[\s\-_]?(extra|ultra|semi|demi)?(bold|black|heavy|medium|light|thin|regular|"
                      r"italic|oblique|book|it)+$", "", name)
        if base and normalize_family(base) in fams:
            return ResolvedFont(fams[normalize_family(base)][0].families[0], guess_generic(base), w, it)
    generic = guess_generic(names[0])
    return ResolvedFont(generic_family(generic), generic)


def _face_score(face: FaceInfo, weight: int, italic: bool) -> tuple[float, ...]:
    return (0 if face.italic == italic else 1, abs(face.weight - weight) + (0.5 if face.weight < weight else 0),
            abs(face.width - 100), face.path)  # type: ignore[return-value]


@lru_cache(maxsize=1024)
def find_face(family: str | None, weight: int = 400, style: str = "normal") -> FaceInfo | None:
    """The installed face for a ``font-family`` list, weight (100–900) and style; None: no fonts at all."""
    resolved = resolve_family(family)
    if resolved.family is None:
        return None
    if resolved.weight_hint is not None and weight == 400:
        weight = resolved.weight_hint
    italic = style.lower() in ("italic", "oblique") or resolved.italic_hint
    faces = _families().get(normalize_family(resolved.family), [])
    if not faces:
        return None
    return min(faces, key=lambda f: _face_score(f, weight, italic))


@lru_cache(maxsize=256)
def load_face(info: FaceInfo) -> FaceMetrics:
    """Read the metrics of one face (cached)."""
    if info.path.lower().endswith((".ttc", ".otc")):
        font = TTCollection(info.path, lazy=True).fonts[info.index]
    else:
        font = TTFont(info.path, lazy=True)
    upm = int(font["head"].unitsPerEm)
    hhea = font["hhea"]
    ascent, descent = int(hhea.ascent), -int(hhea.descent)
    if "OS/2" in font:
        os2 = font["OS/2"]
        if getattr(os2, "fsSelection", 0) & (1 << 7):  # USE_TYPO_METRICS
            ascent, descent = int(os2.sTypoAscender), -int(os2.sTypoDescender)
    cmap = font.getBestCmap() or {}
    hmtx = font["hmtx"].metrics
    advances = {cp: hmtx[g][0] for cp, g in cmap.items() if g in hmtx}
    notdef = hmtx[".notdef"][0] if ".notdef" in hmtx else upm // 2
    font.close()
    return FaceMetrics(info=info, units_per_em=upm, ascent=ascent, descent=descent,
                       advances=advances, notdef=notdef)


def text_advance(text: str, family: str | None, size: float, weight: int = 400, style: str = "normal",
                 letter_spacing: float = 0.0, word_spacing: float = 0.0) -> float:
    """Advance width of ``text`` set in one font, in the units of ``size``.

    ``letter_spacing`` is added after each character and ``word_spacing`` after
    each space (same units as ``size``).
    """
    if not text:
        return 0.0
    extra = letter_spacing * len(text) + word_spacing * text.count(" ")
    face = find_face(family, weight, style)
    if face is None:
        generic = resolve_family(family).generic
        ratio = _FALLBACK_ADVANCE.get(generic, 0.55)
        units = sum(0.3 if ch == " " else ratio for ch in text)
        return units * size + extra
    m = load_face(face)
    adv = m.advances
    total = sum(adv.get(ord(ch), m.notdef) for ch in text)
    return total * size / m.units_per_em + extra


def char_advances(text: str, family: str | None, size: float, weight: int = 400, style: str = "normal",
                  letter_spacing: float = 0.0, word_spacing: float = 0.0) -> list[float]:
    """Advance of each character of ``text`` (same rules as ``text_advance``)."""
    face = find_face(family, weight, style)
    if face is None:
        ratio = _FALLBACK_ADVANCE.get(resolve_family(family).generic, 0.55)
        base = [(0.3 if ch == " " else ratio) * size for ch in text]
    else:
        m = load_face(face)
        k = size / m.units_per_em
        base = [m.advances.get(ord(ch), m.notdef) * k for ch in text]
    return [b + letter_spacing + (word_spacing if ch == " " else 0.0) for b, ch in zip(base, text)]


def font_extents(family: str | None, size: float, weight: int = 400, style: str = "normal") -> tuple[float, float]:
    """``(ascent, descent)`` of the face at ``size``; both positive (descent lies below the baseline)."""
    face = find_face(family, weight, style)
    if face is None:
        return _FALLBACK_EXTENTS[0] * size, _FALLBACK_EXTENTS[1] * size
    m = load_face(face)
    return m.ascent * size / m.units_per_em, m.descent * size / m.units_per_em


def face_family(family: str | None, weight: int = 400, style: str = "normal") -> str:
    """The installed family name used for ``family`` (the generic name when no font exists)."""
    face = find_face(family, weight, style)
    if face is None:
        return resolve_family(family).generic
    return resolve_family(family).family or face.families[0]


@dataclass(frozen=True)
class FontSpec:
    """The font properties that decide glyph advances, in user units."""

    family: str | None
    size: float
    weight: int = 400
    style: str = "normal"
    letter_spacing: float = 0.0
    word_spacing: float = 0.0

    def advance(self, text: str) -> float:
        """Advance width of ``text`` set in this font, spacing included."""
        return text_advance(text, self.family, self.size, self.weight, self.style,
                            self.letter_spacing, self.word_spacing)

    def advances(self, text: str) -> list[float]:
        """Advance width of each character of ``text``, spacing included."""
        return char_advances(text, self.family, self.size, self.weight, self.style,
                             self.letter_spacing, self.word_spacing)

    def extents(self) -> tuple[float, float]:
        """Ascent and descent of this font at its size (both positive)."""
        return font_extents(self.family, self.size, self.weight, self.style)
