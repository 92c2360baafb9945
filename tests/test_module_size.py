"""Module size: no Python module of the project over 1000 lines; over 400 is worth a look (a warning).

House style: most files 100–400 lines, split before 800. This test fails on the hard limit and
lists the modules past the soft one as warnings in the test summary.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("assistant", "mcp_server", "exporters", "models", "benchmarks")
HARD_LIMIT = 1000
SOFT_LIMIT = 400


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_packages_hold_modules() -> None:
    assert len(_modules()) > 50


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_the_hard_limit(path: Path) -> None:
    n = _lines(path)
    assert n <= HARD_LIMIT, f"{path.relative_to(ROOT)} has {n} lines; split it (limit {HARD_LIMIT})"
    if n > SOFT_LIMIT:
        warnings.warn(f"{path.relative_to(ROOT)} has {n} lines (over {SOFT_LIMIT}: consider splitting it)",
                      stacklevel=1)
