"""What the tests of requests on the corpus's real files share: one request through the chat, the boxes after."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.app.chat import ChatAssistant
from assistant.geometry import Box
from assistant.importer import import_svg
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"
#: Skips a module of such tests where ``../shared`` (its corpus) is not beside the project.
NEEDS_CORPUS = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")


def do_request(name: str, request: str, tmp_path: Path) -> tuple[dict[str, Box], dict[str, Box], float, float]:
    """``request`` typed in the chat on the corpus file ``name``: the boxes before and after, the page's size.

    The request must edit (a question or "not understood" fails the test with the chat's answer).
    """
    chat = ChatAssistant(import_svg(CORPUS / name), model=None, out_dir=tmp_path, preview=False)
    layout = chat.document.layout
    before = {e.id: e.box for e in layout}
    reply = chat.handle(request)
    assert reply.edited, reply.text
    return before, {e.id: e.box for e in chat.document.layout}, layout.canvas.width, layout.canvas.height


def moved(b: dict[str, Box], a: dict[str, Box], *allowed: str) -> list[str]:
    """The elements whose boxes changed, other than ``allowed``."""
    return [k for k in b if k in a and a[k] != b[k] and k not in allowed]
