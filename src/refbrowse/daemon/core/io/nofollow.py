"""Open a path the policy has checked, and only that: no symlink on the way, no FIFO or device at the end.

The policy (`policy.Policy`) resolves a path and checks where it lies; between
that check and the write, a folder on the way could be swapped for a symlink
(a loop flipping one made some screenshots land outside the allowed roots).
So the checked, resolved path is opened here one component at a time, each
relative to its parent's descriptor with `O_NOFOLLOW`: a symlink that appeared
since the check fails the open instead of being followed. Files are opened
without blocking and must be regular files: a FIFO would hang the thread that
opened it (and with it the shared executor) for ever.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import suppress

from refbrowse.errors import UsageError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class NotARegularFile(UsageError):
    """The path names a FIFO, a device, a socket or a folder: refused before anything blocks on it."""


def kind_of(mode: int) -> str:
    """What a file of `mode` is, in words: "a FIFO", "a device", …"""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def open_resolved(real: str, flags: int, mode: int = 0o644, make_parents: bool = False) -> int:
    """A descriptor on the resolved absolute path `real`, following no symlink anywhere on the way.

    `flags` as for `os.open`; with `make_parents`, missing folders are made.
    A regular file is required at the end. Raises `UsageError` for a symlink
    or a special file met on the way, `OSError` for the rest.
    """
    parts = [part for part in real.split(os.sep) if part]
    folder = os.open(os.sep, _DIR_FLAGS)
    try:
        for part in parts[:-1]:
            inner = _step(folder, part, real, make_parents)
            os.close(folder)
            folder = inner
        fd = _open_last(folder, parts[-1] if parts else ".", flags, mode, real)
    finally:
        os.close(folder)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise NotARegularFile(f"refusing to open {real}: it is {kind_of(info.st_mode)}", "give a file")
    os.set_blocking(fd, True)
    return fd


def _step(folder: int, part: str, real: str, make: bool) -> int:
    """The descriptor of the folder `part` inside `folder`, made first if `make`."""
    try:
        if make:
            with suppress(FileExistsError):
                os.mkdir(part, 0o755, dir_fd=folder)
        return os.open(part, _DIR_FLAGS, dir_fd=folder)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _swapped(real, part) from None
        raise


def _open_last(folder: int, name: str, flags: int, mode: int, real: str) -> int:
    try:
        return os.open(name, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode, dir_fd=folder)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UsageError(f"refusing to open {real}: it is a symlink", "give a regular file") from None
        if exc.errno == errno.ENXIO:  # a FIFO opened for writing with no reader
            raise NotARegularFile(f"refusing to open {real}: it is a FIFO", "give a regular file") from None
        raise


def _swapped(real: str, part: str) -> UsageError:
    return UsageError(
        f"refusing to open {real}: {part} on its way is a symlink or not a folder "
        "(it changed after the path was checked, or points elsewhere)",
        "give a path whose folders are real folders",
    )


def read_resolved(real: str, limit: int) -> bytes:
    """Up to `limit` + 1 bytes of the regular file at the resolved path `real` (see `open_resolved`)."""
    with os.fdopen(open_resolved(real, os.O_RDONLY), "rb") as f:
        return f.read(limit + 1)


def refuse_special(path: str, real: str) -> None:
    """Refuse at once a path that names an existing FIFO, device or socket (before anything opens it)."""
    try:
        info = os.stat(real)
    except OSError:
        return
    if not stat.S_ISREG(info.st_mode):
        raise NotARegularFile(
            f"refusing to read {path}: it is {kind_of(info.st_mode)}, not a regular file",
            "give the path of a regular file",
        )
