"""Streamable HTTP transport with a static bearer token.

Listening on the loopback interface (127.0.0.1, ::1, localhost) needs no
token; listening anywhere else without one is refused before the socket is
opened, because the server reads and writes files in its workspace. Tokens are
compared in constant time (``hmac.compare_digest``).
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from fastmcp.server.auth.auth import AccessToken, TokenVerifier

from assistant.errors import LayoutError

#: Endpoint path of the streamable HTTP transport.
MCP_PATH = "/mcp"


class HttpConfigError(LayoutError):
    """The HTTP transport was asked to start in an unsafe or impossible way."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_http_settings(host: str, port: int, token: str | None) -> None:
    """Refuse a non-loopback host without a token, and impossible ports or weak tokens."""
    if not 0 < port < 65536:
        raise HttpConfigError(f"port {port} is not in 1..65535")
    if token is not None and len(token) < 16:
        raise HttpConfigError("the bearer token must be at least 16 characters long")
    if not is_loopback(host) and not token:
        raise HttpConfigError(
            f"refusing to listen on {host!r} without a bearer token: anyone who can reach it could "
            "read and write the workspace; pass --token (or listen on 127.0.0.1)"
        )


class BearerToken(TokenVerifier):
    """Accept exactly one static bearer token."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    async def verify_token(self, token: str) -> AccessToken | None:
        """The access token when ``token`` is the configured one (compared in constant time), else None."""
        if hmac.compare_digest(token.encode(), self._token.encode()):
            return AccessToken(token=token, client_id="layout-assistant-client", scopes=[])
        return None


def run_http(server: Any, *, host: str, port: int, log_level: str = "warning") -> None:
    """Serve ``server`` over streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    server.run(
        transport="http", host=host, port=port, path=MCP_PATH,
        show_banner=False, log_level=log_level,
    )
