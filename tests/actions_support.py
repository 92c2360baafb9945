"""Shared fixtures for the action and session tests: real documents and exactness checks."""

from __future__ import annotations

from conftest import OSGEO_DIR as OSGEO
from lxml import etree

from assistant.document import Document
from assistant.geometry import Box
from assistant.importer import import_svg, import_svg_text

#: A poster with nested transformed groups (scale, rotate, skew), text, a locked
#: element, a locked group and a button group.
POSTER = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 600" width="400" height="600">
  <rect id="bg" x="0" y="0" width="400" height="600" fill="#ffffff"/>
  <g id="outer" transform="translate(20,30) scale(1.5)">
    <g id="inner" transform="rotate(30 50 50) translate(5,7)">
      <rect id="box" x="10" y="10" width="40" height="20" fill="#336699"/>
    </g>
  </g>
  <g id="skew" transform="matrix(0.8,0.2,-0.1,1.1,100,300)"><circle id="dot" cx="20" cy="20" r="15" fill="#993333"/></g>
  <text id="title" x="40" y="200" font-size="36" font-family="DejaVu Sans" font-weight="bold">Big Title</text>
  <text id="sub" x="40" y="240" font-size="18" font-family="DejaVu Sans">A subtitle line</text>
  <text id="body" x="40" y="420" font-size="14"
        font-family="DejaVu Sans">Some body text that is long enough to wrap</text>
  <rect id="locked" data-locked="true" x="300" y="500" width="60" height="40" fill="#000000"/>
  <g id="card" transform="translate(200,80)">
    <rect id="card-bg" x="0" y="0" width="120" height="40" fill="#225522"/>
    <text id="card-label" x="60" y="26" font-size="16" text-anchor="middle" fill="#ffffff"
          font-family="DejaVu Sans">Join us</text>
  </g>
  <g id="frozen" data-locked="true" transform="translate(40,520)">
    <rect id="frozen-a" x="0" y="0" width="50" height="30" fill="#aa8800"/>
    <text id="frozen-b" x="60" y="20" font-size="14" font-family="DejaVu Sans" fill="#000000">Sponsor</text>
  </g>
</svg>"""


def poster() -> Document:
    return import_svg_text(POSTER, source="poster.svg")


def osgeo(name: str) -> Document:
    return import_svg(OSGEO / name)


def serialize(doc: Document) -> bytes:
    return etree.tostring(doc.tree)


def layout_dump(doc: Document) -> list[dict]:
    return [e.model_dump() for e in doc.layout.elements]


def reimport_mismatches(doc: Document, ids: list[str] | None = None, rel: float = 1e-6) -> list[str]:
    """Elements whose layout box differs from the box found by importing the patched tree again.

    Grouping is inferred from positions, so after an edit the importer may form other groups or
    clusters: a group it no longer forms is skipped (its members are compared one by one), and a leaf it
    merged into a cluster is compared through the cluster (its box must be the union of the layout boxes
    of the elements whose nodes it holds).
    """
    again = import_svg_text(serialize(doc))
    out = []

    def close(b1, b2) -> bool:
        tol = rel * max(b1.width, b1.height, 1.0)
        return all(abs(a - b) <= tol for a, b in zip(b1.as_tuple(), b2.as_tuple()))

    for e in doc.layout.elements:
        if ids is not None and e.id not in ids:
            continue
        if e.kind == "group" and not e.nodes:
            continue  # a group the importer infers (a section, a list item): its members are compared
        if e.id in again.layout:
            b2 = again.layout.get(e.id).box
            if not close(e.box, b2):
                out.append(f"{e.id}: layout {e.box!r} != re-imported {b2!r}")
            continue
        if e.kind == "group":
            continue
        def covered(c) -> set[str]:
            return {d.get("id") for n in c.nodes for d in again.node(n).iter()
                    if isinstance(d.tag, str) and d.get("id")}

        holder = next((c for c in again.layout.elements if e.nodes and set(e.nodes) <= covered(c)), None)
        if holder is None:
            out.append(f"{e.id}: missing after re-import")
            continue
        cover = covered(holder)
        parts = [x.box for x in doc.layout.elements if x.kind != "group" and x.nodes and set(x.nodes) <= cover]
        union = Box.union_all(parts)
        if not close(union, holder.box):
            out.append(f"{e.id}: in re-imported {holder.id!r} {holder.box!r} != layout union {union!r}")
    return out


def changed_nodes(before: bytes, after: bytes) -> set[str]:
    """Ids (or paths) of nodes whose attributes or text differ, for trees of the same shape."""
    t1, t2 = etree.fromstring(before), etree.fromstring(after)
    n1, n2 = list(t1.iter()), list(t2.iter())
    assert len(n1) == len(n2), "tree shape changed"
    out = set()
    for a, b in zip(n1, n2):
        assert a.tag == b.tag
        if dict(a.attrib) != dict(b.attrib) or (a.text or "") != (b.text or "") or (a.tail or "") != (b.tail or ""):
            out.add(a.get("id") or t1.getroottree().getpath(a))
    return out


def same_xml(a: bytes, b: bytes) -> bool:
    """The same XML infoset (names, attributes in order, text, tails, structure), prefixes aside."""
    def walk(x, y) -> bool:
        if x.tag != y.tag or list(x.attrib.items()) != list(y.attrib.items()):
            return False
        if (x.text or "") != (y.text or "") or (x.tail or "") != (y.tail or "") or len(x) != len(y):
            return False
        return all(walk(c, d) for c, d in zip(x, y))

    return walk(etree.fromstring(a), etree.fromstring(b))


def svg_prefix_first(doc: Document) -> bool:
    """Whether the root declares the SVG namespace under a prefix before the default declaration."""
    text = serialize(doc)
    head = text[: text.index(b">")]
    i, j = head.find(b'xmlns:svg="http://www.w3.org/2000/svg"'), head.find(b'xmlns="http://www.w3.org/2000/svg"')
    return i != -1 and j != -1 and i < j
