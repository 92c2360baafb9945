"""SVG file → ``Document``: walk the drawing, group its nodes into the elements a designer selects, give them roles.

::

    from assistant.importer import import_svg
    doc = import_svg("poster.svg")
"""

from assistant.importer.build import import_svg, import_svg_text
from assistant.limits import DEFAULT_LIMITS, ImportLimits

__all__ = ["import_svg", "import_svg_text", "ImportLimits", "DEFAULT_LIMITS"]
