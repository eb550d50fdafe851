"""Why the last daemon of a workspace ended, told to the first command of the next.

When Chromium or Playwright's driver is lost more often than `revive` restarts
them (a page that keeps killing it), or a restart fails, the daemon exits and
the next command starts a fresh one, which restores each session's saved login
state. Without a word, the agent would see
its tabs gone and not know why; so the dying daemon leaves one line behind and
the next daemon says it once, as a note.
"""

from __future__ import annotations

import logging
import os
import time
from contextlib import suppress

from refbrowse import protocol

log = logging.getLogger("refbrowse")

LAST_EXIT = "last-exit.txt"
_MAX_BYTES = 2000


def record(state_dir: str, why: str) -> None:
    """Leave the reason this daemon is ending for the next one."""
    when = time.strftime("%H:%M:%S")
    line = (
        f"the previous daemon ended at {when}: {why}; its tabs are gone, each session's saved login "
        "state is restored where one was saved (open your pages again)"
    )
    try:
        protocol.write_private_file(protocol.state_path(state_dir, LAST_EXIT), line)
    except OSError as exc:
        log.warning("could not record why the daemon ends: %s", exc)


def recall(state_dir: str) -> str:
    """The line the previous daemon left ("" for none), removed so that it is said once."""
    path = protocol.state_path(state_dir, LAST_EXIT)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as f:
        text = f.read(_MAX_BYTES).decode(errors="replace") if os.fstat(f.fileno()).st_size else ""
    with suppress(OSError):
        os.remove(path)
    return " ".join(text.split())
