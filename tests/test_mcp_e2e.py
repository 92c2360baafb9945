"""End to end over stdio with a real MCP client that is not ours (the official TypeScript SDK).

``tests/e2e/mcp_client.mjs`` starts ``layout-assistant serve --workspace <tmp>``,
lists the tools, opens an OSGeo flyer copied into the workspace, reads its
metrics, applies edits, undoes one, renders a preview and exports SVG and PNG
(see the script for every check). ``make setup`` installs the SDK with npm.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from mcp_support import FLYER, make_workspace, serve_command, server_env

E2E = Path(__file__).parent / "e2e"
SCRIPT = E2E / "mcp_client.mjs"

pytestmark = pytest.mark.e2e


def test_official_sdk_client_drives_the_server_over_stdio(tmp_path: Path, osgeo_dir: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    if not (E2E / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        pytest.skip("tests/e2e/node_modules is missing: run `make setup` (npm install in tests/e2e)")
    workspace = make_workspace(tmp_path / "ws", osgeo_dir)
    server = serve_command("--workspace", str(workspace))
    proc = subprocess.run(
        [node, str(SCRIPT), "--workspace", str(workspace), "--flyer", FLYER, "--", *server],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, env=server_env(),
    )
    assert proc.returncode == 0, f"e2e client failed:\n{proc.stderr[-6000:]}"
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["ok"] is True and summary["tools"] >= 20
    assert summary["elements"] > 10
    assert 0 < summary["preview_bytes"] < 1_000_000
    assert (workspace / "e2e-out.svg").stat().st_size == summary["export_svg_bytes"]
    assert (workspace / "e2e-out.png").read_bytes()[:4] == b"\x89PNG"
