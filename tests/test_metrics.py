"""Each metric on small synthetic layouts: a clean case scores high, a broken one low, findings say why."""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial

import numpy as np
import pytest

from assistant.document import Canvas, Element, Layout, Margins
from assistant.errors import MetricError
from assistant.geometry import Box
from assistant.metrics import DEFAULT_WEIGHTS, METRIC_NAMES, Backdrop, evaluate
from assistant.metrics.contrast import contrast_ratio, luminance


def el(id: str, x: float, y: float, w: float, h: float, *, role: str = "body", kind: str | None = None,
       **kw: object) -> Element:
    kind = kind or ("text" if role in ("title", "subtitle", "body", "caption") else
                    "image" if role in ("image", "logo") else "shape")
    if kind == "text":
        kw.setdefault("text", f"{role} {id}")
        kw.setdefault("font_size", {"title": 48.0, "subtitle": 28.0, "body": 16.0, "caption": 12.0}.get(role, 18.0))
        kw.setdefault("fill", "#111111")
    return Element(id=id, kind=kind, role=role, box=Box(x=x, y=y, width=w, height=h), **kw)


def lay(*els: Element, w: float = 1000, h: float = 1000, margin: float = 50) -> Layout:
    margins = Margins(top=margin, right=margin, bottom=margin, left=margin)
    return Layout(canvas=Canvas(width=w, height=h, margins=margins), elements=list(els))


def poster() -> Layout:
    """A tidy poster: one column on a 2-column grid, consistent gaps, clear hierarchy."""
    return lay(
        el("title", 100, 100, 800, 60, role="title"),
        el("sub", 100, 180, 600, 34, role="subtitle"),
        el("p1", 100, 250, 380, 120),
        el("p2", 100, 390, 380, 120),
        el("photo", 520, 250, 380, 260, role="image"),
        el("p3", 100, 530, 380, 120),
        el("btn", 100, 800, 380, 80, role="cta", kind="shape", fill="#1144aa", group="cta"),
        el("btn-label", 140, 820, 300, 40, role="cta", kind="text", text="Buy now", font_size=24.0, fill="#ffffff",
           group="cta"),
    )


#: These tests pin each metric's own definition: its measure before it is judged against the norms of
#: published designs (tests/test_norms.py tests the judging).
measure = partial(evaluate, judged=False)


def score(layout: Layout, metric: str, **kw: object) -> float:
    return measure(layout, checks=[metric], **kw).score(metric)


def apply_move(layout: Layout, action: dict) -> Layout:
    out = layout.copy_deep()
    for i in action["ids"]:
        e = out.get(i)
        out.replace(e.model_copy(update={"box": e.box.translated(action["dx"], action["dy"])}))
    return out


# -- the report ---------------------------------------------------------------------------------------
def test_report_has_every_metric_in_unit_range_and_a_weighted_composite() -> None:
    r = measure(poster())
    assert list(r.metrics) == list(METRIC_NAMES)
    assert all(0.0 <= m.score <= 1.0 for m in r.metrics.values())
    assert sum(r.weights.values()) == pytest.approx(1.0)
    assert "instruction_fit" not in r.weights  # no constraints: left out of the composite
    assert not r.metrics["instruction_fit"].applicable
    assert r.composite == pytest.approx(sum(r.weights[k] * r.score(k) for k in r.weights))


def test_report_is_deterministic() -> None:
    a, b = measure(poster()).model_dump(), measure(poster()).model_dump()
    assert a == b


def test_weights_override_and_checks_select() -> None:
    r = measure(poster(), weights={"overlap": 0.0}, checks=["overlap", "alignment"])
    assert list(r.metrics) == ["overlap", "alignment"]
    assert r.weights == {"overlap": 0.0, "alignment": 1.0}
    assert r.composite == pytest.approx(r.score("alignment"))
    assert DEFAULT_WEIGHTS["overlap"] > 0  # the defaults were not touched


@pytest.mark.parametrize("kw", [{"checks": ["beauty"]}, {"weights": {"beauty": 1.0}}, {"weights": {"overlap": -1.0}},
                                {"weights": {"overlap": float("nan")}}])
