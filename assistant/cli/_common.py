"""Helpers shared by the CLI command modules."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer

from assistant.errors import LayoutError, printable


def fail(message: str | LayoutError, code: int = 2) -> NoReturn:
    """Print one clean error line to stderr and exit with ``code`` (control characters in it escaped)."""
    typer.secho(f"error: {printable(str(message))}", err=True, fg="red")
    raise typer.Exit(code)


def ensure_parent(path: Path) -> None:
    """Create the folder an output file goes into, or fail with a clean message."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{path}: cannot create the folder {path.parent} ({exc.strerror or exc})")
