"""Atomic writes and the exporter registry."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant.app.formats import export, format_for_path, get_exporter, register_exporter, supported_formats
from assistant.app.outputs import atomic_write
from assistant.errors import ExportError
from assistant.importer import import_svg
from assistant.svg.write import export_svg

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "osgeo"


def test_atomic_write_creates_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out.svg"
    atomic_write(target, b"first")
    assert target.read_bytes() == b"first"
    os.chmod(target, 0o640)
    atomic_write(target, b"second version")
    assert target.read_bytes() == b"second version"
    assert (target.stat().st_mode & 0o777) == 0o640       # the replaced file keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]


def test_atomic_write_failures_leave_nothing_behind(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        atomic_write(tmp_path / "missing" / "out.png", b"x")
    (tmp_path / "adir").mkdir()
    with pytest.raises(ExportError, match="folder"):
        atomic_write(tmp_path / "adir", b"x")
    with pytest.raises(ExportError, match="bytes"):
        atomic_write(tmp_path / "t.txt", "text")  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_atomic_write_unwritable_folder(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "keep.txt").write_bytes(b"old")
    os.chmod(locked, 0o500)
    try:
        with pytest.raises(ExportError):
            atomic_write(locked / "keep.txt", b"new")
        assert (locked / "keep.txt").read_bytes() == b"old"
    finally:
        os.chmod(locked, 0o700)


def test_registry_lookup_and_errors() -> None:
    assert get_exporter("svg") is export_svg
    assert get_exporter(".PNG").__name__ == "render_png"
    assert {"svg", "png", "pdf"} <= set(supported_formats())
    with pytest.raises(ExportError, match="supported: .*pdf.*png.*svg"):
        get_exporter("gif")
    assert format_for_path("a/b/flyer.PDF") == "pdf"
    with pytest.raises(ExportError, match="suffix"):
        format_for_path("flyer.jpeg")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Formats registered in a test are forgotten after it."""
    from assistant.app import formats

    monkeypatch.setattr(formats, "_REGISTRY", dict(formats._REGISTRY))


def test_register_custom_exporter(registry: None) -> None:
    doc = import_svg(CORPUS / "OSGeo_bronze_sponsor.svg")
    register_exporter("ids", lambda d, **_: "\n".join(e.id for e in d.layout.elements).encode(),
                      suffixes=(".ids",))
    assert export(doc, "ids").split(b"\n")[0] == doc.layout.elements[0].id.encode()
    assert format_for_path("x.ids") == "ids"
