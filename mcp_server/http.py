"""Streamable HTTP transport: a bearer token always, and no foreign ``Host`` or ``Origin``.

The server reads and writes files in its workspace, so every HTTP request must
carry the bearer token (``Authorization: Bearer TOKEN``). When ``serve --http``
is given no ``--token`` it makes one (``secrets.token_urlsafe``, 256 bits)
and prints it at start, as Jupyter does. Weak tokens are refused before the
socket is opened: shorter than 16 characters, holding blanks or control
characters, or made of fewer than ``MIN_DISTINCT_CHARS`` different characters
(``"aaaaaaaaaaaaaaaa"``). Tokens are compared in constant time
(``hmac.compare_digest``).

A token alone does not stop DNS rebinding: a web page on ``evil.example``
whose name is made to resolve to 127.0.0.1 talks to the server from the
user's own browser. :class:`HostOriginGuard` therefore answers before any
MCP handling:

* ``421 Misdirected Request`` when the ``Host`` header names anything but the
  address the server is bound to — on loopback also ``localhost``,
  ``127.0.0.1`` and ``::1``; on a wildcard address (``0.0.0.0``, ``::``) any
  IP address — or a name given with ``--allow-host``;
* ``403 Forbidden`` when a browser sends an ``Origin`` (``null`` included)
  whose host is not one of those, and that is not listed with ``--allow-origin``.

Clients that are not browsers send no ``Origin`` and are not affected.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from fastmcp.server.auth.auth import AccessToken, TokenVerifier

from assistant.errors import LayoutError, printable

#: Endpoint path of the streamable HTTP transport.
MCP_PATH = "/mcp"
#: Shortest accepted bearer token.
MIN_TOKEN_LENGTH = 16
#: Fewest different characters an accepted token has.
MIN_DISTINCT_CHARS = 4
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


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


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def new_token() -> str:
    """A fresh random bearer token (43 URL-safe characters, 256 bits)."""
    return secrets.token_urlsafe(32)


def token_problem(token: str) -> str | None:
    """Why ``token`` is too weak to protect the workspace, or None when it will do."""
    if len(token) < MIN_TOKEN_LENGTH:
        return f"the bearer token must be at least {MIN_TOKEN_LENGTH} characters long"
    if any(c.isspace() or not c.isprintable() for c in token):
        return "the bearer token must not contain blanks or control characters"
    if len(set(token)) < MIN_DISTINCT_CHARS:
        return (f"the bearer token is made of {len(set(token))} different character(s); use a random one "
                f"(leave --token out and one is made for you)")
    return None


def check_http_settings(host: str, port: int, token: str | None) -> None:
    """Refuse impossible ports, a missing token and weak tokens (see the module docstring)."""
    if not 0 < port < 65536:
        raise HttpConfigError(f"port {port} is not in 1..65535")
    if not token:
        raise HttpConfigError(
            f"refusing to listen on {host!r} without a bearer token: anyone who can reach it could "
            "read and write the workspace; pass --token or leave it out to have one made"
        )
    problem = token_problem(token)
    if problem:
        raise HttpConfigError(problem)


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


def _host_of(value: str) -> str:
    """The host part of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), lower-cased."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


class HostOriginGuard:
    """ASGI middleware refusing foreign ``Host`` and ``Origin`` headers (see the module docstring)."""

    def __init__(self, app: Any, *, bound_host: str, allowed_hosts: Iterable[str] = (),
                 allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        bound = _host_of(bound_host)
        self.any_ip = _is_wildcard(bound)
        names = {h.strip().lower().strip("[]") for h in allowed_hosts if h.strip()}
        if not self.any_ip:
            names.add(bound)
        if is_loopback(bound) or self.any_ip:
            names.update(LOOPBACK_NAMES)
        self.hosts = frozenset(names)
        self.origins = frozenset(o.strip().rstrip("/").lower() for o in allowed_origins if o.strip())

    def host_allowed(self, host: str) -> bool:
        """Whether a request's ``Host`` name (port removed, lower case) names this server."""
        return bool(host) and (host in self.hosts or (self.any_ip and _is_ip(host)))

    def origin_allowed(self, origin: str) -> bool:
        """Whether a browser's ``Origin`` is allowed: listed, or an http(s) origin on an allowed host."""
        origin = origin.strip().rstrip("/").lower()
        if origin in self.origins:
            return True
        try:
            parts = urlsplit(origin)
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and self.host_allowed((parts.hostname or "").lower())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """ASGI entry: refuse a foreign ``Host`` (421) or ``Origin`` (403); pass everything else on."""
        if scope.get("type") not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = _host_of(headers.get("host", ""))
        ws = scope["type"] == "websocket"
        if not self.host_allowed(host):
            shown = printable(host, one_line=True)[:100]
            allowed = ", ".join(sorted(self.hosts)) or "IP addresses"
            await _refuse(send, 421, websocket=ws,
                          message=f"Host {shown!r} is not served here; allowed: {allowed} (serve --allow-host NAME)")
            return
        origin = headers.get("origin")
        if origin is not None and not self.origin_allowed(origin):
            shown = printable(origin, one_line=True)[:100]
            await _refuse(send, 403, websocket=ws,
                          message=f"Origin {shown!r} may not use this server (serve --allow-origin ORIGIN)")
            return
        await self.app(scope, receive, send)


async def _refuse(send: Any, status: int, message: str, websocket: bool = False) -> None:
    if websocket:
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
        return
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def run_http(server: Any, *, host: str, port: int, allowed_hosts: Iterable[str] = (),
             allowed_origins: Iterable[str] = (), log_level: str = "warning") -> None:
    """Serve ``server`` over streamable HTTP at ``http://host:port/mcp`` until interrupted, behind the guard."""
    from starlette.middleware import Middleware

    guard = Middleware(HostOriginGuard, bound_host=host, allowed_hosts=list(allowed_hosts),
                       allowed_origins=list(allowed_origins))
    server.run(
        transport="http", host=host, port=port, path=MCP_PATH,
        show_banner=False, log_level=log_level, middleware=[guard],
    )