def test_bad_names_and_weights_raise_metric_error(kw: dict) -> None:
    with pytest.raises(MetricError):
        measure(poster(), **kw)


def test_weakest_and_findings_are_ranked() -> None:
    broken = poster().copy_deep()
    broken.replace(broken.get("p2").model_copy(update={"box": Box(x=100, y=270, width=380, height=120)}))
    r = measure(broken)
    weakest = r.weakest(2)
    assert weakest[0].score <= weakest[1].score
    assert all(weakest[-1].score <= m.score for m in r.metrics.values() if m.applicable and m not in weakest)
    ranks = {"high": 0, "medium": 1, "low": 2}
    sev = [ranks[f.severity] for f in r.findings()]
    assert sev == sorted(sev)
    assert r.findings(metric="overlap")[0].element_ids == ["p1", "p2"]


# -- overlap ------------------------------------------------------------------------------------------
def test_overlap_tells_text_over_text_from_intended_overlays() -> None:
    clean = poster()
    assert score(clean, "overlap") == 1.0  # label inside its button, in the same group
    on_bg = lay(el("bg", 0, 0, 1000, 1000, kind="image", role="image"), el("t", 100, 100, 500, 80, role="title"))
    assert score(on_bg, "overlap") == 1.0  # full-bleed image is a background
    text_text = lay(el("a", 100, 100, 400, 100), el("b", 150, 120, 400, 100))
    text_img = lay(el("b", 150, 120, 400, 100, role="image"), el("a", 100, 100, 400, 100))  # text painted on top
    assert score(text_text, "overlap") < score(text_img, "overlap") < 1.0


def test_overlap_sees_text_painted_under_an_opaque_element() -> None:
    # the same boxes: text painted after the image is over it; painted before, it is hidden where they meet
    over = lay(el("b", 150, 120, 400, 100, role="image"), el("a", 100, 100, 400, 100))
    under = lay(el("a", 100, 100, 400, 100), el("b", 150, 120, 400, 100, role="image"))
    text_text = lay(el("a", 100, 100, 400, 100), el("b", 150, 120, 400, 100))
    assert score(under, "overlap") == pytest.approx(score(text_text, "overlap"))
    assert score(under, "overlap") < score(over, "overlap")
    f = measure(under, checks=["overlap"]).findings()[0]
    assert f.message.startswith("hidden text: body 'a'") and f.element_ids == ["a", "b"]
    # a label painted under its own button: hidden, and the fix brings it to the front
    label_under = lay(el("btn-label", 140, 820, 300, 40, role="cta", kind="text", text="Buy now", fill="#ffffff",
                         group="cta"),
                      el("btn", 100, 800, 380, 80, role="cta", kind="shape", fill="#1144aa", group="cta"))
    f = measure(label_under, checks=["overlap"]).findings()[0]
    assert f.severity == "high" and f.suggestion == {"type": "reorder", "id": "btn-label", "to": "front"}
    label, btn = label_under.elements
    assert score(lay(btn, label), "overlap") == 1.0  # brought to the front: a label on its button again
    # an outline (no fill) or a faint veil over text hides nothing
    for top in (el("frame", 100, 800, 380, 80, kind="shape", role="decoration", fill=None),
                el("veil", 100, 800, 380, 80, kind="shape", role="decoration", fill="#000000", opacity=0.3)):
        framed = lay(el("t", 140, 820, 300, 40, role="body"), top)
        assert not any(x.message.startswith("hidden") for x in measure(framed, checks=["overlap"]).findings())


def test_overlap_suggestion_separates_the_pair() -> None:
    broken = lay(el("a", 100, 100, 400, 100, role="title"), el("b", 150, 150, 400, 100))
    f = measure(broken, checks=["overlap"]).findings()[0]
    assert f.suggestion["type"] == "move" and f.suggestion["ids"] == ["b"]  # the less important one moves
    assert score(apply_move(broken, f.suggestion), "overlap") == 1.0


