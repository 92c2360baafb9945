"""``layout-assistant inspect``: the element list an SVG imports into."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import typer

from assistant.cli import app
from assistant.cli._common import fail
from assistant.errors import LayoutError, printable

INSPECT_HELP = """Import an SVG file and list its layout elements: id, kind, role, box (world
units, x y width height), font size and the start of the text.

Groups (a button, a stack of pieces, a list item with its bullet, a section
with its heading) come before their members, which are indented. "pinned"
marks backgrounds, bands and ornaments: planners leave them where they are
unless a request names them. The file is only read. --json prints the whole layout (canvas and elements)
as JSON instead, the form the MCP server and the planners see.

Examples:

  layout-assistant inspect flyer.svg

  layout-assistant inspect flyer.svg --json > layout.json
"""


@app.command("inspect", help=INSPECT_HELP)
def inspect(
    file: Path = typer.Argument(..., help="The SVG file to import."),
    as_json: bool = typer.Option(False, "--json", help="Print the layout as JSON."),
) -> None:
    """List the elements FILE imports into."""
    from assistant.importer import import_svg

    try:
        doc = import_svg(file)
    except LayoutError as exc:
        fail(exc)
    layout = doc.layout
    if as_json:
        typer.echo(json.dumps(layout.model_dump(mode="json"), indent=2))
        return
    c = layout.canvas
    name = printable(str(file), one_line=True)
    pages = f", {len(c.pages)} pages" if c.pages else ""
    typer.echo(f"{name}: canvas {c.width:g} × {c.height:g} (viewBox units; 1 unit = {c.px_per_unit:.4g} px, "
               f"file size in {c.units}){pages}, {len(layout)} elements")

    def show(element_id: str, depth: int) -> None:
        e = layout.get(element_id)
        b = e.box
        size = f" {e.font_size:.3g}u" if e.font_size else ""
        text = f"  {e.text[:40]!r}" if e.text else ""
        flags = (" pinned" if e.pinned else "") + (" locked" if e.locked else "") + (
            f" page {e.page + 1}" if c.pages and e.page >= 0 else " off-page" if e.page < 0 else "")
        typer.echo(f"{'  ' * depth}{printable(e.id, one_line=True):<28} {e.kind:<6} {e.role:<10} "
                   f"{b.x:8.1f} {b.y:8.1f} {b.width:8.1f} {b.height:8.1f}{size}{text}{flags}")
        for child in e.children:
            show(child, depth + 1)

    for e in layout.top_level():
        show(e.id, 0)
    counts = Counter(e.role for e in layout)
    typer.echo("roles: " + ", ".join(f"{r} {n}" for r, n in sorted(counts.items())))
