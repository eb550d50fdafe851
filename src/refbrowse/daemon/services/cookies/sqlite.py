"""Read a browser's cookie database without ever touching the browser's own file.

The database (and its write-ahead log, where a running browser keeps its latest
writes) is copied into a private 0700 temporary directory, opened read-only
there and deleted afterwards, so a running browser is never locked out or
disturbed. SQLite's failures become errors that say which file and what to do.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from refbrowse.errors import BrowseError


class CookieDbError(BrowseError):
    """A cookie database that cannot be read: missing, corrupt, locked, or of another kind."""


def query(db: Path, *statements: str) -> list[list[sqlite3.Row]]:
    """The rows of each statement, all read from one private copy of `db`."""
    with _private_copy(db) as copy, closing(_open(copy)) as conn:
        try:
            return [conn.execute(sql).fetchall() for sql in statements]
        except sqlite3.DatabaseError as exc:
            raise _explain(db, exc) from exc


def _open(copy: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True, timeout=2)
    conn.row_factory = sqlite3.Row
    return conn


@contextmanager
def _private_copy(db: Path) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="refbrowse-cookies-"))  # mode 0700
    try:
        copy = folder / db.name
        try:
            shutil.copyfile(db, copy)
            for suffix in ("-wal", "-journal"):
                side = db.with_name(db.name + suffix)
                if side.exists():
                    shutil.copyfile(side, folder / side.name)
        except OSError as exc:
            raise CookieDbError(
                f"cannot read the cookie database {db}: {exc.strerror}",
                "check that the file exists and is readable by you",
            ) from exc
        yield copy
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _explain(db: Path, exc: sqlite3.DatabaseError) -> CookieDbError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return CookieDbError(
            f"the cookie database {db} is locked: {text}",
            "close the browser (or wait for it to finish writing) and run the import again",
        )
    if "no such table" in text or "no such column" in text:
        return CookieDbError(
            f"{db} is not a cookie database this version understands: {text}",
            "pick another profile with --profile (see --list)",
        )
    return CookieDbError(
        f"the cookie database {db} is corrupt or unreadable: {text}",
        "let the browser open and close once so it repairs the file, then run the import again",
    )
