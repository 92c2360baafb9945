"""What a layout element is, its role, its ids and its text properties."""

from __future__ import annotations

import pytest
from lxml import etree

from assistant.document import ROLE_IMPORTANCE
from assistant.importer import import_svg_text
from assistant.importer.roles import is_generated_id, keyword_role
from assistant.text.fonts import font_extents, text_advance

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0 0 600 800">')


def doc(body: str):
    return import_svg_text(HEAD + body + "</svg>")


def roles(d) -> dict[str, str]:
    return {e.id: e.role for e in d.layout}


def logo_paths(n: int, x0: float = 400, y0: float = 20) -> str:
    """``n`` small curved paths packed in a 120 × 60 area."""
    out = []
    for i in range(n):
        x, y = x0 + (i % 20) * 6, y0 + (i // 20) * 6
        out.append(f'<path d="M{x} {y} c 2 -3 4 -3 5 0 s -2 4 -5 0 z" fill="#{(i * 40) % 256:02x}4080"/>')
    return "".join(out)


PAGE = (
    '<rect id="page" width="600" height="800" fill="#fafafa"/>'
    '<text id="head" x="40" y="120" font-size="60" font-family="DejaVu Sans">Big News</text>'
    '<text id="sub" x="40" y="180" font-size="28">A smaller line</text>'
    '<text id="p1" x="40" y="260" font-size="16">Body text that runs for a while and says things.</text>'
    '<text id="p2" x="40" y="300" font-size="16">More body text, also long enough to be a paragraph.</text>'
    '<text id="fine" x="40" y="760" font-size="10">© 2024</text>'
)


# -- grouping -------------------------------------------------------------------------

def test_logo_of_200_paths_is_one_element() -> None:
    d = doc(PAGE + f'<g id="g1">{logo_paths(200)}</g>')
    logo = d.layout.get("g1")
    assert logo.role == "logo" and logo.kind == "shape" and logo.nodes == ["g1"]
    assert len(d.layout) == 7  # page, 5 texts, the logo; its 200 paths are not elements
    # the smooth segment's reflected control point bulges past the end point: 3·√3 from the start
    assert logo.box.x == pytest.approx(400) and logo.box.width == pytest.approx(19 * 6 + 3 * 3 ** 0.5)


def test_logo_with_a_short_word_mark_stays_one_element() -> None:
    d = doc(PAGE + f'<g id="brand-g">{logo_paths(30)}<text x="400" y="60" font-size="12">ACME</text></g>')
    e = d.layout.get("brand-g")
    assert e.role == "logo" and e.kind == "shape"
    assert not any(x.text == "ACME" for x in d.layout)


def test_loose_outlined_letters_cluster_into_one_element() -> None:
    letters = "".join(f'<path d="M{300 + 22 * i} 500 c 0 -30 18 -30 18 0 z"/>' for i in range(6))
    d = doc(PAGE + letters)
    clusters = [e for e in d.layout if e.id.startswith("la-cluster-")]
    assert len(clusters) == 1 and len(clusters[0].nodes) == 6
    assert clusters[0].box.x == pytest.approx(300) and clusters[0].box.x2 == pytest.approx(300 + 22 * 5 + 18)
    for xml_id in clusters[0].nodes:
        assert d.node(xml_id).tag.endswith("path")


def test_button_is_a_group_of_shape_and_label() -> None:
    d = doc(PAGE + '<g id="signup"><rect id="btn-bg" x="40" y="600" width="200" height="50" rx="25" fill="#e03"/>'
            '<text id="btn-label" x="140" y="632" font-size="20" text-anchor="middle">Sign up now</text></g>')
    g = d.layout.get("signup")
    assert g.kind == "group" and g.role == "cta" and g.children == ["btn-bg", "btn-label"]
    assert d.layout.get("btn-label").group == "signup" and d.layout.get("btn-bg").group == "signup"
    assert g.box == d.layout.get("btn-bg").box.union(d.layout.get("btn-label").box)
    assert g.nodes == ["signup"]
    assert [e.id for e in d.layout].index("signup") < [e.id for e in d.layout].index("btn-bg")


def test_button_without_own_group_gets_a_generated_group_id() -> None:
    d = doc(PAGE + '<rect id="b" x="40" y="600" width="200" height="50" fill="#e03"/>'
            '<text id="t" x="60" y="632" font-size="20">Register</text>')
    g = next(e for e in d.layout if e.kind == "group")
    assert g.id == "la-group-1" and g.children == ["b", "t"] and g.nodes == ["b", "t"]
    assert g.role == "cta"


def test_round_badge() -> None:
    d = doc(PAGE + '<circle id="c" cx="500" cy="500" r="40" fill="gold"/>'
            '<text id="t" x="480" y="505" font-size="14">-20%</text>')
    g = next(e for e in d.layout if e.kind == "group")
    assert g.role == "badge" and g.children == ["c", "t"]


def test_full_bleed_background_and_decoration() -> None:
    d = doc(PAGE + '<line id="rule" x1="40" y1="200" x2="560" y2="200" stroke="#ccc" stroke-width="1"/>')
    assert d.layout.get("page").role == "background"
    assert d.layout.get("rule").role == "decoration"
    assert d.layout.get("page").importance == ROLE_IMPORTANCE["background"]


def test_a_large_shape_painted_late_is_not_the_background() -> None:
    d = doc(PAGE + '<rect id="veil" width="600" height="800" fill="#000" opacity="0.2"/>')
    assert d.layout.get("veil").role != "background"


def test_inkscape_layers_are_not_swallowed_and_stay_in_the_tree() -> None:
    d = doc(f'<g id="layer1" inkscape:groupmode="layer" inkscape:label="Layer 1">{PAGE}'
            '<rect x="10" y="10" width="5" height="5"/><rect x="30" y="10" width="5" height="5"/></g>')
    assert "head" in d.layout and "layer1" not in d.layout
    layer = d.node("layer1")
    assert layer.get("{http://www.inkscape.org/namespaces/inkscape}label") == "Layer 1"


# -- roles ----------------------------------------------------------------------------

def test_text_roles_from_font_size() -> None:
    r = roles(doc(PAGE))
    assert r == {"page": "background", "head": "title", "sub": "subtitle", "p1": "body", "p2": "body",
                 "fine": "caption"}


def test_data_role_always_wins() -> None:
    d = doc(PAGE.replace('id="head"', 'id="head" data-role="caption"')
            + '<g data-role="image" id="art"><rect x="10" y="400" width="50" height="50"/>'
              '<rect x="70" y="400" width="50" height="50"/></g>')
    assert d.layout.get("head").role == "caption"
    assert d.layout.get("art").role == "image" and d.layout.get("art").kind == "shape"


def test_a_part_with_data_role_is_not_swallowed_by_a_compound() -> None:
    d = doc(PAGE + f'<g id="g1">{logo_paths(20)}'
            '<rect id="tag" data-role="badge" x="400" y="90" width="20" height="8"/></g>')
    assert "g1" not in d.layout
    assert d.layout.get("tag").role == "badge"


def test_name_keywords() -> None:
    d = doc(PAGE + '<rect id="x1" data-name="Hero photo frame" x="40" y="320" width="300" height="200"/>'
            '<text id="url" x="400" y="760" font-size="16">example dot org</text>')
    assert d.layout.get("x1").role == "image"
    assert d.layout.get("x1").name == "Hero photo frame"
    assert d.layout.get("url").role == "caption"


def test_web_addresses_are_small_print_or_a_call_to_action() -> None:
    big = '<text id="{id}" x="300" y="760" font-size="24" font-weight="bold">{text}</text>'
    small = '<text id="{id}" x="300" y="780" font-size="10">{text}</text>'
    d = doc(PAGE + big.format(id="a1", text="www.example.org") + small.format(id="a2", text="info@example.org"))
    assert d.layout.get("a1").role == "cta" and d.layout.get("a2").role == "caption"
    # in a group named "Footer", letter-spaced as some flyers set it: still the page's "visit us" line
    d = doc(PAGE + '<g id="Footer">' + big.format(id="a3", text="w w w . o s g e o . o r g")
            + small.format(id="a4", text="© 2026 Example") + '</g>')
    assert d.layout.get("a3").role == "cta" and d.layout.get("a4").role == "caption"


def test_inkscape_label_and_title_child_name_elements() -> None:
    d = doc('<rect id="r" inkscape:label="logo mark" x="1" y="1" width="50" height="50"/>'
            '<rect id="s" x="100" y="1" width="50" height="50"><title>Sale badge</title></rect>')
    assert d.layout.get("r").name == "logo mark" and d.layout.get("r").role == "logo"
    assert d.layout.get("s").name == "Sale badge" and d.layout.get("s").role == "badge"


@pytest.mark.parametrize("ident", ["path123", "g4567", "Layer_1", "_x3C_Layer_x3E_", "Fill-1", "Group-3",
                                   "rect-12_3", "la-text-4", "text920_00000064334255281760154400000002"])
def test_generated_ids_are_not_names(ident: str) -> None:
    assert is_generated_id(ident)


@pytest.mark.parametrize("ident, role", [("headline", "title"), ("ctaButton", "cta"), ("footer-url", "caption"),
                                         ("bg", "background"), ("main_logo", "logo"), ("Subtitle", "subtitle")])
def test_meaningful_ids_are_read_as_words(ident: str, role: str) -> None:
    assert keyword_role(etree.fromstring(f'<g id="{ident}"/>')) == role


def test_locked_and_importance() -> None:
    d = doc(PAGE.replace('id="sub"', 'id="sub" data-importance="0.95"')
            .replace('id="p1"', 'id="p1" data-locked="true"')
            + '<g sodipodi:insensitive="true">'
              '<text id="t9" x="40" y="400" font-size="16">locked in Inkscape</text></g>')
    assert d.layout.get("sub").importance == pytest.approx(0.95)
    assert d.layout.get("p1").locked and d.layout.get("t9").locked
    assert not d.layout.get("p2").locked
    assert d.layout.get("p2").importance == ROLE_IMPORTANCE["body"]


# -- ids ---------------------------------------------------------------------------------

def test_generated_ids_are_deterministic_set_on_the_tree_and_unique() -> None:
    body = ('<rect width="600" height="800" fill="#fff"/><text x="10" y="50" font-size="30">A</text>'
            '<text id="dup" x="10" y="100" font-size="12">first</text>'
            '<text id="dup" x="10" y="150" font-size="12">second</text>')
    a, b = doc(body), doc(body)
    ids = [e.id for e in a.layout]
    assert ids == [e.id for e in b.layout] == ["la-rect-1", "la-text-1", "dup", "la-text-2"]
    assert a.generated_ids == ["la-rect-1", "la-text-1", "la-text-2"]
    assert a.node("dup").text == "first" and a.node("la-text-2").text == "second"
    serialized = etree.tostring(a.tree).decode()
    assert 'id="la-text-1"' in serialized


def test_generated_ids_skip_ids_in_use() -> None:
    d = doc('<rect id="la-rect-1" width="10" height="10"/><rect x="20" width="10" height="10"/>')
    assert [e.id for e in d.layout] == ["la-rect-1", "la-rect-2"]


# -- text --------------------------------------------------------------------------------

def test_text_properties_are_inherited_and_scaled_to_world() -> None:
    d = doc('<style>.hl { font-weight: bold; fill: #123456 }</style>'
            '<g font-family="DejaVu Sans" font-size="20" transform="scale(2)">'
            '<text id="t" class="hl" x="10" y="40" text-anchor="middle">Hello</text></g>')
    e = d.layout.get("t")
    assert e.kind == "text" and e.text == "Hello"
    assert e.font_size == pytest.approx(40) and e.font_weight == 700 and e.fill == "#123456"
    assert e.text_anchor == "middle" and e.lines == 1
    width = 2 * text_advance("Hello", "DejaVu Sans", 20, 700)
    ascent, descent = font_extents("DejaVu Sans", 20, 700)
    assert e.box.width == pytest.approx(width, rel=1e-6)
    assert e.box.x == pytest.approx(20 - width / 2, rel=1e-6)
    assert e.box.y2 == pytest.approx(80 + 2 * descent, rel=1e-3)
    assert e.box.height == pytest.approx(2 * (ascent + descent), rel=1e-3)


def test_rotated_text_keeps_rotation() -> None:
    d = doc('<text id="t" x="100" y="100" font-size="20" transform="rotate(-90 100 100)">Side</text>')
    e = d.layout.get("t")
    assert e.rotation == pytest.approx(-90)
    assert e.box.height > e.box.width  # the axis-aligned box of vertical text is tall


def test_flowed_text_is_one_paragraph() -> None:
    d = doc('<flowRoot id="f" font-size="16" font-family="DejaVu Sans"><flowRegion>'
            '<rect x="50" y="50" width="200" height="400"/></flowRegion>'
            '<flowPara>First paragraph with several words to wrap across lines.</flowPara>'
            '<flowPara>Second one.</flowPara></flowRoot>')
    e = d.layout.get("f")
    assert e.kind == "text" and e.lines >= 3 and e.box.width <= 200 + 1e-6
    assert "Second one." in e.text


def test_a_row_of_rounded_buttons_stays_three_buttons() -> None:
    body = "".join(
        f'<rect id="b{i}" x="{40 + i * 180}" y="600" width="160" height="50" rx="25" fill="#e03"/>'
        f'<text id="t{i}" x="{60 + i * 180}" y="632" font-size="18">Join {i}</text>' for i in range(3))
    d = doc(PAGE + body)
    groups = [e for e in d.layout if e.kind == "group"]
    assert [g.children for g in groups] == [[f"b{i}", f"t{i}"] for i in range(3)]
    assert all(g.role == "cta" for g in groups)


def test_explicit_cta_group_keeps_its_label_as_a_child() -> None:
    d = doc(PAGE + '<g id="cta" data-role="cta"><rect id="cta-bg" x="64" y="600" width="210" height="48" rx="8"/>'
            '<text id="cta-label" x="169" y="631" text-anchor="middle" font-size="18">Reserve a table</text></g>')
    g = d.layout.get("cta")
    assert g.kind == "group" and g.role == "cta" and g.children == ["cta-bg", "cta-label"]
    assert d.layout.get("cta-label").role == "cta" and d.layout.get("cta-label").kind == "text"


def test_imported_elements_are_what_validation_would_make() -> None:
    """Every imported element is what validating its fields gives (plain Python types, nothing left unchecked)."""
    from pathlib import Path

    from assistant.document import Element
    from assistant.importer import import_svg

    root = Path(__file__).resolve().parents[1]
    files = sorted((root / "examples").glob("*.svg")) + sorted((root.parent / "shared" / "corpus" / "real")
                                                               .glob("*.svg"))[:12]
    for path in files:
        for e in import_svg(path).layout.elements:
            copy = Element.model_validate(e.model_dump())
            assert copy == e, (path.name, e.id)
            for name in ("rotation", "opacity", "importance", "font_size", "line_height"):
                v = getattr(e, name)
                assert v is None or type(v) is float, (path.name, e.id, name, type(v))
            assert type(e.z) is int and type(e.locked) is bool and (e.lines is None or type(e.lines) is int)


def test_a_bullet_is_a_mark_beside_a_line_not_specks_of_a_starry_ground() -> None:
    stars = "".join(f'<circle cx="{20 + 37 * k}" cy="{60 + (k * 53) % 140}" r="2" fill="#fff"/>' for k in range(6))
    d = doc('<rect width="600" height="800" fill="#402060"/>' + stars
            + '<text id="big" x="260" y="180" font-size="150" fill="#fff">Conf</text>'
            + '<circle id="dot" cx="50" cy="395" r="4" fill="#000"/>'
            + '<text id="item" x="62" y="400" font-size="16">A line of a list</text>')
    items = [e for e in d.layout if e.id.startswith("la-item")]
    assert [sorted(c.id for c in d.layout.descendants_of(e.id)) for e in items] == [["dot", "item"]]
