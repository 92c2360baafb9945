"""Atomic file output: a reader sees the old file or the complete new one, never a half-written one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from assistant.errors import ExportError


def atomic_write(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically and return the path.

    The bytes go to a temporary file in the same directory, are flushed and
    fsync'ed, then ``os.replace`` renames it over ``path`` (atomic on POSIX and
    Windows for same-volume renames). On any error the temporary file is
    removed and ``ExportError`` names the target; ``path`` is untouched.
    """
    target = Path(path)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ExportError(f"{target}: data to write must be bytes, not {type(data).__name__}")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise ExportError(f"{target}: the folder {directory} does not exist")
    if target.is_dir():
        raise ExportError(f"{target}: is a folder, not a file")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            try:
                os.chmod(tmp, target.stat().st_mode & 0o777)
            except OSError:
                pass
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as exc:
        _remove(tmp)
        raise ExportError(f"{target}: could not write the file ({exc.strerror or exc})") from exc
    except BaseException:
        _remove(tmp)
        raise
    _fsync_dir(directory)
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass


def _fsync_dir(directory: Path) -> None:
    """Make the rename durable (POSIX); harmless where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
