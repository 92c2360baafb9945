"""The compiled numeric core of the metrics: when it is used, and switching it off.

``assistant/metrics/native/*.c`` build the extension module
``assistant.metrics._native`` (``setup.py``; ``make`` builds it). Its kernels
compute the numeric part of a metric (scores, and the candidates its findings
are made from) for layouts of at most ``MAX_ELEMENTS`` leaves, where a numpy
report is dominated by the cost of its few hundred small calls, not by their
size; the findings' wording and suggestions stay in Python, shared by both
paths. Larger layouts, an installation without the compiled module, or
``LAYOUT_ASSISTANT_NATIVE=0`` in the environment use the numpy definitions,
which the kernels are tested against (``tests/test_metrics_native.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

try:
    from assistant.metrics import _native
except ImportError:  # not compiled: numpy everywhere
    _native = None

#: the largest layout (leaves) the kernels take
MAX_ELEMENTS: int = _native.MAX_ELEMENTS if _native is not None else 0
_state = {"enabled": os.environ.get("LAYOUT_ASSISTANT_NATIVE", "1") != "0"}


def available() -> bool:
    """Whether the compiled kernels are installed and enabled."""
    return _native is not None and _state["enabled"]


def kernels(n: int) -> ModuleType | None:
    """The compiled kernels for a layout of ``n`` leaves, or ``None`` when the numpy definitions apply."""
    if _native is not None and _state["enabled"] and n <= MAX_ELEMENTS:
        return _native
    return None


@contextmanager
def numpy_only() -> Iterator[None]:
    """Within the block, every metric uses its numpy definition (for comparisons and tests)."""
    before = _state["enabled"]
    _state["enabled"] = False
    try:
        yield
    finally:
        _state["enabled"] = before
