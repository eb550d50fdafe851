"""The daemon's own child processes, and ending them when the daemon ends.

Playwright's node driver is the daemon's child, and Chromium the driver's, in a
process group of its own. A browser that hangs (a giant viewport, a stopped
process) can make a graceful close wait forever, so the daemon's shutdown has a
time bound: past it, a watchdog thread kills every descendant and ends the
process, whatever the event loop is doing.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from contextlib import suppress

log = logging.getLogger("refbrowse")


def descendants(root: int) -> list[int]:
    """Every live process under `root` (Linux /proc; empty elsewhere), parents first."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if entry.isdigit():
            parent = _parent(entry)
            if parent is not None:
                children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _parent(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def exited(pid: int) -> bool:
    """True once `pid` has ended (a zombie not yet reaped counts as ended); False if unsure."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True
    except (OSError, IndexError):
        return False


def kill_children(extra: tuple[int, ...] = ()) -> int:
    """SIGKILL every descendant of this process (and `extra` pids); return how many."""
    pids = [*descendants(os.getpid()), *extra]
    for pid in pids:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)


class Watchdog:
    """Ends the process `seconds` after `arm()` unless `disarm()` came first.

    A thread, not a task: it must fire even if the event loop is stuck.
    """

    def __init__(self, seconds: float, exit_code: int = 1) -> None:
        self.seconds = seconds
        self.exit_code = exit_code
        self.extra_pids: tuple[int, ...] = ()
        self._timer: threading.Timer | None = None

    def arm(self) -> None:
        if self._timer is None:
            self._timer = threading.Timer(self.seconds, self.fire)
            self._timer.daemon = True
            self._timer.start()

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def fire(self) -> None:
        """Kill the children and leave now, skipping every cleanup that could hang."""
        killed = kill_children(self.extra_pids)
        log.error("shutdown took over %.0f s: killed %d child processes; exiting", self.seconds, killed)
        logging.shutdown()
        os._exit(self.exit_code)
