"""The streamable HTTP transport: bearer auth always, Host and Origin checks, and two clients at once.

The server runs as ``layout-assistant serve --http`` in a subprocess on a free
loopback port and is stopped after each test: with ``--token`` (and one
``--allow-host`` name), or without, when it makes a token and prints it.
"""

from __future__ import annotations

import asyncio
import queue
import re
import socket
import subprocess
import threading
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
from mcp_server.http import HostOriginGuard, HttpConfigError, check_http_settings, is_loopback, token_problem

TOKEN = "test-token-0123456789abcdef"
ALLOWED_NAME = "designs.test"
JSONRPC = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(workspace: Path, port: int, *extra: str) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    """Start ``serve --http`` and wait until it listens; its stderr lines arrive on the queue."""
    cmd = serve_command("--http", "--port", str(port), "--workspace", str(workspace), *extra)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=server_env(), cwd=workspace,
                            text=True)
    lines: queue.Queue[str] = queue.Queue()
    stderr = proc.stderr
    assert stderr is not None
    threading.Thread(target=lambda: [lines.put(line) for line in stderr], daemon=True).start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"server exited early: {''.join(lines.queue)[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, lines
        except OSError:
            time.sleep(0.2)
    _stop(proc)
    pytest.fail("server did not start listening within 60 s")


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    workspace = make_workspace(tmp_path / "ws")
    (workspace / "second.svg").write_text((workspace / "poster.svg").read_text())
    port = free_port()
    proc, _ = _serve(workspace, port, "--token", TOKEN, "--allow-host", ALLOWED_NAME)
    try:
        yield f"http://127.0.0.1:{port}/mcp", workspace
    finally:
        _stop(proc)


def _post(url: str, *, token: str | None = TOKEN, host: str | None = None, origin: str | None = None,
          body: dict[str, Any] = INITIALIZE) -> httpx.Response:
    headers = dict(JSONRPC)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if host is not None:
        headers["Host"] = host
    if origin is not None:
        headers["Origin"] = origin
    return httpx.post(url, json=body, headers=headers, timeout=10)


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


def test_dns_rebinding_foreign_host_is_refused_even_with_the_token(http_server: tuple[str, Path]) -> None:
    """Issue 54's probe: Host evil.example and a foreign Origin opened a session and wrote a file."""
    url, workspace = http_server
    port = url.split(":")[2].split("/")[0]
    before = sorted(p.name for p in workspace.iterdir())
    # refused before the token is even looked at, and with the right token too
    assert _post(url, token=None, host=f"evil.example:{port}", origin=f"http://evil.example:{port}").status_code == 421
    refused = _post(url, host=f"evil.example:{port}", origin=f"http://evil.example:{port}")
    assert refused.status_code == 421 and "evil.example" in refused.json()["error"]
    assert _post(url, host=f"evil.example:{port}").status_code == 421
    assert sorted(p.name for p in workspace.iterdir()) == before


def test_loopback_names_and_allowed_hosts_are_served(http_server: tuple[str, Path]) -> None:
    url, _ = http_server
    port = url.split(":")[2].split("/")[0]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"{ALLOWED_NAME}:{port}", "LOCALHOST"):
        assert _post(url, host=host).status_code == 200, host


def test_foreign_origin_is_refused_and_same_origin_is_served(http_server: tuple[str, Path]) -> None:
    url, _ = http_server
    port = url.split(":")[2].split("/")[0]
    assert _post(url, origin="https://evil.example").status_code == 403
    assert _post(url, origin="null").status_code == 403
    assert _post(url, origin=f"http://localhost:{port}").status_code == 200
    assert _post(url, origin=f"http://127.0.0.1:{port}").status_code == 200


def test_server_without_token_makes_one_and_prints_it(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path / "ws")
    port = free_port()
    proc, lines = _serve(workspace, port)
    try:
        text = ""
        deadline = time.monotonic() + 30
        while "Authorization: Bearer" not in text and time.monotonic() < deadline:
            text += lines.get(timeout=30)
        token = re.search(r"bearer token \(made for this run[^)]*\): (\S+)", text).group(1)
        assert token_problem(token) is None
        url = f"http://127.0.0.1:{port}/mcp"
        assert _post(url, token=None).status_code == 401
        assert _post(url, token=TOKEN).status_code == 401
        assert _post(url, token=token).status_code == 200
    finally:
        _stop(proc)


@pytest.mark.parametrize("token, problem", [
    ("short", "at least 16"),
    (" " * 20, "blanks"),
    ("a" * 32, "1 different"),
    ("abababababababababab", "2 different"),
    ("token with spaces in it", "blanks"),
    ("tab\tseparated-0123456789", "blanks"),
])
def test_weak_tokens_are_refused(token: str, problem: str) -> None:
    with pytest.raises(HttpConfigError, match=problem):
        check_http_settings("127.0.0.1", 8765, token)


def test_serve_refuses_a_weak_token(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--http", "--workspace", str(tmp_path), "--token", "x" * 40])
    assert result.exit_code == 2 and "different character" in result.output


def test_http_options_are_refused_on_stdio(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--workspace", str(tmp_path), "--allow-host", "a.example"])
    assert result.exit_code == 2 and "only apply to --http" in result.output


def test_guard_on_a_wildcard_address_accepts_ip_addresses_and_listed_names_only() -> None:
    guard = HostOriginGuard(None, bound_host="0.0.0.0", allowed_hosts=["designs.example"],
                            allowed_origins=["https://app.example"])
    for host in ("192.168.1.4", "10.0.0.1", "::1", "localhost", "designs.example"):
        assert guard.host_allowed(host), host
    for host in ("evil.example", "", "192.168.1.4.evil.example"):
        assert not guard.host_allowed(host), host
    assert guard.origin_allowed("https://app.example") and guard.origin_allowed("http://192.168.1.4:8765")
    assert not guard.origin_allowed("https://evil.example") and not guard.origin_allowed("null")


def test_guard_on_a_named_interface_accepts_that_address_only() -> None:
    guard = HostOriginGuard(None, bound_host="192.168.1.4")
    assert guard.host_allowed("192.168.1.4")
    assert not guard.host_allowed("localhost") and not guard.host_allowed("10.0.0.1")


def test_loopback_hosts_are_recognised() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")


def test_no_host_listens_without_a_token() -> None:
    for host in ("0.0.0.0", "127.0.0.1"):
        with pytest.raises(HttpConfigError, match="without a bearer token"):
            check_http_settings(host, 8765, None)
    check_http_settings("0.0.0.0", 8765, TOKEN)


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
