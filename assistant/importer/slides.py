"""Slides drawn as stacked layers: a deck whose every slide is an Inkscape layer on the same page.

Slide decks made in Inkscape (JessyInk and its like) put each slide in a top-level layer and show all of
them at once on one page; a presenter shows one layer at a time. Read as one page, such a file is a pile of
slides: the titles of twenty slides sit on one another, and every check of overlap, alignment or balance
judges slides against each other. A file is read as slides when it has at least ``MIN_SLIDES`` top-level
layers holding text and in at least ``SLIDE_SHARE`` of them (and ``MIN_SLIDES`` at least) a text lies on a
text of another layer: a page meant to be seen whole does not set its words on each other's across layers
(a shadow copy shares its text's layer). Each layer is then a page of its own at the place of the canvas,
in document order ("slide 3" is the third layer), and each element is on its layer's page; what lies outside
every layer is on the first.
"""

from __future__ import annotations

from assistant.document import Element
from assistant.importer.spatial import BoxIndex
from assistant.importer.structure import is_layer
from assistant.svg.tree import SvgNode, local_name

#: Fewest layers that hold text, and fewest whose text lies on another layer's, for a file to be slides.
MIN_SLIDES = 3
#: Share of the layers holding text whose text lies on another layer's text.
SLIDE_SHARE = 0.75
#: Two texts lie on each other when their boxes share this share of the smaller one.
TEXT_ON_TEXT = 0.3


def _layers(root: SvgNode) -> list[SvgNode]:
    return [n for n in root if isinstance(n.tag, str) and local_name(n) == "g" and is_layer(n)]


def slide_of_elements(root: SvgNode, elements: list[Element]) -> tuple[dict[str, int], int] | None:
    """Element id → slide (its layer's index among the top-level layers) and the number of slides.

    None when the file is no deck.
    """
    layers = _layers(root)
    if len(layers) < MIN_SLIDES:
        return None
    index = {n: k for k, n in enumerate(layers)}
    by_id = {n.get("id"): n for n in root.iter() if isinstance(n.tag, str) and n.get("id")}

    def layer(e: Element) -> int | None:
        for xml_id in e.nodes:
            n = by_id.get(xml_id)
            while n is not None and n.getparent() is not None and n.getparent() is not root:
                n = n.getparent()
            if n in index:
                return index[n]
        return None

    found = {e.id: layer(e) for e in elements}
    for e in elements:  # a group with no node of its own is on its members' layer
        if found[e.id] is None and e.children:
            found[e.id] = next((found[c] for c in e.children if found.get(c) is not None), None)
    texts = [e for e in elements if e.kind == "text" and found[e.id] is not None]
    holding = {found[e.id] for e in texts}
    if len(holding) < MIN_SLIDES:
        return None
    boxes = BoxIndex((k, t.box) for k, t in enumerate(texts))
    crossing: set[int] = set()
    for t in texts:
        for k in boxes.query(t.box):
            o = texts[k]
            if found[o.id] == found[t.id]:
                continue
            inter = t.box.intersection(o.box)
            if inter is not None and inter.area >= TEXT_ON_TEXT * min(t.box.area, o.box.area) > 0:
                crossing.add(found[t.id])
                break
    if len(crossing) < max(MIN_SLIDES, SLIDE_SHARE * len(holding)):
        return None
    return {i: (k if k is not None else 0) for i, k in found.items()}, len(layers)


__all__ = ["slide_of_elements", "MIN_SLIDES", "SLIDE_SHARE", "TEXT_ON_TEXT"]
