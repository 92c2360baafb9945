"""Text contrast: WCAG 2.x contrast ratio of each text against what lies under it.

Definition (WCAG 2.2, §1.4.3 and the "relative luminance" / "contrast ratio"
glossary entries): sRGB components are linearised (``c/12.92`` below 0.04045,
else ``((c+0.055)/1.055)^2.4``), ``L = 0.2126 R + 0.7152 G + 0.0722 B`` and the
ratio is ``(L_light + 0.05) / (L_dark + 0.05)``. The required ratio is 4.5:1,
or 3:1 for large text (≥ 24 px, or ≥ 18.66 px bold).

What lies under a text:
- with a ``Backdrop`` (the document rendered without its text): the pixels
  under the text box; the text scores the 10th percentile of the per-pixel
  ratios (90 % of its area must meet the requirement);
- otherwise the fill of the topmost visible element painted before it whose
  box contains it (semi-transparent fills are blended over white); when that
  element is an image the text cannot be judged and is skipped (shapes
  with no known fill are see-through); with nothing under it the page is
  white.
The text fill defaults to black (the SVG initial value) and is blended with the
background by its opacity.

Suggested fix: the text's own colour made darker (its linear-light RGB scaled
down) or lighter (blended towards white in linear light) just enough to meet
the requirement with a 3 % margin, so a brand colour keeps its hue; black or
white when no shade of it can, or when the fill is unknown.

Score: each text scores ``s = min(1, ln r / ln R)`` (0 at 1:1, 1 once it meets
the requirement); the metric is the importance-weighted mean of ``s``
(weights ``0.1 + importance``: an unreadable title costs more than a faint
caption). Elements: every visible text leaf.

Computation: ``text_contrast`` (numpy) computes the scores and the failing
texts from the element model, ``backdrop_contrast`` from a backdrop; for
layouts of at most ``native_core.MAX_ELEMENTS`` leaves without a backdrop
the compiled kernel ``_native.contrast`` computes the same. The findings
(wording, suggested shades) are made from either by the same code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from assistant.document import Document
from assistant.errors import MetricError
from assistant.metrics.context import LayoutArrays
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for
from assistant.render.raster import render_array

NAME = "contrast"
MAX_FINDINGS = 20


@dataclass(frozen=True)
class Backdrop:
    """A rendering of the document without its text.

    ``image``: RGBA (or RGB) array, ``uint8`` or floats in [0, 1], shape
    ``(rows, cols, 3|4)``; ``scale``: pixels per world unit; ``origin``: the
    world point drawn at pixel (0, 0).
    """

    image: np.ndarray
    scale: float
    origin: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        img = self.image
        if not isinstance(img, np.ndarray) or img.ndim != 3 or img.shape[2] not in (3, 4) or img.size == 0:
            raise MetricError("backdrop image must be a non-empty (rows, cols, 3|4) array")
        if not (self.scale > 0 and np.isfinite(self.scale)):
            raise MetricError(f"backdrop scale must be a positive number, got {self.scale!r}")

    def rgb(self) -> np.ndarray:
        """The image as float RGB in [0, 1], alpha-composited over white."""
        img = self.image.astype(float)
        if self.image.dtype == np.uint8:
            img = img / 255.0
        if img.shape[2] == 4:
            a = img[..., 3:4]
            return img[..., :3] * a + (1.0 - a)
        return img


def linearise(c: np.ndarray) -> np.ndarray:
    """SRGB → linear light (WCAG 2.x relative luminance definition)."""
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB colours (last axis = R, G, B in [0, 1])."""
    lin = linearise(np.asarray(rgb, dtype=float))
    return lin[..., 0] * 0.2126 + lin[..., 1] * 0.7152 + lin[..., 2] * 0.0722


def contrast_ratio(l1: np.ndarray | float, l2: np.ndarray | float) -> np.ndarray:
    """WCAG contrast ratio of two relative luminances (≥ 1)."""
    hi, lo = np.maximum(l1, l2), np.minimum(l1, l2)
    return (hi + 0.05) / (lo + 0.05)


