"""``layout-assistant render``: draw a layout as PNG or PDF, optionally with its boxes overlaid."""

from __future__ import annotations

from pathlib import Path

import typer

from assistant.cli import app
from assistant.cli._common import fail
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
    width: int | None = typer.Option(None, "--width", min=1, max=16384,
                                        help="Output width in px (PNG); the height follows."),
) -> None:
    """Render FILE to --out."""
    from assistant.app.formats import format_for_path
    from assistant.app.outputs import write_output
    from assistant.importer import import_svg

    try:
        fmt = format_for_path(out)
        if fmt not in ("png", "pdf", "svg") or fmt == "svg" and not overlay:
            fail(f"{out}: render writes .png or .pdf files, or .svg with --overlay "
                 f"(use 'layout-assistant export' for SVG)")
        if fmt == "pdf" and overlay:
            fail(f"{out}: --overlay draws on PNG or SVG output, not PDF")
        if fmt != "png" and width:
            fail(f"{out}: --width applies to PNG output only")
        doc = import_svg(file)
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
        write_output(out, data, inputs=[file], overwrite=True)  # a render replaces the last one
    except LayoutError as exc:
        fail(exc)
    typer.echo(f"wrote {out} ({len(data) // 1024} KiB)")
