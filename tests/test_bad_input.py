"""Bad input: each case gets one clear SvgImportError naming the source and the problem."""

from __future__ import annotations

import gzip
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.errors import SvgImportError
from assistant.importer import ImportLimits, import_svg, import_svg_text

pytestmark = pytest.mark.timeout(60)

NS = 'xmlns="http://www.w3.org/2000/svg"'


def rejected(text: str | bytes, *words: str, limits: ImportLimits | None = None) -> SvgImportError:
    with pytest.raises(SvgImportError) as info:
        import_svg_text(text, source="bad.svg", limits=limits)
    err = info.value
    assert err.source == "bad.svg" and str(err).startswith("bad.svg: ")
    for w in words:
        assert w.lower() in err.problem.lower(), err.problem
    return err


def test_malformed_xml_names_the_line() -> None:
    rejected(f'<svg {NS} viewBox="0 0 10 10">\n<g>\n<rect width="1" height="1">\n</g></svg>', "malformed", "line 4")


def test_unclosed_root() -> None:
    rejected(f'<svg {NS} viewBox="0 0 10 10"><rect/>', "malformed")


def test_external_entity_is_refused_and_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    text = (f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file://{secret}">]>'
            f'<svg {NS} viewBox="0 0 10 10"><text y="5">&x;</text></svg>')
    err = rejected(text, "entit")
    assert "TOP-SECRET" not in str(err)


def test_billion_laughs_is_refused_quickly() -> None:
    lol = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    text = (f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol0 "lol">{lol}]>'
            f'<svg {NS} viewBox="0 0 10 10"><text y="5">&lol9;</text></svg>')
    rejected(text, "entit")


def test_entities_in_utf16_are_refused() -> None:
    text = (f'<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE svg [<!ENTITY a "b">]>'
            f'<svg {NS} viewBox="0 0 10 10"><text y="5">&a;</text></svg>')
    rejected(text.encode("utf-16"), "entit")


def test_external_dtd_reference_alone_is_accepted_but_not_loaded() -> None:
    text = ('<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
            '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
            f'<svg {NS} viewBox="0 0 10 10"><rect id="r" width="5" height="5"/></svg>')
    assert [e.id for e in import_svg_text(text).layout] == ["r"]


def test_non_svg_root() -> None:
    rejected("<html><body><p>hello</p></body></html>", "not an svg", "<html>")
    rejected('<svg xmlns="http://example.org/other"><rect/></svg>', "not an svg")


def test_not_xml_at_all() -> None:
    rejected(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "xml")
    rejected("just some words", "xml")


@pytest.mark.parametrize("text", ["", "   \n\t ", b""])
def test_empty_input(text: str | bytes) -> None:
    rejected(text, "empty")


def test_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "empty.svg"
    p.write_bytes(b"")
    with pytest.raises(SvgImportError, match="empty") as info:
        import_svg(p)
    assert info.value.source == str(p)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(SvgImportError, match="not found"):
        import_svg(tmp_path / "nope.svg")
    with pytest.raises(SvgImportError, match="directory"):
        import_svg(tmp_path)


def test_200_mb_file_is_refused_by_size_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "huge.svg"
    with open(p, "wb") as fh:  # sparse: 200 MB on paper, nothing on disk
        fh.write(f'<svg {NS} viewBox="0 0 10 10">'.encode())
        fh.seek(200 * 1024 * 1024)
        fh.write(b"</svg>")
    with pytest.raises(SvgImportError, match="too large") as info:
        import_svg(p)
    assert "200.0 MiB" in info.value.problem


def test_size_limit_applies_to_text_too() -> None:
    rejected(f'<svg {NS} viewBox="0 0 10 10">' + " " * 2000 + "</svg>", "too large",
             limits=ImportLimits(max_bytes=1000))


def test_100000_elements() -> None:
    body = '<rect width="1" height="1"/>' * 100_000
    rejected(f'<svg {NS} viewBox="0 0 10 10">{body}</svg>', "too many elements", "50000")


def test_element_limit_is_configurable() -> None:
    body = '<rect width="1" height="1"/>' * 20
    rejected(f'<svg {NS} viewBox="0 0 10 10">{body}</svg>', "too many", limits=ImportLimits(max_elements=10))


def test_nesting_10000_deep() -> None:
    text = (f'<svg {NS} viewBox="0 0 10 10">' + "<g>" * 10_000 + '<rect width="1" height="1"/>' + "</g>" * 10_000
            + "</svg>")
    rejected(text, "nest", "deep")


