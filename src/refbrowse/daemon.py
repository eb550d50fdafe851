"""The per-workspace daemon process: `python -m refbrowse.daemon`.

Started by the CLI's cold path (`launcher`) in its own session, with
`BROWSE_STATE_DIR` naming the workspace's state directory. It takes
`daemon.lock` for its whole life (that lock, not `/health`, is how CLIs know
it is alive), starts Chromium at once, and imports the server (aiohttp and the
command handlers, a few hundred ms) in a thread while the browser launches, so
the two overlap on a cold start.
"""

from __future__ import annotations

import asyncio
import fcntl
import importlib
import logging
import os
import sys
import time
from typing import IO

from refbrowse.session import BrowserHost
from refbrowse.workspace import ensure_state_dir

log = logging.getLogger("refbrowse")


def take_life_lock(state_dir: str) -> IO[str] | None:
    """The lock held for the daemon's life; None if another daemon holds it."""
    lock = open(os.path.join(state_dir, "daemon.lock"), "a")  # noqa: SIM115 - held for life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def _use_node_compile_cache() -> None:
    """Let Playwright's node driver keep its compiled code between starts.

    Loading the driver is the largest step of a cold start (~500 ms); with
    Node's compile cache it is ~200 ms shorter from the second start on. The
    cache is per user, so every workspace shares it; Node ignores a cache
    directory it cannot write.
    """
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    os.environ.setdefault("NODE_COMPILE_CACHE", os.path.join(cache_home, "refbrowse", "node-compile-cache"))


async def _start_browser(host: BrowserHost) -> None:
    began = time.monotonic()
    await host.start()
    log.info("browser %s ready in %d ms", host.version, (time.monotonic() - began) * 1000)


async def serve(state_dir: str) -> int:
    lock = take_life_lock(state_dir)
    if lock is None:
        log.info("another daemon holds this workspace's lock; exiting")
        return 0
    _use_node_compile_cache()
    host = BrowserHost(on_crash=lambda: None)
    browser_ready = asyncio.create_task(_start_browser(host))
    server = await asyncio.to_thread(importlib.import_module, "refbrowse.server")
    daemon = server.Daemon(state_dir, host, browser_ready)
    code: int = await daemon.run()
    lock.close()
    return code


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    state_dir = os.environ.get("BROWSE_STATE_DIR")
    if not state_dir:
        print("refbrowse.daemon is started by the `browse` command", file=sys.stderr)
        return 2
    ensure_state_dir(state_dir)
    return asyncio.run(serve(state_dir))


if __name__ == "__main__":
    raise SystemExit(main())
