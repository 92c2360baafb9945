"""SVG lengths, numbers and the page (canvas) of a root ``<svg>``.

Lengths follow CSS Values 3 absolute units as SVG uses them
(1in = 2.54cm = 25.4mm = 72pt = 6pc = 96px); ``em`` is the font size
(16 px unless given), ``ex`` half of it, ``%`` a fraction of a reference
length.

The canvas follows SVG 1.1 §7.7–7.8: the root's ``viewBox`` defines world
space (its user space). Without a viewBox, world space is CSS px and the page
is ``width`` × ``height``. ``width``/``height`` that are missing or in ``%``
take the viewBox size (a missing one keeps the viewBox aspect ratio). With
neither a viewBox nor an absolute size the page size is unknown: an error.
``px_per_unit`` is the scale of the viewBox→viewport transform (§7.8: the
smaller of the two axis scales for ``meet``, the larger for ``slice``, their
geometric mean for ``none``).
"""

from __future__ import annotations

import math
import re

from lxml import etree

from assistant.document import Canvas
from assistant.errors import SvgImportError
from assistant.geometry import Box
from assistant.limits import DEFAULT_LIMITS, ImportLimits

#: CSS px per unit (CSS Values 3 §6.2).
UNIT_PX: dict[str, float] = {
    "": 1.0, "px": 1.0, "pt": 96.0 / 72.0, "pc": 16.0, "mm": 96.0 / 25.4,
    "cm": 96.0 / 2.54, "in": 96.0, "q": 96.0 / 101.6,
}
DEFAULT_FONT_SIZE = 16.0

_LENGTH_RE = re.compile(
    r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|pt|pc|mm|cm|in|q|em|ex|rem|%)?\s*$", re.I
)
_NUMBER_RE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_NONFINITE_RE = re.compile(r"(?<![a-z])(nan|inf|infinity)(?![a-z])", re.I)


def split_length(text: str | None) -> tuple[float, str] | None:
    """``(number, unit)`` of a length (unit lower-cased, ``""`` when none); ``None`` if invalid."""
    if text is None:
        return None
    m = _LENGTH_RE.match(text)
    if not m:
        return None
    return float(m.group(1)), (m.group(2) or "").lower()


def parse_length(text: str | None, *, percent_of: float | None = None,
                 font_size: float = DEFAULT_FONT_SIZE, default: float | None = None) -> float | None:
    """A length in px (user units). ``%`` needs ``percent_of``; invalid text gives ``default``."""
    parts = split_length(text)
    if parts is None:
        return default
    value, unit = parts
    if unit == "%":
        return default if percent_of is None else value / 100.0 * percent_of
    if unit in ("em", "rem"):
        return value * font_size
    if unit == "ex":
        return value * font_size / 2
    return value * UNIT_PX[unit]


def has_nonfinite(text: str | None) -> bool:
    """Whether attribute text spells NaN or infinity (or a number too large for a float)."""
    if not text or ("n" not in text and "N" not in text and "e" not in text and "E" not in text):
        return False  # neither "nan"/"inf" nor an exponent
    if _NONFINITE_RE.search(text):
        return True
    return any(not math.isfinite(float(v)) for v in _NUMBER_RE.findall(text) if "e" in v.lower())


def parse_numbers(text: str | None) -> list[float]:
    """All numbers in a list attribute (``points``, ``viewBox``), separators being spaces/commas."""
    if not text:
        return []
    return [float(v) for v in _NUMBER_RE.findall(text)]


def parse_points(text: str | None) -> list[tuple[float, float]]:
    """Coordinate pairs of a ``points`` attribute; an odd last number is dropped (SVG 1.1 §9.7)."""
    nums = parse_numbers(text)
    return [(nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2)]


def parse_view_box(text: str | None) -> tuple[float, float, float, float] | None:
    """``(x, y, width, height)`` of a viewBox, or ``None`` when absent or malformed."""
    if not text:
        return None
    if not re.fullmatch(r"\s*(?:[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[\s,]*){4}", text):
        return None
    vals = parse_numbers(text)
    if len(vals) != 4 or not all(math.isfinite(v) for v in vals):
        return None
    return vals[0], vals[1], vals[2], vals[3]


_ALIGNS = frozenset({"none"} | {f"x{a}Y{b}" for a in ("Min", "Mid", "Max") for b in ("Min", "Mid", "Max")})


def parse_preserve_aspect_ratio(text: str | None) -> tuple[str, str]:
    """``(align, meet_or_slice)`` of preserveAspectRatio (defaults ``xMidYMid``, ``meet``)."""
    parts = (text or "").split()
    if parts and parts[0] == "defer":
        parts = parts[1:]
    align = parts[0] if parts else "xMidYMid"
    if align not in _ALIGNS:
        align = "xMidYMid"
    mode = parts[1] if len(parts) > 1 and parts[1] in ("meet", "slice") else "meet"
    return align, mode


def viewbox_scale(vb_w: float, vb_h: float, vp_w: float, vp_h: float, align: str, mode: str) -> tuple[float, float]:
    """Axis scales of the viewBox→viewport transform (SVG 1.1 §7.8)."""
    sx, sy = vp_w / vb_w, vp_h / vb_h
    if align == "none":
        return sx, sy
    s = min(sx, sy) if mode == "meet" else max(sx, sy)
    return s, s