# -- alignment ----------------------------------------------------------------------------------------
def test_alignment_grid_scores_one_and_a_mess_scores_low() -> None:
    grid = lay(*[el(f"e{r}{c}", 100 + 300 * c, 100 + 250 * r, 200, 150, role="image")
                 for r in range(3) for c in range(3)])
    assert score(grid, "alignment") == pytest.approx(1.0)
    messes = []
    for seed in range(5):
        rng = np.random.default_rng(seed)
        messes.append(lay(*[el(f"m{i}", *rng.uniform(0, 700, 2), *rng.uniform(50, 250, 2), role="image")
                            for i in range(9)]))
    assert np.mean([score(m, "alignment") for m in messes]) < 0.6


def test_alignment_names_near_misses_in_px_and_suggests_align() -> None:
    layout = lay(el("title", 100, 100, 600, 60, role="title"), el("p", 103.2, 200, 400, 200))
    f = measure(layout, checks=["alignment"]).findings()[0]
    assert "left edges" in f.message and "3.2 px apart — almost aligned" in f.message
    assert f.suggestion == {"type": "align", "ids": ["p"], "edge": "left", "to": "element", "target_id": "title"}


# -- spacing ------------------------------------------------------------------------------------------
def test_spacing_rewards_consistent_gaps_and_suggests_the_fix() -> None:
    even = lay(*[el(f"p{i}", 100, 100 + 140 * i, 400, 100) for i in range(5)])
    assert score(even, "spacing") == pytest.approx(1.0)
    ys = [100, 240, 340, 520, 640]
    uneven = lay(*[el(f"p{i}", 100, y, 400, 100) for i, y in enumerate(ys)])
    r = measure(uneven, checks=["spacing"])
    assert r.score("spacing") < 0.8
    f = r.findings()[0]
    assert f.suggestion["type"] == "move" and f.suggestion["dx"] == 0.0
    assert score(apply_move(uneven, f.suggestion), "spacing") > r.score("spacing")


# -- margins ------------------------------------------------------------------------------------------
def test_margins_penalise_crossing_the_safe_box_but_not_bleeds() -> None:
    inside = lay(el("t", 100, 100, 400, 80, role="title"))
    assert score(inside, "margins") == 1.0
    bleed = lay(el("t", 100, 100, 400, 80, role="title"), el("photo", -20, 600, 500, 420, role="image"),
                el("bar", 0, 0, 1000, 30, role="decoration", kind="shape"))
    assert score(bleed, "margins") == 1.0
    crossing = lay(el("t", 20, 100, 400, 80, role="title"))
    off = lay(el("t", -40, 100, 400, 80, role="title"))
    assert score(off, "margins") < score(crossing, "margins") < 1.0
    f = measure(crossing, checks=["margins"]).findings()[0]
    assert f.suggestion == {"type": "move", "ids": ["t"], "dx": 30.0, "dy": 0.0}
    assert score(apply_move(crossing, f.suggestion), "margins") == 1.0


# -- balance ------------------------------------------------------------------------------------------
def test_balance_symmetric_beats_lopsided() -> None:
    sym = lay(el("a", 100, 400, 300, 200, role="image"), el("b", 600, 400, 300, 200, role="image"))
    left = lay(el("a", 60, 100, 300, 200, role="image"), el("b", 60, 700, 300, 200, role="image"))
    assert score(sym, "balance") > 0.95
    assert score(left, "balance") < 0.8
    f = measure(left, checks=["balance"]).findings()[0]
    assert "left" in f.message and f.suggestion["dx"] > 0


# -- hierarchy ----------------------------------------------------------------------------------------
def test_hierarchy_wants_the_title_largest_with_a_type_scale() -> None:
    assert score(poster(), "hierarchy") > 0.7  # title 1.7× the subtitle: ordered, moderately dominant
    weak = poster().copy_deep()
    weak.replace(weak.get("title").model_copy(update={"font_size": 14.0}))
    r = measure(weak, checks=["hierarchy"])
    assert r.score("hierarchy") < 0.5
    promote = [f.suggestion for f in r.findings() if f.suggestion and f.suggestion["type"] == "promote"]
    assert promote and promote[0]["id"] == "title" and promote[0]["factor"] > 1.5


