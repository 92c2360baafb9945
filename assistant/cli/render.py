"""``layout-assistant render`` and ``export``: write a layout as PNG, PDF or SVG.

``render`` draws it, optionally with its boxes overlaid; ``export`` writes it
through the exporter registry (an SVG export is the kept tree, byte for byte
what the importer read plus the ids it generated).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from assistant.cli import app
from assistant.cli._common import ensure_parent, fail
from assistant.errors import LayoutError

RENDER_HELP = """Render an SVG layout to PNG or PDF (chosen by the --out suffix).

External files and URLs referenced by the SVG are never read; Inkscape
flowed text is converted to regular text so it shows. With --overlay the
PNG shows every element's box, id and role (the import as the assistant
sees it); --grid and --margins add the 12-column grid and the safe area.
With --overlay and an .svg output the same overlays are written as an SVG
whose Inkscape layers (layout, boxes, grid, margins) can be toggled.
The output is written atomically; the input is never changed.

Examples:

  layout-assistant render flyer.svg --out flyer.png --width 1200

  layout-assistant render flyer.svg --out boxes.png --overlay --margins

  layout-assistant render flyer.svg --out boxes.svg --overlay --grid

  layout-assistant render flyer.svg --out flyer.pdf
"""


@app.command("render", help=RENDER_HELP)
def render(
    file: Path = typer.Argument(..., help="The SVG file to render."),
    out: Path = typer.Option(..., "--out", "-o", help="Output file: .png or .pdf (.svg with --overlay)."),
    overlay: bool = typer.Option(False, "--overlay",
                                 help="Draw element boxes, ids and roles on top (PNG, or SVG with layers)."),
    grid: bool = typer.Option(False, "--grid", help="With --overlay: draw the 12-column grid."),
    margins: bool = typer.Option(False, "--margins", help="With --overlay: draw the safe area."),
    width: Optional[int] = typer.Option(None, "--width", min=1, max=16384,
                                        help="Output width in px (PNG); the height follows."),
) -> None:
    """Render FILE to --out."""
    from assistant.importer import import_svg
    from assistant.app.formats import format_for_path
    from assistant.app.outputs import atomic_write

    try:
        fmt = format_for_path(out)
        if fmt not in ("png", "pdf", "svg") or fmt == "svg" and not overlay:
            fail(f"{out}: render writes .png or .pdf files, or .svg with --overlay "
                 f"(use 'layout-assistant export' for SVG)")
        if fmt == "pdf" and overlay:
            fail(f"{out}: --overlay draws on PNG or SVG output, not PDF")
        if fmt != "png" and width:
            fail(f"{out}: --width applies to PNG output only")
        if out.resolve() == file.resolve():
            fail(f"{out}: refusing to overwrite the input file")
        doc = import_svg(file)
        ensure_parent(out)
        if fmt == "pdf":
            from assistant.render.raster import render_pdf

            data = render_pdf(doc)
        elif fmt == "svg":
            from assistant.render.overlay_svg import render_overlay_svg

            layers = ["boxes"] + (["grid"] if grid else []) + (["margins"] if margins else [])
            data = render_overlay_svg(doc, overlays=tuple(layers))
        elif overlay:
            from assistant.render.overlay import render_overlay_png

            layers = ["boxes"] + (["grid"] if grid else []) + (["margins"] if margins else [])
            data = render_overlay_png(doc, overlays=tuple(layers), max_size=width or 1024)
        else:
            from assistant.render.raster import render_png

            data = render_png(doc, width=width)
        atomic_write(out, data)
    except LayoutError as exc:
        fail(exc)
    typer.echo(f"wrote {out} ({len(data) // 1024} KiB)")


EXPORT_HELP = """Export an SVG layout as SVG, PNG or PDF (chosen by the --out suffix).

The SVG export keeps everything the file had (namespaces, defs, metadata,
Inkscape attributes); only element ids the importer had to generate are
added, so later edits can name them. PNG and PDF never read external files or
URLs. The output is written atomically and never over the input; an existing
output is replaced only with --force.

Examples:

  layout-assistant export flyer.svg --out flyer.pdf

  layout-assistant export flyer.svg --out with-ids.svg
"""


@app.command("export", help=EXPORT_HELP)
def export(
    file: Path = typer.Argument(..., help="The SVG file to export."),
    out: Path = typer.Option(..., "--out", "-o", help="Output file: .svg, .png or .pdf."),
    force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
) -> None:
    """Export FILE to --out."""
    from assistant.importer import import_svg
    from assistant.app.formats import export as export_doc
    from assistant.app.formats import format_for_path
    from assistant.app.outputs import atomic_write

    try:
        fmt = format_for_path(out)
        if out.resolve() == file.resolve():
            fail(f"{out}: refusing to overwrite the input file")
        if out.exists() and not force:
            fail(f"{out}: already exists (pass --force to replace it)")
        data = export_doc(import_svg(file), fmt)
        ensure_parent(out)
        atomic_write(out, data)
    except LayoutError as exc:
        fail(exc)
    typer.echo(f"wrote {out} ({len(data) // 1024} KiB)")