def _linear(c: float) -> float:
    """``linearise`` of one component, with Python floats (one finding's colours: no numpy call)."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance(lin: list[float]) -> float:
    """``luminance`` from linear-light components, with Python floats."""
    return lin[0] * 0.2126 + lin[1] * 0.7152 + lin[2] * 0.0722


def _ratio(l1: float, l2: float) -> float:
    """``contrast_ratio`` of two Python floats (the same operations, without numpy)."""
    return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)


#: the suggested colour's contrast, relative to the requirement
FIX_MARGIN = 1.03


def _srgb(v: float) -> float:
    """Linear light → sRGB component (the inverse of ``linearise``)."""
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def shade_meeting(rgb: tuple[float, float, float], lb: float, need: float, opacity: float, darker: bool) -> str | None:
    """The shade of ``rgb`` that meets the contrast ``need``, as ``#rrggbb``; None when no shade of it does.

    The shade is the one nearest to ``rgb`` (sRGB in [0, 1]) whose contrast
    against background luminance ``lb`` meets ``need`` (× ``FIX_MARGIN``) at ``opacity``.

    Darker shades scale the colour's linear-light components (its chromaticity
    stays), lighter ones blend them towards white in linear light; the
    luminance needed is solved for directly, then checked after rounding to
    8-bit components.
    """
    target = need * FIX_MARGIN
    a = max(opacity, 1e-6)
    lin = [_linear(c) for c in rgb]
    lf = _luminance(lin)
    lt = (lb + 0.05) / target - 0.05 if darker else target * (lb + 0.05) - 0.05  # blended text luminance wanted
    goal = (lt - (1.0 - a) * lb) / a  # the fill's own luminance giving it
    if not 0.0 <= goal <= 1.0:
        return None
    if darker:
        if goal >= lf or lf <= 0:
            return None
        new = [v * goal / lf for v in lin]
    else:
        if goal <= lf or lf >= 1:
            return None
        t = (goal - lf) / (1.0 - lf)
        new = [v + (1.0 - v) * t for v in lin]
    code = [min(max(round(_srgb(v) * 255), 0), 255) for v in new]
    got = _luminance([_linear(c / 255.0) for c in code]) * a + (1.0 - a) * lb
    return "#" + "".join(f"{v:02x}" for v in code) if _ratio(got, lb) >= need else None


def make_backdrop(doc: Document, *, max_size: int = 1024) -> Backdrop:
    """Render ``doc`` with every text element hidden, as a ``Backdrop`` for the contrast metric.

    Text nodes get ``display:none`` in a copy of the document; the copy is
    rendered by ``assistant.render.raster.render_array`` with its longer side at
    ``max_size`` px. Raises ``ExportError`` when the document cannot be rendered.
    """
    d = doc.copy()
    for e in d.layout.elements:
        if e.kind != "text":
            continue
        for nid in e.nodes:
            node = d.node(nid)
            style = (node.get("style") or "").strip().rstrip(";")
            node.set("style", (style + ";" if style else "") + "display:none")
    c = d.layout.canvas
    scale = min(max_size / max(c.width, c.height), 64.0)  # px per world unit
    image = np.asarray(render_array(d, scale=scale))
    return Backdrop(image=image, scale=image.shape[1] / c.width, origin=(c.x, c.y))


def _backgrounds_from_layout(la: LayoutArrays, texts: np.ndarray, rgb: np.ndarray) -> np.ndarray:
    """The sRGB colour under each text from the element model (rows of ``texts``)."""
    bg = np.ones((texts.size, 3))
    i, j, _ = la.overlap_pairs  # both visible
    if i.size:
        ok = (la.is_text[j] & ~la.is_text[i]).nonzero()[0]
        i, j = i[ok], j[ok]
        ok = (la.is_image[i] | ~np.isnan(rgb[i, 0])) & la.contains(i, j)
        i, j = i[ok], j[ok]
    top = np.full(la.n, -1)
    if i.size:
        np.maximum.at(top, j, i)
    cover = top[texts]
    has = cover >= 0
    c = cover[has]
    col = rgb[c]
    a = la.opacity[c][:, None]
    bg[has] = col * a + (1.0 - a)
    return bg


def _backgrounds_from_backdrop(la: LayoutArrays, texts: np.ndarray, backdrop: Backdrop, lt: np.ndarray) -> np.ndarray:
    """Per text, the luminance giving its 10th-percentile contrast over the rendered pixels."""
    lum = luminance(backdrop.rgb())
    rows, cols = lum.shape
    ox, oy = backdrop.origin
    out = np.full(texts.size, np.nan)
    for k, t in enumerate(texts):
        c0 = int(np.clip(np.floor((la.x1[t] - ox) * backdrop.scale), 0, cols - 1))
        c1 = int(np.clip(np.ceil((la.x2[t] - ox) * backdrop.scale), c0 + 1, cols))
        r0 = int(np.clip(np.floor((la.y1[t] - oy) * backdrop.scale), 0, rows - 1))
        r1 = int(np.clip(np.ceil((la.y2[t] - oy) * backdrop.scale), r0 + 1, rows))
        block = lum[r0:r1, c0:c1].ravel()
        ratios = contrast_ratio(block, lt[k])
        q = np.percentile(ratios, 10)
        # the backdrop luminance that gives exactly that ratio, on the same side as the median pixel
        lighter = np.median(block) >= lt[k]
        out[k] = q * (lt[k] + 0.05) - 0.05 if lighter else (lt[k] + 0.05) / q - 0.05
    return out


#: a text below its requirement: ``(leaf, ratio, need, penalty, impact, background luminance, opacity)``
Failing = tuple[int, float, float, float, float, float, float]


def _text_fills(la: LayoutArrays, texts: np.ndarray) -> np.ndarray:
    """The sRGB fill of each text, black (the SVG initial value) where unknown."""
    fill = la.rgb[texts]
    return np.where(np.isnan(fill), 0.0, fill)


def text_contrast(la: LayoutArrays, texts: np.ndarray) -> tuple[float, list[Failing]] | None:
    """The numeric part of ``contrast`` without a backdrop (numpy; ``texts`` the visible texts, at least one).

    Returns ``None`` when no text can be judged (each lies on an image),
    else ``(score, failing)``: the score and the texts below their
    requirement, largest penalty first (see ``judge``). The compiled kernel
    ``_native.contrast`` returns the same.
    """
    # one luminance call for the backgrounds and the text fills
    lum = luminance(np.concatenate((_backgrounds_from_layout(la, texts, la.rgb), _text_fills(la, texts))))
    return judge(la, texts, lum[texts.size:], lum[:texts.size])


def backdrop_contrast(la: LayoutArrays, texts: np.ndarray, backdrop: Backdrop) -> tuple[float, list[Failing]] | None:
    """``text_contrast`` with the backgrounds read from a rendered ``backdrop`` (numpy only: image work)."""
    lf = luminance(_text_fills(la, texts))
    return judge(la, texts, lf, _backgrounds_from_backdrop(la, texts, backdrop, lf))


def judge(la: LayoutArrays, texts: np.ndarray, lf: np.ndarray, lb: np.ndarray) -> tuple[float, list[Failing]] | None:
    """Score the texts from their fill and background luminances ``lf``, ``lb`` (NaN: not judged).

    Returns ``None`` when no text is judged, else ``(score, failing)``:
    ``failing`` holds the texts with a positive penalty as ``Failing``
    tuples, largest penalty first (ties in paint order); ``impact`` is the
    penalty's share of the score, ``pen · w / Σ w``.
    """
    known = ~np.isnan(lb)
    n_known = np.count_nonzero(known)
    if n_known < known.size:
        if not n_known:
            return None
        texts, lf, lb = texts[known], lf[known], lb[known]
    # blend the text colour with the background grey level by its opacity
    a = la.opacity[texts]
    lt = lf * a + lb * (1.0 - a)
    ratio = contrast_ratio(lt, lb)
    px = la.px(la.font[texts])
    large = (px >= 24.0) | (la.bold[texts] & (px >= 18.66))
    need = np.where(large, 3.0, 4.5)
    pen = np.maximum(0.0, 1.0 - np.log(ratio) / np.log(need))
    w = 0.1 + la.importance[texts]
    wsum = w.sum()
    score = float(((1.0 - pen) * w).sum() / wsum)
    bad = (pen > 0).nonzero()[0]
    if bad.size == 0:
        return score, []
    bad = bad[np.argsort(-pen[bad], kind="stable")]
    impact = pen[bad] * w[bad] / wsum
    return score, list(zip(texts[bad].tolist(), ratio[bad].tolist(), need[bad].tolist(), pen[bad].tolist(),
                           impact.tolist(), lb[bad].tolist(), a[bad].tolist()))


def contrast(la: LayoutArrays, backdrop: Backdrop | None = None) -> MetricResult:
    """WCAG 2.x contrast of every visible text against what lies under it (see module docstring)."""
    texts = la.text_idx
    if texts.size == 0:
        return metric_result(name=NAME, score=1.0, applicable=False)
    if backdrop is not None:
        judged = backdrop_contrast(la, texts, backdrop)
    elif la.native is not None:
        i, j, _ = la.overlap_pairs
        judged = la.native.contrast(texts, la.is_text, la.is_image, la.palette, la.fill_code, la.opacity,
                                    la.edges6, i, j, la.font, la.bold, la.importance, la.short, la.ppu)
    else:
        judged = text_contrast(la, texts)
    if judged is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    score, failing = judged
    findings: list[Finding] = []
    if not failing:
        return metric_result(name=NAME, score=score, findings=findings)
    pal, code, locked, ids = la.palette.tolist(), la.fill_code.tolist(), la.locked.tolist(), la.ids
    for t, ratio, need, pen, impact, lb, a in failing[:MAX_FINDINGS]:
        to_black = _ratio(0.0, lb) >= _ratio(1.0, lb)
        own = pal[code[t]]
        shade = None if math.isnan(own[0]) else shade_meeting(tuple(own), lb, need, a, to_black)
        sugg = None if locked[t] else {
            "type": "set_text_style", "ids": [ids[t]], "fill": shade or ("#000000" if to_black else "#ffffff")}
        findings.append(finding(
            metric=NAME, element_ids=[ids[t]],
            message=f"{la.name(t)} has contrast {ratio:.2f}:1 against its background (needs {need:g}:1)",
            severity=severity_for(pen, medium=0.15, high=0.5), suggestion=sugg, impact=impact))
    return metric_result(name=NAME, score=score, findings=findings)
