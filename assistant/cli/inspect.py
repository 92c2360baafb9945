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

Groups (buttons, badges) come before their children, which are indented.
The file is only read. --json prints the whole layout (canvas and elements)
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
    typer.echo(f"{name}: canvas {c.width:g} × {c.height:g} (viewBox units; 1 unit = {c.px_per_unit:.4g} px, "
               f"file size in {c.units}), {len(layout)} elements")
    for e in layout:
        depth = 0
        parent = e.group
        while parent is not None:
            depth += 1
            parent = layout.get(parent).group
        b = e.box
        size = f" {e.font_size:.3g}u" if e.font_size else ""
        text = f"  {e.text[:40]!r}" if e.text else ""
        ident = printable(e.id, one_line=True)
        typer.echo(f"{'  ' * depth}{ident:<28} {e.kind:<6} {e.role:<10} "
                   f"{b.x:8.1f} {b.y:8.1f} {b.width:8.1f} {b.height:8.1f}{size}{text}")
    counts = Counter(e.role for e in layout)
    typer.echo("roles: " + ", ".join(f"{r} {n}" for r, n in sorted(counts.items())))
