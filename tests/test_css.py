"""Computed styles: cascade order, selectors, inheritance, shorthand, real corpus sheets."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lxml import etree

from assistant.svg.css import StyleResolver, parse_color, parse_declarations, parse_font_weight, resolve_length

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo"
SVG = "http://www.w3.org/2000/svg"


def parse(text: str) -> etree._Element:
    return etree.fromstring(text.encode())


def by_id(root: etree._Element, xml_id: str) -> etree._Element:
    return root.xpath(f"//*[@id='{xml_id}']")[0]


def test_cascade_order_attribute_sheet_style_important() -> None:
    root = parse(f"""<svg xmlns="{SVG}"><style>
        rect {{ fill: green; stroke: blue }}
        .c {{ fill: yellow }}
        #r {{ fill: orange; opacity: 0.5 !important }}
        </style>
        <rect id="r" class="c" fill="red" style="fill: purple; opacity: 1"/>
        <rect id="s" class="c" fill="red"/>
        <rect id="t" fill="red"/>
        <circle id="u" fill="red"/></svg>""")
    r = StyleResolver(root)
    assert r.get(by_id(root, "r"), "fill") == "purple"       # style attribute beats sheets
    assert r.get(by_id(root, "r"), "opacity") == "0.5"       # !important in the sheet beats style
    assert r.get(by_id(root, "s"), "fill") == "yellow"       # class beats type selector
    assert r.get(by_id(root, "t"), "fill") == "green"        # any sheet rule beats presentation attribute
    assert r.get(by_id(root, "t"), "stroke") == "blue"
    assert r.get(by_id(root, "u"), "fill") == "red"          # unmatched: presentation attribute


def test_descendant_and_compound_selectors_and_specificity_order() -> None:
    root = parse(f"""<svg xmlns="{SVG}"><style>
        g text {{ font-size: 10px }}
        g > text.big {{ font-size: 30px }}
        text.big {{ font-size: 20px }}
        </style>
        <g><text id="a" class="big">x</text><text id="b">y</text></g>
        <text id="c" class="big">z</text></svg>""")
    r = StyleResolver(root)
    assert r.get(by_id(root, "a"), "font-size") == "30px"
    assert r.get(by_id(root, "b"), "font-size") == "10px"
    assert r.get(by_id(root, "c"), "font-size") == "20px"


def test_inheritance_only_for_inherited_properties() -> None:
    root = parse(f"""<svg xmlns="{SVG}"><g id="g" fill="#123456" opacity="0.5"
        style="font-family: Arial; letter-spacing: 2px; display: inline">
        <text id="t">x<tspan id="s" fill="inherit" opacity="inherit">y</tspan></text></g></svg>""")
    r = StyleResolver(root)
    t = by_id(root, "t")
    assert r.get(t, "fill") == "#123456"
    assert r.get(t, "font-family") == "Arial"
    assert r.get(t, "letter-spacing") == "2px"
    assert r.get(t, "opacity") is None
    assert r.get(t, "display") is None
    s = by_id(root, "s")
    assert r.get(s, "opacity") is None  # parent <text> has no opacity to inherit
    assert r.color(s) == "#123456"


def test_font_shorthand() -> None:
    decls = {n: v for n, v, _ in parse_declarations("font: italic bold 12px/1.5 'Open Sans', Arial, sans-serif")}
    assert decls["font-style"] == "italic"
    assert decls["font-weight"] == "bold"
    assert decls["font-size"] == "12px"
    assert decls["line-height"] == "1.5"
    assert decls["font-family"].split(", ")[1:] == ["Arial", "sans-serif"]
    decls = {n: v for n, v, _ in parse_declarations("font: 600 9pt serif")}
    assert decls == {"font-style": "normal", "font-variant": "normal", "font-weight": "600",
                     "font-stretch": "normal", "line-height": "normal", "font-size": "9pt",
                     "font-family": "serif"}


def _style_attributes() -> list[str]:
    texts: list[str] = []
    for path in sorted((CORPUS.parent).rglob("*.svg")):
        try:
            tree = etree.parse(str(path), etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True))
        except etree.XMLSyntaxError:
            continue
        texts += [el.get("style") for el in tree.iter() if isinstance(el.tag, str) and el.get("style") is not None]
    return texts


def test_plain_style_attributes_read_as_the_tokenizer_reads_them() -> None:
    """The split reading of plain declaration lists gives what tinycss2 gives, on the corpus and on noise."""
    from assistant.svg.css import _plain_declarations, _tokenized_declarations

    texts = _style_attributes()
    plain = [t for t in texts if _plain_declarations(t) is not None]
    assert len(texts) > 5000 and len(plain) > 0.8 * len(texts)  # most real style attributes are plain
    assert [_plain_declarations(t) for t in plain] == [_tokenized_declarations(t) for t in plain]
    rng = random.Random(7)
    for alphabet in ("ab-_:;# .,%()1e+\n\t", "aeu-lrU:;#(). 19,%", "fil:;#0.5e-px %rgb(),url\t"):
        for _ in range(20_000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
            got = _plain_declarations(text)
            assert got is None or got == _tokenized_declarations(text), text
    # what the split reading leaves to the tokenizer
    assert _plain_declarations("font-family:'Open Sans'") is None
    assert _plain_declarations("fill:red!important") is None
    assert _plain_declarations("fill:url( #a )") is None
    assert parse_declarations("fill:url( #a );opacity:.5") == (("fill", "url(#a)", False), ("opacity", ".5", False))


def test_font_size_and_weight_resolution() -> None:
    root = parse(f"""<svg xmlns="{SVG}"><g id="g" font-size="20" font-weight="bold">
        <text id="a" style="font-size:150%;font-weight:bolder">x</text>
        <text id="b" font-size="2em" font-weight="lighter">y</text>
        <text id="c" style="font-size:12pt">z</text></g><text id="d">w</text></svg>""")
    r = StyleResolver(root)
    assert r.font_size(by_id(root, "a")) == pytest.approx(30.0)
    assert r.font_size(by_id(root, "b")) == pytest.approx(40.0)
    assert r.font_size(by_id(root, "c")) == pytest.approx(16.0)
    assert r.font_size(by_id(root, "d")) == pytest.approx(16.0)
    assert r.font_weight(by_id(root, "a")) == 900
    assert r.font_weight(by_id(root, "b")) == 400
    assert r.font_weight(by_id(root, "d")) == 400
    assert parse_font_weight("550") == 550
    assert resolve_length("5mm", 10, 100) == pytest.approx(18.8976, rel=1e-4)


def test_colours() -> None:
    assert parse_color("#ABC") == "#aabbcc"
    assert parse_color("rgb(255, 0, 0)") == "#ff0000"
    assert parse_color("teal") == "#008080"
    assert parse_color("url(#grad) #00ff00") == "#00ff00"
    assert parse_color("url(#grad)") is None
    assert parse_color("none") is None
    assert parse_color("not-a-colour") is None


def test_inkscape_long_style_attribute_on_corpus_file() -> None:
    tree = etree.parse(str(CORPUS / "mapbender_a4.svg"), etree.XMLParser(huge_tree=True))
    r = StyleResolver(tree)
    node = tree.getroot().xpath("//*[@id='Local-Chapters']")[0]
    assert r.get(node, "font-family") == "Sintony-Bold, Sintony"
    assert r.get(node, "-inkscape-font-specification") == '"Sintony-Bold, Sintony, Normal"'
    assert r.font_size(node) == pytest.approx(8.5)
    assert r.font_weight(node) == 400          # "font-weight:normal" in the style attribute
    assert r.color(node) == "#0b3033"           # inherited from the group's style


def test_illustrator_class_sheet_on_corpus_file() -> None:
    parser = etree.XMLParser(huge_tree=True, recover=True)
    tree = etree.parse(str(CORPUS / "geonode_a4.svg"), parser)
    r = StyleResolver(tree)
    texts = [t for t in tree.getroot().iter(f"{{{SVG}}}text") if "st1" in (t.get("class") or "").split()]
    assert texts
    t = texts[0]
    assert r.get(t, "font-family").strip("'\"") == "MiriamLibre-Bold"
    assert r.color(t) in {"#4ab968", "#00393f"}
    # Every node of every corpus file gets a computed style without error.
    for path in sorted(CORPUS.glob("*.svg")):
        tr = etree.parse(str(path), parser)
        res = StyleResolver(tr)
        for el in tr.getroot().iter():
            if isinstance(el.tag, str):
                assert isinstance(res.computed(el), dict)


def test_unclosed_paint_server_url_is_no_colour():
    from assistant.svg.css import parse_color

    assert parse_color("url(#") is None
    assert parse_color("url(#grad) #ff0000") == "#ff0000"
