"""One error hierarchy for the whole project.

Every error carries what a user needs to fix the problem: the file or element
it concerns and a plain description. Front ends (CLI, MCP server, chat) turn a
``LayoutError`` into a clean message; anything else is a bug and propagates.
"""

from __future__ import annotations

from pathlib import Path


class LayoutError(Exception):
    """Base class of every error this project raises on purpose."""


class SvgImportError(LayoutError):
    """An SVG file (or string) could not be imported.

    ``source`` names the file (or ``<string>``), ``problem`` says what is wrong.
    """

    def __init__(self, source: str | Path | None, problem: str) -> None:
        self.source = str(source) if source is not None else "<string>"
        self.problem = problem
        super().__init__(f"{self.source}: {problem}")


class InvalidAction(LayoutError):
    """An edit action does not fit the document (unknown id, locked element, …)."""

    def __init__(self, problem: str, element_id: str | None = None) -> None:
        self.element_id = element_id
        self.problem = problem
        where = f"element {element_id!r}: " if element_id else ""
        super().__init__(f"{where}{problem}")


class InstructionError(LayoutError):
    """A constraint given as JSON (or an instruction) is malformed."""


class EnvError(LayoutError):
    """The environment was used wrongly (step after the episode ended, bad task, …)."""


class PlannerError(LayoutError):
    """A planner could not run (unknown planner, model failure, remote errors)."""


class ModelFileError(PlannerError):
    """A model file is missing or unreadable; ``path`` names it."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class ExportError(LayoutError):
    """A document could not be exported (bad format, unwritable target, …)."""


class SessionError(LayoutError):
    """A session operation failed (nothing to undo, stale revision, …)."""


class MetricError(LayoutError):
    """Metrics were asked for wrongly (unknown metric name, negative weight, bad backdrop)."""
