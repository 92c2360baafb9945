"""Rendering stays bounded: cycles cut, pictures checked before decoding, outputs capped by pixels.

Each reproducer of issue 54 that used to end in a ``RecursionError``, a
multi-gigabyte allocation or a traceback either renders (a cycle draws
nothing, as in browsers) or is refused with one ``ExportError`` naming the
document and the limit; the CLI exits 2 with that message.
"""

from __future__ import annotations

import base64
import gzip
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from assistant.errors import ExportError
from assistant.importer import import_svg_text
from assistant.limits import MAX_IMAGE_PIXELS, MAX_RENDER_PIXELS
from assistant.render.raster import render_array, render_pdf, render_png, render_svg_bytes
from assistant.render.sandbox import EMPTY_SVG, SafeFetcher, break_reference_cycles
from assistant.svg.parse import parse_svg_bytes

pytestmark = pytest.mark.timeout(120)

NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
LABEL = '<text x="5" y="90" font-size="8">label</text>'

CYCLES = {
    "use itself": '<rect width="10" height="10"/><use id="u" href="#u"/>',
    "use a<->b": '<rect width="10" height="10"/><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>',
    "use an ancestor": '<g id="g"><rect width="10" height="10"/><use href="#g" x="20"/></g>',
    "use without href": '<rect width="10" height="10"/><use/><use href=""/>',
    "clip-path": '<clipPath id="c" clip-path="url(#c)"><rect width="50" height="50" clip-path="url(#c)"/></clipPath>'
                 '<rect width="80" height="80" clip-path="url(#c)"/>',
    "mask": '<mask id="m"><rect width="50" height="50" fill="white" mask="url(#m)"/></mask>'
            '<rect width="80" height="80" mask="url(#m)"/>',
    "pattern": '<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="5" height="5" '
               'fill="url(#p)"/></pattern><rect width="80" height="80" fill="url(#p)"/>',
    "pattern by style sheet": '<style>.f { fill: url(#p) }</style><pattern id="p" width="10" height="10" '
                              'patternUnits="userSpaceOnUse"><rect class="f" width="5" height="5"/></pattern>'
                              '<rect class="f" width="80" height="80"/>',
    "patterns a<->b": '<pattern id="a" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="5" '
                      'height="5" fill="url(#b)"/></pattern><pattern id="b" width="10" height="10" '
                      'patternUnits="userSpaceOnUse"><rect width="5" height="5" fill="url(#a)"/></pattern>'
                      '<rect width="80" height="80" fill="url(#a)"/>',
    "marker": '<marker id="k" markerWidth="4" markerHeight="4"><path d="M0 0 L4 4" stroke="black" '
              'marker-start="url(#k)"/></marker><path d="M10 10 L50 50" stroke="black" marker-start="url(#k)"/>',
    "gradient href": '<linearGradient id="a" href="#b"/><linearGradient id="b" href="#a"/>'
                     '<rect width="80" height="80" fill="url(#a)"/>',
}


def doc(body: str, attrs: str = 'viewBox="0 0 100 100" width="100" height="100"') -> object:
    return import_svg_text(f'<svg {NS} {attrs}>{body}{LABEL}</svg>', source="probe.svg")


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_reference_cycles_render_as_nothing(name: str) -> None:
    d = doc(CYCLES[name])
    assert render_png(d)[:4] == b"\x89PNG"
    assert render_pdf(d)[:4] == b"%PDF"
    assert render_array(d, width=64).shape == (64, 64, 4)


def test_only_references_on_a_cycle_are_cut() -> None:
    tree = parse_svg_bytes(f'<svg {NS} viewBox="0 0 10 10"><defs><rect id="r" width="1" height="1"/>'
                           f'<pattern id="p" width="1" height="1"><use href="#r"/></pattern></defs>'
                           f'<use id="u1" href="#r"/><use id="u2" href="#u1"/><rect fill="url(#p)" width="5" '
                           f'height="5"/><g id="a"><use id="back" href="#a"/></g></svg>')
    root = tree.getroot()
    assert break_reference_cycles(root) == 1
    by_id = {n.get("id"): n for n in root.iter() if isinstance(n.tag, str) and n.get("id")}
    assert by_id["u2"].get("href") == "#u1" and by_id["u1"].get("href") == "#r"
    assert by_id["back"].tag.endswith("}g") and by_id["back"].get("href") is None


def test_the_rendered_copy_is_cut_and_the_document_is_not() -> None:
    d = doc(CYCLES["use itself"])
    assert b'href="#u"' not in render_svg_bytes(d)
    assert d.tree.getroot().find(".//{http://www.w3.org/2000/svg}use").get("href") == "#u"


def test_a_30000_px_page_is_refused_by_pixels_before_rendering() -> None:
    d = import_svg_text(f'<svg {NS} width="30000" height="30000"><rect width="100" height="100"/></svg>',
                        source="big.svg")
    with pytest.raises(ExportError, match=r"big\.svg: .*30000 × 30000 px \(900 MP\).*64 MP"):
        render_png(d)
    with pytest.raises(ExportError, match="64 MP"):
        render_array(d, scale=1.0)
    assert render_png(d, width=500)[:4] == b"\x89PNG"  # asking for a smaller size works
    assert render_pdf(d)[:4] == b"%PDF"


