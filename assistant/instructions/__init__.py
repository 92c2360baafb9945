"""Instructions → typed constraints, and how well a layout satisfies them.

::

    from assistant.instructions import compile_instruction, score_constraints
    ci = compile_instruction("logo top right, make the headline dominant, 48 px margins", layout)
    ci.not_understood            # clauses the rules could not turn into constraints
    fit, findings = score_constraints(layout, ci.constraints)

Constraints can also be given as JSON (:func:`parse_constraints`). The
instruction-fit score is the weighted mean of the applicable constraints'
scores (1.0 when none applies); see each constraint's docstring for its
definition.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pydantic import TypeAdapter, ValidationError

from assistant.document import Layout
from assistant.errors import InstructionError
from assistant.instructions import select as sel
from assistant.instructions.compiler import CompiledInstruction, Understood, compile_instruction
from assistant.instructions.constraints import (
    CONSTRAINT_TYPES,
    AlignConstraint,
    BreathingRoomConstraint,
    Constraint,
    ContrastConstraint,
    DominantConstraint,
    Evaluation,
    KeepConstraint,
    MarginsConstraint,
    RegionConstraint,
    SizeConstraint,
)
from assistant.instructions.regions import REGION_NAMES, region_box, region_fit
from assistant.metrics.instruction_fit import score_constraints

_LIST = TypeAdapter(list[Constraint])


def parse_constraints(data: str | bytes | list[Any] | dict[str, Any]) -> list[Constraint]:
    """Constraints from JSON text or already-decoded JSON (one object or a list).

    Raises ``InstructionError`` naming the problem (bad JSON, unknown type,
    bad field) on malformed input.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InstructionError(f"constraints are not valid JSON: {exc}") from exc
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise InstructionError(f"constraints must be a JSON object or a list of objects, got {type(data).__name__}")
    for i, item in enumerate(data):
        if isinstance(item, dict) and item.get("type") not in CONSTRAINT_TYPES and not _is_model(item):
            known = ", ".join(CONSTRAINT_TYPES)
            raise InstructionError(f"constraint {i}: unknown type {item.get('type')!r}; known types: {known}")
    try:
        return _LIST.validate_python([c.model_dump() if _is_model(c) else c for c in data])
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InstructionError(f"constraint {where}: {first['msg']}") from exc


def _is_model(item: Any) -> bool:
    return hasattr(item, "model_dump") and hasattr(item, "evaluate")


def constraint_json_schema() -> dict[str, Any]:
    """JSON schema of a list of constraints (what :func:`parse_constraints` accepts)."""
    return _LIST.json_schema()


def constraints_json(constraints: Iterable[Constraint]) -> list[dict[str, Any]]:
    """JSON-ready dicts of ``constraints`` (``parse_constraints`` reads them back)."""
    return [c.model_dump(mode="json", exclude_none=True) for c in constraints]


def resolve_constraints(constraints: Iterable[Constraint], layout: Layout) -> list[Constraint]:
    """Anchor role-based constraints to ``layout`` (the starting layout of an edit).

    A ``keep`` naming a role becomes one keep per element of that role with
    the element's current box; a keep without a box gets the element's box;
    a ``size`` against its own past size gets the current size as reference.
    Other constraints are returned unchanged.
    """
    out: list[Constraint] = []
    for c in constraints:
        if isinstance(c, KeepConstraint):
            if c.id is None:
                for e in sel.outermost_with_role(layout, c.role or ""):
                    out.append(c.model_copy(update={"id": e.id, "role": None, "box": e.box}))
                if not sel.outermost_with_role(layout, c.role or ""):
                    out.append(c)
            elif c.box is None and c.id in layout:
                out.append(c.model_copy(update={"box": layout.get(c.id).box}))
            else:
                out.append(c)
        elif (isinstance(c, SizeConstraint) and c.reference is None and c.reference_id is None
              and c.reference_role is None):
            elems, _ = sel.resolve_target(layout, c.ids, c.role)
            if elems:
                ref = max(sel.prominence(layout, e) for e in elems)
                out.append(c.model_copy(update={"reference": ref}))
            else:
                out.append(c)
        else:
            out.append(c)
    return out


def evaluate_constraints(layout: Layout, constraints: Iterable[Constraint]) -> list[Evaluation]:
    """Per-constraint evaluations (``score`` is None when not applicable)."""
    return [c.evaluate(layout) for c in constraints]


__all__ = [
    "Constraint", "CompiledInstruction", "Understood", "compile_instruction", "parse_constraints",
    "constraints_json", "constraint_json_schema", "resolve_constraints", "evaluate_constraints",
    "score_constraints", "Evaluation",
    "RegionConstraint", "DominantConstraint", "SizeConstraint", "MarginsConstraint", "BreathingRoomConstraint",
    "KeepConstraint", "AlignConstraint", "ContrastConstraint", "REGION_NAMES", "region_box", "region_fit",
]
