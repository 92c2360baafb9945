"""Writing outputs safely (``assistant.app.outputs``), through every front end that writes.

An output never replaces an input unless asked (``--in-place``, ``save --force``,
``save_document``), and then a backup is kept under a name that is not taken, so the
original survives any number of runs. A stopped batch leaves complete files and no
worker behind.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastmcp import Client
from mcp_support import data, make_workspace
from typer.testing import CliRunner

from assistant.app.chat import ChatAssistant
from assistant.app.outputs import keep_backup, replace_input, write_output
from assistant.cli import app
from assistant.errors import ExportError
from assistant.importer import import_svg
from mcp_server.server import build_server

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def cli(*args: object) -> object:
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# -- the service ------------------------------------------------------------------

def test_an_output_never_replaces_an_input(tmp_path: Path) -> None:
    src = tmp_path / "in.svg"
    src.write_bytes(b"original")
    os.symlink(src, tmp_path / "alias.svg")
    for target in (src, tmp_path / "alias.svg", tmp_path / "." / "in.svg"):
        with pytest.raises(ExportError, match="refusing to overwrite the input file"):
            write_output(target, b"new", inputs=[src], overwrite=True)
    assert src.read_bytes() == b"original"


def test_an_existing_output_needs_overwrite_and_the_message_says_how(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "er" / "out.png"
    assert write_output(out, b"1") == out and out.read_bytes() == b"1"  # the folders are created
    with pytest.raises(ExportError, match=r"plot\.png: already exists \(pass overwrite=true"):
        write_output(out, b"2", label="plot.png", overwrite_hint="pass overwrite=true to replace it")
    write_output(out, b"2", overwrite=True)
    assert out.read_bytes() == b"2"
    with pytest.raises(ExportError, match="is a folder"):
        write_output(tmp_path / "deep", b"x", overwrite=True)


def test_backups_are_never_overwritten(tmp_path: Path) -> None:
    f = tmp_path / "a.svg"
    f.write_bytes(b"v1")
    assert keep_backup(f).name == "a.svg.bak"
    f.write_bytes(b"v2")
    assert keep_backup(f).name == "a.svg.bak.2"
    assert (tmp_path / "a.svg.bak").read_bytes() == b"v1" and (tmp_path / "a.svg.bak.2").read_bytes() == b"v2"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_backup_name_taken_by_a_link_is_skipped_and_the_link_left_alone(tmp_path: Path) -> None:
    f, elsewhere = tmp_path / "a.svg", tmp_path / "elsewhere.txt"
    f.write_bytes(b"original")
    elsewhere.write_bytes(b"not mine")
    os.symlink(elsewhere, tmp_path / "a.svg.bak")
    os.symlink(tmp_path / "gone", tmp_path / "a.svg.bak.2")  # dangling
    backup = replace_input(f, b"fixed")
    assert backup.name == "a.svg.bak.3" and backup.read_bytes() == b"original"
    assert elsewhere.read_bytes() == b"not mine" and f.read_bytes() == b"fixed"


# -- fix --------------------------------------------------------------------------

def _copy(tmp_path: Path, *names: str) -> Path:
    d = tmp_path / "in"
    d.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(EXAMPLES / name, d / name)
    return d


def test_fix_into_the_inputs_own_folder_refuses_that_file(tmp_path: Path) -> None:
    d = _copy(tmp_path, "poster.svg")
    before = (d / "poster.svg").read_bytes()
    res = cli("fix", d / "poster.svg", "--out", d, "--max-steps", "1", "--jobs", "1")
    assert res.exit_code == 1 and "would replace an input file" in res.output
    assert (d / "poster.svg").read_bytes() == before and sorted(p.name for p in d.iterdir()) == ["poster.svg"]


def test_fix_in_place_twice_keeps_the_original(tmp_path: Path) -> None:
    d = _copy(tmp_path, "slide.svg")
    original = (d / "slide.svg").read_bytes()
    for _ in range(2):
        assert cli("fix", d / "slide.svg", "--in-place", "--max-steps", "2", "--jobs", "1").exit_code == 0
    assert (d / "slide.svg.bak").read_bytes() == original
    assert (d / "slide.svg.bak.2").is_file() and (d / "slide.svg.bak.2").read_bytes() != original


def test_name_deduplication_never_overwrites(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    shutil.copy(EXAMPLES / "flyer.svg", a / "flyer.svg")
    shutil.copy(EXAMPLES / "flyer.svg", b / "flyer.svg")
    out = tmp_path / "out"
    out.mkdir()
    (out / "flyer-2.svg").write_bytes(b"someone else's file")
    res = cli("fix", a / "flyer.svg", b / "flyer.svg", "--out", out, "--max-steps", "0", "--jobs", "1")
    assert res.exit_code == 0, res.output
    assert (out / "flyer-2.svg").read_bytes() == b"someone else's file"
    assert sorted(p.name for p in out.iterdir()) == ["flyer-2.svg", "flyer-3.svg", "flyer.svg"]


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(x) for x in text]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_batch(tmp_path: Path) -> None:
    from benchmarks.bench_import import synthetic_page

    d = tmp_path / "in"
    d.mkdir()
    for i in range(2):  # 16 000 elements on one page: importing one takes a worker many seconds
        (d / f"crowded-{i}.svg").write_text(synthetic_page(16_000))
    written = {p: p.read_bytes() for p in d.iterdir()}
    proc = subprocess.Popen([sys.executable, "-c", "from assistant.cli import main; main()", "fix", str(d),
                             "--in-place", "--jobs", "2", "--max-steps", "20"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) >= 2, "the batch never started its workers"
    time.sleep(2.0)  # both are busy with their page now
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 3  # a worker that went on would be busy with its page for many seconds
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)
    assert {p: p.read_bytes() for p in d.iterdir()} == written  # no input rewritten, no backup made


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals")
def test_a_stopped_batch_reports_what_it_did_not_process(tmp_path: Path) -> None:
    d = _copy(tmp_path, "poster.svg", "flyer.svg", "slide.svg", "editorial_cover.svg", "social_card.svg")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-c", "from assistant.cli import main; main()", "fix", str(d),
                             "--out", str(out), "--jobs", "1", "--max-steps", "20", "--json", str(tmp_path / "s.json")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.is_dir() and any(out.glob("*.svg"))):
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, output
    assert "the batch was stopped" in output and "not processed" in output
    import json

    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["partial"] is True
    assert any(f["error"] and f["error"].startswith("not processed") for f in summary["files"])


# -- chat and MCP ---------------------------------------------------------------------

def test_chat_save_over_the_input_keeps_a_backup(tmp_path: Path) -> None:
    src = tmp_path / "poster.svg"
    shutil.copy(EXAMPLES / "poster.svg", src)
    original = src.read_bytes()
    chat = ChatAssistant(import_svg(src), model=None, out_dir=tmp_path / "out", input_path=src, preview=False)
    assert "input file" in chat.handle(f"save {src}").text and src.read_bytes() == original
    reply = chat.handle(f"save {src} --force")
    assert "poster.svg.bak" in reply.text and (tmp_path / "poster.svg.bak").read_bytes() == original


@pytest.mark.anyio
async def test_mcp_save_keeps_numbered_backups_and_skips_a_linked_one(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    original = (ws / "poster.svg").read_bytes()
    (ws / "notes.txt").write_bytes(b"notes")
    os.symlink(ws / "notes.txt", ws / "poster.svg.bak")
    async with Client(build_server(ws)) as client:
        doc_id = data(await client.call_tool("open_document", {"path": "poster.svg"}))["doc_id"]
        await client.call_tool("apply_edits", {"doc_id": doc_id, "edits": [
            {"type": "move", "ids": ["logo"], "dx": -10, "dy": 0}]})
        refused = await client.call_tool("save_document", {"doc_id": doc_id}, raise_on_error=False)
        assert refused.is_error and "overwrite=true" in refused.content[0].text
        await client.call_tool("save_document", {"doc_id": doc_id, "overwrite": True})
        await client.call_tool("save_document", {"doc_id": doc_id, "overwrite": True})
    assert (ws / "notes.txt").read_bytes() == b"notes"
    assert (ws / "poster.svg.bak.2").read_bytes() == original
    assert (ws / "poster.svg.bak.3").read_bytes() == (ws / "poster.svg").read_bytes() != original
