"""World-space boxes from SVG geometry: paths, shapes, transforms, units, viewports."""

from __future__ import annotations

import math

import pytest

from assistant.geometry import Box, Matrix, parse_transform
from assistant.importer import import_svg_text
from assistant.svg import pathbbox
from assistant.svg.pathbbox import parse_path, path_bbox, sample_segments, segments_bbox
from assistant.svg.tree import local_matrix, node_ctm, parent_ctm

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" {attrs}>{body}</svg>'


def doc(body: str, attrs: str = 'viewBox="0 0 200 200"'):
    return import_svg_text(SVG.format(attrs=attrs, body=body))


def box_of(d, ident: str) -> Box:
    return d.layout.get(ident).box


def approx_box(b: Box, x: float, y: float, w: float, h: float, tol: float = 1e-6) -> None:
    assert b.x == pytest.approx(x, abs=tol) and b.y == pytest.approx(y, abs=tol)
    assert b.width == pytest.approx(w, abs=tol) and b.height == pytest.approx(h, abs=tol)


def sampled_box(d: str, m: Matrix | None = None, n: int = 4000) -> Box:
    m = m or Matrix()
    return Box.from_points(m.apply(*p) for p in sample_segments(parse_path(d), n))


# -- path bounding boxes ----------------------------------------------------------

CURVES = [
    "M10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80",
    "M10 80 Q 52.5 10, 95 80 T 180 80",
    "M 20 20 c 100 -50 -50 150 80 60",
    "M80 80 A 45 45 0 0 0 125 125 L 125 80 Z",
    "M230 80 A 45 45 0 1 0 275 125 L 275 80 Z",
    "M 10 10 a 30 50 30 1 1 40 20",
    "M 0 0 A 10 5 45 0 1 100 0",  # radii too small: scaled up (F.6.6)
    "m 10 10 l 5 5 h 10 v 10 z m 30 30 q 10 -20 20 0 t 20 0",
]


@pytest.mark.parametrize("d", CURVES)
@pytest.mark.parametrize("m", [Matrix(), Matrix.rotate(33), Matrix.skew_x(20) @ Matrix.scale(2, 0.5)])
def test_path_bbox_is_tight_against_dense_sampling(d: str, m: Matrix) -> None:
    exact = path_bbox(d, m)
    sampled = sampled_box(d, m)
    # every sampled point lies inside the exact box, and the box is not larger than the curve
    tol = 1e-6 * max(exact.width, exact.height, 1)
    assert exact.contains(sampled, tol=tol)
    assert sampled.width == pytest.approx(exact.width, rel=1e-4, abs=1e-3)
    assert sampled.height == pytest.approx(exact.height, rel=1e-4, abs=1e-3)


def test_control_points_do_not_count() -> None:
    b = path_bbox("M0 0 C 0 100 100 100 100 0")
    approx_box(b, 0, 0, 100, 75)


def test_path_with_error_draws_up_to_the_error() -> None:
    assert path_bbox("M0 0 L 10 10 L 20 x 30 40") == Box.from_edges(0, 0, 10, 10)
    assert path_bbox("M 5 5") is None
    assert path_bbox("L 10 10") is None  # data must start with a moveto


