"""Text fit: text that overflows its container or the canvas, and text too small to read.

Definitions.
- Legible size (O'Donovan et al. 2014 use a minimum text size term; the
  thresholds here scale with the canvas like type on a poster does): a text's
  font size in CSS px (``font_size × canvas.px_per_unit``) must be at least
  ``max(floor, fraction × canvas short side in px)``:

  ===================================  ========  =====
  role                                 fraction  floor
  ===================================  ========  =====
  title                                2.5 %     6 px
  subtitle                             1.6 %     6 px
  body, cta, badge, logo, other text   1.2 %     6 px
  caption                              1.0 %     6 px
  ===================================  ========  =====

  (an A4 page of 595 × 842 pt-sized units: body ≥ 7.1, title ≥ 14.9; a
  1080 × 1080 social card: body ≥ 13 px; the 6 px floor matters only on
  small canvases such as a 728 × 90 banner).
  Penalty ``ln(min / size) / ln 1.5`` (1 when the text is two thirds of the minimum).
- Overflow: the share of a text box outside the canvas (× 2), and the share
  outside its container: the smallest shape or image that holds at least
  half of the text box but not all of it (a label spilling out of its button).

Score ``1 / (1 + Σ penalties)``. Elements: every visible text leaf.

The numeric part is ``text_penalties`` (numpy); on layouts of at most 256
leaves the compiled kernel ``_native.text_fit`` computes the same (see
``native_core``). Findings name each penalised text, most penalised first.
"""

from __future__ import annotations

import numpy as np

from assistant.metrics.context import ROLE_CODES, LayoutArrays
from assistant.metrics.report import Finding, MetricResult, finding, metric_result, severity_for

NAME = "text_fit"
#: a defect (``Finding.defect``): this share of a text off the canvas, or of a label out of its button
DEFECT_SHARE = 0.2
MAX_FINDINGS = 20
#: Text brought back onto the canvas goes on to the margin the design keeps on that side: the outermost
#: edge of other content within this share of the page from it (else the safe margin), not the very edge.
MARGIN_REACH = 0.1
#: role → (fraction of the canvas short side, floor in px)
LEGIBLE: dict[str, tuple[float, float]] = {
    "title": (0.025, 6.0), "subtitle": (0.016, 6.0), "caption": (0.010, 6.0),
}
DEFAULT_LEGIBLE = (0.012, 6.0)
_LOG_STEP = np.log(1.5)
#: ``LEGIBLE`` by role code
_FRACTION, _FLOOR = np.array([LEGIBLE.get(r, DEFAULT_LEGIBLE) for r in ROLE_CODES], dtype=float).T.copy()


def min_legible_px(la: LayoutArrays, roles: list[str]) -> np.ndarray:
    """Minimum legible font size in px for each role (see the module table)."""
    return _min_legible(la, np.array([ROLE_CODES[r] for r in roles], dtype=np.intp))


def _min_legible(la: LayoutArrays, role: np.ndarray) -> np.ndarray:
    """``min_legible_px`` by role code."""
    return np.maximum(_FLOOR[role], _FRACTION[role] * (la.short * la.ppu))


def _container_overflow(la: LayoutArrays) -> tuple[np.ndarray, np.ndarray]:
    """Per leaf: share of a text box outside its container, and the container index (-1: none)."""
    share = np.zeros(la.n)
    cont = np.full(la.n, -1)
    i, j, inter = la.overlap_pairs
    if i.size == 0:
        return share, cont
    t = np.concatenate([i, j])
    o = np.concatenate([j, i])
    x = np.concatenate([inter, inter])
    ok = (la.is_text[t] & ~la.is_text[o] & la.visible[o] & ~la.background[o] & (la.is_shape[o] | la.is_image[o])
          & (la.area[o] > la.area[t]))
    t, o, x = t[ok], o[ok], x[ok]
    frac = x / np.maximum(la.area[t], 1e-12)
    inside = la.contains(o, t, tol_frac=0.002)
    ok = (frac >= 0.5) & ~inside
    # a text fully inside some shape has a container it fits; no overflow then
    fits = np.zeros(la.n, dtype=bool)
    fits[t[inside]] = True
    t, o, frac = t[ok], o[ok], frac[ok]
    keep = ~fits[t]
    t, o, frac = t[keep], o[keep], frac[keep]
    if t.size == 0:
        return share, cont
    order = np.lexsort((la.area[o], t))  # smallest container first per text
    t, o, frac = t[order], o[order], frac[order]
    first = np.ones(t.size, dtype=bool)
    first[1:] = t[1:] != t[:-1]
    share[t[first]] = 1.0 - frac[first]
    cont[t[first]] = o[first]
    return share, cont


