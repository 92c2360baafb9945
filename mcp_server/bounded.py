"""Long tool calls in a worker thread, bounded in time and stopped when their caller goes away.

fastmcp runs a tool as a task of the server's event loop. A tool that imports
or renders hands the work to a thread (``asyncio.to_thread``) under a
``limits.budget``: the import walk, the grouping and role passes and every
element cairosvg draws call ``limits.checkpoint``, so the work stops

* after ``limits.MCP_WORK_SECONDS`` with a clean error (the import's
  ``SvgImportError``, the render's ``ExportError``), and
* as soon as the client cancels the call or disconnects: the task is
  cancelled, :func:`run_bounded` sets the budget's event, and the thread
  raises ``Cancelled`` at its next checkpoint instead of keeping a core busy
  for a caller that is gone.

Work between two checkpoints (one metric pass, one element drawn) always
finishes; nothing else is interrupted half-way.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from assistant.limits import MCP_WORK_SECONDS, budget

T = TypeVar("T")


async def run_bounded(fn: Callable[..., T], *args: Any, what: str, seconds: float | None = MCP_WORK_SECONDS) -> T:
    """``fn(*args)`` in a worker thread under a budget of ``seconds``, cancelled with the calling task."""
    cancel = threading.Event()
    with budget(seconds, cancel, what=what):
        try:
            return await asyncio.to_thread(fn, *args)
        except asyncio.CancelledError:
            cancel.set()
            raise


__all__ = ["run_bounded"]
