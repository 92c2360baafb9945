"""The edit-action vocabulary: one pydantic model per action, discriminated by ``type``.

The JSON schema produced by :func:`action_json_schema` is the single source for
the MCP tool schemas and for the grammar that constrains a language model's
output (llama.cpp converts JSON schema to GBNF). It is kept simple on purpose:
every model forbids extra properties, enums are ``Literal`` values, numbers are
finite and bounded, ids are non-empty, and the schema has no ``$ref`` at all
(:func:`action_json_schema` inlines the definitions).

Coordinates and sizes are world units (the root ``<svg>`` user space), as in
:mod:`assistant.document`.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, model_validator

#: Largest coordinate or displacement an action may name (world units).
MAX_COORD = 1.0e6

ElementId = Annotated[str, StringConstraints(min_length=1, max_length=256, strip_whitespace=True)]
IdList = Annotated[list[ElementId], Field(min_length=1, max_length=1000)]
Anchor = Literal["top_left", "top", "top_right", "left", "center", "right", "bottom_left", "bottom", "bottom_right"]
Region = Literal[
    "top_band", "top_left", "top", "top_right", "left", "center", "right",
    "bottom_left", "bottom", "bottom_right", "hero", "footer",
]
TemplateName = Literal[
    "hero-top", "classic-column", "split-bottom",
    "title-left", "title-center", "image-right",
    "centered", "image-top",
]
Colour = Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")]


def _type_required(schema: dict[str, Any]) -> None:
    """``type`` has a default (so ``Move(ids=[...])`` works) but is required in JSON."""
    required = schema.setdefault("required", [])
    if "type" not in required:
        required.insert(0, "type")


class _ActionBase(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True, frozen=True,
                              json_schema_extra=_type_required)

    def to_json(self) -> dict[str, Any]:
        """The action as a plain JSON object (``None`` fields dropped)."""
        return self.model_dump(mode="json", exclude_none=True)


class Move(_ActionBase):
    """Move elements by a world-space displacement."""

    type: Literal["move"] = "move"
    ids: IdList = Field(description="Ids of the elements to move (groups move with their members).")
    dx: float = Field(0.0, ge=-MAX_COORD, le=MAX_COORD,
                      description="Horizontal displacement, world units (+ is right).")
    dy: float = Field(0.0, ge=-MAX_COORD, le=MAX_COORD, description="Vertical displacement, world units (+ is down).")


class Resize(_ActionBase):
    """Resize one element about an anchor point of its box."""

    type: Literal["resize"] = "resize"
    id: ElementId = Field(description="Id of the element to resize.")
    width: float | None = Field(None, gt=0, le=MAX_COORD, description="New width in world units.")
    height: float | None = Field(None, gt=0, le=MAX_COORD, description="New height in world units.")
    scale: float | None = Field(None, gt=0, le=100.0, description="Scale factor (instead of width/height).")
    anchor: Anchor = Field("top_left", description="Point of the box that stays fixed.")
    keep_aspect: bool = Field(True, description="Keep the width:height ratio.")

    @model_validator(mode="after")
    def _one_size(self) -> Resize:
        if self.width is None and self.height is None and self.scale is None:
            raise ValueError("resize needs width, height or scale")
        if self.scale is not None and (self.width is not None or self.height is not None):
            raise ValueError("resize takes either scale or width/height, not both")
        return self


class Align(_ActionBase):
    """Align edges, centres or text baselines."""

    type: Literal["align"] = "align"
    ids: IdList = Field(description="Ids of the elements to align.")
    edge: Literal["left", "right", "top", "bottom", "center_x", "center_y", "baseline"] = Field(
        description="Which edge, centre line or text baseline to line up.")
    to: Literal["each_other", "canvas", "margins", "element"] = Field(
        "each_other", description="Align to each other (the key element), the canvas, the safe margins, or target_id.")
    target_id: ElementId | None = Field(None, description="Element to align to when to='element'.")

    @model_validator(mode="after")
    def _target(self) -> Align:
        if self.to == "element" and self.target_id is None:
            raise ValueError("align to='element' needs target_id")
        return self


class Distribute(_ActionBase):
    """Space elements evenly along an axis."""

    type: Literal["distribute"] = "distribute"
    ids: Annotated[list[ElementId], Field(min_length=2, max_length=1000)] = Field(
        description="Ids of the elements to distribute (at least 2).")
    axis: Literal["horizontal", "vertical"] = Field(description="Axis along which to space them.")
    mode: Literal["gaps", "centers"] = Field("gaps", description="Equal gaps between boxes, or equal centre spacing.")
    gap: float | None = Field(None, ge=0, le=MAX_COORD,
                              description="Fixed gap (world units); default: spread between the outermost.")


class SnapToGrid(_ActionBase):
    """Snap element positions to a column grid or a square grid."""

    type: Literal["snap_to_grid"] = "snap_to_grid"
    ids: IdList = Field(description="Ids of the elements to snap.")
    columns: int | None = Field(None, ge=1, le=48, description="Column count of the grid inside the safe margins.")
    size: float | None = Field(None, gt=0, le=MAX_COORD, description="Square grid pitch in world units.")


class ReflowText(_ActionBase):
    """Fit a text element to a width by wrapping its lines or changing its font size."""

    type: Literal["reflow_text"] = "reflow_text"
    id: ElementId = Field(description="Id of the text element.")
    mode: Literal["auto", "wrap", "font_size"] = Field("auto", description="Wrap lines, scale the font, or choose.")
    width: float | None = Field(None, gt=0, le=MAX_COORD,
                                description="Target width; default: available width inside the margins.")
    min_size: float | None = Field(None, gt=0, le=10000.0, description="Smallest allowed font size (world units).")
    max_size: float | None = Field(None, gt=0, le=10000.0, description="Largest allowed font size (world units).")

    @model_validator(mode="after")
    def _range(self) -> ReflowText:
        if self.min_size is not None and self.max_size is not None and self.min_size > self.max_size:
            raise ValueError("min_size is larger than max_size")
        return self


class ReflowGroup(_ActionBase):
    """Stack elements (or a group's members) with one consistent gap."""

    type: Literal["reflow_group"] = "reflow_group"
    ids: IdList = Field(description="Ids of the elements to stack, or one group id.")
    axis: Literal["vertical", "horizontal"] = Field("vertical", description="Stacking direction.")
    gap: float | None = Field(None, ge=0, le=MAX_COORD, description="Gap between items; default: their median gap.")
    align: Literal["start", "center", "end"] = Field("start", description="Cross-axis alignment of the stack.")


class Promote(_ActionBase):
    """Make an element more prominent (larger, bolder) and push followers away."""

    type: Literal["promote"] = "promote"
    id: ElementId = Field(description="Id of the element to promote.")
    factor: float = Field(1.25, gt=1.0, le=4.0, description="Size multiplier (> 1).")


class Demote(_ActionBase):
    """Make an element less prominent (smaller, lighter)."""

    type: Literal["demote"] = "demote"
    id: ElementId = Field(description="Id of the element to demote.")
    factor: float = Field(1.25, gt=1.0, le=4.0, description="Size divisor (> 1).")


class AnchorToRegion(_ActionBase):
    """Place elements (as one block) in a named region of the safe box."""

    type: Literal["anchor_to_region"] = "anchor_to_region"
    ids: IdList = Field(description="Ids of the elements to place; they move together.")
    region: Region = Field(description="Named region of the canvas safe box.")


class Reorder(_ActionBase):
    """Change an element's paint order: front, back, one step, or just behind or in front of another."""

    type: Literal["reorder"] = "reorder"
    id: ElementId = Field(description="Id of the element to restack.")
    to: Literal["front", "back", "forward", "backward"] = Field(description="Where to move it in the stack.")
    target_id: ElementId | None = Field(None, description=(
        "With to='back' or 'front': the element to restack against; it goes just behind or just in front of it."))

    @model_validator(mode="after")
    def _target(self) -> Reorder:
        if self.target_id is not None and self.to not in ("front", "back"):
            raise ValueError("reorder with target_id needs to='front' or to='back'")
        if self.target_id is not None and self.target_id == self.id:
            raise ValueError("reorder cannot restack an element against itself")
        return self


class ApplyTemplate(_ActionBase):
    """Arrange the top-level elements by role into a grid template for the canvas shape."""

    type: Literal["apply_template"] = "apply_template"
    template: TemplateName = Field(description="Template name; it must fit the canvas shape.")


class SetTextStyle(_ActionBase):
    """Set font size, weight, colour or family of text elements."""

    type: Literal["set_text_style"] = "set_text_style"
    ids: IdList = Field(description="Ids of text elements.")
    font_size: float | None = Field(None, gt=0, le=10000.0, description=(
        "Font size in world units of the text's largest run; its other sizes scale alike."))
    font_weight: int | None = Field(None, ge=100, le=900, description="CSS font weight 100..900.")
    fill: Colour | None = Field(None, description="Text colour as #rrggbb.")
    font_family: Annotated[str, StringConstraints(min_length=1, max_length=200,
                                                   pattern=r"^[^;{}<>\"]+$")] | None = Field(
        None, description="CSS font family list.")

    @model_validator(mode="after")
    def _something(self) -> SetTextStyle:
        if all(v is None for v in (self.font_size, self.font_weight, self.fill, self.font_family)):
            raise ValueError("set_text_style needs at least one of font_size, font_weight, fill, font_family")
        return self


class SetPaint(_ActionBase):
    """Set the fill, outline colour, outline width or opacity of shapes, artwork and text.

    A group's members all take it. ``fill`` changes only what paints a fill; an
    element drawn by its outline alone takes its colour as ``stroke``. A new
    outline needs both ``stroke`` and ``stroke_width``.
    """

    type: Literal["set_paint"] = "set_paint"
    ids: IdList = Field(description="Ids of the elements to paint.")
    fill: Colour | None = Field(None, description="Fill colour as #rrggbb.")
    stroke: Colour | None = Field(None, description="Outline colour as #rrggbb.")
    stroke_width: float | None = Field(None, ge=0, le=10000.0, description="Outline width, world units.")
    stroke_scale: float | None = Field(None, gt=0, le=100.0, description=(
        "Multiply the outline widths by this (0.5: half as thick)."))
    opacity: float | None = Field(None, gt=0, le=1.0, description="Opacity 0..1 (replaces its own).")

    @model_validator(mode="after")
    def _something(self) -> SetPaint:
        if all(v is None for v in (self.fill, self.stroke, self.stroke_width, self.stroke_scale, self.opacity)):
            raise ValueError("set_paint needs at least one of fill, stroke, stroke_width, stroke_scale, opacity")
        if self.stroke_width is not None and self.stroke_scale is not None:
            raise ValueError("set_paint takes stroke_width or stroke_scale, not both")
        return self


class MatchSize(_ActionBase):
    """Make elements as wide and/or as tall as another element.

    With ``keep_aspect`` (the default) each element scales uniformly until the
    named dimension matches (``both``: until its area matches). Without it the
    named dimension is stretched: shapes and pictures stretch, a group's
    backdrop stretches while its text keeps its size and its relative place.
    """

    type: Literal["match_size"] = "match_size"
    dimension: Literal["width", "height", "both"] = Field(description="Which size to match.")
    anchor: Anchor = Field("top_left", description="Point of each box that stays fixed.")
    keep_aspect: bool = Field(True, description="Scale uniformly (True) or stretch the named dimension (False).")
    ids: IdList = Field(description="Ids of the elements to resize.")
    target_id: ElementId = Field(description="Id of the element whose size they take.")


class SetGap(_ActionBase):
    """Move one element along an axis so the gap between it and another element is exactly ``gap``."""

    type: Literal["set_gap"] = "set_gap"
    gap: float = Field(ge=0, le=MAX_COORD, description="Gap between the two boxes, world units.")
    axis: Literal["auto", "vertical", "horizontal"] = Field(
        "auto", description="Axis of the gap; auto: the axis along which the two stand apart.")
    id: ElementId = Field(description="Id of the element that moves.")
    target_id: ElementId = Field(description="Id of the element it is spaced from (does not move).")


class Swap(_ActionBase):
    """Exchange the places of two elements, keeping the gap between them."""

    type: Literal["swap"] = "swap"
    ids: Annotated[list[ElementId], Field(min_length=2, max_length=2)] = Field(
        description="Ids of the two elements to swap.")
    axis: Literal["auto", "vertical", "horizontal"] = Field(
        "auto", description="Axis of the exchange; auto: the axis along which the two stand apart.")


class SetLocked(_ActionBase):
    """Lock elements so that no later edit changes them, or unlock them."""

    type: Literal["set_locked"] = "set_locked"
    ids: IdList = Field(description="Ids of the elements to lock or unlock.")
    locked: bool = Field(True, description="True to lock, False to unlock.")


class Finalize(_ActionBase):
    """Declare the layout finished (changes nothing)."""

    type: Literal["finalize"] = "finalize"


ACTION_MODELS: tuple[type[_ActionBase], ...] = (
    Move, Resize, Align, Distribute, SnapToGrid, ReflowText, ReflowGroup, Promote, Demote,
    AnchorToRegion, Reorder, ApplyTemplate, SetTextStyle, SetPaint, MatchSize, SetGap, Swap, SetLocked, Finalize,
)

Action = Annotated[
    Move | Resize | Align | Distribute | SnapToGrid | ReflowText | ReflowGroup | Promote | Demote | AnchorToRegion
    | Reorder | ApplyTemplate | SetTextStyle | SetPaint | MatchSize | SetGap | Swap | SetLocked | Finalize,
    Field(discriminator="type"),
]

#: The ``type`` value of each action model, in vocabulary order.
ACTION_TYPES: tuple[str, ...] = tuple(get_args(m.model_fields["type"].annotation)[0] for m in ACTION_MODELS)
MODEL_BY_TYPE: dict[str, type[_ActionBase]] = dict(zip(ACTION_TYPES, ACTION_MODELS))
TEMPLATE_NAMES: tuple[str, ...] = get_args(TemplateName)
REGION_NAMES: tuple[str, ...] = get_args(Region)

ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            merged = _inline_refs(copy.deepcopy(defs[name]), defs)
            extra = {k: _inline_refs(v, defs) for k, v in node.items() if k != "$ref"}
            return {**merged, **extra}
        return {k: _inline_refs(v, defs) for k, v in node.items() if k not in ("$defs", "discriminator")}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def action_json_schema(action_type: str | None = None) -> dict[str, Any]:
    """The JSON schema of one action (``oneOf`` the vocabulary), with no ``$ref``.

    With ``action_type`` set, the schema of that one action model.
    """
    if action_type is not None:
        model = MODEL_BY_TYPE.get(action_type)
        if model is None:
            raise KeyError(f"unknown action type {action_type!r}; valid types: {', '.join(ACTION_TYPES)}")
        raw = model.model_json_schema()
    else:
        raw = ACTION_ADAPTER.json_schema()
        raw["title"] = "Action"
        raw["description"] = "One layout edit, discriminated by its 'type'."
    return _inline_refs(raw, raw.get("$defs", {}))
