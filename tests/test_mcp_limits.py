"""The MCP server under hostile input: no call blocks, no lock is held for good, no raw OSError reaches the client.

Reproducers of issue 54: a FIFO named ``x.svg`` in the workspace, a path of
5 000 characters, a document lock held by a call that never ends, a page of
30 000 × 30 000 px, and work whose caller has gone away.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError
from mcp_support import data, error_text, make_workspace

import mcp_server.server as server_module
from assistant.errors import Cancelled, LimitExceeded, SvgImportError
from assistant.importer import ImportLimits, import_svg_text
from assistant.limits import budget, checkpoint
from mcp_server.bounded import run_bounded
from mcp_server.server import LayoutServer, build_server, tool_errors
from mcp_server.workspace import Workspace, WorkspaceError

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(120)]
fifo_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws")


async def fail(client: Client, tool: str, **args: Any) -> str:
    return error_text(await client.call_tool(tool, args, raise_on_error=False))


@fifo_only
async def test_a_fifo_in_the_workspace_is_refused_at_once_and_wedges_nothing(workspace: Path) -> None:
    os.mkfifo(workspace / "x.svg")
    async with Client(build_server(workspace)) as client:
        t0 = time.monotonic()
        assert "FIFO" in await fail(client, "open_document", path="x.svg")
        doc = data(await client.call_tool("open_document", {"path": "poster.svg"}))
        for tool, args in (("export_document", {"path": "x.svg", "overwrite": True}),
                           ("save_document", {"path": "x.svg", "overwrite": True})):
            assert "not a regular file" in await fail(client, tool, doc_id=doc["doc_id"], **args)
        assert time.monotonic() - t0 < 30
        listed = data(await client.call_tool("list_documents", {}))
        assert "x.svg" not in listed["workspace_svgs"] and "poster.svg" in listed["workspace_svgs"]
        moved = data(await client.call_tool("move_elements", {"doc_id": doc["doc_id"], "ids": ["cta"], "dx": 1}))
        assert moved["revision"] == 1  # the document's lock is free


@pytest.mark.parametrize("path", ["a" * 5000, "d/" * 2100 + "x.svg", "n" * 300 + ".svg"])
async def test_overlong_paths_are_a_clean_tool_error(workspace: Path, path: str) -> None:
    async with Client(build_server(workspace)) as client:
        message = await fail(client, "open_document", path=path)
        assert "path" in message and ("characters" in message or "bytes" in message)
        assert "OSError" not in message and "Traceback" not in message and len(message) < 600
        doc = data(await client.call_tool("open_document", {"path": "poster.svg"}))
        assert "characters" in await fail(client, "export_document", doc_id=doc["doc_id"], path="b" * 5000 + ".png")


def test_workspace_refuses_overlong_paths_before_the_system_sees_them(tmp_path: Path) -> None:
    ws = Workspace(tmp_path)
    with pytest.raises(WorkspaceError, match="5000 characters"):
        ws.resolve("a" * 5000)
    with pytest.raises(WorkspaceError, match="300 bytes"):
        ws.target("n" * 300)


def test_operating_system_errors_become_tool_errors() -> None:
    with pytest.raises(ToolError, match=r"/nowhere/x\.svg: File name too long"):
        with tool_errors():
            raise OSError(36, "File name too long", "/nowhere/x.svg")


def test_a_held_document_lock_makes_other_calls_wait_a_bounded_time(workspace: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "MCP_LOCK_WAIT_SECONDS", 0.2)
    state = LayoutServer(workspace)
    entry = state.open("poster.svg", None)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with entry.lock:
            held.set()
            release.wait(30)

    worker = threading.Thread(target=hold)
    worker.start()
    try:
        held.wait(10)
        t0 = time.monotonic()
        with pytest.raises(ToolError, match="busy"):
            with state.doc(entry.doc_id):
                pass
        assert time.monotonic() - t0 < 5
    finally:
        release.set()
        worker.join()
    with state.doc(entry.doc_id) as again:
        assert again is entry


async def test_export_of_a_30000_px_page_is_refused_by_pixels(workspace: Path) -> None:
    (workspace / "big.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="30000" height="30000">'
                                       '<rect width="100" height="100"/></svg>')
    async with Client(build_server(workspace)) as client:
        doc = data(await client.call_tool("open_document", {"path": "big.svg"}))
        message = await fail(client, "export_document", doc_id=doc["doc_id"], path="big.png")
        assert "900 MP" in message and "64 MP" in message
        assert not (workspace / "big.png").exists()
        ok = data(await client.call_tool("export_document", {"doc_id": doc["doc_id"], "path": "small.png",
                                                             "width": 800}))
        assert ok["bytes"] > 0
        preview = await client.call_tool("render_preview", {"doc_id": doc["doc_id"], "max_size": 256})
        assert not preview.is_error


async def test_bounded_work_stops_when_its_caller_is_cancelled() -> None:
    stopped = threading.Event()

    def spin() -> None:
        try:
            while True:
                checkpoint()
                time.sleep(0.01)
        except Cancelled:
            stopped.set()
            raise

    task = asyncio.ensure_future(run_bounded(spin, what="spinning", seconds=60))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(stopped.wait, 10)


async def test_bounded_work_stops_at_its_time_limit() -> None:
    def spin() -> None:
        while True:
            checkpoint()
            time.sleep(0.01)

    with pytest.raises(LimitExceeded, match="spinning took longer than 0.2 s"):
        await run_bounded(spin, what="spinning", seconds=0.2)


def test_an_import_stops_at_its_time_limit() -> None:
    body = "".join(f'<rect x="{i % 97}" y="{i % 89}" width="3" height="2"/>' for i in range(20_000))
    text = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>'
    with pytest.raises(SvgImportError, match="took longer than"):
        import_svg_text(text, source="slow.svg", limits=ImportLimits(max_seconds=0.05))
    cancel = threading.Event()
    cancel.set()
    with budget(cancel=cancel, what="opening the document"):
        with pytest.raises(Cancelled, match="cancelled"):
            import_svg_text(text, source="slow.svg")
