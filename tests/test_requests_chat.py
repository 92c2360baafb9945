"""Chat turns with the request understander: one undo step per request, questions, "again", "a bit less",
"no, the other one", and the model consulted only for what the understander cannot place."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.app.chat import ChatAssistant
from assistant.cli import app
from assistant.importer import import_svg

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


class _NoModel:
    """A model that must not be asked (the understander handles these turns)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1
        raise AssertionError("the model was loaded for a request the understander reads")


def _chat(name: str = "flyer", model=None) -> ChatAssistant:
    return ChatAssistant(import_svg(EXAMPLES / f"{name}.svg"), model=model or _NoModel(), out_dir=Path("unused"),
                         preview=False)


def _box(chat: ChatAssistant, element_id: str):
    return chat.document.layout.get(element_id).box


def test_a_request_of_several_clauses_is_one_undo_step() -> None:
    chat = _chat("poster")
    start = _box(chat, "title")
    reply = chat.handle("make the title bigger and move it up a bit")
    assert reply.edited and chat.session.revision == 1
    moved = _box(chat, "title")
    assert moved.area > start.area and moved.y < start.y
    assert chat.handle("undo").text.startswith("Undone") and _box(chat, "title") == start


def test_again_more_and_less_scale_the_last_step() -> None:
    chat = _chat()
    y0 = _box(chat, "headline").y
    assert chat.handle("move the headline down 10px").edited
    assert chat.handle("again").edited and _box(chat, "headline").y == pytest.approx(y0 + 20)
    assert chat.handle("a bit more").edited and _box(chat, "headline").y == pytest.approx(y0 + 25)
    assert chat.handle("a bit less").edited and _box(chat, "headline").y == pytest.approx(y0 + 20)
    chat = _chat("poster")
    w0 = _box(chat, "photo").width
    assert chat.handle("make the photo 10% bigger").edited
    assert chat.handle("more").edited and _box(chat, "photo").width == pytest.approx(w0 * 1.21)
    assert chat.handle("too much").edited
    assert _box(chat, "photo").width == pytest.approx(w0 * 1.21 / 1.1 ** 0.5, rel=1e-4)


def test_again_after_an_edit_with_no_step_says_so() -> None:
    chat = _chat()
    assert chat.handle("put the button in the top right corner").edited
    reply = chat.handle("again")
    assert not reply.edited and reply.text.startswith("Nothing to change") and chat.session.revision == 1


def test_a_question_then_its_answer_then_the_other_one() -> None:
    chat = _chat()
    about, when = _box(chat, "about"), _box(chat, "when")
    asked = chat.handle("make the text bigger")
    assert not asked.edited and "which text" in asked.text and "'about'" in asked.text and "'when'" in asked.text
    assert chat.handle("the second one").edited
    assert _box(chat, "when").height > when.height and _box(chat, "about") == about
    other = chat.handle("no, the other one")
    assert other.edited and '"about"' in other.text
    assert _box(chat, "about").height > about.height and _box(chat, "when") == when
    named = chat.handle("no, I meant the strapline")
    assert named.edited and '"strapline"' in named.text and _box(chat, "about") == about
    assert chat.handle("undo").text.startswith("Undone")


def test_it_refers_to_the_last_edit() -> None:
    chat = _chat("slide")
    chart = _box(chat, "chart")
    assert chat.handle("shrink the chart a bit").edited
    assert chat.handle("now move it to the left side").edited
    assert _box(chat, "chart").x < chart.x and _box(chat, "chart").width < chart.width


def test_lock_keeps_an_element_from_later_edits() -> None:
    chat = _chat()
    assert chat.handle("keep the photo where it is").edited
    refused = chat.handle("move the photo up a bit")
    assert not refused.edited and "locked" in refused.text
    assert chat.handle("unlock the photo").edited and chat.handle("move the photo up a bit").edited


