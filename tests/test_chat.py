"""The offline assistant: turns, files, ``--once``, and the interactive mode driven through a pty.

The model is the session's micro applicator (``tests/llm_support.py``), which
answers "move the logo to the top right" and "make the title bigger" exactly;
the chats built here send every request to it (``rules=False``), the command line
reads requests with the request understander first (``tests/test_requests_chat.py``).
"""

from __future__ import annotations

import hashlib
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp")

from llm_support import SMALL_SVG, tiny_gguf  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from assistant.app.chat import ChatAssistant  # noqa: E402
from assistant.importer import import_svg, import_svg_text  # noqa: E402
from assistant.planners import get_planner  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> dict:
    return tiny_gguf(tmp_path_factory)


@pytest.fixture()
def svg(tmp_path: Path) -> Path:
    path = tmp_path / "fair.svg"
    path.write_text(SMALL_SVG)
    return path


@pytest.fixture()
def assistant(tiny, svg, tmp_path: Path) -> ChatAssistant:
    model = get_planner("local", model=tiny["path"], samples=2)
    return ChatAssistant(import_svg(svg), model=model, out_dir=tmp_path / "out", input_path=svg, samples=2,
                         rules=False)


def test_request_edits_shows_the_change_and_writes_a_preview(assistant, tmp_path: Path) -> None:
    logo_before = assistant.document.layout.get("logo").box
    reply = assistant.handle("move the logo to the top right")
    assert reply.edited and '"anchor_to_region"' in reply.text and "Score " in reply.text
    logo = assistant.document.layout.get("logo").box
    safe = assistant.document.layout.canvas.safe_box
    assert logo != logo_before and logo.y < logo_before.y and abs(logo.x2 - safe.x2) < 1.0
    preview = Path(reply.files[0])
    assert preview.parent == tmp_path / "out" and preview.read_bytes().startswith(PNG)
    assert assistant.session.revision == 1 and assistant.dirty


def test_undo_redo_restore_exact_boxes(assistant) -> None:
    start = assistant.document.layout.get("title").box
    assert assistant.handle("make the title bigger").edited
    bigger = assistant.document.layout.get("title").box
    assert bigger.height > start.height
    assert assistant.handle("undo").text.startswith("Undone")
    assert assistant.document.layout.get("title").box == start
    assert assistant.handle("redo").text.startswith("Redone")
    assert assistant.document.layout.get("title").box == bigger
    assert "error: nothing to redo" == assistant.handle("redo").text


def test_save_never_overwrites_the_input_unless_forced(assistant, svg: Path, tmp_path: Path) -> None:
    original = svg.read_bytes()
    assistant.handle("move the logo to the top right")
    refused = assistant.handle(f"save {svg}")
    assert refused.text.startswith("Not saved") and svg.read_bytes() == original
    saved = assistant.handle("save")
    out = tmp_path / "out" / "fair.svg"
    assert saved.files == [str(out)] and not assistant.dirty
    reloaded = import_svg(out)
    assert reloaded.layout.get("logo").box.x > 250 and reloaded.layout.get("logo").box.y < 60
    forced = assistant.handle(f"save {svg} --force")
    assert forced.files == [str(svg)] and svg.read_bytes() != original


def test_a_request_that_starts_with_save_is_a_request(assistant, tmp_path: Path) -> None:
    reply = assistant.handle("save a row: put the logo on the same line as the title")
    assert not reply.text.startswith("Saved") and not (Path.cwd() / "a").exists()
    assert not list(tmp_path.glob("**/a"))


def test_export_show_score_history_help(assistant, tmp_path: Path) -> None:
    assistant.handle("make the title bigger")
    pdf = assistant.handle("export pdf")
    assert Path(pdf.files[0]).read_bytes().startswith(b"%PDF")
    png = assistant.handle(f"export png {tmp_path / 'x.png'}")
    assert (tmp_path / "x.png").read_bytes().startswith(PNG) and png.files
    assert "error: unknown export format 'gif'" in assistant.handle("export gif").text
    shown = assistant.handle("show")
    assert "title title text" in shown.text and shown.files[0].endswith(".png")
    assert assistant.handle("score").text.startswith("Score ")
    assert '"promote"' in assistant.handle("history").text
    assert "undo" in assistant.handle("help").text


def test_quit_warns_once_about_unsaved_edits(assistant) -> None:
    assistant.handle("make the title bigger")
    first = assistant.handle("quit")
    assert not first.quit and "unsaved" in first.text
    assert assistant.handle("quit").quit


def test_request_the_model_cannot_apply_changes_nothing(tiny) -> None:
    # every element the micro model learnt by id renamed: whatever it answers names an element the layout lacks
    renamed = (SMALL_SVG.replace('id="logo"', 'id="badge"').replace('id="title"', 'id="heading"')
               .replace('id="footer"', 'id="colophon"').replace('id="body"', 'id="copy"')
               .replace('id="info"', 'id="details"'))
    doc = import_svg_text(renamed, source="renamed.svg")
    model = get_planner("local", model=tiny["path"], samples=1, grammar=False)
    chat = ChatAssistant(doc, model=model, out_dir=Path("unused"), samples=1, preview=False, rules=False)
    reply = chat.handle("move the logo to the top right")
    assert reply.text.startswith("No edit made") and chat.session.revision == 0
    assert model.stats.invalid + model.stats.rejected == 1  # its answer named an element the layout lacks


