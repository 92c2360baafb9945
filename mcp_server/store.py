"""Open documents of one server: ``doc_id`` → ``OpenDocument`` (a ``Session`` plus what the client set).

Doc ids are short and readable (``<file stem>-<n>``, ``n`` counting opens
since the server started), so a model can keep several documents apart.
Every document carries its own re-entrant lock: tools run in worker threads,
and two clients editing two documents never wait on each other, while two
calls on the same document are serialised.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.app.session import Session
from assistant.document import Document
from assistant.errors import LayoutError
from assistant.instructions import Constraint
from assistant.instructions.brief import Brief
from assistant.limits import MAX_OPEN_DOCUMENTS
from assistant.metrics import MetricReport


class UnknownDocument(LayoutError):
    """A ``doc_id`` that is not open; the message lists the open ones."""


@dataclass
class OpenDocument:
    """One open document: its session, where it came from, and the client's brief.

    ``path`` is the workspace file it was opened from (None for SVG text);
    ``brief`` comes from ``set_instruction``, compiled against the document as it
    was then (:func:`assistant.instructions.brief.compile_brief`), and feeds the
    metrics' ``instruction_fit``.
    """

    doc_id: str
    session: Session
    path: Path | None
    label: str
    brief: Brief = field(default_factory=Brief)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    #: Bumped by every change of the document or its brief (keys ``report_cache``).
    version: int = 0
    report_cache: tuple[int, MetricReport] | None = field(default=None, repr=False)
    #: Page renders of the current version for previews, keyed by (version, view, size); see ``mcp_server.rendering``.
    render_cache: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False)

    @property
    def document(self) -> Document:
        """The document being edited."""
        return self.session.document

    @property
    def instruction(self) -> str | None:
        """The brief's text (None without a brief)."""
        return self.brief.text

    @property
    def constraints(self) -> list[Constraint]:
        """The brief's constraints."""
        return self.brief.constraints

    def touch(self) -> None:
        """Record that the document or its brief changed (drops the cached metrics)."""
        self.version += 1
        self.report_cache = None
        self.render_cache.clear()


def _stem(label: str) -> str:
    stem = Path(label).stem if label else "doc"
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-").lower()
    return (stem or "doc")[:40]


class DocumentStore:
    """The documents a server has open, safe to use from several threads."""

    def __init__(self, max_open: int = MAX_OPEN_DOCUMENTS) -> None:
        self._docs: dict[str, OpenDocument] = {}
        self._counter = 0
        self._max_open = max_open
        self._lock = threading.Lock()

    def add(self, session: Session, *, path: Path | None, label: str) -> OpenDocument:
        """Register a new session and give it a fresh doc id."""
        with self._lock:
            if len(self._docs) >= self._max_open:
                raise UnknownDocument(
                    f"{len(self._docs)} documents are open, the most this server keeps; "
                    f"close one first (open: {', '.join(self._docs)})"
                )
            self._counter += 1
            doc_id = f"{_stem(label)}-{self._counter}"
            entry = OpenDocument(doc_id=doc_id, session=session, path=path, label=label)
            self._docs[doc_id] = entry
            return entry

    def get(self, doc_id: str) -> OpenDocument:
        """The open document ``doc_id``; ``UnknownDocument`` listing the open ids otherwise."""
        with self._lock:
            entry = self._docs.get(doc_id)
            if entry is not None:
                return entry
            known = ", ".join(self._docs) or "none; call open_document first"
        raise UnknownDocument(f"no open document {doc_id!r}; open documents: {known}")

    def close(self, doc_id: str) -> OpenDocument:
        """Forget ``doc_id`` (unsaved edits are dropped)."""
        entry = self.get(doc_id)
        with self._lock:
            self._docs.pop(doc_id, None)
        return entry

    def all(self) -> list[OpenDocument]:
        """Open documents in the order they were opened."""
        with self._lock:
            return list(self._docs.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._docs)