def text_penalties(la: LayoutArrays, limit: int = MAX_FINDINGS
                   ) -> tuple[float, list[tuple[int, float, float, float, float, float, int]]] | None:
    """The numeric part of ``text_fit`` (numpy): ``None`` without visible texts.

    Returns ``(score, texts)``: the score and the texts with a total penalty
    above 1e-3 as ``(leaf, small, need, size_px, off, spill, container)``
    (the legibility penalty, the legible and the actual size in px, the
    share off the canvas, the share outside the container and its index, -1
    for none), most penalised first, at most ``limit``. The compiled kernel
    ``_native.text_fit`` returns the same.
    """
    texts = la.text_idx
    if texts.size == 0:
        return None
    need = _min_legible(la, la.role[texts])
    size_px = la.px(la.font[texts])
    # a text without a size (NaN) is not judged: fmax drops the NaN for 0
    small = np.fmax(np.log(need / size_px) / _LOG_STEP, 0.0)
    c = la.canvas
    ix = np.maximum(np.minimum(la.x2[texts], c.x + c.width) - np.maximum(la.x1[texts], c.x), 0)
    iy = np.maximum(np.minimum(la.y2[texts], c.y + c.height) - np.maximum(la.y1[texts], c.y), 0)
    area = np.maximum(la.area[texts], 1e-12)
    off = np.where(la.area[texts] > 0, 1.0 - ix * iy / area, 0.0)
    spill, cont = _container_overflow(la)
    spill, cont = spill[texts], cont[texts]
    pen = small + 2.0 * off + spill
    score = float(1.0 / (1.0 + pen.sum()))
    bad = (pen > 1e-3).nonzero()[0]
    if bad.size == 0:
        return score, []
    k = bad[np.argsort(-pen[bad], kind="stable")][:limit]
    return score, list(zip(texts[k].tolist(), small[k].tolist(), need[k].tolist(), size_px[k].tolist(),
                           off[k].tolist(), spill[k].tolist(), cont[k].tolist()))


def onto_margin(la: LayoutArrays, t: int) -> tuple[float, float]:
    """The move that brings leaf ``t``, partly off the canvas, back onto the margin of each side it crosses.

    The margin is the outermost edge of the other content on that side within ``MARGIN_REACH`` of the
    page from its edge (a logo set on the right edge of the picture above it), else the safe box's; when
    ``t`` is too large for it, the move only clears the canvas.
    """
    c, safe = la.canvas, la.safe_box
    others = la.units & la.visible & (np.arange(la.n) != t)
    others &= (la.x1 >= c.x) & (la.x2 <= c.x + c.width) & (la.y1 >= c.y) & (la.y2 <= c.y + c.height)
    move = []
    for lo, hi, start, end, s_lo, s_hi, size in (
            (c.x, c.x + c.width, la.x1, la.x2, safe.x, safe.x2, c.width),
            (c.y, c.y + c.height, la.y1, la.y2, safe.y, safe.y2, c.height)):
        a, b, reach = float(start[t]), float(end[t]), MARGIN_REACH * size
        if a < lo:  # off the low side: onto the innermost-but-outermost edge of the others there
            near = start[others][(start[others] >= lo) & (start[others] <= lo + reach)]
            line = float(near.min()) if near.size else s_lo
            move.append(line - a if line + (b - a) <= hi else lo - a)
        elif b > hi:
            near = end[others][(end[others] <= hi) & (end[others] >= hi - reach)]
            line = float(near.max()) if near.size else s_hi
            move.append(line - b if line - (b - a) >= lo else hi - b)
        else:
            move.append(0.0)
    return move[0], move[1]


def text_fit(la: LayoutArrays) -> MetricResult:
    """Legible size and overflow of every visible text (see module docstring)."""
    c = la.canvas
    if la.native is not None:
        pi, pj, inter = la.overlap_pairs
        judged = la.native.text_fit(la.edges6, la.area, la.font, la.role, la.is_text, la.visible, la.background,
                                    la.is_shape, la.is_image, _FRACTION, _FLOOR, pi, pj, inter, c.x, c.y,
                                    c.width, c.height, la.short, la.ppu, _LOG_STEP, MAX_FINDINGS)
    else:
        judged = text_penalties(la)
    if judged is None:
        return metric_result(name=NAME, score=1.0, applicable=False)
    score, bad = judged
    findings: list[Finding] = []
    for t, small, need, size_px, off, spill, o in bad:
        tid = la.ids[t]
        locked = bool(la.locked[t])
        if small > 1e-3:
            findings.append(finding(
                metric=NAME, element_ids=[tid],
                message=f"{la.name(t)} is {size_px:.1f} px, below the legible {need:.1f} px for a {la.roles[t]} here",
                severity=severity_for(small, medium=0.3, high=0.8), impact=small,
                suggestion=None if locked else (
                    {"type": "promote", "id": tid, "factor": round(need / size_px, 4)}
                    if la.role[t] == ROLE_CODES["title"] else
                    {"type": "set_text_style", "ids": [tid], "font_size": round(need / la.ppu, 3)})))
        pen_off = 2.0 * off
        if pen_off > 1e-3:
            dx, dy = onto_margin(la, t)
            findings.append(finding(
                metric=NAME, element_ids=[tid], message=f"{off:.0%} of {la.name(t)} lies off the canvas",
                severity=severity_for(pen_off), impact=pen_off, defect=off >= DEFECT_SHARE,
                suggestion=None if locked else {"type": "move", "ids": [tid], "dx": round(dx, 3),
                                                "dy": round(dy, 3)}))
        if spill > 1e-3:
            findings.append(finding(
                metric=NAME, element_ids=[tid, la.ids[o]],
                message=f"{spill:.0%} of {la.name(t)} spills out of {la.name(o)}",
                severity=severity_for(spill), impact=spill,
                defect=spill >= DEFECT_SHARE and la.roles[o] in ("cta", "badge"),
                suggestion=None if locked else {"type": "reflow_text", "id": tid, "mode": "auto",
                                                "width": round(float(la.w[o] * 0.9), 3)}))
    return metric_result(name=NAME, score=score, findings=findings)
