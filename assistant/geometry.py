"""Geometry named after the SVG spec: ``Point``, ``Matrix``, ``Box``.

``Matrix`` is the SVG affine matrix ``[a c e; b d f; 0 0 1]`` (SVG 1.1 §7.4):
a point ``(x, y)`` maps to ``(a*x + c*y + e, b*x + d*y + f)``. Composition
follows the spec's left-to-right reading of a ``transform`` list:
``parse_transform("translate(10) scale(2)")`` equals
``Matrix.translate(10) @ Matrix.scale(2)``.

``Box`` is an axis-aligned rectangle in world (root user-space) coordinates:
``x``, ``y`` are the top-left corner, ``width``, ``height`` are non-negative.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True, slots=True)
class Point:
    """A point ``(x, y)`` in world units."""

    x: float
    y: float

    def __repr__(self) -> str:
        return f"Point({self.x!r}, {self.y!r})"


@dataclass(frozen=True, slots=True)
class Matrix:
    """An SVG affine transform ``matrix(a b c d e f)``."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    # -- constructors -------------------------------------------------
    @classmethod
    def identity(cls) -> Matrix:
        """The transform that leaves every point where it is."""
        return cls()

    @classmethod
    def translate(cls, tx: float, ty: float = 0.0) -> Matrix:
        """A shift by ``(tx, ty)`` (SVG ``translate``)."""
        return cls(1.0, 0.0, 0.0, 1.0, tx, ty)

    @classmethod
    def scale(cls, sx: float, sy: float | None = None) -> Matrix:
        """A scale by ``sx`` across and ``sy`` down (``sx`` both ways when ``sy`` is None)."""
        return cls(sx, 0.0, 0.0, sx if sy is None else sy, 0.0, 0.0)

    @classmethod
    def rotate(cls, degrees: float, cx: float = 0.0, cy: float = 0.0) -> Matrix:
        """A rotation by ``degrees`` (clockwise on screen) about ``(cx, cy)``, as SVG ``rotate``."""
        r = math.radians(degrees)
        cos, sin = math.cos(r), math.sin(r)
        m = cls(cos, sin, -sin, cos, 0.0, 0.0)
        if cx or cy:
            m = cls.translate(cx, cy) @ m @ cls.translate(-cx, -cy)
        return m

    @classmethod
    def skew_x(cls, degrees: float) -> Matrix:
        """A shear along x by ``degrees`` (SVG ``skewX``)."""
        return cls(1.0, 0.0, math.tan(math.radians(degrees)), 1.0, 0.0, 0.0)

    @classmethod
    def skew_y(cls, degrees: float) -> Matrix:
        """A shear along y by ``degrees`` (SVG ``skewY``)."""
        return cls(1.0, math.tan(math.radians(degrees)), 0.0, 1.0, 0.0, 0.0)

    # -- algebra --------------------------------------------------------
    def __matmul__(self, o: Matrix) -> Matrix:
        """``self @ o``: apply ``o`` first, then ``self``."""
        return Matrix(
            self.a * o.a + self.c * o.b,
            self.b * o.a + self.d * o.b,
            self.a * o.c + self.c * o.d,
            self.b * o.c + self.d * o.d,
            self.a * o.e + self.c * o.f + self.e,
            self.b * o.e + self.d * o.f + self.f,
        )

    @property
    def determinant(self) -> float:
        """``a*d - b*c``: the area scale of the linear part (negative when it mirrors)."""
        return self.a * self.d - self.b * self.c

    def inverse(self) -> Matrix:
        """The transform that undoes this one; ``ValueError`` when it is singular."""
        det = self.determinant
        if det == 0 or not math.isfinite(det):
            raise ValueError(f"{self!r} is not invertible")
        a, b, c, d = self.d / det, -self.b / det, -self.c / det, self.a / det
        e = -(a * self.e + c * self.f)
        f = -(b * self.e + d * self.f)
        return Matrix(a, b, c, d, e, f)

    def apply(self, x: float, y: float) -> tuple[float, float]:
        """Map the point ``(x, y)``."""
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    def apply_vector(self, dx: float, dy: float) -> tuple[float, float]:
        """Map a displacement (ignores the translation part)."""
        return (self.a * dx + self.c * dy, self.b * dx + self.d * dy)

    def map_box(self, box: Box) -> Box:
        """Axis-aligned bounding box of ``box`` after this transform."""
        pts = [self.apply(x, y) for x, y in box.corners()]
        return Box.from_points(pts)

    # -- properties -----------------------------------------------------
    @property
    def is_identity(self) -> bool:
        """True when the transform changes nothing."""
        return self == Matrix()

    @property
    def rotation_degrees(self) -> float:
        """Rotation angle of the linear part, in degrees (0 for pure scale/translate)."""
        return math.degrees(math.atan2(self.b, self.a))

    @property
    def scale_factor(self) -> float:
        """Geometric-mean scale of the linear part (sqrt of |det|)."""
        return math.sqrt(abs(self.determinant))

    def is_finite(self) -> bool:
        """True when all six coefficients are finite numbers."""
        return all(math.isfinite(v) for v in (self.a, self.b, self.c, self.d, self.e, self.f))

    def to_svg(self) -> str:
        """SVG ``transform`` text, the shortest exact form."""
        if self.a == 1 and self.b == 0 and self.c == 0 and self.d == 1:
            return f"translate({_fmt(self.e)},{_fmt(self.f)})"
        return "matrix(" + ",".join(_fmt(v) for v in (self.a, self.b, self.c, self.d, self.e, self.f)) + ")"

    def __repr__(self) -> str:
        return f"Matrix({self.a!r}, {self.b!r}, {self.c!r}, {self.d!r}, {self.e!r}, {self.f!r})"


