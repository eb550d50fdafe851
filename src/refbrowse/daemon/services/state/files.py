"""Storage-state files: where they live, how they are checked, written and set aside.

A storage state is Playwright's `{cookies, origins}` JSON (origins carry local
storage and IndexedDB). Every file is written atomically with mode 0600 in a
0700 directory, because it holds live login cookies. A file that cannot be read
back is never fatal: it is renamed aside so that the daemon starts clean and a
person can still look at it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import time
from contextlib import ExitStack, suppress
from typing import Any

from refbrowse.errors import UsageError
from refbrowse.protocol import read_regular

log = logging.getLogger("refbrowse")

PERSIST_DIR = "state"  # one file per session, restored at daemon start
NAMED_DIR = "states"  # `state save NAME` snapshots, shared by all sessions
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_COOKIE_STRINGS = ("name", "value", "domain", "path")
_COOKIE_KEYS = (*_COOKIE_STRINGS, "expires", "httpOnly", "secure", "sameSite")

State = dict[str, Any]


class StateFileError(Exception):
    """A state file that is missing, unreadable or not a storage state."""


def session_file(state_dir: str, session: str) -> str:
    """The persisted state of a session; odd characters in its name are hex-escaped."""
    safe = "".join(c if c.isalnum() or c in "-_" else f"%{ord(c):02x}" for c in session)
    return os.path.join(state_dir, PERSIST_DIR, f"session-{safe}.json")


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise UsageError(
            f"bad state name: {name!r}",
            "use letters, digits, '.', '_' or '-' (up to 64, starting with a letter or digit)",
        )
    return name


def named_file(state_dir: str, name: str) -> str:
    return os.path.join(state_dir, NAMED_DIR, f"{check_name(name)}.json")


def named_states(state_dir: str) -> list[str]:
    try:
        entries = os.listdir(os.path.join(state_dir, NAMED_DIR))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(e[:-5] for e in entries if e.endswith(".json") and _NAME.fullmatch(e[:-5]))


def check_state(data: object) -> State:
    """Return `data` as a storage state with only the cookie keys Playwright takes back."""
    if not isinstance(data, dict):
        raise StateFileError("it is not a JSON object")
    cookies, origins = data.get("cookies", []), data.get("origins", [])
    if not isinstance(cookies, list) or not isinstance(origins, list):
        raise StateFileError("'cookies' and 'origins' must be lists")
    for i, cookie in enumerate(cookies):
        if not isinstance(cookie, dict) or not all(isinstance(cookie.get(k), str) for k in _COOKIE_STRINGS):
            raise StateFileError(f"cookie {i + 1} lacks a name, value, domain or path")
    for i, origin in enumerate(origins):
        if not isinstance(origin, dict) or not isinstance(origin.get("origin"), str):
            raise StateFileError(f"origin {i + 1} has no 'origin' URL")
    return {"cookies": [_clean_cookie(c) for c in cookies], "origins": origins}


def _clean_cookie(cookie: dict[str, Any]) -> dict[str, Any]:
    """Keep what `new_context(storage_state=...)` accepts, so a restore cannot be refused."""
    kept = {k: cookie[k] for k in _COOKIE_KEYS if k in cookie}
    if kept.get("sameSite") not in ("Lax", "None", "Strict"):
        kept.pop("sameSite", None)
    if not isinstance(kept.get("expires", -1), int | float):
        kept["expires"] = -1
    return kept


def read_state(path: str) -> State:
    try:
        data = json.loads(read_regular(path))
    except (OSError, ValueError, RecursionError) as exc:
        raise StateFileError(str(exc) or type(exc).__name__) from exc
    return check_state(data)


def write_state(path: str, state: State) -> None:
    """Write atomically: a reader (or a crash) sees the old file or the new one, never half."""
    folder = os.path.dirname(path)
    if os.path.lexists(folder) and not os.path.isdir(folder):
        log.warning("%s is not a directory: kept as %s", folder, set_aside(folder))
    with suppress(FileExistsError):  # never its parents: a removed workspace stays removed
        os.mkdir(folder, 0o700)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")  # mode 0600
    with ExitStack() as unless_written:  # whatever stops the write, cancellation too, removes the file
        unless_written.callback(_remove, tmp)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(state, f, separators=(",", ":"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        unless_written.pop_all()


def _remove(path: str) -> None:
    with suppress(FileNotFoundError):
        os.remove(path)


def set_aside(path: str) -> str:
    """Rename a bad state file (or whatever sits at its path) out of the way; return its new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = f"{path}.{stamp}.corrupt"
    for n in range(1, 100):
        if not os.path.lexists(aside):
            break
        aside = f"{path}.{stamp}-{n}.corrupt"
    os.replace(path, aside)
    return aside


def remove_leftovers(state_dir: str) -> None:
    """Delete temp files a killed daemon left mid-write: they may hold cookies."""
    for sub in (PERSIST_DIR, NAMED_DIR):
        folder = os.path.join(state_dir, sub)
        with suppress(FileNotFoundError, NotADirectoryError):
            for entry in os.listdir(folder):
                if entry.startswith(".tmp-"):
                    remove(os.path.join(folder, entry))


def remove(path: str) -> bool:
    try:
        os.remove(path)
    except FileNotFoundError:
        return False
    return True
