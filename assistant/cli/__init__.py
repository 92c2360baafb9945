"""The ``layout-assistant`` command line.

Each command group lives in its own module and registers itself on ``app``;
``main`` is the console-script entry point. User errors (``LayoutError``)
become one clean message and a non-zero exit code.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from importlib.metadata import entry_points

import typer

from assistant import __version__

app = typer.Typer(
    name="layout-assistant",
    help=(
        "Import SVG layouts, measure their design quality, improve them with "
        "precise edits, and export the result.\n\n"
        "Example: layout-assistant fix posters/ --out fixed/ --report fixed/report.html"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"layout-assistant {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
) -> None:
    """Layout Assistant command line."""


#: Entry-point group of commands that other packages add (the MCP server's ``serve``).
COMMAND_PLUGINS = "layout_assistant.commands"


def _register() -> None:
    """Import the command modules (each adds its commands to ``app``), then the plugins' commands."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    registered = {c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands if c.callback}
    for ep in entry_points(group=COMMAND_PLUGINS):
        if ep.name not in registered:
            ep.load()(app)
            registered.add(ep.name)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    from assistant.errors import LayoutError

    _register()
    try:
        app(args=argv, standalone_mode=True)
    except LayoutError as exc:  # pragma: no cover - typer usually exits first
        typer.secho(f"error: {exc}", err=True, fg="red")
        sys.exit(2)


_register()
