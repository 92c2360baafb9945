"""The tool list (names, titles, descriptions, annotations, input schemas) against a snapshot.

A schema change — ours or one coming from ``action_json_schema()`` — fails
this test with a readable diff. When the change is intended, rewrite the
snapshot and review it in the commit::

    UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/test_mcp_snapshot.py
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from mcp_server.server import build_server

pytestmark = pytest.mark.anyio

SNAPSHOT = Path(__file__).parent / "snapshots" / "mcp_tools.json"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def tool_listing(workspace: Path) -> list[dict[str, Any]]:
    async with Client(build_server(workspace)) as client:
        tools = await client.list_tools()
        resources = await client.list_resources()
        templates = await client.list_resource_templates()
        prompts = await client.list_prompts()
    listing: list[dict[str, Any]] = [
        {
            "name": t.name,
            "title": t.title,
            "description": t.description,
            "annotations": t.annotations.model_dump(by_alias=True, exclude_none=True) if t.annotations else None,
            "input_schema": t.input_schema,
        }
        for t in sorted(tools, key=lambda t: t.name)
    ]
    listing.append({
        "resources": sorted(str(r.uri) for r in resources),
        "resource_templates": sorted(t.uri_template for t in templates),
        "prompts": {p.name: sorted(a.name for a in p.arguments or []) for p in sorted(prompts, key=lambda p: p.name)},
    })
    return listing


def render(listing: list[dict[str, Any]]) -> str:
    return json.dumps(listing, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


async def test_tool_list_matches_snapshot(tmp_path: Path) -> None:
    current = render(await tool_listing(tmp_path))
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(current, encoding="utf-8")
    if not SNAPSHOT.exists():
        pytest.fail(f"no snapshot at {SNAPSHOT}; create it with UPDATE_SNAPSHOTS=1")
    expected = SNAPSHOT.read_text(encoding="utf-8")
    if current != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), current.splitlines(keepends=True),
            fromfile="snapshot", tofile="current", n=2))
        pytest.fail("the MCP tool list changed (rerun with UPDATE_SNAPSHOTS=1 if intended):\n" + diff[:20000])


async def test_every_tool_has_a_title_one_line_docstring_and_honest_hints(tmp_path: Path) -> None:
    listing = (await tool_listing(tmp_path))[:-1]
    read_only = {"list_documents", "get_outline", "find_elements", "inspect_elements", "get_layout_metrics",
                 "get_history", "suggest_edits", "render_preview"}
    for tool in listing:
        ann = tool["annotations"]
        assert tool["title"] and ann["title"] == tool["title"], tool["name"]
        assert "\n" not in tool["description"].strip() and len(tool["description"]) < 160, tool["name"]
        assert ann["openWorldHint"] is False, tool["name"]
        assert ann["readOnlyHint"] is (tool["name"] in read_only), tool["name"]
        if tool["name"] in ("export_document", "save_document", "close_document"):
            assert ann["destructiveHint"] is True, tool["name"]


def without_titles(node: Any) -> Any:
    """A schema without its ``title`` annotations (fastmcp drops them from tool schemas)."""
    if isinstance(node, dict):
        return {k: without_titles(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [without_titles(v) for v in node]
    return node


async def test_apply_edits_schema_is_the_action_schema(tmp_path: Path) -> None:
    from assistant.actions import action_json_schema

    tools = {t["name"]: t for t in (await tool_listing(tmp_path))[:-1]}
    items = tools["apply_edits"]["input_schema"]["properties"]["edits"]["items"]
    assert without_titles(items) == without_titles(action_json_schema())