def _fmt(v: float) -> str:
    """Compact, round-trippable number text for SVG attributes."""
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(round(v, 6)) if abs(v - round(v, 6)) < 1e-9 else repr(v)


_TRANSFORM_RE = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?", re.I)
_NUMBER_RE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_transform(text: str | None) -> Matrix:
    """Parse an SVG ``transform`` attribute (SVG 1.1 §7.6) into one ``Matrix``.

    Raises ``ValueError`` on text that is not a transform list.
    """
    if not text or not text.strip():
        return Matrix()
    m = Matrix()
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TRANSFORM_RE.match(text, pos)
        if not match:
            raise ValueError(f"bad transform {text!r}")
        name = match.group(1).lower()
        args = [float(v) for v in _NUMBER_RE.findall(match.group(2))]
        m = m @ _transform_from(name, args, text)
        pos = match.end()
    if not m.is_finite():
        raise ValueError(f"transform {text!r} is not finite")
    return m


def _transform_from(name: str, args: list[float], text: str) -> Matrix:
    n = len(args)
    if name == "matrix" and n == 6:
        return Matrix(*args)
    if name == "translate" and n in (1, 2):
        return Matrix.translate(args[0], args[1] if n == 2 else 0.0)
    if name == "scale" and n in (1, 2):
        return Matrix.scale(args[0], args[1] if n == 2 else None)
    if name == "rotate" and n in (1, 3):
        return Matrix.rotate(*args)
    if name == "skewx" and n == 1:
        return Matrix.skew_x(args[0])
    if name == "skewy" and n == 1:
        return Matrix.skew_y(args[0])
    raise ValueError(f"bad arguments for {name} in transform {text!r}")


#: A coordinate: a finite number.
_Finite = Annotated[float, Field(allow_inf_nan=False)]
#: A width or height: finite and not negative.
_Size = Annotated[float, Field(allow_inf_nan=False, ge=0)]