def test_depth_limit_is_configurable() -> None:
    text = f'<svg {NS} viewBox="0 0 10 10">' + "<g>" * 50 + "</g>" * 50 + "</svg>"
    rejected(text, "nested too deeply", limits=ImportLimits(max_depth=20))


def test_use_bomb_is_refused() -> None:
    layers = ['<rect id="l0" width="1" height="1"/>']
    for i in range(1, 9):
        layers.append(f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>")
    text = f'<svg {NS} viewBox="0 0 10 10"><defs>{"".join(layers)}</defs><use href="#l8"/></svg>'
    rejected(text, "too many elements to draw")


@pytest.mark.parametrize("attrs", ["", 'width="100%" height="100%"', 'width="auto"'])
def test_missing_viewbox_and_size(attrs: str) -> None:
    rejected(f'<svg {NS} {attrs}><rect width="1" height="1"/></svg>', "page size is unknown")


@pytest.mark.parametrize("vb", ["0 0 0 10", "0 0 -5 10"])
def test_degenerate_viewbox(vb: str) -> None:
    rejected(f'<svg {NS} viewBox="{vb}"><rect width="1" height="1"/></svg>', "viewbox")


@pytest.mark.parametrize("shape, attr", [
    ('<rect id="r1" x="NaN" width="5" height="5"/>', "x"),
    ('<rect id="r1" width="inf" height="5"/>', "width"),
    ('<circle id="r1" r="-Infinity"/>', "r"),
    ('<path id="r1" d="M 0 0 L 1e999 5"/>', "d"),
    ('<polygon id="r1" points="0,0 nan,1 2,2"/>', "points"),
    ('<rect id="r1" width="5" height="5" transform="translate(NaN, 2)"/>', "transform"),
    ('<g id="r1" transform="scale(1e400)"><rect width="5" height="5"/></g>', "transform"),
])
def test_nan_and_infinite_coordinates_name_the_element(shape: str, attr: str) -> None:
    rejected(f'<svg {NS} viewBox="0 0 10 10">{shape}</svg>', "r1", attr, "finite")


def test_nan_in_root_size() -> None:
    rejected(f'<svg {NS} width="NaN" height="10"><rect width="1" height="1"/></svg>', "width", "finite")


def test_bad_input_never_leaks_other_exceptions() -> None:
    cases = ["<svg", "<?xml?>", "<svg/>", f"<svg {NS}/>", f'<svg {NS} viewBox="a b c d"/>',
             f'<svg {NS} viewBox="0 0 1 1"><use href="#nope"/></svg>']
    for text in cases:
        try:
            import_svg_text(text)
        except SvgImportError:
            pass


@pytest.mark.parametrize("shape", [
    '<path id="r1" d="M 1e308 1e308 L -1e308 -1e308"/>',
    '<text id="r1" x="1e308 -1e308" y="5">ab</text>',
    '<g id="r1" transform="scale(1e300)"><rect width="1e300" height="5"/></g>',
    '<text id="r1" y="5" style="font-size:1e308">ab</text>',
])
def test_coordinates_that_overflow(shape: str) -> None:
    rejected(f'<svg {NS} viewBox="0 0 10 10">{shape}</svg>', "overflow")


def test_root_in_a_broken_namespace() -> None:
    rejected('<svg xmlns="h}tp://www.w3.org/2000/svg" viewBox="0 0 10 10"/>', "not an svg")


# -- issue 54: files that are not regular files, compressed SVG ---------------------------------------------------

POSTER = f'<svg {NS} viewBox="0 0 100 100"><rect id="r" width="50" height="40"/></svg>'


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_named_svg_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.svg"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(SvgImportError, match="FIFO") as info:
        import_svg(fifo)
    assert time.monotonic() - t0 < 5 and info.value.source == str(fifo)


def test_a_device_is_refused(tmp_path: Path) -> None:
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null")
    with pytest.raises(SvgImportError, match="device"):
        import_svg("/dev/null")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("command", [["inspect"], ["score"], ["check", "--min-score", "0.5"],
                                     ["render", "--out", "o.png"]])
def test_every_command_refuses_a_fifo_at_once(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "x.svg"
    os.mkfifo(fifo)
    cmd = [sys.executable, "-c", "from assistant.cli import main; main()", command[0], str(fifo), *command[1:]]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=tmp_path, env=_env())
    assert proc.returncode in (1, 2) and "FIFO" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_svgz_is_read(tmp_path: Path) -> None:
    p = tmp_path / "poster.svgz"
    p.write_bytes(gzip.compress(POSTER.encode()))
    assert [e.id for e in import_svg(p).layout] == ["r"]
    assert [e.id for e in import_svg_text(gzip.compress(POSTER.encode())).layout] == ["r"]


def test_svgz_bomb_is_refused_by_its_decompressed_size() -> None:
    bomb = gzip.compress(f'<svg {NS} viewBox="0 0 1 1">'.encode() + b" " * (3 * 1024 * 1024) + b"</svg>")
    assert len(bomb) < 10_000
    rejected(bomb, "decompresses to more than", "svgz", limits=ImportLimits(max_decompressed_bytes=1024 * 1024))


def test_truncated_and_corrupt_svgz_are_refused() -> None:
    data = gzip.compress(POSTER.encode())
    rejected(data[: len(data) // 2], "truncated")
    rejected(data[:10] + b"\x00" * 40, "svgz")


# -- issue 54: numbers out of range --------------------------------------------------------------------------------

@pytest.mark.parametrize("root, words", [
    ('viewBox="0 0 1e-300 1e-300"', ("viewbox", "too small")),
    ('viewBox="0 0 1e308 1e308"', ("viewbox", "too large")),
    ('width="1e308" height="100" viewBox="0 0 1e308 100"', ("too large",)),
    ('width="1e308" height="100"', ("width/height", "too large")),
    ('width="1e-310" height="1e-310"', ("too small",)),
    ('width="100" height="100" viewBox="1e308 0 10 10"', ("too large",)),
])
def test_pages_out_of_range_are_refused(root: str, words: tuple[str, ...]) -> None:
    rejected(f'<svg {NS} {root}><rect width="1" height="1"/></svg>', *words)


@pytest.mark.parametrize("shape", [
    '<g id="g"><rect id="a" x="-1e308" width="10" height="10"/><rect id="b" x="1e308" width="10" height="10"/></g>',
    '<text id="t" x="10" y="50" font-size="10">Hello <tspan y="-1e308">world</tspan></text>',
    '<text id="t" x="10" y="50" font-size="10" transform="scale(1e300)">Hello world</text>',
    '<rect id="r" x="2e9" width="10" height="10"/>',
])
def test_geometry_beyond_the_coordinate_limit_is_refused(shape: str) -> None:
    rejected(f'<svg {NS} viewBox="0 0 100 100">{shape}<text x="1" y="9">ok</text></svg>', "beyond")


def test_a_tiny_font_size_imports_with_finite_numbers() -> None:
    doc = import_svg_text(f'<svg {NS} viewBox="0 0 100 100"><text id="t" x="10" y="50" font-size="5e-324">Hello'
                          f'</text><text x="10" y="80" font-size="5">Other text here</text></svg>')
    for e in doc.layout:
        assert all(math.isfinite(v) for v in e.box.as_tuple())


@pytest.mark.parametrize("blanks", [" " * 1_000_000, "\n\t" * 500_000, " " * 500_000 + "," + " " * 500_000])
def test_path_data_with_a_megabyte_of_blanks_is_read_in_one_pass(blanks: str) -> None:
    """Blanks before an error in path data are passed over once (they once cost time with the square of their
    number: 20 000 blanks took 15 s); the path is drawn up to the error, as SVG says."""
    doc = import_svg_text(f'<svg {NS} viewBox="0 0 100 100"><path id="p" d="M10 10 L50 50{blanks}x" '
                          f'stroke="black"/><rect width="100" height="100" fill="none" stroke="red"/></svg>')
    path = next(e for e in doc.layout if e.id == "p")
    assert 40 <= path.box.width <= 42


# -- issue 54: style sheets ----------------------------------------------------------------------------------------

def test_a_stylesheet_of_40000_selectors_is_refused_quickly() -> None:
    rules = "\n".join(f".c{i} {{ fill: #{i % 999:03d}; stroke-width: 2 }}" for i in range(40_000))
    body = "".join(f'<rect class="c{i * 97 % 40000}" x="{i % 90}" y="{i // 10}" width="5" height="5"/>'
                   for i in range(300))
    text = f'<svg {NS} viewBox="0 0 100 100"><style>{rules}</style>{body}</svg>'
    assert len(text) > 1_500_000
    t0 = time.process_time()
    rejected(text, "style sheets", "more than the")
    rejected(text, "style sheets", "40000 rules", "5000", limits=ImportLimits(max_css_chars=10**8))
    assert time.process_time() - t0 < 10


def test_rule_limit_counts_parsed_rules() -> None:
    rules = "".join(f"#r{i}, .x{i} {{ fill: red }}" for i in range(30))
    rejected(f'<svg {NS} viewBox="0 0 10 10"><style>{rules}</style><rect width="1" height="1"/></svg>',
             "60 rules", limits=ImportLimits(max_css_rules=50))


def test_selectors_no_index_narrows_are_bounded_by_elements() -> None:
    rules = "".join(f"*[data-x='{i}'] {{ fill: red }}" for i in range(100))
    body = '<rect width="1" height="1"/>' * 200
    rejected(f'<svg {NS} viewBox="0 0 10 10"><style>{rules}</style>{body}</svg>', "100 selectors", "202 elements",
             limits=ImportLimits(max_css_tests=10_000))
    doc = import_svg_text(f'<svg {NS} viewBox="0 0 10 10"><style>{rules}</style>{body}</svg>')
    assert len(doc.layout) > 0


def test_indexed_selectors_still_apply() -> None:
    doc = import_svg_text(f'<svg {NS} viewBox="0 0 100 100"><style>#a {{ fill: #ff0000 }} .b {{ fill: #00ff00 }}'
                          f' rect.c {{ fill: #0000ff }}</style><rect id="a" width="5" height="5"/>'
                          f'<rect id="x" class="b" x="10" width="5" height="5"/>'
                          f'<rect id="y" class="c" x="20" width="5" height="5"/></svg>')
    assert [doc.layout.get(i).fill for i in ("a", "x", "y")] == ["#ff0000", "#00ff00", "#0000ff"]


# -- issue 54: file names that are not printable -------------------------------------------------------------------

def test_control_characters_in_a_file_name_are_escaped(tmp_path: Path) -> None:
    name = tmp_path / "evil\x1b[31mred\x1b]0;title\x07.svg"
    name.write_text("not svg")
    with pytest.raises(SvgImportError) as info:
        import_svg(name)
    message = str(info.value)
    assert "\x1b" not in message and "\x07" not in message and "\\x1b[31mred" in message
    assert info.value.source == str(name)


def test_cli_messages_carry_no_terminal_escapes(tmp_path: Path) -> None:
    name = tmp_path / "evil\x1b[2J\u202e.svg"
    name.write_text("<svg")
    for command in (["inspect", str(name)], ["score", str(name)], ["check", str(name), "--min-score", "0.5"]):
        proc = subprocess.run([sys.executable, "-c", "from assistant.cli import main; main()", *command],
                              capture_output=True, text=True, timeout=60, env=_env())
        out = proc.stdout + proc.stderr
        assert proc.returncode in (1, 2), out
        assert "\x1b[2J" not in out and "\u202e" not in out and "\\x1b[2J" in out, out


def _env() -> dict[str, str]:
    env = dict(os.environ)
    repo = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (repo, env.get("PYTHONPATH", "")) if p)
    env["NO_COLOR"] = "1"
    return env


# -- issue 54: every command answers the reproducers with one clean line and exit 2 -------------------------------

REPRODUCERS = {
    "vb_tiny.svg": f'<svg {NS} viewBox="0 0 1e-300 1e-300"><rect width="1e-301" height="1e-301"/></svg>',
    "w_huge.svg": f'<svg {NS} width="1e308" height="100" viewBox="0 0 1e308 100"><rect width="10" height="10"/></svg>',
    "group_span.svg": f'<svg {NS} viewBox="0 0 100 100"><g><rect x="-1e308" width="10" height="10"/>'
                      f'<rect x="1e308" width="10" height="10"/></g></svg>',
    "tspan_y.svg": f'<svg {NS} viewBox="0 0 100 100"><text x="10" y="50">Hello <tspan y="-1e308">world</tspan>'
                   f'</text></svg>',
    "scale_huge.svg": f'<svg {NS} viewBox="0 0 100 100"><text x="10" y="50" transform="scale(1e300)">Hello</text>'
                      f'</svg>',
}


@pytest.mark.parametrize("name", sorted(REPRODUCERS))
@pytest.mark.parametrize("command", ["inspect", "render"])
def test_commands_refuse_out_of_range_numbers_with_one_line(tmp_path: Path, name: str, command: str) -> None:
    src = tmp_path / name
    src.write_text(REPRODUCERS[name])
    extra = ["--out", str(tmp_path / "out.png")] if command == "render" else []
    proc = subprocess.run([sys.executable, "-c", "from assistant.cli import main; main()", command, str(src), *extra],
                          capture_output=True, text=True, timeout=60, env=_env())
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith(f"error: {src}: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert not (tmp_path / "out.png").exists()


def test_a_tiny_font_size_goes_through_a_fix_step_and_a_render() -> None:
    from tests.fuzz import exercise

    text = (f'<svg {NS} viewBox="0 0 100 100"><text id="t" x="10" y="50" font-size="5e-324">Hello world</text>'
            f'<text x="10" y="80" font-size="5">Other text here</text><rect x="60" y="10" width="30" height="20"/>'
            f'</svg>')
    assert exercise(text.encode()) == "ok"


def test_a_namespace_uri_that_is_no_uri_is_refused() -> None:
    """Found by the fuzzer: an edit's undo could not rebuild a node in such a namespace."""
    rejected(f'<svg {NS} xmlns:xlink="M 1e308 1e308 L -1e308 -1e308" viewBox="0 0 10 10">'
             f'<use xlink:href="#r"/><rect id="r" width="1" height="1"/></svg>', "xmlns:xlink", "not a valid namespace")


# -- issue 54: every command under 2 GB on inputs up to 50 MB: complexity limits ------------------------------------

def test_path_segments_are_bounded_while_the_path_is_read() -> None:
    d = "M0 0" + " l1 1 l-1 0" * 600
    rejected(f'<svg {NS} viewBox="0 0 10 10"><path id="p" d="{d}"/></svg>', "'p'", "more than 1000 path segments",
             limits=ImportLimits(max_path_segments=1000))
    rejected(f'<svg {NS} viewBox="0 0 10 10"><polyline id="p" stroke="black" points="{"1,2 3,4 " * 600}"/></svg>',
             "more than 1000 path segments", limits=ImportLimits(max_path_segments=1000))
    many = f'<path d="M0 0{" l1 1" * 100}"/>' * 20
    rejected(f'<svg {NS} viewBox="0 0 10 10">{many}</svg>', "path segments",
             limits=ImportLimits(max_path_segments=1000))


def test_a_9_mb_path_is_refused_without_taking_its_memory() -> None:
    import tracemalloc

    d = "M0 0" + " l1 1 l-1 0" * 800_000
    tracemalloc.start()
    try:
        rejected(f'<svg {NS} viewBox="0 0 10 10"><path d="{d}"/></svg>', "path segments",
                 limits=ImportLimits(max_path_segments=20_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 1024 * 1024, f"{peak / 2**20:.0f} MiB"


def test_text_is_bounded() -> None:
    rejected(f'<svg {NS} viewBox="0 0 10 10"><text id="t" y="5">{"word " * 500}</text></svg>', "'t'",
             "more than 1000 characters of text", limits=ImportLimits(max_text_chars=1000))


def test_style_attributes_and_sheets_are_bounded() -> None:
    rejected(f'<svg {NS} viewBox="0 0 10 10"><rect width="1" height="1" style="{"fill:red;" * 100}"/></svg>',
             "<rect>", "style attribute of 900 characters", limits=ImportLimits(max_style_chars=500))
    rejected(f'<svg {NS} viewBox="0 0 10 10"><style>rect {{{"fill:red;" * 100}}}</style><rect width="1" '
             f'height="1"/></svg>', "style sheets hold", limits=ImportLimits(max_css_chars=500))


def test_tspan_positions_out_of_range_are_refused_even_when_they_draw_nothing() -> None:
    """Found by the fuzzer: an empty tspan at y=1e308 made an edit that scales a text's lines overflow."""
    rejected(f'<svg {NS} viewBox="0 0 100 100"><text x="10" y="50">Hello<tspan id="s" y="1e308"></tspan></text>'
             f'</svg>', "'s'", "attribute y", "beyond")


def test_a_text_of_subnormal_font_size_survives_a_fix_step() -> None:
    """Found by the fuzzer: font-size="1e-320" made scaling the text's lines divide into infinity."""
    from tests.fuzz import exercise

    text = (f'<svg {NS} viewBox="0 0 400 400"><text id="a" x="10" y="50" font-size="1e-320"><tspan x="10" y="50">'
            f'Hello</tspan><tspan x="10" y="62">world</tspan></text><text id="b" x="10" y="200" font-size="30">'
            f'Title here</text><text x="10" y="300" font-size="9">Body text of the page, long enough.</text></svg>')
    assert exercise(text.encode()) == "ok"
