"""The per-workspace daemon process, run as `python -m refbrowse.daemon`.

Started by the CLI's cold path (`launcher`) in its own session, with
`BROWSE_STATE_DIR` naming the workspace's state directory. Playwright's node
driver is started before this module is imported (see `driver.spawn_first`).
It takes `daemon.lock` for its whole life (that lock, not `/health`, is how
CLIs know it is alive), imports asyncio and Playwright, then starts Chromium,
and imports the server (aiohttp and the command handlers, a few hundred ms)
in a thread while the browser launches, so that they all overlap on a cold
start.
"""

from __future__ import annotations

import fcntl
import importlib
import json
import logging
import os
import signal
import sys
import time
from typing import IO, TYPE_CHECKING

from refbrowse.daemon.core.browser import driver
from refbrowse.daemon.core.runtime import logcap, trace
from refbrowse.errors import BrowseError
from refbrowse.exitcodes import ExitCode
from refbrowse.protocol import (
    DAEMON_LOG,
    LIFE_LOCK,
    SECRET_ENV,
    config_hash,
    ensure_state_dir,
    open_state_file,
)

if TYPE_CHECKING:
    import asyncio
    import subprocess

    from refbrowse.daemon.core.browser.host import BrowserHost

log = logging.getLogger("refbrowse")


def take_life_lock(state_dir: str) -> IO[str] | None:
    """The lock held for the daemon's life; None if another daemon holds it."""
    lock = os.fdopen(open_state_file(state_dir, LIFE_LOCK, os.O_RDWR), "r+")  # held for life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    # Who holds the lock, so that a CLI can still reach this daemon when
    # daemon.json is lost or corrupt (see `launcher.ask_to_rewrite`).
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock


async def _start_browser(host: BrowserHost) -> None:
    began = time.monotonic()
    await host.start()
    log.info("browser %s ready in %d ms", host.version, (time.monotonic() - began) * 1000)


async def serve(state_dir: str, lock: IO[str], early_driver: subprocess.Popen[bytes] | None) -> int:
    import asyncio

    from refbrowse.daemon.core.browser.host import BrowserHost  # Playwright: imported while the driver loads

    trace.start_step("Playwright imported")
    host = BrowserHost(on_crash=lambda: None, state_dir=state_dir)
    host.early_driver = early_driver
    config = config_hash()  # before the browser starts: see `launch.without_secrets`
    browser_ready: asyncio.Task[None] = asyncio.create_task(_start_browser(host))
    server = await asyncio.to_thread(importlib.import_module, "refbrowse.daemon.server")
    trace.start_step("server imported")
    daemon = server.Daemon(state_dir, host, browser_ready)
    daemon.config = config
    code: int = await daemon.run()
    lock.close()
    return code


def _take_secrets() -> None:
    """Read the launch settings that carry credentials from stdin (see `protocol.SECRET_ENV`).

    They join this process's `os.environ`, which /proc does not show (it shows
    the environment the process started with), and are withheld from the
    driver and the browser when they start (`launch.without_secrets`).
    """
    if sys.stdin is None or sys.stdin.isatty():
        return
    text = sys.stdin.read(65536).strip()
    if not text:
        return
    try:
        given = json.loads(text)
    except ValueError:
        log.warning("the launch settings on stdin are not JSON; ignored")
        return
    if isinstance(given, dict):
        os.environ.update({k: v for k, v in given.items() if k in SECRET_ENV and isinstance(v, str)})


def main(early_driver: subprocess.Popen[bytes] | None = None) -> int:
    """The daemon's life; `early_driver` is Playwright's node driver if it was started already."""
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    claimed = _claim_workspace()
    if isinstance(claimed, int):
        driver.end(early_driver)  # no daemon runs here: the driver started for it goes too
        return claimed
    state_dir, lock = claimed
    if early_driver is None:
        driver.use_node_compile_cache()
        early_driver = driver.spawn()  # the secret settings are kept from its environment
    trace.start_step("lock taken, driver started")
    import asyncio  # ~40 ms: after the driver has started, so that node loads meanwhile

    return asyncio.run(serve(state_dir, lock, early_driver))


def _claim_workspace() -> tuple[str, IO[str]] | int:
    """The state directory and its life lock, taken; or the exit code when this daemon must not run."""
    state_dir = os.environ.get("BROWSE_STATE_DIR")
    if not state_dir:
        print("refbrowse.daemon is started by the `browse` command", file=sys.stderr)
        return ExitCode.USAGE
    # SIGUSR1 asks a running daemon to write daemon.json again; until the server
    # handles it, it must not end the process (its default).
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    _take_secrets()
    logcap.install(os.path.join(state_dir, DAEMON_LOG))
    try:
        ensure_state_dir(state_dir)
    except BrowseError as exc:
        log.error("%s (%s)", exc.message, exc.hint)
        return ExitCode.UNAVAILABLE
    lock = take_life_lock(state_dir)
    if lock is None:
        log.info("another daemon holds this workspace's lock; exiting")
        return ExitCode.OK
    return state_dir, lock
