"""Overlay renders: boxes in role colours, ids, region crops, findings, size limits."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assistant.errors import ExportError, InvalidAction
from assistant.geometry import Box
from assistant.importer import import_svg
from assistant.render.overlay import ROLE_COLOURS, render_overlay_png

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo"


@pytest.fixture(scope="module")
def doc():
    return import_svg(CORPUS / "pgRouting_a4.svg")


def _img(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _near(arr: np.ndarray, colour: str, tol: int = 40) -> np.ndarray:
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    return np.abs(arr - rgb).sum(axis=2) < tol


def test_boxes_drawn_in_role_colours_and_size_limits(doc) -> None:
    png = render_overlay_png(doc, max_size=512)
    assert len(png) < 1_000_000
    img = _img(png)
    assert max(img.shape[:2]) == 512
    k = 512 / doc.layout.canvas.height
    title = next(e for e in doc.layout.elements if e.role == "title")
    # The title box's left edge is drawn in the title colour.
    x = int(round(title.box.x * k))
    ys = slice(int(title.box.y * k) + 2, int(title.box.y2 * k) - 2)
    column = img[ys, max(x - 2, 0):x + 3]
    assert _near(column, ROLE_COLOURS["title"]).mean() > 0.15


def test_ids_filter_and_unknown_id(doc) -> None:
    body = next(e for e in doc.layout.elements if e.role == "body")
    only = _img(render_overlay_png(doc, ids=[body.id], max_size=400))
    assert _near(only, ROLE_COLOURS["title"], 20).sum() < _near(_img(render_overlay_png(doc, max_size=400)),
                                                                ROLE_COLOURS["title"], 20).sum()
    with pytest.raises(InvalidAction):
        render_overlay_png(doc, ids=["no-such-id"])


def test_region_crop_grid_margins_findings(doc) -> None:
    body = doc.layout.get("flowRoot4588")
    region = Box(x=body.box.x - 20, y=body.box.y - 20, width=body.box.width + 40, height=body.box.height + 40)
    png = render_overlay_png(doc, overlays=("boxes", "grid", "margins", "findings"), region=region,
                             max_size=600, findings=[{"element_ids": [body.id], "message": "text is crowded",
                                                      "severity": "warning"}])
    img = _img(png)
    assert max(img.shape[:2]) == 600
    assert img.shape[1] / img.shape[0] == pytest.approx(region.width / region.height, rel=0.02)
    assert _near(img, "#e00000", 60).sum() > 500  # the finding's red outline


def test_bad_options(doc) -> None:
    with pytest.raises(ExportError, match="overlay"):
        render_overlay_png(doc, overlays=("boxes", "heatmap"))
    with pytest.raises(ExportError, match="max_size"):
        render_overlay_png(doc, max_size=0)


def test_base_and_overlays_compose_to_the_same_png(doc) -> None:
    from assistant.render.overlay import draw_overlays, encode_png, render_base

    layers = ("boxes", "grid", "margins")
    whole = _img(render_overlay_png(doc, overlays=layers, max_size=300))
    base = render_base(doc, max_size=300)
    plain = np.asarray(base).astype(int)
    parts = _img(encode_png(draw_overlays(base, doc, overlays=layers)))
    assert (whole == parts).all()
    assert (plain != parts).any(axis=2).mean() > 0.02  # the overlays changed a fair share of the pixels
