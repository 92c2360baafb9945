"""The README's tour runs: every command and Python example in it is executed.

Commands in ```bash blocks of the "A short tour" section run in the
repository with their ``out/`` folder redirected to a temp dir; ```python
blocks there run in a fresh interpreter. A stale README fails here.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED

README = REPO / "README.md"


def _tour() -> str:
    text = README.read_text()
    start = text.index("## A short tour")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", _tour(), flags=re.S)


def _commands() -> list[str]:
    return [line.strip() for block in _blocks("bash") for line in block.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_readme_opens_with_the_two_commands():
    head = README.read_text()[:600]
    assert "make run" in head and "make test" in head


@pytest.mark.parametrize("command", _commands())
def test_tour_command_runs(command: str, tmp_path: Path):
    if not SHARED.is_dir():
        pytest.fail(f"{SHARED} is missing: the tour uses the shared corpus")
    argv = [a.replace("out/", f"{tmp_path}/out/") for a in shlex.split(command)]
    assert argv[0] == ".venv/bin/layout-assistant", "tour commands use the venv's console script"
    argv[0] = str(Path(sys.executable).with_name("layout-assistant"))
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{command}\nstdout:\n{proc.stdout[-2000:]}\nstderr:\n{proc.stderr[-2000:]}"
    for arg in argv:
        if arg.startswith(f"{tmp_path}/out/") and Path(arg).suffix:
            assert Path(arg).exists(), f"{command} did not write {arg}"


@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_tour_python_runs(index: int):
    code = _blocks("python")[index]
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{code}\nstderr:\n{proc.stderr[-3000:]}"