def test_pixel_limit_applies_to_regions_and_scales() -> None:
    d = import_svg_text(f'<svg {NS} width="4000" height="4000"><rect width="100" height="100"/></svg>')
    side = int((MAX_RENDER_PIXELS * 1.1) ** 0.5 / 4000) + 1
    with pytest.raises(ExportError, match="MP"):
        render_png(d, scale=side)
    from assistant.geometry import Box

    with pytest.raises(ExportError, match="MP"):
        render_png(d, region=Box(x=0, y=0, width=4000, height=4000), scale=side)


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header says ``width`` × ``height`` (its pixel data is a few zero rows: never decoded)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    idat = zlib.compress(b"\x00" * (width * 4 + 1) * 2)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@pytest.mark.parametrize("size", [(9000, 9000), (30000, 30000)])
def test_embedded_picture_too_large_to_decode_is_refused_from_its_header(size: tuple[int, int]) -> None:
    assert size[0] * size[1] > MAX_IMAGE_PIXELS
    uri = "data:image/png;base64," + base64.b64encode(_png_header(*size)).decode()
    d = doc(f'<image id="pic" x="10" y="10" width="50" height="50" href="{uri}"/>')
    with pytest.raises(ExportError, match="embedded picture .* not decoded"):
        render_png(d)
    assert [e.id for e in d.layout][0] == "pic"  # import itself never decodes it


def test_fetcher_serves_only_data_and_checks_what_it_serves() -> None:
    fetch = SafeFetcher("probe.svg")
    assert fetch("file:///etc/passwd", "image/*") == EMPTY_SVG
    assert fetch("data:image/png;base64,AAAA", "image/*") == EMPTY_SVG  # no picture: nothing drawn
    bomb = gzip.compress(b"<svg " + b" " * (60 * 1024 * 1024) + b"/>")
    assert fetch("data:image/svg+xml;base64," + base64.b64encode(bomb).decode(), "image/*") == EMPTY_SVG
    nested = f'<svg {NS} width="10" height="10"><use id="u" href="#u"/><rect width="5" height="5"/></svg>'
    served = fetch("data:image/svg+xml;base64," + base64.b64encode(nested.encode()).decode(), "image/*")
    assert b"<rect" in served and b'href="#u"' not in served


def test_embedded_svg_with_a_cycle_renders() -> None:
    nested = f'<svg {NS} width="10" height="10"><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>'
    uri = "data:image/svg+xml;base64," + base64.b64encode(nested.encode()).decode()
    assert render_png(doc(f'<image x="0" y="0" width="50" height="50" href="{uri}"/>'))[:4] == b"\x89PNG"


@pytest.mark.parametrize("name", ["use itself", "pattern", "clip-path"])
def test_cli_render_exits_cleanly_on_cycles_and_huge_pages(tmp_path: Path, name: str) -> None:
    cycle = tmp_path / "cycle.svg"
    cycle.write_text(f'<svg {NS} viewBox="0 0 100 100">{CYCLES[name]}{LABEL}</svg>')
    big = tmp_path / "big.svg"
    big.write_text(f'<svg {NS} width="30000" height="30000"><rect width="100" height="100"/></svg>')
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    cli = [sys.executable, "-c", "from assistant.cli import main; main()", "render"]
    ok = subprocess.run([*cli, str(cycle), "--out", str(tmp_path / "c.png")], capture_output=True, text=True,
                        timeout=120, env=env)
    assert ok.returncode == 0, ok.stderr
    refused = subprocess.run([*cli, str(big), "--out", str(tmp_path / "b.png")], capture_output=True, text=True,
                             timeout=120, env=env)
    assert refused.returncode == 2 and "900 MP" in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "b.png").exists()


def test_fix_with_png_output_reports_the_pixel_limit_for_the_file(tmp_path: Path) -> None:
    big = tmp_path / "big.svg"
    big.write_text(f'<svg {NS} width="30000" height="30000"><rect width="100" height="100"/>{LABEL}</svg>')
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", "from assistant.cli import main; main()", "fix", str(big),
                           "--out", str(tmp_path / "out"), "--formats", "png"],
                          capture_output=True, text=True, timeout=300, env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "900 MP" in out and "internal error" not in out and "Traceback" not in out, out
    assert not (tmp_path / "out" / "big.png").exists()


@pytest.mark.parametrize("pattern", [
    '<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><circle r="1e308" cx="1" cy="1"/></pattern>',
    '<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="scale(1e300)">'
    '<circle r="0.15" cx="1" cy="1"/></pattern>',
    '<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><path d="M0 0 A 1e308 1e308 0 0 1 5 5"/>'
    '</pattern>',
])
def test_arcs_too_large_for_cairo_are_refused_instead_of_hanging(pattern: str) -> None:
    """Found by the fuzzer: cairo counts the segments of such an arc in a loop that never ends
    (the transform and the path arc are refused by cairo and cairosvg themselves, as clean errors too)."""
    d = doc(f'<defs>{pattern}</defs><rect width="80" height="80" fill="url(#p)"/>')
    with pytest.raises(ExportError, match="probe.svg: "):
        render_png(d, width=96)