# -- grouping -----------------------------------------------------------------------------------------
def test_grouping_related_elements_closer_than_strangers() -> None:
    good = lay(el("h", 100, 100, 300, 30, role="subtitle"), el("p", 100, 140, 300, 100),
               el("img", 600, 100, 300, 200, role="image"))
    bad = lay(el("h", 100, 100, 300, 30, role="subtitle"), el("p", 100, 400, 300, 100),
              el("img", 420, 100, 300, 200, role="image"))
    assert score(good, "grouping") > 0.9
    assert score(bad, "grouping") < 0.6


@pytest.mark.parametrize("native", [True, False])
def test_grouping_leaves_relatives_beyond_its_reach_alone(native: bool) -> None:
    from assistant.metrics import grouping, native_core

    REACH = grouping.REACH
    # a header logo and a footer sponsor's logo, a footer URL (caption) and a picture half a page away
    def page(logo_gap: float, caption_gap: float) -> Layout:
        return lay(el("logo1", 700, 60, 200, 60, role="logo", kind="shape"),
                   el("title", 100, 60, 500, 60, role="title", font_size=48.0),
                   el("img", 100, 300, 400, 200, role="image", kind="image"),
                   el("p", 550, 300, 350, 200),
                   el("url", 100, 500 + caption_gap, 300, 20, role="caption", font_size=12.0),
                   el("logo2", 700, 120 + logo_gap, 200, 60, role="logo", kind="shape"),
                   el("foot", 550, 120 + logo_gap - 30, 140, 20, role="body"))
    assert REACH * 1000 == pytest.approx(330)
    with native_core.numpy_only() if not native else nullcontext():
        far = measure(page(logo_gap=600, caption_gap=400), checks=["grouping"])
        near = measure(page(logo_gap=200, caption_gap=200), checks=["grouping"])
    assert not [f for f in far.findings() if {"logo1", "logo2"} & set(f.element_ids[:2])]
    assert not [f for f in far.findings() if f.element_ids[0] in ("url", "img") and "url" in f.element_ids[:2]]
    # within the reach the same relatives are judged: they are further apart than their strangers
    judged = {tuple(f.element_ids[:2]) for f in near.findings()}
    assert ("logo1", "logo2") in judged or ("logo2", "logo1") in judged
    assert ("url", "img") in judged or ("img", "url") in judged


# -- reading order ------------------------------------------------------------------------------------
def test_reading_order_title_first_cta_last() -> None:
    assert score(poster(), "reading_order") == 1.0
    flipped = poster().copy_deep()
    flipped.replace(flipped.get("title").model_copy(update={"box": Box(x=100, y=900, width=800, height=60)}))
    r = measure(flipped, checks=["reading_order"])
    assert r.score("reading_order") < 0.6
    assert r.findings()[0].element_ids == ["title"]
    assert r.findings()[0].suggestion == {"type": "anchor_to_region", "ids": ["title"], "region": "top_band"}


# -- text fit -----------------------------------------------------------------------------------------
def test_text_fit_flags_tiny_text_and_text_off_the_canvas() -> None:
    assert score(poster(), "text_fit") == 1.0
    tiny = lay(el("p", 100, 100, 400, 100, font_size=6.0))  # 0.6 % of a 1000 px canvas; body needs 1.2 %
    r = measure(tiny, checks=["text_fit"])
    assert r.score("text_fit") < 0.5
    assert r.findings()[0].suggestion == {"type": "set_text_style", "ids": ["p"], "font_size": 12.0}
    off = lay(el("p", 800, 100, 400, 100))
    f = measure(off, checks=["text_fit"]).findings()[0]
    # back onto the canvas and on to its safe margin (5 % of the short side: nothing else is on that side)
    assert "off the canvas" in f.message and f.suggestion["dx"] == -250.0
    spill = lay(el("panel", 100, 100, 400, 200, role="decoration", kind="shape"), el("p", 120, 110, 500, 80))
    assert any("spills out" in f.message for f in measure(spill, checks=["text_fit"]).findings())