def viewbox_offset(vb_w: float, vb_h: float, vp_w: float, vp_h: float,
                   sx: float, sy: float, align: str) -> tuple[float, float]:
    """Translation that aligns the scaled viewBox inside the viewport (SVG 1.1 §7.8)."""
    if align == "none":
        return 0.0, 0.0
    ax, ay = align[1:4], align[5:8]
    fx = {"Min": 0.0, "Mid": 0.5, "Max": 1.0}[ax]
    fy = {"Min": 0.0, "Mid": 0.5, "Max": 1.0}[ay]
    return fx * (vp_w - vb_w * sx), fy * (vp_h - vb_h * sy)


_INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
_SODIPODI = "{http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd}"


def inkscape_pages(root: etree._Element) -> list[Box]:
    """The pages of an Inkscape multi-page document (``<inkscape:page>`` in its named view), in user units.

    Empty unless there are at least two: a one-page document's page is its canvas.
    """
    pages: list[Box] = []
    for view in root.iterchildren(f"{_SODIPODI}namedview"):
        for page in view.iterchildren(f"{_INKSCAPE}page"):
            try:
                x, y, w, h = (float(page.get(k, "0")) for k in ("x", "y", "width", "height"))
            except ValueError:
                continue
            if all(math.isfinite(v) for v in (x, y, w, h)) and w > 0 and h > 0:
                pages.append(Box(x=x, y=y, width=w, height=h))
    return pages if len(pages) >= 2 else []


def canvas_for_root(root: etree._Element, source: str, limits: ImportLimits | None = None) -> Canvas:
    """The page of a root ``<svg>`` element (see the module docstring), with default margins.

    A page side must lie between ``limits.min_page_side`` and ``limits.max_coordinate``
    (world units, and CSS px for the size): a viewBox of ``1e-300`` or ``1e308`` is refused.
    """
    limits = limits or DEFAULT_LIMITS
    for name in ("width", "height", "viewBox"):
        if has_nonfinite(root.get(name)):
            raise SvgImportError(source, f"root <svg> attribute {name}={root.get(name)!r} is not a finite number")
    vb = parse_view_box(root.get("viewBox"))
    font_size = parse_length(root.get("font-size"), default=DEFAULT_FONT_SIZE) or DEFAULT_FONT_SIZE
    w_parts, h_parts = split_length(root.get("width")), split_length(root.get("height"))
    w_px = None if w_parts is None or w_parts[1] == "%" else parse_length(root.get("width"), font_size=font_size)
    h_px = None if h_parts is None or h_parts[1] == "%" else parse_length(root.get("height"), font_size=font_size)
    units = w_parts[1] if w_parts and w_parts[1] else "px"
    if vb is not None:
        if vb[2] <= 0 or vb[3] <= 0:
            raise SvgImportError(
                source, f"root viewBox {root.get('viewBox')!r} has a width or height that is not positive")
        _check_page(source, f"root viewBox {root.get('viewBox')!r}", vb[2], vb[3], limits, corner=vb[:2])
        if w_px is None and h_px is not None:
            w_px = h_px * vb[2] / vb[3]
        elif h_px is None and w_px is not None:
            h_px = w_px * vb[3] / vb[2]
        elif w_px is None and h_px is None:
            w_px, h_px, units = vb[2], vb[3], "px"
        align, mode = parse_preserve_aspect_ratio(root.get("preserveAspectRatio"))
        if w_px <= 0 or h_px <= 0:  # type: ignore[operator]
            raise SvgImportError(source, "root <svg> width/height must be positive")
        _check_page(source, "root <svg> width/height", w_px, h_px, limits)  # type: ignore[arg-type]
        sx, sy = viewbox_scale(vb[2], vb[3], w_px, h_px, align, mode)  # type: ignore[arg-type]
        ppu = math.sqrt(sx * sy)
        if not (math.isfinite(ppu) and ppu > 0):
            raise SvgImportError(source, f"the page's scale (viewBox {root.get('viewBox')!r} shown at "
                                         f"{w_px:g} × {h_px:g} px) is out of range")
        par = root.get("preserveAspectRatio") or "xMidYMid meet"
        return Canvas.with_default_margins(
            x=vb[0], y=vb[1], width=vb[2], height=vb[3], units=units, px_per_unit=ppu,
            view_box=vb, preserve_aspect_ratio=par, pages=inkscape_pages(root),
        )
    if w_px is None or h_px is None:
        raise SvgImportError(
            source, "the page size is unknown: the root <svg> has no viewBox and no absolute width and height")
    if w_px <= 0 or h_px <= 0:
        raise SvgImportError(source, "root <svg> width/height must be positive")
    _check_page(source, "root <svg> width/height", w_px, h_px, limits)
    return Canvas.with_default_margins(width=w_px, height=h_px, units=units, px_per_unit=1.0,
                                       pages=inkscape_pages(root))


def _check_page(source: str, what: str, w: float, h: float, limits: ImportLimits,
                corner: tuple[float, float] = (0.0, 0.0)) -> None:
    """Refuse a page side outside [``min_page_side``, ``max_coordinate``] (or a page placed beyond it)."""
    small, large = limits.min_page_side, limits.max_coordinate
    if min(w, h) < small:
        raise SvgImportError(source, f"{what}: the page is too small ({w:g} × {h:g}; "
                                     f"a side must be at least {small:g})")
    if max(w, h) > large or max(abs(corner[0]), abs(corner[0] + w), abs(corner[1]), abs(corner[1] + h)) > large:
        raise SvgImportError(source, f"{what}: the page is too large ({w:g} × {h:g}; "
                                     f"sides and coordinates may be at most {large:g})")
