"""Playwright's node driver, started before the daemon imports asyncio and Playwright.

On a cold start the driver (node loading Playwright's server, ~300 ms) comes
before Chromium can launch, and the daemon's imports of asyncio (~40 ms),
Playwright's Python side and the session module (~70 ms) came before the
driver. `spawn_first` runs the driver first thing, before the daemon imports
even its bootstrap (json, logging: ~20 ms), so that node loads while Python
imports, and `adopted` hands that process to Playwright's transport when
`BrowserHost.start` starts Playwright, in place of the one it would spawn.
This module imports neither asyncio nor Playwright at load: that is the point.

Private to the pinned Playwright version, like `BrowserHost._watch_driver`:
`PipeTransport.connect` spawns `node cli.js run-driver` with the environment
of `_driver.get_driver_env` and keeps the process in `_proc` (of which it uses
`stdin`, `stdout`, `pid` and `communicate()`), its stdin in `_output`. If the
driver cannot be found or started here, Playwright starts its own as before.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from refbrowse.protocol import SECRET_ENV

TYPE_CHECKING = False  # not `typing`'s: importing typing costs the start ~5 ms before the driver runs
if TYPE_CHECKING:
    import asyncio

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


def use_node_compile_cache() -> None:
    """Let the driver keep its compiled code between starts.

    Loading the driver is the largest step of a cold start (~500 ms); with
    Node's compile cache it is ~200 ms shorter from the second start on. The
    cache is per user, so every workspace shares it; Node ignores a cache
    directory it cannot write.
    """
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    os.environ.setdefault("NODE_COMPILE_CACHE", os.path.join(cache_home, "refbrowse", "node-compile-cache"))


def spawn_first() -> subprocess.Popen[bytes] | None:
    """The driver, started as the daemon's very first step (see `refbrowse.daemon.__main__`).

    Before the daemon reads its secret settings from stdin, so the driver's
    environment cannot hold them (and `environment` leaves them out anyway);
    before it takes the workspace's lock, so a daemon that finds the lock taken
    ends this driver (`end`).
    """
    if not os.environ.get("BROWSE_STATE_DIR"):
        return None
    use_node_compile_cache()
    return spawn()


def end(popen: subprocess.Popen[bytes] | None) -> None:
    """A driver started for a daemon that is not going to run."""
    if popen is not None and popen.poll() is None:
        popen.kill()
        popen.wait()


def spawn() -> subprocess.Popen[bytes] | None:
    """The driver, running; None if it cannot be started here (Playwright then starts its own)."""
    found = command()
    if found is None:
        return None
    try:
        return subprocess.Popen(  # noqa: S603 - Playwright's own node and cli.js, found above
            found, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment(), bufsize=0
        )
    except (OSError, ValueError):
        return None


class _Driver:
    """The spawned driver as the transport uses an `asyncio.subprocess.Process`."""

    def __init__(
        self, popen: subprocess.Popen[bytes], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ):
        self._popen = popen
        self.pid = popen.pid
        self.stdout = reader
        self.stdin = writer

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()

    async def communicate(self) -> tuple[bytes, None]:
        """The rest of its output once it has exited (waited for in a thread: asyncio did not spawn it)."""
        import asyncio

        rest = await self.stdout.read()
        await asyncio.to_thread(self._popen.wait)
        return rest, None


async def _as_asyncio(popen: subprocess.Popen[bytes]) -> _Driver:
    import asyncio
    from asyncio.streams import FlowControlMixin

    assert popen.stdin is not None and popen.stdout is not None
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=READ_LIMIT, loop=loop)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), popen.stdout)
    transport, protocol = await loop.connect_write_pipe(lambda: FlowControlMixin(loop=loop), popen.stdin)
    return _Driver(popen, reader, asyncio.StreamWriter(transport, protocol, reader, loop))


@contextmanager
def adopted(popen: subprocess.Popen[bytes] | None) -> Iterator[None]:
    """While Playwright starts, its transport takes `popen` instead of spawning a driver."""
    if popen is None or popen.poll() is not None:
        yield
        return
    import asyncio

    from playwright._impl.transport import PipeTransport

    spawn_own = PipeTransport.connect

    async def connect(transport: PipeTransport) -> None:
        transport._stopped_future = asyncio.get_running_loop().create_future()
        transport._proc = await _as_asyncio(popen)  # type: ignore[assignment] # a private field: see above
        transport._output = transport._proc.stdin

    setattr(PipeTransport, "connect", connect)  # noqa: B010 - a method swapped for one call
    try:
        yield
    finally:
        setattr(PipeTransport, "connect", spawn_own)  # noqa: B010
