"""Shared material for the MCP server tests: a small poster and a workspace holding it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

#: A small, broken poster: the body runs off the right edge, the caption straddles the photo's bottom
#: edge.
POSTER_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
  <rect id="bg" data-role="background" x="0" y="0" width="800" height="600" fill="#ffffff"/>
  <text id="title" data-role="title" x="60" y="110" font-family="DejaVu Sans" font-size="56"
        font-weight="700" fill="#111111">Summer Design Fair</text>
  <text id="subtitle" data-role="subtitle" x="64" y="170" font-family="DejaVu Sans" font-size="28"
        fill="#333333">Three days of posters and type</text>
  <rect id="photo" data-role="image" x="60" y="220" width="420" height="260" fill="#88aacc"/>
  <text id="caption" data-role="caption" x="70" y="488" font-family="DejaVu Sans" font-size="14"
        fill="#222222">Photo: the hall in 2025</text>
  <text id="body" data-role="body" x="600" y="240" font-family="DejaVu Sans" font-size="18"
        fill="#222222">Talks, workshops and a print market.</text>
  <g id="logo" data-role="logo">
    <rect id="logo-mark" x="640" y="500" width="50" height="50" fill="#cc3333"/>
    <rect id="logo-bar" x="700" y="515" width="70" height="20" fill="#cc3333"/>
  </g>
  <text id="date" x="520" y="300" font-family="DejaVu Sans" font-size="20"
        fill="#222222">12-14 July</text>
  <rect id="cta-shape" x="50" y="508" width="170" height="46" fill="#cc3333"/>
  <text id="cta" x="60" y="540" font-family="DejaVu Sans" font-size="24"
        font-weight="700" fill="#ffffff">Get tickets</text>
</svg>
"""

#: The OSGeo flyer the end-to-end and HTTP tests open.
FLYER = "gdal_a4.svg"


def make_workspace(root: Path, osgeo_dir: Path | None = None) -> Path:
    """A workspace with ``poster.svg`` (and the OSGeo flyer when ``osgeo_dir`` is given)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "poster.svg").write_text(POSTER_SVG, encoding="utf-8")
    if osgeo_dir is not None:
        shutil.copy(osgeo_dir / FLYER, root / FLYER)
    return root


def data(result: Any) -> Any:
    """The structured payload of a fastmcp ``CallToolResult``."""
    sc = result.structured_content
    if sc is not None:
        return sc["result"] if set(sc) == {"result"} else sc
    return json.loads(result.content[0].text)


def error_text(result: Any) -> str:
    """The text of an ``isError`` tool result."""
    assert result.is_error, f"expected an error result, got {result}"
    return " ".join(getattr(c, "text", "") for c in result.content)


REPO = Path(__file__).resolve().parents[1]


def serve_command(*args: str) -> list[str]:
    """``layout-assistant serve ARGS`` (the installed console script when there is one)."""
    import sys

    script = Path(sys.executable).parent / "layout-assistant"
    if script.exists():
        return [str(script), "serve", *args]
    return [sys.executable, "-c", "from assistant.cli import main; main()", "serve", *args]


def server_env() -> dict[str, str]:
    """The environment for a server subprocess: this one, with the repository importable."""
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env
