"""Each shared service has one implementation, and every front end gets the same behaviour from it.

- briefs (``assistant.instructions.brief.compile_brief``): ``fix``/``score --instruction``, the MCP
  ``set_instruction`` and ``suggest_edits``, the environment;
- output formats (``assistant.app.formats``): a format registered once works in ``export``,
  ``fix --formats``, the chat's ``export`` and the MCP ``export_document``;
- dry runs and revision checks (``Session.trial`` / ``Session.check_revision``): the session and MCP;
- trying an edit and scoring it (``assistant.actions.trial``): the document is left byte for byte as
  it was, whatever the action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from mcp_support import POSTER_SVG, data, error_text, make_workspace
from typer.testing import CliRunner

from assistant.actions import ACTION_TYPES
from assistant.actions.trial import attempt, simulate
from assistant.app import formats
from assistant.app.chat import ChatAssistant
from assistant.app.session import Session
from assistant.cli import app
from assistant.env import LayoutEnv
from assistant.errors import InvalidAction, SessionError
from assistant.importer import import_svg, import_svg_text
from assistant.instructions import KeepConstraint
from assistant.instructions.brief import compile_brief
from assistant.metrics import evaluate
from assistant.svg.write import export_svg
from mcp_server.server import build_server

runner = CliRunner()


def cli(*args: Any) -> Any:
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A format registered in a test is forgotten after it."""
    monkeypatch.setattr(formats, "_REGISTRY", dict(formats._REGISTRY))


def _ids_exporter(doc: Any, **_: Any) -> bytes:
    return "\n".join(e.id for e in doc.layout.elements).encode()


async def _call(client: Client, tool: str, **args: Any) -> Any:
    return data(await client.call_tool(tool, args))


# -- briefs -------------------------------------------------------------------

def test_a_keep_brief_records_where_the_element_is_now() -> None:
    doc = import_svg_text(POSTER_SVG)
    brief = compile_brief("keep the logo where it is", doc.layout)
    (keep,) = [c for c in brief.constraints if isinstance(c, KeepConstraint)]
    assert brief.keep_ids == ["logo"] and keep.box == doc.layout.get("logo").box
    assert not brief.not_understood and brief


def test_an_empty_brief_is_empty_and_json_constraints_join_the_words() -> None:
    doc = import_svg_text(POSTER_SVG)
    assert not compile_brief(None, doc.layout) and not compile_brief("  ", doc.layout).constraints
    both = compile_brief("logo top right", doc.layout, constraints=[{"type": "keep", "id": "photo"}])
    assert both.keep_ids == ["photo"] and len(both.constraints) == 2


@pytest.mark.anyio
async def test_mcp_keep_brief_notices_when_the_kept_element_moves(tmp_path: Path) -> None:
    """set_instruction compiles the brief against the document: a keep has a box to hold."""
    async with Client(build_server(make_workspace(tmp_path / "ws"))) as client:
        doc_id = (await _call(client, "open_document", path="poster.svg"))["doc_id"]
        echo = await _call(client, "set_instruction", doc_id=doc_id, brief="keep the logo where it is")
        assert echo["instruction_fit"] == 1.0 and echo["constraints"][0]["box"] is not None
        await _call(client, "apply_edits", doc_id=doc_id,
                    edits=[{"type": "move", "ids": ["logo"], "dx": -300, "dy": 0}])
        metrics = await _call(client, "get_layout_metrics", doc_id=doc_id)
        assert metrics["metrics"]["instruction_fit"] < 0.9


def test_cli_fix_and_score_hold_a_keep_brief(tmp_path: Path) -> None:
    src = tmp_path / "poster.svg"
    src.write_text(POSTER_SVG, encoding="utf-8")
    res = cli("fix", src, "--out", tmp_path / "out", "--instruction", "keep the body where it is",
              "--json", tmp_path / "s.json", "--max-steps", "6", "--jobs", "1")
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "s.json").read_text())["files"][0]
    assert "body" not in summary["changes"] and summary["not_understood"] == []
    scored = cli("score", src, "--instruction", "keep the body where it is", "--json")
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.output)["files"][0]["metrics"]["instruction_fit"]["score"] == 1.0


def test_the_environment_compiles_a_document_brief_the_same_way() -> None:
    doc = import_svg_text(POSTER_SVG)
    env = LayoutEnv(max_steps=2)
    env.reset(seed=0, options={"document": doc.copy(), "instruction": "keep the logo where it is"})
    assert env.constraints == compile_brief("keep the logo where it is", doc.layout).constraints


# -- output formats -----------------------------------------------------------

def test_a_registered_format_works_in_every_front_end(registry: None, tmp_path: Path) -> None:
    formats.register_exporter("ids", _ids_exporter, suffixes=(".ids",))
    src = tmp_path / "poster.svg"
    src.write_text(POSTER_SVG, encoding="utf-8")
    expected = _ids_exporter(import_svg(src))
    assert cli("export", src, "--out", tmp_path / "a.ids").exit_code == 0
    assert (tmp_path / "a.ids").read_bytes() == expected
    res = cli("fix", src, "--out", tmp_path / "fixed", "--formats", "ids", "--max-steps", "0", "--jobs", "1")
    assert res.exit_code == 0 and (tmp_path / "fixed" / "poster.ids").read_bytes() == expected
    chat = ChatAssistant(import_svg(src), model=None, out_dir=tmp_path / "chat", input_path=src, preview=False)
    assert chat.handle("export ids").files == [str(tmp_path / "chat" / "poster.ids")]


