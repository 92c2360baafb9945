"""Writers that sit on top of the core: the HTML before/after report of ``layout-assistant fix``.

Output formats (SVG, PNG, PDF and any registered later) are chosen in one place,
:mod:`assistant.app.formats`, which the CLI, the MCP server and the batch fixer all use.
"""
