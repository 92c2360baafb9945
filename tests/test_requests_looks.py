"""Pictures named by how they look: "the colour ACM logo" and "the outline one", "the round aerial photo", "the
purple cable", "the green map".

The looks are measured on renders (``assistant.render.looks``): the colours that ink a picture, how much of it is
clear colour rather than white or grey, whether its ink is round. Synthetic renders check the measures; the
corpus's own files check that a request picks the picture a person looking at the page means.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assistant.app.chat import ChatAssistant
from assistant.importer import import_svg
from assistant.instructions.requests.colours import family
from assistant.render.looks import looks, measure
from benchmarks.bench_requests import SHARED

CORPUS = SHARED / "corpus"
on_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared (its corpus) is not here")


def _disc(side: int, ring: bool = False) -> np.ndarray:
    ys, xs = np.mgrid[0:side, 0:side]
    d = np.hypot(xs + 0.5 - side / 2, ys + 0.5 - side / 2) / (side / 2)
    ink = (d <= 1.0) & ((d >= 0.85) if ring else True)
    out = np.zeros((side, side, 4), np.uint8)
    out[ink] = (120, 40, 160, 255)
    return out


def test_a_disc_and_a_ring_are_round_a_square_and_a_figure_are_not() -> None:
    assert measure(_disc(64)).round and measure(_disc(64, ring=True)).round
    square = np.zeros((64, 64, 4), np.uint8)
    square[...] = (0, 0, 0, 255)
    assert not measure(square).round
    figure = _disc(64)
    figure[:, 40:] = 0  # a shape with empty corners that does not go all the way round
    assert not measure(figure).round


def test_colours_and_chroma_of_a_render() -> None:
    art = np.zeros((40, 40, 4), np.uint8)
    art[:, :30] = (255, 255, 255, 255)  # white, three quarters
    art[:, 30:] = (30, 160, 40, 255)  # green, a quarter
    look = measure(art)
    assert [family(c) for c, _share in look.colours] == ["white", "green"]
    assert look.chroma == pytest.approx(0.25)
    assert look.coverage == pytest.approx(1.0)
    assert measure(np.zeros((8, 8, 4), np.uint8)) is None  # nothing inked


@on_corpus
def test_the_colour_version_of_a_logo_is_mostly_colour_its_outline_version_is_not() -> None:
    doc = import_svg(CORPUS / "real/hunterosc_hack-day.svg")
    seen = looks(doc, ["image823", "la-cluster-1", "la-unit-1", "la-unit-2"])
    assert seen["image823"].chroma > 0.6 > 0.3 > seen["la-cluster-1"].chroma  # the ACM circle, colour and outline
    assert seen["la-unit-1"].chroma > 0.6 > 0.3 > seen["la-unit-2"].chroma  # the OSC badge, filled and outlined


def _edit(name: str, request: str, tmp_path: Path) -> tuple[ChatAssistant, dict, dict]:
    chat = ChatAssistant(import_svg(CORPUS / name), model=None, out_dir=tmp_path, preview=False)
    before = {e.id: e.box for e in chat.document.layout}
    reply = chat.handle(request)
    assert reply.edited, reply.text
    return chat, before, {e.id: e.box for e in chat.document.layout}


@on_corpus
@pytest.mark.parametrize(("request_", "moved", "still"), [
    ("colour ACM logo is a bit far from the x, nudge it right 2mm", "image823", "la-cluster-1"),
    ("nudge the outline ACM logo right 2mm", "la-cluster-1", "image823"),
    ("Please shift the outline OSC badge 2 mm to the right.", "la-unit-2", "la-unit-1"),
    ("shift the filled OSC badge 2 mm to the right", "la-unit-1", "la-unit-2"),
])
def test_the_colour_and_the_outline_version_are_told_apart(request_: str, moved: str, still: str,
                                                           tmp_path: Path) -> None:
    _chat, b, a = _edit("real/hunterosc_hack-day.svg", request_, tmp_path)
    assert a[moved].x - b[moved].x == pytest.approx(2.0, abs=0.05)
    assert a[still] == b[still]


@on_corpus
def test_the_colour_one_the_same_size_as_the_outline_one(tmp_path: Path) -> None:
    _chat, b, a = _edit("real/hunterosc_hack-day.svg", "make the colour ACM logo the same size as the outline one",
                        tmp_path)
    assert a["image823"].width == pytest.approx(b["la-cluster-1"].width, abs=0.3)
    assert a["la-cluster-1"] == b["la-cluster-1"]


@on_corpus
def test_the_round_photo_among_square_pictures(tmp_path: Path) -> None:
    _chat, b, a = _edit("osgeo/postgis-flyer-a4.svg", "Move the round aerial photo 10 mm to the right.", tmp_path)
    assert a["la-image-2"].x > b["la-image-2"].x
    assert all(a[k] == b[k] for k in ("la-g-1", "la-image-1", "la-image-3"))


@on_corpus
def test_a_colour_said_of_a_picture_is_the_colour_its_render_shows(tmp_path: Path) -> None:
    # a slate blue drawn cable is "purple" to the person asking; the photo and the black figure beside it are not
    _chat, b, a = _edit("real/falanster_mesh-poster-3.svg", "blow the purple cable up by 20%", tmp_path)
    assert a["g5968"].width == pytest.approx(1.2 * b["g5968"].width, rel=0.02)
    assert a["image3311-2"] == b["image3311-2"] and a["layer1-8"] == b["layer1-8"]
    # the map on the flyer is the one picture whose render is partly green
    _chat, b, a = _edit("osgeo/postgis-flyer-a4.svg", "move the green map 5mm to the left", tmp_path)
    assert a["la-g-1"].x < b["la-g-1"].x
    assert all(a[k] == b[k] for k in ("la-image-1", "la-image-2", "la-image-3"))
