"""Whether the browser can take a command yet: started, its driver alive, any revival over.

The server builds one with what it knows (the start task, the reviver, how to
stop) and hands it down to dispatch, which waits on it before a command that
needs the browser: nothing below the server asks the server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.driverstate import stopped, stopped_error
from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.browser.revive import Reviver
from refbrowse.daemon.reaper import exited
from refbrowse.errors import BrowseError, Unavailable


class BrowserReadiness:
    def __init__(
        self,
        host: BrowserHost,
        reviver: Reviver,
        started: asyncio.Task[None],
        stop: Callable[[], None],
        log_path: str,
    ) -> None:
        self._host, self._reviver, self._started = host, reviver, started
        self._stop, self._log_path = stop, log_path

    async def wait(self) -> None:
        """Wait until the browser has started and any revival is over; raise `Unavailable` if it cannot."""
        if stopped(self._host.driver_pid):  # every command would wait on it for its whole timeout
            raise stopped_error(self._host.driver_pid)
        try:
            await asyncio.shield(self._started)
            if self._host.driver_pid and exited(self._host.driver_pid):
                await self._host.lost(1.0)  # its pipe's end is on its way: restart before going on
            await self._reviver.settled()
        except BrowseError:
            self._stop()  # the next command starts afresh, after the user fixes the cause
            raise
        except PlaywrightError as exc:
            self._stop()
            raise Unavailable(f"the browser did not start: {exc.message}", f"see {self._log_path}") from exc
