"""Layout Assistant: import SVG layouts, measure them, improve them, export them.

The package root stays light on purpose: it imports nothing heavy, so the CLI
and the MCP server start fast. Import the submodules you need.
"""

__version__ = "0.1.0"
