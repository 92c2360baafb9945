"""The workspace: the one folder the MCP server reads and writes.

A client names files with paths relative to the workspace root (absolute
paths are accepted only when they lie inside it). ``Workspace.resolve``
follows every symlink (``os.path.realpath``) before checking containment, so
``..`` segments and links that point out of the root are both refused: the
check is made on the real path the operating system would open, not on the
text the client sent.

Only regular files are read or replaced: a FIFO, socket or device that
carries an ``.svg`` name is refused from its ``stat``, and a file is opened
non-blocking and checked again (``fstat``) before it is read, so no call can
block on one (and hold its document's lock for good). Paths longer than
``limits.MAX_PATH_CHARS`` characters, or with a component over
``MAX_NAME_BYTES`` bytes, are refused before the operating system sees them.

Errors are ``WorkspaceError`` (a ``LayoutError``) whose message names the
path and the root and says what to do instead; the server turns them into
``ToolError`` results. Operating-system errors (a path the system refuses,
a permission) become ``WorkspaceError`` too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from assistant.errors import LayoutError, printable
from assistant.limits import MAX_NAME_BYTES, MAX_PATH_CHARS, MAX_READ_BYTES


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
        if len(text) > MAX_PATH_CHARS:
            raise WorkspaceError(f"path {_short(text)} is {len(text)} characters long, more than the "
                                 f"{MAX_PATH_CHARS} accepted")
        long_name = next((part for part in Path(text).parts if len(os.fsencode(part)) > MAX_NAME_BYTES), None)
        if long_name is not None:
            raise WorkspaceError(f"path {_short(text)} has a name of {len(os.fsencode(long_name))} bytes, "
                                 f"more than the {MAX_NAME_BYTES} a file name may have")
        try:
            candidate = Path(text).expanduser()
        except RuntimeError:  # "~user" for an unknown user
            candidate = Path(text)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        try:
            real = Path(os.path.realpath(candidate))
        except (OSError, ValueError) as exc:
            raise WorkspaceError(f"path {_short(text)} cannot be resolved: {_reason(exc)}") from None
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
        """Read a regular file under the root: ``(real path, bytes)``; never blocks (see the module docstring)."""
        real = self.resolve(path)
        name = _short(str(path))
        try:
            mode = os.stat(real).st_mode
        except FileNotFoundError:
            raise WorkspaceError(
                f"no file {name} in the workspace {str(self.root)!r}; paths are relative to the workspace root"
            ) from None
        except OSError as exc:
            raise WorkspaceError(f"{name} cannot be read: {_reason(exc)}") from None
        _check_regular(name, mode)
        try:
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_BINARY", 0))
        except OSError as exc:
            raise WorkspaceError(f"{name} cannot be read: {_reason(exc)}") from None
        try:
            st = os.fstat(fd)
            _check_regular(name, st.st_mode)
            if st.st_size > max_bytes:
                raise WorkspaceError(f"{name} is {st.st_size} bytes, more than the {max_bytes}-byte limit")
            chunks, total = [], 0
            while total <= max_bytes:
                chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
        except OSError as exc:
            raise WorkspaceError(f"{name} cannot be read: {_reason(exc)}") from None
        finally:
            os.close(fd)
        if total > max_bytes:
            raise WorkspaceError(f"{name} grew past the {max_bytes}-byte limit while it was read")
        return real, b"".join(chunks)

    def target(self, path: str | Path) -> Path:
        """A path under the root that may be written: not a folder, and its folder exists.

        Whether an existing file may be replaced is :func:`assistant.app.outputs.write_output`'s to decide.
        """
        real = self.resolve(path)
        try:
            st = os.stat(real)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise WorkspaceError(f"{_short(str(path))} cannot be written: {_reason(exc)}") from None
        if real == self.root or (st is not None and stat.S_ISDIR(st.st_mode)):
            raise WorkspaceError(f"{_short(str(path))} is a directory; give a file name")
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise WorkspaceError(f"{_short(str(path))} exists and is not a regular file (a FIFO, socket or "
                                 "device); only regular files are replaced, choose another file name")
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
                        if not stat.S_ISREG(os.stat(real).st_mode):
                            continue  # a FIFO, socket or device: never offered
                    except (WorkspaceError, OSError):
                        continue
                    out.append(self.relative(real))
                    if len(out) >= limit:
                        return out
        return out


def _check_regular(name: str, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise WorkspaceError(f"{name} is a directory, not a regular file")
    if not stat.S_ISREG(mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        raise WorkspaceError(f"{name} is {kind}; only regular files are read")


def _short(text: str, limit: int = 120) -> str:
    """A path for a message: quoted, control characters escaped, at most ``limit`` characters."""
    shown = printable(text, one_line=True)
    if len(shown) > limit:
        shown = f"{shown[: limit // 2]}…{shown[-limit // 2:]}"
    return repr(shown)


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__
