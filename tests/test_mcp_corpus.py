"""Every real OSGeo flyer through the MCP tools: open, outline, metrics, a preview under 1 MB.

Slow (the previews render ten A4 flyers with cairo): run with ``-m slow``.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest
from conftest import osgeo_files
from fastmcp import Client
from mcp_support import data

from mcp_server.server import build_server

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("flyer", osgeo_files(), ids=lambda p: p.name)
async def test_flyer_opens_scores_and_previews(flyer: Path, tmp_path: Path) -> None:
    shutil.copy(flyer, tmp_path / flyer.name)
    async with Client(build_server(tmp_path)) as client:
        doc = data(await client.call_tool("open_document", {"path": flyer.name}))
        assert doc["element_count"] > 0 and doc["outline"]
        page = data(await client.call_tool("get_outline", {"doc_id": doc["doc_id"], "depth": 32, "limit": 500}))
        assert page["total"] == doc["element_count"]
        metrics = data(await client.call_tool("get_layout_metrics", {"doc_id": doc["doc_id"]}))
        assert 0.0 <= metrics["composite"] <= 1.0
        known = {i["id"] for i in page["items"]}
        assert all(set(f["element_ids"]) <= known for f in metrics["findings"])
        preview = await client.call_tool("render_preview", {"doc_id": doc["doc_id"], "max_size": 1568,
                                                            "overlays": ["boxes", "findings"]})
        png = base64.b64decode(next(c for c in preview.content if c.type == "image").data)
        assert png[:4] == b"\x89PNG" and len(png) < 1_000_000
