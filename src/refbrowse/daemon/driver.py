"""Playwright's node driver, started before the daemon imports Playwright.

On a cold start the driver (node loading Playwright's server, ~300 ms) comes
before Chromium can launch, and the daemon's imports of Playwright's Python
side and of the session module (~90 ms) came before the driver. `start` runs
the driver first thing, so that node loads while Python imports, and `adopted`
hands that process to Playwright's transport when `BrowserHost.start` starts
Playwright, in place of the one the transport would spawn.

Private to the pinned Playwright version, like `BrowserHost._watch_driver`:
`PipeTransport.connect` spawns `node cli.js run-driver` with the environment
of `_driver.get_driver_env` and keeps the process in `_proc`, its stdin in
`_output`. If the driver cannot be found or started here, Playwright starts
its own as before.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from refbrowse.protocol import SECRET_ENV

log = logging.getLogger("refbrowse")

READ_LIMIT = 32768  # the transport's own stream limit


def command() -> list[str] | None:
    """`node cli.js run-driver` of the installed Playwright, found without importing it."""
    spec = importlib.util.find_spec("playwright")
    if spec is None or not spec.submodule_search_locations:
        return None
    driver = os.path.join(next(iter(spec.submodule_search_locations)), "driver")
    node = os.environ.get("PLAYWRIGHT_NODEJS_PATH") or os.path.join(driver, "node")
    cli = os.path.join(driver, "package", "cli.js")
    return [node, cli, "run-driver"] if os.path.isfile(node) and os.path.isfile(cli) else None


def environment() -> dict[str, str]:
    """What Playwright gives its driver, without the settings that carry credentials."""
    from playwright._repo_version import version  # a constant: importing it loads nothing else

    env = {k: v for k, v in os.environ.items() if k not in SECRET_ENV}
    env["PW_LANG_NAME"] = "python"
    env["PW_LANG_NAME_VERSION"] = f"{sys.version_info.major}.{sys.version_info.minor}"
    env["PW_CLI_DISPLAY_VERSION"] = version
    return env


async def start() -> asyncio.subprocess.Process | None:
    """The driver, running; None if it cannot be started here (Playwright then starts its own)."""
    found = command()
    if found is None:
        return None
    try:
        return await asyncio.create_subprocess_exec(
            *found,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=sys.stderr.fileno() if sys.stderr is not None else None,
            limit=READ_LIMIT,
            env=environment(),
        )
    except (OSError, ValueError) as exc:
        log.info("the driver did not start early (%s); Playwright starts it", exc)
        return None


@contextmanager
def adopted(process: asyncio.subprocess.Process | None) -> Iterator[None]:
    """While Playwright starts, its transport takes `process` instead of spawning a driver."""
    if process is None or process.returncode is not None:
        yield
        return
    from playwright._impl.transport import PipeTransport

    spawn = PipeTransport.connect

    async def connect(transport: PipeTransport) -> None:
        transport._stopped_future = asyncio.get_running_loop().create_future()
        transport._proc = process
        transport._output = process.stdin

    setattr(PipeTransport, "connect", connect)  # noqa: B010 - a method swapped for one call
    try:
        yield
    finally:
        setattr(PipeTransport, "connect", spawn)  # noqa: B010
