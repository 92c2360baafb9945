"""One error hierarchy for the whole project.

Every error carries what a user needs to fix the problem: the file or element
it concerns and a plain description. Front ends (CLI, MCP server, chat) turn a
``LayoutError`` into a clean message; anything else is a bug and propagates.
"""

from __future__ import annotations

import re
from pathlib import Path

# C0 and C1 control characters (ESC starts terminal escape sequences), DEL, and the Unicode
# direction overrides and isolates that reorder what a terminal shows.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNPRINTABLE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    r"""``text`` with control characters (terminal escapes, direction overrides) shown as ``\x1b``-style escapes.

    Newlines and tabs are kept unless ``one_line`` (file names: a newline in a
    name must not start a line of its own in a message).
    """
    return (_UNPRINTABLE_LINE if one_line else _UNPRINTABLE).sub(_escape, text)


class LayoutError(Exception):
    """Base class of every error this project raises on purpose.

    Its message never carries control characters: a file name holding a
    terminal escape sequence is shown escaped (``printable``).
    """

    def __str__(self) -> str:
        return printable(super().__str__())


class SvgImportError(LayoutError):
    """An SVG file (or string) could not be imported.

    ``source`` names the file (or ``<string>``), ``problem`` says what is wrong.
    """

    def __init__(self, source: str | Path | None, problem: str) -> None:
        self.source = str(source) if source is not None else "<string>"
        self.problem = problem
        super().__init__(f"{printable(self.source, one_line=True)}: {problem}")


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
        super().__init__(f"{printable(self.path, one_line=True)}: {problem}")


class ExportError(LayoutError):
    """A document could not be exported (bad format, unwritable target, …)."""


class SessionError(LayoutError):
    """A session operation failed (nothing to undo, stale revision, …)."""


class MetricError(LayoutError):
    """Metrics were asked for wrongly (unknown metric name, negative weight, bad backdrop)."""


class LimitExceeded(LayoutError):
    """An operation went over one of the limits in ``assistant.limits`` (most often its time)."""


class Cancelled(LayoutError):
    """An operation was stopped because its caller went away (an MCP client cancelled or disconnected)."""
