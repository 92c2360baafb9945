"""The streamable HTTP transport: bearer auth, the loopback rule, and two clients at once.

The server runs as ``layout-assistant serve --http`` in a subprocess on a free
loopback port and is stopped after each test.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastmcp import Client
from mcp_support import data, make_workspace, serve_command, server_env
from typer.testing import CliRunner

from assistant.cli import app
from mcp_server.http import HttpConfigError, check_http_settings, is_loopback

TOKEN = "test-token-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    workspace = make_workspace(tmp_path / "ws")
    (workspace / "second.svg").write_text((workspace / "poster.svg").read_text())
    port = free_port()
    cmd = serve_command("--http", "--port", str(port), "--workspace", str(workspace), "--token", TOKEN)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=server_env(), cwd=workspace)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"server exited early: {proc.stderr.read().decode()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("server did not start listening within 60 s")
        yield f"http://127.0.0.1:{port}/mcp", workspace
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_requests_without_the_token_are_rejected(http_server: tuple[str, Path]) -> None:
    url, _ = http_server
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    assert httpx.post(url, json=body, headers=headers, timeout=10).status_code == 401
    wrong = {**headers, "Authorization": "Bearer wrong-token-0000000000"}
    assert httpx.post(url, json=body, headers=wrong, timeout=10).status_code == 401


async def _edit_session(url: str, path: str, element: str, dx: float, rounds: int) -> dict[str, Any]:
    async with Client(url, auth=TOKEN) as client:
        doc = data(await client.call_tool("open_document", {"path": path}))
        doc_id, revision = doc["doc_id"], doc["revision"]
        start = data(await client.call_tool("inspect_elements", {"doc_id": doc_id, "ids": [element]}))
        for _ in range(rounds):
            out = data(await client.call_tool("move_elements", {
                "doc_id": doc_id, "ids": [element], "dx": dx, "expected_revision": revision}))
            assert out["revision"] == revision + 1
            revision = out["revision"]
            await asyncio.sleep(0)
        end = data(await client.call_tool("inspect_elements", {"doc_id": doc_id, "ids": [element, "title"]}))
        history = data(await client.call_tool("get_history", {"doc_id": doc_id}))
        return {"doc_id": doc_id, "start": start["elements"][0]["box"], "end": end["elements"],
                "revision": revision, "entries": len(history["entries"])}


def test_two_clients_edit_two_documents_without_interfering(http_server: tuple[str, Path]) -> None:
    url, _ = http_server

    async def both() -> list[dict[str, Any]]:
        return list(await asyncio.gather(
            _edit_session(url, "poster.svg", "cta", 2.0, 6),
            _edit_session(url, "second.svg", "body", -3.0, 6),
        ))

    a, b = asyncio.run(both())
    assert a["doc_id"] != b["doc_id"]
    for run, dx in ((a, 2.0), (b, -3.0)):
        assert run["revision"] == 6 and run["entries"] == 6
        moved, title = run["end"]
        assert moved["box"]["x"] == pytest.approx(run["start"]["x"] + 6 * dx)
        assert title["box"]["x"] == pytest.approx(60, abs=5)


def test_loopback_hosts_are_recognised() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")


def test_non_loopback_host_without_token_is_refused() -> None:
    with pytest.raises(HttpConfigError, match="without a bearer token"):
        check_http_settings("0.0.0.0", 8765, None)
    check_http_settings("0.0.0.0", 8765, TOKEN)


def test_serve_refuses_to_listen_publicly_without_a_token(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--http", "--host", "0.0.0.0", "--workspace", str(tmp_path)])
    assert result.exit_code == 2
    assert "bearer token" in result.output


def test_serve_refuses_a_missing_workspace(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--workspace", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "not an existing directory" in result.output


def test_readme_snippet_uses_real_serve_options() -> None:
    import json
    import re
    import shlex

    import typer.main

    snippet = (Path(__file__).resolve().parents[1] / "mcp_server" / "README_SNIPPET.md").read_text()
    serve = typer.main.get_command(app).commands["serve"]
    options = {opt for p in serve.params for opt in p.opts}
    config = json.loads(re.search(r"```json\n(.*?)```", snippet, re.S).group(1))
    args = config["mcpServers"]["layout-assistant"]["args"]
    assert args[0] == "serve" and {a for a in args[1:] if a.startswith("--")} <= options
    for line in re.findall(r"^layout-assistant serve (.*)$", snippet, re.M):
        used = {w for w in shlex.split(line) if w.startswith("--")}
        assert used <= options, line