@pytest.mark.parametrize("d", [
    "M0 0 L10 10", "M 0,0 l 10 , 10 z  ", "M0 0 L10 10 x 5", "M0 0 L1e999 2", "M0 0 L" + "9" * 400 + " 1",
    "M0,0 10,10 20,0Z", "M-1.5.5L.25-3e2", "M0 0 H 10 V 10 H 0 Z m 20 20 h 5", "M0 0 L10 10 , , 5 5", "",
    "M0 0 C1 2 3 4 5 6 S 7 8 9 10 Q 1 1 2 2 T 3 3",
])
def test_path_data_read_in_one_pass_reads_as_token_by_token(d: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Path data without arcs is read with one regular expression; the answer (or error) is the token loop's."""
    def read(one_pass: int) -> object:
        monkeypatch.setattr(pathbbox, "_ONE_PASS_CHARS", one_pass)
        try:
            return pathbbox._tokens(d, 1000)
        except ValueError as err:
            return type(err).__name__
    assert read(100_000) == read(-1)


def test_arc_flags_without_separators() -> None:
    b = path_bbox("M0 0a10 10 0 1010 0")  # flags '1', '0', then x=10 y=0
    assert b.width == pytest.approx(20) and b.height == pytest.approx(10 + 5 * math.sqrt(3))


def test_full_circle_from_two_arcs() -> None:
    approx_box(path_bbox("M 50 100 A 50 50 0 0 1 150 100 A 50 50 0 0 1 50 100"), 50, 50, 100, 100)


# -- shapes and transforms -------------------------------------------------------------

def test_basic_shapes() -> None:
    d = doc(
        '<rect id="r" x="10" y="20" width="30" height="40"/>'
        '<circle id="c" cx="100" cy="100" r="10"/>'
        '<ellipse id="e" cx="50" cy="150" rx="20" ry="5"/>'
        '<line id="l" x1="0" y1="190" x2="100" y2="195" stroke="black" stroke-width="2"/>'
        '<polyline id="pl" points="150,10 160,30 170,15" fill="none" stroke="red"/>'
        '<polygon id="pg" points="150 150 190 150 170 190"/>'
    )
    approx_box(box_of(d, "r"), 10, 20, 30, 40)
    approx_box(box_of(d, "c"), 90, 90, 20, 20)
    approx_box(box_of(d, "e"), 30, 145, 40, 10)
    approx_box(box_of(d, "l"), -1, 189, 102, 7)  # half the stroke on every side
    approx_box(box_of(d, "pl"), 149.5, 9.5, 21, 21)
    approx_box(box_of(d, "pg"), 150, 150, 40, 40)


@pytest.mark.parametrize("transform, expected", [
    ("translate(10,20)", (20, 30, 20, 10)),
    ("scale(2)", (20, 20, 40, 20)),
    ("scale(2,3)", (20, 30, 40, 30)),
    ("matrix(1 0 0 1 5 5)", (15, 15, 20, 10)),
    ("rotate(90)", (-20, 10, 10, 20)),
    ("rotate(180, 20, 15)", (10, 10, 20, 10)),
    ("skewX(45)", (20, 10, 30, 10)),
    ("skewY(45)", (10, 20, 20, 30)),
    ("translate(100) rotate(90) scale(0.5)", (90, 5, 5, 10)),
])
def test_every_transform_form(transform: str, expected: tuple[float, float, float, float]) -> None:
    d = doc(f'<rect id="r" x="10" y="10" width="20" height="10" transform="{transform}"/>')
    approx_box(box_of(d, "r"), *expected, tol=1e-9)


def test_nested_groups_compose_transforms_and_keep_rotation() -> None:
    d = doc('<g transform="translate(100,100)"><g transform="rotate(45)">'
            '<rect id="r" x="-10" y="-10" width="20" height="20"/></g></g>')
    e = d.layout.get("r")
    half = 10 * math.sqrt(2)
    approx_box(e.box, 100 - half, 100 - half, 2 * half, 2 * half, tol=1e-9)
    assert e.rotation == pytest.approx(45)


def test_rotated_circle_box_is_exact() -> None:
    d = doc('<ellipse id="e" cx="0" cy="0" rx="20" ry="10" transform="translate(50 50) rotate(90)"/>')
    approx_box(box_of(d, "e"), 40, 30, 20, 40, tol=1e-9)


def test_tree_matrices_for_moving_nodes() -> None:
    d = doc('<g id="g" transform="scale(2)"><rect id="r" x="1" y="1" width="2" height="2" '
            'transform="translate(3,4)"/></g>')
    r = d.node("r")
    assert local_matrix(r) == parse_transform("translate(3,4)")
    assert parent_ctm(r) == Matrix.scale(2)
    assert node_ctm(r) == Matrix.scale(2) @ Matrix.translate(3, 4)
    # the documented move recipe: prepend translate(L^-1 (dx, dy)) to the node's transform
    dx, dy = 10.0, -6.0
    lin = parent_ctm(r)
    inv = Matrix(lin.a, lin.b, lin.c, lin.d, 0, 0).inverse()
    t = inv.apply(dx, dy)
    r.set("transform", f"translate({t[0]},{t[1]}) translate(3,4)")
    moved = node_ctm(r).map_box(Box(x=1, y=1, width=2, height=2))
    approx_box(moved, d.layout.get("r").box.x + dx, d.layout.get("r").box.y + dy, 4, 4)


# -- canvas and units --------------------------------------------------------------------

@pytest.mark.parametrize("attrs, size, units, ppu", [
    ('width="210mm" height="297mm" viewBox="0 0 210 297"', (210, 297), "mm", 96 / 25.4),
    ('width="8.5in" height="11in"', (816, 1056), "in", 1.0),
    ('width="612pt" height="792pt" viewBox="0 0 612 792"', (612, 792), "pt", 4 / 3),
    ('width="21cm" height="10.5cm" viewBox="0 0 2100 1050"', (2100, 1050), "cm", 96 / 2.54 / 100),
    ('width="100%" height="100%" viewBox="0 0 640 480"', (640, 480), "px", 1.0),
    ('viewBox="0 0 640 480"', (640, 480), "px", 1.0),
    ('width="300" height="100"', (300, 100), "px", 1.0),
    ('width="60pc" height="30pc"', (960, 480), "pc", 1.0),
    ('width="50em" height="20em"', (800, 320), "em", 1.0),
    ('width="1280" viewBox="0 0 640 480"', (640, 480), "px", 2.0),
])
def test_canvas_units(attrs: str, size: tuple[float, float], units: str, ppu: float) -> None:
    c = doc('<rect x="1" y="1" width="5" height="5"/>', attrs).layout.canvas
    assert (c.width, c.height) == pytest.approx(size)
    assert c.units == units
    assert c.px_per_unit == pytest.approx(ppu)


def test_canvas_margins_and_origin() -> None:
    c = doc('<rect x="1" y="1" width="5" height="5"/>', 'viewBox="-50 -20 400 200"').layout.canvas
    assert (c.x, c.y) == (-50, -20)
    assert c.margins.top == pytest.approx(10) and c.safe_box.x == pytest.approx(-40)


def test_preserve_aspect_ratio_slice_takes_larger_scale() -> None:
    c = doc('<rect width="5" height="5"/>',
            'width="400" height="100" viewBox="0 0 100 100" preserveAspectRatio="xMidYMid slice"').layout.canvas
    assert c.px_per_unit == pytest.approx(4.0)
    c = doc('<rect width="5" height="5"/>', 'width="400" height="100" viewBox="0 0 100 100"').layout.canvas
    assert c.px_per_unit == pytest.approx(1.0)


def test_percent_lengths_use_the_viewport() -> None:
    d = doc('<rect id="r" x="10%" y="50%" width="25%" height="10%"/>', 'viewBox="0 0 400 200"')
    approx_box(box_of(d, "r"), 40, 100, 100, 20)


def test_nested_svg_viewport_maps_and_clips() -> None:
    d = doc('<svg x="100" y="50" width="50" height="50" viewBox="0 0 10 10">'
            '<rect id="r" x="0" y="0" width="5" height="5"/></svg>'
            '<svg x="100" y="50" width="50" height="50" viewBox="0 0 10 10">'
            '<rect id="big" x="5" y="5" width="100" height="100"/></svg>')
    approx_box(box_of(d, "r"), 100, 50, 25, 25)
    approx_box(box_of(d, "big"), 125, 75, 25, 25)  # clipped to the viewport


# -- use, symbol, clip, hidden, switch ---------------------------------------------------------

def test_use_of_element_and_symbol() -> None:
    d = doc('<defs><rect id="proto" width="10" height="10"/>'
            '<symbol id="sym" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5"/></symbol></defs>'
            '<use id="u1" xlink:href="#proto" x="20" y="30"/>'
            '<use id="u2" href="#sym" x="100" y="100" width="40" height="40" transform="translate(5,0)"/>')
    ids = [e.id for e in d.layout]
    assert "proto" not in ids and "sym" not in ids
    approx_box(box_of(d, "u1"), 20, 30, 10, 10)
    approx_box(box_of(d, "u2"), 105, 100, 40, 40)


def test_recursive_use_draws_nothing_and_does_not_hang() -> None:
    d = doc('<g id="a"><use id="u" href="#a"/><rect id="r" width="10" height="10"/></g>')
    assert [e.id for e in d.layout if e.kind != "group"] == ["r"]


def test_clip_path_clips_the_box() -> None:
    d = doc('<defs><clipPath id="c"><rect x="0" y="0" width="50" height="50"/></clipPath></defs>'
            '<image id="img" x="20" y="20" width="100" height="100" clip-path="url(#c)" href="x.png"/>'
            '<g clip-path="url(#c)" transform="translate(10,10)">'
            '<rect id="r" x="30" y="30" width="40" height="40"/></g>')
    approx_box(box_of(d, "img"), 20, 20, 30, 30)
    approx_box(box_of(d, "r"), 40, 40, 20, 20)  # the clip lives in the group's user space


@pytest.mark.parametrize("hidden", [
    'display="none"', 'style="display:none"', 'visibility="hidden"', 'opacity="0"',
    'fill-opacity="0"', 'fill="none"', 'style="fill:none;stroke:red;stroke-width:0"',
])
def test_hidden_content_is_ignored(hidden: str) -> None:
    d = doc(f'<rect id="shown" width="10" height="10"/><rect id="h" x="50" width="10" height="10" {hidden}/>')
    assert "h" not in d.layout and "shown" in d.layout


def test_hidden_group_hides_children_but_visibility_can_be_overridden() -> None:
    d = doc('<g display="none"><rect id="a" width="10" height="10"/></g>'
            '<g visibility="hidden"><rect id="b" width="10" height="10"/>'
            '<rect id="c" x="20" width="10" height="10" visibility="visible"/></g>'
            '<g opacity="0"><rect id="d" width="10" height="10"/></g>')
    assert [e.id for e in d.layout] == ["c"]


def test_switch_draws_first_matching_child() -> None:
    d = doc('<switch><rect id="a" width="5" height="5" requiredExtensions="http://example.org/x"/>'
            '<rect id="b" width="6" height="6" systemLanguage="fr"/>'
            '<rect id="c" width="7" height="7"/><rect id="d" width="8" height="8"/></switch>')
    assert [e.id for e in d.layout] == ["c"]


def test_segments_bbox_empty() -> None:
    assert segments_bbox([]) is None


def _png_data_uri(w: int, h: int) -> str:
    import base64
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (w, h), "red").save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def test_image_meet_draws_in_a_smaller_rectangle() -> None:
    uri = _png_data_uri(200, 100)
    d = doc(f'<image id="a" x="0" y="0" width="100" height="100" href="{uri}"/>'
            f'<image id="b" x="0" y="100" width="100" height="100" preserveAspectRatio="xMinYMax meet" href="{uri}"/>'
            f'<image id="c" x="100" y="0" width="100" height="100" preserveAspectRatio="none" href="{uri}"/>'
            f'<image id="d" x="100" y="100" href="{uri}"/>'
            '<image id="e" x="0" y="0" href="picture-never-read.png"/>')
    approx_box(box_of(d, "a"), 0, 25, 100, 50)
    approx_box(box_of(d, "b"), 0, 150, 100, 50)
    approx_box(box_of(d, "c"), 100, 0, 100, 100)
    approx_box(box_of(d, "d"), 100, 100, 200, 100)  # SVG 2 auto size from the picture
    assert "e" not in d.layout


def test_box_distance_is_the_gap_between_boxes() -> None:
    a = Box(x=0, y=0, width=10, height=10)
    assert a.distance(Box(x=5, y=5, width=10, height=10)) == 0.0  # overlapping
    assert a.distance(Box(x=10, y=0, width=5, height=5)) == 0.0  # touching
    assert a.distance(Box(x=0, y=14, width=5, height=5)) == 4.0  # below
    assert a.distance(Box(x=13, y=14, width=5, height=5)) == pytest.approx(5.0)  # diagonal: 3, 4, 5
    assert Box(x=13, y=14, width=5, height=5).distance(a) == pytest.approx(5.0)
