"""The Layout Assistant MCP server.

``mcp_server.server.build_server(workspace)`` builds the FastMCP app;
``layout-assistant serve`` runs it over stdio or streamable HTTP. Importing
this package imports nothing else, so the CLI stays fast.
"""
