"""Earlier name of :mod:`assistant.app.session`, kept so scripts written against it still run.

New code: ``from assistant.app.session import Session``.
"""

import warnings

from assistant.app.session import EditResult, Session

warnings.warn("assistant.session is now assistant.app.session", DeprecationWarning, stacklevel=2)

__all__ = ["EditResult", "Session"]
