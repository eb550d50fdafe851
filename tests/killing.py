"""Killing the daemon's processes mid-command, reusable by other suites.

`kill_mid_command` starts a slow command, SIGKILLs one of the three processes
behind a workspace (the daemon, Playwright's node driver, Chromium) while it
runs, and returns what the interrupted command printed. The callers then check
that the next command works and that the login survived.
"""

from __future__ import annotations

import os
import signal
import time
from contextlib import suppress
from pathlib import Path

from conftest import Result, Site, Workspace, _descendants, browser_pid

TARGETS = ("daemon", "driver", "chromium")


def slow_route(site: Site, path: str, seconds: float) -> str:
    def reply(handler: object) -> None:
        time.sleep(seconds)
        with suppress(BrokenPipeError, ConnectionResetError):  # the browser that asked was killed
            handler.reply("<title>slow</title><p>finally</p>")  # type: ignore[attr-defined]

    return site.route(path, reply)


def driver_pid(daemon_pid: int) -> int:
    """Playwright's node driver: the daemon's child that runs `run-driver`."""
    for pid in _descendants(daemon_pid):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"run-driver" in cmdline:
            return pid
    raise AssertionError(f"no node driver under daemon {daemon_pid}")


def target_pid(ws: Workspace, target: str) -> int:
    daemon = int(str(ws.daemon_info()["pid"]))
    if target == "daemon":
        return daemon
    return driver_pid(daemon) if target == "driver" else browser_pid(daemon)


def wait_for_exit(pid: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while _running(pid):
        assert time.monotonic() < deadline, f"process {pid} still runs after {timeout} s"
        time.sleep(0.05)


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status


def kill_mid_command(ws: Workspace, target: str, slow_url: str) -> tuple[Result, int]:
    """SIGKILL `target` while `goto slow_url` runs; return that command's result and the old daemon pid."""
    daemon = int(str(ws.daemon_info()["pid"]))
    victim = target_pid(ws, target)
    slow = ws.start("goto", slow_url)
    time.sleep(0.7)  # the goto is waiting for the page now
    os.kill(victim, signal.SIGKILL)
    out, err = slow.communicate(timeout=120)
    wait_for_exit(daemon, 60)
    return Result(slow.returncode, out, err), daemon