@pytest.mark.parametrize("request_text,says", [
    ("", None), ("move the QR code up", "there is no 'the qr code'"), ("asdf qwerty", "I did not understand"),
    ("mach das Logo größer", "I did not understand"), ("make it bigger", "what does 'it' refer to"),
    ("z" * 10000, "characters long"),
])
def test_bad_input_is_answered_and_changes_nothing(request_text: str, says: str | None) -> None:
    model = _NoModel()
    chat = _chat("poster", model)
    reply = chat.handle(request_text)
    assert not reply.edited and chat.session.revision == 0
    if says:
        assert reply.text.startswith("No edit made") and says in reply.text
    assert model.calls == 0


def test_once_with_a_request_not_understood_writes_nothing(tmp_path: Path) -> None:
    svg = tmp_path / "poster.svg"
    svg.write_bytes((EXAMPLES / "poster.svg").read_bytes())
    digest = hashlib.sha256(svg.read_bytes()).hexdigest()
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["chat", str(svg), "--once", "please do the thing", "--out", str(out)])
    assert res.exit_code == 1 and "No edit made" in res.output
    assert not out.exists() and hashlib.sha256(svg.read_bytes()).hexdigest() == digest  # not even the folder
    empty = CliRunner().invoke(app, ["chat", str(svg), "--once", "  ", "--out", str(out)])
    assert empty.exit_code == 1 and "request is empty" in empty.output and not out.exists()
    done = CliRunner().invoke(app, ["chat", str(svg), "--once", "move the logo 20px to the left", "--out", str(out),
                                    "--no-preview"])
    assert done.exit_code == 0 and "Saved" in done.output
    assert import_svg(out / "poster.svg").layout.get("logo").box.x == pytest.approx(450.0)


# -- the model, for what the understander cannot place ----------------------------------------
class _Scripted:
    """A model stand-in that answers every prompt with the same action (and counts the calls)."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.calls = 0

    def generate(self, prompt: str, **_kw) -> list[str]:
        self.calls += 1
        return [self.answer]


def test_the_model_gets_a_request_that_names_elements_the_rules_cannot_place() -> None:
    model = _Scripted('{"type":"anchor_to_region","ids":["logo"],"region":"top_right"}')
    chat = ChatAssistant(import_svg(EXAMPLES / "poster.svg"), model=model, out_dir=Path("unused"), preview=False)
    reply = chat.handle("the logo, give it some of that magic")
    assert model.calls == 1 and reply.edited and "model" in reply.text


def test_a_model_answer_that_changes_an_element_not_named_is_never_applied() -> None:
    model = _Scripted('{"type":"move","ids":["title"],"dx":40,"dy":0}')
    chat = ChatAssistant(import_svg(EXAMPLES / "poster.svg"), model=model, out_dir=Path("unused"), preview=False)
    reply = chat.handle("the logo, give it some of that magic")
    assert model.calls == 1 and not reply.edited and "does not name" in reply.text and chat.session.revision == 0


def test_a_request_naming_nothing_is_not_sent_to_the_model() -> None:
    model = _Scripted('{"type":"move","ids":["title"],"dx":40,"dy":0}')
    chat = ChatAssistant(import_svg(EXAMPLES / "poster.svg"), model=model, out_dir=Path("unused"), preview=False)
    assert not chat.handle("do something nice with it").edited and model.calls == 0


def test_tidy_it_up_fixes_as_fix_does_in_one_undo_step() -> None:
    chat = _chat("editorial_cover")
    before = chat.document.layout.model_copy(deep=True)
    reply = chat.handle("tidy it up")
    assert reply.edited and reply.text.startswith("Fixed ") and "'undo' takes all of it back" in reply.text
    assert chat.session.revision == 1  # all of its edits are one step
    chat.handle("undo")
    assert [e.box for e in chat.document.layout] == [e.box for e in before]


def test_tidy_it_up_on_a_design_with_nothing_wrong_says_so() -> None:
    chat = _chat("editorial_cover")
    chat.handle("tidy it up")
    again = chat.handle("make it look better")
    assert not again.edited and again.text.startswith("Nothing to change")
