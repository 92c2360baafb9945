"""Bad input: each case gets one clear SvgImportError naming the source and the problem."""

from __future__ import annotations

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
