"""The document model: the parsed SVG tree kept alongside a ``Layout`` view.

Coordinates
    Every box is in *world* space: the user space of the root ``<svg>``
    (viewBox units when a viewBox is present, else CSS px). ``Canvas`` says how
    big that space is and how many CSS px one world unit is (``px_per_unit``),
    so metrics can compare font sizes with legibility thresholds in px.

Elements
    A layout ``Element`` is a unit of design (a paragraph, a logo made of many
    paths, a button, a photo, a full-bleed background), not one XML node.
    ``Element.nodes`` lists the XML ids of the nodes that make it up; edits
    patch exactly those nodes. ``Element.group`` names the parent group
    element (a ``kind="group"`` element whose ``children`` list it), or
    ``None`` for top-level elements.

Stable ids
    ``Element.id`` is the SVG ``id`` of its node when present; otherwise the
    importer generates one deterministically (``la-<tag>-<n>`` in document
    order) and sets it on the node in the kept tree, so it is written back on
    export and survives a re-import.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from assistant.errors import InvalidAction
from assistant.geometry import Box

Role = Literal[
    "title", "subtitle", "body", "caption", "cta", "logo",
    "image", "badge", "background", "decoration",
]
ROLES: tuple[str, ...] = get_args(Role)

Kind = Literal["text", "image", "shape", "group"]
KINDS: tuple[str, ...] = get_args(Kind)

TextAnchor = Literal["start", "middle", "end"]

#: Default importance of each role, in [0, 1]: how much the element matters
#: to the message. Hierarchy metrics expect visual prominence to follow it.
ROLE_IMPORTANCE: dict[str, float] = {
    "title": 1.0, "cta": 0.85, "logo": 0.75, "subtitle": 0.7, "image": 0.6,
    "badge": 0.5, "body": 0.45, "caption": 0.3, "decoration": 0.1, "background": 0.0,
}


class Margins(BaseModel):
    """Safe margins in world units, measured inwards from each canvas edge."""

    top: float = 0.0
    right: float = 0.0
    bottom: float = 0.0
    left: float = 0.0


class Canvas(BaseModel):
    """The page: the root viewBox (or size) in world units and its physical size.

    ``x``, ``y``, ``width``, ``height`` are the viewBox (``0 0 w h`` when the
    file has none). ``units`` is the unit the file's ``width`` was written in
    (px, pt, mm, cm, in, %); ``px_per_unit`` converts world units to CSS px.
    """

    x: float = 0.0
    y: float = 0.0
    width: float
    height: float
    units: str = "px"
    px_per_unit: float = 1.0
    view_box: tuple[float, float, float, float] | None = None
    preserve_aspect_ratio: str = "xMidYMid meet"
    margins: Margins = Field(default_factory=Margins)
    #: The pages of a multi-page document (Inkscape pages), world boxes; empty: one page, the canvas.
    pages: list[Box] = Field(default_factory=list)

    @field_validator("width", "height")
    @classmethod
    def _positive(cls, v: float) -> float:
        if not v > 0:
            raise ValueError("canvas width and height must be positive")
        return v

    @property
    def box(self) -> Box:
        """The whole page as a box."""
        return Box(x=self.x, y=self.y, width=self.width, height=self.height)

    @property
    def safe_box(self) -> Box:
        """The page inside its safe margins."""
        m = self.margins
        return Box(
            x=self.x + m.left, y=self.y + m.top,
            width=max(self.width - m.left - m.right, 0.0),
            height=max(self.height - m.top - m.bottom, 0.0),
        )

    def page_boxes(self) -> list[Box]:
        """Every page of the document (the canvas alone when it has no Inkscape pages)."""
        return list(self.pages) or [self.box]

    def page_box(self, page: int) -> Box:
        """The box of page ``page`` (``Element.page``); the whole canvas for an element on no page."""
        pages = self.page_boxes()
        return pages[page] if 0 <= page < len(pages) else self.box

    @classmethod
    def with_default_margins(cls, **kw: Any) -> Canvas:
        """A canvas whose safe margins are 5 % of its shorter side."""
        c = cls(**kw)
        m = 0.05 * min(c.width, c.height)
        return c.model_copy(update={"margins": Margins(top=m, right=m, bottom=m, left=m)})


class Element(BaseModel):
    """One unit of design with its world-space box and properties."""

    id: str
    kind: Kind
    role: Role
    box: Box
    #: Rotation (degrees) of the element's world transform; ``box`` is then
    #: the axis-aligned box of the rotated content.
    rotation: float = 0.0
    text: str | None = None
    font_family: str | None = None
    #: Effective font size in world units (the transform's scale included).
    font_size: float | None = None
    font_weight: int | None = None
    #: Distance between baselines in world units, for multi-line text.
    line_height: float | None = None
    text_anchor: TextAnchor | None = None
    #: Number of text lines (1 for single-line text, None for non-text).
    lines: int | None = None
    #: Main fill colour as ``#rrggbb`` (None: none, a gradient or unknown).
    fill: str | None = None
    opacity: float = 1.0
    z: int = 0
    locked: bool = False
    #: Part of the design's backdrop, or deliberate (a background, a band, an ornament, rotated art):
    #: planners leave it where it is; an edit that names it still applies.
    pinned: bool = False
    #: Index of the page it lies on (``Canvas.page_boxes``); -1 when it lies on none (a scratch area).
    page: int = 0
    importance: float = 0.5
    group: str | None = None
    children: list[str] = Field(default_factory=list)
    #: XML ids of the nodes that make up this element (edits patch these).
    nodes: list[str] = Field(default_factory=list)
    #: A human label: ``data-name``, ``inkscape:label`` or ``<title>``.
    name: str | None = None
    #: Where the ink is when it is not the whole box, as boxes relative to ``box``
    #: (fractions of its width and height, so they follow moves and resizes):
    #: text set on a path inks a band along the path, not the path's whole box.
    #: Empty: the whole box.
    ink: list[Box] = Field(default_factory=list)
    #: All of a text that a clip cuts off (a line running past a page clipped at its edge), relative to
    #: ``box`` as ``ink`` is; ``box`` is the part that shows. None: all of it shows.
    whole: Box | None = None

    def whole_box(self) -> Box:
        """All that the element draws, shown or clipped, in world units (``box`` when nothing is clipped)."""
        return self.whole.placed_in(self.box) if self.whole is not None else self.box

    def ink_boxes(self) -> list[Box]:
        """``ink`` in world units (the whole ``box`` when ``ink`` is empty)."""
        return [r.placed_in(self.box) for r in self.ink] if self.ink else [self.box]

    @property
    def is_text(self) -> bool:
        """True for text elements."""
        return self.kind == "text"


class Layout(BaseModel):
    """The canvas and its elements, in paint order (``z`` ascending)."""

    canvas: Canvas
    elements: list[Element] = Field(default_factory=list)
    _index: dict[str, int] | None = PrivateAttr(default=None)

    def _idx(self) -> dict[str, int]:
        if self._index is None or len(self._index) != len(self.elements):
            self._index = {e.id: i for i, e in enumerate(self.elements)}
        return self._index

    def __contains__(self, element_id: str) -> bool:
        return element_id in self._idx()

    def __iter__(self) -> Iterator[Element]:  # type: ignore[override]
        return iter(self.elements)

    def __len__(self) -> int:
        return len(self.elements)

    def get(self, element_id: str) -> Element:
        """The element with this id; ``InvalidAction`` naming it when unknown."""
        i = self._idx().get(element_id)
        if i is None:
            raise InvalidAction("no element with this id in the layout", element_id)
        return self.elements[i]

    def replace(self, element: Element) -> None:
        """Put ``element`` in place of the element with the same id."""
        i = self._idx().get(element.id)
        if i is None:
            raise InvalidAction("no element with this id in the layout", element.id)
        self.elements[i] = element

    def top_level(self) -> list[Element]:
        """Elements that are in no group."""
        return [e for e in self.elements if e.group is None]

    def children_of(self, element_id: str) -> list[Element]:
        """The direct children of the group ``element_id``."""
        return [self.get(c) for c in self.get(element_id).children]

    def descendants_of(self, element_id: str) -> list[Element]:
        """Every element inside the group ``element_id``, nested groups included."""
        out: list[Element] = []
        stack = list(self.get(element_id).children)
        while stack:
            e = self.get(stack.pop())
            out.append(e)
            stack.extend(e.children)
        return out

    def leaves(self) -> list[Element]:
        """Elements that are not groups (text, images, shapes)."""
        return [e for e in self.elements if e.kind != "group"]

    def by_role(self, role: str) -> list[Element]:
        """Elements with this role, in paint order."""
        return [e for e in self.elements if e.role == role]

    def copy_deep(self) -> Layout:
        """An independent deep copy."""
        return self.model_copy(deep=True)


class Document(BaseModel):
    """A parsed SVG: the lxml tree (exported as a minimal patch) plus its Layout.

    ``tree`` is an ``lxml.etree._ElementTree``. ``source`` names the file it
    came from (or ``<string>``). Use ``node(xml_id)`` to reach the XML node of
    an element part; ``copy()`` for an independent document (simulation).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: str = "<string>"
    tree: Any = Field(exclude=True, repr=False)
    layout: Layout
    #: XML ids the importer generated (not present in the input file).
    generated_ids: list[str] = Field(default_factory=list)
    _nodes: dict[str, Any] | None = PrivateAttr(default=None)

    @property
    def root(self) -> Any:
        """The root ``<svg>`` node."""
        return self.tree.getroot()

    def node(self, xml_id: str) -> Any:
        """The XML node with this id; ``InvalidAction`` when there is none."""
        if self._nodes is None or xml_id not in self._nodes:
            self._nodes = {}
            for n in self.root.iter():  # the first holder of a repeated id wins, as in renderers
                if isinstance(n.tag, str) and n.get("id") and n.get("id") not in self._nodes:
                    self._nodes[n.get("id")] = n
        n = self._nodes.get(xml_id)
        if n is None:
            raise InvalidAction("no XML node with this id in the document", xml_id)
        return n

    def copy(self) -> Document:
        """An independent deep copy (tree and layout), for simulation and undo tests."""
        return Document(
            source=self.source,
            tree=copy.deepcopy(self.tree),
            layout=self.layout.copy_deep(),
            generated_ids=list(self.generated_ids),
        )


def hex_rgb(fill: str | None) -> tuple[float, float, float] | None:
    """``#rrggbb`` (or ``#rgb``) as sRGB components in [0, 1]; ``None`` when unknown."""
    if not fill or not fill.startswith("#"):
        return None
    h = fill[1:]
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        return None
    try:
        v = int(h, 16)
    except ValueError:
        return None
    return ((v >> 16 & 255) / 255.0, (v >> 8 & 255) / 255.0, (v & 255) / 255.0)
