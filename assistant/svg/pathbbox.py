"""Exact bounding boxes of SVG path data, basic shapes included.

Path data follows the grammar of SVG 1.1 §8.3 (``M L H V C S Q T A Z`` in
absolute and relative forms, implicit repeated commands, arc flags written
without separators). As the spec asks (§F.2 "error processing"), a path is
drawn up to the first error in its data; the rest is ignored.

The box of a path is its *fill box* (SVG 2 §8.10 "bounding box"): the tight
box of the geometry itself, control points excluded. It is computed in the
coordinate system given by a ``Matrix`` (an affine map keeps Béziers
Béziers), so a rotated curve gets the tight box of the rotated curve, not the
rotated box of the curve:

* lines: the end points;
* quadratic and cubic Béziers: the end points plus the points where the
  derivative of x or y vanishes inside ``0 < t < 1``;
* elliptical arcs: converted from endpoint to centre parametrisation (SVG 1.1
  implementation notes §F.6.5, with out-of-range radii scaled up as in
  §F.6.6); the mapped arc is ``C + U cos θ + V sin θ`` and x (or y) is
  extreme where ``tan θ = V.x / U.x`` (``V.y / U.y``), kept when that angle
  lies in the swept range.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.geometry import Box, Matrix

Pt = tuple[float, float]

# blanks and the comma are taken possessively: a failed match never tries the blanks again in other splits
# (which cost time with the square of their number, before an error in the data)
_PATH_TOKEN = re.compile(
    r"\s*+,?\s*+(?:([MmZzLlHhVvCcSsQqTtAa])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))"
)
_FLAG = re.compile(r"\s*+,?\s*+([01])")
#: Path data made only of tokens, read in one pass when it has no arc (whose flags may run together)
_ALL_TOKENS = re.compile(
    r"(?:\s*+,?\s*+(?:[MmZzLlHhVvCcSsQqTtAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))*+\s*+"
)
#: Longest path data read in one pass (longer data is read token by token, so that it can stop at the limit).
_ONE_PASS_CHARS = 100_000
_ARGC = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


class NonFiniteNumber(ValueError):
    """Path data or shape attributes hold a number that is NaN or infinite."""


class PathTooComplex(ValueError):
    """Path data holds more segments than the caller allows."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One drawing segment in absolute coordinates.

    ``kind`` is ``"L"`` (points: start, end), ``"Q"`` (start, control, end),
    ``"C"`` (start, c1, c2, end) or ``"A"`` (start, end, with ``arc`` =
    ``(rx, ry, x_axis_rotation_degrees, large_arc, sweep)``).
    """

    kind: str
    points: tuple[Pt, ...]
    arc: tuple[float, float, float, bool, bool] | None = None


def _tokens(d: str, max_tokens: int | None = None) -> list[str | float]:
    """Split path data into command letters and numbers (stops at the first error).

    ``PathTooComplex`` past ``max_tokens`` tokens (before they all take memory).
    """
    if len(d) <= _ONE_PASS_CHARS and "a" not in d and "A" not in d and _ALL_TOKENS.fullmatch(d):
        found = _PATH_TOKEN.findall(d)
        if max_tokens is not None and len(found) > max_tokens:
            raise PathTooComplex(f"more than {max_tokens} numbers and commands")
        tokens: list[str | float] = [c or float(v) for c, v in found]
        numbers = [t for t in tokens if t.__class__ is float]
        if numbers and not (math.isfinite(max(numbers)) and math.isfinite(min(numbers))):
            bad = next(v for c, v in found if not c and not math.isfinite(float(v)))
            raise NonFiniteNumber(f"number {bad!r} is not finite")
        return tokens
    out: list[str | float] = []
    pos, n = 0, len(d.rstrip())
    arg_index = -1  # position of the next number among the current command's arguments
    cmd = ""
    while pos < n:
        if cmd and cmd in "aA" and arg_index % 7 in (3, 4):  # arc flags may be bare 0/1 digits
            m = _FLAG.match(d, pos)
            if not m:
                break
            out.append(float(m.group(1)))
            pos = m.end()
            arg_index += 1
            continue
        m = _PATH_TOKEN.match(d, pos)
        if not m or m.end() == pos:
            break
        if m.group(1):
            cmd = m.group(1)
            out.append(cmd)
            arg_index = 0
        else:
            value = float(m.group(2))
            if not math.isfinite(value):
                raise NonFiniteNumber(f"number {m.group(2)!r} is not finite")
            out.append(value)
            arg_index += 1
        pos = m.end()
        if max_tokens is not None and len(out) > max_tokens:
            raise PathTooComplex(f"more than {max_tokens} numbers and commands")
    return out


def parse_path(d: str | None, max_segments: int | None = None) -> list[Segment]:
    """Absolute drawing segments of path data ``d`` (moves produce no segment).

    Raises ``NonFiniteNumber`` when a coordinate overflows to infinity, and
    ``PathTooComplex`` when ``d`` holds more than ``max_segments`` segments
    (checked as it is read, so a huge path never takes the memory of all of them).
    """
    if not d:
        return []
    # every segment takes at most 8 tokens (an arc: its letter and 7 numbers); moves take tokens too
    toks = _tokens(d, None if max_segments is None else 8 * max_segments + 8)
    if not toks or toks[0] not in ("M", "m"):
        return []  # path data must begin with a moveto (SVG 1.1 §8.3.2)
    segs: list[Segment] = []
    i, n = 0, len(toks)
    cx = cy = sx = sy = 0.0
    last_ctrl: Pt | None = None
    last_cmd = ""
    cmd = ""
    while i < n:
        t = toks[i]
        if isinstance(t, str):
            cmd = t
            i += 1
            if cmd in "zZ":
                if (cx, cy) != (sx, sy):
                    segs.append(Segment("L", ((cx, cy), (sx, sy))))
                cx, cy = sx, sy
                last_cmd, last_ctrl = "z", None
                continue
        elif not cmd or cmd in "zZ":
            break  # numbers without a command: error, stop drawing
        argc = _ARGC[cmd.lower()]
        args = toks[i:i + argc]
        if len(args) < argc or any(isinstance(a, str) for a in args):
            break
        i += argc
        a = [float(v) for v in args]  # type: ignore[arg-type]
        rel = cmd.islower()
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        low = cmd.lower()
        if low == "m":
            cx, cy = a[0] + ox, a[1] + oy
            sx, sy = cx, cy
            cmd = "l" if rel else "L"  # further pairs are implicit lines
            last_cmd, last_ctrl = "m", None
            continue
        if low == "l":
            p = (a[0] + ox, a[1] + oy)
            segs.append(Segment("L", ((cx, cy), p)))
            last_ctrl = None
        elif low == "h":
            p = (a[0] + ox, cy)
            segs.append(Segment("L", ((cx, cy), p)))
            last_ctrl = None
        elif low == "v":
            p = (cx, a[0] + oy)
            segs.append(Segment("L", ((cx, cy), p)))
            last_ctrl = None
        elif low in "cs":
            if low == "c":
                c1 = (a[0] + ox, a[1] + oy)
                c2, p = (a[2] + ox, a[3] + oy), (a[4] + ox, a[5] + oy)
            else:
                c1 = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_cmd in "cs" and last_ctrl else (cx, cy)
                c2, p = (a[0] + ox, a[1] + oy), (a[2] + ox, a[3] + oy)
            segs.append(Segment("C", ((cx, cy), c1, c2, p)))
            last_ctrl = c2
        elif low in "qt":
            if low == "q":
                c, p = (a[0] + ox, a[1] + oy), (a[2] + ox, a[3] + oy)
            else:
                c = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_cmd in "qt" and last_ctrl else (cx, cy)
                p = (a[0] + ox, a[1] + oy)
            segs.append(Segment("Q", ((cx, cy), c, p)))
            last_ctrl = c
        else:  # arc
            p = (a[5] + ox, a[6] + oy)
            segs.append(Segment("A", ((cx, cy), p), (a[0], a[1], a[2], a[3] != 0, a[4] != 0)))
            last_ctrl = None
        cx, cy = p
        last_cmd = low
        if max_segments is not None and len(segs) > max_segments:
            raise PathTooComplex(f"more than {max_segments} segments")
    return segs


# -- basic shapes as segments (SVG 1.1 §9: each shape's equivalent path) ------

def rect_segments(x: float, y: float, w: float, h: float, rx: float = 0.0, ry: float = 0.0) -> list[Segment]:
    """Segments of a (rounded) rectangle; ``rx``/``ry`` already resolved and clamped."""
    if w <= 0 or h <= 0:
        return []
    if rx <= 0 or ry <= 0:
        pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        return [Segment("L", (pts[k], pts[k + 1])) for k in range(4)]
    rx, ry = min(rx, w / 2), min(ry, h / 2)
    arc = (rx, ry, 0.0, False, True)
    return [
        Segment("L", ((x + rx, y), (x + w - rx, y))),
        Segment("A", ((x + w - rx, y), (x + w, y + ry)), arc),
        Segment("L", ((x + w, y + ry), (x + w, y + h - ry))),
        Segment("A", ((x + w, y + h - ry), (x + w - rx, y + h)), arc),
        Segment("L", ((x + w - rx, y + h), (x + rx, y + h))),
        Segment("A", ((x + rx, y + h), (x, y + h - ry)), arc),
        Segment("L", ((x, y + h - ry), (x, y + ry))),
        Segment("A", ((x, y + ry), (x + rx, y)), arc),
    ]


def ellipse_segments(cx: float, cy: float, rx: float, ry: float) -> list[Segment]:
    """Segments of an ellipse (two half arcs); empty when a radius is not positive."""
    if rx <= 0 or ry <= 0:
        return []
    arc = (rx, ry, 0.0, False, True)
    return [
        Segment("A", ((cx + rx, cy), (cx - rx, cy)), arc),
        Segment("A", ((cx - rx, cy), (cx + rx, cy)), arc),
    ]


def poly_segments(points: Sequence[Pt], closed: bool) -> list[Segment]:
    """Segments of a polyline (``closed=False``) or polygon (``closed=True``)."""
    pts = list(points)
    if closed and len(pts) > 1 and pts[0] != pts[-1]:
        pts.append(pts[0])
    if len(pts) == 1:
        return [Segment("L", (pts[0], pts[0]))]
    return [Segment("L", (pts[k], pts[k + 1])) for k in range(len(pts) - 1)]


# -- bounding boxes -------------------------------------------------------------

def _quad_roots(a: float, b: float, c: float) -> list[float]:
    """Real roots of ``a t² + b t + c`` in the open interval (0, 1)."""
    eps = 1e-12
    roots: list[float] = []
    if abs(a) < eps:
        if abs(b) > eps:
            roots.append(-c / b)
    else:
        disc = b * b - 4 * a * c
        if disc >= 0:
            s = math.sqrt(disc)
            roots += [(-b + s) / (2 * a), (-b - s) / (2 * a)]
    return [t for t in roots if 0.0 < t < 1.0]


def _cubic_extrema(p0: float, p1: float, p2: float, p3: float) -> list[float]:
    """Values of a cubic Bézier coordinate where its derivative vanishes."""
    # B'(t)/3 = a t² + b t + c
    a = -p0 + 3 * p1 - 3 * p2 + p3
    b = 2 * (p0 - 2 * p1 + p2)
    c = p1 - p0
    out = []
    for t in _quad_roots(a, b, c):
        mt = 1 - t
        out.append(mt ** 3 * p0 + 3 * mt * mt * t * p1 + 3 * mt * t * t * p2 + t ** 3 * p3)
    return out


def _quad_extrema(p0: float, p1: float, p2: float) -> list[float]:
    den = p0 - 2 * p1 + p2
    if abs(den) < 1e-12:
        return []
    t = (p0 - p1) / den
    if 0.0 < t < 1.0:
        mt = 1 - t
        return [mt * mt * p0 + 2 * mt * t * p1 + t * t * p2]
    return []


def arc_center(p0: Pt, p1: Pt, rx: float, ry: float, phi_deg: float, large: bool, sweep: bool
               ) -> tuple[float, float, float, float, float, float] | None:
    """Centre parametrisation of an SVG arc (SVG 1.1 §F.6.5–F.6.6).

    Returns ``(cx, cy, rx, ry, theta1, dtheta)`` (radians), or ``None`` when the
    arc degenerates to a straight line (a zero radius or equal end points).
    """
    if p0 == p1:
        return None
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return None
    phi = math.radians(phi_deg % 360.0)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx2, dy2 = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    x1p = cos_p * dx2 + sin_p * dy2
    y1p = -sin_p * dx2 + cos_p * dy2
    lam = (x1p / rx) ** 2 + (y1p / ry) ** 2
    if lam > 1:
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    coef = math.sqrt(max(num, 0.0) / den) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp, cyp = coef * rx * y1p / ry, -coef * ry * x1p / rx
    cx = cos_p * cxp - sin_p * cyp + (p0[0] + p1[0]) / 2
    cy = sin_p * cxp + cos_p * cyp + (p0[1] + p1[1]) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    ux, uy = (x1p - cxp) / rx, (y1p - cyp) / ry
    vx, vy = (-x1p - cxp) / rx, (-y1p - cyp) / ry
    theta1 = angle(1.0, 0.0, ux, uy)
    dtheta = angle(ux, uy, vx, vy)
    if not sweep and dtheta > 0:
        dtheta -= 2 * math.pi
    elif sweep and dtheta < 0:
        dtheta += 2 * math.pi
    return cx, cy, rx, ry, theta1, dtheta


def _angle_in_sweep(theta: float, theta1: float, dtheta: float) -> bool:
    two_pi = 2 * math.pi
    if dtheta >= 0:
        return (theta - theta1) % two_pi <= dtheta
    return (theta1 - theta) % two_pi <= -dtheta


def _arc_extremes(seg: Segment, m: Matrix) -> list[Pt]:
    """World points bounding one arc segment under ``m`` (end points included)."""
    p0, p1 = seg.points
    rx, ry, phi, large, sweep = seg.arc  # type: ignore[misc]
    ends = [m.apply(*p0), m.apply(*p1)]
    c = arc_center(p0, p1, rx, ry, phi, large, sweep)
    if c is None:
        return ends
    cx, cy, rx, ry, theta1, dtheta = c
    r = math.radians(phi)
    # local point = centre + R(phi)·(rx cos θ, ry sin θ); mapped by m's linear part
    u = m.apply_vector(rx * math.cos(r), rx * math.sin(r))
    v = m.apply_vector(-ry * math.sin(r), ry * math.cos(r))
    cw = m.apply(cx, cy)
    pts = ends
    for axis in (0, 1):
        base = math.atan2(v[axis], u[axis])
        for theta in (base, base + math.pi):
            if _angle_in_sweep(theta, theta1, dtheta):
                ct, st = math.cos(theta), math.sin(theta)
                pts.append((cw[0] + u[0] * ct + v[0] * st, cw[1] + u[1] * ct + v[1] * st))
    return pts


def segments_bbox(segs: Sequence[Segment], m: Matrix | None = None) -> Box | None:
    """Tight box of ``segs`` mapped by ``m`` (identity when ``None``); ``None`` if empty."""
    if not segs:
        return None
    m = m or Matrix()
    a, b, c, d, e, f = m.a, m.b, m.c, m.d, m.e, m.f
    xs: list[float] = []
    ys: list[float] = []
    for seg in segs:
        kind = seg.kind
        if kind == "A":
            for x, y in _arc_extremes(seg, m):
                xs.append(x)
                ys.append(y)
            continue
        pts = [(a * x + c * y + e, b * x + d * y + f) for x, y in seg.points]  # Matrix.apply
        xs += (pts[0][0], pts[-1][0])
        ys += (pts[0][1], pts[-1][1])
        if kind == "C":
            xs += _cubic_extrema(*(p[0] for p in pts))
            ys += _cubic_extrema(*(p[1] for p in pts))
        elif kind == "Q":
            xs += _quad_extrema(*(p[0] for p in pts))
            ys += _quad_extrema(*(p[1] for p in pts))
    return Box.from_edges(min(xs), min(ys), max(xs), max(ys))


def path_bbox(d: str | None, m: Matrix | None = None) -> Box | None:
    """Tight box of path data ``d`` under ``m``; ``None`` when nothing is drawn."""
    return segments_bbox(parse_path(d), m)


def sample_segments(segs: Sequence[Segment], n: int = 64) -> list[Pt]:
    """Points along the segments (``n`` per segment), for checks against the exact box."""
    out: list[Pt] = []
    for seg in segs:
        for k in range(n + 1):
            t = k / n
            out.append(point_at(seg, t))
    return out


def point_at(seg: Segment, t: float) -> Pt:
    """The point at parameter ``t`` in [0, 1] along one segment."""
    p = seg.points
    mt = 1 - t
    if seg.kind == "L":
        return (mt * p[0][0] + t * p[1][0], mt * p[0][1] + t * p[1][1])
    if seg.kind == "Q":
        return tuple(mt * mt * p[0][i] + 2 * mt * t * p[1][i] + t * t * p[2][i] for i in (0, 1))  # type: ignore[return-value]
    if seg.kind == "C":
        return tuple(mt ** 3 * p[0][i] + 3 * mt * mt * t * p[1][i] + 3 * mt * t * t * p[2][i]
                     + t ** 3 * p[3][i] for i in (0, 1))  # type: ignore[return-value]
    rx, ry, phi, large, sweep = seg.arc  # type: ignore[misc]
    c = arc_center(p[0], p[1], rx, ry, phi, large, sweep)
    if c is None:
        return (mt * p[0][0] + t * p[1][0], mt * p[0][1] + t * p[1][1])
    cx, cy, rx, ry, theta1, dtheta = c
    th = theta1 + t * dtheta
    r = math.radians(phi)
    x, y = rx * math.cos(th), ry * math.sin(th)
    return (cx + x * math.cos(r) - y * math.sin(r), cy + x * math.sin(r) + y * math.cos(r))
