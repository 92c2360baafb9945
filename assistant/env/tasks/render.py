"""Write a ``Spec`` as SVG text with svgwrite.

Every element carries a meaningful ``id`` and a ``data-role`` attribute (an
explicit role always wins at import), so importing the SVG gives back exactly
the spec's elements. Output is deterministic: numbers are rounded to 2
decimals and images are PNGs encoded here with fixed zlib settings, so the
same spec always gives byte-identical SVG.

How each block kind is drawn:

- ``text``: ``<text>`` with one ``<tspan x y>`` per line (absolute baselines);
- ``image``: ``<image>`` with an embedded PNG data URI (a small painted scene);
- ``photo_gradient``: a ``<rect>`` filled with a linear gradient, tagged as image;
- ``logo``: a ``<g>`` of two or three ``<path>``s (the mark);
- ``button`` / ``badge``: a ``<g>`` of a rounded ``<rect>`` (or ``<circle>``) and a centred label;
- ``panel`` / ``rule``: a plain ``<rect>``; ``background``: a full-bleed ``<rect>``.
"""

from __future__ import annotations

import base64
import math
import struct
import zlib

import svgwrite

from assistant.env.tasks.spec import Block, Spec, extents


def _n(v: float) -> float | int:
    r = round(float(v), 2)
    return int(r) if r == int(r) else r


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def png_bytes(width: int, height: int, rows: list[bytes]) -> bytes:
    """A truecolour PNG (8-bit RGB, no filtering) from raw rows (PNG spec §11)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def scene_png(c1: str, c2: str, variant: int, width: int = 40, height: int = 26) -> bytes:
    """A tiny landscape: a vertical gradient sky, a sun disc and a hill line."""
    a, b = _rgb(c1), _rgb(c2)
    sun_x = (0.25 + 0.5 * ((variant * 37) % 10) / 10) * width
    sun_y = 0.3 * height
    hill = [0.62 * height + 0.12 * height * math.sin(x / width * math.pi * (1 + variant % 3) + variant)
            for x in range(width)]
    rows = []
    for y in range(height):
        t = y / (height - 1)
        row = bytearray()
        for x in range(width):
            if y > hill[x]:
                px = tuple(int(0.55 * v) for v in b)
            elif (x - sun_x) ** 2 + (y - sun_y) ** 2 <= (0.14 * height) ** 2:
                px = (250, 236, 190)
            else:
                px = tuple(int(a[k] * (1 - t) + b[k] * t) for k in range(3))
            row += bytes(px)
        rows.append(bytes(row))
    return png_bytes(width, height, rows)


def _tag(el: svgwrite.base.BaseElement, b: Block) -> svgwrite.base.BaseElement:
    el.attribs["id"] = b.id
    el.attribs["data-role"] = b.role
    if b.name:
        el.attribs["data-name"] = b.name
    return el


def _text(dwg: svgwrite.Drawing, b: Block, block_id: str | None = None, role: str | None = None) -> svgwrite.text.Text:
    ascent, _ = extents(b.font_size, b.weight, b.family)
    x = b.x if b.anchor == "start" else b.cx if b.anchor == "middle" else b.x2
    t = dwg.text("", font_family=b.family, font_size=_n(b.font_size), fill=b.fill)
    if b.weight != 400:
        t.attribs["font-weight"] = str(b.weight)
    if b.anchor != "start":
        t.attribs["text-anchor"] = b.anchor
    t.attribs["id"] = block_id or b.id
    t.attribs["data-role"] = role or b.role
    for i, line in enumerate(b.lines):
        t.add(dwg.tspan(line, x=[_n(x)], y=[_n(b.y + ascent + i * b.leading * b.font_size)]))
    return t


def _logo(dwg: svgwrite.Drawing, b: Block) -> svgwrite.container.Group:
    g = _tag(dwg.g(), b)
    x, y, w, h = b.x, b.y, b.w, b.h
    v = b.variant % 4
    if v == 0:  # disc with a triangle cut
        r = min(w, h) / 2
        cx, cy = x + w / 2, y + h / 2
        g.add(dwg.path(d=f"M{_n(cx - r)},{_n(cy)} A{_n(r)},{_n(r)} 0 1,1 {_n(cx + r)},{_n(cy)} "
                         f"A{_n(r)},{_n(r)} 0 1,1 {_n(cx - r)},{_n(cy)} Z", fill=b.fill, id=f"{b.id}-mark"))
        g.add(dwg.path(d=f"M{_n(cx - r * .5)},{_n(cy + r * .4)} L{_n(cx)},{_n(cy - r * .5)} "
                         f"L{_n(cx + r * .5)},{_n(cy + r * .4)} Z", fill=b.fill2, id=f"{b.id}-cut"))
    elif v == 1:  # rounded square with a dot
        k = min(w, h) * 0.2
        g.add(dwg.path(d=f"M{_n(x + k)},{_n(y)} H{_n(x + w - k)} Q{_n(x + w)},{_n(y)} {_n(x + w)},{_n(y + k)} "
                         f"V{_n(y + h - k)} Q{_n(x + w)},{_n(y + h)} {_n(x + w - k)},{_n(y + h)} H{_n(x + k)} "
                         f"Q{_n(x)},{_n(y + h)} {_n(x)},{_n(y + h - k)} V{_n(y + k)} "
                         f"Q{_n(x)},{_n(y)} {_n(x + k)},{_n(y)} Z",
                         fill=b.fill, id=f"{b.id}-mark"))
        r = min(w, h) * 0.18
        g.add(dwg.path(d=f"M{_n(x + w * .5 - r)},{_n(y + h * .5)} a{_n(r)},{_n(r)} 0 1,0 {_n(2 * r)},0 "
                         f"a{_n(r)},{_n(r)} 0 1,0 {_n(-2 * r)},0 Z", fill=b.fill2, id=f"{b.id}-dot"))
    elif v == 2:  # hexagon and bar
        cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 2
        pts = [(cx + r * math.cos(math.pi / 3 * i + math.pi / 6), cy + r * math.sin(math.pi / 3 * i + math.pi / 6))
               for i in range(6)]
        g.add(dwg.path(d="M" + " L".join(f"{_n(px)},{_n(py)}" for px, py in pts) + " Z", fill=b.fill,
                       id=f"{b.id}-mark"))
        g.add(dwg.path(d=f"M{_n(cx - r * .45)},{_n(cy - r * .12)} h{_n(r * .9)} v{_n(r * .24)} h{_n(-r * .9)} Z",
                       fill=b.fill2, id=f"{b.id}-bar"))
    else:  # three stepped bars
        bw = w / 5
        for i in range(3):
            bh = h * (0.45 + 0.275 * i)
            g.add(dwg.path(d=f"M{_n(x + i * 2 * bw)},{_n(y + h - bh)} h{_n(bw)} v{_n(bh)} h{_n(-bw)} Z",
                           fill=b.fill if i != 1 else b.fill2, id=f"{b.id}-bar{i}"))
    return g


def _labelled(dwg: svgwrite.Drawing, b: Block) -> svgwrite.container.Group:
    g = _tag(dwg.g(), b)
    if b.kind == "badge" and abs(b.w - b.h) < 1e-6:
        g.add(dwg.circle(center=(_n(b.cx), _n(b.y + b.h / 2)), r=_n(b.w / 2), fill=b.fill, id=f"{b.id}-bg"))
    else:
        r = b.h / 2 if b.kind == "button" else b.h * 0.15
        g.add(dwg.rect(insert=(_n(b.x), _n(b.y)), size=(_n(b.w), _n(b.h)), rx=_n(r), ry=_n(r), fill=b.fill,
                       id=f"{b.id}-bg"))
    size = b.font_size
    ascent, descent = extents(size, b.weight, b.family)
    label = Block(id=f"{b.id}-label", role=b.role, kind="text", x=b.x, y=b.y + (b.h - ascent - descent) / 2,
                  w=b.w, h=ascent + descent, lines=b.lines, font_size=size, weight=b.weight, family=b.family,
                  fill=b.fill2, anchor="middle")
    g.add(_text(dwg, label))
    return g


def render_svg(spec: Spec) -> str:
    """SVG text of ``spec`` (deterministic)."""
    w, h = spec.width, spec.height
    size = (f"{_n(w)}{spec.unit}", f"{_n(h)}{spec.unit}")
    dwg = svgwrite.Drawing(size=size, profile="full", debug=False)
    dwg.viewbox(0, 0, _n(w), _n(h))
    if spec.title:
        dwg.set_desc(title=spec.title)
    for b in spec.blocks:
        if b.kind == "text":
            dwg.add(_text(dwg, b))
        elif b.kind == "image":
            uri = "data:image/png;base64," + base64.b64encode(scene_png(b.fill, b.fill2, b.variant)).decode()
            img = dwg.image(href=uri, insert=(_n(b.x), _n(b.y)), size=(_n(b.w), _n(b.h)))
            img.attribs["preserveAspectRatio"] = "xMidYMid slice"
            dwg.add(_tag(img, b))
        elif b.kind == "photo_gradient":
            grad = dwg.linearGradient(start=(0, 0), end=(0, 1), id=f"{b.id}-gradient")
            grad.add_stop_color(0, b.fill)
            grad.add_stop_color(1, b.fill2)
            dwg.defs.add(grad)
            dwg.add(_tag(dwg.rect(insert=(_n(b.x), _n(b.y)), size=(_n(b.w), _n(b.h)),
                                  fill=f"url(#{b.id}-gradient)"), b))
        elif b.kind == "logo":
            dwg.add(_logo(dwg, b))
        elif b.kind in ("button", "badge"):
            dwg.add(_labelled(dwg, b))
        elif b.kind in ("panel", "rule", "background"):
            dwg.add(_tag(dwg.rect(insert=(_n(b.x), _n(b.y)), size=(_n(b.w), _n(b.h)), fill=b.fill), b))
        else:
            raise ValueError(f"unknown block kind {b.kind!r} for {b.id!r}")
    return dwg.tostring()


__all__ = ["render_svg", "png_bytes", "scene_png"]
