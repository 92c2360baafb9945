"""Exporters by format name: ``svg``, ``png``, ``pdf`` (and any registered later).

An exporter is a function ``(doc: Document, **options) -> bytes``. The built-in
ones are imported on first use, so importing this package stays cheap::

    from assistant.app.formats import get_exporter
    png = get_exporter("png")(doc, width=800)

``register_exporter(name, func, suffix=...)`` adds a format; ``format_for_path``
picks the format from an output file's suffix.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from assistant.errors import ExportError

Exporter = Callable[..., bytes]


@dataclass(frozen=True)
class _Entry:
    suffixes: tuple[str, ...]
    target: str | Exporter  # "module:function" (imported on first use) or the function


_REGISTRY: dict[str, _Entry] = {
    "svg": _Entry((".svg",), "assistant.svg.write:export_svg"),
    "png": _Entry((".png",), "assistant.render.raster:render_png"),
    "pdf": _Entry((".pdf",), "assistant.render.raster:render_pdf"),
}


def register_exporter(name: str, func: Exporter, *, suffixes: tuple[str, ...] = ()) -> None:
    """Register ``func`` as the exporter for format ``name`` (replacing an earlier one)."""
    key = name.strip().lower()
    if not key:
        raise ExportError("an exporter needs a non-empty format name")
    _REGISTRY[key] = _Entry(tuple(s.lower() for s in suffixes) or (f".{key}",), func)


def supported_formats() -> list[str]:
    """Registered format names, sorted."""
    return sorted(_REGISTRY)


def get_exporter(fmt: str) -> Exporter:
    """The exporter function for ``fmt``; ``ExportError`` naming the supported formats otherwise."""
    key = (fmt or "").strip().lower().lstrip(".")
    entry = _REGISTRY.get(key)
    if entry is None:
        raise ExportError(f"unknown export format {fmt!r}; supported: {', '.join(supported_formats())}")
    if callable(entry.target):
        return entry.target
    module, _, attr = entry.target.partition(":")
    return getattr(importlib.import_module(module), attr)


def format_for_path(path: str | Path) -> str:
    """The format name for an output path from its suffix (``out.png`` → ``png``)."""
    suffix = Path(path).suffix.lower()
    for name, entry in _REGISTRY.items():
        if suffix in entry.suffixes:
            return name
    raise ExportError(f"{path}: cannot tell the export format from the suffix {suffix or '(none)'!r}; "
                      f"supported: {', '.join(supported_formats())}")


def export(doc: Any, fmt: str, **options: Any) -> bytes:
    """Export ``doc`` in format ``fmt`` with the registered exporter."""
    return get_exporter(fmt)(doc, **options)
