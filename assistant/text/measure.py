"""``measure_text``: lay out any text node, choosing positioned or wrapped layout.

Positioned ``<text>`` is laid out by :mod:`assistant.text.layout`; SVG 2
``inline-size``/``shape-inside`` and Inkscape ``<flowRoot>`` by
:mod:`assistant.text.flow`. The importer, the text actions and the renderer's
text conversion all measure through this one function.
"""

from __future__ import annotations

from assistant.svg.css import StyleResolver, resolve_length
from assistant.svg.tree import SvgNode
from assistant.text.flow import measure_flow, measure_wrapped_text
from assistant.text.layout import TextMetrics, local, measure_positioned

__all__ = ["measure_text"]


def measure_text(node: SvgNode, resolver: StyleResolver) -> TextMetrics | None:
    """Lay out a ``<text>`` or ``<flowRoot>`` node; None when it draws no characters.

    See :mod:`assistant.text.layout` for what is modelled. ``inline-size``,
    ``shape-inside`` and ``<flowRoot>`` are wrapped by :mod:`assistant.text.flow`.
    """
    name = local(node)
    if name == "flowRoot":
        return measure_flow(node, resolver)
    if name != "text":
        return None
    style = resolver.computed(node)
    if "url(" in (style.get("shape-inside") or "") or _positive(style.get("inline-size"), resolver, node):
        wrapped = measure_wrapped_text(node, resolver)
        if wrapped is not None:
            return wrapped
    return measure_positioned(node, resolver)


def _positive(value: str | None, resolver: StyleResolver, node: SvgNode) -> bool:
    if not value:
        return False
    size = resolver.font_size(node)
    return resolve_length(value, size, 0.0) > 0