@pytest.mark.parametrize("request_text,moved", [
    ("move the title 37px left and 12px up", (-37, -12)),
    ("nudge the title 83px down", (0, 83)),
])
def test_a_move_goes_the_distance_the_request_names(request_text, moved) -> None:
    """The bundled applicator on a bundled example: the title moves exactly as far as asked."""
    from assistant.planners.local import DEFAULT_MODEL

    if not DEFAULT_MODEL.is_file():
        pytest.skip(f"no bundled model at {DEFAULT_MODEL}")
    example = Path(__file__).resolve().parents[1] / "examples" / "poster.svg"
    chat = ChatAssistant(import_svg(example), model=get_planner("local", samples=1), out_dir=Path("unused"),
                         samples=1, preview=False, rules=False)
    before = chat.document.layout.get("title").box
    reply = chat.handle(request_text)
    after = chat.document.layout.get("title").box
    assert reply.edited, reply.text
    assert (round(after.x - before.x, 6), round(after.y - before.y, 6)) == moved
    assert (after.width, after.height) == (before.width, before.height)


def test_once_edits_saves_and_keeps_the_input(tiny, svg: Path, tmp_path: Path) -> None:
    from assistant.cli import app

    digest = hashlib.sha256(svg.read_bytes()).hexdigest()
    out = tmp_path / "edited"
    res = CliRunner().invoke(app, ["chat", str(svg), "--model", tiny["path"], "--once",
                                   "move the logo to the top right", "--out", str(out), "--samples", "2"])
    assert res.exit_code == 0, res.output
    assert "Applied" in res.output and f"Saved {out / 'fair.svg'}" in res.output
    assert import_svg(out / "fair.svg").layout.get("logo").box.y < 60
    assert list(out.glob("preview-*.png"))
    assert hashlib.sha256(svg.read_bytes()).hexdigest() == digest


def test_chat_without_a_model_file_is_one_clear_error(svg: Path, tmp_path: Path) -> None:
    from assistant.cli import app

    res = CliRunner().invoke(app, ["chat", str(svg), "--model", str(tmp_path / "none.gguf"), "--once", "show"])
    assert res.exit_code == 2 and "none.gguf" in res.output and "not found" in res.output


# -- the interactive mode, as a person uses it -------------------------------------
class Terminal:
    """A process on a pseudo-terminal: type lines, read the screen."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "dumb", "COLUMNS": "120", "NO_COLOR": "1"}
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                                     close_fds=True)
        os.close(slave)
        self.screen = ""

    def read_until(self, pattern: str, timeout: float = 120.0) -> str:
        deadline = time.monotonic() + timeout
        start = len(self.screen)
        while not re.search(pattern, self.screen[start:]):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} on the screen; it shows:\n{self.screen[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"process ended; screen:\n{self.screen[-2000:]}")
                self.screen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        return self.screen[start:]

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=30)
        finally:
            os.close(self.master)


def test_interactive_session_through_a_pty(tiny, svg: Path, tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("layout-assistant")
    if not script.exists():
        pytest.skip("console script not installed")
    digest = hashlib.sha256(svg.read_bytes()).hexdigest()
    term = Terminal([str(script), "chat", str(svg), "--model", tiny["path"], "--samples", "2"], cwd=tmp_path)
    try:
        banner = term.read_until(r"layout> ")
        assert "Layout assistant" in banner and "6 elements" in banner
        term.type("move the logo to the top right")
        screen = term.read_until(r"layout> ")
        assert "Applied" in screen and "anchor_to_region" in screen and "Preview:" in screen
        term.type("make the title bigger")
        bigger = term.read_until(r"layout> ")
        assert "Applied" in bigger and '"title"' in bigger
        term.type("undo")
        assert "Undone: title" in term.read_until(r"layout> ")
        term.type("show")
        shown = term.read_until(r"layout> ")
        assert "logo logo shape" in shown and "Score" in shown
        term.type("quit")
        assert "unsaved" in term.read_until(r"layout> ")
        term.type("export pdf")
        assert "Exported" in term.read_until(r"layout> ")
        term.type("save")
        assert "Saved" in term.read_until(r"layout> ")
        term.type("quit")
        term.read_until(r"Bye\.")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    out = tmp_path / "fair-chat"
    saved = import_svg(out / "fair.svg")
    assert saved.layout.get("logo").box.y < 60                      # the kept edit
    assert saved.layout.get("title").box == import_svg(svg).layout.get("title").box  # the undone one
    assert (out / "fair.pdf").read_bytes().startswith(b"%PDF")
    # one preview per revision: edit (1), edit (2), undo (3; 'show' redraws revision 3)
    assert sorted(p.name for p in out.glob("preview-*.png")) == ["preview-001.png", "preview-002.png",
                                                                  "preview-003.png"]
    assert hashlib.sha256(svg.read_bytes()).hexdigest() == digest