def test_legible_size_scales_with_the_canvas() -> None:
    small = lay(el("p", 10, 10, 100, 20, font_size=9.0), w=600, h=400)
    big = lay(el("p", 10, 10, 100, 20, font_size=9.0), w=2400, h=1600)
    assert score(small, "text_fit") == 1.0 and score(big, "text_fit") < 1.0


# -- grid ---------------------------------------------------------------------------------------------
def test_grid_detects_columns() -> None:
    cols = lay(*[el(f"e{r}{c}", 50 + 310 * c, 100 + 200 * r, 280, 150, role="image")
                 for r in range(3) for c in range(3)])
    assert score(cols, "grid") > 0.95
    messes = []
    for seed in range(5):
        rng = np.random.default_rng(seed)
        messes.append(lay(*[el(f"m{i}", float(rng.uniform(50, 600)), 60.0 + 100 * i, float(rng.uniform(100, 300)),
                               80, role="image") for i in range(9)]))
    assert np.mean([score(m, "grid") for m in messes]) < 0.7


# -- whitespace ---------------------------------------------------------------------------------------
def test_whitespace_band() -> None:
    assert score(poster(), "whitespace") == 1.0
    empty = lay(el("t", 100, 100, 200, 50, role="title"), el("p", 100, 200, 200, 50))
    crowded = lay(*[el(f"e{i}", 0, 100 * i, 1000, 100, role="image") for i in range(10)])
    assert score(empty, "whitespace") < 0.5
    assert score(crowded, "whitespace") < 0.5


# -- contrast -----------------------------------------------------------------------------------------
def test_wcag_reference_values() -> None:
    white, black = luminance(np.array([1.0, 1.0, 1.0])), luminance(np.array([0.0, 0.0, 0.0]))
    assert contrast_ratio(white, black) == pytest.approx(21.0)
    grey = luminance(np.array([0x77, 0x77, 0x77]) / 255)
    assert contrast_ratio(white, grey) == pytest.approx(4.48, abs=0.01)


def test_contrast_reads_what_lies_under_the_text() -> None:
    assert score(poster(), "contrast") == 1.0  # white label on a dark button, dark text on the white page
    pale = lay(el("p", 100, 100, 400, 100, fill="#dddddd"))
    assert score(pale, "contrast") < 0.4
    f = measure(pale, checks=["contrast"]).findings()[0]
    # the pale grey made just dark enough: a darker grey, not black
    assert f.suggestion["type"] == "set_text_style" and f.suggestion["ids"] == ["p"]
    fixed = f.suggestion["fill"]
    assert fixed != "#000000" and fixed[1:3] == fixed[3:5] == fixed[5:7]
    assert 4.5 <= contrast_ratio(luminance(np.array([int(fixed[1:3], 16)] * 3) / 255), 1.0) < 5.0
    dark_panel = lay(el("panel", 50, 50, 600, 300, role="decoration", kind="shape", fill="#202020"),
                     el("p", 100, 100, 400, 100, fill="#202020"))
    assert score(dark_panel, "contrast") < 0.1


