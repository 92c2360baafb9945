"""Pictures named by the words drawn in them ("the ACME logo"): read from real renders by the bundled reader.

The logos here are PNGs with their names drawn in them (no text element says them), as a sponsor's logo is
in a real poster; the reader is the real one (RapidOCR's models run by ONNX Runtime), the render is cairo's.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg, import_svg_text
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.pictures import pictures_to_read, unknown_words
from assistant.render import drawn
from assistant.render.drawn import drawn_words
from assistant.svg.write import export_svg
from benchmarks.bench_requests import boxes_after

pytest.importorskip("rapidocr_onnxruntime", reason="the picture reader is the 'see' extra, which make installs")

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _logo(word: str, colour: str = "#1a237e", ground: tuple[int, int, int, int] = (0, 0, 0, 0)) -> str:
    image = Image.new("RGBA", (360, 120), ground)
    font = ImageFont.truetype(str(FONT), 64) if FONT.exists() else ImageFont.load_default(64)
    ImageDraw.Draw(image).text((20, 20), word, font=font, fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


LAYOUT = f"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 800 600" width="800" height="600">
  <text id="heading" x="40" y="80" font-size="40" font-family="sans-serif">Open mapping day</text>
  <text id="note" x="40" y="140" font-size="18" font-family="sans-serif">Talks, tiles and coffee</text>
  <image id="image1" x="40" y="460" width="180" height="60" xlink:href="{_logo('ACME')}"/>
  <image id="image2" x="300" y="460" width="180" height="60" xlink:href="{_logo('GLOBEX', '#b71c1c')}"/>
  <rect id="band" x="0" y="540" width="800" height="60" fill="#263238"/>
  <image id="image3" x="560" y="540" width="180" height="60" xlink:href="{_logo('VOLTA', '#ffffff')}"/>
</svg>"""


def _chat(tmp_path: Path) -> ChatAssistant:
    return ChatAssistant(import_svg_text(LAYOUT, source="sponsors.svg"), model=None, out_dir=tmp_path,
                         preview=False)


def test_the_words_drawn_in_each_picture_are_read() -> None:
    doc = import_svg_text(LAYOUT, source="sponsors.svg")
    words = drawn_words(doc, ["image1", "image2", "image3"])
    assert words["image1"] == "ACME"
    assert words["image2"] == "GLOBEX"
    assert words["image3"] == "VOLTA"  # white letters are read on a dark ground


