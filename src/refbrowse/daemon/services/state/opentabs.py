"""The pages a session's tabs showed, kept beside its login state so that a lost daemon is said.

The persister writes each session's tab URLs with its cookies; a daemon that ends
as asked (`stop`, `restart`, idle) removes them. So a file found when a session
first starts belongs to a daemon that was killed or replaced: its tabs are gone,
and the first command says which pages they showed, once. URLs can hold tokens:
the file is private (0600) like the state files.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress

from refbrowse.daemon.services.state.files import PERSIST_DIR, remove, session_file
from refbrowse.protocol import open_regular, read_regular

SHOWN_SCHEMES = ("http:", "https:", "file:")  # a blank tab or an error page is nothing lost
MAX_SAID = 5  # URLs named in the note; the rest are counted


def tabs_file(state_dir: str, session: str) -> str:
    state = session_file(state_dir, session)
    return os.path.join(os.path.dirname(state), "tabs-" + os.path.basename(state).removeprefix("session-"))


def write_tabs(path: str, urls: list[str]) -> None:
    """The URLs worth naming, atomically; no file when there are none."""
    shown = [url for url in urls if url.startswith(SHOWN_SCHEMES)]
    if not shown:
        remove(path)
        return
    folder = os.path.dirname(path)
    with suppress(FileExistsError):
        os.mkdir(folder, 0o700)
    tmp = os.path.join(folder, f".tmp-tabs-{os.getpid()}")
    fd = open_regular(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(shown, out)
    os.replace(tmp, path)


def take_lost(path: str) -> list[str]:
    """The URLs a lost daemon's tabs showed (the file is removed: said once); [] if none."""
    try:
        urls = json.loads(read_regular(path))
    except (OSError, ValueError):
        return []
    finally:
        remove_quietly(path)
    return [url for url in urls if isinstance(url, str)] if isinstance(urls, list) else []


def remove_quietly(path: str) -> None:
    with suppress(OSError):
        remove(path)


def remove_all(state_dir: str) -> None:
    """A daemon that ends as asked leaves no tabs to be said lost."""
    folder = os.path.join(state_dir, PERSIST_DIR)
    with suppress(OSError):
        for entry in os.listdir(folder):
            if entry.startswith("tabs-"):
                remove_quietly(os.path.join(folder, entry))


def lost_note(session: str, urls: list[str]) -> str:
    said = ", ".join(urls[:MAX_SAID]) + (f" and {len(urls) - MAX_SAID} more" if len(urls) > MAX_SAID else "")
    return (
        f"session {session}: the daemon before this one ended without `browse stop` (killed or replaced)"
        f" and its tabs are gone; they showed {said} (`browse goto URL` opens one again)"
    )
