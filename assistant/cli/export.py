"""``layout-assistant export``: write a layout as SVG, PNG or PDF through the format registry.

An SVG export is the kept tree, byte for byte what the importer read plus the
ids it generated.
"""

from __future__ import annotations

from pathlib import Path

import typer

from assistant.cli import app
from assistant.cli._common import fail
from assistant.errors import LayoutError

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
    from assistant.app.formats import export as export_doc
    from assistant.app.formats import format_for_path
    from assistant.app.outputs import write_output
    from assistant.importer import import_svg

    try:
        fmt = format_for_path(out)
        data = export_doc(import_svg(file), fmt)
        write_output(out, data, inputs=[file], overwrite=force)
    except LayoutError as exc:
        fail(exc)
    typer.echo(f"wrote {out} ({len(data) // 1024} KiB)")
