"""What shows of a picture (its margins, white patches) and the text that captions it."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image, ImageDraw

from assistant.geometry import Box
from assistant.importer import import_svg, import_svg_text
from assistant.metrics import evaluate
from assistant.svg.image import picture_ink

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'viewBox="0 0 600 800">')


def png(size: tuple[int, int] = (200, 100), margin: tuple[int, int, int, int] = (20, 10, 30, 15),
        back: tuple[int, ...] = (255, 255, 255, 255), subject: tuple[int, ...] = (30, 60, 200, 255),
        fmt: str = "PNG") -> str:
    """A data URI: a picture of ``size`` filled with ``back``, its subject inset by ``margin`` (left, top,
    right, bottom)."""
    mode = "RGBA" if fmt == "PNG" else "RGB"
    im = Image.new(mode, size, back[: len(mode)])
    w, h = size
    left, top, right, bottom = margin
    ImageDraw.Draw(im).rectangle([left, top, w - right - 1, h - bottom - 1], fill=subject[: len(mode)])
    buf = io.BytesIO()
    im.save(buf, fmt, quality=92) if fmt == "JPEG" else im.save(buf, fmt)
    return f"data:image/{fmt.lower()};base64," + base64.b64encode(buf.getvalue()).decode()


def photo() -> str:
    """A picture whose edges are not one colour (a gradient, as photographs are)."""
    im = Image.new("RGB", (120, 80))
    im.putdata([(x * 2, y * 3, 128) for y in range(80) for x in range(120)])
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def image_node(uri: str, **attrs: str):
    a = {"x": "100", "y": "100", "width": "200", "height": "100", **attrs}
    extra = "".join(f' {k}="{v}"' for k, v in a.items())
    return etree.fromstring(f'<image xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
                            f' xlink:href="{uri}"{extra}/>')


def doc(body: str):
    return import_svg_text(HEAD + body + "</svg>")


def test_picture_ink_finds_the_subject_inside_a_plain_margin() -> None:
    rect = Box(x=100, y=100, width=200, height=100)
    got = picture_ink(image_node(png()), rect)
    assert got is not None and got.margin == "#ffffff"
    assert got.box.x == pytest.approx(120) and got.box.y == pytest.approx(110)
    assert got.box.x2 == pytest.approx(270) and got.box.y2 == pytest.approx(185)
    # a transparent margin (a logo cut out) has no colour
    clear = picture_ink(image_node(png(back=(0, 0, 0, 0))), rect)
    assert clear is not None and clear.margin is None and clear.box == got.box
    # JPEG noise stays within the tolerance
    jpeg = picture_ink(image_node(png(fmt="JPEG", size=(800, 400), margin=(80, 40, 120, 60))), rect)
    assert jpeg is not None and jpeg.margin is not None
    assert abs(jpeg.box.x - 120) < 2 and abs(jpeg.box.y2 - 185) < 2


@pytest.mark.parametrize("uri, attrs", [
    (photo(), {}),                                                  # no margin of one colour
    (png(margin=(0, 0, 0, 0)), {}),                                 # the subject fills the picture
    (png(), {"preserveAspectRatio": "xMidYMid slice"}),            # cut to its viewport
    ("data:image/png;base64,bm90IGEgcGljdHVyZQ==", {}),            # not a picture
    ("data:image/png;base64,%%%", {}),                             # not base64
    ("pictures/photo.png", {}),                                    # a file is never read
    (png(subject=(255, 255, 255, 255)), {}),                       # nothing but margin
])
def test_picture_ink_leaves_other_pictures_whole(uri: str, attrs: dict[str, str]) -> None:
    assert picture_ink(image_node(uri, **attrs), Box(x=100, y=100, width=200, height=100)) is None


def test_a_white_margin_on_a_white_page_is_not_ink() -> None:
    d = doc(f'<image id="shot" x="100" y="100" width="200" height="100" xlink:href="{png()}"/>'
            '<text id="cap" x="110" y="196" font-size="9">Label in the margin</text>')
    shot = d.layout.get("shot")
    assert shot.box == Box(x=100, y=100, width=200, height=100)  # edits still move the whole picture
    (ink,) = shot.ink_boxes()
    assert (ink.x, ink.y, ink.x2, ink.y2) == pytest.approx((120, 110, 270, 185))
    report = evaluate(d.layout)
    assert not [f for f in report.findings() if f.metric == "overlap"], "text in the white margin overlaps nothing"


def test_a_white_margin_on_a_dark_panel_shows() -> None:
    d = doc('<rect id="panel" x="0" y="0" width="600" height="400" fill="#203040"/>'
            f'<image id="shot" x="100" y="100" width="200" height="100" xlink:href="{png()}"/>')
    assert d.layout.get("shot").ink == []
    # a transparent margin shows the panel, whatever its colour
    d = doc('<rect id="panel" x="0" y="0" width="600" height="400" fill="#203040"/>'
            f'<image id="shot" x="100" y="100" width="200" height="100" xlink:href="{png(back=(0, 0, 0, 0))}"/>')
    (ink,) = d.layout.get("shot").ink_boxes()
    assert (ink.x, ink.y) == pytest.approx((120, 110))


def test_white_patches_in_a_picture_group_are_not_ink() -> None:
    d = doc('<g id="phone">'
            f'<image x="100" y="100" width="200" height="100" preserveAspectRatio="none" xlink:href="{photo()}"/>'
            '<path d="M290 190 h 30 v 25 h -30 z" fill="#ffffff"/>'          # retouching patch, off the picture
            '<path d="M95 120 h 10 v 10 h -10 z" fill="#ffffff" stroke="#000000"/>'  # drawn with a black line
            '</g>')
    phone = d.layout.get("phone")
    assert phone.box.x2 == pytest.approx(320) and phone.box.y2 == pytest.approx(215) and phone.box.x == 94.5
    (ink,) = phone.ink_boxes()
    assert (ink.x, ink.y, ink.x2, ink.y2) == pytest.approx((94.5, 100, 300, 200))


def test_a_short_text_under_a_picture_is_its_caption() -> None:
    body = ('<text id="p1" x="40" y="60" font-size="12">A paragraph of body text that runs on for a while.</text>'
            '<text id="p2" x="40" y="80" font-size="12">Another line of body text, as long as the first.</text>'
            '<text id="p3" x="40" y="500" font-size="12">More body text far below, long enough to count.</text>'
            f'<image id="shot" x="40" y="200" width="300" height="160" xlink:href="{png()}"/>')
    # set in the picture's white margin band, 3 units under what shows of it
    d = doc(body + '<text id="cap" x="70" y="341" font-size="12">The shot, explained</text>')
    assert d.layout.get("cap").role == "caption" and d.layout.get("p3").role == "body"
    # bold, or far under the picture, or long: not a caption
    for text in ('<text id="cap" x="70" y="341" font-size="12" font-weight="bold">The shot, explained</text>',
                 '<text id="cap" x="70" y="420" font-size="12">The shot, explained</text>',
                 '<text id="cap" x="70" y="341" font-size="12">' + "words " * 30 + '</text>'):
        assert doc(body + text).layout.get("cap").role == "body", text
    # text just over a picture, or with another text as near as the picture, is read as body text
    assert doc(body + '<text id="cap" x="70" y="205" font-size="12">The shot, explained</text>'
               ).layout.get("cap").role == "body"
    alone = body + '<text id="cap" x="70" y="350" font-size="12">The shot, explained</text>'
    assert doc(alone).layout.get("cap").role == "caption"
    crowded = alone + ('<text id="p4" x="70" y="372" font-size="13" font-family="DejaVu Serif">'
                       'And a paragraph starts right under it.</text>')
    assert doc(crowded).layout.get("cap").role == "body"


@pytest.mark.skipif(not (CORPUS / "osgeo" / "mapbender_a4.svg").is_file(), reason="needs ../shared/corpus")
def test_mapbender_phone_and_its_caption() -> None:
    d = import_svg(CORPUS / "osgeo" / "mapbender_a4.svg")
    phone, cap = d.layout.get("g4335"), d.layout.get("Together-these-appro-2-7")
    # white retouching patches stick out under and right of the phone picture; what shows ends with the picture
    (ink,) = phone.ink_boxes()
    assert phone.box.y2 == pytest.approx(541.2, abs=0.1) and ink.y2 == pytest.approx(525.8, abs=0.1)
    assert ink.y2 < cap.box.y
    assert cap.role == "caption" and d.layout.get("Together-these-appro-2").role == "caption"
    report = evaluate(d.layout)
    assert not [f for f in report.findings() if {"g4335", cap.id} <= set(f.element_ids)]


def test_a_repeated_picture_is_decoded_once(monkeypatch) -> None:
    import assistant.svg.image as svg_image

    calls = []
    decode = svg_image._decode_sample
    monkeypatch.setattr(svg_image, "_decode_sample", lambda ref: calls.append(ref) or decode(ref))
    svg_image.forget_decoded()
    uri = png(margin=(5, 5, 5, 5))
    body = "".join(f'<image id="i{k}" x="{20 + 120 * k}" y="100" width="100" height="50" xlink:href="{uri}"/>'
                   for k in range(3))
    first = doc(body)
    assert len(calls) == 1
    again = doc(body)  # a file opened again
    assert len(calls) == 1 and again.layout.get("i2").ink == first.layout.get("i2").ink != []
    svg_image.forget_decoded()
    doc(body)
    assert len(calls) == 2


def code_png(modules: int = 25, scale: int = 8, seed: int = 7) -> str:
    """A QR-like picture: random black and white modules with the three finder squares, on a white quiet zone."""
    import random

    rng = random.Random(seed)
    side = (modules + 8) * scale
    im = Image.new("RGB", (side, side), (255, 255, 255))
    draw = ImageDraw.Draw(im)
    for r in range(modules):
        for c in range(modules):
            if rng.random() < 0.5:
                x, y = (c + 4) * scale, (r + 4) * scale
                draw.rectangle([x, y, x + scale - 1, y + scale - 1], fill=(0, 0, 0))
    for cx, cy in ((0, 0), (modules - 7, 0), (0, modules - 7)):
        x, y = (cx + 4) * scale, (cy + 4) * scale
        draw.rectangle([x, y, x + 7 * scale - 1, y + 7 * scale - 1], fill=(0, 0, 0))
        draw.rectangle([x + scale, y + scale, x + 6 * scale - 1, y + 6 * scale - 1], fill=(255, 255, 255))
        draw.rectangle([x + 2 * scale, y + 2 * scale, x + 5 * scale - 1, y + 5 * scale - 1], fill=(0, 0, 0))
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def test_a_picture_of_a_qr_code_is_called_one_and_other_pictures_are_not() -> None:
    """Nothing in a file says a picture is a QR code, yet that is what everyone calls it ("make the QR code bigger")."""
    body = (f'<image id="image1" x="400" y="600" width="120" height="120" xlink:href="{code_png()}"/>'
            f'<image id="image2" x="40" y="40" width="200" height="100" xlink:href="{png()}"/>'
            f'<image id="image3" x="40" y="300" width="120" height="80" xlink:href="{photo()}"/>')
    names = {e.id: e.name for e in doc(body).layout.elements}
    assert names["image1"] == "QR code" and names["image2"] is None and names["image3"] is None
