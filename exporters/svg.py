"""Earlier home of the SVG export, kept so scripts written against it still run.

New code: ``from assistant.svg.write import export_svg`` (or ``assistant.app.formats.export(doc, "svg")``).
"""

import warnings

from assistant.svg.write import export_svg

warnings.warn("exporters.svg is now assistant.svg.write", DeprecationWarning, stacklevel=2)

__all__ = ["export_svg"]