def test_a_logo_named_by_the_word_drawn_in_it_is_the_one_edited(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = {i: chat.document.layout.get(i).box for i in ("image1", "image2", "image3")}
    reply = chat.handle("move the Globex logo 10px to the right")
    assert reply.edited, reply.text
    after = {i: chat.document.layout.get(i).box for i in before}
    assert after["image2"].x == pytest.approx(before["image2"].x + 10, abs=0.5)
    assert after["image1"] == before["image1"] and after["image3"] == before["image3"]


def test_a_logo_no_picture_says_is_not_there(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    before = {e.id: e.box for e in chat.document.layout.elements}
    reply = chat.handle("make the Initech logo bigger")
    assert not reply.edited
    assert {e.id: e.box for e in chat.document.layout.elements} == before


def test_pictures_are_read_only_for_words_nothing_else_holds() -> None:
    layout = import_svg_text(LAYOUT, source="sponsors.svg").layout
    assert pictures_to_read("make the heading a bit bigger", layout) == []
    assert pictures_to_read("move the note 10px down", layout) == []
    ids = pictures_to_read("swap the ACME and the Globex logos", layout)
    assert {"image1", "image2", "image3"} <= set(ids) and "band" not in ids
    assert unknown_words("swap the ACME and the Globex logos", ElementIndex(layout)) == ["acme", "globex"]


def test_ordinary_words_do_not_send_the_reader_to_the_pictures() -> None:
    # a name is capitalised or said before a picture noun; "the actual info" or "miles below" name nothing
    index = ElementIndex(import_svg_text(LAYOUT, source="sponsors.svg").layout)
    assert unknown_words("the note is the actual info, make it bigger", index) == []
    assert unknown_words("the heading floats miles below the top, pull it up", index) == []
    assert unknown_words("Sadly the note is too small", index) == []  # a sentence's first word
    assert unknown_words("the globex logo is too small", index) == ["globex"]
    assert unknown_words("the cc-by badge is too small", index) == ["cc"]
    assert unknown_words("move the heading closer to Globex", index) == ["globex"]


def test_words_read_once_are_kept_on_disk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LAYOUT_ASSISTANT_HOME", str(tmp_path))
    monkeypatch.setattr(drawn, "_cache", type(drawn._cache)())
    doc = import_svg_text(LAYOUT, source="sponsors.svg")
    assert drawn_words(doc, ["image2"]) == {"image2": "GLOBEX"}
    kept = list(drawn.cache_dir().glob("*/*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "GLOBEX"
    monkeypatch.setattr(drawn, "_cache", type(drawn._cache)())  # a new process: nothing read in it yet
    monkeypatch.setattr(drawn, "_read", lambda *a: pytest.fail("read again"))
    assert drawn_words(import_svg_text(LAYOUT, source="again.svg"), ["image2"]) == {"image2": "GLOBEX"}


def test_pictures_read_ahead_serve_the_first_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LAYOUT_ASSISTANT_HOME", str(tmp_path))
    monkeypatch.setattr(drawn, "_cache", type(drawn._cache)())
    chat = _chat(tmp_path)
    thread = drawn.read_ahead(chat.document, ["image1", "image2", "image3"])
    assert thread is not None
    chat.handle("move the heading 5px down")  # an edit meanwhile: the reading works on a copy
    thread.join(timeout=60)
    monkeypatch.setattr(drawn, "_read", lambda *a: pytest.fail("read again"))
    reply = chat.handle("move the Globex logo 10px to the right")
    assert reply.edited


def test_a_picture_being_read_is_waited_for_not_read_twice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import threading

    monkeypatch.setenv("LAYOUT_ASSISTANT_HOME", str(tmp_path))
    monkeypatch.setattr(drawn, "_cache", type(drawn._cache)())
    real, calls, gate = drawn._read, [], threading.Event()

    def slow(*args: object) -> list[tuple[str, float]]:
        calls.append(1)
        gate.wait(30)
        return real(*args)

    monkeypatch.setattr(drawn, "_read", slow)
    doc = import_svg_text(LAYOUT, source="sponsors.svg")
    first = threading.Thread(target=drawn_words, args=(doc.copy(), ["image1"]))
    first.start()
    while not calls:
        first.join(0.01)
    result: list[dict[str, str]] = []
    second = threading.Thread(target=lambda: result.append(drawn_words(doc, ["image1"])))
    second.start()
    gate.set()
    first.join(60)
    second.join(60)
    assert result == [{"image1": "ACME"}] and len(calls) == 1


def test_a_picture_read_once_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = import_svg_text(LAYOUT, source="sponsors.svg")
    drawn_words(doc, ["image1"])
    calls = []
    monkeypatch.setattr(drawn, "_read", lambda *a: calls.append(a) or [])
    assert drawn_words(doc, ["image1"]) == {"image1": "ACME"}
    assert calls == []


def test_without_the_reader_nothing_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(drawn, "_reader", lambda: None)
    doc = import_svg_text(LAYOUT, source="sponsors.svg")
    assert drawn_words(doc, ["image1"]) == {}
    chat = _chat(tmp_path)
    reply = chat.handle("move the Globex logo 10px to the right")
    assert not reply.edited  # asked which logo, never a guess


@pytest.mark.skipif(not (CORPUS / "real").is_dir(), reason="needs ../shared/corpus")
def test_sponsor_logos_of_a_real_poster_are_named_by_what_they_say(tmp_path: Path) -> None:
    svg = CORPUS / "real" / "rdmo_postcard-back-de.svg"
    chat = ChatAssistant(import_svg(svg), model=None, out_dir=tmp_path, input_path=svg, preview=False)
    kit = chat.document.layout.get("image4920").box
    reply = chat.handle("make the KIT logo a little bit larger")
    assert reply.edited, reply.text
    assert chat.document.layout.get("image4920").box.width > kit.width * 1.05
    dfg = chat.document.layout.get("image4996").box
    reply = chat.handle("move the DFG logo 3 mm to the right")
    assert reply.edited, reply.text
    assert chat.document.layout.get("image4996").box.x == pytest.approx(dfg.x + 3, abs=0.2)



@pytest.mark.skipif(not (CORPUS / "osgeo").is_dir(), reason="needs ../shared/corpus")
def test_the_benchmark_follows_a_unit_the_importer_numbers_anew_after_an_edit(tmp_path: Path) -> None:
    """The compass moved to the left margin comes first in the edited file: it is still the compass that is checked."""
    svg = CORPUS / "osgeo" / "OSGeo_bronze_sponsor.svg"
    before = import_svg(svg)
    compass, wordmark = before.layout.get("la-cluster-2").box, before.layout.get("la-cluster-1").box
    assert compass.width == compass.height and wordmark.width > 3 * wordmark.height
    chat = ChatAssistant(import_svg(svg), model=None, out_dir=tmp_path, input_path=svg, preview=False)
    assert chat.handle("give the compass a 20px margin from the left edge").edited
    after = import_svg_text(export_svg(chat.document).decode(), source="x.svg")
    a = boxes_after(before, after)
    assert a["la-cluster-2"][0] == pytest.approx(20, abs=0.5)
    assert a["la-cluster-1"][:2] == pytest.approx((wordmark.x, wordmark.y), abs=0.5)  # not moved, whatever its id
