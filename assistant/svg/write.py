"""SVG export: the kept lxml tree serialized as it is, so nothing is lost.

The importer keeps the parsed tree and edits patch it in place, so an export
carries everything the input had: the XML declaration's version and encoding,
the DOCTYPE, comments and processing instructions around the root, every
namespace declaration, ``<defs>`` (gradients, filters, clip paths, symbols),
``<metadata>`` and ``sodipodi``/``inkscape`` attributes, in the original order
and formatting. Ids the importer generated are attributes of the tree and so
are written too (stable ids across a re-import).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from assistant.document import Document
from assistant.errors import ExportError
from assistant.svg.tree import SvgNode

#: What the exporters accept: a ``Document``, or a parsed tree (or its root) given directly.
Exportable = Document | etree._ElementTree | SvgNode


def tree_of(doc: Exportable) -> etree._ElementTree:
    """The ``lxml`` ElementTree of a ``Document`` (or of a tree/element given directly)."""
    tree = getattr(doc, "tree", doc)
    if hasattr(tree, "getroot"):
        return tree
    if isinstance(getattr(tree, "tag", None), str):
        return tree.getroottree()
    raise ExportError(f"cannot export {type(doc).__name__}: no SVG tree")


def export_svg(doc: Exportable) -> bytes:
    """Serialize ``doc``'s tree to SVG bytes (declaration, DOCTYPE and all content kept)."""
    tree = tree_of(doc)
    info = tree.docinfo
    encoding = info.encoding or "UTF-8"
    kwargs: dict[str, Any] = {"xml_declaration": True, "encoding": encoding}
    if info.standalone:
        kwargs["standalone"] = True
    try:
        data = etree.tostring(tree, **kwargs)
    except (LookupError, ValueError) as exc:
        raise ExportError(f"{getattr(doc, 'source', '<document>')}: cannot serialize the SVG ({exc})") from exc
    return data if data.endswith(b"\n") else data + b"\n"
