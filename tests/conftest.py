"""Shared test fixtures: where the real corpus lives, temp user dirs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LAYOUT_ASSISTANT_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus"
OSGEO_DIR = CORPUS / "osgeo"
RESVG_DIR = CORPUS / "resvg"
EXAMPLES_DIR = REPO / "examples"


def osgeo_files() -> list[Path]:
    """The real OSGeo flyers (read-only; copy before writing)."""
    return sorted(OSGEO_DIR.glob("*.svg"))


def resvg_files() -> list[Path]:
    """All resvg parser-robustness cases (structure/ and text/)."""
    return sorted(RESVG_DIR.rglob("*.svg"))


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    return REPO


@pytest.fixture(scope="session")
def osgeo_dir() -> Path:
    if not OSGEO_DIR.is_dir():
        pytest.fail(f"corpus not found at {OSGEO_DIR}: ../shared must sit beside the repository")
    return OSGEO_DIR


@pytest.fixture(scope="session")
def resvg_dir() -> Path:
    if not RESVG_DIR.is_dir():
        pytest.fail(f"corpus not found at {RESVG_DIR}: ../shared must sit beside the repository")
    return RESVG_DIR


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point per-user state (caches, config) at a temp dir for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("LAYOUT_ASSISTANT_HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