class Box(BaseModel):
    """Axis-aligned box: top-left ``(x, y)`` and size, in world units."""

    model_config = ConfigDict(frozen=True)

    # finite, and a size not negative: checked by pydantic's core (a Python validator costs twice the time
    # of the whole construction, and an import makes hundreds of thousands of boxes)
    x: _Finite
    y: _Finite
    width: _Size
    height: _Size

    @classmethod
    def from_edges(cls, x1: float, y1: float, x2: float, y2: float) -> Box:
        """The box between two corners, in either order."""
        return cls(x=min(x1, x2), y=min(y1, y2), width=abs(x2 - x1), height=abs(y2 - y1))

    @classmethod
    def from_points(cls, pts: Iterable[tuple[float, float]]) -> Box:
        """The smallest box that holds all ``pts``."""
        xs, ys = zip(*pts)
        return cls.from_edges(min(xs), min(ys), max(xs), max(ys))

    @classmethod
    def union_all(cls, boxes: Iterable[Box]) -> Box:
        """The smallest box that holds all ``boxes``; ``ValueError`` when there are none."""
        boxes = list(boxes)
        if not boxes:
            raise ValueError("union of no boxes")
        return cls.from_edges(
            min(b.x for b in boxes), min(b.y for b in boxes),
            max(b.x2 for b in boxes), max(b.y2 for b in boxes),
        )

    @property
    def x2(self) -> float:
        """Right edge."""
        return self.x + self.width

    @property
    def y2(self) -> float:
        """Bottom edge."""
        return self.y + self.height

    @property
    def cx(self) -> float:
        """Horizontal centre."""
        return self.x + self.width / 2

    @property
    def cy(self) -> float:
        """Vertical centre."""
        return self.y + self.height / 2

    @property
    def area(self) -> float:
        """Width times height."""
        return self.width * self.height

    def corners(self) -> list[tuple[float, float]]:
        """The four corners, clockwise from the top-left."""
        return [(self.x, self.y), (self.x2, self.y), (self.x2, self.y2), (self.x, self.y2)]

    def union(self, o: Box) -> Box:
        """The smallest box that holds both boxes."""
        return Box.from_edges(min(self.x, o.x), min(self.y, o.y), max(self.x2, o.x2), max(self.y2, o.y2))

    def intersection(self, o: Box) -> Box | None:
        """The overlap of the two boxes; None when they do not overlap (touching is not overlapping)."""
        x1, y1 = max(self.x, o.x), max(self.y, o.y)
        x2, y2 = min(self.x2, o.x2), min(self.y2, o.y2)
        if x2 <= x1 or y2 <= y1:
            return None
        return Box.from_edges(x1, y1, x2, y2)

    def distance(self, o: Box) -> float:
        """Euclidean distance between the two boxes (0 when they touch or overlap)."""
        dx = max(self.x - o.x2, o.x - self.x2, 0.0)
        dy = max(self.y - o.y2, o.y - self.y2, 0.0)
        return math.hypot(dx, dy)

    def contains(self, o: Box, tol: float = 0.0) -> bool:
        """True when ``o`` lies inside this box, with ``tol`` of slack on every side."""
        return (o.x >= self.x - tol and o.y >= self.y - tol
                and o.x2 <= self.x2 + tol and o.y2 <= self.y2 + tol)

    def relative_to(self, frame: Box) -> Box:
        """This box in fractions of ``frame``'s width and height, from its top-left (``frame`` not empty)."""
        return Box(x=(self.x - frame.x) / frame.width, y=(self.y - frame.y) / frame.height,
                   width=self.width / frame.width, height=self.height / frame.height)

    def placed_in(self, frame: Box) -> Box:
        """This box, given in fractions of ``frame`` (``relative_to``), in world units."""
        return Box(x=frame.x + self.x * frame.width, y=frame.y + self.y * frame.height,
                   width=self.width * frame.width, height=self.height * frame.height)

    def translated(self, dx: float, dy: float) -> Box:
        """This box moved by ``(dx, dy)``."""
        return Box(x=self.x + dx, y=self.y + dy, width=self.width, height=self.height)

    def as_tuple(self) -> tuple[float, float, float, float]:
        """``(x, y, width, height)``."""
        return (self.x, self.y, self.width, self.height)

    def __repr__(self) -> str:
        return f"Box(x={self.x!r}, y={self.y!r}, width={self.width!r}, height={self.height!r})"


def apart_axis(a: Box, b: Box) -> str:
    """``"vertical"`` when ``a`` and ``b`` stand apart more along y than along x, else ``"horizontal"``.

    Each axis's separation is the gap between the two boxes' projections on it
    (negative when the projections overlap); the larger one names the axis along
    which the boxes are arranged (a column of text: vertical; side by side: horizontal).
    When the boxes overlap on both axes (two words whose boxes reach into each other), the axis on which they
    overlap less, for their size, is the one they stand apart along.
    """
    sep_x = max(b.x - a.x2, a.x - b.x2)
    sep_y = max(b.y - a.y2, a.y - b.y2)
    if sep_x < 0 and sep_y < 0:
        share_x = -sep_x / max(min(a.width, b.width), 1e-9)
        share_y = -sep_y / max(min(a.height, b.height), 1e-9)
        return "vertical" if share_y < share_x else "horizontal"
    return "vertical" if sep_y >= sep_x else "horizontal"
