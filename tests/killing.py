"""Killing the daemon's processes mid-command, reusable by other suites.

`kill_mid_command` starts a command that waits on a held page, SIGKILLs one of
the three processes behind a workspace (the daemon, Playwright's node driver,
Chromium) while the page is held, and returns what the interrupted command
printed. The callers then check that the next command works and that the login
survived.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from conftest import Result, Site, Workspace, _descendants, browser_pid

TARGETS = ("daemon", "driver", "chromium")


@dataclass
class HeldPage:
    """A page whose answer waits until `released`: a command that loads it is surely in flight
    once `asked` is set, without guessing how long the browser takes to ask."""

    url: str
    asked: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)


def held_route(site: Site, path: str) -> HeldPage:
    held = HeldPage(site.url(path))

    def reply(handler: object) -> None:
        held.asked.set()
        held.released.wait(60)
        with suppress(BrokenPipeError, ConnectionResetError):  # the browser that asked was killed
            handler.reply("<title>slow</title><p>finally</p>")  # type: ignore[attr-defined]

    site.route(path, reply)
    return held


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


def kill_mid_command(ws: Workspace, target: str, held: HeldPage) -> tuple[Result, int]:
    """SIGKILL `target` while `goto` waits on `held`; return that command's result and the daemon pid.

    The page is let go once the victim is dead, so the command sent again to a fresh daemon
    loads it at once. A killed daemon is waited for; a daemon whose driver or Chromium was
    killed restarts them and lives on."""
    daemon = int(str(ws.daemon_info()["pid"]))
    victim = target_pid(ws, target)
    held.asked.clear()
    held.released.clear()
    slow = ws.start("goto", held.url)
    assert held.asked.wait(60), "the goto never asked for the page"
    os.kill(victim, signal.SIGKILL)
    wait_for_exit(victim)
    held.released.set()
    out, err = slow.communicate(timeout=120)
    if target == "daemon":
        wait_for_exit(daemon, 60)
    return Result(slow.returncode, out, err), daemon
