"""Earlier name of :mod:`assistant.importer`, kept so scripts written against it still run.

New code: ``from assistant.importer import import_svg``.
"""

import warnings

from assistant.importer import ImportLimits, import_svg, import_svg_text

warnings.warn("assistant.svg_import is now assistant.importer", DeprecationWarning, stacklevel=2)

__all__ = ["ImportLimits", "import_svg", "import_svg_text"]
