"""``layout-assistant serve``: run the MCP server (stdio by default, or streamable HTTP).

The command is a plugin of the ``layout-assistant`` CLI: the package's entry point
``layout_assistant.commands: serve = mcp_server.cli:register`` adds it, so the core's
CLI never imports the server (which sits beside it, not below it).
"""

from __future__ import annotations

import os
from pathlib import Path

import typer

from assistant.errors import LayoutError, printable


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``layout-assistant`` app."""
    app.command()(serve)


def fail(message: str | LayoutError, code: int = 2) -> None:
    """Print one clean error line to stderr and exit with ``code`` (control characters in it escaped)."""
    typer.secho(f"error: {printable(str(message))}", err=True, fg="red")
    raise typer.Exit(code)


def serve(
    workspace: Path = typer.Option(
        Path("."), "--workspace", "-w",
        help="The only folder the server reads and writes (default: current directory).",
    ),
    http: bool = typer.Option(False, "--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio."),
    host: str = typer.Option("127.0.0.1", "--host", help="HTTP interface to listen on (default: loopback only)."),
    port: int = typer.Option(8765, "--port", help="HTTP port."),
    token: str | None = typer.Option(
        None, "--token", envvar="LAYOUT_ASSISTANT_TOKEN",
        help="Bearer token HTTP clients must send (Authorization: Bearer TOKEN); at least 16 random "
             "characters. Left out, a token is made and printed at start.",
    ),
    allow_host: list[str] | None = typer.Option(
        None, "--allow-host",
        help="Another name clients may use in the Host header (the server's DNS name); repeatable.",
    ),
    allow_origin: list[str] | None = typer.Option(
        None, "--allow-origin",
        help="A browser origin (https://app.example) allowed to call the server; repeatable.",
    ),
) -> None:
    """Run the MCP server for Claude Desktop, Claude Code or any MCP client.

    Over HTTP every request needs the bearer token (printed at start when
    --token is left out) and a Host header naming this server; browsers from
    other origins are refused.

    Example (Claude Code): claude mcp add layout -- layout-assistant serve --workspace ~/designs
    """
    os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
    os.environ.setdefault("FASTMCP_LOG_LEVEL", "WARNING")
    try:
        # imported here: the CLI loads this module on every start, and the server needs the 'mcp' extra
        from mcp_server.http import BearerToken, check_http_settings, new_token, run_http
        from mcp_server.server import build_server

        if http:
            made = token is None
            token = new_token() if made else token
            check_http_settings(host, port, token)
            server = build_server(workspace, auth=BearerToken(token))
            url_host = f"[{host}]" if ":" in host else host
            typer.secho(f"layout-assistant MCP server on http://{url_host}:{port}/mcp "
                        f"(workspace {workspace.resolve()})", err=True)
            if made:
                typer.secho(f"bearer token (made for this run; --token or LAYOUT_ASSISTANT_TOKEN sets one): {token}",
                            err=True)
            typer.secho("clients send the header  Authorization: Bearer <token>", err=True)
            run_http(server, host=host, port=port, allowed_hosts=allow_host or (), allowed_origins=allow_origin or ())
        else:
            if token or allow_host or allow_origin:
                fail("--token, --allow-host and --allow-origin only apply to --http")
            build_server(workspace).run(transport="stdio", show_banner=False)
    except LayoutError as exc:
        fail(exc)
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        fail(f"the MCP server needs the 'mcp' extra (pip install 'layout-assistant[mcp]'): {exc}")
