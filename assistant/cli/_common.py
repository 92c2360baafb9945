"""Helpers shared by the CLI command modules."""

from __future__ import annotations

from typing import NoReturn

import typer

from assistant.errors import LayoutError


def fail(message: str | LayoutError, code: int = 2) -> NoReturn:
    """Print one clean error line to stderr and exit with ``code``."""
    typer.secho(f"error: {message}", err=True, fg="red")
    raise typer.Exit(code)
