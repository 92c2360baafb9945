"""Path safety of the MCP server's workspace: nothing outside the root is read or written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcp_server.workspace import Workspace, WorkspaceError


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.svg").write_text("<svg/>")
    (root / "sub" / "b.svg").write_text("<svg/>")
    (tmp_path / "secret.txt").write_text("secret")
    return Workspace(root)


def test_relative_path_resolves_inside_root(ws: Workspace) -> None:
    assert ws.resolve("sub/b.svg") == ws.root / "sub" / "b.svg"


def test_absolute_path_inside_root_is_accepted(ws: Workspace) -> None:
    assert ws.resolve(str(ws.root / "a.svg")) == ws.root / "a.svg"


def test_dotdot_escape_is_refused(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        ws.resolve("../secret.txt")


def test_dotdot_inside_root_is_fine(ws: Workspace) -> None:
    assert ws.resolve("sub/../a.svg") == ws.root / "a.svg"


def test_absolute_path_outside_root_is_refused(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        ws.resolve("/etc/passwd")


def test_symlink_pointing_out_is_refused(ws: Workspace) -> None:
    os.symlink(ws.root.parent / "secret.txt", ws.root / "link.svg")
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        ws.read_file("link.svg")


def test_symlinked_directory_pointing_out_is_refused_for_writes(ws: Workspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, ws.root / "out")
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        ws.target("out/new.svg")
    assert not (outside / "new.svg").exists()


def test_dangling_symlink_out_is_refused_for_writes(ws: Workspace, tmp_path: Path) -> None:
    os.symlink(tmp_path / "not-yet.svg", ws.root / "dangling.svg")
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        ws.target("dangling.svg")


def test_symlink_inside_root_is_followed(ws: Workspace) -> None:
    os.symlink(ws.root / "sub" / "b.svg", ws.root / "alias.svg")
    real, data = ws.read_file("alias.svg")
    assert real == ws.root / "sub" / "b.svg" and data == b"<svg/>"


def test_missing_file_names_the_path(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="no file 'nope.svg'"):
        ws.read_file("nope.svg")


def test_directory_is_not_readable_as_a_file(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="not a regular file"):
        ws.read_file("sub")


def test_oversized_file_is_refused(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="limit"):
        ws.read_file("a.svg", max_bytes=3)


def test_an_existing_file_is_a_valid_target(ws: Workspace) -> None:
    """Whether it may be replaced is write_output's decision (tests/test_outputs.py, and through MCP)."""
    assert ws.target("a.svg") == ws.root / "a.svg"


def test_target_in_missing_folder_is_refused(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="does not exist"):
        ws.target("nofolder/x.svg")


def test_empty_and_nul_paths_are_refused(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match="empty path"):
        ws.resolve("  ")
    with pytest.raises(WorkspaceError, match="NUL"):
        ws.resolve("a\x00.svg")


def test_root_must_exist(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="not an existing directory"):
        Workspace(tmp_path / "missing")


def test_filesystem_root_is_refused() -> None:
    with pytest.raises(WorkspaceError, match="filesystem root"):
        Workspace("/")


def test_list_files_skips_links_out(ws: Workspace) -> None:
    os.symlink(ws.root.parent / "secret.txt", ws.root / "evil.svg")
    assert ws.list_files() == ["a.svg", "sub/b.svg"]