@pytest.mark.anyio
async def test_a_registered_format_is_offered_and_written_by_mcp(registry: None, tmp_path: Path) -> None:
    formats.register_exporter("ids", _ids_exporter, suffixes=(".ids",))
    async with Client(build_server(make_workspace(tmp_path / "ws"))) as client:
        tools = {t.name: t for t in await client.list_tools()}
        assert "ids" in json.dumps(tools["export_document"].input_schema["properties"]["format"])
        doc_id = (await _call(client, "open_document", path="poster.svg"))["doc_id"]
        out = await _call(client, "export_document", doc_id=doc_id, path="poster.ids")
        assert out["format"] == "ids" and (tmp_path / "ws" / "poster.ids").read_bytes().startswith(b"bg\n")


def test_an_option_a_format_does_not_take_is_named() -> None:
    from assistant.errors import ExportError

    doc = import_svg_text(POSTER_SVG)
    with pytest.raises(ExportError, match="'svg' does not take the option.*width"):
        formats.export(doc, "svg", width=100)
    assert formats.export(doc, "svg", width=None) == export_svg(doc)


# -- dry runs and revision checks -------------------------------------------------

def test_a_session_dry_run_shows_the_edit_and_leaves_nothing_behind() -> None:
    session = Session(import_svg_text(POSTER_SVG))
    before = export_svg(session.document)
    with session.trial([{"type": "move", "ids": ["logo"], "dx": -40, "dy": 0}]) as result:
        assert result.dry_run and result.changed_ids[0] == "logo"
        assert session.document.layout.get("logo").box.x < 640
    assert export_svg(session.document) == before and session.revision == 0 and not session.history
    assert session.apply({"type": "move", "ids": ["logo"], "dx": -40, "dy": 0}, dry_run=True).dry_run


def test_session_and_mcp_refuse_a_stale_revision_the_same_way() -> None:
    session = Session(import_svg_text(POSTER_SVG))
    session.apply({"type": "move", "ids": ["logo"], "dx": -4, "dy": 0})
    for use in (lambda: session.check_revision(0), lambda: session.apply({"type": "finalize"}, expected_revision=0),
                lambda: session.trial({"type": "finalize"}, expected_revision=0).__enter__()):
        with pytest.raises(SessionError, match="stale revision: expected 0, .* at revision 1"):
            use()


@pytest.mark.anyio
async def test_mcp_dry_run_and_stale_revision(tmp_path: Path) -> None:
    async with Client(build_server(make_workspace(tmp_path / "ws"))) as client:
        doc_id = (await _call(client, "open_document", path="poster.svg"))["doc_id"]
        edit = [{"type": "move", "ids": ["logo"], "dx": -40, "dy": 0}]
        dry = await _call(client, "apply_edits", doc_id=doc_id, edits=edit, dry_run=True)
        assert not dry["applied"] and dry["revision"] == 0 and dry["edits"][0]["boxes"]["logo"]["x"] == 600
        assert (await _call(client, "get_outline", doc_id=doc_id))["revision"] == 0
        await _call(client, "apply_edits", doc_id=doc_id, edits=edit)
        stale = await client.call_tool("apply_edits", {"doc_id": doc_id, "edits": edit, "expected_revision": 0},
                                       raise_on_error=False)
        assert "stale revision: expected 0" in error_text(stale)


# -- trying an edit -----------------------------------------------------------

ACTIONS = [
    {"type": "move", "ids": ["title"], "dx": 12, "dy": -8},
    {"type": "resize", "id": "photo", "scale": 1.1},
    {"type": "align", "ids": ["title", "subtitle"], "edge": "left"},
    {"type": "distribute", "ids": ["title", "subtitle", "photo"], "axis": "vertical"},
    {"type": "snap_to_grid", "ids": ["body"]},
    {"type": "reflow_text", "id": "body", "width": 200},
    {"type": "reflow_group", "ids": ["title", "subtitle"], "axis": "vertical", "gap": 12},
    {"type": "promote", "id": "subtitle"},
    {"type": "demote", "id": "title"},
    {"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"},
    {"type": "reorder", "id": "caption", "to": "front"},
    {"type": "apply_template", "template": "title-left"},
    {"type": "set_text_style", "ids": ["cta"], "font_weight": 400},
    {"type": "set_paint", "ids": ["photo"], "opacity": 0.5},
    {"type": "match_size", "dimension": "width", "ids": ["subtitle"], "target_id": "title"},
    {"type": "set_gap", "gap": 10, "id": "subtitle", "target_id": "title"},
    {"type": "swap", "ids": ["title", "subtitle"]},
    {"type": "set_locked", "ids": ["logo"]},
]


def test_every_action_type_is_tried_here() -> None:
    assert {a["type"] for a in ACTIONS} | {"finalize"} == set(ACTION_TYPES)


@pytest.mark.parametrize("action", ACTIONS, ids=[a["type"] for a in ACTIONS])
def test_simulate_scores_the_edit_and_leaves_the_document_as_it_was(action: dict[str, Any]) -> None:
    doc = import_svg_text(POSTER_SVG)
    before_svg, before_layout = export_svg(doc), doc.layout.model_dump()
    trial = simulate(doc, action)
    assert export_svg(doc) == before_svg and doc.layout.model_dump() == before_layout
    with attempt(doc, action) as kept:
        kept.keep()
    assert evaluate(doc.layout).composite == pytest.approx(trial.report.composite)
    assert set(trial.changed_ids) == set(kept.changed_ids)


def test_an_action_that_does_not_fit_raises_and_changes_nothing() -> None:
    doc = import_svg_text(POSTER_SVG)
    before = export_svg(doc)
    with pytest.raises(InvalidAction, match="nope"):
        simulate(doc, [{"type": "move", "ids": ["title"], "dx": 5, "dy": 0},
                       {"type": "move", "ids": ["nope"], "dx": 5, "dy": 0}])
    assert export_svg(doc) == before
