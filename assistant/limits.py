"""Every resource limit of the project, in one place.

Untrusted SVG files reach the importer and the renderer from the CLI, from
batch runs and from MCP clients. Each limit below bounds the memory or the
time one input can cost; going over one is a clean error that names the file
and the limit (``SvgImportError`` on import, ``ExportError`` on render), never
a hang, a traceback or gigabytes of memory. ``docs/security.md`` lists them
for users.

Import limits travel as an ``ImportLimits`` value (one per call, so a test or
a caller can tighten them); render and server limits are module constants.

Long operations can also be bounded in time and cancelled from another thread
with a :class:`Budget`: code that loops over elements calls
:func:`checkpoint`, which raises ``LimitExceeded`` once the budget's time is
spent and ``Cancelled`` once its caller gave up (the MCP server sets the
event when a client cancels a call or goes away). Outside a budget,
``checkpoint`` costs one context-variable read.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from pydantic import BaseModel, ConfigDict, Field

from assistant.errors import Cancelled, LimitExceeded

MIB = 1024 * 1024

# -- import -----------------------------------------------------------------------------------------------------


class ImportLimits(BaseModel):
    """Resource limits for importing one SVG document."""

    model_config = ConfigDict(frozen=True)

    #: Largest accepted input, in bytes (a ``.svgz`` file: its compressed size).
    max_bytes: int = Field(default=50 * MIB, gt=0)
    #: Largest decompressed size of a gzip-compressed input (``.svgz``), in bytes.
    max_decompressed_bytes: int = Field(default=50 * MIB, gt=0)
    #: Most XML elements in the document.
    max_elements: int = Field(default=50_000, gt=0)
    #: Deepest element nesting (the root is depth 1).
    max_depth: int = Field(default=1_000, gt=0)
    #: Most nodes drawn through ``<use>`` references (guards against use-bombs).
    max_rendered: int = Field(default=100_000, gt=0)
    #: Most style rules (selectors with declarations) in the document's ``<style>`` sheets.
    max_css_rules: int = Field(default=5_000, gt=0)
    #: Most selector tests CSS matching may make for selectors no id, class or tag narrows down
    #: (``*``, ``[attr]``, ``:not(…)``): elements × such selectors.
    max_css_tests: int = Field(default=2_000_000, gt=0)
    #: Most segments of all paths, polylines and shapes drawn (a segment is a line, curve or arc).
    max_path_segments: int = Field(default=500_000, gt=0)
    #: Most characters of text drawn (each is measured and placed).
    max_text_chars: int = Field(default=400_000, gt=0)
    #: Longest ``style`` attribute, in characters.
    max_style_chars: int = Field(default=65_536, gt=0)
    #: Most characters of all ``<style>`` sheets together.
    max_css_chars: int = Field(default=1_048_576, gt=0)
    #: Largest absolute world coordinate of anything drawn (and largest page side), in world units.
    max_coordinate: float = Field(default=1e9, gt=0)
    #: Smallest page side (viewBox or size), in world units.
    min_page_side: float = Field(default=1e-6, gt=0)
    #: Wall-clock seconds one import may take (None: no limit; the MCP server sets one).
    max_seconds: float | None = Field(default=None, gt=0)


DEFAULT_LIMITS = ImportLimits()

# -- pictures and rendering ---------------------------------------------------------------------------------------

#: Largest side of a PNG render, in pixels.
MAX_RENDER_SIDE = 16_384
#: Most pixels of a PNG render (width × height): 64 MP, 256 MB of RGBA, an 8000 × 8000 image.
MAX_RENDER_PIXELS = 64_000_000
#: Largest page side of a PDF export, in points (PDF's own limit is 14 400 user units, 200 inches).
MAX_PDF_SIDE_PT = 14_400 * 4
#: Most pixels of an embedded picture that is decoded (for rendering, or to find its margins):
#: checked from the picture's header before decoding it (40 MP: 160 MB as RGBA).
MAX_IMAGE_PIXELS = 40_000_000
#: Most decoded bytes of one embedded ``data:`` URI (its base64 text decoded).
MAX_DATA_URI_BYTES = 50 * MIB
#: Most SVG pictures embedded as ``data:image/svg+xml`` that one render draws; later ones draw nothing.
MAX_EMBEDDED_SVG = 200
#: Largest arc radius cairo is asked to draw, in device units (cairo never finishes much larger ones).
MAX_ARC_RADIUS = 1e12

# -- the MCP server -----------------------------------------------------------------------------------------------

#: Largest file the server reads from its workspace, in bytes.
MAX_READ_BYTES = DEFAULT_LIMITS.max_bytes
#: Longest path a client may name, in characters (and 255 bytes per path component).
MAX_PATH_CHARS = 4_096
MAX_NAME_BYTES = 255
#: Most documents one server keeps open at once.
MAX_OPEN_DOCUMENTS = 32
#: Seconds an MCP tool may spend importing or rendering before it gives up.
MCP_WORK_SECONDS = 120.0
#: Seconds a tool call waits for another call on the same document to finish.
MCP_LOCK_WAIT_SECONDS = 30.0

# -- time budgets and cancellation --------------------------------------------------------------------------------


class Budget:
    """A time limit and a cancel flag for one long operation (see the module docstring).

    ``seconds``: wall-clock limit from now (None: none); ``cancel``: an event
    another thread sets when the caller has gone away; ``what`` names the
    operation in the error. A budget opened inside another also obeys the
    outer one.
    """

    def __init__(self, seconds: float | None = None, cancel: threading.Event | None = None,
                 what: str = "the operation", parent: Budget | None = None) -> None:
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.cancel = cancel
        self.what = what
        self.parent = parent

    def check(self) -> None:
        """Raise ``Cancelled`` or ``LimitExceeded`` when the work must stop."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled(f"{self.what} was cancelled: its caller is gone")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise LimitExceeded(f"{self.what} took longer than {self.seconds:g} s, the limit")
        if self.parent is not None:
            self.parent.check()


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("layout_assistant_budget", default=None)


@contextmanager
def budget(seconds: float | None = None, cancel: threading.Event | None = None,
           what: str = "the operation") -> Iterator[Budget]:
    """Run the body under a :class:`Budget` (inside another budget, both apply).

    ``asyncio.to_thread`` copies the context, so a budget set around an await
    of it applies in the worker thread.
    """
    b = Budget(seconds, cancel, what, parent=_BUDGET.get())
    token = _BUDGET.set(b)
    try:
        yield b
    finally:
        _BUDGET.reset(token)


def checkpoint() -> None:
    """Stop here if the current budget is spent or cancelled; nothing outside a budget."""
    b = _BUDGET.get()
    if b is not None:
        b.check()


__all__ = [
    "ImportLimits", "DEFAULT_LIMITS", "Budget", "budget", "checkpoint",
    "MAX_RENDER_SIDE", "MAX_RENDER_PIXELS", "MAX_PDF_SIDE_PT", "MAX_IMAGE_PIXELS", "MAX_DATA_URI_BYTES",
    "MAX_EMBEDDED_SVG", "MAX_ARC_RADIUS", "MAX_READ_BYTES", "MAX_PATH_CHARS", "MAX_NAME_BYTES", "MAX_OPEN_DOCUMENTS",
    "MCP_WORK_SECONDS", "MCP_LOCK_WAIT_SECONDS",
]
