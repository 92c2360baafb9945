"""Scripts written against the earlier module names still run (with a DeprecationWarning)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("code", [
    "from assistant.svg_import import import_svg, import_svg_text; import_svg('examples/poster.svg')",
    "from assistant.session import Session; from assistant.svg_import import import_svg; "
    "Session(import_svg('examples/poster.svg')).apply({'type': 'move', 'ids': ['title'], 'dx': 1, 'dy': 0})",
    "from exporters.svg import export_svg; from assistant.importer import import_svg; "
    "assert export_svg(import_svg('examples/poster.svg')).startswith(b'<?xml')",
])
def test_an_earlier_module_name_still_works(code: str) -> None:
    proc = subprocess.run([sys.executable, "-W", "error::DeprecationWarning:__main__", "-c", code], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "DeprecationWarning" in proc.stderr  # it warns …
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr  # … and works


def test_the_shared_requests_tool_imports() -> None:
    tool = REPO.parent / "shared" / "tools" / "requests_eval.py"
    if not tool.is_file():
        pytest.skip("no ../shared/tools/requests_eval.py")
    first_import = next(line for line in tool.read_text().splitlines() if line.startswith("from assistant"))
    proc = subprocess.run([sys.executable, "-c", first_import], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
