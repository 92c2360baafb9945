"""A brief in plain words → what every front end needs: one compile-and-resolve path.

``compile_brief(text, layout)`` compiles the request against the layout it is
about (:func:`assistant.instructions.compile_instruction`), adds any constraints
given as JSON, and anchors role-based constraints to that layout
(:func:`assistant.instructions.resolve_constraints`: "keep the photo where it is"
records the photo's box *now*). The result is a :class:`Brief`:

- the constraints the instruction-fit metric scores,
- the ids of the elements the user asked to keep in place (no edit may move them),
- the clauses that were understood and those that were not (reported, never guessed).

``fix --instruction``, ``score``/``check --instruction``, ``chat``, the MCP tools
``set_instruction`` and ``suggest_edits``, the environment and the generated tasks
all compile briefs here, so a brief means the same thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.document import Layout
from assistant.instructions import (
    Constraint,
    KeepConstraint,
    compile_instruction,
    parse_constraints,
    resolve_constraints,
)


@dataclass(frozen=True)
class Brief:
    """A compiled brief, its constraints resolved against one layout."""

    text: str | None = None
    constraints: list[Constraint] = field(default_factory=list)
    understood: list[str] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)
    #: Ids of the layout's elements the brief keeps where they are.
    keep_ids: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.constraints or self.not_understood)


def compile_brief(text: str | None, layout: Layout, *,
                  constraints: str | bytes | list[Any] | dict[str, Any] | None = None) -> Brief:
    """The brief ``text`` (and any JSON ``constraints``) compiled and resolved against ``layout``.

    An empty or missing ``text`` with no ``constraints`` gives an empty brief. Raises
    ``InstructionError`` for malformed JSON constraints.
    """
    text = (text or "").strip() or None
    found: list[Constraint] = []
    understood: list[str] = []
    not_understood: list[str] = []
    if text:
        compiled = compile_instruction(text, layout)
        found += compiled.constraints
        understood, not_understood = list(compiled.understood), list(compiled.not_understood)
    if constraints is not None:
        found += parse_constraints(constraints)
    resolved = resolve_constraints(found, layout)
    keep = [c.id for c in resolved if isinstance(c, KeepConstraint) and c.id and c.id in layout]
    return Brief(text=text, constraints=resolved, understood=understood, not_understood=not_understood,
                 keep_ids=keep)


__all__ = ["Brief", "compile_brief"]
