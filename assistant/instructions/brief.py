"""Turn a user's instruction into what the planner loop needs.

``compile_for_planner(text, layout)`` compiles the plain-language request
against the starting layout (``assistant.instructions.compile_instruction``),
anchors role-based constraints to it (``resolve_constraints``: a "keep the
photo where it is" records the photo's current box), and returns

- the constraints the instruction-fit metric scores,
- the ids of elements the user asked to keep in place (``keep``
  constraints): the planner never proposes an edit that moves them,
- the phrases that were not understood (reported, never guessed).
"""

from __future__ import annotations

from typing import Any

from assistant.document import Layout


def compile_for_planner(text: str, layout: Layout) -> tuple[list[Any], list[str], list[str]]:
    """``(constraints, keep_ids, not_understood)`` for ``text`` on ``layout``."""
    from assistant.instructions import KeepConstraint, compile_instruction, resolve_constraints

    compiled = compile_instruction(text, layout)
    constraints = resolve_constraints(compiled.constraints, layout)
    keep = [c.id for c in constraints if isinstance(c, KeepConstraint) and c.id and c.id in layout]
    return constraints, keep, list(compiled.not_understood)


__all__ = ["compile_for_planner"]
