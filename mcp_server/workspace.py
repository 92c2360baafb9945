"""The workspace: the one folder the MCP server reads and writes.

A client names files with paths relative to the workspace root (absolute
paths are accepted only when they lie inside it). ``Workspace.resolve``
follows every symlink (``os.path.realpath``) before checking containment, so
``..`` segments and links that point out of the root are both refused: the
check is made on the real path the operating system would open, not on the
text the client sent.

Errors are ``WorkspaceError`` (a ``LayoutError``) whose message names the
path and the root and says what to do instead; the server turns them into
``ToolError`` results.
"""

from __future__ import annotations

import os
from pathlib import Path

from assistant.errors import LayoutError

#: Largest SVG the server will read from the workspace (bytes).
MAX_READ_BYTES = 50 * 1024 * 1024


class WorkspaceError(LayoutError):
    """A path is outside the workspace, missing, or of the wrong kind."""


class Workspace:
    """Path safety for one root folder.

    ``root`` must exist and be a directory; it is stored as its real path.
    """

    def __init__(self, root: str | Path) -> None:
        real = Path(os.path.realpath(Path(root).expanduser()))
        if not real.is_dir():
            raise WorkspaceError(f"workspace {str(root)!r} is not an existing directory")
        if real == Path(real.anchor):
            raise WorkspaceError(
                f"refusing the filesystem root {str(real)!r} as the workspace; pass --workspace with the "
                "folder that holds your designs"
            )
        self.root = real

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    def resolve(self, path: str | Path) -> Path:
        """The real absolute path of ``path`` (relative to the root), refusing anything outside it.

        Symlinks are resolved first (also for a final component that does not
        exist yet), so a link inside the root pointing elsewhere is refused.
        """
        text = str(path).strip()
        if not text:
            raise WorkspaceError("empty path: give a file name relative to the workspace root")
        if "\x00" in text:
            raise WorkspaceError(f"path {text!r} contains a NUL character")
        candidate = Path(text).expanduser()
        if not candidate.is_absolute():
            candidate = self.root / candidate
        real = Path(os.path.realpath(candidate))
        if real != self.root and self.root not in real.parents:
            raise WorkspaceError(
                f"path {text!r} is outside the workspace {str(self.root)!r} "
                "(after resolving '..' and symlinks); use a path relative to the workspace root"
            )
        return real

    def relative(self, path: Path) -> str:
        """``path`` (a resolved path inside the root) as a POSIX path relative to the root."""
        return path.relative_to(self.root).as_posix() or "."

    def read_file(self, path: str | Path, *, max_bytes: int = MAX_READ_BYTES) -> tuple[Path, bytes]:
        """Read a regular file under the root: ``(real path, bytes)``."""
        real = self.resolve(path)
        if not real.exists():
            raise WorkspaceError(
                f"no file {str(path)!r} in the workspace {str(self.root)!r}; "
                "paths are relative to the workspace root"
            )
        if not real.is_file():
            raise WorkspaceError(f"{str(path)!r} is not a regular file")
        size = real.stat().st_size
        if size > max_bytes:
            raise WorkspaceError(f"{str(path)!r} is {size} bytes, more than the {max_bytes}-byte limit")
        return real, real.read_bytes()

    def target(self, path: str | Path) -> Path:
        """A path under the root that may be written: not a folder, and its folder exists.

        Whether an existing file may be replaced is :func:`assistant.app.outputs.write_output`'s to decide.
        """
        real = self.resolve(path)
        if real == self.root or real.is_dir():
            raise WorkspaceError(f"{str(path)!r} is a directory; give a file name")
        if not real.parent.is_dir():
            raise WorkspaceError(
                f"folder {self.relative(real.parent)!r} does not exist in the workspace; "
                "write into an existing folder"
            )
        return real

    def list_files(self, suffix: str = ".svg", *, limit: int = 200, max_dirs: int = 2000) -> list[str]:
        """Files under the root ending in ``suffix`` (relative paths, sorted), not following links out.

        Hidden folders and ``node_modules`` are skipped; the walk stops after
        ``limit`` files or ``max_dirs`` folders, so a huge workspace stays quick.
        """
        out: list[str] = []
        for visited, (dirpath, dirnames, filenames) in enumerate(os.walk(self.root)):
            if visited >= max_dirs:
                break
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "node_modules")
            for name in sorted(filenames):
                if name.lower().endswith(suffix):
                    try:
                        real = self.resolve(Path(dirpath) / name)
                    except WorkspaceError:
                        continue
                    out.append(self.relative(real))
                    if len(out) >= limit:
                        return out
        return out