def test_contrast_fix_keeps_a_brand_colour_hue() -> None:
    import colorsys

    from assistant.metrics.contrast import shade_meeting

    def rgb(h: str) -> tuple[float, float, float]:
        return tuple(int(h[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]

    green = "#8cc63f"  # a light brand green: 1.9:1 on white
    heading = lay(el("h", 100, 100, 600, 40, role="subtitle", font_size=20.0, fill=green))
    f = measure(heading, checks=["contrast"]).findings()[0]
    fill = f.suggestion["fill"]
    h0, _, v0 = colorsys.rgb_to_hsv(*rgb(green))
    h1, _, v1 = colorsys.rgb_to_hsv(*rgb(fill))
    assert abs(h1 - h0) < 0.02 and v1 < v0  # the same green, darker
    assert 4.5 <= contrast_ratio(luminance(np.array(rgb(fill))), 1.0) < 4.5 * 1.1
    fixed = lay(el("h", 100, 100, 600, 40, role="subtitle", font_size=20.0, fill=fill))
    assert score(fixed, "contrast") == 1.0
    # light text on a dark panel gets lighter; a colour no shade of which can pass, and an unknown fill, get white
    assert shade_meeting(rgb("#335577"), 0.01, 4.5, 1.0, darker=False) not in (None, "#ffffff")
    assert shade_meeting(rgb("#000000"), 1.0, 4.5, 1.0, darker=True) is None
    night = lay(el("panel", 50, 50, 600, 300, role="decoration", kind="shape", fill="#101010"),
                el("p", 100, 100, 400, 100, fill=None))
    assert measure(night, checks=["contrast"]).findings()[0].suggestion["fill"] == "#ffffff"


def test_contrast_uses_a_backdrop_when_given() -> None:
    layout = lay(el("p", 100, 100, 400, 100, fill="#ffffff"))
    assert score(layout, "contrast") < 0.1  # white on the (assumed) white page
    img = np.zeros((100, 100, 4), dtype=np.uint8)
    img[..., 3] = 255  # a black rendering under everything
    assert score(layout, "contrast", backdrop=Backdrop(image=img, scale=0.1)) == 1.0
    with pytest.raises(MetricError):
        Backdrop(image=np.zeros((10, 10)), scale=1.0)


# -- instruction fit ----------------------------------------------------------------------------------
def test_instruction_fit_scores_constraints() -> None:
    instructions = pytest.importorskip("assistant.instructions")
    compiled = instructions.compile_instruction("logo top right")
    layout = lay(el("t", 100, 100, 600, 60, role="title"), el("logo", 60, 850, 100, 100, role="logo"))
    r = measure(layout, constraints=compiled.constraints)
    assert r.metrics["instruction_fit"].applicable and "instruction_fit" in r.weights
    moved = apply_move(layout, {"ids": ["logo"], "dx": 780.0, "dy": -790.0})
    assert measure(moved, constraints=compiled.constraints).score("instruction_fit") > r.score("instruction_fit")


def test_make_backdrop_reads_colours_the_element_model_cannot() -> None:
    svg_import = pytest.importorskip("assistant.importer.build")
    pytest.importorskip("assistant.render.raster")
    from assistant.metrics import make_backdrop

    svg = """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
      <defs><linearGradient id="g"><stop offset="0" stop-color="#000010"/><stop offset="1" stop-color="#101020"/>
      </linearGradient></defs>
      <rect id="panel" x="0" y="0" width="400" height="300" fill="url(#g)"/>
      <text id="t" x="40" y="150" font-size="32" fill="#ffffff">Night sale</text>
    </svg>"""
    doc = svg_import.import_svg_text(svg)
    # a gradient has no single fill colour: the element model sees a white page under white text
    assert measure(doc.layout, checks=["contrast"]).score("contrast") < 0.2
    backdrop = make_backdrop(doc, max_size=200)
    assert backdrop.image.shape[1] == 200 and backdrop.scale == pytest.approx(0.5)
    assert measure(doc.layout, checks=["contrast"], backdrop=backdrop).score("contrast") == 1.0
    assert doc.node("t").get("style") in (None, "")  # the document itself is untouched


def test_coverage_is_the_exact_union_area_for_small_layouts() -> None:
    from assistant.metrics.context import LayoutArrays
    from assistant.metrics.whitespace import coverage

    la = LayoutArrays(lay(el("a", 0, 0, 500, 500, role="image"), el("b", 250, 250, 500, 500, role="image"),
                          el("c", 900, 900, 200, 200, role="image")))
    union = 500 * 500 * 2 - 250 * 250 + 100 * 100  # c is clipped to the canvas
    assert coverage(la, np.arange(3)) == pytest.approx(union / 1e6)


def test_reading_order_flags_a_call_to_action_read_first() -> None:
    early_cta = poster().copy_deep()
    for i in ("btn", "btn-label"):
        e = early_cta.get(i)
        early_cta.replace(e.model_copy(update={"box": e.box.translated(0.0, -780.0)}))
    r = measure(early_cta, checks=["reading_order"])
    assert r.score("reading_order") < 0.9
    cta = [f for f in r.findings() if f.element_ids == ["btn-label"]]
    assert cta and "before elements that should precede it" in cta[0].message
    assert cta[0].suggestion == {"type": "anchor_to_region", "ids": ["btn-label"], "region": "bottom"}
