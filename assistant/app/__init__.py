"""The services the front ends share: sessions, batch fixing, chat, scoring, output formats and safe writing.

The CLI (:mod:`assistant.cli`) and the MCP server (:mod:`mcp_server`) call these; neither has its own copy.
"""
