"""Writing files safely: the one way every front end writes outputs.

- :func:`atomic_write`: a reader sees the old file or the complete new one, never
  a half-written one (temporary file in the same folder, fsync, rename).
- :func:`write_output`: an output file of a command or tool. It never replaces
  one of the command's inputs, replaces an existing file only when asked, keeps
  a backup when asked, and creates the folder it goes into.
- :func:`keep_backup`: a copy of a file about to be replaced, under a name that
  is not taken (``NAME.bak``, then ``NAME.bak.2``, ``NAME.bak.3`` …): a backup
  is never overwritten, so the first one always holds the original.

``fix`` (``--out``, ``--in-place``, ``--formats``), ``export``, ``render``, the
chat's ``save``/``export`` and the MCP tools ``export_document``/``save_document``
all write through these.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from assistant.errors import ExportError

__all__ = ["atomic_write", "keep_backup", "replace_input", "write_output"]


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


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def keep_backup(path: str | os.PathLike[str]) -> Path:
    """Copy ``path`` to the first free backup name beside it and return that name.

    ``NAME.bak`` when it is free, else ``NAME.bak.2``, ``NAME.bak.3`` …; a name
    taken by anything (a file, a folder, a link, even a dangling one) is skipped,
    and the copy is linked into place only if the name is still free, so no
    backup is ever overwritten.
    """
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise ExportError(f"{source}: cannot read it to keep a backup ({exc.strerror or exc})") from exc
    directory = source.parent if str(source.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{source.name}.", suffix=".bak.tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, source.stat().st_mode & 0o777)
        for n in range(1, 10_000):
            backup = source.with_name(f"{source.name}.bak" + (f".{n}" if n > 1 else ""))
            try:
                os.link(tmp, backup)  # fails when the name is taken: never replaces anything
            except FileExistsError:
                continue
            _fsync_dir(directory)
            return backup
        raise ExportError(f"{source}: every backup name up to {source.name}.bak.9999 is taken")
    except OSError as exc:
        raise ExportError(f"{source}: could not write a backup ({exc.strerror or exc})") from exc
    finally:
        _remove(tmp)


def write_output(
    target: str | os.PathLike[str],
    data: bytes,
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    overwrite: bool = False,
    backup: bool = False,
    label: str | None = None,
    overwrite_hint: str = "pass --force to replace it",
) -> Path:
    """Write an output file safely (see the module docstring) and return its path.

    Arguments:
        target: where to write.
        data: the bytes.
        inputs: files the output may never replace (the files the command read).
        overwrite: replace an existing ``target`` (otherwise ``ExportError``).
        backup: before replacing an existing ``target``, keep a backup (:func:`keep_backup`).
        label: how messages name the target (default: the path as given).
        overwrite_hint: what the user does to replace an existing file, for the message.
    """
    path = Path(target)
    name = label or str(path)
    for source in inputs:
        if _same_file(path, Path(source)):
            raise ExportError(f"{name}: refusing to overwrite the input file {source}; write the output elsewhere")
    if path.is_dir():
        raise ExportError(f"{name}: is a folder, not a file")
    exists = os.path.lexists(path)
    if exists and not overwrite:
        raise ExportError(f"{name}: already exists ({overwrite_hint})")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{name}: cannot create the folder {path.parent} ({exc.strerror or exc})") from exc
    if exists and backup and path.is_file():
        keep_backup(path)
    return atomic_write(path, data)


def replace_input(path: str | os.PathLike[str], data: bytes) -> Path:
    """Replace an input file in place (``--in-place``) after keeping a backup; return the backup's path."""
    backup = keep_backup(path)
    atomic_write(path, data)
    return backup


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
