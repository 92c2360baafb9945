"""Output formats by name: ``svg``, ``png``, ``pdf`` (and any registered later) — the one registry.

An exporter is a function ``(doc: Document, **options) -> bytes``. The built-in
ones are the core's own writers (:mod:`assistant.svg.write`, :mod:`assistant.render.raster`),
imported on first use so importing this module stays cheap::

    from assistant.app.formats import export
    png = export(doc, "png", width=800)

``register_exporter(name, func, suffixes=...)`` adds a format; ``format_for_path``
picks the format from an output file's suffix. ``fix --formats``, ``export``, the
chat's ``export`` command and the MCP tool ``export_document`` all look formats up
here, so a format registered once is available everywhere.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.document import Document
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


def export(doc: Document, fmt: str, **options: Any) -> bytes:
    """``doc`` in format ``fmt`` by the registered exporter; options that are ``None`` are left out.

    ``ExportError`` names the format when its exporter does not take an option or returns no bytes.
    """
    given = {k: v for k, v in options.items() if v is not None}
    exporter = get_exporter(fmt)
    try:
        data = exporter(doc, **given)
    except TypeError as exc:
        if given and "argument" in str(exc):
            raise ExportError(f"format {fmt!r} does not take the option(s) {', '.join(sorted(given))}") from exc
        raise
    if not isinstance(data, (bytes, bytearray)):
        raise ExportError(f"exporter {fmt!r} returned {type(data).__name__}, not bytes")
    return bytes(data)
