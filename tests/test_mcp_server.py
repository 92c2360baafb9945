"""The MCP tools in memory (``fastmcp.Client``): each tool's happy path and its errors.

Errors must come back as ``isError`` results whose text tells the model what
to do next (which ids are open, which revision is current, which edit is
invalid and why, which paths are allowed).
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from mcp_support import data, error_text, make_workspace

from mcp_server.server import build_server

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws")


@pytest.fixture
async def client(workspace: Path):
    async with Client(build_server(workspace)) as c:
        yield c


async def call(client: Client, tool: str, **args: Any) -> Any:
    return data(await client.call_tool(tool, args))


async def fail(client: Client, tool: str, **args: Any) -> str:
    return error_text(await client.call_tool(tool, args, raise_on_error=False))


async def opened(client: Client) -> dict[str, Any]:
    return await call(client, "open_document", path="poster.svg")


async def box(client: Client, doc_id: str, element_id: str) -> dict[str, float]:
    return (await call(client, "inspect_elements", doc_id=doc_id, ids=[element_id]))["elements"][0]["box"]


# -- documents ----------------------------------------------------------------

async def test_open_document_from_workspace_path(client: Client) -> None:
    doc = await opened(client)
    assert doc["revision"] == 0 and doc["source"] == "poster.svg"
    assert doc["canvas"]["width"] == 800 and doc["canvas"]["height"] == 600
    assert {"title", "photo", "logo"} <= {item["id"] for item in doc["outline"]}
    assert doc["element_count"] >= 8


async def test_open_document_from_svg_text(client: Client) -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">'
           '<rect id="r" x="1" y="2" width="30" height="20"/></svg>')
    doc = await call(client, "open_document", svg=svg)
    assert doc["source"] == "<text>" and doc["canvas"]["width"] == 100
    assert [i["id"] for i in doc["outline"]] == ["r"]


async def test_open_document_needs_exactly_one_source(client: Client) -> None:
    assert "exactly one of path" in await fail(client, "open_document")


async def test_open_document_outside_workspace_is_refused(client: Client) -> None:
    assert "outside the workspace" in await fail(client, "open_document", path="../secret.svg")


async def test_open_document_symlink_out_of_workspace_is_refused(client: Client, workspace: Path) -> None:
    outside = workspace.parent / "outside.svg"
    outside.write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    os.symlink(outside, workspace / "link.svg")
    assert "outside the workspace" in await fail(client, "open_document", path="link.svg")


async def test_open_document_bad_svg_names_the_problem(client: Client, workspace: Path) -> None:
    (workspace / "broken.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><rect></svg>")
    message = await fail(client, "open_document", path="broken.svg")
    assert "broken.svg" in message


async def test_list_documents_shows_open_documents_and_workspace_files(client: Client) -> None:
    doc = await opened(client)
    listing = await call(client, "list_documents")
    assert [d["doc_id"] for d in listing["documents"]] == [doc["doc_id"]]
    assert listing["workspace_svgs"] == ["poster.svg"]


async def test_close_document_forgets_it(client: Client) -> None:
    doc = await opened(client)
    closed = await call(client, "close_document", doc_id=doc["doc_id"])
    assert closed == {"closed": doc["doc_id"], "still_open": []}
    assert "no open document" in await fail(client, "get_outline", doc_id=doc["doc_id"])


async def test_unknown_doc_id_lists_the_open_ones(client: Client) -> None:
    doc = await opened(client)
    message = await fail(client, "get_layout_metrics", doc_id="nope-9")
    assert "'nope-9'" in message and doc["doc_id"] in message


# -- reading ------------------------------------------------------------------

async def test_get_outline_pages_cover_every_item_once(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    seen, cursor, total = [], None, None
    while True:
        page = await call(client, "get_outline", doc_id=doc_id, depth=5, limit=3, cursor=cursor)
        seen += [i["id"] for i in page["items"]]
        total, cursor = page["total"], page["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == total
    assert {"cta-shape", "cta", "title"} <= set(seen)


async def test_get_outline_depth_zero_lists_top_level_only(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    page = await call(client, "get_outline", doc_id=doc_id)
    ids = {i["id"] for i in page["items"]}
    assert "title" in ids and "cta" not in ids
    group = next(i for i in page["items"] if i["children"])
    inner = await call(client, "get_outline", doc_id=doc_id, parent_id=group["id"])
    assert {i["id"] for i in inner["items"]} == {"cta-shape", "cta"}


async def test_get_outline_refuses_a_cursor_from_an_older_revision(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    page = await call(client, "get_outline", doc_id=doc_id, limit=2)
    await call(client, "move_elements", doc_id=doc_id, ids=["date"], dx=5)
    assert "revision" in await fail(client, "get_outline", doc_id=doc_id, limit=2, cursor=page["next_cursor"])


async def test_find_elements_by_role_text_and_region(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    by_role = await call(client, "find_elements", doc_id=doc_id, role="title")
    assert [e["id"] for e in by_role["elements"]] == ["title"]
    by_text = await call(client, "find_elements", doc_id=doc_id, text_contains="TICKETS")
    assert [e["id"] for e in by_text["elements"]] == ["cta"]
    region = {"x": 600, "y": 480, "width": 200, "height": 120}
    in_region = await call(client, "find_elements", doc_id=doc_id, region=region)
    assert "logo" in {e["id"] for e in in_region["elements"]}
    assert "title" not in {e["id"] for e in in_region["elements"]}


async def test_find_elements_movable_only_skips_the_background(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    everything = await call(client, "find_elements", doc_id=doc_id)
    movable = await call(client, "find_elements", doc_id=doc_id, movable_only=True)
    assert "bg" in {e["id"] for e in everything["elements"]}
    assert "bg" not in {e["id"] for e in movable["elements"]} and movable["total"] == everything["total"] - 1


async def test_inspect_elements_returns_full_properties(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    title = (await call(client, "inspect_elements", doc_id=doc_id, ids=["title"]))["elements"][0]
    assert title["role"] == "title" and title["kind"] == "text"
    assert title["text"] == "Summer Design Fair" and title["font_size"] == pytest.approx(56)


async def test_inspect_unknown_element_names_it(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    assert "'ghost'" in await fail(client, "inspect_elements", doc_id=doc_id, ids=["ghost"])


async def test_get_layout_metrics_scores_and_findings(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    m = await call(client, "get_layout_metrics", doc_id=doc_id)
    assert 0.0 <= m["composite"] <= 1.0
    assert {"overlap", "alignment", "margins", "hierarchy"} <= set(m["metrics"])
    assert m["findings"] and all(f["element_ids"] for f in m["findings"])
    assert any(f["suggestion"] and "type" in f["suggestion"] for f in m["findings"])


async def test_get_layout_metrics_subset_of_checks(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    m = await call(client, "get_layout_metrics", doc_id=doc_id, checks=["overlap", "margins"])
    assert set(m["metrics"]) == {"overlap", "margins"}


async def test_get_layout_metrics_unknown_check_lists_the_known_ones(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    message = await fail(client, "get_layout_metrics", doc_id=doc_id, checks=["beauty"])
    assert "beauty" in message and "overlap" in message


async def test_get_layout_metrics_scope_keeps_findings_about_those_ids(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    m = await call(client, "get_layout_metrics", doc_id=doc_id, scope=["caption"])
    assert all("caption" in f["element_ids"] for f in m["findings"])


# -- editing ------------------------------------------------------------------

async def test_apply_edits_moves_and_reports_boxes_and_delta(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    before = await box(client, doc_id, "body")
    out = await call(client, "apply_edits", doc_id=doc_id, expected_revision=0,
                     edits=[{"type": "move", "ids": ["body"], "dx": -10, "dy": 5}])
    assert out["revision"] == 1 and out["applied"] is True
    assert out["edits"][0]["changed_ids"] == ["body"]
    moved = out["edits"][0]["boxes"]["body"]
    assert moved["x"] == pytest.approx(before["x"] - 10) and moved["y"] == pytest.approx(before["y"] + 5)
    assert await box(client, doc_id, "body") == moved
    assert isinstance(out["metric_delta"], dict)


async def test_apply_edits_stale_revision_names_the_current_one(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    await call(client, "move_elements", doc_id=doc_id, ids=["date"], dx=3)
    message = await fail(client, "apply_edits", doc_id=doc_id, expected_revision=0,
                         edits=[{"type": "move", "ids": ["date"], "dx": 1}])
    assert "stale" in message and "revision 1" in message


async def test_apply_edits_invalid_action_says_which_and_why(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    message = await fail(client, "apply_edits", doc_id=doc_id,
                         edits=[{"type": "move", "ids": ["date"], "dx": 1}, {"type": "teleport", "ids": ["date"]}])
    assert "action 1" in message and "teleport" in message and "move" in message


async def test_apply_edits_is_atomic(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    before = await box(client, doc_id, "date")
    message = await fail(client, "apply_edits", doc_id=doc_id,
                         edits=[{"type": "move", "ids": ["date"], "dx": 20},
                                {"type": "move", "ids": ["ghost"], "dx": 1}])
    assert "ghost" in message
    assert await box(client, doc_id, "date") == before
    assert (await call(client, "get_history", doc_id=doc_id))["revision"] == 0


async def test_apply_edits_dry_run_changes_nothing(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    before = await box(client, doc_id, "caption")
    out = await call(client, "apply_edits", doc_id=doc_id, dry_run=True,
                     edits=[{"type": "move", "ids": ["caption"], "dx": 0, "dy": 40}])
    assert out["applied"] is False and out["revision"] == 0
    assert out["edits"][0]["boxes"]["caption"]["y"] == pytest.approx(before["y"] + 40)
    assert await box(client, doc_id, "caption") == before


async def test_apply_edits_restacks_behind_another_element(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    out = await call(client, "apply_edits", doc_id=doc_id,
                     edits=[{"type": "reorder", "id": "date", "to": "back", "target_id": "photo"}])
    assert out["applied"] is True
    z = {e["id"]: e["z"] for e in (await call(client, "inspect_elements", doc_id=doc_id,
                                               ids=["bg", "subtitle", "photo", "date"]))["elements"]}
    assert z["bg"] < z["subtitle"] < z["date"] < z["photo"]  # just behind the photo, not behind everything
    message = await fail(client, "apply_edits", doc_id=doc_id,
                         edits=[{"type": "reorder", "id": "date", "to": "forward", "target_id": "photo"}])
    assert "target_id" in message and "front" in message


async def test_apply_edits_paints_a_logo_and_refuses_an_outline_it_does_not_have(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    out = await call(client, "apply_edits", doc_id=doc_id,
                     edits=[{"type": "set_paint", "ids": ["logo"], "fill": "#222222", "opacity": 0.8}])
    assert out["applied"] is True
    logo = (await call(client, "inspect_elements", doc_id=doc_id, ids=["logo"]))["elements"][0]
    assert logo["fill"] == "#222222" and logo["opacity"] == pytest.approx(0.8)
    message = await fail(client, "apply_edits", doc_id=doc_id,
                         edits=[{"type": "set_paint", "ids": ["photo"], "stroke_scale": 0.5}])
    assert "photo" in message and "no outline" in message


async def test_apply_edits_empty_batch_is_refused(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    assert "at least one" in await fail(client, "apply_edits", doc_id=doc_id, edits=[])


async def test_align_elements_lines_up_left_edges(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    out = await call(client, "align_elements", doc_id=doc_id, ids=["title", "subtitle"], edge="left")
    boxes = out["edits"][0]["boxes"]
    left = {k: v["x"] for k, v in boxes.items()}
    assert left and len({round(x, 6) for x in left.values()}) == 1
    t, s = await box(client, doc_id, "title"), await box(client, doc_id, "subtitle")
    assert t["x"] == pytest.approx(s["x"])


async def test_distribute_elements_equalises_gaps(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    await call(client, "distribute_elements", doc_id=doc_id, ids=["title", "subtitle", "photo"], axis="vertical")
    t, s, p = [await box(client, doc_id, i) for i in ("title", "subtitle", "photo")]
    assert s["y"] - (t["y"] + t["height"]) == pytest.approx(p["y"] - (s["y"] + s["height"]), abs=1e-6)


async def test_align_to_element_without_target_is_an_invalid_action(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    assert "target_id" in await fail(client, "align_elements", doc_id=doc_id, ids=["date"], edge="left", to="element")


async def test_undo_and_redo_one_edit_call(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    before = await box(client, doc_id, "date")
    await call(client, "apply_edits", doc_id=doc_id, edits=[
        {"type": "move", "ids": ["date"], "dx": 15}, {"type": "move", "ids": ["body"], "dy": 10}])
    undone = await call(client, "undo", doc_id=doc_id)
    assert set(undone["changed_ids"]) >= {"date", "body"} and undone["can_redo"] is True
    assert await box(client, doc_id, "date") == before
    redone = await call(client, "redo", doc_id=doc_id)
    assert redone["boxes"]["date"]["x"] == pytest.approx(before["x"] + 15)


async def test_undo_with_nothing_to_undo_is_an_error(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    assert "undo" in (await fail(client, "undo", doc_id=doc_id)).lower()


async def test_get_history_has_one_entry_per_edit_call(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    await call(client, "apply_edits", doc_id=doc_id, edits=[
        {"type": "move", "ids": ["date"], "dx": 1}, {"type": "move", "ids": ["subtitle"], "dx": 1}])
    await call(client, "move_elements", doc_id=doc_id, ids=["caption"], dy=2)
    history = await call(client, "get_history", doc_id=doc_id)
    assert [e["kind"] for e in history["entries"]] == ["edit", "edit"]
    assert history["undoable"] == 2 and history["redoable"] == 0
    assert [e["type"] for e in history["entries"][0]["edits"]] == ["move", "move"]


# -- planning -----------------------------------------------------------------

async def test_set_instruction_echoes_understood_and_not_understood(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    echo = await call(client, "set_instruction", doc_id=doc_id,
                      brief="Put the logo top-right. Make it feel like jazz.")
    assert echo["understood"] and echo["constraints"]
    assert any("jazz" in s for s in echo["not_understood"])
    assert echo["instruction_fit"] is not None
    m = await call(client, "get_layout_metrics", doc_id=doc_id)
    assert m["metrics"]["instruction_fit"] == pytest.approx(echo["instruction_fit"], abs=1e-3)


async def test_set_instruction_with_an_empty_brief_clears_it(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    await call(client, "set_instruction", doc_id=doc_id, brief="Put the logo top-left.")
    cleared = await call(client, "set_instruction", doc_id=doc_id, brief="  ")
    assert cleared["constraints"] == [] and cleared["instruction_fit"] is None
    listing = await call(client, "list_documents")
    assert listing["documents"][0]["instruction"] is None


async def test_suggest_edits_ranks_without_applying(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    out = await call(client, "suggest_edits", doc_id=doc_id, max_suggestions=3)
    gains = [s["predicted_gain"] for s in out["suggestions"]]
    assert 1 <= len(gains) <= 3 and gains == sorted(gains, reverse=True)
    assert out["revision"] == 0 and (await call(client, "get_history", doc_id=doc_id))["entries"] == []


async def test_suggest_edits_gain_matches_applying_the_edit(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    best = (await call(client, "suggest_edits", doc_id=doc_id, max_suggestions=1))["suggestions"][0]
    out = await call(client, "apply_edits", doc_id=doc_id, edits=[best["edit"]])
    assert out["composite_after"] - out["composite_before"] == pytest.approx(best["predicted_gain"], abs=2e-3)


async def test_improve_layout_reports_progress_and_is_one_undo_step(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    progress: list[float] = []

    async def on_progress(p: float, total: float | None, message: str | None) -> None:
        progress.append(p)

    result = await client.call_tool("improve_layout", {"doc_id": doc_id, "max_steps": 3},
                                    progress_handler=on_progress)
    out = data(result)
    assert out["composite_after"] >= out["composite_before"]
    assert progress and progress[-1] == 3
    assert all(a < b for a, b in zip(progress, progress[1:]))
    if out["applied"]:
        assert out["revision"] == 1 and len(out["steps"]) <= 3
        await call(client, "undo", doc_id=doc_id)
        m = await call(client, "get_layout_metrics", doc_id=doc_id)
        assert m["composite"] == pytest.approx(out["composite_before"], abs=1e-4)


async def test_local_engine_suggests_and_improves_with_the_bundled_model(client: Client) -> None:
    """``engine="local"`` / ``planner="local"``: the bundled GGUF through llama.cpp, never the heuristic."""
    pytest.importorskip("llama_cpp")
    doc_id = (await opened(client))["doc_id"]
    out = await call(client, "suggest_edits", doc_id=doc_id, engine="local", max_suggestions=2)
    assert out["engine"] == "local" and out["revision"] == 0
    for s in out["suggestions"]:
        assert s["edit"]["type"] and s["predicted_gain"] > 0
    result = await call(client, "improve_layout", doc_id=doc_id, planner="local", max_steps=2)
    assert result["composite_after"] >= result["composite_before"]


async def test_improve_layout_unknown_planner_lists_known_ones(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    assert "heuristic" in await fail(client, "improve_layout", doc_id=doc_id, planner="oracle")


# -- output -------------------------------------------------------------------

async def test_render_preview_returns_a_png_under_1mb(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    result = await client.call_tool("render_preview", {"doc_id": doc_id, "max_size": 512,
                                                       "overlays": ["boxes", "margins", "findings"]})
    image = next(c for c in result.content if c.type == "image")
    png = base64.b64decode(image.data)
    assert image.mime_type == "image/png" and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < 1_000_000
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert max(width, height) <= 512


async def test_render_preview_crops_to_the_given_elements(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    result = await client.call_tool("render_preview", {"doc_id": doc_id, "ids": ["logo"], "max_size": 400})
    caption = next(c.text for c in result.content if c.type == "text")
    png = base64.b64decode(next(c for c in result.content if c.type == "image").data)
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width == 400 and height < 300  # the logo is wide: 130 x 50 plus a margin
    assert "world box x=616.0 y=476.0" in caption


async def test_render_preview_size_is_capped(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    assert "1568" in await fail(client, "render_preview", doc_id=doc_id, max_size=4000)


async def test_export_document_writes_files_with_their_hash(client: Client, workspace: Path) -> None:
    import hashlib

    doc_id = (await opened(client))["doc_id"]
    for fmt in ("svg", "png", "pdf"):
        out = await call(client, "export_document", doc_id=doc_id, path=f"out.{fmt}")
        written = (workspace / f"out.{fmt}").read_bytes()
        assert out["format"] == fmt and out["bytes"] == len(written)
        assert out["sha256"] == hashlib.sha256(written).hexdigest()


async def test_export_document_never_overwrites_unless_asked(client: Client, workspace: Path) -> None:
    doc_id = (await opened(client))["doc_id"]
    (workspace / "keep.svg").write_text("precious")
    assert "overwrite=true" in await fail(client, "export_document", doc_id=doc_id, path="keep.svg")
    assert (workspace / "keep.svg").read_text() == "precious"
    await call(client, "export_document", doc_id=doc_id, path="keep.svg", overwrite=True)
    assert (workspace / "keep.svg").read_text().startswith("<")


async def test_export_document_outside_workspace_is_refused(client: Client, workspace: Path) -> None:
    doc_id = (await opened(client))["doc_id"]
    assert "outside the workspace" in await fail(client, "export_document", doc_id=doc_id, path="../x.svg")
    assert not (workspace.parent / "x.svg").exists()


async def test_save_document_in_place_keeps_a_backup(client: Client, workspace: Path) -> None:
    doc_id = (await opened(client))["doc_id"]
    original = (workspace / "poster.svg").read_bytes()
    await call(client, "move_elements", doc_id=doc_id, ids=["date"], dx=7)
    assert "overwrite=true" in await fail(client, "save_document", doc_id=doc_id)
    saved = await call(client, "save_document", doc_id=doc_id, overwrite=True)
    assert saved["path"] == "poster.svg"
    assert (workspace / "poster.svg.bak").read_bytes() == original
    assert (workspace / "poster.svg").read_bytes() != original


async def test_save_document_from_text_needs_a_path(client: Client) -> None:
    doc = await call(client, "open_document", svg='<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>')
    assert "pass a path" in await fail(client, "save_document", doc_id=doc["doc_id"])


# -- resources, prompts, instructions -------------------------------------------

async def test_resources_mirror_the_state(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    docs = await client.read_resource("layout://documents")
    assert doc_id in docs[0].text
    svg = await client.read_resource(f"layout://{doc_id}/svg")
    assert svg[0].text.lstrip().startswith("<")
    metrics = await client.read_resource(f"layout://{doc_id}/metrics")
    assert '"composite"' in metrics[0].text
    preview = await client.read_resource(f"layout://{doc_id}/preview.png")
    assert base64.b64decode(preview[0].blob)[:4] == b"\x89PNG"


async def test_resource_of_an_unknown_document_names_the_open_ones(client: Client) -> None:
    doc_id = (await opened(client))["doc_id"]
    with pytest.raises(Exception, match=f"no open document 'nope-1'; open documents: {doc_id}"):
        await client.read_resource("layout://nope-1/metrics")


async def test_resource_templates_are_listed(client: Client) -> None:
    templates = {t.uri_template for t in await client.list_resource_templates()}
    assert {"layout://{doc_id}/svg", "layout://{doc_id}/metrics", "layout://{doc_id}/preview.png"} <= templates


async def test_prompts_walk_the_loop(client: Client) -> None:
    names = {p.name for p in await client.list_prompts()}
    assert names == {"polish_layout", "fix_hierarchy", "prepare_for_print"}
    prompt = await client.get_prompt("prepare_for_print", {"doc_id": "poster-1"})
    text = prompt.messages[0].content.text
    for step in ("get_outline", "get_layout_metrics", "apply_edits", "render_preview", "export_document"):
        assert step in text


async def test_server_instructions_are_short_and_say_the_rules(client: Client) -> None:
    text = client.instructions
    assert len(text.encode()) < 2048
    assert "expected_revision" in text and "batch" in text.lower() and "metrics" in text.lower()
